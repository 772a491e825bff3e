//! End-to-end tests: the real Claude Code (pinned in tests/e2e/package.json)
//! runs with this repository as its plugin against a scripted Messages API
//! on 127.0.0.1. Hooks fire, slash commands expand, agents resolve, and the
//! shell commands our Markdown tells the model to run really run.

mod support;

mod agents;
mod broken;
mod commands;
mod install;
mod markdown_commands;
mod plugin_validate;
mod review_loop;
mod session_start;
mod stop_hook;

/// Every file in tests/e2e is a module of this binary.
#[test]
fn no_forgotten_test_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e");
    let main = std::fs::read_to_string(dir.join("main.rs")).unwrap();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let Some(module) = name.strip_suffix(".rs") else { continue };
        if module == "main" {
            continue;
        }
        assert!(main.contains(&format!("mod {module};")), "tests/e2e/{name} is not declared in tests/e2e/main.rs");
    }
}
