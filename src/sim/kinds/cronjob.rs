//! CronJobs (batch/v1): pkg/registry/batch/cronjob/strategy.go, SetDefaults_CronJob and
//! `printCronJob`. A new CronJob starts with an empty status and generation 1; status
//! is a subresource; its job template gets the pod defaults but not a Job's own (those
//! come when each Job is created).

use serde_json::{Value, json};

use super::{Generation, Kind, Reader, Strategy};
use crate::sim::schema::{Type, types};
use crate::sim::status::ApiError;
use crate::sim::table::{Lookup, describe_cron_job, rows};
use crate::sim::{defaults, validation};

pub struct CronJob;

impl Strategy for CronJob {
    fn default(&self, obj: &mut Value) {
        defaults::cron_job(obj);
    }

    fn prepare_for_create(&self, obj: &mut Value, _template_spec: Option<&Value>) {
        obj["status"] = json!({});
    }

    fn validate(&self, obj: &Value, old: Option<&Value>) -> Result<(), ApiError> {
        validation::cron_job(obj, old)
    }

    fn generation(&self) -> Generation {
        Generation::Spec
    }

    fn tracks_managed_fields(&self) -> bool {
        true
    }

    fn schema(&self) -> Option<&'static Type> {
        Some(&types::CRON_JOB)
    }

    fn columns(&self, wide: bool) -> &'static [&'static str] {
        // `-o wide` adds the last 3 columns.
        const WIDE: &[&str] = &[
            "NAME",
            "SCHEDULE",
            "TIMEZONE",
            "SUSPEND",
            "ACTIVE",
            "LAST SCHEDULE",
            "AGE",
            "CONTAINERS",
            "IMAGES",
            "SELECTOR",
        ];
        if wide { WIDE } else { &WIDE[..WIDE.len() - 3] }
    }

    fn row(&self, obj: &dyn Lookup, now: u64, _wide: bool) -> Vec<String> {
        rows::cron_job(obj, now)
    }

    fn describe(&self, cj: &Value, reader: &dyn Reader, now: u64) -> Option<String> {
        let events: Vec<Value> = reader.objects(Kind::Event).into_iter().cloned().collect();
        Some(describe_cron_job(cj, &events, now))
    }
}
