//! `.phasegate/verify.config.json`: how `verify run` runs a feature's checks.

use serde::Deserialize;
use serde_json::Value;

use super::ledger::Ledger;
use crate::schema::{ConfigError, Schema};

/// Where the settings live, from the repository's root.
pub const VERIFY_CONFIG_PATH: &str = ".phasegate/verify.config.json";
/// How long one check may run by default: ten minutes.
pub const DEFAULT_TIMEOUT_SECONDS: u64 = 600;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VerifyConfig {
    #[serde(default = "default_timeout")]
    pub timeout_seconds: u64,
}

fn default_timeout() -> u64 {
    DEFAULT_TIMEOUT_SECONDS
}

impl Default for VerifyConfig {
    fn default() -> Self {
        VerifyConfig { timeout_seconds: DEFAULT_TIMEOUT_SECONDS }
    }
}

/// Reads `text` as a `T` that `schema` describes; a file that is not,
/// explained field by field.
fn parse<T: serde::de::DeserializeOwned>(schema: Schema, text: &str) -> Result<T, ConfigError> {
    let value: Value = serde_json::from_str(text).map_err(|e| ConfigError::Syntax(e.into()))?;
    schema.check(&value).map_err(ConfigError::Schema)?;
    serde_json::from_value(value).map_err(|e| ConfigError::Rule(e.to_string()))
}

impl VerifyConfig {
    pub fn parse(text: &str) -> Result<VerifyConfig, ConfigError> {
        parse(Schema::VerifyConfig, text)
    }
}

impl Ledger {
    /// Reads a ledger: typed first (its readers include the pipeline's Stop
    /// hook), the schema only to explain one that is not what it must be.
    pub fn parse(text: &str) -> Result<Ledger, ConfigError> {
        match serde_json::from_str::<Ledger>(text) {
            Ok(l) if l.version == super::LEDGER_VERSION => Ok(l),
            Ok(_) => parse(Schema::Evidence, text),
            Err(e) => {
                parse::<Ledger>(Schema::Evidence, text)?;
                Err(ConfigError::Rule(e.to_string()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_have_defaults_and_refuse_what_they_do_not_know() {
        assert_eq!(VerifyConfig::parse("{}").unwrap().timeout_seconds, 600);
        assert_eq!(VerifyConfig::parse(r#"{"timeoutSeconds": 30}"#).unwrap().timeout_seconds, 30);
        assert!(VerifyConfig::parse(r#"{"timeout": 30}"#).unwrap_err().to_string().contains("timeout"));
        assert!(VerifyConfig::parse(r#"{"timeoutSeconds": 0}"#).is_err());
        assert!(Ledger::parse("{").unwrap_err().to_string().starts_with("is not valid JSON"));
    }
}
