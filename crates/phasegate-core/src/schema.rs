//! The JSON Schemas phasegate publishes under `schemas/`, embedded so the
//! binary validates against exactly the files users read.

use std::fmt;
use std::sync::OnceLock;

use serde_json::Value;

/// Every file format phasegate owns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Schema {
    Meta,
    Verdict,
}

impl Schema {
    pub const ALL: [Schema; 2] = [Schema::Meta, Schema::Verdict];

    /// File name under `schemas/`.
    pub fn file_name(self) -> &'static str {
        match self {
            Schema::Meta => "meta.schema.json",
            Schema::Verdict => "verdict.schema.json",
        }
    }

    /// The schema document as published.
    pub fn text(self) -> &'static str {
        match self {
            Schema::Meta => include_str!("../../../schemas/meta.schema.json"),
            Schema::Verdict => include_str!("../../../schemas/verdict.schema.json"),
        }
    }

    fn slot(self) -> &'static OnceLock<jsonschema::Validator> {
        static META: OnceLock<jsonschema::Validator> = OnceLock::new();
        static VERDICT: OnceLock<jsonschema::Validator> = OnceLock::new();
        match self {
            Schema::Meta => &META,
            Schema::Verdict => &VERDICT,
        }
    }

    fn validator(self) -> &'static jsonschema::Validator {
        self.slot().get_or_init(|| {
            let doc: Value = serde_json::from_str(self.text())
                .unwrap_or_else(|e| panic!("embedded schema {} is not JSON: {e}", self.file_name()));
            jsonschema::options()
                .should_validate_formats(true)
                .build(&doc)
                .unwrap_or_else(|e| panic!("embedded schema {} does not compile: {e}", self.file_name()))
        })
    }

    /// Every violation of this schema in `value`, each with the JSON pointer
    /// of the offending field.
    pub fn check(self, value: &Value) -> Result<(), SchemaErrors> {
        let errors: Vec<FieldError> = self
            .validator()
            .iter_errors(value)
            .map(|e| {
                let full = e.to_string();
                let message = if full.len() > 240 { e.masked().to_string() } else { full };
                FieldError { path: e.instance_path().to_string(), message }
            })
            .collect();
        if errors.is_empty() { Ok(()) } else { Err(SchemaErrors { schema: self, errors }) }
    }
}

/// One violation: where and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// JSON pointer such as `/issues/0/severity`; empty for the top level.
    pub path: String,
    pub message: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() { "(top level)" } else { &self.path };
        write!(f, "at {path}: {}", self.message)
    }
}

/// All violations of one document, for one schema.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct SchemaErrors {
    pub schema: Schema,
    pub errors: Vec<FieldError>,
}

impl fmt::Display for SchemaErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "does not match schemas/{}:", self.schema.file_name())?;
        for e in &self.errors {
            write!(f, "\n  - {e}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_embedded_schema_compiles() {
        for s in Schema::ALL {
            let _ = s.validator();
        }
    }

    #[test]
    fn errors_name_the_field_and_the_allowed_values() {
        let bad = json!({"approved": "yes", "issues": [{"severity": "major", "description": "x"}]});
        let err = Schema::Verdict.check(&bad).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("at /approved:"), "{text}");
        assert!(text.contains("at /issues/0/severity:") && text.contains("\"blocker\""), "{text}");
        assert!(text.contains("\"summary\" is a required property"), "{text}");
    }
}
