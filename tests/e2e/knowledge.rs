//! The learning layer in the real Claude Code (issue 16): a task fails and
//! self-corrects, the retrospective records a gotcha; a later feature's task
//! on a matching file gets it in its brief, its reviewer is told it, it
//! prevents the failure and rises to 0.95; an unplanned edit gets it just in
//! time, once; a third sighting offers CLAUDE.md and nothing is written
//! until the user agrees; a `/compact` mid-task keeps the task and its
//! gotchas.

use phasegate_testkit::{MockApi, RecordedRequest, Scenario, ToolUse, Turn};
use serde_json::{Value, json};

use crate::support::Fixture;

const GOTCHA: &str =
    "Route handlers must await the auth check before reading the body, or anonymous posts slip through";
const RETROSPECTIVE: &str = "You are phasegate's retrospective";
const TASK_IMPLEMENTER: &str = "You implement one task of a phasegate feature.";
const CODE_REVIEWER: &str = "You are the code reviewer of a phasegate pipeline";
/// Claude Code's request for a compaction summary says this.
const SUMMARY_REQUEST: &str = "create a detailed summary of the conversation";

fn ws(feature: &str, args: &str) -> String {
    format!("workflow-state {args} --feature {feature}")
}

/// The last message of a request as JSON text (tool results and the hook
/// context Claude Code attaches to them).
fn last_message(req: &RecordedRequest) -> String {
    req.messages().last().map(Value::to_string).unwrap_or_default()
}

fn kb_item(f: &Fixture, id: &str) -> Value {
    serde_json::from_str(&f.ws(&["kb", "show", id, "--json"])).unwrap()
}

/// A project whose knowledge base knows GOTCHA for `server/routes/*`.
fn known_route_gotcha(f: &Fixture) {
    f.write("server/routes/index.ts", "export const routes = [];\n");
    let evidence = "anonymous post accepted";
    f.ws(&[
        "kb",
        "record",
        "--type",
        "gotcha",
        "--content",
        GOTCHA,
        "--path",
        "server/routes/index.ts",
        "--evidence",
        evidence,
    ]);
}

fn tasks(f: &Fixture, feature: &str, file: &str) {
    f.write(&format!("docs/features/{feature}/tasks.md"), &format!("- [ ] T1: Add the route\n  - Files: {file}\n"));
}

#[test]
fn a_self_corrected_failure_becomes_a_gotcha_the_next_feature_gets_and_it_rises_to_0_95() {
    let f = Fixture::repo();
    f.ws(&["feature", "new", "users"]);
    tasks(&f, "001-users", "server/routes/users.ts");
    let users = f.path("server/routes/users.ts").display().to_string();
    let log = f.path("../fail.log").display().to_string();

    // The build: T1 fails on a syntax error, is retried and passes.
    let api = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::bash(ws("001-users", "tasks start T1"))]),
        Turn::tools(vec![ToolUse::write(&users, "export const users = (req) => { await auth(req); };\n")]),
        Turn::tools(vec![ToolUse::bash(format!(
            "printf 'SyntaxError: await is only valid in async functions\\n' > {log} && {}",
            ws("001-users", &format!("tasks fail T1 --output-file {log}"))
        ))]),
        Turn::tools(vec![ToolUse::bash(ws("001-users", "tasks start T1"))])
            .expect_tool_result_contains("/phasegate:retro 001-users --task T1"),
        Turn::tools(vec![ToolUse::write(&users, "export const users = async (req) => { await auth(req); };\n")]),
        Turn::tools(vec![ToolUse::bash(ws("001-users", "tasks complete T1"))]),
        Turn::text("T1 is done after one retry."),
    ]));
    let out = f.claude().prompt("/phasegate:implement 001-users").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();

    // The retrospective: the agent proposes, the binary records by §6.3.
    let proposal = json!({"summary": "T1 awaited outside an async handler.", "gotchas": [
        {"task": "T1", "content": GOTCHA, "file": "server/routes/users.ts", "evidence": "SyntaxError: await is only valid in async functions"}
    ]})
    .to_string();
    let reply_file = f.path("docs/features/001-users/.retro.reply.md").display().to_string();
    let api = MockApi::start(
        Scenario::new()
            .main(vec![
                Turn::tools(vec![ToolUse::bash("workflow-state retro --json --feature 001-users")]),
                Turn::tools(vec![ToolUse::agent("phasegate:retrospective", "RETROSPECTIVE of 001-users")])
                    .expect_tool_result_contains("failed then passed (a candidate gotcha)"),
                Turn::tools(vec![ToolUse::write(&reply_file, &proposal)]),
                Turn::tools(vec![ToolUse::bash(format!(
                    "workflow-state retro record --feature 001-users --reply-file {reply_file}"
                ))]),
                Turn::text("Recorded one gotcha.").expect_tool_result_contains("gotcha created"),
            ])
            .agent(RETROSPECTIVE, vec![Turn::text(proposal.clone())]),
    );
    let out = f.claude().prompt("/phasegate:retro 001-users").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let listed: Value = serde_json::from_str(&f.ws(&["kb", "list", "--json"])).unwrap();
    let id = listed["items"][0]["id"].as_str().unwrap().to_owned();
    assert_eq!(
        (listed["items"][0]["file_pattern"].as_str(), listed["items"][0]["confidence"].as_f64()),
        (Some("server/routes/*"), Some(0.7))
    );

    // A later feature's task on a matching file: its brief carries the
    // gotcha, the delegate is not told again just in time, the reviewer is
    // told it, and the task passes first time.
    f.ws(&["feature", "new", "admin"]);
    tasks(&f, "002-admin", "server/routes/admin.ts");
    let admin = f.path("server/routes/admin.ts").display().to_string();
    let api = MockApi::start(
        Scenario::new()
            .main(vec![
                Turn::tools(vec![ToolUse::bash(ws("002-admin", "tasks start T1"))]),
                Turn::tools(vec![ToolUse::bash(ws("002-admin", "tasks context T1"))]),
                Turn::tools(vec![ToolUse::agent("phasegate:task-implementer", "TASK: T1 (the package above)")])
                    .expect_tool_result_contains("## Gotchas (AVOID THESE MISTAKES)")
                    .expect_tool_result_contains(GOTCHA),
                Turn::tools(vec![ToolUse::bash(ws("002-admin", "tasks review T1 --reviewer phasegate:code-reviewer"))]),
                Turn::tools(vec![ToolUse::agent_briefed("phasegate:code-reviewer")])
                    .expect_tool_result_contains("Gotchas the implementer was given")
                    .expect_tool_result_contains(&id),
                Turn::tools(vec![ToolUse::bash(ws("002-admin", "tasks record T1"))]),
                Turn::text("T1 approved.").expect_tool_result_contains("\"ticked\":true"),
            ])
            .agent(
                TASK_IMPLEMENTER,
                vec![
                    Turn::tools(vec![ToolUse::write(
                        &admin,
                        "export const admin = async (req) => { await auth(req); };\n",
                    )]),
                    Turn::text("STATUS: DONE").expect(|req| {
                        if last_message(req).contains("gotchas known for") {
                            Err("the delegate was told again just in time what its brief said".into())
                        } else {
                            Ok(())
                        }
                    }),
                ],
            )
            .agent(CODE_REVIEWER, vec![Turn::text("LGTM")]),
    );
    let out = f.claude().prompt("/phasegate:implement 002-admin").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();

    // Its retrospective judges the injection: it prevented the failure.
    let reply_file = f.path("docs/features/002-admin/.retro.reply.md").display().to_string();
    let api = MockApi::start(
        Scenario::new()
            .main(vec![
                Turn::tools(vec![ToolUse::bash("workflow-state retro --json --feature 002-admin")]),
                Turn::tools(vec![ToolUse::agent("phasegate:retrospective", "RETROSPECTIVE of 002-admin")])
                    .expect_tool_result_contains("\"outcome\":\"prevented\""),
                Turn::tools(vec![ToolUse::write(&reply_file, r#"{"summary": "Clean."}"#)]),
                Turn::tools(vec![ToolUse::bash(format!(
                    "workflow-state retro record --feature 002-admin --reply-file {reply_file}"
                ))]),
                Turn::text("Done.").expect_tool_result_contains("1 injected gotcha(s) judged"),
            ])
            .agent(RETROSPECTIVE, vec![Turn::text(r#"{"summary": "Clean."}"#)]),
    );
    let out = f.claude().prompt("/phasegate:retro 002-admin").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let item = kb_item(&f, &id);
    assert_eq!((item["confidence"].as_f64(), item["prevented"].as_u64()), (Some(0.95), Some(1)), "{item}");
}

#[test]
fn an_unplanned_edit_of_a_matching_file_gets_the_gotcha_just_in_time_once() {
    let f = Fixture::repo();
    known_route_gotcha(&f);
    let a = f.path("server/routes/a.ts").display().to_string();
    let b = f.path("server/routes/b.ts").display().to_string();
    let api = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::write(&a, "export const a = 1;\n")]),
        Turn::tools(vec![ToolUse::write(&b, "export const b = 2;\n")]).expect(|req| {
            let m = last_message(req);
            if m.contains("gotchas known for server/routes/a.ts") && m.contains(GOTCHA) {
                Ok(())
            } else {
                Err(format!("no gotcha before the first edit: {m}"))
            }
        }),
        Turn::text("Both written.").expect(|req| {
            let m = last_message(req);
            if m.contains("gotchas known for") { Err(format!("told twice in one session: {m}")) } else { Ok(()) }
        }),
    ]));
    let out = f.claude().prompt("Add two route stubs.").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
}

#[test]
fn a_third_sighting_offers_claude_md_and_nothing_is_written_until_the_user_agrees() {
    let f = Fixture::repo();
    f.ws(&["feature", "new", "users"]);
    let claude = "# Project notes\n\nKeep these lines.\n";
    f.write("CLAUDE.md", claude);
    let record = |feature: &str, evidence: &str| {
        format!(
            "workflow-state kb record --type gotcha --pattern 'server/routes/*' --confidence 0.9 --task T1 --feature {feature} --evidence '{evidence}' --content '{GOTCHA}' --json"
        )
    };
    for (feature, evidence) in [("001-users", "seen in users"), ("002-admin", "seen in admin")] {
        f.ws(&[
            "kb",
            "record",
            "--type",
            "gotcha",
            "--pattern",
            "server/routes/*",
            "--confidence",
            "0.9",
            "--task",
            "T1",
            "--feature",
            feature,
            "--evidence",
            evidence,
            "--content",
            GOTCHA,
        ]);
    }
    let listed: Value = serde_json::from_str(&f.ws(&["kb", "list", "--json"])).unwrap();
    let id = listed["items"][0]["id"].as_str().unwrap().to_owned();
    let promote = format!("workflow-state kb promote {id} --feature 001-users");
    let api = MockApi::start(Scenario::new().main(vec![
            Turn::tools(vec![ToolUse::bash(record("003-export", "seen in export"))]),
            Turn::tools(vec![ToolUse::bash(promote.clone())]).expect_tool_result_contains("qualifies for CLAUDE.md"),
            Turn::tools(vec![ToolUse::bash(promote.clone())])
                .expect_tool_result_contains("Nothing is written to CLAUDE.md"),
            Turn::text("Waiting for the user.").expect_tool_result_contains("waits for the user's answer"),
        ]));
    let out = f.claude().prompt("Record the route lesson again.").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    assert_eq!(f.read("CLAUDE.md"), claude, "nothing written before the user's yes");

    // The user says yes, in a terminal.
    f.ws_terminal(&["question", "answer", "001-users.1", "Yes"]);
    let api = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::bash(promote)]),
        Turn::text("Promoted.").expect_tool_result_contains("Added"),
    ]));
    let out = f.claude().prompt("Promote the lesson.").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let text = f.read("CLAUDE.md");
    assert!(
        text.starts_with(claude) && text.contains(GOTCHA) && text.contains("<!-- phasegate:knowledge -->"),
        "{text}"
    );
}

#[test]
fn a_compact_mid_task_keeps_the_task_and_its_gotchas() {
    let f = Fixture::repo();
    known_route_gotcha(&f);
    f.ws(&["feature", "new", "users"]);
    tasks(&f, "001-users", "server/routes/users.ts");
    let api = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::bash(ws("001-users", "tasks start T1"))]),
        Turn::tools(vec![ToolUse::bash(ws("001-users", "tasks context T1"))]),
        Turn::text("Working on T1.").expect_tool_result_contains(GOTCHA),
    ]));
    let out = f.claude().prompt("/phasegate:implement 001-users").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let session = out.session_id().expect("a session id");

    // Claude Code asks the main model for the summary (sharing its cache).
    let api = MockApi::start(Scenario::new().main(vec![
            Turn::text(
                "<analysis>A task is in progress.</analysis>\n<summary>T1 of 001-users is being implemented.</summary>",
            )
            .expect_user_text_contains(SUMMARY_REQUEST),
        ]));
    let out = f.claude().prompt("/compact").args(["--resume", &session]).run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();

    let api = MockApi::start(Scenario::new().main(vec![Turn::text("Back on T1.").expect(|req| {
        let all = serde_json::to_string(req.messages()).unwrap_or_default() + &req.system_text();
        let after = all.split("gotchas given to this session before it was compacted").nth(1).unwrap_or_default();
        // Regression: the request carried the features' lines twice, from
        // the startup context and again from the compact one.
        let listed = all.matches("1 active feature").count();
        if listed != 1 {
            Err(format!("the active features are listed {listed} times"))
        } else if all.contains("task T1 of 001-users is in progress") && after.contains(GOTCHA) {
            Ok(())
        } else {
            Err("the compacted session lost its task or its gotchas".into())
        }
    })]));
    let out = f.claude().prompt("Go on.").args(["--resume", &session]).run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
}
