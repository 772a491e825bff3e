//! `workflow-state review record`: one reviewer iteration.

use std::io::Read;
use std::path::PathBuf;

use clap::Args;
use phasegate_core::Phase;
use phasegate_core::history::{self, Entry};
use phasegate_core::verdict::parse_verdict;

use crate::commands::FeatureArg;
use crate::context::Ctx;
use crate::error::{CliError, CliResult};
use crate::exit::ExitStatus;

/// Record one reviewer verdict: append it to .review-history.md, count the
/// iteration, and print the loop's decision (revise, approved, cap-reached;
/// the last two complete the phase). An invalid verdict exits 2 and says
/// what to fix; nothing is recorded then.
#[derive(Debug, Args)]
pub struct RecordArgs {
    phase: Phase,
    /// File holding the reviewer's reply (JSON, or text containing it); `-` for stdin.
    #[arg(long, value_name = "FILE")]
    verdict_file: PathBuf,
    /// What the executor changed in this iteration (for the history).
    #[arg(long, value_name = "TEXT")]
    changes: Option<String>,
    #[command(flatten)]
    feature: FeatureArg,
}

pub fn run(args: RecordArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let (_, feature) = ctx.feature(args.feature.get())?;
    let (source, text) = read_verdict(&args.verdict_file, ctx)?;
    let verdict = parse_verdict(&text).map_err(|e| {
        CliError::error(format!("{source}: {e}\nFix the reviewer's reply and record it again; nothing was recorded."))
    })?;
    let now = ctx.now;
    let guard = feature.lock(ctx.lock_timeout)?;
    let mut meta = guard.load()?;
    let step = meta.record_review(args.phase, &verdict, now)?;
    let changes = args.changes.as_deref().unwrap_or(if step.iteration == 1 { "Initial version." } else { "" });
    let entry = Entry { phase: args.phase, iteration: step.iteration, at: now, verdict: &verdict, changes };
    let existing = guard.read_history()?;
    guard.write_history(&history::append(&existing, &entry))?;
    guard.save(&meta)?;
    drop(guard);
    ctx.json(&step)?;
    Ok(ExitStatus::Success)
}

fn read_verdict(path: &PathBuf, ctx: &Ctx<'_>) -> CliResult<(String, String)> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| CliError::error(format!("cannot read the verdict from stdin: {e}")))?;
        return Ok(("the verdict on stdin".into(), text));
    }
    let full = ctx.cwd.join(path);
    let text = std::fs::read_to_string(&full)
        .map_err(|e| CliError::error(format!("cannot read the verdict file {}: {e}", full.display())))?;
    Ok((format!("the verdict in {}", full.display()), text))
}
