//! What kind of failure an error is, so every front end maps it the same
//! way (the CLI's exit code, in one place) without reading messages.

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

impl Classified for crate::feature::MetaError {
    fn class(&self) -> ErrorClass {
        use crate::feature::MetaError as E;
        match self {
            E::NotActive { .. } | E::NothingToReview { .. } | E::NotStartable { .. } => ErrorClass::Refused,
            E::NotInProgress { .. } | E::NoReviewLoop { .. } => ErrorClass::Invalid,
        }
    }
}

impl Classified for crate::pipeline::run::RunError {
    fn class(&self) -> ErrorClass {
        use crate::pipeline::run::RunError as E;
        match self {
            E::Illegal { .. } | E::Unmet { .. } | E::Invalid(_) => ErrorClass::Refused,
        }
    }
}

impl Classified for crate::pipeline::gate::GateError {
    fn class(&self) -> ErrorClass {
        use crate::pipeline::gate::GateError as E;
        match self {
            E::AlreadyPassed
            | E::OutOfOrder { .. }
            | E::FixInProgress { .. }
            | E::ChangedMidRound { .. }
            | E::NotFixing { .. } => ErrorClass::Refused,
            E::SkipNotFinal => ErrorClass::Invalid,
        }
    }
}

impl Classified for crate::tasks::CycleError {
    fn class(&self) -> ErrorClass {
        use crate::tasks::CycleError as E;
        match self {
            E::NotStarted(_)
            | E::NotDue { .. }
            | E::OwnImplementer { .. }
            | E::UnknownAgent { .. }
            | E::Over { .. } => ErrorClass::Refused,
        }
    }
}

impl Classified for crate::questions::RoundsError {
    fn class(&self) -> ErrorClass {
        use crate::questions::RoundsError as E;
        match self {
            E::NotStarted(_) | E::Ended { .. } | E::Unanswered { .. } | E::NothingToAnswer(_) => ErrorClass::Refused,
            E::EmptyAnswer => ErrorClass::Invalid,
        }
    }
}
