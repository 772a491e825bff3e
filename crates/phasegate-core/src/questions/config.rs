//! `.phasegate/questions.config.json`: question routing, the implementer
//! round loop, and Slack channels (never the token).

use serde::{Deserialize, Serialize};

use super::question::{DEFAULT_TIMEOUT_MINUTES, ItemType, MAX_MINUTES, RoutePreference};
use super::rounds::{DEFAULT_MAX_ROUNDS, MAX_ROUNDS_LIMIT};
use crate::schema::Schema;

pub const QUESTIONS_CONFIG_PATH: &str = ".phasegate/questions.config.json";

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
    /// A valid file is what its schema accepts. The typed reading below
    /// accepts exactly that (a test holds the two together), so the schema,
    /// whose compilation costs the hooks milliseconds, is consulted only to
    /// say what is wrong with a file the reading refused.
    pub fn parse(text: &str) -> Result<QuestionsConfig, ConfigError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| ConfigError::Syntax(e.into()))?;
        typed(&value).map_err(|why| match Schema::QuestionsConfig.check(&value) {
            Err(errors) => ConfigError::Schema(errors),
            Ok(()) => ConfigError::Rule(why),
        })
    }
}

/// The reading with every constraint of the schema.
fn typed(value: &serde_json::Value) -> Result<QuestionsConfig, String> {
    // serde also reads a struct from an array of its fields.
    let nested = [value, &value["models"], &value["slack"], &value["slack"]["channels"]];
    if nested.iter().any(|v| !(v.is_object() || v.is_null())) || !value.is_object() {
        return Err("the file and its sections are JSON objects".into());
    }
    let c = QuestionsConfig::deserialize(value).map_err(|e| e.to_string())?;
    if !(1..=MAX_MINUTES).contains(&c.timeout_minutes) || !(1..=MAX_ROUNDS_LIMIT).contains(&c.max_rounds) {
        return Err("`timeoutMinutes` or `maxRounds` is out of range".into());
    }
    for model in [&c.models.orchestrator, &c.models.implementer] {
        if !MODELS.contains(&model.as_str()) {
            return Err(format!("`models` takes one of {}", MODELS.join(", ")));
        }
    }
    for channel in [&c.slack.channels.feature, &c.slack.channels.defect].into_iter().flatten() {
        if !channel_id(channel) {
            return Err(format!("{channel:?} is not a Slack channel id (C…, G… or D…)"));
        }
    }
    if !(5..=3600).contains(&c.slack.poll_interval_seconds) {
        return Err("`slack.pollIntervalSeconds` is out of range (5–3600)".into());
    }
    Ok(c)
}

/// The models a role may name.
const MODELS: [&str; 4] = ["opus", "sonnet", "haiku", "inherit"];

/// The schema's `^[CGD][A-Z0-9]{2,}$`.
fn channel_id(s: &str) -> bool {
    let mut bytes = s.bytes();
    matches!(bytes.next(), Some(b'C' | b'G' | b'D'))
        && s.len() >= 3
        && bytes.all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
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

    /// The schema and the typed reading accept the same files.
    #[test]
    fn the_typed_reading_accepts_what_the_schema_accepts() {
        let cases = [
            "{}",
            r#"{"$schema": "x"}"#,
            r#"{"$schema": 1}"#,
            r#"{"routing": "park"}"#,
            r#"{"routing": "ask"}"#,
            r#"{"timeoutMinutes": 1}"#,
            r#"{"timeoutMinutes": 0}"#,
            r#"{"timeoutMinutes": 525600}"#,
            r#"{"timeoutMinutes": 525601}"#,
            r#"{"timeoutMinutes": -1}"#,
            r#"{"timeoutMinutes": 1.5}"#,
            r#"{"maxRounds": 20}"#,
            r#"{"maxRounds": 21}"#,
            r#"{"models": {"orchestrator": "haiku", "implementer": "inherit"}}"#,
            r#"{"models": {"orchestrator": "gpt"}}"#,
            r#"{"models": {"reviewer": "opus"}}"#,
            r#"{"slack": {"channels": {"feature": "C0FEATURES", "defect": "G12"}}}"#,
            r#"{"slack": {"channels": {"feature": "D1"}}}"#,
            r#"{"slack": {"channels": {"feature": "c0lower"}}}"#,
            r#"{"slack": {"channels": {"feature": "X0ABC"}}}"#,
            r#"{"slack": {"channels": {"feature": "C0ABC "}}}"#,
            r#"{"slack": {"channels": {"feature": "CÄBC"}}}"#,
            r#"{"slack": {"channels": {"team": "C0ABC"}}}"#,
            r#"{"slack": {"pollIntervalSeconds": 5, "background": false}}"#,
            r#"{"slack": {"pollIntervalSeconds": 4}}"#,
            r#"{"slack": {"pollIntervalSeconds": 3601}}"#,
            r#"{"slack": {"background": "yes"}}"#,
            r#"{"slack": {"token": "xoxb-1"}}"#,
            r#"{"extra": true}"#,
            r#"[]"#,
            r#"{"models": []}"#,
            r#"{"slack": ["C0ABC"]}"#,
            r#"{"slack": {"channels": []}}"#,
            r#"{"slack": null}"#,
        ];
        for text in cases {
            let value: serde_json::Value = serde_json::from_str(text).unwrap();
            let schema = Schema::QuestionsConfig.check(&value).is_ok();
            assert_eq!(typed(&value).is_ok(), schema, "{text}: the schema says {schema}");
        }
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
