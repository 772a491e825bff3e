//! A team across machines: the rules of the state kept as refs on the git
//! remote (docs/design.md, "A team across machines"). The store moves the
//! refs; these functions decide, with the clock passed in.
//!
//! Design choices:
//! - Every ref lives under `refs/phasegate/` on the remote: `ids/<NNN>`
//!   reserves a feature number, `claims/<feature>/<task>` holds a task.
//!   Each points to a commit (empty tree) whose message is the JSON below.
//! - A claim belongs to a clone (a random id kept in git's directory), not
//!   to a session: sessions of one clone already share `.git/phasegate/`,
//!   where the local rules (leases, the task's mark) decide between them.
//! - A claim lives [`CLAIM_TTL_MINUTES`] after its last heartbeat. An
//!   expired claim may be taken over by anyone; a live one held by another
//!   clone refuses the start. An unreadable claim (a teammate's force-push
//!   of something else) holds nothing, like an unreadable local lease.
//! - A number is reserved once and for good: `ids/<NNN>` is created, never
//!   moved or deleted; the first push wins, the loser takes the next.

use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};

/// How long a claim lives after its last heartbeat.
pub const CLAIM_TTL_MINUTES: i64 = 30;

/// Who holds a claim or made a reservation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Holder {
    /// `user.name <user.email>` of git's configuration (empty when unset).
    pub user: String,
    /// The machine's host name.
    pub machine: String,
    /// The clone: a random id kept in its git directory.
    pub clone: String,
    /// The Claude Code session, when one ran the command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
}

impl Holder {
    /// `Bob <bob@example.com> on laptop (session 1a2b3c4d)`: who to ask.
    pub fn describe(&self) -> String {
        let user = if self.user.trim().is_empty() { "someone (no git user.name)" } else { self.user.trim() };
        let mut out = format!("{user} on {}", self.machine);
        if let Some(s) = &self.session {
            out.push_str(&format!(" (session {})", s.chars().take(8).collect::<String>()));
        }
        out
    }
}

/// A task held by one clone, as its ref's message says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Claim {
    pub feature: String,
    pub task: String,
    pub holder: Holder,
    pub heartbeat: DateTime<Utc>,
    pub expires: DateTime<Utc>,
}

impl Claim {
    /// A claim of `task` by `holder`, beating now.
    pub fn new(feature: &str, task: &str, holder: Holder, now: DateTime<Utc>) -> Claim {
        Claim {
            feature: feature.to_owned(),
            task: task.to_owned(),
            holder,
            heartbeat: now,
            expires: now + TimeDelta::minutes(CLAIM_TTL_MINUTES),
        }
    }

    /// The same claim with a fresh heartbeat.
    pub fn renewed(&self, now: DateTime<Utc>) -> Claim {
        Claim::new(&self.feature, &self.task, self.holder.clone(), now)
    }

    /// A ref's message read as a claim; None when it is not one.
    pub fn parse(body: &str) -> Option<Claim> {
        serde_json::from_str(body.trim()).ok()
    }

    pub fn render(&self) -> String {
        serde_json::to_string(self).expect("a claim serialises")
    }
}

/// A feature number reserved on the remote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Reservation {
    pub id: u32,
    /// The feature it was reserved for (`004-search`).
    pub feature: String,
    pub holder: Holder,
    pub at: DateTime<Utc>,
}

impl Reservation {
    pub fn render(&self) -> String {
        serde_json::to_string(self).expect("a reservation serialises")
    }

    pub fn parse(body: &str) -> Option<Reservation> {
        serde_json::from_str(body.trim()).ok()
    }
}

/// What a start may do about a task's claim on the remote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClaimDecision {
    /// Nobody holds it (or its ref holds no claim): claim it.
    Free,
    /// This clone holds it: renew it.
    Ours,
    /// Another clone held it and let it expire: take it over.
    Expired(Claim),
    /// Another clone holds it: refused, naming the holder.
    HeldElsewhere(Claim),
}

/// The claim rule: `current` is the ref's message as last seen (None: no
/// ref), `me` the clone asking.
pub fn decide_claim(current: Option<&str>, me: &Holder, now: DateTime<Utc>) -> ClaimDecision {
    let Some(claim) = current.and_then(Claim::parse) else { return ClaimDecision::Free };
    if claim.holder.clone == me.clone {
        ClaimDecision::Ours
    } else if now > claim.expires {
        ClaimDecision::Expired(claim)
    } else {
        ClaimDecision::HeldElsewhere(claim)
    }
}

/// The ref (below `refs/phasegate/`) that reserves feature number `id`.
pub fn id_ref(id: u32) -> String {
    format!("ids/{id:03}")
}

/// The number an `ids/<NNN>` ref reserves.
pub fn id_of_ref(name: &str) -> Option<u32> {
    let n = name.strip_prefix("ids/")?;
    (n.len() >= 3 && n.bytes().all(|b| b.is_ascii_digit())).then(|| n.parse().ok()).flatten()
}

/// The folder of claim refs (below `refs/phasegate/`).
pub const CLAIMS: &str = "claims/";

/// The ref (below `refs/phasegate/`) that claims `task` of `feature`.
pub fn claim_ref(feature: &str, task: &str) -> String {
    format!("{CLAIMS}{}/{}", ref_component(feature), ref_component(task))
}

/// The folder of the refs that publish each clone's file leases (below
/// `refs/phasegate/`): `leases/<clone>`, one per clone, written only by it.
pub const LEASES: &str = "leases/";

/// The ref that publishes clone `clone`'s file leases.
pub fn leases_ref(clone: &str) -> String {
    format!("{LEASES}{}", ref_component(clone))
}

/// A file a session of a clone leases, as its clone publishes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamLease {
    /// The path in the working tree (`/`-separated).
    pub path: String,
    pub session: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feature: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    pub since: DateTime<Utc>,
}

/// A clone's live file leases, as its last sync published them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LeaseSet {
    pub holder: Holder,
    /// When it was published: a set older than [`CLAIM_TTL_MINUTES`] is
    /// from a clone that stopped syncing, and holds nothing.
    pub at: DateTime<Utc>,
    pub leases: Vec<TeamLease>,
}

impl LeaseSet {
    pub fn render(&self) -> String {
        serde_json::to_string(self).expect("a lease set serialises")
    }

    pub fn parse(body: &str) -> Option<LeaseSet> {
        serde_json::from_str(body.trim()).ok()
    }

    /// Whether it still speaks for its clone at `now`.
    pub fn live(&self, now: DateTime<Utc>) -> bool {
        now <= self.at + TimeDelta::minutes(CLAIM_TTL_MINUTES)
    }

    /// Whether publishing `leases` at `now` would say something new: other
    /// leases, or this set a third of its life old (its heartbeat).
    pub fn stale_against(&self, leases: &[TeamLease], now: DateTime<Utc>) -> bool {
        self.leases != leases || now - self.at >= TimeDelta::minutes(CLAIM_TTL_MINUTES / 3)
    }
}

/// The folder of the refs that publish the questions a clone waits on a
/// person for (below `refs/phasegate/`): `questions/<id>`, written only by
/// the asking clone.
pub const QUESTIONS: &str = "questions/";

/// The folder of teammates' answers: `answers/<id>`, created once by the
/// first teammate who answers (compare-and-swap on its absence), taken in
/// and deleted by the asking clone.
pub const ANSWERS: &str = "answers/";

/// The ref that publishes question `id`.
pub fn question_ref(id: &str) -> String {
    format!("{QUESTIONS}{}", ref_component(id))
}

/// The ref that carries a teammate's answer to question `id`.
pub fn answer_ref(id: &str) -> String {
    format!("{ANSWERS}{}", ref_component(id))
}

/// A question a clone waits on a person for, as it publishes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SharedQuestion {
    pub id: String,
    pub feature: String,
    pub question: String,
    /// Its options' labels; none: free text.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// Only a person answers it (a waiver, a budget raise, …): a teammate
    /// answers it at a terminal outside Claude Code.
    pub person_only: bool,
    pub asker: Holder,
    pub asked_at: DateTime<Utc>,
}

impl SharedQuestion {
    pub fn render(&self) -> String {
        serde_json::to_string(self).expect("a question serialises")
    }

    pub fn parse(body: &str) -> Option<SharedQuestion> {
        serde_json::from_str(body.trim()).ok()
    }

    /// `text` as an answer: an option by number or label (any case), or
    /// free text when it has no options; None when it answers nothing.
    pub fn interpret(&self, text: &str) -> Option<String> {
        let t = text.trim();
        if t.is_empty() {
            return None;
        }
        if self.options.is_empty() {
            return Some(t.to_owned());
        }
        if let Ok(n) = t.parse::<usize>()
            && let Some(label) = n.checked_sub(1).and_then(|i| self.options.get(i))
        {
            return Some(label.clone());
        }
        self.options.iter().find(|o| o.eq_ignore_ascii_case(t)).cloned()
    }
}

/// A teammate's answer to a published question.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamAnswer {
    pub id: String,
    pub text: String,
    pub by: Holder,
    pub at: DateTime<Utc>,
}

impl TeamAnswer {
    pub fn render(&self) -> String {
        serde_json::to_string(self).expect("an answer serialises")
    }

    pub fn parse(body: &str) -> Option<TeamAnswer> {
        serde_json::from_str(body.trim()).ok()
    }
}

/// A teammate's file lease as this clone last saw it (the cache the hooks
/// read, without git or the network).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeammateLease {
    pub path: String,
    /// Who: `Bob <bob@x> on laptop (session 1a2b3c4d)`.
    pub holder: String,
    pub machine: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feature: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    pub since: DateTime<Utc>,
    /// When their clone published it.
    pub as_of: DateTime<Utc>,
}

impl TeammateLease {
    /// The teammates' leases in `sets`, the sets of other clones than
    /// `me` that still speak for their clone at `now`.
    pub fn of(sets: &[LeaseSet], me: &str, now: DateTime<Utc>) -> Vec<TeammateLease> {
        let mut out: Vec<TeammateLease> = sets
            .iter()
            .filter(|s| s.holder.clone != me && s.live(now))
            .flat_map(|s| {
                s.leases.iter().map(|l| {
                    let mut holder = s.holder.clone();
                    holder.session = Some(l.session.clone());
                    TeammateLease {
                        path: l.path.clone(),
                        holder: holder.describe(),
                        machine: s.holder.machine.clone(),
                        feature: l.feature.clone(),
                        task: l.task.clone(),
                        since: l.since,
                        as_of: s.at,
                    }
                })
            })
            .collect();
        out.sort_by(|a, b| a.path.cmp(&b.path).then(a.holder.cmp(&b.holder)));
        out
    }

    /// The line the PreToolUse hook adds before an edit of this file.
    pub fn notice(&self) -> String {
        let work = match (&self.task, &self.feature) {
            (Some(t), Some(f)) => format!(", for {t} of {f}"),
            (None, Some(f)) => format!(", for {f}"),
            _ => String::new(),
        };
        format!(
            "phasegate: {} is leased on a teammate's machine: {}{work}, as their clone published it at {}. The edit goes through here; your change and theirs meet at the next pull, so agree with them who edits it.",
            self.path,
            self.holder,
            self.as_of.format("%Y-%m-%d %H:%M UTC")
        )
    }
}

/// What a claim holds: a task, or a phase of a feature that is not split
/// into tasks (its claim named `phase-<phase>`; task ids are never that).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claimed<'a> {
    Task(&'a str),
    Phase(crate::Phase),
}

/// The prefix of a phase's claim name.
const PHASE_CLAIM: &str = "phase-";

impl<'a> Claimed<'a> {
    /// A claim's `task` field read back.
    pub fn of(name: &'a str) -> Claimed<'a> {
        let phase =
            name.strip_prefix(PHASE_CLAIM).and_then(|p| crate::Phase::ALL.into_iter().find(|x| <&str>::from(*x) == p));
        match phase {
            Some(phase) => Claimed::Phase(phase),
            None => Claimed::Task(name),
        }
    }

    /// The name kept in the claim's `task` field and its ref.
    pub fn name(self) -> String {
        match self {
            Claimed::Task(t) => t.to_owned(),
            Claimed::Phase(p) => format!("{PHASE_CLAIM}{}", <&str>::from(p)),
        }
    }

    /// As a line says it: `T1`, `the design phase`.
    pub fn describe(self) -> String {
        match self {
            Claimed::Task(t) => t.to_owned(),
            Claimed::Phase(p) => format!("the {} phase", <&str>::from(p)),
        }
    }
}

/// A name as one component of a ref: kept when git accepts it as it is
/// (letters, digits, `-`, `_`, `.`, not starting with `.`, no `..`, not
/// ending in `.lock`), else `x-` and its bytes in hex.
fn ref_component(name: &str) -> String {
    let plain = !name.is_empty()
        && name.len() <= 100
        && !name.starts_with('.')
        && !name.starts_with("x-")
        && !name.contains("..")
        && !name.ends_with(".lock")
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if plain { name.to_owned() } else { format!("x-{}", name.bytes().map(|b| format!("{b:02x}")).collect::<String>()) }
}

/// The first number from `from` on that no reservation in `taken` holds.
pub fn first_free(from: u32, taken: &[u32]) -> u32 {
    let mut n = from.max(1);
    while taken.contains(&n) {
        n = n.saturating_add(1);
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(min: i64) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-11-28T10:00:00Z").unwrap().with_timezone(&Utc) + TimeDelta::minutes(min)
    }

    fn holder(clone: &str) -> Holder {
        Holder { user: "Ann <ann@x>".into(), machine: "laptop".into(), clone: clone.into(), session: None }
    }

    #[test]
    fn a_claim_is_free_ours_held_or_expired() {
        let claim = Claim::new("001-a", "T1", holder("c1"), at(0)).render();
        assert_eq!(decide_claim(None, &holder("c2"), at(0)), ClaimDecision::Free);
        assert_eq!(decide_claim(Some("not json"), &holder("c2"), at(0)), ClaimDecision::Free);
        assert_eq!(decide_claim(Some(&claim), &holder("c1"), at(1)), ClaimDecision::Ours);
        assert!(matches!(decide_claim(Some(&claim), &holder("c2"), at(30)), ClaimDecision::HeldElsewhere(_)));
        assert!(matches!(decide_claim(Some(&claim), &holder("c2"), at(31)), ClaimDecision::Expired(_)));
    }

    #[test]
    fn refs_are_valid_names_for_any_task_id() {
        assert_eq!(claim_ref("001-a", "T1"), "claims/001-a/T1");
        assert_eq!(claim_ref("001-a", "T 1"), "claims/001-a/x-542031");
        assert_eq!(claim_ref("001-a", "a.lock"), "claims/001-a/x-612e6c6f636b");
        assert_eq!(id_ref(4), "ids/004");
        assert_eq!(id_of_ref("ids/004"), Some(4));
        assert_eq!(id_of_ref("ids/4"), None);
        assert_eq!(first_free(3, &[3, 4, 6]), 5);
    }

    #[test]
    fn a_lease_set_speaks_for_its_clone_for_the_claims_time_and_is_renewed_at_a_third() {
        let lease =
            TeamLease { path: "src/a.rs".into(), session: "s1".into(), feature: None, task: None, since: at(0) };
        let set = LeaseSet { holder: holder("c1"), at: at(0), leases: vec![lease.clone()] };
        assert_eq!(LeaseSet::parse(&set.render()), Some(set.clone()));
        assert!(set.live(at(30)) && !set.live(at(31)));
        assert!(!set.stale_against(std::slice::from_ref(&lease), at(9)));
        assert!(set.stale_against(std::slice::from_ref(&lease), at(10)));
        assert!(set.stale_against(&[], at(1)));
        assert_eq!(leases_ref("c1"), "leases/c1");
    }

    #[test]
    fn teammates_leases_are_other_clones_live_sets() {
        let lease = |p: &str| TeamLease {
            path: p.into(),
            session: "s1abcdef99".into(),
            feature: Some("001-a".into()),
            task: Some("T1".into()),
            since: at(0),
        };
        let mine = LeaseSet { holder: holder("me"), at: at(0), leases: vec![lease("src/m.rs")] };
        let theirs = LeaseSet { holder: holder("c2"), at: at(0), leases: vec![lease("src/b.rs"), lease("src/a.rs")] };
        let gone = LeaseSet { holder: holder("c3"), at: at(-40), leases: vec![lease("src/c.rs")] };
        let seen = TeammateLease::of(&[mine, theirs, gone], "me", at(5));
        assert_eq!(seen.iter().map(|l| l.path.as_str()).collect::<Vec<_>>(), ["src/a.rs", "src/b.rs"]);
        assert_eq!(seen[0].holder, "Ann <ann@x> on laptop (session s1abcdef)");
        assert!(seen[0].notice().starts_with("phasegate: src/a.rs is leased on a teammate's machine: Ann <ann@x> on laptop (session s1abcdef), for T1 of 001-a, as their clone published it at 2026-11-28 10:00 UTC."));
    }

    #[test]
    fn a_teammates_answer_picks_an_option_by_number_or_label() {
        let q = SharedQuestion {
            id: "001-a.1".into(),
            feature: "001-a".into(),
            question: "Waive R1?".into(),
            options: vec!["Yes".into(), "No".into()],
            person_only: true,
            asker: holder("c1"),
            asked_at: at(0),
        };
        assert_eq!(SharedQuestion::parse(&q.render()), Some(q.clone()));
        assert_eq!(q.interpret("yes").as_deref(), Some("Yes"));
        assert_eq!(q.interpret("2").as_deref(), Some("No"));
        assert_eq!(q.interpret("maybe"), None);
        assert_eq!(q.interpret("3"), None);
        let free = SharedQuestion { options: vec![], ..q };
        assert_eq!(free.interpret(" use JWT ").as_deref(), Some("use JWT"));
        assert_eq!(question_ref("001-a.1"), "questions/001-a.1");
        assert_eq!(answer_ref("001-a.1"), "answers/001-a.1");
    }

    #[test]
    fn a_phase_claim_reads_back_as_the_phase() {
        let name = Claimed::Phase(crate::Phase::Design).name();
        assert_eq!(name, "phase-design");
        assert_eq!(Claimed::of(&name), Claimed::Phase(crate::Phase::Design));
        assert_eq!(Claimed::of("T1"), Claimed::Task("T1"));
        assert_eq!(Claimed::of("phase-x"), Claimed::Task("phase-x"));
        assert_eq!(Claimed::of(&name).describe(), "the design phase");
    }

    #[test]
    fn the_holder_is_named_with_machine_and_session() {
        let mut h = holder("c1");
        h.session = Some("1a2b3c4d5e6f".into());
        assert_eq!(h.describe(), "Ann <ann@x> on laptop (session 1a2b3c4d)");
    }
}
