//! Regressions the library tests found, each named after its bug.

use phasegate_core::Mode;
use phasegate_core::questions::Source;
use phasegate_ops::OpError;
use phasegate_ops::error::Refusal;
use phasegate_ops::feature::{lifecycle, status};
use phasegate_ops::hooks::{self, HookInput};
use phasegate_ops::questions::ask::{self, Interaction};
use phasegate_ops::tasks::marks::{self, MarkAction};
use phasegate_ops::tasks::{build, review};

use crate::kit::{Repo, stamp};
use crate::questions::{ask_as, blocking};

const TASKS: &str = "- [ ] T1: Add the login endpoint\n- [ ] T2: Add the report page\n";
const REVIEWER: &str = "security-auditor";

fn setup() -> (Repo, String) {
    let t = Repo::new();
    let f = t.feature("login", Mode::Standard);
    t.write(&Repo::in_feature(&f, "tasks.md"), TASKS);
    t.write(
        &format!(".claude/agents/{REVIEWER}.md"),
        "---\nname: security-auditor\ndescription: Reviews.\nmodel: opus\n---\nYou audit.\n",
    );
    t.commit_all("tasks");
    marks::mark(&t.env(), None, "T1", MarkAction::Start, None).unwrap();
    (t, f)
}

/// Bug: a later review cycle's deadline counts from the previous verdict,
/// not from when its review is asked: after a 28-minute fix, `tasks review`
/// prints a deadline 23 minutes in the past, and the model times it out.
#[test]
fn a_later_cycles_review_deadline_counts_from_when_it_is_asked() {
    let (t, _) = setup();
    review::review(&t.env(), None, "T1", Some(REVIEWER), None).unwrap();
    t.clock.set(2);
    review::record(
        &t.env(),
        None,
        "T1",
        crate::kit::reply("NEEDS REVISION\nthe password check is missing"),
        Interaction::Headless,
    )
    .unwrap();
    t.clock.set(30);
    let b = review::review(&t.env(), None, "T1", None, None).unwrap();
    assert_eq!(b.cycle, 2);
    assert_eq!(b.deadline, stamp(35), "asked at 30, due 5 minutes later");
}

/// Bug: `tasks record --timed-out` is accepted before the review's
/// deadline: at minute 1 of 5 the task is skipped. The binary prints the
/// deadline but leaves "past it" to the model.
#[test]
fn a_review_cannot_time_out_before_its_deadline() {
    let (t, f) = setup();
    let b = review::review(&t.env(), None, "T1", Some(REVIEWER), None).unwrap();
    assert_eq!(b.deadline, stamp(5));
    t.clock.set(1);
    assert!(review::timed_out(&t.env(), None, "T1").is_err(), "refused before 10:05");
    assert!(t.read(&Repo::in_feature(&f, "tasks.md")).starts_with("- [~] T1"), "nothing skipped");
}

/// Bug: the error for a task without a pending review names a command that
/// does not exist (`tasks review start`), and says "no review cycle yet"
/// of a task whose cycle is over.
#[test]
fn recording_a_review_that_was_not_asked_names_the_real_command() {
    let (t, _) = setup();
    let e = review::record(&t.env(), None, "T1", crate::kit::reply("APPROVED"), Interaction::Headless)
        .unwrap_err()
        .to_string();
    assert!(!e.contains("tasks review start"), "{e}");
    assert!(e.contains("tasks review T1 --reviewer"), "{e}");
    review::review(&t.env(), None, "T1", Some(REVIEWER), None).unwrap();
    review::record(&t.env(), None, "T1", crate::kit::reply("APPROVED"), Interaction::Headless).unwrap();
    let e = review::timed_out(&t.env(), None, "T1").unwrap_err().to_string();
    assert!(!e.contains("no review cycle yet"), "T1's cycle is over (approved): {e}");
}

/// Bug: a second escalation in one build fails `tasks fail` with "take the
/// answer in first (`phase start`…)" after the task was already ticked
/// failed: `tasks start` does not take the first escalation's answer in, so
/// its marker still holds the answer and `ask` refuses the new question.
#[test]
fn a_second_escalation_in_one_build_is_asked() {
    let (t, f) = setup();
    let first = build::fail(&t.env(), None, "T1", Some("weird"), None, false, Interaction::Headless).unwrap();
    assert_eq!(first.escalation.unwrap().route.to_string().as_str(), "suspend");
    ask::answer(&t.env(), &f, "Retry", None, Source::Cli).unwrap();
    marks::mark(&t.env(), None, "T1", MarkAction::Start, None).unwrap();
    let second = build::fail(&t.env(), None, "T1", Some("weird again"), None, false, Interaction::Headless);
    assert!(
        !matches!(second, Err(OpError::Refused(Refusal::AnswerWaiting { .. }))),
        "the first answer was taken when T1 restarted: {second:?}"
    );
    assert_eq!(second.unwrap().escalation.unwrap().route.to_string().as_str(), "suspend");
}

/// Bug: the build's time limit counts from the first task start of the
/// feature, ever: a build resumed the next day can never start a task
/// again, and nothing (`tasks stop --clear`, a fresh implement phase)
/// resets the clock.
#[test]
fn a_build_resumed_the_next_day_can_start_a_task() {
    let (t, _) = setup();
    marks::mark(&t.env(), None, "T1", MarkAction::Complete, None).unwrap();
    t.clock.set(24 * 60);
    build::stop(&t.env(), None, true).unwrap();
    let started = marks::mark(&t.env(), None, "T2", MarkAction::Start, None);
    assert!(started.is_ok(), "{started:?}");
}

/// Bug: abandoning a feature that waits on a question leaves it listed as
/// suspended: every SessionStart (with any other feature active) says
/// "suspended, waiting for an answer: 001-x", and `status` suggests
/// answering the abandoned feature's question.
#[test]
fn an_abandoned_feature_is_not_reported_as_waiting_for_an_answer() {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    ask_as(&t, &f, blocking("Which database?"), Interaction::Headless).unwrap();
    lifecycle::abandon(&t.env(), None).unwrap();
    t.feature("y", Mode::Standard);
    let input = HookInput { cwd: Some(t.root().to_owned()), ..HookInput::default() };
    let text = hooks::session_start(&input, &t.env(), None, None);
    assert!(!text.contains("001-x"), "{text}");
    let (_, rows) = status::status(&t.env()).unwrap();
    assert_eq!(rows[0].next, None, "{:?}", rows[0]);
}
