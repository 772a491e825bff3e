//! The git remote as a team's shared engine: coordination state kept as
//! refs under `refs/phasegate/…` on the user's remote, each changed by a
//! compare-and-swap push, read from a local copy that only a narrow fetch
//! updates (docs/design.md, "A team across machines").
//!
//! - **Transport: the user's `git`.** A push or fetch runs `git` as the
//!   user's own `git push` would: ssh with their keys and `~/.ssh/config`,
//!   https with their credential helpers, `git://`, file paths, `insteadOf`
//!   rewrites, proxies. libgit2 (git2) is built here without https or ssh
//!   and would need callbacks to approximate each of them; it still writes
//!   the small local objects and reads the local copy, where no network is
//!   involved and a process start would only cost time.
//! - **Compare-and-swap.** `git push --atomic --force-with-lease=<ref>:<old>`
//!   sends the old value it expects; the remote's ref transaction refuses
//!   the update when the ref moved (or when another push holds its lock).
//!   The loser fetches again and decides again. A new value's commit has
//!   the old one as its parent, so the update is a fast-forward too.
//! - **Narrow fetch.** `+refs/phasegate/*:refs/phasegate-seen/<remote>/*`,
//!   without tags, FETCH_HEAD, submodules or the remote's configured
//!   refspecs: the user's branches and remote-tracking refs are untouched.
//! - **Never a prompt, never a wait without end.** `GIT_TERMINAL_PROMPT=0`,
//!   and every call is killed at its deadline; the caller goes on locally.
//! - **kill -9.** The remote updates a ref by lock file and rename: an
//!   interrupted push leaves the old value or the new one. The local copy
//!   is a cache, repaired by the next fetch.

mod local;

use std::path::{Path, PathBuf};
use std::time::Duration;

use git2::{ErrorCode, Oid, Repository};

use crate::error::StoreError;
use crate::git::RepoLayout;
use crate::process;

pub use local::{
    Pending, PendingClaim, PendingId, clone_id, git_user, has_teammate_leases, machine, read_held, read_pending,
    read_teammate_leases, write_held, write_pending, write_teammate_leases,
};

/// The root of phasegate's refs on the remote.
pub const REFS: &str = "refs/phasegate/";
/// The root of the local copy of what the last fetch saw.
pub const SEEN: &str = "refs/phasegate-seen/";
/// git's configuration key that names the remote (default `origin`;
/// `none` turns the team off).
pub const REMOTE_KEY: &str = "phasegate.remote";

/// A ref's value: its commit and the commit's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Value {
    pub oid: String,
    pub body: String,
}

/// How a compare-and-swap ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Swap {
    /// The remote holds the new value (or the ref is gone, for a delete).
    Done,
    /// The ref was not what was expected: fetch, read and decide again.
    Moved,
    /// The remote could not be reached or refused: why, on one line.
    Unreachable(String),
}

/// The team's remote of one repository.
pub struct Remote {
    name: String,
    url: String,
    dir: PathBuf,
    repo: Repository,
    timeout: Duration,
}

impl std::fmt::Debug for Remote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Remote").field("name", &self.name).field("dir", &self.dir).finish()
    }
}

impl Remote {
    /// The remote git's `phasegate.remote` names (default `origin`), when
    /// the repository has it; None when it has none (or `none` is set).
    pub fn configured(layout: &RepoLayout, timeout: Duration) -> Result<Option<Remote>, StoreError> {
        let repo = Repository::open(&layout.common_dir).map_err(|e| git_err(&layout.common_dir, e))?;
        let config = repo.config().map_err(|e| git_err(&layout.common_dir, e))?;
        let name = config.get_string(REMOTE_KEY).ok().map(|s| s.trim().to_owned()).unwrap_or_else(|| "origin".into());
        if name.is_empty() || name == "none" {
            return Ok(None);
        }
        let Ok(url) = config.get_string(&format!("remote.{name}.url")) else { return Ok(None) };
        let dir = layout.current_root.clone();
        Ok(Some(Remote { name, url, dir, repo, timeout }))
    }

    /// The remote's name (`origin`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The remote's URL with any password or token taken out.
    pub fn url(&self) -> String {
        redact(&self.url)
    }

    fn seen_ref(&self, name: &str) -> String {
        let remote: String =
            self.name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
        format!("{SEEN}{remote}/{name}")
    }

    fn git(&self, args: &[&str]) -> Result<process::Finished, String> {
        let mut all: Vec<String> = ["-c", "gc.auto=0", "-c", "maintenance.auto=false"].map(String::from).to_vec();
        all.extend(args.iter().map(|a| a.to_string()));
        let vars = [("GIT_TERMINAL_PROMPT", "0"), ("LC_ALL", "C")];
        match process::run_with("git", &all, &vars, &self.dir, None, self.timeout) {
            Ok(f) if f.timed_out => Err(format!("no answer within {}s", self.timeout.as_secs_f32())),
            Ok(f) => Ok(f),
            Err(e) => Err(format!("cannot run git: {e}")),
        }
    }

    /// Brings the local copy up to what the remote holds under
    /// `refs/phasegate/` (refs gone there go here too).
    pub fn fetch(&self) -> Result<(), String> {
        let spec = format!("+{REFS}*:{}", self.seen_ref("*"));
        let args = [
            "fetch",
            "--quiet",
            "--no-tags",
            "--no-write-fetch-head",
            "--no-recurse-submodules",
            "--prune",
            self.name.as_str(),
            spec.as_str(),
        ];
        let f = self.git(&args)?;
        match f.exit {
            Some(0) => Ok(()),
            _ => Err(reason(&f.stderr)),
        }
    }

    /// What the last fetch (or this clone's last push) saw of `name`
    /// (below `refs/phasegate/`).
    pub fn seen(&self, name: &str) -> Result<Option<Value>, StoreError> {
        let r = match self.repo.find_reference(&self.seen_ref(name)) {
            Ok(r) => r,
            Err(e) if e.code() == ErrorCode::NotFound => return Ok(None),
            Err(e) => return Err(self.err(e)),
        };
        match r.target() {
            Some(oid) => self.value(oid).map(Some),
            None => Ok(None),
        }
    }

    /// Every ref the last fetch saw whose name (below `refs/phasegate/`)
    /// starts with `prefix`, with its name.
    pub fn seen_under(&self, prefix: &str) -> Result<Vec<(String, Value)>, StoreError> {
        let root = self.seen_ref("");
        let refs = self.repo.references_glob(&format!("{root}{prefix}*")).map_err(|e| self.err(e))?;
        let mut out = Vec::new();
        for r in refs {
            let r = r.map_err(|e| self.err(e))?;
            let (Ok(name), Some(oid)) = (r.name(), r.target()) else { continue };
            let Some(name) = name.strip_prefix(&root) else { continue };
            out.push((name.to_owned(), self.value(oid)?));
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(out)
    }

    fn value(&self, oid: Oid) -> Result<Value, StoreError> {
        let body = match self.repo.find_commit(oid) {
            Ok(c) => c.message_raw().unwrap_or("").to_owned(),
            // Something else than a commit: a value that holds nothing.
            Err(_) => String::new(),
        };
        Ok(Value { oid: oid.to_string(), body })
    }

    /// Compare-and-swap of `name` (below `refs/phasegate/`): sets it to a
    /// value holding `body` (None: deletes it) if and only if the remote
    /// holds `expected` (None: no such ref). On success the local copy
    /// follows.
    pub fn swap(&self, name: &str, expected: Option<&str>, body: Option<&str>) -> Result<Swap, StoreError> {
        let new = match body {
            Some(body) => Some(self.write_value(expected, body)?),
            None => None,
        };
        let target = format!("{REFS}{name}");
        let lease = format!("--force-with-lease={target}:{}", expected.unwrap_or(""));
        let spec = format!("{}:{target}", new.map(|o| o.to_string()).unwrap_or_default());
        let args = [
            "push",
            "--porcelain",
            "--atomic",
            "--no-verify",
            "--no-signed",
            "--no-recurse-submodules",
            lease.as_str(),
            self.name.as_str(),
            spec.as_str(),
        ];
        let f = match self.git(&args) {
            Ok(f) => f,
            Err(why) => return Ok(Swap::Unreachable(why)),
        };
        let line = f.stdout.lines().find(|l| l.split('\t').nth(1).is_some_and(|s| s.ends_with(&format!(":{target}"))));
        let outcome = match line.and_then(|l| l.chars().next()) {
            Some('!') => {
                let why = line.and_then(|l| l.split('\t').nth(2)).unwrap_or("").to_owned();
                if moved(&why) { Swap::Moved } else { Swap::Unreachable(format!("{} refused: {why}", self.name)) }
            }
            Some(_) if f.exit == Some(0) => Swap::Done,
            _ => Swap::Unreachable(reason(&f.stderr)),
        };
        if outcome == Swap::Done {
            let seen = self.seen_ref(name);
            let set = match new {
                Some(oid) => self.repo.reference(&seen, oid, true, "phasegate: pushed").map(|_| ()),
                None => match self.repo.find_reference(&seen) {
                    Ok(mut r) => r.delete(),
                    Err(e) if e.code() == ErrorCode::NotFound => Ok(()),
                    Err(e) => Err(e),
                },
            };
            // The local copy is a cache: the next fetch repairs it.
            let _ = set;
        }
        Ok(outcome)
    }

    /// A commit (empty tree) whose message is `body`, child of `parent`.
    fn write_value(&self, parent: Option<&str>, body: &str) -> Result<Oid, StoreError> {
        let repo = &self.repo;
        let tree = repo.treebuilder(None).and_then(|b| b.write()).map_err(|e| self.err(e))?;
        let tree = repo.find_tree(tree).map_err(|e| self.err(e))?;
        let sig = git2::Signature::now("phasegate", "phasegate@localhost").map_err(|e| self.err(e))?;
        let parent = match parent {
            Some(p) => Oid::from_str(p).ok().and_then(|o| repo.find_commit(o).ok()).into_iter().collect::<Vec<_>>(),
            None => Vec::new(),
        };
        let parents: Vec<&git2::Commit<'_>> = parent.iter().collect();
        repo.commit(None, &sig, &sig, body, &tree, &parents).map_err(|e| self.err(e))
    }

    fn err(&self, e: git2::Error) -> StoreError {
        git_err(self.repo.path(), e)
    }
}

fn git_err(path: &Path, e: git2::Error) -> StoreError {
    StoreError::Git { path: path.to_path_buf(), message: e.message().to_owned() }
}

/// Whether a push's refusal means the ref is not what was expected (or is
/// being changed by another push right now): read again and decide again.
fn moved(why: &str) -> bool {
    ["stale info", "fetch first", "non-fast-forward", "already exists", "lock", "atomic"]
        .iter()
        .any(|w| why.contains(w))
}

/// git's error, on one line, without secrets.
fn reason(stderr: &str) -> String {
    let lines: Vec<&str> = stderr.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let from = lines.iter().position(|l| l.starts_with("fatal:") || l.starts_with("error:")).unwrap_or(0);
    let text: Vec<&str> = lines[from.min(lines.len())..]
        .iter()
        .map(|l| l.strip_prefix("fatal: ").or_else(|| l.strip_prefix("error: ")).unwrap_or(l))
        .collect();
    let line = if text.is_empty() { "git gave no reason".to_owned() } else { text.join(" ") };
    redact(&line).chars().take(200).collect()
}

/// `scheme://user:secret@host` → `scheme://***@host`, anywhere in `text`.
fn redact(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("://") {
        out.push_str(&rest[..i + 3]);
        rest = &rest[i + 3..];
        let end = rest.find(|c: char| c == '/' || c.is_whitespace() || c == '\'').unwrap_or(rest.len());
        if let Some(at) = rest[..end].rfind('@') {
            out.push_str("***");
            rest = &rest[at..];
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_in_urls_are_taken_out() {
        assert_eq!(
            redact("unable to access 'https://bob:tok3n@host/x.git/'"),
            "unable to access 'https://***@host/x.git/'"
        );
        assert_eq!(redact("git://127.0.0.1:9418/r.git"), "git://127.0.0.1:9418/r.git");
    }

    #[test]
    fn a_refusal_for_a_moved_ref_is_read_again() {
        assert!(moved("[rejected] (stale info)"));
        assert!(moved("[remote rejected] (failed to lock)"));
        assert!(!moved("[remote rejected] (pre-receive hook declined)"));
    }

    #[test]
    fn git_errors_are_one_line() {
        let e = "fatal: unable to connect to 127.0.0.1:\n127.0.0.1[0: 127.0.0.1]: errno=Connection refused\n";
        assert_eq!(reason(e), "unable to connect to 127.0.0.1: 127.0.0.1[0: 127.0.0.1]: errno=Connection refused");
    }
}
