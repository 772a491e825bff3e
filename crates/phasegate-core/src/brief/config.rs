//! `.phasegate/context.config.json`: each brief's budget in estimated
//! tokens, and the knowledge base's just-in-time gotchas. Every field is
//! optional; a brief the file does not name keeps the default its builder
//! gives.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::schema::{ConfigError, Schema};

pub const CONTEXT_CONFIG_PATH: &str = ".phasegate/context.config.json";
/// The issue's figure: "at most about 600 bytes per injection".
pub const JUST_IN_TIME_MAX_BYTES: usize = 600;

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContextConfig {
    #[serde(rename = "$schema", default, skip_serializing)]
    pub schema: Option<String>,
    /// Budgets by brief name (`phase-brief`, `task-context`, …).
    #[serde(default)]
    pub budgets: BTreeMap<String, usize>,
    #[serde(default, rename = "justInTime")]
    pub just_in_time: JustInTime,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct JustInTime {
    #[serde(default = "yes")]
    pub enabled: bool,
    #[serde(default = "max_bytes")]
    pub max_bytes: usize,
}

fn yes() -> bool {
    true
}
fn max_bytes() -> usize {
    JUST_IN_TIME_MAX_BYTES
}

impl Default for JustInTime {
    fn default() -> Self {
        JustInTime { enabled: true, max_bytes: JUST_IN_TIME_MAX_BYTES }
    }
}

impl ContextConfig {
    /// The schema, then the reading.
    pub fn parse(text: &str) -> Result<ContextConfig, ConfigError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| ConfigError::Syntax(e.into()))?;
        Schema::ContextConfig.check(&value).map_err(ConfigError::Schema)?;
        serde_json::from_value(value).map_err(|e| ConfigError::Rule(e.to_string()))
    }

    /// The budget of the brief `name`: the file's, else `default`.
    pub fn budget(&self, name: &str, default: usize) -> usize {
        self.budgets.get(name).copied().unwrap_or(default)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_a_budget_per_brief() {
        let c = ContextConfig::parse("{}").unwrap();
        assert_eq!(c, ContextConfig::default());
        assert_eq!((c.just_in_time.enabled, c.just_in_time.max_bytes), (true, 600));
        assert_eq!(c.budget("task-context", 6_000), 6_000);
        let c =
            ContextConfig::parse(r#"{"budgets": {"task-context": 2000}, "justInTime": {"enabled": false}}"#).unwrap();
        assert_eq!((c.budget("task-context", 6_000), c.budget("review", 16_000)), (2_000, 16_000));
        assert!(!c.just_in_time.enabled);
    }

    #[test]
    fn an_unknown_brief_or_a_tiny_budget_is_an_error_naming_it() {
        let e = ContextConfig::parse(r#"{"budgets": {"task-contxt": 2000}}"#).unwrap_err().to_string();
        assert!(e.contains("task-contxt"), "{e}");
        let e = ContextConfig::parse(r#"{"budgets": {"review": 3}}"#).unwrap_err().to_string();
        assert!(e.contains("review") || e.contains("500"), "{e}");
        let e = ContextConfig::parse(r#"{"justInTime": {"maxBytes": 10}}"#).unwrap_err().to_string();
        assert!(e.contains("maxBytes") || e.contains("100"), "{e}");
    }
}
