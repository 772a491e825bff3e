//! The index of active features: the SessionStart hook reads it instead of
//! every `.meta.json`, and it never hides an active feature.

use serde_json::json;

use crate::util::{HOOK, Run, TestEnv};

fn context(env: &TestEnv) -> String {
    let out = Run::new(HOOK, &["session-start"], env.root()).stdin(json!({"cwd": env.root()}).to_string()).ok();
    if out.stdout.trim().is_empty() {
        return String::new();
    }
    out.json()["hookSpecificOutput"]["additionalContext"].as_str().unwrap().to_owned()
}

fn index(env: &TestEnv) -> serde_json::Value {
    serde_json::from_str(&env.read(".git/phasegate/index.json")).unwrap()
}

#[test]
fn writers_keep_the_index_in_step_with_the_features() {
    let env = TestEnv::new();
    env.feature("a", "standard");
    env.feature("b", "standard");
    assert!(context(&env).contains("2 active features"));
    assert_eq!(index(&env)["active"], json!(["001-a", "002-b"]));
    env.prove("a");
    env.ws(&["finish", "--feature", "a"]).ok();
    assert_eq!(index(&env)["active"], json!(["002-b"]));
    env.ws(&["feature", "abandon", "--feature", "b"]).ok();
    assert_eq!(context(&env), "");
    assert_eq!(index(&env)["active"], json!([]));
    env.feature("c", "quick");
    assert_eq!(index(&env)["active"], json!(["003-c"]));
}

#[test]
fn a_stale_index_is_rebuilt_and_never_hides_an_active_feature() {
    let env = TestEnv::new();
    env.feature("a", "standard");
    assert!(context(&env).contains("1 active feature"));
    // A folder that arrives without phasegate (a pull, a copy) changes the
    // features folder: the index is rebuilt.
    env.write("docs/features/002-pulled/.meta.json", r#"{"id": "002", "slug": "pulled", "status": "active"}"#);
    let text = context(&env);
    assert!(text.contains("2 active features") && text.contains("002-pulled"), "{text}");
    // Another branch checked out (HEAD changes): rebuilt too.
    env.prove("a");
    env.ws(&["finish", "--feature", "a"]).ok();
    let meta = env.path("docs/features/001-a/.meta.json");
    let mut value: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&meta).unwrap()).unwrap();
    value["status"] = json!("active");
    std::fs::write(&meta, value.to_string()).unwrap();
    env.write(".git/HEAD", "ref: refs/heads/other\n");
    assert!(context(&env).contains("001-a"), "the index follows a branch switch");
    // A missing or broken index is rebuilt.
    env.write(".git/phasegate/index.json", "{ broken");
    assert!(context(&env).contains("2 active features"));
    std::fs::remove_file(env.path(".git/phasegate/index.json")).unwrap();
    assert!(context(&env).contains("2 active features"));
}
