//! Integration tests: the real `workflow-state` and `phasegate-hook` binaries
//! on temporary git repositories. One test binary made of modules.

mod util;

mod concurrency;
mod feature;
mod finish;
mod hook_session_start;
mod hook_stop;
mod phase;
mod pipeline;
mod pipeline_files;
mod pipeline_ops;
mod review;
mod schemas;
mod status;
mod validate;

/// Every file in tests/it is a module of this binary (a forgotten file would
/// silently never run).
#[test]
fn no_forgotten_test_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it");
    let main = std::fs::read_to_string(dir.join("main.rs")).unwrap();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let Some(module) = name.strip_suffix(".rs") else { continue };
        if module == "main" {
            continue;
        }
        assert!(main.contains(&format!("mod {module};")), "tests/it/{name} is not declared in tests/it/main.rs");
    }
}
