//! `workflow-state schema`: print the JSON Schema of a file phasegate reads.

use clap::Args;
use phasegate_core::schema::Schema;
use phasegate_ops::{Invalid, OpError};

use crate::{CmdResult, Ctx, ExitStatus};

/// Print the JSON Schema of a file phasegate reads or writes.
///
/// Print the JSON Schema of a file phasegate reads or writes: meta,
/// verdict, question, questions-config, review-cycles, implement-config,
/// routing-config, ideation, knowledge-item, context-config, retro-reply,
/// retro, evidence, verify-config, cost-config, or a pipeline file kind
/// (worker-signal, user-story, plan-refined, review, impl-result,
/// loop-state, config, state). Workers read it to know the exact shape to
/// write. Exit 2 for an unknown name (the valid ones are listed).
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Which file.
    name: String,
}

pub fn cmd_schema(args: SchemaArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let schema = Schema::named(&args.name)
        .ok_or_else(|| OpError::from(Invalid::UnknownSchema { name: args.name.clone(), known: Schema::names() }))?;
    ctx.out.line(schema.text().trim_end())?;
    Ok(ExitStatus::Success)
}
