//! Questions: asking, answering, suspension, the STATUS round loop, and the
//! Slack poll driver (behind its `Messenger` port).

pub mod ask;
mod hook;
pub mod poll;
pub mod rounds;
mod subagent;
pub mod team;

pub(crate) use hook::QUESTIONS;
pub use subagent::{SubagentOutcome, subagent_stop};
