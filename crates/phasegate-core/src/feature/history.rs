//! `.review-history.md`: one entry per reviewer iteration, in the format of
//! seed 002, Interface 4.

use chrono::{DateTime, SecondsFormat, Utc};

use super::phase::Phase;
use super::verdict::ReviewVerdict;

/// The file name inside the feature folder. Deleted by `workflow-state finish`.
pub const HISTORY_FILE: &str = ".review-history.md";

/// One iteration, as it is appended.
#[derive(Debug, Clone)]
pub struct HistoryEntry<'a> {
    pub phase: Phase,
    pub iteration: u32,
    pub at: DateTime<Utc>,
    pub verdict: &'a ReviewVerdict,
    /// What the executor changed for this iteration.
    pub changes: &'a str,
}

/// Returns `existing` with `entry` appended. A `## Phase:` heading opens the
/// entry unless the last heading already names this phase.
pub fn append_history(existing: &str, entry: &HistoryEntry<'_>) -> String {
    let mut out = String::with_capacity(existing.len() + 512);
    out.push_str(existing);
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    if last_phase_heading(existing) != Some(entry.phase.name()) {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&format!("## Phase: {}\n\n", entry.phase));
    } else {
        out.push('\n');
    }
    let summary = entry.verdict.summary.trim();
    let issues = if entry.verdict.issues.is_empty() {
        "- none\n".to_owned()
    } else {
        entry.verdict.issues.iter().map(|i| format!("- {}\n", i.line())).collect()
    };
    let changes = entry.changes.trim();
    out.push_str(&format!(
        "### Iteration {n} - {at}\n\n**Reviewer Feedback:**\n{summary}\n\n**Issues:**\n{issues}\n**Changes Made:**\n{changes}\n\n---\n",
        n = entry.iteration,
        at = entry.at.to_rfc3339_opts(SecondsFormat::Secs, true),
        summary = if summary.is_empty() { "(no summary)" } else { summary },
        changes = if changes.is_empty() { "(not stated)" } else { changes },
    ));
    out
}

fn last_phase_heading(text: &str) -> Option<&str> {
    text.lines().rev().find_map(|l| l.strip_prefix("## Phase: ")).map(str::trim)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::feature::parse_verdict;
    use chrono::TimeZone;

    #[test]
    fn entries_follow_the_seed_format() {
        let v = parse_verdict(
            r#"{"approved": false, "summary": "Missing criteria.",
            "issues": [{"severity": "blocker", "description": "no acceptance criteria", "location": "Requirements"}]}"#,
        )
        .unwrap();
        let at = Utc.with_ymd_and_hms(2026, 11, 22, 10, 0, 0).unwrap();
        let first = append_history(
            "",
            &HistoryEntry { phase: Phase::Specify, iteration: 1, at, verdict: &v, changes: "Initial draft." },
        );
        assert_eq!(
            first,
            "## Phase: specify\n\n### Iteration 1 - 2026-11-22T10:00:00Z\n\n**Reviewer Feedback:**\nMissing criteria.\n\n\
             **Issues:**\n- [blocker] no acceptance criteria (Requirements)\n\n**Changes Made:**\nInitial draft.\n\n---\n"
        );
        let ok = parse_verdict(r#"{"approved": true, "summary": "Good.", "issues": []}"#).unwrap();
        let second = append_history(
            &first,
            &HistoryEntry { phase: Phase::Specify, iteration: 2, at, verdict: &ok, changes: "" },
        );
        assert_eq!(second.matches("## Phase: specify").count(), 1);
        assert!(second.ends_with("### Iteration 2 - 2026-11-22T10:00:00Z\n\n**Reviewer Feedback:**\nGood.\n\n**Issues:**\n- none\n\n**Changes Made:**\n(not stated)\n\n---\n"), "{second}");
        let third = append_history(
            &second,
            &HistoryEntry { phase: Phase::Design, iteration: 1, at, verdict: &ok, changes: "x" },
        );
        assert!(third.contains("---\n\n## Phase: design\n\n### Iteration 1"), "{third}");
    }
}
