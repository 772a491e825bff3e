//! The PM's decision log's record (`monitor/decisions.jsonl`): a decision
//! of the core's and what it was about and did. Written by the PM
//! (`oversight::pm`) and by a lease conflict (`leases`), read by the views.

use chrono::{DateTime, Utc};
use phasegate_core::coordination::{EscalationOption, PmAction, PmDecision};
use serde::{Deserialize, Serialize};

/// A decision as the log keeps it: the core's decision and what it was
/// about and did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Logged {
    pub decision: PmDecision,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feature: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    /// The start of the task run the decision judged (a retried task is
    /// judged afresh).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_started_at: Option<DateTime<Utc>>,
    /// ESCALATE: the question asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// The person's answer this decision carries out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chose: Option<EscalationOption>,
    /// What was done.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub done: Vec<String>,
}

impl Logged {
    pub fn of(decision: PmDecision) -> Logged {
        Logged {
            decision,
            feature: None,
            task: None,
            task_started_at: None,
            question: None,
            chose: None,
            done: Vec::new(),
        }
    }

    /// One line for people: `ESCALATE 001-login/T3: …`.
    pub fn line(&self) -> String {
        let d = &self.decision;
        let mut line = format!("{} {}: {}", d.action, d.subject, d.reason);
        if let Some(m) = &d.message {
            line.push_str(&format!(" — {m}"));
        }
        // The choices only while the person has not chosen: an answered
        // escalation's later decisions say what was chosen instead.
        match (&self.question, &self.chose, d.action) {
            (Some(_), Some(chose), _) => line.push_str(&format!(" (the user chose {chose})")),
            (Some(q), None, PmAction::Escalate) => {
                line.push_str(&format!(" (the user answers: `/phasegate:answer {q} wait|skip|retry`)"))
            }
            (Some(_), None, _) | (None, _, _) => {}
        }
        for done in &self.done {
            line.push_str(&format!("; {done}"));
        }
        line
    }
}
