//! `pipeline.config.json`: limits, the loop's defaults, the final gate and
//! the Stop hook's bounds. Every field has a default (seed 001, Configuration).

use serde::{Deserialize, Serialize};

/// Where the file lives, relative to the project root.
pub const CONFIG_PATH: &str = ".phasegate/pipeline.config.json";

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Config {
    pub autonomy: Autonomy,
    pub ralph_loop: RalphLoop,
    pub final_gate: FinalGate,
    pub stop_hook: StopHook,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Autonomy {
    pub mode: String,
    pub plan_review_loop_limit: u32,
    pub code_review_loop_limit: u32,
}

impl Default for Autonomy {
    fn default() -> Self {
        Autonomy { mode: "ralph-loop".into(), plan_review_loop_limit: 10, code_review_loop_limit: 15 }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RalphLoop {
    pub default_mode: String,
    pub default_max_iterations: u32,
    pub completion_promise: String,
}

/// The seed's completion promise.
pub(crate) const DEFAULT_PROMISE: &str = "<promise>IMPLEMENTATION_COMPLETE</promise>";

impl Default for RalphLoop {
    fn default() -> Self {
        RalphLoop {
            default_mode: "ralph-loop".into(),
            default_max_iterations: 10,
            completion_promise: DEFAULT_PROMISE.into(),
        }
    }
}

/// What the final gate does when its reviewer command is not installed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WhenUnavailable {
    /// Record the gate as skipped, with the reason, and go on.
    Skip,
    /// Pause the pipeline for the user.
    Block,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct FinalGate {
    /// The external reviewer; the prompt goes to its stdin, the review comes on stdout.
    pub command: Vec<String>,
    /// Used instead of `command` once a session with the reviewer exists
    /// (seed 001, "Codex Session Resume"); null to always start fresh.
    pub resume_command: Option<Vec<String>>,
    pub timeout_seconds: u64,
    pub when_unavailable: WhenUnavailable,
}

impl Default for FinalGate {
    fn default() -> Self {
        FinalGate {
            command: ["codex", "exec", "--sandbox", "read-only", "-"].map(String::from).to_vec(),
            resume_command: Some(["codex", "exec", "resume", "--last", "-"].map(String::from).to_vec()),
            timeout_seconds: 600,
            when_unavailable: WhenUnavailable::Skip,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StopHook {
    pub test_timeout_seconds: u64,
    /// A loop with no activity for this long no longer holds a session.
    pub stale_after_minutes: u64,
    /// Claude Code ends a turn after 8 consecutive Stop blocks; phasegate
    /// stops blocking before that, with a message, so the end is its own.
    pub max_consecutive_blocks: u32,
}

impl Default for StopHook {
    fn default() -> Self {
        StopHook { test_timeout_seconds: 300, stale_after_minutes: 240, max_consecutive_blocks: 7 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_the_seed_and_the_schema() {
        let c: Config = serde_json::from_str("{}").unwrap();
        assert_eq!(c.autonomy.plan_review_loop_limit, 10);
        assert_eq!(c.autonomy.code_review_loop_limit, 15);
        assert_eq!(c.ralph_loop.default_max_iterations, 10);
        assert_eq!(c.ralph_loop.completion_promise, DEFAULT_PROMISE);
        let partial: Config = serde_json::from_str(r#"{"autonomy": {"planReviewLoopLimit": 3}}"#).unwrap();
        assert_eq!(partial.autonomy.plan_review_loop_limit, 3);
        assert_eq!(partial.autonomy.code_review_loop_limit, 15);
        // The schema's defaults are these defaults.
        let schema: serde_json::Value = serde_json::from_str(crate::schema::Schema::PipelineConfig.text()).unwrap();
        let p = &schema["properties"];
        assert_eq!(p["autonomy"]["properties"]["planReviewLoopLimit"]["default"], 10);
        assert_eq!(p["autonomy"]["properties"]["codeReviewLoopLimit"]["default"], 15);
        assert_eq!(p["ralphLoop"]["properties"]["completionPromise"]["default"], DEFAULT_PROMISE);
        assert_eq!(p["finalGate"]["properties"]["command"]["default"], serde_json::json!(c.final_gate.command));
        assert_eq!(p["stopHook"]["properties"]["maxConsecutiveBlocks"]["default"], 7);
    }

    /// Regression: values that `pipeline check config` accepted (integers
    /// beyond u32) were rejected by every loader, and huge ones broke the Stop
    /// hook. Every value the schema accepts, the loader accepts.
    #[test]
    fn the_schema_and_the_loader_agree_at_the_bounds() {
        use crate::pipeline::files::{FileKind, parse};
        use crate::pipeline::validate;
        let schema: serde_json::Value = serde_json::from_str(crate::schema::Schema::PipelineConfig.text()).unwrap();
        let mut at_max = serde_json::Map::new();
        for (section, body) in schema["properties"].as_object().unwrap() {
            let Some(props) = body.get("properties").and_then(|p| p.as_object()) else { continue };
            let mut obj = serde_json::Map::new();
            for (key, spec) in props {
                if spec["type"] == "integer" {
                    let max = spec["maximum"].as_u64().unwrap_or_else(|| panic!("{section}.{key} has no maximum"));
                    obj.insert(key.clone(), serde_json::json!(max));
                }
            }
            at_max.insert(section.clone(), serde_json::Value::Object(obj));
        }
        let text = serde_json::Value::Object(at_max).to_string();
        validate(FileKind::Config, &text).unwrap();
        let c: Config = parse(FileKind::Config, &text).unwrap();
        assert_eq!(c.stop_hook.stale_after_minutes, 525_600);
        let over = r#"{"stopHook": {"staleAfterMinutes": 18446744073709551615}}"#;
        let err = validate(FileKind::Config, over).unwrap_err().to_string();
        assert!(err.contains("/stopHook/staleAfterMinutes"), "{err}");
    }
}
