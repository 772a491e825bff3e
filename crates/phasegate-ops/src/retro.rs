//! The retrospective (seed 004 §6, the self-improvement agent). The binary
//! captures the facts (§6.2: planned against changed files from git, each
//! task's attempts, failures, review cycles, durations and the gotchas it
//! was given; the pipeline's loop and tests), computes §6.3's metrics and
//! their trend across features, and briefs the read-only retrospective
//! agent. The agent proposes; `retro record` decides by §6.3's rules:
//! divergences get the seed's classes from the agent's facts, a proposed
//! gotcha is recorded only when the rule says so and the knowledge base
//! admits it, an injected gotcha is judged by its task's outcome (0.95 when
//! the task passed first time, lowered when it failed anyway), and the
//! feature's record (`retro.json`) keeps the metrics for the trend.
//!
//! Eager loading (§9.1): the whole record of the build goes into the brief,
//! packed under the `retro` budget.

use chrono::{DateTime, Utc};
use phasegate_core::brief::{Brief, BriefKind, Loading, SectionKind};
use phasegate_core::cost::{FeatureCost, round_usd};
use phasegate_core::feature::{LoopOutcome, Workflow};
use phasegate_core::knowledge::{
    self, ClassifiedDivergence, DivergenceFacts, DivergenceKind, InjectionOutcome, Judged, KnowledgeType,
    LessonOutcome, Metric, Metrics, ProposedGotcha, ProposedPattern, RETRO_FILE, RetroCost, RetroRecord, RetroRecorded,
    RetroReply, TaskFailure, TaskRun, TemplateChange,
};
use phasegate_core::proof::{CheckRun, FailedCheck};
use phasegate_core::tasks::{BuildState, Mark, SessionCycles, Task};
use phasegate_core::words::Command;
use phasegate_core::{Agent, Phase};
use phasegate_store::{Feature, FileWrite, Project, files};
use serde::Serialize;

use crate::brief;
use crate::coordination::effects::{Applied, Effects};
use crate::cost;
use crate::env::Env;
use crate::error::{Invalid, OpError, OpResult, Refusal};
use crate::feature::review;
use crate::knowledge::base::{self, RecordInput};
use crate::knowledge::inject;
use crate::pipeline;
use crate::session;

/// The events a recorded retrospective settles for its feature: what they
/// route to is what it did.
const SETTLES: &[&str] = &["build.completed", "task.failed"];

/// How many features the trend looks back over.
pub const TREND_FEATURES: usize = 5;

/// One failure of a task.
#[derive(Debug, Clone, Serialize)]
pub struct FailureFact {
    pub error_type: String,
    pub at: DateTime<Utc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<String>,
}

/// One task of the build as the retrospective sees it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskFacts {
    pub task: String,
    pub title: String,
    /// pending, in-progress, done, skipped, failed.
    pub mark: Mark,
    pub files: Vec<String>,
    pub attempts: u32,
    pub failures: Vec<FailureFact>,
    /// Review cycles used, and how the review ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub review_cycles: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub review_outcome: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minutes: Option<f64>,
    /// The knowledge items its brief carried.
    pub gotchas: Vec<String>,
    /// It failed and then passed: a candidate gotcha by itself (§6.3).
    pub self_corrected: bool,
}

/// The pipeline's implementation loop.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PipelineFacts {
    /// Stops the loop held because the tests or the promise were not met.
    pub iterations: u32,
    pub max_iterations: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended: Option<String>,
    pub test_commands: Vec<String>,
}

/// A check that failed in a `verify run` of the build: what verify had to
/// fix (or still has to), from the ledger's runs.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VerifyFailure {
    pub command: String,
    pub requirements: Vec<String>,
    /// In how many runs it failed, and when first.
    pub failed_runs: usize,
    pub first_failed_at: DateTime<Utc>,
    /// The last failure, in a line, and the last of its output.
    pub failure: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub output: String,
    /// It passed in the last run: verify fixed it (a candidate gotcha).
    pub passes_now: bool,
}

/// The checks that failed in any run of the feature's ledger, in the order
/// they first failed.
fn verify_failures(feature: &Feature) -> Vec<VerifyFailure> {
    let Ok(Some(ledger)) = feature.ledger() else { return Vec::new() };
    let mut last: Vec<&CheckRun> = Vec::new();
    for c in ledger.requirements.iter().flat_map(|r| &r.checks) {
        if !last.contains(&c) {
            last.push(c);
        }
    }
    let mut out: Vec<VerifyFailure> = Vec::new();
    let mut note = |f: FailedCheck, at: DateTime<Utc>| match out.iter_mut().find(|v| v.command == f.command) {
        Some(v) => {
            v.failed_runs += 1;
            v.failure = f.failure;
            v.output = f.output;
        }
        None => out.push(VerifyFailure {
            command: f.command,
            requirements: f.requirements,
            failed_runs: 1,
            first_failed_at: at,
            failure: f.failure,
            output: f.output,
            passes_now: false,
        }),
    };
    for run in &ledger.earlier {
        for f in &run.failed {
            note(f.clone(), run.ran_at);
        }
    }
    for c in &last {
        if let Some(f) = FailedCheck::of(c) {
            note(f, c.ran_at);
        }
    }
    for f in &mut out {
        f.passes_now = last.iter().any(|c| c.command == f.command && c.passed());
    }
    out
}

/// A metric's trend across the last features.
#[derive(Debug, Clone, Serialize)]
pub struct TrendLine {
    pub metric: Metric,
    /// (feature, value), oldest first.
    pub values: Vec<(String, f64)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub improved: Option<bool>,
}

/// What `workflow-state retro` prints.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Facts {
    pub feature: String,
    pub workflow: Workflow,
    pub status: String,
    /// Files the tasks or the plan named.
    pub planned: Vec<String>,
    /// Files the build changed (git, from the build's first commit).
    pub changed: Vec<String>,
    /// Changed but not planned (candidate additions).
    pub unplanned: Vec<String>,
    /// Planned but not changed (candidate omissions).
    pub untouched: Vec<String>,
    pub tasks: Vec<TaskFacts>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pipeline: Option<PipelineFacts>,
    /// Checks that failed in a `verify run`, in every run the ledger
    /// keeps, and whether they pass now.
    pub verify_failures: Vec<VerifyFailure>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metrics: Option<Metrics>,
    pub trend: Vec<TrendLine>,
    /// What the build cost: by phase, task and agent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<FeatureCost>,
    /// Injected gotchas and how `retro record` will judge them.
    pub judge: Vec<Judged>,
    /// Items that meet every condition for CLAUDE.md but the user's yes.
    pub promotable: Vec<String>,
    /// The feature's record, when a retrospective was recorded already.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recorded: Option<String>,
    /// Who to brief, and the brief.
    pub agent: String,
    pub prompt: String,
}

/// What the build planned and did, task by task, as its workflow keeps it.
struct Work {
    tasks: Vec<TaskFacts>,
    /// Files the tasks or the plan named.
    planned: Vec<String>,
    pipeline: Option<PipelineFacts>,
    /// The commit the build's change is measured from.
    base: Option<String>,
}

/// The facts of one feature's build, with the brief for the agent.
/// `task`: only that task (a `task.failed` retrospective: the one failure,
/// right away).
pub fn facts(env: &Env, given: Option<&str>, task: Option<&str>) -> OpResult<Facts> {
    let (project, feature) = session::find(env, given)?;
    let facts = facts_of(env, &project, &feature, task)?;
    Effects::of("retro facts").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(facts)
}

/// [`facts`] of `feature`, read without any effect (`retro record` reads
/// them too, and notes the session's turn once).
fn facts_of(env: &Env, project: &Project, feature: &Feature, task: Option<&str>) -> OpResult<Facts> {
    let meta = feature.load()?;
    let code_dir = project.code_dir(&meta);
    let cycles = feature.read_review_cycles()?;
    let session = cycles.sessions.get(feature.name()).cloned().unwrap_or_default();
    let build = &session.build;
    let base: Option<String> = meta.review_base(Phase::Implement).map(str::to_owned);
    let Work { tasks, planned, pipeline, base } = match meta.workflow {
        Workflow::Phased => phased_work(feature, &session, task, base),
        Workflow::Pipeline => pipeline_work(feature, build, base),
    };
    let changed: Vec<String> = match &base {
        Some(b) => review::code_change(project, &code_dir, b)
            .map(|c| c.files.into_iter().map(|f| f.path).collect())
            .unwrap_or_default(),
        None => Vec::new(),
    };
    let unplanned = changed.iter().filter(|f| !planned.contains(f)).cloned().collect();
    let untouched = planned.iter().filter(|f| !changed.contains(f)).cloned().collect();
    let metrics = build_metrics(&tasks, build.started_at, build.ended.values().max().copied(), env.now);
    let judge = to_judge(&tasks);
    let root = code_dir.clone();
    let promotable = promotable(project, &root);
    let mut per_feature = earlier_metrics(project, feature.name());
    if let Some(m) = metrics {
        per_feature.push((feature.name().to_owned(), m));
    }
    // What the build cost, phase by phase (its transcripts, read now).
    let cost = cost::collect(project, env, Some(feature.name()))
        .ok()
        .and_then(|c| c.features.into_iter().next())
        .filter(|c| c.total.usage.tokens() > 0);
    if let (Some(m), Some(c)) = (per_feature.last_mut().filter(|(f, _)| f == feature.name()), &cost) {
        m.1.cost_usd = Some(round_usd(c.total.usd));
    }
    let trend = trend_lines(&per_feature);
    let record_path = feature.dir().join(RETRO_FILE);
    let recorded = feature.has_file(RETRO_FILE).then(|| record_path.display().to_string());
    let metrics = metrics.map(|mut m| {
        m.cost_usd = cost.as_ref().map(|c| round_usd(c.total.usd));
        m
    });
    let mut facts = Facts {
        feature: feature.name().to_owned(),
        workflow: meta.workflow,
        status: meta.status.to_string(),
        planned,
        changed,
        unplanned,
        untouched,
        tasks,
        pipeline,
        verify_failures: if task.is_some() { Vec::new() } else { verify_failures(feature) },
        metrics,
        trend,
        cost,
        judge,
        promotable,
        recorded,
        agent: Agent::Retrospective.qualified(),
        prompt: String::new(),
    };
    facts.prompt = prompt(project, feature, &facts);
    Ok(facts)
}

/// A phased build's tasks (only `task` when given), the files they name,
/// and its base: the review's, else the first started task's.
fn phased_work(feature: &Feature, session: &SessionCycles, task: Option<&str>, base: Option<String>) -> Work {
    let mut tasks = Vec::new();
    let mut planned: Vec<String> = Vec::new();
    if let Ok((list, _)) = feature.task_list() {
        for t in &list.tasks {
            if task.is_some_and(|id| id != t.id) {
                continue;
            }
            let facts = task_facts(t, session);
            for f in &facts.files {
                if !planned.contains(f) {
                    planned.push(f.clone());
                }
            }
            tasks.push(facts);
        }
    }
    let build = &session.build;
    let base = base.or_else(|| session.bases.iter().min_by_key(|(t, _)| build.started.get(*t)).map(|(_, b)| b.clone()));
    Work { tasks, planned, pipeline: None, base }
}

/// One task of a phased build, from its line and the build's state.
fn task_facts(t: &Task, session: &SessionCycles) -> TaskFacts {
    let build = &session.build;
    let files: Vec<String> = t.files.iter().filter_map(|f| inject::clean_path(f)).collect();
    let attempts = build.attempts.get(&t.id).copied().unwrap_or(0);
    let failures: Vec<FailureFact> = build
        .failures
        .get(&t.id)
        .map(|v| {
            v.iter()
                .map(|f| FailureFact { error_type: f.error_type.clone(), at: f.at, excerpt: f.excerpt.clone() })
                .collect()
        })
        .unwrap_or_default();
    let cycle = session.tasks.get(&t.id);
    let minutes = match (build.started.get(&t.id), build.ended.get(&t.id)) {
        (Some(s), Some(e)) if e >= s => Some(minutes(*s, *e)),
        _ => None,
    };
    let done = t.mark == Mark::Done;
    TaskFacts {
        task: t.id.clone(),
        title: t.title.clone(),
        mark: t.mark,
        files,
        attempts,
        self_corrected: knowledge::is_gotcha_candidate(done, attempts, failures.len()),
        failures,
        review_cycles: cycle.map(|c| c.current_cycle),
        review_outcome: cycle.and_then(|c| c.outcome).map(|o| o.name().to_owned()),
        minutes,
        gotchas: build.gotchas.get(&t.id).cloned().unwrap_or_default(),
    }
}

/// A pipeline build: the plan's files, its loop, and the run as one task;
/// its base: the review's, else the run's.
fn pipeline_work(feature: &Feature, build: &BuildState, base: Option<String>) -> Work {
    let mut tasks = Vec::new();
    let mut planned: Vec<String> = Vec::new();
    let mut pipeline = None;
    let run = pipeline::load_run(feature).ok();
    let base = base.or_else(|| run.as_ref().and_then(|r| r.code_base.clone()));
    if let Ok(plan) = pipeline::plan(feature) {
        for s in &plan.steps {
            if let Some(f) = inject::clean_path(&s.file)
                && !planned.contains(&f)
            {
                planned.push(f);
            }
        }
        let l = pipeline::load_loop(feature).ok().flatten();
        pipeline = Some(PipelineFacts {
            iterations: l.as_ref().map_or(0, |l| l.iteration),
            max_iterations: l.as_ref().map_or(0, |l| l.max_iterations),
            ended: l.as_ref().and_then(|l| l.ended_reason.clone()),
            test_commands: plan.test_plan.commands.clone(),
        });
        // The run is one task: it passed first time when the loop
        // never had to hold the session.
        if let Some(l) = &l {
            let given: Vec<String> =
                build.gotchas.iter().filter(|(k, _)| k.starts_with("step-")).flat_map(|(_, v)| v.clone()).collect();
            tasks.push(TaskFacts {
                task: "implementation".into(),
                title: plan.id.clone(),
                mark: if l.ended_reason.as_deref() == Some("complete") { Mark::Done } else { Mark::Pending },
                files: planned.clone(),
                attempts: l.iteration + 1,
                failures: Vec::new(),
                review_cycles: None,
                review_outcome: None,
                minutes: l.updated_at.filter(|u| *u >= l.started_at).map(|u| minutes(l.started_at, u)),
                gotchas: given,
                self_corrected: l.ended_reason.as_deref() == Some("complete") && l.iteration > 0,
            });
        }
    }
    Work { tasks, planned, pipeline, base }
}

fn minutes(from: DateTime<Utc>, to: DateTime<Utc>) -> f64 {
    ((to - from).num_milliseconds() as f64 / 60_000.0 * 10.0).round() / 10.0
}

/// §6.3's metrics when the build started.
fn build_metrics(
    tasks: &[TaskFacts],
    started: Option<DateTime<Utc>>,
    ended: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> Option<Metrics> {
    let runs: Vec<TaskRun> = tasks
        .iter()
        .filter(|t| t.attempts > 0 || t.mark == Mark::Done)
        .map(|t| TaskRun {
            task: t.task.clone(),
            completed: t.mark == Mark::Done,
            attempts: t.attempts.max(1),
            gotchas: t.gotchas.len(),
        })
        .collect();
    if runs.is_empty() {
        return None;
    }
    let start = started.unwrap_or(now);
    let end = ended.filter(|e| *e >= start).unwrap_or(now.max(start));
    knowledge::metrics(&runs, start, end).ok()
}

/// Each injected gotcha of a settled task: prevented when the task passed
/// at its first attempt, not helped when it failed or needed more.
fn to_judge(tasks: &[TaskFacts]) -> Vec<Judged> {
    let mut out = Vec::new();
    for t in tasks {
        let outcome = if t.mark == Mark::Done && t.attempts <= 1 && t.failures.is_empty() {
            "prevented"
        } else if t.mark == Mark::Done || t.mark == Mark::Failed {
            "not_helped"
        } else {
            continue;
        };
        for id in &t.gotchas {
            out.push(Judged { task: t.task.clone(), id: id.clone(), outcome: outcome.to_owned() });
        }
    }
    out
}

/// Items that meet every condition for CLAUDE.md (seed 004 §6.3) but the
/// user's yes.
fn promotable(project: &Project, root: &std::path::Path) -> Vec<String> {
    let Ok(loaded) = base::load(project, root) else { return Vec::new() };
    let claude = files::read_optional(&root.join("CLAUDE.md")).ok().flatten().unwrap_or_default();
    loaded
        .items
        .iter()
        .filter(|s| knowledge::should_update_claude_md(&s.item, &claude).unwrap_or(false))
        .map(|s| s.item.id.clone())
        .collect()
}

/// The metrics of the other features' recorded retrospectives, in feature
/// order.
fn earlier_metrics(project: &Project, except: &str) -> Vec<(String, Metrics)> {
    let Ok(features) = project.features() else { return Vec::new() };
    features
        .iter()
        .filter(|f| f.name() != except)
        .filter_map(|f| {
            let text = f.read_file(RETRO_FILE).ok()??;
            RetroRecord::parse(&text).ok().map(|r| (f.name().to_owned(), r.metrics))
        })
        .collect()
}

fn trend_lines(per_feature: &[(String, Metrics)]) -> Vec<TrendLine> {
    Metric::all()
        .iter()
        .map(|m| {
            let t = knowledge::trend(per_feature, *m, TREND_FEATURES);
            TrendLine { metric: *m, values: t.values, change: t.change, improved: t.improved }
        })
        .collect()
}

/// The agent's brief: eager, the whole record, packed under `retro`.
fn prompt(project: &Project, feature: &Feature, f: &Facts) -> String {
    let mut brief = Brief::of(BriefKind::Retro);
    brief.push(
        "task",
        SectionKind::Task,
        format!(
            "RETROSPECTIVE of {} ({} workflow, {}); its folder: {}\nPropose gotchas, patterns and template changes from these facts, and classify the divergences. Answer with JSON only, in this shape (schema: `{schema_retro_reply}`):\n{}\n", f.feature, f.workflow, f.status, feature.dir().display(), REPLY_SHAPE, schema_retro_reply = Command::new("schema retro-reply")),
    );
    let mut files = format!("\nFILES\nplanned: {}\nchanged: {}\n", list(&f.planned), list(&f.changed));
    if !f.unplanned.is_empty() {
        files.push_str(&format!("changed, not planned: {}\n", list(&f.unplanned)));
    }
    if !f.untouched.is_empty() {
        files.push_str(&format!("planned, not changed: {}\n", list(&f.untouched)));
    }
    brief.push("files", SectionKind::Task, files);
    brief.push("tasks", SectionKind::Task, tasks_section(f));
    if !f.verify_failures.is_empty() {
        brief.push("verify", SectionKind::Task, verify_section(&f.verify_failures));
    }
    if let Some(m) = &f.metrics {
        brief.push(
            "metrics",
            SectionKind::RecentMemory,
            format!(
                "\nMETRICS first_pass_success {:.2}, gotcha_effectiveness {:.2}, build_duration_minutes {:.1}\n",
                m.first_pass_success, m.gotcha_effectiveness, m.build_duration_minutes
            ),
        );
    }
    if let Some(c) = &f.cost {
        brief.push("cost", SectionKind::RecentMemory, cost_section(feature, c));
    }
    if let Ok(Some(text)) = feature.read_artifact(phasegate_core::Artifact::Spec) {
        brief.push_from(
            "spec",
            SectionKind::Readme,
            format!("\nSPEC\n{}\n", text.trim()),
            Some(feature.artifact_path(phasegate_core::Artifact::Spec).display().to_string()),
        );
    }
    let subject = brief::Subject::feature(feature, Loading::Eager);
    brief::finish(project, brief, &subject).packed.text
}

/// Each task: its attempts, review cycles, time, failures and the
/// gotchas it was given; and the pipeline's loop.
fn tasks_section(f: &Facts) -> String {
    let mut tasks = String::from("\nTASKS\n");
    for t in &f.tasks {
        tasks.push_str(&format!(
            "- {} ({}): {}; attempts {}{}{}{}\n",
            t.task,
            t.mark.name(),
            t.title,
            t.attempts,
            t.review_cycles.map(|c| format!(", review cycles {c}")).unwrap_or_default(),
            t.minutes.map(|m| format!(", {m} min")).unwrap_or_default(),
            if t.self_corrected { ", failed then passed (a candidate gotcha)" } else { "" },
        ));
        for fail in &t.failures {
            tasks.push_str(&format!(
                "  failure {}: {}\n",
                fail.error_type,
                fail.excerpt.as_deref().unwrap_or("(no output recorded)").replace('\n', "\n    ")
            ));
        }
        if !t.gotchas.is_empty() {
            tasks.push_str(&format!("  given gotchas: {}\n", t.gotchas.join(", ")));
        }
    }
    if let Some(p) = &f.pipeline {
        tasks.push_str(&format!(
            "pipeline loop: {} of {} iterations, ended {}; tests: {}\n",
            p.iterations,
            p.max_iterations,
            p.ended.as_deref().unwrap_or("-"),
            p.test_commands.join("; ")
        ));
    }
    tasks
}

/// The checks that failed in a `verify run`, and whether they pass now.
fn verify_section(failures: &[VerifyFailure]) -> String {
    let mut verify = String::from("\nVERIFY (checks that failed in a `verify run`)\n");
    for v in failures {
        verify.push_str(&format!(
            "- {} ({}): failed in {} run{}, first at {}: {}; {}\n",
            v.command,
            v.requirements.join(", "),
            v.failed_runs,
            if v.failed_runs == 1 { "" } else { "s" },
            phasegate_core::time::stamp(v.first_failed_at),
            v.failure,
            if v.passes_now { "passes now: verify fixed it (a candidate gotcha)" } else { "still fails" },
        ));
        if !v.output.trim().is_empty() {
            verify.push_str(&format!("  output: {}\n", v.output.trim().replace('\n', "\n    ")));
        }
    }
    verify
}

/// What the build cost, for the agent: each phase with its reviewer
/// iterations and how its loop ended (an iteration that changed nothing is
/// the first thing to cut), and the agents.
fn cost_section(feature: &Feature, c: &FeatureCost) -> String {
    let meta = feature.load().ok();
    let mut out = format!("\nCOST ${:.2} in all ({} tokens)\n", c.total.usd, c.total.usage.tokens());
    for (phase, t) in &c.phases.0 {
        let loop_note = meta
            .as_ref()
            .and_then(|m| m.record(phase.parse::<Phase>().ok()?))
            .map(|r| {
                format!(
                    ", {} reviewer iteration(s){}",
                    r.iterations,
                    match r.outcome {
                        Some(LoopOutcome::Approved) => ", approved",
                        Some(LoopOutcome::CapReached) => ", ended at its cap",
                        None => "",
                    }
                )
            })
            .unwrap_or_default();
        out.push_str(&format!("- {phase}: ${:.2} ({} tokens){loop_note}\n", t.usd, t.usage.tokens()));
    }
    if c.outside.usage.tokens() > 0 {
        out.push_str(&format!("- outside every phase: ${:.2}\n", c.outside.usd));
    }
    for (agent, t) in &c.agents.0 {
        out.push_str(&format!("- agent {agent}: ${:.2}\n", t.usd));
    }
    out.push_str("Which phases cost the most for what they found? Reviewer iterations that changed nothing come first to cut: propose a template change when a phase's cost bought nothing.\n");
    out
}

/// The cost a retrospective's record keeps.
fn retro_cost(c: &FeatureCost) -> RetroCost {
    let mut phases: std::collections::BTreeMap<String, f64> =
        c.phases.0.iter().map(|(p, t)| (p.clone(), round_usd(t.usd))).collect();
    if c.outside.usage.tokens() > 0 {
        phases.insert("outside".to_owned(), round_usd(c.outside.usd));
    }
    RetroCost { usd: round_usd(c.total.usd), tokens: c.total.usage.tokens(), phases, unpriced: c.unpriced.clone() }
}

fn list(v: &[String]) -> String {
    if v.is_empty() { "(none)".to_owned() } else { v.join(", ") }
}

/// The reply's shape as the brief shows it.
pub const REPLY_SHAPE: &str = r#"{"summary": "...", "divergences": [{"kind": "addition|omission|modification", "what": "...", "file": "...", "beneficial": true, "intentional": false, "improvement": false}], "gotchas": [{"task": "T2", "content": "what goes wrong and what to do instead", "file": "path", "evidence": "the failure output", "reproducible": true}], "patterns": [{"type": "pattern", "content": "...", "topic": "one-word", "evidence": "..."}], "templates": [{"phase": "create-tasks", "gap": "...", "change": "..."}]}"#;

/// What `retro record` did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Recorded {
    pub feature: String,
    pub file: String,
    pub record: RetroRecord,
    /// Items now eligible for CLAUDE.md: ask with `kb promote`.
    pub promotable: Vec<String>,
    /// Pending events this retrospective settles (the feature's
    /// `build.completed` and `task.failed`): no session is offered a
    /// retrospective that was done.
    pub settled: Vec<String>,
    #[serde(serialize_with = "phasegate_core::words::as_words")]
    pub message: RetroRecorded,
}

/// Applies the agent's reply by §6.3's rules and writes the feature's
/// record.
pub fn record(env: &Env, given: Option<&str>, reply: &str) -> OpResult<Recorded> {
    let reply = RetroReply::parse(reply).map_err(|why| Invalid::RetroReply { why })?;
    let (project, feature) = session::find(env, given)?;
    let facts = facts_of(env, &project, &feature, None)?;
    let meta = feature.load()?;
    let root = project.code_dir(&meta);
    let record_path = feature.dir().join(RETRO_FILE);
    let earlier = earlier_record(&feature, &record_path)?;
    let divergences = classify_divergences(&reply);
    let judged = judge_injected(env, &facts, earlier.as_ref())?;
    let mut lessons = Vec::new();
    let loaded = base::load(&project, &root)?;
    for g in &reply.gotchas {
        lessons.push(gotcha_lesson(env, &facts, &loaded, &root, feature.name(), g)?);
    }
    for p in &reply.patterns {
        lessons.push(pattern_lesson(env, feature.name(), p)?);
    }
    let templates = template_changes(&reply);
    let mut metrics = facts.metrics.unwrap_or(Metrics {
        first_pass_success: 0.0,
        gotcha_effectiveness: 0.0,
        build_duration_minutes: 0.0,
        cost_usd: None,
    });
    metrics.cost_usd = facts.cost.as_ref().map(|c| round_usd(c.total.usd));
    let record = RetroRecord {
        feature: feature.name().to_owned(),
        recorded_at: env.now,
        metrics,
        summary: reply.summary.clone(),
        divergences,
        lessons,
        judged,
        templates,
        cost: facts.cost.as_ref().map(retro_cost),
    };
    let guard = feature.lock(env.lock_timeout)?;
    guard.commit("retro record", vec![FileWrite::put(&record_path, record.render())])?;
    drop(guard);
    // The record is written; an event log that cannot be settled now only
    // means one more offer of a retrospective, said in the message.
    let applied =
        Effects::of("retro record").settle_types(feature.name(), SETTLES).turn_to(feature.name()).run(&project, env);
    let promotable = promotable(&project, &root);
    let message = recorded_message(feature.name(), &record_path, &record, &promotable, applied);
    let settled = message.settled.clone();
    Ok(Recorded {
        feature: feature.name().to_owned(),
        file: record_path.display().to_string(),
        record,
        promotable,
        settled,
        message,
    })
}

/// The feature's record from an earlier `retro record`, if any.
fn earlier_record(feature: &Feature, record_path: &std::path::Path) -> OpResult<Option<RetroRecord>> {
    Ok(match feature.read_file(RETRO_FILE)? {
        Some(text) => {
            Some(RetroRecord::parse(&text).map_err(|why| Invalid::RetroRecord { path: record_path.to_owned(), why })?)
        }
        None => None,
    })
}

/// The reply's divergences, each given the seed's class.
fn classify_divergences(reply: &RetroReply) -> Vec<ClassifiedDivergence> {
    reply
        .divergences
        .iter()
        .map(|d| ClassifiedDivergence {
            kind: d.kind.clone(),
            what: d.what.clone(),
            file: d.file.clone(),
            class: knowledge::classify_divergence(
                d.kind.parse::<DivergenceKind>().ok(),
                DivergenceFacts { beneficial: d.beneficial, intentional: d.intentional, improvement: d.improvement },
            ),
        })
        .collect()
}

/// Injected gotchas, judged once per task and item: the earlier record's
/// judgements and the new ones applied now.
fn judge_injected(env: &Env, facts: &Facts, earlier: Option<&RetroRecord>) -> OpResult<Vec<Judged>> {
    let mut judged: Vec<Judged> = earlier.map(|r| r.judged.clone()).unwrap_or_default();
    for j in &facts.judge {
        if judged.iter().any(|k| k.task == j.task && k.id == j.id) {
            continue;
        }
        let how = if j.outcome == "prevented" { InjectionOutcome::Prevented } else { InjectionOutcome::NotHelped };
        match judge_one(env, &j.id, how) {
            Ok(()) => judged.push(j.clone()),
            Err(OpError::Invalid(Invalid::NoKnowledgeItem { .. })) => {} // an item no longer in the knowledge base
            Err(e) => return Err(e),
        }
    }
    Ok(judged)
}

/// One proposed gotcha: recorded when §6.3's rule says so and the
/// knowledge base admits it.
fn gotcha_lesson(
    env: &Env,
    facts: &Facts,
    loaded: &base::Loaded,
    root: &std::path::Path,
    feature: &str,
    g: &ProposedGotcha,
) -> OpResult<LessonOutcome> {
    let t = g.task.as_deref().and_then(|id| facts.tasks.iter().find(|t| t.task == id));
    let error_type = g
        .error_type
        .clone()
        .or_else(|| t.and_then(|t| t.failures.last().map(|f| f.error_type.clone())))
        .unwrap_or_else(|| "OTHER".to_owned());
    let lesson_like = knowledge::Lesson {
        item_type: KnowledgeType::Gotcha,
        content: g.content.clone(),
        file_pattern: g.file.as_deref().and_then(|f| knowledge::pattern_for(f).ok()),
        action: g.action.clone(),
        topic: None,
        confidence: knowledge::DISCOVERY,
        evidence: Vec::new(),
        discovered_by: String::new(),
    };
    let seen_similar =
        loaded.items.iter().any(|s| !s.item.is_superseded() && knowledge::similar(&lesson_like, &s.item));
    let failure = TaskFailure {
        self_corrected: t.is_some_and(|t| t.self_corrected),
        seen_similar,
        error_type: &error_type,
        reproducible: g.reproducible,
    };
    let mut outcome = LessonOutcome {
        item_type: "gotcha".into(),
        task: g.task.clone(),
        content: g.content.clone(),
        decision: "not-recorded".into(),
        id: None,
        why: None,
    };
    if !knowledge::should_record_gotcha(&failure) {
        outcome.why = Some(if knowledge::ENVIRONMENTAL.contains(&error_type.as_str()) {
            format!("a {error_type} failure is one-off environment trouble (seed 004 §6.3)")
        } else {
            "the task did not self-correct, nothing similar was seen before, and it is not reproducible (seed 004 §6.3)"
                .to_owned()
        });
        return Ok(outcome);
    }
    let evidence = match t.and_then(|t| t.failures.last()).and_then(|f| f.excerpt.clone()) {
        Some(x) if !g.evidence.contains(x.trim()) => format!("{}\n{x}", g.evidence),
        _ => g.evidence.clone(),
    };
    apply(
        env,
        RecordInput {
            item_type: KnowledgeType::Gotcha,
            content: g.content.clone(),
            path: g.file.as_ref().map(|f| root.join(f).display().to_string()),
            pattern: None,
            action: g.action.clone(),
            topic: None,
            confidence: None,
            evidence,
            feature: Some(feature.to_owned()),
            task: g.task.clone(),
            commit: None,
        },
        &mut outcome,
    )?;
    Ok(outcome)
}

/// One proposed pattern (or decision), offered to the knowledge base.
fn pattern_lesson(env: &Env, feature: &str, p: &ProposedPattern) -> OpResult<LessonOutcome> {
    let item_type = match p.item_type.as_deref() {
        Some("decision") => KnowledgeType::Decision,
        _ => KnowledgeType::Pattern,
    };
    let mut outcome = LessonOutcome {
        item_type: item_type.name().to_owned(),
        task: None,
        content: p.content.clone(),
        decision: "not-recorded".into(),
        id: None,
        why: None,
    };
    apply(
        env,
        RecordInput {
            item_type,
            content: p.content.clone(),
            path: None,
            pattern: None,
            action: None,
            topic: Some(p.topic.trim().to_lowercase()),
            confidence: None,
            evidence: p.evidence.clone(),
            feature: Some(feature.to_owned()),
            task: None,
            commit: None,
        },
        &mut outcome,
    )?;
    Ok(outcome)
}

/// The proposed template changes, each with the question to ask the user.
fn template_changes(reply: &RetroReply) -> Vec<TemplateChange> {
    reply
        .templates
        .iter()
        .map(|t| TemplateChange {
            phase: t.phase.clone(),
            gap: t.gap.clone(),
            change: t.change.clone(),
            question: Some(format!(
                "Add this to {} (the project's part of the {} guide, which its phase brief carries)? {}",
                phasegate_core::knowledge::template_path(&t.phase),
                t.phase,
                t.change
            )),
        })
        .collect()
}

/// What `retro record` says it did, with the events it settled.
fn recorded_message(
    feature: &str,
    record_path: &std::path::Path,
    record: &RetroRecord,
    promotable: &[String],
    applied: Applied,
) -> RetroRecorded {
    let count = |decisions: &[&str]| record.lessons.iter().filter(|l| decisions.contains(&l.decision.as_str())).count();
    RetroRecorded {
        feature: feature.to_owned(),
        file: record_path.display().to_string(),
        created: count(&["created", "superseded"]),
        reinforced: count(&["reinforced"]),
        judged: record.judged.len(),
        templates: record.templates.len(),
        promotable: promotable.to_vec(),
        settled: applied.settled,
        unsettled: applied.events_failed,
    }
}

/// Records one lesson through the knowledge base, noting the outcome.
fn apply(env: &Env, input: RecordInput, outcome: &mut LessonOutcome) -> OpResult<()> {
    match base::record(env, input) {
        Ok(r) => {
            outcome.decision = r.decision.to_owned();
            outcome.id = Some(r.id);
        }
        Err(OpError::Refused(Refusal::NotAdmitted { why })) => {
            outcome.decision = "not-admitted".into();
            outcome.why = Some(why);
        }
        // A lesson whose path is outside the tree, a knowledge base that
        // cannot be read, an item not found again: this lesson is left out.
        Err(OpError::Invalid(
            why @ (Invalid::OutsideWorkingTree { .. }
            | Invalid::UnreadableKnowledge { .. }
            | Invalid::NotReadBack { .. }),
        )) => {
            outcome.decision = "not-admitted".into();
            outcome.why = Some(why.to_string());
        }
        Err(e) => return Err(e),
    }
    Ok(())
}

fn judge_one(env: &Env, id: &str, how: InjectionOutcome) -> OpResult<()> {
    let r = match how {
        InjectionOutcome::Prevented => base::Reinforcement::Prevented,
        InjectionOutcome::NotHelped => base::Reinforcement::NotHelped,
    };
    base::reinforce(env, id, r).map(drop)
}

/// Each recorded feature's metrics (oldest first) and each metric's trend.
pub type Trends = (Vec<(String, Metrics)>, Vec<TrendLine>);

/// Features' retrospectives (`retro trend`): each recorded one's metrics,
/// oldest first, and the trend.
pub fn trend(env: &Env) -> OpResult<Trends> {
    let project = session::project(env)?;
    let per_feature = earlier_metrics(&project, "");
    let lines = trend_lines(&per_feature);
    Ok((per_feature, lines))
}
