//! Drives the real Claude Code binary (see `phasegate_testkit::locate_binary`)
//! against the mock API.
#![allow(clippy::disallowed_methods)]

use std::fs;
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use phasegate_testkit::{ClaudeCode, ClaudeOutput, MISMATCH_REPLY, MockApi, Route, Scenario, ToolUse, Turn};
use tempfile::TempDir;

/// A throwaway HOME and working directory for one run.
struct Dirs {
    home: TempDir,
    repo: TempDir,
}

impl Dirs {
    fn new() -> Self {
        Self {
            home: tempfile::tempdir().expect("create a temporary HOME"),
            repo: tempfile::tempdir().expect("create a temporary working directory"),
        }
    }

    fn claude(&self, prompt: &str) -> ClaudeCode {
        ClaudeCode::new().home(self.home.path()).cwd(self.repo.path()).prompt(prompt).timeout(Duration::from_secs(60))
    }
}

/// The panic message of `assert_finished`, which must panic.
fn finished_failure(api: &MockApi) -> String {
    let payload = panic::catch_unwind(AssertUnwindSafe(|| api.assert_finished()))
        .expect_err("assert_finished should have panicked");
    payload.downcast_ref::<String>().cloned().unwrap_or_else(|| "(non-string panic)".to_owned())
}

fn assert_quick(out: &ClaudeOutput) {
    assert!(!out.timed_out, "the run should end by itself\n{}", out.report());
    assert!(out.elapsed < Duration::from_secs(20), "the run took {:?}\n{}", out.elapsed, out.report());
}

#[test]
fn bash_output_comes_back_as_a_tool_result() {
    let dirs = Dirs::new();
    let api = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::bash_desc("echo testkit-$((6*7))", "Print a marker")]),
        Turn::text("all done").expect_tool_result_contains("testkit-42"),
    ]));

    let out = dirs.claude("run the probe").allowed_tools("Bash").run(&api);

    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    assert_eq!(out.result(), "all done");
    let main = api.requests_for_main();
    assert_eq!(main.len(), 2, "{}", api.report());
    assert!(main[0].user_texts().iter().any(|t| t == "run the probe"));
    assert!(!main[0].is_subagent());
    assert!(main[0].tool_names().iter().any(|t| t == "Bash"));
    let results = main[1].tool_results();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0].text.trim(), "testkit-42");
    assert!(!results[0].is_error);
    assert_eq!(results[0].tool_use_id, main[0].reply[0]["id"].as_str().unwrap_or_default());
    assert_eq!(main[1].session_id(), out.session_id().as_deref());
}

#[test]
fn env_and_path_reach_the_bash_tool() {
    let dirs = Dirs::new();
    let bin = dirs.repo.path().join("bin");
    fs::create_dir(&bin).expect("create bin/");
    let tool = bin.join("testkit-probe-tool");
    fs::write(&tool, "#!/bin/sh\necho \"probe tool says $PROBE_VALUE\"\n").expect("write the probe tool");
    make_executable(&tool);
    let api = MockApi::start(
        Scenario::new()
            .main(vec![Turn::tools(vec![ToolUse::bash("testkit-probe-tool; echo home=$HOME")]), Turn::text("ok")]),
    );

    let out =
        dirs.claude("probe env").allowed_tools("Bash").path_prepend(&bin).env("PROBE_VALUE", "forty-two").run(&api);

    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let result = &api.requests_for_main()[1].tool_results()[0].text;
    assert!(result.contains("probe tool says forty-two"), "{result}");
    assert!(result.contains(&format!("home={}", dirs.home.path().display())), "{result}");
}

#[test]
fn failed_expectation_is_reported_not_hung() {
    let dirs = Dirs::new();
    let api = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::bash("echo actual-output")]),
        Turn::text("unreachable").expect_tool_result_contains("expected-output"),
    ]));

    let out = dirs.claude("go").allowed_tools("Bash").run(&api);

    assert_quick(&out);
    assert_eq!(out.result(), MISMATCH_REPLY, "{}", out.report());
    let mismatches = api.mismatches();
    assert_eq!(mismatches.len(), 1, "{}", api.report());
    assert!(mismatches[0].contains("main turn 1"), "{}", mismatches[0]);
    assert!(mismatches[0].contains("expected-output"), "{}", mismatches[0]);
    assert!(mismatches[0].contains("actual-output"), "{}", mismatches[0]);
    let failure = finished_failure(&api);
    assert!(failure.contains("mismatch #1 main turn 1"), "{failure}");
    assert!(out.report().contains("MISMATCH"), "{}", out.report());
}

#[test]
fn exhausted_script_and_unconsumed_turns_are_reported() {
    let dirs = Dirs::new();
    // One tool turn, no answer for the request that carries its result.
    let api = MockApi::start(
        Scenario::new()
            .main(vec![Turn::tools(vec![ToolUse::bash("echo hi")])])
            .agent("A marker no request carries", vec![Turn::text("never")]),
    );

    let out = dirs.claude("go").allowed_tools("Bash").run(&api);

    assert_quick(&out);
    assert_eq!(out.result(), MISMATCH_REPLY, "{}", out.report());
    let failure = finished_failure(&api);
    assert!(failure.contains("main script exhausted: all 1 turn(s) used"), "{failure}");
    assert!(failure.contains("never consumed: agent \"A marker no request carries\" turn 0"), "{failure}");
}

#[test]
fn timeout_kills_claude_and_its_children() {
    let dirs = Dirs::new();
    // Claude Code refuses a bare `sleep` command, so hide it in a script.
    let script = dirs.repo.path().join("wait-a-while");
    // A duration no other run uses, so that a run of the suite beside this
    // one cannot be taken for a survivor.
    let duration = format!(
        "37.{}{:09}",
        std::process::id(),
        SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default().subsec_nanos()
    );
    fs::write(&script, format!("#!/bin/sh\nexec sleep {duration}\n")).expect("write the waiting script");
    make_executable(&script);
    let api = MockApi::start(
        Scenario::new()
            .main(vec![Turn::tools(vec![ToolUse::bash(script.display().to_string())]), Turn::text("unreachable")]),
    );

    let out = dirs.claude("sleep").allowed_tools("Bash").timeout(Duration::from_secs(3)).run(&api);

    assert!(out.timed_out, "{}", out.report());
    assert!(!out.success());
    assert!(out.elapsed < Duration::from_secs(10), "{:?}", out.elapsed);
    assert!(out.report().contains("KILLED after"), "{}", out.report());
    // A killed process can take a moment to leave the table on a loaded machine.
    let deadline = Instant::now() + Duration::from_secs(5);
    while process_running(&duration) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!process_running(&duration), "the sleep started by the Bash tool survived the kill");
}

#[test]
fn plugin_subagent_is_routed_to_its_script() {
    let dirs = Dirs::new();
    let plugin = tempfile::tempdir().expect("create the plugin dir");
    write_probe_plugin(plugin.path());
    let api = MockApi::start(
        Scenario::new()
            .main(vec![
                Turn::tools(vec![ToolUse::agent("probe:rev", "Review the probe change.")]),
                Turn::text("main done").expect_tool_result_contains("AGENT-VERDICT-OK"),
            ])
            .agent(
                "You are the probe reviewer",
                vec![Turn::text("AGENT-VERDICT-OK").expect_user_text_contains("Review the probe change.")],
            ),
    );

    let out = dirs.claude("review it").plugin_dir(plugin.path()).allowed_tools("Bash,Agent").run(&api);

    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let agent = api.requests_for_agent("You are the probe reviewer");
    assert_eq!(agent.len(), 1, "{}", api.report());
    assert!(agent[0].is_subagent());
    assert_eq!(agent[0].route, Route::Agent("You are the probe reviewer".into()));
    assert_eq!(agent[0].session_id(), out.session_id().as_deref());
    let main = api.requests_for_main();
    let results = main[1].tool_results();
    assert!(results[0].text.contains("AGENT-VERDICT-OK"), "{}", results[0].text);
}

#[test]
fn background_subagent_result_arrives_as_a_notification() {
    let dirs = Dirs::new();
    let plugin = tempfile::tempdir().expect("create the plugin dir");
    write_probe_plugin(plugin.path());
    let mut background = ToolUse::agent("probe:rev", "Review in the background.");
    background.input["run_in_background"] = true.into();
    let api = MockApi::start(
        Scenario::new()
            .main(vec![
                Turn::tools(vec![background]),
                Turn::text("waiting for the reviewer").expect_tool_result_contains("Async agent launched"),
                Turn::text("main done").expect_user_text_contains("BACKGROUND-VERDICT"),
            ])
            .agent("You are the probe reviewer", vec![Turn::text("BACKGROUND-VERDICT")]),
    );

    let out = dirs.claude("review it").plugin_dir(plugin.path()).allowed_tools("Bash,Agent").run(&api);

    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    assert_eq!(out.result(), "main done");
}

/// A plugin `probe` with one agent `rev` whose body carries a marker sentence.
fn write_probe_plugin(dir: &Path) {
    fs::create_dir_all(dir.join(".claude-plugin")).expect("create .claude-plugin/");
    fs::create_dir_all(dir.join("agents")).expect("create agents/");
    fs::write(dir.join(".claude-plugin/plugin.json"), r#"{"name":"probe"}"#).expect("write plugin.json");
    fs::write(
        dir.join("agents/rev.md"),
        "---\nname: rev\ndescription: Reviews the probe change.\ntools: Read, Bash\nmodel: haiku\n---\n\
         You are the probe reviewer. Answer with a verdict.\n",
    )
    .expect("write agents/rev.md");
}

fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).expect("chmod +x");
}

/// Whether some process has `needle` in its command line.
fn process_running(needle: &str) -> bool {
    let Ok(entries) = fs::read_dir("/proc") else {
        return false;
    };
    entries.flatten().any(|entry| {
        fs::read(entry.path().join("cmdline"))
            .map(|cmdline| String::from_utf8_lossy(&cmdline).contains(needle))
            .unwrap_or(false)
    })
}
