//! A team across machines, through the git remote (issue 34): feature
//! numbers reserved and tasks claimed as refs under `refs/phasegate/` on
//! the user's remote (`origin` unless `git config phasegate.remote` names
//! another; `none` turns it off). The rules are
//! `phasegate_core::coordination`'s (`decide_claim`, `first_free`); the
//! refs move through `phasegate_store::remote`. Only the CLI's verbs call
//! this folder: no hook does a network round trip. Design: docs/design.md,
//! "A team across machines".
//!
//! With the remote slow, unreachable or refusing, work goes on locally
//! and the outcome carries one line that says so; what waits for the
//! remote is kept in `<runtime>/team/pending.json` and `workflow-state
//! team sync` carries it over.

mod claims;
mod ids;
mod leases;
mod sync;

use phasegate_core::coordination::Holder;
use phasegate_core::coordination::{HeldHere, TeamSaid};
use phasegate_store::lock::FileLock;
use phasegate_store::remote::{self, Remote};
use phasegate_store::{Project, StoreError, remote::Pending};

use crate::env::{self, Env};

pub use claims::{claim, phase_ended, phase_started, release};
pub use ids::{Reserver, reserver};
pub use leases::{notice_for as teammate_lease_notice, teammates as teammates_leases};
pub use sync::{SeenClaim, Synced, beat_due, claimed_elsewhere, seen_claims, sync};

/// The most compare-and-swap rounds a change tries before it goes on
/// locally (each lost round re-reads the remote).
const ROUNDS: usize = 8;

/// This clone's view of the team: its remote, who it is, and the team's
/// lock (one remote operation of this clone at a time).
pub(crate) struct Team {
    remote: Remote,
    me: Holder,
    runtime: std::path::PathBuf,
    _lock: FileLock,
}

impl Team {
    /// The team of `project`'s repository; None without a remote (a
    /// repository of one person: everything stays as it was).
    pub(crate) fn open(project: &Project, env: &Env) -> Result<Option<Team>, StoreError> {
        let Some(layout) = project.repo() else { return Ok(None) };
        let Some(remote) = Remote::configured(layout, env::remote_timeout())? else { return Ok(None) };
        let runtime = project.runtime_dir();
        let lock = FileLock::acquire(&project.lock_dir().join("team.lock"), env.lock_timeout)?;
        let me = Holder {
            user: remote::git_user(&layout.common_dir),
            machine: remote::machine(),
            clone: remote::clone_id(&runtime)?,
            session: env.session_var.clone(),
        };
        Ok(Some(Team { remote, me, runtime, _lock: lock }))
    }

    /// The team's remote.
    pub(crate) fn remote(&self) -> &Remote {
        &self.remote
    }

    /// Who this clone is on it.
    pub(crate) fn me(&self) -> &Holder {
        &self.me
    }

    fn pending(&self) -> Result<Pending, StoreError> {
        remote::read_pending(&self.runtime)
    }

    fn keep_pending(&self, pending: &Pending) -> Result<(), StoreError> {
        remote::write_pending(&self.runtime, pending)
    }

    /// Notes that this clone holds (or gives back) `task` of `feature`.
    fn note_held(&self, feature: &str, task: &str, holds: bool) -> Result<(), StoreError> {
        let mut held = remote::read_held(&self.runtime)?;
        let before = held.len();
        held.retain(|h| !(h.feature == feature && h.task == task));
        if holds {
            held.push(remote::PendingClaim { feature: feature.to_owned(), task: task.to_owned(), session: None });
        }
        if holds || held.len() != before { remote::write_held(&self.runtime, &held) } else { Ok(()) }
    }

    /// The one line that says the remote was not reached and what waits.
    fn offline_line(&self, why: &str, held: HeldHere) -> TeamSaid {
        TeamSaid::Offline { remote: self.remote.name().to_owned(), why: why.to_owned(), held }
    }
}
