//! One version (Cargo.toml's workspace version) for the binaries, the
//! plugin and the npm packages; `workflow-state --version` and SessionStart
//! say when an installed plugin and its binaries disagree.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::util::{HOOK, Run, TestEnv, WORKFLOW_STATE};

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A plugin folder whose plugin.json says `version`.
fn plugin_with_version(version: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".claude-plugin")).unwrap();
    std::fs::write(
        dir.path().join(".claude-plugin/plugin.json"),
        format!(r#"{{"name": "phasegate", "version": "{version}"}}"#),
    )
    .unwrap();
    dir
}

#[test]
fn plugin_json_and_the_scripts_carry_the_workspace_version() {
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join(".claude-plugin/plugin.json")).unwrap()).unwrap();
    assert_eq!(manifest["version"], VERSION, "run scripts/version.sh {VERSION} (or the version you meant)");
    for script in ["scripts/version.sh", "scripts/package.sh"] {
        let mut cmd = Command::new("sh");
        cmd.arg(root().join(script));
        if script.ends_with("package.sh") {
            cmd.arg("version");
        }
        let out = cmd.output().unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), VERSION, "{script}");
    }
}

#[test]
fn version_names_the_binaries_and_the_plugin() {
    let env = TestEnv::new();
    let same = plugin_with_version(VERSION);
    let out = Run::new(WORKFLOW_STATE, &["--version"], env.root())
        .env("CLAUDE_PLUGIN_ROOT", &same.path().display().to_string())
        .ok();
    assert!(
        out.stdout.starts_with(&format!("workflow-state {VERSION}\nplugin: phasegate {VERSION} (")),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("warning"), "{}", out.stdout);

    let other = plugin_with_version("9.8.7");
    let out = Run::new(WORKFLOW_STATE, &["--version"], env.root())
        .env("CLAUDE_PLUGIN_ROOT", &other.path().display().to_string())
        .ok();
    assert!(
        out.stdout.contains(&format!("warning: the plugin is version 9.8.7 but its binaries are version {VERSION}")),
        "{}",
        out.stdout
    );
}

fn session_start(env: &TestEnv, plugin_root: &Path) -> String {
    let input = serde_json::json!({"session_id": "s", "cwd": env.root(), "hook_event_name": "SessionStart", "source": "startup"});
    Run::new(HOOK, &["session-start"], env.root())
        .env("CLAUDE_PLUGIN_ROOT", &plugin_root.display().to_string())
        .stdin(input.to_string())
        .ok()
        .stdout
}

#[test]
fn session_start_says_nothing_of_a_sound_install_and_one_line_of_a_mixed_one() {
    let env = TestEnv::new();
    assert_eq!(session_start(&env, plugin_with_version(VERSION).path()), "");
    let out = session_start(&env, plugin_with_version("9.8.7").path());
    let v: Value = serde_json::from_str(&out).unwrap();
    let context = v["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
    assert_eq!(context.lines().count(), 1, "{context}");
    assert!(context.starts_with("phasegate: the plugin is version 9.8.7 but its binaries are version"), "{context}");
    assert!(context.contains("/plugin install phasegate@phasegate"), "{context}");
}
