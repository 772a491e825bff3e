//! phasegate's operations tested as a library (jj's `lib/tests/`): each test
//! calls the operations the CLI and the hooks call, on a temporary git
//! repository, with a clock it moves by hand, and checks what they return
//! and the files they leave. No rule that depends on time is tested by
//! backdating a file. One test binary made of modules.
#![allow(clippy::disallowed_methods)]

mod kit;

mod backlog;
mod coordination;
mod day;
mod feature;
mod hooks;
mod knowledge;
mod pipeline;
mod questions;
mod regressions;
mod rounds;
mod settle;
mod tasks;

/// Every `.rs` file in tests/ops is a module of this binary (a forgotten
/// file would silently never run).
#[test]
fn no_forgotten_test_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ops");
    let main = std::fs::read_to_string(dir.join("main.rs")).unwrap();
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let Some(module) = name.strip_suffix(".rs") else { continue };
        if module == "main" {
            continue;
        }
        assert!(main.contains(&format!("mod {module};")), "tests/ops/{name} is not declared in main.rs");
        checked += 1;
    }
    assert!(checked > 0, "the guard found no test files in {}", dir.display());
}
