//! The knowledge base reaching the model through briefs: a task's context
//! package carries its files' gotchas in seed 004 §5.5's shape, the build
//! state records which it received, the task's reviewer is told them with
//! their ids, the implement phase's brief carries every open task's, a lazy
//! brief carries none, and budgets come from the context configuration.

use serde_json::Value;

use crate::util::{TestEnv, commit_all};

const GOTCHA: &str = "Wrap every migration's DDL in one transaction: a failed step otherwise leaves half a schema";
const TASKS: &str = "- [ ] T1: Add the users table\n  - Files: db/migrations/002_users.sql\n- [ ] T2: Add the report page\n  - Files: web/report.html\n  - Depends on: T1\n";

struct Setup {
    env: TestEnv,
    feature: String,
    id: String,
}

fn setup() -> Setup {
    let env = TestEnv::new();
    let feature = env.feature("users", "standard");
    env.write(&format!("docs/features/{feature}/tasks.md"), TASKS);
    env.write("db/migrations/001_init.sql", "create table t (id int);\n");
    let id =
        env.kb_gotcha_id(GOTCHA, "ERROR: relation \"users\" already exists", &["--path", "db/migrations/001_init.sql"]);
    commit_all(env.root());
    Setup { id, env, feature }
}

fn build_gotchas(s: &Setup) -> Value {
    let cycles: Value =
        serde_json::from_str(&s.env.read(&format!("docs/features/{}/.review-cycles.json", s.feature))).unwrap();
    cycles["sessions"][&s.feature]["build"]["gotchas"].clone()
}

#[test]
fn a_task_brief_carries_its_files_gotchas_in_the_seeds_shape_and_the_build_records_them() {
    let s = setup();
    s.env.ws(&["tasks", "start", "T1"]).ok();
    let ctx = s.env.ws(&["tasks", "context", "T1"]).ok().json();
    let prompt = ctx["prompt"].as_str().unwrap();
    // Each lesson names what it is about, its task and its id.
    let section = format!("## Gotchas (AVOID THESE MISTAKES)\n- {GOTCHA} (*.sql: T1) [{}]\n", s.id);
    let at = prompt.find(&section).unwrap_or_else(|| panic!("no §5.5 section:\n{prompt}"));
    // After the task's requirements and success, before what to leave alone.
    assert!(prompt.find("SUCCESS:").unwrap() < at && at < prompt.find("EXCLUDE:").unwrap(), "{prompt}");
    assert_eq!(build_gotchas(&s)["T1"], serde_json::json!([s.id]));
    // The other task's page matches no gotcha: its brief has none.
    let other = s.env.ws(&["tasks", "context", "T2"]).ok().json();
    assert!(!other["prompt"].as_str().unwrap().contains("Gotchas"), "{other}");
    assert!(build_gotchas(&s).get("T2").is_none());
}

#[test]
fn the_task_reviewer_is_told_the_gotchas_the_implementer_was_given() {
    let s = setup();
    s.env.ws(&["tasks", "start", "T1"]).ok();
    s.env.ws(&["tasks", "context", "T1"]).ok();
    s.env.write("db/migrations/002_users.sql", "create table users (id int);\n");
    let brief = s.env.ws(&["tasks", "review", "T1", "--reviewer", "phasegate:code-reviewer"]).ok().json();
    let prompt = brief["prompt"].as_str().unwrap();
    assert!(
        prompt.contains(&format!(
            "## Gotchas the implementer was given (check each was respected)\n- {GOTCHA} [{}]\n",
            s.id
        )),
        "{prompt}"
    );
    assert!(prompt.find("Gotchas the implementer").unwrap() < prompt.find("Please review for").unwrap());
}

#[test]
fn the_implement_phase_brief_carries_each_open_tasks_gotchas_and_a_lazy_brief_none() {
    let s = setup();
    let brief = s.env.ws(&["phase", "brief", "implement"]).ok().stdout;
    assert!(brief.contains(&format!("- {GOTCHA}")), "{brief}");
    assert_eq!(build_gotchas(&s)["T1"], serde_json::json!([s.id]));
    // Specify loads lazily: the session state only.
    let brief = s.env.ws(&["phase", "brief", "specify"]).ok().stdout;
    assert!(!brief.contains("Gotchas"), "{brief}");
}

#[test]
fn a_budget_from_the_context_config_cuts_and_the_pack_says_what() {
    let s = setup();
    s.env.write(&format!("docs/features/{}/spec.md", s.feature), &"The users table holds every account.\n".repeat(400));
    s.env.write(".phasegate/context.config.json", r#"{"budgets": {"task-context": 600}}"#);
    let ctx = s.env.ws(&["tasks", "context", "T1"]).ok().json();
    let prompt = ctx["prompt"].as_str().unwrap();
    assert!(prompt.contains(GOTCHA), "the gotchas (0.95) outrank the documents (0.90):\n{prompt}");
    assert!(prompt.contains("[task-context packed to ~"), "{prompt}");
    assert!(prompt.len() <= 600 * 4 + 200, "{} bytes", prompt.len());
    // A configuration that cannot be read is named; the defaults apply.
    s.env.write(".phasegate/context.config.json", r#"{"budgets": {"task-contxt": 600}}"#);
    let ctx = s.env.ws(&["tasks", "context", "T1"]).ok().json();
    let prompt = ctx["prompt"].as_str().unwrap();
    assert!(prompt.contains("context.config.json") && prompt.contains("task-contxt"), "{prompt}");
    assert!(!prompt.contains("packed to"), "{prompt}");
}
