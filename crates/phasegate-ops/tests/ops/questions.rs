//! Questions to a person: where `ask` routes them, answering, a
//! non-blocking question's default at its expiry, a blocking question that
//! becomes overdue and never answers itself, the Slack poll's defaults and
//! reminders, and preferences. Every time-based rule is driven by the clock.

use std::cell::RefCell;
use std::time::Duration;

use phasegate_core::feature::{StartMode, Workflow};
use phasegate_core::questions::{AnsweredBy, ItemType, Request, Source};
use phasegate_core::{Mode, Phase};
use phasegate_ops::error::Refusal;
use phasegate_ops::feature::phase::{self, Target};
use phasegate_ops::questions::ask::{self, AskInput, Asked, Interaction};
use phasegate_ops::questions::poll::{self, Messenger, PostError, ThreadMessage};
use phasegate_ops::{Invalid, OpError};
use serde_json::json;

use crate::kit::{Repo, refusal, request, stamp};

pub fn blocking(text: &str) -> Request {
    request(json!({"type": "blocking", "text": text}))
}

/// A non-blocking question with options A and B, default A, expiring after `minutes`.
pub fn clarifying(text: &str, minutes: u64) -> Request {
    request(json!({
        "type": "clarifying", "text": text, "options": [{"label": "A"}, {"label": "B"}],
        "defaultOption": "A", "expiresAfterMinutes": minutes
    }))
}

pub fn ask_as(t: &Repo, feature: &str, request: Request, session: Interaction) -> phasegate_ops::OpResult<Asked> {
    ask::ask(
        &t.env(),
        Some(feature),
        AskInput { request, task: None, item_type: ItemType::Feature, session, round: None },
    )
}

fn headless(t: &Repo, feature: &str, request: Request) -> Asked {
    ask_as(t, feature, request, Interaction::Headless).unwrap()
}

/// The state `question list` shows for `id` now.
fn state(t: &Repo, id: &str) -> &'static str {
    let (views, bad) = ask::list(&t.env(), false).unwrap();
    assert!(bad.is_empty(), "{bad:?}");
    views.iter().find(|v| v.id == id).unwrap_or_else(|| panic!("no question {id}")).state.name()
}

/// `phase start` on the feature: the command that takes arrived answers in.
fn phase_start(t: &Repo, feature: &str) -> phasegate_ops::OpResult<phase::Started> {
    phase::start(&t.env(), Target::Existing(Some(feature)), Phase::Brainstorm, StartMode::Continue)
}

#[test]
fn an_interactive_session_asks_the_user_now() {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    let a = ask_as(&t, &f, blocking("Which database?"), Interaction::Interactive).unwrap();
    assert_eq!((a.route.to_string().as_str(), a.id.as_deref()), ("ask-user", Some("001-x.1")));
    assert_eq!(a.ask_user_question.unwrap()["questions"][0]["question"], "Which database?");
    assert!(t.exists(".claude/questions/001-x.1.json"));
    assert!(!t.exists(".claude/suspended/001-x.json"), "nothing is suspended");
    phase_start(&t, &f).unwrap();
}

#[test]
fn a_headless_blocking_question_suspends_the_feature_one_question_at_a_time() {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    let a = headless(&t, &f, blocking("Which database?"));
    assert_eq!((a.route.to_string().as_str(), a.id.as_deref()), ("suspend", Some("001-x.1")));
    let marker = t.json(".claude/suspended/001-x.json");
    assert_eq!(
        (marker["question"].as_str(), marker["suspended_at"].as_str()),
        (Some("Which database?"), Some(stamp(0).as_str()))
    );
    let r = refusal(phase_start(&t, &f));
    assert!(matches!(&r, Refusal::Suspended { id, .. } if id == "001-x.1"), "{r:?}");
    // The same question again is not asked twice; another one is refused.
    assert_eq!(headless(&t, &f, blocking("which database")).route.to_string(), "already-asked");
    let r = refusal(ask_as(&t, &f, blocking("Which port?"), Interaction::Headless));
    assert!(matches!(r, Refusal::AlreadySuspended { .. }), "{r:?}");
}

#[test]
fn a_headless_non_blocking_question_is_queued_and_work_goes_on_with_its_default() {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    let a = headless(&t, &f, clarifying("Which format?", 30));
    assert_eq!((a.route.to_string().as_str(), a.proceed_with.as_deref()), ("queue", Some("A")));
    assert!(t.exists(".claude/questions/001-x.1.json"));
    assert!(!t.exists(".claude/suspended/001-x.json"));
    phase_start(&t, &f).unwrap();
}

#[test]
fn routing_park_never_asks_in_the_session() {
    let t = Repo::new();
    t.write(".phasegate/questions.config.json", r#"{"routing": "park"}"#);
    let f = t.feature("x", Mode::Standard);
    assert_eq!(
        ask_as(&t, &f, clarifying("Which format?", 30), Interaction::Interactive).unwrap().route.to_string(),
        "queue"
    );
    assert_eq!(
        ask_as(&t, &f, blocking("Which database?"), Interaction::Interactive).unwrap().route.to_string(),
        "suspend"
    );
}

#[test]
fn a_pipeline_asks_as_a_headless_session_whatever_the_session_is() {
    let t = Repo::new();
    let f = phasegate_ops::feature::lifecycle::create(&t.env(), "auth", Mode::Standard, Workflow::Pipeline, false)
        .unwrap()
        .name;
    assert_eq!(
        ask_as(&t, &f, blocking("Which database?"), Interaction::Interactive).unwrap().route.to_string(),
        "suspend"
    );
}

#[test]
fn a_feature_that_is_not_active_asks_no_more() {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    phasegate_ops::feature::lifecycle::abandon(&t.env(), None).unwrap();
    assert!(matches!(refusal(ask_as(&t, &f, blocking("Why?"), Interaction::Headless)), Refusal::AsksNoMore { .. }));
    assert!(!t.exists(".claude"));
}

#[test]
fn an_answer_resumes_the_feature_once_and_phase_start_takes_it_in() {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    headless(&t, &f, blocking("Which database?"));
    t.clock.advance(7);
    // By the feature's name: its suspension.
    let a = ask::answer(&t.env(), &f, "Postgres", Some("ann"), Source::Cli).unwrap();
    assert_eq!((a.id.as_str(), a.answer.as_str(), a.resumes, a.remembered), ("001-x.1", "Postgres", true, false));
    let marker = t.json(".claude/suspended/001-x.json");
    assert_eq!(
        (marker["answer"]["by"].as_str(), marker["answer"]["at"].as_str()),
        (Some("human"), Some(stamp(7).as_str()))
    );
    let r = refusal(ask::answer(&t.env(), "001-x.1", "MySQL", None, Source::Cli));
    assert!(matches!(r, Refusal::AlreadyAnswered { .. }), "{r:?}");
    // An answer waiting to be taken in: no new suspension yet.
    let r = refusal(ask_as(&t, &f, blocking("Which port?"), Interaction::Headless));
    assert!(matches!(r, Refusal::AnswerWaiting { .. }), "{r:?}");
    t.clock.advance(1);
    let s = phase_start(&t, &f).unwrap();
    assert_eq!(s.answers.len(), 1);
    assert_eq!((s.answers[0].answer.as_str(), s.answers[0].by), ("Postgres", AnsweredBy::Human));
    assert!(!t.exists(".claude/suspended/001-x.json"), "no longer suspended");
    let archived = t.json(".claude/questions/001-x.1.json");
    assert_eq!(archived["takenAt"], stamp(8));
    // Taken in once; the next question gets the next number.
    assert!(phase_start(&t, &f).unwrap().answers.is_empty());
    assert_eq!(headless(&t, &f, blocking("Which port?")).id.as_deref(), Some("001-x.2"));
}

#[test]
fn an_answer_picks_an_option_by_number_or_label_and_refuses_anything_else_when_free_text_is_off() {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    let q = request(json!({
        "type": "blocking", "text": "Which store?", "allowFreeText": false,
        "options": [{"label": "Postgres"}, {"label": "SQLite"}]
    }));
    headless(&t, &f, q);
    let e = ask::answer(&t.env(), "001-x.1", "Oracle", None, Source::Cli).unwrap_err();
    assert!(
        matches!(e, OpError::Invalid(Invalid::NoOption { .. })) && e.to_string().contains("1 Postgres, 2 SQLite"),
        "{e}"
    );
    assert!(t.json(".claude/suspended/001-x.json").get("answer").is_none(), "nothing recorded");
    let a = ask::answer(&t.env(), "001-x.1", "2", None, Source::Cli).unwrap();
    assert_eq!((a.answer.as_str(), a.option.as_deref()), ("SQLite", Some("SQLite")));
}

/// The rule: a non-blocking question waits until `expiresAfterMinutes`
/// after it was asked, and from that moment its default is its answer.
#[test]
fn a_non_blocking_questions_default_applies_exactly_at_its_expiry() {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    headless(&t, &f, clarifying("Which format?", 30));
    t.clock.set(29);
    assert_eq!(state(&t, "001-x.1"), "waiting");
    assert!(phase_start(&t, &f).unwrap().answers.is_empty(), "no default before the expiry");
    t.clock.advance_secs(59);
    assert_eq!(state(&t, "001-x.1"), "waiting", "29:59 is still before");
    assert!(phase_start(&t, &f).unwrap().answers.is_empty());
    assert!(t.json(".claude/questions/001-x.1.json").get("answer").is_none());
    t.clock.set(30);
    assert_eq!(state(&t, "001-x.1"), "expired");
    let s = phase_start(&t, &f).unwrap();
    assert_eq!(s.answers.len(), 1);
    assert_eq!((s.answers[0].answer.as_str(), s.answers[0].by), ("A", AnsweredBy::Default));
    let q = t.json(".claude/questions/001-x.1.json");
    assert_eq!(q["answer"]["source"], "expiry");
    assert_eq!(
        (q["answer"]["at"].as_str(), q["takenAt"].as_str()),
        (Some(stamp(30).as_str()), Some(stamp(30).as_str()))
    );
    assert_eq!(state(&t, "001-x.1"), "answered");
}

#[test]
fn a_default_long_past_its_expiry_still_applies_and_answers_with_the_time_it_was_taken() {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    headless(&t, &f, clarifying("Which format?", 30));
    t.clock.set(24 * 60);
    assert_eq!(state(&t, "001-x.1"), "expired");
    let s = phase_start(&t, &f).unwrap();
    assert_eq!(s.answers[0].answer, "A");
    assert_eq!(t.json(".claude/questions/001-x.1.json")["answer"]["at"], stamp(24 * 60));
}

/// The rule: a blocking question becomes overdue at `reminderAfterMinutes`
/// and waits for a person however long it takes; it never answers itself.
#[test]
fn a_blocking_question_becomes_overdue_at_its_reminder_time_and_never_answers_itself() {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    headless(&t, &f, request(json!({"type": "blocking", "text": "Which database?", "reminderAfterMinutes": 60})));
    t.clock.set(59);
    assert_eq!(state(&t, "001-x.1"), "waiting");
    t.clock.set(60);
    assert_eq!(state(&t, "001-x.1"), "overdue");
    for minutes in [60, 61, 24 * 60, 365 * 24 * 60] {
        t.clock.set(minutes);
        assert_eq!(state(&t, "001-x.1"), "overdue", "at {minutes}");
        assert!(matches!(refusal(phase_start(&t, &f)), Refusal::Suspended { .. }), "at {minutes}");
        let report = poll::poll(&t.env(), None, None, Duration::from_secs(5)).unwrap();
        assert!(report.defaulted.is_empty(), "at {minutes}: {report:?}");
        assert_eq!(report.local, 1, "it waits for `question answer`");
        let pending = phasegate_ops::oversight::view::overview(&t.env()).unwrap().suspended;
        assert_eq!(
            pending.iter().map(|q| (q.id.as_str(), q.state.name())).collect::<Vec<_>>(),
            [("001-x.1", "overdue")],
            "`watch` and the report still show it at {minutes}"
        );
    }
    assert!(t.json(".claude/suspended/001-x.json").get("answer").is_none());
    let b = phasegate_ops::feature::backlog::backlog(&t.env()).unwrap();
    assert_eq!((b.suspended.len(), b.suspended[0].state), (1, "overdue"));
}

#[test]
fn the_default_reminder_and_expiry_are_the_configured_timeout() {
    let t = Repo::new();
    t.write(".phasegate/questions.config.json", r#"{"timeoutMinutes": 45}"#);
    let f = t.feature("x", Mode::Standard);
    let g = t.feature("y", Mode::Standard);
    headless(&t, &f, blocking("Which database?"));
    headless(&t, &g, request(json!({"type": "clarifying", "text": "Which format?", "defaultOption": "csv"})));
    t.clock.set(44);
    assert_eq!((state(&t, "001-x.1"), state(&t, "002-y.1")), ("waiting", "waiting"));
    t.clock.set(45);
    assert_eq!((state(&t, "001-x.1"), state(&t, "002-y.1")), ("overdue", "expired"));
}

/// A Slack transport that records what is posted and answers every thread
/// with its parent message only (nobody replies).
#[derive(Default)]
struct Silent {
    posts: RefCell<Vec<(String, String, Option<String>)>>,
}

impl Messenger for Silent {
    fn post(&self, channel: &str, text: &str, thread_ts: Option<&str>) -> Result<(String, String), PostError> {
        let mut posts = self.posts.borrow_mut();
        posts.push((channel.to_owned(), text.to_owned(), thread_ts.map(str::to_owned)));
        Ok((channel.to_owned(), format!("1700000000.{:06}", posts.len())))
    }

    fn replies(&self, _channel: &str, ts: &str) -> Result<Vec<ThreadMessage>, String> {
        Ok(vec![ThreadMessage {
            ts: ts.to_owned(),
            user: None,
            text: "question".into(),
            from_person: false,
            own: true,
        }])
    }

    fn recent(&self, _channel: &str) -> Result<Vec<ThreadMessage>, String> {
        Ok(Vec::new())
    }
}

impl Silent {
    fn reminders(&self) -> usize {
        self.posts
            .borrow()
            .iter()
            .filter(|(_, text, thread)| thread.is_some() && text.contains("Still waiting"))
            .count()
    }
}

#[test]
fn the_slack_poll_reminds_once_at_the_reminder_time_and_applies_a_default_at_the_expiry() {
    let t = Repo::new();
    t.write(".phasegate/questions.config.json", r#"{"slack": {"channels": {"feature": "C0123ABC"}}}"#);
    let f = t.feature("x", Mode::Standard);
    let g = t.feature("y", Mode::Standard);
    headless(&t, &f, request(json!({"type": "blocking", "text": "Which database?", "reminderAfterMinutes": 60})));
    headless(&t, &g, clarifying("Which format?", 30));
    let slack = Silent::default();
    let pass = |minutes: i64| {
        t.clock.set(minutes);
        poll::poll(&t.env(), Some(&slack), None, Duration::from_secs(5)).unwrap()
    };
    let r = pass(0);
    assert_eq!(r.posted, ["001-x.1", "002-y.1"]);
    let r = pass(29);
    assert!(r.defaulted.is_empty() && r.reminded.is_empty(), "{r:?}");
    let r = pass(30);
    assert_eq!(r.defaulted, ["002-y.1"]);
    assert_eq!(t.json(".claude/questions/002-y.1.json")["answer"]["at"], stamp(30));
    let r = pass(59);
    assert!(r.reminded.is_empty(), "{r:?}");
    assert_eq!(slack.reminders(), 0);
    let r = pass(60);
    assert_eq!(r.reminded, ["001-x.1"]);
    assert_eq!(t.json(".claude/suspended/001-x.json")["delivery"]["remindedAt"], stamp(60));
    for minutes in [61, 24 * 60, 30 * 24 * 60] {
        let r = pass(minutes);
        assert!(r.reminded.is_empty() && r.defaulted.is_empty(), "at {minutes}: {r:?}");
        assert_eq!(r.waiting, 1, "at {minutes}");
    }
    assert_eq!(slack.reminders(), 1, "one reminder, ever");
    assert!(t.json(".claude/suspended/001-x.json").get("answer").is_none(), "it never answers itself");
}

#[test]
fn a_persons_answer_to_a_preference_question_answers_the_next_one_without_asking() {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    let g = t.feature("y", Mode::Standard);
    let pref = |text: &str| {
        request(json!({"type": "preference", "text": text, "defaultOption": "spaces", "tags": ["indent-style"]}))
    };
    assert_eq!(headless(&t, &f, pref("Tabs or spaces?")).route.to_string(), "queue");
    t.clock.advance(2);
    let a = ask::answer(&t.env(), "001-x.1", "tabs", None, Source::Cli).unwrap();
    assert!(a.remembered);
    let prefs = t.json(".phasegate/preferences.json");
    assert_eq!(
        (prefs["indent-style"]["answer"].as_str(), prefs["indent-style"]["at"].as_str()),
        (Some("tabs"), Some(stamp(2).as_str()))
    );
    let again = headless(&t, &g, pref("How should the new module be indented?"));
    assert_eq!((again.route.to_string().as_str(), again.answer.as_deref(), again.id), ("answered", Some("tabs"), None));
    assert!(!t.exists(".claude/questions/002-y.1.json"), "not asked");
}

#[test]
fn a_preference_questions_expired_default_teaches_no_preference() {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    let pref = request(json!({
        "type": "preference", "text": "Tabs or spaces?", "defaultOption": "spaces",
        "tags": ["indent-style"], "expiresAfterMinutes": 10
    }));
    headless(&t, &f, pref.clone());
    t.clock.set(10);
    assert_eq!(phase_start(&t, &f).unwrap().answers[0].answer, "spaces");
    assert!(!t.exists(".phasegate/preferences.json"));
    let g = t.feature("y", Mode::Standard);
    assert_eq!(headless(&t, &g, pref).route.to_string(), "queue", "asked again: nobody chose");
}
