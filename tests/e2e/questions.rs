//! Questions and the round loop in the real Claude Code: a design phase
//! whose implementer replies QUESTION, QUESTION, COMPLETE (the first reply
//! malformed and sent back by the SubagentStop hook), with the third prompt
//! carrying Q1/A1/Q2/A2; and a headless question that suspends feature A
//! while the backlog runner moves on to feature B, until the answer arrives.

use phasegate_testkit::{MockApi, Scenario, ToolUse, Turn};

use crate::support::Fixture;

const IMPLEMENTER: &str = "You are a stateless implementer";

#[test]
fn design_rounds_question_question_complete_with_the_qa_re_injected() {
    let f = Fixture::repo();
    f.ws(&["feature", "new", "dash"]);
    f.write("docs/features/001-dash/spec.md", "# Spec\nR1 a dashboard.\n");
    f.ws(&["phase", "complete", "specify"]);
    let dir = f.path("docs/features/001-dash");
    let brief = dir.join(".design-brief.md").display().to_string();
    let reply = dir.join(".design.reply.md").display().to_string();
    let ws = |args: &str| format!("workflow-state {args} --feature 001-dash");
    let q1 = "STATUS: QUESTION\nQUESTION: Grid or list?\nCONTEXT: The spec names both.";
    let q2 = "STATUS: QUESTION\nQUESTION: Dark mode?\nCONTEXT: Themes are not in the spec.";
    let done = "STATUS: COMPLETE\n---\n# Design\n\nA grid, both themes.";
    let record = ws(&format!("rounds record design --reply-file {reply}"));
    let api = MockApi::start(
        Scenario::new()
            .main(vec![
                Turn::tools(vec![ToolUse::write(&brief, "Design the dashboard of R1.\n")]),
                Turn::tools(vec![ToolUse::bash(ws(&format!("rounds start design --brief-file {brief}")))]),
                Turn::tools(vec![ToolUse::bash(ws("rounds prompt design"))]),
                Turn::tools(vec![ToolUse::agent("phasegate:design-implementer", "Round 1: design the dashboard.")])
                    .expect_tool_result_contains("\"agent\":\"phasegate:design-implementer\"")
                    .expect_tool_result_contains("\"round\":1"),
                // The hook sent the malformed reply back: the tool result is the protocol reply.
                Turn::tools(vec![ToolUse::write(&reply, q1)]).expect_tool_result_contains("STATUS: QUESTION"),
                Turn::tools(vec![ToolUse::bash(&record)]),
                Turn::tools(vec![ToolUse::bash(ws("rounds answer design --text \"Grid.\""))])
                    .expect_tool_result_contains("\"decision\":\"answer\""),
                Turn::tools(vec![ToolUse::bash(ws("rounds prompt design"))]),
                Turn::tools(vec![ToolUse::agent("phasegate:design-implementer", "Round 2.")])
                    .expect_tool_result_contains("Q1: Grid or list?\\nA1: Grid."),
                Turn::tools(vec![ToolUse::write(&reply, q2)]),
                Turn::tools(vec![ToolUse::bash(&record)]),
                Turn::tools(vec![ToolUse::bash(ws("rounds answer design --text \"Both themes.\""))]),
                Turn::tools(vec![ToolUse::bash(ws("rounds prompt design"))]),
                Turn::tools(vec![ToolUse::agent("phasegate:design-implementer", "Round 3.")])
                    .expect_tool_result_contains(
                        "## Prior Design Q&A\\nQ1: Grid or list?\\nA1: Grid.\\nQ2: Dark mode?\\nA2: Both themes.\\n",
                    ),
                Turn::tools(vec![ToolUse::write(&reply, done)]),
                Turn::tools(vec![ToolUse::bash(&record)]),
                Turn::text("design.md is written.").expect_tool_result_contains("\"decision\":\"complete\""),
            ])
            .agent(
                IMPLEMENTER,
                vec![
                    Turn::text("I would use a grid."),
                    Turn::text(q1).expect_user_text_contains("does not follow the STATUS protocol"),
                    Turn::text(q2),
                    Turn::text(done),
                ],
            ),
    );
    let out = f.claude().prompt("/phasegate:design 001-dash").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    assert_eq!(std::fs::read_to_string(dir.join("design.md")).unwrap(), "# Design\n\nA grid, both themes.\n");
    let repo = git2::Repository::open(&f.repo).unwrap();
    assert!(repo.is_path_ignored("docs/features/001-dash/.design.reply.md").unwrap());
}

#[test]
fn a_headless_question_suspends_a_while_the_backlog_moves_to_b_until_the_answer_arrives() {
    let f = Fixture::repo();
    f.ws(&["feature", "new", "alpha"]);
    f.ws(&["feature", "new", "beta"]);
    let question = f.path("q.json").display().to_string();
    let api = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::write(&question, r#"{"type": "blocking", "text": "Which payment provider?"}"#)]),
        Turn::tools(vec![ToolUse::bash(format!("workflow-state question ask --file {question} --feature 001-alpha"))]),
        Turn::tools(vec![ToolUse::bash("workflow-state backlog --json")])
            .expect_tool_result_contains("\"route\":\"suspend\""),
        Turn::text("Moving on to beta.").expect_tool_result_contains("\"next\":{\"feature\":\"002-beta\""),
    ]));
    // claude -p: nobody to ask, so the blocking question suspends; it never hangs.
    let out = f.claude().prompt("/phasegate:auto").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    assert!(f.path(".claude/suspended/001-alpha.json").exists());
    // A person answers from a shell; the next session hears of it and alpha comes first.
    f.ws(&["question", "answer", "001-alpha.1", "Stripe"]);
    let api = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::bash("workflow-state phase start brainstorm --feature 001-alpha")]),
        Turn::text("Resumed.").expect_tool_result_contains("\"answer\":\"Stripe\""),
    ]));
    let out = f.claude().prompt("go on").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let context = crate::support::session_context(&api).expect("SessionStart said nothing");
    assert!(context.contains("the answer to 001-alpha.1 arrived"), "{context}");
}

const CHANNEL: &str = "C0FEATURES";

/// A fake Slack that knows `tokens` (a bot token, then a user token) and a
/// project whose feature questions go to its channel, with feature alpha in
/// its design round loop: the implementer asked what the orchestrator cannot
/// answer.
fn alpha_asks_in_slack(tokens: &[&str; 2]) -> (phasegate_testkit::FakeSlack, Fixture) {
    use phasegate_testkit::{FakeSlack, SlackTokenKind};
    let slack = FakeSlack::start();
    slack.add_token(tokens[0], SlackTokenKind::Bot, "U0BOT");
    slack.add_token(tokens[1], SlackTokenKind::User, "U0READER");
    slack.add_channel(CHANNEL, true);
    let f = Fixture::repo();
    f.write(
        ".phasegate/questions.config.json",
        &format!(r#"{{"slack": {{"channels": {{"feature": "{CHANNEL}"}}, "pollIntervalSeconds": 5}}}}"#),
    );
    f.ws(&["feature", "new", "alpha"]);
    f.write("docs/features/001-alpha/spec.md", "# Spec\nR1 a dashboard.\n");
    f.ws(&["phase", "complete", "specify", "--feature", "001-alpha"]);
    f.write("brief.md", "Design the dashboard of R1.\n");
    f.write("reply.md", "STATUS: QUESTION\nQUESTION: Grid or list?\nCONTEXT: The spec names both.\n");
    f.ws(&["rounds", "start", "design", "--brief-file", "brief.md", "--feature", "001-alpha"]);
    f.ws(&["rounds", "record", "design", "--reply-file", "reply.md", "--feature", "001-alpha"]);
    (slack, f)
}

#[test]
fn a_question_in_slack_suspends_a_the_backlog_moves_to_b_and_a_resumes_with_the_slack_answer() {
    let (slack, f) = alpha_asks_in_slack(&["xoxb-e2e-bot", "xoxp-e2e-reader"]);
    f.ws(&["feature", "new", "beta"]);
    let with_slack = |c: phasegate_testkit::ClaudeCode| {
        c.env("PHASEGATE_SLACK_API_URL", slack.base_url())
            .env("PHASEGATE_SLACK_TOKEN", "xoxb-e2e-bot")
            .env("PHASEGATE_SLACK_READ_TOKEN", "xoxp-e2e-reader")
    };

    let api = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::bash("workflow-state rounds ask design --feature 001-alpha")]),
        Turn::tools(vec![ToolUse::bash("workflow-state backlog --json")])
            .expect_tool_result_contains("\"route\":\"suspend\"")
            .expect_tool_result_contains("\"slack\":{\"posted\":true"),
        Turn::text("Alpha waits for an answer in Slack; moving on to beta.")
            .expect_tool_result_contains("\"next\":{\"feature\":\"002-beta\""),
    ]));
    // claude -p: nobody at the session, so the question goes to Slack and alpha is suspended.
    let out = with_slack(f.claude().prompt("/phasegate:auto")).run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let posted = slack.messages(CHANNEL);
    assert_eq!(posted.len(), 1, "{posted:?}");
    assert!(posted[0]["text"].as_str().unwrap().contains("*001-alpha* (feature, design)"));
    assert!(posted[0]["text"].as_str().unwrap().contains("Grid or list?"));

    // A person answers in the thread; the poller records it. (The background
    // poller the ask started went with the run: the test kit ends every
    // process a run started. tests/it/slack.rs shows it outliving a session.)
    slack.add_human_reply(CHANNEL, posted[0]["ts"].as_str().unwrap(), "U0ALICE", "Grid");
    let poll = std::process::Command::new(crate::support::WORKFLOW_STATE)
        .args(["slack", "poll"])
        .current_dir(&f.repo)
        .env("PHASEGATE_SLACK_API_URL", slack.base_url())
        .env("PHASEGATE_SLACK_TOKEN", "xoxb-e2e-bot")
        .env("PHASEGATE_SLACK_READ_TOKEN", "xoxp-e2e-reader")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&poll.stdout);
    assert!(poll.status.success() && said.contains("the answer to 001-alpha.1 arrived: \"Grid\""), "{said}");
    let m: serde_json::Value = serde_json::from_str(&f.read(".claude/suspended/001-alpha.json")).unwrap();
    assert_eq!((m["answer"]["text"].as_str(), m["answer"]["user"].as_str()), (Some("Grid"), Some("U0ALICE")));
    let thread = slack.thread(CHANNEL, posted[0]["ts"].as_str().unwrap());
    assert!(thread.last().unwrap()["text"].as_str().unwrap().contains("Thanks, taken (slack): Grid"));

    // The next session is told, and alpha's next round carries the answer as A1.
    let api = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::bash("workflow-state rounds prompt design --feature 001-alpha")]),
        Turn::text("Alpha resumed.").expect_tool_result_contains("Q1: Grid or list?\\nA1: Grid\\n"),
    ]));
    let out = with_slack(f.claude().prompt("go on")).run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let context = crate::support::session_context(&api).expect("SessionStart said nothing");
    assert!(context.contains("the answer to 001-alpha.1 arrived"), "{context}");
    assert!(!f.path(".claude/suspended/001-alpha.json").exists(), "the answer was taken in");
}

/// The token only in the plugin's configuration (`userConfig`, kept by
/// Claude Code): Claude Code hands it to the plugin's hooks, not to Bash
/// commands, so the ask cannot post; the Stop hook at the end of the
/// headless session starts the background poller, which outlives the
/// session, posts the question and records the answer from the thread.
#[test]
fn a_slack_token_in_the_plugin_configuration_reaches_slack_through_the_hooks() {
    let (slack, f) = alpha_asks_in_slack(&["xoxb-e2e-config-bot", "xoxp-e2e-config-reader"]);
    // What Claude Code keeps once the user filled in the plugin's options.
    let settings = f.home.join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(
        &settings,
        r#"{"pluginConfigs": {"phasegate@inline": {"options": {"slack_token": "xoxb-e2e-config-bot", "slack_read_token": "xoxp-e2e-config-reader"}}}}"#,
    )
    .unwrap();

    let api = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::bash("workflow-state rounds ask design --feature 001-alpha")]),
        Turn::text("Alpha waits for an answer.")
            .expect_tool_result_contains("\"route\":\"suspend\"")
            .expect_tool_result_contains("\"posted\":false")
            .expect_tool_result_contains("the plugin's slack_token option"),
    ]));
    let out = f.claude().prompt("go on").env("PHASEGATE_SLACK_API_URL", slack.base_url()).spare_detached().run(&api);
    let survivors = out.survivors();
    assert!(out.success(), "{}", out.report());
    api.assert_finished();

    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let posted = loop {
        let posted = slack.messages(CHANNEL);
        if !posted.is_empty() {
            break posted;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "nothing posted the question; {} processes left",
            survivors.alive()
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert!(posted[0]["text"].as_str().unwrap().contains("Grid or list?"), "{posted:?}");
    slack.add_human_reply(CHANNEL, posted[0]["ts"].as_str().unwrap(), "U0ALICE", "Grid");
    let marker = f.path(".claude/suspended/001-alpha.json");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let m: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&marker).unwrap()).unwrap();
        if m["answer"]["acknowledged"] == true {
            assert_eq!((m["answer"]["text"].as_str(), m["answer"]["user"].as_str()), (Some("Grid"), Some("U0ALICE")));
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the background poller recorded no answer: {m}");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    // Nothing waits on Slack any more, so the poller ends by itself.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while survivors.alive() > 0 {
        assert!(std::time::Instant::now() < deadline, "the background poller did not end once idle");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    // The token is in no file of the project, the poller's log included.
    for entry in walkdir::WalkDir::new(&f.repo).into_iter().filter_map(Result::ok) {
        if entry.file_type().is_file() {
            let text = String::from_utf8_lossy(&std::fs::read(entry.path()).unwrap()).into_owned();
            assert!(!text.contains("e2e-config"), "{} holds the token", entry.path().display());
        }
    }
}

#[test]
fn a_headless_pipeline_pause_becomes_a_question_and_the_session_ends() {
    let f = Fixture::repo();
    let feature = f.pipeline_in_loop("setup-session", "true", 10);
    let api = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::bash("workflow-state pipeline claim")]),
        // The implementer asked what only the user can decide.
        Turn::tools(vec![ToolUse::bash(
            "workflow-state pipeline pause needs_clarification --message \"Keep the legacy endpoint?\"",
        )]),
        Turn::tools(vec![ToolUse::bash("workflow-state pipeline next")])
            .expect_tool_result_contains("\"state\":\"needs_user_input\""),
        Turn::tools(vec![ToolUse::bash(format!("workflow-state pipeline ask --feature {feature}"))])
            .expect_tool_result_contains("workflow-state pipeline ask --feature"),
        Turn::text("The pipeline waits for your answer.").expect_tool_result_contains("\"route\":\"suspend\""),
    ]));
    // claude -p with the owning session: the Stop hook lets it end; nothing hangs.
    let out = f.claude().prompt("/phasegate:pipeline").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let marker: serde_json::Value =
        serde_json::from_str(&f.read(&format!(".claude/suspended/{feature}.json"))).unwrap();
    assert!(marker["question"].as_str().unwrap().contains("Keep the legacy endpoint?"));
    // Answered from a shell, the pipeline resumes with it.
    f.ws(&["question", "answer", &format!("{feature}.1"), "Keep it one more release."]);
    let resumed = f.ws(&["pipeline", "resume", "--feature", &feature]);
    assert!(resumed.contains("Keep it one more release."), "{resumed}");
    assert_eq!(f.task_json(&feature, "state.json")["state"], "implementing_loop");
}
