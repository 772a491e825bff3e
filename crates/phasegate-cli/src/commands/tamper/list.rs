//! `workflow-state tamper list`.

use clap::Args;
use phasegate_ops::proof::tamper;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Show the feature's state files changed outside phasegate.
///
/// Show the feature's state files changed outside phasegate's commands
/// (`.meta.json`, `evidence.json`, a suspension marker, a pipeline's state
/// or review… written through Bash, edited or removed by hand): each with
/// how it changed and where it was found. A change git brought (the file
/// is what HEAD holds) is not one. Writes nothing. Exit codes: 0 none, 1
/// marks stand (`tamper clear` asks a person to clear them), 2 a feature
/// it cannot read.
#[derive(Debug, Args)]
pub struct ListArgs {
    #[command(flatten)]
    feature: FeatureArg,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

pub fn cmd_list(a: ListArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let l = tamper::list(&ctx.env, a.feature.get())?;
    if a.json {
        ctx.out.json(&l)?;
    } else {
        ctx.out.line(l.message.to_string())?;
        for m in &l.marks {
            ctx.out.line(format!("  {} {} ({}, {})", m.file, m.how, m.seen, phasegate_core::time::stamp(m.at)))?;
        }
    }
    Ok(if l.marks.is_empty() { ExitStatus::Success } else { ExitStatus::Refused })
}
