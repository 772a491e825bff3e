//! Test environment: a temporary git repository and builders that run the
//! real binaries and check stdout, stderr and status together.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

pub const WORKFLOW_STATE: &str = env!("CARGO_BIN_EXE_workflow-state");
pub const HOOK: &str = env!("CARGO_BIN_EXE_phasegate-hook");

/// A temporary project: a git repository with one commit.
pub struct TestEnv {
    dir: tempfile::TempDir,
    root: PathBuf,
}

impl TestEnv {
    pub fn new() -> Self {
        let env = TestEnv::plain();
        crate::common::init_repo(&env.root);
        env
    }

    /// A directory that is not a git repository.
    pub fn plain() -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().canonicalize().unwrap().join("project");
        std::fs::create_dir_all(&root).unwrap();
        TestEnv { dir, root }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The temporary directory holding the project (for siblings).
    pub fn outer(&self) -> &Path {
        self.dir.path()
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        crate::common::write_file(&self.root, rel, text)
    }

    pub fn read(&self, rel: &str) -> String {
        crate::common::read_file(&self.root, rel)
    }

    pub fn meta(&self, feature: &str) -> Value {
        serde_json::from_str(&self.read(&format!("docs/features/{feature}/.meta.json"))).unwrap()
    }

    /// `workflow-state <args>` in the project root.
    pub fn ws(&self, args: &[&str]) -> Run {
        Run::new(WORKFLOW_STATE, args, &self.root)
    }

    /// `workflow-state <args>` at a terminal of its own, outside Claude
    /// Code: a person (stdout and stderr come back together as stdout).
    pub fn ws_terminal(&self, args: &[&str]) -> Run {
        Run::in_terminal(WORKFLOW_STATE, args, &self.root)
    }

    /// `workflow-state <args>` in `dir` (relative to the root).
    pub fn ws_in(&self, dir: &str, args: &[&str]) -> Run {
        Run::new(WORKFLOW_STATE, args, &self.root.join(dir))
    }

    /// Creates a feature and returns its folder name.
    pub fn feature(&self, slug: &str, mode: &str) -> String {
        let out = self.ws(&["feature", "new", slug, "--mode", mode]).ok();
        Path::new(out.stdout.trim()).file_name().unwrap().to_string_lossy().into_owned()
    }

    /// Writes a verdict file and returns its path.
    /// Proves `feature` by one passing check (`common::provable`), so
    /// `finish` accepts it.
    pub fn prove(&self, feature: &str) {
        let name = self.meta_name(feature);
        crate::common::provable(self.root(), &name);
        self.ws(&["verify", "run", "--feature", &name]).ok();
    }

    /// A feature's folder name from any name `--feature` takes.
    fn meta_name(&self, feature: &str) -> String {
        self.ws(&["feature", "show", "--feature", feature]).ok().json()["name"].as_str().unwrap().to_owned()
    }

    pub fn verdict(&self, approved: bool, issues: &str) -> String {
        let p = self.outer().join(format!("verdict-{}.json", rand_suffix()));
        std::fs::write(&p, format!(r#"{{"approved": {approved}, "issues": [{issues}], "summary": "review summary"}}"#))
            .unwrap();
        p.display().to_string()
    }
}

/// Commits everything in the repository at `root` (a setup step).
pub fn commit_all(root: &Path) {
    let repo = git2::Repository::open(root).unwrap();
    let sig = git2::Signature::now("t", "t@example.com").unwrap();
    let mut index = repo.index().unwrap();
    index.add_all(["*"], git2::IndexAddOption::DEFAULT, None).unwrap();
    index.write().unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let parent = repo.head().unwrap().peel_to_commit().unwrap();
    repo.commit(Some("HEAD"), &sig, &sig, "setup", &tree, &[&parent]).unwrap();
}

fn rand_suffix() -> u128 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos()
}

/// One run of a binary (assert_cmd's `Command`: stdin, bounded wait).
pub struct Run {
    cmd: assert_cmd::Command,
    desc: String,
    /// Run in a pseudo-terminal ([`Run::in_terminal`]).
    terminal: bool,
}

/// The folder every run of this test binary keeps phasegate's sealing key
/// in (`XDG_STATE_HOME`): made once, removed with the process's temp files.
pub fn state_home() -> &'static Path {
    static DIR: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("a temporary state folder")).path()
}

fn shell_quote(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c)) {
        return s.to_owned();
    }
    format!("'{}'", s.replace('\'', "'\\''"))
}

impl Run {
    pub fn new(exe: &str, args: &[&str], cwd: &Path) -> Self {
        let mut cmd = assert_cmd::Command::new(exe);
        cmd.args(args).current_dir(cwd).timeout(std::time::Duration::from_secs(60));
        for (k, _) in std::env::vars_os() {
            let k = k.to_string_lossy();
            if k.starts_with("CLAUDE") || k.starts_with("PHASEGATE") || k.starts_with("GIT_") {
                cmd.env_remove(&*k);
            }
        }
        // A command of the suite is a person's script, even when the suite
        // runs inside Claude Code (a test that plays the model sets
        // CLAUDECODE, or runs under a `claude` process of its own).
        cmd.env("PHASEGATE_TEST_OUTSIDE_CLAUDE_CODE", "1");
        // One sealing key for the whole run, never the user's.
        cmd.env("XDG_STATE_HOME", state_home());
        Run {
            cmd,
            desc: format!("{} {}", Path::new(exe).file_name().unwrap().to_string_lossy(), args.join(" ")),
            terminal: false,
        }
    }

    /// `exe args…` in a terminal of its own: a pseudo-terminal `script`
    /// opens, as a person's terminal outside Claude Code is. What it prints
    /// (stdout and stderr together, as a terminal shows them) is stdout.
    pub fn in_terminal(exe: &str, args: &[&str], cwd: &Path) -> Self {
        let line = std::iter::once(exe).chain(args.iter().copied()).map(shell_quote).collect::<Vec<_>>().join(" ");
        let mut run = Run::new("script", &["-qec", &line, "/dev/null"], cwd);
        run.desc =
            format!("(in a terminal) {} {}", Path::new(exe).file_name().unwrap().to_string_lossy(), args.join(" "));
        run.terminal = true;
        run
    }

    pub fn stdin(mut self, data: impl Into<Vec<u8>>) -> Self {
        self.cmd.write_stdin(data.into());
        self
    }

    pub fn env(mut self, k: &str, v: &str) -> Self {
        self.cmd.env(k, v);
        self
    }

    pub fn output(mut self) -> Done {
        let out: Output = self.cmd.output().unwrap_or_else(|e| panic!("run {}: {e}", self.desc));
        let text = |b: &[u8]| {
            let t = String::from_utf8_lossy(b).into_owned();
            if self.terminal { t.replace("\r\n", "\n") } else { t }
        };
        Done { code: out.status.code(), stdout: text(&out.stdout), stderr: text(&out.stderr), desc: self.desc }
    }

    /// Runs and expects exit 0 and nothing on stderr (a success that warns
    /// on stderr is a bug the Markdown would not see).
    pub fn ok(self) -> Done {
        let done = self.code(0);
        assert!(done.stderr.is_empty(), "a successful run wrote to stderr:\n{}", done.report());
        done
    }

    /// Runs and expects `code`.
    pub fn code(self, code: i32) -> Done {
        let done = self.output();
        assert_eq!(done.code, Some(code), "{}", done.report());
        done
    }
}

#[path = "../common/done.rs"]
mod done;
pub use done::Done;

/// Knowledge helpers.
impl TestEnv {
    /// `kb record --type gotcha --content <content> --evidence <evidence>
    /// <scope> --json`, which must succeed: its reply. `scope`: `--path
    /// <file>` or `--pattern <glob>`, and any other flags.
    pub fn kb_gotcha(&self, content: &str, evidence: &str, scope: &[&str]) -> Value {
        let mut args = vec!["kb", "record", "--type", "gotcha", "--content", content, "--evidence", evidence];
        args.extend_from_slice(scope);
        args.push("--json");
        self.ws(&args).ok().json()
    }

    /// The id of the item [`TestEnv::kb_gotcha`] records.
    pub fn kb_gotcha_id(&self, content: &str, evidence: &str, scope: &[&str]) -> String {
        self.kb_gotcha(content, evidence, scope)["id"].as_str().expect("kb record --json names the id").to_owned()
    }
}

/// Pipeline helpers.
impl TestEnv {
    /// The loop session `session` owns, by its record (None: no record, or
    /// a record that owns no loop). A record that cannot be read or parsed
    /// is a failure, not "owns nothing".
    pub fn owns_loop(&self, session: &str) -> Option<String> {
        let path = self.path(&format!(".git/phasegate/sessions/{session}.json"));
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
            Err(e) => panic!("read session record {}: {e}", path.display()),
        };
        let v: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("session record {} is not JSON ({e}):\n{text}", path.display()));
        v["owns_loop"].as_str().map(str::to_owned)
    }

    pub fn fixture(name: &str) -> String {
        let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/fixtures/pipeline").join(name);
        std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }

    /// `workflow-state <args>` as Claude Code session `session` would run it.
    pub fn ws_as(&self, session: &str, args: &[&str]) -> Run {
        self.ws(args).env("CLAUDE_CODE_SESSION_ID", session)
    }

    /// A hook of `session` with `input` (the session and cwd added), which
    /// must exit 0.
    pub fn hook_as(&self, event: &str, session: &str, input: Value) -> Done {
        let mut input = input;
        input["session_id"] = Value::from(session);
        input["cwd"] = Value::from(self.root().to_string_lossy().into_owned());
        Run::new(HOOK, &[event], self.root()).stdin(input.to_string()).ok()
    }

    /// PreToolUse of `session` for an Edit of `rel`.
    pub fn edit_as(&self, session: &str, rel: &str) -> Done {
        let input = serde_json::json!({"hook_event_name": "PreToolUse", "tool_name": "Edit",
            "tool_input": {"file_path": self.path(rel), "old_string": "a", "new_string": "b"}});
        self.hook_as("pre-tool-use", session, input)
    }

    /// Starts a pipeline owned by `session`; returns the feature name.
    pub fn pipeline(&self, session: &str) -> String {
        let out = self
            .ws_as(session, &["pipeline", "start", "auth", "--request", "Add user authentication with JWT tokens"])
            .ok();
        out.json()["feature"].as_str().unwrap().to_owned()
    }

    pub fn task_path(&self, feature: &str, file: &str) -> PathBuf {
        self.path(&format!("docs/features/{feature}/.task/{file}"))
    }

    pub fn write_task(&self, feature: &str, file: &str, text: &str) {
        std::fs::write(self.task_path(feature, file), text).unwrap();
    }

    pub fn run_state(&self, feature: &str) -> Value {
        serde_json::from_str(&std::fs::read_to_string(self.task_path(feature, "state.json")).unwrap()).unwrap()
    }

    pub fn loop_state(&self, feature: &str) -> Value {
        serde_json::from_str(&std::fs::read_to_string(self.task_path(feature, "loop-state.json")).unwrap()).unwrap()
    }

    /// Writes the project's pipeline.config.json.
    pub fn config(&self, json: &str) {
        self.write(".phasegate/pipeline.config.json", json);
    }

    /// A review file's content.
    pub fn review(reviewer: &str, model: &str, status: &str) -> String {
        let extra = if status == "needs_clarification" { r#", "questions": ["Which database?"]"# } else { "" };
        format!(
            r#"{{"id": "review-1", "reviewer": "{reviewer}", "model": "{model}", "status": "{status}", "summary": "{model} says {status}", "findings": [], "blockers": [], "reviewed_at": "2026-11-22T10:00:00Z"{extra}}}"#
        )
    }

    /// Records the sonnet and opus reviews of the current gate as `status`.
    pub fn review_stage(&self, session: &str, feature: &str, reviewer: &str, model: &str, status: &str) -> Value {
        self.write_task(feature, &format!("review-{model}.json"), &TestEnv::review(reviewer, model, status));
        self.ws_as(session, &["pipeline", "review", model]).ok().json()
    }

    /// Drives a fresh pipeline to the start of its implementation loop: valid
    /// requirements and plan, a plan gate passed (final gate skipped: no
    /// reviewer installed). `tests` is the shell line of the plan's tests.
    pub fn to_loop(&self, session: &str, tests: &str, max_iterations: u32) -> String {
        self.config(r#"{"finalGate": {"command": ["phasegate-test-no-such-reviewer"]}}"#);
        let f = self.pipeline(session);
        self.write_task(&f, "user-story.json", &TestEnv::fixture("user-story.json"));
        let plan = TestEnv::fixture("plan-refined.json")
            .replace("\"sh test.sh\"", &serde_json::to_string(tests).unwrap())
            .replace("\"max_iterations\": 4", &format!("\"max_iterations\": {max_iterations}"));
        self.write_task(&f, "plan-refined.json", &plan);
        for to in ["plan_drafting", "plan_refining", "plan_reviewing"] {
            self.ws_as(session, &["pipeline", "transition", to]).ok();
        }
        self.review_stage(session, &f, "plan-reviewer", "sonnet", "approved");
        self.review_stage(session, &f, "plan-reviewer", "opus", "approved");
        self.ws_as(session, &["pipeline", "final-gate"]).ok();
        self.ws_as(session, &["pipeline", "transition", "implementing"]).ok();
        self.ws_as(session, &["pipeline", "transition", "implementing_loop"]).ok();
        f
    }

    /// Passes the code review gate of the loop.
    pub fn approve_code(&self, session: &str, feature: &str) {
        self.review_stage(session, feature, "code-reviewer", "sonnet", "approved");
        self.review_stage(session, feature, "code-reviewer", "opus", "approved");
        self.ws_as(session, &["pipeline", "final-gate"]).ok();
    }
}
