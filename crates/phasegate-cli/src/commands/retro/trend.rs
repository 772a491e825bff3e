//! `workflow-state retro trend`.

use clap::Args;
use phasegate_ops::retro;

use crate::{CmdResult, Ctx, ExitStatus};

/// The metrics and cost of every feature with a retrospective.
///
/// Seed 004 §6.3's metrics (first_pass_success, gotcha_effectiveness,
/// build_duration_minutes) and the cost (cost_usd) of every feature with a
/// recorded retrospective, and each metric's trend over the last 5.
#[derive(Debug, Args)]
pub struct TrendArgs {
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

pub fn cmd_trend(a: TrendArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let (per_feature, lines) = retro::trend(&ctx.env)?;
    if a.json {
        ctx.out.json(&serde_json::json!({"features": per_feature, "trend": lines}))?;
        return Ok(ExitStatus::Success);
    }
    if per_feature.is_empty() {
        ctx.out.line("No retrospective recorded yet: `workflow-state retro record` writes one per feature.")?;
    }
    for (f, m) in &per_feature {
        ctx.out.line(format!(
            "{f}: first_pass_success {:.2}, gotcha_effectiveness {:.2}, build_duration_minutes {:.1}{}",
            m.first_pass_success,
            m.gotcha_effectiveness,
            m.build_duration_minutes,
            m.cost_usd.map(|c| format!(", cost_usd {c:.2}")).unwrap_or_default()
        ))?;
    }
    for l in &lines {
        if let (Some(c), Some(better)) = (l.change, l.improved) {
            ctx.out.line(format!(
                "{}: {c:+.2} over the last {} ({})",
                l.metric,
                l.values.len(),
                if better { "better" } else { "worse" }
            ))?;
        }
    }
    Ok(ExitStatus::Success)
}
