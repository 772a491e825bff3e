//! The README's first quick-start command: `scripts/install.sh` builds the
//! release binaries, stages the plugin and installs it into the pinned
//! Claude Code; a session started without --plugin-dir then runs the
//! installed plugin's hooks and commands.

use std::path::PathBuf;
use std::process::Command;

use phasegate_testkit::{ClaudeCode, MockApi, Scenario, ToolUse, Turn};

use crate::support::{Fixture, plugin_root};

#[test]
fn install_script_installs_a_working_plugin() {
    let f = Fixture::repo();
    let claude = phasegate_testkit::locate_binary();
    let claude_dir = claude.parent().unwrap();
    let real_home = PathBuf::from(std::env::var_os("HOME").expect("HOME"));
    let staged = f.home.join("share/phasegate");
    let out = Command::new("sh")
        .arg(plugin_root().join("scripts/install.sh"))
        .env("HOME", &f.home)
        .env("PHASEGATE_HOME", &staged)
        .env("PATH", format!("{}:{}", claude_dir.display(), std::env::var("PATH").unwrap_or_default()))
        // cargo and rustup keep living where they are, whatever HOME says.
        .env("CARGO_HOME", std::env::var_os("CARGO_HOME").unwrap_or_else(|| real_home.join(".cargo").into()))
        .env("RUSTUP_HOME", std::env::var_os("RUSTUP_HOME").unwrap_or_else(|| real_home.join(".rustup").into()))
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env_remove("CLAUDECODE")
        .env_remove("CLAUDE_CODE_SESSION_ID")
        .output()
        .unwrap();
    let log = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "scripts/install.sh failed:\n{log}");
    assert!(log.contains("installed"), "{log}");

    // The staged plugin holds the binaries themselves, not launchers.
    for bin in ["workflow-state", "phasegate-hook"] {
        let p = staged.join("phasegate/bin").join(bin);
        let head = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert!(!head.starts_with(b"#!"), "{} is a script, not the built binary", p.display());
    }
    assert!(!staged.join("phasegate/target").exists() && !staged.join("phasegate/tests").exists());
    let list = Command::new(&claude).args(["plugin", "list", "--json"]).env("HOME", &f.home).output().unwrap();
    let list: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    let entry =
        list.as_array().unwrap().iter().find(|p| p["id"] == "phasegate@phasegate").expect("phasegate is installed");
    assert_eq!(entry["enabled"], true);

    // A session with the installed plugin: the hook reports the feature and
    // the plugin's bin/ is on the Bash tool's PATH.
    f.ws(&["feature", "new", "installed"]);
    let api = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::bash("command -v workflow-state && workflow-state next")]),
        Turn::text("ok").expect_tool_result_contains("/phasegate:brainstorm"),
    ]));
    let out = ClaudeCode::new().home(&f.home).cwd(&f.repo).allowed_tools("Bash").prompt("hi").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let context = crate::support::session_context(&api).expect("the installed SessionStart hook said nothing");
    assert!(context.contains("- 001-installed (mode standard)"), "{context}");
    let which = api.requests_for_main()[1].tool_results()[0].text.clone();
    assert!(which.starts_with(&staged.join("phasegate/bin/workflow-state").display().to_string()), "{which}");
}
