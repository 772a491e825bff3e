//! Where every feature stands, and the suggested next command.

use phasegate_core::cost::round_usd;
use phasegate_core::feature::{Meta, PhaseState, Workflow};
use phasegate_core::feature::{Next, ProofStanding, Suggested, before_finish, next_step};
use phasegate_core::pipeline::{PipelineRun, State};
use phasegate_core::proof::ProofStatus;
use phasegate_store::Listed;
use serde::Serialize;

use crate::coordination::effects::Effects;
use crate::cost;
use crate::env::Env;
use crate::error::OpResult;
use crate::proof;
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
    pub next: Option<Suggested>,
    /// A pipeline feature's state (`plan_drafting`, `implementing_loop`…).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pipeline: Option<State>,
    /// The question the feature is suspended on (its id).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suspended: Option<String>,
    /// Where its proof stands at the tree as it is (an active feature that
    /// ran `verify run`, or is implementing or verifying).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<ProofRow>,
    /// What an active feature cost so far (USD; its transcripts priced).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
    /// Its state files changed outside phasegate's commands, until a person
    /// clears the marks (one line; `tamper list` has them all).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tampered: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Row {
    /// The phase column: the current phase, marked when partial.
    pub fn phase_text(&self) -> String {
        let Some(meta) = &self.meta else { return "-".into() };
        match meta.current_phase {
            None => self.pipeline.map_or_else(|| "-".to_owned(), |s| format!("pipeline: {s}")),
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

/// A feature's proof as `status` shows it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProofRow {
    /// `3/4 proven, 1 waived (stale: …)`.
    pub summary: String,
    /// `3/4`, `3/4 stale`, `not run`: the table's column.
    pub short: String,
    pub proven: bool,
    pub stale: bool,
    /// Proven, stale (running the checks again is all it takes), or not.
    #[serde(skip)]
    pub standing: ProofStanding,
    /// What brings it up to date, or shows it.
    pub command: String,
    /// Each requirement as the last run left it (the report lists them).
    #[serde(skip)]
    pub requirements: Vec<RequirementRow>,
}

/// A requirement of the ledger: its id, text and status at the last run.
#[derive(Debug, Clone)]
pub struct RequirementRow {
    pub id: String,
    pub text: String,
    pub status: ProofStatus,
}

/// Every feature; refreshes the index of active features.
pub fn status(env: &Env) -> OpResult<(String, Vec<Row>)> {
    let (dir, rows, _) = status_and_costs(env)?;
    Ok((dir, rows))
}

/// [`status`], and what every feature cost (None when the transcripts could
/// not be read at all): one read of them serves both.
pub(crate) fn status_and_costs(env: &Env) -> OpResult<(String, Vec<Row>, Option<cost::Costs>)> {
    let project = session::project(env)?;
    let (markers, bad) = project.questions().markers()?;
    let listed = project.list()?;
    let proofs: Vec<Option<ProofRow>> = listed.iter().map(|l| proof_row(env, &project, l)).collect();
    let tampered: Vec<Option<String>> = listed
        .iter()
        .map(|l| crate::proof::tamper::summary(l.feature.name(), &crate::proof::tamper::standing(&l.feature, env.now)))
        .collect();
    let mut rows: Vec<Row> = listed.into_iter().map(row).collect();
    for ((r, p), t) in rows.iter_mut().zip(proofs).zip(tampered) {
        // Never a finish that would refuse for its proof.
        if let (Some(meta), Some(p)) = (&r.meta, &p) {
            r.next = before_finish(next_step(meta), &r.name, p.standing).command;
        }
        r.proof = p;
        r.tampered = t;
    }
    // One read of every transcript (through its cache) for every feature.
    let costs = cost::collect(&project, env, None).ok();
    if let Some(costs) = &costs {
        for r in rows.iter_mut().filter(|r| r.meta.as_ref().is_some_and(|m| m.status == phasegate_core::Status::Active))
        {
            r.cost_usd = costs.feature(&r.name).filter(|c| c.total.usage.tokens() > 0).map(|c| round_usd(c.total.usd));
        }
    }
    for r in &mut rows {
        if let Some(b) = bad.iter().find(|b| b.feature() == Some(r.name.as_str())) {
            r.next = None;
            r.error.get_or_insert_with(|| format!("{} (its suspension marker; fix or remove it)", b.error));
            continue;
        }
        if let Some(m) = markers.iter().find(|m| m.question.slug == r.name && m.question.answer.is_none()) {
            r.suspended = Some(m.question.id.clone());
            r.next = Some(Suggested::Answer(m.question.id.clone()));
        }
    }
    let dir = phasegate_store::files::relative(&project.features_dir(), &env.cwd).display().to_string();
    Ok((dir, rows, costs))
}

/// What interrupted `feature new` runs left: a creation the next one takes
/// back, or a branch and worktree kept because they hold the user's work.
pub fn interrupted(env: &Env) -> OpResult<Vec<String>> {
    Ok(session::project(env)?.interrupted_creations())
}

/// The proof of an active feature that has a ledger or is at implement or
/// later; a problem reading it is its summary.
fn proof_row(env: &Env, project: &phasegate_store::Project, l: &Listed) -> Option<ProofRow> {
    let meta = l.meta.as_ref().ok()?;
    let late = meta.current_phase.is_some_and(|p| p >= phasegate_core::Phase::Implement);
    let ran = l.feature.has_evidence();
    if meta.status != phasegate_core::Status::Active || !(late || ran) {
        return None;
    }
    Some(proof_row_of(proof::proof(env, project, &l.feature, meta)))
}

/// A finished feature's proof as it stood when it finished (its ledger at
/// the tree its checks ran on); None without a ledger.
pub fn finished_proof(env: &Env, project: &phasegate_store::Project, name: &str) -> Option<ProofRow> {
    let feature = project.find_feature(name).ok()??;
    let meta = feature.load().ok()?;
    if meta.status != phasegate_core::Status::Completed || !feature.has_evidence() {
        return None;
    }
    let mut row = proof_row_of(proof::at_finish(env, project, &feature, &meta));
    row.summary = format!("{} when it finished", row.summary);
    Some(row)
}

fn proof_row_of(p: OpResult<proof::Proof>) -> ProofRow {
    match p {
        Ok(p) => ProofRow {
            summary: p.summary(),
            short: p.short(),
            proven: p.proven(),
            stale: p.judgement.as_ref().is_some_and(|j| j.stale),
            standing: p.standing(),
            requirements: p
                .judgement
                .iter()
                .flat_map(|j| &j.statuses)
                .map(|r| RequirementRow { id: r.id.clone(), text: r.text.clone(), status: r.status })
                .collect(),
            command: p.command,
        },
        Err(e) => ProofRow {
            summary: e.to_string(),
            short: "unreadable".to_owned(),
            proven: false,
            stale: false,
            standing: ProofStanding::NotProven,
            command: String::new(),
            requirements: Vec::new(),
        },
    }
}

fn row(l: Listed) -> Row {
    let name = l.feature.name().to_owned();
    let dir = l.feature.dir().display().to_string();
    match l.meta {
        Ok(meta) => Row {
            pipeline: match meta.workflow {
                Workflow::Pipeline => l.feature.read_owned_task::<PipelineRun>().ok().flatten().map(|r| r.state),
                Workflow::Phased => None,
            },
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
            proof: None,
            cost_usd: None,
            tampered: None,
            error: None,
        },
        Err(e) => Row {
            name,
            dir,
            meta: None,
            partial: vec![],
            open_concerns: vec![],
            next: None,
            pipeline: None,
            suspended: None,
            proof: None,
            cost_usd: None,
            tampered: None,
            error: Some(e.to_string()),
        },
    }
}

/// The suggested next command; none while the feature is suspended.
pub fn next(env: &Env, given: Option<&str>) -> OpResult<Next> {
    let (project, feature) = session::find(env, given)?;
    let meta = feature.load()?;
    if let Some(q) = ask::suspended_on(&project, feature.name())? {
        Effects::of("next").turn_to(feature.name()).apply_to_log(&project, env);
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
    Effects::of("next").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(next_of(env, &project, &feature, &meta))
}

/// The feature's next step; finish only when its proof would not refuse
/// it (the tree is read only when finish is next).
pub fn next_of(env: &Env, project: &phasegate_store::Project, feature: &phasegate_store::Feature, meta: &Meta) -> Next {
    let next = next_step(meta);
    if next.phase != Some(phasegate_core::Phase::Finish) {
        return next;
    }
    let standing = proof::proof(env, project, feature, meta).map_or(ProofStanding::NotProven, |p| p.standing());
    before_finish(next, feature.name(), standing)
}
