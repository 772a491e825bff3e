//! The kit: a temporary git repository, a clock that only a test moves, the
//! `Env` every operation takes (built on that clock), and helpers for the
//! files the operations write.

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, TimeZone, Utc};
use phasegate_core::questions::Request;
use phasegate_core::witness::Operator;
use phasegate_ops::env::Who;
use phasegate_ops::error::Refusal;
use phasegate_ops::witness::Given;
use phasegate_ops::{Env, OpError, OpResult};
use serde_json::Value;

/// The moment every test starts at: 2026-11-22 10:00:00 UTC.
pub fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 22, 10, 0, 0).unwrap()
}

/// A clock that stands still until the test moves it.
#[derive(Debug)]
pub struct Clock {
    now: Cell<DateTime<Utc>>,
}

impl Clock {
    pub fn new(at: DateTime<Utc>) -> Clock {
        Clock { now: Cell::new(at) }
    }

    pub fn now(&self) -> DateTime<Utc> {
        self.now.get()
    }

    /// Moves the clock forward by `minutes`.
    pub fn advance(&self, minutes: i64) {
        self.advance_secs(minutes * 60);
    }

    /// Moves the clock forward by `seconds`.
    pub fn advance_secs(&self, seconds: i64) {
        self.now.set(self.now.get() + chrono::Duration::seconds(seconds));
    }

    /// Sets the clock to `minutes` after [`t0`].
    pub fn set(&self, minutes: i64) {
        self.now.set(t0() + chrono::Duration::minutes(minutes));
    }
}

/// A temporary project: a git repository with one commit, and its clock.
pub struct Repo {
    _dir: tempfile::TempDir,
    root: PathBuf,
    pub clock: Clock,
}

impl Repo {
    pub fn new() -> Repo {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().canonicalize().unwrap().join("project");
        std::fs::create_dir_all(&root).unwrap();
        let repo = git2::Repository::init(&root).expect("git init");
        // The commits the code makes through git itself (`pipeline commit`)
        // need an identity: the repository's own, never the machine's
        // (a fresh HOME has none).
        let mut config = repo.config().unwrap();
        config.set_str("user.name", "t").unwrap();
        config.set_str("user.email", "t@example.com").unwrap();
        let sig = git2::Signature::new("t", "t@example.com", &git2::Time::new(t0().timestamp(), 0)).unwrap();
        std::fs::write(root.join("README.md"), "test repo\n").unwrap();
        let mut index = repo.index().unwrap();
        index.add_path(Path::new("README.md")).unwrap();
        index.write().unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        repo.commit(Some("HEAD"), &sig, &sig, "init", &tree, &[]).unwrap();
        Repo { _dir: dir, root, clock: Clock::new(t0()) }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Claude Code's folder for this project's sessions (beside it, empty
    /// until a test writes transcripts there).
    pub fn claude_dir(&self) -> PathBuf {
        self.root.parent().unwrap().join("claude")
    }

    /// The folder of the user's sealing key, beside the repository.
    pub fn key_dir(&self) -> PathBuf {
        self.root.parent().unwrap().join("state/phasegate")
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    /// What every operation runs with: the project root, the clock's time,
    /// a short lock wait, no Claude Code session.
    pub fn env(&self) -> Env {
        self.env_in(&self.root)
    }

    /// [`Repo::env`] with another working directory.
    pub fn env_in(&self, cwd: &Path) -> Env {
        Env {
            cwd: cwd.to_owned(),
            now: self.clock.now(),
            lock_timeout: Duration::from_secs(5),
            session_var: None,
            project_dir: None,
            claude_dir: Some(self.claude_dir()),
            key_dir: Some(self.key_dir()),
            // A person's script: tests inside Claude Code say so.
            who: Who::Is(Operator::Unattended { user: None }),
        }
    }

    /// [`Repo::env`] of a person at a terminal outside Claude Code: what a
    /// question only a person may answer needs.
    pub fn env_person(&self) -> Env {
        Env { who: Who::Is(Operator::Terminal { tty: "/dev/pts/7".into(), user: Some("ann".into()) }), ..self.env() }
    }

    /// [`Repo::env`] inside Claude Code session `session`.
    pub fn env_as(&self, session: &str) -> Env {
        Env { session_var: Some(session.to_owned()), ..self.env() }
    }

    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.root.join(rel)).unwrap_or_else(|e| panic!("read {rel}: {e}"))
    }

    pub fn exists(&self, rel: &str) -> bool {
        self.root.join(rel).exists()
    }

    pub fn json(&self, rel: &str) -> Value {
        serde_json::from_str(&self.read(rel)).unwrap_or_else(|e| panic!("{rel} is not JSON: {e}"))
    }

    /// The records of a JSON-lines file (none when it does not exist).
    pub fn json_lines(&self, rel: &str) -> Vec<Value> {
        let Ok(text) = std::fs::read_to_string(self.root.join(rel)) else { return Vec::new() };
        text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).unwrap()).collect()
    }

    /// A new phased feature in mode `mode`; its folder name.
    pub fn feature(&self, slug: &str, mode: phasegate_core::Mode) -> String {
        phasegate_ops::feature::lifecycle::create(
            &self.env(),
            slug,
            mode,
            phasegate_core::feature::Workflow::Phased,
            false,
        )
        .unwrap()
        .name
    }

    /// Proves `feature` by one passing check (a requirement in spec.md, a
    /// `true` check under tasks.md's `## Checks`), so `finish` accepts it.
    pub fn prove(&self, feature: &str) {
        let spec = Repo::in_feature(feature, "spec.md");
        let text = if self.exists(&spec) { self.read(&spec) } else { "# Spec\n".to_owned() };
        if !text.contains("## Requirements") {
            self.write(&spec, &format!("{text}\n## Requirements\n\n- **R1**: it works\n"));
        }
        let tasks = Repo::in_feature(feature, "tasks.md");
        let text = if self.exists(&tasks) { self.read(&tasks) } else { String::new() };
        if !text.contains("## Checks") {
            self.write(&tasks, &format!("{text}\n## Checks\n\n- R1: `true`\n"));
        }
        assert!(phasegate_ops::proof::run(&self.env(), Some(feature)).unwrap().proven);
    }

    /// `docs/features/<feature>/<file>`.
    pub fn in_feature(feature: &str, file: &str) -> String {
        format!("docs/features/{feature}/{file}")
    }

    /// The feature's `.meta.json`.
    pub fn meta(&self, feature: &str) -> Value {
        self.json(&Repo::in_feature(feature, ".meta.json"))
    }

    /// Commits every file of the work tree (a setup step).
    pub fn commit_all(&self, message: &str) {
        let repo = git2::Repository::open(&self.root).unwrap();
        let sig = git2::Signature::new("t", "t@example.com", &git2::Time::new(t0().timestamp(), 0)).unwrap();
        let mut index = repo.index().unwrap();
        index.add_all(["*"], git2::IndexAddOption::DEFAULT, None).unwrap();
        index.write().unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        let parent = repo.head().unwrap().peel_to_commit().unwrap();
        repo.commit(Some("HEAD"), &sig, &sig, message, &tree, &[&parent]).unwrap();
    }
}

/// The time `minutes` after [`t0`], as phasegate writes it.
pub fn stamp(minutes: i64) -> String {
    phasegate_core::time::stamp(t0() + chrono::Duration::minutes(minutes))
}

/// A reviewer's verdict; `issues` are (severity, description).
pub fn verdict(approved: bool, issues: &[(&str, &str)]) -> Option<Given> {
    let issues: Vec<Value> = issues.iter().map(|(s, d)| serde_json::json!({"severity": s, "description": d})).collect();
    Some(Given {
        source: "the verdict in a test".into(),
        text: serde_json::json!({"approved": approved, "issues": issues, "summary": "review summary"}).to_string(),
    })
}

/// A reviewer's reply as a person gives it to `tasks record`.
pub fn reply(text: &str) -> Option<Given> {
    Some(Given { source: "the reply in a test".into(), text: text.to_owned() })
}

/// A question as an agent asks it.
pub fn request(json: Value) -> Request {
    Request::parse(&json.to_string()).unwrap_or_else(|e| panic!("{json}: {e}"))
}

/// The refusal an operation answered with; panics on success or on another error.
#[track_caller]
pub fn refusal<T: std::fmt::Debug>(result: OpResult<T>) -> Refusal {
    match result {
        Err(OpError::Refused(r)) => r,
        other => panic!("expected a refusal, got {other:?}"),
    }
}
