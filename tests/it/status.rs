//! `workflow-state status` and `next`, and how unreadable state is treated.

use crate::util::TestEnv;

#[test]
fn table_and_json() {
    let env = TestEnv::new();
    env.ws(&["status"]).ok().stdout_has("No features");
    let a = env.feature("alpha", "quick");
    let b = env.feature("beta", "standard");
    env.ws(&["phase", "start", "brainstorm", "--feature", "alpha"]).ok();
    env.ws(&["phase", "complete", "brainstorm", "--feature", "beta"]).ok();
    let table = env.ws(&["status"]).ok();
    let lines: Vec<&str> = table.stdout.lines().collect();
    assert!(lines[0].starts_with("FEATURE"), "{}", table.report());
    assert!(
        lines[1].starts_with(&a)
            && lines[1].contains("brainstorm (partial, 0/2 iterations)")
            && lines[1].contains("/phasegate:brainstorm")
    );
    assert!(lines[2].starts_with(&b) && lines[2].contains("/phasegate:specify"));
    let json = env.ws(&["status", "--json"]).ok().json();
    assert_eq!(json[0]["partial"], serde_json::json!(["brainstorm"]));
    assert_eq!(json[1]["next"], "/phasegate:specify");
    assert_eq!(json[1]["meta"]["mode"], "standard");

    assert_eq!(
        env.ws(&["next", "--feature", "beta"]).ok().stdout.trim(),
        "/phasegate:specify  (brainstorm is complete)"
    );
    assert_eq!(env.ws(&["next", "--feature", "alpha", "--json"]).ok().json()["command"], "/phasegate:brainstorm");
}

#[test]
fn a_corrupt_meta_is_reported_with_its_path_and_left_alone() {
    let env = TestEnv::new();
    env.feature("good", "standard");
    let bad = env.feature("bad", "standard");
    let path = format!("docs/features/{bad}/.meta.json");
    let corrupt = "{\"id\": \"002\", \"slug\": \"bad\", \"status\": \"act";
    env.write(&path, corrupt);
    env.ws(&["status", "--strict"]).code(2);
    let out = env.ws(&["status"]).ok();
    out.stdout_has("001-good").stdout_has("unreadable").stdout_has(&env.path(&path).display().to_string());
    // Commands on that feature fail with the path, and never overwrite it.
    for args in [
        vec!["phase", "start", "brainstorm", "--feature", "bad"],
        vec!["phase", "complete", "brainstorm", "--feature", "bad"],
        vec!["finish", "--feature", "bad"],
        vec!["validate", "design", "--feature", "bad"],
    ] {
        env.ws(&args).code(2).stderr_has(&env.path(&path).display().to_string()).stderr_has("invalid JSON");
        assert_eq!(env.read(&path), corrupt, "{args:?} changed the corrupt file");
    }
    // A file that parses but breaks the schema names the field.
    let wrong = r#"{"id": "002", "slug": "bad", "status": "done", "created": "2026-11-22T00:00:00Z"}"#;
    env.write(&path, wrong);
    env.ws(&["phase", "start", "brainstorm", "--feature", "bad"]).code(2).stderr_has("at /status");
    assert_eq!(env.read(&path), wrong);
}

#[test]
fn lock_timeouts_are_reported() {
    let env = TestEnv::new();
    let name = env.feature("a", "standard");
    // Hold the feature's lock from this process (kernel locks conflict across open files).
    let lock_path = env.path(&format!(".git/phasegate/locks/{name}.lock"));
    let file = std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(&lock_path).unwrap();
    file.lock().unwrap();
    env.ws(&["phase", "start", "brainstorm"])
        .env("PHASEGATE_LOCK_TIMEOUT_MS", "200")
        .code(2)
        .stderr_has("timed out")
        .stderr_has(&lock_path.display().to_string());
    file.unlock().unwrap();
    env.ws(&["phase", "start", "brainstorm"]).ok();
}

#[test]
fn features_are_ordered_by_number() {
    let env = TestEnv::new();
    let name = env.feature("a", "standard");
    let meta = env.read(&format!("docs/features/{name}/.meta.json"));
    for (dir, id) in [("999-nine", "999"), ("1000-ten", "1000")] {
        env.write(
            &format!("docs/features/{dir}/.meta.json"),
            &meta.replace("\"id\": \"001\"", &format!("\"id\": \"{id}\"")),
        );
    }
    let json = env.ws(&["status", "--json"]).ok().json();
    let names: Vec<&str> = json.as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["001-a", "999-nine", "1000-ten"]);
    assert_eq!(env.ws(&["feature", "new", "next", "--json"]).ok().json()["name"], "1001-next");
}
