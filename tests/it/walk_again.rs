//! Regressions from the second full walk of a feature and a pipeline in
//! the real Claude Code (issue 31, "What the walk, the attack and new
//! toolchains found"): one test per bug, named after it.

use serde_json::{Value, json};

use crate::util::{HOOK, Run, TestEnv, commit_all};

const S: &str = "session-1";
const PROMISE: &str = "<promise>IMPLEMENTATION_COMPLETE</promise>";

/// What SessionStart tells the model in `env`.
fn session_start(env: &TestEnv) -> String {
    let input = json!({
        "session_id": "s-walk", "transcript_path": "/tmp/t.jsonl", "cwd": env.root(),
        "hook_event_name": "SessionStart", "source": "startup"
    });
    let out = Run::new(HOOK, &["session-start"], env.root()).stdin(input.to_string()).ok();
    let v: Value = out.json();
    v["hookSpecificOutput"]["additionalContext"].as_str().unwrap_or_default().to_owned()
}

/// A standard feature whose verify phase is complete, proven by one
/// passing check on the committed tree.
fn verified(env: &TestEnv) -> String {
    let f = env.feature("search", "standard");
    env.write("src/search.py", "def search(): return 1\n");
    env.write(&format!("docs/features/{f}/spec.md"), "# Spec\n\n## Requirements\n\n- **R1**: search finds a title\n");
    env.write(&format!("docs/features/{f}/tasks.md"), "# Tasks\n\n- [x] T1: search\n\n## Checks\n\n- R1: `true`\n");
    env.ws(&["phase", "start", "verify", "--feature", &f]).ok();
    env.ws(&["verify", "run", "--feature", &f]).ok();
    env.ws(&["phase", "complete", "verify", "--feature", &f]).ok();
    commit_all(env.root());
    f
}

/// Bug 7: a stale ledger sent the model to a finish that refused:
/// SessionStart said "proof 3/3 proven … Next: /phasegate:finish",
/// `status` showed "0/1 stale" and still suggested finish, the finish brief
/// said "proceed", and `finish` exited 1. Everywhere the ledger is read, a
/// stale proof now says so and names `verify run`, which runs as printed.
#[test]
fn a_stale_ledger_sends_the_model_to_a_finish_that_refuses() {
    let env = TestEnv::new();
    let f = verified(&env);
    let run = format!("workflow-state verify run --feature {f}");
    // Proven: finish is next, everywhere.
    assert!(session_start(&env).contains("proof 1/1 proven. Next: /phasegate:finish"), "{}", session_start(&env));
    let row = |env: &TestEnv| env.ws(&["status", "--json"]).ok().json()[0].clone();
    assert_eq!(row(&env)["next"], "/phasegate:finish");
    // The code changes after the checks ran.
    env.write("src/search.py", "def search(): return 2\n");
    let told = session_start(&env);
    assert!(told.contains("proof stale: the code changed since `verify run`"), "{told}");
    assert!(told.contains(&format!("Next: {run}")) && !told.contains("/phasegate:finish"), "{told}");
    let status = env.ws(&["status"]).ok().stdout;
    assert!(status.contains(&format!("proof of {f}: stale: run `{run}`")), "{status}");
    assert!(!status.contains("/phasegate:finish"), "{status}");
    assert_eq!(row(&env)["next"], run.as_str());
    let next = env.ws(&["next", "--feature", &f, "--json"]).ok().json();
    assert_eq!(next["command"], run.as_str(), "{next}");
    let brief = env.ws(&["phase", "brief", "finish", "--feature", &f]).ok().stdout;
    assert!(brief.contains("transition to finish: BLOCKED: the proof is stale"), "{brief}");
    assert!(brief.contains(&format!("Run `{run}`, then finish")) && !brief.contains("proceed"), "{brief}");
    // The refusal says plainly that the proof is stale and what to run.
    let refused = env.ws(&["finish", "--feature", &f]).code(1);
    assert!(
        refused.stderr.contains(&format!(
            "{f}'s proof is stale: the checks of 1/1 requirements passed, but the code changed since `verify run` ran them. Run them again: `{run}`"
        )),
        "{}",
        refused.report()
    );
    assert!(!refused.stderr.contains("(proven: stale"), "{}", refused.report());
    // The command printed everywhere, run as printed, brings finish back.
    let args: Vec<&str> = run.split_whitespace().skip(1).collect();
    env.ws(&args).ok();
    assert!(session_start(&env).contains("Next: /phasegate:finish"));
    assert_eq!(row(&env)["next"], "/phasegate:finish");
    let brief = env.ws(&["phase", "brief", "finish", "--feature", &f]).ok().stdout;
    assert!(brief.contains("transition to finish: proceed"), "{brief}");
    env.ws(&["finish", "--feature", &f]).ok();
}

/// Bug 1: the report showed no proof for a finished feature, though its
/// section is "Cost and proof by feature" and the README promises it: the
/// proof row was read only for active features. A finished feature's proof
/// is what `finish` accepted, its ledger at the tree its checks ran on; the
/// code moving on since (the next feature) does not make it stale.
#[test]
fn the_report_shows_no_proof_for_a_finished_feature() {
    let env = TestEnv::new();
    let f = verified(&env);
    env.ws(&["finish", "--feature", &f]).ok();
    commit_all(env.root());
    env.write("src/other.py", "x = 1\n");
    let html = env.ws(&["report", "--out", "-"]).ok().stdout;
    let section = html.split("<section id=\"features\">").nth(1).unwrap().split("</section>").next().unwrap();
    assert!(section.contains(&format!("id=\"f-{f}\"")), "the finished feature is in the section:\n{section}");
    assert!(section.contains("Proof: 1/1 proven when it finished"), "{section}");
    assert!(
        section.contains("<td>R1</td><td>search finds a title</td><td class=\"status-proven\">proven</td>"),
        "{section}"
    );
    assert!(!section.contains("The tree changed since the checks ran"), "{section}");
    let card = html.split(&format!("data-feature=\"{f}\"")).nth(1).unwrap().split("</a>").next().unwrap();
    assert!(card.contains("badge proven") && card.contains("proof 1/1"), "{card}");
}

/// Bug 3: ideation completed without its required brief. In REFINING, a
/// confidence above 75% recorded before the brief completed ideation; the
/// brief was then refused while handoff.md said "Missing (required):
/// capture it before running /phasegate:specify". After COMPLETE, `ideation
/// confidence` exited 1 but `ideation advance` exited 0.
/// `workflow-state ideation <args> --feature <f>`.
fn ideation(env: &TestEnv, f: &str, args: &[&str]) -> Run {
    let mut all = vec!["ideation"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--feature", f]);
    env.ws(&all)
}

/// A feature whose ideation reached REFINING: every artifact but the brief,
/// 3 validations and a risk, no overall confidence yet.
fn refining(env: &TestEnv) -> String {
    let f = env.feature("habits", "standard");
    ideation(env, &f, &["start", "A habit tracker for night-shift nurses"]).ok();
    for (kind, text) in [
        ("target-user", "night-shift nurses"),
        ("problem", "habits break on rotating shifts"),
        ("solution-concept", "shift-aware reminders"),
        ("mvp-features", "reminders, streaks"),
        ("differentiator", "knows the rota"),
    ] {
        ideation(env, &f, &["artifact", kind, text, "--confidence", "0.8"]).ok();
    }
    for v in ["nurses want it", "rotas are digital", "reminders help"] {
        ideation(env, &f, &["decision", v, "--type", "validation"]).ok();
    }
    ideation(env, &f, &["risk", "hospitals block apps"]).ok();
    f
}

#[test]
fn ideation_completes_without_its_required_brief() {
    let env = TestEnv::new();
    let f = refining(&env);
    let ws = |args: &[&str]| ideation(&env, &f, args);
    assert_eq!(ws(&["show", "--json"]).ok().json()["phase"], "REFINING");
    // A high confidence before the brief: still REFINING, and the brief is
    // named as the one thing left.
    let ready = ws(&["confidence", "0.9", "--json"]).ok().json();
    assert_eq!(ready["phase"], "REFINING", "{ready}");
    let why = ready["next"]["reasons"][0].as_str().unwrap();
    assert!(why.contains("the brief alone completes ideation (the specify phase needs it)"), "{why}");
    assert!(!why.contains(" and "), "one condition, said as one: {why}");
    let advance = ws(&["advance"]).ok().stdout;
    assert!(advance.contains("Still REFINING: no brief artifact yet"), "{advance}");
    // The brief completes it, and the handoff has it.
    let done = ws(&["artifact", "brief", "Shift-aware habit reminders for nurses", "--confidence", "0.8", "--json"])
        .ok()
        .json();
    assert_eq!(done["phase"], "COMPLETE", "{done}");
    let handoff = env.read(&format!("docs/features/{f}/handoff.md"));
    assert!(handoff.contains("| Brief | required | yes |") && !handoff.contains("Missing (required)"), "{handoff}");
    assert!(handoff.contains("## Brief\n\nShift-aware habit reminders for nurses\n"), "{handoff}");
    // After COMPLETE nothing moves: advance refuses as the recordings do.
    ws(&["confidence", "0.95"]).code(1).stderr_has("is complete");
    ws(&["advance"]).code(1).stderr_has("is complete");
}

/// A pipeline at its implementation loop whose plan's acceptance check is
/// `check` (its tests pass).
fn pipeline_checked_by(env: &TestEnv, check: &str) -> String {
    let f = env.to_loop(S, "echo 'All tests passed'", 5);
    let path = format!("docs/features/{f}/.task/plan-refined.json");
    let mut plan: Value = serde_json::from_str(&env.read(&path)).unwrap();
    plan["test_plan"]["checks"] = json!([{"requirements": ["AC1"], "command": check}]);
    std::fs::write(env.path(&path), plan.to_string()).unwrap();
    f
}

/// Bug 4: the Stop hook contradicted itself: "the plan's tests fail: the
/// plan's tests pass, but its acceptance criteria are not proven (0/2)".
#[test]
fn the_stop_hook_contradicts_itself() {
    let env = TestEnv::new();
    let f = pipeline_checked_by(&env, "echo 'AC1 not met'; exit 1");
    env.approve_code(S, &f);
    let input = json!({
        "session_id": S, "transcript_path": "/tmp/t.jsonl", "cwd": env.root(),
        "hook_event_name": "Stop", "stop_hook_active": false, "last_assistant_message": PROMISE
    });
    let out = Run::new(HOOK, &["stop"], env.root()).stdin(input.to_string()).ok().json();
    let reason = out["reason"].as_str().unwrap();
    assert!(
        reason.contains("the plan's tests pass, but its acceptance criteria are not proven: 0/1 proven"),
        "{reason}"
    );
    assert!(reason.contains("AC1 (failed: `echo 'AC1 not met'; exit 1` exited 1)"), "{reason}");
    assert!(!reason.contains("tests fail"), "{reason}");
    // `pipeline test` says the same, as one message.
    let test = env.ws_as(S, &["pipeline", "test"]).code(1).json();
    let summary = test["summary"].as_str().unwrap();
    assert!(summary.starts_with("the plan's tests pass, but its acceptance criteria are not proven"), "{summary}");
}

/// Bug 5: `pipeline check plan-refined` accepted a plan with no
/// `test_plan.checks`; both plan reviews and the code gate passed it, and
/// only the final Stop hook refused, after spending loop iterations. It is
/// refused where the plan is checked: by `pipeline check` and before the
/// plan's review.
#[test]
fn pipeline_check_accepts_a_plan_with_no_test_plan_checks() {
    let env = TestEnv::new();
    let f = env.pipeline(S);
    env.write_task(&f, "user-story.json", &TestEnv::fixture("user-story.json"));
    let mut plan: Value = serde_json::from_str(&TestEnv::fixture("plan-refined.json")).unwrap();
    plan["test_plan"].as_object_mut().unwrap().remove("checks");
    env.write_task(&f, "plan-refined.json", &plan.to_string());
    let refused = env.ws_as(S, &["pipeline", "check", "plan-refined"]).code(2);
    refused.stderr_has("test_plan.checks is empty: give each acceptance criterion of the user story (AC1) a check");
    for to in ["plan_drafting", "plan_refining"] {
        env.ws_as(S, &["pipeline", "transition", to]).ok();
    }
    env.ws_as(S, &["pipeline", "transition", "plan_reviewing"]).code(1).stderr_has("test_plan.checks is empty");
    assert_eq!(env.run_state(&f)["state"], "plan_refining", "no review is spent on it");
    // A check naming a criterion the story lacks, and none for AC1: refused too.
    plan["test_plan"]["checks"] = json!([{"requirements": ["AC9"], "command": "true"}]);
    env.write_task(&f, "plan-refined.json", &plan.to_string());
    env.ws_as(S, &["pipeline", "check", "plan-refined"])
        .code(2)
        .stderr_has("test_plan.checks[0] names AC9, which is not an acceptance criterion of the user story (AC1)")
        .stderr_has("no check in test_plan.checks names AC1");
    // Every criterion checked: accepted, and its review can begin.
    plan["test_plan"]["checks"] = json!([{"requirements": ["AC1"], "command": "sh test.sh"}]);
    env.write_task(&f, "plan-refined.json", &plan.to_string());
    env.ws_as(S, &["pipeline", "check", "plan-refined"]).ok().stdout_has("is a valid plan-refined file");
    env.ws_as(S, &["pipeline", "transition", "plan_reviewing"]).ok();
}

/// Bug 6: `verify list` on a pipeline told the model to add `## Checks`
/// lines to plan-refined.json, a JSON file; its checks belong in
/// `test_plan.checks`.
#[test]
fn verify_list_on_a_pipeline_tells_the_model_to_add_checks_lines_to_a_json_file() {
    let env = TestEnv::new();
    let f = env.pipeline(S);
    let mut story: Value = serde_json::from_str(&TestEnv::fixture("user-story.json")).unwrap();
    story["acceptance_criteria"].as_array_mut().unwrap().push(json!({
        "id": "AC2", "scenario": "Wrong password", "given": "a user", "when": "the password is wrong", "then": "refused"
    }));
    env.write_task(&f, "user-story.json", &story.to_string());
    env.write_task(&f, "plan-refined.json", &TestEnv::fixture("plan-refined.json"));
    let listed = env.ws(&["verify", "list", "--feature", &f]).ok().stdout;
    assert!(listed.contains("AC2 Wrong password — no check"), "{listed}");
    assert!(!listed.contains("## Checks"), "{listed}");
    assert!(
        listed.contains(&format!(
            "No check names AC2: add one per criterion to `test_plan.checks` in docs/features/{f}/.task/plan-refined.json"
        )),
        "{listed}"
    );
    // The command it names runs as printed, and names the same gap.
    env.ws(&["pipeline", "check", "plan-refined", "--feature", &f])
        .code(2)
        .stderr_has("no check in test_plan.checks names AC2");
    // A phased feature is still told about tasks.md.
    let g = env.feature("login", "standard");
    env.write(&format!("docs/features/{g}/spec.md"), "# Spec\n\n## Requirements\n\n- **R1**: it logs in\n");
    env.ws(&["verify", "list", "--feature", &g]).ok().stdout_has("under `## Checks` in docs/features/");
}

/// The deepest parentheses in `s` outside backticks (a command's own
/// parentheses are not the sentence's).
fn paren_depth(s: &str) -> usize {
    let (mut depth, mut deepest, mut code) = (0usize, 0usize, false);
    for ch in s.chars() {
        match ch {
            '`' => code = !code,
            '(' if !code => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            ')' if !code => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Friction: finish refused with "not proven (0/3 proven (stale …)): R1
/// (proven: stale …)": parentheses inside parentheses, a stale requirement
/// called "proven", and staleness said twice. The refusal now counts in its
/// parentheses, then says once what holds each requirement.
#[test]
fn the_not_proven_refusal_nests_parentheses_and_calls_stale_proven() {
    let env = TestEnv::new();
    let f = env.feature("search", "standard");
    env.write("src/search.py", "def search(): return 1\n");
    env.write(
        &format!("docs/features/{f}/spec.md"),
        "# Spec\n\n## Requirements\n\n- **R1**: finds\n- **R2**: pages\n- **R3**: ranks\n",
    );
    env.write(
        &format!("docs/features/{f}/tasks.md"),
        "# Tasks\n\n- [x] T1: search\n\n## Checks\n\n- R1, R2: `true`\n- R3: `test -f ranked`\n",
    );
    env.ws(&["phase", "start", "verify", "--feature", &f]).ok();
    env.ws(&["verify", "run", "--feature", &f]).code(1);
    commit_all(env.root());
    env.write("src/search.py", "def search(): return 2\n");
    let refused = env.ws(&["finish", "--feature", &f]).code(1);
    let said = refused.stderr.trim();
    assert!(
        said.contains(&format!(
            "{f} is not proven (0/3 proven, 2 stale): R3 (failed: `test -f ranked` exited 1 at the last run); R1, R2 stale (proven before the code changed). Run `workflow-state verify run --feature {f}`"
        )),
        "{}",
        refused.report()
    );
    assert_eq!(paren_depth(said), 1, "no parentheses inside parentheses: {said}");
    assert!(!said.contains("proven: stale"), "a stale requirement is not called proven: {said}");
    // `verify status` and `verify run` say it the same way.
    let status = env.ws(&["verify", "status", "--feature", &f]).code(1).stdout;
    assert!(status.contains(&format!("{f}: 0/3 proven, 2 stale (mode standard")), "{status}");
    assert!(status.lines().all(|l| paren_depth(l) <= 1), "{status}");
    let ran = env.ws(&["verify", "run", "--feature", &f]).code(1);
    assert!(paren_depth(&ran.stdout) <= 1 && paren_depth(&ran.stderr) <= 1, "{}", ran.report());
}

/// Friction: REFINING's rule read as if it needed both a confidence above
/// 75% and the brief (`ideation advance --help` said "REFINING 3
/// validations and a risk; COMPLETE the brief", naming each rule by the
/// phase it leads to; the skill said only "ideation completes with it").
/// Every place that states it now says the brief alone completes ideation,
/// and a low confidence does not hold it back.
#[test]
fn refinings_rule_reads_as_if_both_conditions_are_needed() {
    let env = TestEnv::new();
    let help = env.ws(&["ideation", "advance", "--help"]).ok().stdout;
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(help.contains("REFINING with the brief artifact alone, whatever the confidence"), "{help}");
    assert!(!help.contains("REFINING 3 validations"), "{help}");
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let flat = |rel: &str| {
        let text = std::fs::read_to_string(repo.join(rel)).unwrap();
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    assert!(flat("docs/coordination.md").contains("REFINING with the brief alone"));
    assert!(
        flat("skills/workflow-state/phases/brainstorm.md")
            .contains("the brief alone completes ideation, whatever the confidence")
    );
    // What the binary prints at REFINING names the brief as the one thing.
    let f = refining(&env);
    let low = ideation(&env, &f, &["advance"]).ok().stdout;
    assert!(low.contains("Still REFINING: no brief artifact yet: the brief alone completes ideation"), "{low}");
    let high = ideation(&env, &f, &["confidence", "0.9"]).ok().stdout;
    assert!(high.contains("the brief alone completes ideation (the specify phase needs it); the confidence, 90%, says the idea is ready for it"), "{high}");
    // The brief completes it at a low confidence.
    ideation(&env, &f, &["confidence", "0.2"]).ok();
    let done = ideation(&env, &f, &["artifact", "brief", "Shift-aware reminders", "--confidence", "0.3", "--json"])
        .ok()
        .json();
    assert_eq!(done["phase"], "COMPLETE", "{done}");
}

/// Friction: verify offered the retrospective before finish. Implement's
/// completion said `build.completed`, so the session at verify was told
/// "learn from it while the evidence is fresh: run /phasegate:retro",
/// before verify had fixed what it found. The build is done when it is
/// proven: `finish` says it, and the retrospective is offered then.
#[test]
fn verify_offers_the_retrospective_before_finish() {
    let env = TestEnv::new();
    let f = env.feature("login", "quick");
    env.write(&format!("docs/features/{f}/spec.md"), "# Spec\n\n## Requirements\n\n- **R1**: it works\n");
    env.ws(&["phase", "start", "implement", "--feature", &f]).ok();
    env.ws_terminal(&["phase", "complete", "implement", "--feature", &f]).ok();
    env.ws(&["phase", "start", "verify", "--feature", &f]).ok();
    let pending = |env: &TestEnv| env.ws(&["events", "pending"]).ok().stdout;
    assert!(!pending(&env).contains("build.completed"), "{}", pending(&env));
    let told = session_start(&env);
    assert!(!told.contains("/phasegate:retro") && !told.contains("build.completed"), "{told}");
    env.prove(&f);
    env.ws(&["finish", "--feature", &f]).ok();
    assert!(pending(&env).contains(&format!("build.completed for {f}: learn from it")), "{}", pending(&env));
    let told = session_start(&env);
    assert!(told.contains(&format!("build.completed for {f}")) && told.contains("/phasegate:retro"), "{told}");
}

/// Friction: the retrospective never saw the failed check that verify
/// fixed: the ledger kept only the last run. It now keeps the runs before
/// it (what failed in each), and the retrospective's facts and brief name
/// the check, how often it failed, and that it passes now.
#[test]
fn the_retrospective_never_sees_the_failed_check_verify_fixed() {
    let env = TestEnv::new();
    let f = env.feature("export", "standard");
    env.write(&format!("docs/features/{f}/spec.md"), "# Spec\n\n## Requirements\n\n- **R1**: exports a file\n");
    env.write(
        &format!("docs/features/{f}/tasks.md"),
        "# Tasks\n\n- [x] T1: export\n\n## Checks\n\n- R1: `test -f out.csv || { echo 'out.csv is missing'; exit 3; }`\n",
    );
    env.ws(&["verify", "run", "--feature", &f]).code(1);
    env.ws(&["verify", "run", "--feature", &f]).code(1);
    env.write("out.csv", "a,b\n");
    env.ws(&["verify", "run", "--feature", &f]).ok();
    let ledger: Value = serde_json::from_str(&env.read(&format!("docs/features/{f}/evidence.json"))).unwrap();
    assert_eq!(ledger["earlier"].as_array().map(Vec::len), Some(2), "{ledger}");
    // The ledger still reads against its schema.
    env.ws(&["verify", "status", "--feature", &f]).ok();
    let facts = env.ws(&["retro", "--json", "--feature", &f]).ok().json();
    let failures = facts["verifyFailures"].as_array().unwrap();
    assert_eq!(failures.len(), 1, "{facts}");
    let v = &failures[0];
    assert_eq!(v["requirements"], json!(["R1"]));
    assert_eq!(v["failedRuns"], 2);
    assert_eq!(v["passesNow"], true);
    assert!(v["failure"].as_str().unwrap().ends_with("exited 3"), "{v}");
    assert!(v["output"].as_str().unwrap().contains("out.csv is missing"), "{v}");
    let prompt = facts["prompt"].as_str().unwrap();
    assert!(prompt.contains("VERIFY (checks that failed in a `verify run`)"), "{prompt}");
    assert!(prompt.contains("failed in 2 runs") && prompt.contains("passes now: verify fixed it"), "{prompt}");
}

/// `name`'s hook input for `event` in `env`.
fn hook_as(env: &TestEnv, event: &str, session: &str, extra: Value) {
    let mut input = json!({"session_id": session, "cwd": env.root(), "hook_event_name": event});
    input.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    let arg = match event {
        "SessionStart" => "session-start",
        _ => "session-end",
    };
    Run::new(HOOK, &[arg], env.root()).stdin(input.to_string()).ok();
}

/// Friction: the report listed 26 ended sessions under "Right now". It
/// lists the sessions at work, and says how many more ended or went silent
/// lately, with the command that lists them.
#[test]
fn the_report_lists_ended_sessions_under_right_now() {
    let env = TestEnv::new();
    for s in ["sess-live", "sess-done-1", "sess-done-2", "sess-done-3"] {
        hook_as(&env, "SessionStart", s, json!({"source": "startup"}));
    }
    for s in ["sess-done-1", "sess-done-2", "sess-done-3"] {
        hook_as(&env, "SessionEnd", s, json!({"reason": "exit"}));
    }
    let html = env.ws(&["report", "--out", "-"]).ok().stdout;
    let now = html.split("<section id=\"now\">").nth(1).unwrap().split("</section>").next().unwrap();
    assert!(now.contains("<h3>Sessions at work (1)</h3>"), "{now}");
    assert!(now.contains("<code>sess-live</code>"), "{now}");
    assert!(!now.contains("sess-done"), "{now}");
    assert!(
        now.contains("3 more ended or went silent in the last hour: <code>workflow-state watch --once</code>"),
        "{now}"
    );
    let listed = env.ws(&["watch", "--once"]).ok().stdout;
    assert!(listed.contains("sess-done-1"), "the command printed lists them: {listed}");
}

/// Friction: the report's agent rows changed order between runs: they came
/// in the order the sub-agents' transcripts were read, and those are named
/// by random ids. The same agents now give the same rows, the session
/// itself first, then by name.
#[test]
fn agent_rows_change_order_between_runs() {
    let rows_with = |ids: [&str; 2]| -> Vec<String> {
        let c = crate::cost::Costed::new();
        c.append(&crate::cost::line("m1", "claude-sonnet-4-5", 1000, 100));
        let types = ["phasegate:spec-reviewer", "phasegate:chain-reviewer"];
        for (i, (id, t)) in ids.iter().zip(types).enumerate() {
            c.subagent(id, t, &crate::cost::line(&format!("a{i}"), "claude-sonnet-4-5", 500, 50));
        }
        let html = c.ws(&["report", "--out", "-"]).ok().stdout;
        let table = html.split("<table class=\"agents\">").nth(1).unwrap().split("</table>").next().unwrap();
        table.split("<tr><td>").skip(1).map(|r| r.split("</td>").next().unwrap().to_owned()).collect()
    };
    let first = rows_with(["0aaa", "1bbb"]);
    let second = rows_with(["1bbb", "0aaa"]);
    assert_eq!(first, ["main", "phasegate:chain-reviewer", "phasegate:spec-reviewer"]);
    assert_eq!(second, first, "the same agents, the same rows");
}
