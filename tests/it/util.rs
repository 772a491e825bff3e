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
        let repo = git2::Repository::init(&env.root).expect("git init");
        let sig = git2::Signature::now("t", "t@example.com").unwrap();
        std::fs::write(env.root.join("README.md"), "test repo\n").unwrap();
        let mut index = repo.index().unwrap();
        index.add_path(Path::new("README.md")).unwrap();
        index.write().unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        repo.commit(Some("HEAD"), &sig, &sig, "init", &tree, &[]).unwrap();
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
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path(rel)).unwrap_or_else(|e| panic!("read {rel}: {e}"))
    }

    pub fn meta(&self, feature: &str) -> Value {
        serde_json::from_str(&self.read(&format!("docs/features/{feature}/.meta.json"))).unwrap()
    }

    /// `workflow-state <args>` in the project root.
    pub fn ws(&self, args: &[&str]) -> Run {
        Run::new(WORKFLOW_STATE, args, &self.root)
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
    pub fn verdict(&self, approved: bool, issues: &str) -> String {
        let p = self.outer().join(format!("verdict-{}.json", rand_suffix()));
        std::fs::write(&p, format!(r#"{{"approved": {approved}, "issues": [{issues}], "summary": "review summary"}}"#)).unwrap();
        p.display().to_string()
    }
}

fn rand_suffix() -> u128 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos()
}

/// One run of a binary (assert_cmd's `Command`: stdin, bounded wait).
pub struct Run {
    cmd: assert_cmd::Command,
    desc: String,
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
        Run { cmd, desc: format!("{} {}", Path::new(exe).file_name().unwrap().to_string_lossy(), args.join(" ")) }
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
        Done {
            desc: self.desc,
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// Runs and expects exit 0.
    pub fn ok(self) -> Done {
        self.code(0)
    }

    /// Runs and expects `code`.
    pub fn code(self, code: i32) -> Done {
        let done = self.output();
        assert_eq!(done.code, Some(code), "{}", done.report());
        done
    }
}

/// A finished run.
#[derive(Debug)]
pub struct Done {
    pub desc: String,
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Done {
    pub fn json(&self) -> Value {
        serde_json::from_str(self.stdout.trim()).unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", self.report()))
    }

    pub fn report(&self) -> String {
        format!("$ {}\nexit: {:?}\n--- stdout\n{}--- stderr\n{}", self.desc, self.code, self.stdout, self.stderr)
    }

    pub fn stderr_has(&self, needle: &str) -> &Self {
        assert!(self.stderr.contains(needle), "stderr lacks {needle:?}\n{}", self.report());
        self
    }

    pub fn stdout_has(&self, needle: &str) -> &Self {
        assert!(self.stdout.contains(needle), "stdout lacks {needle:?}\n{}", self.report());
        self
    }
}
