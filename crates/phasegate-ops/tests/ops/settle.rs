//! State that must settle (issue "A day of real use stays quiet and
//! true"): sessions that end or vanish, waits, events and what they
//! suggest. Each test is named after the bug it pins.

use phasegate_core::coordination::{Presence, SessionState};
use phasegate_core::session::SessionId;
use phasegate_core::{Mode, Phase};
use phasegate_ops::coordination::effects::Effects;
use phasegate_ops::coordination::events;
use phasegate_ops::feature::{lifecycle, phase};
use phasegate_ops::hooks::{self, HookInput, ToolVote};
use phasegate_ops::oversight::{monitor, view};
use phasegate_store::Project;
use serde_json::json;

use crate::kit::Repo;

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

fn start(t: &Repo, session: &str) -> String {
    hooks::session_start(&input(t, session, "SessionStart"), &t.env(), None, None)
}

fn prompt(t: &Repo, session: &str) -> String {
    hooks::user_prompt(&input(t, session, "UserPromptSubmit"), &t.env())
}

fn edit(t: &Repo, session: &str, file: &str) -> ToolVote {
    let mut i = input(t, session, "PreToolUse");
    i.tool_name = Some("Write".into());
    i.tool_input = Some(json!({"file_path": file, "content": "x"}));
    hooks::pre_tool_use(&i, &t.env())
}

fn end(t: &Repo, session: &str) {
    hooks::session_end(&input(t, session, "SessionEnd"), &t.env());
}

fn project(t: &Repo) -> Project {
    Project::discover(t.root()).unwrap()
}

fn state(t: &Repo, session: &str) -> SessionState {
    project(t).coordination().session(&SessionId::parse(session).unwrap()).unwrap().unwrap().state
}

fn check(t: &Repo) -> monitor::Checked {
    monitor::check(&t.env(), false).unwrap()
}

fn pending_types(t: &Repo) -> Vec<String> {
    events::pending(&t.env(), None).unwrap().events.into_iter().map(|e| e.event_type).collect()
}

fn presence(t: &Repo, session: &str) -> Option<Presence> {
    view::overview(&t.env()).unwrap().sessions.into_iter().find(|s| s.id == session).map(|s| s.presence)
}

#[test]
fn a_session_that_ends_without_editing_a_file_stayed_loading_forever() {
    let t = Repo::new();
    start(&t, A);
    assert_eq!(state(&t, A), SessionState::Loading);
    end(&t, A);
    assert_eq!(state(&t, A), SessionState::Complete, "LOADING → ACTIVE → COMPLETE");
    t.clock.advance(6);
    let c = check(&t);
    assert!(c.alerts.is_empty() && c.decisions.is_empty(), "{:?} {:?}", c.alerts, c.decisions);
    let later = start(&t, B);
    assert!(!later.contains(A), "an ended session is not named: {later}");
    assert_eq!(presence(&t, A), Some(Presence::Ended));
    assert!(view::summary(&t.env()).unwrap().starts_with("Sessions: 1 live"), "B only");
    assert!(project(&t).coordination().hook_problems().read::<serde_json::Value>().unwrap().records.is_empty());
}

#[test]
fn a_session_that_vanished_holding_nothing_was_an_alert() {
    let t = Repo::new();
    start(&t, A);
    prompt(&t, A);
    // The terminal is closed: no SessionEnd.
    t.clock.advance(6);
    let c = check(&t);
    assert!(c.alerts.is_empty() && c.decisions.is_empty(), "{:?} {:?}", c.alerts, c.decisions);
    assert!(pending_types(&t).is_empty());
    let b = start(&t, B);
    assert!(!b.contains(A) && !b.contains("/phasegate:pm"), "{b}");
    // Listed as gone for a while, then no more.
    assert_eq!(presence(&t, A), Some(Presence::Gone));
    assert_eq!(state(&t, A), SessionState::Loading, "not failed: nothing was taken from it");
    t.clock.advance(61);
    prompt(&t, B);
    assert_eq!(presence(&t, A), None, "not named after an hour");
    // It comes back: nothing was lost, nothing to say.
    let back = prompt(&t, A);
    assert!(!back.contains("counted as down"), "{back}");
}

/// A day stays quiet, the last of it (issue 31): a session that vanished
/// after writing a notes file was raised as "Component <id> not
/// responding" as its lease expired, and the sessions at work were told to
/// run /phasegate:pm about it. Its lease now expires quietly (the file
/// stays where `git status` shows it); a session that vanished holding a
/// task is one alert that says what is at stake, in words, and once the PM
/// has given the task back no session is asked to run the PM about it.
#[test]
fn a_session_that_vanished_after_writing_a_notes_file_is_a_component_not_responding() {
    let t = Repo::new();
    start(&t, A);
    start(&t, B);
    let notes = t.path("notes/a.md").display().to_string();
    assert_eq!(edit(&t, A, &notes), ToolVote::Pass);
    t.write("notes/a.md", "written by a\n");
    t.clock.advance(6);
    prompt(&t, B);
    let c = check(&t);
    assert!(c.alerts.is_empty(), "{:?}", c.alerts);
    assert_eq!(c.expired_leases.len(), 1, "its lease went back");
    t.clock.advance(2);
    for told in [prompt(&t, B), start(&t, C)] {
        for quiet in ["/phasegate:pm", "omponent", "not responding", A] {
            assert!(!told.contains(quiet), "{quiet}: {told}");
        }
    }
    assert!(check(&t).alerts.is_empty());

    // One that held a task, and wrote its file: what is at stake, said once.
    let f = t.feature("search", phasegate_core::Mode::Quick);
    t.write(&Repo::in_feature(&f, "tasks.md"), "- [ ] T1: The index [`files: src/index.rs`]\n");
    let d = "session-d";
    start(&t, d);
    phasegate_ops::tasks::marks::mark(
        &t.env_as(d),
        Some(&f),
        "T1",
        phasegate_ops::tasks::marks::MarkAction::Start,
        None,
    )
    .unwrap();
    assert_eq!(edit(&t, d, &t.path("src/index.rs").display().to_string()), ToolVote::Pass);
    t.write("src/index.rs", "fn index() {}\n");
    t.clock.advance(6);
    prompt(&t, B);
    prompt(&t, C);
    let c = check(&t);
    let messages: Vec<&str> = c.alerts.iter().map(|a| a.message.as_str()).collect();
    assert_eq!(
        messages,
        [format!(
            "Session {d} stopped answering 6 min ago; it held task T1 of {f}; src/index.rs, which it wrote, is not committed"
        )]
    );
    assert_eq!(state(&t, d), SessionState::Error, "the PM has given its task back");
    for told in [prompt(&t, B), prompt(&t, C), start(&t, "session-e")] {
        assert!(!told.contains("/phasegate:pm") && !told.contains("omponent"), "{told}");
    }
    t.clock.advance(3);
    assert!(check(&t).alerts.is_empty(), "one alert");
}

#[test]
fn waits_outlived_their_lease() {
    let t = Repo::new();
    start(&t, A);
    start(&t, B);
    let file = t.path("src/a.rs").display().to_string();
    edit(&t, A, &file);
    assert!(matches!(edit(&t, B, &file), ToolVote::Deny(_)));
    assert_eq!(view::overview(&t.env()).unwrap().waits.len(), 1);
    end(&t, A);
    let o = view::overview(&t.env()).unwrap();
    assert!(o.waits.is_empty() && o.leases.is_empty(), "{:?}", o.waits);
    assert!(project(&t).coordination().waits().unwrap().0.is_empty(), "the wait files went with the lease");
    // A lease given back by hand takes its waits with it too.
    edit(&t, B, &file);
    start(&t, C);
    assert!(matches!(edit(&t, C, &file), ToolVote::Deny(_)));
    phasegate_ops::coordination::leases::release(&t.env_as(B), Some("src/a.rs"), None).unwrap();
    assert!(project(&t).coordination().waits().unwrap().0.is_empty());
}

#[test]
fn completed_sessions_were_listed_live() {
    let t = Repo::new();
    start(&t, A);
    end(&t, A);
    let o = view::overview(&t.env()).unwrap();
    let a = o.sessions.iter().find(|s| s.id == A).unwrap();
    assert_eq!(a.presence, Presence::Ended);
    assert!(view::summary(&t.env()).is_none(), "nothing live, nothing pending: no line");
}

#[test]
fn events_of_a_finished_feature_stayed_pending_forever() {
    let t = Repo::new();
    let f = t.feature("search", Mode::Standard);
    let g = t.feature("billing", Mode::Standard);
    for feature in [&f, &g] {
        phase::complete(&t.env(), Some(feature), Phase::Specify, Default::default()).unwrap();
    }
    assert_eq!(pending_types(&t), ["spec.approved", "spec.approved"]);
    // The phase it suggests is started: settled by the binary that saw it.
    phase::start(&t.env(), phase::Target::Existing(Some(&f)), Phase::Design, Default::default()).unwrap();
    let left = events::pending(&t.env(), None).unwrap().events;
    assert_eq!(left.iter().map(|e| e.feature.clone().unwrap()).collect::<Vec<_>>(), std::slice::from_ref(&g));
    // Abandoned: nothing of it is actionable any more.
    lifecycle::abandon(&t.env(), Some(&g)).unwrap();
    assert!(pending_types(&t).is_empty());
    // Finished: its retrospective is still to run; the rest expires.
    t.prove(&f);
    lifecycle::finish(&t.env(), Some(&f)).unwrap();
    assert_eq!(pending_types(&t), ["build.completed"]);
    t.clock.advance(7 * 24 * 60);
    assert!(pending_types(&t).is_empty(), "a retrospective's event expires after 7 days");
    let acks = project(&t).coordination().event_acks().read::<serde_json::Value>().unwrap().records;
    let by: Vec<&str> = acks.iter().filter_map(|a| a["by"].as_str()).collect();
    assert!(by.contains(&"phasegate (step-taken)") && by.contains(&"phasegate (expired)"), "{by:?}");
}

#[test]
fn an_events_suggestion_contradicted_the_features_next_step() {
    let t = Repo::new();
    let f = t.feature("search", Mode::Standard);
    phase::complete(&t.env_as(A), Some(&f), Phase::Specify, Default::default()).unwrap();
    let context = start(&t, B);
    assert!(context.contains("Next: /phasegate:design"), "{context}");
    assert!(
        context.contains(&format!("spec.approved for {f}: specify is complete; next: run /phasegate:design.")),
        "{context}"
    );
    assert!(!context.contains("/phasegate:implement"), "{context}");
}

#[test]
fn an_event_was_offered_back_to_the_session_that_emitted_it() {
    let t = Repo::new();
    let f = t.feature("search", Mode::Standard);
    start(&t, A);
    phase::complete(&t.env_as(A), Some(&f), Phase::Specify, Default::default()).unwrap();
    assert!(!prompt(&t, A).contains("spec.approved"), "A's own command said so already");
    assert!(start(&t, B).contains("spec.approved"));
}

#[test]
fn event_lines_dropped_their_payload() {
    let t = Repo::new();
    start(&t, A);
    start(&t, B);
    let file = t.path("src/a.rs").display().to_string();
    edit(&t, A, &file);
    assert!(matches!(edit(&t, B, &file), ToolVote::Deny(_)));
    let told = start(&t, C);
    assert!(
        told.contains(&format!("conflict.detected: session {B} asked for src/a.rs, leased by session {A} (DENY)")),
        "{told}"
    );
    // Settled once the lease went back.
    end(&t, A);
    t.clock.advance(2);
    check(&t);
    assert!(!pending_types(&t).contains(&"conflict.detected".to_owned()));
}

/// Bug (issue 32): a transition's event went on the side, its result
/// dropped with `let _`, so an event log that could not be written lost
/// `spec.approved` in silence. The step's effects now say what failed, in
/// the outcome and in the problems log `status` reports, and the phase is
/// completed all the same.
#[test]
fn a_transitions_event_that_cannot_be_written_is_in_its_outcome_and_the_problems_log() {
    let t = Repo::new();
    let f = t.feature("auth", Mode::Standard);
    let p = Project::discover(t.root()).unwrap();
    // A folder where the event log belongs: no event can be appended.
    std::fs::create_dir_all(p.runtime_dir().join("events/log.jsonl")).unwrap();
    let done = phase::complete(&t.env(), Some(&f), Phase::Specify, Default::default()).unwrap();
    assert!(done.record.completed.is_some(), "{done:?}");
    assert_eq!(done.problems.len(), 1, "{done:?}");
    assert!(done.problems[0].starts_with("phase complete: its events were not all recorded"), "{done:?}");
    let logged = std::fs::read_to_string(p.runtime_dir().join("hooks/problems.jsonl")).unwrap();
    assert!(logged.contains("\"hook\":\"effects\"") && logged.contains("phase complete"), "{logged}");
    assert!(view_problems(&t).contains("phase complete"), "status names it");
}

fn view_problems(t: &Repo) -> String {
    view::summary(&t.env()).unwrap_or_default()
}

/// Bug (issue 32): finding the feature a command is about wrote a cost
/// note under its own lock before the verb decided anything. `find` writes
/// nothing; a phase start notes the session's turn among its effects, after
/// its own change.
#[test]
fn finding_the_feature_writes_nothing_and_a_start_notes_the_turn_as_an_effect() {
    let t = Repo::new();
    let f = t.feature("auth", Mode::Standard);
    let p = Project::discover(t.root()).unwrap();
    let id = SessionId::parse(A).unwrap();
    phasegate_ops::session::find(&t.env_as(A), Some(&f)).unwrap();
    assert!(p.cost().session(&id).unwrap().is_none(), "a lookup wrote the session's cost log");
    let started =
        phase::start(&t.env_as(A), phase::Target::Existing(Some(&f)), Phase::Brainstorm, Default::default()).unwrap();
    assert!(started.problems.is_empty(), "{started:?}");
    let turns = p.cost().session(&id).unwrap().unwrap().turns;
    assert_eq!(turns.iter().map(|t| t.feature.as_str()).collect::<Vec<_>>(), [f.as_str()]);
}

/// Bug (issue 32): `emit_quietly` swallowed a failure, so the monitor's
/// alerts and the PM's questions could vanish from the event log with no
/// trace. Every event is now an effect, and a failure is in the problems
/// log `status` reports.
#[test]
fn an_event_raised_quietly_that_cannot_be_written_leaves_a_problem() {
    let t = Repo::new();
    let p = Project::discover(t.root()).unwrap();
    std::fs::create_dir_all(p.runtime_dir().join("events/log.jsonl")).unwrap();
    let applied = Effects::of("monitor").raise("alert.deadlock", None, None, json!(null)).run(&p, &t.env());
    assert!(applied.raised.is_empty() && applied.events_failed.is_some(), "{applied:?}");
    let logged = std::fs::read_to_string(p.runtime_dir().join("hooks/problems.jsonl")).unwrap();
    assert!(
        logged.contains("\"hook\":\"effects\"") && logged.contains("monitor: its events were not all recorded"),
        "{logged}"
    );
}
