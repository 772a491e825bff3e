//! The walk's findings, in the real Claude Code: a first run that starts a
//! feature in one call, a reviewer asked again after a reply that is not a
//! verdict, the implement reviewer seeing the committed change, and the
//! PreToolUse hook stopping a hand edit of `.meta.json`.

use phasegate_testkit::{MockApi, Scenario, ToolUse, Turn};

use crate::support::{Fixture, plugin_root};

const REVIEWER: &str = "You are phasegate's chain reviewer";
const APPROVE: &str = r#"{"approved": true, "issues": [], "summary": "Ready."}"#;

fn phase_loop() -> String {
    plugin_root().join("skills/workflow-state/phase-loop.md").display().to_string()
}

/// Bug 14: with no feature, `/phasegate:brainstorm add search` reached a
/// written file only after two round trips. Now the brief (given the words
/// typed with the command by the UserPromptSubmit hook) prints the one call
/// that starts the feature and the phase, and that call does both.
#[test]
fn a_first_run_starts_the_feature_and_the_phase_in_one_call() {
    let f = Fixture::repo();
    let api = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::bash("workflow-state phase start brainstorm --new \"add search\"")])
            .expect_user_text_contains("the user's words name no feature: \"add search\"")
            .expect_user_text_contains("workflow-state phase start brainstorm --new 'add search'"),
        Turn::text("Started.").expect_tool_result_contains("\"feature\":\"001-add-search\""),
    ]));
    let out = f.claude().prompt("/phasegate:brainstorm add search").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let meta = f.meta("001-add-search");
    assert_eq!(meta["currentPhase"], "brainstorm");
    assert!(meta["phases"]["brainstorm"]["started"].is_string());
}

/// What a gate believes (issue 30), in the real Claude Code: the scripted
/// model writes an approving verdict itself instead of spawning the
/// reviewer, and `review record` refuses it (exit 1, nothing counted); it
/// spawns the reviewer with the brief's prompt, whose first reply is not a
/// verdict (exit 2: bug 6, it is asked again, never edited); the
/// reviewer's second reply, read by the binary from Claude Code's own
/// transcript, is the one recorded.
#[test]
fn a_verdict_the_model_writes_itself_is_refused_and_the_reviewers_own_is_recorded() {
    let f = Fixture::repo();
    f.ws(&["feature", "new", "login"]);
    let dir = f.path("docs/features/001-login");
    let verdict = dir.join(".verdict.json").display().to_string();
    let record = "workflow-state review record brainstorm --feature 001-login --changes \"Initial.\"";
    let api = MockApi::start(
        Scenario::new()
            .main(vec![
                Turn::tools(vec![ToolUse::read(phase_loop())]),
                Turn::tools(vec![ToolUse::bash("workflow-state phase start brainstorm --feature 001-login")]),
                Turn::tools(vec![ToolUse::write(dir.join("brainstorm.md").display().to_string(), "# Brainstorm\n")]),
                Turn::tools(vec![ToolUse::bash("workflow-state review brief brainstorm --feature 001-login")]),
                // The shortcut: no reviewer, a verdict of its own.
                Turn::tools(vec![ToolUse::write(&verdict, APPROVE)])
                    .expect_tool_result_contains("Reviewer agent: phasegate:chain-reviewer"),
                Turn::tools(vec![ToolUse::bash(format!(
                    "workflow-state review record brainstorm --feature 001-login --verdict-file {verdict}"
                ))]),
                Turn::tools(vec![ToolUse::agent_briefed("phasegate:chain-reviewer")])
                    .expect_tool_result_contains("Exit code 1")
                    .expect_tool_result_contains("no verdict of phasegate:chain-reviewer for brainstorm#1"),
                Turn::tools(vec![ToolUse::bash(record)]),
                Turn::tools(vec![ToolUse::agent_briefed("phasegate:chain-reviewer")])
                    .expect_tool_result_contains("Exit code 2")
                    .expect_tool_result_contains("Spawn the reviewer once more with the same prompt"),
                Turn::tools(vec![ToolUse::bash(record)]),
                Turn::text("Phase brainstorm complete.").expect_tool_result_contains("\"decision\":\"approved\""),
            ])
            .agent(REVIEWER, vec![Turn::text("It looks good to me."), Turn::text(APPROVE)]),
    );
    let out = f.claude().prompt("/phasegate:brainstorm 001-login").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let rec = &f.meta("001-login")["phases"]["brainstorm"];
    assert_eq!((rec["iterations"].as_u64(), rec["outcome"].as_str()), (Some(1), Some("approved")));
    let by = &rec["verdicts"][0];
    assert_eq!((by["by"].as_str(), by["agent"].as_str()), (Some("reviewer"), Some("phasegate:chain-reviewer")), "{by}");
    // The verdict counted is the reviewer's second run, not its first reply
    // nor the model's file: the run Claude Code's transcript shows last.
    let agents: Vec<String> = std::fs::read_dir(f.home.join(".claude/projects"))
        .unwrap()
        .flatten()
        .flat_map(|p| std::fs::read_dir(p.path()).into_iter().flatten().flatten())
        .filter(|e| e.path().is_dir())
        .flat_map(|s| std::fs::read_dir(s.path().join("subagents")).into_iter().flatten().flatten())
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.strip_suffix(".meta.json")).map(str::to_owned))
        .collect();
    assert_eq!(agents.len(), 2, "two reviewer runs: {agents:?}");
    assert!(agents.iter().any(|a| a.ends_with(by["agentId"].as_str().unwrap())), "{agents:?} {by}");
}

/// Bug 1: the implement reviewer (read-only, every task committed) could not
/// see the change. Its prompt now carries the change since the phase began.
#[test]
fn the_implement_reviewer_sees_the_committed_change() {
    let f = Fixture::repo();
    f.ws(&["feature", "new", "login"]);
    f.write("docs/features/001-login/spec.md", "# Spec\n");
    f.write("docs/features/001-login/tasks.md", "- [ ] T1 login\n");
    f.ws(&["phase", "complete", "create-tasks"]);
    let api = MockApi::start(
        Scenario::new()
            .main(vec![
                Turn::tools(vec![ToolUse::bash("workflow-state phase start implement --feature 001-login")]),
                Turn::tools(vec![ToolUse::write(f.path("src/login.py").display().to_string(), "def login():\n    return True\n")]),
                Turn::tools(vec![ToolUse::bash(
                    "git add src/login.py && git -c user.name=t -c user.email=t@e commit -q -m 'T1: login' && echo committed",
                )]),
                Turn::tools(vec![ToolUse::bash("workflow-state review brief implement --feature 001-login")])
                    .expect_tool_result_contains("committed"),
                Turn::tools(vec![ToolUse::agent("phasegate:chain-reviewer", "PROMPT")]).expect(|req| {
                    // The model passes the brief's prompt on; check the brief carried the change.
                    let results = req.tool_results();
                    let text = results.first().map(|r| r.text.clone()).unwrap_or_default();
                    if text.contains("added src/login.py (+2 -0)") && text.contains("+def login():") {
                        Ok(())
                    } else {
                        Err(format!("the brief does not show the committed change:\n{text}"))
                    }
                }),
                Turn::text("Reviewed."),
            ])
            .agent(REVIEWER, vec![Turn::text(APPROVE)]),
    );
    let out = f.claude().prompt("/phasegate:implement").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
}

/// The PreToolUse hook keeps the model from editing `.meta.json` by hand and
/// names the command to use; the file is unchanged.
#[test]
fn a_hand_edit_of_meta_json_is_denied_with_the_command_to_use() {
    let f = Fixture::repo();
    f.ws(&["feature", "new", "login"]);
    let meta = f.path("docs/features/001-login/.meta.json");
    let before = std::fs::read_to_string(&meta).unwrap();
    let api = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::read(meta.display().to_string())]),
        Turn::tools(vec![ToolUse::write(meta.display().to_string(), "{\"status\": \"completed\"}")]),
        Turn::text("Understood.")
            .expect_tool_result_contains("workflow state that only workflow-state writes")
            .expect_tool_result_contains("workflow-state finish"),
    ]));
    let out = f.claude().prompt("mark the feature done").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    assert_eq!(std::fs::read_to_string(&meta).unwrap(), before);
}

/// Friction: a phase command run with words cost a second `phase brief
/// --words` call, because the command's `!` line could not take them
/// (Claude Code splices `$ARGUMENTS` into a shell line as raw text: a quote
/// breaks it, a backtick runs a command). The UserPromptSubmit hook keeps
/// the words and the brief in the command reads them: with two active
/// features the first request already names the one the words mean, and
/// words with quotes and backticks arrive whole, running nothing.
#[test]
fn a_phase_command_with_words_needed_a_second_brief_call() {
    let f = Fixture::repo();
    f.ws(&["feature", "new", "login"]);
    f.ws(&["feature", "new", "search"]);
    let api = MockApi::start(Scenario::new().main(vec![
            Turn::text("Design of 002-search.")
                .expect_user_text_contains("the user's words \"search\" name feature 002-search")
                .expect_user_text_contains("phasegate: feature 002-search (mode standard"),
        ]));
    let out = f.claude().prompt("/phasegate:design search").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();

    let marker = f.path("ran-a-backtick");
    let words = format!("the \"odd quote `touch {}` don't", marker.display());
    let api = MockApi::start(Scenario::new().main(vec![
        Turn::text("New feature.")
            .expect_user_text_contains(format!("the user's words name no feature: \"{words}\""))
            .expect_user_text_contains("active features: 001-login, 002-search")
            .expect_user_text_contains(format!(
                "workflow-state phase start specify --new {}",
                phasegate_core::paths::shell_word(&words)
            )),
    ]));
    let out = f.claude().prompt(format!("/phasegate:specify {words}")).run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    assert!(!marker.exists(), "the user's words ran as a command");
}
