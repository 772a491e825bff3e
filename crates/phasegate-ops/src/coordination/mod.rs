//! Several Claude Code sessions on one repository (seed 004 §1–§4, §8):
//! the session registry and heartbeats, file leases that PreToolUse
//! enforces, the wait graph, events and their delivery. The rules are
//! `phasegate_core::coordination`'s; this
//! folder reads and writes the store and carries the decisions out. It is a
//! low floor: the capabilities emit events and take leases through it. The
//! monitor and the PM, which read every capability's state, are
//! `oversight`, above them. Design: docs/coordination.md. A team across
//! machines shares claims and feature numbers through the git remote
//! (`team`).

mod decisions;
pub mod effects;
pub mod events;
mod hook;
pub mod leases;
pub mod registry;
pub mod team;

pub use decisions::Logged;
pub(crate) use hook::COORDINATION;
