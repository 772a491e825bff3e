//! Feature numbers that cannot collide: `feature new` reserves its number
//! as `refs/phasegate/ids/<NNN>` on the remote (created, never moved: the
//! first push wins, the loser takes the next free number). Offline, the
//! number is the next one free here and by what the last sync saw, and
//! waits in `pending.json`; `team sync` reserves it later, and says so if
//! a teammate took it meanwhile (renaming is then the user's).

use chrono::{DateTime, Utc};
use phasegate_core::coordination::{HeldHere, TeamSaid};
use phasegate_core::coordination::{Reservation, first_free, id_of_ref, id_ref};
use phasegate_store::remote::{PendingId, Swap};
use phasegate_store::{Project, StoreError};

use super::{ROUNDS, Team};
use crate::env::Env;

/// Gives `feature new` its number (see the module's documentation).
pub struct Reserver<'a> {
    project: &'a Project,
    env: &'a Env,
    slug: String,
    /// The one line said when the number could not be reserved on the
    /// remote.
    pub note: Option<TeamSaid>,
}

/// A reserver for a feature named `slug`.
pub fn reserver<'a>(project: &'a Project, env: &'a Env, slug: &str) -> Reserver<'a> {
    Reserver { project, env, slug: slug.to_owned(), note: None }
}

impl Reserver<'_> {
    /// The number to use, `next` (the next free here) or higher.
    pub fn reserve(&mut self, next: u32) -> Result<u32, StoreError> {
        let Some(team) = Team::open(self.project, self.env)? else { return Ok(next) };
        let mut why = String::new();
        let mut n = next;
        for _ in 0..ROUNDS {
            if let Err(e) = team.remote.fetch() {
                why = e;
                break;
            }
            n = first_free(next, &taken(&team)?);
            match team.remote.swap(&id_ref(n), None, Some(&self.reservation(&team, n, self.env.now)))? {
                Swap::Done => return Ok(n),
                Swap::Moved => continue,
                Swap::Unreachable(e) => {
                    why = e;
                    break;
                }
            }
        }
        if why.is_empty() {
            why = "it kept changing".into();
        }
        // What the last sync saw is still worth avoiding.
        n = first_free(n, &taken(&team)?);
        let feature = format!("{n:03}-{}", self.slug);
        let mut pending = team.pending()?;
        pending.ids.push(PendingId { id: n, feature: feature.clone() });
        team.keep_pending(&pending)?;
        self.note = Some(team.offline_line(&why, HeldHere::Reserved(format!("{n:03}"))));
        Ok(n)
    }

    fn reservation(&self, team: &Team, n: u32, now: DateTime<Utc>) -> String {
        Reservation { id: n, feature: format!("{n:03}-{}", self.slug), holder: team.me.clone(), at: now }.render()
    }
}

/// The numbers reserved on the remote, as the last fetch saw them.
fn taken(team: &Team) -> Result<Vec<u32>, StoreError> {
    Ok(team.remote.seen_under("ids/")?.iter().filter_map(|(name, _)| id_of_ref(name)).collect())
}

/// What became of a number that waited for the remote.
pub(super) enum Carried {
    Reserved,
    /// A teammate reserved it first: their feature and who they are.
    Taken(String),
    /// The remote could not be reached: it waits on.
    Waits,
}

/// Reserves a number that waited for the remote (the caller fetched).
pub(super) fn reserve_pending(team: &Team, p: &PendingId, now: DateTime<Utc>) -> Result<Carried, StoreError> {
    let name = id_ref(p.id);
    for _ in 0..ROUNDS {
        if let Some(v) = team.remote.seen(&name)? {
            return Ok(match Reservation::parse(&v.body) {
                Some(r) if r.holder.clone == team.me.clone => Carried::Reserved,
                Some(r) => Carried::Taken(format!("{} by {}", r.feature, r.holder.describe())),
                None => Carried::Taken("a ref that is no reservation".into()),
            });
        }
        let body = Reservation { id: p.id, feature: p.feature.clone(), holder: team.me.clone(), at: now }.render();
        match team.remote.swap(&name, None, Some(&body))? {
            Swap::Done => return Ok(Carried::Reserved),
            Swap::Moved if team.remote.fetch().is_ok() => continue,
            Swap::Moved | Swap::Unreachable(_) => break,
        }
    }
    Ok(Carried::Waits)
}
