//! Plain Python data decoded by `#[derive(FromPyObject)]` (issue 14): the
//! config and the catalog are structs of the newtypes below, each of which
//! refuses a bad value with the boundary's own reason (`: missing`,
//! `: expected a number`, ` must be a whole number in …`). The derive wraps a
//! field's error as "failed to extract field Struct.field" with the real one
//! as its cause; `at` walks that chain back into the path the value was
//! reached by, so a refusal reads `config.player.max_hp: missing`. The
//! decoding structs name their fields as the dicts' keys, which is what
//! makes the chain a path, and what lets a config `Section` refuse a key
//! its struct does not know (`config.arena.widht: unknown key`). `at` reads
//! pyo3's wording of that wrapper; the Python boundary tests
//! (tests/engine/test_core_boundary.py, deep paths) fail if a pyo3 update
//! changes it.

use pyo3::exceptions::{PyKeyError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString};

use super::args::Int;
use super::errors::CoreArgumentError;
use crate::sim::config::{Element, ELEMENTS};
use crate::sim::CoreError;

/// A leaf's refusal: `text` is what follows the path of the value (or of
/// the struct it was found in): `": missing"`, `".kind: unknown action kind"`.
pub fn reason(text: impl Into<String>) -> PyErr {
    CoreError::arg(text).into()
}

/// A decoding error as the boundary's `CoreArgumentError`, its message
/// starting with the full path: `path` (where decoding began) and the
/// field names of the derive's cause chain. A missing key (the derive's
/// `KeyError`) is `<path>.<key>: missing`; a leaf's reason is appended as
/// given; anything else met where a dict's item was read means the value was
/// not a dict.
pub fn at(py: Python<'_>, path: &str, err: PyErr) -> PyErr {
    let mut path = path.to_owned();
    let mut err = err;
    while err.is_instance_of::<PyTypeError>(py) {
        let text = err.value(py).to_string();
        let (Some(field), Some(cause)) = (text.strip_prefix("failed to extract field "), err.cause(py)) else {
            break;
        };
        path.push('.');
        path.push_str(field.rsplit_once('.').map_or(field, |(_, f)| f));
        err = cause;
    }
    let message = if err.is_instance_of::<PyKeyError>(py) {
        let key = err.value(py).getattr("args").and_then(|a| a.get_item(0)).map(|k| k.to_string());
        format!("{path}.{}: missing", key.unwrap_or_default())
    } else if err.is_instance_of::<CoreArgumentError>(py) {
        format!("{path}{}", err.value(py))
    } else {
        format!("{path}: expected a dict")
    };
    CoreError::arg(message).into()
}

/// `obj` decoded as `T`, a refusal naming its path from `path`.
pub fn decode<'py, T>(obj: &Bound<'py, PyAny>, path: &str) -> PyResult<T>
where
    T: for<'a> FromPyObject<'a, 'py, Error = PyErr>,
{
    obj.extract::<T>().map_err(|e| at(obj.py(), path, e))
}

/// A dict decoded as `T`; `None` is missing, anything else not a dict is
/// refused (a list's or a string's items are never read as fields).
pub struct Dict<T>(pub T);

impl<'a, 'py, T> FromPyObject<'a, 'py> for Dict<T>
where
    T: FromPyObject<'a, 'py, Error = PyErr>,
{
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_none() {
            return Err(reason(": missing"));
        }
        if !obj.is_instance_of::<PyDict>() {
            return Err(reason(": expected a dict"));
        }
        T::extract(obj).map(Dict)
    }
}

/// The keys a section's dict may hold: its decoding struct's fields and
/// those read apart (py/config.rs' `section!` lists them from the struct).
pub trait Keys {
    const KEYS: &'static [&'static str];
}

/// A section of the config: a dict decoded as `T` (as `Dict` decodes it),
/// refused when it holds a key `T` does not know (`.widht: unknown key`), at
/// every level, so that a misspelt key never leaves its field at a default
/// or its block off.
pub struct Section<T>(pub T);

impl<'a, 'py, T> FromPyObject<'a, 'py> for Section<T>
where
    T: FromPyObject<'a, 'py, Error = PyErr> + Keys,
{
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(dict) = obj.cast::<PyDict>() {
            for key in dict.keys() {
                let known = key.cast::<PyString>().ok().and_then(|k| k.to_str().ok().map(|k| T::KEYS.contains(&k)));
                if known != Some(true) {
                    return Err(reason(format!(".{key}: unknown key (known: {})", T::KEYS.join(", "))));
                }
            }
        }
        Dict::<T>::extract(obj).map(|Dict(v)| Section(v))
    }
}

/// A finite number that fits an `f32` (at most ~3.4e38: 1e300 would become
/// inf after the check); not a bool.
pub struct F32(pub f32);

impl<'a, 'py> FromPyObject<'a, 'py> for F32 {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_none() {
            return Err(reason(": missing"));
        }
        if obj.is_instance_of::<PyBool>() {
            return Err(reason(format!(": expected a number, got {} (a bool)", *obj)));
        }
        let v: f64 = obj.extract().map_err(|_| reason(": expected a number"))?;
        if !(v.is_finite() && v.abs() <= f32::MAX as f64) {
            return Err(reason(format!(": expected a finite number within ±3.4e38, got {v}")));
        }
        Ok(F32(v as f32))
    }
}

/// A whole number in 0..2**32; beyond it is refused, never truncated (a bool too: `Int`).
pub struct U32(pub u32);

impl<'a, 'py> FromPyObject<'a, 'py> for U32 {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_none() {
            return Err(reason(": missing"));
        }
        let v: Int = obj.extract().map_err(|_| reason(format!(": expected a whole number ≥ 0, got {}", *obj)))?;
        // `count` names its argument first: with the empty name the reason follows the path.
        Ok(U32(v.count("", u32::MAX as u64)?))
    }
}

/// An integer that fits an `i32` (a register value, a board coordinate); not a bool.
pub struct I32(pub i32);

impl<'a, 'py> FromPyObject<'a, 'py> for I32 {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_none() {
            return Err(reason(": missing"));
        }
        if obj.is_instance_of::<PyBool>() {
            return Err(reason(format!(": expected an integer, got {} (a bool)", *obj)));
        }
        obj.extract().map(I32).map_err(|_| reason(": expected an integer"))
    }
}

/// A string (an id, a tag).
pub struct Str(pub String);

impl<'a, 'py> FromPyObject<'a, 'py> for Str {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_none() {
            return Err(reason(": missing"));
        }
        obj.extract().map(Str).map_err(|_| reason(": expected a string"))
    }
}

/// A switch: `None` (and, with `#[pyo3(default)]`, a missing key) is off.
#[derive(Default)]
pub struct Flag(pub bool);

impl<'a, 'py> FromPyObject<'a, 'py> for Flag {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_none() {
            return Ok(Flag(false));
        }
        obj.extract().map(Flag).map_err(|_| reason(": expected a bool"))
    }
}

/// An element's name.
pub struct ElementName(pub Element);

impl<'a, 'py> FromPyObject<'a, 'py> for ElementName {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let Str(name) = obj.extract()?;
        Element::from_name(&name).map(ElementName).map_err(|e| reason(format!(": {e}")))
    }
}

/// A number per element (`{"fire": 0.5}`), in `Element` order; elements not
/// named are 0.
pub struct PerElement(pub [f32; ELEMENTS]);

impl<'a, 'py> FromPyObject<'a, 'py> for PerElement {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let dict = obj.cast::<PyDict>().map_err(|_| reason(": expected a dict"))?;
        let mut out = [0.0f32; ELEMENTS];
        for (k, v) in dict.iter() {
            let name: String = k
                .cast::<PyString>()
                .map_err(|_| reason(": keys are element names"))?
                .to_str()
                .map_err(|_| reason(": keys are element names"))?
                .to_owned();
            let element = Element::from_name(&name).map_err(|_| reason(format!(".{name}: unknown element")))?;
            let F32(x) = v.extract().map_err(|e: PyErr| reason(format!(".{name}{}", e.value(obj.py()))))?;
            out[element as usize] = x;
        }
        Ok(PerElement(out))
    }
}

/// An optional number's value: `default` when the key was absent or `None`.
pub trait ValueOr {
    type Value;
    fn value_or(self, default: Self::Value) -> Self::Value;
}

impl ValueOr for Option<F32> {
    type Value = f32;
    fn value_or(self, default: f32) -> f32 {
        self.map_or(default, |v| v.0)
    }
}

impl ValueOr for Option<U32> {
    type Value = u32;
    fn value_or(self, default: u32) -> u32 {
        self.map_or(default, |v| v.0)
    }
}
