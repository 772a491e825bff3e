//! The retrospective's two files: the agent's reply (what it proposes) and
//! the feature's record (what was decided), each checked against its
//! published schema before it is read.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::retro::{DivergenceClass, Metrics};
use crate::schema::Schema;

/// The record's file name in the feature folder.
pub const RETRO_FILE: &str = "retro.json";

/// The project's part of a phase's guide, which the phase brief carries and
/// the retrospective proposes changes to.
pub fn template_path(phase: &str) -> String {
    format!(".phasegate/templates/{phase}.md")
}

/// What the retrospective agent proposes (`schemas/retro-reply.schema.json`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RetroReply {
    #[serde(default)]
    pub summary: Option<String>,
    #[serde(default)]
    pub divergences: Vec<ProposedDivergence>,
    #[serde(default)]
    pub gotchas: Vec<ProposedGotcha>,
    #[serde(default)]
    pub patterns: Vec<ProposedPattern>,
    #[serde(default)]
    pub templates: Vec<TemplateChange>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ProposedDivergence {
    pub kind: String,
    pub what: String,
    #[serde(default)]
    pub file: Option<String>,
    #[serde(default)]
    pub beneficial: bool,
    #[serde(default)]
    pub intentional: bool,
    #[serde(default)]
    pub improvement: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ProposedGotcha {
    #[serde(default)]
    pub task: Option<String>,
    pub content: String,
    #[serde(default)]
    pub file: Option<String>,
    #[serde(default)]
    pub action: Option<String>,
    pub evidence: String,
    #[serde(default)]
    pub error_type: Option<String>,
    #[serde(default)]
    pub reproducible: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ProposedPattern {
    #[serde(default, rename = "type")]
    pub item_type: Option<String>,
    pub content: String,
    pub topic: String,
    pub evidence: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TemplateChange {
    pub phase: String,
    pub gap: String,
    pub change: String,
    /// The question that asks the user (in the record).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
}

impl RetroReply {
    /// The reply as the agent wrote it: the JSON object in it (a fenced
    /// block or bare), checked against its schema.
    pub fn parse(text: &str) -> Result<RetroReply, String> {
        let json = json_object(text).ok_or("the reply holds no JSON object")?;
        let value: serde_json::Value = serde_json::from_str(json).map_err(|e| format!("the reply is not JSON: {e}"))?;
        Schema::RetroReply.check(&value).map_err(|e| e.to_string())?;
        serde_json::from_value(value).map_err(|e| e.to_string())
    }
}

/// The outermost `{…}` of a text (a reply may wrap it in a fence or words).
fn json_object(text: &str) -> Option<&str> {
    let start = text.find('{')?;
    let end = text.rfind('}')?;
    (end > start).then(|| &text[start..=end])
}

/// One divergence as classified.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ClassifiedDivergence {
    pub kind: String,
    pub what: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    pub class: DivergenceClass,
}

/// One proposed lesson and what became of it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LessonOutcome {
    #[serde(rename = "type")]
    pub item_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    pub content: String,
    /// created, reinforced, superseded, known, not-recorded, not-admitted.
    pub decision: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

/// An injected gotcha judged by its task's outcome.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Judged {
    pub task: String,
    pub id: String,
    /// prevented or not_helped.
    pub outcome: String,
}

/// The feature's record (`schemas/retro.schema.json`).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RetroRecord {
    pub feature: String,
    pub recorded_at: DateTime<Utc>,
    pub metrics: Metrics,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    #[serde(default)]
    pub divergences: Vec<ClassifiedDivergence>,
    #[serde(default)]
    pub lessons: Vec<LessonOutcome>,
    #[serde(default)]
    pub judged: Vec<Judged>,
    #[serde(default)]
    pub templates: Vec<TemplateChange>,
    /// What the feature cost, phase by phase, when the retrospective ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<RetroCost>,
}

/// A feature's cost as its retrospective keeps it.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RetroCost {
    pub usd: f64,
    pub tokens: u64,
    /// USD by phase (a pipeline's: by state), and outside every phase.
    pub phases: std::collections::BTreeMap<String, f64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unpriced: Vec<String>,
}

impl RetroRecord {
    pub fn parse(text: &str) -> Result<RetroRecord, String> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        Schema::Retro.check(&value).map_err(|e| e.to_string())?;
        serde_json::from_value(value).map_err(|e| e.to_string())
    }

    pub fn render(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("serialises");
        text.push('\n');
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_is_read_from_a_fence_and_checked_against_its_schema() {
        let r = RetroReply::parse(
            "Here:\n```json\n{\"gotchas\": [{\"content\": \"x\", \"evidence\": \"y\", \"reproducible\": true}]}\n```",
        )
        .unwrap();
        assert_eq!(r.gotchas.len(), 1);
        assert!(r.gotchas[0].reproducible);
        let e = RetroReply::parse(r#"{"gotchas": [{"content": "x"}]}"#).unwrap_err();
        assert!(e.contains("evidence"), "{e}");
        assert!(RetroReply::parse("no json").unwrap_err().contains("no JSON"));
        let e = RetroReply::parse(r#"{"templates": [{"phase": "finish", "gap": "g", "change": "c"}]}"#).unwrap_err();
        assert!(e.contains("finish") || e.contains("phase"), "{e}");
    }

    #[test]
    fn a_record_round_trips() {
        let r = RetroRecord {
            feature: "001-a".into(),
            recorded_at: crate::time::now(),
            metrics: Metrics {
                first_pass_success: 0.5,
                gotcha_effectiveness: 1.0,
                build_duration_minutes: 12.0,
                cost_usd: None,
            },
            summary: None,
            divergences: vec![ClassifiedDivergence {
                kind: "addition".into(),
                what: "a cache".into(),
                file: None,
                class: DivergenceClass::GoodEnhancement,
            }],
            lessons: Vec::new(),
            judged: Vec::new(),
            templates: Vec::new(),
            cost: None,
        };
        assert_eq!(RetroRecord::parse(&r.render()).unwrap(), r);
    }
}
