//! The ranges every number crossing into the core must lie in (DESIGN
//! errors: the core never panics, and no non-finite or absurd value ever
//! enters its state). One place, so the setters, the commands, the config
//! and the catalog refuse alike, naming the argument, the value and the
//! range: `"<name> must be a finite number in <lo>..=<hi>, got <v>"`.
//!
//! The bounds are generous — far beyond what a designer or a save could
//! want — and chosen so that nothing derived from them overflows an `f32`
//! (a sum of a frame's hits, a speed times a tick, a position plus a
//! velocity) or a counter.

use super::error::{CoreError, CoreResult};

/// Largest amount (HP, damage, ward, mana, strength, a bonus) any caller or
/// content may hand the core; 1e9 keeps a frame's sums finite in `f32`.
pub const MAX_AMOUNT: f64 = 1e9;

/// Largest coordinate (px) a caller may give; the arena clamps positions.
pub const MAX_COORD: f64 = 1e9;

/// Largest duration in seconds (a status, a lifetime, a cooldown).
pub const MAX_SECONDS: f64 = 1e6;

/// Largest speed in px/s (a projectile, an enemy, the player's dash).
pub const MAX_SPEED: f64 = 1e6;

/// Largest radius or distance (px) of a shot, a blast, a zone, a range.
pub const MAX_RADIUS: f64 = 1e6;

/// Largest multiplier or share (damage ×, speed ×, a move-speed bonus).
pub const MAX_FACTOR: f64 = 1e4;

/// Largest whole count (pierce, bounces, chain, a loop's repeats, CPU).
pub const MAX_COUNT: u64 = 1_000_000;

/// Arena sides in px and the tick rate in Hz.
pub const ARENA_SIDE: (f64, f64) = (1.0, 1e6);
pub const TICK_HZ: (u64, u64) = (1, 1000);

/// The most worker threads `set_threads` takes: 4 × the machine's cores,
/// and at least 8 (more threads than that only cost: each is a real OS
/// thread, and 100,000 of them took minutes to start).
pub fn max_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (cores * 4).max(8)
}

/// `threads` checked against 1..=`max_threads()`.
pub fn threads(name: &str, threads: i64) -> CoreResult<usize> {
    if threads < 1 || threads as u64 > max_threads() as u64 {
        return Err(threads_refused(name, &threads.to_string()));
    }
    Ok(threads as usize)
}

/// The refusal of a thread count, `shown` as given.
pub fn threads_refused(name: &str, shown: &str) -> CoreError {
    let max = max_threads();
    CoreError::arg(format!(
        "{name} must be a whole number in 1..={max} (4 × this machine's cores, at least 8), got {shown}"
    ))
}

/// A number as a message shows it: 1e300, not 301 digits.
pub fn show(v: f64) -> String {
    if v.is_finite() && v != 0.0 && !(1e-4..1e7).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// `show` for an `f32` (1e37, not its f64 widening 9.999999933815813e36).
pub fn show32(v: f32) -> String {
    if v.is_finite() && v != 0.0 && !(1e-4..1e7).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// `v` finite and in `lo..=hi`, as an `f32`.
pub fn float(name: &str, v: f64, lo: f64, hi: f64) -> CoreResult<f32> {
    if !(v.is_finite() && v >= lo && v <= hi) {
        return Err(CoreError::arg(format!(
            "{name} must be a finite number in {}..={}, got {}",
            show(lo),
            show(hi),
            show(v)
        )));
    }
    Ok(v as f32)
}

/// `float` for an `f32` already converted (config and catalog fields).
pub fn float32(name: &str, v: f32, lo: f64, hi: f64) -> CoreResult<f32> {
    float(name, v as f64, lo, hi).map_err(|_| {
        CoreError::arg(format!("{name} must be a finite number in {}..={}, got {}", show(lo), show(hi), show32(v)))
    })
}

/// `float` as a content error (config and catalog: "invalid content: ...").
pub fn content32(name: &str, v: f32, lo: f64, hi: f64) -> CoreResult<f32> {
    float32(name, v, lo, hi).map_err(|e| CoreError::content(e.to_string()))
}

/// A whole number in `lo..=hi`.
pub fn whole(name: &str, v: i64, lo: i64, hi: i64) -> CoreResult<i64> {
    if v < lo || v > hi {
        return Err(CoreError::arg(format!("{name} must be a whole number in {lo}..={hi}, got {v}")));
    }
    Ok(v)
}

/// A whole number in `0..=hi` as a `u32`.
pub fn count(name: &str, v: i64, hi: u64) -> CoreResult<u32> {
    let hi = hi.min(u32::MAX as u64) as i64;
    whole(name, v, 0, hi).map(|v| v as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_name_the_argument_the_value_and_the_range() {
        let e = float("hp", f64::NAN, 0.0, 1e9).unwrap_err().to_string();
        assert!(e.contains("hp") && e.contains("NaN") && e.contains("0..=1e9"), "{e}");
        let e = float("strength", 1e300, -MAX_AMOUNT, MAX_AMOUNT).unwrap_err().to_string();
        assert!(e.ends_with("in -1e9..=1e9, got 1e300"), "{e}");
        assert!(float("hp", 1e300, 0.0, MAX_AMOUNT).is_err());
        assert_eq!(float("hp", 5.0, 0.0, MAX_AMOUNT), Ok(5.0));
        assert!(count("pierce", 1 << 32, MAX_COUNT).is_err());
        assert!(count("pierce", -1, MAX_COUNT).is_err());
        assert_eq!(count("pierce", 3, MAX_COUNT), Ok(3));
        assert!(threads("threads", 100_000).is_err());
        assert!(threads("threads", 0).is_err());
        assert_eq!(threads("threads", 2), Ok(2));
    }
}
