//! Regression tests for what a full run of the plugin in Claude Code found
//! (issue "Room to grow", bugs 1–11), each named after its bug.

use serde_json::Value;

use crate::util::TestEnv;

fn json_file(env: &TestEnv, rel: &str) -> Value {
    serde_json::from_str(&env.read(rel)).unwrap()
}

/// Bug 1: `phase start` took the person's answer in, but the round loop's
/// question stayed open and `rounds prompt` refused ("Q1 is not answered
/// yet"); the answer must become the next A_n, marked as the person's.
#[test]
fn an_answered_question_never_reaches_the_round_loop() {
    let env = TestEnv::new();
    let f = env.feature("dash", "standard");
    let brief = env.write("brief.md", "Design the dashboard.\n");
    env.ws(&["rounds", "start", "design", "--feature", &f, "--brief-file", brief.to_str().unwrap()]).ok();
    env.ws(&["rounds", "record", "design", "--feature", &f, "--reply-file", "-"])
        .stdin("STATUS: QUESTION\nQUESTION: Which brand colour?\nCONTEXT: Not in the spec.\n")
        .ok();
    env.ws(&["rounds", "ask", "design", "--feature", &f, "--headless"]).ok();
    env.ws(&["question", "answer", &f, "Teal"]).ok();
    let started = env.ws(&["phase", "start", "design", "--feature", &f]).ok().json();
    assert_eq!(started["answers"][0]["answer"], "Teal", "{started}");
    let rounds = json_file(&env, &format!("docs/features/{f}/.rounds.json"));
    let answer = &rounds["phases"]["design"]["qa"][0]["answer"];
    assert_eq!((answer["text"].as_str(), answer["by"].as_str()), (Some("Teal"), Some("human")), "{rounds}");
    let p = env.ws(&["rounds", "prompt", "design", "--feature", &f]).ok().json();
    assert!(p["prompt"].as_str().unwrap().contains("Q1: Which brand colour?\nA1: Teal\n"), "{p}");

    // A loop left open by the old behaviour (answer taken in, loop not
    // told) is healed by the next prompt, with the person's answer.
    let mut broken = rounds.clone();
    broken["phases"]["design"]["qa"][0].as_object_mut().unwrap().remove("answer");
    env.write(&format!("docs/features/{f}/.rounds.json"), &broken.to_string());
    let p = env.ws(&["rounds", "prompt", "design", "--feature", &f]).ok().json();
    assert!(p["prompt"].as_str().unwrap().contains("A1: Teal\n"), "{p}");
    let healed = json_file(&env, &format!("docs/features/{f}/.rounds.json"));
    assert_eq!(healed["phases"]["design"]["qa"][0]["answer"]["by"], "human");
}
