//! `workflow-state pipeline final-gate`: the last reviewer of each gate
//! (the seed's /review-codex), an external command.

use std::time::Duration;

use chrono::{DateTime, Utc};
use clap::Args;
use phasegate_core::pipeline::config::WhenUnavailable;
use phasegate_core::pipeline::files::{FINAL_GATE_SESSION_MARKER, FileKind, Review};
use phasegate_core::pipeline::gate::{GateKind, Stage};
use phasegate_core::pipeline::{Config, PauseReason, Run};
use phasegate_core::verdict::extract_json;
use phasegate_store::pipeline::parse_file;
use phasegate_store::process;
use serde_json::{Value, json};

use super::review::{print, record};
use super::{PipelineArg, code_dir, load_run, resolve, with_run};
use crate::context::Ctx;
use crate::error::{CliError, CliResult};
use crate::exit::ExitStatus;

/// Run the final gate: the configured external reviewer (the Codex CLI by
/// default) reviews the plan or the code, its JSON answer is checked and
/// recorded as .task/review-codex.json. When the reviewer is not installed,
/// finalGate.whenUnavailable decides: skip (recorded with the reason) or
/// block (the pipeline pauses for the user).
#[derive(Debug, Args)]
pub struct FinalGateArgs {
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn run(args: FinalGateArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let (project, feature) = resolve(ctx, &args.feature)?;
    let config = project.pipeline_config()?;
    let run = load_run(&feature)?;
    let kind = run.gate_kind().ok_or_else(|| {
        CliError::refused(format!(
            "the pipeline is {}; the final gate runs in plan_reviewing and implementing_loop",
            run.state
        ))
    })?;
    match run.gate(kind).expected() {
        Some(Stage::Final) => {}
        Some(other) => {
            return Err(CliError::refused(format!(
                "the final gate runs after the opus review; round {} expects the {other} review next",
                run.gate(kind).round.max(1)
            )));
        }
        None => return Err(CliError::refused("the review gate has already passed")),
    }
    let gate = &config.final_gate;
    let program = gate.command.first().cloned().unwrap_or_default();
    let now = ctx.now;
    let review_path = feature.task_path(Stage::Final.file());

    if process::find_program(&program).is_none() {
        let reason = format!(
            "`{program}` is not installed (not found on PATH); finalGate.whenUnavailable is {}",
            match gate.when_unavailable {
                WhenUnavailable::Skip => "skip",
                WhenUnavailable::Block => "block",
            }
        );
        return match gate.when_unavailable {
            WhenUnavailable::Skip => {
                let skipped = json!({
                    "id": format!("review-{}", now.format("%Y%m%d-%H%M%S")),
                    "reviewer": "review-codex",
                    "model": "codex",
                    "status": "skipped",
                    "summary": format!("The final gate was skipped: {reason}."),
                    "findings": [],
                    "skip_reason": reason,
                    "reviewed_at": now.to_rfc3339(),
                });
                record_value(ctx, &feature, skipped, &config, now)
            }
            WhenUnavailable::Block => {
                let message = format!(
                    "the final gate cannot run: {reason}. Install it, or set finalGate.whenUnavailable to \"skip\" in {}",
                    project.pipeline_config_path().display()
                );
                let run = with_run(ctx, &feature, |run, _| {
                    run.pause(PauseReason::FinalGateUnavailable, message.clone(), now)
                        .map_err(|e| CliError::error(e.to_string()))?;
                    Ok(run.clone())
                })?;
                ctx.json(
                    &json!({"feature": feature.name(), "decision": "paused", "state": run.state, "message": message,
                    "next": super::action_json(&run, &feature)}),
                )?;
                Ok(ExitStatus::Success)
            }
        };
    }

    let marker = feature.task_path(FINAL_GATE_SESSION_MARKER);
    let resume = marker.exists() && gate.resume_command.is_some();
    let command = if resume { gate.resume_command.clone().unwrap_or_default() } else { gate.command.clone() };
    let prompt = prompt(&feature, &run, kind, resume)?;
    let dir = code_dir(&project, &feature)?;
    let (prog, rest) = command.split_first().ok_or_else(|| CliError::error("finalGate.command is empty"))?;
    let done = process::run(prog, rest, &dir, Some(&prompt), Duration::from_secs(gate.timeout_seconds))
        .map_err(|e| CliError::error(format!("cannot run the final gate `{prog}`: {e}")))?;
    if done.timed_out || done.exit != Some(0) {
        let how = if done.timed_out {
            format!("timed out after {}s", gate.timeout_seconds)
        } else {
            format!("exited {:?}", done.exit)
        };
        return Err(CliError::error(format!(
            "the final gate `{}` {how}; nothing was recorded. Its error output ends with:\n{}\nRetry with `workflow-state pipeline final-gate`, or pause the pipeline for the user.",
            command.join(" "),
            tail(&done.stderr)
        )));
    }
    let Some(json_text) = extract_json(&done.stdout) else {
        return Err(CliError::error(format!(
            "the final gate's answer holds no JSON object; nothing was recorded. It said:\n{}",
            tail(&done.stdout)
        )));
    };
    let mut value: Value = serde_json::from_str(json_text).map_err(|e| {
        CliError::error(format!("the final gate's answer is not valid JSON ({e}); nothing was recorded"))
    })?;
    if let Some(obj) = value.as_object_mut() {
        obj.entry("id").or_insert_with(|| json!(format!("review-{}", now.format("%Y%m%d-%H%M%S"))));
        obj.entry("reviewer").or_insert_with(|| json!("review-codex"));
        obj.entry("model").or_insert_with(|| json!("codex"));
        obj.entry("findings").or_insert_with(|| json!([]));
        obj.entry("reviewed_at").or_insert_with(|| json!(now.to_rfc3339()));
    }
    // A review that does not match the schema is kept for inspection.
    let text = serde_json::to_string_pretty(&value).expect("serialisable");
    if let Err(e) = parse_file::<Review>(FileKind::Review, &review_path, &text) {
        let raw = feature.task_path("review-codex.rejected.json");
        let _ = std::fs::write(&raw, &text);
        return Err(CliError::error(format!("{e}\nThe answer was saved to {}; nothing was recorded.", raw.display())));
    }
    let status = record_value(ctx, &feature, value, &config, now)?;
    let _ = std::fs::write(&marker, now.to_rfc3339());
    Ok(status)
}

fn record_value(
    ctx: &mut Ctx<'_>,
    feature: &phasegate_store::Feature,
    value: Value,
    config: &Config,
    now: DateTime<Utc>,
) -> CliResult {
    let path = feature.task_path(Stage::Final.file());
    let text = serde_json::to_string_pretty(&value).expect("serialisable");
    let review: Review = parse_file(FileKind::Review, &path, &text)?;
    let (run, decision) = with_run(ctx, feature, |run, guard| {
        guard.write_task(Stage::Final.file(), &value)?;
        let decision = record(run, Stage::Final, &review, config, now)?;
        Ok((run.clone(), decision))
    })?;
    print(ctx, &run, feature, Stage::Final, decision, config)?;
    Ok(ExitStatus::Success)
}

fn prompt(feature: &phasegate_store::Feature, run: &Run, kind: GateKind, resume: bool) -> CliResult<String> {
    let read = |kind: FileKind| -> String {
        kind.task_file()
            .and_then(|f| std::fs::read_to_string(feature.task_path(f)).ok())
            .unwrap_or_else(|| "(missing)".into())
    };
    let subject = match kind {
        GateKind::Plan => format!(
            "the implementation plan below, against the approved requirements.\n\nRequirements (.task/user-story.json):\n{}\n\nPlan (.task/plan-refined.json):\n{}",
            read(FileKind::UserStory),
            read(FileKind::PlanRefined)
        ),
        GateKind::Code => format!(
            "the implementation in this working tree (inspect it with git status and git diff), against its plan.\n\nPlan (.task/plan-refined.json):\n{}",
            read(FileKind::PlanRefined)
        ),
    };
    let intro = if resume {
        "The work changed since your last review. Review it again: "
    } else {
        "You are the final review gate of an automated pipeline. Review "
    };
    Ok(format!(
        "{intro}{subject}\n\nRequest: {request}\n\nCheck security, correctness and quality; approve only when nothing blocks. Reply with one JSON object and nothing else:\n{{\"id\": \"review-YYYYMMDD-HHMMSS\", \"reviewer\": \"review-codex\", \"model\": \"codex\", \"status\": \"approved|needs_changes|needs_clarification\", \"summary\": \"...\", \"findings\": [{{\"id\": \"F1\", \"category\": \"security\", \"severity\": \"low|medium|high|critical\", \"title\": \"...\", \"recommendation\": \"...\"}}], \"blockers\": [], \"questions\": [], \"reviewed_at\": \"ISO 8601\"}}",
        request = run.request
    ))
}

fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(10)..].join("\n")
}
