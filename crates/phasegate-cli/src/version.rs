//! `workflow-state --version`: the binaries' version and the installed
//! plugin's (plugin.json at `CLAUDE_PLUGIN_ROOT`, else above this binary),
//! and a line when the two disagree.

use phasegate_ops::env;

/// The report `--version` prints.
pub fn report() -> String {
    let mut out = format!("workflow-state {}\n", env::BINARY_VERSION);
    match env::plugin_root() {
        None => {
            out.push_str("plugin: not found (no CLAUDE_PLUGIN_ROOT, no .claude-plugin/plugin.json above this binary)\n")
        }
        Some(root) => {
            let manifest = env::plugin_manifest(&root);
            match env::plugin_version(&root) {
                Ok(v) => out.push_str(&format!("plugin: phasegate {v} ({})\n", manifest.display())),
                Err(e) => out.push_str(&format!("plugin: {e}\n")),
            }
            if let Some(why) = env::version_mismatch(&root) {
                out.push_str(&format!("warning: {why}\n"));
            }
        }
    }
    out
}
