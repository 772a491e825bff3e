//! `scripts/dist/workflow-state`, the Bash tool's `workflow-state` in an
//! installed plugin (docs/distribution.md): it runs the binary npm installed
//! for this platform, found through the anchor link, and says what to do
//! when there is none.

use std::path::Path;
use std::process::Command;

use crate::util::WORKFLOW_STATE;

/// A plugin folder as Claude Code leaves it: the launcher in bin/, and (when
/// `with_package`) the platform package with its anchor and npm's link to it.
fn installed(root: &Path, with_package: bool) {
    std::fs::create_dir_all(root.join("bin")).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/dist/workflow-state"),
        root.join("bin/workflow-state"),
    )
    .unwrap();
    if with_package {
        let pkg = root.join("node_modules/@phasegate/plugin-test");
        std::fs::create_dir_all(pkg.join("anchor/three/deep")).unwrap();
        std::fs::create_dir_all(pkg.join("bin")).unwrap();
        std::fs::copy(WORKFLOW_STATE, pkg.join("bin/workflow-state")).unwrap();
        std::fs::create_dir_all(root.join("node_modules/.bin")).unwrap();
        std::os::unix::fs::symlink(
            "../@phasegate/plugin-test/anchor/three/deep",
            root.join("node_modules/.bin/phasegate-native"),
        )
        .unwrap();
    }
}

fn run(root: &Path) -> std::process::Output {
    Command::new(root.join("bin/workflow-state")).arg("--version").env_remove("CLAUDE_PLUGIN_ROOT").output().unwrap()
}

#[test]
fn the_launcher_runs_the_platform_binary_through_the_anchor() {
    let dir = tempfile::tempdir().unwrap();
    installed(dir.path(), true);
    let out = run(dir.path());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with(&format!("workflow-state {}\n", env!("CARGO_PKG_VERSION"))), "{stdout}");
}

#[test]
fn without_a_platform_binary_the_launcher_says_how_to_reinstall() {
    let dir = tempfile::tempdir().unwrap();
    installed(dir.path(), false);
    let out = run(dir.path());
    assert_eq!(out.status.code(), Some(127));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("is not installed") && stderr.contains("/plugin install phasegate@phasegate"), "{stderr}");
}
