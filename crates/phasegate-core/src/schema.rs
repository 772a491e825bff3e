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
    WorkerSignal,
    UserStory,
    PlanRefined,
    Review,
    ImplResult,
    LoopState,
    PipelineConfig,
    PipelineState,
    Question,
    QuestionsConfig,
    ReviewCycles,
    ImplementConfig,
    RoutingConfig,
    Ideation,
    KnowledgeItem,
    ContextConfig,
    RetroReply,
    Retro,
    Evidence,
    VerifyConfig,
    CostConfig,
}

/// Where the published schemas claim to live; cross-file `$ref`s resolve
/// against the embedded copies, never over the network.
const BASE: &str = "https://phasegate.dev/schemas/";

impl Schema {
    pub const ALL: [Schema; 23] = [
        Schema::Meta,
        Schema::Verdict,
        Schema::WorkerSignal,
        Schema::UserStory,
        Schema::PlanRefined,
        Schema::Review,
        Schema::ImplResult,
        Schema::LoopState,
        Schema::PipelineConfig,
        Schema::PipelineState,
        Schema::Question,
        Schema::QuestionsConfig,
        Schema::ReviewCycles,
        Schema::ImplementConfig,
        Schema::RoutingConfig,
        Schema::Ideation,
        Schema::KnowledgeItem,
        Schema::ContextConfig,
        Schema::RetroReply,
        Schema::Retro,
        Schema::Evidence,
        Schema::VerifyConfig,
        Schema::CostConfig,
    ];

    /// Its name for `workflow-state schema <name>`: the file name without
    /// `.schema.json`, and the pipeline's own kinds as `pipeline check` names
    /// them (`config`, `state`).
    pub fn name(self) -> &'static str {
        match self {
            Schema::PipelineConfig => "config",
            Schema::PipelineState => "state",
            other => other.file_name().trim_end_matches(".schema.json"),
        }
    }

    /// The schema named `name`.
    pub fn named(name: &str) -> Option<Schema> {
        Schema::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Every name, comma-separated.
    pub fn names() -> String {
        Schema::ALL.iter().map(|s| s.name()).collect::<Vec<_>>().join(", ")
    }

    /// File name under `schemas/`.
    pub fn file_name(self) -> &'static str {
        match self {
            Schema::Meta => "meta.schema.json",
            Schema::Verdict => "verdict.schema.json",
            Schema::WorkerSignal => "worker-signal.schema.json",
            Schema::UserStory => "user-story.schema.json",
            Schema::PlanRefined => "plan-refined.schema.json",
            Schema::Review => "review.schema.json",
            Schema::ImplResult => "impl-result.schema.json",
            Schema::LoopState => "loop-state.schema.json",
            Schema::PipelineConfig => "pipeline-config.schema.json",
            Schema::PipelineState => "pipeline-state.schema.json",
            Schema::Question => "question.schema.json",
            Schema::QuestionsConfig => "questions-config.schema.json",
            Schema::ReviewCycles => "review-cycles.schema.json",
            Schema::ImplementConfig => "implement-config.schema.json",
            Schema::RoutingConfig => "routing-config.schema.json",
            Schema::Ideation => "ideation.schema.json",
            Schema::KnowledgeItem => "knowledge-item.schema.json",
            Schema::ContextConfig => "context-config.schema.json",
            Schema::RetroReply => "retro-reply.schema.json",
            Schema::Retro => "retro.schema.json",
            Schema::Evidence => "evidence.schema.json",
            Schema::VerifyConfig => "verify-config.schema.json",
            Schema::CostConfig => "cost-config.schema.json",
        }
    }

    /// The schema document as published.
    pub fn text(self) -> &'static str {
        match self {
            Schema::Meta => include_str!("../../../schemas/meta.schema.json"),
            Schema::Verdict => include_str!("../../../schemas/verdict.schema.json"),
            Schema::WorkerSignal => include_str!("../../../schemas/worker-signal.schema.json"),
            Schema::UserStory => include_str!("../../../schemas/user-story.schema.json"),
            Schema::PlanRefined => include_str!("../../../schemas/plan-refined.schema.json"),
            Schema::Review => include_str!("../../../schemas/review.schema.json"),
            Schema::ImplResult => include_str!("../../../schemas/impl-result.schema.json"),
            Schema::LoopState => include_str!("../../../schemas/loop-state.schema.json"),
            Schema::PipelineConfig => include_str!("../../../schemas/pipeline-config.schema.json"),
            Schema::PipelineState => include_str!("../../../schemas/pipeline-state.schema.json"),
            Schema::Question => include_str!("../../../schemas/question.schema.json"),
            Schema::QuestionsConfig => include_str!("../../../schemas/questions-config.schema.json"),
            Schema::ReviewCycles => include_str!("../../../schemas/review-cycles.schema.json"),
            Schema::ImplementConfig => include_str!("../../../schemas/implement-config.schema.json"),
            Schema::RoutingConfig => include_str!("../../../schemas/routing-config.schema.json"),
            Schema::Ideation => include_str!("../../../schemas/ideation.schema.json"),
            Schema::KnowledgeItem => include_str!("../../../schemas/knowledge-item.schema.json"),
            Schema::ContextConfig => include_str!("../../../schemas/context-config.schema.json"),
            Schema::RetroReply => include_str!("../../../schemas/retro-reply.schema.json"),
            Schema::Retro => include_str!("../../../schemas/retro.schema.json"),
            Schema::Evidence => include_str!("../../../schemas/evidence.schema.json"),
            Schema::VerifyConfig => include_str!("../../../schemas/verify-config.schema.json"),
            Schema::CostConfig => include_str!("../../../schemas/cost-config.schema.json"),
        }
    }

    fn document(self) -> Value {
        serde_json::from_str(self.text())
            .unwrap_or_else(|e| panic!("embedded schema {} is not JSON: {e}", self.file_name()))
    }

    fn validator(self) -> &'static jsonschema::Validator {
        static SLOTS: [OnceLock<jsonschema::Validator>; Schema::ALL.len()] =
            [const { OnceLock::new() }; Schema::ALL.len()];
        let index = Schema::ALL.iter().position(|s| *s == self).expect("every schema is in ALL");
        SLOTS[index].get_or_init(|| {
            jsonschema::options()
                .should_validate_formats(true)
                .with_retriever(Embedded)
                .build(&self.document())
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
                let message = match e.kind() {
                    // Name every allowed value: a model fixing its output needs them all.
                    jsonschema::error::ValidationErrorKind::Enum { options } => {
                        let allowed: Vec<String> = options
                            .as_array()
                            .map_or_else(|| vec![options.to_string()], |a| a.iter().map(Value::to_string).collect());
                        format!("{} is not one of {}", e.instance(), allowed.join(", "))
                    }
                    _ => {
                        let full = e.to_string();
                        if full.len() > 240 { e.masked().to_string() } else { full }
                    }
                };
                FieldError { path: e.instance_path().to_string(), message }
            })
            .collect();
        if errors.is_empty() { Ok(()) } else { Err(SchemaErrors { schema: self, errors }) }
    }
}

/// Why a text is not the JSON it should be, as serde_json said it: kept
/// typed (the category, the line and column) where the errors holding it
/// must stay `Clone` and `PartialEq`, which `serde_json::Error` is not. It
/// prints as serde_json's error does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonSyntax {
    pub category: serde_json::error::Category,
    /// 1-based; 0 when the error has no position (a value read from a value).
    pub line: usize,
    pub column: usize,
    /// What is wrong, without the position.
    pub message: String,
}

impl From<serde_json::Error> for JsonSyntax {
    fn from(e: serde_json::Error) -> JsonSyntax {
        let full = e.to_string();
        let at = format!(" at line {} column {}", e.line(), e.column());
        let message = match full.strip_suffix(&at) {
            Some(m) if e.line() != 0 => m.to_owned(),
            _ => full,
        };
        JsonSyntax { category: e.classify(), line: e.line(), column: e.column(), message }
    }
}

impl fmt::Display for JsonSyntax {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            0 => f.write_str(&self.message),
            line => write!(f, "{} at line {line} column {}", self.message, self.column),
        }
    }
}

impl std::error::Error for JsonSyntax {}

/// Why a JSON file of ours (a configuration, a pipeline file) is not
/// usable: not JSON, against its schema, or against a rule the schema
/// cannot say.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("is not valid JSON: {0}")]
    Syntax(#[source] JsonSyntax),
    #[error("{0}")]
    Schema(SchemaErrors),
    #[error("{0}")]
    Rule(String),
}

/// Resolves `$ref`s between our schemas from the embedded copies.
struct Embedded;

impl jsonschema::Retrieve for Embedded {
    fn retrieve(&self, uri: &jsonschema::Uri<String>) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let wanted = uri.as_str();
        Schema::ALL
            .into_iter()
            .find(|s| wanted == format!("{BASE}{}", s.file_name()))
            .map(Schema::document)
            .ok_or_else(|| format!("{wanted} is not one of phasegate's schemas").into())
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

    /// The typed copy of serde_json's error prints as the error did.
    #[test]
    fn a_json_syntax_error_prints_as_serde_json_says_it() {
        for text in ["{", "{\"a\": }", "[1, 2", "", "nul"] {
            let e = serde_json::from_str::<Value>(text).unwrap_err();
            let full = e.to_string();
            let typed = JsonSyntax::from(e);
            assert_eq!(typed.to_string(), full);
            assert!(typed.line > 0 && !typed.message.contains(" at line "), "{typed:?}");
        }
        let e = serde_json::from_value::<u8>(serde_json::json!("x")).unwrap_err();
        let full = e.to_string();
        assert_eq!(JsonSyntax::from(e).to_string(), full);
    }

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
