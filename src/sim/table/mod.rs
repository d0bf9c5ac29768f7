//! kubectl's human-readable output: the tabwriter, `get` tables and `describe deployment`.

mod describe;
mod fields;
mod get;
pub mod pod_status;
pub mod rows;
mod stored;
mod tabwriter;

pub use describe::{
    describe_cron_job, describe_daemon_set, describe_deployment, describe_endpoint_slice,
    describe_endpoints, describe_generic, describe_hpa, describe_job, describe_node, describe_pdb,
    describe_pod, describe_pvc, describe_replicaset, describe_service, describe_stateful_set,
};
pub use fields::{Lookup, selector_string};
pub use get::{TableOpts, get_table};
pub use tabwriter::{TabWriter, tabulate};

#[cfg(test)]
mod tests;

/// `metav1.FormatLabelSelector` of a label selector, as events and describe print it.
pub fn selector_text(selector: &serde_json::Value) -> String {
    fields::selector_string(Some(selector))
}
