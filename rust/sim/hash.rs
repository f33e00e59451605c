//! `state_hash`: an xxh3-64 digest over the whole simulation state
//! (R-DET-1). xxh3 is a fixed, published algorithm, so a hash recorded today
//! still means the same state tomorrow.

use xxhash_rust::xxh3::Xxh3;

pub struct StateHasher {
    inner: Xxh3,
    buf: Vec<u8>,
}

impl Default for StateHasher {
    fn default() -> Self {
        Self::new()
    }
}

impl StateHasher {
    pub fn new() -> Self {
        StateHasher { inner: Xxh3::new(), buf: Vec::with_capacity(1 << 14) }
    }

    fn flush_if_full(&mut self) {
        if self.buf.len() >= (1 << 14) - 16 {
            self.inner.update(&self.buf);
            self.buf.clear();
        }
    }

    /// A section label, so that e.g. moving a value from one pool's column
    /// to the next cannot produce the same byte stream.
    pub fn section(&mut self, name: &str) {
        self.u64(name.len() as u64);
        self.buf.extend_from_slice(name.as_bytes());
        self.flush_if_full();
    }

    pub fn u64(&mut self, v: u64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
        self.flush_if_full();
    }

    pub fn f32(&mut self, v: f32) {
        self.buf.extend_from_slice(&v.to_bits().to_le_bytes());
        self.flush_if_full();
    }

    pub fn f32s(&mut self, vs: &[f32]) {
        self.u64(vs.len() as u64);
        for &v in vs {
            self.f32(v);
        }
    }

    pub fn u32s(&mut self, vs: impl ExactSizeIterator<Item = u32>) {
        self.u64(vs.len() as u64);
        for v in vs {
            self.buf.extend_from_slice(&v.to_le_bytes());
            self.flush_if_full();
        }
    }

    pub fn finish(mut self) -> u64 {
        self.inner.update(&self.buf);
        self.inner.digest()
    }
}
