//! Pipeline mode (seed 001): the autonomous Task+Resume pipeline's state
//! machine, its file formats, review gates, configuration, next actions, and
//! the decisions of the Stop hook that enforces its implementation loop.

mod check;
mod config;
pub mod files;
pub mod gate;
pub mod impl_loop;
pub mod next;
mod run;
mod state;
pub mod test_outcome;

pub use check::validate;
pub use config::{CONFIG_PATH, Config, WhenUnavailable};
pub use files::FileKind;
pub use gate::{Gate, GateDecision, GateError, GateKind, Stage};
pub use impl_loop::{LoopState, StopDecision};
pub use run::{Failure, Owner, Pause, PauseReason, PipelineRun, Requirement, RunError, Step};
pub use state::State;
pub use test_outcome::TestOutcome;
