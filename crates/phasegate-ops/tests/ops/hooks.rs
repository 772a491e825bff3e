//! SessionStart's context for the features of a real project, and
//! PreToolUse's check of writes to state files (reading the task list on
//! disk to see whether an edit ticks a checkbox).

use phasegate_core::feature::{StartMode, Workflow};
use phasegate_core::questions::Source;
use phasegate_core::{Mode, Phase};
use phasegate_ops::feature::lifecycle;
use phasegate_ops::feature::phase::{self, Target};
use phasegate_ops::hooks::{self, HookInput, pre_tool_use};
use phasegate_ops::questions::ask::{self, Interaction};
use serde_json::json;

use crate::kit::Repo;
use crate::questions::{ask_as, blocking};

fn context(t: &Repo, cwd: &std::path::Path, session: Option<&str>) -> String {
    let input = HookInput {
        session_id: session.map(str::to_owned),
        cwd: Some(cwd.to_owned()),
        hook_event_name: Some("SessionStart".into()),
        ..HookInput::default()
    };
    hooks::session_start(&input, &t.env(), None, None)
}

fn tool(t: &Repo, name: &str, input: serde_json::Value) -> Option<pre_tool_use::Deny> {
    pre_tool_use::check(&HookInput {
        tool_name: Some(name.into()),
        tool_input: Some(input),
        cwd: Some(t.root().to_owned()),
        ..HookInput::default()
    })
}

#[test]
fn session_start_says_nothing_without_active_features() {
    let t = Repo::new();
    assert_eq!(context(&t, t.root(), None), "");
    let f = t.feature("x", Mode::Standard);
    lifecycle::abandon(&t.env(), Some(&f)).unwrap();
    assert_eq!(context(&t, t.root(), None), "", "an abandoned feature stays silent");
}

#[test]
fn session_start_lists_each_active_feature_with_its_phase_and_next_command() {
    let t = Repo::new();
    let a = t.feature("alpha", Mode::Quick);
    phase::start(&t.env(), Target::Existing(Some(&a)), Phase::Brainstorm, StartMode::Continue).unwrap();
    let b = t.feature("beta", Mode::Standard);
    let c = t.feature("gamma", Mode::Standard);
    lifecycle::abandon(&t.env(), Some(&c)).unwrap();
    let text = context(&t, t.root(), None);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "phasegate: 2 active features", "{text}");
    assert_eq!(
        lines[1],
        format!(
            "- {a} (mode quick): phase brainstorm is PARTIAL (started, not completed; 0 of 2 reviewer iterations used). Next: /phasegate:brainstorm"
        )
    );
    assert_eq!(lines[2], format!("- {b} (mode standard): no phase started yet. Next: /phasegate:brainstorm"));
    assert!(!text.contains(&c), "{text}");
}

#[test]
fn session_start_names_suspended_features_and_arrived_answers() {
    let t = Repo::new();
    let a = t.feature("alpha", Mode::Standard);
    let b = t.feature("beta", Mode::Standard);
    ask_as(&t, &a, blocking("Which database?"), Interaction::Headless).unwrap();
    ask_as(&t, &b, blocking("Which port?"), Interaction::Headless).unwrap();
    ask::answer(&t.env(), &b, "8080", None, Source::Cli).unwrap();
    let text = context(&t, t.root(), None);
    assert!(text.contains(&format!("phasegate: suspended, waiting for an answer: {a} ({a}.1)")), "{text}");
    assert!(text.contains(&format!("phasegate: the answer to {b}.1 arrived; {b} can go on")), "{text}");
}

#[test]
fn session_start_knows_the_worktree_the_session_runs_in() {
    let t = Repo::new();
    let c = lifecycle::create(&t.env(), "api", Mode::Standard, Workflow::Phased, true).unwrap();
    let wt = t.path(".worktrees/001-api");
    let inside = context(&t, &wt, None);
    assert!(inside.starts_with("phasegate: 1 active feature; this session is in the worktree of 001-api"), "{inside}");
    let outside = context(&t, t.root(), None);
    assert!(
        outside.contains("WARNING: this session runs in") && outside.contains(&c.worktree_path.unwrap()),
        "{outside}"
    );
}

#[test]
fn session_start_says_who_runs_a_pipeline() {
    let t = Repo::new();
    let started = phasegate_ops::pipeline::lifecycle::start(
        &t.env_as("session-1"),
        "auth",
        "Add user authentication",
        Mode::Standard,
        false,
        None,
    )
    .unwrap();
    let f = started.feature;
    let mine = context(&t, t.root(), Some("session-1"));
    assert!(
        mine.contains(&format!(
            "- {f} (pipeline): state requirements_gathering, run by this session. Next: /phasegate:pipeline"
        )),
        "{mine}"
    );
    let other = context(&t, t.root(), Some("session-2"));
    assert!(other.contains("run by another session (claim it with /phasegate:pipeline)"), "{other}");
}

#[test]
fn session_start_describes_five_features_and_counts_the_rest() {
    let t = Repo::new();
    for slug in ["a", "b", "c", "d", "e", "f", "g"] {
        t.feature(slug, Mode::Standard);
    }
    let text = context(&t, t.root(), None);
    assert!(text.starts_with("phasegate: 7 active features"), "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("- 00")).count(), 5, "{text}");
    assert!(text.contains("- … and 2 more: `workflow-state status`"), "{text}");
}

#[test]
fn pre_tool_use_refuses_writes_to_state_files_and_names_the_command_instead() {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    for rel in [
        Repo::in_feature(&f, ".meta.json"),
        Repo::in_feature(&f, ".review-history.md"),
        Repo::in_feature(&f, ".rounds.json"),
        Repo::in_feature(&f, ".review-cycles.json"),
        Repo::in_feature(&f, ".task/state.json"),
        Repo::in_feature(&f, ".task/loop-state.json"),
        ".claude/suspended/001-x.json".to_owned(),
        ".claude/questions/001-x.1.json".to_owned(),
        ".phasegate/preferences.json".to_owned(),
    ] {
        let absolute = t.path(&rel).display().to_string();
        for path in [absolute.clone(), rel.clone(), format!("{}/docs/../{rel}", t.root().display())] {
            for name in ["Write", "Edit", "MultiEdit"] {
                let deny = tool(&t, name, json!({"file_path": path, "content": "{}"}));
                assert!(deny.is_some(), "{name} {path}");
            }
        }
    }
    let deny = tool(
        &t,
        "Edit",
        json!({"file_path": t.path(&Repo::in_feature(&f, ".meta.json")), "old_string": "a", "new_string": "b"}),
    )
    .unwrap();
    assert!(deny.reason.contains("do not edit it") && deny.reason.contains("workflow-state"), "{}", deny.reason);
    for rel in [Repo::in_feature(&f, "spec.md"), Repo::in_feature(&f, ".verdict.json"), "src/.meta.json".to_owned()] {
        assert_eq!(tool(&t, "Write", json!({"file_path": t.path(&rel), "content": "x"})), None, "{rel}");
    }
    assert_eq!(tool(&t, "Read", json!({"file_path": t.path(&Repo::in_feature(&f, ".meta.json"))})), None);
}

#[test]
fn pre_tool_use_refuses_a_tick_by_hand_in_the_task_list_on_disk_and_lets_words_change() {
    let t = Repo::new();
    let f = t.feature("x", Mode::Standard);
    let tasks = Repo::in_feature(&f, "tasks.md");
    let text = "- [ ] T1: Add the login endpoint\n- [ ] T2: Add the report page\n";
    t.write(&tasks, text);
    let path = t.path(&tasks);
    let ticked = text.replace("- [ ] T1", "- [x] T1");
    let deny = tool(&t, "Write", json!({"file_path": path, "content": ticked})).expect("a tick by hand");
    assert!(deny.reason.contains("workflow-state tasks start|complete|skip|fail"), "{}", deny.reason);
    // The same edit as a relative path, read from the hook's cwd.
    assert!(tool(&t, "Write", json!({"file_path": tasks, "content": ticked})).is_some());
    // An Edit that changes a box through a longer string.
    assert!(
        tool(&t, "Edit", json!({"file_path": path, "old_string": "[ ] T2: Add", "new_string": "[x] T2: Add"}))
            .is_some()
    );
    // Words, and new tasks, are the author's.
    let reworded = text.replace("the report page", "the monthly report page") + "- [ ] T3: Add the export\n";
    assert_eq!(tool(&t, "Write", json!({"file_path": path, "content": reworded})), None);
}
