//! `workflow-state status`: every feature, as a table or JSON.

use clap::Args;
use phasegate_core::guide;
use phasegate_core::meta::{Meta, PhaseState};
use phasegate_store::Listed;
use serde::Serialize;

use crate::context::Ctx;
use crate::error::CliResult;
use crate::exit::ExitStatus;

/// Show all features: phase, partial phases, next command. A feature whose
/// .meta.json cannot be read is listed with the error.
#[derive(Debug, Args)]
pub struct StatusArgs {
    /// JSON for scripts: an array with one object per feature.
    #[arg(long)]
    json: bool,
    /// Exit 2 when any feature's .meta.json cannot be read (for CI).
    #[arg(long)]
    strict: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Row {
    name: String,
    dir: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    meta: Option<Meta>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    partial: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

pub fn run(args: StatusArgs, ctx: &mut Ctx<'_>) -> CliResult {
    let project = ctx.project()?;
    let listed = project.list()?;
    let broken = listed.iter().filter(|l| l.meta.is_err()).count();
    let rows: Vec<Row> = listed.into_iter().map(row).collect();
    if args.json {
        ctx.json_pretty(&rows)?;
    } else if rows.is_empty() {
        ctx.line(format!(
            "No features in {}. Create one with `workflow-state feature new <slug>`.",
            ctx.show_path(&project.features_dir())
        ))?;
    } else {
        let table: Vec<[String; 5]> = rows.iter().map(table_row).collect();
        let header = ["FEATURE", "MODE", "STATUS", "PHASE", "NEXT"].map(String::from);
        let mut widths = [0usize; 5];
        for r in std::iter::once(&header).chain(&table) {
            for (w, cell) in widths.iter_mut().zip(r) {
                *w = (*w).max(cell.chars().count());
            }
        }
        for r in std::iter::once(&header).chain(&table) {
            let line: Vec<String> = r.iter().zip(widths).map(|(c, w)| format!("{c:<w$}")).collect();
            ctx.line(line.join("  ").trim_end())?;
        }
        for r in rows.iter().filter(|r| r.error.is_some()) {
            ctx.line(format!("error: {}", r.error.as_deref().unwrap_or_default()))?;
        }
    }
    Ok(if args.strict && broken > 0 { ExitStatus::Error } else { ExitStatus::Success })
}

fn row(l: Listed) -> Row {
    let name = l.feature.name().to_owned();
    let dir = l.feature.dir().display().to_string();
    match l.meta {
        Ok(meta) => Row {
            partial: meta.partial_phases().iter().map(|p| p.name().to_owned()).collect(),
            next: guide::next(&meta).command,
            meta: Some(meta),
            name,
            dir,
            error: None,
        },
        Err(e) => Row { name, dir, meta: None, partial: vec![], next: None, error: Some(e.to_string()) },
    }
}

fn table_row(r: &Row) -> [String; 5] {
    let Some(meta) = &r.meta else {
        return [r.name.clone(), "-".into(), "unreadable".into(), "-".into(), "-".into()];
    };
    let phase = match meta.current_phase {
        None => "-".to_owned(),
        Some(p) => match meta.phase_state(p) {
            PhaseState::Partial => {
                let it = meta.record(p).map_or(0, |r| r.iterations);
                format!("{p} (partial, {it}/{} iterations)", meta.mode.max_iterations())
            }
            PhaseState::Completed | PhaseState::NotStarted => p.to_string(),
        },
    };
    [
        r.name.clone(),
        meta.mode.to_string(),
        meta.status.to_string(),
        phase,
        r.next.clone().unwrap_or_else(|| "-".into()),
    ]
}
