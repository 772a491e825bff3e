//! `workflow-state schema`: print the JSON Schema of a file phasegate reads.

use clap::Args;
use phasegate_core::Named;
use phasegate_core::pipeline::FileKind;
use phasegate_core::schema::Schema;
use phasegate_ops::OpError;

use crate::{CmdResult, Ctx, ExitStatus};

/// Print the JSON Schema of a file: meta, verdict, question,
/// questions-config, review-cycles, implement-config, or a pipeline file kind
/// (worker-signal, user-story, plan-refined, review, impl-result, loop-state,
/// config, state). Workers read it to know the exact shape to write.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Which file.
    name: String,
}

pub fn cmd_schema(args: SchemaArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let schema = match args.name.as_str() {
        "meta" => Schema::Meta,
        "verdict" => Schema::Verdict,
        "question" => Schema::Question,
        "questions-config" => Schema::QuestionsConfig,
        "review-cycles" => Schema::ReviewCycles,
        "implement-config" => Schema::ImplementConfig,
        other => other.parse::<FileKind>().map(FileKind::schema).map_err(|_| {
            OpError::Invalid(format!(
                "unknown schema `{other}`; expected one of: meta, verdict, question, questions-config, review-cycles, implement-config, {}",
                FileKind::names()
            ))
        })?,
    };
    ctx.out.line(schema.text().trim_end())?;
    Ok(ExitStatus::Success)
}
