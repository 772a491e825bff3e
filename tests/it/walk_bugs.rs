//! Regressions from the full walk of a feature and a pipeline in Claude Code
//! (issue 7, "Bugs and friction from the walk"): one test per bug, named
//! after it.

use std::process::Command;

use serde_json::json;

use crate::util::{HOOK, Run, TestEnv, WORKFLOW_STATE, commit_all};

const S: &str = "session-1";

/// Bug 1: the implement and verify reviewers could not see the change (read-
/// only tools, and every task committed). The phase records the commit it
/// started at; the reviewer's brief carries the change since then, committed
/// or not, and the whole diff in a file it can read.
#[test]
fn implement_reviewers_see_the_committed_change() {
    let env = TestEnv::new();
    let f = env.feature("login", "standard");
    env.write(&format!("docs/features/{f}/spec.md"), "# Spec\n");
    env.write(&format!("docs/features/{f}/tasks.md"), "- [ ] T1\n");
    let started = env.ws(&["phase", "start", "implement"]).ok().json();
    assert_eq!(started["start"], "started");
    let base = env.meta(&f)["phases"]["implement"]["baseCommit"].as_str().unwrap().to_owned();
    assert_eq!(base.len(), 40);
    env.write("src/login.rs", "pub fn login() -> bool { true }\n");
    commit_all(env.root());
    env.write("src/session.rs", "pub struct Session;\n");
    let brief = env.ws(&["review", "brief", "implement", "--json"]).ok().json();
    let prompt = brief["prompt"].as_str().unwrap();
    assert!(!prompt.contains("git diff"), "{prompt}");
    assert!(prompt.contains("added src/login.rs (+1 -0)"), "the committed task is shown: {prompt}");
    assert!(prompt.contains("added src/session.rs (+1 -0)"), "the uncommitted file is shown: {prompt}");
    assert!(prompt.contains("+pub fn login() -> bool { true }"), "{prompt}");
    assert!(!prompt.contains(".meta.json"), "phasegate's own files are not code: {prompt}");
    let diff = brief["diffFile"].as_str().unwrap();
    assert!(std::fs::read_to_string(diff).unwrap().contains("+pub struct Session;"));
    // Verify reviews everything since implement started.
    env.ws(&["phase", "complete", "implement"]).ok();
    env.ws(&["phase", "start", "verify"]).ok();
    let prompt = env.ws(&["review", "brief", "verify"]).ok().stdout;
    assert!(prompt.contains("Reviewer agent: phasegate:final-reviewer"), "{prompt}");
    assert!(prompt.contains("added src/login.rs"), "{prompt}");
}

/// Bug 3: a completed pipeline feature was never closed: it stayed active,
/// every session start announced it, and only `abandon` cleared it.
#[test]
fn a_completed_pipeline_closes_its_feature() {
    let env = TestEnv::new();
    let f = env.to_loop(S, "echo 'All tests passed'", 3);
    env.approve_code(S, &f);
    let out = env.ws_as(S, &["pipeline", "transition", "complete"]).ok().json();
    assert_eq!(out["state"], "complete");
    let meta = env.meta(&f);
    assert_eq!(meta["status"], "completed");
    assert!(meta["completed"].is_string());
    assert_eq!(env.loop_state(&f)["active"], false);
    // No longer announced, no longer held.
    let hook = Run::new(HOOK, &["session-start"], env.root()).stdin(json!({"cwd": env.root()}).to_string()).ok();
    assert_eq!(hook.stdout.trim(), "", "{}", hook.report());
    assert!(env.owns_loop(S).is_none());
}

/// Bug 4: `pipeline cancel` on a completed run said "the pipeline is paused"
/// while it stayed complete.
#[test]
fn cancel_on_a_completed_run_claims_no_pause() {
    let env = TestEnv::new();
    let f = env.to_loop(S, "echo 'All tests passed'", 3);
    env.approve_code(S, &f);
    env.ws_as(S, &["pipeline", "transition", "complete", "--feature", &f]).ok();
    let out = env.ws(&["pipeline", "cancel", "--feature", &f]).ok().json();
    assert_eq!(out["state"], "complete");
    assert_eq!(out["loopCancelled"], false);
    let message = out["message"].as_str().unwrap();
    assert!(!message.contains("paused") && message.contains("the pipeline is complete"), "{message}");
}

/// Bug 5: files the CLI created were 0600 whatever the umask.
#[cfg(unix)]
#[test]
fn new_files_follow_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    for (umask, mode) in [("022", 0o644), ("077", 0o600), ("002", 0o664)] {
        let env = TestEnv::new();
        let status = Command::new("sh")
            .args(["-c", &format!("umask {umask} && exec \"$0\" feature new auth"), WORKFLOW_STATE])
            .current_dir(env.root())
            .status()
            .unwrap();
        assert!(status.success());
        let meta = env.path("docs/features/001-auth/.meta.json");
        assert_eq!(std::fs::metadata(&meta).unwrap().permissions().mode() & 0o777, mode, "umask {umask}");
        // An existing file keeps its bits.
        std::fs::set_permissions(&meta, std::fs::Permissions::from_mode(0o640)).unwrap();
        env.ws(&["phase", "start", "brainstorm"]).ok();
        assert_eq!(std::fs::metadata(&meta).unwrap().permissions().mode() & 0o777, 0o640);
    }
}

/// Bug 6: the exit-2 message for a bad verdict said "Fix the reviewer's
/// reply", inviting an edit of the verdict; it now says to ask the reviewer.
#[test]
fn a_bad_verdict_says_to_ask_the_reviewer_again() {
    let env = TestEnv::new();
    env.feature("a", "standard");
    env.ws(&["phase", "start", "brainstorm"]).ok();
    let bad = env.outer().join("reply.txt");
    std::fs::write(&bad, "Looks fine to me.").unwrap();
    let out = env.ws(&["review", "record", "brainstorm", "--verdict-file", bad.to_str().unwrap()]).code(2);
    out.stderr_has("Nothing was recorded").stderr_has("Spawn the reviewer once more with the same prompt");
    assert!(!out.stderr.contains("Fix the reviewer's reply"), "{}", out.report());
}

/// Bug 7: `.verdict.json` stayed in the feature folder, got committed, and
/// `finish` deleted it silently, leaving the tree dirty after its own check.
#[test]
fn the_verdict_file_stays_out_of_git_and_finish_says_what_to_commit() {
    let env = TestEnv::new();
    let f = env.feature("a", "standard");
    env.ws(&["phase", "start", "brainstorm"]).ok();
    // A reply saved where older phase loops saved it (a person outside
    // Claude Code records from it).
    let verdict = env.path(&format!("docs/features/{f}/.verdict.json")).display().to_string();
    env.ws(&["review", "brief", "brainstorm"]).ok();
    std::fs::write(&verdict, r#"{"approved": true, "issues": [], "summary": "ok"}"#).unwrap();
    let repo = git2::Repository::open(env.root()).unwrap();
    assert!(repo.is_path_ignored(format!("docs/features/{f}/.verdict.json")).unwrap());
    env.ws(&["review", "record", "brainstorm", "--verdict-file", &verdict]).ok();
    env.prove(&f);
    commit_all(env.root());
    let out = env.ws(&["finish"]).ok().json();
    assert_eq!(out["verdictDeleted"], true);
    // What finish changed is all within what it says to commit.
    let changed: Vec<String> = repo
        .statuses(None)
        .unwrap()
        .iter()
        .filter(|s| !s.status().is_ignored())
        .map(|s| s.path().unwrap().to_owned())
        .collect();
    let listed: Vec<String> =
        out["toCommit"].as_array().unwrap().iter().map(|p| p.as_str().unwrap().to_owned()).collect();
    assert!(!changed.is_empty());
    for c in &changed {
        assert!(listed.iter().any(|l| c.starts_with(l.as_str())), "{c} changed but is not in {listed:?}");
    }
}

/// Bug 8: a phase that ended at its cap with a blocker showed only as
/// "completed"; the next brief and the next reviewer never heard of it.
#[test]
fn a_blocker_left_at_the_cap_reaches_the_next_phase() {
    let env = TestEnv::new();
    let f = env.feature("a", "hotfix");
    env.write(&format!("docs/features/{f}/brainstorm.md"), "# B\n");
    env.ws(&["phase", "start", "brainstorm"]).ok();
    let no = env.verdict(false, r#"{"severity": "blocker", "description": "no success metric", "location": "Intent"}"#);
    let step = env.ws(&["review", "record", "brainstorm", "--verdict-file", &no]).ok().json();
    assert_eq!(step["decision"], "cap-reached");
    assert!(step["message"].as_str().unwrap().contains("carried to the next phases"));
    let brief = env.ws(&["phase", "brief", "specify"]).ok().stdout;
    assert!(
        brief.contains("open concerns from brainstorm (its loop hit the cap): [blocker] no success metric (Intent)"),
        "{brief}"
    );
    env.ws(&["phase", "start", "specify"]).ok();
    let prompt = env.ws(&["review", "brief", "specify"]).ok().stdout;
    assert!(prompt.contains("- (brainstorm) [blocker] no success metric (Intent)"), "{prompt}");
    let status = env.ws(&["status"]).ok().stdout;
    assert!(status.contains("open concern in 001-a: (brainstorm) [blocker] no success metric"), "{status}");
}

/// Bug 9: PARTIAL offered continue / fresh / review-only but only "fresh"
/// had a flag; briefs printed `+00:00` where `.meta.json` has `Z`.
#[test]
fn every_partial_choice_has_a_flag_and_times_read_as_in_meta() {
    let env = TestEnv::new();
    let f = env.feature("a", "standard");
    env.write(&format!("docs/features/{f}/brainstorm.md"), "# B\n");
    env.ws(&["phase", "start", "brainstorm"]).ok();
    let brief = env.ws(&["phase", "brief", "brainstorm"]).ok().stdout;
    assert!(brief.contains("continue (`phase start brainstorm`), start fresh (`--fresh`), or only review the existing result (`--review-only`)"), "{brief}");
    let started = env.meta(&f)["phases"]["brainstorm"]["started"].as_str().unwrap().to_owned();
    assert!(started.ends_with('Z') && brief.contains(&started), "{brief} / {started}");
    assert!(!brief.contains("+00:00"), "{brief}");
    let out = env.ws(&["phase", "start", "brainstorm", "--review-only"]).ok().json();
    assert_eq!(out["start"], "review-only");
    assert!(out["next"].as_str().unwrap().contains("step 3b"));
    // Nothing to review: refused by rule.
    env.ws(&["phase", "start", "specify", "--review-only"]).code(1).stderr_has("no spec.md to review");
}

/// Bug 11: workers were not told the path and shape of their JSON file; the
/// shape is printable from any directory.
#[test]
fn workers_learn_the_path_and_shape_of_their_file() {
    let env = TestEnv::new();
    let f = env.pipeline(S);
    let next = env.ws_as(S, &["pipeline", "next", "--json"]).ok().json();
    let story = env.task_path(&f, "user-story.json").display().to_string();
    assert!(
        next["action"]
            .as_str()
            .unwrap()
            .contains(&format!("{story} (its JSON shape: `workflow-state schema user-story`"))
    );
    let schema = env.ws(&["schema", "user-story"]).ok().json();
    assert_eq!(schema["$id"], "https://phasegate.dev/schemas/user-story.schema.json");
    env.ws(&["schema", "nope"]).code(2).stderr_has(
        "expected one of: meta, verdict, worker-signal, user-story, plan-refined, review, impl-result, loop-state, config, state, question, questions-config, review-cycles, implement-config, routing-config, ideation, knowledge-item",
    );
    let question = env.ws(&["schema", "question"]).ok().json();
    assert_eq!(question["$id"], "https://phasegate.dev/schemas/question.schema.json");
    let broken = TestEnv::fixture("user-story.json").replace("\"approved_by\": \"user\"", "\"approved_by\": 7");
    env.write_task(&f, "user-story.json", &broken);
    env.ws_as(S, &["pipeline", "check", "user-story"]).code(2).stderr_has("`workflow-state schema user-story`");
}

/// Bug 14: a `[feature]` argument that was a description, or no feature at
/// all, took two round trips before anything was written.
#[test]
fn a_first_run_starts_a_feature_from_the_users_words_in_one_call() {
    let env = TestEnv::new();
    let brief = env.ws(&["phase", "brief", "brainstorm"]).ok().stdout;
    assert!(brief.contains("workflow-state phase start brainstorm --new \"<the user's words>\""), "{brief}");
    let out = env.ws(&["phase", "start", "brainstorm", "--new", "Add search to the docs site"]).ok().json();
    assert_eq!(
        (out["feature"].as_str(), out["created"].as_bool()),
        (Some("001-add-search-to-the-docs-site"), Some(true))
    );
    assert_eq!(env.meta("001-add-search-to-the-docs-site")["currentPhase"], "brainstorm");
    // A description given as --feature is told how to become a feature.
    env.ws(&["phase", "brief", "brainstorm", "--feature", "dark mode"])
        .ok()
        .stdout_has("no feature matches `dark mode`")
        .stdout_has("workflow-state feature new \"dark mode\"");
}

/// Bug 15: seed-style `.meta.json` files (no `created`) were reported as
/// unreadable, and the SessionStart line cut the reason off.
#[test]
fn seed_style_meta_files_are_read_and_reasons_are_never_cut() {
    let env = TestEnv::new();
    env.write(
        "docs/features/001-auth/.meta.json",
        r#"{"id": "001", "mode": "Quick", "status": "active", "worktree": null, "currentPhase": "specify",
            "phases": {"specify": {"started": "2026-02-18T10:00:00Z", "completed": "2026-02-18T11:00:00Z", "verified": false, "iterations": 2, "reviewerNotes": []}}}"#,
    );
    env.ws(&["status"]).ok().stdout_has("001-auth  quick  active  specify  -      -     /phasegate:design");
    env.write("docs/features/002-bad/.meta.json", r#"{"id": "002", "slug": "bad", "status": "done"}"#);
    let hook = Run::new(HOOK, &["session-start"], env.root()).stdin(json!({"cwd": env.root()}).to_string()).ok();
    let context = hook.json()["hookSpecificOutput"]["additionalContext"].as_str().unwrap().to_owned();
    assert!(
        context.contains("002-bad is unreadable:")
            && context.contains("at /status: \"done\" is not one of \"active\", \"completed\", \"abandoned\""),
        "{context}"
    );
}
