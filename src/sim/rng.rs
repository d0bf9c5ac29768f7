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

    /// A generator of the same seed on another stream, from its start: draws from one
    /// never move the other.
    pub fn on_stream(&self, stream: u64) -> SimRng {
        let mut r = ChaCha8Rng::from_seed(self.0.get_seed());
        r.set_stream(stream);
        SimRng(r)
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

    #[test]
    fn streams_of_one_seed_are_independent() {
        let mut a = SimRng::seed_from_u64(7);
        let mut names = a.on_stream(1);
        let first: Vec<u64> = (0..4).map(|_| names.random()).collect();
        let mut names_again = a.on_stream(1);
        for _ in 0..50 {
            let _: u64 = a.random();
        }
        let again: Vec<u64> = (0..4).map(|_| names_again.random()).collect();
        assert_eq!(first, again);
        assert_ne!(first[0], a.random::<u64>());
    }
}
