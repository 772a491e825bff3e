//! The phases of a feature, in order, and the artifacts they produce.

use serde::{Deserialize, Serialize};

use crate::names::{Named, UnknownName};

/// One phase of the workflow. The order of the variants is the workflow order.
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
}

crate::named!(Phase, "phase");

/// A document a phase produces in the feature folder.
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

crate::named!(@custom_from_str Artifact, "artifact");

impl std::str::FromStr for Artifact {
    type Err = UnknownName;

    /// `spec` or `spec.md`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Artifact::parse_name(s.strip_suffix(".md").unwrap_or(s)).map_err(|mut e| {
            e.given = s.to_owned();
            e
        })
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
    pub fn parse_list(s: &str) -> Result<Self, UnknownName> {
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
        crate::names::assert_serde_names::<Phase>();
        crate::names::assert_serde_names::<Artifact>();
        for (i, p) in Phase::ALL.into_iter().enumerate() {
            assert_eq!(p.index(), i);
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
