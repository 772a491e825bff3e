//! Snapshots of every output the Markdown reads (the `!` injections, the
//! JSON the phase loop and the pipeline follow, the hooks' texts), with temp
//! paths, times and commit ids redacted. A change to any of them shows up as
//! a snapshot diff to review: the Markdown depends on their shape.
//! `INSTA_UPDATE=always cargo test --test it snapshots` rewrites them.

use serde_json::json;

use crate::util::{HOOK, Run, TestEnv};

const S: &str = "session-1";

/// Redacts what differs between runs.
fn check(env: &TestEnv, name: &str, text: &str) {
    let root = env.outer().display().to_string();
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.add_filter(&regex::escape(&root), "[TMP]");
    settings.add_filter(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", "[TIME]");
    settings.add_filter(r"review-\d{8}-\d{6}", "review-[STAMP]");
    settings.add_filter(r"\b[0-9a-f]{40}\b", "[COMMIT]");
    settings.add_filter(r"\b[0-9a-f]{12}\b", "[COMMIT12]");
    settings.bind(|| insta::assert_snapshot!(name, text));
}

fn pretty(text: &str) -> String {
    serde_json::to_string_pretty(&serde_json::from_str::<serde_json::Value>(text.trim()).unwrap()).unwrap()
}

#[test]
fn phased_outputs() {
    let env = TestEnv::new();
    check(&env, "phase_brief_no_feature", &env.ws(&["phase", "brief", "brainstorm"]).ok().stdout);
    let started = env.ws(&["phase", "start", "brainstorm", "--new", "add search"]).ok();
    check(&env, "phase_start_new", &pretty(&started.stdout));
    let f = "001-add-search";
    env.write(&format!("docs/features/{f}/brainstorm.md"), "# Brainstorm\n");
    check(&env, "phase_brief_partial", &env.ws(&["phase", "brief", "brainstorm"]).ok().stdout);
    check(&env, "review_brief", &env.ws(&["review", "brief", "brainstorm"]).ok().stdout);
    let no = env.verdict(false, r#"{"severity": "blocker", "description": "no goal", "location": "Intent"}"#);
    let step = env.ws(&["review", "record", "brainstorm", "--verdict-file", &no, "--changes", "First draft."]).ok();
    check(&env, "review_record_revise", &pretty(&step.stdout));
    let step = env.ws(&["review", "record", "brainstorm", "--verdict-file", &no]).ok();
    check(&env, "review_record_recurring", &pretty(&step.stdout));
    let bad = env.outer().join("reply.txt");
    std::fs::write(&bad, "Fine by me.").unwrap();
    let refused = env.ws(&["review", "record", "brainstorm", "--verdict-file", bad.to_str().unwrap()]).code(2);
    check(&env, "review_record_not_a_verdict", &refused.stderr);
    let yes = env.verdict(true, "");
    let step = env.ws(&["review", "record", "brainstorm", "--verdict-file", &yes]).ok();
    check(&env, "review_record_approved", &pretty(&step.stdout));
    check(&env, "status", &env.ws(&["status"]).ok().stdout);
    let hook = Run::new(HOOK, &["session-start"], env.root()).stdin(json!({"cwd": env.root()}).to_string()).ok();
    check(&env, "session_start", &pretty(&hook.stdout));
    env.prove(f);
    let finished = env.ws(&["finish"]).ok();
    check(&env, "finish", &pretty(&finished.stdout));
}

#[test]
fn pipeline_outputs() {
    let env = TestEnv::new();
    let f = env.to_loop(S, "echo 'All tests passed'", 3);
    check(&env, "pipeline_brief", &env.ws_as(S, &["pipeline", "brief"]).ok().stdout);
    check(&env, "pipeline_next", &env.ws_as(S, &["pipeline", "next"]).ok().stdout);
    check(&env, "pipeline_review_brief", &pretty(&env.ws_as(S, &["pipeline", "review-brief"]).ok().stdout));
    env.write_task(&f, "review-sonnet.json", &TestEnv::review("code-reviewer", "sonnet", "needs_changes"));
    let fix = env.ws_as(S, &["pipeline", "review", "sonnet"]).ok();
    check(&env, "pipeline_review_fix", &pretty(&fix.stdout));
    check(&env, "pipeline_next_fixing", &env.ws_as(S, &["pipeline", "next"]).ok().stdout);
    let input =
        json!({"session_id": S, "cwd": env.root(), "stop_hook_active": false, "last_assistant_message": "Working."});
    let stop = Run::new(HOOK, &["stop"], env.root()).stdin(input.to_string()).ok();
    check(&env, "stop_block_fixing", &pretty(&stop.stdout));
    check(&env, "pipeline_fixed", &pretty(&env.ws_as(S, &["pipeline", "fixed"]).ok().stdout));
    let cancel = env.ws_as(S, &["pipeline", "cancel"]).ok();
    check(&env, "pipeline_cancel", &pretty(&cancel.stdout));
    let pre = json!({"tool_name": "Edit", "tool_input": {"file_path": env.task_path(&f, "state.json")}});
    let deny = Run::new(HOOK, &["pre-tool-use"], env.root()).stdin(pre.to_string()).ok();
    check(&env, "pre_tool_use_deny", &pretty(&deny.stdout));
}
