//! Pipeline mode (seed 001): the autonomous Task+Resume pipeline's state
//! machine, its file formats, review gates, configuration, and the decisions
//! of the Stop hook that enforces its implementation loop.

pub mod config;
pub mod files;
pub mod gate;
pub mod looping;
pub mod next;
pub mod run;
pub mod state;
pub mod tests_eval;

pub use config::Config;
pub use files::FileKind;
pub use gate::{Gate, GateDecision, GateKind, Stage};
pub use looping::{LoopState, StopDecision, TestOutcome};
pub use run::{PauseReason, Run};
pub use state::State;
