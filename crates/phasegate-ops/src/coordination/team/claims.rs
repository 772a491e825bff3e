//! Claims across machines: `tasks start` claims the task as
//! `refs/phasegate/claims/<feature>/<task>` (holder, heartbeat, expiry),
//! and `phase start` of a phase that is not split into tasks claims the
//! phase as `claims/<feature>/phase-<phase>`; a live claim of another
//! clone refuses the start, naming the holder; an expired one is taken
//! over; `tasks complete`, `skip` and `fail` give a task's back, the
//! phase's completion the phase's. The first attempt trusts what the last sync saw (one round trip);
//! a lost compare-and-swap, or a claim seen held elsewhere, reads the
//! remote again before deciding.

use chrono::{DateTime, Utc};
use phasegate_core::Phase;
use phasegate_core::coordination::{Claim, ClaimDecision, Claimed, claim_ref, decide_claim};
use phasegate_core::coordination::{HeldHere, TeamSaid};
use phasegate_store::remote::{PendingClaim, Swap};
use phasegate_store::{Feature, Project};

use super::{ROUNDS, Team};
use crate::env::Env;
use crate::error::{OpResult, Refusal};

/// Claims `what` of `feature` for this clone. Ok(None): claimed (or no
/// team); Ok(Some(line)): claimed here only, the line says why; Err: held
/// elsewhere (exit 1).
pub fn claim(project: &Project, env: &Env, feature: &str, what: Claimed<'_>) -> OpResult<Option<TeamSaid>> {
    let Some(team) = Team::open(project, env)? else { return Ok(None) };
    let task = what.name();
    let task = task.as_str();
    let name = claim_ref(feature, task);
    let mut fetched = false;
    let mut why = String::from("it kept changing");
    let mut note = None;
    for _ in 0..ROUNDS {
        let seen = team.remote.seen(&name)?;
        let decision = decide_claim(seen.as_ref().map(|v| v.body.as_str()), &team.me, env.now);
        if let ClaimDecision::HeldElsewhere(c) = &decision {
            if fetched {
                return Err(held_elsewhere(&team, c));
            }
            match team.remote.fetch() {
                Ok(()) => {
                    fetched = true;
                    continue;
                }
                // Held when last seen: still refused, said as such.
                Err(_) => return Err(held_elsewhere(&team, c)),
            }
        }
        if let ClaimDecision::Expired(c) = &decision {
            note = Some(TeamSaid::TookOver {
                what: what.describe(),
                holder: c.holder.describe(),
                remote: team.remote.name().to_owned(),
                expired: when(c.expires),
            });
        }
        let body = Claim::new(feature, task, team.me.clone(), env.now).render();
        match team.remote.swap(&name, seen.as_ref().map(|v| v.oid.as_str()), Some(&body))? {
            Swap::Done => {
                drop_pending(&team, feature, task)?;
                team.note_held(feature, task, true)?;
                return Ok(note);
            }
            Swap::Moved => match team.remote.fetch() {
                Ok(()) => fetched = true,
                Err(e) => {
                    why = e;
                    break;
                }
            },
            Swap::Unreachable(e) => {
                why = e;
                break;
            }
        }
    }
    let mut pending = team.pending()?;
    pending.releases.retain(|p| !(p.feature == feature && p.task == task));
    if !pending.claims.iter().any(|p| p.feature == feature && p.task == task) {
        pending.claims.push(PendingClaim {
            feature: feature.to_owned(),
            task: task.to_owned(),
            session: env.session_var.clone(),
        });
    }
    team.keep_pending(&pending)?;
    team.note_held(feature, task, true)?;
    Ok(Some(team.offline_line(&why, HeldHere::Claimed(what.describe()))))
}

/// `phase start`'s claim: the phase of `feature` for this clone, unless
/// the phase is split into tasks (implement with a task list: each task is
/// claimed by its own start, so teammates share the phase task by task).
/// As [`claim`].
pub fn phase_started(project: &Project, env: &Env, feature: &Feature, phase: Phase) -> OpResult<Option<TeamSaid>> {
    let by_tasks = phase == Phase::Implement && feature.task_list().is_ok_and(|(list, _)| !list.tasks.is_empty());
    if by_tasks {
        return Ok(None);
    }
    claim(project, env, feature.name(), Claimed::Phase(phase))
}

/// The phase's claim given back once it completed: the line when the
/// remote could not be told (it is kept for `team sync`) or the claim not
/// read.
pub fn phase_ended(project: &Project, env: &Env, feature: &str, phase: Phase) -> Option<TeamSaid> {
    release(project, env, feature, Claimed::Phase(phase))
        .unwrap_or_else(|e| Some(TeamSaid::NotGivenBack { phase, error: e.to_string() }))
}

/// Gives back this clone's claim of `what` (a task settled, a phase
/// completed). Ok(Some(line)) when the remote could not be told.
pub fn release(project: &Project, env: &Env, feature: &str, what: Claimed<'_>) -> OpResult<Option<TeamSaid>> {
    let Some(team) = Team::open(project, env)? else { return Ok(None) };
    let task = what.name();
    let task = task.as_str();
    let mut pending = team.pending()?;
    pending.claims.retain(|p| !(p.feature == feature && p.task == task));
    team.keep_pending(&pending)?;
    team.note_held(feature, task, false)?;
    match give_back(&team, feature, task)? {
        Ok(()) => Ok(None),
        Err(why) => {
            let mut pending = team.pending()?;
            pending.releases.push(PendingClaim { feature: feature.to_owned(), task: task.to_owned(), session: None });
            team.keep_pending(&pending)?;
            Ok(Some(team.offline_line(&why, HeldHere::GivenBack(what.describe()))))
        }
    }
}

/// Deletes the claim if it is this clone's (compare-and-swap on the value
/// seen); Err(why) when the remote could not be reached.
pub(super) fn give_back(team: &Team, feature: &str, task: &str) -> OpResult<Result<(), String>> {
    let name = claim_ref(feature, task);
    for _ in 0..ROUNDS {
        let Some(seen) = team.remote.seen(&name)? else { return Ok(Ok(())) };
        if decide_claim(Some(&seen.body), &team.me, chrono::DateTime::<Utc>::MIN_UTC) != ClaimDecision::Ours {
            // Another clone's (a takeover): not ours to give back.
            return Ok(Ok(()));
        }
        match team.remote.swap(&name, Some(&seen.oid), None)? {
            Swap::Done => return Ok(Ok(())),
            Swap::Moved => {
                if let Err(e) = team.remote.fetch() {
                    return Ok(Err(e));
                }
            }
            Swap::Unreachable(e) => return Ok(Err(e)),
        }
    }
    Ok(Err("it kept changing".into()))
}

fn drop_pending(team: &Team, feature: &str, task: &str) -> OpResult<()> {
    let mut pending = team.pending()?;
    let before = pending.clone();
    pending.claims.retain(|p| !(p.feature == feature && p.task == task));
    if pending != before {
        team.keep_pending(&pending)?;
    }
    Ok(())
}

fn held_elsewhere(team: &Team, c: &Claim) -> crate::error::OpError {
    let held = format!("{} by {}", team.remote.name(), c.holder.describe());
    let times = format!("last heartbeat {}, the claim expires {}", when(c.heartbeat), when(c.expires));
    let feature = c.feature.clone();
    match Claimed::of(&c.task) {
        Claimed::Task(task) => Refusal::ClaimedElsewhere { task: task.to_owned(), feature, held, times },
        Claimed::Phase(phase) => Refusal::PhaseClaimedElsewhere { phase, feature, held, times },
    }
    .into()
}

/// A time as the refusal shows it: `2026-11-28 10:31 UTC`.
fn when(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%d %H:%M UTC").to_string()
}
