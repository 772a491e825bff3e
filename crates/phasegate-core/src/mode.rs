//! Workflow modes and the reviewer-iteration cap each one sets.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// How much rigour a feature gets. The mode caps reviewer iterations per phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Hotfix,
    Quick,
    #[default]
    Standard,
    Full,
}

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

    pub fn name(self) -> &'static str {
        match self {
            Mode::Hotfix => "hotfix",
            Mode::Quick => "quick",
            Mode::Standard => "standard",
            Mode::Full => "full",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A word that is not a mode name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown mode `{0}`; expected one of: hotfix, quick, standard, full")]
pub struct UnknownMode(pub String);

impl FromStr for Mode {
    type Err = UnknownMode;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Mode::ALL.into_iter().find(|m| m.name() == s).ok_or_else(|| UnknownMode(s.to_owned()))
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
    }
}
