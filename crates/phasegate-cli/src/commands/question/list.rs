//! `workflow-state question list`.

use clap::Args;
use phasegate_ops::questions::ask as questions;

use crate::{CmdResult, Ctx, ExitStatus};

/// List questions: open ones (and suspensions) by default.
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
    if a.json {
        ctx.out.json(&serde_json::json!({ "questions": views, "unreadable": bad }))?;
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
        for b in &bad {
            ctx.out.line(format!("unreadable: {b}"))?;
        }
    }
    Ok(if bad.is_empty() { ExitStatus::Success } else { ExitStatus::Error })
}
