//! `phasegate-hook session-start`: what reaches the model, and that nothing
//! breaks a session.

use serde_json::Value;

use crate::util::{HOOK, Run, TestEnv};

fn hook(dir: &std::path::Path) -> crate::util::Done {
    let input = serde_json::json!({
        "session_id": "s-1", "transcript_path": "/tmp/t.jsonl", "cwd": dir,
        "hook_event_name": "SessionStart", "source": "startup"
    });
    Run::new(HOOK, &["session-start"], dir).stdin(input.to_string()).ok()
}

fn context(done: &crate::util::Done) -> String {
    let v: Value = done.json();
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], "SessionStart");
    v["hookSpecificOutput"]["additionalContext"].as_str().unwrap().to_owned()
}

#[test]
fn nothing_to_say_means_no_output() {
    let env = TestEnv::new();
    assert_eq!(hook(env.root()).stdout, "");
    let plain = TestEnv::plain();
    assert_eq!(hook(plain.root()).stdout, "", "a directory outside git with no features stays silent");
}

#[test]
fn active_features_only_with_phase_partial_and_next() {
    let env = TestEnv::new();
    env.feature("alpha", "quick");
    env.feature("beta", "standard");
    env.feature("gamma", "standard");
    env.ws(&["phase", "start", "specify", "--feature", "alpha"]).ok();
    env.ws(&["phase", "complete", "brainstorm", "--feature", "beta"]).ok();
    env.prove("gamma");
    env.ws(&["finish", "--feature", "gamma"]).ok();
    let text = context(&hook(env.root()));
    let (features, offered) = text.split_once("\nphasegate: e1: ").expect("finishing gamma emitted an event");
    assert_eq!(
        features,
        "phasegate: 2 active features\n\
         - 001-alpha (mode quick): phase specify is PARTIAL (started, not completed; 0 of 2 reviewer iterations used). Next: /phasegate:specify\n\
         - 002-beta (mode standard): phase brainstorm completed. Next: /phasegate:specify"
    );
    assert!(!features.contains("gamma"));
    // The finished feature's build.completed is offered to this session, once.
    assert!(offered.starts_with("build.completed for 003-gamma"), "{offered}");
    assert!(!context(&hook(env.root())).contains("e1"), "offered once");
}

#[test]
fn worktree_warning_when_outside_and_silence_inside() {
    let env = TestEnv::new();
    env.ws(&["feature", "new", "auth", "--worktree"]).ok();
    let outside = context(&hook(env.root()));
    assert!(
        outside.contains(&format!(
            "WARNING: this session runs in {} but the feature's worktree is {}",
            env.root().display(),
            env.path(".worktrees/001-auth").display()
        )),
        "{outside}"
    );
    let inside = context(&hook(&env.path(".worktrees/001-auth")));
    assert!(inside.contains("this session is in the worktree of 001-auth"), "{inside}");
    assert!(!inside.contains("WARNING"), "{inside}");
}

#[test]
fn broken_state_becomes_one_line_and_exit_zero() {
    let env = TestEnv::new();
    env.feature("good", "standard");
    let bad = env.feature("bad", "standard");
    env.write(&format!("docs/features/{bad}/.meta.json"), "{ not json");
    let text = context(&hook(env.root()));
    assert!(text.contains("- 001-good"), "{text}");
    let warning: Vec<&str> = text.lines().filter(|l| l.contains("002-bad")).collect();
    assert_eq!(warning.len(), 1, "{text}");
    assert!(warning[0].contains("unreadable") && warning[0].contains("workflow-state status"), "{text}");
}

#[test]
fn garbage_input_and_missing_directories_do_not_break_the_session() {
    let env = TestEnv::new();
    let out = Run::new(HOOK, &["session-start"], env.root()).stdin("not json at all").ok();
    assert!(context(&out).contains("hook input is not JSON"));
    // Regression: the test named /nonexistent/dir and expected silence, so a
    // fresh machine failed it; a folder of the test's own that is surely
    // gone is reported in one line, whatever the machine.
    let gone = env.outer().join("removed-worktree");
    let input = serde_json::json!({"cwd": gone, "session_id": "x"}).to_string();
    let out = Run::new(HOOK, &["session-start"], env.root()).stdin(input).ok();
    assert_eq!(
        context(&out),
        format!(
            "phasegate: this session's folder {} does not exist (a removed worktree?); there is nothing to report.",
            gone.display()
        )
    );
    // An unknown event is a usage error of the binary, not a hook result.
    Run::new(HOOK, &["bogus"], env.root()).code(2);
}

#[test]
fn many_active_features_are_summarised() {
    let env = TestEnv::new();
    for i in 0..8 {
        env.feature(&format!("f{i}"), "standard");
    }
    let text = context(&hook(env.root()));
    assert!(text.starts_with("phasegate: 8 active features"));
    assert_eq!(text.lines().filter(|l| l.starts_with("- 0")).count(), 5);
    assert!(text.contains("… and 3 more: `workflow-state status`"), "{text}");
}

#[test]
fn pipeline_features_show_their_state_and_owner() {
    let env = TestEnv::new();
    let f = env.pipeline("owner-session");
    let input = |session: &str| {
        serde_json::json!({"session_id": session, "cwd": env.root(), "hook_event_name": "SessionStart", "source": "resume"}).to_string()
    };
    let mine = context(&Run::new(HOOK, &["session-start"], env.root()).stdin(input("owner-session")).ok());
    assert!(
        mine.contains(&format!(
            "- {f} (pipeline): state requirements_gathering, run by this session. Next: /phasegate:pipeline"
        )),
        "{mine}"
    );
    let other = context(&Run::new(HOOK, &["session-start"], env.root()).stdin(input("someone-else")).ok());
    assert!(other.contains("run by another session (claim it with /phasegate:pipeline)"), "{other}");
}

/// Regression (issue "Floors inside the crates"): the hook silenced panics,
/// which left no trace anywhere. A panic is still answered as valid hook
/// JSON, and leaves one line that `workflow-state status` mentions.
#[test]
fn a_panic_in_a_hook_left_no_trace() {
    let env = TestEnv::new();
    env.feature("login", "standard");
    let input = serde_json::json!({"cwd": env.root(), "session_id": "s1", "hook_event_name": "SessionStart"});
    let out = Run::new(HOOK, &["session-start"], env.root())
        .env("PHASEGATE_FAILPOINT", "session-start")
        .stdin(input.to_string())
        .ok();
    let told = context(&out);
    assert!(told.contains("the hook failed unexpectedly (logged in") && told.contains("problems.jsonl"), "{told}");
    let log = env.read(".git/phasegate/hooks/problems.jsonl");
    assert!(log.contains("\"hook\":\"session-start\"") && log.contains("panicked: failpoint session-start"), "{log}");
    let status = env.ws(&["status"]).ok().stdout;
    assert!(status.contains("Problems that reached nobody in the last 24 h: 1 (last, session-start"), "{status}");
}
