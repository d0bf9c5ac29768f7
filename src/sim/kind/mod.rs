//! The resource kinds the demo serves, and their names in every spelling kubectl uses.

mod custom;
pub use custom::{CustomKind, MAX_DEFINITIONS, Names};

/// The resource kinds the demo serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Deployment,
    ReplicaSet,
    Pod,
    Event,
    Node,
    Lease,
    PodDisruptionBudget,
    Service,
    Endpoints,
    EndpointSlice,
    StatefulSet,
    ControllerRevision,
    PersistentVolumeClaim,
    DaemonSet,
    Job,
    CronJob,
    HorizontalPodAutoscaler,
    MutatingWebhookConfiguration,
    ValidatingWebhookConfiguration,
    ValidatingAdmissionPolicy,
    ValidatingAdmissionPolicyBinding,
    CustomResourceDefinition,
    /// A kind a CustomResourceDefinition serves.
    Custom(CustomKind),
}

impl Kind {
    /// The built-in kinds (custom kinds come and go with their definitions).
    pub const ALL: [Kind; 22] = [
        Kind::Deployment,
        Kind::ReplicaSet,
        Kind::Pod,
        Kind::Event,
        Kind::Node,
        Kind::Lease,
        Kind::PodDisruptionBudget,
        Kind::Service,
        Kind::Endpoints,
        Kind::EndpointSlice,
        Kind::StatefulSet,
        Kind::ControllerRevision,
        Kind::PersistentVolumeClaim,
        Kind::DaemonSet,
        Kind::Job,
        Kind::CronJob,
        Kind::HorizontalPodAutoscaler,
        Kind::MutatingWebhookConfiguration,
        Kind::ValidatingWebhookConfiguration,
        Kind::ValidatingAdmissionPolicy,
        Kind::ValidatingAdmissionPolicyBinding,
        Kind::CustomResourceDefinition,
    ];

    /// Resolves what a user may type: short names, singular, plural, with group.
    pub fn parse(s: &str) -> Option<Kind> {
        let lower = s.to_ascii_lowercase();
        let base = lower
            .strip_suffix(".apps")
            .or_else(|| lower.strip_suffix(".apps/v1"))
            .or_else(|| lower.strip_suffix(".batch"))
            .or_else(|| lower.strip_suffix(".batch/v1"))
            .or_else(|| lower.strip_suffix(".autoscaling"))
            .or_else(|| lower.strip_suffix(".autoscaling/v2"))
            .or_else(|| lower.strip_suffix(".admissionregistration.k8s.io"))
            .or_else(|| lower.strip_suffix(".admissionregistration.k8s.io/v1"))
            .or_else(|| lower.strip_suffix(".apiextensions.k8s.io"))
            .or_else(|| lower.strip_suffix(".apiextensions.k8s.io/v1"))
            .unwrap_or(&lower);
        match base {
            "deploy" | "deployment" | "deployments" => Some(Kind::Deployment),
            "rs" | "replicaset" | "replicasets" => Some(Kind::ReplicaSet),
            "po" | "pod" | "pods" => Some(Kind::Pod),
            "ev" | "event" | "events" => Some(Kind::Event),
            "no" | "node" | "nodes" => Some(Kind::Node),
            "lease" | "leases" | "lease.coordination.k8s.io" | "leases.coordination.k8s.io" => {
                Some(Kind::Lease)
            }
            "pdb"
            | "pdbs"
            | "poddisruptionbudget"
            | "poddisruptionbudgets"
            | "poddisruptionbudget.policy"
            | "poddisruptionbudgets.policy"
            | "poddisruptionbudgets.policy/v1" => Some(Kind::PodDisruptionBudget),
            "svc" | "service" | "services" => Some(Kind::Service),
            "ep" | "endpoints" => Some(Kind::Endpoints),
            "endpointslice"
            | "endpointslices"
            | "endpointslice.discovery.k8s.io"
            | "endpointslices.discovery.k8s.io"
            | "endpointslices.discovery.k8s.io/v1" => Some(Kind::EndpointSlice),
            "sts" | "statefulset" | "statefulsets" => Some(Kind::StatefulSet),
            "ds" | "daemonset" | "daemonsets" => Some(Kind::DaemonSet),
            "controllerrevision" | "controllerrevisions" => Some(Kind::ControllerRevision),
            "pvc" | "persistentvolumeclaim" | "persistentvolumeclaims" => {
                Some(Kind::PersistentVolumeClaim)
            }
            "job" | "jobs" => Some(Kind::Job),
            "cj" | "cronjob" | "cronjobs" => Some(Kind::CronJob),
            "hpa" | "horizontalpodautoscaler" | "horizontalpodautoscalers" => {
                Some(Kind::HorizontalPodAutoscaler)
            }
            // Neither has a short name.
            "mutatingwebhookconfiguration" | "mutatingwebhookconfigurations" => {
                Some(Kind::MutatingWebhookConfiguration)
            }
            "validatingwebhookconfiguration" | "validatingwebhookconfigurations" => {
                Some(Kind::ValidatingWebhookConfiguration)
            }
            "validatingadmissionpolicy" | "validatingadmissionpolicies" => {
                Some(Kind::ValidatingAdmissionPolicy)
            }
            "validatingadmissionpolicybinding" | "validatingadmissionpolicybindings" => {
                Some(Kind::ValidatingAdmissionPolicyBinding)
            }
            "crd" | "crds" | "customresourcedefinition" | "customresourcedefinitions" => {
                Some(Kind::CustomResourceDefinition)
            }
            _ => None,
        }
    }

    /// The resource as the API names it in errors: `deployments.apps`, `pods`.
    pub fn group_resource(self) -> &'static str {
        match self {
            Kind::Deployment => "deployments.apps",
            Kind::ReplicaSet => "replicasets.apps",
            Kind::Pod => "pods",
            Kind::Event => "events",
            Kind::Node => "nodes",
            Kind::Lease => "leases.coordination.k8s.io",
            Kind::PodDisruptionBudget => "poddisruptionbudgets.policy",
            Kind::Service => "services",
            Kind::Endpoints => "endpoints",
            Kind::EndpointSlice => "endpointslices.discovery.k8s.io",
            Kind::StatefulSet => "statefulsets.apps",
            Kind::ControllerRevision => "controllerrevisions.apps",
            Kind::PersistentVolumeClaim => "persistentvolumeclaims",
            Kind::DaemonSet => "daemonsets.apps",
            Kind::Job => "jobs.batch",
            Kind::CronJob => "cronjobs.batch",
            Kind::HorizontalPodAutoscaler => "horizontalpodautoscalers.autoscaling",
            Kind::MutatingWebhookConfiguration => {
                "mutatingwebhookconfigurations.admissionregistration.k8s.io"
            }
            Kind::ValidatingWebhookConfiguration => {
                "validatingwebhookconfigurations.admissionregistration.k8s.io"
            }
            Kind::ValidatingAdmissionPolicy => {
                "validatingadmissionpolicies.admissionregistration.k8s.io"
            }
            Kind::ValidatingAdmissionPolicyBinding => {
                "validatingadmissionpolicybindings.admissionregistration.k8s.io"
            }
            Kind::CustomResourceDefinition => "customresourcedefinitions.apiextensions.k8s.io",
            Kind::Custom(c) => &c.interned().group_resource,
        }
    }

    /// `Kind[.group]`, as Go's `schema.GroupKind` prints: `ReplicaSet.apps`, `Pod`.
    pub fn group_kind(self) -> &'static str {
        match self {
            Kind::Deployment => "Deployment.apps",
            Kind::ReplicaSet => "ReplicaSet.apps",
            Kind::Pod => "Pod",
            Kind::Event => "Event",
            Kind::Node => "Node",
            Kind::Lease => "Lease.coordination.k8s.io",
            Kind::PodDisruptionBudget => "PodDisruptionBudget.policy",
            Kind::Service => "Service",
            Kind::Endpoints => "Endpoints",
            Kind::EndpointSlice => "EndpointSlice.discovery.k8s.io",
            Kind::StatefulSet => "StatefulSet.apps",
            Kind::ControllerRevision => "ControllerRevision.apps",
            Kind::PersistentVolumeClaim => "PersistentVolumeClaim",
            Kind::DaemonSet => "DaemonSet.apps",
            Kind::Job => "Job.batch",
            Kind::CronJob => "CronJob.batch",
            Kind::HorizontalPodAutoscaler => "HorizontalPodAutoscaler.autoscaling",
            Kind::MutatingWebhookConfiguration => {
                "MutatingWebhookConfiguration.admissionregistration.k8s.io"
            }
            Kind::ValidatingWebhookConfiguration => {
                "ValidatingWebhookConfiguration.admissionregistration.k8s.io"
            }
            Kind::ValidatingAdmissionPolicy => {
                "ValidatingAdmissionPolicy.admissionregistration.k8s.io"
            }
            Kind::ValidatingAdmissionPolicyBinding => {
                "ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io"
            }
            Kind::CustomResourceDefinition => "CustomResourceDefinition.apiextensions.k8s.io",
            Kind::Custom(c) => &c.interned().group_kind,
        }
    }

    /// `lower(Kind)[.group]`, as the name printer writes it: `deployment.apps`.
    pub fn kind_group(self) -> &'static str {
        match self {
            Kind::Deployment => "deployment.apps",
            Kind::ReplicaSet => "replicaset.apps",
            Kind::Pod => "pod",
            Kind::Event => "event",
            Kind::Node => "node",
            Kind::Lease => "lease.coordination.k8s.io",
            Kind::PodDisruptionBudget => "poddisruptionbudget.policy",
            Kind::Service => "service",
            Kind::Endpoints => "endpoints",
            Kind::EndpointSlice => "endpointslice.discovery.k8s.io",
            Kind::StatefulSet => "statefulset.apps",
            Kind::ControllerRevision => "controllerrevision.apps",
            Kind::PersistentVolumeClaim => "persistentvolumeclaim",
            Kind::DaemonSet => "daemonset.apps",
            Kind::Job => "job.batch",
            Kind::CronJob => "cronjob.batch",
            Kind::HorizontalPodAutoscaler => "horizontalpodautoscaler.autoscaling",
            Kind::MutatingWebhookConfiguration => {
                "mutatingwebhookconfiguration.admissionregistration.k8s.io"
            }
            Kind::ValidatingWebhookConfiguration => {
                "validatingwebhookconfiguration.admissionregistration.k8s.io"
            }
            Kind::ValidatingAdmissionPolicy => {
                "validatingadmissionpolicy.admissionregistration.k8s.io"
            }
            Kind::ValidatingAdmissionPolicyBinding => {
                "validatingadmissionpolicybinding.admissionregistration.k8s.io"
            }
            Kind::CustomResourceDefinition => "customresourcedefinition.apiextensions.k8s.io",
            Kind::Custom(c) => &c.interned().kind_group,
        }
    }

    pub fn kind_name(self) -> &'static str {
        match self {
            Kind::Deployment => "Deployment",
            Kind::ReplicaSet => "ReplicaSet",
            Kind::Pod => "Pod",
            Kind::Event => "Event",
            Kind::Node => "Node",
            Kind::Lease => "Lease",
            Kind::PodDisruptionBudget => "PodDisruptionBudget",
            Kind::Service => "Service",
            Kind::Endpoints => "Endpoints",
            Kind::EndpointSlice => "EndpointSlice",
            Kind::StatefulSet => "StatefulSet",
            Kind::ControllerRevision => "ControllerRevision",
            Kind::PersistentVolumeClaim => "PersistentVolumeClaim",
            Kind::DaemonSet => "DaemonSet",
            Kind::Job => "Job",
            Kind::CronJob => "CronJob",
            Kind::HorizontalPodAutoscaler => "HorizontalPodAutoscaler",
            Kind::MutatingWebhookConfiguration => "MutatingWebhookConfiguration",
            Kind::ValidatingWebhookConfiguration => "ValidatingWebhookConfiguration",
            Kind::ValidatingAdmissionPolicy => "ValidatingAdmissionPolicy",
            Kind::ValidatingAdmissionPolicyBinding => "ValidatingAdmissionPolicyBinding",
            Kind::CustomResourceDefinition => "CustomResourceDefinition",
            Kind::Custom(c) => &c.names().kind,
        }
    }

    /// The group/version the demo serves the kind at.
    pub fn api_version(self) -> &'static str {
        match self {
            Kind::Deployment
            | Kind::ReplicaSet
            | Kind::StatefulSet
            | Kind::ControllerRevision
            | Kind::DaemonSet => "apps/v1",
            Kind::Pod
            | Kind::Event
            | Kind::Node
            | Kind::Service
            | Kind::Endpoints
            | Kind::PersistentVolumeClaim => "v1",
            Kind::Lease => "coordination.k8s.io/v1",
            Kind::PodDisruptionBudget => "policy/v1",
            Kind::EndpointSlice => "discovery.k8s.io/v1",
            Kind::Job | Kind::CronJob => "batch/v1",
            Kind::HorizontalPodAutoscaler => "autoscaling/v2",
            Kind::MutatingWebhookConfiguration
            | Kind::ValidatingWebhookConfiguration
            | Kind::ValidatingAdmissionPolicy
            | Kind::ValidatingAdmissionPolicyBinding => "admissionregistration.k8s.io/v1",
            Kind::CustomResourceDefinition => "apiextensions.k8s.io/v1",
            Kind::Custom(c) => &c.interned().api_version,
        }
    }

    pub fn from_kind_name(kind: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.kind_name() == kind)
    }
}
