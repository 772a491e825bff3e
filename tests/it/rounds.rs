//! The implementer round loop (seed 000 Part 1) through the real binaries:
//! QUESTION, QUESTION, COMPLETE with the whole Q&A re-injected; the cap and
//! its `Open Questions` check; malformed replies refused with the format; a
//! question handed to a person suspends the feature and its answer becomes
//! the next `A_n`; the SubagentStop hook sends a malformed reply back once.

use serde_json::json;

use crate::util::{HOOK, Run, TestEnv};

fn start(env: &TestEnv, f: &str) {
    let brief = env.write("brief.md", "Design the dashboard of R1 and R2.\n");
    env.ws(&["rounds", "start", "design", "--feature", f, "--brief-file", brief.to_str().unwrap()]).ok();
}

fn record(env: &TestEnv, f: &str, reply: &str) -> serde_json::Value {
    env.ws(&["rounds", "record", "design", "--feature", f, "--reply-file", "-"]).stdin(reply).ok().json()
}

fn prompt(env: &TestEnv, f: &str) -> String {
    env.ws(&["rounds", "prompt", "design", "--feature", f]).ok().json()["prompt"].as_str().unwrap().to_owned()
}

#[test]
fn question_question_complete_re_injects_every_answer_and_writes_the_document() {
    let env = TestEnv::new();
    let f = env.feature("dash", "standard");
    start(&env, &f);
    let first = env.ws(&["rounds", "prompt", "design", "--feature", &f]).ok().json();
    assert_eq!(
        (first["agent"].as_str(), first["model"].as_str()),
        (Some("phasegate:design-implementer"), Some("sonnet"))
    );
    assert!(!first["prompt"].as_str().unwrap().contains("Prior Design Q&A"));
    let d = record(&env, &f, "STATUS: QUESTION\nQUESTION: Grid or list?\nCONTEXT: The spec names both.\n");
    assert_eq!((d["decision"].as_str(), d["question"][1].as_str()), (Some("answer"), Some("Grid or list?")));
    env.ws(&["rounds", "answer", "design", "--feature", &f, "--text", "Grid."]).ok();
    assert!(prompt(&env, &f).contains("## Prior Design Q&A\nQ1: Grid or list?\nA1: Grid.\n"));
    record(&env, &f, "STATUS: QUESTION\nQUESTION: Dark mode?\nCONTEXT: Theme support.\n");
    env.ws(&["rounds", "answer", "design", "--feature", &f, "--text", "Both themes."]).ok();
    let third = prompt(&env, &f);
    assert!(
        third.contains("## Prior Design Q&A\nQ1: Grid or list?\nA1: Grid.\nQ2: Dark mode?\nA2: Both themes.\n\n## Brief\nDesign the dashboard"),
        "{third}"
    );
    let d = record(&env, &f, "STATUS: COMPLETE\n---\n# Design\n\nA grid.\n");
    assert_eq!((d["decision"].as_str(), d["round"].as_u64()), (Some("complete"), Some(3)));
    assert_eq!(env.read(&format!("docs/features/{f}/design.md")), "# Design\n\nA grid.\n");
}

#[test]
fn the_cap_requires_an_open_questions_section() {
    let env = TestEnv::new();
    let f = env.feature("dash", "standard");
    env.write(".phasegate/questions.config.json", r#"{"maxRounds": 1}"#);
    start(&env, &f);
    let d = record(&env, &f, "STATUS: QUESTION\nQUESTION: Grid or list?\nCONTEXT: x\n");
    assert_eq!(d["decision"], "cap-reached");
    assert_eq!(d["openQuestions"], json!(["Grid or list?"]));
    env.write(&format!("docs/features/{f}/design.md"), "# Design\nA grid.\n");
    env.ws(&["rounds", "check", "design", "--feature", &f]).code(1).stderr_has("Open Questions");
    env.write(
        &format!("docs/features/{f}/design.md"),
        "# Design\n\n## Open Questions\n- Grid or list? (assumed grid)\n",
    );
    env.ws(&["rounds", "check", "design", "--feature", &f]).ok();
}

#[test]
fn a_malformed_reply_is_refused_with_the_format_and_nothing_is_recorded() {
    let env = TestEnv::new();
    let f = env.feature("dash", "standard");
    start(&env, &f);
    let before = env.read(&format!("docs/features/{f}/.rounds.json"));
    let out = env
        .ws(&["rounds", "record", "design", "--feature", &f, "--reply-file", "-"])
        .stdin("Here is the design.")
        .code(2);
    out.stderr_has("STATUS: COMPLETE\n---").stderr_has("Nothing was recorded");
    assert_eq!(env.read(&format!("docs/features/{f}/.rounds.json")), before);
}

#[test]
fn a_question_for_a_person_suspends_the_feature_and_its_answer_becomes_the_next_a_n() {
    let env = TestEnv::new();
    let f = env.feature("dash", "standard");
    start(&env, &f);
    record(&env, &f, "STATUS: QUESTION\nQUESTION: Which brand colour?\nCONTEXT: Not in the spec.\n");
    let asked = env.ws(&["rounds", "ask", "design", "--feature", &f, "--headless"]).ok().json();
    assert_eq!(asked["route"], "suspend");
    env.ws(&["rounds", "prompt", "design", "--feature", &f]).code(1).stderr_has("suspended");
    env.ws(&["question", "answer", &f, "Teal"]).ok();
    let p = env.ws(&["rounds", "prompt", "design", "--feature", &f]).ok().json();
    assert_eq!(p["taken"][0]["answer"], "Teal");
    assert!(p["prompt"].as_str().unwrap().contains("Q1: Which brand colour?\nA1: Teal\n"), "{p}");
    assert!(!env.path(&format!(".claude/suspended/{f}.json")).exists());
}

#[test]
fn subagent_stop_sends_a_malformed_implementer_reply_back_once() {
    let env = TestEnv::new();
    let input = |active: bool, last: &str| {
        json!({"session_id": "s-1", "cwd": env.root(), "hook_event_name": "SubagentStop", "agent_type": "phasegate:design-implementer",
               "agent_id": "a1", "agent_transcript_path": "/dev/null", "stop_hook_active": active, "last_assistant_message": last})
        .to_string()
    };
    let out = Run::new(HOOK, &["subagent-stop"], env.root()).stdin(input(false, "I think a grid.")).ok().json();
    assert_eq!(out["decision"], "block");
    assert!(out["reason"].as_str().unwrap().contains("STATUS: QUESTION\nQUESTION:"), "{out}");
    let out = Run::new(HOOK, &["subagent-stop"], env.root()).stdin(input(true, "I think a grid.")).ok();
    assert_eq!(out.stdout, "", "bounded: the second stop goes through");
    let out = Run::new(HOOK, &["subagent-stop"], env.root()).stdin(input(false, "STATUS: COMPLETE\n---\n# D\n")).ok();
    assert_eq!(out.stdout, "");
    for garbage in ["", "not json", "[]"] {
        Run::new(HOOK, &["subagent-stop"], env.root()).stdin(garbage).ok();
    }
}
