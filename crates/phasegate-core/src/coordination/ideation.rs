//! Ideation (seed 004 §3): an idea explored in conversation through four
//! sub-phases until it is ready for the specify phase. The model extracts
//! signals (artifacts, decisions, risks, a confidence); this module decides
//! when the phase moves on, builds the phase prompt and writes the handoff
//! brief. Its state is `ideation.json`.
//!
//! Design choices:
//! - Transitions are exactly §3.3's, one step per evaluation as the seed's
//!   `evaluateTransition` (signals that satisfy two phases at once still
//!   pass through each, so each phase's prompt gets its turn). COMPLETE has
//!   no next phase.
//! - The average confidence of NARROWING is the mean of the artifacts' own
//!   confidences, every artifact counted once whatever its type, 0 with no
//!   artifact (the seed calls `calculateAverageConfidence(signals)` without
//!   showing it). The comparison is strict (`> 0.6`).
//! - REFINING completes when the brief is captured. The seed's §3.3 also
//!   completes it on an overall confidence above 0.75 without one, but its
//!   §4.2 refuses to write a spec without the brief: ideation that completed
//!   on confidence alone handed the specify phase a handoff with its required
//!   input missing, and the brief could no longer be recorded. So the brief
//!   is the one condition; a high confidence without it says the brief is
//!   what is left.
//! - A decision counts as a validation when its type is exactly
//!   `validation`; other decision types are kept but not counted.
//! - An evaluation that does not move says what is missing, so the
//!   conversation knows what to look for next.
//! - The prompt has §3.5's phase instructions, "What We Know So Far" (only
//!   with at least one artifact, each summary on one line) and the response
//!   guidelines with `Current confidence: {round(confidence*100)}%`. The
//!   seed's base role, idea context and user profile are left to the
//!   brainstorm command: phasegate has no user profile, and the idea is the
//!   conversation itself.
//! - The handoff brief marks §4.2's required inputs (the brief and the idea
//!   summary, the seed's `planning/brief.md` and `README.md`) apart from the
//!   optional ones (target users, problem/solution, MVP scope, research).
//!   Research is what validation produced: validated assumptions and risks.
//!   A missing required input is marked and listed (the brief cannot be
//!   missing at COMPLETE; the idea summary is the idea itself).
//! - When an artifact type was captured more than once, the latest counts
//!   in the brief; the prompt lists them all.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::schema::{ConfigError, Schema};

/// The state file.
pub const IDEATION_FILE: &str = "ideation.json";
/// §3.3: `avgConfidence > 0.6`.
pub(crate) const NARROWING_CONFIDENCE: f64 = 0.6;
/// §3.3: `validatedAssumptions.length >= 3`.
pub(crate) const MIN_VALIDATIONS: usize = 3;
/// §3.3: `overallConfidence > 0.75`: the idea is ready, and the brief is
/// what is left (REFINING completes with the brief alone; see the module's
/// design choices).
pub(crate) const COMPLETE_CONFIDENCE: f64 = 0.75;
/// §3.3: `signals.decisions.filter(d => d.type === 'validation')`.
pub(crate) const VALIDATION: &str = "validation";

/// §3's sub-phases.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[strum(serialize_all = "SCREAMING_SNAKE_CASE")]
pub enum IdeationPhase {
    Exploring,
    Narrowing,
    Validating,
    Refining,
    Complete,
}

crate::named!(IdeationPhase, "ideation phase");

impl IdeationPhase {
    pub fn next(self) -> Option<IdeationPhase> {
        match self {
            IdeationPhase::Exploring => Some(IdeationPhase::Narrowing),
            IdeationPhase::Narrowing => Some(IdeationPhase::Validating),
            IdeationPhase::Validating => Some(IdeationPhase::Refining),
            IdeationPhase::Refining => Some(IdeationPhase::Complete),
            IdeationPhase::Complete => None,
        }
    }

    /// §3.5's `PHASE_INSTRUCTIONS`.
    pub fn instructions(self) -> &'static str {
        match self {
            IdeationPhase::Exploring => "Ask open-ended questions. Don't narrow too quickly.",
            IdeationPhase::Narrowing => "Help define scope. Suggest MVP features.",
            IdeationPhase::Validating => "Challenge assumptions. Ask for evidence.",
            IdeationPhase::Refining => "Polish the concept. Identify gaps.",
            IdeationPhase::Complete => "Ideation is complete. Do not reopen it: the brief goes to the specify phase.",
        }
    }
}

/// §3.3's artifact types.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum ArtifactType {
    TargetUser,
    Problem,
    SolutionConcept,
    MvpFeatures,
    Differentiator,
    Brief,
}

crate::named!(ArtifactType, "artifact type");

/// Something the conversation established.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IdeaArtifact {
    #[serde(rename = "type")]
    pub artifact_type: ArtifactType,
    pub summary: String,
    /// 0 to 1.
    pub confidence: f64,
}

/// A decision the user made; `validation` ones count in VALIDATING.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IdeaDecision {
    #[serde(rename = "type")]
    pub decision_type: String,
    pub summary: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Risk {
    pub summary: String,
}

/// §3.2's extracted signals.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Signals {
    #[serde(default)]
    pub artifacts: Vec<IdeaArtifact>,
    #[serde(default)]
    pub decisions: Vec<IdeaDecision>,
    #[serde(default)]
    pub risks: Vec<Risk>,
    /// The overall confidence, 0 to 1.
    #[serde(default)]
    pub confidence: f64,
}

impl Signals {
    pub fn has(&self, t: ArtifactType) -> bool {
        self.artifacts.iter().any(|a| a.artifact_type == t)
    }

    /// The latest artifact of a type.
    pub fn latest(&self, t: ArtifactType) -> Option<&IdeaArtifact> {
        self.artifacts.iter().rev().find(|a| a.artifact_type == t)
    }

    /// The mean of the artifacts' confidences; 0 without artifacts.
    pub(crate) fn average_confidence(&self) -> f64 {
        match self.artifacts.len() {
            0 => 0.0,
            n => self.artifacts.iter().map(|a| a.confidence).sum::<f64>() / n as f64,
        }
    }

    pub fn validations(&self) -> usize {
        self.decisions.iter().filter(|d| d.decision_type == VALIDATION).count()
    }
}

/// §3.3's answer, with why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TransitionDecision {
    pub should_transition: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_phase: Option<IdeationPhase>,
    /// What was met (moving) or is still missing (staying).
    pub reasons: Vec<String>,
}

fn percent(x: f64) -> i64 {
    (x * 100.0).round() as i64
}

/// §3.3 `evaluateTransition`.
pub fn evaluate_transition(phase: IdeationPhase, signals: &Signals) -> TransitionDecision {
    let lacking = |types: &[ArtifactType]| -> Vec<String> {
        types.iter().filter(|t| !signals.has(**t)).map(|t| format!("no {t} artifact yet")).collect()
    };
    let (met, missing): (String, Vec<String>) = match phase {
        IdeationPhase::Exploring => (
            "target-user, problem and solution-concept are captured".to_owned(),
            lacking(&[ArtifactType::TargetUser, ArtifactType::Problem, ArtifactType::SolutionConcept]),
        ),
        IdeationPhase::Narrowing => {
            let mut missing = lacking(&[ArtifactType::MvpFeatures, ArtifactType::Differentiator]);
            let avg = signals.average_confidence();
            if avg <= NARROWING_CONFIDENCE {
                missing.push(format!("the artifacts' average confidence is {}%, not above 60%", percent(avg)));
            }
            (format!("mvp-features and differentiator are captured at {}% average confidence", percent(avg)), missing)
        }
        IdeationPhase::Validating => {
            let (n, risks) = (signals.validations(), signals.risks.len());
            let mut missing = Vec::new();
            if n < MIN_VALIDATIONS {
                missing.push(format!("{n} of {MIN_VALIDATIONS} validation decisions"));
            }
            if risks == 0 {
                missing.push("no risk identified yet".to_owned());
            }
            let plural = |k: usize, one: &str| format!("{k} {one}{}", if k == 1 { "" } else { "s" });
            (format!("{} and {} identified", plural(n, "validation decision"), plural(risks, "risk")), missing)
        }
        IdeationPhase::Refining => {
            let c = signals.confidence;
            let missing = match (signals.has(ArtifactType::Brief), c > COMPLETE_CONFIDENCE) {
                (true, _) => Vec::new(),
                (false, true) => vec![format!(
                    "no brief artifact yet: the brief alone completes ideation (the specify phase needs it); the confidence, {}%, says the idea is ready for it",
                    percent(c)
                )],
                (false, false) => vec![
                    "no brief artifact yet: the brief alone completes ideation (the specify phase needs it)".to_owned(),
                ],
            };
            ("the brief is captured".to_owned(), missing)
        }
        IdeationPhase::Complete => {
            return TransitionDecision {
                should_transition: false,
                next_phase: None,
                reasons: vec!["ideation is complete; hand the brief to /phasegate:specify".to_owned()],
            };
        }
    };
    match missing.is_empty() {
        true => TransitionDecision { should_transition: true, next_phase: phase.next(), reasons: vec![met] },
        false => TransitionDecision { should_transition: false, next_phase: None, reasons: missing },
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The questions that get what the phase's rule still lacks: seed 004
/// §11.3's where it has one (the ideal first user; the problem's who, what
/// and how today; which part to build first), ours for the rest. At most
/// [`ASK_AT_MOST`], in the rule's order.
fn questions(phase: IdeationPhase, signals: &Signals) -> Vec<&'static str> {
    let lacks = |t: ArtifactType| !signals.has(t);
    let mut out = Vec::new();
    match phase {
        IdeationPhase::Exploring => {
            if lacks(ArtifactType::TargetUser) {
                out.push("Who is the ideal first user for this idea?");
            }
            if lacks(ArtifactType::Problem) {
                out.push("Who experiences this problem most acutely, what happens when they can't solve it, and how are they solving it today?");
            }
            if lacks(ArtifactType::SolutionConcept) {
                out.push("What would the first version do for that user?");
            }
        }
        IdeationPhase::Narrowing => {
            if lacks(ArtifactType::MvpFeatures) {
                out.push("Which part would you build first to validate the core assumption?");
            }
            if lacks(ArtifactType::Differentiator) {
                out.push("What does this do that the way they solve it today does not?");
            }
            if signals.average_confidence() <= NARROWING_CONFIDENCE {
                out.push("Which of what we know so far are you least sure of?");
            }
        }
        IdeationPhase::Validating => {
            if signals.validations() < MIN_VALIDATIONS {
                out.push("What evidence do you have that your first users want this (a conversation, a number, a workaround they pay for)?");
            }
            if signals.risks.is_empty() {
                out.push("What is most likely to make this fail?");
            }
        }
        IdeationPhase::Refining => {
            if !signals.has(ArtifactType::Brief) {
                out.push("What is still unclear before we write the brief?");
            }
        }
        IdeationPhase::Complete => {}
    }
    out.truncate(ASK_AT_MOST);
    out
}

/// §3.5's "Ask 2-3 focused questions per response".
pub const ASK_AT_MOST: usize = 3;

/// §3.5's prompt sections for a phase, and the questions that get what its
/// rule still lacks. COMPLETE asks nothing: ideation is over, and its prompt
/// says only that, with what was established.
pub(crate) fn phase_prompt(phase: IdeationPhase, signals: &Signals) -> String {
    let mut sections = vec![phase.instructions().to_owned()];
    if !signals.artifacts.is_empty() {
        let known: Vec<String> =
            signals.artifacts.iter().map(|a| format!("- {}: {}", a.artifact_type, one_line(&a.summary))).collect();
        sections.push(format!("## What We Know So Far\n{}", known.join("\n")));
    }
    if phase == IdeationPhase::Complete {
        return sections.join("\n\n");
    }
    let ask = questions(phase, signals);
    if !ask.is_empty() {
        let list: Vec<String> = ask.iter().map(|q| format!("- {q}")).collect();
        sections.push(format!("## Ask Now\n{}", list.join("\n")));
    }
    sections.push(format!(
        "## Response Guidelines\n\
         - Ask 2-3 focused questions per response\n\
         - Summarize key insights when you learn something important\n\
         - Use **bold** for key concepts you want to capture\n\
         - Current confidence: {}%",
        percent(signals.confidence)
    ));
    sections.join("\n\n")
}

/// One move between phases.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PhaseChange {
    pub from: IdeationPhase,
    pub to: IdeationPhase,
    pub at: DateTime<Utc>,
    pub reason: String,
}

/// `ideation.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IdeationState {
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// The idea as the user put it: the handoff's idea summary.
    pub idea: String,
    pub phase: IdeationPhase,
    #[serde(default)]
    pub signals: Signals,
    #[serde(default)]
    pub history: Vec<PhaseChange>,
    pub started_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// Why an ideation step is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdeationError {
    #[error("the idea is empty; say in a sentence what the idea is")]
    EmptyIdea,
    #[error("a {0} artifact needs a summary; say in a sentence what was established")]
    EmptySummary(ArtifactType),
    #[error("a confidence must lie between 0 and 1 (0.7 for 70%); got {0}")]
    Confidence(String),
    #[error("ideation is in {phase}; the handoff brief is written at COMPLETE. Still missing: {missing}")]
    NotComplete { phase: IdeationPhase, missing: String },
}

fn check_confidence(c: f64) -> Result<f64, IdeationError> {
    match (0.0..=1.0).contains(&c) {
        true => Ok(c),
        false => Err(IdeationError::Confidence(c.to_string())),
    }
}

impl IdeaArtifact {
    pub fn new(artifact_type: ArtifactType, summary: &str, confidence: f64) -> Result<IdeaArtifact, IdeationError> {
        if summary.trim().is_empty() {
            return Err(IdeationError::EmptySummary(artifact_type));
        }
        Ok(IdeaArtifact {
            artifact_type,
            summary: summary.trim().to_owned(),
            confidence: check_confidence(confidence)?,
        })
    }
}

impl IdeationState {
    pub fn new(idea: &str, now: DateTime<Utc>) -> Result<IdeationState, IdeationError> {
        let idea = idea.trim();
        if idea.is_empty() {
            return Err(IdeationError::EmptyIdea);
        }
        Ok(IdeationState {
            schema: None,
            idea: idea.to_owned(),
            phase: IdeationPhase::Exploring,
            signals: Signals::default(),
            history: Vec::new(),
            started_at: now,
            updated_at: now,
        })
    }

    /// The schema, then the reading.
    pub fn parse(text: &str) -> Result<IdeationState, ConfigError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| ConfigError::Syntax(e.into()))?;
        Schema::Ideation.check(&value).map_err(ConfigError::Schema)?;
        serde_json::from_value(value).map_err(|e| ConfigError::Rule(e.to_string()))
    }

    pub fn set_confidence(&mut self, confidence: f64, now: DateTime<Utc>) -> Result<(), IdeationError> {
        self.signals.confidence = check_confidence(confidence)?;
        self.updated_at = now;
        Ok(())
    }

    /// Evaluates §3.3 on the current signals and, when it says so, moves one
    /// phase on and records the move.
    pub fn advance(&mut self, now: DateTime<Utc>) -> TransitionDecision {
        let decision = evaluate_transition(self.phase, &self.signals);
        if let Some(to) = decision.next_phase {
            self.history.push(PhaseChange { from: self.phase, to, at: now, reason: decision.reasons.join("; ") });
            self.phase = to;
            self.updated_at = now;
        }
        decision
    }

    pub fn prompt(&self) -> String {
        phase_prompt(self.phase, &self.signals)
    }

    /// The brief the specify phase reads, once ideation is COMPLETE.
    pub fn handoff(&self) -> Result<Handoff, IdeationError> {
        match self.phase {
            IdeationPhase::Complete => Ok(handoff(self)),
            IdeationPhase::Exploring
            | IdeationPhase::Narrowing
            | IdeationPhase::Validating
            | IdeationPhase::Refining => {
                let missing = evaluate_transition(self.phase, &self.signals).reasons.join("; ");
                Err(IdeationError::NotComplete { phase: self.phase, missing })
            }
        }
    }
}

/// §4.2's inputs for the specify phase.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum SpecInput {
    Brief,
    IdeaSummary,
    TargetUsers,
    ProblemSolution,
    MvpScope,
    Research,
}

crate::named!(SpecInput, "spec input");

impl SpecInput {
    /// §4.2's `required` (README and brief) against its `optional`.
    pub fn required(self) -> bool {
        match self {
            SpecInput::Brief | SpecInput::IdeaSummary => true,
            SpecInput::TargetUsers | SpecInput::ProblemSolution | SpecInput::MvpScope | SpecInput::Research => false,
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            SpecInput::Brief => "Brief",
            SpecInput::IdeaSummary => "Idea Summary",
            SpecInput::TargetUsers => "Target Users",
            SpecInput::ProblemSolution => "Problem / Solution",
            SpecInput::MvpScope => "MVP Scope",
            SpecInput::Research => "Research",
        }
    }
}

/// The handoff brief.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Handoff {
    pub markdown: String,
    /// Required inputs that are missing; the specify phase needs them.
    pub missing_required: Vec<SpecInput>,
}

fn bullets(lines: Vec<String>) -> Option<String> {
    (!lines.is_empty()).then(|| lines.join("\n"))
}

fn handoff(state: &IdeationState) -> Handoff {
    let s = &state.signals;
    let summary = |t: ArtifactType| s.latest(t).map(|a| a.summary.trim().to_owned());
    let labelled = |pairs: &[(&str, ArtifactType)]| {
        bullets(
            pairs.iter().filter_map(|(label, t)| summary(*t).map(|v| format!("- {label}: {}", one_line(&v)))).collect(),
        )
    };
    let research = {
        let mut lines: Vec<String> = s
            .decisions
            .iter()
            .filter(|d| d.decision_type == VALIDATION)
            .map(|d| format!("- Validated: {}", one_line(&d.summary)))
            .collect();
        lines.extend(s.risks.iter().map(|r| format!("- Risk: {}", one_line(&r.summary))));
        bullets(lines)
    };
    let content = |input: SpecInput| -> Option<String> {
        match input {
            SpecInput::Brief => summary(ArtifactType::Brief),
            SpecInput::IdeaSummary => Some(state.idea.trim().to_owned()).filter(|i| !i.is_empty()),
            SpecInput::TargetUsers => summary(ArtifactType::TargetUser),
            SpecInput::ProblemSolution => labelled(&[
                ("Problem", ArtifactType::Problem),
                ("Solution concept", ArtifactType::SolutionConcept),
                ("Differentiator", ArtifactType::Differentiator),
            ]),
            SpecInput::MvpScope => summary(ArtifactType::MvpFeatures),
            SpecInput::Research => research.clone(),
        }
    };

    let inputs = <SpecInput as strum::VariantArray>::VARIANTS;
    let mut md = format!(
        "# Ideation Handoff: {}\n\nThe specify phase reads this brief. Required inputs must be present; optional ones improve the spec.\n\n| Input | Needed | Present |\n|---|---|---|\n",
        one_line(&state.idea)
    );
    let mut missing_required = Vec::new();
    let mut body = String::new();
    for &input in inputs {
        let text = content(input);
        let needed = if input.required() { "required" } else { "optional" };
        md.push_str(&format!("| {} | {needed} | {} |\n", input.title(), if text.is_some() { "yes" } else { "no" }));
        let text = match (text, input.required()) {
            (Some(t), _) => t,
            (None, true) => {
                missing_required.push(input);
                "_Missing (required): capture it before running /phasegate:specify._".to_owned()
            }
            (None, false) => "_Not captured during ideation._".to_owned(),
        };
        body.push_str(&format!("\n## {}\n\n{text}\n", input.title()));
    }
    md.push_str(&body);
    md.push_str(&format!("\nConfidence: {}%\n", percent(s.confidence)));
    Handoff { markdown: md, missing_required }
}

#[cfg(test)]
mod prompt_tests {
    use super::*;

    // Regression: `ideation prompt` promised "2-3 focused questions" and
    // asked none; at COMPLETE it said both "ask questions" and "do not
    // reopen it".
    #[test]
    fn the_prompt_promised_questions_and_asked_none() {
        let mut signals = Signals::default();
        let p = phase_prompt(IdeationPhase::Exploring, &signals);
        assert!(p.contains("## Ask Now\n- Who is the ideal first user for this idea?"), "{p}");
        assert_eq!(p.matches("\n- ").count() - 4, ASK_AT_MOST, "three questions and the four guidelines: {p}");
        signals.artifacts.push(IdeaArtifact::new(ArtifactType::TargetUser, "nurses", 0.8).unwrap());
        let p = phase_prompt(IdeationPhase::Exploring, &signals);
        assert!(!p.contains("ideal first user") && p.contains("how are they solving it today"), "{p}");
        let done = phase_prompt(IdeationPhase::Complete, &signals);
        assert!(done.contains("Do not reopen it") && !done.contains("Ask") && !done.contains("questions"), "{done}");
        assert!(done.contains("- target-user: nurses"), "{done}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{TimeDelta, TimeZone};

    fn t(m: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 22, 10, 0, 0).unwrap() + TimeDelta::minutes(m)
    }

    fn art(t: ArtifactType, confidence: f64) -> IdeaArtifact {
        IdeaArtifact::new(t, &format!("about {t}"), confidence).unwrap()
    }

    fn signals(artifacts: &[(ArtifactType, f64)]) -> Signals {
        Signals { artifacts: artifacts.iter().map(|(t, c)| art(*t, *c)).collect(), ..Signals::default() }
    }

    fn decision(kind: &str) -> IdeaDecision {
        IdeaDecision { decision_type: kind.into(), summary: format!("a {kind} decision") }
    }

    use ArtifactType::*;

    #[test]
    fn exploring_moves_on_when_target_user_problem_and_solution_concept_exist() {
        let d = evaluate_transition(IdeationPhase::Exploring, &signals(&[(TargetUser, 0.1), (Problem, 0.1)]));
        assert_eq!((d.should_transition, d.reasons), (false, vec!["no solution-concept artifact yet".to_owned()]));
        let d = evaluate_transition(
            IdeationPhase::Exploring,
            &signals(&[(TargetUser, 0.1), (Problem, 0.1), (SolutionConcept, 0.1)]),
        );
        assert_eq!((d.should_transition, d.next_phase), (true, Some(IdeationPhase::Narrowing)));
    }

    #[test]
    fn narrowing_needs_mvp_features_differentiator_and_an_average_strictly_above_0_6() {
        let at = |a: f64, b: f64| {
            evaluate_transition(IdeationPhase::Narrowing, &signals(&[(MvpFeatures, a), (Differentiator, b)]))
        };
        // (0.5 + 0.7) / 2 is 0.6: not above.
        let d = at(0.5, 0.7);
        assert!(!d.should_transition);
        assert_eq!(d.reasons, ["the artifacts' average confidence is 60%, not above 60%"]);
        assert_eq!(at(0.5, 0.71).next_phase, Some(IdeationPhase::Validating));
        // Every artifact counts in the average, not only the two the rule names.
        let d = evaluate_transition(
            IdeationPhase::Narrowing,
            &signals(&[(TargetUser, 0.0), (MvpFeatures, 0.9), (Differentiator, 0.9)]),
        );
        assert!(!d.should_transition, "(0 + 0.9 + 0.9) / 3 = 0.6");
        assert_eq!(signals(&[]).average_confidence(), 0.0);
        let d = evaluate_transition(IdeationPhase::Narrowing, &signals(&[(MvpFeatures, 0.9)]));
        assert_eq!(d.reasons, ["no differentiator artifact yet"]);
    }

    #[test]
    fn validating_needs_three_validation_decisions_and_one_risk() {
        let mut s = Signals {
            decisions: vec![decision("validation"), decision("validation"), decision("scope")],
            ..Signals::default()
        };
        let d = evaluate_transition(IdeationPhase::Validating, &s);
        assert_eq!(d.reasons, ["2 of 3 validation decisions", "no risk identified yet"]);
        s.decisions.push(decision("validation"));
        assert_eq!(evaluate_transition(IdeationPhase::Validating, &s).reasons, ["no risk identified yet"]);
        s.risks.push(Risk { summary: "nobody pays".into() });
        assert_eq!(evaluate_transition(IdeationPhase::Validating, &s).next_phase, Some(IdeationPhase::Refining));
    }

    // Regression (issue 31): a confidence above 75% recorded before the
    // brief completed ideation, and the brief the specify phase needs could
    // no longer be recorded.
    #[test]
    fn refining_completes_with_the_brief_and_not_on_confidence_alone() {
        let mut s = Signals { confidence: 0.75, ..Signals::default() };
        let d = evaluate_transition(IdeationPhase::Refining, &s);
        assert!(!d.should_transition);
        assert_eq!(
            d.reasons,
            ["no brief artifact yet: the brief alone completes ideation (the specify phase needs it)"]
        );
        s.confidence = 0.9;
        let d = evaluate_transition(IdeationPhase::Refining, &s);
        assert!(!d.should_transition, "confidence alone does not complete it");
        assert!(d.reasons[0].contains("the brief alone completes ideation"), "{:?}", d.reasons);
        assert!(d.reasons[0].contains("the confidence, 90%, says the idea is ready for it"), "{:?}", d.reasons);
        let s = Signals { confidence: 0.1, ..signals(&[(Brief, 0.2)]) };
        assert_eq!(evaluate_transition(IdeationPhase::Refining, &s).next_phase, Some(IdeationPhase::Complete));
        let d = evaluate_transition(IdeationPhase::Complete, &s);
        assert_eq!((d.should_transition, d.next_phase), (false, None));
    }

    #[test]
    fn one_phase_per_evaluation_and_each_move_is_recorded() {
        let mut st = IdeationState::new("habit tracker for night-shift nurses", t(0)).unwrap();
        st.signals = signals(&[
            (TargetUser, 0.9),
            (Problem, 0.9),
            (SolutionConcept, 0.9),
            (MvpFeatures, 0.9),
            (Differentiator, 0.9),
        ]);
        assert_eq!(st.advance(t(1)).next_phase, Some(IdeationPhase::Narrowing));
        assert_eq!(st.phase, IdeationPhase::Narrowing);
        assert_eq!(st.advance(t(2)).next_phase, Some(IdeationPhase::Validating));
        assert!(!st.advance(t(3)).should_transition);
        assert_eq!(st.history.len(), 2);
        assert_eq!(
            st.history[0],
            PhaseChange {
                from: IdeationPhase::Exploring,
                to: IdeationPhase::Narrowing,
                at: t(1),
                reason: "target-user, problem and solution-concept are captured".into()
            }
        );
        assert_eq!(st.updated_at, t(2));
    }

    #[test]
    fn the_prompt_has_the_seeds_sections() {
        let mut s = signals(&[(TargetUser, 0.5), (Problem, 0.5)]);
        s.artifacts[1].summary = "forgets to\nlog habits".into();
        s.confidence = 0.72;
        assert_eq!(
            phase_prompt(IdeationPhase::Exploring, &s),
            "Ask open-ended questions. Don't narrow too quickly.\n\n\
             ## What We Know So Far\n- target-user: about target-user\n- problem: forgets to log habits\n\n\
             ## Ask Now\n- What would the first version do for that user?\n\n\
             ## Response Guidelines\n\
             - Ask 2-3 focused questions per response\n\
             - Summarize key insights when you learn something important\n\
             - Use **bold** for key concepts you want to capture\n\
             - Current confidence: 72%"
        );
        let bare = phase_prompt(IdeationPhase::Validating, &Signals { confidence: 0.005, ..Signals::default() });
        assert!(bare.starts_with("Challenge assumptions. Ask for evidence.\n\n## Ask Now\n- What evidence"), "{bare}");
        assert!(bare.ends_with("Current confidence: 1%"), "{bare}");
        assert!(phase_prompt(IdeationPhase::Narrowing, &s).starts_with("Help define scope. Suggest MVP features."));
        assert!(phase_prompt(IdeationPhase::Refining, &s).starts_with("Polish the concept. Identify gaps."));
    }

    #[test]
    fn the_handoff_marks_required_and_optional_inputs() {
        let mut st = IdeationState::new("Habit tracker", t(0)).unwrap();
        assert!(matches!(st.handoff(), Err(IdeationError::NotComplete { .. })));
        let e = st.handoff().unwrap_err().to_string();
        assert!(e.contains("ideation is in EXPLORING") && e.contains("no target-user artifact yet"), "{e}");

        st.phase = IdeationPhase::Complete;
        st.signals = signals(&[(TargetUser, 0.8), (Problem, 0.8), (MvpFeatures, 0.8)]);
        st.signals.confidence = 0.8;
        let h = st.handoff().unwrap();
        assert_eq!(h.missing_required, [SpecInput::Brief]);
        assert!(h.markdown.starts_with("# Ideation Handoff: Habit tracker\n"), "{}", h.markdown);
        assert!(h.markdown.contains("| Brief | required | no |\n| Idea Summary | required | yes |\n| Target Users | optional | yes |\n| Problem / Solution | optional | yes |\n| MVP Scope | optional | yes |\n| Research | optional | no |\n"), "{}", h.markdown);
        assert!(
            h.markdown.contains("## Brief\n\n_Missing (required): capture it before running /phasegate:specify._\n")
        );
        assert!(h.markdown.contains("## Problem / Solution\n\n- Problem: about problem\n"));
        assert!(h.markdown.contains("## Research\n\n_Not captured during ideation._\n"));
        assert!(h.markdown.ends_with("\nConfidence: 80%\n"));

        st.signals.artifacts.push(art(Brief, 0.9));
        st.signals.artifacts.push(IdeaArtifact::new(Brief, "the final brief", 0.9).unwrap());
        st.signals.decisions = vec![decision("validation"), decision("scope")];
        st.signals.risks = vec![Risk { summary: "churn".into() }];
        let h = st.handoff().unwrap();
        assert!(h.missing_required.is_empty());
        assert!(h.markdown.contains("## Brief\n\nthe final brief\n"), "the latest brief counts");
        assert!(
            h.markdown.contains("## Research\n\n- Validated: a validation decision\n- Risk: churn\n"),
            "{}",
            h.markdown
        );
    }

    #[test]
    fn empty_ideas_summaries_and_out_of_range_confidences_are_refused() {
        assert_eq!(IdeationState::new("  ", t(0)), Err(IdeationError::EmptyIdea));
        assert_eq!(IdeaArtifact::new(Brief, " ", 0.5), Err(IdeationError::EmptySummary(Brief)));
        for bad in [-0.1, 1.01, f64::NAN] {
            assert!(matches!(IdeaArtifact::new(Brief, "b", bad), Err(IdeationError::Confidence(_))), "{bad}");
        }
        let mut st = IdeationState::new("x", t(0)).unwrap();
        assert!(st.set_confidence(70.0, t(1)).unwrap_err().to_string().contains("0.7 for 70%"));
        assert_eq!(st.signals.confidence, 0.0);
    }

    #[test]
    fn ideation_json_round_trips_and_matches_its_schema() {
        let mut st = IdeationState::new("Habit tracker", t(0)).unwrap();
        st.signals = signals(&[(TargetUser, 0.9), (Problem, 0.9), (SolutionConcept, 0.9)]);
        st.signals.decisions.push(decision("validation"));
        st.signals.risks.push(Risk { summary: "r".into() });
        st.advance(t(1));
        let json = serde_json::to_value(&st).unwrap();
        Schema::Ideation.check(&json).unwrap();
        assert_eq!(json["phase"], "NARROWING");
        assert_eq!(json["signals"]["artifacts"][0]["type"], "target-user");
        assert_eq!(IdeationState::parse(&json.to_string()).unwrap(), st);
        let minimal = r#"{"idea":"x","phase":"EXPLORING","started_at":"2026-11-22T10:00:00Z","updated_at":"2026-11-22T10:00:00Z"}"#;
        assert_eq!(IdeationState::parse(minimal).unwrap().signals, Signals::default());
    }

    #[test]
    fn ideation_json_errors_name_the_field() {
        for (text, field) in [
            (
                r#"{"idea":"x","phase":"DREAMING","started_at":"2026-11-22T10:00:00Z","updated_at":"2026-11-22T10:00:00Z"}"#,
                "/phase",
            ),
            (
                r#"{"idea":"x","phase":"EXPLORING","signals":{"confidence":1.5},"started_at":"2026-11-22T10:00:00Z","updated_at":"2026-11-22T10:00:00Z"}"#,
                "/signals/confidence",
            ),
            (
                r#"{"idea":"x","phase":"EXPLORING","signals":{"artifacts":[{"type":"persona","summary":"s","confidence":0.5}]},"started_at":"2026-11-22T10:00:00Z","updated_at":"2026-11-22T10:00:00Z"}"#,
                "/signals/artifacts/0/type",
            ),
            (
                r#"{"idea":"x","phase":"EXPLORING","started_at":"yesterday","updated_at":"2026-11-22T10:00:00Z"}"#,
                "/started_at",
            ),
        ] {
            let e = IdeationState::parse(text).unwrap_err().to_string();
            assert!(e.contains(field), "{text}: {e}");
        }
    }

    #[test]
    fn the_schema_lists_every_phase_and_artifact_type() {
        let doc: serde_json::Value = serde_json::from_str(Schema::Ideation.text()).unwrap();
        let names = |v: &[&'static str]| serde_json::json!(v);
        let phases: Vec<&str> = <IdeationPhase as strum::VariantArray>::VARIANTS.iter().map(|p| p.name()).collect();
        let types: Vec<&str> = <ArtifactType as strum::VariantArray>::VARIANTS.iter().map(|p| p.name()).collect();
        assert_eq!(doc["$defs"]["phase"]["enum"], names(&phases));
        assert_eq!(doc["$defs"]["artifactType"]["enum"], names(&types));
    }

    #[test]
    fn names() {
        crate::names::assert_serde_names::<IdeationPhase>();
        crate::names::assert_serde_names::<ArtifactType>();
        crate::names::assert_serde_names::<SpecInput>();
    }
}
