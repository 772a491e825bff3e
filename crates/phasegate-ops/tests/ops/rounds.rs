//! The implementer round loop (`rounds start|prompt|record|answer|ask|check`)
//! and the answers it takes in: the orchestrator's, a person's, and a
//! default that applies at its expiry.

use phasegate_core::Phase;
use phasegate_core::questions::{AnsweredBy, RoundsError, Source};
use phasegate_core::{Mode, feature::StartMode};
use phasegate_ops::error::Refusal;
use phasegate_ops::feature::phase::{self, Target};
use phasegate_ops::questions::ask::{self, Interaction};
use phasegate_ops::questions::rounds;
use phasegate_ops::{Invalid, OpError};
use serde_json::json;

use crate::kit::{Repo, refusal, request, stamp};

const BRIEF: &str = "Write the spec of CSV export.";

fn question(q: &str) -> String {
    format!("STATUS: QUESTION\nQUESTION: {q}\nCONTEXT: the brief does not say\n")
}

fn setup() -> (Repo, String) {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    rounds::start(&t.env(), None, Phase::Specify, BRIEF, false).unwrap();
    (t, f)
}

fn record(t: &Repo, reply: &str) -> rounds::Recorded {
    rounds::record(&t.env(), None, Phase::Specify, reply, "reply.md").unwrap()
}

fn rounds_file(t: &Repo, f: &str) -> serde_json::Value {
    t.json(&Repo::in_feature(f, ".rounds.json"))
}

#[test]
fn a_complete_reply_writes_the_document_the_loop_was_briefed_for() {
    let (t, f) = setup();
    let p = rounds::prompt(&t.env(), None, Phase::Specify).unwrap();
    assert_eq!((p.round, p.max_rounds), (1, 3));
    assert!(p.prompt.contains(BRIEF) && p.prompt.contains("STATUS: COMPLETE"), "{}", p.prompt);
    let r = record(&t, "STATUS: COMPLETE\n---\n# Spec\n\nExport CSV.\n");
    assert_eq!((r.decision, r.round), ("complete", 1));
    assert_eq!(t.read(&Repo::in_feature(&f, "spec.md")), "# Spec\n\nExport CSV.\n");
    assert_eq!(rounds_file(&t, &f)["phases"]["specify"]["outcome"], "complete");
    assert!(matches!(rounds::prompt(&t.env(), None, Phase::Specify), Err(OpError::Rounds(RoundsError::Ended { .. }))));
}

#[test]
fn a_reply_off_the_protocol_records_nothing() {
    let (t, f) = setup();
    let e = rounds::record(&t.env(), None, Phase::Specify, "Here is the spec: ...", "reply.md").unwrap_err();
    assert!(matches!(e, OpError::Invalid(_)) && e.to_string().starts_with("reply.md:"), "{e}");
    assert_eq!(rounds_file(&t, &f)["phases"]["specify"]["rounds"], 0);
}

#[test]
fn the_orchestrators_answer_goes_into_the_next_prompt() {
    let (t, f) = setup();
    let r = record(&t, &question("Which delimiter?"));
    assert_eq!((r.decision, r.question), ("answer", Some((1, "Which delimiter?".to_owned()))));
    assert!(matches!(
        rounds::prompt(&t.env(), None, Phase::Specify),
        Err(OpError::Rounds(RoundsError::Unanswered { n: 1 }))
    ));
    t.clock.advance(2);
    let v = rounds::answer(&t.env(), None, Phase::Specify, "A comma").unwrap();
    assert_eq!((v.answered, v.pending), (1, None));
    let p = rounds::prompt(&t.env(), None, Phase::Specify).unwrap();
    assert_eq!(p.round, 2);
    assert!(p.prompt.contains("Q1: Which delimiter?\nA1: A comma"), "{}", p.prompt);
    let a = &rounds_file(&t, &f)["phases"]["specify"]["qa"][0]["answer"];
    assert_eq!((a["by"].as_str(), a["at"].as_str()), (Some("orchestrator"), Some(stamp(2).as_str())));
}

#[test]
fn a_persons_answer_is_taken_into_the_round_loop_by_the_next_prompt() {
    let (t, f) = setup();
    record(&t, &question("Which delimiter?"));
    let asked = rounds::ask(&t.env(), None, Phase::Specify, None, Interaction::Headless).unwrap();
    assert_eq!((asked.route.to_string().as_str(), asked.id.as_deref()), ("suspend", Some("001-x.1")));
    assert_eq!(rounds_file(&t, &f)["phases"]["specify"]["qa"][0]["questionId"], "001-x.1");
    let r = refusal(rounds::prompt(&t.env(), None, Phase::Specify));
    assert!(matches!(r, Refusal::Suspended { .. }), "{r:?}");
    t.clock.advance(90);
    ask::answer(&t.env(), "001-x.1", "Semicolons", None, Source::Cli).unwrap();
    t.clock.advance(1);
    let p = rounds::prompt(&t.env(), None, Phase::Specify).unwrap();
    assert_eq!(p.taken.len(), 1);
    assert!(p.prompt.contains("A1: Semicolons"), "{}", p.prompt);
    let a = &rounds_file(&t, &f)["phases"]["specify"]["qa"][0]["answer"];
    assert_eq!((a["by"].as_str(), a["at"].as_str()), (Some("human"), Some(stamp(91).as_str())));
    assert!(!t.exists(".claude/suspended/001-x.json"));
}

#[test]
fn phase_start_takes_a_persons_answer_into_the_round_loop_too() {
    let (t, f) = setup();
    record(&t, &question("Which delimiter?"));
    rounds::ask(&t.env(), None, Phase::Specify, None, Interaction::Headless).unwrap();
    ask::answer(&t.env(), &f, "Tabs", None, Source::Cli).unwrap();
    let s = phase::start(&t.env(), Target::Existing(None), Phase::Specify, StartMode::Continue).unwrap();
    assert_eq!((s.answers.len(), s.answers[0].round), (1, Some(1)));
    assert_eq!(rounds_file(&t, &f)["phases"]["specify"]["qa"][0]["answer"]["text"], "Tabs");
    let p = rounds::prompt(&t.env(), None, Phase::Specify).unwrap();
    assert!(p.taken.is_empty(), "taken once");
    assert!(p.prompt.contains("A1: Tabs"), "{}", p.prompt);
}

#[test]
fn a_non_blocking_round_question_takes_its_default_at_its_expiry() {
    let (t, f) = setup();
    record(&t, &question("Which delimiter?"));
    let q = request(json!({
        "type": "clarifying", "text": "Which delimiter?", "defaultOption": "comma", "expiresAfterMinutes": 15
    }));
    let asked = rounds::ask(&t.env(), None, Phase::Specify, Some(q), Interaction::Headless).unwrap();
    assert_eq!((asked.route.to_string().as_str(), asked.proceed_with.as_deref()), ("queue", Some("comma")));
    t.clock.set(14);
    assert!(matches!(
        rounds::prompt(&t.env(), None, Phase::Specify),
        Err(OpError::Rounds(RoundsError::Unanswered { n: 1 }))
    ));
    t.clock.set(15);
    let p = rounds::prompt(&t.env(), None, Phase::Specify).unwrap();
    assert_eq!((p.taken.len(), p.taken[0].by), (1, AnsweredBy::Default));
    assert!(p.prompt.contains("A1: comma"), "{}", p.prompt);
    let a = &rounds_file(&t, &f)["phases"]["specify"]["qa"][0]["answer"];
    assert_eq!((a["by"].as_str(), a["at"].as_str()), (Some("default"), Some(stamp(15).as_str())));
}

#[test]
fn the_round_cap_leaves_the_open_questions_for_the_document_to_list() {
    let (t, f) = setup();
    for q in ["Q one?", "Q two?"] {
        assert_eq!(record(&t, &question(q)).decision, "answer");
        rounds::answer(&t.env(), None, Phase::Specify, "yes").unwrap();
    }
    let r = record(&t, &question("Q three?"));
    assert_eq!((r.decision, r.open_questions.as_slice()), ("cap-reached", ["Q three?".to_owned()].as_slice()));
    let spec = Repo::in_feature(&f, "spec.md");
    assert!(matches!(refusal(rounds::check(&t.env(), None, Phase::Specify)), Refusal::NoArtifact { .. }));
    t.write(&spec, "# Spec\n\nBest effort.\n");
    assert!(matches!(refusal(rounds::check(&t.env(), None, Phase::Specify)), Refusal::OpenQuestionsMissing { .. }));
    t.write(&spec, "# Spec\n\n## Open Questions\n\n- Q three? (assumed: no)\n");
    assert_eq!(rounds::check(&t.env(), None, Phase::Specify).unwrap(), ["Q three?"]);
}

#[test]
fn a_phase_without_a_document_has_no_round_loop() {
    let t = Repo::new();
    t.feature("x", Mode::Standard);
    assert!(matches!(
        rounds::start(&t.env(), None, Phase::Implement, BRIEF, false),
        Err(OpError::Invalid(Invalid::NoRoundLoop { phase: Phase::Implement }))
    ));
    assert!(matches!(
        rounds::start(&t.env(), None, Phase::Specify, "  ", false),
        Err(OpError::Invalid(Invalid::EmptyBrief))
    ));
}
