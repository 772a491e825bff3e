//! Feature creation on Windows: numbering, the written state, a worktree
//! made by libgit2 for Windows, and a `feature new` killed between two of
//! its steps (the process dies, its kernel lock with it; the journal takes
//! the half-made feature back).

use crate::wine::Project;

#[test]
fn feature_new_numbers_features_and_writes_their_state() {
    let p = Project::new();
    let out = p.ws(&["feature", "new", "user-auth", "--mode", "quick", "--json"]).ok().json();
    assert_eq!((out["name"].as_str(), out["meta"]["mode"].as_str()), (Some("001-user-auth"), Some("quick")));
    let meta = p.json("docs/features/001-user-auth/.meta.json");
    assert_eq!((meta["id"].as_str(), meta["status"].as_str()), (Some("001"), Some("active")));
    std::fs::create_dir_all(p.path("docs/features/007-manual")).unwrap();
    assert_eq!(p.ws(&["feature", "new", "next", "--json"]).ok().json()["name"], "008-next");
    // A description is words, never a path, whatever its separators.
    let out = p.ws(&["feature", "new", "--", "..\\..\\escape"]).ok();
    assert_eq!(out.stdout.trim(), p.win("docs/features/009-escape"), "{}", out.report());
    assert!(!p.root().parent().unwrap().join("escape").exists());
    // Status lists them all.
    p.ws(&["status"]).ok().stdout_has("001-user-auth").stdout_has("009-escape");
}

fn branch_exists(p: &Project, branch: &str) -> bool {
    git2::Repository::open(p.root()).unwrap().find_branch(branch, git2::BranchType::Local).is_ok()
}

/// Killed at each step of `feature new --worktree`, the next `feature new`
/// takes the half-made feature back (or keeps the finished one) and makes
/// its own whole.
#[test]
fn a_feature_new_killed_at_each_step_is_taken_back_by_the_next() {
    for point in ["intent", "staged", "branch", "worktree", "meta", "renamed"] {
        let p = Project::new();
        let killed = p
            .ws(&["feature", "new", "x", "--worktree"])
            .env("PHASEGATE_FAILPOINT", &format!("feature-new:{point}"))
            .output();
        assert_ne!(killed.code, Some(0), "the run was not killed at {point}:\n{}", killed.report());
        let out = p.ws(&["feature", "new", "y", "--worktree", "--json"]).ok().json();
        let finished = point == "renamed";
        let expected = if finished { "002-y" } else { "001-y" };
        assert_eq!(out["name"], expected, "killed at {point}: {out}");
        assert_eq!(p.path("docs/features/001-x/.meta.json").exists(), finished, "killed at {point}");
        assert_eq!(branch_exists(&p, "feature/001-x"), finished, "killed at {point}");
        assert_eq!(p.path(".worktrees/001-x").exists(), finished, "killed at {point}");
        assert!(!p.path("docs/features/.001-x.creating").exists(), "killed at {point}");
        assert!(!p.path(".git/phasegate/journal/feature-new.json").exists(), "killed at {point}");
        assert!(p.path(&format!(".worktrees/{expected}/README.md")).exists(), "killed at {point}");
        crate::wine::assert_plain("feature new --json", &out.to_string());
    }
}
