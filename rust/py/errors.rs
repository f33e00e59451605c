//! The one mapping of core errors to Python exceptions. The exception
//! classes are defined in Python (`artificer.errors`), so that a bad core
//! argument is both an `ArtificerError` and a `ValueError`. The mapping is
//! tested from Python (tests/test_frame_contract.py), where the classes live.

use numpy::BorrowError;
use pyo3::import_exception;
use pyo3::PyErr;

use crate::sim::CoreError;

import_exception!(artificer.errors, CoreArgumentError);

impl From<CoreError> for PyErr {
    fn from(e: CoreError) -> PyErr {
        CoreArgumentError::new_err(e.to_string())
    }
}

/// A numpy borrow refused: the buffer is already in use by this call (it
/// was passed twice) or is read-only.
pub fn borrow_error(name: &str, e: BorrowError) -> CoreError {
    match e {
        BorrowError::AlreadyBorrowed => CoreError::arg(format!(
            "{name}: this buffer (or a view overlapping it) was passed twice; every buffer must be distinct"
        )),
        BorrowError::NotWriteable => CoreError::arg(format!("{name}: the buffer is read-only")),
        other => CoreError::arg(format!("{name}: {other}")),
    }
}
