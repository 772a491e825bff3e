//! The review gates: the brief for each sonnet/opus reviewer, recording each
//! review against the version of the work it saw, the final gate (an
//! external reviewer), and the worker's report that a fix is done.

use std::path::Path;
use std::time::Duration;

use chrono::{DateTime, Utc};
use phasegate_core::feature::extract_json;
use phasegate_core::pipeline::WhenUnavailable;
use phasegate_core::pipeline::files::{FINAL_GATE_SESSION_MARKER, FileKind, Review};
use phasegate_core::pipeline::gate::{GateDecision, GateError, GateKind, Stage};
use phasegate_core::pipeline::next::{AfterReview, NextAction as Action};
use phasegate_core::pipeline::{Config, PauseReason, PipelineRun, State};
use phasegate_core::words::Command;
use phasegate_store::pipeline::parse_file;
use phasegate_store::{Feature, Project, files, process};
use serde::Serialize;
use serde_json::{Value, json};

use super::{action, find, load_run, version, with_run};
use phasegate_core::brief::{Brief, BriefKind, Loading, SectionKind};

use crate::brief;
use crate::coordination::effects::Effects;
use crate::env::Env;
use crate::error::{GateEnd, Invalid, InvalidInput, OpError, OpResult, Refusal};
use crate::feature::review;
use crate::knowledge::inject;
use crate::witness;
use phasegate_core::witness::RecordedBy;

/// Where a final review that did not match the schema is kept for inspection.
const REJECTED_FINAL_REVIEW: &str = "review-codex.rejected.json";

/// The shape every reviewer answers in (seed 001, Review outputs).
const REVIEW_SHAPE: &str = r#"{"id": "review-YYYYMMDD-HHMMSS", "reviewer": "<reviewer>", "model": "<model>", "status": "approved|needs_changes|needs_clarification", "summary": "...", "findings": [{"id": "F1", "category": "security", "severity": "low|medium|high|critical", "title": "...", "recommendation": "..."}], "blockers": [], "questions": [], "reviewed_at": "ISO 8601"}"#;

fn gate_kind(run: &PipelineRun) -> OpResult<GateKind> {
    run.gate_kind().ok_or_else(|| OpError::from(Refusal::NotReviewing { state: run.state }))
}

fn limit(config: &Config, kind: GateKind) -> u32 {
    match kind {
        GateKind::Plan => config.autonomy.plan_review_loop_limit,
        GateKind::Code => config.autonomy.code_review_loop_limit,
    }
}

/// What a gate reviewer gets.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GateBrief {
    pub feature: String,
    pub stage: Stage,
    /// The agent to spawn (`subagent_type`), fresh.
    pub agent: String,
    /// The `model` to run it with.
    pub model: &'static str,
    pub prompt: String,
}

/// The brief for the next sonnet or opus review of the current gate.
pub fn review_brief(env: &Env, given: Option<&str>) -> OpResult<GateBrief> {
    let (project, feature) = find(env, given)?;
    let run = load_run(&feature)?;
    let kind = gate_kind(&run)?;
    let gate = run.gate(kind);
    if let Some(f) = &gate.fixing {
        return Err(Refusal::FixInProgress {
            worker: kind.worker(),
            round: f.round,
            feature: feature.name().to_owned(),
        }
        .into());
    }
    let stage = match gate.expected() {
        Some(s @ (Stage::Sonnet | Stage::Opus)) => s,
        Some(Stage::Final) => {
            return Err(Refusal::FinalGateNext { feature: feature.name().to_owned() }.into());
        }
        None => return Err(GateError::AlreadyPassed.into()),
    };
    let subject = subject(&project, &feature, &run, kind)?;
    let shape = REVIEW_SHAPE.replace("<reviewer>", kind.reviewer().name()).replace("<model>", stage.model());
    let mut brief = Brief::of(BriefKind::GateReview);
    brief.push(
        "request",
        SectionKind::Task,
        format!(
            "You are reviewing round {round} of the {kind} review gate of pipeline {name} as the {stage} reviewer.\n\
             Request: {request}\n\
             {subject}\n\
             Read the files named above; do not change any file. Approve only when nothing must change.",
            round = gate.round.max(1),
            name = feature.name(),
            request = run.request,
        ),
    );
    // The code reviewer checks the gotchas the implementer was given.
    brief.slot_here();
    brief.push(
        "reply",
        SectionKind::Task,
        format!("Reply with one JSON object and nothing else, in this shape:\n{shape}"),
    );
    let checked = match kind {
        GateKind::Code => brief::Subject {
            feature: Some(&feature),
            work: super::plan(&feature).map(|p| inject::plan_work(&p)).unwrap_or_default(),
            root: Some(project.code_dir(&feature.load()?)),
            role: brief::Role::Reviewer,
            loading: Loading::Eager,
        },
        GateKind::Plan => brief::Subject::feature(&feature, Loading::Lazy),
    };
    let prompt = brief::finish(&project, brief, &checked).packed.text;
    // The review is taken from a reviewer spawned with this very prompt.
    witness::note_brief(env, &project, &gate_subject(feature.name(), &run, kind, stage), &prompt)?;
    Effects::of("pipeline review-brief").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(GateBrief {
        feature: feature.name().to_owned(),
        stage,
        agent: kind.reviewer().qualified(),
        model: stage.model(),
        prompt,
    })
}

/// What is under review, for a prompt: the requirements and plan, or the
/// plan and the code change.
fn subject(project: &Project, feature: &Feature, run: &PipelineRun, kind: GateKind) -> OpResult<String> {
    let t = feature.task_dir();
    let story = t.join("user-story.json").display().to_string();
    let plan = t.join("plan-refined.json").display().to_string();
    Ok(match kind {
        GateKind::Plan => format!("Under review: the plan {plan}, against the approved requirements {story}."),
        GateKind::Code => {
            let dir = project.code_dir(&feature.load()?);
            let change = match &run.code_base {
                Some(base) => {
                    let c = review::code_change(project, &dir, base)?;
                    let path = feature.write_scratch("code-gate.diff", &c.patch)?;
                    c.render(Some(&path.display().to_string()))
                }
                None => format!("No base commit is known; read the code in {}.\n", dir.display()),
            };
            format!(
                "Under review: the implementation in {} against its plan {plan} (requirements: {story}).\n{change}",
                dir.display()
            )
        }
    })
}

/// What `pipeline review` and `final-gate` print after recording.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Recorded {
    pub feature: String,
    pub stage: Stage,
    #[serde(serialize_with = "by_name")]
    pub decision: GateDecision,
    pub next_stage: Option<Stage>,
    pub round: u32,
    pub loops: u32,
    pub loop_limit: u32,
    #[serde(serialize_with = "phasegate_core::words::as_words")]
    pub message: AfterReview,
    pub state: State,
    pub next: Action,
}

/// What a gate's reviewer is briefed for: one stage of one round.
fn gate_subject<'a>(feature: &'a str, run: &PipelineRun, kind: GateKind, stage: Stage) -> witness::Subject<'a> {
    witness::Subject {
        feature,
        key: format!("{kind}:{stage}#{}", run.gate(kind).round.max(1)),
        agent: kind.reviewer().qualified(),
    }
}

/// Records the review of one stage of the current gate. Inside Claude Code
/// the sonnet and opus reviews are the last replies of the reviewer
/// `pipeline review-brief` named, spawned with its prompt on the stage's
/// model, read from Claude Code's transcript and written to the stage's
/// file by the binary (`file`, when given, must hold that reply); the
/// final review is the binary's own (`pipeline final-gate`). Outside
/// Claude Code a person gives the review in `file` (default: the stage's
/// file in `.task/`), and the record says who.
pub fn review(env: &Env, given: Option<&str>, stage: Stage, file: Option<&Path>) -> OpResult<Recorded> {
    let (project, feature) = find(env, given)?;
    let config = project.pipeline().config()?;
    let run = load_run(&feature)?;
    let kind = gate_kind(&run)?;
    let operator = env.operator();
    if stage == Stage::Final && operator.is_claude_code() {
        return Err(Refusal::FinalGateNext { feature: feature.name().to_owned() }.into());
    }
    let default = feature.task_path(stage.file());
    let path = file.map_or_else(|| default.clone(), |f| env.cwd.join(f));
    // Inside Claude Code the stage's file is the binary's to write: only a
    // file named on the command line is compared with the reviewer's reply.
    // A file named there is the user's; the stage's own, the pipeline's.
    let text = match (operator.is_claude_code(), file) {
        (true, None) => None,
        (_, Some(_)) => Some(files::read_optional(&path)?),
        (false, None) => Some(feature.read_task_text(stage.file())?),
    };
    let given_file = match text {
        None => None,
        Some(Some(text)) => Some(witness::Given { source: path.display().to_string(), text }),
        Some(None) => return Err(Invalid::NoStageReview { stage, path: path.clone() }.into()),
    };
    let brief = Command::new("pipeline review-brief").feature(&feature.name()).to_string();
    let verdict =
        witness::verdict(env, &project, &gate_subject(feature.name(), &run, kind, stage), given_file, &brief)?;
    if let Some(model) = &verdict.model
        && !model.contains(stage.model())
    {
        witness::count(env, &project, feature.name(), &verdict)?;
        return Err(Refusal::ReviewerModel { stage, model: model.clone(), want: stage.model() }.into());
    }
    let text = match extract_json(&verdict.text) {
        Some(json) => json.to_owned(),
        None => verdict.text.clone(),
    };
    let review: Review = match parse_file(FileKind::Review, &path, &text) {
        Ok(r) => r,
        Err(e) => {
            witness::count(env, &project, feature.name(), &verdict)?;
            return Err(e.into());
        }
    };
    let value: Option<Value> = match operator.is_claude_code() {
        true => serde_json::from_str(&text).ok(),
        false => None,
    };
    let taken = Taken { stage, review: &review, write_file: value.as_ref(), by: Some(verdict.by.clone()) };
    let recorded = record(env, &project, &feature, taken, &config)?;
    witness::count(env, &project, feature.name(), &verdict)?;
    Effects::of("pipeline review").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(recorded)
}

/// A review to record: its stage, the review, the file the binary writes
/// for it (the stage's `.task/` file), and who gave it.
struct Taken<'a> {
    stage: Stage,
    review: &'a Review,
    write_file: Option<&'a Value>,
    by: Option<RecordedBy>,
}

/// Records a checked review into the run's current gate and applies pauses.
/// The review counts for the version of the work as it is now; a version
/// that changed since the round began restarts the round.
fn record(env: &Env, project: &Project, feature: &Feature, taken: Taken<'_>, config: &Config) -> OpResult<Recorded> {
    let Taken { stage, review, write_file, by } = taken;
    let now = env.now;
    let guard = feature.lock(env.lock_timeout)?;
    let mut run = load_run(feature)?;
    let kind = gate_kind(&run)?;
    if review.model != stage.model() {
        return Err(Invalid::ReviewModel { model: review.model.clone(), stage }.into());
    }
    let reviewer = if stage == Stage::Final { "review-codex" } else { kind.reviewer().name() };
    if review.reviewer != reviewer {
        return Err(Invalid::ReviewReviewer {
            given: review.reviewer.clone(),
            gate: kind,
            stage,
            reviewer: reviewer.to_owned(),
        }
        .into());
    }
    let version = version(project, feature, &run, kind)?;
    if let Err(e) = run.gate_mut(kind).admit(stage, &version, kind) {
        if matches!(e, GateError::ChangedMidRound { .. }) {
            // The restarted round is saved: the next review starts it.
            guard.write_task(phasegate_core::pipeline::files::STATE_FILE, &run)?;
        }
        return Err(match e {
            GateError::FixInProgress { worker, round } => {
                Refusal::FixInProgress { worker, round, feature: feature.name().to_owned() }.into()
            }
            other => other.into(),
        });
    }
    let loop_limit = limit(config, kind);
    let decision = run.gate_mut(kind).record_by(stage, review.status, by, &version, loop_limit, now)?;
    run.updated_at = now;
    match decision {
        GateDecision::Clarify => {
            let questions =
                if review.questions.is_empty() { review.summary.clone() } else { review.questions.join(" ") };
            run.pause(PauseReason::NeedsClarification, format!("the {stage} reviewer asks: {questions}"), now)?;
        }
        GateDecision::LimitReached => {
            run.pause(
                PauseReason::ReviewLoopExceeded,
                format!("{loop_limit} review rounds ended in needs_changes without approval"),
                now,
            )?;
        }
        GateDecision::Next { .. } | GateDecision::Passed | GateDecision::Fix => {}
    }
    let mut changes = vec![guard.task_change(phasegate_core::pipeline::files::STATE_FILE, &run)];
    if let Some(value) = write_file {
        changes.push(guard.task_change(stage.file(), value));
    }
    guard.commit("pipeline review", changes)?;
    drop(guard);
    let gate = run.gate(kind);
    Ok(Recorded {
        feature: feature.name().to_owned(),
        stage,
        decision,
        next_stage: decision.next_stage(),
        round: gate.round,
        loops: gate.loops,
        loop_limit,
        message: AfterReview { kind, decision, feature: feature.name().to_owned() },
        state: run.state,
        next: action(project, &run, feature),
    })
}

/// The worker reported that its fix of a round's findings is done.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Fixed {
    pub feature: String,
    pub fixed_round: u32,
    pub round: u32,
    pub next: Action,
}

pub fn fixed(env: &Env, given: Option<&str>) -> OpResult<Fixed> {
    let (project, feature) = find(env, given)?;
    let (run, fixed_round) = with_run(env, &feature, |run, _| {
        let kind = gate_kind(run)?;
        let r = run.gate_mut(kind).fixed()?;
        run.updated_at = env.now;
        Ok((run.clone(), r))
    })?;
    let round = run.gate_kind().map_or(0, |k| run.gate(k).round);
    Effects::of("pipeline fixed").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(Fixed { feature: feature.name().to_owned(), fixed_round, round, next: action(&project, &run, &feature) })
}

/// A gate's decision as the outputs name it (`next`, `passed`, …).
fn by_name<S: serde::Serializer>(decision: &GateDecision, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(decision.name())
}

/// What `final-gate` did.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum FinalGate {
    Recorded(Recorded),
    Paused { feature: String, decision: &'static str, state: State, message: String, next: Action },
}

/// Runs the final gate: the configured external reviewer (the Codex CLI by
/// default) reviews the plan or the code; its JSON answer is checked and
/// recorded as `.task/review-codex.json`. When the reviewer is not
/// installed, `finalGate.whenUnavailable` decides: skip (recorded with the
/// reason) or block (the pipeline pauses).
pub fn final_gate(env: &Env, given: Option<&str>) -> OpResult<FinalGate> {
    let (project, feature) = find(env, given)?;
    let config = project.pipeline().config()?;
    let run = load_run(&feature)?;
    let kind = gate_kind(&run)?;
    let gate = run.gate(kind);
    if let Some(f) = &gate.fixing {
        return Err(Refusal::FixInProgress {
            worker: kind.worker(),
            round: f.round,
            feature: feature.name().to_owned(),
        }
        .into());
    }
    match gate.expected() {
        Some(Stage::Final) => {}
        Some(other) => {
            return Err(Refusal::FinalGateTooEarly { round: gate.round.max(1), expected: other }.into());
        }
        None => return Err(GateError::AlreadyPassed.into()),
    }
    let settings = &config.final_gate;
    let program = settings.command.first().cloned().unwrap_or_default();
    let now = env.now;
    if process::find_program(&program).is_none() {
        return reviewer_unavailable(env, &project, &feature, &config, &program);
    }
    let resume = feature.has_task_file(FINAL_GATE_SESSION_MARKER) && settings.resume_command.is_some();
    let command = if resume { settings.resume_command.clone().unwrap_or_default() } else { settings.command.clone() };
    let prompt = final_prompt(&project, &feature, &run, kind, resume)?;
    let dir = project.code_dir(&feature.load()?);
    let (prog, rest) = command.split_first().ok_or(Invalid::FinalGateNoCommand)?;
    let done = process::run(prog, rest, &dir, Some(&prompt), Duration::from_secs(settings.timeout_seconds))
        .invalid(format!("cannot run the final gate `{prog}`"))?;
    if done.timed_out || done.exit != Some(0) {
        let end = match done.timed_out {
            true => GateEnd::TimedOut { seconds: settings.timeout_seconds },
            false => GateEnd::Exited { code: done.exit },
        };
        return Err(Invalid::FinalGateFailed {
            command: command.join(" "),
            end,
            stderr: tail(&done.stderr),
            feature: feature.name().to_owned(),
        }
        .into());
    }
    let value = answer_value(&done.stdout, now)?;
    let text = serde_json::to_string_pretty(&value).expect("serialisable");
    let review_path = feature.task_path(Stage::Final.file());
    if let Err(e) = parse_file::<Review>(FileKind::Review, &review_path, &text) {
        // A review that does not match the schema is kept for inspection.
        let saved = feature.task_path(REJECTED_FINAL_REVIEW);
        let _kept_if_it_can_be = feature.write_task_text(REJECTED_FINAL_REVIEW, &text);
        return Err(Invalid::FinalGateRejected { saved, source: e }.into());
    }
    let recorded = record_value(env, &project, &feature, value, &config)?;
    // The marker only lets the next run resume the reviewer's session.
    let _ = feature.write_task_text(FINAL_GATE_SESSION_MARKER, &phasegate_core::time::stamp(now));
    Effects::of("pipeline final-gate").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(FinalGate::Recorded(recorded))
}

/// The reviewer is not installed: the gate is skipped (recorded with the
/// reason) or the pipeline pauses, as `finalGate.whenUnavailable` says.
fn reviewer_unavailable(
    env: &Env,
    project: &Project,
    feature: &Feature,
    config: &Config,
    program: &str,
) -> OpResult<FinalGate> {
    let settings = &config.final_gate;
    let now = env.now;
    let reason = format!(
        "`{program}` is not installed (not found on PATH); finalGate.whenUnavailable is {}",
        match settings.when_unavailable {
            WhenUnavailable::Skip => "skip",
            WhenUnavailable::Block => "block",
        }
    );
    match settings.when_unavailable {
        WhenUnavailable::Skip => {
            let skipped = json!({
                "id": format!("review-{}", now.format("%Y%m%d-%H%M%S")),
                "reviewer": "review-codex",
                "model": "codex",
                "status": "skipped",
                "summary": format!("The final gate was skipped: {reason}."),
                "findings": [],
                "skip_reason": reason,
                "reviewed_at": phasegate_core::time::stamp(now),
            });
            record_value(env, project, feature, skipped, config).map(FinalGate::Recorded)
        }
        WhenUnavailable::Block => {
            let message = format!(
                "the final gate cannot run: {reason}. Install it, or set finalGate.whenUnavailable to \"skip\" in {}",
                project.pipeline().config_path().display()
            );
            let run = with_run(env, feature, |run, _| {
                run.pause(PauseReason::FinalGateUnavailable, message.clone(), now)?;
                Ok(run.clone())
            })?;
            Ok(FinalGate::Paused {
                feature: feature.name().to_owned(),
                decision: "paused",
                state: run.state,
                message,
                next: action(project, &run, feature),
            })
        }
    }
}

/// The reviewer's answer: its JSON object, with the fields it may leave
/// out filled in.
fn answer_value(stdout: &str, now: DateTime<Utc>) -> OpResult<Value> {
    let Some(json_text) = extract_json(stdout) else {
        return Err(Invalid::FinalGateNoJson { said: tail(stdout) }.into());
    };
    let mut value: Value =
        serde_json::from_str(json_text).map_err(|source| OpError::from(Invalid::FinalGateNotJson { source }))?;
    if let Some(obj) = value.as_object_mut() {
        obj.entry("id").or_insert_with(|| json!(format!("review-{}", now.format("%Y%m%d-%H%M%S"))));
        obj.entry("reviewer").or_insert_with(|| json!("review-codex"));
        obj.entry("model").or_insert_with(|| json!("codex"));
        obj.entry("findings").or_insert_with(|| json!([]));
        obj.entry("reviewed_at").or_insert_with(|| json!(phasegate_core::time::stamp(now)));
    }
    Ok(value)
}

fn record_value(env: &Env, project: &Project, feature: &Feature, value: Value, config: &Config) -> OpResult<Recorded> {
    let path = feature.task_path(Stage::Final.file());
    let text = serde_json::to_string_pretty(&value).expect("serialisable");
    let review: Review = parse_file(FileKind::Review, &path, &text)?;
    record(
        env,
        project,
        feature,
        Taken { stage: Stage::Final, review: &review, write_file: Some(&value), by: None },
        config,
    )
}

fn final_prompt(
    project: &Project,
    feature: &Feature,
    run: &PipelineRun,
    kind: GateKind,
    resume: bool,
) -> OpResult<String> {
    let read = |kind: FileKind| -> String {
        kind.task_file().and_then(|f| feature.read_task_text(f).ok().flatten()).unwrap_or_else(|| "(missing)".into())
    };
    let subject = match kind {
        GateKind::Plan => format!(
            "the implementation plan below, against the approved requirements.\n\nRequirements (.task/user-story.json):\n{}\n\nPlan (.task/plan-refined.json):\n{}",
            read(FileKind::UserStory),
            read(FileKind::PlanRefined)
        ),
        GateKind::Code => format!(
            "the implementation in this working tree, against its plan.\n\nPlan (.task/plan-refined.json):\n{}\n\n{}",
            read(FileKind::PlanRefined),
            subject(project, feature, run, kind)?
        ),
    };
    let intro = if resume {
        "The work changed since your last review. Review it again: "
    } else {
        "You are the final review gate of an automated pipeline. Review "
    };
    let shape = REVIEW_SHAPE.replace("<reviewer>", "review-codex").replace("<model>", "codex");
    Ok(format!(
        "{intro}{subject}\n\nRequest: {request}\n\nCheck security, correctness and quality; approve only when nothing blocks. Reply with one JSON object and nothing else:\n{shape}",
        request = run.request
    ))
}

fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(10)..].join("\n")
}
