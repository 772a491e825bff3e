//! What every operation runs with: the working directory, the clock (read
//! once per run), the lock timeout and the Claude Code session, all taken
//! from the process in one place. Environment variable names live here.

use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, Utc};
use phasegate_core::session::SessionId;
use phasegate_store::files as sfs;
use phasegate_store::lock;

use phasegate_core::witness::{ClaudeCodeSign, Operator};

use crate::error::{Invalid, InvalidInput, OpError};

/// Milliseconds a writer waits for a feature's lock (default 10000).
pub const LOCK_TIMEOUT_MS: &str = "PHASEGATE_LOCK_TIMEOUT_MS";
/// Tests only: the crash point a binary built with the store's
/// `failpoints` feature dies at (see `phasegate_store::failpoint`).
pub use phasegate_store::failpoint::FAILPOINT;
/// The Claude Code session running a command; set by Claude Code for hooks
/// and for the Bash tool.
pub const SESSION_ID: &str = "CLAUDE_CODE_SESSION_ID";
/// Set by Claude Code for every process it starts: `cli` in an interactive
/// session, `sdk-cli` for `claude -p`.
pub const ENTRYPOINT: &str = "CLAUDE_CODE_ENTRYPOINT";
/// Set to `1` by Claude Code for the processes its tools start (the Bash
/// tool, a command's `!` injection): a command that sees it runs at the
/// model's hand or a command file's, not in a person's own terminal.
pub const INSIDE_CLAUDE_CODE: &str = "CLAUDECODE";

/// Whether this process was started by Claude Code's tools, as its
/// environment says (any process may unset it: [`operator`] also looks at
/// the processes above this one).
pub fn inside_claude_code() -> bool {
    [INSIDE_CLAUDE_CODE, ENTRYPOINT].iter().any(|v| std::env::var_os(v).is_some_and(|v| !v.is_empty()))
}

/// Who runs this command: Claude Code's tools (its environment, or a
/// Claude Code process above this one, found even when the variables were
/// unset), else a person at a terminal, else nobody (CI, a script). The
/// variables are not trusted to say "outside": only a terminal with no
/// Claude Code around it is a person's.
pub fn operator() -> Operator {
    let session = std::env::var(SESSION_ID).ok().filter(|s| !s.trim().is_empty());
    if inside_claude_code() {
        return Operator::ClaudeCode { session, why: ClaudeCodeSign::Environment };
    }
    let above = !phasegate_store::failpoint::outside_claude_code()
        && phasegate_store::ancestry::ancestors()
            .is_some_and(|a| a.iter().any(|p| phasegate_core::witness::is_claude_code(&p.names)));
    if above {
        return Operator::ClaudeCode { session, why: ClaudeCodeSign::Ancestor };
    }
    let user = ["USER", "USERNAME", "LOGNAME"].iter().find_map(|v| std::env::var(v).ok()).filter(|u| !u.is_empty());
    match phasegate_store::ancestry::stdin_terminal() {
        Some(tty) => Operator::Terminal { tty, user },
        None => Operator::Unattended { user },
    }
}

/// Where the user's sealing key lives: `$XDG_STATE_HOME/phasegate`, else
/// `~/.local/state/phasegate` (`%LOCALAPPDATA%\phasegate` on Windows):
/// outside every repository.
fn key_dir() -> Option<PathBuf> {
    if cfg!(windows)
        && let Some(d) = std::env::var_os("LOCALAPPDATA").map(PathBuf::from).filter(|p| p.is_absolute())
    {
        return Some(d.join("phasegate"));
    }
    match std::env::var_os("XDG_STATE_HOME").map(PathBuf::from).filter(|p| p.is_absolute()) {
        Some(d) => Some(d.join("phasegate")),
        None => home().map(|h| h.join(".local/state/phasegate")),
    }
}

/// The values of this process's environment variables whose names say
/// they are secrets (`*TOKEN*`, `*SECRET*`, `*PASSWORD*`, …): scrubbed from
/// what a check prints before the ledger keeps it.
pub fn secret_values() -> Vec<String> {
    std::env::vars().filter(|(k, v)| phasegate_core::proof::secret_name(k) && v.len() >= 8).map(|(_, v)| v).collect()
}

/// Milliseconds a push or fetch of the team's refs may take before the
/// command goes on locally (default 10000).
pub const REMOTE_TIMEOUT_MS: &str = "PHASEGATE_REMOTE_TIMEOUT_MS";

/// How long a round trip to the team's remote may take:
/// `PHASEGATE_REMOTE_TIMEOUT_MS`, else 10 s (an invalid value too).
pub fn remote_timeout() -> Duration {
    let ms = std::env::var(REMOTE_TIMEOUT_MS).ok().and_then(|v| v.trim().parse::<u64>().ok());
    Duration::from_millis(ms.unwrap_or(10_000).clamp(100, 600_000))
}

/// The project directory of the Claude Code session (set for hooks).
pub const PROJECT_DIR: &str = "CLAUDE_PROJECT_DIR";
/// The Slack token questions are posted with (a bot `xoxb-` token, or a
/// user `xoxp-` one). Its value is read by `workflow-state` only; a hook
/// only checks that it is set.
pub const SLACK_TOKEN: &str = "PHASEGATE_SLACK_TOKEN";
/// An optional second token that reads threads: a user `xoxp-` token, for
/// channels where a bot token may not read threads.
pub const SLACK_READ_TOKEN: &str = "PHASEGATE_SLACK_READ_TOKEN";
/// The plugin's `slack_token` option (`userConfig` in plugin.json), as
/// Claude Code hands it to the plugin's hooks, and so to the background
/// poller they start; Bash commands do not get it. `PHASEGATE_SLACK_TOKEN`
/// wins when both are set.
pub const SLACK_TOKEN_OPTION: &str = "CLAUDE_PLUGIN_OPTION_SLACK_TOKEN";
/// The plugin's `slack_read_token` option, likewise.
pub const SLACK_READ_TOKEN_OPTION: &str = "CLAUDE_PLUGIN_OPTION_SLACK_READ_TOKEN";
/// The Slack Web API base URL (default `https://slack.com/api/`); tests
/// point it at a local server.
pub const SLACK_API_URL: &str = "PHASEGATE_SLACK_API_URL";

/// Whether this process has a Slack token to hand on (its value unread).
pub fn slack_token_set() -> bool {
    [SLACK_TOKEN, SLACK_TOKEN_OPTION].iter().any(|v| std::env::var_os(v).is_some_and(|x| !x.is_empty()))
}

/// The plugin's root, set by Claude Code for hooks.
pub const PLUGIN_ROOT: &str = "CLAUDE_PLUGIN_ROOT";

/// This plugin's folder: `CLAUDE_PLUGIN_ROOT`, else the nearest folder
/// above this binary with `.claude-plugin/plugin.json` (`scripts/install.sh`
/// keeps the binaries in `<plugin>/bin`, the npm package in
/// `<plugin>/node_modules/@phasegate/plugin-<platform>/bin`, a checkout in
/// `target/<profile>`).
pub fn plugin_root() -> Option<PathBuf> {
    if let Some(root) = std::env::var_os(PLUGIN_ROOT).map(PathBuf::from).filter(|p| sfs::is_dir(p)) {
        return Some(root);
    }
    let exe = sfs::current_exe()?;
    exe.ancestors().skip(1).take(5).find(|d| sfs::is_file(&plugin_manifest(d))).map(PathBuf::from)
}

/// The plugin's manifest in the plugin folder `root`:
/// `.claude-plugin/plugin.json`.
pub fn plugin_manifest(root: &Path) -> PathBuf {
    sfs::join_slashed(root, ".claude-plugin/plugin.json")
}

/// `workflow-state`'s path beside this binary (both are built and installed
/// together), whether or not it is there.
pub fn workflow_state_path() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    Some(exe.parent()?.join(format!("workflow-state{}", std::env::consts::EXE_SUFFIX)))
}

/// `workflow-state` beside this binary, when it is there: what a hook
/// starts in the background.
pub fn workflow_state() -> Option<PathBuf> {
    workflow_state_path().filter(|p| sfs::is_file(p))
}

/// Keeps this process's standard handles from the processes it starts
/// (Windows; see [`phasegate_store::process::keep_own_stdio`]): what both
/// binaries do first.
pub fn keep_own_stdio() {
    phasegate_store::process::keep_own_stdio();
}

/// Whether the process `pid` has ended, where the system can tell
/// (`/proc`); None where it cannot.
pub fn process_gone(pid: u32) -> Option<bool> {
    phasegate_store::process::is_gone(pid)
}

/// The process that started this one (a hook's: the session's Claude
/// Code); None where the system does not tell.
pub fn parent_process() -> Option<u32> {
    phasegate_store::process::parent_id()
}

/// The version of the binaries: every crate, `plugin.json` and the npm
/// packages take the workspace version (scripts/version.sh stamps it).
pub const BINARY_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Why the installed plugin's version cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum PluginVersionError {
    #[error(transparent)]
    Read(#[from] phasegate_store::StoreError),
    #[error("{} is not valid JSON: {source}", path.display())]
    NotJson {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    #[error("{} has no \"version\"", path.display())]
    NoVersion { path: PathBuf },
}

/// The installed plugin's version: `version` in `<root>/.claude-plugin/plugin.json`.
pub fn plugin_version(root: &Path) -> Result<String, PluginVersionError> {
    let path = plugin_manifest(root);
    let text = sfs::read_to_string(&path)?;
    let json: serde_json::Value = match serde_json::from_str(&text) {
        Ok(json) => json,
        Err(source) => return Err(PluginVersionError::NotJson { path, source }),
    };
    match json.get("version").and_then(|v| v.as_str()) {
        Some(v) => Ok(v.to_owned()),
        None => Err(PluginVersionError::NoVersion { path }),
    }
}

/// What to say when the plugin at `root` and these binaries disagree on the
/// version (a partial update, or binaries from another build); None when
/// they agree.
pub fn version_mismatch(root: &Path) -> Option<String> {
    match plugin_version(root) {
        Ok(v) if v == BINARY_VERSION => None,
        Ok(v) => Some(format!(
            "the plugin is version {v} but its binaries are version {BINARY_VERSION}; reinstall it (/plugin uninstall phasegate@phasegate, then /plugin install phasegate@phasegate)"
        )),
        Err(e) => Some(format!("the plugin's version is unknown: {e}")),
    }
}

/// The user's home folder (`HOME`).
pub fn home() -> Option<PathBuf> {
    std::env::var_os("HOME").map(PathBuf::from).filter(|p| p.is_absolute())
}

/// Where Claude Code keeps its configuration and its transcripts
/// (`projects/`): `CLAUDE_CONFIG_DIR`, else `~/.claude`.
pub const CLAUDE_CONFIG_DIR: &str = "CLAUDE_CONFIG_DIR";

/// Claude Code's folder (`CLAUDE_CONFIG_DIR`, else `~/.claude`), as this
/// process's environment says.
fn claude_dir() -> Option<PathBuf> {
    match std::env::var_os(CLAUDE_CONFIG_DIR).map(PathBuf::from).filter(|p| p.is_absolute()) {
        Some(dir) => Some(dir),
        None => home().map(|h| phasegate_store::cost::claude_dir(&h)),
    }
}

/// The longest lock wait accepted (an hour).
const MAX_LOCK_TIMEOUT_MS: u64 = 3_600_000;

#[derive(Debug, Clone)]
pub struct Env {
    pub cwd: PathBuf,
    pub now: DateTime<Utc>,
    pub lock_timeout: Duration,
    /// `CLAUDE_CODE_SESSION_ID` as given (checked where it is used).
    pub session_var: Option<String>,
    /// `CLAUDE_PROJECT_DIR`, which Claude Code sets for hooks.
    pub project_dir: Option<PathBuf>,
    /// Claude Code's folder, whose `projects/` hold the transcripts `cost`
    /// reads (only files inside it are read): `CLAUDE_CONFIG_DIR`, else
    /// `~/.claude`.
    pub claude_dir: Option<PathBuf>,
    /// The folder of the user's sealing key (see [`key_dir`]).
    pub key_dir: Option<PathBuf>,
    /// Who runs the operation ([`Env::operator`]).
    pub who: Who,
}

/// Who runs an operation: found from the process when asked (the hooks
/// never pay for the look), or given (tests).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Who {
    /// This process's: [`operator`].
    Process,
    Is(Operator),
}

impl Env {
    /// The environment of this process. An invalid `PHASEGATE_LOCK_TIMEOUT_MS`
    /// is an error, not silently ignored.
    pub fn from_process() -> Result<Env, OpError> {
        let cwd = std::env::current_dir().invalid("cannot read the current directory")?;
        let cwd = sfs::canonical_or_same(&cwd);
        Ok(Env {
            cwd,
            now: phasegate_core::time::now(),
            lock_timeout: lock_timeout(std::env::var(LOCK_TIMEOUT_MS).ok().as_deref())?,
            session_var: std::env::var(SESSION_ID).ok().filter(|s| !s.trim().is_empty()),
            project_dir: project_dir(),
            claude_dir: claude_dir(),
            key_dir: key_dir(),
            who: Who::Process,
        })
    }

    /// The environment of this process for a hook that must answer whatever
    /// happens: an invalid `PHASEGATE_LOCK_TIMEOUT_MS` falls back to the
    /// default here instead of failing.
    pub fn lenient() -> Env {
        let cwd = std::env::current_dir().unwrap_or_default();
        Env {
            cwd: sfs::canonical_or_same(&cwd),
            now: phasegate_core::time::now(),
            lock_timeout: lock_timeout(std::env::var(LOCK_TIMEOUT_MS).ok().as_deref()).unwrap_or(lock::DEFAULT_TIMEOUT),
            session_var: std::env::var(SESSION_ID).ok().filter(|s| !s.trim().is_empty()),
            project_dir: project_dir(),
            claude_dir: claude_dir(),
            key_dir: key_dir(),
            who: Who::Process,
        }
    }

    /// Who runs the operation: Claude Code's tools, a person at a
    /// terminal, or nobody ([`operator`]).
    pub fn operator(&self) -> Operator {
        match &self.who {
            Who::Process => operator(),
            Who::Is(o) => o.clone(),
        }
    }

    /// Whether the working directory is still there (a deleted checkout is
    /// not).
    pub fn cwd_exists(&self) -> bool {
        sfs::is_dir(&self.cwd)
    }

    /// The session: `given` (a `--session` flag), else the environment's.
    /// Checked before anything is changed on its behalf.
    pub fn session(&self, given: Option<&str>) -> Result<Option<SessionId>, OpError> {
        match given.or(self.session_var.as_deref()) {
            None => Ok(None),
            Some(id) => SessionId::parse(id).map(Some).invalid(format!("the session id `{}`", clip(id))),
        }
    }
}

fn project_dir() -> Option<PathBuf> {
    std::env::var_os(PROJECT_DIR).map(PathBuf::from).filter(|p| !p.as_os_str().is_empty())
}

fn clip(s: &str) -> String {
    let cut: String = s.chars().take(40).collect();
    if cut.len() < s.len() { format!("{cut}…") } else { cut }
}

/// Parses `PHASEGATE_LOCK_TIMEOUT_MS` (None: the default).
pub fn lock_timeout(value: Option<&str>) -> Result<Duration, OpError> {
    let Some(v) = value else { return Ok(lock::DEFAULT_TIMEOUT) };
    match v.trim().parse::<u64>() {
        Ok(ms) if ms <= MAX_LOCK_TIMEOUT_MS => Ok(Duration::from_millis(ms)),
        _ => {
            Err(Invalid::BadLockTimeout { variable: LOCK_TIMEOUT_MS, value: v.to_owned(), max: MAX_LOCK_TIMEOUT_MS }
                .into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: an invalid PHASEGATE_LOCK_TIMEOUT_MS was silently ignored.
    #[test]
    fn invalid_lock_timeouts_are_errors() {
        assert_eq!(lock_timeout(None).unwrap(), lock::DEFAULT_TIMEOUT);
        assert_eq!(lock_timeout(Some("250")).unwrap(), Duration::from_millis(250));
        for bad in ["abc", "-1", "1.5", "99999999999"] {
            let e = lock_timeout(Some(bad)).unwrap_err().to_string();
            assert!(e.contains(LOCK_TIMEOUT_MS), "{e}");
        }
    }

    #[test]
    fn version_mismatch_names_both_versions() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".claude-plugin")).unwrap();
        let write = |v: &str| {
            std::fs::write(
                dir.path().join(".claude-plugin/plugin.json"),
                format!(r#"{{"name":"phasegate","version":"{v}"}}"#),
            )
            .unwrap()
        };
        write(BINARY_VERSION);
        assert_eq!(version_mismatch(dir.path()), None);
        write("9.9.9");
        let said = version_mismatch(dir.path()).unwrap();
        assert!(said.contains("plugin is version 9.9.9") && said.contains(BINARY_VERSION), "{said}");
        std::fs::write(dir.path().join(".claude-plugin/plugin.json"), "{").unwrap();
        assert!(version_mismatch(dir.path()).unwrap().contains("not valid JSON"));
    }
}
