//! `workflow-state kb …`: the knowledge base of gotchas, patterns and
//! decisions (seed 004 §10): one Markdown file per item in
//! `.phasegate/knowledge/`, shared through git; an index in git's runtime
//! folder makes a query fast and is rebuilt when stale.

use clap::Subcommand;

use crate::{CmdResult, Ctx};

mod index;
mod lint;
mod list;
mod promote;
mod query;
mod record;
mod reinforce;
mod show;
mod supersede;

#[derive(Debug, Subcommand)]
pub enum KbCommand {
    Query(query::QueryArgs),
    Record(record::RecordArgs),
    Reinforce(reinforce::ReinforceArgs),
    Supersede(supersede::SupersedeArgs),
    List(list::ListArgs),
    Show(show::ShowArgs),
    Lint(lint::LintArgs),
    Index(index::IndexArgs),
    Promote(promote::PromoteArgs),
}

pub fn run(cmd: KbCommand, ctx: &mut Ctx<'_>) -> CmdResult {
    match cmd {
        KbCommand::Query(a) => query::cmd_query(a, ctx),
        KbCommand::Record(a) => record::cmd_record(a, ctx),
        KbCommand::Reinforce(a) => reinforce::cmd_reinforce(a, ctx),
        KbCommand::Supersede(a) => supersede::cmd_supersede(a, ctx),
        KbCommand::List(a) => list::cmd_list(a, ctx),
        KbCommand::Show(a) => show::cmd_show(a, ctx),
        KbCommand::Lint(a) => lint::cmd_lint(a, ctx),
        KbCommand::Index(a) => index::cmd_index(a, ctx),
        KbCommand::Promote(a) => promote::cmd_promote(a, ctx),
    }
}

/// One item as a line: id, type, confidence, pattern, the lesson's first line.
fn line(s: &phasegate_ops::knowledge::base::Shown) -> String {
    let i = &s.item;
    let first = i.content.lines().next().unwrap_or_default();
    format!(
        "{} ({} {:.2}, seen {}{}{}): {first}",
        i.id,
        i.item_type.name(),
        i.confidence,
        i.occurrences,
        i.file_pattern.as_deref().map(|p| format!(", {p}")).unwrap_or_default(),
        if i.is_superseded() { ", superseded" } else { "" },
    )
}
