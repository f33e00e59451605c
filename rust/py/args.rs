//! Numbers as Python gives them. A Python int has no size limit; extracted
//! straight into `i64` or `u32`, 2**70 or -1 would raise `OverflowError`
//! (not a `ValueError`, so not the core's one error). `Int` takes any int,
//! saturating beyond `i64` but keeping its text, and the range checks of
//! `crate::sim::limits` then refuse it with a `CoreArgumentError` that names
//! the argument and the value as given. A bool is an int to Python (and a
//! float to pyo3's `f64`), never a number here: `Int` and `Float` take it
//! only to refuse it, by the argument's name.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};

use crate::sim::error::CoreResult;
use crate::sim::limits;

#[derive(Clone, Debug)]
pub struct Int {
    /// The value, saturated to `i64` (0 for a bool).
    value: i64,
    /// The value's text when it did not fit `i64` (for messages).
    big: Option<String>,
    /// A bool's text (`True (a bool)`): no range takes it.
    bool: Option<String>,
}

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> Result<Self, Self::Error> {
        if obj.is_instance_of::<PyBool>() {
            return Ok(Int { value: 0, big: None, bool: Some(a_bool(obj)) });
        }
        match obj.extract::<i64>() {
            Ok(value) => Ok(Int::from(value)),
            Err(e) if obj.is_instance_of::<PyInt>() => {
                let negative = obj.lt(0).map_err(|_| e)?;
                let text = obj.str().map(|s| s.to_string()).unwrap_or_else(|_| "a huge integer".into());
                Ok(Int { value: if negative { i64::MIN } else { i64::MAX }, big: Some(text), bool: None })
            }
            Err(e) => Err(e),
        }
    }
}

impl Int {
    /// The value as given, for messages.
    pub fn shown(&self) -> String {
        self.bool.clone().or_else(|| self.big.clone()).unwrap_or_else(|| self.value.to_string())
    }

    /// Whether no range takes the value: beyond `i64`, or a bool.
    fn refused(&self) -> bool {
        self.big.is_some() || self.bool.is_some()
    }

    /// A whole number in `lo..=hi`.
    pub fn whole(&self, name: &str, lo: i64, hi: i64) -> CoreResult<i64> {
        // A saturated value never passes, even where the range ends at i64::MAX.
        let value = if self.refused() { Err(()) } else { limits::whole(name, self.value, lo, hi).map_err(|_| ()) };
        value.map_err(|_| {
            crate::sim::CoreError::arg(format!("{name} must be a whole number in {lo}..={hi}, got {}", self.shown()))
        })
    }

    /// A whole number in `0..=hi` (at most `u32::MAX`).
    pub fn count(&self, name: &str, hi: u64) -> CoreResult<u32> {
        let hi = hi.min(u32::MAX as u64) as i64;
        self.whole(name, 0, hi).map(|v| v as u32)
    }

    /// Worker threads: 1..=`limits::max_threads()`.
    pub fn threads(&self, name: &str) -> CoreResult<usize> {
        if self.refused() {
            return Err(limits::threads_refused(name, &self.shown()));
        }
        limits::threads(name, self.value)
    }

    /// The value for a caller that checks its own range (a sprite index): a
    /// bool is refused here; beyond `i64` it saturates, so no range takes it.
    pub fn saturated(&self, name: &str) -> CoreResult<i64> {
        match &self.bool {
            Some(shown) => Err(crate::sim::CoreError::arg(format!("{name} must be a whole number, got {shown}"))),
            None => Ok(self.value),
        }
    }
}

impl From<i64> for Int {
    fn from(value: i64) -> Int {
        Int { value, big: None, bool: None }
    }
}

/// A float argument: any real number Python gives (an int, a numpy float)
/// but a bool, which `within` refuses by the argument's name.
#[derive(Clone, Debug)]
pub struct Float {
    value: f64,
    /// A bool's text (`True (a bool)`): no range takes it.
    refused: Option<String>,
}

impl<'a, 'py> FromPyObject<'a, 'py> for Float {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> Result<Self, Self::Error> {
        if obj.is_instance_of::<PyBool>() {
            return Ok(Float { value: 0.0, refused: Some(a_bool(obj)) });
        }
        Ok(Float { value: obj.extract()?, refused: None })
    }
}

impl Float {
    /// Finite and in `lo..=hi`, as an `f32` (`limits::float`).
    pub fn within(&self, name: &str, lo: f64, hi: f64) -> CoreResult<f32> {
        match &self.refused {
            None => limits::float(name, self.value, lo, hi),
            Some(shown) => Err(crate::sim::CoreError::arg(format!(
                "{name} must be a finite number in {}..={}, got {shown}",
                limits::show(lo),
                limits::show(hi)
            ))),
        }
    }
}

impl From<f64> for Float {
    fn from(value: f64) -> Float {
        Float { value, refused: None }
    }
}

/// A bool as the refusals show it: `True (a bool)`.
fn a_bool(obj: Borrowed<'_, '_, PyAny>) -> String {
    format!("{} (a bool)", obj.str().map(|s| s.to_string()).unwrap_or_default())
}

/// A seed: any integer in 0..=2**64-1 (a world's or a sandbox's), not a bool;
/// anything else is a `CoreArgumentError`, not an `OverflowError`.
#[derive(Clone, Copy, Debug)]
pub struct Seed(pub u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Seed {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> Result<Self, Self::Error> {
        let is_bool = obj.is_instance_of::<PyBool>();
        match obj.extract::<u64>() {
            Ok(v) if obj.is_instance_of::<PyInt>() && !is_bool => Ok(Seed(v)),
            _ => {
                let shown = if is_bool { a_bool(obj) } else { obj.str().map(|s| s.to_string()).unwrap_or_default() };
                Err(crate::sim::CoreError::arg(format!("seed must be an integer in {SEED_RANGE}, got {shown}")).into())
            }
        }
    }
}

/// The range of a seed and of a random stream's position, as messages say it.
pub const SEED_RANGE: &str = "0..=2**64-1";
