//! Several sessions' shared state in git's common directory: the session
//! records, file leases, waits and notices, and the append-only event,
//! alert, decision and hook-problem logs.

pub mod events;
pub mod leases;
pub mod sessions;
