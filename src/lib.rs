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

/// The simulator's objects are JSON trees whose many small nodes are allocated and freed
/// on every write; mimalloc makes that about a quarter cheaper than glibc's malloc
/// (docs/sim-performance.md). Declared here so the binary, tests and benchmarks all use it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
