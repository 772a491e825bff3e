//! `workflow-state feature new|show|abandon`.

use crate::util::TestEnv;

#[test]
fn new_numbers_features_and_writes_meta() {
    let env = TestEnv::new();
    let out = env.ws(&["feature", "new", "user-auth", "--mode", "quick"]).ok();
    assert_eq!(out.stdout.trim(), env.path("docs/features/001-user-auth").display().to_string());
    let meta = env.meta("001-user-auth");
    assert_eq!(meta["id"], "001");
    assert_eq!(meta["slug"], "user-auth");
    assert_eq!(meta["mode"], "quick");
    assert_eq!(meta["status"], "active");
    assert_eq!(meta["worktree"], serde_json::Value::Null);
    assert_eq!(meta["currentPhase"], serde_json::Value::Null);
    // Numbers keep growing past gaps and other folders.
    std::fs::create_dir_all(env.path("docs/features/007-manual")).unwrap();
    std::fs::create_dir_all(env.path("docs/features/notes")).unwrap();
    let out = env.ws(&["feature", "new", "next", "--json"]).ok();
    assert_eq!(out.json()["name"], "008-next");
    assert_eq!(out.json()["meta"]["mode"], "standard");
}

#[test]
fn slugs_are_validated() {
    let env = TestEnv::new();
    for bad in ["..", "../..", "-", "", "ééé"] {
        env.ws(&["feature", "new", "--", bad]).code(2).stderr_has("cannot make a feature name");
    }
    assert!(!env.path("docs/features").exists(), "nothing may be created for a refused name");
    // Anything else is a description: its words become the slug, never a path.
    let dir = env.ws(&["feature", "new", "--", "../escape"]).ok().stdout;
    assert_eq!(dir.trim(), env.path("docs/features/001-escape").display().to_string());
    assert!(!env.outer().join("escape").exists());
    env.ws(&["feature", "new", "x", "--mode", "turbo"]).code(2).stderr_has("hotfix, quick, standard, full");
}

#[test]
fn worktree_creates_branch_and_checkout() {
    let env = TestEnv::new();
    env.ws(&["feature", "new", "auth", "--worktree"]).ok();
    let meta = env.meta("001-auth");
    assert_eq!(meta["worktree"], ".worktrees/001-auth");
    assert_eq!(meta["branch"], "feature/001-auth");
    let repo = git2::Repository::open(env.root()).unwrap();
    let branch = repo.find_branch("feature/001-auth", git2::BranchType::Local).unwrap();
    let wt = git2::Repository::open(env.path(".worktrees/001-auth")).unwrap();
    assert!(wt.is_worktree());
    assert_eq!(wt.head().unwrap().name(), branch.get().name());
    assert!(env.path(".worktrees/001-auth/README.md").is_file());
    // The worktrees folder stays out of git status.
    let statuses = repo.statuses(None).unwrap();
    let worktrees: Vec<_> = statuses.iter().filter(|s| s.path().unwrap_or("").starts_with(".worktrees")).collect();
    assert!(worktrees.iter().all(|s| s.status() == git2::Status::IGNORED), "the worktrees folder must be ignored");
    // A second feature with a branch name that exists is refused cleanly.
    repo.branch("feature/002-auth", &repo.head().unwrap().peel_to_commit().unwrap(), false).unwrap();
    env.ws(&["feature", "new", "auth", "--worktree"]).code(2).stderr_has("branch feature/002-auth already exists");
    assert!(!env.path("docs/features/002-auth").exists());
}

#[test]
fn worktree_needs_a_repository_with_a_commit() {
    let plain = TestEnv::plain();
    plain.ws(&["feature", "new", "x", "--worktree"]).code(2).stderr_has("needs a git repository");
    // Without --worktree a plain directory works.
    plain.ws(&["feature", "new", "x"]).ok();

    let empty = TestEnv::plain();
    git2::Repository::init(empty.root()).unwrap();
    empty.ws(&["feature", "new", "x", "--worktree"]).code(2).stderr_has("make an initial commit");
}

#[test]
fn show_and_abandon() {
    let env = TestEnv::new();
    let name = env.feature("a", "full");
    env.write(&format!("docs/features/{name}/spec.md"), "spec");
    let out = env.ws(&["feature", "show"]).ok();
    assert_eq!(out.json()["artifacts"], serde_json::json!(["spec.md"]));
    assert_eq!(out.json()["meta"]["mode"], "full");
    env.ws(&["feature", "abandon"]).ok().stdout_has("abandoned");
    assert_eq!(env.meta(&name)["status"], "abandoned");
    env.ws(&["feature", "abandon", "--feature", "a"]).code(1).stderr_has("abandoned");
}
