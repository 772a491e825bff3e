//! Several Claude Code sessions on one repository (seed 004 §1–§4, §7,
//! §8): the session registry and heartbeats, file leases that PreToolUse
//! enforces, the wait graph, the monitor and the PM's decisions, events and
//! their delivery, the brainstorm phase's ideation. The rules are
//! `phasegate_core::coordination`'s; this folder reads and writes the
//! store and carries the decisions out. Design: docs/coordination.md.

pub mod events;
pub mod hook;
pub mod ideation;
pub mod leases;
pub mod monitor;
pub mod pm;
pub mod registry;
pub mod view;
