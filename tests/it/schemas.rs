//! The published schemas: each compiles, and real files written by the
//! binaries validate against them.

use std::path::Path;

use crate::util::TestEnv;

fn schema(name: &str) -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas").join(name);
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    jsonschema::options().should_validate_formats(true).build(&doc).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn every_schema_compiles() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(name.ends_with(".schema.json"), "unexpected file schemas/{name}");
        schema(&name);
        n += 1;
    }
    assert!(n >= 2);
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
    let validator = schema("meta.schema.json");
    let errors: Vec<String> = validator.iter_errors(&meta).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}\n{meta:#}");
}
