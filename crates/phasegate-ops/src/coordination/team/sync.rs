//! `workflow-state team sync`: one fetch of the team's refs, then what
//! waited for the remote is carried over (numbers reserved, claims made
//! and given back), this clone's claims of tasks still in progress here
//! get a fresh heartbeat and those of tasks settled here are given back.
//! And what every clone claims, as the last sync saw it, for `status`.
//! Each sync also publishes this clone's file leases and keeps the
//! teammates' for the hooks (`leases.rs`).

use chrono::{DateTime, TimeDelta, Utc};
use phasegate_core::coordination::TeamSaid;
use phasegate_core::coordination::{CLAIM_TTL_MINUTES, CLAIMS, Claim, ClaimDecision, Claimed, claim_ref, decide_claim};
use phasegate_core::tasks::Mark;
use phasegate_store::Project;
use phasegate_store::remote::{self, PendingClaim, Swap};
use serde::Serialize;

use super::Team;
use super::claims::give_back;
use super::ids::{Carried, reserve_pending};
use crate::env::Env;
use crate::error::OpResult;
use crate::session;

/// A claim as the last sync saw it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SeenClaim {
    pub feature: String,
    pub task: String,
    /// Who holds it: `Bob <bob@x> on laptop (session 1a2b3c4d)`.
    pub holder: String,
    pub machine: String,
    /// This clone holds it.
    pub ours: bool,
    pub expires: DateTime<Utc>,
    /// Past its expiry: anyone's `tasks start` takes it over.
    pub expired: bool,
}

/// What `team sync` did.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Synced {
    pub remote: String,
    /// The remote answered.
    pub reached: bool,
    /// Said when it did not: why, on one line.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "phasegate_core::words::as_words_opt")]
    pub note: Option<TeamSaid>,
    /// Feature numbers reserved now, having waited.
    pub reserved: Vec<String>,
    /// Numbers taken here offline that a teammate reserved first: rename
    /// the feature here.
    pub clashes: Vec<String>,
    /// Claims renewed or made now.
    pub claimed: Vec<String>,
    /// Claims given back.
    pub released: Vec<String>,
    /// Every claim the remote holds.
    pub claims: Vec<SeenClaim>,
    /// This clone's file leases were published now.
    pub leases_published: bool,
    /// This clone's questions a teammate answered, taken in now (by the
    /// questions' part of the sync, `questions::team::sync`).
    pub answered: Vec<String>,
}

/// Syncs this clone with its team's remote; None without one.
pub fn sync(env: &Env) -> OpResult<Option<Synced>> {
    let project = session::project(env)?;
    let Some(team) = Team::open(&project, env)? else { return Ok(None) };
    let mut out = Synced { remote: team.remote.name().to_owned(), ..Synced::default() };
    if let Err(why) = team.remote.fetch() {
        out.note = Some(TeamSaid::NotSynced { remote: team.remote.name().to_owned(), why: why.to_string() });
        out.claims = seen(&team, env.now)?;
        return Ok(Some(out));
    }
    out.reached = true;
    let claims_waiting = carry_pending(&team, env, &mut out)?;
    make_waiting_claims(&team, env, &claims_waiting, &mut out)?;
    renew_or_give_back(&project, &team, env, &mut out)?;
    claim_lost_again(&project, &team, env, &claims_waiting, &mut out)?;
    out.claims = seen(&team, env.now)?;
    out.leases_published = super::leases::publish_and_keep(&team, &project, env.now)?;
    Ok(Some(out))
}

/// Carries over the numbers reserved and the claims given back while the
/// remote could not be reached; what still waits is kept. Returns the
/// claims made here only, taken out of what waits.
fn carry_pending(team: &Team, env: &Env, out: &mut Synced) -> OpResult<Vec<PendingClaim>> {
    let mut pending = team.pending()?;
    let mut waiting_ids = Vec::new();
    for p in std::mem::take(&mut pending.ids) {
        match reserve_pending(team, &p, env.now)? {
            Carried::Reserved => out.reserved.push(p.feature),
            Carried::Taken(by) => out.clashes.push(format!(
                "{} was numbered here while {} could not be reached, and {:03} is {by}'s: rename this feature",
                p.feature,
                team.remote.name(),
                p.id
            )),
            Carried::Waits => waiting_ids.push(p),
        }
    }
    pending.ids = waiting_ids;
    let mut waiting_releases = Vec::new();
    for r in std::mem::take(&mut pending.releases) {
        match give_back(team, &r.feature, &r.task)? {
            Ok(()) => out.released.push(format!("{} {}", r.feature, r.task)),
            Err(_) => waiting_releases.push(r),
        }
    }
    pending.releases = waiting_releases;
    let claims_waiting = std::mem::take(&mut pending.claims);
    team.keep_pending(&pending)?;
    Ok(claims_waiting)
}

/// Claims made here only: made now, unless a teammate's holds the task;
/// one the remote refused waits again.
fn make_waiting_claims(team: &Team, env: &Env, claims_waiting: &[PendingClaim], out: &mut Synced) -> OpResult<()> {
    let mut conflicts = Vec::new();
    for c in claims_waiting {
        let seen = team.remote.seen(&claim_ref(&c.feature, &c.task))?;
        match decide_claim(seen.as_ref().map(|v| v.body.as_str()), &team.me, env.now) {
            ClaimDecision::HeldElsewhere(other) => conflicts.push(format!(
                "{} of {} was started here while {} could not be reached, and {} claimed it: ask them which of you goes on",
                c.task,
                c.feature,
                team.remote.name(),
                other.holder.describe()
            )),
            ClaimDecision::Free | ClaimDecision::Ours | ClaimDecision::Expired(_) => {
                let body = Claim::new(&c.feature, &c.task, team.me.clone(), env.now).render();
                if team.remote.swap(&claim_ref(&c.feature, &c.task), seen.as_ref().map(|v| v.oid.as_str()), Some(&body))?
                    == Swap::Done
                {
                    out.claimed.push(format!("{} {}", c.feature, c.task));
                } else {
                    let mut p = team.pending()?;
                    p.claims.push(c.clone());
                    team.keep_pending(&p)?;
                }
            }
        }
    }
    out.clashes.extend(conflicts);
    Ok(())
}

/// This clone's claims: renewed while the task is in progress here,
/// given back once it is not.
fn renew_or_give_back(project: &Project, team: &Team, env: &Env, out: &mut Synced) -> OpResult<()> {
    for (name, value) in team.remote.seen_under(CLAIMS)? {
        let Some(claim) = Claim::parse(&value.body) else { continue };
        if claim.holder.clone != team.me.clone
            || out.claimed.iter().any(|c| c == &format!("{} {}", claim.feature, claim.task))
        {
            continue;
        }
        if in_progress_here(project, &claim.feature, &claim.task) {
            let body = claim.renewed(env.now).render();
            team.note_held(&claim.feature, &claim.task, true)?;
            if team.remote.swap(&name, Some(&value.oid), Some(&body))? == Swap::Done {
                out.claimed.push(format!("{} {}", claim.feature, claim.task));
            }
        } else if give_back(team, &claim.feature, &claim.task)?.is_ok() {
            team.note_held(&claim.feature, &claim.task, false)?;
            out.released.push(format!("{} {}", claim.feature, claim.task));
        }
    }
    Ok(())
}

/// What this clone claimed and still has in progress whose claim the
/// remote lost (a teammate's force-push, a deleted ref): claimed again,
/// unless another clone took it meanwhile, which is a clash to settle
/// between people. What it no longer has in progress is forgotten.
fn claim_lost_again(
    project: &Project,
    team: &Team,
    env: &Env,
    claims_waiting: &[PendingClaim],
    out: &mut Synced,
) -> OpResult<()> {
    let waited: Vec<String> = claims_waiting.iter().map(|c| format!("{} {}", c.feature, c.task)).collect();
    for held in remote::read_held(&team.runtime)? {
        let (feature, task) = (held.feature, held.task);
        let key = format!("{feature} {task}");
        if !in_progress_here(project, &feature, &task) {
            team.note_held(&feature, &task, false)?;
            continue;
        }
        if out.claimed.contains(&key) || waited.contains(&key) {
            continue;
        }
        let name = claim_ref(&feature, &task);
        let seen = team.remote.seen(&name)?;
        match decide_claim(seen.as_ref().map(|v| v.body.as_str()), &team.me, env.now) {
            ClaimDecision::Ours => {}
            ClaimDecision::HeldElsewhere(other) => {
                out.clashes.push(format!(
                    "{} of {feature} is in progress here, but {} holds its claim on {}: ask them which of you goes on",
                    Claimed::of(&task).describe(),
                    other.holder.describe(),
                    team.remote.name()
                ));
            }
            ClaimDecision::Free | ClaimDecision::Expired(_) => {
                let body = Claim::new(&feature, &task, team.me.clone(), env.now).render();
                if team.remote.swap(&name, seen.as_ref().map(|v| v.oid.as_str()), Some(&body))? == Swap::Done {
                    out.claimed.push(key);
                }
            }
        }
    }
    Ok(())
}

/// Whether the claimed task of `feature` is marked in progress in this
/// clone, or the claimed phase is the feature's phase in progress here.
fn in_progress_here(project: &Project, feature: &str, task: &str) -> bool {
    let Ok(Some(f)) = project.find_feature(feature) else { return false };
    match Claimed::of(task) {
        Claimed::Task(task) => {
            f.task_list().ok().and_then(|(list, _)| list.get(task).map(|t| t.mark == Mark::InProgress)).unwrap_or(false)
        }
        Claimed::Phase(phase) => f.load().is_ok_and(|meta| {
            let at = meta.position();
            meta.status == phasegate_core::Status::Active && at.phase == Some(phase) && at.in_progress
        }),
    }
}

fn seen(team: &Team, now: DateTime<Utc>) -> OpResult<Vec<SeenClaim>> {
    claims_of(&team.remote, &team.me.clone, now)
}

fn claims_of(remote: &remote::Remote, clone: &str, now: DateTime<Utc>) -> OpResult<Vec<SeenClaim>> {
    Ok(remote
        .seen_under(CLAIMS)?
        .iter()
        .filter_map(|(_, v)| Claim::parse(&v.body))
        .map(|c| SeenClaim {
            holder: c.holder.describe(),
            machine: c.holder.machine.clone(),
            ours: c.holder.clone == clone,
            expires: c.expires,
            expired: now > c.expires,
            feature: c.feature,
            task: c.task,
        })
        .collect())
}

/// Every claim as the last sync saw it (no network, no lock): for
/// `status`. Empty without a team remote.
pub fn seen_claims(env: &Env) -> OpResult<Vec<SeenClaim>> {
    let project = session::project(env)?;
    let Some(layout) = project.repo() else { return Ok(Vec::new()) };
    let Some(remote) = remote::Remote::configured(layout, crate::env::remote_timeout())? else { return Ok(Vec::new()) };
    if remote.seen_under(CLAIMS)?.is_empty() {
        return Ok(Vec::new());
    }
    claims_of(&remote, &remote::clone_id(&project.runtime_dir())?, env.now)
}

/// The live claims of `feature`'s tasks that other clones hold, as the
/// last sync saw them (no network): `tasks next` hands them out no more.
pub fn claimed_elsewhere(env: &Env, feature: &str) -> OpResult<Vec<SeenClaim>> {
    let mut claims = seen_claims(env)?;
    claims.retain(|c| c.feature == feature && !c.ours && !c.expired);
    Ok(claims)
}

/// The heartbeat of this clone's claims, for the plugin's monitor (`monitor
/// watch`, never a hook): a sync when a claim of this clone has lived a
/// third of its time since its heartbeat, something waits for the remote,
/// this clone's file leases changed since it published them (or their
/// published set is a third of its life old), or a question waits for a
/// person here (published for teammates, their answer taken in). Nothing else is read from the network. The lines: clashes only
/// (each becomes a notification to the model).
pub fn beat_due(env: &Env) -> OpResult<bool> {
    let project = session::project(env)?;
    let Some(layout) = project.repo() else { return Ok(false) };
    let Some(remote) = remote::Remote::configured(layout, crate::env::remote_timeout())? else {
        return Ok(false);
    };
    let renew_after = TimeDelta::minutes(CLAIM_TTL_MINUTES / 3);
    let due = seen_claims(env)?
        .iter()
        .any(|c| c.ours && c.expires - env.now < TimeDelta::minutes(CLAIM_TTL_MINUTES) - renew_after);
    let clone = remote::clone_id(&project.runtime_dir())?;
    Ok(due
        || !remote::read_pending(&project.runtime_dir())?.is_empty()
        || super::leases::publish_due(&project, &remote, &clone, env.now)?)
}
