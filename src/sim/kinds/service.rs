//! Services (v1): pkg/registry/core/service/strategy.go, the REST storage's cluster IP
//! allocation (storage/alloc.go) and `printService`. No generation; status (load balancer
//! ingress) is a subresource nobody writes in the demo. A Service gets its cluster IP,
//! IP families and family policy when it is created and keeps them on every update that
//! leaves them out (`patchAllocatedValues`); deleting it gives the IP back.

use serde_json::{Value, json};

use super::{Kind, Reader, Strategy};
use crate::sim::defaults;
use crate::sim::ipalloc::ClusterIps;
use crate::sim::schema::{Type, types};
use crate::sim::status::ApiError;
use crate::sim::table::{Lookup, describe_service, rows};
use crate::sim::validation;

pub struct Service;

/// The label an EndpointSlice names its Service with.
pub const SERVICE_NAME_LABEL: &str = "kubernetes.io/service-name";
/// The label the endpoint controllers put on a headless Service's endpoints.
pub const HEADLESS_LABEL: &str = "service.kubernetes.io/headless";

/// `NormalizeClusterIPs` for the single-stack Services the demo serves: `clusterIP` and
/// `clusterIPs[0]` say the same, whichever the writer set.
fn normalize_cluster_ips(obj: &mut Value) {
    let spec = &mut obj["spec"];
    let single = spec["clusterIP"]
        .as_str()
        .filter(|s| !s.is_empty())
        .map(str::to_string);
    let listed = spec["clusterIPs"][0].as_str().map(str::to_string);
    match (single, listed) {
        (Some(ip), None) => spec["clusterIPs"] = json!([ip]),
        (None, Some(ip)) => spec["clusterIP"] = json!(ip),
        _ => {}
    }
}

impl Strategy for Service {
    fn default(&self, obj: &mut Value) {
        defaults::service(obj);
    }

    /// PrepareForCreate: the status is cleared to an empty load balancer status.
    fn prepare_for_create(&self, obj: &mut Value, _template_spec: Option<&Value>) {
        obj["status"] = json!({"loadBalancer": {}});
        normalize_cluster_ips(obj);
    }

    fn begin_update(&self, obj: &mut Value, old: &Value) {
        // NormalizeClusterIPs: a new clusterIP beside unchanged clusterIPs is the writer's
        // intent; validation then refuses the change.
        let single = obj["spec"]["clusterIP"].as_str().filter(|s| !s.is_empty());
        if let Some(ip) = single.map(str::to_string)
            && old["spec"]["clusterIP"].as_str() != Some(ip.as_str())
            && obj["spec"]["clusterIPs"] == old["spec"]["clusterIPs"]
        {
            obj["spec"]["clusterIPs"] = json!([ip]);
        }
        for field in ["clusterIP", "clusterIPs", "ipFamilies", "ipFamilyPolicy"] {
            let missing = obj["spec"]
                .get(field)
                .is_none_or(|v| v.is_null() || v.as_str() == Some(""));
            if missing && let Some(v) = old["spec"].get(field) {
                obj["spec"][field] = v.clone();
            }
        }
        normalize_cluster_ips(obj);
    }

    /// `allocateCreate`: the IP asked for, or the next free one; a headless Service
    /// (`clusterIP: None`) gets none. Either way the family is IPv4, single-stack.
    fn begin_create(&self, obj: &mut Value, ips: &mut ClusterIps) -> Result<(), ApiError> {
        let spec = &mut obj["spec"];
        match spec["clusterIPs"][0].as_str().map(str::to_string) {
            Some(ip) if ip == "None" => {}
            Some(ip) => ips.allocate(&ip).map_err(|e| {
                ApiError::invalid(format!(
                    "The Service {:?} is invalid: spec.clusterIPs: Invalid value: []string{{{:?}}}: failed to allocate IP {ip}: {e}",
                    obj["metadata"]["name"].as_str().unwrap_or(""),
                    ip
                ))
            })?,
            None => {
                let ip = ips.allocate_next().map_err(|e| ApiError {
                    reason: crate::sim::status::Reason::Unknown,
                    message: format!("failed to allocate a serviceIP: {e}"),
                })?;
                spec["clusterIP"] = json!(ip);
                spec["clusterIPs"] = json!([ip]);
            }
        }
        let spec = &mut obj["spec"];
        if spec.get("ipFamilies").is_none_or(Value::is_null) {
            spec["ipFamilies"] = json!(["IPv4"]);
        }
        if spec.get("ipFamilyPolicy").is_none_or(Value::is_null) {
            spec["ipFamilyPolicy"] = json!("SingleStack");
        }
        Ok(())
    }

    fn after_delete(&self, obj: &Value, ips: &mut ClusterIps) {
        for ip in obj["spec"]["clusterIPs"].as_array().into_iter().flatten() {
            ips.release(ip.as_str().unwrap_or(""));
        }
    }

    fn validate(&self, obj: &Value, old: Option<&Value>) -> Result<(), ApiError> {
        validation::service(obj, old)
    }

    fn tracks_managed_fields(&self) -> bool {
        true
    }

    fn schema(&self) -> Option<&'static Type> {
        Some(&types::SERVICE)
    }

    fn columns(&self, wide: bool) -> &'static [&'static str] {
        // SELECTOR is the one column only `-o wide` shows.
        const WIDE: &[&str] = &[
            "NAME",
            "TYPE",
            "CLUSTER-IP",
            "EXTERNAL-IP",
            "PORT(S)",
            "AGE",
            "SELECTOR",
        ];
        if wide { WIDE } else { &WIDE[..WIDE.len() - 1] }
    }

    fn row(&self, obj: &dyn Lookup, now: u64, _wide: bool) -> Vec<String> {
        rows::service(obj, now)
    }

    /// The slices are listed by the `kubernetes.io/service-name` label, as kubectl does.
    fn describe(&self, obj: &Value, reader: &dyn Reader, now: u64) -> Option<String> {
        let name = &obj["metadata"]["name"];
        let slices: Vec<&Value> = reader
            .objects(Kind::EndpointSlice)
            .into_iter()
            .filter(|s| &s["metadata"]["labels"][SERVICE_NAME_LABEL] == name)
            .collect();
        let events: Vec<Value> = reader.objects(Kind::Event).into_iter().cloned().collect();
        Some(describe_service(obj, &slices, &events, now))
    }
}
