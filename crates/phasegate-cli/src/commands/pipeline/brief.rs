//! `workflow-state pipeline brief`: the pipeline's state in a few lines for
//! a `!` injection. Always exits 0 (a failing injection aborts the command).

use clap::Args;

use super::{PipelineArg, load_run, resolve, session_id};
use crate::context::Ctx;
use crate::error::CliResult;
use crate::exit::ExitStatus;

/// Summarise this session's pipeline (or say there is none). Always exits 0.
#[derive(Debug, Args)]
pub struct BriefArgs {
    #[command(flatten)]
    feature: PipelineArg,
}

pub fn run(args: BriefArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let lines = match brief(&args, ctx) {
        Ok(lines) => lines,
        Err(message) => vec![format!("phasegate pipeline: {message}")],
    };
    for l in lines {
        ctx.line(l)?;
    }
    Ok(ExitStatus::Success)
}

fn brief(args: &BriefArgs, ctx: &Ctx<'_>) -> Result<Vec<String>, String> {
    let (_, feature) = resolve(ctx, &args.feature).map_err(|e| e.message)?;
    let run = load_run(&feature).map_err(|e| e.message)?;
    let me = session_id(None);
    let owner = match (&run.owner, me.as_deref()) {
        (Some(o), Some(s)) if o.session_id == s => "run by this session".to_owned(),
        (Some(o), _) => format!("run by another session ({}); claim it to continue here", o.session_id),
        (None, _) => "run by no session; claim it to continue here".to_owned(),
    };
    let next = phasegate_core::pipeline::next::next(&run, feature.name());
    let mut out = vec![
        format!("phasegate pipeline {} ({}), folder {}", feature.name(), owner, feature.dir().display()),
        format!("request: {}", run.request),
        format!("state: {}", run.state),
        format!("ACTION: {}", next.action),
    ];
    out.extend(next.then.into_iter().map(|t| format!("THEN: {t}")));
    Ok(out)
}
