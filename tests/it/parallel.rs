//! Parallel tasks through the real binary: a batch of independent tasks,
//! each in its own git worktree, merged back at the end; a conflict changes
//! nothing and fails the task as a CONFLICT.

use std::path::Path;

use serde_json::Value;

use crate::util::TestEnv;

const PLAN: &str =
    "## Endpoints (parallel)\n\n- [ ] **Search** [`files: src/search.rs`]\n- [ ] **Export** [`files: src/export.rs`]\n";

fn commit_in(dir: &Path, file: &str, text: &str) {
    std::fs::create_dir_all(dir.join(file).parent().unwrap()).unwrap();
    std::fs::write(dir.join(file), text).unwrap();
    let repo = git2::Repository::open(dir).unwrap();
    let sig = git2::Signature::now("delegate", "d@example.com").unwrap();
    let mut index = repo.index().unwrap();
    index.add_path(Path::new(file)).unwrap();
    index.write().unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let parent = repo.head().unwrap().peel_to_commit().unwrap();
    repo.commit(Some("HEAD"), &sig, &sig, file, &tree, &[&parent]).unwrap();
}

fn setup() -> (TestEnv, String) {
    let env = TestEnv::new();
    let f = env.feature("api", "standard");
    env.write(&format!("docs/features/{f}/tasks.md"), PLAN);
    (env, f)
}

#[test]
fn two_independent_tasks_run_in_their_own_worktrees_and_merge_back() {
    let (env, _) = setup();
    let batch = env.ws(&["tasks", "next", "--json", "--parallel"]).ok().json();
    assert_eq!(batch["tasks"], serde_json::json!(["T1", "T2"]));
    let mut trees = Vec::new();
    for id in ["T1", "T2"] {
        env.ws(&["tasks", "start", id]).ok();
        let w = env.ws(&["tasks", "worktree", id]).ok().json();
        assert_eq!(w["branch"], format!("task/001-api/{id}"));
        trees.push(w["path"].as_str().unwrap().to_owned());
    }
    // Each delegate commits in its own worktree, at the same time.
    commit_in(Path::new(&trees[0]), "src/search.rs", "pub fn search() {}\n");
    commit_in(Path::new(&trees[1]), "src/export.rs", "pub fn export() {}\n");
    let m1 = env.ws(&["tasks", "merge", "T1"]).ok().json();
    assert_eq!(m1["result"], "fast-forward");
    let m2 = env.ws(&["tasks", "merge", "T2"]).ok().json();
    assert_eq!(m2["result"], "merge");
    assert_eq!(env.read("src/search.rs"), "pub fn search() {}\n");
    assert_eq!(env.read("src/export.rs"), "pub fn export() {}\n");
    for t in &trees {
        assert!(!Path::new(t).exists(), "{t} was removed");
    }
    let repo = git2::Repository::open(env.root()).unwrap();
    assert!(repo.find_branch("task/001-api/T1", git2::BranchType::Local).is_err());
    let head = repo.head().unwrap().peel_to_commit().unwrap();
    assert_eq!(head.parent_count(), 2, "a merge commit");
}

#[test]
fn a_conflicting_merge_changes_nothing_and_fails_the_task_as_a_conflict() {
    let (env, _) = setup();
    let mut trees = Vec::new();
    for id in ["T1", "T2"] {
        env.ws(&["tasks", "start", id]).ok();
        trees.push(env.ws(&["tasks", "worktree", id]).ok().json()["path"].as_str().unwrap().to_owned());
    }
    commit_in(Path::new(&trees[0]), "README.md", "search\n");
    commit_in(Path::new(&trees[1]), "README.md", "export\n");
    env.ws(&["tasks", "merge", "T1"]).ok();
    let head_before = git2::Repository::open(env.root()).unwrap().head().unwrap().target().unwrap();
    let m: Value = env.ws(&["tasks", "merge", "T2", "--headless"]).ok().json();
    assert_eq!(m["result"], "conflict");
    assert_eq!(m["conflicts"], serde_json::json!(["README.md"]));
    let failed = &m["failed"];
    assert_eq!(
        (failed["error"]["type"].as_str(), failed["decision"]["action"].as_str()),
        (Some("CONFLICT"), Some("REBASE_AND_RETRY"))
    );
    assert_eq!(env.read("README.md"), "search\n", "the working tree is as the first merge left it");
    assert_eq!(git2::Repository::open(env.root()).unwrap().head().unwrap().target().unwrap(), head_before);
    assert!(Path::new(&trees[1]).exists(), "kept for the rebase");
    // A branch with nothing to merge is refused.
    let (env, _) = setup();
    env.ws(&["tasks", "start", "T1"]).ok();
    env.ws(&["tasks", "worktree", "T1"]).ok();
    env.ws(&["tasks", "merge", "T1"]).code(1).stderr_has("has no commit");
}
