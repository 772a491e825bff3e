//! `workflow-state cost`: every session's transcripts read (incrementally,
//! through the store's cache) and each request attributed to its feature,
//! phase, task and agent, then priced.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use phasegate_core::Phase;
use phasegate_core::cost::{
    Attributor, FeatureCost, MAIN_AGENT, PRICES_AS_OF, Place, Price, Request, SessionLog, Span, Tally, Windows, priced,
};
use phasegate_core::feature::{Meta, Workflow};
use phasegate_core::pipeline::{PipelineRun, State};
use phasegate_core::session::SessionId;
use phasegate_store::cost::{Transcript, Unread, agent_transcripts, find_transcript};
use phasegate_store::{Feature, Listed, Project};
use serde::Serialize;

use crate::env::Env;
use crate::error::OpResult;
use crate::session;

/// What the repository's features cost.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Costs {
    pub features: Vec<FeatureCost>,
    /// Every feature's and what belongs to none.
    pub total: Tally,
    /// Requests of known sessions before their first turn to a feature.
    pub unattributed: Tally,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unpriced: Vec<String>,
    /// Transcripts or lines that could not be read: named, skipped.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
    /// When the default prices were read.
    pub prices_as_of: &'static str,
}

impl Costs {
    pub fn feature(&self, name: &str) -> Option<&FeatureCost> {
        self.features.iter().find(|f| f.feature == name)
    }
}

/// A feature's windows: each phase's spans (a pipeline's: each state's,
/// from its history) and each task's.
pub fn windows(feature: &Feature, meta: &Meta) -> Windows {
    let mut w = Windows::default();
    match meta.workflow {
        Workflow::Phased => {
            for phase in Phase::ALL {
                if let Some(r) = meta.record(phase) {
                    for span in r.windows_so_far() {
                        w.phases.push((phase.name().to_owned(), span));
                    }
                }
            }
            if let Ok(cycles) = feature.read_review_cycles() {
                for s in cycles.sessions.values() {
                    let b = &s.build;
                    for (task, start) in &b.started {
                        match b.windows.get(task) {
                            Some(spans) => w.tasks.extend(spans.iter().map(|sp| (task.clone(), *sp))),
                            None => {
                                w.tasks.push((task.clone(), Span { start: *start, end: b.ended.get(task).copied() }))
                            }
                        }
                    }
                }
            }
        }
        Workflow::Pipeline => {
            if let Ok(Some(run)) = feature.read_owned_task::<PipelineRun>() {
                w.phases = pipeline_spans(&run);
            }
        }
    }
    w
}

/// A pipeline's states as spans, from its history.
fn pipeline_spans(run: &PipelineRun) -> Vec<(String, Span)> {
    let mut out: Vec<(String, Span)> = Vec::new();
    let mut at = run.created_at;
    let mut state = run.history.first().map_or(run.state, |s| s.from);
    for step in &run.history {
        out.push((state.name().to_owned(), Span { start: at, end: Some(step.at) }));
        at = step.at;
        state = step.to;
    }
    let end = matches!(run.state, State::Complete).then_some(at);
    out.push((state.name().to_owned(), Span { start: at, end }));
    out
}

/// The order a feature's phases are shown in.
fn phase_order() -> Vec<&'static str> {
    let mut order: Vec<&'static str> = Phase::ALL.iter().map(|p| p.name()).collect();
    order.extend(State::ALL.iter().map(|s| s.name()));
    order
}

/// Reads every session's transcripts and attributes them (`only`: count
/// only that feature's requests; nothing of another's is priced).
pub fn collect(project: &Project, env: &Env, only: Option<&str>) -> OpResult<Costs> {
    let prices = project.cost_config()?.prices();
    let listed = project.list()?;
    let mut attributor = Attributor::default();
    let mut features: BTreeMap<String, FeatureCost> = BTreeMap::new();
    for Listed { feature, meta } in &listed {
        let Ok(meta) = meta else { continue };
        attributor.windows.insert(feature.name().to_owned(), windows(feature, meta));
        if only.is_none_or(|o| o == feature.name()) {
            features.insert(feature.name().to_owned(), FeatureCost::new(feature.name()));
        }
    }
    let (logs, bad) = project.cost_sessions()?;
    let mut problems: Vec<String> = bad.into_iter().map(|b| format!("a session log cannot be read: {b}")).collect();
    for (session, log) in &logs {
        attributor.turns.insert(session.clone(), log.turns.clone());
        for (tool_use, task) in &log.agent_tasks {
            attributor.agent_tasks.insert(tool_use.clone(), task.clone());
        }
    }
    let claude = env.claude_dir.clone();
    let mut unattributed = Tally::default();
    let mut unpriced = Vec::new();
    for (session, log) in &logs {
        let Some(main) = transcript_of(session, log, claude.as_deref()) else {
            if !log.turns.is_empty() {
                problems.push(format!("session {}: its transcript was not found", short(session)));
            }
            continue;
        };
        let Some(allowed) = claude.as_deref() else {
            problems.push("no HOME (nor CLAUDE_CONFIG_DIR): Claude Code's transcripts cannot be found".to_owned());
            break;
        };
        let mut reads: Vec<(Option<String>, Option<String>, PathBuf)> = vec![(None, None, main.clone())];
        for a in agent_transcripts(&main) {
            reads.push((Some(a.agent_type.unwrap_or_else(|| "sub-agent".to_owned())), a.tool_use, a.path));
        }
        for (agent, tool_use, path) in reads {
            let Transcript { messages, bad_lines } = match project.read_transcript(&path, allowed) {
                Ok(t) => t,
                // A sub-agent's gone with its session; a session that never
                // turned to a feature counts for none (and may have made no
                // request, so Claude Code wrote no transcript).
                Err(Unread::Missing) if agent.is_some() || log.turns.is_empty() => continue,
                Err(why) => {
                    problems.push(format!("session {}: {} is not read: {why}", short(session), path.display()));
                    continue;
                }
            };
            if bad_lines > 0 {
                problems.push(format!("{}: {bad_lines} line(s) that are not JSON were skipped", path.display()));
            }
            for m in messages {
                match attributor.place(session, m.at, tool_use.as_deref()) {
                    Place::Unattributed => unattributed += priced(m.usage, &m.model, &prices, &mut unpriced),
                    Place::Feature { feature, phase, task } => {
                        let Some(c) = features.get_mut(&feature) else { continue };
                        let request = Request {
                            phase: phase.as_deref(),
                            task: task.as_deref(),
                            agent: agent.as_deref().unwrap_or(MAIN_AGENT),
                            model: &m.model,
                            session,
                            usage: m.usage,
                        };
                        c.add(&request, &prices);
                    }
                }
            }
        }
    }
    let order = phase_order();
    let mut total = unattributed;
    let mut out = Vec::new();
    for (_, mut c) in features {
        c.phases.sort_by_order(&order);
        // Rows in an order that does not depend on the transcripts'
        // (sub-agents' files are named by random ids).
        c.agents.sort_by_name(MAIN_AGENT);
        c.tasks.sort_by_name("");
        c.models.sort_by_name("");
        total += c.total;
        for m in &c.unpriced {
            if !unpriced.contains(m) {
                unpriced.push(m.clone());
            }
        }
        out.push(c);
    }
    Ok(Costs { features: out, total, unattributed, unpriced, problems, prices_as_of: PRICES_AS_OF })
}

/// The session's transcript: where a hook saw it, else where Claude Code
/// keeps it.
fn transcript_of(session: &str, log: &SessionLog, claude: Option<&Path>) -> Option<PathBuf> {
    if let Some(t) = &log.transcript {
        return Some(PathBuf::from(t));
    }
    find_transcript(claude?, &SessionId::parse(session).ok()?)
}

fn short(session: &str) -> String {
    session.chars().take(8).collect()
}

/// `workflow-state cost`: one feature's, or every feature's and the total.
pub fn cost(env: &Env, given: Option<&str>) -> OpResult<Costs> {
    match given {
        Some(_) => {
            let (project, feature) = session::resolve(env, given)?;
            collect(&project, env, Some(feature.name()))
        }
        None => collect(&session::project(env)?, env, None),
    }
}

/// The prices a cost was counted with.
pub fn prices(project: &Project) -> OpResult<BTreeMap<String, Price>> {
    Ok(project.cost_config()?.prices())
}
