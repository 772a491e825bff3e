//! [`ClaudeCode`]: runs the real `claude` binary, bounded in time, against a
//! [`MockApi`].

use std::ffi::OsString;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::Value;

use crate::server::MockApi;
use crate::text;

/// Environment variable naming the `claude` binary to use instead of the pinned one.
pub const CLAUDE_BIN_ENV: &str = "PHASEGATE_CLAUDE_BIN";

/// Where `npm ci --prefix tests/e2e` puts the pinned binary, from the workspace root.
const PINNED_BIN: &str = "tests/e2e/node_modules/.bin/claude";

/// The default bound on one run.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

/// How long to wait for stdout/stderr to close once the run's processes are gone.
const DRAIN: Duration = Duration::from_secs(5);

/// Set to a unique value in each run's environment, so that every process
/// the run started can be found (in `/proc/*/environ`) and killed, even the
/// ones Claude Code puts in a session of their own (its Bash tool does).
pub const RUN_TAG_ENV: &str = "PHASEGATE_TESTKIT_RUN";

/// A `claude -p` invocation, built step by step and then [`run`](Self::run).
#[derive(Clone, Debug)]
pub struct ClaudeCode {
    binary: PathBuf,
    home: Option<PathBuf>,
    cwd: Option<PathBuf>,
    plugin_dirs: Vec<PathBuf>,
    path_prepend: Vec<PathBuf>,
    env: Vec<(String, OsString)>,
    allowed_tools: Option<String>,
    prompt: Option<String>,
    args: Vec<String>,
    timeout: Duration,
    spare_detached: bool,
}

impl ClaudeCode {
    /// A run of the located binary (see [`locate_binary`]); panics when there is none.
    pub fn new() -> Self {
        Self::with_binary(locate_binary())
    }

    /// A run of this exact binary.
    pub fn with_binary(binary: impl Into<PathBuf>) -> Self {
        Self {
            binary: binary.into(),
            home: None,
            cwd: None,
            plugin_dirs: Vec::new(),
            path_prepend: Vec::new(),
            env: Vec::new(),
            allowed_tools: None,
            prompt: None,
            args: Vec::new(),
            timeout: DEFAULT_TIMEOUT,
            spare_detached: false,
        }
    }

    /// `HOME` for the process (default: a temporary directory removed after the run).
    pub fn home(mut self, dir: impl Into<PathBuf>) -> Self {
        self.home = Some(dir.into());
        self
    }

    /// Working directory (default: the home directory).
    pub fn cwd(mut self, dir: impl Into<PathBuf>) -> Self {
        self.cwd = Some(dir.into());
        self
    }

    /// Adds `--plugin-dir <dir>`.
    pub fn plugin_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.plugin_dirs.push(dir.into());
        self
    }

    /// Puts `dir` in front of the inherited `PATH` (later calls go further in front).
    pub fn path_prepend(mut self, dir: impl Into<PathBuf>) -> Self {
        self.path_prepend.insert(0, dir.into());
        self
    }

    /// Sets an environment variable (applied after the fixed ones, so it can
    /// override them, `PATH` included).
    pub fn env(mut self, key: impl Into<String>, value: impl Into<OsString>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    /// `--allowedTools <list>`, e.g. `"Bash,Read,Write"`.
    pub fn allowed_tools(mut self, list: impl Into<String>) -> Self {
        self.allowed_tools = Some(list.into());
        self
    }

    /// The prompt given to `-p` (required).
    pub fn prompt(mut self, prompt: impl Into<String>) -> Self {
        self.prompt = Some(prompt.into());
        self
    }

    /// Adds one extra argument at the end of the command line.
    pub fn arg(mut self, arg: impl Into<String>) -> Self {
        self.args.push(arg.into());
        self
    }

    /// Adds extra arguments at the end, e.g. `["--resume", id]`.
    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Bound on the whole run (default [`DEFAULT_TIMEOUT`]); past it the
    /// process group is killed.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Lets the run's processes that lead a session of their own (what a
    /// hook starts to outlive the session, e.g. phasegate's background Slack
    /// poller) live on after the run; [`ClaudeOutput::survivors`] ends them.
    /// The rest of the run is ended as always.
    pub fn spare_detached(mut self) -> Self {
        self.spare_detached = true;
        self
    }

    /// The arguments passed to the binary.
    fn argv(&self) -> Vec<OsString> {
        let prompt = self.prompt.clone().expect("phasegate-testkit: ClaudeCode::prompt(...) must be set before run()");
        let mut argv: Vec<OsString> = vec!["-p".into(), prompt.into()];
        for dir in &self.plugin_dirs {
            argv.extend(["--plugin-dir".into(), dir.clone().into_os_string()]);
        }
        if let Some(tools) = &self.allowed_tools {
            // --allowedTools takes several values: the next option ends the list.
            argv.extend(["--allowedTools".into(), tools.into()]);
        }
        argv.extend(["--output-format".into(), "json".into()]);
        argv.extend(self.args.iter().map(OsString::from));
        argv
    }

    /// Runs `claude` against `api` in a cleared environment and waits, at
    /// most the timeout, for it to finish. Never panics on a failed or
    /// timed-out run: check [`ClaudeOutput::success`].
    pub fn run(&self, api: &MockApi) -> ClaudeOutput {
        let argv = self.argv();
        let temp_home;
        let home = match &self.home {
            Some(home) => home.clone(),
            None => {
                temp_home = tempfile::tempdir()
                    .unwrap_or_else(|e| panic!("phasegate-testkit: cannot create a temporary HOME: {e}"));
                temp_home.path().to_owned()
            }
        };
        let cwd = self.cwd.clone().unwrap_or_else(|| home.clone());

        let tag = run_tag();
        let mut command = Command::new(&self.binary);
        command.env_clear().env(RUN_TAG_ENV, &tag);
        if let Some(lang) = std::env::var_os("LANG") {
            command.env("LANG", lang);
        }
        command
            .env("PATH", self.path())
            .env("HOME", &home)
            .env("ANTHROPIC_BASE_URL", api.base_url())
            .env("ANTHROPIC_API_KEY", "test-key")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env("DISABLE_AUTOUPDATER", "1");
        for (key, value) in &self.env {
            command.env(key, value);
        }
        command
            .args(&argv)
            .current_dir(&cwd)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);

        let command_line = display_command(&self.binary, &argv);
        let started = Instant::now();
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("phasegate-testkit: cannot start `{command_line}` in {}: {e}", cwd.display()));
        let stdout = drain(child.stdout.take());
        let stderr = drain(child.stderr.take());
        let (status, timed_out) = wait_bounded(&mut child, self.timeout, &tag);
        let elapsed = started.elapsed();
        // Whatever the run left behind (background shells, agents) goes too.
        kill_run(Some(child.id()), &tag, self.spare_detached);

        ClaudeOutput {
            status,
            timed_out,
            elapsed,
            stdout: collect(&stdout, "stdout"),
            stderr: collect(&stderr, "stderr"),
            command_line,
            api_report: api.report(),
            tag,
        }
    }

    /// The `PATH` for the process: the prepended directories, then the inherited `PATH`.
    fn path(&self) -> OsString {
        let inherited = std::env::var_os("PATH").unwrap_or_default();
        let dirs = self.path_prepend.iter().cloned().chain(std::env::split_paths(&inherited));
        std::env::join_paths(dirs).unwrap_or_else(|e| panic!("phasegate-testkit: cannot build PATH: {e}"))
    }
}

impl Default for ClaudeCode {
    fn default() -> Self {
        Self::new()
    }
}

/// The `claude` binary to run: `$PHASEGATE_CLAUDE_BIN` when set, else the
/// pinned `tests/e2e/node_modules/.bin/claude` of this workspace. Panics with
/// instructions when neither exists: a missing binary is an error, never a skip.
pub fn locate_binary() -> PathBuf {
    if let Some(path) = std::env::var_os(CLAUDE_BIN_ENV).filter(|p| !p.is_empty()) {
        let path = PathBuf::from(path);
        assert!(path.is_file(), "phasegate-testkit: {CLAUDE_BIN_ENV}={} is not a file", path.display());
        return path;
    }
    let root = workspace_root();
    let pinned = root.join(PINNED_BIN);
    assert!(
        pinned.is_file(),
        "phasegate-testkit: the Claude Code CLI is not installed at {}.\n\
         Run `scripts/test.sh` from {} (it runs `npm ci --prefix tests/e2e`), \
         or set {CLAUDE_BIN_ENV} to a claude binary.",
        pinned.display(),
        root.display()
    );
    pinned
}

/// The workspace root: two levels above this crate.
fn workspace_root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.canonicalize().unwrap_or(root)
}

/// Reads a pipe to its end on a thread; the text arrives on the channel.
fn drain(pipe: Option<impl Read + Send + 'static>) -> Receiver<String> {
    let (sender, receiver) = mpsc::channel();
    if let Some(mut pipe) = pipe {
        thread::spawn(move || {
            let mut bytes = Vec::new();
            let text = match pipe.read_to_end(&mut bytes) {
                Ok(_) => String::from_utf8_lossy(&bytes).into_owned(),
                Err(e) => format!("{}\n(phasegate-testkit: read error: {e})", String::from_utf8_lossy(&bytes)),
            };
            // The receiver may have given up waiting; then nobody needs the text.
            let _ = sender.send(text);
        });
    }
    receiver
}

fn collect(receiver: &Receiver<String>, name: &str) -> String {
    receiver
        .recv_timeout(DRAIN)
        .unwrap_or_else(|_| format!("(phasegate-testkit: {name} still open {DRAIN:?} after the run)"))
}

/// Waits for `child` until `timeout`; past it, kills every process of the run.
fn wait_bounded(child: &mut Child, timeout: Duration, tag: &str) -> (ExitStatus, bool) {
    let deadline = Instant::now() + timeout;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return (status, false),
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(20)),
            Ok(None) => break,
            Err(e) => panic!("phasegate-testkit: cannot wait for claude: {e}"),
        }
    }
    kill_run(Some(child.id()), tag, false);
    // In case the kills above could not run (no `sh`), kill the child itself.
    let _ = child.kill();
    let status = child.wait().unwrap_or_else(|e| panic!("phasegate-testkit: cannot reap the killed claude: {e}"));
    (status, true)
}

/// A value for [`RUN_TAG_ENV`] unique to this run.
fn run_tag() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or_default();
    format!("{}-{}-{nanos}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed))
}

/// SIGKILLs the run: every process whose environment carries the run's tag
/// (but for session leaders when `spare_detached`) and the process group
/// `pgid` (the child leads its own group), for a few rounds until no such
/// process is left, as processes may fork meanwhile. A failed kill means
/// the process is already gone.
fn kill_run(pgid: Option<u32>, tag: &str, spare_detached: bool) {
    let needle = format!("{RUN_TAG_ENV}={tag}");
    for round in 0..10 {
        let mut targets: Vec<String> = tagged_pids(&needle)
            .into_iter()
            .filter(|pid| !(spare_detached && leads_a_session(*pid)))
            .map(|pid| pid.to_string())
            .collect();
        if round > 0 && targets.is_empty() {
            return;
        }
        // Last, so that the shell's `kill` cannot take it for an option.
        targets.extend(pgid.map(|g| format!("-{g}")));
        if targets.is_empty() {
            return;
        }
        let _ = Command::new("sh")
            .args(["-c", "kill -9 \"$@\" 2>/dev/null", "sh"])
            .args(&targets)
            .env_clear()
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        thread::sleep(Duration::from_millis(20));
    }
}

/// Whether `pid` leads its own session.
fn leads_a_session(pid: u32) -> bool {
    session_of(pid) == Some(pid)
}

/// The session id of process `pid` (Linux: the fourth field after the
/// command name in `/proc/<pid>/stat`); None when it is gone.
pub fn session_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?.1.split_whitespace().nth(3)?.parse().ok()
}

/// Live processes whose environment contains the entry `needle` (Linux
/// `/proc`; elsewhere none are found and only the process group is killed).
fn tagged_pids(needle: &str) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|environ| environ.split(|&b| b == 0).any(|var| var == needle.as_bytes()))
        })
        .collect()
}

fn display_command(binary: &Path, argv: &[OsString]) -> String {
    let mut parts = vec![binary.display().to_string()];
    parts.extend(argv.iter().map(|arg| {
        let arg = arg.to_string_lossy();
        if arg.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:,=".contains(c)) && !arg.is_empty() {
            arg.into_owned()
        } else {
            format!("'{}'", text::head(&arg.replace('\'', r"'\''"), 200))
        }
    }));
    parts.join(" ")
}

/// What a run produced, plus a snapshot of the mock API's report.
#[derive(Clone, Debug)]
pub struct ClaudeOutput {
    /// Exit status (a signal when killed on timeout).
    pub status: ExitStatus,
    /// Whether the run was killed for exceeding its timeout.
    pub timed_out: bool,
    /// Wall time of the run.
    pub elapsed: Duration,
    /// Everything printed on stdout (the `--output-format json` object).
    pub stdout: String,
    /// Everything printed on stderr.
    pub stderr: String,
    /// The command line, for reports.
    pub command_line: String,
    api_report: String,
    tag: String,
}

/// The processes a [`ClaudeCode::spare_detached`] run left running; killed
/// when dropped (so a failing test leaves none behind).
#[derive(Debug)]
pub struct Survivors {
    tag: String,
}

impl Survivors {
    /// How many are still alive.
    pub fn alive(&self) -> usize {
        tagged_pids(&format!("{RUN_TAG_ENV}={}", self.tag)).len()
    }
}

impl Drop for Survivors {
    fn drop(&mut self) {
        kill_run(None, &self.tag, false);
    }
}

impl ClaudeOutput {
    /// Exited 0 within the timeout, and the JSON result is not flagged `is_error`.
    pub fn success(&self) -> bool {
        !self.timed_out
            && self.status.success()
            && self.try_json().is_none_or(|json| json.get("is_error") != Some(&Value::Bool(true)))
    }

    /// The parsed stdout (`result`, `session_id`, `is_error`, …), if it is JSON.
    pub fn try_json(&self) -> Option<Value> {
        serde_json::from_str(self.stdout.trim()).ok().or_else(|| {
            // Tolerate stray lines before the result object.
            let last = self.stdout.lines().rev().find(|line| !line.trim().is_empty())?;
            serde_json::from_str(last).ok()
        })
    }

    /// The parsed stdout; panics with the report when it is not JSON.
    #[track_caller]
    pub fn json(&self) -> Value {
        self.try_json().unwrap_or_else(|| panic!("phasegate-testkit: claude's stdout is not JSON\n{}", self.report()))
    }

    /// The final `result` text (empty when absent).
    pub fn result(&self) -> String {
        self.try_json()
            .and_then(|json| json.get("result").and_then(Value::as_str).map(str::to_owned))
            .unwrap_or_default()
    }

    /// The run's processes still alive (see [`ClaudeCode::spare_detached`]).
    pub fn survivors(&self) -> Survivors {
        Survivors { tag: self.tag.clone() }
    }

    /// The session id claude reported, for `--resume`.
    pub fn session_id(&self) -> Option<String> {
        self.try_json()?.get("session_id")?.as_str().map(str::to_owned)
    }

    /// Status, stderr, the result (or stdout tail), and every recorded request.
    pub fn report(&self) -> String {
        let ending = if self.timed_out {
            format!("KILLED after the {:.1}s timeout", self.elapsed.as_secs_f64())
        } else {
            format!("{} after {:.1}s", self.status, self.elapsed.as_secs_f64())
        };
        let mut out = format!("claude run: {ending}\ncommand: {}\n", self.command_line);
        match self.try_json() {
            Some(json) => out.push_str(&format!(
                "result: subtype={} is_error={} num_turns={} session_id={}\n  {}\n",
                json["subtype"],
                json["is_error"],
                json["num_turns"],
                json["session_id"],
                text::one_line(json["result"].as_str().unwrap_or_default(), 600)
            )),
            None => out.push_str(&format!("--- stdout (tail) ---\n{}\n", text::tail(self.stdout.trim_end(), 2000))),
        }
        if !self.stderr.trim().is_empty() {
            out.push_str(&format!("--- stderr (tail) ---\n{}\n", text::tail(self.stderr.trim_end(), 3000)));
        }
        out.push_str("--- ");
        out.push_str(&self.api_report);
        out
    }
}
