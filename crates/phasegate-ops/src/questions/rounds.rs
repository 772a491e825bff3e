//! The implementer round loop of a phase (seed 000 Part 1): start it with
//! the orchestrator's brief, get each call's prompt (the brief plus every
//! answered question), record each reply (a `STATUS: COMPLETE` document is
//! written to the phase's artifact), answer questions (or hand one to a
//! person), and check a capped result's `Open Questions`.

use phasegate_core::Phase;
use phasegate_core::questions::parse_reply;
use phasegate_core::questions::{self as rounds, AnsweredBy, RoundDecision as Decision, RoundLoop, RoundNext};
use phasegate_core::questions::{ItemType, Request, RoundOutcome};
use phasegate_store::{Feature, FileWrite, Project};
use serde::Serialize;

use crate::coordination::effects::Effects;
use crate::env::Env;
use crate::error::{Invalid, InvalidInput, OpError, OpResult, Refusal};
use crate::questions::ask::{self, AskInput, Asked, Interaction};
use crate::session;

fn rounds_err(e: rounds::RoundsError) -> OpError {
    OpError::Rounds(e)
}

fn artifact_of(feature: &Feature, phase: Phase) -> OpResult<std::path::PathBuf> {
    Ok(feature.artifact_path(loop_artifact(phase)?))
}

/// The artifact a phase's round loop writes.
fn loop_artifact(phase: Phase) -> OpResult<phasegate_core::Artifact> {
    Ok(phase.artifact().ok_or(Invalid::NoRoundLoop { phase })?)
}

/// Where the loop stands, as every rounds command prints it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LoopView {
    pub phase: Phase,
    pub round: u32,
    pub max_rounds: u32,
    pub outcome: Option<RoundOutcome>,
    /// The question waiting for an answer (number, text).
    pub pending: Option<(usize, String)>,
    pub answered: usize,
}

fn view(phase: Phase, l: &RoundLoop) -> LoopView {
    LoopView {
        phase,
        round: l.rounds,
        max_rounds: l.max_rounds,
        outcome: l.outcome,
        pending: l.pending().map(|(n, e)| (n, e.question.clone())),
        answered: l.qa.iter().filter(|e| e.answer.is_some()).count(),
    }
}

/// Starts (or, unless `fresh`, keeps) the phase's loop with `brief`.
pub fn start(env: &Env, given: Option<&str>, phase: Phase, brief: &str, fresh: bool) -> OpResult<LoopView> {
    let (project, feature) = session::find(env, given)?;
    artifact_of(&feature, phase)?;
    if brief.trim().is_empty() {
        return Err(Invalid::EmptyBrief.into());
    }
    let config = project.questions().questions_config()?;
    let guard = feature.lock(env.lock_timeout)?;
    guard.load()?;
    let mut file = guard.feature().read_rounds()?;
    let keep = !fresh && file.phases.get(&phase).is_some_and(|l| l.outcome.is_none());
    if !keep {
        file.phases.insert(phase, RoundLoop::new(brief.trim().to_owned(), config.max_rounds, env.now));
    }
    guard.commit("rounds start", vec![guard.rounds_change(&file)])?;
    Effects::of("rounds start").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(view(phase, &file.phases[&phase]))
}

/// What `rounds prompt` prints.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Prompt {
    pub agent: String,
    pub model: String,
    pub round: u32,
    pub max_rounds: u32,
    /// Where to save the implementer's reply, unchanged.
    pub reply_file: String,
    /// Answers that arrived since the last call and were taken in.
    pub taken: Vec<ask::Taken>,
    pub prompt: String,
}

/// The next call's prompt. An answer that arrived for the pending question
/// (from a person, Slack, or an expired default) is taken in first.
pub fn prompt(env: &Env, given: Option<&str>, phase: Phase) -> OpResult<Prompt> {
    let (project, feature) = session::find(env, given)?;
    let artifact = artifact_of(&feature, phase)?;
    let config = project.questions().questions_config()?;
    let guard = feature.lock(env.lock_timeout)?;
    let mut file = guard.feature().read_rounds()?;
    if !file.phases.contains_key(&phase) {
        return Err(rounds_err(rounds::RoundsError::NotStarted(phase)));
    }
    let (taken, changes) = ask::take_answers(&project, &guard, env, Some(&mut file))?;
    let l = file.phases.get_mut(&phase).ok_or_else(|| rounds_err(rounds::RoundsError::NotStarted(phase)))?;
    let healed = heal_pending(&project, phase, l)?;
    let text = l.prompt(phase, &artifact.display().to_string()).map_err(|e| match (&e, l.pending()) {
        (rounds::RoundsError::Unanswered { .. }, Some((_, ex))) if ex.question_id.is_some() => {
            match ask::suspended_on(&project, feature.name()) {
                Ok(Some(q)) => ask::suspended_refusal(&q),
                _ => rounds_err(e),
            }
        }
        _ => rounds_err(e),
    });
    let round = l.rounds.saturating_add(1);
    let max_rounds = l.max_rounds;
    if !changes.is_empty() || healed {
        // Written even if the prompt is refused: the answer is on record.
        let mut all = vec![guard.rounds_change(&file)];
        all.extend(changes);
        guard.commit("rounds prompt", all)?;
    }
    let text = text?;
    project.exclude_scratch()?;
    Effects::of("rounds prompt").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(Prompt {
        agent: phasegate_core::Agent::DesignImplementer.qualified(),
        model: config.models.implementer.clone(),
        round,
        max_rounds,
        reply_file: reply_path(&feature, phase).display().to_string(),
        taken,
        prompt: text,
    })
}

/// Scratch, in the feature folder (kept out of git), where the model's
/// Write tool can reach it.
fn reply_path(feature: &Feature, phase: Phase) -> std::path::PathBuf {
    feature.dir().join(format!(".{phase}.reply.md"))
}

/// A loop whose pending question was answered and taken in by an earlier
/// command (before `phase start` gave answers to the round loop) gets that
/// answer now. True when the loop changed.
fn heal_pending(project: &Project, phase: Phase, l: &mut RoundLoop) -> OpResult<bool> {
    let Some(id) = l.pending().and_then(|(_, ex)| ex.question_id.clone()) else { return Ok(false) };
    let Ok(stored) = ask::find(project, &id) else { return Ok(false) };
    let q = stored.question;
    match (q.answer, q.taken_at) {
        (Some(a), Some(at)) => Ok(l.answer(phase, &a.text, a.by, at).is_ok()),
        (Some(_), None) | (None, _) => Ok(false),
    }
}

/// What recording a reply decided.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Recorded {
    /// `complete`, `answer` or `cap-reached`.
    pub decision: &'static str,
    pub round: u32,
    pub max_rounds: u32,
    /// For `complete`: the artifact the document was written to.
    pub artifact: Option<String>,
    /// For `answer`: the question's number and text.
    pub question: Option<(usize, String)>,
    pub context: Option<String>,
    /// For `cap-reached`: what stays open.
    pub open_questions: Vec<String>,
    #[serde(serialize_with = "phasegate_core::words::as_words")]
    pub next: RoundNext,
}

/// Records the implementer's reply (saved unchanged in a file).
pub fn record(env: &Env, given: Option<&str>, phase: Phase, reply_text: &str, source: &str) -> OpResult<Recorded> {
    let (project, feature) = session::find(env, given)?;
    let artifact = artifact_of(&feature, phase)?;
    let parsed =
        parse_reply(reply_text).map_err(|e| OpError::from(Invalid::Reply { from: source.to_owned(), source: e }))?;
    let guard = feature.lock(env.lock_timeout)?;
    let mut file = guard.feature().read_rounds()?;
    let l = file.phases.get_mut(&phase).ok_or_else(|| rounds_err(rounds::RoundsError::NotStarted(phase)))?;
    let decision = l.record(phase, parsed, env.now).map_err(rounds_err)?;
    let (round, max_rounds) = (l.rounds, l.max_rounds);
    let mut changes = vec![guard.rounds_change(&file)];
    let name = artifact.file_name().and_then(|n| n.to_str()).unwrap_or("the artifact").to_owned();
    let out = match &decision {
        Decision::Complete { document } => {
            changes.push(FileWrite::put(&artifact, document.clone()));
            Recorded {
                decision: decision.name(),
                round,
                max_rounds,
                artifact: Some(artifact.display().to_string()),
                question: None,
                context: None,
                open_questions: Vec::new(),
                next: RoundNext::Written { artifact: name },
            }
        }
        Decision::Answer { n, question, context } => Recorded {
            decision: decision.name(),
            round,
            max_rounds,
            artifact: None,
            question: Some((*n, question.clone())),
            context: Some(context.clone()),
            open_questions: Vec::new(),
            next: RoundNext::Answer { n: *n, phase, feature: feature.name().to_owned() },
        },
        Decision::CapReached { open } => Recorded {
            decision: decision.name(),
            round,
            max_rounds,
            artifact: None,
            question: None,
            context: None,
            open_questions: open.clone(),
            next: RoundNext::CapReached { artifact: name, phase, feature: feature.name().to_owned() },
        },
    };
    guard.commit("rounds record", changes)?;
    Effects::of("rounds record").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(out)
}

/// The orchestrator answers the pending question.
pub fn answer(env: &Env, given: Option<&str>, phase: Phase, text: &str) -> OpResult<LoopView> {
    let (project, feature) = session::find(env, given)?;
    let guard = feature.lock(env.lock_timeout)?;
    let mut file = guard.feature().read_rounds()?;
    let l = file.phases.get_mut(&phase).ok_or_else(|| rounds_err(rounds::RoundsError::NotStarted(phase)))?;
    l.answer(phase, text, AnsweredBy::Orchestrator, env.now).map_err(rounds_err)?;
    let v = view(phase, l);
    guard.commit("rounds answer", vec![guard.rounds_change(&file)])?;
    Effects::of("rounds answer").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(v)
}

/// Hands the pending question to a person: asked like any question (the
/// request's text defaults to the implementer's question), linked to the
/// round so its answer becomes the next `A_n`.
pub fn ask(
    env: &Env,
    given: Option<&str>,
    phase: Phase,
    request: Option<Request>,
    session: Interaction,
) -> OpResult<Asked> {
    let (project, feature) = session::find(env, given)?;
    let (n, pending) = {
        let file = feature.read_rounds()?;
        let l = file.phases.get(&phase).ok_or_else(|| rounds_err(rounds::RoundsError::NotStarted(phase)))?;
        let (n, ex) = l.pending().ok_or_else(|| rounds_err(rounds::RoundsError::NothingToAnswer(phase)))?;
        (n, ex.clone())
    };
    let request = match request {
        Some(r) => r,
        None => Request::parse(
            &serde_json::json!({ "type": "blocking", "text": pending.question, "context": pending.context })
                .to_string(),
        )
        .invalid_input()?,
    };
    let name = feature.name().to_owned();
    let asked = ask::ask(
        env,
        Some(&name),
        AskInput {
            request,
            task: Some(phase.name().to_owned()),
            item_type: ItemType::Feature,
            session,
            round: Some(n as u32),
        },
    )?;
    // Link the round to the question, or take the binary's answer at once.
    let guard = feature.lock(env.lock_timeout)?;
    let mut file = guard.feature().read_rounds()?;
    if let Some(l) = file.phases.get_mut(&phase) {
        match (asked.route, &asked.answer) {
            (crate::questions::ask::Went::Answered, Some(a)) => {
                l.answer(phase, a, AnsweredBy::Preference, env.now).map_err(rounds_err)?;
            }
            _ => {
                if let Some(ex) = l.qa.last_mut().filter(|e| e.answer.is_none()) {
                    ex.question_id = asked.id.clone();
                }
            }
        }
        guard.commit("rounds ask", vec![guard.rounds_change(&file)])?;
    }
    Effects::of("rounds ask").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(asked)
}

/// Checks a capped loop's result: the artifact lists every open question.
pub fn check(env: &Env, given: Option<&str>, phase: Phase) -> OpResult<Vec<String>> {
    let (project, feature) = session::find(env, given)?;
    let a = loop_artifact(phase)?;
    let artifact = feature.artifact_path(a);
    let file = feature.read_rounds()?;
    let l = file.phases.get(&phase).ok_or_else(|| rounds_err(rounds::RoundsError::NotStarted(phase)))?;
    let open = l.open_questions();
    if open.is_empty() {
        Effects::of("rounds check").turn_to(feature.name()).apply_to_log(&project, env);
        return Ok(open);
    }
    let text = feature.read_artifact(a)?.ok_or_else(|| Refusal::NoArtifact { path: artifact.display().to_string() })?;
    rounds::check_open_questions(&text, &open)
        .map_err(|why| Refusal::OpenQuestionsMissing { path: artifact.display().to_string(), why })?;
    Effects::of("rounds check").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(open)
}
