//! One error type for everything the core can refuse. The PyO3 face maps it
//! to Python exceptions in one place (`py/errors.rs`); the core never panics
//! on bad input.

use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum CoreError {
    /// A caller-supplied argument is out of its domain (NaN, negative count,
    /// unknown id, bad shape...). The message names the argument.
    InvalidArgument(String),
    /// Content handed to the core is inconsistent (should have been caught
    /// by the Python loader; the core checks again rather than trust it).
    InvalidContent(String),
}

impl CoreError {
    pub fn arg(msg: impl Into<String>) -> Self {
        CoreError::InvalidArgument(msg.into())
    }
    pub fn content(msg: impl Into<String>) -> Self {
        CoreError::InvalidContent(msg.into())
    }
}

impl fmt::Display for CoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoreError::InvalidArgument(m) => write!(f, "{m}"),
            CoreError::InvalidContent(m) => write!(f, "invalid content: {m}"),
        }
    }
}

impl std::error::Error for CoreError {}

pub type CoreResult<T> = Result<T, CoreError>;
