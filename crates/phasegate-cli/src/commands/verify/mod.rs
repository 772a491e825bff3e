//! `workflow-state verify …`: done means proven. A feature is done when
//! every requirement of its spec has a check that ran and passed on the
//! code as it is now: `run` runs the checks and writes the evidence ledger
//! (`docs/features/<feature>/evidence.json`), `status` reads it at the
//! current tree, `list` shows which check proves which requirement, and
//! `waive` asks a person whether a requirement may be done without proof.

use clap::Subcommand;
use phasegate_core::proof::RequirementProof;

use crate::{CmdResult, Ctx};

mod list;
mod run;
mod status;
mod waive;

#[derive(Debug, Subcommand)]
pub enum VerifyCommand {
    Run(run::RunArgs),
    Status(status::StatusArgs),
    List(list::ListArgs),
    Waive(waive::WaiveArgs),
}

pub fn run(cmd: VerifyCommand, ctx: &mut Ctx<'_>) -> CmdResult {
    match cmd {
        VerifyCommand::Run(a) => run::cmd_run(a, ctx),
        VerifyCommand::Status(a) => status::cmd_status(a, ctx),
        VerifyCommand::List(a) => list::cmd_list(a, ctx),
        VerifyCommand::Waive(a) => waive::cmd_waive(a, ctx),
    }
}

/// One requirement as a line: `R1 proven: `pytest -k a` (0.4 s)`.
fn requirement_line(r: &RequirementProof) -> String {
    let checks: Vec<String> = r
        .checks
        .iter()
        .map(|c| match c.failure() {
            None => format!("`{}` passed ({:.1} s)", c.command, c.duration_ms as f64 / 1000.0),
            Some(why) => why,
        })
        .collect();
    let detail = match (&r.waiver, checks.is_empty()) {
        (Some(w), _) => format!("waived by a person: {}", w.reason),
        (None, true) => "no check".to_owned(),
        (None, false) => checks.join("; "),
    };
    format!("{} {}: {} — {detail}", r.id, r.status, r.text)
}
