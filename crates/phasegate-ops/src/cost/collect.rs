//! `workflow-state cost`: every session's transcripts read (incrementally,
//! through the store's cache) and each request attributed to its feature,
//! phase, task and agent, then priced.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use phasegate_core::Phase;
use phasegate_core::cost::{
    Attributor, FeatureCost, MAIN_AGENT, PRICES_AS_OF, Place, Price, Request, SessionLog, Span, Tally, Usage, Windows,
    find_price, priced,
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

/// One transcript to read: its session's, or a sub-agent's of it.
struct Read<'a> {
    session: &'a str,
    path: PathBuf,
    /// The sub-agent's type (None: the session's own).
    agent: Option<String>,
    /// The Agent tool call that spawned the sub-agent.
    tool_use: Option<String>,
    /// Whether its absence is worth naming: a sub-agent's is gone with its
    /// session, and a session that never turned to a feature counts for
    /// none (and may have made no request, so Claude Code wrote no
    /// transcript).
    named_if_missing: bool,
}

/// A message counted once: where it goes (an index of the places), and
/// which read found it.
struct Counted<'a> {
    read: usize,
    place: usize,
    model: &'a str,
    usage: Usage,
}

/// Reads every session's transcripts and attributes them (`only`: count
/// only that feature's requests; nothing of another's is priced).
///
/// A message is counted once over all the transcripts: a resumed or forked
/// session's transcript copies the messages before it (same message and
/// request id), and counting them again would trip budgets early. The copy
/// counted is the one attributed to a feature (the session at work then,
/// not the fork that copied it later), a sub-agent's before its session's,
/// else the first read; each count the largest any copy reports.
pub fn collect(project: &Project, env: &Env, only: Option<&str>) -> OpResult<Costs> {
    let prices = project.cost().config()?.prices();
    let listed = project.list()?;
    let mut windows_by_feature = BTreeMap::new();
    let mut features: BTreeMap<String, FeatureCost> = BTreeMap::new();
    for Listed { feature, meta } in &listed {
        let Ok(meta) = meta else { continue };
        windows_by_feature.insert(feature.name().to_owned(), windows(feature, meta));
        if only.is_none_or(|o| o == feature.name()) {
            features.insert(feature.name().to_owned(), FeatureCost::new(feature.name()));
        }
    }
    let (logs, bad) = project.cost().sessions()?;
    let mut problems: Vec<String> = bad.into_iter().map(|b| format!("a session log cannot be read: {b}")).collect();
    let attributor = Attributor::new(windows_by_feature, &logs);
    let claude = env.claude_dir.clone();
    let reads = reads_of(&logs, claude.as_deref(), &mut problems);
    let read = match claude.as_deref() {
        Some(allowed) => {
            project.cost().read_transcripts(&reads.iter().map(|r| r.path.clone()).collect::<Vec<_>>(), allowed)
        }
        None => {
            if !reads.is_empty() {
                problems.push("no HOME (nor CLAUDE_CONFIG_DIR): Claude Code's transcripts cannot be found".to_owned());
            }
            Vec::new()
        }
    };
    let (counted, places) = count_once(&reads, &read, &attributor, &mut problems);
    let prices = with_models_priced(prices, &counted);
    let mut unattributed = Tally::default();
    let mut unpriced = Vec::new();
    for c in &counted {
        let r = &reads[c.read];
        match &places[c.place] {
            Place::Unattributed => unattributed += priced(c.usage, c.model, &prices, &mut unpriced),
            Place::Feature { feature, phase, task } => {
                let Some(f) = features.get_mut(feature) else { continue };
                let request = Request {
                    phase: phase.as_deref(),
                    task: task.as_deref(),
                    agent: r.agent.as_deref().unwrap_or(MAIN_AGENT),
                    model: c.model,
                    session: r.session,
                    usage: c.usage,
                };
                f.add(&request, &prices);
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

/// Every session's transcripts to read, each followed by its sub-agents';
/// a session that turned to a feature and has none is a problem.
fn reads_of<'a>(
    logs: &'a BTreeMap<String, SessionLog>,
    claude: Option<&Path>,
    problems: &mut Vec<String>,
) -> Vec<Read<'a>> {
    let mut reads: Vec<Read<'_>> = Vec::new();
    for (session, log) in logs {
        let mains = transcripts_of(session, log, claude);
        if mains.is_empty() && !log.turns.is_empty() {
            problems.push(format!("session {}: its transcript was not found", short(session)));
        }
        for main in mains {
            let agents = agent_transcripts(&main);
            let named_if_missing = !log.turns.is_empty();
            reads.push(Read { session, path: main, agent: None, tool_use: None, named_if_missing });
            for a in agents {
                let agent = Some(a.agent_type.unwrap_or_else(|| "sub-agent".to_owned()));
                reads.push(Read { session, path: a.path, agent, tool_use: a.tool_use, named_if_missing: false });
            }
        }
    }
    reads
}

/// Every message of the transcripts read, counted once (see [`collect`]),
/// and the places they go to, each once (a message holds its index).
fn count_once<'a>(
    reads: &[Read<'_>],
    read: &'a [Result<Transcript, Unread>],
    attributor: &Attributor,
    problems: &mut Vec<String>,
) -> (Vec<Counted<'a>>, Vec<Place>) {
    let messages = read.iter().filter_map(|r| r.as_ref().ok()).map(|t| t.messages().len()).sum();
    let mut counted: Vec<Counted<'_>> = Vec::with_capacity(messages);
    let mut by_id: HashMap<&str, usize> = HashMap::with_capacity(messages);
    // The few places there are, each once (a message holds its index).
    let mut places: Vec<Place> = Vec::new();
    let mut place_index: HashMap<Place, usize> = HashMap::new();
    for (i, (r, result)) in reads.iter().zip(read).enumerate() {
        let transcript = match result {
            Ok(t) => t,
            Err(Unread::Missing) if !r.named_if_missing => continue,
            Err(why) => {
                problems.push(format!("session {}: {} is not read: {why}", short(r.session), r.path.display()));
                continue;
            }
        };
        if transcript.bad_lines > 0 {
            let bad = transcript.bad_lines;
            problems.push(format!("{}: {bad} line(s) that are not JSON were skipped", r.path.display()));
        }
        for m in transcript.messages() {
            let place =
                *place_index.entry(attributor.place(r.session, m.at, r.tool_use.as_deref())).or_insert_with_key(|p| {
                    places.push(p.clone());
                    places.len() - 1
                });
            let k = match by_id.entry(m.id) {
                Entry::Vacant(v) => {
                    v.insert(counted.len());
                    counted.push(Counted { read: i, place, model: m.model, usage: m.usage });
                    continue;
                }
                Entry::Occupied(o) => *o.get(),
            };
            let kept = &mut counted[k];
            let usage = kept.usage.max(m.usage);
            let attributed = |p: usize| !matches!(places[p], Place::Unattributed);
            let better = (attributed(place) && !attributed(kept.place))
                || (attributed(place) == attributed(kept.place)
                    && reads[kept.read].agent.is_none()
                    && r.agent.is_some());
            if better {
                *kept = Counted { read: i, place, model: m.model, usage };
            } else {
                kept.usage = usage;
            }
        }
    }
    (counted, places)
}

/// The price table with each counted model's price found once: every
/// request's is then one lookup.
fn with_models_priced(mut prices: BTreeMap<String, Price>, counted: &[Counted<'_>]) -> BTreeMap<String, Price> {
    let mut models: Vec<&str> = Vec::new();
    for c in counted {
        if models.last() != Some(&c.model) && !models.contains(&c.model) {
            models.push(c.model);
        }
    }
    for model in models {
        if let Some(p) = find_price(&prices, model).copied() {
            prices.entry(model.to_owned()).or_insert(p);
        }
    }
    prices
}

/// The session's transcripts: every one a hook saw (an id used again keeps
/// its earlier ones), else the one where Claude Code keeps it.
fn transcripts_of(session: &str, log: &SessionLog, claude: Option<&Path>) -> Vec<PathBuf> {
    let noted: Vec<PathBuf> = log.transcripts().map(PathBuf::from).collect();
    if !noted.is_empty() {
        return noted;
    }
    claude.and_then(|c| find_transcript(c, &SessionId::parse(session).ok()?)).into_iter().collect()
}

fn short(session: &str) -> String {
    session.chars().take(8).collect()
}

/// `workflow-state cost`: one feature's, or every feature's and the total.
pub fn cost(env: &Env, given: Option<&str>) -> OpResult<Costs> {
    match given {
        Some(_) => {
            let (project, feature) = session::find(env, given)?;
            collect(&project, env, Some(feature.name()))
        }
        None => collect(&session::project(env)?, env, None),
    }
}

/// The prices a cost was counted with.
pub fn prices(project: &Project) -> OpResult<BTreeMap<String, Price>> {
    Ok(project.cost().config()?.prices())
}
