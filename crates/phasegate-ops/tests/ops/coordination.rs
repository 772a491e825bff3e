//! Several sessions on one repository (seed 004 §1–§3, §7, §8), through the
//! operations the hooks and the CLI call, with the test's clock: leases
//! granted, denied, preempted and expired; a session's end; Bash writes told
//! after the fact; the monitor's alerts and the PM's decisions at the seed's
//! minutes; deadlocks; a down session's work handed on; events offered once;
//! a corrupt event line; clock skew; the ideation sub-phases.

use phasegate_core::Mode;
use phasegate_core::coordination::PathCase;
use phasegate_ops::coordination::{events, leases, registry};
use phasegate_ops::error::Refusal;
use phasegate_ops::hooks::{self, HookInput, ToolVote};
use phasegate_ops::ideation;
use phasegate_ops::oversight::monitor;
use phasegate_ops::tasks::marks::{self, MarkAction};
use phasegate_store::Project;
use serde_json::json;

use crate::kit::{Repo, refusal};

const A: &str = "session-a";
const B: &str = "session-b";
const C: &str = "session-c";

fn input(t: &Repo, session: &str, event: &str) -> HookInput {
    HookInput {
        session_id: Some(session.to_owned()),
        cwd: Some(t.root().to_owned()),
        hook_event_name: Some(event.to_owned()),
        ..HookInput::default()
    }
}

/// SessionStart of `session`: its context.
fn start(t: &Repo, session: &str) -> String {
    hooks::session_start(&input(t, session, "SessionStart"), &t.env(), None, None)
}

/// A prompt in `session`: its context (and a heartbeat).
fn prompt(t: &Repo, session: &str) -> String {
    hooks::user_prompt(&input(t, session, "UserPromptSubmit"), &t.env())
}

/// `session` edits `rel` with the Edit tool: the PreToolUse vote.
fn edit(t: &Repo, session: &str, rel: &str) -> ToolVote {
    let mut i = input(t, session, "PreToolUse");
    i.tool_name = Some("Edit".into());
    i.tool_input = Some(json!({"file_path": t.path(rel), "old_string": "a", "new_string": "b"}));
    hooks::pre_tool_use(&i, &t.env())
}

fn end(t: &Repo, session: &str) {
    hooks::session_end(&input(t, session, "SessionEnd"), &t.env());
}

fn project(t: &Repo) -> Project {
    Project::discover(t.root()).unwrap()
}

fn holder(t: &Repo, rel: &str) -> Option<String> {
    let path = phasegate_core::coordination::LeasePath::parse(rel).unwrap();
    match project(t).coordination().read_lease(&path, PathCase::native()) {
        phasegate_store::coordination::leases::LeaseRead::Held(l) => Some(l.holder.to_string()),
        _ => None,
    }
}

fn denied(v: ToolVote) -> String {
    match v {
        ToolVote::Deny(reason) => reason,
        other => panic!("expected a deny, got {other:?}"),
    }
}

#[test]
fn a_second_sessions_edit_of_a_leased_file_is_denied_naming_the_owner_and_what_to_do() {
    let t = Repo::new();
    start(&t, A);
    start(&t, B);
    assert_eq!(edit(&t, A, "src/a.rs"), ToolVote::Pass, "the first edit takes the lease quietly");
    assert_eq!(holder(&t, "src/a.rs").as_deref(), Some(A));
    assert_eq!(edit(&t, A, "src/a.rs"), ToolVote::Pass, "the holder edits on");
    let reason = denied(edit(&t, B, "src/a.rs"));
    assert!(reason.contains(&format!("src/a.rs is leased by session {A}")), "{reason}");
    assert!(reason.contains("ACTIVE, last seen 0 min ago"), "what the owner is doing: {reason}");
    for what in ["Wait", "take other work", "ask the user"] {
        assert!(reason.contains(what), "{what}: {reason}");
    }
    // Who waits for whom is recorded; the conflict is logged once, not at every retry.
    let p = project(&t);
    let (waits, _) = p.coordination().waits().unwrap();
    assert_eq!(waits.len(), 1);
    assert_eq!((waits[0].wait.waiter.as_str(), waits[0].wait.holder.as_str()), (B, A));
    denied(edit(&t, B, "src/a.rs"));
    let decisions = p.coordination().decision_log().read::<serde_json::Value>().unwrap().records;
    assert_eq!(decisions.len(), 1);
    assert_eq!(decisions[0]["decision"]["action"], "DENY");
    assert_eq!(decisions[0]["decision"]["reason"], format!("File owned by {A}"));
    let pending = events::pending(&t.env(), None).unwrap().events;
    assert_eq!(pending.iter().filter(|e| e.event_type == "conflict.detected").count(), 1);
    // Other files stay free for B.
    assert_eq!(edit(&t, B, "src/b.rs"), ToolVote::Pass);
}

/// Friction: the lease deny (620 bytes) repeated a 36-character session id
/// four times, and "and 2 more" could hide the one session that held the
/// file. Now a deny with real ids names the owner by its first 8
/// characters, never whole, in a few hundred bytes; and a newcomer is told
/// first of the session that holds files, however many sessions are live.
#[test]
fn the_lease_deny_repeated_a_long_session_id_and_and_more_hid_the_holder() {
    let t = Repo::new();
    let ids: Vec<String> = (0..5).map(|i| format!("{i:08}-7d3c-4e1a-9b2f-0123456789ab")).collect();
    for id in &ids {
        start(&t, id);
    }
    // The last session listed is the only one holding a file.
    let holder = ids[4].as_str();
    assert_eq!(edit(&t, holder, "src/shared.rs"), ToolVote::Pass);
    let reason = denied(edit(&t, &ids[0], "src/shared.rs"));
    assert!(reason.len() <= 450, "{} bytes: {reason}", reason.len());
    assert!(!reason.contains(holder), "the whole id: {reason}");
    let short = &holder[..8];
    assert!((1..=3).contains(&reason.matches(short).count()), "{reason}");
    // The printed release names a prefix `lease release --session` takes.
    assert!(reason.contains(&format!("--session {short}")), "{reason}");
    let told = start(&t, "10000000-7d3c-4e1a-9b2f-0123456789ab");
    let line = told.lines().find(|l| l.contains("other sessions work here")).expect("the others are named");
    assert!(line.contains(&format!("{short} (ACTIVE, 1 leased file)")), "{line}");
    assert!(line.contains("and 2 more"), "{line}");
}

#[test]
fn when_the_owner_ends_its_leases_go_at_once_and_the_waiter_proceeds() {
    let t = Repo::new();
    start(&t, A);
    start(&t, B);
    edit(&t, A, "src/a.rs");
    denied(edit(&t, B, "src/a.rs"));
    t.clock.advance(1);
    end(&t, A);
    assert_eq!(holder(&t, "src/a.rs"), None, "released at SessionEnd");
    let rec =
        project(&t).coordination().session(&phasegate_core::session::SessionId::parse(A).unwrap()).unwrap().unwrap();
    assert_eq!(rec.state, phasegate_core::coordination::SessionState::Complete);
    assert_eq!(edit(&t, B, "src/a.rs"), ToolVote::Pass);
    assert_eq!(holder(&t, "src/a.rs").as_deref(), Some(B));
    assert!(project(&t).coordination().waits().unwrap().0.is_empty(), "B no longer waits");
}

#[test]
fn a_silent_owner_keeps_its_lease_until_five_minutes_exactly_then_it_expires() {
    let t = Repo::new();
    start(&t, A);
    edit(&t, A, "src/a.rs");
    start(&t, B);
    t.clock.advance_secs(5 * 60 - 1);
    denied(edit(&t, B, "src/a.rs"));
    t.clock.advance_secs(1);
    let ToolVote::Context(said) = edit(&t, B, "src/a.rs") else { panic!("expected a grant with context") };
    assert!(said.contains(&format!("src/a.rs was leased by session {A}")), "{said}");
    assert!(said.contains("down (no heartbeat for 5 min)"), "{said}");
    assert_eq!(holder(&t, "src/a.rs").as_deref(), Some(B));
    // A comes back: told that it was counted down.
    let back = prompt(&t, A);
    assert!(back.contains("was silent for 5 min and counted as down"), "{back}");
}

#[test]
fn higher_priority_preempts_and_the_owner_is_told_at_its_next_hook() {
    let t = Repo::new();
    start(&t, A);
    start(&t, B);
    edit(&t, A, "src/a.rs");
    registry::set_priority(&t.env(), Some(B), phasegate_core::coordination::Priority::High).unwrap();
    let ToolVote::Context(said) = edit(&t, B, "src/a.rs") else { panic!("expected a preemption") };
    assert!(said.contains(&format!("you took src/a.rs from session {A} for higher-priority work")), "{said}");
    assert_eq!(holder(&t, "src/a.rs").as_deref(), Some(B));
    let told = prompt(&t, A);
    assert!(told.contains("pause and yield src/a.rs"), "{told}");
    assert!(told.contains(&format!("{B} needs src/a.rs for higher priority work")), "{told}");
    assert!(!prompt(&t, A).contains("pause and yield"), "told once");
    // A's own next edit of the file is now denied like anyone's.
    denied(edit(&t, A, "src/a.rs"));
}

#[test]
fn clock_skew_never_gives_a_wrong_deny_or_keeps_a_dead_lease() {
    let t = Repo::new();
    start(&t, A);
    edit(&t, A, "src/a.rs");
    start(&t, B);
    // A's clock runs 4 minutes ahead: its heartbeat lies in B's future and counts as now.
    let p = project(&t);
    let a = phasegate_core::session::SessionId::parse(A).unwrap();
    p.coordination().touch_session(&a, t.clock.now() + chrono::Duration::minutes(4));
    denied(edit(&t, B, "src/a.rs"));
    // Two hours ahead (the clock was set back while A worked): believed
    // while A's process runs.
    p.coordination().touch_session(&a, t.clock.now() + chrono::Duration::hours(2));
    denied(edit(&t, B, "src/a.rs"));
    // A's process has ended: beyond the tolerance the heartbeat is not
    // trusted, and the lease expires.
    let mut record = p.coordination().session(&a).unwrap().unwrap();
    // Above every system's largest process id: no process has it.
    record.pid = Some(0x7FFF_FFF0);
    p.coordination().save_session(&record).unwrap();
    let ToolVote::Context(said) = edit(&t, B, "src/a.rs") else { panic!("a wrong clock kept a lease") };
    assert!(said.contains("ahead of this clock and its process has ended"), "{said}");
}

#[test]
fn a_lease_file_that_cannot_be_read_or_a_crashed_sessions_lease_never_denies() {
    let t = Repo::new();
    start(&t, B);
    let p = project(&t);
    let path = phasegate_core::coordination::LeasePath::parse("src/a.rs").unwrap();
    std::fs::create_dir_all(p.coordination().leases_dir()).unwrap();
    std::fs::write(p.coordination().lease_file(&path, PathCase::native()), "{ torn").unwrap();
    assert_eq!(edit(&t, B, "src/a.rs"), ToolVote::Pass);
    assert_eq!(holder(&t, "src/a.rs").as_deref(), Some(B), "the broken file was replaced");
    // A lease whose session has no record at all (crashed before it registered).
    std::fs::write(
        p.coordination()
            .lease_file(&phasegate_core::coordination::LeasePath::parse("src/c.rs").unwrap(), PathCase::native()),
        json!({"path": "src/c.rs", "holder": "ghost", "acquired_at": "2026-11-22T09:00:00Z", "reason": "first-edit"})
            .to_string(),
    )
    .unwrap();
    let ToolVote::Context(said) = edit(&t, B, "src/c.rs") else { panic!() };
    assert!(said.contains("ghost has no session record"), "{said}");
}

const PARALLEL: &str = "## Phase 1 (parallel)\n\n- [ ] T1: Add the login endpoint [`files: src/auth.rs, src/session.rs`]\n- [ ] T2: Add the logout endpoint [`files: src/logout.rs`]\n- [ ] T3: Add the tests [`files: tests/auth_test.rs`] [`layer: tests`]\n";

fn parallel(t: &Repo) -> String {
    let f = t.feature("login", Mode::Standard);
    t.write(&Repo::in_feature(&f, "tasks.md"), PARALLEL);
    t.commit_all("tasks");
    f
}

#[test]
fn tasks_start_leases_the_tasks_files_for_its_session_and_complete_gives_them_back() {
    let t = Repo::new();
    let f = parallel(&t);
    let started = marks::mark(&t.env_as(A), Some(&f), "T1", MarkAction::Start, None).unwrap();
    let leased = started.leases.expect("a session leases");
    assert_eq!(leased.leased, ["src/auth.rs", "src/session.rs"]);
    assert_eq!(holder(&t, "src/session.rs").as_deref(), Some(A));
    let rec =
        project(&t).coordination().session(&phasegate_core::session::SessionId::parse(A).unwrap()).unwrap().unwrap();
    assert_eq!((rec.feature.as_deref(), rec.task.as_deref()), (Some(f.as_str()), Some("T1")));
    // B cannot edit A's task's files.
    start(&t, B);
    let reason = denied(edit(&t, B, "src/auth.rs"));
    assert!(reason.contains(&format!("working on {f}, task T1")), "{reason}");
    marks::mark(&t.env_as(A), Some(&f), "T1", MarkAction::Complete, None).unwrap();
    assert_eq!(holder(&t, "src/auth.rs"), None);
    // Without a session nothing is leased.
    let started = marks::mark(&t.env(), Some(&f), "T2", MarkAction::Start, None).unwrap();
    assert!(started.leases.is_none());
}

#[test]
fn tasks_start_is_refused_while_another_session_holds_one_of_its_files() {
    let t = Repo::new();
    let f = parallel(&t);
    start(&t, A);
    edit(&t, A, "src/session.rs");
    let r = refusal(marks::mark(&t.env_as(B), Some(&f), "T1", MarkAction::Start, None));
    let Refusal::FileLeased { task, message } = &r else { panic!("{r:?}") };
    assert_eq!(task, "T1");
    assert!(message.contains(&format!("src/session.rs is leased by session {A}")), "{message}");
    assert_eq!(holder(&t, "src/auth.rs"), None, "nothing of the refused start stays leased");
    assert!(t.read(&Repo::in_feature(&f, "tasks.md")).contains("- [ ] T1"), "not started");
}

#[test]
fn a_bash_write_to_another_sessions_file_is_told_after_the_fact() {
    let t = Repo::new();
    start(&t, A);
    start(&t, B);
    t.write("src/a.rs", "old\n");
    t.write("src/old.rs", "old\n");
    edit(&t, A, "src/a.rs");
    edit(&t, A, "src/old.rs");
    // src/old.rs changed long before this command; src/a.rs during it.
    let set = |rel: &str, at: chrono::DateTime<chrono::Utc>| {
        let f = std::fs::File::options().write(true).open(t.path(rel)).unwrap();
        f.set_modified(std::time::SystemTime::from(at)).unwrap();
    };
    set("src/old.rs", t.clock.now() - chrono::Duration::hours(1));
    set("src/a.rs", t.clock.now() - chrono::Duration::milliseconds(300));
    let mut i = input(&t, B, "PostToolUse");
    i.tool_name = Some("Bash".into());
    i.duration_ms = Some(1_000);
    let said = hooks::post_tool_use(&i, &t.env());
    assert!(said.contains(&format!("src/a.rs (leased by session {A})")), "{said}");
    assert!(!said.contains("src/old.rs"), "{said}");
    assert!(said.contains("cannot be refused before it runs"), "{said}");
    // The holder's own commands are not reported to it.
    let mut own = input(&t, A, "PostToolUse");
    own.tool_name = Some("Bash".into());
    own.duration_ms = Some(1_000);
    assert_eq!(hooks::post_tool_use(&own, &t.env()), "");
}

/// The task's session keeps its heartbeat while the clock runs.
fn alive_at(t: &Repo, minutes: i64, sessions: &[&str]) {
    t.clock.set(minutes);
    for s in sessions {
        prompt(t, s);
    }
}

#[test]
fn a_stuck_task_raises_one_alert_and_the_pm_watches_escalates_and_interrupts_at_19_21_and_31_minutes() {
    let t = Repo::new();
    let f = parallel(&t);
    start(&t, A);
    marks::mark(&t.env_as(A), Some(&f), "T1", MarkAction::Start, None).unwrap();
    let check = |t: &Repo| monitor::check(&t.env(), false).unwrap();

    alive_at(&t, 10, &[A]);
    let c = check(&t);
    assert!(c.alerts.is_empty() && c.decisions.is_empty(), "at exactly 10 minutes a task is not stuck");

    alive_at(&t, 19, &[A]);
    let c = check(&t);
    assert_eq!(c.alerts.len(), 1);
    assert_eq!(c.alerts[0].message, "Task T1 stuck for 19 min");
    assert_eq!(c.decisions.len(), 1);
    assert_eq!(c.decisions[0].decision.action, phasegate_core::coordination::PmAction::Watch);

    alive_at(&t, 21, &[A]);
    let c = check(&t);
    assert!(c.alerts.is_empty(), "no duplicate alert within 30 minutes");
    let d = &c.decisions[0];
    assert_eq!(d.decision.action, phasegate_core::coordination::PmAction::Escalate);
    let q = d.question.clone().expect("the person is asked");
    assert_eq!(q, format!("{f}.1"));
    let marker = t.json(&format!(".claude/suspended/{f}.json"));
    assert_eq!(marker["question"], format!("Task T1 stuck for 21 min. Skip or wait? ({f}: Add the login endpoint)"));
    let labels: Vec<&str> =
        marker["options"].as_array().unwrap().iter().map(|o| o["label"].as_str().unwrap()).collect();
    assert_eq!(labels, ["wait", "skip", "retry"]);
    assert!(events::pending(&t.env(), None).unwrap().events.iter().any(|e| e.event_type == "decision.requested"));

    alive_at(&t, 24, &[A]);
    let c = check(&t);
    assert!(c.decisions.is_empty(), "escalated once, and a WATCH is not due: {:?}", c.decisions);

    alive_at(&t, 31, &[A]);
    let c = check(&t);
    let d = &c.decisions[0];
    assert_eq!(d.decision.action, phasegate_core::coordination::PmAction::Interrupt);
    assert_eq!(d.decision.reason, "Task exceeded 30 minute timeout");
    assert!(t.read(&Repo::in_feature(&f, "tasks.md")).contains("- [-] T1"), "skipped");
    assert!(!t.exists(&format!(".claude/suspended/{f}.json")), "the escalation is withdrawn");
    let told = prompt(&t, A);
    assert!(told.contains("phasegate PM: stop working on T1"), "{told}");
    // The build continues with the next task.
    assert!(marks::next(&t.env(), Some(&f), 1).unwrap().ready.tasks.contains(&"T2".to_owned()));
    // Every decision is logged with its reason; status shows them.
    let logged = project(&t).coordination().decision_log().read::<serde_json::Value>().unwrap().records;
    let actions: Vec<&str> = logged.iter().map(|l| l["decision"]["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["WATCH", "ESCALATE", "INTERRUPT"]);
    assert!(logged.iter().all(|l| !l["decision"]["reason"].as_str().unwrap().is_empty()));
}

#[test]
fn a_person_who_chooses_wait_is_not_overruled_at_30_minutes() {
    let t = Repo::new();
    let f = parallel(&t);
    start(&t, A);
    marks::mark(&t.env_as(A), Some(&f), "T1", MarkAction::Start, None).unwrap();
    alive_at(&t, 21, &[A]);
    monitor::check(&t.env(), false).unwrap();
    phasegate_ops::questions::ask::answer(
        &t.env_person(),
        &format!("{f}.1"),
        "1",
        None,
        phasegate_core::questions::Source::Cli,
    )
    .unwrap();
    alive_at(&t, 23, &[A]);
    let c = monitor::check(&t.env(), false).unwrap();
    assert_eq!(c.decisions[0].chose, Some(phasegate_core::coordination::EscalationOption::Wait));
    assert!(!t.exists(&format!(".claude/suspended/{f}.json")), "the answer is taken in");
    alive_at(&t, 31, &[A]);
    let c = monitor::check(&t.env(), false).unwrap();
    assert_eq!(c.decisions[0].decision.action, phasegate_core::coordination::PmAction::Watch);
    assert!(t.read(&Repo::in_feature(&f, "tasks.md")).contains("- [~] T1"), "still running");
}

/// Friction: after the person answered, the PM's later lines still offered
/// the choices (`/phasegate:answer … wait|skip|retry`), and the `decision.requested`
/// that asked for the answer stayed pending for its hour.
#[test]
fn an_answered_escalations_line_still_offered_the_choices() {
    let t = Repo::new();
    let f = parallel(&t);
    start(&t, A);
    marks::mark(&t.env_as(A), Some(&f), "T1", MarkAction::Start, None).unwrap();
    alive_at(&t, 21, &[A]);
    let c = monitor::check(&t.env(), false).unwrap();
    let asked = c.decisions[0].line();
    assert!(asked.contains(&format!("(the user answers: `/phasegate:answer {f}.1 wait|skip|retry`)")), "{asked}");
    let requested = |t: &Repo| {
        events::pending(&t.env(), None).unwrap().events.iter().filter(|e| e.event_type == "decision.requested").count()
    };
    assert_eq!(requested(&t), 1);
    phasegate_ops::questions::ask::answer(
        &t.env_person(),
        &format!("{f}.1"),
        "wait",
        None,
        phasegate_core::questions::Source::Cli,
    )
    .unwrap();
    assert_eq!(requested(&t), 0, "the answer settles the event that asked for it");
    alive_at(&t, 23, &[A]);
    let c = monitor::check(&t.env(), false).unwrap();
    let line = c.decisions[0].line();
    assert!(line.contains("(the user chose wait)") && !line.contains("wait|skip|retry"), "{line}");
}

#[test]
fn a_tests_task_is_stuck_after_15_minutes_not_10() {
    let t = Repo::new();
    let f = parallel(&t);
    start(&t, A);
    marks::mark(&t.env_as(A), Some(&f), "T3", MarkAction::Start, None).unwrap();
    alive_at(&t, 15, &[A]);
    assert!(monitor::check(&t.env(), false).unwrap().alerts.is_empty());
    alive_at(&t, 16, &[A]);
    assert_eq!(monitor::check(&t.env(), false).unwrap().alerts[0].message, "Task T3 stuck for 16 min");
}

#[test]
fn a_deliberate_wait_cycle_is_reported_as_one_deadlock() {
    let t = Repo::new();
    start(&t, A);
    start(&t, B);
    edit(&t, A, "src/x.rs");
    edit(&t, B, "src/y.rs");
    denied(edit(&t, A, "src/y.rs"));
    denied(edit(&t, B, "src/x.rs"));
    let c = monitor::check(&t.env(), false).unwrap();
    let deadlocks: Vec<_> = c.alerts.iter().filter(|a| a.message.starts_with("Deadlock")).collect();
    assert_eq!(deadlocks.len(), 1);
    assert_eq!(deadlocks[0].message, format!("Deadlock detected: {A} -> {B} -> {A}"));
    assert_eq!(deadlocks[0].severity, phasegate_core::coordination::Severity::Critical);
    t.clock.advance(2);
    prompt(&t, A);
    prompt(&t, B);
    let again = monitor::check(&t.env(), false).unwrap();
    assert!(again.alerts.is_empty(), "reported once");
    assert_eq!(again.report.unwrap().deadlocks.len(), 1, "still there, not repeated");
}

#[test]
fn a_down_sessions_task_goes_to_the_least_loaded_live_session_once() {
    let t = Repo::new();
    let f = parallel(&t);
    for s in [A, B, C] {
        start(&t, s);
    }
    marks::mark(&t.env_as(A), Some(&f), "T1", MarkAction::Start, None).unwrap();
    marks::mark(&t.env_as(B), Some(&f), "T2", MarkAction::Start, None).unwrap();
    alive_at(&t, 6, &[B, C]);
    let c = monitor::check(&t.env(), false).unwrap();
    assert!(
        c.alerts
            .iter()
            .any(|a| a.message == format!("Session {A} stopped answering 6 min ago; it held task T1 of {f}")),
        "{:?}",
        c.alerts
    );
    let reassigned: Vec<_> =
        c.decisions.iter().filter(|d| d.decision.action == phasegate_core::coordination::PmAction::Reassign).collect();
    assert_eq!(reassigned.len(), 1);
    assert_eq!(
        reassigned[0].decision.target,
        phasegate_core::coordination::Target::Session(phasegate_core::session::SessionId::parse(C).unwrap()),
        "C has no task; B has one"
    );
    assert!(t.read(&Repo::in_feature(&f, "tasks.md")).contains("- [ ] T1"), "pending again");
    assert!(c.expired_leases.iter().any(|l| l.holder.as_str() == A));
    // The work.assigned event is offered to C only.
    assert!(!prompt(&t, B).contains("work.assigned"));
    let offered = prompt(&t, C);
    assert!(offered.contains(&format!("work.assigned for {f} (task T1)")), "{offered}");
    // Once: the down session's record is ERROR now.
    t.clock.advance(3);
    prompt(&t, B);
    prompt(&t, C);
    let again = monitor::check(&t.env(), false).unwrap();
    assert!(again.decisions.is_empty(), "{:?}", again.decisions);
}

#[test]
fn a_finished_features_build_completed_is_offered_once_and_acknowledged_with_one_command() {
    let t = Repo::new();
    let f = t.feature("login", Mode::Standard);
    t.prove(&f);
    phasegate_ops::feature::lifecycle::finish(&t.env(), Some(&f)).unwrap();
    let first = start(&t, A);
    assert!(first.contains(&format!("phasegate: e1: build.completed for {f}")), "{first}");
    assert!(first.contains("/phasegate:retro"), "{first}");
    assert!(!start(&t, B).contains("build.completed"), "offered to one session");
    assert!(!prompt(&t, A).contains("build.completed"), "once");
    let pending = events::pending(&t.env(), None).unwrap();
    assert_eq!(pending.events[0].offered_to.as_deref(), Some(A), "pending until acknowledged");
    let acked = events::ack(&t.env_as(A), &["e1".to_owned()]).unwrap();
    assert_eq!(acked.acknowledged, ["e1"]);
    assert!(events::pending(&t.env(), None).unwrap().events.is_empty());
    assert_eq!(events::ack(&t.env(), &["e1".to_owned()]).unwrap().not_pending, ["e1"]);
}

#[test]
fn an_event_offered_to_a_session_that_crashed_is_offered_again() {
    let t = Repo::new();
    let p = project(&t);
    events::emit(&p, &t.env(), "spec.approved", None, None, json!(null)).unwrap();
    assert!(start(&t, A).contains("spec.approved"));
    t.clock.advance(6);
    let again = start(&t, B);
    assert!(again.contains("e1: spec.approved: build it: run /phasegate:implement."), "{again}");
}

#[test]
fn a_corrupt_or_torn_event_line_is_reported_and_skipped_and_no_event_is_lost() {
    let t = Repo::new();
    let p = project(&t);
    // Events about a feature that exists (one about a feature that is gone settles).
    assert_eq!(t.feature("a", Mode::Standard), "001-a");
    events::emit(&p, &t.env(), "spec.approved", Some("001-a"), None, json!(null)).unwrap();
    let log = p.coordination().event_log().path;
    let mut text = std::fs::read_to_string(&log).unwrap();
    text.push_str("this is not an event\n{\"id\": \"e9\", \"type\": \"task.fa");
    std::fs::write(&log, text).unwrap();
    // The delivery state is lost too: rebuilt from the log.
    std::fs::remove_file(p.runtime_dir().join("events/delivery.json")).unwrap();
    events::emit(&p, &t.env(), "build.completed", Some("001-a"), None, json!(null)).unwrap();
    let pending = events::pending(&t.env(), None).unwrap();
    let ids: Vec<&str> = pending.events.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, ["e1", "e2"]);
    assert_eq!(pending.corrupt.len(), 2, "{:?}", pending.corrupt);
    assert!(pending.corrupt[0].starts_with("line 2:"), "{:?}", pending.corrupt);
    assert!(pending.corrupt[1].starts_with("line 3:"), "the torn line is kept and named: {:?}", pending.corrupt);
}

#[test]
fn a_users_route_silences_or_redirects_an_event() {
    let t = Repo::new();
    t.write(".phasegate/routing.config.json", r#"{"routes": {"conflict.*": "none", "build.completed": "pm"}}"#);
    let p = project(&t);
    events::emit(&p, &t.env(), "conflict.detected", None, None, json!(null)).unwrap();
    events::emit(&p, &t.env(), "build.completed", None, None, json!(null)).unwrap();
    let pending = events::pending(&t.env(), None).unwrap().events;
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].suggestion.as_ref().unwrap().command.as_deref(), Some("/phasegate:pm"));
}

#[test]
fn transitions_emit_their_events() {
    let t = Repo::new();
    let f = parallel(&t);
    marks::mark(&t.env(), Some(&f), "T1", MarkAction::Start, None).unwrap();
    phasegate_ops::tasks::build::fail(
        &t.env(),
        Some(&f),
        "T1",
        Some("error[E0425]: cannot find value"),
        None,
        false,
        phasegate_ops::questions::ask::Interaction::Headless,
    )
    .unwrap();
    phasegate_ops::feature::phase::complete(&t.env(), Some(&f), phasegate_core::Phase::Specify, Default::default())
        .unwrap();
    let types: Vec<String> =
        events::pending(&t.env(), None).unwrap().events.into_iter().map(|e| e.event_type).collect();
    assert_eq!(types, ["task.failed", "spec.approved"]);
}

#[test]
fn ideation_walks_every_sub_phase_and_hands_a_brief_to_specify() {
    use phasegate_core::coordination::{ArtifactType as T, IdeationPhase as P};
    use phasegate_ops::ideation::Signal;
    let t = Repo::new();
    let f = t.feature("habits", Mode::Standard);
    let env = t.env();
    let rec = |s: Signal<'_>| ideation::record(&env, Some(&f), s).unwrap();
    let advance = || ideation::advance(&env, Some(&f)).unwrap();
    assert!(matches!(
        refusal(ideation::record(&env, Some(&f), Signal::Risk { summary: "x" })),
        Refusal::IdeationNotStarted
    ));
    ideation::start(&env, Some(&f), "A habit tracker for night-shift nurses").unwrap();
    let p = ideation::prompt(&env, Some(&f)).unwrap();
    assert!(p.prompt.starts_with("Ask open-ended questions. Don't narrow too quickly."), "{}", p.prompt);
    assert!(p.prompt.contains("Ask 2-3 focused questions") && p.prompt.ends_with("Current confidence: 0%"));

    rec(Signal::Artifact { kind: T::TargetUser, summary: "night-shift nurses", confidence: 0.8 });
    rec(Signal::Artifact { kind: T::Problem, summary: "habits break on rotating shifts", confidence: 0.7 });
    let stay = advance();
    assert!(
        !stay.moved && stay.shown.message.to_string().contains("no solution-concept artifact yet"),
        "{}",
        stay.shown.message
    );
    // Regression: each sub-phase move took two calls; the signal that meets
    // the rule moves the phase on in the same call.
    let moved = rec(Signal::Artifact { kind: T::SolutionConcept, summary: "shift-aware reminders", confidence: 0.7 });
    assert_eq!(moved.phase, P::Narrowing);
    assert!(
        moved.message.to_string().starts_with("Recorded the solution-concept artifact. EXPLORING → NARROWING"),
        "{}",
        moved.message
    );
    let p = ideation::prompt(&env, Some(&f)).unwrap().prompt;
    assert!(p.contains("## What We Know So Far\n- target-user: night-shift nurses"), "{p}");

    rec(Signal::Artifact { kind: T::MvpFeatures, summary: "reminders, streaks", confidence: 0.3 });
    let stay = rec(Signal::Artifact { kind: T::Differentiator, summary: "knows the rota", confidence: 0.3 });
    assert_eq!(stay.phase, P::Narrowing, "average confidence 0.56 is not above 0.6");
    let moved =
        rec(Signal::Artifact { kind: T::MvpFeatures, summary: "reminders, streaks, rota import", confidence: 0.9 });
    assert_eq!(moved.phase, P::Validating);

    for v in ["nurses want it", "rotas are digital", "reminders help"] {
        assert_eq!(rec(Signal::Decision { kind: "validation", summary: v }).phase, P::Validating, "no risk yet");
    }
    assert_eq!(rec(Signal::Risk { summary: "hospitals block apps" }).phase, P::Refining);

    // Confidence alone does not complete it: the brief is what is left.
    let ready = rec(Signal::Confidence(0.8));
    assert_eq!(ready.phase, P::Refining);
    assert!(ready.next.reasons[0].contains("the brief alone completes ideation"), "{:?}", ready.next);
    let done =
        rec(Signal::Artifact { kind: T::Brief, summary: "Shift-aware habit reminders for nurses", confidence: 0.8 });
    assert_eq!(done.phase, P::Complete);
    assert!(done.message.to_string().contains(&format!("docs/features/{f}/handoff.md")), "{}", done.message);
    let shown = ideation::show(&env, Some(&f)).unwrap();
    assert_eq!(shown.phase, P::Complete);
    assert!(
        matches!(refusal(ideation::advance(&env, Some(&f))), Refusal::IdeationDone { .. }),
        "after COMPLETE nothing moves, as for every recording"
    );
    let handoff = t.read(&Repo::in_feature(&f, "handoff.md"));
    assert!(handoff.contains("| Brief | required | yes |"), "{handoff}");
    assert!(!handoff.contains("Missing (required)"), "{handoff}");
    assert!(handoff.contains("- Validated: nurses want it"), "{handoff}");
    let pending = events::pending(&t.env(), None).unwrap().events;
    assert_eq!(pending[0].event_type, "ideation.completed");
    assert_eq!(pending[0].suggestion.as_ref().unwrap().command, None, "waits for the user");
    assert!(matches!(refusal(ideation::record(&env, Some(&f), Signal::Confidence(0.9))), Refusal::IdeationDone { .. }));
    let history = t.json(&Repo::in_feature(&f, "ideation.json"))["history"].as_array().unwrap().len();
    assert_eq!(history, 4, "each move recorded with its reason");
}

#[test]
fn leases_are_shared_by_every_worktree_of_the_repository() {
    let t = Repo::new();
    let f = phasegate_ops::feature::lifecycle::create(
        &t.env(),
        "search",
        Mode::Standard,
        phasegate_core::feature::Workflow::Phased,
        true,
    )
    .unwrap()
    .name;
    let wt = t.path(&format!(".worktrees/{f}"));
    start(&t, A);
    edit(&t, A, "README.md");
    // B works in the feature's worktree and edits its copy of the same path.
    let mut i = input(&t, B, "PreToolUse");
    i.cwd = Some(wt.clone());
    i.tool_name = Some("Write".into());
    i.tool_input = Some(json!({"file_path": wt.join("README.md"), "content": "x"}));
    let reason = denied(hooks::pre_tool_use(&i, &t.env()));
    assert!(reason.contains(&format!("README.md is leased by session {A}")), "{reason}");
    let _ = leases::release(&t.env_as(A), None, None).unwrap();
    assert_eq!(hooks::pre_tool_use(&i, &t.env()), ToolVote::Pass);
}

#[test]
fn a_lease_that_cannot_be_checked_in_time_lets_the_edit_through_and_says_so() {
    let t = Repo::new();
    start(&t, A);
    let p = project(&t);
    let held = p.coordination().leases_lock(std::time::Duration::from_secs(1)).unwrap();
    let started = std::time::Instant::now();
    let ToolVote::Context(said) = edit(&t, A, "src/a.rs") else { panic!("a held lock must not deny or hang") };
    assert!(said.contains("the file lease could not be checked"), "{said}");
    assert!(started.elapsed() < std::time::Duration::from_secs(5), "the hook waited {:?}", started.elapsed());
    drop(held);
    assert_eq!(edit(&t, A, "src/a.rs"), ToolVote::Pass);
}
