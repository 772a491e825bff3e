//! Seed 004 §9.1's loading strategies: what a brief loads up front and what
//! it only points to.
//!
//! - **Lazy** (the seed's ideation agent: "context grows during
//!   conversation"): the session state only; the feature's documents are
//!   named, not loaded. Phasegate's brainstorm and specify briefs.
//! - **Eager** (the specification agent and the SIA: "need full context"):
//!   everything relevant up front, with the knowledge base queried for all
//!   the gotchas of the files the work names and the patterns of its
//!   topics. The design, plan and tasks briefs, the reviewers' briefs and
//!   the retrospective.
//! - **Phased** (the build agent): a prime step with the spec, the tasks
//!   and the conventions; per task, that task's gotchas; the files it
//!   references only when needed (named, never pasted). The implement and
//!   verify briefs, each task's context package and the pipeline's next
//!   step.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::IntoStaticStr)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Loading {
    Lazy,
    Eager,
    Phased,
}

impl Loading {
    /// Whether the brief carries the knowledge base's gotchas for the files
    /// its work names (lazy briefs point to `workflow-state kb query`).
    pub fn loads_gotchas(self) -> bool {
        match self {
            Loading::Lazy => false,
            Loading::Eager | Loading::Phased => true,
        }
    }

    /// Whether it carries the patterns and decisions of the work's topics
    /// (up front only when eager; phased work gets its task's gotchas).
    pub fn loads_patterns(self) -> bool {
        match self {
            Loading::Eager => true,
            Loading::Lazy | Loading::Phased => false,
        }
    }
}
