//! `workflow-state question list`.

use clap::Args;
use phasegate_ops::questions::ask as questions;

use crate::{CmdResult, Ctx, ExitStatus};

/// List questions: open ones (and suspensions) by default.
///
/// List questions: open ones (and suspensions) by default, then the
/// questions teammates' clones wait on a person for, as the last `team
/// sync` saw them (answer one with `question answer <id>`).
#[derive(Debug, Args)]
pub struct ListArgs {
    #[arg(long)]
    json: bool,
    /// Include answered questions that were taken back into their work.
    #[arg(long)]
    all: bool,
}

pub fn cmd_list(a: ListArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let (views, bad) = questions::list(&ctx.env, !a.all)?;
    let teammates =
        phasegate_ops::session::project(&ctx.env).and_then(|p| phasegate_ops::questions::team::teammates(&p))?;
    if a.json {
        ctx.out.json(&serde_json::json!({ "questions": views, "teammates": teammates, "unreadable": bad }))?;
    } else {
        if views.is_empty() {
            ctx.out.line("No open questions.")?;
        }
        for v in &views {
            let mark = if v.suspends { " (suspends the feature)" } else { "" };
            ctx.out.line(format!("{} [{}, {}]{mark}: {}", v.id, v.kind, v.state, v.question))?;
            if let Some(a) = &v.answer {
                ctx.out.line(format!("  answer: {a}"))?;
            }
        }
        if !teammates.is_empty() {
            ctx.out.line("Teammates' questions (as the last `workflow-state team sync` saw them):")?;
        }
        for t in &teammates {
            let state = if t.answered { "answered, waiting for their sync" } else { "waiting" };
            let who = if t.person_only { ", a person's decision: answer at a terminal" } else { "" };
            ctx.out.line(format!("{} [asked by {}, {state}{who}]: {}", t.id, t.asker, t.question))?;
            if !t.options.is_empty() && !t.answered {
                ctx.out.line(format!(
                    "  answer: `workflow-state question answer {} <{}>`",
                    t.id,
                    t.options.join("|")
                ))?;
            }
        }
        for b in &bad {
            ctx.out.line(format!("unreadable: {b}"))?;
        }
    }
    Ok(if bad.is_empty() { ExitStatus::Success } else { ExitStatus::Error })
}
