//! Workflow modes and the reviewer-iteration cap each one sets.

use serde::{Deserialize, Serialize};

/// How much rigour a feature gets. The mode caps reviewer iterations per phase.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Default,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Mode {
    // The seed writes the modes capitalised (`Hotfix=1, Quick=2, Standard=3,
    // Full=5`); its .meta.json files are read as they are.
    #[serde(alias = "Hotfix", alias = "HOTFIX")]
    Hotfix,
    #[serde(alias = "Quick", alias = "QUICK")]
    Quick,
    #[default]
    #[serde(alias = "Standard", alias = "STANDARD")]
    Standard,
    #[serde(alias = "Full", alias = "FULL")]
    Full,
}

crate::named!(Mode, "mode");

impl Mode {
    pub const ALL: [Mode; 4] = [Mode::Hotfix, Mode::Quick, Mode::Standard, Mode::Full];

    /// What the feature must prove before it is done (the evidence
    /// ledger, `workflow-state verify run`): hotfix needs every declared
    /// check to pass at the current tree; the others need every requirement
    /// proven, or waived by a person.
    pub fn proof(self) -> ProofRule {
        match self {
            Mode::Hotfix => ProofRule::DeclaredChecks,
            Mode::Quick | Mode::Standard | Mode::Full => ProofRule::EveryRequirement,
        }
    }

    /// The most reviewer iterations one phase may take (seed 002, TD3).
    pub fn max_iterations(self) -> u32 {
        match self {
            Mode::Hotfix => 1,
            Mode::Quick => 2,
            Mode::Standard => 3,
            Mode::Full => 5,
        }
    }
}

/// What a mode requires of the evidence ledger before the feature is done.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::IntoStaticStr)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum ProofRule {
    /// Every requirement proven at the current tree, or waived by a person.
    EveryRequirement,
    /// Every declared check passed at the current tree (at least one);
    /// requirements with no check are shown, not required.
    DeclaredChecks,
}

impl ProofRule {
    /// In words, for the README's mode table and the messages.
    pub fn says(self) -> &'static str {
        match self {
            ProofRule::EveryRequirement => {
                "every requirement proven by a check at the current tree, or waived by a person"
            }
            ProofRule::DeclaredChecks => {
                "every declared check passing at the current tree (at least one); requirements without a check are listed, not required"
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_match_the_seed() {
        let caps: Vec<_> = Mode::ALL.iter().map(|m| (m.name(), m.max_iterations())).collect();
        assert_eq!(caps, [("hotfix", 1), ("quick", 2), ("standard", 3), ("full", 5)]);
        assert_eq!(Mode::default(), Mode::Standard);
        assert!("slow".parse::<Mode>().unwrap_err().to_string().contains("hotfix, quick"));
        crate::names::assert_serde_names::<Mode>();
        assert_eq!(serde_json::from_str::<Mode>("\"Standard\"").unwrap(), Mode::Standard);
    }
}
