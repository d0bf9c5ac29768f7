//! The controllers of kube-controller-manager the demo runs, and the kubelet stand-in.

pub mod claim;
pub mod deployment;
pub mod hash;
pub mod kubelet;
pub mod pods;
pub mod podstatus;
pub mod replicaset;

#[cfg(test)]
mod collision_tests;
#[cfg(test)]
mod podstatus_tests;
#[cfg(test)]
mod pull_tests;
