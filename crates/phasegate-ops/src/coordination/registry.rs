//! A session's record through its life (seed 004 §1.2): SessionStart makes
//! it LOADING, work (a task, a feature, a first edit) makes it ACTIVE,
//! SessionEnd makes it COMPLETE and releases everything it held (that is
//! `leases::ended`, beside the leases, waits and notices it drops). Every
//! hook is a heartbeat: the record file's time is set (one `utimensat`).
//!
//! A session the monitor counted as down (ERROR: silent for 5 minutes, its
//! leases expired, its work given to others) that speaks again starts over
//! with a fresh record, and is told what happened while it was silent.

use std::path::Path;

use chrono::{DateTime, Utc};
use phasegate_core::coordination::{Priority, SessionRecord, SessionState};
use phasegate_core::session::SessionId;
use phasegate_store::{Project, StoreError};

use crate::env;
use crate::error;
use crate::error::{Invalid, InvalidInput, OpResult};
use crate::session;

/// What the caller should tell the session about its record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Came {
    /// As before.
    Same,
    /// It had been counted as down; this is the fresh record.
    BackFromDown { silent_minutes: i64 },
}

/// Where a sign of life comes from, and what it knows of the session's
/// process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Beat {
    pub now: DateTime<Utc>,
    /// The session's Claude Code process, when a hook gives the beat (its
    /// parent); None from a command, whose parent is a shell.
    pub pid: Option<u32>,
}

impl Beat {
    /// A command's sign of life: it knows the time only.
    pub fn at(now: DateTime<Utc>) -> Beat {
        Beat { now, pid: None }
    }

    /// A hook's: Claude Code runs it, so its parent is the session's process.
    pub fn from_hook(now: DateTime<Utc>) -> Beat {
        Beat { now, pid: crate::env::parent_process() }
    }
}

/// The session's record, made or refreshed for a hook run in `cwd` (in the
/// working tree `worktree`): a missing or ended record starts as LOADING; a
/// record in ERROR starts over. The heartbeat is `beat.now`; a hook's beat
/// also names the session's process.
pub fn ensure(
    project: &Project,
    session: &SessionId,
    cwd: &Path,
    worktree: &Path,
    beat: Beat,
) -> Result<(SessionRecord, Came), StoreError> {
    let now = beat.now;
    let existing = project.coordination().session(session).unwrap_or(None);
    let (mut record, came) = fresh_or_kept(existing.clone(), session, cwd, worktree, now);
    if beat.pid.is_some() {
        record.pid = beat.pid;
        record.process_ended = false;
    }
    // Nothing but the heartbeat changed: one `utimensat`, no rewrite.
    let same = existing.is_some_and(|mut e| {
        e.heartbeat_at = record.heartbeat_at;
        e == record
    });
    match same {
        true => {
            project.coordination().touch_session(session, now);
        }
        false => project.coordination().save_session(&record)?,
    }
    Ok((record, came))
}

/// Every hook's heartbeat: a live record is only touched (one
/// `utimensat`, nothing rewritten); a missing, ended or failed one is made
/// again as [`ensure`] does. A record that was silent past the limit says
/// so, since its leases may have gone to others meanwhile.
pub fn alive(
    project: &Project,
    session: &SessionId,
    cwd: &Path,
    worktree: &Path,
    beat: Beat,
) -> Result<(SessionRecord, Came), StoreError> {
    let now = beat.now;
    match project.coordination().session(session) {
        Ok(Some(mut r)) if r.state.holds_work() => {
            let health = r.health(now);
            r.heartbeat(now);
            // A process not on record yet (a record older than the field, or
            // a session started again) is written once; else one `utimensat`.
            let new_process = beat.pid.filter(|p| r.pid != Some(*p));
            if let Some(pid) = new_process {
                (r.pid, r.process_ended) = (Some(pid), false);
            }
            if new_process.is_none() || project.coordination().save_session(&r).is_err() {
                project.coordination().touch_session(session, now);
            }
            // Silent past the limit matters only if something could have
            // been taken meanwhile: a task, a lease, a pipeline loop. (Asked
            // only then: every hook of a live session passes here.)
            let held = || {
                r.task.is_some() || r.owns_loop.is_some() || !project.coordination().listed_leases(session).is_empty()
            };
            let came = match health.liveness.is_live() || !held() {
                true => Came::Same,
                false => Came::BackFromDown { silent_minutes: health.age_seconds / 60 },
            };
            Ok((r, came))
        }
        _ => ensure(project, session, cwd, worktree, beat),
    }
}

fn fresh_or_kept(
    existing: Option<SessionRecord>,
    session: &SessionId,
    cwd: &Path,
    worktree: &Path,
    now: DateTime<Utc>,
) -> (SessionRecord, Came) {
    let new = || {
        let mut r =
            SessionRecord::new(session.clone(), &cwd.display().to_string(), &worktree.display().to_string(), now);
        r.move_to(SessionState::Loading, now).expect("IDLE → LOADING is an arrow");
        r
    };
    match existing {
        None => (new(), Came::Same),
        Some(mut r) => {
            let came = match r.state {
                SessionState::Error => {
                    let silent = (now - r.heartbeat_at).num_minutes().max(0);
                    let held = r.task.is_some() || r.owns_loop.is_some();
                    let owns = r.owns_loop.take();
                    r = new();
                    r.owns_loop = owns;
                    // One that vanished holding nothing lost nothing.
                    match held {
                        true => Came::BackFromDown { silent_minutes: silent },
                        false => Came::Same,
                    }
                }
                SessionState::Complete => {
                    // A resumed session: COMPLETE → IDLE → LOADING.
                    let _ = r.move_to(SessionState::Idle, now);
                    let _ = r.move_to(SessionState::Loading, now);
                    r.task = None;
                    Came::Same
                }
                SessionState::Idle => {
                    let _ = r.move_to(SessionState::Loading, now);
                    Came::Same
                }
                SessionState::Loading | SessionState::Active => Came::Same,
            };
            r.cwd = cwd.display().to_string();
            if !worktree.as_os_str().is_empty() {
                r.worktree = worktree.display().to_string();
            }
            r.heartbeat(now);
            (r, came)
        }
    }
}

/// The session works: ACTIVE, with its feature, task and priority when
/// given (a task's own priority replaces the session's).
pub fn working(
    project: &Project,
    record: &mut SessionRecord,
    feature: Option<&str>,
    task: Option<&str>,
    priority: Option<Priority>,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    let before = record.clone();
    activate(record, now);
    if let Some(f) = feature {
        record.feature = Some(f.to_owned());
    }
    if task.is_some() {
        record.task = task.map(str::to_owned);
    }
    if let Some(p) = priority {
        record.priority = p;
    }
    if *record != before {
        record.heartbeat(now);
        project.coordination().save_session(record)?;
    }
    Ok(())
}

/// LOADING (or IDLE) → ACTIVE.
fn activate(record: &mut SessionRecord, now: DateTime<Utc>) {
    match record.state {
        SessionState::Idle => {
            let _ = record.move_to(SessionState::Loading, now);
            let _ = record.move_to(SessionState::Active, now);
        }
        SessionState::Loading => {
            let _ = record.move_to(SessionState::Active, now);
        }
        SessionState::Active | SessionState::Complete | SessionState::Error => {}
    }
}

/// A session named on the command line (`--session`): the whole id, or a
/// beginning of one as messages print it (8 characters or more) that names
/// exactly one session on record.
pub fn session_arg(project: &Project, given: &str) -> OpResult<SessionId> {
    let id = SessionId::parse(given).invalid(format!("--session {given}"))?;
    if project.coordination().session(&id).ok().flatten().is_some() {
        return Ok(id);
    }
    let mut known: Vec<SessionId> =
        project.coordination().sessions().map(|(s, _)| s.into_iter().map(|r| r.id).collect()).unwrap_or_default();
    known.extend(project.coordination().lease_lists().into_iter().map(|(id, _)| id));
    known.sort();
    known.dedup();
    let matching: Vec<&SessionId> = known.iter().filter(|k| k.answers_to(given)).collect();
    match matching.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Ok(id),
        many => Err(Invalid::AmbiguousSession {
            given: given.to_owned(),
            matching: many.iter().map(|s| s.as_str().to_owned()).collect(),
        }
        .into()),
    }
}

/// `sessions priority`: sets a session's priority (this one's by default).
pub fn set_priority(env: &env::Env, given: Option<&str>, priority: Priority) -> error::OpResult<SessionRecord> {
    let project = session::project(env)?;
    let id = env.session(given)?.ok_or(Invalid::NoPrioritySession)?;
    let root = project.repo().map(|r| r.current_root.clone()).unwrap_or_else(|| project.root().to_owned());
    let (mut r, _) = alive(&project, &id, &env.cwd, &root, Beat::at(env.now))?;
    r.priority = priority;
    project.coordination().save_session(&r)?;
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeDelta;

    fn sid() -> SessionId {
        SessionId::parse("s1").unwrap()
    }

    #[test]
    fn a_new_session_loads_a_resumed_one_loads_again_a_down_one_starts_over() {
        let now = phasegate_core::time::now();
        let (r, came) = fresh_or_kept(None, &sid(), Path::new("/r"), Path::new("/r"), now);
        assert_eq!((r.state, came), (SessionState::Loading, Came::Same));

        let mut done = r.clone();
        done.state = SessionState::Complete;
        done.task = Some("T1".into());
        let (r2, _) = fresh_or_kept(Some(done), &sid(), Path::new("/r"), Path::new("/r"), now);
        assert_eq!((r2.state, r2.task), (SessionState::Loading, None));

        let mut down = r.clone();
        down.state = SessionState::Error;
        down.heartbeat_at = now - TimeDelta::minutes(7);
        down.owns_loop = Some("001-x".into());
        let (r3, came) = fresh_or_kept(Some(down), &sid(), Path::new("/r"), Path::new("/r"), now);
        assert_eq!((r3.state, came), (SessionState::Loading, Came::BackFromDown { silent_minutes: 7 }));
        assert_eq!(r3.owns_loop.as_deref(), Some("001-x"), "a pipeline's owner stays its owner");
    }
}
