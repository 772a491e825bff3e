//! `.phasegate/implement.config.json`: seed 003's review-cycle and
//! escalation settings and seed 004's build limit, in the seeds' shape.

use serde::{Deserialize, Serialize};

use super::build::DEFAULT_TIME_LIMIT_MINUTES;
use super::review::{DEFAULT_MAX_CYCLES, ESCALATION_TIMEOUT_MINUTES};
use crate::schema::{ConfigError, Schema};

pub const IMPLEMENT_CONFIG_PATH: &str = ".phasegate/implement.config.json";
/// Seed 003: "Each review has a 5-minute timeout (configurable)".
pub const DEFAULT_REVIEW_TIMEOUT_MINUTES: u64 = 5;

/// Seed 003's escalation actions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DefaultAction {
    #[default]
    SkipWithWarning,
    AcceptAsIs,
    AbortProcess,
}

impl DefaultAction {
    /// The escalation question's option that carries this action.
    pub fn option(self) -> &'static str {
        match self {
            DefaultAction::SkipWithWarning => "Skip",
            DefaultAction::AcceptAsIs => "Accept as-is",
            DefaultAction::AbortProcess => "Abort",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            DefaultAction::SkipWithWarning => "skip_with_warning",
            DefaultAction::AcceptAsIs => "accept_as_is",
            DefaultAction::AbortProcess => "abort_process",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImplementConfig {
    #[serde(rename = "$schema", default, skip_serializing)]
    pub schema: Option<String>,
    #[serde(default = "max_cycles")]
    pub max_cycles: u32,
    #[serde(default = "review_timeout")]
    pub review_timeout_minutes: u64,
    #[serde(default)]
    pub escalation: Escalation,
    #[serde(default)]
    pub build: Build,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Escalation {
    #[serde(default = "escalation_timeout")]
    pub timeout_minutes: u64,
    #[serde(default)]
    pub default_action: DefaultAction,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notification_method: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actions: Option<Vec<DefaultAction>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Build {
    #[serde(default = "time_limit")]
    pub time_limit_minutes: i64,
}

fn max_cycles() -> u32 {
    DEFAULT_MAX_CYCLES
}
fn review_timeout() -> u64 {
    DEFAULT_REVIEW_TIMEOUT_MINUTES
}
fn escalation_timeout() -> u64 {
    ESCALATION_TIMEOUT_MINUTES
}
fn time_limit() -> i64 {
    DEFAULT_TIME_LIMIT_MINUTES
}

impl Default for Escalation {
    fn default() -> Self {
        Escalation {
            timeout_minutes: escalation_timeout(),
            default_action: DefaultAction::default(),
            notification_method: None,
            actions: None,
        }
    }
}

impl Default for Build {
    fn default() -> Self {
        Build { time_limit_minutes: time_limit() }
    }
}

impl Default for ImplementConfig {
    fn default() -> Self {
        ImplementConfig {
            schema: None,
            max_cycles: max_cycles(),
            review_timeout_minutes: review_timeout(),
            escalation: Escalation::default(),
            build: Build::default(),
        }
    }
}

impl ImplementConfig {
    /// The schema, then the reading.
    pub fn parse(text: &str) -> Result<ImplementConfig, ConfigError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| ConfigError::Syntax(e.into()))?;
        Schema::ImplementConfig.check(&value).map_err(ConfigError::Schema)?;
        serde_json::from_value(value).map_err(|e| ConfigError::Rule(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_seeds_numbers() {
        let c = ImplementConfig::parse("{}").unwrap();
        assert_eq!((c.max_cycles, c.review_timeout_minutes, c.escalation.timeout_minutes), (3, 5, 5));
        assert_eq!((c.escalation.default_action, c.build.time_limit_minutes), (DefaultAction::SkipWithWarning, 120));
        assert_eq!(c, ImplementConfig::default());
    }

    #[test]
    fn the_seeds_escalation_block_is_accepted_and_bad_values_name_their_field() {
        let seed = r#"{"escalation": {"timeout_minutes": 5, "default_action": "skip_with_warning", "notification_method": "console", "actions": ["skip_with_warning", "accept_as_is", "abort_process"]}}"#;
        assert!(ImplementConfig::parse(seed).is_ok());
        for (text, field) in [
            (r#"{"max_cycles": 0}"#, "/max_cycles"),
            (r#"{"escalation": {"default_action": "retry"}}"#, "/escalation/default_action"),
            (r#"{"build": {"time_limit": 5}}"#, "time_limit"),
        ] {
            let e = ImplementConfig::parse(text).unwrap_err().to_string();
            assert!(e.contains(field), "{text}: {e}");
        }
    }
}
