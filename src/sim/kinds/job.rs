//! Jobs (batch/v1): pkg/registry/batch/job/strategy.go, SetDefaults_Job and `printJob`.
//! A new Job gets a selector on its own uid and the four labels that select it on its
//! template (`generateSelector`); status is a subresource; only a spec change moves
//! `metadata.generation`.

use serde_json::{Value, json};

use super::{Generation, Kind, Reader, Strategy};
use crate::sim::schema::{Type, types};
use crate::sim::status::ApiError;
use crate::sim::table::{Lookup, describe_job, rows};
use crate::sim::{defaults, obj, validation};

pub struct Job;

/// The label the generated selector matches.
pub const CONTROLLER_UID: &str = "batch.kubernetes.io/controller-uid";
pub const JOB_NAME: &str = "batch.kubernetes.io/job-name";
/// The finalizer that keeps a finished pod until the controller has counted it.
pub const TRACKING_FINALIZER: &str = "batch.kubernetes.io/job-tracking";

/// generateSelector: the template gets the job's name and uid as labels (the legacy and
/// the prefixed keys), the selector the uid, each only where the key is not there yet.
fn generate_selector(job: &mut Value) {
    let name = obj::name(job).to_string();
    let uid = obj::uid(job).to_string();
    for (key, value) in [
        ("job-name", &name),
        (JOB_NAME, &name),
        ("controller-uid", &uid),
        (CONTROLLER_UID, &uid),
    ] {
        let labels = &mut job["spec"]["template"]["metadata"]["labels"];
        if !labels.is_object() {
            *labels = json!({});
        }
        if labels.get(key).is_none() {
            labels[key] = json!(value);
        }
    }
    let selector = &mut job["spec"]["selector"];
    if !selector.is_object() {
        *selector = json!({});
    }
    if !selector["matchLabels"].is_object() {
        selector["matchLabels"] = json!({});
    }
    if selector["matchLabels"].get(CONTROLLER_UID).is_none() {
        selector["matchLabels"][CONTROLLER_UID] = json!(uid);
    }
}

impl Strategy for Job {
    fn default(&self, obj: &mut Value) {
        defaults::job(obj);
    }

    fn uid_before_create(&self) -> bool {
        true
    }

    /// batch/v1 keeps the old default, OrphanDependents, and says so (job storage's
    /// `deleteWarning`); kubectl always asks for Background.
    fn default_propagation(&self) -> (crate::sim::deletion::Propagation, Option<&'static str>) {
        (
            crate::sim::deletion::Propagation::Orphan,
            Some(
                "child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning",
            ),
        )
    }

    /// PrepareForCreate: an empty status, the generated selector unless the spec asks
    /// for a manual one; SetDefaults_Job, run again as the object is read back, gives
    /// the Job its template's labels when it has none of its own.
    fn prepare_for_create(&self, obj: &mut Value, _template_spec: Option<&Value>) {
        obj["status"] = json!({});
        if obj["spec"]["manualSelector"] != true {
            generate_selector(obj);
        }
        let own = obj["metadata"]["labels"]
            .as_object()
            .is_some_and(|l| !l.is_empty());
        if !own && let Some(l) = obj["spec"]["template"]["metadata"].get("labels").cloned() {
            obj["metadata"]["labels"] = l;
        }
    }

    fn validate(&self, obj: &Value, old: Option<&Value>) -> Result<(), ApiError> {
        validation::job(obj, old)
    }

    fn generation(&self) -> Generation {
        Generation::Spec
    }

    fn tracks_managed_fields(&self) -> bool {
        true
    }

    fn schema(&self) -> Option<&'static Type> {
        Some(&types::JOB)
    }

    fn columns(&self, wide: bool) -> &'static [&'static str] {
        // `-o wide` adds the last 3 columns.
        const WIDE: &[&str] = &[
            "NAME",
            "STATUS",
            "COMPLETIONS",
            "DURATION",
            "AGE",
            "CONTAINERS",
            "IMAGES",
            "SELECTOR",
        ];
        if wide { WIDE } else { &WIDE[..WIDE.len() - 3] }
    }

    fn row(&self, obj: &dyn Lookup, now: u64, _wide: bool) -> Vec<String> {
        rows::job(obj, now)
    }

    fn describe(&self, job: &Value, reader: &dyn Reader, now: u64) -> Option<String> {
        let events: Vec<Value> = reader.objects(Kind::Event).into_iter().cloned().collect();
        Some(describe_job(job, &events, now))
    }
}
