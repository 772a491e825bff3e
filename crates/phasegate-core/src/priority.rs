//! Whose work goes first: a task's declared priority (tasks.md's
//! `priority:` metadata) and a session's, which §8.2's conflict rule
//! compares. Kernel, since tasks and coordination both speak of it.

use serde::{Deserialize, Serialize};

/// Whose work goes first when two sessions want the same file. Ordered:
/// `low` < `normal` < `high` < `critical`.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Priority {
    /// Background work: yields to everyone.
    Low,
    /// Ordinary work; what a session has unless told otherwise.
    #[default]
    Normal,
    /// Work someone waits for.
    High,
    /// A fix that must land now (a broken build, a hotfix).
    Critical,
}

crate::named!(Priority, "priority");
