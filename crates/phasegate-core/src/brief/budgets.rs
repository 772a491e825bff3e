//! Every brief phasegate prints, and its default budget in estimated
//! tokens: the one table. `.phasegate/context.config.json` overrides a
//! budget by the brief's name.

/// A brief phasegate prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr, strum::VariantArray)]
#[strum(serialize_all = "kebab-case")]
pub enum BriefKind {
    /// A phase reviewer's prompt (`review brief`).
    Review,
    /// A pipeline gate reviewer's prompt (`pipeline review-brief`).
    GateReview,
    /// `pipeline next`.
    PipelineNext,
    /// A task's context package for its delegate (`tasks context`).
    TaskContext,
    /// A task reviewer's request (`tasks review`).
    TaskReview,
    /// The retrospective agent's brief (`retro`).
    Retro,
    /// What a phase command starts from (`phase brief`).
    PhaseBrief,
    /// What SessionStart brings back after `/compact`.
    Compact,
}

impl BriefKind {
    /// Its key in `.phasegate/context.config.json`'s budgets.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// Its budget when the configuration sets none, in estimated tokens.
    pub fn default_budget(self) -> usize {
        match self {
            BriefKind::Review | BriefKind::GateReview => 16_000,
            BriefKind::Retro => 12_000,
            BriefKind::TaskReview => 8_000,
            BriefKind::TaskContext => 6_000,
            BriefKind::PipelineNext => 4_000,
            BriefKind::PhaseBrief => 1_500,
            BriefKind::Compact => 400,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use strum::VariantArray;

    #[test]
    fn every_brief_has_a_name_and_a_budget() {
        let names: Vec<&str> = BriefKind::VARIANTS.iter().map(|k| k.name()).collect();
        assert_eq!(
            names,
            [
                "review",
                "gate-review",
                "pipeline-next",
                "task-context",
                "task-review",
                "retro",
                "phase-brief",
                "compact"
            ]
        );
        assert!(BriefKind::VARIANTS.iter().all(|k| k.default_budget() > 0));
    }
}
