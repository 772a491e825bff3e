//! What this clone keeps about the team, in git's directory: its random
//! id, what waits for the remote while it cannot be reached
//! (`<runtime>/team/pending.json`, written atomically; the caller holds
//! the team's lock), and the teammates' file leases the last sync saw
//! (`<runtime>/team/leases.json`, which the PreToolUse hook reads: a plain
//! file, so the hook needs neither git nor the network).

use std::path::{Path, PathBuf};

use phasegate_core::coordination::TeammateLease;
use serde::{Deserialize, Serialize};

use crate::error::StoreError;
use crate::fs as sfs;

fn team_dir(runtime: &Path) -> PathBuf {
    runtime.join("team")
}

/// This clone's id: 16 random hex digits made at its first use.
pub fn clone_id(runtime: &Path) -> Result<String, StoreError> {
    let path = team_dir(runtime).join("clone");
    if let Some(id) = sfs::read_optional(&path)?.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty()) {
        return Ok(id);
    }
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(|e| StoreError::Io {
        op: "draw random bytes for",
        path: path.clone(),
        source: std::io::Error::other(e.to_string()),
    })?;
    let id: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    sfs::create_dir_all(&team_dir(runtime))?;
    sfs::write_atomic(&path, id.as_bytes())?;
    Ok(id)
}

/// This machine's host name (`unknown` when it cannot be read).
pub fn machine() -> String {
    let from_file = ["/proc/sys/kernel/hostname", "/etc/hostname"]
        .iter()
        .find_map(|p| sfs::read_optional(Path::new(p)).ok().flatten())
        .map(|s| s.trim().to_owned());
    from_file
        .into_iter()
        .chain(["COMPUTERNAME", "HOSTNAME"].iter().filter_map(|v| std::env::var(v).ok()))
        .find(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".into())
}

/// `Name <email>` from git's configuration of the repository at
/// `git_dir` (its user's global one included).
pub fn git_user(git_dir: &Path) -> String {
    let Ok(config) = git2::Repository::open(git_dir).and_then(|r| r.config()) else { return String::new() };
    let name = config.get_string("user.name").unwrap_or_default();
    match config.get_string("user.email") {
        Ok(email) if !email.is_empty() => format!("{name} <{email}>").trim().to_owned(),
        _ => name,
    }
}

/// What waits for the remote.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Pending {
    /// Feature numbers taken here while the remote could not be reached.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ids: Vec<PendingId>,
    /// Claims made here only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<PendingClaim>,
    /// Claims given back here only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub releases: Vec<PendingClaim>,
}

impl Pending {
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty() && self.claims.is_empty() && self.releases.is_empty()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PendingId {
    pub id: u32,
    pub feature: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PendingClaim {
    pub feature: String,
    pub task: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
}

/// A JSON file of the team's folder that is absent when it holds nothing:
/// read as its default when missing, removed when written empty, written
/// atomically otherwise (the caller holds the team's lock), its size
/// bounded where a hook reads it.
struct TeamFile {
    name: &'static str,
    max: u64,
}

impl TeamFile {
    fn path(&self, runtime: &Path) -> PathBuf {
        team_dir(runtime).join(self.name)
    }

    fn read<T: serde::de::DeserializeOwned + Default>(&self, runtime: &Path) -> Result<T, StoreError> {
        let path = self.path(runtime);
        match sfs::read_optional_up_to(&path, self.max)? {
            None => Ok(T::default()),
            Some(text) => serde_json::from_str(&text).map_err(|e| StoreError::Corrupt { path, detail: e.to_string() }),
        }
    }

    fn write<T: Serialize + ?Sized>(&self, runtime: &Path, value: &T, empty: bool) -> Result<(), StoreError> {
        let path = self.path(runtime);
        if empty {
            return sfs::remove_if_exists(&path).map(drop);
        }
        sfs::create_dir_all(&team_dir(runtime))?;
        sfs::write_atomic(&path, &serde_json::to_vec_pretty(value).expect("team state serialises"))
    }
}

/// The largest team file read (a hook reads the teammates' leases).
const TEAM_FILE_MAX: u64 = 4 * 1024 * 1024;

const PENDING: TeamFile = TeamFile { name: "pending.json", max: TEAM_FILE_MAX };
const TEAMMATE_LEASES: TeamFile = TeamFile { name: "leases.json", max: TEAM_FILE_MAX };
const HELD: TeamFile = TeamFile { name: "held.json", max: TEAM_FILE_MAX };

/// What waits for the remote; nothing when the file is missing.
pub fn read_pending(runtime: &Path) -> Result<Pending, StoreError> {
    PENDING.read(runtime)
}

/// Replaces what waits for the remote (the file goes when nothing does).
pub fn write_pending(runtime: &Path, pending: &Pending) -> Result<(), StoreError> {
    PENDING.write(runtime, pending, pending.is_empty())
}

/// Whether the last sync saw any teammate's lease (one look at a file).
pub fn has_teammate_leases(runtime: &Path) -> bool {
    sfs::is_regular_file(&TEAMMATE_LEASES.path(runtime))
}

/// The teammates' file leases the last sync saw; none when it saw none.
pub fn read_teammate_leases(runtime: &Path) -> Result<Vec<TeammateLease>, StoreError> {
    TEAMMATE_LEASES.read(runtime)
}

/// Keeps what the sync saw (removed when it saw nothing).
pub fn write_teammate_leases(runtime: &Path, leases: &[TeammateLease]) -> Result<(), StoreError> {
    TEAMMATE_LEASES.write(runtime, leases, leases.is_empty())
}

/// What this clone claimed on the remote and has not given back (a task,
/// or `phase-<phase>`): what a sync claims again when a teammate's
/// force-push lost it. Only this clone's own starts add to it, so work
/// another clone committed as in progress is never claimed here.
pub fn read_held(runtime: &Path) -> Result<Vec<PendingClaim>, StoreError> {
    HELD.read(runtime)
}

/// Keeps what this clone holds (removed when it holds nothing); the caller
/// holds the team's lock.
pub fn write_held(runtime: &Path, held: &[PendingClaim]) -> Result<(), StoreError> {
    HELD.write(runtime, held, held.is_empty())
}
