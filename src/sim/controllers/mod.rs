//! The controllers of kube-controller-manager the demo runs, and the kubelet stand-in.
//! Each informer-driven controller is one module implementing [`Controller`]; the
//! cluster runs them all through it (kube-controller-manager's loop: deliver watch events
//! to handlers, work the queue, resync).

pub mod apiextensions;
pub mod app;
pub mod claim;
mod controller;
pub mod cronjob;
pub mod daemonset;
pub mod deployment;
pub mod disruption;
mod endpoint_util;
pub mod endpoints;
pub mod endpointslice;
pub mod hash;
pub mod history;
mod image;
pub mod job;
pub mod kubelet;
pub mod node_agent;
pub mod node_lifecycle;
pub mod podautoscaler;
pub mod pods;
pub mod podstatus;
pub mod prober;
pub mod replicaset;
pub mod scheduler;
pub mod statefulset;
pub mod taint_eviction;
pub mod ttl_after_finished;
pub mod volume;

#[cfg(test)]
mod collision_tests;
#[cfg(test)]
mod podstatus_tests;
#[cfg(test)]
mod pull_tests;

pub use controller::Controller;
