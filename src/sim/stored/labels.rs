//! The label maps the stored objects use, kept once each: pods of one template share
//! theirs.

use super::*;

/// The label sets of stored objects, one shared copy of each: a thousand pods of one
/// ReplicaSet hold one labels map between them, so a sync checks its selector once.
#[derive(Clone, Default)]
pub struct LabelSets {
    pub(super) by_hash: HashMap<u64, Vec<Arc<Value>>>,
    pub(super) len: usize,
    /// Sets held only here are dropped once the count doubles past this.
    pub(super) swept_at: usize,
}

impl LabelSets {
    pub fn intern(&mut self, labels: &Value) -> Arc<Value> {
        let mut h = foldhash::fast::FixedState::default().build_hasher();
        if let Some(m) = labels.as_object() {
            for (k, v) in m {
                k.hash(&mut h);
                match v.as_str() {
                    Some(s) => s.hash(&mut h),
                    None => v.to_string().hash(&mut h),
                }
            }
        }
        let hash = h.finish();
        let bucket = self.by_hash.entry(hash).or_default();
        if let Some(same) = bucket.iter().find(|l| ***l == *labels) {
            return Arc::clone(same);
        }
        let new = Arc::new(labels.clone());
        bucket.push(Arc::clone(&new));
        self.len += 1;
        if self.len > 2 * self.swept_at + 64 {
            self.sweep();
        }
        new
    }

    fn sweep(&mut self) {
        for bucket in self.by_hash.values_mut() {
            bucket.retain(|l| Arc::strong_count(l) > 1);
        }
        self.by_hash.retain(|_, b| !b.is_empty());
        self.len = self.by_hash.values().map(Vec::len).sum();
        self.swept_at = self.len;
    }
}
