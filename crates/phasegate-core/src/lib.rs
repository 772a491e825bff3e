//! phasegate's domain, free of I/O. A small kernel at the root (the
//! review-cycle engine, names, slugs, time, schemas, code changes, session
//! ids, the plugin's agents, the brief builder) and one folder per capability, each exporting
//! its few public types from its `mod.rs`:
//!
//! - [`feature`]: phases and their facts, modes, `.meta.json`, transitions,
//!   verdicts, review history, reviewer briefs, the next step;
//! - [`questions`]: questions, suspension, the round loop and its replies;
//! - [`tasks`]: task lists, per-task review cycles, build decisions;
//! - [`pipeline`]: pipeline mode's state machine, files, gates and loop;
//! - [`proof`]: done means proven: requirements, checks, the evidence
//!   ledger and its judgement;
//! - [`cost`]: what a feature costs: transcripts' usage, its attribution
//!   to phases, tasks and agents, prices and budgets;
//! - [`knowledge`]: the knowledge base: items, queries, recording, the
//!   lifecycle, admission, the index, CLAUDE.md promotion, retrospectives.
//! - [`coordination`]: sessions sharing a repository, file leases, the wait
//!   graph, the monitor and the PM's decisions, event routing, ideation.
//! - [`interrupt`]: a turn ended on an API error (a usage limit, an
//!   overloaded API): what was in flight and when it may go on.
//!
//! A capability depends on the kernel and on capabilities listed before it,
//! never sideways. Callers pass in the clock and file contents.
#![cfg_attr(test, allow(clippy::disallowed_methods))]

pub mod agent;
pub mod brief;
pub mod change;
pub mod cycle;
pub mod error;
pub mod hash;
pub mod names;
pub mod paths;
pub mod priority;
pub mod schema;
pub mod seal;
pub mod session;
pub mod slug;
pub mod state;
pub mod time;
pub mod witness;
pub mod words;

pub mod coordination;
pub mod cost;
pub mod feature;
pub mod interrupt;
pub mod knowledge;
pub mod pipeline;
pub mod proof;
pub mod questions;
pub mod tasks;

pub use agent::Agent;
pub use feature::{Artifact, ArtifactSet, Meta, Mode, Phase, PhaseRecord, PhaseState, Status};
pub use names::Named;
