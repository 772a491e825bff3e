//! The backlog runner's order and `status`: where every feature stands,
//! what comes next, and which ones wait for a person.

use phasegate_core::feature::{Completion, StartMode, Suggested};
use phasegate_core::questions::Source;
use phasegate_core::{Mode, Phase};
use phasegate_ops::feature::phase::{self, Target};
use phasegate_ops::feature::{backlog, lifecycle, review, status};
use phasegate_ops::questions::ask::{self, Interaction};

use crate::kit::{Repo, verdict};
use crate::questions::{ask_as, blocking, clarifying};

fn start(t: &Repo, f: &str, p: Phase) {
    phase::start(&t.env(), Target::Existing(Some(f)), p, StartMode::Continue).unwrap();
}

#[test]
fn the_backlog_takes_an_arrived_answer_first_skips_suspended_features_and_leaves_out_finished_ones() {
    let t = Repo::new();
    let a = t.feature("alpha", Mode::Standard);
    let b = t.feature("beta", Mode::Standard);
    let c = t.feature("gamma", Mode::Standard);
    let d = t.feature("delta", Mode::Standard);
    let e = t.feature("epsilon", Mode::Standard);
    start(&t, &a, Phase::Brainstorm);
    ask_as(&t, &b, blocking("Which database?"), Interaction::Headless).unwrap();
    ask_as(&t, &c, blocking("Which port?"), Interaction::Headless).unwrap();
    ask::answer(&t.env(), &c, "8080", None, Source::Cli).unwrap();
    lifecycle::abandon(&t.env(), Some(&d)).unwrap();
    ask_as(&t, &e, clarifying("Which format?", 30), Interaction::Headless).unwrap();
    let log = backlog::backlog(&t.env()).unwrap();
    let ready: Vec<(&str, bool)> = log.ready.iter().map(|r| (r.feature.as_str(), r.answer_arrived)).collect();
    assert_eq!(ready, [(c.as_str(), true), (a.as_str(), false), (e.as_str(), false)], "{log:#?}");
    assert_eq!(log.next.as_ref().map(|n| n.feature.as_str()), Some(c.as_str()));
    assert_eq!(log.ready[1].command.as_ref().map(|c| c.to_string()).as_deref(), Some("/phasegate:brainstorm"));
    let waiting: Vec<(&str, &str, &str)> =
        log.suspended.iter().map(|w| (w.feature.as_str(), w.question_id.as_str(), w.state)).collect();
    assert_eq!(waiting, [(b.as_str(), format!("{b}.1").as_str(), "waiting")]);
    assert!(log.unreadable.is_empty());
}

#[test]
fn the_backlog_shows_a_suspension_overdue_on_the_clock() {
    let t = Repo::new();
    t.write(".phasegate/questions.config.json", r#"{"timeoutMinutes": 20}"#);
    let f = t.feature("x", Mode::Standard);
    ask_as(&t, &f, blocking("Which database?"), Interaction::Headless).unwrap();
    t.clock.set(19);
    assert_eq!(backlog::backlog(&t.env()).unwrap().suspended[0].state, "waiting");
    t.clock.set(20);
    let log = backlog::backlog(&t.env()).unwrap();
    assert_eq!(log.suspended[0].state, "overdue");
    assert!(log.next.is_none(), "a suspended feature is never next");
}

#[test]
fn status_lists_every_feature_with_its_phase_its_next_command_and_what_waits() {
    let t = Repo::new();
    let a = t.feature("alpha", Mode::Hotfix);
    let b = t.feature("beta", Mode::Standard);
    let c = t.feature("gamma", Mode::Standard);
    start(&t, &a, Phase::Brainstorm);
    review::record(&t.env(), Some(&a), Phase::Brainstorm, verdict(false, &[("blocker", "no goal")]), None).unwrap();
    start(&t, &b, Phase::Brainstorm);
    ask_as(&t, &b, blocking("Which database?"), Interaction::Headless).unwrap();
    lifecycle::abandon(&t.env(), Some(&c)).unwrap();
    let (dir, rows) = status::status(&t.env()).unwrap();
    assert_eq!(dir, "docs/features");
    let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, [a.as_str(), b.as_str(), c.as_str()], "finished features are listed too");
    assert_eq!(rows[0].open_concerns, ["(brainstorm) [blocker] no goal"]);
    assert_eq!(rows[0].phase_text(), "brainstorm (open concerns)");
    assert_eq!(rows[0].next, Some(Suggested::Phase(Phase::Specify)));
    assert_eq!(rows[1].phase_text(), "brainstorm (partial, 0/3 iterations)");
    assert_eq!(rows[1].suspended.as_deref(), Some(format!("{b}.1").as_str()));
    assert_eq!(rows[1].next, Some(Suggested::Answer(format!("{b}.1"))));
    assert_eq!(rows[2].next, None);
    let n = status::next(&t.env(), Some(&b)).unwrap();
    assert!(n.command.is_none() && n.reason.contains("is suspended until question"), "{n:?}");
    assert_eq!(
        status::next(&t.env(), Some(&a)).unwrap().command.map(|c| c.to_string()).as_deref(),
        Some("/phasegate:specify")
    );
}

#[test]
fn status_reports_an_unreadable_feature_and_goes_on() {
    let t = Repo::new();
    let a = t.feature("alpha", Mode::Standard);
    let b = t.feature("beta", Mode::Standard);
    t.write(&Repo::in_feature(&b, ".meta.json"), "{ truncated");
    let (_, rows) = status::status(&t.env()).unwrap();
    assert_eq!(rows[0].name, a);
    assert!(rows[0].error.is_none());
    assert!(rows[1].error.as_deref().is_some_and(|e| e.contains(".meta.json")), "{:?}", rows[1].error);
    let log = backlog::backlog(&t.env()).unwrap();
    assert_eq!(log.ready.len(), 1);
    assert_eq!(log.unreadable.len(), 1, "{:?}", log.unreadable);
}

#[test]
fn the_next_step_follows_completed_phases() {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    assert_eq!(
        status::next(&t.env(), None).unwrap().command.map(|c| c.to_string()).as_deref(),
        Some("/phasegate:brainstorm")
    );
    start(&t, &f, Phase::Brainstorm);
    assert_eq!(
        status::next(&t.env(), None).unwrap().command.map(|c| c.to_string()).as_deref(),
        Some("/phasegate:brainstorm")
    );
    phase::complete(&t.env(), None, Phase::Brainstorm, Completion::default()).unwrap();
    assert_eq!(
        status::next(&t.env(), None).unwrap().command.map(|c| c.to_string()).as_deref(),
        Some("/phasegate:specify")
    );
}
