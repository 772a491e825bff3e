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

/// `feature new --worktree` killed between two of its steps: what it made and
/// how the next `feature new` finds the repository.
fn kill_feature_new_at(point: &str) -> TestEnv {
    let env = TestEnv::new();
    let killed = env.ws(&["feature", "new", "x", "--worktree"]).env("PHASEGATE_FAILPOINT", point).output();
    assert_eq!(killed.code, None, "the run was not killed at {point}:\n{}", killed.report());
    env
}

fn branch_exists(env: &TestEnv, branch: &str) -> bool {
    git2::Repository::open(env.root()).unwrap().find_branch(branch, git2::BranchType::Local).is_ok()
}

/// Issue 22: kill -9 in `feature new --worktree` left its worktree and branch, and the next feature took its number.
#[test]
fn a_killed_feature_new_left_its_worktree_and_branch_and_its_number_was_reused() {
    for point in ["intent", "staged", "branch", "worktree", "meta", "renamed"] {
        let env = kill_feature_new_at(&format!("feature-new:{point}"));
        let out = env.ws(&["feature", "new", "y", "--worktree", "--json"]).ok().json();
        let finished = point == "renamed";
        let expected = if finished { "002-y" } else { "001-y" };
        assert_eq!(out["name"], expected, "killed at {point}: {out}");
        assert_eq!(env.path("docs/features/001-x/.meta.json").exists(), finished, "killed at {point}");
        assert_eq!(branch_exists(&env, "feature/001-x"), finished, "killed at {point}");
        assert_eq!(env.path(".worktrees/001-x").exists(), finished, "killed at {point}");
        assert_eq!(env.path(".git/worktrees/001-x").exists(), finished, "killed at {point}");
        assert!(!env.path("docs/features/.001-x.creating").exists(), "killed at {point}");
        assert!(!env.path(".git/phasegate/journal/feature-new.json").exists(), "killed at {point}");
        if !finished {
            assert_eq!(out["interrupted"]["name"], "001-x", "killed at {point}: {out}");
            assert_eq!(out["interrupted"]["kept"], serde_json::json!([]), "killed at {point}: {out}");
        }
        // The new feature's worktree is whole and git knows it.
        assert!(env.path(&format!(".worktrees/{expected}/README.md")).exists(), "killed at {point}");
        let worktrees = git2::Repository::open(env.root()).unwrap().worktrees().unwrap();
        let names: Vec<&str> = worktrees.iter().flatten().flatten().collect();
        assert!(names.contains(&expected), "killed at {point}: {names:?}");
    }
}

/// Issue 22: a worktree whose checkout a kill cut short looked changed, so every later `feature new` kept it.
#[test]
fn a_feature_new_killed_during_the_checkout_left_a_worktree_that_looked_changed() {
    let env = kill_feature_new_at("feature-new:worktree");
    std::fs::remove_file(env.path(".worktrees/001-x/README.md")).unwrap();
    let out = env.ws(&["feature", "new", "y", "--worktree"]).ok();
    out.stdout_has("note: an interrupted `feature new` of 001-x was taken back");
    assert!(!env.path(".worktrees/001-x").exists() && !branch_exists(&env, "feature/001-x"), "{}", out.report());
    // Killed before git's record was complete: only its `.git` file is there.
    let env = kill_feature_new_at("feature-new:branch");
    std::fs::create_dir_all(env.path(".worktrees/001-x")).unwrap();
    env.write(".worktrees/001-x/.git", "gitdir: ../../.git/worktrees/001-x\n");
    std::fs::create_dir_all(env.path(".git/worktrees/001-x")).unwrap();
    let mut intent: serde_json::Value =
        serde_json::from_str(&env.read(".git/phasegate/journal/feature-new.json")).unwrap();
    intent["worktree"]["worktree_planned"] = true.into();
    env.write(".git/phasegate/journal/feature-new.json", &intent.to_string());
    let out = env.ws(&["feature", "new", "y", "--worktree", "--json"]).ok().json();
    assert_eq!(out["name"], "001-y", "{out}");
    assert!(!env.path(".worktrees/001-x").exists() && !env.path(".git/worktrees/001-x").exists());
    assert!(!branch_exists(&env, "feature/001-x"));
}

/// Issue 22: the user's work in a killed `feature new`'s worktree or branch must be kept, reported, its number taken.
#[test]
fn a_killed_feature_new_whose_worktree_or_branch_holds_user_work_is_kept_and_its_number_stays_taken() {
    // A new file in the worktree.
    let env = kill_feature_new_at("feature-new:worktree");
    env.write(".worktrees/001-x/notes.md", "the user's notes\n");
    let out = env.ws(&["feature", "new", "y", "--worktree"]).ok();
    out.stdout_has(
        "kept from the interrupted `feature new` of 001-x: worktree .worktrees/001-x holds a change (notes.md)",
    )
    .stdout_has("git worktree remove .worktrees/001-x");
    assert!(out.stdout.starts_with(&env.path("docs/features/002-y").display().to_string()), "{}", out.report());
    assert_eq!(env.read(".worktrees/001-x/notes.md"), "the user's notes\n");
    assert!(branch_exists(&env, "feature/001-x"));
    env.ws(&["status"]).ok().stdout_has("interrupted: an interrupted `feature new` of 001-x left .worktrees/001-x");
    // Still taken at the next creation, with or without a worktree.
    assert_eq!(env.ws(&["feature", "new", "z", "--json"]).ok().json()["name"], "003-z");

    // Commits on the branch, its worktree gone.
    let env = kill_feature_new_at("feature-new:branch");
    let repo = git2::Repository::open(env.root()).unwrap();
    let head = repo.head().unwrap().peel_to_commit().unwrap();
    let sig = git2::Signature::now("u", "u@example.com").unwrap();
    repo.commit(Some("refs/heads/feature/001-x"), &sig, &sig, "the user's work", &head.tree().unwrap(), &[&head])
        .unwrap();
    let out = env.ws(&["feature", "new", "y", "--json"]).ok().json();
    assert_eq!(out["name"], "002-y", "{out}");
    assert_eq!(out["interrupted"]["kept"][0], "branch feature/001-x has commits made since", "{out}");
    assert!(branch_exists(&env, "feature/001-x"));
    // Once the user removes it, nothing is reported any more.
    repo.find_branch("feature/001-x", git2::BranchType::Local).unwrap().delete().unwrap();
    let out = env.ws(&["feature", "new", "z", "--json"]).ok().json();
    assert!(out.get("interrupted").is_none(), "{out}");
    assert!(!env.ws(&["status"]).ok().stdout.contains("interrupted:"));
}
