//! The questions' part of the hooks: SessionStart names suspended items
//! and answers that arrived, and SessionStart and Stop wake the background
//! Slack poller while a question waits on Slack (the hooks get the plugin's
//! `slack_token` option, a Bash command does not). The hooks never wait on
//! Slack.

use std::path::Path;

use phasegate_core::questions::Question;
use phasegate_core::words::Command;
use phasegate_store::Project;
use phasegate_store::questions::DialogNote;
use serde_json::Value;

use crate::hook::{Contributor, DIALOG_TOOL, HookCtx, MAX_LISTED, StopVote, ToolVote, clip, one_line};
use crate::questions::ask;

/// The questions' contributor.
pub struct Questions;

pub static QUESTIONS: Questions = Questions;

impl Contributor for Questions {
    fn session_start(&self, ctx: &HookCtx<'_>) -> Vec<String> {
        match ctx.project() {
            Ok(project) => {
                let lines = suspension_lines(project, ctx.workflow_state);
                // The startup context named them already.
                if ctx.compacted() { Vec::new() } else { lines }
            }
            Err(_) => Vec::new(),
        }
    }

    /// A question only a person may answer (a waiver, a promotion) is asked
    /// in the dialog without answers filled in: the input's `answers` would
    /// be the model's, not the person's.
    fn pre_tool_use(&self, ctx: &HookCtx<'_>) -> ToolVote {
        if ctx.input.tool_name.as_deref() != Some(DIALOG_TOOL) {
            return ToolVote::Pass;
        }
        let Some(input) = ctx.input.tool_input.as_ref() else { return ToolVote::Pass };
        if input.get("answers").and_then(Value::as_object).is_none_or(|a| a.is_empty()) {
            return ToolVote::Pass;
        }
        let Ok(project) = ctx.project() else { return ToolVote::Pass };
        match person_only_asked(project, input).first() {
            Some(q) => ToolVote::Deny(format!(
                "phasegate: {} is the person's to answer: ask it without `answers`, and their choice in the dialog is what counts.",
                q.id
            )),
            None => ToolVote::Pass,
        }
    }

    /// A dialog that asked a question only a person may answer is noted;
    /// the person's choice is read from Claude Code's transcript of the
    /// dialog, which Claude Code writes after this hook (so at the next
    /// hook, or the next command that reads the question): what arrived on
    /// this hook's input is never taken for their answer. Any other tool's
    /// PostToolUse reads the dialogs waiting.
    fn post_tool_use(&self, ctx: &HookCtx<'_>) -> Vec<String> {
        let Ok(project) = ctx.project() else { return Vec::new() };
        if ctx.input.tool_name.as_deref() != Some(DIALOG_TOOL) {
            return confirmed_lines(project, ctx);
        }
        let (Some(input), Some(tool_use_id), Some(session)) =
            (ctx.input.tool_input.as_ref(), ctx.input.tool_use_id.as_deref(), ctx.session())
        else {
            return Vec::new();
        };
        let asked = person_only_asked(project, input);
        if asked.is_empty() {
            return Vec::new();
        }
        let note = DialogNote {
            tool_use_id: tool_use_id.to_owned(),
            session: session.as_str().to_owned(),
            questions: asked.iter().map(|q| q.id.clone()).collect(),
            at: ctx.env.now,
        };
        match project.questions().note_dialog(&note) {
            Ok(()) => vec![format!(
                "phasegate: the person's choice for {} is recorded from the dialog as Claude Code records it; do not record it yourself.",
                note.questions.join(", ")
            )],
            Err(e) => vec![format!("phasegate: the dialog's answer cannot be noted: {}", one_line(&e.to_string()))],
        }
    }

    /// A dialog's answer is read at the next prompt too.
    fn user_prompt(&self, ctx: &HookCtx<'_>) -> Vec<String> {
        match ctx.project() {
            Ok(project) => confirmed_lines(project, ctx),
            Err(_) => Vec::new(),
        }
    }

    /// Every stop wakes the poller when a question waits on Slack and no
    /// poller runs (two folder lookups when none waits).
    fn stop(&self, ctx: &HookCtx<'_>) -> StopVote {
        let Ok(project) = ctx.project() else { return StopVote::Pass };
        let confirmed = confirmed_lines(project, ctx);
        if !confirmed.is_empty() {
            return StopVote::Note(confirmed.join("\n"));
        }
        let Some(exe) = ctx.workflow_state else { return StopVote::Pass };
        match crate::questions::poll::wake_watcher(project, exe) {
            Ok(_) => StopVote::Pass,
            Err(why) => StopVote::Note(format!(
                "phasegate: the background Slack poller did not start: {}.",
                one_line(&why.to_string())
            )),
        }
    }
}

/// The dialogs' answers read from Claude Code's transcript, as lines for
/// the model (nothing, after one look, when no dialog waits).
fn confirmed_lines(project: &Project, ctx: &HookCtx<'_>) -> Vec<String> {
    if !project.questions().has_dialog_notes() {
        return Vec::new();
    }
    ask::confirm_dialogs(project, &ctx.hook_env())
        .into_iter()
        .map(|r| match r {
            Ok(a) => format!(
                "phasegate: {} is answered from the dialog: \"{}\" (recorded; do not record it again).",
                a.id, a.answer
            ),
            Err((id, e)) => {
                format!("phasegate: the dialog's answer to {id} was not recorded: {}", one_line(&e.to_string()))
            }
        })
        .collect()
}

/// The open questions only a person may answer that this dialog input asks.
fn person_only_asked(project: &Project, input: &Value) -> Vec<Question> {
    let asked: Vec<&str> = input
        .get("questions")
        .and_then(Value::as_array)
        .map(|qs| qs.iter().filter_map(|q| q.get("question").and_then(Value::as_str)).collect())
        .unwrap_or_default();
    if asked.is_empty() {
        return Vec::new();
    }
    let Ok((stored, _)) = project.questions().all() else { return Vec::new() };
    stored
        .into_iter()
        .map(|s| s.question)
        .filter(|q| q.answer.is_none() && q.person_only() && asked.contains(&q.dialog_text().as_str()))
        .collect()
}

/// Suspended features and answers that arrived, and the background Slack
/// poller started when a question waits on Slack (two folder reads: the
/// markers and the question queue; nothing when neither exists).
fn suspension_lines(project: &Project, workflow_state: Option<&Path>) -> Vec<String> {
    let (markers, bad) = match project.questions().markers() {
        Ok(m) => m,
        Err(e) => return vec![format!("phasegate: {}", one_line(&e.to_string()))],
    };
    let mut out = Vec::new();
    let waiting: Vec<_> = markers.iter().filter(|m| m.question.answer.is_none()).collect();
    if let Some(exe) = workflow_state
        && let Err(why) = crate::questions::poll::wake_watcher(project, exe)
    {
        out.push(format!("phasegate: the background Slack poller did not start: {}", one_line(&why.to_string())));
    }
    if !waiting.is_empty() {
        let names: Vec<String> =
            waiting.iter().take(MAX_LISTED).map(|m| format!("{} ({})", m.question.slug, m.question.id)).collect();
        out.push(format!(
            "phasegate: suspended, waiting for an answer: {}; skip them (`{backlog}`), answers: /phasegate:answer",
            names.join(", "),
            backlog = Command::new("backlog")
        ));
    }
    for m in markers.iter().filter(|m| m.question.answer.is_some()).take(MAX_LISTED) {
        out.push(format!(
            "phasegate: the answer to {} arrived; {} can go on (its next step takes the answer in)",
            m.question.id, m.question.slug
        ));
    }
    for b in bad.iter().take(2) {
        out.push(format!("phasegate: {}", clip(&one_line(&b.error.to_string()), 400)));
    }
    out
}
