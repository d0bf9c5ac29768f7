//! The fields a goal path can reach: the apps/v1 Deployment, ReplicaSet, StatefulSet and
//! DaemonSet, the policy/v1 PodDisruptionBudget and the autoscaling/v2
//! HorizontalPodAutoscaler as the demo stores them (k8s.io/api types.go, Kubernetes
//! 1.32). `check` rejects a path
//! that leaves them, so a misspelt field is an error with a suggestion, not a challenge
//! that silently never ticks.

use std::ops::Range;

use super::{GoalError, Root, Step, err};

/// One level of an object's shape.
#[derive(Debug, Clone, Copy)]
pub enum Shape {
    /// A value with no fields a goal can step into (a number, a string, a list).
    Leaf,
    /// A string map: any key (labels, annotations, matchLabels, nodeSelector).
    Map,
    /// Known fields.
    Fields(&'static [(&'static str, Shape)]),
    /// A list of conditions, picked by type: `conditions[Available]`.
    Conditions(&'static [(&'static str, Shape)]),
    /// A value the demo keeps whole, whose inside goals may read freely (a container's
    /// securityContext, resources).
    Open,
}

use Shape::{Conditions, Fields, Leaf, Map, Open};

const METADATA: Shape = Fields(&[
    ("name", Leaf),
    ("generateName", Leaf),
    ("namespace", Leaf),
    ("uid", Leaf),
    ("resourceVersion", Leaf),
    ("generation", Leaf),
    ("creationTimestamp", Leaf),
    ("deletionTimestamp", Leaf),
    ("deletionGracePeriodSeconds", Leaf),
    ("labels", Map),
    ("annotations", Map),
    ("ownerReferences", Leaf),
    ("finalizers", Leaf),
    ("managedFields", Leaf),
]);

const TEMPLATE_METADATA: Shape = Fields(&[
    ("name", Leaf),
    ("labels", Map),
    ("annotations", Map),
    ("finalizers", Leaf),
    ("creationTimestamp", Leaf),
]);

const SELECTOR: Shape = Fields(&[("matchLabels", Map), ("matchExpressions", Leaf)]);

/// core/v1 PodSpec: its top-level fields (lists such as containers are leaves here:
/// a goal path cannot pick a list item by position).
const POD_SPEC: Shape = Fields(&[
    ("containers", Leaf),
    ("initContainers", Leaf),
    ("ephemeralContainers", Leaf),
    ("volumes", Leaf),
    ("restartPolicy", Leaf),
    ("terminationGracePeriodSeconds", Leaf),
    ("activeDeadlineSeconds", Leaf),
    ("dnsPolicy", Leaf),
    ("dnsConfig", Open),
    ("nodeSelector", Map),
    ("nodeName", Leaf),
    ("serviceAccountName", Leaf),
    ("serviceAccount", Leaf),
    ("automountServiceAccountToken", Leaf),
    ("hostNetwork", Leaf),
    ("hostPID", Leaf),
    ("hostIPC", Leaf),
    ("shareProcessNamespace", Leaf),
    ("securityContext", Open),
    ("imagePullSecrets", Leaf),
    ("hostname", Leaf),
    ("subdomain", Leaf),
    ("affinity", Open),
    ("schedulerName", Leaf),
    ("tolerations", Leaf),
    ("hostAliases", Leaf),
    ("priorityClassName", Leaf),
    ("priority", Leaf),
    ("readinessGates", Leaf),
    ("runtimeClassName", Leaf),
    ("enableServiceLinks", Leaf),
    ("preemptionPolicy", Leaf),
    ("overhead", Open),
    ("topologySpreadConstraints", Leaf),
    ("setHostnameAsFQDN", Leaf),
    ("os", Open),
    ("hostUsers", Leaf),
    ("schedulingGates", Leaf),
    ("resourceClaims", Leaf),
]);

const TEMPLATE: Shape = Fields(&[("metadata", TEMPLATE_METADATA), ("spec", POD_SPEC)]);

const DEPLOYMENT_CONDITION: &[(&str, Shape)] = &[
    ("type", Leaf),
    ("status", Leaf),
    ("reason", Leaf),
    ("message", Leaf),
    ("lastUpdateTime", Leaf),
    ("lastTransitionTime", Leaf),
];

const REPLICASET_CONDITION: &[(&str, Shape)] = &[
    ("type", Leaf),
    ("status", Leaf),
    ("reason", Leaf),
    ("message", Leaf),
    ("lastTransitionTime", Leaf),
];

const DEPLOYMENT: Shape = Fields(&[
    ("apiVersion", Leaf),
    ("kind", Leaf),
    ("metadata", METADATA),
    (
        "spec",
        Fields(&[
            ("replicas", Leaf),
            ("selector", SELECTOR),
            ("template", TEMPLATE),
            (
                "strategy",
                Fields(&[
                    ("type", Leaf),
                    (
                        "rollingUpdate",
                        Fields(&[("maxSurge", Leaf), ("maxUnavailable", Leaf)]),
                    ),
                ]),
            ),
            ("minReadySeconds", Leaf),
            ("revisionHistoryLimit", Leaf),
            ("paused", Leaf),
            ("progressDeadlineSeconds", Leaf),
        ]),
    ),
    (
        "status",
        Fields(&[
            ("observedGeneration", Leaf),
            ("replicas", Leaf),
            ("updatedReplicas", Leaf),
            ("readyReplicas", Leaf),
            ("availableReplicas", Leaf),
            ("unavailableReplicas", Leaf),
            ("conditions", Conditions(DEPLOYMENT_CONDITION)),
            ("collisionCount", Leaf),
        ]),
    ),
]);

const REPLICASET: Shape = Fields(&[
    ("apiVersion", Leaf),
    ("kind", Leaf),
    ("metadata", METADATA),
    (
        "spec",
        Fields(&[
            ("replicas", Leaf),
            ("minReadySeconds", Leaf),
            ("selector", SELECTOR),
            ("template", TEMPLATE),
        ]),
    ),
    (
        "status",
        Fields(&[
            ("replicas", Leaf),
            ("fullyLabeledReplicas", Leaf),
            ("readyReplicas", Leaf),
            ("availableReplicas", Leaf),
            ("observedGeneration", Leaf),
            ("conditions", Conditions(REPLICASET_CONDITION)),
        ]),
    ),
]);

/// policy/v1 PodDisruptionBudget.
const PDB: Shape = Fields(&[
    ("apiVersion", Leaf),
    ("kind", Leaf),
    ("metadata", METADATA),
    (
        "spec",
        Fields(&[
            ("minAvailable", Leaf),
            ("maxUnavailable", Leaf),
            ("selector", SELECTOR),
            ("unhealthyPodEvictionPolicy", Leaf),
        ]),
    ),
    (
        "status",
        Fields(&[
            ("observedGeneration", Leaf),
            ("disruptedPods", Map),
            ("disruptionsAllowed", Leaf),
            ("currentHealthy", Leaf),
            ("desiredHealthy", Leaf),
            ("expectedPods", Leaf),
            (
                "conditions",
                Conditions(&[
                    ("type", Leaf),
                    ("status", Leaf),
                    ("observedGeneration", Leaf),
                    ("lastTransitionTime", Leaf),
                    ("reason", Leaf),
                    ("message", Leaf),
                ]),
            ),
        ]),
    ),
]);

/// apps/v1 StatefulSet (claim templates are a list: a leaf).
const STATEFULSET: Shape = Fields(&[
    ("apiVersion", Leaf),
    ("kind", Leaf),
    ("metadata", METADATA),
    (
        "spec",
        Fields(&[
            ("replicas", Leaf),
            ("selector", SELECTOR),
            ("template", TEMPLATE),
            ("volumeClaimTemplates", Leaf),
            ("serviceName", Leaf),
            ("podManagementPolicy", Leaf),
            (
                "updateStrategy",
                Fields(&[
                    ("type", Leaf),
                    (
                        "rollingUpdate",
                        Fields(&[("partition", Leaf), ("maxUnavailable", Leaf)]),
                    ),
                ]),
            ),
            ("revisionHistoryLimit", Leaf),
            ("minReadySeconds", Leaf),
            (
                "persistentVolumeClaimRetentionPolicy",
                Fields(&[("whenDeleted", Leaf), ("whenScaled", Leaf)]),
            ),
            ("ordinals", Fields(&[("start", Leaf)])),
        ]),
    ),
    (
        "status",
        Fields(&[
            ("observedGeneration", Leaf),
            ("replicas", Leaf),
            ("readyReplicas", Leaf),
            ("currentReplicas", Leaf),
            ("updatedReplicas", Leaf),
            ("currentRevision", Leaf),
            ("updateRevision", Leaf),
            ("collisionCount", Leaf),
            ("availableReplicas", Leaf),
            (
                "conditions",
                Conditions(&[
                    ("type", Leaf),
                    ("status", Leaf),
                    ("lastTransitionTime", Leaf),
                    ("reason", Leaf),
                    ("message", Leaf),
                ]),
            ),
        ]),
    ),
]);

/// apps/v1 DaemonSet.
const DAEMONSET: Shape = Fields(&[
    ("apiVersion", Leaf),
    ("kind", Leaf),
    ("metadata", METADATA),
    (
        "spec",
        Fields(&[
            ("selector", SELECTOR),
            ("template", TEMPLATE),
            (
                "updateStrategy",
                Fields(&[
                    ("type", Leaf),
                    (
                        "rollingUpdate",
                        Fields(&[("maxUnavailable", Leaf), ("maxSurge", Leaf)]),
                    ),
                ]),
            ),
            ("minReadySeconds", Leaf),
            ("revisionHistoryLimit", Leaf),
        ]),
    ),
    (
        "status",
        Fields(&[
            ("currentNumberScheduled", Leaf),
            ("numberMisscheduled", Leaf),
            ("desiredNumberScheduled", Leaf),
            ("numberReady", Leaf),
            ("observedGeneration", Leaf),
            ("updatedNumberScheduled", Leaf),
            ("numberAvailable", Leaf),
            ("numberUnavailable", Leaf),
            ("collisionCount", Leaf),
            (
                "conditions",
                Conditions(&[
                    ("type", Leaf),
                    ("status", Leaf),
                    ("lastTransitionTime", Leaf),
                    ("reason", Leaf),
                    ("message", Leaf),
                ]),
            ),
        ]),
    ),
]);

const SCALING_RULES: Shape = Fields(&[
    ("stabilizationWindowSeconds", Leaf),
    ("selectPolicy", Leaf),
    ("policies", Leaf),
]);

/// autoscaling/v2 HorizontalPodAutoscaler (metrics are leaves: a path cannot pick one).
const HPA: Shape = Fields(&[
    ("apiVersion", Leaf),
    ("kind", Leaf),
    ("metadata", METADATA),
    (
        "spec",
        Fields(&[
            (
                "scaleTargetRef",
                Fields(&[("apiVersion", Leaf), ("kind", Leaf), ("name", Leaf)]),
            ),
            ("minReplicas", Leaf),
            ("maxReplicas", Leaf),
            ("metrics", Leaf),
            (
                "behavior",
                Fields(&[("scaleUp", SCALING_RULES), ("scaleDown", SCALING_RULES)]),
            ),
        ]),
    ),
    (
        "status",
        Fields(&[
            ("observedGeneration", Leaf),
            ("lastScaleTime", Leaf),
            ("currentReplicas", Leaf),
            ("desiredReplicas", Leaf),
            ("currentMetrics", Leaf),
            (
                "conditions",
                Conditions(&[
                    ("type", Leaf),
                    ("status", Leaf),
                    ("lastTransitionTime", Leaf),
                    ("reason", Leaf),
                    ("message", Leaf),
                ]),
            ),
        ]),
    ),
]);

fn shape(root: Root) -> Shape {
    match root {
        Root::Deploy => DEPLOYMENT,
        Root::Rs | Root::NewRs | Root::OldRs => REPLICASET,
        Root::Pdb => PDB,
        Root::Sts => STATEFULSET,
        Root::Ds => DAEMONSET,
        Root::Hpa => HPA,
        // A custom object's fields are its CRD's, which can change while the demo runs.
        Root::WebApp | Root::Crd => Open,
    }
}

/// Checks each step of a path against its root's shape; `steps` carry their spans in the
/// goal text and `root` its name, for the message.
pub fn check(root: Root, name: &str, steps: &[(Step, Range<usize>)]) -> Result<(), GoalError> {
    let mut cur = shape(root);
    let mut at = name.to_string();
    for (step, span) in steps {
        let next = match (cur, step) {
            (Open, _) => return Ok(()),
            (Map, Step::Field(_)) => Leaf,
            (Fields(fields), Step::Field(f)) => match fields.iter().find(|(n, _)| n == f) {
                Some((_, s)) => *s,
                None => return Err(unknown(&at, f, fields, span)),
            },
            (Conditions(_), Step::Field(f)) => {
                return Err(GoalError {
                    help: Some(format!("for example `{at}[Available].status`")),
                    ..err(
                        span.clone(),
                        format!("`{at}` is a list of conditions: pick one by its type, not `.{f}`"),
                    )
                });
            }
            (Conditions(fields), Step::ByType(_)) => Fields(fields),
            (Leaf | Map, _) => {
                return Err(err(
                    span.clone(),
                    format!("`{at}` is a single value: it has no fields to step into"),
                ));
            }
            (Fields(_), Step::ByType(t)) => {
                return Err(GoalError {
                    help: Some("`[Type]` picks a condition: `status.conditions[Available]`".into()),
                    ..err(
                        span.clone(),
                        format!("`{at}` is not a list of conditions; `[{t}]` picks nothing"),
                    )
                });
            }
        };
        match step {
            Step::Field(f) if f.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
                at = format!("{at}.{f}")
            }
            Step::Field(f) => at = format!("{at}[{f:?}]"),
            Step::ByType(t) => at = format!("{at}[{t}]"),
        }
        cur = next;
    }
    Ok(())
}

fn unknown(at: &str, field: &str, fields: &[(&str, Shape)], span: &Range<usize>) -> GoalError {
    let near = fields
        .iter()
        .map(|(n, _)| {
            (
                strsim::jaro_winkler(&field.to_lowercase(), &n.to_lowercase()),
                *n,
            )
        })
        .filter(|(s, _)| *s > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0));
    GoalError {
        help: Some(match near {
            Some((_, n)) => format!("did you mean `{at}.{n}`?"),
            None => format!(
                "the fields of `{at}` are {}",
                fields
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
        ..err(span.clone(), format!("`{at}` has no field `{field}`"))
    }
}
