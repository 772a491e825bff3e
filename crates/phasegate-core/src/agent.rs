//! The plugin's own agents (`agents/*.md`), each name spelled once. Briefs
//! and decisions name an agent through this enum, and a test holds it
//! together with the files in `agents/`, so a renamed agent breaks a test,
//! not a prompt.

use serde::{Deserialize, Serialize};

/// One agent this plugin ships.
#[derive(
    Debug,
    Clone,
    Copy,
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
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Agent {
    ChainReviewer,
    FinalReviewer,
    DesignImplementer,
    TaskImplementer,
    RequirementsGatherer,
    Planner,
    PlanReviewer,
    Implementer,
    CodeReviewer,
    Retrospective,
}

/// What an agent is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentRole {
    /// Judges someone else's work and never changes it.
    Reviewer,
    /// Produces work (documents, code, plans).
    Worker,
    /// Reads the record of finished work and proposes lessons; changes
    /// nothing and reviews no one.
    Analyst,
}

impl Agent {
    /// How Claude Code addresses it (`subagent_type`): `phasegate:<name>`.
    pub fn qualified(self) -> String {
        format!("phasegate:{}", self.name())
    }

    pub fn role(self) -> AgentRole {
        match self {
            Agent::ChainReviewer | Agent::FinalReviewer | Agent::PlanReviewer | Agent::CodeReviewer => {
                AgentRole::Reviewer
            }
            Agent::DesignImplementer
            | Agent::TaskImplementer
            | Agent::RequirementsGatherer
            | Agent::Planner
            | Agent::Implementer => AgentRole::Worker,
            Agent::Retrospective => AgentRole::Analyst,
        }
    }

    /// The agent a qualified name (`phasegate:planner`) or a bare plugin
    /// agent name stands for.
    pub fn from_qualified(name: &str) -> Option<Agent> {
        name.strip_prefix("phasegate:").unwrap_or(name).parse().ok()
    }
}

crate::named!(Agent, "agent");

#[cfg(test)]
mod tests {
    use super::*;

    /// Every variant has its file in `agents/` with the same `name:`, and
    /// every file there is a variant.
    #[test]
    fn every_agent_is_a_file_in_agents_and_every_file_an_agent() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../agents");
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().to_str()?.strip_suffix(".md").map(str::to_owned))
            .collect();
        files.sort();
        let mut names: Vec<String> =
            <Agent as strum::VariantArray>::VARIANTS.iter().map(|a| a.name().to_owned()).collect();
        names.sort();
        assert_eq!(files, names, "agents/*.md and the Agent enum disagree");
        for a in <Agent as strum::VariantArray>::VARIANTS {
            let text = std::fs::read_to_string(dir.join(format!("{}.md", a.name()))).unwrap();
            assert!(text.contains(&format!("\nname: {}\n", a.name())), "{a:?}: frontmatter name");
            assert_eq!(Agent::from_qualified(&a.qualified()), Some(*a));
        }
        crate::names::assert_serde_names::<Agent>();
    }
}
