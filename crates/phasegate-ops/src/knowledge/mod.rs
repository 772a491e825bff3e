//! The knowledge base: what one task learned the hard way reaches the next
//! task that touches the same kind of file. `base`: the verbs over the
//! items (query, record, reinforce, supersede, list, show, lint), the index
//! and its §10.1 lookups; `inject`: gotchas in briefs and what each task
//! and session was given; `hook`: gotchas just in time before an edit, and
//! back after a compaction; `promote`: a lesson into CLAUDE.md after a
//! person's yes. The retrospective that writes the lessons from a build is
//! `retro`, above the capabilities whose state it reads.

pub mod base;
mod hook;
pub(crate) mod inject;
mod promote;

pub(crate) use hook::{KNOWLEDGE, WORKER_GIVEN};
pub use promote::promote;
