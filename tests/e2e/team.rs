//! A team across machines in the real Claude Code (issue 34): two clones
//! of one remote (a bare repository reached as a file path), each with its
//! own git user. A's session starts T1 and claims it on the remote; B's
//! session is refused T1, naming A, asks for the next task and takes T2.

use std::path::Path;
use std::process::Command;

use phasegate_testkit::{MockApi, Scenario, ToolUse, Turn};

use crate::support::Fixture;

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git").args(args).current_dir(dir).env_remove("GIT_DIR").output().unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn bs_session_is_refused_as_task_named_and_takes_the_next_one() {
    let f = Fixture::repo();
    let base = f.repo.parent().unwrap().to_path_buf();
    let remote = base.join("remote.git");
    git(&base, &["init", "--quiet", "--bare", "--initial-branch=main", remote.to_str().unwrap()]);
    let a = f.repo.clone();
    git(&a, &["config", "user.name", "Ann"]);
    git(&a, &["config", "user.email", "ann@example.com"]);
    git(&a, &["branch", "-M", "main"]);
    git(&a, &["remote", "add", "origin", remote.to_str().unwrap()]);
    let out = f.ws(&["feature", "new", "parser"]);
    let feature = Path::new(out.lines().next().unwrap().trim()).file_name().unwrap().to_string_lossy().into_owned();
    f.write(
        &format!("docs/features/{feature}/tasks.md"),
        "# Tasks\n\n## Phase 1 (parallel)\n\n- [ ] T1: build the parser\n- [ ] T2: write the docs\n",
    );
    git(&a, &["add", "docs"]);
    git(&a, &["commit", "--quiet", "-m", "feature"]);
    git(&a, &["push", "--quiet", "origin", "main"]);
    let b = base.join("clone-b");
    git(&base, &["clone", "--quiet", remote.to_str().unwrap(), b.to_str().unwrap()]);
    git(&b, &["config", "user.name", "Bob"]);
    git(&b, &["config", "user.email", "bob@example.com"]);

    let start = |t: &str| format!("workflow-state tasks start {t} --feature {feature}");
    let api_a = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::bash(start("T1"))]),
        Turn::text("T1 is mine.").expect_tool_result_contains("\"task\":\"T1\""),
    ]));
    let ran = f.claude_in(&a).prompt("take T1").run(&api_a);
    assert!(ran.success(), "A: {}", ran.report());
    api_a.assert_finished();

    let api_b = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::bash(start("T1"))]),
        Turn::tools(vec![ToolUse::bash(format!("workflow-state tasks next --feature {feature}"))])
            .expect_tool_result_contains(format!("T1 of {feature} is claimed on origin by Ann <ann@example.com> on ")),
        Turn::tools(vec![ToolUse::bash(start("T2"))]).expect_tool_result_contains("T2"),
        Turn::text("T2 is mine.").expect_tool_result_contains("\"task\":\"T2\""),
    ]));
    let ran = f.claude_in(&b).prompt("take T1").run(&api_b);
    assert!(ran.success(), "B: {}", ran.report());
    api_b.assert_finished();

    let claims = git(&remote, &["for-each-ref", "--format=%(refname) %(contents:subject)", "refs/phasegate/claims/"]);
    let t1 = claims.lines().find(|l| l.contains("/T1 ")).unwrap_or_default();
    let t2 = claims.lines().find(|l| l.contains("/T2 ")).unwrap_or_default();
    assert!(t1.contains("Ann <ann@example.com>") && t2.contains("Bob <bob@example.com>"), "{claims}");
}
