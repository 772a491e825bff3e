//! Fixtures for the end-to-end tests: a throwaway HOME, a temporary git
//! repository, the real `claude` with `--plugin-dir` at this repository, and
//! the binaries under test on its PATH.

use std::path::{Path, PathBuf};
use std::process::Command;

use phasegate_testkit::{ClaudeCode, MockApi, RecordedRequest};

pub const WORKFLOW_STATE: &str = env!("CARGO_BIN_EXE_workflow-state");

/// The plugin under test: this repository.
pub fn plugin_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Where the binaries under test are; the plugin's bin/ launchers use them
/// through PHASEGATE_BIN_DIR.
pub fn bin_dir() -> PathBuf {
    Path::new(WORKFLOW_STATE).parent().unwrap().to_path_buf()
}

pub struct Fixture {
    _tmp: tempfile::TempDir,
    pub home: PathBuf,
    pub repo: PathBuf,
}

impl Fixture {
    /// A git repository with one commit.
    pub fn repo() -> Self {
        let f = Fixture::plain();
        crate::common::init_repo(&f.repo);
        f
    }

    /// A directory that is not a git repository.
    pub fn plain() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().canonicalize().unwrap();
        let home = base.join("home");
        let repo = base.join("project");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&repo).unwrap();
        Fixture { _tmp: tmp, home, repo }
    }

    /// Runs `workflow-state` in the repository; panics unless it exits 0.
    pub fn ws(&self, args: &[&str]) -> String {
        self.ws_in(&self.repo, args)
    }

    pub fn ws_in(&self, dir: &Path, args: &[&str]) -> String {
        let out = Command::new(WORKFLOW_STATE)
            .args(args)
            .current_dir(dir)
            .env_remove("CLAUDE_CODE_SESSION_ID")
            .env_remove("CLAUDECODE")
            .env_remove("CLAUDE_CODE_ENTRYPOINT")
            // The test sets up as a person would, even inside Claude Code,
            // with the key the sessions it starts use (their HOME's).
            .env("PHASEGATE_TEST_OUTSIDE_CLAUDE_CODE", "1")
            .env("HOME", &self.home)
            .env_remove("XDG_STATE_HOME")
            .output()
            .unwrap();
        assert!(out.status.success(), "workflow-state {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Runs `workflow-state` in a terminal of its own (a pseudo-terminal
    /// `script` opens), outside Claude Code: a person; panics unless it
    /// exits 0. Returns what the terminal showed.
    pub fn ws_terminal(&self, args: &[&str]) -> String {
        let line = std::iter::once(WORKFLOW_STATE)
            .chain(args.iter().copied())
            .map(|a| format!("'{}'", a.replace('\'', "'\\''")))
            .collect::<Vec<_>>()
            .join(" ");
        let out = Command::new("script")
            .args(["-qec", &line, "/dev/null"])
            .current_dir(&self.repo)
            .env("HOME", &self.home)
            .env_remove("XDG_STATE_HOME")
            .env_remove("CLAUDE_CODE_SESSION_ID")
            .env_remove("CLAUDECODE")
            .env_remove("CLAUDE_CODE_ENTRYPOINT")
            .env("PHASEGATE_TEST_OUTSIDE_CLAUDE_CODE", "1")
            .output()
            .unwrap();
        let shown = String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n");
        assert!(out.status.success(), "workflow-state {args:?} in a terminal: {shown}");
        shown
    }

    /// Proves `feature` (its folder name) by one passing check, so
    /// `finish` accepts it (`common::provable`).
    pub fn prove(&self, feature: &str) {
        crate::common::provable(&self.repo, feature);
        self.ws(&["verify", "run", "--feature", feature]);
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.repo.join(rel)
    }

    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        crate::common::write_file(&self.repo, rel, text)
    }

    pub fn read(&self, rel: &str) -> String {
        crate::common::read_file(&self.repo, rel)
    }

    pub fn meta(&self, feature: &str) -> serde_json::Value {
        serde_json::from_str(&self.read(&format!("docs/features/{feature}/.meta.json"))).unwrap()
    }

    /// `claude -p` in the repository with the plugin loaded from this checkout.
    pub fn claude(&self) -> ClaudeCode {
        self.claude_in(&self.repo)
    }

    pub fn claude_in(&self, cwd: &Path) -> ClaudeCode {
        ClaudeCode::new()
            .home(&self.home)
            .cwd(cwd)
            .plugin_dir(plugin_root())
            .env("PHASEGATE_BIN_DIR", bin_dir())
            .allowed_tools("Bash,Read,Write,Edit,Glob,Grep,Agent,Skill")
    }
}

/// The SessionStart context that reached the model in its first request, if any.
pub fn session_context(api: &MockApi) -> Option<String> {
    const PREFIX: &str = "SessionStart hook additional context: ";
    let first = api.requests_for_main().into_iter().next().expect("no request reached the API");
    context_in(&first, PREFIX)
}

fn context_in(req: &RecordedRequest, prefix: &str) -> Option<String> {
    let texts = req.system_message_texts().into_iter().chain(std::iter::once(req.system_text()));
    for text in texts {
        if let Some(start) = text.find(prefix) {
            let rest = &text[start + prefix.len()..];
            let end = rest.find("\n\n# ").unwrap_or(rest.len());
            return Some(rest[..end].trim_end().to_owned());
        }
    }
    None
}

/// The text of the first main request's user messages (the expanded prompt).
pub fn prompt_text(api: &MockApi) -> String {
    api.requests_for_main().into_iter().next().expect("no request").user_texts().join("\n")
}

/// A pipeline file from the integration tests' fixtures (seed examples).
pub fn pipeline_fixture(name: &str) -> String {
    let p = plugin_root().join("tests/it/fixtures/pipeline").join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

impl Fixture {
    fn write_task(&self, feature: &str, file: &str, text: &str) {
        self.write(&format!("docs/features/{feature}/.task/{file}"), text);
    }

    pub fn task_json(&self, feature: &str, file: &str) -> serde_json::Value {
        serde_json::from_str(&self.read(&format!("docs/features/{feature}/.task/{file}"))).unwrap()
    }

    fn review(&self, session: &str, feature: &str, reviewer: &str, model: &str) {
        let review = format!(
            r#"{{"id": "review-1", "reviewer": "{reviewer}", "model": "{model}", "status": "approved", "summary": "ok", "findings": [], "reviewed_at": "2026-11-22T10:00:00Z"}}"#
        );
        self.write_task(feature, &format!("review-{model}.json"), &review);
        self.ws(&["pipeline", "review", model, "--feature", feature]);
        let _ = session;
    }

    /// A pipeline `001-auth` started by `session`, in plan review with the
    /// sonnet and opus reviews approved (the final gate is next; its
    /// reviewer is configured as missing, so it is skipped). `tests` is the
    /// plan's test command; `max` its loop budget.
    pub fn pipeline_at_final_gate(&self, session: &str, tests: &str, max: u32) -> String {
        self.write(
            ".phasegate/pipeline.config.json",
            r#"{"finalGate": {"command": ["phasegate-test-no-such-reviewer"]}}"#,
        );
        self.ws(&["pipeline", "start", "auth", "--request", "Add user authentication", "--session", session]);
        let f = "001-auth";
        self.write_task(f, "user-story.json", &pipeline_fixture("user-story.json"));
        self.write_task(f, "worker-signal.json", &pipeline_fixture("worker-signal.json"));
        self.write_task(f, "impl-result.json", &pipeline_fixture("impl-result.json"));
        let plan = pipeline_fixture("plan-refined.json")
            .replace("\"sh test.sh\"", &serde_json::to_string(tests).unwrap())
            .replace("\"max_iterations\": 4", &format!("\"max_iterations\": {max}"));
        self.write_task(f, "plan-refined.json", &plan);
        for to in ["plan_drafting", "plan_refining", "plan_reviewing"] {
            self.ws(&["pipeline", "transition", to, "--feature", f]);
        }
        self.review(session, f, "plan-reviewer", "sonnet");
        self.review(session, f, "plan-reviewer", "opus");
        f.to_owned()
    }

    /// A pipeline in its implementation loop, owned by `session`.
    pub fn pipeline_in_loop(&self, session: &str, tests: &str, max: u32) -> String {
        let f = self.pipeline_at_final_gate(session, tests, max);
        self.ws(&["pipeline", "final-gate", "--feature", &f]);
        self.ws(&["pipeline", "transition", "implementing", "--feature", &f]);
        self.ws(&["pipeline", "transition", "implementing_loop", "--feature", &f]);
        f
    }
}
