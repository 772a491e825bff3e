//! `workflow-state kb query`.

use clap::Args;
use phasegate_ops::knowledge::base;

use crate::{CmdResult, Ctx, ExitStatus};

/// The gotchas for a file, and the patterns and decisions for topics.
///
/// Seed 004 §10.1's query: the gotchas for a file (and action) — not
/// superseded; pattern and action matching or unset; confidence at least
/// 0.6; the file's own pattern first, then by confidence; at most 5 — and
/// the patterns and decisions for topics (confidence at least 0.7). Files
/// that cannot be read are named. Exit 2 for a path outside the working tree.
#[derive(Debug, Args)]
pub struct QueryArgs {
    /// The file the work is about.
    #[arg(long, value_name = "FILE")]
    path: Option<String>,
    /// The task's action type (CREATE, UPDATE, TEST, …).
    #[arg(long, value_name = "TYPE")]
    action: Option<String>,
    /// A topic for patterns and decisions (repeatable).
    #[arg(long, value_name = "TOPIC")]
    topic: Vec<String>,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

pub fn cmd_query(a: QueryArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let r = base::query(&ctx.env, a.path.as_deref(), a.action.as_deref(), &a.topic)?;
    if a.json {
        ctx.out.json(&r)?;
        return Ok(ExitStatus::Success);
    }
    if let (Some(p), Some(pat)) = (&r.path, &r.pattern) {
        ctx.out.line(format!("{p} (pattern {pat}):"))?;
    }
    for g in r.gotchas.iter().chain(&r.patterns) {
        ctx.out.line(format!("- {}", super::line(g)))?;
    }
    if r.gotchas.is_empty() && r.patterns.is_empty() {
        ctx.out.line("nothing known for it")?;
    }
    for u in &r.unreadable {
        ctx.out.line(format!("unreadable: {u}"))?;
    }
    Ok(ExitStatus::Success)
}
