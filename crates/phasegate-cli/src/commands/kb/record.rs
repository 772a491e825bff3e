//! `workflow-state kb record`.

use clap::Args;
use phasegate_core::knowledge::{self, KnowledgeType};
use phasegate_ops::knowledge::base::{self, RecordInput};

use crate::{CmdResult, Ctx, ExitStatus};

/// Record a lesson (seed 004 §10.1).
///
/// It needs evidence (the failure output, or what shows it) and must say what
/// CLAUDE.md, the README and the file do not already say. A similar item with
/// higher or equal confidence is reinforced instead; a lower one is superseded.
/// Exit 1 when the lesson is not admitted (the reason says what to do), 2 for
/// bad input or a knowledge file that cannot be read.
#[derive(Debug, Args)]
pub struct RecordArgs {
    /// gotcha (a mistake to avoid), pattern (an approach that worked) or
    /// decision (a choice made on purpose).
    #[arg(long = "type", value_name = "TYPE")]
    item_type: KnowledgeType,
    /// The lesson.
    #[arg(long, value_name = "TEXT")]
    content: String,
    /// A file the lesson is about: its pattern is recorded (`*.sql`,
    /// `server/routes/*`).
    #[arg(long, value_name = "FILE", conflicts_with = "pattern")]
    path: Option<String>,
    /// The pattern itself: `*.ext`, `dir/*` or a path.
    #[arg(long, value_name = "PATTERN")]
    pattern: Option<String>,
    /// The action type it applies to (CREATE, UPDATE, …).
    #[arg(long, value_name = "TYPE")]
    action: Option<String>,
    /// Its topic (for patterns and decisions).
    #[arg(long, value_name = "TOPIC")]
    topic: Option<String>,
    /// 0.0 to 1.0 (default 0.7, seed 004 §10.2's discovery).
    #[arg(long, value_name = "N", value_parser = confidence, allow_hyphen_values = true)]
    confidence: Option<f64>,
    /// What shows it: the failure output, or how it was found.
    #[arg(long, value_name = "TEXT")]
    evidence: String,
    /// The feature it came from (default: the one resolved here).
    #[arg(long, value_name = "FEATURE")]
    feature: Option<String>,
    /// The task it came from.
    #[arg(long, value_name = "TASK")]
    task: Option<String>,
    /// The commit that shows it (default: HEAD).
    #[arg(long, value_name = "SHA")]
    commit: Option<String>,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

/// `--confidence`: a number from 0 to 1; anything else (NaN, `inf`, 1.5)
/// is a usage error, not a lesson refused.
fn confidence(text: &str) -> Result<f64, String> {
    let value: f64 =
        text.trim().parse().map_err(|_| "not a number: give a number from 0 to 1, such as 0.7".to_owned())?;
    if knowledge::valid_confidence(value) {
        Ok(value)
    } else {
        Err("outside 0 to 1: give a number from 0 to 1, such as 0.7".to_owned())
    }
}

pub fn cmd_record(a: RecordArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let r = base::record(
        &ctx.env,
        RecordInput {
            item_type: a.item_type,
            content: a.content,
            path: a.path,
            pattern: a.pattern,
            action: a.action,
            topic: a.topic,
            confidence: a.confidence,
            evidence: a.evidence,
            feature: a.feature,
            task: a.task,
            commit: a.commit,
        },
    )?;
    if a.json {
        ctx.out.json(&r)?;
    } else {
        ctx.out.line(r.message.to_string())?;
    }
    Ok(ExitStatus::Success)
}
