//! Questions: asking, answering, suspension, the STATUS round loop, and the
//! Slack poll driver (behind its `Messenger` port).

pub mod ask;
pub mod hook;
pub mod poll;
pub mod rounds;
pub mod subagent;
