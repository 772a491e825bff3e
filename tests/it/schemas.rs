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
