//! The questions' part of the hooks: SessionStart names suspended items
//! and answers that arrived, and SessionStart and Stop wake the background
//! Slack poller while a question waits on Slack (the hooks get the plugin's
//! `slack_token` option, a Bash command does not). The hooks never wait on
//! Slack.

use std::path::Path;

use phasegate_core::questions::Question;
use phasegate_store::Project;
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

    /// The person's choice in the dialog for a question only a person may
    /// answer is recorded here, from the dialog's own reply: the model
    /// never relays it.
    fn post_tool_use(&self, ctx: &HookCtx<'_>) -> Vec<String> {
        if ctx.input.tool_name.as_deref() != Some(DIALOG_TOOL) {
            return Vec::new();
        }
        let (Some(input), Some(reply), Ok(project)) =
            (ctx.input.tool_input.as_ref(), ctx.input.tool_response.as_ref(), ctx.project())
        else {
            return Vec::new();
        };
        let answers = reply.get("answers").and_then(Value::as_object);
        let env = ctx.hook_env();
        let mut out = Vec::new();
        for q in person_only_asked(project, input) {
            let Some(choice) = answers.and_then(|a| a.get(&q.dialog_text())).and_then(Value::as_str) else { continue };
            let choice = choice.trim().trim_end_matches("(Recommended)").trim();
            match ask::answer_from_dialog(&env, project, &q.id, choice) {
                Ok(a) => out.push(format!(
                    "phasegate: {} is answered from the dialog: \"{}\" (recorded; do not record it again).",
                    a.id, a.answer
                )),
                Err(e) => out.push(format!(
                    "phasegate: the dialog's answer to {} was not recorded: {}",
                    q.id,
                    one_line(&e.to_string())
                )),
            }
        }
        out
    }

    /// Every stop wakes the poller when a question waits on Slack and no
    /// poller runs (two folder lookups when none waits).
    fn stop(&self, ctx: &HookCtx<'_>) -> StopVote {
        let (Ok(project), Some(exe)) = (ctx.project(), ctx.workflow_state) else { return StopVote::Pass };
        match crate::questions::poll::wake_watcher(project, exe) {
            Ok(_) => StopVote::Pass,
            Err(why) => StopVote::Note(format!(
                "phasegate: the background Slack poller did not start: {}.",
                one_line(&why.to_string())
            )),
        }
    }
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
    let Ok((stored, _)) = project.questions() else { return Vec::new() };
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
    let (markers, bad) = match project.markers() {
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
            "phasegate: suspended, waiting for an answer: {}; skip them (`workflow-state backlog`), answers: /phasegate:answer",
            names.join(", ")
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
