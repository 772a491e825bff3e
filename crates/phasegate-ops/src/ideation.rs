//! The brainstorm phase's ideation (seed 004 §3): the model records the
//! signals the conversation established (artifacts by type, decisions and
//! validations, risks, an overall confidence) in the feature's
//! `ideation.json`; the binary evaluates §3.3's transition rules (one
//! sub-phase per `advance`), builds §3.5's phase prompt, and at COMPLETE
//! writes the handoff brief (`handoff.md`, §4.2's required and optional
//! inputs) that the specify phase reads, and emits `ideation.completed`.
//!
//! Every write holds the feature's lock and goes through its journal.

use phasegate_core::coordination::{
    ArtifactType, IDEATION_FILE, IdeaArtifact, IdeaDecision, IdeationError, IdeationPhase, IdeationState, Risk,
    SpecInput, TransitionDecision, evaluate_transition,
};
use phasegate_core::coordination::{IdeationMoved, IdeationSaid, SignalRecorded};
use phasegate_store::{Feature, FileWrite, Project, files};
use serde::Serialize;

use crate::coordination::effects::Effects;
use crate::env::Env;
use crate::error::{Invalid, InvalidInput, OpError, OpResult, Refusal};
use crate::session;

/// The handoff brief's file, beside the feature's artifacts.
pub const HANDOFF_FILE: &str = "handoff.md";

/// Where ideation stands, as every ideation command prints it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Shown {
    pub feature: String,
    pub file: String,
    pub phase: IdeationPhase,
    pub confidence: f64,
    pub artifacts: usize,
    pub validations: usize,
    pub risks: usize,
    /// What moving on needs (or, at COMPLETE, what follows).
    pub next: TransitionDecision,
    #[serde(serialize_with = "phasegate_core::words::as_words")]
    pub message: IdeationSaid,
}

fn shown(feature: &Feature, state: &IdeationState, message: IdeationSaid) -> Shown {
    Shown {
        feature: feature.name().to_owned(),
        file: files::relative(&file(feature), feature.root()).display().to_string(),
        phase: state.phase,
        confidence: state.signals.confidence,
        artifacts: state.signals.artifacts.len(),
        validations: state.signals.validations(),
        risks: state.signals.risks.len(),
        next: evaluate_transition(state.phase, &state.signals),
        message,
    }
}

fn file(feature: &Feature) -> std::path::PathBuf {
    feature.dir().join(IDEATION_FILE)
}

fn read(feature: &Feature) -> OpResult<Option<IdeationState>> {
    match feature.read_file(IDEATION_FILE)? {
        None => Ok(None),
        Some(text) => IdeationState::parse(&text).map(Some).invalid(file(feature).display().to_string()),
    }
}

fn invalid(e: IdeationError) -> OpError {
    match e {
        IdeationError::NotComplete { phase, missing } => Refusal::IdeationNotComplete { phase, missing }.into(),
        IdeationError::EmptyIdea | IdeationError::EmptySummary(_) | IdeationError::Confidence(_) => {
            OpError::Core(Box::new(e))
        }
    }
}

fn render(state: &IdeationState) -> String {
    let mut text = serde_json::to_string_pretty(state).expect("ideation state serialises");
    text.push('\n');
    text
}

/// `ideation start`: begins ideation for the feature (once; a second call
/// shows where it stands).
pub fn start(env: &Env, given: Option<&str>, idea: &str) -> OpResult<Shown> {
    let (project, feature) = session::find(env, given)?;
    let guard = feature.lock(env.lock_timeout)?;
    guard.load()?.ensure_active()?;
    if let Some(state) = read(guard.feature())? {
        Effects::of("ideation start").turn_to(feature.name()).apply_to_log(&project, env);
        return Ok(shown(&feature, &state, IdeationSaid::AlreadyStarted { phase: state.phase }));
    }
    let state = IdeationState::new(idea, env.now).map_err(invalid)?;
    guard.commit("ideation start", vec![FileWrite::put(file(&feature), render(&state))])?;
    Effects::of("ideation start").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(shown(&feature, &state, IdeationSaid::Started { feature: feature.name().to_owned() }))
}

/// A change of the recorded signals.
pub enum Signal<'a> {
    Artifact { kind: ArtifactType, summary: &'a str, confidence: f64 },
    Decision { kind: &'a str, summary: &'a str },
    Risk { summary: &'a str },
    Confidence(f64),
}

/// Records one signal.
pub fn record(env: &Env, given: Option<&str>, signal: Signal<'_>) -> OpResult<Shown> {
    let (project, feature) = session::find(env, given)?;
    let guard = feature.lock(env.lock_timeout)?;
    guard.load()?.ensure_active()?;
    let mut state = read(guard.feature())?.ok_or_else(not_started)?;
    if state.phase == IdeationPhase::Complete {
        return Err(Refusal::IdeationDone { feature: feature.name().to_owned() }.into());
    }
    let signal = match signal {
        Signal::Artifact { kind, summary, confidence } => {
            state.signals.artifacts.push(IdeaArtifact::new(kind, summary, confidence).map_err(invalid)?);
            SignalRecorded::Artifact(kind)
        }
        Signal::Decision { kind, summary } => {
            let (kind, summary) = (kind.trim(), summary.trim());
            if summary.is_empty() || kind.is_empty() {
                return Err(Invalid::DecisionIncomplete.into());
            }
            state.signals.decisions.push(IdeaDecision { decision_type: kind.to_owned(), summary: summary.to_owned() });
            SignalRecorded::Decision(kind.to_owned())
        }
        Signal::Risk { summary } => {
            if summary.trim().is_empty() {
                return Err(Invalid::RiskIncomplete.into());
            }
            state.signals.risks.push(Risk { summary: summary.trim().to_owned() });
            SignalRecorded::Risk
        }
        Signal::Confidence(c) => {
            state.set_confidence(c, env.now).map_err(invalid)?;
            SignalRecorded::Confidence(c)
        }
    };
    state.updated_at = env.now;
    // A signal that meets the phase's rule moves it on in the same change.
    let effects = Effects::of("ideation record").turn_to(feature.name());
    match step(&project, &feature, &mut state, env)? {
        Some(step) => {
            guard.commit("ideation record", step.changes.clone())?;
            drop(guard);
            let (moved, _) = moved(&project, env, &feature, step, effects);
            let message = IdeationSaid::Recorded { signal, moved: Some(moved) };
            Ok(shown(&feature, &state, message))
        }
        None => {
            guard.commit("ideation record", vec![FileWrite::put(file(&feature), render(&state))])?;
            drop(guard);
            effects.apply_to_log(&project, env);
            Ok(shown(&feature, &state, IdeationSaid::Recorded { signal, moved: None }))
        }
    }
}

fn not_started() -> OpError {
    Refusal::IdeationNotStarted.into()
}

/// What `ideation prompt` prints.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Prompted {
    #[serde(flatten)]
    pub shown: Shown,
    /// §3.5's sections: phase instructions, what we know so far, the
    /// response guidelines (2–3 focused questions) and the confidence.
    pub prompt: String,
}

pub fn prompt(env: &Env, given: Option<&str>) -> OpResult<Prompted> {
    let (project, feature) = session::find(env, given)?;
    let state = read(&feature)?.ok_or_else(not_started)?;
    let prompt = state.prompt();
    Effects::of("ideation prompt").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(Prompted { shown: shown(&feature, &state, IdeationSaid::Is { phase: state.phase }), prompt })
}

pub fn show(env: &Env, given: Option<&str>) -> OpResult<Shown> {
    let (project, feature) = session::find(env, given)?;
    let state = read(&feature)?.ok_or_else(not_started)?;
    Effects::of("ideation show").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(shown(&feature, &state, IdeationSaid::Is { phase: state.phase }))
}

/// What `ideation advance` did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Advanced {
    pub moved: bool,
    pub from: IdeationPhase,
    #[serde(flatten)]
    pub shown: Shown,
    /// At COMPLETE: the handoff brief and the required inputs it lacks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub handoff: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing_required: Vec<SpecInput>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
}

/// Evaluates §3.3's rule for the current sub-phase and moves one phase on
/// when it holds. COMPLETE writes the handoff brief and emits
/// `ideation.completed`; after it, nothing moves (refused). (Recording a signal that meets the rule moves on
/// by itself; this is for a rule met otherwise, or to ask why not.)
pub fn advance(env: &Env, given: Option<&str>) -> OpResult<Advanced> {
    let (project, feature) = session::find(env, given)?;
    let guard = feature.lock(env.lock_timeout)?;
    guard.load()?.ensure_active()?;
    let mut state = read(guard.feature())?.ok_or_else(not_started)?;
    let from = state.phase;
    // Nothing moves after COMPLETE: refused, as every other ideation
    // command that would change it.
    if from == IdeationPhase::Complete {
        return Err(Refusal::IdeationDone { feature: feature.name().to_owned() }.into());
    }
    let Some(step) = step(&project, &feature, &mut state, env)? else {
        let decision = evaluate_transition(from, &state.signals);
        let shown = shown(&feature, &state, IdeationSaid::Still { phase: from, reasons: decision.reasons });
        Effects::of("ideation advance").turn_to(feature.name()).apply_to_log(&project, env);
        return Ok(Advanced { moved: false, from, shown, handoff: None, missing_required: Vec::new(), event: None });
    };
    guard.commit("ideation advance", step.changes.clone())?;
    drop(guard);
    let (handoff, missing_required) = (step.handoff.clone(), step.missing.clone());
    let effects = Effects::of("ideation advance").turn_to(feature.name());
    let (moved, event) = moved(&project, env, &feature, step, effects);
    let shown = shown(&feature, &state, IdeationSaid::Moved(moved));
    Ok(Advanced { moved: true, from, shown, handoff, missing_required, event })
}

/// One move on, made but not yet committed.
struct Step {
    from: IdeationPhase,
    to: IdeationPhase,
    reasons: Vec<String>,
    changes: Vec<FileWrite>,
    handoff: Option<String>,
    missing: Vec<SpecInput>,
}

/// Moves `state` one phase on when §3.3's rule holds: the state's file,
/// and at COMPLETE the handoff brief, to commit together.
fn step(project: &Project, feature: &Feature, state: &mut IdeationState, env: &Env) -> OpResult<Option<Step>> {
    let from = state.phase;
    let decision = state.advance(env.now);
    if !decision.should_transition {
        return Ok(None);
    }
    let mut changes = vec![FileWrite::put(file(feature), render(state))];
    let (mut handoff, mut missing) = (None, Vec::new());
    if state.phase == IdeationPhase::Complete {
        let h = state.handoff().map_err(invalid)?;
        let path = feature.dir().join(HANDOFF_FILE);
        changes.push(FileWrite::put(&path, h.markdown));
        handoff = Some(files::relative(&path, project.root()).display().to_string());
        missing = h.missing_required;
    }
    Ok(Some(Step { from, to: state.phase, reasons: decision.reasons, changes, handoff, missing }))
}

/// What a committed move says, with `effects` applied: at COMPLETE,
/// `ideation.completed` among them (its id returned).
fn moved(
    project: &Project,
    env: &Env,
    feature: &Feature,
    step: Step,
    effects: Effects,
) -> (IdeationMoved, Option<String>) {
    let Step { from, to, reasons, handoff, missing, .. } = step;
    match to {
        IdeationPhase::Complete => {
            let payload = serde_json::json!({"handoff": handoff, "missingRequired": missing});
            let applied = effects.raise("ideation.completed", Some(feature.name()), None, payload).run(project, env);
            let event = applied.raised.into_iter().next().map(|e| e.id);
            let handoff = handoff.unwrap_or_else(|| HANDOFF_FILE.to_owned());
            (IdeationMoved::Complete { reasons, handoff }, event)
        }
        to => {
            effects.apply_to_log(project, env);
            (IdeationMoved::To { feature: feature.name().to_owned(), from, to, reasons }, None)
        }
    }
}
