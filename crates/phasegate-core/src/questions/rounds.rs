//! The implementer round loop (seed 000 Part 1): an orchestrator writes a
//! brief, a stateless implementer answers `STATUS: COMPLETE` or
//! `STATUS: QUESTION`, the orchestrator (or a human) answers, and the whole
//! Q&A is re-injected into every next call, up to a cap of rounds.
//!
//! One [`RoundLoop`] per phase, kept in the feature's `.rounds.json`.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::reply::{REPLY_FORMAT, Reply};
use crate::feature::Phase;
use crate::words::Command;

/// The seed's `UX_DESIGN_MAX_ROUNDS`.
pub const DEFAULT_MAX_ROUNDS: u32 = 3;
/// The most rounds a configuration may allow.
pub(crate) const MAX_ROUNDS_LIMIT: u32 = 20;
/// The file, in the feature folder.
pub const ROUNDS_FILE: &str = ".rounds.json";

/// `.rounds.json`: the round loop of each phase that used one.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RoundsFile {
    pub phases: BTreeMap<Phase, RoundLoop>,
}

/// One phase's loop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RoundLoop {
    /// The orchestrator's brief, sent with every call.
    pub brief: String,
    pub max_rounds: u32,
    /// Implementer replies recorded so far.
    pub rounds: u32,
    /// One entry per `STATUS: QUESTION`, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub qa: Vec<Exchange>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<RoundOutcome>,
    pub started: DateTime<Utc>,
    pub updated: DateTime<Utc>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Exchange {
    pub question: String,
    pub context: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<RoundAnswer>,
    /// The human question this one became, while it waits for a person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RoundAnswer {
    pub text: String,
    pub by: AnsweredBy,
    pub at: DateTime<Utc>,
}

/// Who answered a question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum AnsweredBy {
    /// The orchestrating session.
    Orchestrator,
    /// A person (Slack, the CLI, or AskUserQuestion).
    Human,
    /// A stored preference answered it.
    Preference,
    /// Nobody answered a non-blocking question in time: its default applies.
    Default,
}

crate::named!(AnsweredBy, "answerer");

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum RoundOutcome {
    /// The implementer delivered the document.
    Complete,
    /// The last allowed round ended with a question: the orchestrator writes
    /// a best-effort result with an `Open Questions` section.
    CapReached,
}

crate::named!(RoundOutcome, "round outcome");

/// What the orchestrator does after a reply is recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RoundDecision {
    /// The implementer's document is the result.
    Complete { document: String },
    /// Answer question `n` (or hand it to a person), then call again.
    Answer { n: usize, question: String, context: String },
    /// No rounds left: write the best effort with these questions listed
    /// under `Open Questions`.
    CapReached { open: Vec<String> },
}

impl RoundDecision {
    pub fn name(&self) -> &'static str {
        match self {
            RoundDecision::Complete { .. } => "complete",
            RoundDecision::Answer { .. } => "answer",
            RoundDecision::CapReached { .. } => "cap-reached",
        }
    }
}

/// Why a round operation is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RoundsError {
    #[error("no round loop was started for {0}; run `{rounds_start}` first", rounds_start = Command::new("rounds start").arg(.0).word("--brief-file <FILE>"))]
    NotStarted(Phase),
    #[error("the {phase} round loop already ended ({outcome}); start it again with `rounds start {phase} --fresh`")]
    Ended { phase: Phase, outcome: RoundOutcome },
    #[error("question Q{n} is not answered yet; answer it (`rounds answer`) before calling the implementer again")]
    Unanswered { n: usize },
    #[error("there is no open question to answer in the {0} round loop")]
    NothingToAnswer(Phase),
    #[error("the answer is empty")]
    EmptyAnswer,
}

impl RoundsFile {
    /// Gives the answer of the human question `question_id` to the round
    /// loop whose pending question became it, as that loop's next `A_n`,
    /// marked with who answered. Returns the phase and the question's
    /// number, or None when no loop waits on that question.
    pub fn take_answer(
        &mut self,
        question_id: &str,
        text: &str,
        by: AnsweredBy,
        now: DateTime<Utc>,
    ) -> Option<(Phase, usize)> {
        let (phase, l) = self.phases.iter_mut().find(|(_, l)| {
            l.outcome.is_none() && l.pending().is_some_and(|(_, e)| e.question_id.as_deref() == Some(question_id))
        })?;
        l.answer(*phase, text, by, now).ok().map(|n| (*phase, n))
    }
}

impl RoundLoop {
    pub fn new(brief: String, max_rounds: u32, now: DateTime<Utc>) -> RoundLoop {
        RoundLoop { brief, max_rounds, rounds: 0, qa: Vec::new(), outcome: None, started: now, updated: now }
    }

    /// The question still waiting for an answer (1-based), if any.
    pub fn pending(&self) -> Option<(usize, &Exchange)> {
        self.qa.last().filter(|e| e.answer.is_none()).map(|e| (self.qa.len(), e))
    }

    fn check_open(&self, phase: Phase) -> Result<(), RoundsError> {
        match self.outcome {
            Some(outcome) => Err(RoundsError::Ended { phase, outcome }),
            None => Ok(()),
        }
    }

    /// Records the implementer's reply and decides.
    pub fn record(&mut self, phase: Phase, reply: Reply, now: DateTime<Utc>) -> Result<RoundDecision, RoundsError> {
        self.check_open(phase)?;
        if let Some((n, _)) = self.pending() {
            return Err(RoundsError::Unanswered { n });
        }
        self.rounds = self.rounds.saturating_add(1);
        self.updated = now;
        Ok(match reply {
            Reply::Complete { document } => {
                self.outcome = Some(RoundOutcome::Complete);
                RoundDecision::Complete { document }
            }
            Reply::Question { question, context } => {
                self.qa.push(Exchange {
                    question: question.clone(),
                    context: context.clone(),
                    answer: None,
                    question_id: None,
                });
                if self.rounds >= self.max_rounds {
                    self.outcome = Some(RoundOutcome::CapReached);
                    RoundDecision::CapReached { open: self.open_questions() }
                } else {
                    RoundDecision::Answer { n: self.qa.len(), question, context }
                }
            }
        })
    }

    /// Answers the pending question.
    pub fn answer(
        &mut self,
        phase: Phase,
        text: &str,
        by: AnsweredBy,
        now: DateTime<Utc>,
    ) -> Result<usize, RoundsError> {
        self.check_open(phase)?;
        let text = text.trim();
        if text.is_empty() {
            return Err(RoundsError::EmptyAnswer);
        }
        let n = self.qa.len();
        match self.qa.last_mut() {
            Some(e) if e.answer.is_none() => {
                e.answer = Some(RoundAnswer { text: text.to_owned(), by, at: now });
                self.updated = now;
                Ok(n)
            }
            _ => Err(RoundsError::NothingToAnswer(phase)),
        }
    }

    /// The questions no one answered.
    pub fn open_questions(&self) -> Vec<String> {
        self.qa.iter().filter(|e| e.answer.is_none()).map(|e| e.question.clone()).collect()
    }

    /// The seed's re-injection block (empty before the first question).
    pub(crate) fn prior_block(&self, phase: Phase) -> String {
        let answered: Vec<_> = self.qa.iter().filter_map(|e| e.answer.as_ref().map(|a| (&e.question, a))).collect();
        if answered.is_empty() {
            return String::new();
        }
        let mut out = format!("## Prior {} Q&A\n", phase.title());
        for (i, (q, a)) in answered.iter().enumerate() {
            let n = i + 1;
            out.push_str(&format!("Q{n}: {}\nA{n}: {}\n", one_line(q), one_line(&a.text)));
        }
        out
    }

    /// The prompt for the implementer's next call: the protocol, the brief,
    /// and every answered question so far.
    pub fn prompt(&self, phase: Phase, artifact: &str) -> Result<String, RoundsError> {
        self.check_open(phase)?;
        if let Some((n, _)) = self.pending() {
            return Err(RoundsError::Unanswered { n });
        }
        let round = self.rounds.saturating_add(1);
        let mut out = format!(
            "You are the {phase} implementer, round {round} of {max}. You have no memory of earlier rounds: \
             everything you need is below. Reply with the complete content of {artifact} (the binary \
             writes the file) from the brief. If one question blocks you, ask it instead of guessing (one question per reply); what the Q&A below already \
             answers is decided.\n\n{REPLY_FORMAT}\n\n",
            max = self.max_rounds,
        );
        // Seed 000: the accumulated Q&A is prepended to the brief.
        let block = self.prior_block(phase);
        if !block.is_empty() {
            out.push_str(&block);
            out.push('\n');
        }
        out.push_str(&format!("## Brief\n{}\n", self.brief.trim_end()));
        Ok(out)
    }
}

/// Checks that a best-effort result lists the open questions: a heading
/// `Open Questions` followed by at least one list item per open question.
pub fn check_open_questions(artifact: &str, open: &[String]) -> Result<(), String> {
    let mut lines = artifact.lines();
    let found = lines.by_ref().any(|l| {
        let t = l.trim_start();
        t.starts_with('#') && t.trim_start_matches('#').trim().eq_ignore_ascii_case("open questions")
    });
    if !found {
        return Err(format!(
            "it has no `## Open Questions` section; add one listing the {} question(s) that stayed open",
            open.len()
        ));
    }
    let items = lines
        .take_while(|l| !l.trim_start().starts_with('#'))
        .filter(|l| {
            let t = l.trim_start();
            t.starts_with("- ")
                || t.starts_with("* ")
                || t.split_once(". ").is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        })
        .count();
    if items < open.len() {
        return Err(format!(
            "its `Open Questions` section lists {items} item(s) but {} question(s) stayed open: {}",
            open.len(),
            open.iter().map(|q| format!("\"{}\"", one_line(q))).collect::<Vec<_>>().join(", ")
        ));
    }
    Ok(())
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Its class: what a front end maps it to.
impl crate::error::Classified for RoundsError {
    fn class(&self) -> crate::error::ErrorClass {
        use RoundsError as E;
        match self {
            E::NotStarted(_) | E::Ended { .. } | E::Unanswered { .. } | E::NothingToAnswer(_) => {
                crate::error::ErrorClass::Refused
            }
            E::EmptyAnswer => crate::error::ErrorClass::Invalid,
        }
    }
}

/// Where a round loop goes after `rounds record` (its `next`), with the
/// facts the sentence names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RoundNext {
    /// The document is written to `artifact` (a file name): the reviewer.
    Written { artifact: String },
    /// Question `n` waits: answered from what is known, or asked.
    Answer { n: usize, phase: Phase, feature: String },
    /// No rounds left: the artifact written by hand, then checked.
    CapReached { artifact: String, phase: Phase, feature: String },
}

impl std::fmt::Display for RoundNext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RoundNext::Written { artifact } => {
                write!(f, "{artifact} is written; continue with the reviewer: {}.", crate::words::LoopStep::ReviewBrief)
            }
            RoundNext::Answer { n, phase, feature } => write!(
                f,
                "Answer Q{n} yourself if the spec, the brief or the code answers it: `{}`. If only a person can: `{}` (add `--file <question.json>` to offer options).",
                Command::new("rounds answer").arg(phase).word("--text \"…\"").feature(feature),
                Command::new("rounds ask").arg(phase).feature(feature)
            ),
            RoundNext::CapReached { artifact, phase, feature } => write!(
                f,
                "No rounds left. Write {artifact} yourself as a best effort, with a `## Open Questions` section listing each open question and what you assumed; then run `{}`.",
                Command::new("rounds check").arg(phase).feature(feature)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::now;

    fn q(text: &str) -> Reply {
        Reply::Question { question: text.into(), context: "ctx".into() }
    }

    #[test]
    fn question_question_complete_carries_the_whole_qa() {
        let t = now();
        let mut l = RoundLoop::new("Design the dashboard.".into(), 3, t);
        let p1 = l.prompt(Phase::Design, "design.md").unwrap();
        assert!(p1.contains("round 1 of 3") && !p1.contains("Prior Design Q&A"), "{p1}");
        assert_eq!(l.record(Phase::Design, q("Grid or list?"), t).unwrap().name(), "answer");
        assert_eq!(l.prompt(Phase::Design, "design.md").unwrap_err(), RoundsError::Unanswered { n: 1 });
        l.answer(Phase::Design, "Grid.", AnsweredBy::Orchestrator, t).unwrap();
        assert_eq!(l.record(Phase::Design, q("Dark mode?"), t).unwrap().name(), "answer");
        l.answer(Phase::Design, "Yes,\nboth themes.", AnsweredBy::Human, t).unwrap();
        let p3 = l.prompt(Phase::Design, "design.md").unwrap();
        assert!(
            p3.ends_with(
                "## Prior Design Q&A\nQ1: Grid or list?\nA1: Grid.\nQ2: Dark mode?\nA2: Yes, both themes.\n\n## Brief\nDesign the dashboard.\n"
            ),
            "{p3}"
        );
        let d = l.record(Phase::Design, Reply::Complete { document: "# D\n".into() }, t).unwrap();
        assert_eq!(d, RoundDecision::Complete { document: "# D\n".into() });
        assert!(matches!(l.record(Phase::Design, q("x"), t), Err(RoundsError::Ended { .. })));
    }

    #[test]
    fn the_cap_ends_the_loop_with_the_open_question() {
        let t = now();
        let mut l = RoundLoop::new("b".into(), 2, t);
        l.record(Phase::Design, q("A?"), t).unwrap();
        l.answer(Phase::Design, "a", AnsweredBy::Orchestrator, t).unwrap();
        let d = l.record(Phase::Design, q("B?"), t).unwrap();
        assert_eq!(d, RoundDecision::CapReached { open: vec!["B?".into()] });
        assert_eq!(l.outcome, Some(RoundOutcome::CapReached));
        assert!(l.answer(Phase::Design, "late", AnsweredBy::Human, t).is_err());
    }

    #[test]
    fn open_questions_section_is_checked() {
        let open = vec!["Grid or list?".to_string()];
        assert!(check_open_questions("# D\n\n## Open Questions\n- Grid or list? (assumed grid)\n", &open).is_ok());
        assert!(check_open_questions("# D\n### open questions\n1. Grid or list?\n", &open).is_ok());
        let e = check_open_questions("# D\nno section\n", &open).unwrap_err();
        assert!(e.contains("no `## Open Questions` section"), "{e}");
        let e = check_open_questions("# D\n## Open Questions\nnone\n## Next\n- x\n", &open).unwrap_err();
        assert!(e.contains("lists 0 item(s)") && e.contains("Grid or list?"), "{e}");
    }

    #[test]
    fn titles() {
        assert_eq!(Phase::Design.title(), "Design");
        assert_eq!(Phase::CreatePlan.title(), "Create Plan");
    }

    #[test]
    fn names_match_serde() {
        crate::names::assert_serde_names::<AnsweredBy>();
        crate::names::assert_serde_names::<RoundOutcome>();
    }
}
