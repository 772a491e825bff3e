//! Paths with drive letters and backslashes: what the binaries print and
//! store is the plain form (`Z:\…`), never the verbatim one `\\?\Z:\…`
//! that canonicalising gives on Windows, and a folder is found however it
//! is spelled.

use serde_json::json;

use crate::wine::{Exe, Project, assert_plain, win};

/// Regression: `feature new` printed the feature's folder as
/// `\\?\Z:\…\docs\features\001-x` (a canonicalised root on Windows).
#[test]
fn feature_new_printed_a_verbatim_path() {
    let p = Project::new();
    let out = p.ws(&["feature", "new", "x"]).ok();
    assert_eq!(out.stdout.trim(), p.win("docs/features/001-x"), "{}", out.report());
    let json = p.ws(&["feature", "show", "--feature", "x"]).ok();
    assert_plain("feature show --json", &json.stdout);
}

/// Regression: `--version` named the plugin's `\\?\…\plugin.json`. The
/// binaries sit in target\windows\…\debug, below the checkout's
/// `.claude-plugin`.
#[test]
fn version_printed_a_verbatim_plugin_json() {
    let p = Project::new();
    let out = p.ws(&["--version"]).ok();
    assert_plain("--version", &out.stdout);
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".claude-plugin/plugin.json");
    assert!(out.stdout.contains(&format!("({})", win(&manifest))), "{}", out.report());
    // The hook's SessionStart says nothing about versions that agree.
    assert_eq!(p.start("s-1").stdout, "");
}

/// Regression: the session record stored `"worktree": "\\?\Z:\…"` beside
/// `"cwd": "Z:\…"` (git's work directory, canonicalised).
#[test]
fn the_session_record_stored_a_verbatim_worktree() {
    let p = Project::new();
    p.start("s-1");
    let record = p.session_record("s-1");
    assert_plain("the session record", &record.to_string());
    assert_eq!((record["cwd"].as_str(), record["worktree"].as_str()), (Some(&*p.win("")), Some(&*p.win(""))));
    // The record is the same whether the session's folder came with
    // forward slashes, another case or a trailing separator.
    for cwd in [p.win("").replace('\\', "/"), p.win("").to_lowercase(), format!("{}\\", p.win(""))] {
        p.hook(
            "user-prompt-submit",
            &json!({"session_id": "s-2", "cwd": cwd, "hook_event_name": "UserPromptSubmit", "prompt": "hello"}),
        )
        .ok();
        let record = p.session_record("s-2");
        assert_eq!(record["worktree"].as_str(), Some(&*p.win("")), "{cwd}: {record}");
        p.ws(&["sessions", "list", "--json"]).ok();
    }
}

/// `--feature` takes the folder by its Windows path in every spelling:
/// backslashes, forward slashes, another case, relative to the current
/// folder.
#[test]
fn a_feature_folder_is_found_however_it_is_spelled() {
    let p = Project::new();
    let f = p.feature("auth");
    let abs = p.win(&format!("docs/features/{f}"));
    for given in [
        abs.clone(),
        abs.replace('\\', "/"),
        abs.to_uppercase(),
        format!("docs\\features\\{f}"),
        format!("docs/features/{f}"),
        format!(".\\docs\\features\\..\\features\\{f}"),
    ] {
        let out = p.ws(&["feature", "show", "--feature", &given]).ok();
        assert_eq!(out.json()["name"], f, "{given}: {}", out.report());
    }
    // From inside the folder, no --feature at all.
    let out = p.ws_in(&format!("docs/features/{f}"), &["feature", "show"]).ok();
    assert_eq!(out.json()["name"], f);
}

/// A feature's worktree: created by libgit2 for Windows, recorded with
/// forward slashes, and SessionStart tells inside from outside whatever the
/// case of the session's folder.
#[test]
fn a_worktree_is_made_and_recognised_from_windows_paths() {
    let p = Project::new();
    p.ws(&["feature", "new", "auth", "--worktree"]).ok();
    let meta = p.json("docs/features/001-auth/.meta.json");
    assert_eq!(
        (meta["worktree"].as_str(), meta["branch"].as_str()),
        (Some(".worktrees/001-auth"), Some("feature/001-auth"))
    );
    assert!(p.path(".worktrees/001-auth/README.md").is_file());
    let start = |cwd: String| {
        let input = json!({"session_id": "s-1", "cwd": cwd, "hook_event_name": "SessionStart", "source": "startup"});
        let out = crate::wine::Run::new(Exe::Hook, &["session-start"], p.root()).stdin(input.to_string()).ok();
        out.json()["hookSpecificOutput"]["additionalContext"].as_str().unwrap().to_owned()
    };
    let outside = start(p.win(""));
    let warning = format!(
        "WARNING: this session runs in {} but the feature's worktree is {}; cd there",
        p.win(""),
        p.win(".worktrees/001-auth")
    );
    assert!(outside.contains(&warning), "{outside}");
    assert_plain("SessionStart", &outside);
    for inside in [
        p.win(".worktrees/001-auth"),
        p.win(".worktrees/001-auth").to_uppercase(),
        p.win(".worktrees/001-auth/src").replace('\\', "/"),
    ] {
        std::fs::create_dir_all(p.path(".worktrees/001-auth/src")).unwrap();
        let said = start(inside.clone());
        assert!(!said.contains("WARNING"), "{inside}: {said}");
    }
}

/// Nothing phasegate writes holds a verbatim path: every file under the
/// runtime folder and the feature folders after a session's work.
#[test]
fn no_file_phasegate_writes_holds_a_verbatim_path() {
    let p = Project::new();
    let f = p.feature("x");
    p.start("s-1");
    p.ws_as("s-1", &["phase", "start", "specify", "--feature", &f]).ok();
    p.write("src/main.rs", "fn main() {}\n");
    p.pre_tool_use("s-1", "Edit", &p.win("src/main.rs"));
    p.ws_as("s-1", &["lease", "list", "--json"]).ok();
    p.ws(&["status"]).ok();
    for entry in
        walkdir::WalkDir::new(p.path(".git/phasegate")).into_iter().chain(walkdir::WalkDir::new(p.path("docs")))
    {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let text = String::from_utf8_lossy(&std::fs::read(entry.path()).unwrap()).into_owned();
            assert_plain(&entry.path().display().to_string(), &text);
        }
    }
}
