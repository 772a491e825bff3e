//! The files phasegate reads but does not own, and the few it writes
//! whole at a person's request: the user's (`CLAUDE.md`, a spec, the file
//! an edit changes, a `--out` report), the plugin's own (its manifest, its
//! agents, `hooks.json`, a generated command). They go through the same
//! guarded reads as the state files: a regular file only, of bounded size,
//! named in every error; nothing through a link out of the folder it is
//! confined to.
//!
//! This is the store's one face for such files. The state files phasegate
//! owns (`.meta.json`, the ledger, `.task/`, the runtime folder's logs and
//! locks) are read and written only through the store's handles
//! (`Feature`, `project.proof()`, `project.questions()`, ...), which decide
//! their paths and formats; the file primitives behind both are private to
//! the store.

use std::path::Path;

pub use crate::fs::{
    MAX_STATE_BYTES, canonical_or_same, confine, current_exe, exists, head, is_dir, is_executable, is_file,
    is_regular_file, join_slashed, modified, read_optional, read_optional_up_to, read_to_string, relative,
};

use crate::error::StoreError;

/// Writes a file a person asked for (a generated command, a report, a
/// `CLAUDE.md` a promotion changed) whole and atomically, making its folder
/// first: a reader sees the old file or the new one, never half.
pub fn write_whole(path: &Path, text: &str) -> Result<(), StoreError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        crate::fs::create_dir_all(dir)?;
    }
    crate::fs::write_atomic(path, text.as_bytes())
}
