//! The one blend, premultiplied source-over, per byte:
//! `out = src + round(dst × keep / 255)` with `keep = 255 − alpha`; and the
//! copy of opaque runs, where that reduces to `out = src`.
//!
//! Written as plain loops over fixed 16-byte chunks (4 pixels) that the
//! compiler turns into SSE2 code, the x86-64 baseline. The exact division
//! by 255 is `(t + 128 + ((t + 128) >> 8)) >> 8`, exact for every
//! t ≤ 255 × 255.
//!
//! An AVX2 build of the same loops (32-byte chunks, chosen at run time) was
//! measured on benches/raster.rs: 20% faster while every row was blended,
//! 7–10% on frames full of translucent projectiles and within noise on
//! crowds of enemies once opaque runs were copied instead. Not kept: it
//! needed the crate's only `unsafe` block for that.

/// Bytes per SIMD step: 4 pixels, one SSE2 register.
pub const CHUNK: usize = 16;

/// Pixels per chunk: what the sheet pads sprite rows and blend runs to.
pub const CHUNK_PIXELS: usize = CHUNK / 4;

/// Blends one run of pixels: `dst`, `colour` and `keep` are the same length
/// (4 bytes per pixel). Whole chunks go through `blend_chunk`, the rest as
/// one more chunk through a scratch copy (the sheet pads its blend runs to
/// whole chunks, so only a run cut by the target's edge has a rest).
#[inline]
pub fn blend_run(dst: &mut [u8], colour: &[u8], keep: &[u8]) {
    let mut d = dst.chunks_exact_mut(CHUNK);
    let mut c = colour.chunks_exact(CHUNK);
    let mut k = keep.chunks_exact(CHUNK);
    for ((d, c), k) in (&mut d).zip(&mut c).zip(&mut k) {
        blend_chunk(d.try_into().expect("a chunk"), c.try_into().expect("a chunk"), k.try_into().expect("a chunk"));
    }
    let rest = d.into_remainder();
    if !rest.is_empty() {
        // One more chunk through a scratch copy: cheaper than a byte loop.
        let n = rest.len();
        let (mut d_, mut c_, mut k_) = ([0u8; CHUNK], [0u8; CHUNK], [255u8; CHUNK]);
        d_[..n].copy_from_slice(rest);
        c_[..n].copy_from_slice(c.remainder());
        k_[..n].copy_from_slice(k.remainder());
        blend_chunk(&mut d_, &c_, &k_);
        rest.copy_from_slice(&d_[..n]);
    }
}

/// Writes an opaque run as is: whole chunks, then one last chunk ending at
/// the run's end (overlapping the one before it; writing the same bytes
/// twice is harmless). Runs shorter than a chunk are copied as they are.
#[inline]
pub fn copy_run(dst: &mut [u8], colour: &[u8]) {
    let n = dst.len();
    if n < CHUNK {
        dst.copy_from_slice(colour);
        return;
    }
    // A plain copy loop is turned into a call to `memcpy` per sprite row by
    // the release build's optimizer, which cost ~1 ms a frame at 10k/20k
    // (perf: 15% of the frame in `__memmove_avx_unaligned_erms`). XOR with
    // a zero the optimizer cannot see keeps it an inline SIMD loop.
    for (d, c) in dst.chunks_exact_mut(CHUNK).zip(colour.chunks_exact(CHUNK)) {
        copy_chunk(d, c);
    }
    copy_chunk(&mut dst[n - CHUNK..], &colour[n - CHUNK..]);
}

static ZERO: [u8; CHUNK] = [0; CHUNK];

#[inline(always)]
fn copy_chunk(dst: &mut [u8], colour: &[u8]) {
    // Opaque to the optimizer at every chunk, so it is neither hoisted into
    // 16 byte registers (which left the XOR unvectorized) nor folded away.
    let zero: &[u8; CHUNK] = std::hint::black_box(&ZERO);
    let colour: &[u8; CHUNK] = colour.try_into().expect("a chunk");
    let mut out = [0u8; CHUNK];
    for i in 0..CHUNK {
        out[i] = colour[i] ^ zero[i];
    }
    dst.copy_from_slice(&out);
}

/// A fixed-size body the compiler turns into straight SIMD code (no loop,
/// no tail): unpack to 16-bit lanes, multiply, divide, pack, add.
#[inline(always)]
fn blend_chunk(dst: &mut [u8; CHUNK], colour: &[u8; CHUNK], keep: &[u8; CHUNK]) {
    for i in 0..CHUNK {
        dst[i] = blend_byte(dst[i], colour[i], keep[i]);
    }
}

#[inline(always)]
fn blend_byte(d: u8, c: u8, k: u8) -> u8 {
    let t = d as u16 * k as u16 + 128;
    // No overflow: a premultiplied colour is ≤ alpha and the kept part is
    // ≤ 255 − alpha, so the sum is ≤ 255.
    c.wrapping_add(((t + (t >> 8)) >> 8) as u8)
}

/// round(x × y / 255) for bytes, the reference the tests hold `blend_run` to.
pub fn mul_div_255(x: u8, y: u8) -> u8 {
    ((x as u32 * y as u32 * 2 + 255) / 510) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fast_division_is_exact_for_every_pair_of_bytes() {
        for d in 0..=255u8 {
            for k in 0..=255u8 {
                let mut dst = [d];
                blend_run(&mut dst, &[0], &[k]);
                assert_eq!(dst[0], mul_div_255(d, k), "d={d} k={k}");
            }
        }
    }

    #[test]
    fn chunks_and_the_rest_blend_alike() {
        let dst: Vec<u8> = (0..40u32).map(|i| (i * 37 % 256) as u8).collect();
        let keep: Vec<u8> = (0..40u32).map(|i| (i * 91 % 256) as u8).collect();
        let colour: Vec<u8> = keep.iter().map(|&k| (255 - k) / 2).collect();
        for len in [0, 3, 16, 17, 32, 40] {
            let slow: Vec<u8> = (0..len).map(|i| colour[i] + mul_div_255(dst[i], keep[i])).collect();
            let mut fast = dst[..len].to_vec();
            blend_run(&mut fast, &colour[..len], &keep[..len]);
            assert_eq!(fast, slow, "len {len}");
        }
    }

    #[test]
    fn copy_runs_of_any_length_copy_exactly() {
        let colour: Vec<u8> = (0..70u8).collect();
        for len in [0, 5, 16, 31, 32, 33, 70] {
            let mut dst = [200u8; 72];
            copy_run(&mut dst[1..1 + len], &colour[..len]);
            assert_eq!(&dst[1..1 + len], &colour[..len]);
            assert!(dst[0] == 200 && dst[1 + len..].iter().all(|&b| b == 200), "len {len}");
        }
    }

    #[test]
    fn transparent_keeps_the_target_and_opaque_replaces_it() {
        let mut dst = [7, 99, 200, 255];
        blend_run(&mut dst, &[0; 4], &[255; 4]);
        assert_eq!(dst, [7, 99, 200, 255]);
        blend_run(&mut dst, &[1, 2, 3, 0], &[0, 0, 0, 255]);
        assert_eq!(dst, [1, 2, 3, 255], "opaque colour replaces; the unused byte (keep 255) stays");
    }

    #[test]
    fn half_alpha_blends_half_and_half() {
        // White at alpha 128 (premultiplied: 128) over (0, 100, 255).
        let mut dst = [0, 100, 255, 0];
        blend_run(&mut dst, &[128, 128, 128, 0], &[127, 127, 127, 255]);
        assert_eq!(dst, [128, 128 + 50, 128 + 127, 0]); // 100·127/255 = 49.8 → 50; 255·127/255 = 127
    }
}
