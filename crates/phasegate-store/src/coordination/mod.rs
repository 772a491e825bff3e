//! Several sessions' shared state in git's common directory: the session
//! records, file leases, waits and notices, and the append-only event,
//! alert, decision and hook-problem logs.

pub mod events;
pub mod leases;
pub mod sessions;

use crate::project::Project;

/// The sessions' shared state: session records, file leases, waits, notices
/// and the event, alert, decision and hook-problem logs.
#[derive(Debug, Clone, Copy)]
pub struct Coordination<'p> {
    pub(crate) project: &'p Project,
}

impl Project {
    /// The sessions' shared state.
    pub fn coordination(&self) -> Coordination<'_> {
        Coordination { project: self }
    }
}
