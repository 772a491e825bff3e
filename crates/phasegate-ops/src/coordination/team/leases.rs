//! File leases across machines: each sync publishes this clone's leases of
//! live sessions as `refs/phasegate/leases/<clone>` (written only by this
//! clone, compare-and-swap on what it saw), and keeps the teammates'
//! published leases in a plain file the PreToolUse hook reads. A
//! teammate's lease is told before an edit, never enforced: the two
//! changes meet at a pull, where git merges them.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use phasegate_core::coordination::{LEASES, LeaseSet, TeamLease, TeammateLease, leases_ref};
use phasegate_store::Project;
use phasegate_store::remote::{self, Remote, Swap};

use super::Team;
use crate::error::OpResult;

/// The leases this clone's live sessions hold, as published.
fn ours(project: &Project, now: DateTime<Utc>) -> OpResult<Vec<TeamLease>> {
    let (leases, _) = project.coordination().leases()?;
    if leases.is_empty() {
        return Ok(Vec::new());
    }
    let (sessions, _) = project.coordination().sessions()?;
    let live: HashSet<_> = sessions.iter().filter(|s| s.health(now).liveness.is_live()).map(|s| &s.id).collect();
    Ok(leases
        .into_iter()
        .filter(|l| live.contains(&l.holder))
        .map(|l| TeamLease {
            path: l.path.as_str().to_owned(),
            session: l.holder.as_str().to_owned(),
            feature: l.feature,
            task: l.task,
            since: l.acquired_at,
        })
        .collect())
}

/// Whether this clone's leases say something the remote (as last seen)
/// does not: other leases, or a published set a third of its life old.
fn due(remote: &Remote, clone: &str, mine: &[TeamLease], now: DateTime<Utc>) -> OpResult<bool> {
    let seen = remote.seen(&leases_ref(clone))?;
    Ok(due_against(seen.as_ref(), mine, now))
}

/// [`due`] against this clone's ref as last seen.
fn due_against(seen: Option<&remote::Value>, mine: &[TeamLease], now: DateTime<Utc>) -> bool {
    match seen.and_then(|v| LeaseSet::parse(&v.body)) {
        Some(set) => set.stale_against(mine, now),
        None => !mine.is_empty(),
    }
}

/// Publishes this clone's leases when they changed or their set is due
/// (deleted when there are none); true when the remote took it. Then keeps
/// the teammates' live leases for the hooks. Called by `team sync` after
/// its fetch.
pub(super) fn publish_and_keep(team: &Team, project: &Project, now: DateTime<Utc>) -> OpResult<bool> {
    let mine = ours(project, now)?;
    let mut published = false;
    let name = leases_ref(&team.me.clone);
    let seen = team.remote.seen(&name)?;
    if due_against(seen.as_ref(), &mine, now) {
        let mut holder = team.me.clone();
        holder.session = None;
        let body = (!mine.is_empty()).then(|| LeaseSet { holder, at: now, leases: mine }.render());
        // Only this clone writes its ref: a lost swap is a teammate's
        // force-push, put right at the next sync.
        published = team.remote.swap(&name, seen.as_ref().map(|v| v.oid.as_str()), body.as_deref())? == Swap::Done;
    }
    let sets: Vec<LeaseSet> =
        team.remote.seen_under(LEASES)?.iter().filter_map(|(_, v)| LeaseSet::parse(&v.body)).collect();
    remote::write_teammate_leases(&team.runtime, &TeammateLease::of(&sets, &team.me.clone, now))?;
    Ok(published)
}

/// Whether the monitor's heartbeat should sync for the leases: this
/// clone's changed since it last published them, or their set is due.
/// Local reads only.
pub(super) fn publish_due(project: &Project, remote: &Remote, clone: &str, now: DateTime<Utc>) -> OpResult<bool> {
    let mine = ours(project, now)?;
    due(remote, clone, &mine, now)
}

/// The teammates' leases the last sync saw (no network, no git): for
/// `lease list` and the hook.
pub fn teammates(project: &Project) -> OpResult<Vec<TeammateLease>> {
    Ok(remote::read_teammate_leases(&project.runtime_dir())?)
}

/// The line before an edit of `path` that a teammate's session leases, as
/// the last sync saw it; None when none does (one look at a file when the
/// last sync saw no teammate's lease).
pub fn notice_for(project: &Project, path: &str) -> Option<String> {
    if !remote::has_teammate_leases(&project.runtime_dir()) {
        return None;
    }
    let leases = remote::read_teammate_leases(&project.runtime_dir()).ok()?;
    leases.iter().find(|l| l.path == path).map(TeammateLease::notice)
}
