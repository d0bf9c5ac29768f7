//! The reconcile simulator: a pure library. No clock (time is a tick counter the caller
//! advances), no IO, and one seeded RNG, so the same input gives the same output.

pub mod api;
pub mod apiextensions;
pub mod catalog;
pub mod cel;
pub mod client;
pub mod cluster;
pub mod controllers;
pub mod cron;
pub mod defaults;
pub mod deletion;
pub mod directive;
pub mod export;
pub mod gc;
pub mod goal;
pub mod informer;
pub mod ipalloc;
pub mod jsonpath;
pub mod kcm;
pub mod kind;
pub mod kinds;
pub mod kubectl;
pub mod managed;
pub mod merge;
pub mod metrics;
pub mod names;
pub mod obj;
pub mod objects;
pub mod operator;
pub mod output;
pub mod qos;
pub mod quantity;
pub mod recorder;
pub mod rng;
pub mod scenario;
pub mod schema;
pub mod session;
pub mod shell;
pub mod status;
pub mod stored;
pub mod table;
pub mod taints;
pub mod time;
pub mod traffic;
pub mod validation;
pub mod webhooks;

/// Hash maps keyed by names and uids, which the controllers touch on every watch event:
/// foldhash is several times quicker than std's SipHash on such short keys, and its fixed
/// seed suits a simulator that must not vary between runs (nothing iterates these maps
/// where order shows).
pub(crate) type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::FixedState>;
pub(crate) type HashSet<K> = std::collections::HashSet<K, foldhash::fast::FixedState>;
