//! The demo's kubectl: the command language parsed as kubectl parses it, and run against
//! the simulated cluster with kubectl's output.

pub mod apply;
pub mod args;
pub mod autoscale;
pub mod cmdutil;
pub mod create;
pub mod delete;
pub mod describe;
pub mod discovery;
pub mod drain;
pub mod duration;
pub mod exec;
pub mod expose;
pub mod get;
pub mod label;
pub mod patch;
pub mod replace;
pub mod rollout;
mod rollout_revisions;
pub mod scale;
pub mod set;
pub mod ssa;
pub mod taint;
pub mod wait;

#[cfg(test)]
mod precondition_tests;

#[cfg(test)]
mod status_fields_tests;

#[cfg(test)]
mod delete_wait_tests;
#[cfg(test)]
mod rollback_tests;
