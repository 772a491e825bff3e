//! `workflow-state report`: one self-contained HTML page of the repository.

use std::path::PathBuf;

use clap::Args;
use phasegate_ops::oversight::report;

use crate::{CmdResult, Ctx, ExitStatus};

mod charts;
mod page;

/// Write one self-contained HTML page of the repository.
///
/// Write one HTML page to open from disk or attach to a pull request or a
/// CI run (no server, no script, nothing fetched): the features as a board
/// by phase; per feature its cost by phase as a bar chart, its agents and
/// tasks, and its proof; the trends of the last recorded retrospectives
/// (cost, first-pass success, gotcha effectiveness) as line charts; the
/// sessions, leases and questions waiting for a person right now. A file
/// already at --out is replaced only when it is an earlier report (it
/// begins as phasegate's reports do, not merely mentions one). Exit
/// codes: 0 written, 1 --out holds a file that is not a report (nothing
/// written), 2 it could not be written or the state could not be read.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Where to write it (`-`: standard output). Default: report.html in
    /// phasegate's folder inside the git directory, out of the working tree.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

pub fn cmd_report(a: ReportArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let gathered = report::gather(&ctx.env)?;
    let html = page::render(&gathered);
    if a.out.as_deref().is_some_and(|o| o.as_os_str() == "-") {
        ctx.out.line(html.trim_end())?;
        return Ok(ExitStatus::Success);
    }
    let path = report::write(&ctx.env, a.out.as_deref(), &html)?;
    ctx.out.line(format!("report: {} ({} KB)", path.display(), html.len().div_ceil(1024)))?;
    Ok(ExitStatus::Success)
}
