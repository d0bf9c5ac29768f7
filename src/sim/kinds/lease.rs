//! Leases (coordination.k8s.io/v1), as the kubelets keep them: one per node in
//! `kube-node-lease`, renewed as their heartbeat; and, in the leader-election scenario,
//! kube-controller-manager's in `kube-system`. Nobody writes them by hand in the demo, so
//! no schema is kept for them.

use super::{Generation, Strategy};
use crate::sim::table::{Lookup, rows};

pub struct Lease;

impl Strategy for Lease {
    fn namespace(&self) -> Option<&'static str> {
        Some("kube-node-lease")
    }

    /// kube-controller-manager's leader election Lease lives in kube-system.
    fn other_namespaces(&self) -> &'static [&'static str] {
        &["kube-system"]
    }

    fn generation(&self) -> Generation {
        Generation::None
    }

    fn columns(&self, _wide: bool) -> &'static [&'static str] {
        &["NAME", "HOLDER", "AGE"]
    }

    fn row(&self, obj: &dyn Lookup, now: u64, _wide: bool) -> Vec<String> {
        rows::lease(obj, now)
    }
}
