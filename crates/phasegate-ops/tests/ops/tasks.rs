//! An orchestrated implement: the checkboxes only the binary ticks, the
//! next ready task(s), a failure and its build decision, the build's time
//! limit, and per-task review cycles with their deadline, timeout and
//! escalation. Every time limit is driven by the clock.

use phasegate_core::Mode;
use phasegate_core::cycle::Decision;
use phasegate_core::tasks::{BuildAction, ErrorType, Mark};
use phasegate_ops::error::Refusal;
use phasegate_ops::questions::ask::Interaction;
use phasegate_ops::tasks::marks::{self, MarkAction};
use phasegate_ops::tasks::{build, review};
use phasegate_ops::{Invalid, OpError};
use serde_json::Value;

use crate::kit::{Repo, refusal, stamp};

const TASKS: &str = "- [ ] T1: Add the login endpoint\n  - Files: src/auth.rs\n- [ ] T2: Add the report page\n  - Depends on: T1\n- [ ] T3: Add the export\n- [ ] T4: Add the import\n- [ ] T5: Add the audit log\n";

const REVIEWER: &str = "security-auditor";

/// A feature with [`TASKS`] and a project agent that may review them.
fn setup() -> (Repo, String) {
    let t = Repo::new();
    let f = t.feature("login", Mode::Standard);
    t.write(&Repo::in_feature(&f, "tasks.md"), TASKS);
    t.write(
        &format!(".claude/agents/{REVIEWER}.md"),
        "---\nname: security-auditor\ndescription: Reviews authentication, tokens and secrets.\nmodel: opus\n---\nYou audit security.\n",
    );
    t.commit_all("tasks");
    (t, f)
}

fn mark(t: &Repo, id: &str, action: MarkAction) -> phasegate_ops::OpResult<marks::Marked> {
    marks::mark(&t.env(), None, id, action, None)
}

fn next(t: &Repo) -> marks::Next {
    marks::next(&t.env(), None, 1).unwrap()
}

fn tasks_md(t: &Repo, f: &str) -> String {
    t.read(&Repo::in_feature(f, "tasks.md"))
}

fn cycles(t: &Repo, f: &str) -> Value {
    t.json(&Repo::in_feature(f, ".review-cycles.json"))["sessions"][f].clone()
}

fn fail(t: &Repo, id: &str, output: &str) -> build::Failed {
    build::fail(&t.env(), None, id, Some(output), None, false, Interaction::Headless).unwrap()
}

const SYNTAX: &str = "src/a.ts(3,1): error TS1005: SyntaxError: Unexpected token '}'";
const CONFLICT: &str = "CONFLICT (content): Merge conflict in src/api.rs";

#[test]
fn checkboxes_move_only_the_allowed_ways_and_a_start_is_recorded() {
    let (t, f) = setup();
    let r = refusal(mark(&t, "T2", MarkAction::Start));
    assert!(matches!(&r, Refusal::NotReady { why, .. } if why.contains("depends on T1")), "{r:?}");
    t.clock.advance(4);
    let m = mark(&t, "T1", MarkAction::Start).unwrap();
    assert_eq!((m.from, m.to, m.line), (Mark::Pending, Mark::InProgress, 1));
    assert!(tasks_md(&t, &f).starts_with("- [~] T1: Add the login endpoint\n"));
    let s = cycles(&t, &f);
    assert_eq!(s["build"]["started_at"], stamp(4));
    assert_eq!(s["build"]["attempts"]["T1"], 1);
    assert_eq!(s["build"]["implementers"]["T1"], "phasegate:task-implementer");
    assert!(s["bases"]["T1"].is_string(), "a checkpoint: {s}");
    let r = refusal(mark(&t, "T1", MarkAction::Start));
    assert!(matches!(r, Refusal::MarkRefused { from: Mark::InProgress, to: Mark::InProgress, .. }), "{r:?}");
    mark(&t, "T1", MarkAction::Complete).unwrap();
    assert!(matches!(refusal(mark(&t, "T1", MarkAction::Complete)), Refusal::MarkRefused { from: Mark::Done, .. }));
    mark(&t, "T3", MarkAction::Skip).unwrap();
    assert!(matches!(refusal(mark(&t, "T3", MarkAction::Start)), Refusal::MarkRefused { from: Mark::Skipped, .. }));
    let expected = TASKS.replace("- [ ] T1", "- [x] T1").replace("- [ ] T3", "- [-] T3");
    assert_eq!(tasks_md(&t, &f), expected, "only the checkboxes changed");
    let e = mark(&t, "T9", MarkAction::Start).unwrap_err();
    assert!(
        matches!(e, OpError::Invalid(Invalid::NoTask { .. })) && e.to_string().contains("tasks: T1, T2, T3, T4, T5"),
        "{e}"
    );
}

#[test]
fn next_hands_out_one_task_at_a_time_in_order_and_says_why_when_none() {
    let (t, _) = setup();
    assert_eq!(next(&t).ready.tasks, ["T1"]);
    mark(&t, "T1", MarkAction::Start).unwrap();
    let n = next(&t);
    assert!(n.ready.tasks.is_empty() && n.ready.reason.as_deref() == Some("waiting for T1 in progress"), "{n:?}");
    mark(&t, "T1", MarkAction::Complete).unwrap();
    assert_eq!(next(&t).ready.tasks, ["T2"]);
    for id in ["T2", "T3", "T4", "T5"] {
        mark(&t, id, MarkAction::Skip).unwrap();
    }
    assert_eq!(next(&t).ready.reason.as_deref(), Some("every task is done or skipped"));
}

#[test]
fn a_parallel_phase_hands_out_a_batch_of_tasks_that_share_no_file() {
    let t = Repo::new();
    let f = t.feature("api", Mode::Standard);
    t.write(
        &Repo::in_feature(&f, "tasks.md"),
        "## Phase 1: Endpoints (parallel)\n\n- [ ] **Search** [`files: src/search.rs`]\n- [ ] **Export** [`files: src/export.rs`]\n- [ ] **Report** [`files: src/search.rs`]\n",
    );
    let n = next(&t);
    assert_eq!(n.ready.tasks, ["T1"]);
    assert!(n.note.as_ref().is_some_and(|b| b.ready == 2 && b.to_string().starts_with("2 tasks")), "{:?}", n.note);
    assert_eq!(marks::next(&t.env(), None, 4).unwrap().ready.tasks, ["T1", "T2"]);
}

#[test]
fn tasks_of_a_feature_that_is_not_active_do_not_move() {
    let (t, f) = setup();
    phasegate_ops::feature::lifecycle::abandon(&t.env(), None).unwrap();
    assert!(matches!(marks::mark(&t.env(), Some(&f), "T1", MarkAction::Start, None), Err(OpError::Meta(_))));
    assert_eq!(tasks_md(&t, &f), TASKS);
}

/// The rule: the build may run 120 minutes from the first task's start
/// (`build.time_limit_minutes`); at 120 it still goes on, past 120 it stops.
#[test]
fn the_build_goes_on_for_120_minutes_from_the_first_start_and_stops_past_them() {
    let (t, f) = setup();
    mark(&t, "T1", MarkAction::Start).unwrap();
    mark(&t, "T1", MarkAction::Complete).unwrap();
    t.clock.set(119);
    assert_eq!(next(&t).ready.tasks, ["T2"]);
    mark(&t, "T2", MarkAction::Start).unwrap();
    mark(&t, "T2", MarkAction::Complete).unwrap();
    assert_eq!(cycles(&t, &f)["build"]["started_at"], stamp(0), "counted from the first start");
    t.clock.set(120);
    assert_eq!(next(&t).ready.tasks, ["T3"], "at the limit it goes on");
    mark(&t, "T3", MarkAction::Start).unwrap();
    mark(&t, "T3", MarkAction::Complete).unwrap();
    t.clock.advance_secs(1);
    let n = next(&t);
    assert!(n.ready.tasks.is_empty(), "{n:?}");
    assert_eq!(n.ready.reason.as_deref(), Some("the build stopped: Time limit exceeded (2 hours)"));
    let r = refusal(mark(&t, "T4", MarkAction::Start));
    assert!(matches!(&r, Refusal::BuildStopped { why, .. } if why.contains("Time limit")), "{r:?}");
    assert!(tasks_md(&t, &f).contains("- [ ] T4"), "a refused start ticks nothing");
}

#[test]
fn the_time_limit_is_the_configured_one() {
    let (t, _) = setup();
    t.write(".phasegate/implement.config.json", r#"{"build": {"time_limit_minutes": 30}}"#);
    mark(&t, "T1", MarkAction::Start).unwrap();
    mark(&t, "T1", MarkAction::Complete).unwrap();
    t.clock.set(30);
    assert_eq!(next(&t).ready.tasks, ["T2"]);
    t.clock.set(31);
    assert_eq!(next(&t).ready.reason.as_deref(), Some("the build stopped: Time limit exceeded (0.5 hours)"));
}

#[test]
fn a_failure_after_the_time_limit_says_the_build_stops_and_asks_nobody() {
    let (t, f) = setup();
    mark(&t, "T1", MarkAction::Start).unwrap();
    t.clock.set(121);
    let failed = fail(&t, "T1", "segfault in the linker");
    assert_eq!(failed.decision.action, BuildAction::Escalate);
    assert!(failed.stop.as_deref().is_some_and(|s| s.contains("Time limit exceeded")), "{:?}", failed.stop);
    assert!(failed.escalation.is_none(), "a stopped build escalates nothing");
    assert!(failed.message.to_string().starts_with("The build stops"), "{}", failed.message);
    assert!(tasks_md(&t, &f).contains("- [!] T1"));
}

#[test]
fn a_syntax_error_is_retried_twice_then_escalated_to_a_person() {
    let (t, f) = setup();
    for attempt in 1..=2 {
        mark(&t, "T1", MarkAction::Start).unwrap();
        let failed = fail(&t, "T1", SYNTAX);
        assert_eq!(
            (failed.error.clone(), failed.decision.action.clone()),
            (ErrorType::SyntaxError, BuildAction::Retry)
        );
        assert_eq!((failed.attempts, failed.mark), (attempt, Mark::Failed));
        // Regression: the retry lacked --feature (exit 2 with two features) and dropped --by.
        assert!(
            failed
                .message
                .to_string()
                .contains(&format!("`workflow-state tasks start T1 --feature {f} --by phasegate:task-implementer`")),
            "{}",
            failed.message
        );
        assert!(tasks_md(&t, &f).contains("- [!] T1"));
    }
    mark(&t, "T1", MarkAction::Start).unwrap();
    let failed = fail(&t, "T1", SYNTAX);
    assert_eq!((failed.attempts, failed.decision.action), (3, BuildAction::Escalate));
    let asked = failed.escalation.expect("the user decides");
    assert_eq!((asked.route.to_string().as_str(), asked.id.as_deref()), ("suspend", Some("001-login.1")));
    let n = next(&t);
    assert!(n.ready.reason.as_deref().is_some_and(|r| r.contains("suspended on 001-login.1")), "{n:?}");
    assert!(matches!(refusal(mark(&t, "T1", MarkAction::Start)), Refusal::Suspended { .. }));
}

#[test]
fn a_validation_failure_is_retried_once_then_skipped() {
    let (t, f) = setup();
    mark(&t, "T1", MarkAction::Start).unwrap();
    assert_eq!(fail(&t, "T1", "test result: FAILED. 3 passed; 1 failed").decision.action, BuildAction::Retry);
    mark(&t, "T1", MarkAction::Start).unwrap();
    let failed = fail(&t, "T1", "test result: FAILED. 3 passed; 1 failed");
    assert_eq!((failed.decision.action, failed.mark), (BuildAction::Skip, Mark::Skipped));
    assert!(tasks_md(&t, &f).contains("- [-] T1"));
}

#[test]
fn a_missing_dependency_is_installed_and_retried() {
    let (t, _) = setup();
    mark(&t, "T1", MarkAction::Start).unwrap();
    let failed = fail(&t, "T1", "Error: Cannot find module 'zod'");
    assert_eq!(
        (failed.decision.action, failed.decision.package.as_deref()),
        (BuildAction::InstallAndRetry, Some("zod"))
    );
    assert!(failed.message.to_string().contains("Install zod"), "{}", failed.message);
}

#[test]
fn more_than_three_failed_tasks_stop_the_build() {
    let (t, _) = setup();
    mark(&t, "T1", MarkAction::Start).unwrap();
    fail(&t, "T1", CONFLICT);
    for id in ["T3", "T4"] {
        mark(&t, id, MarkAction::Start).unwrap();
        assert_eq!(fail(&t, id, CONFLICT).stop, None);
    }
    mark(&t, "T5", MarkAction::Start).unwrap();
    let failed = fail(&t, "T5", CONFLICT);
    assert_eq!(failed.decision.action, BuildAction::RebaseAndRetry);
    assert_eq!(failed.stop.as_deref(), Some("Too many failures (>3): T1, T3, T4, T5"));
    assert!(matches!(refusal(mark(&t, "T1", MarkAction::Start)), Refusal::BuildStopped { .. }));
}

#[test]
fn only_a_task_in_progress_can_fail() {
    let (t, _) = setup();
    let r = refusal(build::fail(&t.env(), None, "T1", Some(SYNTAX), None, false, Interaction::Headless));
    assert!(matches!(r, Refusal::NotInProgress { mark: Mark::Pending, .. }), "{r:?}");
}

#[test]
fn a_rollback_puts_the_tasks_files_back_and_keeps_earlier_uncommitted_work() {
    let (t, _) = setup();
    t.write("notes.txt", "the user's own work\n");
    mark(&t, "T1", MarkAction::Start).unwrap();
    t.write("src/auth.rs", "fn login() { broken\n");
    let failed = build::fail(&t.env(), None, "T1", Some(SYNTAX), None, true, Interaction::Headless).unwrap();
    assert_eq!(failed.rolled_back, ["src/auth.rs"]);
    assert!(!t.exists("src/auth.rs"), "the task's file is gone");
    assert_eq!(t.read("notes.txt"), "the user's own work\n");
    assert!(failed.saved_in.is_some(), "what the rollback removed was saved first");
}

#[test]
fn a_stop_request_holds_the_build_until_it_is_cleared() {
    let (t, _) = setup();
    assert!(build::stop(&t.env(), None, false).unwrap());
    assert_eq!(next(&t).ready.reason.as_deref(), Some("the build stopped: Stop signal received"));
    assert!(matches!(refusal(mark(&t, "T1", MarkAction::Start)), Refusal::BuildStopped { .. }));
    assert!(!build::stop(&t.env(), None, true).unwrap());
    assert_eq!(next(&t).ready.tasks, ["T1"]);
}

fn review_brief(t: &Repo, reviewer: Option<&str>) -> phasegate_ops::OpResult<review::Brief> {
    review::review(&t.env(), None, "T1", reviewer, None)
}

fn reply(t: &Repo, text: &str) -> review::Outcome {
    review::record(&t.env(), None, "T1", crate::kit::reply(text), Interaction::Headless).unwrap()
}

#[test]
fn a_task_review_is_due_review_timeout_minutes_after_it_was_asked() {
    let (t, f) = setup();
    mark(&t, "T1", MarkAction::Start).unwrap();
    t.write("src/auth.rs", "pub fn login(password: &str) -> bool { !password.is_empty() }\n");
    t.clock.set(3);
    let b = review_brief(&t, Some(REVIEWER)).unwrap();
    assert_eq!((b.agent.as_str(), b.cycle, b.max_cycles), (REVIEWER, 1, 3));
    assert_eq!(b.deadline, stamp(8), "5 minutes, review_timeout_minutes");
    assert_eq!(b.todo, "T1: Add the login endpoint (review_cycle 1/3)");
    assert!(b.prompt.contains("src/auth.rs"), "{}", b.prompt);
    // Asked again, the same review keeps its deadline.
    t.clock.set(6);
    assert_eq!(review_brief(&t, None).unwrap().deadline, stamp(8));
    assert_eq!(cycles(&t, &f)["tasks"]["T1"]["reviewers"][0]["timestamp"], stamp(3));
}

#[test]
fn the_review_deadline_follows_the_configured_timeout() {
    let (t, _) = setup();
    t.write(".phasegate/implement.config.json", r#"{"review_timeout_minutes": 12}"#);
    mark(&t, "T1", MarkAction::Start).unwrap();
    assert_eq!(review_brief(&t, Some(REVIEWER)).unwrap().deadline, stamp(12));
}

#[test]
fn a_timed_out_review_applies_the_configured_default_action() {
    for (action, line, stops) in [
        ("skip_with_warning", "- [-] T1", false),
        ("accept_as_is", "- [x] T1", false),
        ("abort_process", "- [~] T1", true),
    ] {
        let (t, f) = setup();
        t.write(".phasegate/implement.config.json", &format!(r#"{{"escalation": {{"default_action": "{action}"}}}}"#));
        mark(&t, "T1", MarkAction::Start).unwrap();
        review_brief(&t, Some(REVIEWER)).unwrap();
        t.clock.set(6);
        let out = review::timed_out(&t.env(), None, "T1").unwrap();
        assert_eq!((out.action.name(), out.reviewer.as_str()), (action, REVIEWER));
        assert!(tasks_md(&t, &f).starts_with(line), "{action}: {}", tasks_md(&t, &f));
        let entry = &cycles(&t, &f)["tasks"]["T1"]["reviewers"][0];
        assert_eq!((entry["status"].as_str(), entry["timestamp"].as_str()), (Some("TIMEOUT"), Some(stamp(6).as_str())));
        let reason = next(&t).ready.reason;
        assert_eq!(reason.as_deref() == Some("the build stopped: Stop signal received"), stops, "{action}: {reason:?}");
    }
}

#[test]
fn an_approval_ticks_the_task_done_in_the_same_change() {
    let (t, f) = setup();
    mark(&t, "T1", MarkAction::Start).unwrap();
    review_brief(&t, Some(REVIEWER)).unwrap();
    let out = reply(&t, "LGTM\nclean and tested");
    assert_eq!((out.recorded.decision, out.ticked), (Some(Decision::Approved), true));
    assert!(tasks_md(&t, &f).starts_with("- [x] T1"));
    let r = refusal(review_brief(&t, None));
    assert!(matches!(r, Refusal::CycleOver { outcome: Decision::Approved, .. }), "{r:?}");
}

#[test]
fn an_unclear_reply_counts_nothing() {
    let (t, f) = setup();
    mark(&t, "T1", MarkAction::Start).unwrap();
    review_brief(&t, Some(REVIEWER)).unwrap();
    let out = reply(&t, "Hmm, let me think about it.");
    assert_eq!((out.recorded.decision, out.ticked), (None, false));
    assert!(out.message.to_string().contains("says neither approved nor needs revision"), "{}", out.message);
    assert_eq!(cycles(&t, &f)["tasks"]["T1"]["reviewers"][0]["status"], "pending");
}

#[test]
fn the_review_cap_escalates_with_a_default_that_applies_after_its_timeout() {
    let (t, f) = setup();
    mark(&t, "T1", MarkAction::Start).unwrap();
    review::review(&t.env(), None, "T1", Some(REVIEWER), Some(2)).unwrap();
    let out = reply(&t, "NEEDS REVISION\nthe password check is missing");
    assert_eq!((out.recorded.decision, out.recorded.cycle), (Some(Decision::Revise), 1));
    assert!(
        out.message.to_string().contains("Send the findings back to phasegate:task-implementer"),
        "{}",
        out.message
    );
    assert_eq!(review_brief(&t, None).unwrap().cycle, 2);
    let out = reply(&t, "NEEDS REVISION\nthe password check is still missing");
    assert_eq!(out.recorded.decision, Some(Decision::CapReached));
    let asked = out.escalation.expect("a person decides");
    assert_eq!((asked.route.to_string().as_str(), asked.proceed_with.as_deref()), ("queue", Some("Skip")));
    let id = asked.id.unwrap();
    let q = t.json(&format!(".claude/questions/{id}.json"));
    assert_eq!((q["expiresAfterMinutes"].as_u64(), q["task_id"].as_str()), (Some(5), Some("T1")));
    let state = |minutes: i64| {
        t.clock.set(minutes);
        let (views, _) = phasegate_ops::questions::ask::list(&t.env(), false).unwrap();
        views.iter().find(|v| v.id == id).unwrap().state.name()
    };
    assert_eq!(state(4), "waiting");
    assert_eq!(state(5), "expired");
    assert!(tasks_md(&t, &f).starts_with("- [~] T1"), "the task waits for the decision");
}

#[test]
fn a_task_is_never_reviewed_by_its_implementer_or_an_agent_that_is_not_installed() {
    let (t, f) = setup();
    mark(&t, "T1", MarkAction::Start).unwrap();
    assert!(matches!(review_brief(&t, Some("phasegate:task-implementer")), Err(OpError::Cycle(_))));
    let r = refusal(review_brief(&t, Some("nobody-here")));
    assert!(matches!(&r, Refusal::UnknownAgent { available, .. } if available.iter().any(|a| a == REVIEWER)), "{r:?}");
    assert!(
        matches!(review_brief(&t, None), Err(OpError::Invalid(Invalid::NoReviewerNamed { .. }))),
        "the first review names its reviewer"
    );
    assert!(cycles(&t, &f)["tasks"]["T1"].is_null(), "no cycle was begun");
}
