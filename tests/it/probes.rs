//! Regressions from the second attack on the binaries (issue "Room to
//! grow", 3,667 probes): data loss, escapes through question ids, leaked
//! tokens, guard bypasses, crashes, unbounded work, wrong and half-done
//! results. One test per finding, named after it.

use serde_json::Value;

use crate::util::TestEnv;

fn ask_headless(env: &TestEnv, f: &str, text: &str) -> Value {
    let q = env.write("q.json", &format!(r#"{{"type": "blocking", "text": "{text}", "allowFreeText": true}}"#));
    env.ws(&["question", "ask", "--file", q.to_str().unwrap(), "--headless", "--feature", f]).ok().json()
}

/// A question file whose `id` held `../` made `phase start` or `rounds
/// prompt` write outside the repository; an `id` equal to another's made
/// one question overwrite the other.
#[test]
fn a_question_id_escapes_the_repository_or_overwrites_another() {
    let env = TestEnv::new();
    let f = env.feature("a", "standard");
    ask_headless(&env, &f, "Grid or list?");
    let marker = format!(".claude/suspended/{f}.json");
    let mut m: Value = serde_json::from_str(&env.read(&marker)).unwrap();
    m["id"] = Value::from("../../../escaped");
    m["answer"] = serde_json::json!({"text": "Grid", "by": "human", "source": "cli", "at": "2026-11-24T10:00:00Z"});
    env.write(&marker, &m.to_string());
    env.ws(&["phase", "start", "brainstorm", "--feature", &f]).code(2).stderr_has("invalid question id");
    env.ws(&["question", "list"]).code(2).stdout_has(&marker).stdout_has("invalid question id");
    assert!(!env.outer().join("escaped.json").exists() && !env.root().parent().unwrap().join("escaped.json").exists());
    let leaked: Vec<_> = walkdir::WalkDir::new(env.outer())
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains("escaped"))
        .collect();
    assert!(leaked.is_empty(), "{leaked:?}");

    // Two files with one id: neither is taken for the other, nothing overwritten.
    let env = TestEnv::new();
    let f = env.feature("a", "standard");
    let g = env.feature("b", "standard");
    ask_headless(&env, &f, "Grid or list?");
    let asked = ask_headless(&env, &g, "Tabs or spaces?");
    let other = format!(".claude/suspended/{g}.json");
    let mut m: Value = serde_json::from_str(&env.read(&other)).unwrap();
    m["id"] = Value::from(format!("{f}.1"));
    env.write(&other, &m.to_string());
    let before = env.read(&format!(".claude/suspended/{f}.json"));
    env.ws(&["question", "answer", &format!("{f}.1"), "Grid"]).code(2).stderr_has("another file holds question");
    assert_eq!(env.read(&format!(".claude/suspended/{f}.json")), before);
    assert!(asked["id"].is_string());
}

/// An unreadable suspension marker: `backlog --json` listed its feature as
/// ready (`unreadable: []`), `status` sent it on, `phase start` exited 2.
#[test]
fn an_unreadable_marker_leaves_its_feature_ready() {
    let env = TestEnv::new();
    let f = env.feature("a", "standard");
    let g = env.feature("b", "standard");
    env.write(&format!(".claude/suspended/{f}.json"), "{not json");
    let b = env.ws(&["backlog", "--json"]).ok().json();
    assert_eq!(b["next"]["feature"], g.as_str(), "{b}");
    assert!(b["unreadable"][0].as_str().unwrap().contains(&format!(".claude/suspended/{f}.json")), "{b}");
    assert!(b["ready"].as_array().unwrap().iter().all(|r| r["feature"] != f.as_str()), "{b}");
    let s = env.ws(&["status", "--json"]).ok().json();
    let row = s.as_array().unwrap().iter().find(|r| r["name"] == f.as_str()).unwrap().clone();
    assert!(row["next"].is_null() && row["error"].as_str().unwrap().contains("suspension marker"), "{row}");
}
