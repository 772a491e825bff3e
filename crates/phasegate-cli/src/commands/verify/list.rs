//! `workflow-state verify list`.

use clap::Args;
use phasegate_ops::proof;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// Show each requirement with the checks that name it.
///
/// Show each requirement of the feature (spec.md's R1, R2, …; a
/// pipeline's acceptance criteria) with the checks that name it, and the
/// requirements no check names. Runs nothing. Exit codes: 0 listed, 2 a
/// spec or tasks.md it cannot read (naming the file and line).
#[derive(Debug, Args)]
pub struct ListArgs {
    #[command(flatten)]
    feature: FeatureArg,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

pub fn cmd_list(a: ListArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let l = proof::list(&ctx.env, a.feature.get())?;
    if a.json {
        ctx.out.json(&l)?;
        return Ok(ExitStatus::Success);
    }
    ctx.out.line(format!("{}: requirements from {}, checks from {}", l.feature, l.requirements_file, l.checks_file))?;
    for r in &l.requirements {
        match r.checks.as_slice() {
            [] => ctx.out.line(format!("{} {} — no check", r.id, r.text))?,
            checks => ctx.out.line(format!(
                "{} {} — {}",
                r.id,
                r.text,
                checks.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ")
            ))?,
        }
    }
    if !l.unchecked.is_empty() {
        ctx.out.line(format!("No check names {}: {}.", l.unchecked.join(", "), l.add_check))?;
    }
    Ok(ExitStatus::Success)
}
