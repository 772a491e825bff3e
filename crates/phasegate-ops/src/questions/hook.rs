//! The questions' part of the hooks: SessionStart names suspended items
//! and answers that arrived, and SessionStart and Stop wake the background
//! Slack poller while a question waits on Slack (the hooks get the plugin's
//! `slack_token` option, a Bash command does not). The hooks never wait on
//! Slack.

use std::path::Path;

use phasegate_store::Project;

use crate::hook::MAX_LISTED;
use crate::hook::{Contributor, HookCtx, StopVote, clip, one_line};

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
