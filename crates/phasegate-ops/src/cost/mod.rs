//! What a feature costs, and its budget: Claude Code's transcripts read
//! (never copied) and each request attributed to the feature, phase, task
//! and agent the binaries saw at work, then priced from a table of prices
//! as data (`.phasegate/cost.config.json` overrides it).
//!
//! - `collect`: `workflow-state cost`, the windows of each feature;
//! - `budget`: 80% says so, 100% pauses the feature on a person's question;
//! - `hook`: where a session's transcript is, which sub-agent works on
//!   which task, and the Stop hook's budget line.

mod budget;
mod collect;
mod hook;

pub use budget::{Paused, pause_if_over, state as budget_state};
pub use collect::{Costs, collect, cost, prices, windows};
pub(crate) use hook::COST;
