//! `workflow-state retro record`.

use std::path::PathBuf;

use clap::Args;
use phasegate_ops::retro;

use crate::commands::{FeatureArg, input};
use crate::{CmdResult, Ctx, ExitStatus};

/// Apply the retrospective agent's reply by seed 004 §6.3's rules.
///
/// Apply the retrospective agent's reply (its schema: `workflow-state
/// schema retro-reply`) by seed 004 §6.3's rules: divergences get the
/// seed's classes; a proposed gotcha is recorded when its task
/// self-corrected or the mistake was seen before, never for a NETWORK,
/// TIMEOUT or RESOURCE failure, otherwise only when reproducible, and only
/// if the knowledge base admits it; patterns are recorded when admitted;
/// each gotcha a task was given is judged once (prevented: 0.95; not
/// helped: lowered by 0.1). Writes the feature's retro.json (metrics for
/// the trend). Names the items ready for CLAUDE.md (`kb promote`) and the
/// template changes to ask the user about. Exit 2 for a reply that breaks
/// its schema or a record that cannot be read.
#[derive(Debug, Args)]
pub struct RecordArgs {
    /// The agent's reply (`-` for stdin).
    #[arg(long, value_name = "FILE")]
    reply_file: PathBuf,
    #[command(flatten)]
    feature: FeatureArg,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

pub fn cmd_record(a: RecordArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let t = input::read(&a.reply_file, "retrospective reply", &ctx.env.cwd)?;
    let r = retro::record(&ctx.env, a.feature.get(), &t.text)?;
    if a.json {
        ctx.out.json(&r)?;
    } else {
        ctx.out.line(r.message.to_string())?;
        for l in &r.record.lessons {
            ctx.out.line(format!(
                "- {} {}: {}{}",
                l.item_type,
                l.decision,
                l.id.as_deref().unwrap_or(&l.content),
                l.why.as_deref().map(|w| format!(" ({w})")).unwrap_or_default()
            ))?;
        }
        for t in &r.record.templates {
            ctx.out.line(format!("- template {}: {}", t.phase, t.question.as_deref().unwrap_or(&t.change)))?;
        }
    }
    Ok(ExitStatus::Success)
}
