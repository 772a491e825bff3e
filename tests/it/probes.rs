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

fn git(dir: &std::path::Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git").args(args).current_dir(dir).output().unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `feature new X --worktree`, refused because `feature/NNN-X` already
/// existed, deleted that branch (the user's commit left dangling); refused
/// because `.worktrees/NNN-X` existed, it deleted that folder.
#[test]
fn a_refused_feature_new_worktree_deletes_the_users_branch_or_folder() {
    let env = TestEnv::new();
    let root = env.root();
    git(root, &["config", "user.email", "u@example.com"]);
    git(root, &["config", "user.name", "u"]);
    git(root, &["branch", "feature/001-x"]);
    git(root, &["checkout", "-q", "feature/001-x"]);
    env.write("mine.txt", "the user's work\n");
    git(root, &["add", "mine.txt"]);
    git(root, &["commit", "-q", "-m", "the user's commit"]);
    let theirs = git(root, &["rev-parse", "feature/001-x"]);
    git(root, &["checkout", "-q", "-"]);
    env.ws(&["feature", "new", "x", "--worktree"]).code(2).stderr_has("branch feature/001-x already exists");
    assert_eq!(git(root, &["rev-parse", "feature/001-x"]), theirs, "the user's branch is intact");
    assert!(!env.path("docs/features/001-x").exists());
    // The folder: its number is not given out (issue 22), so nothing is
    // refused, and nothing of it is touched.
    let env = TestEnv::new();
    env.write(".worktrees/001-y/notes.txt", "the user's notes\n");
    assert_eq!(env.ws(&["feature", "new", "y", "--worktree", "--json"]).ok().json()["name"], "002-y");
    assert_eq!(env.read(".worktrees/001-y/notes.txt"), "the user's notes\n");
    // A folder git knows as a worktree of that name is refused.
    std::fs::create_dir_all(env.path(".git/worktrees/003-w")).unwrap();
    env.ws(&["feature", "new", "w", "--worktree"]).code(2).stderr_has("git already has a worktree named 003-w");
    assert!(env.path(".git/worktrees/003-w").exists() && !env.path("docs/features/003-w").exists());
    // A later creation goes through, and undoes nothing of the user's.
    env.ws(&["feature", "new", "z", "--worktree"]).ok();
    assert_eq!(env.read(".worktrees/001-y/notes.txt"), "the user's notes\n");
}

/// `tasks merge` removed the task's worktree with the uncommitted edits and
/// untracked files in it.
#[test]
fn tasks_merge_removes_a_worktree_with_uncommitted_work() {
    let env = TestEnv::new();
    let f = env.feature("api", "standard");
    env.write(
        &format!("docs/features/{f}/tasks.md"),
        "## Endpoints (parallel)\n\n- [ ] **Search** [`files: src/search.rs`]\n",
    );
    env.ws(&["tasks", "start", "T1"]).ok();
    let w = env.ws(&["tasks", "worktree", "T1"]).ok().json();
    let tree = std::path::PathBuf::from(w["path"].as_str().unwrap());
    git(&tree, &["config", "user.email", "d@example.com"]);
    git(&tree, &["config", "user.name", "d"]);
    std::fs::create_dir_all(tree.join("src")).unwrap();
    std::fs::write(tree.join("src/search.rs"), "pub fn search() {}\n").unwrap();
    git(&tree, &["add", "src/search.rs"]);
    git(&tree, &["commit", "-q", "-m", "search"]);
    std::fs::write(tree.join("src/search.rs"), "pub fn search() { todo!() }\n").unwrap();
    std::fs::write(tree.join("notes.md"), "untracked notes\n").unwrap();
    env.ws(&["tasks", "merge", "T1"]).code(1).stderr_has("uncommitted changes or untracked files");
    assert_eq!(std::fs::read_to_string(tree.join("notes.md")).unwrap(), "untracked notes\n");
    assert!(std::fs::read_to_string(tree.join("src/search.rs")).unwrap().contains("todo!"));
    assert!(!env.path("src/search.rs").exists(), "nothing merged");
    // Committed, it merges and the worktree goes.
    git(&tree, &["add", "-A"]);
    git(&tree, &["commit", "-q", "-m", "the rest"]);
    env.ws(&["tasks", "merge", "T1"]).ok();
    assert!(!tree.exists() && env.path("notes.md").exists());
}

/// `tasks fail --rollback` deleted a file the user created during the task,
/// and turned a symbolic link the task changed into a regular file.
#[cfg(unix)]
#[test]
fn a_rollback_deletes_the_users_new_file_and_flattens_a_symlink() {
    use std::os::unix::fs::symlink;
    let env = TestEnv::new();
    let f = env.feature("b", "standard");
    env.write(
        &format!("docs/features/{f}/tasks.md"),
        "- [ ] T1: Change the config\n  - Files: config/current, src/a.rs\n",
    );
    env.write("config/prod.toml", "prod\n");
    env.write("config/dev.toml", "dev\n");
    symlink("prod.toml", env.path("config/current")).unwrap();
    crate::util::commit_all(env.root());
    env.ws(&["tasks", "start", "T1"]).ok();
    // The task re-points the link and writes code; the user adds a file.
    std::fs::remove_file(env.path("config/current")).unwrap();
    symlink("dev.toml", env.path("config/current")).unwrap();
    env.write("src/a.rs", "fn half() {\n");
    env.write("USER-NOTES.md", "the user's new file\n");
    let out = env.outer().join("out.txt");
    std::fs::write(&out, "error: unexpected end of file").unwrap();
    let failed = env
        .ws(&["tasks", "fail", "T1", "--output-file", out.to_str().unwrap(), "--rollback", "--headless"])
        .ok()
        .json();
    assert_eq!(env.read("USER-NOTES.md"), "the user's new file\n", "{failed}");
    assert_eq!(failed["kept"], serde_json::json!(["USER-NOTES.md"]), "{failed}");
    let link = env.path("config/current");
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "still a link");
    assert_eq!(std::fs::read_link(&link).unwrap(), std::path::PathBuf::from("prod.toml"));
    assert!(!env.path("src/a.rs").exists());
    let saved = std::path::PathBuf::from(failed["savedIn"].as_str().unwrap());
    assert_eq!(std::fs::read_to_string(saved.join("src/a.rs")).unwrap(), "fn half() {\n", "saved before removal");
}

fn pre_tool_use(env: &TestEnv, input: &Value) -> Value {
    let out = crate::util::Run::new(crate::util::HOOK, &["pre-tool-use"], env.root()).stdin(input.to_string()).ok();
    if out.stdout.trim().is_empty() { Value::Null } else { out.json() }
}

fn denied(v: &Value) -> bool {
    v["hookSpecificOutput"]["permissionDecision"] == "deny"
}

/// PreToolUse let a hand edit of state files through when the path was
/// spelled with `..` or in another case, any write whose input was 16 MiB
/// or more, and a checkbox tick written without the `- ` or with a line
/// added.
#[test]
fn the_state_file_guard_is_bypassed_by_spelling_size_or_shape() {
    let env = TestEnv::new();
    let f = env.feature("a", "standard");
    let root = env.root().display().to_string();
    for path in [
        format!("{root}/docs/features/{f}/../{f}/.meta.json"),
        format!("{root}/docs/features/x/../{f}/./.review-history.md"),
        format!("{root}/.git/../.git/phasegate/index.json"),
        format!("{root}/Docs/Features/{f}/.meta.json"),
        format!("{root}/docs/features/{f}/.REVIEW-CYCLES.json"),
    ] {
        let v = pre_tool_use(
            &env,
            &serde_json::json!({"tool_name": "Write", "tool_input": {"file_path": path, "content": "{}"}}),
        );
        assert!(denied(&v), "{path}: {v}");
    }
    // Too large to judge: refused, and saying why.
    let big = "x".repeat(16 * 1024 * 1024 + 10);
    let input = serde_json::json!({"tool_name": "Write", "tool_input": {"file_path": format!("{root}/notes.txt"), "content": big}});
    let v = pre_tool_use(&env, &input);
    assert!(denied(&v), "fails closed");
    assert!(v["hookSpecificOutput"]["permissionDecisionReason"].as_str().unwrap().contains("larger than 16 MiB"));
    // Checkbox ticks in every shape.
    let tasks = format!("{root}/docs/features/{f}/tasks.md");
    env.write(&format!("docs/features/{f}/tasks.md"), "# Tasks\n\n- [ ] T1: model\n- [ ] T2: api\n");
    let edit = |old: &str, new: &str| serde_json::json!({"tool_name": "Edit", "tool_input": {"file_path": tasks, "old_string": old, "new_string": new}});
    for (old, new) in [
        ("[ ] T1: model", "[x] T1: model"),
        ("- [ ] T1: model", "- [x] T1: model\n- [ ] T3: new task"),
        ("- [ ] T2", "- [~] T2"),
        ("[ ]", "[x]"),
    ] {
        assert!(denied(&pre_tool_use(&env, &edit(old, new))), "{old:?} -> {new:?}");
    }
    let write = serde_json::json!({"tool_name": "Write", "tool_input": {"file_path": tasks,
        "content": "# Tasks\n\n- [x] T1: model\n- [ ] T2: api\n"}});
    assert!(denied(&pre_tool_use(&env, &write)), "a Write that ticks");
    // Writing the list itself stays free.
    assert_eq!(pre_tool_use(&env, &edit("- [ ] T2: api\n", "- [ ] T2: api\n- [ ] T3: docs\n")), Value::Null);
    let rewrite = serde_json::json!({"tool_name": "Write", "tool_input": {"file_path": tasks,
        "content": "# Tasks\n\n- [ ] T1: the model\n- [ ] T2: api\n- [ ] T3: docs\n"}});
    assert_eq!(pre_tool_use(&env, &rewrite), Value::Null);
}

/// `question answer` on a preference question with a broken
/// preferences.json exited 2 but recorded the answer; a retry said "already
/// answered" and the preference was never saved.
#[test]
fn a_preference_answer_is_half_done_when_the_preferences_are_broken() {
    let env = TestEnv::new();
    let f = env.feature("a", "standard");
    let q = env.write(
        "q.json",
        r#"{"type": "preference", "text": "Tabs or spaces?", "options": [{"label": "Tabs"}, {"label": "Spaces"}], "defaultOption": "Tabs", "tags": ["indent"]}"#,
    );
    let asked = env.ws(&["question", "ask", "--file", q.to_str().unwrap(), "--headless", "--feature", &f]).ok().json();
    let id = asked["id"].as_str().unwrap().to_owned();
    env.write(".phasegate/preferences.json", "{broken");
    env.ws(&["question", "answer", &id, "Spaces"]).code(2).stderr_has("preferences.json");
    let stored: Value = serde_json::from_str(&env.read(&format!(".claude/questions/{id}.json"))).unwrap();
    assert!(stored["answer"].is_null(), "nothing recorded: {stored}");
    env.write(".phasegate/preferences.json", "{}");
    env.ws(&["question", "answer", &id, "Spaces"]).ok();
    let prefs: Value = serde_json::from_str(&env.read(".phasegate/preferences.json")).unwrap();
    assert_eq!(prefs["indent"]["answer"], "Spaces", "{prefs}");
}

/// `question ask` or `rounds start` with input just under 8 MiB wrote a
/// state file over the 8 MiB read limit, refused forever after.
#[test]
fn a_state_file_is_written_over_the_size_it_can_be_read_at() {
    let env = TestEnv::new();
    let f = env.feature("a", "standard");
    let brief = env.write("brief.md", &"b".repeat(8 * 1024 * 1024 - 100));
    env.ws(&["rounds", "start", "design", "--feature", &f, "--brief-file", brief.to_str().unwrap()])
        .code(2)
        .stderr_has("nothing was written");
    assert!(!env.path(&format!("docs/features/{f}/.rounds.json")).exists());
    let text = "q".repeat(8 * 1024 * 1024 - 200);
    let q = env.write("q.json", &format!(r#"{{"type": "blocking", "text": "{text}", "allowFreeText": true}}"#));
    env.ws(&["question", "ask", "--file", q.to_str().unwrap(), "--headless", "--feature", &f])
        .code(2)
        .stderr_has("nothing was written");
    env.ws(&["question", "list"]).ok();
    env.ws(&["status"]).ok();
}

/// SessionStart or `status` outside a git repository wrote `.phasegate/`
/// into the current folder; with a `cwd` that does not exist they created
/// the whole chain of folders.
#[test]
fn a_look_outside_a_repository_writes_into_the_folder() {
    let env = TestEnv::plain();
    env.ws(&["status"]).ok();
    let input = serde_json::json!({"session_id": "s1", "cwd": env.root(), "hook_event_name": "SessionStart", "source": "startup"});
    crate::util::Run::new(crate::util::HOOK, &["session-start"], env.root()).stdin(input.to_string()).ok();
    let missing = env.root().join("does/not/exist");
    let input =
        serde_json::json!({"session_id": "s1", "cwd": missing, "hook_event_name": "SessionStart", "source": "startup"});
    crate::util::Run::new(crate::util::HOOK, &["session-start"], env.root()).stdin(input.to_string()).ok();
    let left: Vec<_> = std::fs::read_dir(env.root()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Session ids were trimmed, so `" sess-A"` was taken for `sess-A`.
#[test]
fn session_ids_are_trimmed() {
    let env = TestEnv::new();
    let f = env.pipeline("sess-A");
    env.ws_as(" sess-A", &["pipeline", "claim"]).code(2).stderr_has("white space");
    env.ws_as("sess-A ", &["pipeline", "claim"]).code(2).stderr_has("white space");
    let state = env.run_state(&f);
    assert_eq!(state["owner"]["sessionId"], "sess-A", "{state}");
}
