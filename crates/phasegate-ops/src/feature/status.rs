//! Where every feature stands, and the suggested next command.

use phasegate_core::feature::{Meta, PhaseState};
use phasegate_core::feature::{Next, next_step};
use phasegate_store::Listed;
use serde::Serialize;

use crate::env::Env;
use crate::error::OpResult;
use crate::questions::ask;
use crate::session;

/// One feature in `status`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub name: String,
    pub dir: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub partial: Vec<String>,
    /// Phases whose loop ended at the cap with concerns still open.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub open_concerns: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
    /// The question the feature is suspended on (its id).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suspended: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Row {
    /// The phase column: the current phase, marked when partial.
    pub fn phase_text(&self) -> String {
        let Some(meta) = &self.meta else { return "-".into() };
        match meta.current_phase {
            None => "-".to_owned(),
            Some(p) => match meta.phase_state(p) {
                PhaseState::Partial => {
                    let it = meta.record(p).map_or(0, |r| r.iterations);
                    format!("{p} (partial, {it}/{} iterations)", meta.mode.max_iterations())
                }
                PhaseState::Completed if !self.open_concerns.is_empty() => format!("{p} (open concerns)"),
                PhaseState::Completed | PhaseState::NotStarted => p.to_string(),
            },
        }
    }
}

/// Every feature; refreshes the index of active features.
pub fn status(env: &Env) -> OpResult<(String, Vec<Row>)> {
    let project = session::project(env)?;
    let (markers, bad) = project.markers()?;
    let mut rows: Vec<Row> = project.list()?.into_iter().map(row).collect();
    for r in &mut rows {
        if let Some(b) = bad.iter().find(|b| b.feature() == Some(r.name.as_str())) {
            r.next = None;
            r.error.get_or_insert_with(|| format!("{} (its suspension marker; fix or remove it)", b.error));
            continue;
        }
        if let Some(m) = markers.iter().find(|m| m.question.slug == r.name && m.question.answer.is_none()) {
            r.suspended = Some(m.question.id.clone());
            r.next = Some(format!("/phasegate:answer {}", m.question.id));
        }
    }
    let dir = phasegate_store::fs::relative(&project.features_dir(), &env.cwd).display().to_string();
    Ok((dir, rows))
}

/// What interrupted `feature new` runs left: a creation the next one takes
/// back, or a branch and worktree kept because they hold the user's work.
pub fn interrupted(env: &Env) -> OpResult<Vec<String>> {
    Ok(session::project(env)?.interrupted_creations())
}

fn row(l: Listed) -> Row {
    let name = l.feature.name().to_owned();
    let dir = l.feature.dir().display().to_string();
    match l.meta {
        Ok(meta) => Row {
            partial: meta.partial_phases().iter().map(|p| p.name().to_owned()).collect(),
            open_concerns: meta
                .open_concerns_before(phasegate_core::Phase::Finish)
                .iter()
                .flat_map(|c| c.concerns.iter().map(move |x| format!("({}) {x}", c.phase)))
                .collect(),
            next: next_step(&meta).command,
            meta: Some(meta),
            name,
            dir,
            suspended: None,
            error: None,
        },
        Err(e) => Row {
            name,
            dir,
            meta: None,
            partial: vec![],
            open_concerns: vec![],
            next: None,
            suspended: None,
            error: Some(e.to_string()),
        },
    }
}

/// The suggested next command; none while the feature is suspended.
pub fn next(env: &Env, given: Option<&str>) -> OpResult<Next> {
    let (project, feature) = session::resolve(env, given)?;
    let meta = feature.load()?;
    if let Some(q) = ask::suspended_on(&project, feature.name())? {
        return Ok(Next {
            phase: meta.current_phase,
            command: None,
            reason: format!(
                "{} is suspended until question {} is answered (`/phasegate:answer {} <answer>`); `/phasegate:auto` works on other features meanwhile",
                feature.name(),
                q.id,
                q.id
            ),
        });
    }
    Ok(next_step(&meta))
}
