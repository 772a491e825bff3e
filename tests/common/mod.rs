//! Shared by both test binaries (`tests/it`, `tests/e2e`), included with
//! `#[path]`: the forgotten-file guard and the temporary repository setup.

use std::path::Path;

/// Every `.rs` file of a test binary's folder is declared as a module of its
/// main.rs (a forgotten file would silently never run).
pub fn assert_every_file_is_a_module(dir: &Path) {
    let main = std::fs::read_to_string(dir.join("main.rs")).unwrap();
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let Some(module) = name.strip_suffix(".rs") else { continue };
        if module == "main" {
            continue;
        }
        assert!(main.contains(&format!("mod {module};")), "{}/{name} is not declared in main.rs", dir.display());
    }
}

/// Makes `dir` a git repository with one commit (a README), through libgit2.
pub fn init_repo(dir: &Path) {
    let repo = git2::Repository::init(dir).expect("git init");
    // The repository's own identity: a commit made with the git CLI (the
    // commands phasegate prints) works on a machine with no global one.
    let mut config = repo.config().unwrap();
    config.set_str("user.name", "t").unwrap();
    config.set_str("user.email", "t@example.com").unwrap();
    let sig = git2::Signature::now("t", "t@example.com").unwrap();
    std::fs::write(dir.join("README.md"), "test repo\n").unwrap();
    let mut index = repo.index().unwrap();
    index.add_path(Path::new("README.md")).unwrap();
    index.write().unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    repo.commit(Some("HEAD"), &sig, &sig, "init", &tree, &[]).unwrap();
}

/// Writes `root/rel`, creating its folders.
pub fn write_file(root: &Path, rel: &str, text: &str) -> std::path::PathBuf {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, text).unwrap();
    p
}

/// Reads `root/rel`, naming it when it cannot.
pub fn read_file(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).unwrap_or_else(|e| panic!("read {rel}: {e}"))
}

/// Makes feature `feature` provable by one passing check: a numbered
/// requirement under `## Requirements` in its spec.md (created when
/// missing) and `- R1: `true`` under `## Checks` in its tasks.md. The
/// caller then runs `workflow-state verify run`.
pub fn provable(root: &Path, feature: &str) {
    let dir = root.join("docs/features").join(feature);
    std::fs::create_dir_all(&dir).unwrap();
    let spec = dir.join("spec.md");
    let text = std::fs::read_to_string(&spec).unwrap_or_else(|_| "# Spec\n".to_owned());
    if !text.contains("## Requirements") {
        std::fs::write(&spec, format!("{text}\n## Requirements\n\n- **R1**: it works\n")).unwrap();
    }
    let tasks = dir.join("tasks.md");
    let text = std::fs::read_to_string(&tasks).unwrap_or_default();
    if !text.contains("## Checks") {
        std::fs::write(&tasks, format!("{text}\n## Checks\n\n- R1: `true`\n")).unwrap();
    }
}
