//! The simulator's seeded generator (pod name suffixes, UIDs).

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

/// chacha20's `ChaCha8Rng` is not `Clone`; a snapshot of the demo copies its seed, stream
/// and word position instead, which continues the very same sequence.
#[derive(Debug)]
pub struct SimRng(ChaCha8Rng);

impl SimRng {
    pub fn seed_from_u64(seed: u64) -> SimRng {
        SimRng(ChaCha8Rng::seed_from_u64(seed))
    }
}

impl Clone for SimRng {
    fn clone(&self) -> SimRng {
        let mut r = ChaCha8Rng::from_seed(self.0.get_seed());
        r.set_stream(self.0.get_stream());
        r.set_word_pos(self.0.get_word_pos());
        SimRng(r)
    }
}

impl std::ops::Deref for SimRng {
    type Target = ChaCha8Rng;
    fn deref(&self) -> &ChaCha8Rng {
        &self.0
    }
}

impl std::ops::DerefMut for SimRng {
    fn deref_mut(&mut self) -> &mut ChaCha8Rng {
        &mut self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    #[test]
    fn a_clone_continues_the_same_sequence() {
        let mut a = SimRng::seed_from_u64(7);
        // Part-way into a block, so the position inside the buffer matters.
        for _ in 0..5 {
            let _: u32 = a.random();
        }
        let mut b = a.clone();
        let xs: Vec<u64> = (0..100).map(|_| a.random()).collect();
        let ys: Vec<u64> = (0..100).map(|_| b.random()).collect();
        assert_eq!(xs, ys);
    }
}
