//! `claude plugin validate --strict .` against the pinned Claude Code.

use std::process::Command;

use crate::support::plugin_root;

#[test]
fn the_plugin_validates_strictly() {
    let home = tempfile::tempdir().unwrap();
    let out = Command::new(phasegate_testkit::locate_binary())
        .args(["plugin", "validate", "--strict"])
        .arg(plugin_root())
        .env_clear()
        .env("HOME", home.path())
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "claude plugin validate --strict failed:\n{text}");
    assert!(text.contains("Validation passed"), "{text}");
    for part in [
        "commands: phasegate:design",
        "agents: phasegate:chain-reviewer",
        "skills: phasegate:workflow-state",
        "bin: workflow-state",
    ] {
        assert!(text.contains(part), "validate does not list {part}:\n{text}");
    }
}
