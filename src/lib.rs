//! kubedrill: learn and rehearse Kubernetes interview questions on desired-state
//! reconciliation, each paired with a live, deterministic reconcile demo.
//!
//! Layers, dependencies pointing down only:
//! `cli` -> `tui` -> `study` -> `sim` -> `content`.

pub mod cli;
pub mod content;
pub mod sim;
pub mod study;
pub mod tui;
