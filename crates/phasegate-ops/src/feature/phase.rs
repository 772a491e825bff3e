//! Phases: the transition check, starting (and creating the feature on a
//! first run), completing, showing, and the brief a phase command starts
//! from.

use phasegate_core::brief::{Brief, BriefKind, SectionKind};
use phasegate_core::coordination::TeamSaid;
use phasegate_core::feature::{self as transition, Position, RuleSaid, Validation, ValidationKind as Verdict};
use phasegate_core::feature::{
    Completion, Meta, PhaseRecord, PhaseState, ProofStanding, StartKind, StartMode, StartNext, Workflow,
};
use phasegate_core::words::Command;
use phasegate_core::{ArtifactSet, Mode, Phase, time};
use phasegate_store::{Feature, Project, ResolveError, WorktreeStatus, git};
use serde::Serialize;

use crate::brief;
use crate::coordination::effects::Effects;
use crate::coordination::team;
use crate::cost;
use crate::env::Env;
use crate::error::{OpError, OpResult, Refusal};
use crate::knowledge::inject;
use crate::questions::ask;
use crate::session;

/// The rule table applied to a feature on disk.
pub fn validate(env: &Env, given: Option<&str>, target: Phase) -> OpResult<Validation> {
    let (project, feature) = session::find(env, given)?;
    let meta = feature.load()?;
    Effects::of("validate").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(transition::validate_meta(&meta, feature.name(), target, feature.artifacts()))
}

/// The rule table without any files.
pub fn validate_table(current: Option<Phase>, in_progress: bool, target: Phase, artifacts: ArtifactSet) -> Validation {
    transition::validate(Position { phase: current, in_progress }, target, artifacts)
}

/// What `phase start` did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Started {
    pub feature: String,
    pub dir: String,
    pub phase: Phase,
    pub start: StartKind,
    /// Reviewer iterations already recorded in this run of the phase.
    pub iterations: u32,
    pub max_iterations: u32,
    /// True when this call created the feature (`--new`).
    pub created: bool,
    #[serde(serialize_with = "phasegate_core::words::as_words_opt")]
    pub warning: Option<RuleSaid>,
    /// Where the phase loop goes next.
    #[serde(serialize_with = "phasegate_core::words::as_words")]
    pub next: StartNext,
    /// Answers to this feature's questions that arrived and are taken in
    /// now: work with them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<ask::Taken>,
    /// What of the step's effects could not be done (also in the problems
    /// log `status` reports); the phase started all the same.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
    /// The team's claim: what happened to it when the remote could not be
    /// reached, or the claim taken over from a teammate.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "phasegate_core::words::as_words_opt")]
    pub team: Option<TeamSaid>,
}

/// How to find (or make) the feature a phase starts on.
#[derive(Debug, Clone, Copy)]
pub enum Target<'a> {
    /// `--feature`, or the working directory.
    Existing(Option<&'a str>),
    /// `--new <words>`: create the feature (from a slug or a description)
    /// and start the phase in one call.
    New { words: &'a str, mode: Mode },
}

/// Marks a phase started (refused when the rules block it). For implement and
/// verify, records the commit the code is at, so reviewers see the change.
/// Load, decide, apply once: the rules are checked and `.meta.json` and the
/// answers taken in are written under one take of the feature's lock, then
/// the step's effects (the events it settles, the session's turn) apply.
pub fn start(env: &Env, target: Target<'_>, phase: Phase, mode: StartMode) -> OpResult<Started> {
    let (project, feature, mut problems) = match target {
        Target::Existing(given) => {
            let (p, f) = session::find(env, given)?;
            (p, f, Vec::new())
        }
        Target::New { words, mode } => {
            let c = crate::feature::lifecycle::create(env, words, mode, Workflow::Phased, false)?;
            (session::project(env)?, c.feature, c.problems)
        }
    };
    if let Some(q) = ask::suspended_on(&project, feature.name())? {
        return Err(ask::suspended_refusal(&q));
    }
    // The team's claim before anything moves, once the rules allow the
    // start: held on another machine, nothing here changes.
    blocked(&feature.load()?, &feature, phase)?;
    let team = team::phase_started(&project, env, &feature, phase)?;
    let (kind, warning, answers, meta) = commit_start(env, &project, &feature, phase, mode).inspect_err(|_| {
        let _ = team::phase_ended(&project, env, feature.name(), phase);
    })?;
    let effects = Effects::of("phase start").turn_to(feature.name()).phase_started(feature.name());
    problems.extend(effects.apply(&project, env));
    Ok(Started {
        feature: feature.name().to_owned(),
        dir: feature.dir().display().to_string(),
        phase,
        start: kind,
        iterations: meta.record(phase).map_or(0, |r| r.iterations),
        max_iterations: meta.mode.max_iterations(),
        created: matches!(target, Target::New { .. }),
        warning,
        next: kind.next(),
        answers,
        team,
        problems,
    })
}

/// What the rules say of starting `phase`: refused, or allowed with the
/// warning to show, if any.
fn blocked(meta: &Meta, feature: &Feature, phase: Phase) -> OpResult<Option<RuleSaid>> {
    transition::validate_meta(meta, feature.name(), phase, feature.artifacts())
        .warning_or_block()
        .map_err(|message| Refusal::TransitionBlocked { phase, message }.into())
}

/// The start decided and written under one take of the feature's lock:
/// the rules checked again on a fresh read, the phase's record (with the
/// commit the code is at), and the answers taken in, in one change.
fn commit_start(
    env: &Env,
    project: &Project,
    feature: &Feature,
    phase: Phase,
    mode: StartMode,
) -> OpResult<(StartKind, Option<RuleSaid>, Vec<ask::Taken>, Meta)> {
    let guard = feature.lock(env.lock_timeout)?;
    let mut meta = guard.load()?;
    let warning = blocked(&meta, feature, phase)?;
    let kind = meta.start_phase(phase, env.now, mode, feature.artifacts())?;
    if phase.reviews_code() && meta.record(phase).is_some_and(|r| r.base_commit.is_none()) {
        let head = git::head_commit(&project.code_dir(&meta))?;
        meta.phases.get_mut(&phase).expect("start_phase made the record").base_commit = head;
    }
    let (answers, changes) = ask::take_answers(project, &guard, env, None)?;
    guard.commit_with_meta("phase start", &meta, changes)?;
    Ok((kind, warning, answers, meta))
}

/// What `phase complete` prints.
#[derive(Debug, Clone, Serialize)]
pub struct Completed {
    pub feature: String,
    pub phase: Phase,
    pub record: PhaseRecord,
    /// Said when the phase's claim on the team's remote could not be given
    /// back (`team sync` carries it over).
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "phasegate_core::words::as_words_opt")]
    pub team: Option<TeamSaid>,
    /// What of the step's effects could not be done (also in the problems
    /// log `status` reports); the phase completed all the same.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
}

pub fn complete(env: &Env, given: Option<&str>, phase: Phase, update: Completion) -> OpResult<Completed> {
    let (project, feature) = session::find(env, given)?;
    let now = env.now;
    // A phase with a reviewer is the reviewer's to complete; a person may
    // still complete it by hand, and the record says who.
    let by = env.operator().recorded_by();
    if phase.has_review_loop() && by.is_none() {
        return Err(Refusal::CompletedByReviewer { phase, feature: feature.name().to_owned() }.into());
    }
    let record = feature.update(env.lock_timeout, |meta| -> OpResult<_> {
        meta.complete_phase(phase, now, update, by)?;
        Ok(meta.record(phase).cloned().unwrap_or_default())
    })?;
    let effects = Effects::of("phase complete").turn_to(feature.name()).phase_completed(feature.name(), phase);
    let problems = effects.apply(&project, env);
    let team = team::phase_ended(&project, env, feature.name(), phase);
    Ok(Completed { feature: feature.name().to_owned(), phase, record, team, problems })
}

/// What `phase show` prints.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Shown {
    pub feature: String,
    pub phase: Phase,
    pub state: PhaseState,
    pub record: Option<PhaseRecord>,
    pub max_iterations: u32,
}

pub fn show(env: &Env, given: Option<&str>, phase: Phase) -> OpResult<Shown> {
    let (project, feature) = session::find(env, given)?;
    let meta = feature.load()?;
    Effects::of("phase show").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(Shown {
        feature: feature.name().to_owned(),
        phase,
        state: meta.phase_state(phase),
        record: meta.record(phase).cloned(),
        max_iterations: meta.mode.max_iterations(),
    })
}

/// The few lines a phase command starts from (its `!` injection): the
/// transition check, the phase's state with the choices a partial phase
/// offers, concerns earlier phases left open, the worktree check. Never an
/// error: a problem becomes a line saying what to do.
///
/// `words` are the user's words from the command (`/phasegate:design add
/// search`): when they name a feature (folder, id or slug) that feature is
/// briefed; when they name none, the brief says so and how to start a new
/// feature from them, listing the active ones, so the model never guesses
/// between "another feature" and "a new one" without seeing both.
///
/// With neither `given` nor `words`, the words this session typed with
/// the phase's command are taken, as the UserPromptSubmit hook kept them
/// (so a command's `!` injection needs no `$ARGUMENTS`, which Claude Code
/// splices into the shell line as raw text).
pub fn brief(env: &Env, given: Option<&str>, phase: Phase, words: Option<&str>) -> Vec<String> {
    let typed = match (given, words) {
        (None, None) => typed_words(env, phase),
        _ => None,
    };
    let words = words.or(typed.as_deref()).map(str::trim).filter(|w| !w.is_empty());
    if let (None, Some(words)) = (given, words) {
        match session::project(env).and_then(|p| Ok((p.resolve(Some(words), &env.cwd)?, p))) {
            Ok((feature, _)) => {
                let mut out = vec![format!("phasegate: the user's words \"{words}\" name feature {}", feature.name())];
                out.extend(brief(env, Some(feature.name()), phase, None));
                return out;
            }
            Err(OpError::Resolve(ResolveError::NoMatch { .. } | ResolveError::NoActive { .. })) => {
                let active = session::project(env)
                    .and_then(|p| Ok(p.list_active()?))
                    .map(|l| l.iter().map(|l| l.feature.name().to_owned()).collect::<Vec<_>>())
                    .unwrap_or_default();
                let mut out = vec![
                    format!(
                        "phasegate: the user's words name no feature: \"{words}\". To start a new feature from them and begin {phase} in one step:"
                    ),
                    format!(
                        "  {}",
                        Command::new("phase start").arg(&phase).flag("new", &phasegate_core::paths::shell_word(words))
                    ),
                ];
                if !active.is_empty() {
                    out.push(format!(
                        "active features: {}; if the words mean one of them, pass `--feature <it>` instead",
                        active.join(", ")
                    ));
                }
                return out;
            }
            Err(_) => {}
        }
    }
    match brief_lines(env, given, phase) {
        Ok(lines) => lines,
        Err(OpError::Resolve(ResolveError::NoActive { .. })) => vec![
            format!(
                "phasegate: no active feature yet. Start one from the user's words (or a short slug) and begin {phase} in one step:"
            ),
            format!("  {}", Command::new("phase start").arg(&phase).word("--new \"<the user's words>\"")),
        ],
        Err(e) => vec![format!("phasegate: {}", phasegate_store::project::one_line(&e.to_string()))],
    }
}

/// Why `finish` would refuse the feature for its proof, with what to run;
/// None when it is proven.
fn finish_unproven(env: &Env, project: &phasegate_store::Project, feature: &Feature, meta: &Meta) -> Option<String> {
    let p = match crate::proof::proof(env, project, feature, meta) {
        Ok(p) => p,
        Err(e) => {
            return Some(format!("its proof cannot be read: {}", phasegate_store::project::one_line(&e.to_string())));
        }
    };
    match p.standing() {
        ProofStanding::Proven => None,
        ProofStanding::Stale => Some(format!(
            "the proof is stale: the code changed since `verify run` proved it. Run `{}`, then finish",
            p.command
        )),
        ProofStanding::NotProven => Some(format!(
            "not proven ({}): {}. `{}` runs the checks and says what fails",
            p.summary(),
            p.blocking().join("; "),
            p.command
        )),
    }
}

/// The words this session typed with `phase`'s command, if the hook kept
/// them moments ago.
fn typed_words(env: &Env, phase: Phase) -> Option<String> {
    let session = env.session(None).ok().flatten()?;
    let kept = session::project(env).ok()?.coordination().prompt_words(&session).ok().flatten()?;
    kept.for_brief(phase, env.now).map(str::to_owned)
}

fn brief_lines(env: &Env, given: Option<&str>, phase: Phase) -> OpResult<Vec<String>> {
    let (project, feature) = session::find(env, given)?;
    let meta = feature.load()?;
    let max = meta.mode.max_iterations();
    let mut out = vec![format!(
        "phasegate: feature {} (mode {}, at most {max} reviewer iteration{} per phase), folder {}",
        feature.name(),
        meta.mode,
        if max == 1 { "" } else { "s" },
        feature.dir().display()
    )];
    out.push(transition_line(env, &project, &feature, &meta, phase));
    out.push(phase_state_line(&meta, phase));
    out.extend(question_lines(&project, &feature, phase)?);
    for c in meta.open_concerns_before(phase) {
        out.push(format!(
            "open concerns from {} (its loop hit the cap): {}; address them in this phase or say why they stay",
            c.phase,
            c.concerns.join("; ")
        ));
    }
    // At 80% of its budget, the brief says so; over it, that it waits.
    if let Ok(state) = cost::budget_state(&project, env, &feature, &meta)
        && let Some(line) = state.line(feature.name())
    {
        out.push(line);
    }
    out.push(worktree_line(env, &project, &meta));
    // Told through the one brief builder: other capabilities add what they
    // have for this feature's phase.
    let mut brief = Brief::of(BriefKind::PhaseBrief);
    for (i, line) in out.iter().enumerate() {
        brief.push(format!("line-{i}"), SectionKind::Task, line.clone());
    }
    // The project's part of this phase's guide (proposed by retrospectives,
    // accepted by the user): a template, second only to the task itself.
    let template = project.root().join(phasegate_core::knowledge::template_path(phase.name()));
    if let Ok(Some(text)) = phasegate_store::files::read_optional(&template)
        && !text.trim().is_empty()
    {
        brief.push_from(
            "project-template",
            SectionKind::Template,
            format!("project additions to the {phase} guide ({}):\n{}", template.display(), text.trim()),
            Some(template.display().to_string()),
        );
    }
    // Seed 004 §9.1: what this phase's brief loads up front. Phased work
    // (implement, verify) gets each open task's gotchas; eager planning
    // gets the gotchas of the tasks already listed.
    let loading = phase.facts().loading;
    let subject = brief::Subject {
        feature: Some(&feature),
        work: if loading.loads_gotchas() { inject::tasks_work(&feature) } else { Vec::new() },
        root: Some(project.code_dir(&meta)),
        role: brief::Role::Implementer,
        loading,
    };
    let finished = brief::finish(&project, brief, &subject);
    if matches!(phase, Phase::Implement) {
        brief::remember(env, &project, Some(&feature), &finished.given);
    }
    Effects::of("phase brief").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(finished.packed.text.lines().map(str::to_owned).collect())
}

/// Whether `phase` may start now, in a line.
fn transition_line(env: &Env, project: &Project, feature: &Feature, meta: &Meta, phase: Phase) -> String {
    let v = transition::validate_meta(meta, feature.name(), phase, feature.artifacts());
    // Finish refuses a feature that is not proven at the tree as it is:
    // its brief says so, and what to run, instead of "proceed".
    let unproven = match (phase, v.kind) {
        (Phase::Finish, Verdict::Proceed | Verdict::Warning) => finish_unproven(env, project, feature, meta),
        _ => None,
    };
    match (v.kind, unproven) {
        (_, Some(why)) => format!("transition to {phase}: BLOCKED: {why}"),
        (Verdict::Proceed, None) => match v.message {
            Some(m) => format!("transition to {phase}: proceed ({m})"),
            None => format!("transition to {phase}: proceed"),
        },
        (Verdict::Warning | Verdict::Blocked, None) => {
            let word = if v.kind == Verdict::Blocked { "BLOCKED" } else { "WARNING" };
            match v.message {
                Some(m) => format!("transition to {phase}: {word}: {m}"),
                None => format!("transition to {phase}: {word}: "),
            }
        }
    }
}

/// Where `phase` stands: not started, partial (and what to ask), completed.
fn phase_state_line(meta: &Meta, phase: Phase) -> String {
    let max = meta.mode.max_iterations();
    let record = meta.record(phase);
    let iterations = record.map_or(0, |r| r.iterations);
    match meta.phase_state(phase) {
        PhaseState::NotStarted => format!("{phase}: not started"),
        PhaseState::Partial => format!(
            "{phase}: PARTIAL: started {} and not completed, {iterations} of {max} iterations recorded. Ask the user: continue (`phase start {phase}`), start fresh (`--fresh`), or only review the existing result (`--review-only`)",
            record.and_then(|r| r.started).map(time::stamp).unwrap_or_default(),
        ),
        PhaseState::Completed => format!(
            "{phase}: completed {} after {iterations} iteration(s)",
            record.and_then(|r| r.completed).map(time::stamp).unwrap_or_default(),
        ),
    }
}

/// The feature's questions not taken in yet: one that suspends it, open
/// ones, answers that arrived.
fn question_lines(project: &Project, feature: &Feature, phase: Phase) -> OpResult<Vec<String>> {
    let mut out = Vec::new();
    for s in project
        .questions()
        .all()?
        .0
        .iter()
        .filter(|s| s.question.slug == feature.name() && s.question.taken_at.is_none())
    {
        let q = &s.question;
        match (&q.answer, s.place) {
            (None, phasegate_store::questions::Place::Marker) => out.push(format!(
                "SUSPENDED: question {} waits for a person: \"{}\". Do not start {phase}: tell the user to answer it (`/phasegate:answer {} <answer>`), or work on another feature (`/phasegate:auto`).",
                q.id, q.question, q.id
            )),
            (None, phasegate_store::questions::Place::Queue) => {
                out.push(format!("open question {} (non-blocking; default \"{}\"): {}", q.id, q.default_option.clone().unwrap_or_default(), q.question))
            }
            (Some(a), _) => out.push(format!(
                "answer arrived for {}: Q: {} A: {} (taken in by `phase start`; work with it)",
                q.id, q.question, a.text
            )),
        }
    }
    Ok(out)
}

/// Whether the session works where the feature's worktree is.
fn worktree_line(env: &Env, project: &Project, meta: &Meta) -> String {
    match project.worktree_status(meta, &env.cwd) {
        WorktreeStatus::NoWorktree => "worktree: none (the feature works in the main checkout)".to_owned(),
        WorktreeStatus::Inside { worktree } => format!("worktree: ok, working in {}", worktree.display()),
        WorktreeStatus::Outside { worktree } => format!(
            "worktree: WARNING: working in {} but the feature's worktree is {}; cd there before changing code",
            env.cwd.display(),
            worktree.display()
        ),
        WorktreeStatus::Missing { worktree } => {
            format!("worktree: WARNING: {} is recorded but does not exist", worktree.display())
        }
    }
}
