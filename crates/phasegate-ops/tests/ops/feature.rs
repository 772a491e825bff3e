//! A feature's life (create, resolve, abandon, finish), its phases (start,
//! complete, show, brief) and the phase reviewer loop (brief, record).

use phasegate_core::cycle::Decision;
use phasegate_core::feature::{Completion, PhaseState, RuleSaid, StartKind, StartMode, Workflow};
use phasegate_core::{Mode, Phase, Status};
use phasegate_ops::error::Refusal;
use phasegate_ops::feature::phase::{self, Target};
use phasegate_ops::feature::{lifecycle, review, worktree};
use phasegate_ops::{Invalid, OpError};
use phasegate_store::ResolveError;

use crate::kit::{Repo, refusal, stamp, verdict};

fn start(t: &Repo, phase: Phase, mode: StartMode) -> phase::Started {
    phase::start(&t.env(), Target::Existing(None), phase, mode).unwrap()
}

fn record(t: &Repo, phase: Phase, approved: bool, issues: &[(&str, &str)]) -> phasegate_core::feature::Step {
    review::record(&t.env(), None, phase, verdict(approved, issues), None).unwrap()
}

#[test]
fn create_numbers_features_and_stamps_them_with_the_clock() {
    let t = Repo::new();
    let a = lifecycle::create(&t.env(), "add search", Mode::Quick, Workflow::Phased, false).unwrap();
    assert_eq!((a.name.as_str(), a.worktree_path.as_deref()), ("001-add-search", None));
    assert_eq!((a.meta.status, a.meta.created), (Status::Active, Some(t.clock.now())));
    t.clock.advance(3);
    let b = lifecycle::create(&t.env(), "user-auth", Mode::Standard, Workflow::Phased, false).unwrap();
    assert_eq!(b.name, "002-user-auth");
    let meta = t.meta("001-add-search");
    assert_eq!((meta["mode"].as_str(), meta["status"].as_str()), (Some("quick"), Some("active")));
    assert_eq!(meta["created"], stamp(0));
    assert_eq!(t.meta("002-user-auth")["created"], stamp(3));
    // The phase loop's scratch files stay out of `git status`.
    assert!(t.read(".git/info/exclude").contains("/docs/features/*/.verdict.json"));
}

#[test]
fn a_name_that_makes_no_slug_is_invalid_and_creates_nothing() {
    let t = Repo::new();
    let e = lifecycle::create(&t.env(), "!!!", Mode::Standard, Workflow::Phased, false).unwrap_err();
    assert!(matches!(e, OpError::Invalid(Invalid::NoFeatureName { .. })), "{e:?}");
    assert!(e.to_string().contains("user-auth"), "the message gives an example: {e}");
    assert!(!t.exists("docs/features"));
}

#[test]
fn create_with_a_worktree_makes_its_branch_and_checkout_and_commands_there_find_it() {
    let t = Repo::new();
    let c = lifecycle::create(&t.env(), "api", Mode::Standard, Workflow::Phased, true).unwrap();
    let wt = t.path(".worktrees/001-api");
    assert_eq!(c.worktree_path.as_deref(), Some(wt.to_str().unwrap()));
    assert_eq!(c.meta.branch.as_deref(), Some("feature/001-api"));
    assert_eq!(t.meta("001-api")["worktree"], ".worktrees/001-api");
    assert!(wt.join("README.md").is_file(), "a checkout of HEAD");
    let repo = git2::Repository::open(t.root()).unwrap();
    assert!(repo.find_branch("feature/001-api", git2::BranchType::Local).is_ok());
    // With a second active feature, only the worktree says which one is meant.
    t.feature("other", Mode::Standard);
    assert_eq!(lifecycle::show(&t.env_in(&wt), None).unwrap().name, "001-api");
    let inside = worktree::check(&t.env_in(&wt), None).unwrap();
    assert!(inside.in_worktree, "{}", inside.message);
    let outside = worktree::check(&t.env(), Some("001-api")).unwrap();
    assert!(!outside.in_worktree);
    assert!(
        matches!(&outside.message, phasegate_core::feature::WorktreePlace::Outside { worktree, .. } if worktree.ends_with("001-api")),
        "{:?}",
        outside.message
    );
    assert!(outside.message.to_string().contains("cd "), "{}", outside.message);
}

#[test]
fn a_command_resolves_its_feature_by_name_id_slug_folder_or_the_only_active_one() {
    let t = Repo::new();
    let show = |given: Option<&str>| lifecycle::show(&t.env(), given);
    assert!(matches!(show(None), Err(OpError::Resolve(ResolveError::NoActive { .. }))));
    let a = t.feature("alpha", Mode::Standard);
    assert_eq!(show(None).unwrap().name, a, "the only active feature");
    let b = t.feature("beta", Mode::Standard);
    assert!(matches!(show(None), Err(OpError::Resolve(ResolveError::SeveralActive { .. }))));
    for given in ["002-beta", "2", "002", "beta", "docs/features/002-beta"] {
        assert_eq!(show(Some(given)).unwrap().name, b, "{given}");
    }
    let in_folder = t.env_in(&t.path(&Repo::in_feature(&a, "")));
    assert_eq!(lifecycle::show(&in_folder, None).unwrap().name, a, "the folder it runs in");
    assert!(matches!(show(Some("gamma")), Err(OpError::Resolve(ResolveError::NoMatch { .. }))));
    lifecycle::abandon(&t.env(), Some(&b)).unwrap();
    assert_eq!(show(None).unwrap().name, a, "an abandoned feature is not active");
}

#[test]
fn abandon_ends_a_feature_at_the_clocks_time_and_only_once() {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    t.clock.advance(10);
    assert_eq!(lifecycle::abandon(&t.env(), None).unwrap(), f);
    let meta = t.meta(&f);
    assert_eq!((meta["status"].as_str(), meta["completed"].as_str()), (Some("abandoned"), Some(stamp(10).as_str())));
    assert!(t.exists(&Repo::in_feature(&f, ".meta.json")), "its files stay");
    assert!(matches!(lifecycle::abandon(&t.env(), Some(&f)), Err(OpError::Meta(_))));
    let r = refusal(phase::start(&t.env(), Target::Existing(Some(&f)), Phase::Brainstorm, StartMode::Continue));
    assert!(matches!(r, Refusal::TransitionBlocked { phase: Phase::Brainstorm, .. }), "{r:?}");
    assert!(r.to_string().contains("abandoned"), "{r}");
}

#[test]
fn phase_start_and_complete_record_the_clocks_times_and_show_reads_them_back() {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    let s = start(&t, Phase::Brainstorm, StartMode::Continue);
    assert_eq!((s.start, s.iterations, s.max_iterations, s.created), (StartKind::Started, 0, 3, false));
    assert_eq!(s.warning, None);
    let meta = t.meta(&f);
    assert_eq!(meta["currentPhase"], "brainstorm");
    assert_eq!(meta["phases"]["brainstorm"]["started"], stamp(0));
    assert_eq!(phase::show(&t.env(), None, Phase::Brainstorm).unwrap().state, PhaseState::Partial);
    t.clock.advance(30);
    let done = phase::complete(
        &t.env(),
        None,
        Phase::Brainstorm,
        Completion { iterations: Some(2), notes: vec!["kept simple".into()], verified: false },
    )
    .unwrap();
    assert_eq!((done.record.completed, done.record.iterations), (Some(t.clock.now()), 2));
    let shown = phase::show(&t.env(), None, Phase::Brainstorm).unwrap();
    assert_eq!((shown.state, shown.max_iterations), (PhaseState::Completed, 3));
    assert_eq!(shown.record.unwrap().reviewer_notes, ["kept simple"]);
    assert_eq!(t.meta(&f)["phases"]["brainstorm"]["completed"], stamp(30));
    assert_eq!(phase::show(&t.env(), None, Phase::Specify).unwrap().state, PhaseState::NotStarted);
}

#[test]
fn phase_start_warns_on_a_skipped_phase_and_refuses_implement_without_a_spec() {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    start(&t, Phase::Brainstorm, StartMode::Continue);
    phase::complete(&t.env(), None, Phase::Brainstorm, Completion::default()).unwrap();
    let s = start(&t, Phase::Design, StartMode::Continue);
    assert!(s.warning.as_ref().is_some_and(|w| w.to_string().contains("skips specify")), "{:?}", s.warning);
    let r = refusal(phase::start(&t.env(), Target::Existing(None), Phase::Implement, StartMode::Continue));
    assert!(matches!(r, Refusal::TransitionBlocked { phase: Phase::Implement, .. }), "{r:?}");
    assert!(r.to_string().contains("spec.md"), "{r}");
    assert_eq!(t.meta(&f)["currentPhase"], "design", "a refused start writes nothing");
    assert!(matches!(
        phase::start(&t.env(), Target::Existing(None), Phase::Finish, StartMode::Continue),
        Err(OpError::Meta(_))
    ));
}

#[test]
fn phase_start_new_creates_the_feature_from_the_users_words_in_one_call() {
    let t = Repo::new();
    let s = phase::start(
        &t.env(),
        Target::New { words: "csv export", mode: Mode::Hotfix },
        Phase::Brainstorm,
        StartMode::Continue,
    )
    .unwrap();
    assert_eq!((s.feature.as_str(), s.created, s.max_iterations), ("001-csv-export", true, 1));
    assert_eq!(t.meta("001-csv-export")["phases"]["brainstorm"]["started"], stamp(0));
}

#[test]
fn a_partial_phase_resumes_with_its_iterations_or_starts_fresh_or_only_reviews() {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    start(&t, Phase::Specify, StartMode::Continue);
    // Review-only needs a result to review.
    assert!(matches!(
        phase::start(&t.env(), Target::Existing(None), Phase::Specify, StartMode::ReviewOnly),
        Err(OpError::Meta(_))
    ));
    t.write(&Repo::in_feature(&f, "spec.md"), "# Spec\n");
    record(&t, Phase::Specify, false, &[("blocker", "no acceptance criteria")]);
    let s = start(&t, Phase::Specify, StartMode::Continue);
    assert_eq!((s.start, s.iterations), (StartKind::Resumed, 1));
    let s = start(&t, Phase::Specify, StartMode::ReviewOnly);
    assert_eq!((s.start, s.iterations), (StartKind::ReviewOnly, 1));
    t.clock.advance(5);
    let s = start(&t, Phase::Specify, StartMode::Fresh);
    assert_eq!((s.start, s.iterations), (StartKind::Restarted, 0));
    assert_eq!(t.meta(&f)["phases"]["specify"]["started"], stamp(5));
}

#[test]
fn review_record_revises_until_approved_and_keeps_the_history() {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    start(&t, Phase::Specify, StartMode::Continue);
    let step = record(&t, Phase::Specify, false, &[("blocker", "no acceptance criteria")]);
    assert_eq!((step.decision, step.iteration, step.max_iterations), (Decision::Revise, 1, 3));
    assert_eq!(step.open_issues, ["[blocker] no acceptance criteria"]);
    let meta = t.meta(&f);
    assert_eq!(meta["phases"]["specify"]["iterations"], 1);
    assert_eq!(meta["phases"]["specify"]["completed"], serde_json::Value::Null);
    t.clock.advance(20);
    let step = record(&t, Phase::Specify, true, &[]);
    assert_eq!((step.decision, step.iteration), (Decision::Approved, 2));
    let meta = t.meta(&f);
    assert_eq!(meta["phases"]["specify"]["outcome"], "approved");
    assert_eq!(meta["phases"]["specify"]["completed"], stamp(20));
    let history = t.read(&Repo::in_feature(&f, ".review-history.md"));
    assert!(history.contains("no acceptance criteria") && history.contains("Initial version."), "{history}");
    // The loop is over: another verdict is refused and records nothing.
    assert!(matches!(review::record(&t.env(), None, Phase::Specify, verdict(true, &[]), None), Err(OpError::Meta(_))));
    assert_eq!(t.read(&Repo::in_feature(&f, ".review-history.md")), history);
}

#[test]
fn an_invalid_verdict_records_nothing() {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    start(&t, Phase::Specify, StartMode::Continue);
    let bad = Some(phasegate_ops::witness::Given { source: "reply.md".into(), text: "looks fine to me".into() });
    let e = review::record(&t.env(), None, Phase::Specify, bad, None).unwrap_err();
    assert!(matches!(e, OpError::Invalid(_)) && e.to_string().starts_with("reply.md:"), "{e}");
    let blockers_approved = crate::kit::verdict(true, &[("blocker", "x")]);
    assert!(matches!(
        review::record(&t.env(), None, Phase::Specify, blockers_approved, None),
        Err(OpError::Invalid(_))
    ));
    assert_eq!(t.meta(&f)["phases"]["specify"]["iterations"], 0);
    assert!(!t.exists(&Repo::in_feature(&f, ".review-history.md")));
}

#[test]
fn the_cap_is_reached_at_the_modes_iteration_limit_and_its_concerns_travel_on() {
    for (mode, cap) in [(Mode::Hotfix, 1), (Mode::Quick, 2), (Mode::Standard, 3), (Mode::Full, 5)] {
        let t = Repo::new();
        let f = t.feature("x", mode);
        start(&t, Phase::Brainstorm, StartMode::Continue);
        for i in 1..cap {
            let step = record(&t, Phase::Brainstorm, false, &[("warning", "vague goal")]);
            assert_eq!((step.decision, step.iteration), (Decision::Revise, i), "{mode}");
        }
        let step = record(&t, Phase::Brainstorm, false, &[("warning", "vague goal")]);
        assert_eq!((step.decision, step.iteration, step.max_iterations), (Decision::CapReached, cap, cap), "{mode}");
        let meta = t.meta(&f);
        assert_eq!(meta["phases"]["brainstorm"]["outcome"], "cap-reached", "{mode}");
        assert_eq!(meta["phases"]["brainstorm"]["reviewerNotes"][0], "[warning] vague goal", "{mode}");
        let lines = phase::brief(&t.env(), None, Phase::Specify, None);
        assert!(
            lines.iter().any(|l| l.starts_with("open concerns from brainstorm") && l.contains("vague goal")),
            "{mode}: {lines:#?}"
        );
    }
}

#[test]
fn the_review_brief_counts_the_iteration_and_carries_the_last_issues() {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    start(&t, Phase::Specify, StartMode::Continue);
    t.write(&Repo::in_feature(&f, "spec.md"), "# Spec\n");
    let b = review::brief(&t.env(), None, Phase::Specify).unwrap();
    assert!(b.agent.starts_with("phasegate:"), "{}", b.agent);
    assert_eq!(b.diff_file, None, "a document has no diff");
    assert!(b.prompt.contains("spec.md"), "{}", b.prompt);
    record(&t, Phase::Specify, false, &[("blocker", "no acceptance criteria")]);
    let b = review::brief(&t.env(), None, Phase::Specify).unwrap();
    assert!(b.prompt.contains("no acceptance criteria"), "{}", b.prompt);
    assert!(matches!(refusal(review::brief(&t.env(), None, Phase::Finish)), Refusal::NoReviewer { .. }));
}

#[test]
fn the_implement_review_brief_holds_the_code_change_since_the_phase_started() {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    t.write(&Repo::in_feature(&f, "spec.md"), "# Spec\n");
    t.write("src/old.rs", "fn old() {}\n");
    t.commit_all("before implement");
    let head = git2::Repository::open(t.root()).unwrap().head().unwrap().peel_to_commit().unwrap().id().to_string();
    start(&t, Phase::Implement, StartMode::Continue);
    assert_eq!(t.meta(&f)["phases"]["implement"]["baseCommit"], head.as_str());
    t.write("src/new.rs", "pub fn search() {}\n");
    let b = review::brief(&t.env(), None, Phase::Implement).unwrap();
    let diff = std::fs::read_to_string(b.diff_file.expect("a diff for code")).unwrap();
    assert!(diff.contains("src/new.rs") && diff.contains("pub fn search"), "{diff}");
    assert!(!diff.contains("src/old.rs"), "only what changed since the phase started: {diff}");
    assert!(!diff.contains("docs/features"), "phasegate's own files are not code: {diff}");
}

#[test]
fn finish_completes_the_feature_and_drops_the_history_but_keeps_the_summary() {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    start(&t, Phase::Brainstorm, StartMode::Continue);
    record(&t, Phase::Brainstorm, true, &[]);
    t.write(&Repo::in_feature(&f, ".verdict.json"), "{}");
    t.clock.advance(60);
    t.prove(&f);
    let done = lifecycle::finish(&t.env(), None).unwrap();
    assert_eq!((done.status, done.history_deleted, done.verdict_deleted), (Status::Completed, true, true));
    assert_eq!(done.total_iterations, 1);
    assert_eq!(done.phases["brainstorm"]["outcome"], "approved");
    assert!(
        matches!(done.warning, Some(RuleSaid::SkipsFromStart { .. } | RuleSaid::Skips { .. })),
        "{:?}",
        done.warning
    );
    assert_eq!(done.to_commit, [format!("docs/features/{f}")], "the feature's folder, for the session to commit");
    assert!(!t.exists(&Repo::in_feature(&f, ".verdict.json")), "scratch goes with the feature");
    let meta = t.meta(&f);
    assert_eq!((meta["status"].as_str(), meta["completed"].as_str()), (Some("completed"), Some(stamp(60).as_str())));
    assert!(!t.exists(&Repo::in_feature(&f, ".review-history.md")));
    assert!(!t.exists(&Repo::in_feature(&f, ".verdict.json")));
    let r = refusal(lifecycle::finish(&t.env(), Some(&f)));
    assert!(matches!(r, Refusal::TransitionBlocked { phase: Phase::Finish, .. }), "{r:?}");
}

#[test]
fn the_phase_brief_says_where_the_feature_stands_and_never_fails() {
    let t = Repo::new();
    let lines = phase::brief(&t.env(), None, Phase::Brainstorm, None);
    assert!(lines[0].contains("no active feature yet"), "{lines:#?}");
    assert!(lines[1].contains("workflow-state phase start brainstorm --new"), "{lines:#?}");
    let f = t.feature("x", Mode::Quick);
    start(&t, Phase::Brainstorm, StartMode::Continue);
    let lines = phase::brief(&t.env(), None, Phase::Brainstorm, None);
    assert!(lines[0].contains(&format!("feature {f} (mode quick, at most 2 reviewer iterations")), "{lines:#?}");
    assert!(lines.iter().any(|l| l.starts_with("transition to brainstorm: proceed")), "{lines:#?}");
    assert!(lines.iter().any(|l| l.starts_with("brainstorm: PARTIAL: started 2026-11-22T10:00:00Z")), "{lines:#?}");
    assert!(lines.iter().any(|l| l.starts_with("worktree: none")), "{lines:#?}");
    // The user's words: a feature they name is briefed; other words offer a new feature.
    let named = phase::brief(&t.env(), None, Phase::Specify, Some("x"));
    assert!(named[0].contains(&format!("feature {f}")), "{named:#?}");
    let other = phase::brief(&t.env(), None, Phase::Specify, Some("add search"));
    assert!(other[0].contains("the user's words name no feature: \"add search\""), "{other:#?}");
    assert!(other[1].contains("phase start specify --new 'add search'"), "{other:#?}");
    assert!(other[2].contains(&f), "the active features are listed: {other:#?}");
}
