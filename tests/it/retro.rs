//! The retrospective (seed 004 §6) through the real binary: the facts the
//! binary captures, §6.3's rules applied to the agent's proposals, the
//! injected gotchas judged by their task's outcome, the metrics kept per
//! feature with a trend, and CLAUDE.md promotion only after a person's yes.

use serde_json::{Value, json};

use crate::util::{TestEnv, commit_all};

const GOTCHA: &str =
    "Route handlers must await the auth check before reading the body, or anonymous posts slip through";

fn setup() -> (TestEnv, String) {
    let env = TestEnv::new();
    let f = env.feature("users", "standard");
    env.write(
        &format!("docs/features/{f}/tasks.md"),
        "- [ ] T1: Add the users table\n  - Files: server/routes/users.ts\n- [ ] T2: Add the report\n  - Files: web/report.html\n",
    );
    env.write("server/routes/index.ts", "export const routes = [];\n");
    commit_all(env.root());
    (env, f)
}

/// T1 fails once with a syntax error, then passes; T2 passes first time.
fn build(env: &TestEnv) {
    env.ws(&["tasks", "start", "T1"]).ok();
    env.write("server/routes/users.ts", "export const users = (req) => req.body;\n");
    let log = env.outer().join("fail.log");
    std::fs::write(&log, "SyntaxError: await is only valid in async functions\n").unwrap();
    env.ws(&["tasks", "fail", "T1", "--output-file", log.to_str().unwrap()]).ok().stdout_has("/phasegate:retro");
    env.ws(&["tasks", "start", "T1"]).ok();
    env.write("server/routes/users.ts", "export const users = async (req) => { await auth(req); return req.body; };\n");
    env.ws(&["tasks", "complete", "T1"]).ok();
    env.ws(&["tasks", "start", "T2"]).ok();
    env.write("web/report.html", "<h1>Report</h1>\n");
    env.write("web/extra.css", "h1 { color: red }\n");
    env.ws(&["tasks", "complete", "T2"]).ok();
}

fn reply(env: &TestEnv, f: &str, value: Value) -> String {
    let path = env.path(&format!("docs/features/{f}/.retro.reply.md"));
    std::fs::write(&path, format!("```json\n{value}\n```\n")).unwrap();
    path.display().to_string()
}

#[test]
fn the_facts_are_planned_against_changed_files_attempts_failures_and_metrics() {
    let (env, f) = setup();
    build(&env);
    let facts = env.ws(&["retro", "--json"]).ok().json();
    assert_eq!(facts["agent"], "phasegate:retrospective");
    assert_eq!(facts["planned"], json!(["server/routes/users.ts", "web/report.html"]));
    assert_eq!(facts["unplanned"], json!(["web/extra.css"]), "{facts}");
    let t1 = &facts["tasks"][0];
    assert_eq!((t1["attempts"].as_u64(), t1["selfCorrected"].as_bool()), (Some(2), Some(true)));
    assert_eq!(t1["failures"][0]["error_type"], "SYNTAX_ERROR");
    assert!(t1["failures"][0]["excerpt"].as_str().unwrap().contains("SyntaxError"));
    let m = &facts["metrics"];
    assert_eq!(m["first_pass_success"], 0.5, "T2 passed first time, T1 did not");
    assert_eq!(m["gotcha_effectiveness"], 0.0, "no task was given a gotcha");
    let prompt = facts["prompt"].as_str().unwrap();
    assert!(prompt.starts_with(&format!("RETROSPECTIVE of {f}")), "{prompt}");
    assert!(prompt.contains("failed then passed (a candidate gotcha)") && prompt.contains("web/extra.css"), "{prompt}");
    // One task's failure right away.
    let one = env.ws(&["retro", "--task", "T1", "--json"]).ok().json();
    assert_eq!(one["tasks"].as_array().unwrap().len(), 1);
}

#[test]
fn record_applies_the_seeds_rules_to_the_proposals() {
    let (env, f) = setup();
    build(&env);
    let file = reply(
        &env,
        &f,
        json!({
            "summary": "T1 read the body before the auth check.",
            "divergences": [
                {"kind": "addition", "what": "a stylesheet", "file": "web/extra.css", "beneficial": false},
                {"kind": "omission", "what": "no index", "intentional": true},
                {"kind": "rename", "what": "something else"}
            ],
            "gotchas": [
                {"task": "T1", "content": GOTCHA, "file": "server/routes/users.ts", "evidence": "SyntaxError: await is only valid in async functions"},
                {"task": "T2", "content": "The report server times out when the registry mirror is slow during the build", "evidence": "ETIMEDOUT", "error_type": "TIMEOUT", "reproducible": true},
                {"task": "T2", "content": "The report page flickers once when the stylesheet loads after the first paint", "evidence": "seen once", "reproducible": false}
            ],
            "patterns": [{"content": "Keep each report in its own page with a print stylesheet beside it", "topic": "report", "evidence": "T2 passed first time"}],
            "templates": [{"phase": "create-tasks", "gap": "no auth step in route tasks", "change": "Name the auth check each route task must await."}]
        }),
    );
    let r = env.ws(&["retro", "record", "--reply-file", &file, "--json"]).ok().json();
    let classes: Vec<&str> =
        r["record"]["divergences"].as_array().unwrap().iter().map(|d| d["class"].as_str().unwrap()).collect();
    assert_eq!(classes, ["BAD:scope_creep", "NEUTRAL:intentional_skip", "UNKNOWN"]);
    let lessons = r["record"]["lessons"].as_array().unwrap();
    let decision = |i: usize| lessons[i]["decision"].as_str().unwrap();
    assert_eq!(decision(0), "created", "T1 self-corrected: {lessons:?}");
    assert_eq!(decision(1), "not-recorded", "never for a TIMEOUT");
    assert!(lessons[1]["why"].as_str().unwrap().contains("TIMEOUT"));
    assert_eq!(decision(2), "not-recorded", "not self-corrected, not seen, not reproducible");
    assert_eq!(decision(3), "created", "the pattern");
    assert_eq!(r["record"]["templates"][0]["phase"], "create-tasks");
    assert!(r["record"]["templates"][0]["question"].as_str().unwrap().contains(".phasegate/templates/create-tasks.md"));
    // The gotcha is in the knowledge base, with the failure as its evidence.
    let id = lessons[0]["id"].as_str().unwrap();
    let item = env.ws(&["kb", "show", id, "--json"]).ok().json();
    assert_eq!((item["file_pattern"].as_str(), item["confidence"].as_f64()), (Some("server/routes/*"), Some(0.7)));
    assert_eq!(item["evidence"][0]["task"], "T1");
    assert!(item["evidence"][0]["excerpt"].as_str().unwrap().contains("SyntaxError"));
    // The record keeps the metrics; the trend reads it.
    let record: Value = serde_json::from_str(&env.read(&format!("docs/features/{f}/retro.json"))).unwrap();
    assert_eq!(record["metrics"]["first_pass_success"], 0.5);
    env.ws(&["retro", "trend"]).ok().stdout_has(&format!("{f}: first_pass_success 0.50"));
    // A reply that breaks its schema is refused, naming the field.
    let bad = reply(&env, &f, json!({"gotchas": [{"content": "x"}]}));
    env.ws(&["retro", "record", "--reply-file", &bad]).code(2).stderr_has("evidence");
}

#[test]
fn an_injected_gotcha_that_prevented_the_failure_rises_to_0_95_once() {
    let (env, f) = setup();
    let id = env.kb_gotcha_id(GOTCHA, "syntax error", &["--path", "server/routes/index.ts"]);
    commit_all(env.root());
    env.ws(&["tasks", "start", "T1"]).ok();
    env.ws(&["tasks", "context", "T1"]).ok().stdout_has(GOTCHA);
    env.write("server/routes/users.ts", "export const users = async (req) => { await auth(req); return req.body; };\n");
    env.ws(&["tasks", "complete", "T1"]).ok();
    let facts = env.ws(&["retro", "--json"]).ok().json();
    assert_eq!(facts["judge"], json!([{"task": "T1", "id": id, "outcome": "prevented"}]));
    assert_eq!(facts["metrics"]["gotcha_effectiveness"], 1.0);
    let file = reply(&env, &f, json!({"summary": "clean"}));
    env.ws(&["retro", "record", "--reply-file", &file]).ok();
    let item = env.ws(&["kb", "show", &id, "--json"]).ok().json();
    assert_eq!(
        (item["confidence"].as_f64(), item["prevented"].as_u64(), item["injected"].as_u64()),
        (Some(0.95), Some(1), Some(1))
    );
    // Recording again judges nothing twice.
    env.ws(&["retro", "record", "--reply-file", &file]).ok();
    assert_eq!(env.ws(&["kb", "show", &id, "--json"]).ok().json()["prevented"], 1);
}

/// The retrospective took any input error from judging an injected gotcha
/// for "the item is no longer in the knowledge base" (it matched every
/// `OpError::Invalid`). An item removed since the facts is skipped, and
/// the record goes through; the error is typed now, so nothing else is
/// taken for it.
#[test]
fn a_gotcha_removed_since_the_facts_is_not_judged_and_the_record_goes_through() {
    let (env, f) = setup();
    let id = env.kb_gotcha_id(GOTCHA, "syntax error", &["--path", "server/routes/index.ts"]);
    commit_all(env.root());
    env.ws(&["tasks", "start", "T1"]).ok();
    env.ws(&["tasks", "context", "T1"]).ok().stdout_has(GOTCHA);
    env.write("server/routes/users.ts", "export const users = async (req) => { await auth(req); return req.body; };\n");
    env.ws(&["tasks", "complete", "T1"]).ok();
    let facts = env.ws(&["retro", "--json"]).ok().json();
    assert_eq!(facts["judge"][0]["id"], id.as_str());
    // The item goes from the knowledge base (its file removed by hand).
    let file = walkdir::WalkDir::new(env.root())
        .into_iter()
        .flatten()
        .filter(|e| !e.path().components().any(|c| c.as_os_str() == ".git"))
        .find(|e| {
            e.file_type().is_file()
                && std::fs::read_to_string(e.path()).is_ok_and(|t| t.contains(&id) && t.contains(GOTCHA))
        })
        .expect("the item's file")
        .into_path();
    std::fs::remove_file(&file).unwrap();
    env.ws(&["kb", "show", &id]).code(2).stderr_has(&format!("no item `{id}`; `workflow-state kb list` shows them"));
    let reply_file = reply(&env, &f, json!({"summary": "clean"}));
    env.ws(&["retro", "record", "--reply-file", &reply_file]).ok();
}

/// Records the gotcha as seen in `feature` at 0.9 (a sighting of task T1).
fn sighting(env: &TestEnv, feature: &str, evidence: &str) -> String {
    let scope = ["--pattern", "server/routes/*", "--feature", feature, "--task", "T1", "--confidence", "0.9"];
    env.kb_gotcha_id(GOTCHA, evidence, &scope)
}

#[test]
fn promotion_to_claude_md_waits_for_a_persons_yes_and_touches_only_its_block() {
    let (env, f) = setup();
    let claude = "# Project\n\nOur own notes stay as they are.\n";
    env.write("CLAUDE.md", claude);
    let mut id = String::new();
    for (i, feature) in [&f, "002-search", "003-export"].into_iter().enumerate() {
        id = sighting(&env, feature, &format!("syntax error {i}"));
        if i < 2 {
            env.ws(&["kb", "promote", &id, "--feature", &f]).code(1).stderr_has("seen");
        }
    }
    // The third sighting: eligible; the first promote asks, nothing is written.
    let asked = env.ws(&["kb", "promote", &id, "--feature", &f, "--headless", "--json"]).ok().json();
    assert_eq!(asked["status"], "asked");
    let q = asked["question"].as_str().unwrap().to_owned();
    assert_eq!(env.read("CLAUDE.md"), claude);
    env.ws(&["kb", "promote", &id, "--feature", &f]).code(1).stderr_has(&q);
    assert_eq!(env.read("CLAUDE.md"), claude);
    env.ws_terminal(&["question", "answer", &q, "Yes"]).ok();
    let done = env.ws(&["kb", "promote", &id, "--feature", &f, "--json"]).ok().json();
    assert_eq!(done["status"], "promoted");
    let text = env.read("CLAUDE.md");
    assert!(text.starts_with(claude), "the rest of the file is untouched:\n{text}");
    assert!(
        text.contains("<!-- phasegate:knowledge -->")
            && text.contains(GOTCHA)
            && text.contains(&format!("<!-- {id} -->")),
        "{text}"
    );
    // Promoted once: asking again changes nothing.
    env.ws(&["kb", "promote", &id, "--feature", &f]).ok().stdout_has("already");
    assert_eq!(env.read("CLAUDE.md"), text);
}

#[test]
fn a_no_or_a_broken_block_writes_nothing() {
    let (env, f) = setup();
    let mut id = String::new();
    for (i, feature) in [&f, "002-search", "003-export"].into_iter().enumerate() {
        id = sighting(&env, feature, &format!("e{i}"));
    }
    let broken = "# P\n<!-- phasegate:knowledge -->\n- something\n";
    env.write("CLAUDE.md", broken);
    env.ws(&["kb", "promote", &id, "--feature", &f]).code(2).stderr_has("CLAUDE.md line 2");
    env.write("CLAUDE.md", "# P\n");
    let asked = env.ws(&["kb", "promote", &id, "--feature", &f, "--headless", "--json"]).ok().json();
    env.ws_terminal(&["question", "answer", asked["question"].as_str().unwrap(), "No"]).ok();
    let r = env.ws(&["kb", "promote", &id, "--feature", &f, "--json"]).ok().json();
    assert_eq!(r["status"], "declined");
    assert_eq!(env.read("CLAUDE.md"), "# P\n");
}

#[test]
fn a_recorded_retrospective_was_offered_again_by_its_events_and_by_finish() {
    let (env, f) = setup();
    build(&env); // T1's failure: a task.failed event
    let done = env.ws(&["events", "emit", "build.completed", "--feature", &f]).ok().json();
    let other = env.ws(&["events", "emit", "build.completed", "--feature", "002-other"]).ok().json();
    let pending = |env: &TestEnv| -> Vec<String> {
        let p = env.ws(&["events", "pending", "--json"]).ok().json();
        p["events"].as_array().unwrap().iter().map(|e| e["id"].as_str().unwrap().to_owned()).collect()
    };
    // T1 failed, then passed: its task.failed settled when it completed (the
    // build's retrospective reads its failure).
    assert_eq!(pending(&env).len(), 2, "two build.completed wait");
    let file = reply(&env, &f, json!({"summary": "clean"}));
    let recorded = env.ws(&["retro", "record", "--reply-file", &file, "--json"]).ok().json();
    let settled = recorded["settled"].as_array().unwrap();
    assert_eq!(settled.len(), 1, "{recorded}");
    assert!(settled.contains(&done["id"]), "{recorded}");
    // Another feature's build still waits for its own retrospective.
    assert_eq!(pending(&env), vec![other["id"].as_str().unwrap().to_owned()]);
    // An event after the record (the build went on) is offered as usual.
    let later = env.ws(&["events", "emit", "task.failed", "--feature", &f, "--task", "T2"]).ok().json();
    assert!(pending(&env).contains(&later["id"].as_str().unwrap().to_owned()));
    env.prove(&f);
    let finished = env.ws(&["finish"]).ok().json();
    let message = finished["message"].as_str().unwrap();
    assert!(
        message.contains("its retrospective is recorded already") && !message.contains("/phasegate:retro"),
        "{message}"
    );
}
