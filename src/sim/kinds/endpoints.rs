//! Endpoints (v1), as the endpoints controller keeps them: one per Service with a
//! selector, named as the Service. Nobody writes them by hand in the demo, so no schema
//! is kept for them. kubectl 1.32 prints no deprecation warning for them.

use serde_json::Value;

use super::{Kind, Reader, Strategy};
use crate::sim::table::{Lookup, describe_endpoints, rows};

pub struct Endpoints;

impl Strategy for Endpoints {
    fn columns(&self, _wide: bool) -> &'static [&'static str] {
        &["NAME", "ENDPOINTS", "AGE"]
    }

    fn row(&self, obj: &dyn Lookup, now: u64, _wide: bool) -> Vec<String> {
        rows::endpoints(obj, now)
    }

    fn describe(&self, obj: &Value, reader: &dyn Reader, now: u64) -> Option<String> {
        let events: Vec<Value> = reader.objects(Kind::Event).into_iter().cloned().collect();
        Some(describe_endpoints(obj, &events, now))
    }
}
