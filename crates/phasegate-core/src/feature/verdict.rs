//! The reviewer verdict (seed 002, Interface 2): parsing, validation and the
//! counts kept in `.meta.json`.
//!
//! Reviewers are models; their reply may wrap the JSON in prose or a fenced
//! block. The parser takes the JSON object out, checks it against
//! `schemas/verdict.schema.json` and explains every problem so the model can
//! fix its output.

use crate::words::Command;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::schema::{JsonSyntax, Schema, SchemaErrors};

/// Where the phase loop saves the reviewer's reply before recording it. It
/// is scratch: kept out of git (`.git/info/exclude`), replaced by each
/// iteration, and removed by `workflow-state finish`.
pub const VERDICT_FILE: &str = ".verdict.json";

/// The verdict's shape as briefs show it; a test holds it to the schema
/// (`workflow-state schema verdict`).
pub const VERDICT_EXAMPLE: &str = r#"{"approved": false, "issues": [{"severity": "blocker", "description": "what is wrong and why", "location": "file or section"}], "summary": "one paragraph"}"#;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Severity {
    Blocker,
    Warning,
    Note,
}

crate::named!(Severity, "severity");

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Issue {
    pub severity: Severity,
    pub description: String,
    #[serde(default)]
    pub location: Option<String>,
}

impl Issue {
    /// `[blocker] description (location)`.
    pub fn line(&self) -> String {
        match &self.location {
            Some(loc) if !loc.trim().is_empty() => {
                format!("[{}] {} ({})", self.severity.name(), self.description, loc)
            }
            _ => format!("[{}] {}", self.severity.name(), self.description),
        }
    }
}

/// A reviewer's answer for one iteration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewVerdict {
    pub approved: bool,
    pub issues: Vec<Issue>,
    pub summary: String,
}

/// Issues by severity.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IssueCounts {
    #[serde(default)]
    pub blocker: u32,
    #[serde(default)]
    pub warning: u32,
    #[serde(default)]
    pub note: u32,
}

impl ReviewVerdict {
    pub fn counts(&self) -> IssueCounts {
        let mut c = IssueCounts::default();
        for i in &self.issues {
            match i.severity {
                Severity::Blocker => c.blocker += 1,
                Severity::Warning => c.warning += 1,
                Severity::Note => c.note += 1,
            }
        }
        c
    }

    /// Blocker and warning issues, one line each: what stays open when the
    /// loop ends without approval.
    pub fn open_concerns(&self) -> Vec<String> {
        self.issues
            .iter()
            .filter(|i| match i.severity {
                Severity::Blocker | Severity::Warning => true,
                Severity::Note => false,
            })
            .map(Issue::line)
            .collect()
    }
}

/// Why a reviewer reply is not a usable verdict.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerdictError {
    #[error(
        "no JSON object found; the reviewer must reply with the verdict JSON (`{schema_verdict}`), such as {VERDICT_EXAMPLE}", schema_verdict = Command::new("schema verdict"))]
    NotFound,
    #[error("the verdict is not valid JSON: {0}")]
    Syntax(#[source] JsonSyntax),
    #[error("the verdict {0}")]
    Schema(SchemaErrors),
    #[error(
        "the verdict sets approved to true but lists {0} blocker issue(s); a verdict with blockers must set approved to false"
    )]
    ApprovedWithBlockers(usize),
}

/// Takes the verdict out of a reviewer's reply: the whole text when it is a
/// JSON object, else the last fenced block holding one, else the span from
/// the first `{` to the last `}`.
pub fn extract_json(text: &str) -> Option<&str> {
    let trimmed = text.trim();
    if trimmed.starts_with('{') {
        return Some(trimmed);
    }
    let mut last_block = None;
    let mut rest = text;
    while let Some(open) = rest.find("```") {
        let after = &rest[open + 3..];
        let body_start = after.find('\n').map_or(after.len(), |n| n + 1);
        let body = &after[body_start..];
        let Some(close) = body.find("```") else { break };
        let candidate = body[..close].trim();
        if candidate.starts_with('{') {
            last_block = Some(candidate);
        }
        rest = &body[close + 3..];
    }
    if last_block.is_some() {
        return last_block;
    }
    let start = text.find('{')?;
    let end = text.rfind('}')?;
    (end > start).then(|| &text[start..=end])
}

/// Parses and validates a reviewer reply.
pub fn parse_verdict(text: &str) -> Result<ReviewVerdict, VerdictError> {
    let json = extract_json(text).ok_or(VerdictError::NotFound)?;
    let value: Value = serde_json::from_str(json).map_err(|e| VerdictError::Syntax(e.into()))?;
    Schema::Verdict.check(&value).map_err(VerdictError::Schema)?;
    let verdict: ReviewVerdict = serde_json::from_value(value).map_err(|e| VerdictError::Syntax(e.into()))?;
    let blockers = verdict.counts().blocker as usize;
    if verdict.approved && blockers > 0 {
        return Err(VerdictError::ApprovedWithBlockers(blockers));
    }
    Ok(verdict)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_briefs_show_is_a_valid_verdict() {
        let v = parse_verdict(VERDICT_EXAMPLE).unwrap();
        assert!(!v.approved && v.issues.len() == 1);
    }

    #[test]
    fn plain_json() {
        let v = parse_verdict(r#" {"approved": true, "issues": [], "summary": "ok"} "#).unwrap();
        assert!(v.approved && v.issues.is_empty());
    }

    #[test]
    fn json_in_a_fenced_block_after_prose() {
        let reply = "Here is my review.\n\n```json\n{\"approved\": false, \"issues\": [{\"severity\": \"blocker\", \"description\": \"no tests\", \"location\": null}], \"summary\": \"s\"}\n```\nThanks.";
        let v = parse_verdict(reply).unwrap();
        assert_eq!(v.open_concerns(), ["[blocker] no tests"]);
    }

    #[test]
    fn the_last_fenced_block_wins() {
        let reply = "Example:\n```json\n{\"approved\": \"x\"}\n```\nFinal:\n```\n{\"approved\": true, \"issues\": [], \"summary\": \"fine\"}\n```";
        assert_eq!(parse_verdict(reply).unwrap().summary, "fine");
    }

    #[test]
    fn json_inside_prose() {
        let reply = "Verdict: {\"approved\": true, \"issues\": [], \"summary\": \"a {nested} word\"} done";
        assert_eq!(parse_verdict(reply).unwrap().summary, "a {nested} word");
    }

    #[test]
    fn errors_explain_what_to_fix() {
        assert_eq!(parse_verdict("looks good to me").unwrap_err(), VerdictError::NotFound);
        let e = parse_verdict("{\"approved\": true,").unwrap_err().to_string();
        assert!(e.starts_with("the verdict is not valid JSON"), "{e}");
        let e = parse_verdict(r#"{"approved": true, "issues": [{"severity": "critical", "description": "x"}]}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("/issues/0/severity") && e.contains("\"summary\" is a required property"), "{e}");
        let e = parse_verdict(
            r#"{"approved": true, "issues": [{"severity": "blocker", "description": "x"}], "summary": ""}"#,
        )
        .unwrap_err();
        assert_eq!(e, VerdictError::ApprovedWithBlockers(1));
    }

    #[test]
    fn counts_by_severity() {
        let v = parse_verdict(
            r#"{"approved": false, "summary": "", "issues": [
            {"severity": "blocker", "description": "a"}, {"severity": "note", "description": "b"},
            {"severity": "warning", "description": "c", "location": "L3"}]}"#,
        )
        .unwrap();
        assert_eq!(v.counts(), IssueCounts { blocker: 1, warning: 1, note: 1 });
        assert_eq!(v.open_concerns(), ["[blocker] a", "[warning] c (L3)"]);
    }
}
