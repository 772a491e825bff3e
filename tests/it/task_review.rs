//! Per-task review cycles (seed 003) through the real binary: the facts for
//! choosing a reviewer from the installed agents, the REVIEW REQUEST, fuzzy
//! and JSON replies, the cap and its escalation, and a cycle that survives
//! a new process.

use serde_json::Value;

use crate::util::{Run, TestEnv, commit_all};

const TASKS: &str =
    "- [ ] T1: Add the login endpoint\n  - Files: src/auth.rs\n- [ ] T2: Add the report page\n  - Depends on: T1\n";

struct Reviewed {
    env: TestEnv,
    home: tempfile::TempDir,
}

impl Reviewed {
    fn new() -> Reviewed {
        let env = TestEnv::new();
        let f = env.feature("login", "standard");
        env.write(&format!("docs/features/{f}/tasks.md"), TASKS);
        // An agent the project adds; found from its frontmatter, no code change.
        env.write(
            ".claude/agents/security-auditor.md",
            "---\nname: security-auditor\ndescription: Reviews authentication, tokens and secrets.\nmodel: opus\n---\nYou audit security.\n",
        );
        commit_all(env.root());
        let home = tempfile::tempdir().unwrap();
        Reviewed { env, home }
    }

    fn ws(&self, args: &[&str]) -> Run {
        self.env.ws(args).env("HOME", self.home.path().to_str().unwrap())
    }

    fn record(&self, reply: &str) -> Value {
        self.env.write("reply.md", reply);
        self.ws(&["tasks", "record", "T1", "--reply-file", "reply.md", "--headless"]).ok().json()
    }
}

#[test]
fn reviewers_lists_installed_agents_and_the_changes_priorities() {
    let r = Reviewed::new();
    r.ws(&["tasks", "start", "T1"]).ok();
    r.env.write("src/auth.rs", "pub fn login(password: &str) -> bool { !password.is_empty() }\n");
    let facts = r.ws(&["tasks", "reviewers", "T1"]).ok().json();
    assert_eq!(facts["implementer"], "phasegate:task-implementer");
    assert_eq!(facts["files"][0]["path"], "src/auth.rs");
    assert_eq!(facts["priorities"][0]["priority"], "security");
    let names: Vec<&str> =
        facts["candidates"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"security-auditor"), "{names:?}");
    assert!(names.contains(&"phasegate:code-reviewer"), "the plugin's own agents: {names:?}");
    assert!(!names.contains(&"phasegate:task-implementer"), "never the implementer");
    for worker in [
        "phasegate:implementer",
        "phasegate:planner",
        "phasegate:design-implementer",
        "phasegate:requirements-gatherer",
    ] {
        assert!(!names.contains(&worker), "the plugin's workers do not review: {names:?}");
    }
    let auditor = facts["candidates"].as_array().unwrap().iter().find(|c| c["name"] == "security-auditor").unwrap();
    assert_eq!((auditor["source"].as_str(), auditor["model"].as_str()), (Some("project"), Some("opus")));
}

#[test]
fn a_task_is_reviewed_in_cycles_until_approved_and_ticked() {
    let r = Reviewed::new();
    r.ws(&["tasks", "start", "T1"]).ok();
    r.env.write("src/auth.rs", "pub fn login() {}\n");
    r.ws(&["tasks", "review", "T1", "--reviewer", "no-such-agent"]).code(1).stderr_has("not an available agent");
    r.ws(&["tasks", "review", "T1", "--reviewer", "phasegate:task-implementer"]).code(1).stderr_has("own implementer");
    let brief = r.ws(&["tasks", "review", "T1", "--reviewer", "security-auditor"]).ok().json();
    let prompt = brief["prompt"].as_str().unwrap();
    assert!(prompt.starts_with("REVIEW REQUEST [Cycle: 1/3]\nOriginal Task: T1: Add the login endpoint\nImplemented by: phasegate:task-implementer\n"), "{prompt}");
    assert!(prompt.contains("src/auth.rs (+1 -0)"), "{prompt}");
    assert!(prompt.contains("Focus Areas: security"), "{prompt}");
    assert_eq!(brief["todo"], "T1: Add the login endpoint (review_cycle 1/3)");

    let out = r.record("NEEDS REVISION\nThe password is never checked.");
    assert_eq!((out["decision"].as_str(), out["cycle"].as_u64()), (Some("revise"), Some(1)));
    // A new process (a new session) resumes at cycle 2, with the previous issue.
    let brief = r.ws(&["tasks", "review", "T1", "--reviewer", "security-auditor"]).ok().json();
    assert_eq!(brief["cycle"], 2);
    assert!(
        brief["prompt"].as_str().unwrap().contains("Previous Issues:\n- NEEDS REVISION The password is never checked.")
    );

    // An unclear reply counts nothing and asks the user.
    let out = r.record("I looked at it.");
    assert_eq!(out["status"], "UNCLEAR");
    assert!(
        out["decision"].is_null()
            && out["message"].as_str().unwrap().contains("says neither approved nor needs revision")
    );

    let out = r.record("LGTM");
    assert_eq!((out["decision"].as_str(), out["ticked"].as_bool()), (Some("approved"), Some(true)));
    let tasks = r.env.read("docs/features/001-login/tasks.md");
    assert!(tasks.starts_with("- [x] T1: Add the login endpoint"), "{tasks}");
    let cycles: Value = serde_json::from_str(&r.env.read("docs/features/001-login/.review-cycles.json")).unwrap();
    assert!(cycles["updated_at"].as_str().unwrap().starts_with("20"), "{cycles}");
    let t1 = &cycles["sessions"]["001-login"]["tasks"]["T1"];
    assert_eq!((t1["current_cycle"].as_u64(), t1["reviewers"][1]["status"].as_str()), (Some(2), Some("APPROVED")));
    let rate = &cycles["sessions"]["001-login"]["global_patterns"]["reviewer_failure_rates"]["security-auditor"];
    assert_eq!((rate["total_reviews"].as_u64(), rate["failure_rate"].as_f64()), (Some(2), Some(0.5)));
    r.ws(&["tasks", "review", "T1", "--reviewer", "security-auditor"]).code(1).stderr_has("is over (approved)");
}

#[test]
fn the_cap_escalates_with_the_seeds_options_and_skip_as_the_default() {
    let r = Reviewed::new();
    r.ws(&["tasks", "start", "T1"]).ok();
    r.ws(&["tasks", "review", "T1", "--reviewer", "security-auditor"]).ok();
    r.record(r#"{"approved": false, "issues": [{"severity": "blocker", "description": "No tests"}], "summary": "x"}"#);
    r.record("-1");
    let out = r.record("BLOCKED");
    assert_eq!(out["decision"], "cap-reached");
    let e = &out["escalation"];
    assert_eq!((e["route"].as_str(), e["proceedWith"].as_str()), (Some("queue"), Some("Skip")));
    let q: Value =
        serde_json::from_str(&r.env.read(&format!(".claude/questions/{}.json", e["id"].as_str().unwrap()))).unwrap();
    let labels: Vec<&str> = q["options"].as_array().unwrap().iter().map(|o| o["label"].as_str().unwrap()).collect();
    assert_eq!(labels, ["Accept as-is", "Fix by hand", "Skip", "Abort"]);
    assert_eq!(q["expiresAfterMinutes"], 5);
    assert!(r.env.read("docs/features/001-login/tasks.md").starts_with("- [~] T1"), "not ticked");
}

/// Regression: question files (`.claude/questions/`, `.claude/suspended/`)
/// showed up as untracked "code" in the change a reviewer was shown.
#[test]
fn question_files_are_not_part_of_a_tasks_change() {
    let r = Reviewed::new();
    r.ws(&["tasks", "start", "T1"]).ok();
    let q = r.env.write("q.json", r#"{"type": "blocking", "text": "Which hash?"}"#);
    r.ws(&["question", "ask", "--file", q.to_str().unwrap(), "--headless"]).ok();
    r.env.write("src/auth.rs", "pub fn login() {}\n");
    let facts = r.ws(&["tasks", "reviewers", "T1"]).ok().json();
    let files: Vec<&str> = facts["files"].as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert_eq!(files, ["q.json", "src/auth.rs"]);
}

#[test]
fn the_implement_config_sets_the_cap_the_escalation_default_and_the_review_timeout() {
    let r = Reviewed::new();
    r.env.write(
        ".phasegate/implement.config.json",
        r#"{"max_cycles": 1, "review_timeout_minutes": 10, "escalation": {"timeout_minutes": 30, "default_action": "accept_as_is"}}"#,
    );
    r.ws(&["tasks", "start", "T1"]).ok();
    let brief = r.ws(&["tasks", "review", "T1", "--reviewer", "security-auditor"]).ok().json();
    assert_eq!(brief["maxCycles"], 1);
    let asked: chrono::DateTime<chrono::Utc> = brief["deadline"].as_str().unwrap().parse().unwrap();
    let minutes = (asked - chrono::Utc::now()).num_minutes();
    assert!((9..=10).contains(&minutes), "deadline in 10 minutes: {minutes}");
    let out = r.record("NEEDS REVISION\nno");
    assert_eq!(out["decision"], "cap-reached");
    assert_eq!(out["escalation"]["proceedWith"], "Accept as-is");
    let q: Value = serde_json::from_str(
        &r.env.read(&format!(".claude/questions/{}.json", out["escalation"]["id"].as_str().unwrap())),
    )
    .unwrap();
    assert_eq!(q["expiresAfterMinutes"], 30);
    // The file the binary keeps matches its published schema.
    let cycles: Value = serde_json::from_str(&r.env.read("docs/features/001-login/.review-cycles.json")).unwrap();
    phasegate_core::schema::Schema::ReviewCycles.check(&cycles).unwrap();
}

#[test]
fn a_review_that_times_out_takes_the_configured_default_action() {
    // The reviewer was asked ten minutes ago. (The deadline's arithmetic is
    // tested with a controllable clock in phasegate-ops' library tests;
    // this checks the command's wiring.)
    let asked_long_ago = |r: &Reviewed| {
        let path = "docs/features/001-login/.review-cycles.json";
        let mut c: Value = serde_json::from_str(&r.env.read(path)).unwrap();
        let at =
            (chrono::Utc::now() - chrono::Duration::minutes(10)).to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        c["sessions"]["001-login"]["tasks"]["T1"]["reviewers"][0]["asked_at"] = Value::from(at);
        r.env.write(path, &c.to_string());
    };
    let r = Reviewed::new();
    r.ws(&["tasks", "start", "T1"]).ok();
    r.ws(&["tasks", "review", "T1", "--reviewer", "security-auditor"]).ok();
    r.ws(&["tasks", "record", "T1", "--timed-out"]).code(1).stderr_has("not late yet");
    asked_long_ago(&r);
    let t = r.ws(&["tasks", "record", "T1", "--timed-out"]).ok().json();
    assert_eq!(t["action"], "skip_with_warning");
    assert!(t["message"].as_str().unwrap().starts_with("WARNING: T1 was skipped"));
    assert!(r.env.read("docs/features/001-login/tasks.md").starts_with("- [-] T1"));
    let cycles: Value = serde_json::from_str(&r.env.read("docs/features/001-login/.review-cycles.json")).unwrap();
    assert_eq!(cycles["sessions"]["001-login"]["tasks"]["T1"]["reviewers"][0]["status"], "TIMEOUT");

    let r = Reviewed::new();
    r.env.write(".phasegate/implement.config.json", r#"{"escalation": {"default_action": "abort_process"}}"#);
    r.ws(&["tasks", "start", "T1"]).ok();
    r.ws(&["tasks", "review", "T1", "--reviewer", "security-auditor"]).ok();
    asked_long_ago(&r);
    r.ws(&["tasks", "record", "T1", "--timed-out"]).ok();
    assert!(
        r.ws(&["tasks", "next", "--json"]).ok().json()["reason"].as_str().unwrap().contains("Stop signal received")
    );
    // An invalid configuration names its file and field.
    r.env.write(".phasegate/implement.config.json", r#"{"max_cycles": 0}"#);
    r.ws(&["tasks", "review", "T1", "--reviewer", "security-auditor"])
        .code(2)
        .stderr_has("implement.config.json")
        .stderr_has("/max_cycles");
}

#[test]
fn the_build_time_limit_comes_from_the_implement_config() {
    let r = Reviewed::new();
    r.env.write(".phasegate/implement.config.json", r#"{"build": {"time_limit_minutes": 30}}"#);
    r.ws(&["tasks", "start", "T1"]).ok();
    r.ws(&["tasks", "complete", "T1"]).ok();
    // Thirty-one minutes later.
    let path = "docs/features/001-login/.review-cycles.json";
    let mut cycles: Value = serde_json::from_str(&r.env.read(path)).unwrap();
    let then = chrono::Utc::now() - chrono::Duration::minutes(31);
    cycles["sessions"]["001-login"]["build"]["started_at"] =
        Value::from(then.to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
    r.env.write(path, &cycles.to_string());
    r.ws(&["tasks", "start", "T2"]).code(1).stderr_has("Time limit exceeded (0.5 hours)");
}
