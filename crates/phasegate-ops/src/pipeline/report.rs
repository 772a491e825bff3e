//! What a pipeline looks like: its status, its next action (the seed's
//! orchestrator), and the brief a command's `!` injection shows.

use phasegate_core::brief::{Brief, BriefKind, SectionKind};
use phasegate_core::pipeline::next::NextAction as Action;
use phasegate_core::pipeline::{Failure, Pause};
use phasegate_core::pipeline::{GateKind, LoopState, PipelineRun, State};
use serde::Serialize;
use serde_json::Value;

use super::{action, find, load_loop, load_run};
use crate::brief;
use crate::coordination::effects::Effects;
use crate::cost;
use crate::env::Env;
use crate::error::OpResult;
use crate::knowledge::inject;

/// What `pipeline status` prints.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Status {
    pub feature: String,
    pub state: State,
    pub request: String,
    pub owner: Option<String>,
    pub owned_by_this_session: bool,
    pub paused: Option<Pause>,
    pub failed: Option<Failure>,
    pub plan_review: Value,
    pub code_review: Value,
    #[serde(rename = "loop")]
    pub loop_state: Option<LoopState>,
    pub next: Action,
    #[serde(skip)]
    pub run: PipelineRun,
    #[serde(skip)]
    pub limits: [u32; 2],
}

pub fn status(env: &Env, given: Option<&str>) -> OpResult<Status> {
    let (project, feature) = find(env, given)?;
    let run = load_run(&feature)?;
    let loop_state = load_loop(&feature)?;
    let config = project.pipeline().config()?;
    let me = env.session(None).ok().flatten();
    let owned_by_this_session = me.is_some_and(|s| run.owned_by(s.as_str()));
    let limits = [config.autonomy.plan_review_loop_limit, config.autonomy.code_review_loop_limit];
    let gate = |kind: GateKind, limit: u32| {
        let g = run.gate(kind);
        serde_json::json!({"round": g.round, "loops": g.loops, "limit": limit, "passed": g.passed,
            "next": g.expected().map(|s| s.name()), "fixing": g.fixing, "results": g.results})
    };
    Effects::of("pipeline status").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(Status {
        feature: feature.name().to_owned(),
        state: run.state,
        request: run.request.clone(),
        owner: run.owner.as_ref().map(|o| o.session_id.clone()),
        owned_by_this_session,
        paused: run.paused.clone(),
        failed: run.failed.clone(),
        plan_review: gate(GateKind::Plan, limits[0]),
        code_review: gate(GateKind::Code, limits[1]),
        loop_state,
        next: action(&project, &run, &feature),
        run,
        limits,
    })
}

/// The next action of the pipeline.
/// What `pipeline next` prints: the next action, and the brief it is told
/// in (the state, the action, what comes then, and what other capabilities
/// add for the pipeline's work, packed under the brief's budget).
#[derive(Debug, Clone, Serialize)]
pub struct Next {
    #[serde(flatten)]
    pub action: Action,
    /// Sections other capabilities added (gotchas for the plan's files, …).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub context: Vec<String>,
    #[serde(skip)]
    pub text: String,
}

pub fn next(env: &Env, given: Option<&str>) -> OpResult<(String, PipelineRun, Next)> {
    let (project, feature) = find(env, given)?;
    let run = load_run(&feature)?;
    // Over its budget: the pipeline waits for a person (raise, or stop).
    if let Some(p) = cost::pause_if_over(&project, env, &feature, &feature.load()?)? {
        let action = Action {
            state: run.state,
            action: format!("WAIT: {} Stop here and tell the user.", p.message),
            then: Vec::new(),
        };
        let text =
            format!("[INFO] Current state: {} (feature {})\nACTION: {}\n", run.state, feature.name(), action.action);
        Effects::of("pipeline next").turn_to(feature.name()).apply_to_log(&project, env);
        return Ok((feature.name().to_owned(), run, Next { action, context: Vec::new(), text }));
    }
    let action = action(&project, &run, &feature);
    let mut brief = Brief::of(BriefKind::PipelineNext);
    brief.push("state", SectionKind::Task, format!("[INFO] Current state: {} (feature {})", run.state, feature.name()));
    brief.push("action", SectionKind::Task, format!("ACTION: {}", action.action));
    // The gotchas go right under the ACTION that hands them to the worker.
    brief.slot_here();
    brief.push("then", SectionKind::Task, action.then.iter().map(|t| format!("THEN: {t}\n")).collect::<String>());
    // The implementer works phased (seed 004 §9.1): each plan step's
    // gotchas while it implements.
    let implementing = matches!(run.state, State::Implementing | State::ImplementingLoop);
    let subject = if implementing {
        brief::Subject {
            feature: Some(&feature),
            work: super::plan(&feature).map(|p| inject::plan_work(&p)).unwrap_or_default(),
            root: Some(project.code_dir(&feature.load()?)),
            role: brief::Role::Implementer,
            loading: phasegate_core::brief::Loading::Phased,
        }
    } else {
        brief::Subject::feature(&feature, phasegate_core::brief::Loading::Lazy)
    };
    let finished = brief::finish(&project, brief, &subject);
    // The implementer is a worker the session spawns: its gotchas are
    // printed under its ACTION for its prompt, and count as given when a
    // hook sees them there (`knowledge::hook`), not because they were printed.
    let packed = finished.packed;
    let context = packed
        .sections
        .iter()
        .filter(|(name, _)| !matches!(name.as_str(), "state" | "action" | "then"))
        .map(|(_, text)| text.clone())
        .collect();
    Effects::of("pipeline next").turn_to(feature.name()).apply_to_log(&project, env);
    Ok((feature.name().to_owned(), run, Next { action, context, text: packed.text }))
}

/// A summary for the command's `!` injection. Never an error: a problem
/// becomes a line.
pub fn brief(env: &Env, given: Option<&str>) -> Vec<String> {
    let lines = || -> OpResult<Vec<String>> {
        let (project, feature) = find(env, given)?;
        let run = load_run(&feature)?;
        let me = env.session(None).ok().flatten();
        let owner = match (&run.owner, me) {
            (Some(o), Some(s)) if o.session_id == s.as_str() => "run by this session".to_owned(),
            (Some(o), _) => format!("run by another session ({}); claim it to continue here", o.session_id),
            (None, _) => "run by no session; claim it to continue here".to_owned(),
        };
        let next = action(&project, &run, &feature);
        let mut out = vec![
            format!("phasegate pipeline {} ({}), folder {}", feature.name(), owner, feature.dir().display()),
            format!("request: {}", run.request),
            format!("state: {}", run.state),
            format!("ACTION: {}", next.action),
        ];
        out.extend(next.then.into_iter().map(|t| format!("THEN: {t}")));
        // The command's brief turns the session to the pipeline before its
        // first request: what it spends from now on is the pipeline's.
        Effects::of("pipeline brief").turn_to(feature.name()).apply_to_log(&project, env);
        Ok(out)
    };
    lines()
        .unwrap_or_else(|e| vec![format!("phasegate pipeline: {}", phasegate_store::project::one_line(&e.to_string()))])
}
