//! `workflow-state cost`.

use clap::Args;
use phasegate_core::cost::{FeatureCost, Keyed, Tally};
use phasegate_ops::cost;

use crate::commands::FeatureArg;
use crate::{CmdResult, Ctx, ExitStatus};

/// What a feature cost, phase by phase, from Claude Code's transcripts.
///
/// What a feature cost, phase by phase: the usage Claude Code recorded in
/// the transcripts of the sessions that worked on it (sub-agents' too),
/// each request counted once and attributed to the phase whose window holds
/// it (a pipeline's: its state), inside implement to the task in progress,
/// and to the agent that made it; what falls outside every window is shown
/// as such. Priced in USD from the default table or
/// `.phasegate/cost.config.json`; a model with no price is counted in
/// tokens and named. Without `--feature`: every feature and the
/// repository's total. A transcript that cannot be read is named and
/// skipped. Exit codes: 0 shown, 2 a cost configuration it cannot read.
#[derive(Debug, Args)]
pub struct CostArgs {
    #[command(flatten)]
    feature: FeatureArg,
    /// JSON: with `--feature`, `{"feature", "total": {"input", "output",
    /// "cacheRead", "cacheWrite", "usd"}, "phases": {...}, "tasks": {...},
    /// "agents": {...}, "outside", ...}`; without, `{"features": [...],
    /// "total", "unattributed", ...}`.
    #[arg(long)]
    json: bool,
}

pub fn cmd_cost(a: CostArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let costs = cost::cost(&ctx.env, a.feature.get())?;
    match (a.feature.get().is_some(), a.json) {
        (true, true) => ctx.out.json(&costs.features.first())?,
        (false, true) => ctx.out.json(&costs)?,
        (_, false) => {
            for f in &costs.features {
                for line in lines(f) {
                    ctx.out.line(line)?;
                }
            }
            if a.feature.get().is_none() {
                ctx.out.line(format!(
                    "repository: {} (of it {} before any session turned to a feature)",
                    money(&costs.total),
                    money(&costs.unattributed)
                ))?;
            }
            if !costs.unpriced.is_empty() {
                ctx.out.line(format!(
                    "unpriced models (counted in tokens only; price them in .phasegate/cost.config.json): {}",
                    costs.unpriced.join(", ")
                ))?;
            }
            for p in &costs.problems {
                ctx.out.line(format!("skipped: {p}"))?;
            }
            ctx.out.line(format!(
                "prices: phasegate's table as of {}, and .phasegate/cost.config.json",
                costs.prices_as_of
            ))?;
        }
    }
    Ok(ExitStatus::Success)
}

fn money(t: &Tally) -> String {
    format!("${:.2}", t.usd)
}

fn tokens(t: &Tally) -> String {
    let u = &t.usage;
    format!("in {} · out {} · cache read {} · cache write {} tokens", u.input, u.output, u.cache_read, u.cache_write)
}

fn row(k: &Keyed) -> String {
    k.0.iter().map(|(name, t)| format!("{name} {}", money(t))).collect::<Vec<_>>().join(" · ")
}

fn lines(f: &FeatureCost) -> Vec<String> {
    let mut out = vec![format!("{}: {} ({})", f.feature, money(&f.total), tokens(&f.total))];
    if !f.phases.0.is_empty() || f.outside.usage.tokens() > 0 {
        let mut phases = row(&f.phases);
        if f.outside.usage.tokens() > 0 {
            phases.push_str(&format!(
                "{}outside the phases {}",
                if phases.is_empty() { "" } else { " · " },
                money(&f.outside)
            ));
        }
        out.push(format!("  phases: {phases}"));
    }
    if !f.tasks.0.is_empty() {
        out.push(format!("  tasks: {}", row(&f.tasks)));
    }
    if !f.agents.0.is_empty() {
        out.push(format!("  agents: {}", row(&f.agents)));
    }
    out
}
