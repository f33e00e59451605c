//! Integer arguments as Python gives them. A Python int has no size limit;
//! extracted straight into `i64` or `u32`, 2**70 or -1 would raise
//! `OverflowError` (not a `ValueError`, so not the core's one error). `Int`
//! takes any int, saturating beyond `i64` but keeping its text, and the
//! range checks of `crate::sim::limits` then refuse it with a
//! `CoreArgumentError` that names the argument and the value as given.

use pyo3::prelude::*;
use pyo3::types::PyInt;

use crate::sim::error::CoreResult;
use crate::sim::limits;

#[derive(Clone, Debug)]
pub struct Int {
    /// The value, saturated to `i64`.
    pub value: i64,
    /// The value's text when it did not fit `i64` (for messages).
    pub big: Option<String>,
}

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> Result<Self, Self::Error> {
        match obj.extract::<i64>() {
            Ok(value) => Ok(Int { value, big: None }),
            Err(e) if obj.is_instance_of::<PyInt>() => {
                let negative = obj.lt(0).map_err(|_| e)?;
                let text = obj.str().map(|s| s.to_string()).unwrap_or_else(|_| "a huge integer".into());
                Ok(Int { value: if negative { i64::MIN } else { i64::MAX }, big: Some(text) })
            }
            Err(e) => Err(e),
        }
    }
}

impl Int {
    fn shown(&self) -> String {
        self.big.clone().unwrap_or_else(|| self.value.to_string())
    }

    /// A whole number in `lo..=hi`.
    pub fn whole(&self, name: &str, lo: i64, hi: i64) -> CoreResult<i64> {
        // A saturated value never passes, even where the range ends at i64::MAX.
        let value = if self.big.is_some() { Err(()) } else { limits::whole(name, self.value, lo, hi).map_err(|_| ()) };
        value.map_err(|_| {
            crate::sim::CoreError::arg(format!("{name} must be a whole number in {lo}..={hi}, got {}", self.shown()))
        })
    }

    /// A whole number in `0..=hi` (at most `u32::MAX`).
    pub fn count(&self, name: &str, hi: u64) -> CoreResult<u32> {
        let hi = hi.min(u32::MAX as u64) as i64;
        self.whole(name, 0, hi).map(|v| v as u32)
    }
}

impl From<i64> for Int {
    fn from(value: i64) -> Int {
        Int { value, big: None }
    }
}

/// A seed: any integer in 0..2**64 (a world's or a sandbox's); anything
/// else is a `CoreArgumentError`, not an `OverflowError`.
#[derive(Clone, Copy, Debug)]
pub struct Seed(pub u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Seed {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> Result<Self, Self::Error> {
        let is_int = obj.is_instance_of::<PyInt>();
        match obj.extract::<u64>() {
            Ok(v) if is_int => Ok(Seed(v)),
            _ => {
                let shown = obj.str().map(|s| s.to_string()).unwrap_or_default();
                Err(crate::sim::CoreError::arg(format!("seed must be an integer in 0..2**64, got {shown}")).into())
            }
        }
    }
}
