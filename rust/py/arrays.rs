//! Borrowing the caller's numpy buffers with a clear message for every way
//! they can be wrong: not an array, wrong dtype, wrong shape, not
//! C-contiguous, read-only, or passed twice.

use numpy::{
    Element, PyArray1, PyArray2, PyArrayDescrMethods, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2,
    PyReadwriteArray1, PyReadwriteArray2, PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::prelude::*;

use super::errors::borrow_error;
use crate::sim::CoreError;

/// What a buffer must look like: its dtype and, per axis, a fixed length
/// or `None` (any length).
pub struct Spec {
    pub name: &'static str,
    pub dtype: &'static str,
    pub shape: &'static [Option<usize>],
}

impl Spec {
    fn describe(&self) -> String {
        let dims: Vec<String> = self.shape.iter().map(|d| d.map_or("N".into(), |n| n.to_string())).collect();
        format!(
            "a C-contiguous {} array of shape ({})",
            self.dtype,
            dims.join(", ") + if dims.len() == 1 { "," } else { "" }
        )
    }
}

/// Checks everything but the borrow; returns the untyped array.
fn check<'py, T: Element>(obj: &Bound<'py, PyAny>, spec: &Spec) -> Result<(), CoreError> {
    let want = || spec.describe();
    let arr = obj
        .cast::<PyUntypedArray>()
        .map_err(|_| CoreError::arg(format!("{}: expected {}, got {}", spec.name, want(), type_name(obj))))?;
    let py = obj.py();
    if !arr.dtype().is_equiv_to(&numpy::dtype::<T>(py)) {
        return Err(CoreError::arg(format!("{}: expected {}, got dtype {}", spec.name, want(), dtype_name(arr))));
    }
    let shape = arr.shape();
    let shape_ok =
        shape.len() == spec.shape.len() && shape.iter().zip(spec.shape).all(|(&n, want)| want.is_none_or(|w| w == n));
    if !shape_ok {
        return Err(CoreError::arg(format!("{}: expected {}, got shape {:?}", spec.name, want(), shape)));
    }
    if !arr.is_c_contiguous() {
        return Err(CoreError::arg(format!("{}: expected {}, got a non-contiguous view", spec.name, want())));
    }
    Ok(())
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "an unknown object".into())
}

fn dtype_name(arr: &Bound<'_, PyUntypedArray>) -> String {
    arr.dtype().str().map(|s| s.to_string()).unwrap_or_else(|_| "?".into())
}

pub fn readwrite2<'py, T: Element>(
    obj: &Bound<'py, PyAny>,
    spec: &Spec,
) -> Result<PyReadwriteArray2<'py, T>, CoreError> {
    check::<T>(obj, spec)?;
    let arr = obj.cast::<PyArray2<T>>().map_err(|e| CoreError::arg(format!("{}: {e}", spec.name)))?;
    arr.try_readwrite().map_err(|e| borrow_error(spec.name, e))
}

pub fn readwrite1<'py, T: Element>(
    obj: &Bound<'py, PyAny>,
    spec: &Spec,
) -> Result<PyReadwriteArray1<'py, T>, CoreError> {
    check::<T>(obj, spec)?;
    let arr = obj.cast::<PyArray1<T>>().map_err(|e| CoreError::arg(format!("{}: {e}", spec.name)))?;
    arr.try_readwrite().map_err(|e| borrow_error(spec.name, e))
}

pub fn readonly2<'py, T: Element>(obj: &Bound<'py, PyAny>, spec: &Spec) -> Result<PyReadonlyArray2<'py, T>, CoreError> {
    check::<T>(obj, spec)?;
    let arr = obj.cast::<PyArray2<T>>().map_err(|e| CoreError::arg(format!("{}: {e}", spec.name)))?;
    arr.try_readonly().map_err(|e| borrow_error(spec.name, e))
}

pub fn readonly1<'py, T: Element>(obj: &Bound<'py, PyAny>, spec: &Spec) -> Result<PyReadonlyArray1<'py, T>, CoreError> {
    check::<T>(obj, spec)?;
    let arr = obj.cast::<PyArray1<T>>().map_err(|e| CoreError::arg(format!("{}: {e}", spec.name)))?;
    arr.try_readonly().map_err(|e| borrow_error(spec.name, e))
}
