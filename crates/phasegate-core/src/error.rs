//! What kind of failure an error is, so every front end maps it the same
//! way (the CLI's exit code, in one place) without reading messages. Each
//! capability classifies its own errors beside them (`impl Classified`);
//! this kernel module names no capability.

/// The two kinds of failure a rule or an input can be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorClass {
    /// A workflow rule said no: the input was fine, the state does not allow
    /// it now (exit 1).
    Refused,
    /// The input or the state cannot be used: a usage error, a file that
    /// breaks its schema, state that cannot be read (exit 2).
    Invalid,
}

/// An error that knows its class.
pub trait Classified {
    fn class(&self) -> ErrorClass;
}
