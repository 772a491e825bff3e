//! File leases: which session may edit a file, and what happens when a
//! second one asks (seed 004 §8.2, `handle_conflict`).
//!
//! Design choices:
//! - A lease is keyed by its path relative to the repository root, across
//!   all worktrees of the repository: the same file edited in two worktrees
//!   collides at merge time, which is what leases exist to prevent.
//! - A path is validated before it becomes a key ([`LeasePath::parse`]):
//!   backslashes become `/`, `./` segments and repeated slashes go, and an
//!   absolute path, a `..` segment, a control character or a path naming no
//!   file is refused. [`LeasePath::within`] turns the absolute path a tool
//!   call names into one relative to its worktree root.
//! - Case: [`PathCase::Insensitive`] compares keys lowercased, for macOS and
//!   Windows disks where `Src/A.rs` and `src/a.rs` are one file; the path
//!   keeps the spelling it was given for messages.
//! - A lease does not expire by time: it lives as long as its holder is live
//!   (see `session.rs`). A lease whose holder is down, or has no session
//!   record at all, has expired, and the file goes to the requester.
//! - A holder whose record says it ended (COMPLETE, or ERROR after the
//!   monitor counted it down) holds nothing either, however fresh its
//!   last heartbeat.
//! - Same holder asking again: granted, the lease unchanged (idempotent).
//! - Preemption hands the lease over at once: the requester may edit now,
//!   and the former owner is told to pause and yield; its own next edit of
//!   the file is then denied like anyone else's. No half-transferred state.
//! - Equal priority: the owner keeps the file (§8.2's `is_higher_priority`
//!   is strict).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::session::{Health, Liveness, SessionRecord, SessionState};
use crate::priority::Priority;
use crate::session::SessionId;

/// §8.2, DENY's `suggestion`.
pub(crate) const DENY_SUGGESTION: &str = "Wait or request change";
/// §8.2, GRANT's `reason` for an unowned file.
pub(crate) const UNOWNED_REASON: &str = "File unowned - granting to first requestor";

/// How lease keys compare.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum PathCase {
    /// Linux disks: `a.rs` and `A.rs` are two files.
    #[default]
    Sensitive,
    /// macOS and Windows disks: they are one.
    Insensitive,
}

crate::named!(PathCase, "path case");

impl PathCase {
    /// How the disks of this build's platform compare names: macOS and
    /// Windows fold case, everything else does not.
    pub fn native() -> PathCase {
        match cfg!(any(target_os = "macos", target_os = "windows")) {
            true => PathCase::Insensitive,
            false => PathCase::Sensitive,
        }
    }
}

/// A file path relative to the repository root, normalised: `/`-separated,
/// no empty, `.` or `..` segment, not absolute.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LeasePath(String);

/// Why a path cannot be leased.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LeasePathError {
    #[error("the lease path is empty; name a file relative to the repository root, such as src/main.rs")]
    Empty,
    #[error("the lease path {0:?} contains a control character; name the file as it is spelled on disk")]
    Control(String),
    #[error(
        "the lease path `{0}` is absolute; give it relative to the repository root (src/main.rs), or convert it with the worktree's root first"
    )]
    Absolute(String),
    #[error("the lease path `{0}` contains `..`; give the path from the repository root without `..`")]
    ParentDir(String),
    #[error("the lease path `{0}` names the repository root, not a file; name a file such as src/main.rs")]
    NoFile(String),
    #[error("`{path}` is outside the worktree `{root}`; leases cover files inside the repository only")]
    Outside { path: String, root: String },
}

impl LeasePath {
    /// Validates and normalises a repository-relative path.
    pub fn parse(raw: &str) -> Result<LeasePath, LeasePathError> {
        if raw.is_empty() {
            return Err(LeasePathError::Empty);
        }
        if raw.chars().any(char::is_control) {
            return Err(LeasePathError::Control(raw.to_owned()));
        }
        let slashed = raw.replace('\\', "/");
        if is_absolute(&slashed) {
            return Err(LeasePathError::Absolute(raw.to_owned()));
        }
        let segments = segments(&slashed);
        if segments.contains(&"..") {
            return Err(LeasePathError::ParentDir(raw.to_owned()));
        }
        if segments.is_empty() {
            return Err(LeasePathError::NoFile(raw.to_owned()));
        }
        Ok(LeasePath(segments.join("/")))
    }

    /// The lease path of an absolute file path inside a worktree (what a
    /// tool call names), comparing the root by `case`. The path is read as
    /// [`crate::paths::segments`] reads it, so every spelling of one file
    /// (`<root>/docs/../a.txt`, `/tmp/../<root>/a.txt`) is one lease.
    pub fn within(path: &str, root: &str, case: PathCase) -> Result<LeasePath, LeasePathError> {
        if path.chars().any(char::is_control) {
            return Err(LeasePathError::Control(path.to_owned()));
        }
        let outside = || LeasePathError::Outside { path: path.to_owned(), root: root.to_owned() };
        if !is_absolute(path) || !is_absolute(root) {
            return Err(outside());
        }
        let (p, r) = (crate::paths::segments(path), crate::paths::segments(root));
        let inside = p.len() >= r.len() && p.iter().zip(&r).all(|(a, b)| key_of(a, case) == key_of(b, case));
        match inside {
            true if p.len() == r.len() => Err(LeasePathError::NoFile(path.to_owned())),
            true => LeasePath::parse(&p[r.len()..].join("/")),
            false => Err(outside()),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// What leases are stored and compared under.
    pub fn key(&self, case: PathCase) -> String {
        key_of(&self.0, case)
    }

    pub fn same_file(&self, other: &LeasePath, case: PathCase) -> bool {
        self.key(case) == other.key(case)
    }

    /// The name of the file the store keeps this path's lease in: the
    /// FNV-1a 64 hash of its key in hex, so a hook finds one file's lease
    /// with one read whatever the number of leases. The lease inside names
    /// its path; a hash shared by two paths is told apart by it.
    pub fn file_stem(&self, case: PathCase) -> String {
        format!("{:016x}", crate::hash::fnv1a64(self.key(case).as_bytes()))
    }
}

fn key_of(s: &str, case: PathCase) -> String {
    match case {
        PathCase::Sensitive => s.to_owned(),
        PathCase::Insensitive => s.to_lowercase(),
    }
}

fn is_absolute(slashed: &str) -> bool {
    crate::paths::is_absolute(slashed)
}

fn segments(slashed: &str) -> Vec<&str> {
    slashed.split('/').filter(|s| !s.is_empty() && *s != ".").collect()
}

impl std::fmt::Display for LeasePath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for LeasePath {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for LeasePath {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        LeasePath::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// Why a lease was taken.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum LeaseReason {
    /// The task's declared files, leased when it starts.
    TaskStart,
    /// A file the session was about to edit for the first time.
    FirstEdit,
}

crate::named!(LeaseReason, "lease reason");

/// One session's claim on one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lease {
    pub path: LeasePath,
    pub holder: SessionId,
    /// The feature the holder works on, when it works on one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feature: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    pub acquired_at: DateTime<Utc>,
    pub reason: LeaseReason,
}

/// A session asking for a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaseRequest {
    pub path: LeasePath,
    pub requester: SessionId,
    pub feature: Option<String>,
    pub task: Option<String>,
    pub priority: Priority,
    pub reason: LeaseReason,
}

impl LeaseRequest {
    fn lease(&self, now: DateTime<Utc>) -> Lease {
        Lease {
            path: self.path.clone(),
            holder: self.requester.clone(),
            feature: self.feature.clone(),
            task: self.task.clone(),
            acquired_at: now,
            reason: self.reason,
        }
    }
}

/// The lease currently on the requested file, with its holder's session
/// record (`None` when the store has none: the lease is orphaned).
#[derive(Debug, Clone, Copy)]
pub struct Owner<'a> {
    pub lease: &'a Lease,
    pub session: Option<&'a SessionRecord>,
}

/// §8.2's answers to a request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "action", rename_all = "SCREAMING_SNAKE_CASE")]
pub enum LeaseDecision {
    /// The requester holds `lease` now; `expired` is the lease of a holder
    /// that is down or gone, which this one replaces.
    Grant {
        lease: Lease,
        reason: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        expired: Option<Lease>,
    },
    /// Higher-priority work takes the file: the requester holds `lease` now,
    /// and `preempted.holder` is told to pause and yield.
    Preempt { lease: Lease, preempted: Lease, message: String },
    /// The owner keeps the file; the requester waits.
    Deny { requester: SessionId, owner: SessionId, path: LeasePath, reason: String, suggestion: &'static str },
}

/// A request decided against the wrong lease: a bug in the caller.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LeaseLookupError {
    #[error(
        "the lease passed as the owner of `{requested}` is for `{held}`; look the owner up by LeasePath::key with the same PathCase"
    )]
    OtherFile { requested: LeasePath, held: LeasePath },
    #[error(
        "the owner's session record is {record}'s, but the lease is held by {holder}; pass the holder's own record"
    )]
    OtherSession { holder: SessionId, record: SessionId },
}

/// §8.2's conflict rule: unowned (or the owner down) → GRANT to the first
/// requester; higher priority → PREEMPT; otherwise DENY.
pub fn decide_request(
    request: &LeaseRequest,
    owner: Option<Owner<'_>>,
    case: PathCase,
    now: DateTime<Utc>,
) -> Result<LeaseDecision, LeaseLookupError> {
    let Some(Owner { lease: held, session }) = owner else {
        return Ok(LeaseDecision::Grant {
            lease: request.lease(now),
            reason: UNOWNED_REASON.to_owned(),
            expired: None,
        });
    };
    if !held.path.same_file(&request.path, case) {
        return Err(LeaseLookupError::OtherFile { requested: request.path.clone(), held: held.path.clone() });
    }
    if let Some(s) = session
        && s.id != held.holder
    {
        return Err(LeaseLookupError::OtherSession { holder: held.holder.clone(), record: s.id.clone() });
    }
    let holder = &held.holder;
    if *holder == request.requester {
        return Ok(LeaseDecision::Grant {
            lease: held.clone(),
            reason: format!("{holder} already holds {}", held.path),
            expired: None,
        });
    }
    let Some(session) = session else {
        return Ok(expired(request, held, format!("File owner {holder} has no session record"), now));
    };
    if matches!(session.state, SessionState::Complete | SessionState::Error) {
        return Ok(expired(request, held, format!("File owner {holder} has ended ({})", session.state), now));
    }
    let health = session.health(now);
    if !health.liveness.is_live() {
        return Ok(expired(request, held, down_because(holder, health), now));
    }
    match request.priority > session.priority {
        true => Ok(LeaseDecision::Preempt {
            lease: request.lease(now),
            preempted: held.clone(),
            message: format!("{} needs {} for higher priority work", request.requester, request.path),
        }),
        false => Ok(LeaseDecision::Deny {
            requester: request.requester.clone(),
            owner: holder.clone(),
            path: held.path.clone(),
            reason: match health.paused_until {
                Some(until) => format!(
                    "File owned by {holder}, paused by an interruption until {} UTC (it keeps its files until {} min after)",
                    until.format("%Y-%m-%d %H:%M"),
                    super::session::PAUSE_GRACE.num_minutes()
                ),
                None => format!("File owned by {holder}"),
            },
            suggestion: DENY_SUGGESTION,
        }),
    }
}

fn expired(request: &LeaseRequest, held: &Lease, why: String, now: DateTime<Utc>) -> LeaseDecision {
    LeaseDecision::Grant {
        lease: request.lease(now),
        reason: format!("{why}; its lease expired - granting to {}", request.requester),
        expired: Some(held.clone()),
    }
}

fn down_because(holder: &SessionId, h: Health) -> String {
    match h.liveness {
        Liveness::ClockAhead => format!(
            "File owner {holder}'s heartbeat is {} s ahead of this clock and its process has ended",
            h.clock_ahead_seconds.unwrap_or_default()
        ),
        Liveness::Ended => format!("File owner {holder}'s Claude Code process has ended"),
        Liveness::Down | Liveness::Live | Liveness::Paused => {
            format!("File owner {holder} is down (no heartbeat for {} min)", h.age_seconds / 60)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coordination::session::{DOWN_AFTER, SessionState};
    use chrono::{TimeDelta, TimeZone};

    fn t0() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 22, 10, 0, 0).unwrap()
    }

    fn sid(s: &str) -> SessionId {
        SessionId::parse(s).unwrap()
    }

    fn path(p: &str) -> LeasePath {
        LeasePath::parse(p).unwrap()
    }

    fn session(id: &str, priority: Priority, heartbeat_at: DateTime<Utc>) -> SessionRecord {
        let mut s = SessionRecord::new(sid(id), "/repo", "/repo", t0() - TimeDelta::hours(1));
        s.state = SessionState::Active;
        s.priority = priority;
        s.heartbeat_at = heartbeat_at;
        s
    }

    fn request(who: &str, p: &str, priority: Priority) -> LeaseRequest {
        LeaseRequest {
            path: path(p),
            requester: sid(who),
            feature: None,
            task: Some("T2".into()),
            priority,
            reason: LeaseReason::FirstEdit,
        }
    }

    fn held(by: &str, p: &str) -> Lease {
        Lease {
            path: path(p),
            holder: sid(by),
            feature: Some("001-login".into()),
            task: Some("T1".into()),
            acquired_at: t0() - TimeDelta::minutes(10),
            reason: LeaseReason::TaskStart,
        }
    }

    fn decide(req: &LeaseRequest, owner: Option<(&Lease, Option<&SessionRecord>)>) -> LeaseDecision {
        let owner = owner.map(|(lease, session)| Owner { lease, session });
        decide_request(req, owner, PathCase::Sensitive, t0()).unwrap()
    }

    #[test]
    fn paths_are_normalised_before_they_become_keys() {
        for (raw, want) in [
            ("src/main.rs", "src/main.rs"),
            ("./src/main.rs", "src/main.rs"),
            ("src\\lib\\a.rs", "src/lib/a.rs"),
            ("src//./a.rs", "src/a.rs"),
            ("docs/", "docs"),
        ] {
            assert_eq!(path(raw).as_str(), want, "{raw}");
        }
    }

    #[test]
    fn absolute_parent_empty_and_control_paths_are_refused_with_what_to_do() {
        let err = |raw: &str| LeasePath::parse(raw).unwrap_err();
        assert_eq!(err(""), LeasePathError::Empty);
        assert!(matches!(err("/etc/passwd"), LeasePathError::Absolute(_)));
        assert!(matches!(err("C:\\repo\\a.rs"), LeasePathError::Absolute(_)));
        assert!(matches!(err("c:a.rs"), LeasePathError::Absolute(_)));
        assert!(matches!(err("\\\\server\\share\\a.rs"), LeasePathError::Absolute(_)));
        assert!(matches!(err("src/../../etc/passwd"), LeasePathError::ParentDir(_)));
        assert!(matches!(err("./"), LeasePathError::NoFile(_)));
        assert!(matches!(err("a\0b"), LeasePathError::Control(_)));
        assert!(err("/etc/passwd").to_string().contains("relative to the repository root"));
        assert!(err("a/../b").to_string().contains("without `..`"));
    }

    #[test]
    fn absolute_tool_paths_become_worktree_relative() {
        let s = PathCase::Sensitive;
        assert_eq!(LeasePath::within("/repo/src/a.rs", "/repo", s).unwrap().as_str(), "src/a.rs");
        assert_eq!(LeasePath::within("/repo/src/a.rs", "/repo/", s).unwrap().as_str(), "src/a.rs");
        assert_eq!(
            LeasePath::within("C:\\Repo\\src\\a.rs", "c:\\repo", PathCase::Insensitive).unwrap().as_str(),
            "src/a.rs"
        );
        for (p, root) in [("/repository/a.rs", "/repo"), ("/other/a.rs", "/repo"), ("src/a.rs", "/repo")] {
            assert!(matches!(LeasePath::within(p, root, s), Err(LeasePathError::Outside { .. })), "{p}");
        }
        assert!(matches!(LeasePath::within("/repo/../etc/x", "/repo", s), Err(LeasePathError::Outside { .. })));
        assert!(matches!(LeasePath::within("/repo/", "/repo", s), Err(LeasePathError::NoFile(_))));
        assert!(matches!(LeasePath::within("/Repo/a.rs", "/repo", s), Err(LeasePathError::Outside { .. })));
    }

    // Regression: another session's Write of `<repo>/docs/../a.txt` was let
    // through silently (a `..` read as "outside the worktree").
    #[test]
    fn another_sessions_spelling_of_a_leased_file_bypassed_its_lease() {
        let s = PathCase::Sensitive;
        for spelled in
            ["/repo/docs/../a.txt", "/repo/nope/../a.txt", "/tmp/../repo/a.txt", "/repo/./a.txt", "//repo/a.txt"]
        {
            assert_eq!(LeasePath::within(spelled, "/repo", s).unwrap().as_str(), "a.txt", "{spelled}");
        }
    }

    #[test]
    fn a_lease_file_is_named_after_the_hash_of_its_key() {
        assert_eq!(path("a").file_stem(PathCase::Sensitive), "af63dc4c8601ec8c", "FNV-1a 64 of `a`");
        assert_eq!(
            path("Src/A.rs").file_stem(PathCase::Insensitive),
            path("src/a.rs").file_stem(PathCase::Insensitive)
        );
        assert_ne!(path("Src/A.rs").file_stem(PathCase::Sensitive), path("src/a.rs").file_stem(PathCase::Sensitive));
        assert_eq!(path("./src//a.rs").file_stem(PathCase::Sensitive), path("src/a.rs").file_stem(PathCase::Sensitive));
    }

    #[test]
    fn case_insensitive_keys_match_across_spellings_and_keep_the_given_spelling() {
        let a = path("Src/Main.rs");
        assert!(a.same_file(&path("src/main.rs"), PathCase::Insensitive));
        assert!(!a.same_file(&path("src/main.rs"), PathCase::Sensitive));
        assert_eq!((a.as_str(), a.key(PathCase::Insensitive).as_str()), ("Src/Main.rs", "src/main.rs"));
    }

    #[test]
    fn an_unowned_file_goes_to_the_first_requester() {
        let req = request("b", "src/a.rs", Priority::Normal);
        let LeaseDecision::Grant { lease, reason, expired } = decide(&req, None) else { panic!() };
        assert_eq!(reason, "File unowned - granting to first requestor");
        assert_eq!((lease.holder, lease.acquired_at, expired), (sid("b"), t0(), None));
    }

    #[test]
    fn the_holder_asking_again_is_granted_its_lease_unchanged() {
        let lease = held("a", "src/a.rs");
        let owner = session("a", Priority::Normal, t0());
        let d = decide(&request("a", "src/a.rs", Priority::Low), Some((&lease, Some(&owner))));
        assert_eq!(
            d,
            LeaseDecision::Grant { lease: lease.clone(), reason: "a already holds src/a.rs".into(), expired: None }
        );
    }

    #[test]
    fn a_down_or_unrecorded_owner_loses_its_lease_to_the_requester() {
        let lease = held("a", "src/a.rs");
        let req = request("b", "src/a.rs", Priority::Low);
        let down = session("a", Priority::Critical, t0() - DOWN_AFTER);
        let LeaseDecision::Grant { lease: new, reason, expired } = decide(&req, Some((&lease, Some(&down)))) else {
            panic!()
        };
        assert_eq!((new.holder, expired), (sid("b"), Some(lease.clone())));
        assert_eq!(reason, "File owner a is down (no heartbeat for 5 min); its lease expired - granting to b");

        let LeaseDecision::Grant { reason, .. } = decide(&req, Some((&lease, None))) else { panic!() };
        assert!(reason.starts_with("File owner a has no session record"), "{reason}");

        let mut ended = session("a", Priority::Critical, t0());
        ended.state = SessionState::Complete;
        let LeaseDecision::Grant { reason, .. } = decide(&req, Some((&lease, Some(&ended)))) else { panic!() };
        assert_eq!(reason, "File owner a has ended (COMPLETE); its lease expired - granting to b");

        // Two hours ahead: the clock was set back while it worked; it keeps
        // the file while its process runs, not once it has ended.
        let mut skewed = session("a", Priority::Critical, t0() + TimeDelta::hours(2));
        let d = decide(&req, Some((&lease, Some(&skewed))));
        assert!(matches!(d, LeaseDecision::Deny { .. }), "{d:?}");
        skewed.process_ended = true;
        let LeaseDecision::Grant { reason, .. } = decide(&req, Some((&lease, Some(&skewed)))) else { panic!() };
        assert!(reason.contains("7200 s ahead of this clock and its process has ended"), "{reason}");
    }

    #[test]
    fn a_live_owner_one_second_short_of_down_keeps_its_file() {
        let lease = held("a", "src/a.rs");
        let owner = session("a", Priority::Normal, t0() - DOWN_AFTER + TimeDelta::seconds(1));
        let d = decide(&request("b", "src/a.rs", Priority::Normal), Some((&lease, Some(&owner))));
        assert!(matches!(d, LeaseDecision::Deny { .. }), "{d:?}");
    }

    #[test]
    fn higher_priority_preempts_and_the_owner_is_named_in_the_message() {
        let lease = held("a", "src/a.rs");
        let owner = session("a", Priority::Normal, t0());
        let d = decide(&request("b", "src/a.rs", Priority::High), Some((&lease, Some(&owner))));
        let LeaseDecision::Preempt { lease: new, preempted, message } = d else { panic!("{d:?}") };
        assert_eq!(message, "b needs src/a.rs for higher priority work");
        assert_eq!((new.holder, preempted), (sid("b"), lease));
    }

    #[test]
    fn equal_or_lower_priority_is_denied_with_the_seeds_reason_and_suggestion() {
        let lease = held("a", "src/a.rs");
        let owner = session("a", Priority::High, t0());
        for p in [Priority::Low, Priority::Normal, Priority::High] {
            let d = decide(&request("b", "src/a.rs", p), Some((&lease, Some(&owner))));
            assert_eq!(
                d,
                LeaseDecision::Deny {
                    requester: sid("b"),
                    owner: sid("a"),
                    path: path("src/a.rs"),
                    reason: "File owned by a".into(),
                    suggestion: "Wait or request change"
                },
                "{p}"
            );
        }
    }

    #[test]
    fn a_lease_for_another_file_or_a_record_of_another_session_is_a_caller_error() {
        let lease = held("a", "src/other.rs");
        let req = request("b", "src/a.rs", Priority::Normal);
        let e = decide_request(&req, Some(Owner { lease: &lease, session: None }), PathCase::Sensitive, t0());
        assert!(matches!(e, Err(LeaseLookupError::OtherFile { .. })));
        let lease = held("a", "SRC/A.rs");
        assert!(
            decide_request(&req, Some(Owner { lease: &lease, session: None }), PathCase::Insensitive, t0()).is_ok()
        );
        let wrong = session("c", Priority::Normal, t0());
        let e = decide_request(&req, Some(Owner { lease: &lease, session: Some(&wrong) }), PathCase::Insensitive, t0());
        assert!(e.unwrap_err().to_string().contains("pass the holder's own record"));
    }

    #[test]
    fn decisions_serialise_with_the_seeds_action_names() {
        let d = decide(&request("b", "src/a.rs", Priority::Normal), None);
        let json = serde_json::to_value(&d).unwrap();
        assert_eq!(json["action"], "GRANT");
        assert_eq!(json["lease"]["reason"], "first-edit");
        assert_eq!(json["lease"]["path"], "src/a.rs");
        let back: Lease = serde_json::from_value(json["lease"].clone()).unwrap();
        assert_eq!(back.holder, sid("b"));
        assert!(
            serde_json::from_str::<Lease>(
                r#"{"path":"../x","holder":"a","acquired_at":"2026-11-22T10:00:00Z","reason":"first-edit"}"#
            )
            .is_err()
        );
    }

    #[test]
    fn names() {
        crate::names::assert_serde_names::<PathCase>();
        crate::names::assert_serde_names::<LeaseReason>();
    }
}
