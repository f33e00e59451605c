//! Seeded, portable randomness: one PCG32 stream per purpose, so that adding
//! a roll in one system never shifts the rolls of another (R-DET-1).
//! PCG32 is a fixed, documented algorithm: the same seed gives the same
//! numbers on every platform and every version of `rand_pcg`.

use rand_core::RngCore;
use rand_pcg::Pcg32;

/// The purposes that draw random numbers in the core. The world saves only
/// `Crit` (`Streams`); `Spread` is the caster's own (rebuilt with the wand) and
/// `Spawns` the stress workload's and tests' local generators. The numbers are
/// PCG32 stream ids: fixed, so removing a purpose shifts no other's numbers.
#[derive(Clone, Copy, Debug)]
pub enum Stream {
    Crit = 1,
    Spread = 2,
    Spawns = 4,
}

/// A PCG32 stream and how many numbers it has given (its position, what a
/// save keeps: R-SAVE-1).
#[derive(Clone, Debug)]
pub struct Rng {
    pcg: Pcg32,
    draws: u64,
}

impl Rng {
    pub fn new(seed: u64, stream: Stream) -> Self {
        Rng::at(seed, stream, 0)
    }

    /// The stream `stream` of `seed` after `draws` numbers: the same generator
    /// as `new` followed by `draws` draws, reached by PCG's jump-ahead (O(log n)).
    pub fn at(seed: u64, stream: Stream, draws: u64) -> Self {
        let mut pcg = Pcg32::new(seed, stream as u64);
        pcg.advance(draws);
        Rng { pcg, draws }
    }

    /// How many numbers the stream has given (mod 2^64, PCG32's period).
    pub fn draws(&self) -> u64 {
        self.draws
    }

    /// Uniform in [0, 1), from the top 24 bits (exact in f32).
    #[inline]
    pub fn unit(&mut self) -> f32 {
        self.draws = self.draws.wrapping_add(1);
        (self.pcg.next_u32() >> 8) as f32 * (1.0 / 16_777_216.0)
    }

    /// Uniform in [lo, hi).
    #[inline]
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    /// True with probability `p` (p ≤ 0 never, p ≥ 1 always, no draw then).
    #[inline]
    pub fn chance(&mut self, p: f32) -> bool {
        if p <= 0.0 {
            false
        } else if p >= 1.0 {
            true
        } else {
            self.unit() < p
        }
    }

    /// A fingerprint of the stream's position, for the state hash.
    pub fn fingerprint(&self) -> u64 {
        self.pcg.clone().next_u64()
    }
}

/// The world's streams: what a save keeps and the state hash covers. Only
/// crit rolls (crits, status chances) draw in the world today; a purpose that
/// never draws is not kept (issue 14 dropped spread, drops and spawns).
#[derive(Clone, Debug)]
pub struct Streams {
    pub crit: Rng,
}

impl Streams {
    pub fn new(seed: u64) -> Self {
        Streams { crit: Rng::new(seed, Stream::Crit) }
    }

    pub fn fingerprint(&self) -> [u64; STREAM_COUNT] {
        [self.crit.fingerprint()]
    }

    /// Each stream's position (crit): what a save keeps (R-SAVE-1).
    pub fn positions(&self) -> [u64; STREAM_COUNT] {
        [self.crit.draws()]
    }

    /// The streams of `seed` at `positions` (from `positions()`): a save restored.
    pub fn at(seed: u64, positions: [u64; STREAM_COUNT]) -> Self {
        let [crit] = positions;
        Streams { crit: Rng::at(seed, Stream::Crit, crit) }
    }
}

/// How many streams `Streams` holds (the length of `positions()`).
pub const STREAM_COUNT: usize = 1;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_numbers_and_streams_differ() {
        let mut a = Rng::new(7, Stream::Crit);
        let mut b = Rng::new(7, Stream::Crit);
        let mut c = Rng::new(7, Stream::Spread);
        let xa: Vec<f32> = (0..8).map(|_| a.unit()).collect();
        let xb: Vec<f32> = (0..8).map(|_| b.unit()).collect();
        let xc: Vec<f32> = (0..8).map(|_| c.unit()).collect();
        assert_eq!(xa, xb);
        assert_ne!(xa, xc);
        assert!(xa.iter().all(|v| (0.0..1.0).contains(v)));
    }

    /// R-SAVE-1: a stream rebuilt at its position goes on exactly where the old one was.
    #[test]
    fn a_stream_restored_at_its_position_continues_the_same() {
        let mut a = Streams::new(11);
        for _ in 0..37 {
            a.crit.unit();
        }
        assert_eq!(a.positions(), [37]);
        let mut b = Streams::at(11, a.positions());
        assert_eq!(a.fingerprint(), b.fingerprint());
        let xa: Vec<f32> = (0..8).map(|_| a.crit.unit()).collect();
        let xb: Vec<f32> = (0..8).map(|_| b.crit.unit()).collect();
        assert_eq!(xa, xb);
        assert_eq!(b.positions(), [45]);
    }
}
