//! `workflow-state report`: what the page shows, gathered in one read of
//! the repository (the features and their proof, what each cost by phase,
//! the retrospectives' trends, the sessions, leases and questions now),
//! and where the page is written. The page itself is drawn by the CLI.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use phasegate_core::Phase;
use phasegate_core::feature::Status;
use phasegate_core::knowledge::Metrics;
use phasegate_store::StoreError;
use serde::Serialize;

use super::view::{self, Overview};
use crate::cost::{self, Costs};
use crate::env::Env;
use crate::error::{OpResult, Refusal};
use crate::feature::status::{self, Row};
use crate::retro;
use crate::session;

/// How every report begins, byte for byte, its generator line last: a file
/// at `--out` is replaced only when it begins so (it is an earlier report),
/// not when it merely mentions that line somewhere (a page about phasegate,
/// notes quoting it).
pub const HEAD: &str = concat!(
    "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
    r#"<meta name="generator" content="phasegate report">"#,
    "\n"
);

/// Whether `text` is a report phasegate wrote: it begins with [`HEAD`].
pub fn is_report(text: &str) -> bool {
    text.starts_with(HEAD)
}

/// How many finished features the board shows (the latest).
pub const DONE_SHOWN: usize = 8;

/// How many recorded retrospectives the trend charts show (the latest).
pub const TREND_SHOWN: usize = 12;

/// Where a feature stands on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Column {
    /// A phased feature at this phase (a new one, before its first phase,
    /// is at the first).
    Phase(Phase),
    /// A pipeline feature, at any of its states.
    Pipeline,
    /// Finished.
    Done,
}

impl Column {
    /// Every column, left to right.
    pub fn all() -> Vec<Column> {
        let mut all: Vec<Column> = Phase::ALL.iter().map(|p| Column::Phase(*p)).collect();
        all.extend([Column::Pipeline, Column::Done]);
        all
    }

    pub fn title(self) -> String {
        match self {
            Column::Phase(p) => p.to_string(),
            Column::Pipeline => "pipeline".to_owned(),
            Column::Done => "done".to_owned(),
        }
    }
}

/// A feature on the board.
#[derive(Debug, Clone)]
pub struct Card {
    pub column: Column,
    pub row: Row,
}

/// Everything the page shows.
#[derive(Debug, Clone)]
pub struct Report {
    pub now: DateTime<Utc>,
    /// The repository's folder name.
    pub project: String,
    /// Active features and the latest finished ones, by column.
    pub cards: Vec<Card>,
    /// Features that could not be read, with why.
    pub unreadable: Vec<Row>,
    /// Finished features left off the board, and abandoned ones.
    pub finished_hidden: usize,
    pub abandoned: usize,
    pub costs: Costs,
    /// The latest recorded retrospectives' metrics, oldest first.
    pub trend: Vec<(String, Metrics)>,
    pub overview: Overview,
}

/// Gathers the page's contents. Writes nothing but what `status` refreshes
/// (the index of active features, the transcripts' read cache).
pub fn gather(env: &Env) -> OpResult<Report> {
    let project = session::project(env)?;
    let (_, rows, costs) = status::status_and_costs(env)?;
    let costs = match costs {
        Some(c) => c,
        None => cost::collect(&project, env, None)?,
    };
    let (mut trend, _) = retro::trend(env)?;
    trend.drain(..trend.len().saturating_sub(TREND_SHOWN));
    let overview = view::overview(env)?;

    let mut cards = Vec::new();
    let mut unreadable = Vec::new();
    let mut done = Vec::new();
    let mut abandoned = 0;
    for row in rows {
        let Some(meta) = &row.meta else {
            unreadable.push(row);
            continue;
        };
        match meta.status {
            Status::Abandoned => abandoned += 1,
            Status::Completed => done.push(row),
            Status::Active => {
                let column = match (meta.current_phase, row.pipeline) {
                    (Some(p), _) => Column::Phase(p),
                    (None, Some(_)) => Column::Pipeline,
                    (None, None) => Column::Phase(Phase::ALL[0]),
                };
                cards.push(Card { column, row });
            }
        }
    }
    // The latest finished: by when they finished, else by their number.
    done.sort_by_key(|r| (r.meta.as_ref().and_then(|m| m.completed), r.name.clone()));
    let finished_hidden = done.len().saturating_sub(DONE_SHOWN);
    // A finished feature's proof is what `finish` accepted: its ledger at
    // the tree its checks ran on (the code has moved on since).
    cards.extend(done.into_iter().skip(finished_hidden).rev().map(|mut row| {
        row.proof = status::finished_proof(env, &project, &row.name);
        Card { column: Column::Done, row }
    }));
    let project_name = project.root().file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    Ok(Report {
        now: env.now,
        project: project_name,
        cards,
        unreadable,
        finished_hidden,
        abandoned,
        costs,
        trend,
        overview,
    })
}

/// The report's default place: phasegate's runtime folder in the git
/// directory, out of the working tree.
pub fn default_out(env: &Env) -> OpResult<PathBuf> {
    Ok(session::project(env)?.runtime_dir().join("report.html"))
}

/// Writes the page to `out` (relative to the working directory; None: the
/// default place, created when missing), atomically. A file already there
/// is replaced only when it is an earlier report ([`is_report`]); a link or anything that
/// is not a regular file is never written through.
pub fn write(env: &Env, out: Option<&Path>, html: &str) -> OpResult<PathBuf> {
    let path = match out {
        Some(out) => env.cwd.join(out),
        None => default_out(env)?,
    };
    match phasegate_store::files::read_optional_up_to(&path, 64 << 20) {
        Ok(None) => {}
        Ok(Some(text)) if is_report(&text) => {}
        Ok(Some(_)) | Err(StoreError::TooLarge { .. } | StoreError::Corrupt { .. }) => {
            return Err(Refusal::NotAReport { path: path.display().to_string() }.into());
        }
        Err(e) => return Err(e.into()),
    }
    // Made with its folder when there is none yet.
    phasegate_store::files::write_whole(&path, html)?;
    Ok(path)
}
