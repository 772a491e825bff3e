//! Running the Windows binaries under Wine, and the temporary projects
//! they work on. A project lives in a Linux temporary folder; the Windows
//! binaries see it through drive Z: (`/tmp/x` is `Z:\tmp\x`), the way a
//! Windows user's repository is `C:\Users\…`.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::Value;

/// The folder holding `workflow-state.exe` and `phasegate-hook.exe`.
pub const BIN_DIR: &str = "PHASEGATE_WINDOWS_BIN";
/// The folder holding the test helpers built from `scripts/windows/`
/// (`pid.exe`).
pub const HELPERS_DIR: &str = "PHASEGATE_WINDOWS_HELPERS";
/// Wine's loader (default `/usr/lib/wine/wine64`, where Debian puts it).
pub const WINE: &str = "PHASEGATE_WINE";

/// What every run needs, checked once: a test run without the build or
/// Wine fails here, naming what is missing.
struct Setup {
    wine: PathBuf,
    bin: PathBuf,
    helpers: PathBuf,
}

fn setup() -> &'static Setup {
    static SETUP: OnceLock<Setup> = OnceLock::new();
    SETUP.get_or_init(|| {
        let dir = |var: &str| -> PathBuf {
            let dir = std::env::var_os(var).map(PathBuf::from).unwrap_or_else(|| {
                panic!("{var} is not set: these tests run the Windows binaries under Wine; run scripts/test-windows.sh")
            });
            assert!(dir.is_dir(), "{var}={} is not a folder; run scripts/test-windows.sh", dir.display());
            dir
        };
        let wine = std::env::var_os(WINE).map_or_else(|| PathBuf::from("/usr/lib/wine/wine64"), PathBuf::from);
        assert!(wine.is_file(), "Wine is not at {} (set {WINE}); scripts/test-windows.sh installs it", wine.display());
        let setup = Setup { wine, bin: dir(BIN_DIR), helpers: dir(HELPERS_DIR) };
        for exe in [Exe::Ws, Exe::Hook] {
            let p = setup.bin.join(exe.file());
            assert!(p.is_file(), "{} is missing; run scripts/test-windows.sh", p.display());
        }
        setup
    })
}

/// One of the shipped binaries.
#[derive(Debug, Clone, Copy)]
pub enum Exe {
    Ws,
    Hook,
}

impl Exe {
    fn file(self) -> &'static str {
        match self {
            Exe::Ws => "workflow-state.exe",
            Exe::Hook => "phasegate-hook.exe",
        }
    }

    /// The binary's own path, as Windows names it.
    pub fn win_path(self) -> String {
        win(&setup().bin.join(self.file()))
    }
}

/// How a Windows program under Wine names a Linux path: drive Z: is `/`,
/// and the separators are backslashes.
pub fn win(path: &Path) -> String {
    assert!(path.is_absolute(), "{} is not absolute", path.display());
    format!("Z:{}", path.display().to_string().replace('/', "\\"))
}

/// A temporary git repository with one commit.
pub struct Project {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Project {
    pub fn new() -> Project {
        let p = Project::plain();
        crate::common::init_repo(&p.root);
        p
    }

    /// A folder that is not a git repository.
    pub fn plain() -> Project {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().canonicalize().unwrap().join("project");
        std::fs::create_dir_all(&root).unwrap();
        Project { _dir: dir, root }
    }

    /// The root, as Linux names it.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `rel` (`/`-separated) under the root, as Linux names it.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    /// `rel` under the root as Windows names it: `Z:\…\project\rel`, with
    /// backslashes; the root itself for "".
    pub fn win(&self, rel: &str) -> String {
        match rel {
            "" => win(&self.root),
            rel => win(&self.root.join(rel)),
        }
    }

    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        crate::common::write_file(&self.root, rel, text)
    }

    pub fn read(&self, rel: &str) -> String {
        crate::common::read_file(&self.root, rel)
    }

    pub fn json(&self, rel: &str) -> Value {
        let text = self.read(rel);
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{rel} is not JSON ({e}):\n{text}"))
    }

    /// `workflow-state.exe <args>` in the root.
    pub fn ws(&self, args: &[&str]) -> Run {
        Run::new(Exe::Ws, args, &self.root)
    }

    /// `workflow-state.exe <args>` in `dir` (relative to the root).
    pub fn ws_in(&self, dir: &str, args: &[&str]) -> Run {
        Run::new(Exe::Ws, args, &self.root.join(dir))
    }

    /// `workflow-state.exe <args>` as Claude Code session `session` runs it.
    pub fn ws_as(&self, session: &str, args: &[&str]) -> Run {
        self.ws(args).env("CLAUDE_CODE_SESSION_ID", session)
    }

    /// `phasegate-hook.exe <event>` in the root with `input` on stdin.
    pub fn hook(&self, event: &str, input: &Value) -> Run {
        Run::new(Exe::Hook, &[event], &self.root).stdin(input.to_string())
    }

    /// Creates a feature through `workflow-state.exe feature new` and
    /// returns its folder name.
    pub fn feature(&self, slug: &str) -> String {
        self.ws(&["feature", "new", slug, "--json"]).ok().json()["name"].as_str().unwrap().to_owned()
    }

    /// Starts session `session` (SessionStart in the root).
    pub fn start(&self, session: &str) -> Done {
        self.hook(
            "session-start",
            &serde_json::json!({"session_id": session, "cwd": self.win(""), "hook_event_name": "SessionStart", "source": "startup"}),
        )
        .ok()
    }

    /// PreToolUse of `tool` on `file_path` (spelled as given) by `session`.
    pub fn pre_tool_use(&self, session: &str, tool: &str, file_path: &str) -> Done {
        self.hook(
            "pre-tool-use",
            &serde_json::json!({
                "session_id": session, "cwd": self.win(""), "hook_event_name": "PreToolUse", "tool_name": tool,
                "tool_input": {"file_path": file_path, "old_string": "a", "new_string": "b", "content": "{}"},
                "tool_use_id": "toolu_1"
            }),
        )
        .ok()
    }

    /// The session record of `session`.
    pub fn session_record(&self, session: &str) -> Value {
        self.json(&format!(".git/phasegate/sessions/{session}.json"))
    }
}

/// A Windows test helper built from `scripts/windows/` (`pid.exe`).
pub fn helper(name: &str) -> PathBuf {
    let p = setup().helpers.join(name);
    assert!(p.is_file(), "{} is missing; run scripts/test-windows.sh", p.display());
    p
}

/// Wine's loader, to start a helper with.
pub fn wine() -> &'static Path {
    &setup().wine
}

/// One run of a Windows binary under Wine (assert_cmd's `Command`: stdin,
/// bounded wait). Claude Code's, phasegate's and git's variables of the
/// test process are not passed on.
pub struct Run {
    cmd: assert_cmd::Command,
    desc: String,
}

impl Run {
    pub fn new(exe: Exe, args: &[&str], cwd: &Path) -> Run {
        let setup = setup();
        let mut cmd = assert_cmd::Command::new(&setup.wine);
        cmd.arg(setup.bin.join(exe.file())).args(args).current_dir(cwd).timeout(Duration::from_secs(120));
        for (k, _) in std::env::vars_os() {
            let k = k.to_string_lossy();
            if k.starts_with("CLAUDE") || k.starts_with("PHASEGATE") || k.starts_with("GIT_") {
                cmd.env_remove(&*k);
            }
        }
        cmd.env("WINEDEBUG", "-all");
        Run { cmd, desc: format!("wine {} {}", exe.file(), args.join(" ")) }
    }

    pub fn stdin(mut self, data: impl Into<Vec<u8>>) -> Run {
        self.cmd.write_stdin(data.into());
        self
    }

    pub fn env(mut self, k: &str, v: &str) -> Run {
        self.cmd.env(k, v);
        self
    }

    pub fn output(mut self) -> Done {
        let out = self.cmd.output().unwrap_or_else(|e| panic!("run {}: {e}", self.desc));
        Done {
            desc: self.desc,
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// Runs and expects exit 0 and nothing on stderr.
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

/// No `\\?\` path anywhere in `text`: a verbatim path is what
/// `canonicalize` gives on Windows, and no person or tool expects one.
pub fn assert_plain(what: &str, text: &str) {
    assert!(!text.contains(r"\\?\") && !text.contains(r"\\\\?\\"), "{what} holds a verbatim path:\n{text}");
    // Nor one with both separators (`Z:\x\docs/features\001-a`), as a
    // Windows path joined with a `/`-separated part shows.
    let mixed = regex::Regex::new(r#"Z:(\\\\|\\)[^\s"'`()]*/"#).unwrap();
    assert!(!mixed.is_match(text), "{what} holds a path with both separators:\n{text}");
}
