//! The phases of a feature, in order, and the artifacts they produce.

use serde::{Deserialize, Serialize};

use crate::agent::Agent;
use crate::brief::Loading;
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

    /// Everything phasegate knows about a phase, in one table: the one
    /// exhaustive match that a new phase has to fill in.
    pub fn facts(self) -> &'static PhaseFacts {
        const DOC: ReviewFocus = ReviewFocus::NextPhaseNeeds;
        match self {
            Phase::Brainstorm => &PhaseFacts {
                artifact: Some(Artifact::Brainstorm),
                reviewer: Some(Agent::ChainReviewer),
                reviews_code: false,
                requires: None,
                review_base_from_implement: false,
                expectations: "Spec needs: clear problem statement, explored options, user intent captured.",
                focus: DOC,
                loading: Loading::Lazy,
                summary: "Explore the problem and write brainstorm.md (phasegate, reviewed until approved or capped)",
                produces: "brainstorm.md",
                completes_with: None,
                approval_needs_proof: false,
            },
            Phase::Specify => &PhaseFacts {
                artifact: Some(Artifact::Spec),
                reviewer: Some(Agent::ChainReviewer),
                reviews_code: false,
                requires: None,
                review_base_from_implement: false,
                expectations: "Design needs: all requirements listed, acceptance criteria defined, scope boundaries clear.",
                focus: DOC,
                loading: Loading::Lazy,
                summary: "Write spec.md - requirements, acceptance criteria, scope (phasegate)",
                produces: "spec.md",
                completes_with: Some("spec.approved"),
                approval_needs_proof: false,
            },
            Phase::Design => &PhaseFacts {
                artifact: Some(Artifact::Design),
                reviewer: Some(Agent::ChainReviewer),
                reviews_code: false,
                requires: None,
                review_base_from_implement: false,
                expectations: "Plan needs: components defined, interfaces specified, dependencies identified, risks noted.",
                focus: DOC,
                loading: Loading::Eager,
                summary: "Write design.md - components, interfaces, risks (phasegate)",
                produces: "design.md",
                completes_with: None,
                approval_needs_proof: false,
            },
            Phase::CreatePlan => &PhaseFacts {
                artifact: Some(Artifact::Plan),
                reviewer: Some(Agent::ChainReviewer),
                reviews_code: false,
                requires: None,
                review_base_from_implement: false,
                expectations: "Tasks needs: ordered steps with dependencies, all design items covered, clear sequencing.",
                focus: DOC,
                loading: Loading::Eager,
                summary: "Write plan.md, the ordered steps (phasegate)",
                produces: "plan.md",
                completes_with: None,
                approval_needs_proof: false,
            },
            Phase::CreateTasks => &PhaseFacts {
                artifact: Some(Artifact::Tasks),
                reviewer: Some(Agent::ChainReviewer),
                reviews_code: false,
                // Seed 002's hard block: no task list without a plan.
                requires: Some(Artifact::Plan),
                review_base_from_implement: false,
                expectations: "Implement needs: small actionable tasks (<15 min each), clear acceptance criteria per task.",
                focus: DOC,
                loading: Loading::Eager,
                summary: "Write tasks.md, small tasks with acceptance criteria (phasegate)",
                produces: "tasks.md",
                completes_with: None,
                approval_needs_proof: false,
            },
            Phase::Implement => &PhaseFacts {
                artifact: None,
                reviewer: Some(Agent::ChainReviewer),
                reviews_code: true,
                // Seed 002's hard block: no implementation without a spec.
                requires: Some(Artifact::Spec),
                review_base_from_implement: false,
                expectations: "Verify needs: all tasks addressed, tests exist and pass, no obvious issues.",
                focus: DOC,
                loading: Loading::Phased,
                summary: "Implement tasks.md test-first; a fresh reviewer checks the change (phasegate)",
                produces: "the code",
                // The build is done when it is proven: `finish` says
                // `build.completed`, after verify has fixed what it found,
                // so the retrospective reads those fixes too.
                completes_with: None,
                approval_needs_proof: false,
            },
            Phase::Verify => &PhaseFacts {
                artifact: None,
                reviewer: Some(Agent::FinalReviewer),
                reviews_code: true,
                requires: None,
                review_base_from_implement: true,
                expectations: "Finish needs: quality confirmed, implementation matches spec, ready to merge.",
                focus: ReviewFocus::MatchesSpec,
                loading: Loading::Phased,
                summary: "Verify the implementation against spec.md (phasegate)",
                produces: "the verification",
                completes_with: None,
                approval_needs_proof: true,
            },
            // Finish is a command (`workflow-state finish`), not a phase
            // with a result to review.
            Phase::Finish => &PhaseFacts {
                artifact: None,
                reviewer: None,
                reviews_code: false,
                requires: None,
                review_base_from_implement: false,
                expectations: "Nothing: finish ends the feature.",
                focus: DOC,
                loading: Loading::Phased,
                summary: "Finish the feature (phasegate)",
                produces: "the finished feature",
                completes_with: None,
                approval_needs_proof: false,
            },
        }
    }

    /// The artifact this phase writes into the feature folder, if it writes one.
    pub fn artifact(self) -> Option<Artifact> {
        self.facts().artifact
    }

    /// Whether this phase runs the reviewer loop (every phase that produces
    /// something the next phase consumes; not finish).
    pub fn has_review_loop(self) -> bool {
        self.facts().reviewer.is_some()
    }

    /// The agent that reviews this phase's result.
    pub fn reviewer(self) -> Option<Agent> {
        self.facts().reviewer
    }

    /// Whether the phase's result is code (reviewed as a change since the
    /// phase started) rather than a document.
    pub fn reviews_code(self) -> bool {
        self.facts().reviews_code
    }

    /// The artifact this phase cannot start without (the seed's hard blocks).
    pub fn requires(self) -> Option<Artifact> {
        self.facts().requires
    }

    /// "Design", "Create Plan", …
    pub fn title(self) -> String {
        self.name()
            .split('-')
            .map(|w| {
                let mut c = w.chars();
                c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The facts of one phase (see [`Phase::facts`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PhaseFacts {
    /// The document the phase writes, if any.
    pub artifact: Option<Artifact>,
    /// The reviewer agent; None for a phase without a reviewer loop.
    pub reviewer: Option<Agent>,
    /// The result is code, reviewed as the change since the phase started.
    pub reviews_code: bool,
    /// An artifact the phase cannot start without.
    pub requires: Option<Artifact>,
    /// The change under review starts where implement started.
    pub review_base_from_implement: bool,
    /// What the next phase needs from this one.
    pub expectations: &'static str,
    /// The question the reviewer answers.
    pub focus: ReviewFocus,
    /// How the phase's brief loads its context (seed 004 §9.1).
    pub loading: Loading,
    /// The slash command's description (every session's context: short).
    pub summary: &'static str,
    /// What the phase produces, as its command says it ("design.md").
    pub produces: &'static str,
    /// The event its completion emits (seed 004 §2.3's handoffs: the spec
    /// goes to the build; the build goes to the retrospective at `finish`).
    pub completes_with: Option<&'static str>,
    /// Its reviewer's approval counts only with the feature proven (the
    /// evidence ledger, `workflow-state verify run`): verify.
    pub approval_needs_proof: bool,
}

/// The question a phase's reviewer answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReviewFocus {
    /// Can the next phase do its work from this result alone?
    NextPhaseNeeds,
    /// Does the implementation match spec.md?
    MatchesSpec,
}

impl ReviewFocus {
    pub fn instruction(self) -> &'static str {
        match self {
            ReviewFocus::NextPhaseNeeds => {
                "Can the next phase complete its work using ONLY the current artifact? Do not suggest scope expansion.\n"
            }
            ReviewFocus::MatchesSpec => {
                "Check that the implementation matches spec.md: flag unimplemented requirements and work not in the spec.\n"
            }
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
