//! `workflow-state status`: every feature, as a table or JSON.

use clap::Args;
use phasegate_core::feature::ProofStanding;
use phasegate_ops::feature::status::{self, Row};

use crate::{CmdResult, Ctx, ExitStatus};

/// Show every feature: phase, proof, cost so far, next command.
///
/// Show all features: phase, partial phases, open concerns, proof (how many
/// requirements are proven at the tree as it is), cost so far (USD, from
/// the sessions' transcripts), next command. A
/// feature whose .meta.json cannot be read is listed with the error. Also
/// refreshes the index of active features the SessionStart hook reads.
#[derive(Debug, Args)]
pub struct StatusArgs {
    /// JSON for scripts: an array with one object per feature.
    #[arg(long)]
    json: bool,
    /// Exit 2 when any feature's .meta.json cannot be read (for CI).
    #[arg(long)]
    strict: bool,
}

pub fn cmd_status(args: StatusArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let (features_dir, rows) = status::status(&ctx.env)?;
    let broken = rows.iter().filter(|r| r.error.is_some()).count();
    if args.json {
        ctx.out.json_pretty(&rows)?;
    } else if rows.is_empty() {
        ctx.out.line(format!(
            "No features in {features_dir}. Create one with `workflow-state feature new <slug or description>`."
        ))?;
    } else {
        let table: Vec<[String; 7]> = rows.iter().map(table_row).collect();
        let header = ["FEATURE", "MODE", "STATUS", "PHASE", "PROOF", "COST", "NEXT"].map(String::from);
        let mut widths = [0usize; 7];
        for r in std::iter::once(&header).chain(&table) {
            for (w, cell) in widths.iter_mut().zip(r) {
                *w = (*w).max(cell.chars().count());
            }
        }
        for r in std::iter::once(&header).chain(&table) {
            let line: Vec<String> = r.iter().zip(widths).map(|(c, w)| format!("{c:<w$}")).collect();
            ctx.out.line(line.join("  ").trim_end())?;
        }
        for r in &rows {
            for c in &r.open_concerns {
                ctx.out.line(format!("open concern in {}: {c}", r.name))?;
            }
        }
        for r in rows.iter().filter(|r| r.proof.as_ref().is_some_and(|p| !p.proven)) {
            let p = r.proof.as_ref().expect("filtered");
            match p.standing {
                ProofStanding::Stale => {
                    ctx.out.line(format!("proof of {}: stale: run `{}` ({})", r.name, p.command, p.summary))?
                }
                ProofStanding::Proven | ProofStanding::NotProven => ctx.out.line(format!(
                    "proof of {}: {} (`workflow-state verify status --feature {}`)",
                    r.name, p.summary, r.name
                ))?,
            }
        }
        for r in &rows {
            if let Some(t) = &r.tampered {
                ctx.out.line(format!("tampered: {}: {t}", r.name))?;
            }
        }
        for r in rows.iter().filter(|r| r.error.is_some()) {
            ctx.out.line(format!("error: {}", r.error.as_deref().unwrap_or_default()))?;
        }
    }
    if !args.json {
        for line in status::interrupted(&ctx.env)? {
            ctx.out.line(format!("interrupted: {line}"))?;
        }
        for line in phasegate_ops::interrupt::standing(&ctx.env)? {
            ctx.out.line(format!("paused: {line}"))?;
        }
        if let Some(line) = phasegate_ops::interrupt::runner(&ctx.env) {
            ctx.out.line(line)?;
        }
    }
    if !args.json {
        // Teammates' claims as the last `team sync` (or start) saw them.
        match phasegate_ops::coordination::team::seen_claims(&ctx.env) {
            Ok(claims) => {
                for c in &claims {
                    ctx.out.line(claim_line(c))?;
                }
            }
            Err(e) => ctx.out.line(format!("team: the claims seen last cannot be read: {e}"))?,
        }
    }
    if !args.json
        && let Some(line) = phasegate_ops::oversight::view::summary(&ctx.env)
    {
        ctx.out.line(line)?;
    }
    Ok(if args.strict && broken > 0 { ExitStatus::Error } else { ExitStatus::Success })
}

fn table_row(r: &Row) -> [String; 7] {
    let Some(meta) = &r.meta else {
        return [r.name.clone(), "-".into(), "unreadable".into(), "-".into(), "-".into(), "-".into(), "-".into()];
    };
    [
        r.name.clone(),
        meta.mode.to_string(),
        if r.suspended.is_some() { "suspended".to_owned() } else { meta.status.to_string() },
        r.phase_text(),
        r.proof.as_ref().map_or_else(|| "-".to_owned(), |p| p.short.clone()),
        r.cost_usd.map_or_else(|| "-".to_owned(), |c| format!("${c:.2}")),
        r.next.as_ref().map_or_else(|| "-".into(), |c| c.to_string()),
    ]
}

/// A claim on the team's remote: `claimed: T1 of 001-x by Bob <b@x> on
/// laptop (session 1a2b3c4d), until 2026-11-28 10:31 UTC`.
pub(crate) fn claim_line(c: &phasegate_ops::coordination::team::SeenClaim) -> String {
    let what = phasegate_core::coordination::Claimed::of(&c.task);
    let whose = match (c.ours, c.expired, what) {
        (true, _, _) => " (this clone)",
        (false, true, phasegate_core::coordination::Claimed::Task(_)) => " (expired: `tasks start` takes it over)",
        (false, true, phasegate_core::coordination::Claimed::Phase(_)) => " (expired: `phase start` takes it over)",
        (false, false, _) => "",
    };
    format!(
        "claimed: {} of {} by {}{whose}, until {}",
        what.describe(),
        c.feature,
        c.holder,
        c.expires.format("%Y-%m-%d %H:%M UTC")
    )
}
