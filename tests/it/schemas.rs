//! The published schemas: each compiles, and real files written by the
//! binaries validate against them.

use std::path::Path;

use crate::util::TestEnv;

fn schema(name: &str) -> phasegate_core::schema::Schema {
    *phasegate_core::schema::Schema::ALL
        .iter()
        .find(|s| s.file_name() == name)
        .unwrap_or_else(|| panic!("schemas/{name} is not one of the schemas the binary validates with"))
}

#[test]
fn every_schema_compiles_and_is_the_one_the_binary_uses() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        assert!(name.ends_with(".schema.json"), "unexpected file schemas/{name}");
        let s = schema(&name);
        assert_eq!(std::fs::read_to_string(entry.path()).unwrap(), s.text());
        // Compiles (a broken schema panics here) and rejects a non-object.
        assert!(s.check(&serde_json::json!(7)).is_err(), "{name} accepts anything");
        n += 1;
    }
    assert_eq!(n, phasegate_core::schema::Schema::ALL.len());
}

/// Who recorded a verdict is one shape wherever it is kept: `.meta.json`,
/// `.review-cycles.json` and a pipeline's `state.json` carry the same
/// definition.
#[test]
fn who_recorded_a_verdict_is_defined_once_in_every_schema_that_keeps_it() {
    let def = |name: &str| {
        let v: serde_json::Value = serde_json::from_str(schema(name).text()).unwrap();
        v["$defs"]["recordedBy"].clone()
    };
    let meta = def("meta.schema.json");
    assert!(meta.is_object(), "meta.schema.json defines recordedBy");
    assert_eq!(def("review-cycles.schema.json"), meta);
    assert_eq!(def("pipeline-state.schema.json"), meta);
    let by = serde_json::to_value(phasegate_core::witness::RecordedBy::Reviewer {
        agent: "phasegate:chain-reviewer".into(),
        agent_id: "a1".into(),
        session: "s".into(),
    })
    .unwrap();
    let wrapped = serde_json::json!({"id": "001", "slug": "a", "status": "active",
        "phases": {"specify": {"verdicts": [{"iteration": 1, "at": "2026-11-28T10:00:00Z", "by": "reviewer",
            "agent": by["agent"], "agentId": by["agentId"], "session": by["session"]}]}}});
    schema("meta.schema.json").check(&wrapped).unwrap();
}

#[test]
fn meta_files_written_by_the_binary_validate() {
    let env = TestEnv::new();
    let name = env.feature("a", "full");
    env.ws(&["phase", "start", "brainstorm"]).ok();
    let v = env.verdict(false, r#"{"severity": "blocker", "description": "x"}"#);
    env.ws(&["review", "record", "brainstorm", "--verdict-file", &v]).ok();
    env.ws(&["phase", "complete", "specify", "--note", "n", "--verified"]).ok();
    let meta = env.meta(&name);
    if let Err(e) = schema("meta.schema.json").check(&meta) {
        panic!("{e}\n{meta:#}");
    }
}

/// question.schema.json said an answer's `source` is slack, cli, dialog,
/// preference or expiry, and held no `seal`: every person's answer the
/// binary records (sealed, from a terminal or typed) broke it.
#[test]
fn question_and_ledger_files_of_a_waiver_answered_in_a_terminal_validate() {
    let env = TestEnv::new();
    let f = env.feature("search", "standard");
    env.write(&format!("docs/features/{f}/spec.md"), "# Spec\n\n## Requirements\n\n- **R1**: the page reads well\n");
    let asked = env.ws(&["verify", "waive", "R1", "--reason", "a person reads it", "--headless", "--json"]).ok().json();
    let id = asked["question"].as_str().unwrap().to_owned();
    // A person, at a terminal outside Claude Code.
    env.ws_terminal(&["question", "answer", &id, "Yes"]).ok();
    // Queued, or the feature's suspension marker.
    let queued = env.path(&format!(".claude/questions/{id}.json"));
    let text = match queued.exists() {
        true => env.read(&format!(".claude/questions/{id}.json")),
        false => env.read(&format!(".claude/suspended/{f}.json")),
    };
    let q: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert!(q["answer"]["seal"].is_string(), "{q:#}");
    if let Err(e) = schema("question.schema.json").check(&q) {
        panic!("{e}\n{q:#}");
    }
    // The waiver it allows, in the ledger.
    env.ws(&["verify", "waive", "R1", "--feature", &f]).ok();
    let ledger: serde_json::Value =
        serde_json::from_str(&env.read(&format!("docs/features/{f}/evidence.json"))).unwrap();
    assert_eq!(ledger["requirements"][0]["waiver"]["answeredIn"], "terminal", "{ledger:#}");
    if let Err(e) = schema("evidence.schema.json").check(&ledger) {
        panic!("{e}\n{ledger:#}");
    }
}
