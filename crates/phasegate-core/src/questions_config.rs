//! `.phasegate/questions.config.json`: question routing, the implementer
//! round loop, and Slack channels (never the token).

use serde::{Deserialize, Serialize};

use crate::question::{DEFAULT_TIMEOUT_MINUTES, ItemType, MAX_MINUTES, RoutePreference};
use crate::rounds::{DEFAULT_MAX_ROUNDS, MAX_ROUNDS_LIMIT};
use crate::schema::Schema;

pub const CONFIG_PATH: &str = ".phasegate/questions.config.json";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QuestionsConfig {
    #[serde(rename = "$schema", default, skip_serializing)]
    pub schema: Option<String>,
    #[serde(default)]
    pub routing: RoutePreference,
    #[serde(default = "default_timeout")]
    pub timeout_minutes: u64,
    #[serde(default = "default_rounds")]
    pub max_rounds: u32,
    #[serde(default)]
    pub models: Models,
    #[serde(default)]
    pub slack: SlackConfig,
}

/// Seed 000's `UX_ORCHESTRATOR_MODEL` and `UX_IMPLEMENTER_MODEL`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Models {
    #[serde(default = "opus")]
    pub orchestrator: String,
    #[serde(default = "sonnet")]
    pub implementer: String,
}

impl Default for Models {
    fn default() -> Self {
        Models { orchestrator: opus(), implementer: sonnet() }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SlackConfig {
    #[serde(default)]
    pub channels: Channels,
    #[serde(default = "default_poll")]
    pub poll_interval_seconds: u64,
    /// Start a background poller when a question goes to Slack.
    #[serde(default = "yes")]
    pub background: bool,
}

impl Default for SlackConfig {
    fn default() -> Self {
        SlackConfig { channels: Channels::default(), poll_interval_seconds: default_poll(), background: true }
    }
}

impl SlackConfig {
    /// Whether any channel is configured: questions go to Slack.
    pub fn configured(&self) -> bool {
        self.channels.feature.is_some() || self.channels.defect.is_some()
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Channels {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feature: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defect: Option<String>,
}

impl Channels {
    /// The channel for an item type (a defect falls back to the features channel).
    pub fn for_item(&self, t: ItemType) -> Option<&str> {
        match t {
            ItemType::Feature => self.feature.as_deref(),
            ItemType::Defect => self.defect.as_deref().or(self.feature.as_deref()),
        }
    }
}

fn default_timeout() -> u64 {
    DEFAULT_TIMEOUT_MINUTES
}
fn default_rounds() -> u32 {
    DEFAULT_MAX_ROUNDS
}
fn default_poll() -> u64 {
    60
}
fn yes() -> bool {
    true
}
fn opus() -> String {
    "opus".into()
}
fn sonnet() -> String {
    "sonnet".into()
}

impl Default for QuestionsConfig {
    fn default() -> Self {
        QuestionsConfig {
            schema: None,
            routing: RoutePreference::Auto,
            timeout_minutes: DEFAULT_TIMEOUT_MINUTES,
            max_rounds: DEFAULT_MAX_ROUNDS,
            models: Models::default(),
            slack: SlackConfig::default(),
        }
    }
}

pub use crate::schema::ConfigError;

impl QuestionsConfig {
    /// The one definition of a valid file: its schema, then the reading.
    pub fn parse(text: &str) -> Result<QuestionsConfig, ConfigError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| ConfigError::Syntax(e.to_string()))?;
        Schema::QuestionsConfig.check(&value).map_err(ConfigError::Schema)?;
        let c: QuestionsConfig = serde_json::from_value(value).map_err(|e| ConfigError::Rule(e.to_string()))?;
        // The schema holds these ranges; kept here so no reading accepts more.
        if !(1..=MAX_MINUTES).contains(&c.timeout_minutes) || !(1..=MAX_ROUNDS_LIMIT).contains(&c.max_rounds) {
            return Err(ConfigError::Rule("`timeoutMinutes` or `maxRounds` is out of range".into()));
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_seeds_constants() {
        let c = QuestionsConfig::parse("{}").unwrap();
        assert_eq!((c.timeout_minutes, c.max_rounds), (1440, 3));
        assert_eq!((c.models.orchestrator.as_str(), c.models.implementer.as_str()), ("opus", "sonnet"));
    }

    #[test]
    fn a_file_without_a_slack_section_polls_every_minute_in_the_background() {
        // Regression: a derived Default gave 0 seconds and no background poller.
        for text in ["{}", r#"{"slack": {}}"#] {
            let c = QuestionsConfig::parse(text).unwrap();
            assert_eq!((c.slack.poll_interval_seconds, c.slack.background), (60, true), "{text}");
        }
        assert_eq!(QuestionsConfig::default(), QuestionsConfig::parse("{}").unwrap());
    }

    #[test]
    fn bad_values_name_the_field() {
        for (text, why) in [
            (r#"{"maxRounds": 0}"#, "/maxRounds"),
            (r#"{"routing": "ask"}"#, "/routing"),
            (r#"{"slack": {"token": "xoxb-1"}}"#, "token"),
            (r##"{"slack": {"channels": {"feature": "#general"}}}"##, "/slack/channels/feature"),
        ] {
            let e = QuestionsConfig::parse(text).unwrap_err().to_string();
            assert!(e.contains(why), "{text}: {e}");
        }
    }
}
