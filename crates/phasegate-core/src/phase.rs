//! The phases of a feature, in order, and the artifacts they produce.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// One phase of the workflow. The order of the variants is the workflow order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    Brainstorm,
    Specify,
    Design,
    CreatePlan,
    CreateTasks,
    Implement,
    Verify,
    Finish,
}

impl Phase {
    /// Every phase, in workflow order.
    pub const ALL: [Phase; 8] = [
        Phase::Brainstorm,
        Phase::Specify,
        Phase::Design,
        Phase::CreatePlan,
        Phase::CreateTasks,
        Phase::Implement,
        Phase::Verify,
        Phase::Finish,
    ];

    /// The name used on the command line, in `.meta.json` and in command names.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Brainstorm => "brainstorm",
            Phase::Specify => "specify",
            Phase::Design => "design",
            Phase::CreatePlan => "create-plan",
            Phase::CreateTasks => "create-tasks",
            Phase::Implement => "implement",
            Phase::Verify => "verify",
            Phase::Finish => "finish",
        }
    }

    /// Position in the workflow, starting at 0.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The phase after this one, if any.
    pub fn next(self) -> Option<Phase> {
        Phase::ALL.get(self.index() + 1).copied()
    }

    /// The slash command that runs this phase inside Claude Code.
    pub fn command(self) -> String {
        format!("/phasegate:{}", self.name())
    }

    /// The artifact this phase writes into the feature folder, if it writes one.
    pub fn artifact(self) -> Option<Artifact> {
        match self {
            Phase::Brainstorm => Some(Artifact::Brainstorm),
            Phase::Specify => Some(Artifact::Spec),
            Phase::Design => Some(Artifact::Design),
            Phase::CreatePlan => Some(Artifact::Plan),
            Phase::CreateTasks => Some(Artifact::Tasks),
            Phase::Implement | Phase::Verify | Phase::Finish => None,
        }
    }

    /// Whether this phase runs the chain-reviewer loop (every phase that
    /// produces something the next phase consumes).
    pub fn has_review_loop(self) -> bool {
        match self {
            Phase::Brainstorm
            | Phase::Specify
            | Phase::Design
            | Phase::CreatePlan
            | Phase::CreateTasks
            | Phase::Implement
            | Phase::Verify => true,
            Phase::Finish => false,
        }
    }

    fn names() -> String {
        Phase::ALL.iter().map(|p| p.name()).collect::<Vec<_>>().join(", ")
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A word that is not a phase name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown phase `{given}`; expected one of: {expected}")]
pub struct UnknownPhase {
    pub given: String,
    pub expected: String,
}

impl FromStr for Phase {
    type Err = UnknownPhase;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Phase::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| UnknownPhase { given: s.to_owned(), expected: Phase::names() })
    }
}

/// A document a phase produces in the feature folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Artifact {
    Brainstorm,
    Spec,
    Design,
    Plan,
    Tasks,
}

impl Artifact {
    pub const ALL: [Artifact; 5] =
        [Artifact::Brainstorm, Artifact::Spec, Artifact::Design, Artifact::Plan, Artifact::Tasks];

    /// Short name, as used by `--artifacts spec,plan`.
    pub fn name(self) -> &'static str {
        match self {
            Artifact::Brainstorm => "brainstorm",
            Artifact::Spec => "spec",
            Artifact::Design => "design",
            Artifact::Plan => "plan",
            Artifact::Tasks => "tasks",
        }
    }

    /// File name inside the feature folder.
    pub fn file_name(self) -> &'static str {
        match self {
            Artifact::Brainstorm => "brainstorm.md",
            Artifact::Spec => "spec.md",
            Artifact::Design => "design.md",
            Artifact::Plan => "plan.md",
            Artifact::Tasks => "tasks.md",
        }
    }

    /// The phase that writes this artifact.
    pub fn phase(self) -> Phase {
        match self {
            Artifact::Brainstorm => Phase::Brainstorm,
            Artifact::Spec => Phase::Specify,
            Artifact::Design => Phase::Design,
            Artifact::Plan => Phase::CreatePlan,
            Artifact::Tasks => Phase::CreateTasks,
        }
    }
}

impl fmt::Display for Artifact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A word that is not an artifact name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown artifact `{given}`; expected one of: brainstorm, spec, design, plan, tasks (with or without .md)")]
pub struct UnknownArtifact {
    pub given: String,
}

impl FromStr for Artifact {
    type Err = UnknownArtifact;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bare = s.strip_suffix(".md").unwrap_or(s);
        Artifact::ALL.into_iter().find(|a| a.name() == bare).ok_or_else(|| UnknownArtifact { given: s.to_owned() })
    }
}

/// Which artifacts exist. A small set; order does not matter.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ArtifactSet(u8);

impl ArtifactSet {
    pub fn empty() -> Self {
        ArtifactSet(0)
    }

    pub fn insert(&mut self, a: Artifact) {
        self.0 |= 1 << (a as u8);
    }

    pub fn contains(self, a: Artifact) -> bool {
        self.0 & (1 << (a as u8)) != 0
    }

    pub fn iter(self) -> impl Iterator<Item = Artifact> {
        Artifact::ALL.into_iter().filter(move |a| self.contains(*a))
    }

    /// Parses a comma-separated list such as `spec,plan` or `spec.md, plan.md`.
    /// An empty string or `none` is the empty set.
    pub fn parse_list(s: &str) -> Result<Self, UnknownArtifact> {
        let mut set = ArtifactSet::empty();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty() && *p != "none") {
            set.insert(part.parse()?);
        }
        Ok(set)
    }
}

impl FromIterator<Artifact> for ArtifactSet {
    fn from_iter<I: IntoIterator<Item = Artifact>>(iter: I) -> Self {
        let mut set = ArtifactSet::empty();
        for a in iter {
            set.insert(a);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phase_names_round_trip_and_order() {
        for (i, p) in Phase::ALL.into_iter().enumerate() {
            assert_eq!(p.index(), i);
            assert_eq!(p.name().parse::<Phase>().unwrap(), p);
            assert_eq!(serde_json::to_string(&p).unwrap(), format!("\"{}\"", p.name()));
        }
        assert_eq!(Phase::CreatePlan.next(), Some(Phase::CreateTasks));
        assert_eq!(Phase::Finish.next(), None);
    }

    #[test]
    fn unknown_phase_lists_the_valid_ones() {
        let err = "plan".parse::<Phase>().unwrap_err().to_string();
        assert!(err.contains("unknown phase `plan`"), "{err}");
        assert!(err.contains("create-plan"), "{err}");
    }

    #[test]
    fn artifact_list_parsing() {
        let set = ArtifactSet::parse_list("spec, plan.md").unwrap();
        assert!(set.contains(Artifact::Spec));
        assert!(set.contains(Artifact::Plan));
        assert!(!set.contains(Artifact::Design));
        assert_eq!(ArtifactSet::parse_list("none").unwrap(), ArtifactSet::empty());
        assert_eq!(ArtifactSet::parse_list("").unwrap(), ArtifactSet::empty());
        assert!(ArtifactSet::parse_list("spec,code").unwrap_err().to_string().contains("`code`"));
    }
}
