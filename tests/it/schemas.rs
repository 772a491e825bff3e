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
