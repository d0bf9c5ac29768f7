//! EndpointSlices (discovery.k8s.io/v1), as the EndpointSlice controller keeps them:
//! named from `<service>-`, labelled with their Service's name and their manager. Nobody
//! writes them by hand in the demo, so no schema is kept for them.

use serde_json::Value;

use super::{Kind, Reader, Strategy};
use crate::sim::table::{Lookup, describe_endpoint_slice, rows};

pub struct EndpointSlice;

impl Strategy for EndpointSlice {
    fn columns(&self, _wide: bool) -> &'static [&'static str] {
        &["NAME", "ADDRESSTYPE", "PORTS", "ENDPOINTS", "AGE"]
    }

    fn row(&self, obj: &dyn Lookup, now: u64, _wide: bool) -> Vec<String> {
        rows::endpoint_slice(obj, now)
    }

    fn describe(&self, obj: &Value, reader: &dyn Reader, now: u64) -> Option<String> {
        let events: Vec<Value> = reader.objects(Kind::Event).into_iter().cloned().collect();
        Some(describe_endpoint_slice(obj, &events, now))
    }
}
