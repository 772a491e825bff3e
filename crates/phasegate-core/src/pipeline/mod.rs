//! Pipeline mode (seed 001): the autonomous Task+Resume pipeline's state
//! machine, its file formats, review gates, configuration, next actions, and
//! the decisions of the Stop hook that enforces its implementation loop.

pub mod config;
pub mod files;
pub mod gate;
pub mod impl_loop;
pub mod next;
pub mod run;
pub mod state;
pub mod test_outcome;

pub use config::Config;
pub use files::FileKind;
pub use gate::{Gate, GateDecision, GateKind, Stage};
pub use impl_loop::{LoopState, StopDecision};
pub use run::{PauseReason, PipelineRun};
pub use state::State;
pub use test_outcome::TestOutcome;
