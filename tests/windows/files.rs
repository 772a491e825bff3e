//! Files as Windows keeps them: CRLF line ends (git's `core.autocrlf`
//! checks text out that way) are read like LF, and a file the binary
//! rewrites keeps them; checks run through `cmd /C`.

use crate::wine::Project;

const PLAN: &str = "# Tasks\n\n## Phase 1: Foundation\n\n- [ ] **Create the schema** [`files: db/schema.sql`]\n\n## Phase 2: Endpoints (parallel)\n\n- [ ] **Search** [`files: src/search.rs`] [`depends_on: T1`]\n- [ ] **Export** [`files: src/export.rs`]\n";

fn crlf(text: &str) -> String {
    text.replace('\n', "\r\n")
}

#[test]
fn a_crlf_task_list_reads_as_lf_and_keeps_its_line_ends_when_ticked() {
    let p = Project::new();
    let f = p.feature("api");
    let rel = format!("docs/features/{f}/tasks.md");
    p.write(&rel, &crlf(PLAN));
    let list = p.ws(&["tasks", "list", "--json"]).ok().json();
    let titles: Vec<&str> = list["tasks"].as_array().unwrap().iter().map(|t| t["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Create the schema", "Search", "Export"], "{list}");
    assert_eq!(list["tasks"][0]["files"][0], "db/schema.sql");
    assert_eq!(list["tasks"][1]["dependsOn"][0], "T1");
    assert_eq!(list["phases"][1]["execution"], "parallel");
    let next = p.ws(&["tasks", "next", "--json", "--parallel"]).ok().json();
    assert_eq!(next["tasks"], serde_json::json!(["T1"]));
    p.ws(&["tasks", "start", "T1"]).ok();
    p.ws(&["tasks", "complete", "T1"]).ok();
    let want = crlf(&PLAN.replace("- [ ] **Create", "- [x] **Create"));
    assert_eq!(p.read(&rel), want, "only the checkbox changed, and every line still ends in CRLF");
    let next = p.ws(&["tasks", "next", "--json", "--parallel"]).ok().json();
    assert_eq!(next["tasks"], serde_json::json!(["T2", "T3"]));
}

/// A spec and a task list with CRLF line ends prove a feature through
/// checks that run in `cmd /C`: a passing one, a failing one, and one that
/// hangs past its time limit (a Windows process has no process group to
/// kill: the check's own process is killed, and what it left behind
/// holding its output is not waited for).
#[test]
fn checks_of_a_crlf_feature_run_in_cmd_and_prove_it() {
    let p = Project::new();
    let f = p.feature("login");
    let dir = format!("docs/features/{f}");
    let spec =
        "# Spec\n\n## Requirements\n\n- **R1**: it logs in\n- **R2**: it logs out\n- **R3**: it answers in time\n";
    p.write(&format!("{dir}/spec.md"), &crlf(spec));
    let sleeper = crate::wine::win(&crate::wine::helper("pid.exe"));
    let checks = |r2: &str, r3: &str| {
        crlf(&format!("# Tasks\n\n## Checks\n\n- R1: `echo logged in`\n- R2: `{r2}`\n- R3: `{r3}`\n"))
    };
    p.write(&format!("{dir}/tasks.md"), &checks("echo still here & exit 3", &format!("{sleeper} 60")));
    p.write(".phasegate/verify.config.json", r#"{"timeoutSeconds": 2}"#);
    let started = std::time::Instant::now();
    let ran = p.ws(&["verify", "run", "--feature", &f, "--json"]).code(1).json();
    assert!(started.elapsed() < std::time::Duration::from_secs(30), "the hanging check took {:?}", started.elapsed());
    let req = |id: &str| ran["requirements"].as_array().unwrap().iter().find(|r| r["id"] == id).unwrap().clone();
    let (r1, r2, r3) = (req("R1"), req("R2"), req("R3"));
    assert_eq!((r1["status"].as_str(), r1["checks"][0]["exitCode"].as_i64()), (Some("proven"), Some(0)), "{ran}");
    assert_eq!(r1["checks"][0]["output"], "logged in", "{ran}");
    assert_eq!((r2["status"].as_str(), r2["checks"][0]["exitCode"].as_i64()), (Some("failed"), Some(3)), "{ran}");
    assert_eq!(r3["status"], "failed", "{ran}");
    assert_eq!(r3["checks"][0]["timedOut"], true, "{ran}");
    crate::wine::assert_plain("evidence.json", &p.read(&format!("{dir}/evidence.json")));
    p.ws(&["finish", "--feature", &f]).code(1).stderr_has("R2");
    // Fixed: every check passes, and finish accepts the feature.
    p.write(&format!("{dir}/tasks.md"), &checks("echo logged out", &format!("{sleeper} 0")));
    let ran = p.ws(&["verify", "run", "--feature", &f, "--json"]).ok().json();
    assert_eq!(ran["proven"], true, "{ran}");
    p.ws(&["finish", "--feature", &f]).ok();
    assert_eq!(p.json(&format!("{dir}/.meta.json"))["status"], "completed");
}

/// `.meta.json` checked out with CRLF line ends (and written back by the
/// binary) is read as it is.
#[test]
fn a_crlf_meta_json_is_read_and_rewritten() {
    let p = Project::new();
    let f = p.feature("x");
    let rel = format!("docs/features/{f}/.meta.json");
    let text = p.read(&rel);
    p.write(&rel, &crlf(&text));
    p.ws(&["phase", "start", "specify", "--feature", &f]).ok();
    assert_eq!(p.json(&rel)["currentPhase"], "specify");
    p.ws(&["status"]).ok().stdout_has(&f);
}
