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

/// Bug 6: a reply that is not a verdict is refused with exit 2 and the model
/// asks the reviewer again (a fresh foreground Agent call with the error),
/// never editing the reply; the second reply is recorded.
#[test]
fn a_reviewer_is_asked_again_after_a_reply_that_is_not_a_verdict() {
    let f = Fixture::repo();
    f.ws(&["feature", "new", "login"]);
    let dir = f.path("docs/features/001-login");
    let verdict = dir.join(".verdict.json").display().to_string();
    let record = format!(
        "workflow-state review record brainstorm --feature 001-login --verdict-file {verdict} --changes \"Initial.\""
    );
    let api = MockApi::start(
        Scenario::new()
            .main(vec![
                Turn::tools(vec![ToolUse::read(phase_loop())]),
                Turn::tools(vec![ToolUse::bash("workflow-state phase start brainstorm --feature 001-login")]),
                Turn::tools(vec![ToolUse::write(dir.join("brainstorm.md").display().to_string(), "# Brainstorm\n")]),
                Turn::tools(vec![ToolUse::bash("workflow-state review brief brainstorm --feature 001-login")]),
                Turn::tools(vec![ToolUse::agent("phasegate:chain-reviewer", "Review the brainstorm phase.")])
                    .expect_tool_result_contains(format!("Save its reply to: {verdict}")),
                Turn::tools(vec![ToolUse::write(&verdict, "It looks good to me.")]),
                Turn::tools(vec![ToolUse::bash(&record)]),
                Turn::tools(vec![ToolUse::agent(
                    "phasegate:chain-reviewer",
                    "Review the brainstorm phase. Your last reply was not a valid verdict. Answer with the verdict JSON only.",
                )])
                .expect_tool_result_contains("Exit code 2")
                .expect_tool_result_contains("ask the reviewer to answer again"),
                Turn::tools(vec![ToolUse::write(&verdict, APPROVE)]),
                Turn::tools(vec![ToolUse::bash(&record)]),
                Turn::text("Phase brainstorm complete.").expect_tool_result_contains("\"decision\":\"approved\""),
            ])
            .agent(REVIEWER, vec![Turn::text("It looks good to me."), Turn::text(APPROVE)]),
    );
    let out = f.claude().prompt("/phasegate:brainstorm 001-login").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let rec = &f.meta("001-login")["phases"]["brainstorm"];
    assert_eq!((rec["iterations"].as_u64(), rec["outcome"].as_str()), (Some(1), Some("approved")));
    // The scratch verdict stays out of git.
    let repo = git2::Repository::open(&f.repo).unwrap();
    assert!(repo.is_path_ignored("docs/features/001-login/.verdict.json").unwrap());
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
