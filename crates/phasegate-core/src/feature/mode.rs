//! Workflow modes and the reviewer-iteration cap each one sets.

use serde::{Deserialize, Serialize};

/// How much rigour a feature gets. The mode caps reviewer iterations per phase.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray,
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
