//! The `.meta.json` model: one feature's state, and the pure operations on it
//! (seed 002, Interface 3). Fields this version does not know are kept as they
//! were, so an older binary never drops what a newer one wrote.
//!
//! Files written the seed's way are read as they are: no `created`, an `id`
//! that is a number, no `slug` (both then come from the folder name `NNN-slug`),
//! capitalised modes.

use std::collections::BTreeMap;
use std::path::{Component, Path};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::mode::Mode;
use super::phase::{Artifact, ArtifactSet, Phase};
use super::verdict::{IssueCounts, ReviewVerdict};
use crate::cycle::{self, Cycle, Decision};
use crate::schema::{JsonSyntax, Schema, SchemaErrors};
use crate::time::Span;
use crate::witness::RecordedBy;
use crate::words::Command;

/// The file name of a feature's state.
pub const META_FILE: &str = ".meta.json";

/// Lifecycle of a feature. Only active features move through phases.
/// Where a feature stands: the phase it reached last, and whether that phase
/// is still in progress (started, not completed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub phase: Option<Phase>,
    pub in_progress: bool,
}

impl Position {
    /// No phase started yet.
    pub(crate) const NONE: Position = Position { phase: None, in_progress: false };

    /// `phase` was reached and completed.
    pub fn completed(phase: Phase) -> Self {
        Position { phase: Some(phase), in_progress: false }
    }
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Status {
    #[serde(alias = "Active")]
    Active,
    #[serde(alias = "Completed")]
    Completed,
    #[serde(alias = "Abandoned")]
    Abandoned,
}

crate::named!(Status, "status");

/// How a feature is driven.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Workflow {
    /// Phase by phase, with a command per phase.
    #[default]
    Phased,
    /// The autonomous pipeline (`/phasegate:pipeline`); its state is in `.task/`.
    Pipeline,
}

crate::named!(Workflow, "workflow");

impl Workflow {
    fn is_phased(&self) -> bool {
        *self == Workflow::Phased
    }
}

/// How a phase's reviewer loop ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LoopOutcome {
    /// The reviewer approved the artifact.
    Approved,
    /// The mode's iteration cap was reached without approval; concerns are in
    /// `reviewerNotes` and are carried to the next phases.
    CapReached,
}

/// One phase's record inside `.meta.json`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PhaseRecord {
    #[serde(default)]
    pub started: Option<DateTime<Utc>>,
    #[serde(default)]
    pub completed: Option<DateTime<Utc>>,
    #[serde(default)]
    pub verified: bool,
    #[serde(default)]
    pub iterations: u32,
    #[serde(default)]
    pub reviewer_notes: Vec<String>,
    /// How the reviewer loop ended, when it ran to the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<LoopOutcome>,
    /// The last reviewer summary.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// The issues of the last verdict, by severity (zeros when it had none).
    #[serde(default)]
    pub issues: IssueCounts,
    /// The blocker and warning issues of the last verdict: what the next
    /// revision must resolve, and what a recurring critique is compared with.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub open_issues: Vec<String>,
    /// For phases that change code (implement, verify): the commit the code
    /// was at when the phase started; reviewers get the change since then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_commit: Option<String>,
    /// Earlier spans the phase was worked on, before it was started again
    /// (the current one is `started`..`completed`): what its cost counts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub windows: Vec<Span>,
    /// Who gave each counted verdict, in order: the reviewer sub-agent
    /// Claude Code's transcript shows, or a person outside Claude Code.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub verdicts: Vec<VerdictBy>,
    /// Who completed the phase by hand (`phase complete`), when someone did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completed_by: Option<RecordedBy>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Who gave one counted verdict of a phase.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VerdictBy {
    pub iteration: u32,
    pub at: DateTime<Utc>,
    #[serde(flatten)]
    pub by: RecordedBy,
}

impl PhaseRecord {
    /// Every span the phase was worked on, the current one last; one that
    /// did not complete ends at `now`.
    pub fn spans(&self, now: DateTime<Utc>) -> Vec<Span> {
        let mut out = self.windows.clone();
        if let Some(start) = self.started {
            out.push(Span { start, end: Some(self.completed.filter(|c| *c >= start).unwrap_or(now)) });
        }
        out
    }

    /// Every span, the current one open while the phase is partial.
    pub fn windows_so_far(&self) -> Vec<Span> {
        let mut out = self.windows.clone();
        if let Some(start) = self.started {
            out.push(Span { start, end: self.completed.filter(|c| *c >= start) });
        }
        out
    }
}

/// Where one phase stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PhaseState {
    NotStarted,
    /// Started and not completed: a session stopped in the middle.
    Partial,
    Completed,
}

impl PhaseRecord {
    pub fn state(&self) -> PhaseState {
        match (self.started, self.completed) {
            (_, Some(_)) => PhaseState::Completed,
            (Some(_), None) => PhaseState::Partial,
            (None, None) => PhaseState::NotStarted,
        }
    }
}

/// A feature's `.meta.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Meta {
    /// Zero-padded sequence number, the folder's prefix (`001`).
    pub id: String,
    pub slug: String,
    #[serde(default)]
    pub mode: Mode,
    #[serde(default, skip_serializing_if = "Workflow::is_phased")]
    pub workflow: Workflow,
    pub status: Status,
    /// When the feature was created; seed-style files have no such field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<DateTime<Utc>>,
    /// When the feature was finished or abandoned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completed: Option<DateTime<Utc>>,
    /// The feature's git worktree, relative to the repository root (never
    /// absolute, never leaving it); resolved at run time.
    #[serde(default)]
    pub worktree: Option<String>,
    /// The worktree's branch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    #[serde(default)]
    pub current_phase: Option<Phase>,
    #[serde(default)]
    pub phases: BTreeMap<Phase, PhaseRecord>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Why a `.meta.json` text is not a usable feature state.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MetaParseError {
    #[error("invalid JSON: {0}")]
    Syntax(#[source] JsonSyntax),
    #[error("{0}")]
    Schema(SchemaErrors),
    #[error("{0}")]
    Rule(String),
}

/// Parses `.meta.json` of the folder `folder` (`NNN-slug`). Seed-style files
/// without `id` or `slug` get them from the folder name; a numeric id is
/// zero-padded. Errors say where: the JSON position, each field against the
/// schema, or the rule broken.
pub fn parse_meta(text: &str, folder: &str) -> Result<Meta, MetaParseError> {
    let mut value: Value = serde_json::from_str(text).map_err(|e| MetaParseError::Syntax(e.into()))?;
    if let Some(obj) = value.as_object_mut() {
        let (num, slug) = folder.split_once('-').unwrap_or((folder, ""));
        if let Some(Value::Number(n)) = obj.get("id") {
            let padded = format!("{:03}", n.as_u64().unwrap_or_default());
            obj.insert("id".into(), Value::String(padded));
        }
        if !obj.contains_key("id") && !num.is_empty() {
            obj.insert("id".into(), Value::String(num.to_owned()));
        }
        if !obj.contains_key("slug") && !slug.is_empty() {
            obj.insert("slug".into(), Value::String(slug.to_owned()));
        }
    }
    // The typed reading and the rules below accept exactly what the schema
    // accepts (a test holds them to it); the schema, slower to build, is
    // consulted only to explain a failure field by field.
    let read = serde_json::from_value::<Meta>(value.clone()).map_err(|e| e.to_string()).and_then(|m| {
        check_rules(&m)?;
        Ok(m)
    });
    match read {
        Ok(meta) => Ok(meta),
        Err(why) => match Schema::Meta.check(&value) {
            Err(schema) => Err(MetaParseError::Schema(schema)),
            Ok(()) => Err(MetaParseError::Rule(why)),
        },
    }
}

/// What the schema requires beyond the types: the id's and slug's shape, a
/// worktree inside the repository, a base commit that is a commit id.
fn check_rules(meta: &Meta) -> Result<(), String> {
    if meta.id.len() < 3 || !meta.id.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("at /id: `{}` is not a zero-padded number of at least 3 digits", meta.id));
    }
    crate::slug::validate(&meta.slug).map_err(|e| format!("at /slug: {e}"))?;
    if let Some(w) = &meta.worktree {
        check_worktree(w).map_err(|why| format!("at /worktree: {why}"))?;
    }
    for (phase, record) in &meta.phases {
        if let Some(base) = &record.base_commit {
            let hex = base.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
            if !hex || !(7..=64).contains(&base.len()) {
                return Err(format!("at /phases/{phase}/baseCommit: `{base}` is not a commit id"));
            }
        }
    }
    Ok(())
}

/// A worktree path must stay inside the repository: relative, with no `..`.
pub fn check_worktree(path: &str) -> Result<(), String> {
    let p = Path::new(path);
    let escapes = p.components().any(|c| match c {
        Component::Normal(_) | Component::CurDir => false,
        Component::ParentDir | Component::RootDir | Component::Prefix(_) => true,
    });
    if path.is_empty() || escapes || path.contains('\\') || path.contains(':') {
        return Err(format!(
            "`{path}` is not a path inside the repository; use a relative path without `..` (e.g. .worktrees/001-auth)"
        ));
    }
    Ok(())
}

/// An operation that the feature's state does not allow.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MetaError {
    #[error("feature {feature} is {status}; only active features change phases")]
    NotActive { feature: String, status: Status },
    #[error("phase {phase} is not in progress (it is {state}); run `{phase_start}` first", phase_start = Command::new("phase start").arg(.phase))]
    NotInProgress { phase: Phase, state: &'static str },
    #[error("phase {phase} has no reviewer loop")]
    NoReviewLoop { phase: Phase },
    #[error(
        "{phase} is not started like a phase: it has no result to review. Run `{finish}` (/phasegate:finish) to end the feature", finish = Command::new("finish"))]
    NotStartable { phase: Phase },
    #[error("phase {phase} has no {artifact} to review; produce it first (start without --review-only)")]
    NothingToReview { phase: Phase, artifact: &'static str },
}

/// How `phase start` begins a phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StartMode {
    /// A partial phase resumes where it stopped (its iterations kept).
    #[default]
    Continue,
    /// The phase starts over from iteration 0.
    Fresh,
    /// The existing artifact goes straight to the reviewer: no revision first.
    ReviewOnly,
}

/// What `phase start` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StartKind {
    /// First start of this phase.
    Started,
    /// The phase was partial; its record (start time, iterations) is kept.
    Resumed,
    /// The phase was partial or completed and starts over from iteration 0.
    Restarted,
    /// The existing artifact is reviewed as it is (the loop begins with the
    /// reviewer); a partial phase keeps its iterations.
    ReviewOnly,
}

impl StartKind {
    /// Where the phase loop goes after a start of this kind.
    pub fn next(self) -> StartNext {
        match self {
            StartKind::ReviewOnly => StartNext::ReviewAsItIs,
            StartKind::Started | StartKind::Resumed | StartKind::Restarted => StartNext::Produce,
        }
    }
}

/// Where the phase loop goes after `phase start` (its `next`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartNext {
    /// Produce the result, then the reviewer.
    Produce,
    /// Straight to the reviewer, with the result as it is.
    ReviewAsItIs,
}

impl std::fmt::Display for StartNext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::words::LoopStep;
        match self {
            StartNext::Produce => write!(f, "Produce the result with the phase's skill: {}.", LoopStep::Produce),
            StartNext::ReviewAsItIs => {
                write!(f, "Review the existing result as it is: go to {}.", LoopStep::ReviewBrief)
            }
        }
    }
}

/// What `finish` tells the model to do next (its `message`), with the
/// facts it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinishedNext {
    pub feature: String,
    /// The proof's one-line summary (`3/3 proven`).
    pub proof: String,
    /// The feature's folder, relative to the project: what to commit.
    pub dir: String,
    /// Whether its retrospective is recorded already.
    pub retro_recorded: bool,
}

impl std::fmt::Display for FinishedNext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let FinishedNext { feature, proof, dir, retro_recorded } = self;
        let retro = match retro_recorded {
            true => "its retrospective is recorded already",
            false => "offer /phasegate:retro to learn from the build",
        };
        write!(
            f,
            "Feature {feature} is completed ({proof}). Commit its folder {dir} (toCommit) with a message naming the feature, then ask the user how to integrate its branch (a pull request takes prBody as its description); {retro}."
        )
    }
}

/// Where the working directory stands against the feature's worktree, as
/// `worktree check` says it (its `message`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorktreePlace {
    /// The feature has no worktree: the main checkout is the place.
    NoWorktree,
    /// In the feature's worktree.
    Inside,
    /// `cwd` is elsewhere; the worktree is `worktree`.
    Outside { cwd: String, worktree: String },
    /// `.meta.json` names a worktree that does not exist.
    Missing { worktree: String },
}

impl std::fmt::Display for WorktreePlace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WorktreePlace::NoWorktree => f.write_str("the feature has no worktree; work in the main checkout"),
            WorktreePlace::Inside => f.write_str("in the feature's worktree"),
            WorktreePlace::Outside { cwd, worktree } => {
                write!(f, "{cwd} is not the feature's worktree; cd {worktree} before changing code")
            }
            WorktreePlace::Missing { worktree } => write!(
                f,
                "the worktree {worktree} recorded in .meta.json does not exist; recreate it (git worktree add) or clear \"worktree\""
            ),
        }
    }
}

/// The fields of the seed's updatePhaseState that `phase complete` sets.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Completion {
    pub iterations: Option<u32>,
    pub notes: Vec<String>,
    pub verified: bool,
}

/// The result of recording one reviewer iteration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    pub phase: Phase,
    pub iteration: u32,
    pub max_iterations: u32,
    pub decision: Decision,
    /// What to do now, in one or two sentences for the model and the user.
    pub message: String,
    /// Open blocker and warning issues of this verdict.
    pub open_issues: Vec<String>,
    /// Open issues the previous iteration raised too.
    pub recurring: Vec<String>,
}

/// Concerns left open by an earlier phase whose loop hit its cap: they travel
/// with the feature until a later run of that phase is approved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OpenConcerns {
    pub phase: Phase,
    pub concerns: Vec<String>,
}

impl Meta {
    pub fn new(id: String, slug: String, mode: Mode, now: DateTime<Utc>) -> Self {
        Meta {
            id,
            slug,
            mode,
            workflow: Workflow::Phased,
            status: Status::Active,
            created: Some(now),
            completed: None,
            worktree: None,
            branch: None,
            current_phase: None,
            phases: BTreeMap::new(),
            extra: Map::new(),
        }
    }

    /// `NNN-slug`, the folder name.
    pub fn name(&self) -> String {
        format!("{}-{}", self.id, self.slug)
    }

    pub fn record(&self, phase: Phase) -> Option<&PhaseRecord> {
        self.phases.get(&phase)
    }

    pub fn phase_state(&self, phase: Phase) -> PhaseState {
        self.record(phase).map_or(PhaseState::NotStarted, PhaseRecord::state)
    }

    /// The phase reached last and whether it is still in progress.
    pub fn position(&self) -> Position {
        match self.current_phase {
            None => Position::NONE,
            Some(p) => Position { phase: Some(p), in_progress: self.phase_state(p) == PhaseState::Partial },
        }
    }

    /// Phases started and not completed, in workflow order.
    pub fn partial_phases(&self) -> Vec<Phase> {
        self.phases.iter().filter(|(_, r)| r.state() == PhaseState::Partial).map(|(p, _)| *p).collect()
    }

    /// Concerns of completed phases before `phase` whose loop ended at the cap.
    pub fn open_concerns_before(&self, phase: Phase) -> Vec<OpenConcerns> {
        self.phases
            .iter()
            .filter(|(p, r)| **p < phase && r.outcome == Some(LoopOutcome::CapReached) && !r.reviewer_notes.is_empty())
            .map(|(p, r)| OpenConcerns { phase: *p, concerns: r.reviewer_notes.clone() })
            .collect()
    }

    pub fn ensure_active(&self) -> Result<(), MetaError> {
        match self.status {
            Status::Active => Ok(()),
            status @ (Status::Completed | Status::Abandoned) => {
                Err(MetaError::NotActive { feature: self.name(), status })
            }
        }
    }

    /// Marks `phase` started. `present` tells review-only starts whether
    /// there is an artifact to review.
    pub fn start_phase(
        &mut self,
        phase: Phase,
        now: DateTime<Utc>,
        mode: StartMode,
        present: ArtifactSet,
    ) -> Result<StartKind, MetaError> {
        self.ensure_active()?;
        if !phase.has_review_loop() {
            return Err(MetaError::NotStartable { phase });
        }
        if mode == StartMode::ReviewOnly
            && let Some(a) = phase.artifact().filter(|a| !present.contains(*a))
        {
            return Err(MetaError::NothingToReview { phase, artifact: Artifact::file_name(a) });
        }
        let record = self.phases.entry(phase).or_default();
        let kind = match (record.state(), mode) {
            (PhaseState::NotStarted, StartMode::Continue | StartMode::Fresh) => StartKind::Started,
            (PhaseState::Partial, StartMode::Continue) => StartKind::Resumed,
            (PhaseState::Partial, StartMode::Fresh)
            | (PhaseState::Completed, StartMode::Continue | StartMode::Fresh) => StartKind::Restarted,
            (_, StartMode::ReviewOnly) => StartKind::ReviewOnly,
        };
        let keep = match (kind, record.state()) {
            (StartKind::Resumed, _) | (StartKind::ReviewOnly, PhaseState::Partial) => true,
            (StartKind::Started | StartKind::Restarted, _)
            | (StartKind::ReviewOnly, PhaseState::NotStarted | PhaseState::Completed) => false,
        };
        if !keep {
            let extra = std::mem::take(&mut record.extra);
            let windows = record.spans(now);
            *record = PhaseRecord { started: Some(now), extra, windows, ..PhaseRecord::default() };
        }
        self.current_phase = Some(phase);
        Ok(kind)
    }

    /// The commit the code was at when `phase` started, for the phases that
    /// change code. Verify reviews everything since implement started.
    pub fn review_base(&self, phase: Phase) -> Option<&str> {
        let own = self.record(phase).and_then(|r| r.base_commit.as_deref());
        if phase.facts().review_base_from_implement {
            self.record(Phase::Implement).and_then(|r| r.base_commit.as_deref()).or(own)
        } else {
            own
        }
    }

    /// The seed's updatePhaseState for a completion: merges the update into
    /// the phase's record and makes it the current phase.
    pub fn complete_phase(
        &mut self,
        phase: Phase,
        now: DateTime<Utc>,
        update: Completion,
        by: Option<RecordedBy>,
    ) -> Result<(), MetaError> {
        self.ensure_active()?;
        let record = self.phases.entry(phase).or_default();
        if by.is_some() {
            record.completed_by = by;
        }
        record.started.get_or_insert(now);
        record.completed = Some(now);
        if let Some(n) = update.iterations {
            record.iterations = n;
        }
        record.reviewer_notes.extend(update.notes);
        record.verified |= update.verified;
        self.current_phase = Some(phase);
        Ok(())
    }

    /// The iteration the next verdict of `phase` counts as, or why no
    /// verdict is taken now (the feature is not active, the phase has no
    /// reviewer, is not started or is complete).
    pub fn next_iteration(&self, phase: Phase) -> Result<u32, MetaError> {
        self.ensure_active()?;
        if !phase.has_review_loop() {
            return Err(MetaError::NoReviewLoop { phase });
        }
        let Some(record) = self.phases.get(&phase) else {
            return Err(MetaError::NotInProgress { phase, state: "not started" });
        };
        match record.state() {
            PhaseState::Partial => Ok(record.iterations.saturating_add(1)),
            PhaseState::NotStarted => Err(MetaError::NotInProgress { phase, state: "not started" }),
            PhaseState::Completed => Err(MetaError::NotInProgress { phase, state: "completed" }),
        }
    }

    /// Records one reviewer iteration of `phase`, given `by` the reviewer
    /// (or person) it came from, and applies the cycle's decision: approved
    /// or cap reached complete the phase.
    pub fn record_review(
        &mut self,
        phase: Phase,
        verdict: &ReviewVerdict,
        by: RecordedBy,
        now: DateTime<Utc>,
    ) -> Result<Step, MetaError> {
        self.next_iteration(phase)?;
        let max = self.mode.max_iterations();
        let record = self.phases.get_mut(&phase).expect("next_iteration found it");
        let mut cycle = Cycle::new(record.iterations, max);
        let decision = cycle.record(verdict.approved);
        let open_issues = verdict.open_concerns();
        let recurring = cycle::recurring(&record.open_issues, &open_issues);
        record.iterations = cycle.attempts;
        record.verdicts.push(VerdictBy { iteration: cycle.attempts, at: now, by });
        record.issues = verdict.counts();
        record.summary = Some(verdict.summary.clone());
        record.open_issues = open_issues.clone();
        match decision {
            Decision::Revise => {}
            Decision::Approved => {
                record.completed = Some(now);
                record.outcome = Some(LoopOutcome::Approved);
                // The verify phase's reviewer checks the implementation against
                // the spec: its approval is the verification.
                record.verified |= phase == Phase::Verify;
            }
            Decision::CapReached => {
                record.completed = Some(now);
                record.outcome = Some(LoopOutcome::CapReached);
                record.reviewer_notes.extend(open_issues.iter().cloned());
            }
        }
        let iteration = cycle.attempts;
        let message = step_message(phase, iteration, max, decision, record, &recurring);
        self.current_phase = Some(phase);
        Ok(Step { phase, iteration, max_iterations: max, decision, message, open_issues, recurring })
    }

    /// Ends the feature: finish phase recorded, status completed.
    pub fn finish(&mut self, now: DateTime<Utc>) -> Result<(), MetaError> {
        self.ensure_active()?;
        let record = self.phases.entry(Phase::Finish).or_default();
        record.started.get_or_insert(now);
        record.completed = Some(now);
        self.current_phase = Some(Phase::Finish);
        self.close(now);
        Ok(())
    }

    /// Marks the feature completed (a finished phased feature, or a pipeline
    /// that reached `complete`).
    pub fn close(&mut self, now: DateTime<Utc>) {
        self.status = Status::Completed;
        self.completed = Some(now);
    }

    /// Marks the feature abandoned; its files stay.
    pub fn abandon(&mut self, now: DateTime<Utc>) -> Result<(), MetaError> {
        self.ensure_active()?;
        self.status = Status::Abandoned;
        self.completed = Some(now);
        Ok(())
    }

    /// Total reviewer iterations over all phases.
    pub fn total_iterations(&self) -> u32 {
        self.phases.values().fold(0u32, |sum, r| sum.saturating_add(r.iterations))
    }
}

fn step_message(
    phase: Phase,
    iteration: u32,
    max: u32,
    decision: Decision,
    record: &PhaseRecord,
    recurring: &[String],
) -> String {
    let plural = |n: u32| if n == 1 { "" } else { "s" };
    let next = phase.next().map(|n| format!(" Next: {}", n.command())).unwrap_or_default();
    match decision {
        Decision::Revise => {
            let mut m = format!(
                "Not approved (iteration {iteration} of {max}). Revise phase {phase} to resolve the {} open issue(s), then review again.",
                record.open_issues.len()
            );
            if !recurring.is_empty() {
                m.push_str(&format!(
                    " Raised again after a revision: {}. Fix the root cause, or say in --changes why it stays.",
                    recurring.join("; ")
                ));
            }
            m
        }
        Decision::Approved => format!("Phase {phase} complete ({iteration} iteration{}).{next}", plural(iteration)),
        Decision::CapReached => format!(
            "Phase {phase} complete after {iteration} iteration{} (the mode's cap) with reviewer concerns recorded in reviewerNotes and carried to the next phases: {}.{next}",
            plural(iteration),
            if record.reviewer_notes.is_empty() { "none".to_owned() } else { record.reviewer_notes.join("; ") },
        ),
    }
}

/// Its class: what a front end maps it to.
impl crate::error::Classified for MetaError {
    fn class(&self) -> crate::error::ErrorClass {
        use MetaError as E;
        match self {
            E::NotActive { .. } | E::NothingToReview { .. } | E::NotStartable { .. } => {
                crate::error::ErrorClass::Refused
            }
            E::NotInProgress { .. } | E::NoReviewLoop { .. } => crate::error::ErrorClass::Invalid,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person() -> RecordedBy {
        RecordedBy::Unattended { user: None }
    }
    use crate::feature::parse_verdict;
    use chrono::TimeZone;

    fn t(h: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 22, h, 0, 0).unwrap()
    }

    fn meta(mode: Mode) -> Meta {
        Meta::new("001".into(), "auth".into(), mode, t(0))
    }

    fn all() -> ArtifactSet {
        Artifact::ALL.into_iter().collect()
    }

    #[test]
    fn unknown_fields_survive_a_round_trip() {
        let text = r#"{"id":"001","slug":"a","mode":"quick","status":"active","created":"2026-11-22T00:00:00Z",
            "worktree":null,"currentPhase":"design","owner":{"team":"x"},
            "phases":{"design":{"started":"2026-11-22T01:00:00Z","completed":null,"verified":false,
            "iterations":1,"reviewerNotes":[],"custom":7}}}"#;
        let m = parse_meta(text, "001-a").unwrap();
        assert_eq!(m.extra["owner"]["team"], "x");
        let back = serde_json::to_value(&m).unwrap();
        assert_eq!(back["owner"]["team"], "x");
        assert_eq!(back["phases"]["design"]["custom"], 7);
        assert_eq!(back["currentPhase"], "design");
    }

    /// Regression: seed-style `.meta.json` files (no `created`, a numeric id,
    /// no slug, a capitalised mode) were reported as unreadable.
    #[test]
    fn seed_style_meta_files_are_read() {
        let text = r#"{"id": 7, "mode": "Standard", "status": "active", "worktree": "../wt/auth",
            "currentPhase": "specify", "phases": {"specify": {"started": "2026-02-18T10:00:00Z",
            "completed": null, "verified": false, "iterations": 1, "reviewerNotes": []}}}"#;
        let err = parse_meta(text, "007-auth").unwrap_err().to_string();
        assert!(err.contains("at /worktree") && err.contains("../wt/auth"), "{err}");
        let m = parse_meta(&text.replace("../wt/auth", ".worktrees/007-auth"), "007-auth").unwrap();
        assert_eq!((m.id.as_str(), m.slug.as_str(), m.mode, m.created), ("007", "auth", Mode::Standard, None));
        assert_eq!(m.phase_state(Phase::Specify), PhaseState::Partial);
        // Written back, nothing is invented.
        let back = serde_json::to_value(&m).unwrap();
        assert!(back.get("created").is_none());
    }

    /// The fast typed reading and the published schema accept the same
    /// documents: every mutation one refuses, the other refuses too.
    #[test]
    fn the_reader_and_the_schema_agree() {
        let base = serde_json::json!({"id": "001", "slug": "auth", "mode": "quick", "status": "active",
            "created": "2026-11-22T00:00:00Z", "worktree": ".worktrees/001-auth", "currentPhase": "design",
            "phases": {"design": {"started": "2026-11-22T01:00:00Z", "iterations": 1, "baseCommit": "abcdef1",
            "issues": {"blocker": 1, "warning": 0, "note": 0}}}});
        let mutations: Vec<(&str, serde_json::Value)> = vec![
            ("/id", serde_json::json!("1")),
            ("/id", serde_json::json!("00a")),
            ("/slug", serde_json::json!("a/b")),
            ("/slug", serde_json::json!("")),
            ("/mode", serde_json::json!("turbo")),
            ("/status", serde_json::json!("done")),
            ("/created", serde_json::json!("yesterday")),
            ("/worktree", serde_json::json!("../x")),
            ("/worktree", serde_json::json!("/abs")),
            ("/currentPhase", serde_json::json!("plan")),
            ("/phases/design/iterations", serde_json::json!(-1)),
            ("/phases/design/iterations", serde_json::json!(4294967296u64)),
            ("/phases/design/baseCommit", serde_json::json!("HEAD")),
            ("/phases/design/outcome", serde_json::json!("maybe")),
            ("/phases/design/issues/blocker", serde_json::json!(-2)),
            ("/phases/design/started", serde_json::json!(7)),
            ("/phases/design/reviewerNotes", serde_json::json!([1])),
        ];
        let accepts_schema = |v: &serde_json::Value| Schema::Meta.check(v).is_ok();
        let accepts_reader = |v: &serde_json::Value| parse_meta(&v.to_string(), "001-auth").is_ok();
        assert!(accepts_schema(&base) && accepts_reader(&base));
        for (pointer, bad) in mutations {
            let mut v = base.clone();
            let (parent, key) = pointer.rsplit_once('/').unwrap();
            let obj = v.pointer_mut(parent).and_then(|p| p.as_object_mut()).unwrap_or_else(|| panic!("{pointer}"));
            obj.insert(key.to_owned(), bad.clone());
            assert!(!accepts_schema(&v), "the schema accepts {pointer} = {bad}");
            assert!(!accepts_reader(&v), "the reader accepts {pointer} = {bad}");
            let err = parse_meta(&v.to_string(), "001-auth").unwrap_err().to_string();
            assert!(err.contains(&format!("at {pointer}")), "{pointer}: {err}");
        }
    }

    #[test]
    fn worktrees_must_stay_inside_the_repository() {
        for bad in ["/tmp/x", "..", "a/../../b", "C:\\x", ""] {
            assert!(check_worktree(bad).is_err(), "{bad}");
        }
        for ok in [".worktrees/001-a", "wt/a", "./wt"] {
            check_worktree(ok).unwrap();
        }
    }

    #[test]
    fn phases_serialize_in_workflow_order() {
        let mut m = meta(Mode::Standard);
        m.start_phase(Phase::Design, t(2), StartMode::Continue, all()).unwrap();
        m.start_phase(Phase::Brainstorm, t(1), StartMode::Continue, all()).unwrap();
        let text = serde_json::to_string(&m).unwrap();
        assert!(text.find("\"brainstorm\"").unwrap() < text.find("\"design\"").unwrap());
    }

    #[test]
    fn start_resume_restart_review_only() {
        let mut m = meta(Mode::Standard);
        assert_eq!(m.start_phase(Phase::Specify, t(1), StartMode::Continue, all()).unwrap(), StartKind::Started);
        m.phases.get_mut(&Phase::Specify).unwrap().iterations = 2;
        assert_eq!(m.start_phase(Phase::Specify, t(2), StartMode::Continue, all()).unwrap(), StartKind::Resumed);
        assert_eq!(m.record(Phase::Specify).unwrap().iterations, 2);
        assert_eq!(m.record(Phase::Specify).unwrap().started, Some(t(1)));
        assert_eq!(m.start_phase(Phase::Specify, t(2), StartMode::ReviewOnly, all()).unwrap(), StartKind::ReviewOnly);
        assert_eq!(m.record(Phase::Specify).unwrap().iterations, 2, "review-only keeps a partial phase's count");
        assert_eq!(m.start_phase(Phase::Specify, t(3), StartMode::Fresh, all()).unwrap(), StartKind::Restarted);
        assert_eq!(m.record(Phase::Specify).unwrap().iterations, 0);
        assert_eq!(m.position(), Position { phase: Some(Phase::Specify), in_progress: true });
        let err = m.start_phase(Phase::Design, t(4), StartMode::ReviewOnly, ArtifactSet::empty()).unwrap_err();
        assert_eq!(err, MetaError::NothingToReview { phase: Phase::Design, artifact: "design.md" });
    }

    #[test]
    fn complete_merges_the_update() {
        let mut m = meta(Mode::Standard);
        m.start_phase(Phase::Verify, t(1), StartMode::Continue, all()).unwrap();
        let update = Completion { iterations: Some(2), notes: vec!["flaky test".into()], verified: true };
        m.complete_phase(Phase::Verify, t(2), update, None).unwrap();
        let r = m.record(Phase::Verify).unwrap();
        assert_eq!((r.iterations, r.verified, r.completed), (2, true, Some(t(2))));
        assert_eq!(r.reviewer_notes, ["flaky test"]);
        assert_eq!(m.position(), Position::completed(Phase::Verify));
    }

    fn verdict(approved: bool) -> ReviewVerdict {
        let text = if approved {
            r#"{"approved":true,"issues":[{"severity":"note","description":"typo"}],"summary":"good"}"#
        } else {
            r#"{"approved":false,"issues":[{"severity":"blocker","description":"no AC","location":"§2"},
                {"severity":"warning","description":"vague"}],"summary":"needs work"}"#
        };
        parse_verdict(text).unwrap()
    }

    #[test]
    fn review_loop_approves_on_first_pass() {
        let mut m = meta(Mode::Standard);
        m.start_phase(Phase::Specify, t(1), StartMode::Continue, all()).unwrap();
        let step = m.record_review(Phase::Specify, &verdict(true), person(), t(2)).unwrap();
        assert_eq!(step.decision, Decision::Approved);
        let r = m.record(Phase::Specify).unwrap();
        assert_eq!((r.iterations, r.completed, r.outcome), (1, Some(t(2)), Some(LoopOutcome::Approved)));
        assert!(r.reviewer_notes.is_empty());
        assert_eq!(r.issues.note, 1);
    }

    /// Regression: issue counts added up over the iterations (an approved
    /// phase showed the blockers of earlier rounds), and the key was missing
    /// when there were none.
    #[test]
    fn issue_counts_are_those_of_the_last_verdict() {
        let mut m = meta(Mode::Standard);
        m.start_phase(Phase::Specify, t(1), StartMode::Continue, all()).unwrap();
        m.record_review(Phase::Specify, &verdict(false), person(), t(2)).unwrap();
        let clean = parse_verdict(r#"{"approved":true,"issues":[],"summary":"ok"}"#).unwrap();
        m.record_review(Phase::Specify, &clean, person(), t(3)).unwrap();
        let r = m.record(Phase::Specify).unwrap();
        assert_eq!(r.issues, IssueCounts::default());
        let json = serde_json::to_value(r).unwrap();
        assert_eq!(json["issues"], serde_json::json!({"blocker": 0, "warning": 0, "note": 0}));
    }

    #[test]
    fn review_loop_stops_at_the_mode_cap_with_notes_carried_forward() {
        let mut m = meta(Mode::Quick);
        m.start_phase(Phase::Design, t(1), StartMode::Continue, all()).unwrap();
        let first = m.record_review(Phase::Design, &verdict(false), person(), t(2)).unwrap();
        assert_eq!(first.decision, Decision::Revise);
        assert!(first.recurring.is_empty());
        assert_eq!(m.phase_state(Phase::Design), PhaseState::Partial);
        let second = m.record_review(Phase::Design, &verdict(false), person(), t(3)).unwrap();
        assert_eq!(second.decision, Decision::CapReached);
        assert_eq!(second.recurring, ["[blocker] no AC (§2)", "[warning] vague"]);
        let r = m.record(Phase::Design).unwrap().clone();
        assert_eq!((r.iterations, r.outcome), (2, Some(LoopOutcome::CapReached)));
        assert_eq!(r.reviewer_notes, ["[blocker] no AC (§2)", "[warning] vague"]);
        assert_eq!((r.issues.blocker, r.issues.warning), (1, 1));
        // The loop is over: a further verdict is refused, not counted.
        let err = m.record_review(Phase::Design, &verdict(false), person(), t(4)).unwrap_err();
        assert!(err.to_string().contains("not in progress (it is completed)"), "{err}");
        // Later phases hear of the open blocker.
        assert_eq!(
            m.open_concerns_before(Phase::CreatePlan),
            [OpenConcerns { phase: Phase::Design, concerns: r.reviewer_notes.clone() }]
        );
        assert!(m.open_concerns_before(Phase::Design).is_empty());
    }

    #[test]
    fn hotfix_caps_at_one_iteration() {
        let mut m = meta(Mode::Hotfix);
        m.start_phase(Phase::Specify, t(1), StartMode::Continue, all()).unwrap();
        let step = m.record_review(Phase::Specify, &verdict(false), person(), t(2)).unwrap();
        assert_eq!(step.decision, Decision::CapReached);
    }

    #[test]
    fn review_needs_a_started_phase() {
        let mut m = meta(Mode::Standard);
        let err = m.record_review(Phase::Design, &verdict(true), person(), t(1)).unwrap_err();
        assert!(err.to_string().contains("workflow-state phase start design"), "{err}");
        // A refused call changes nothing.
        assert!(!m.phases.contains_key(&Phase::Design));
    }

    #[test]
    fn finished_features_refuse_changes() {
        let mut m = meta(Mode::Standard);
        m.finish(t(1)).unwrap();
        assert_eq!(m.status, Status::Completed);
        let err = m.start_phase(Phase::Design, t(2), StartMode::Continue, all()).unwrap_err();
        assert!(err.to_string().contains("is completed"), "{err}");
        crate::names::assert_serde_names::<Status>();
    }

    /// The retrospective prints a feature's workflow by its name: the
    /// name and the file's value agree.
    #[test]
    fn a_workflow_is_named_as_in_meta() {
        crate::names::assert_serde_names::<Workflow>();
    }

    #[test]
    fn verify_reviews_everything_since_implement_started() {
        let mut m = meta(Mode::Standard);
        m.start_phase(Phase::Implement, t(1), StartMode::Continue, all()).unwrap();
        m.phases.get_mut(&Phase::Implement).unwrap().base_commit = Some("aaa".into());
        m.start_phase(Phase::Verify, t(2), StartMode::Continue, all()).unwrap();
        m.phases.get_mut(&Phase::Verify).unwrap().base_commit = Some("bbb".into());
        assert_eq!(m.review_base(Phase::Implement), Some("aaa"));
        assert_eq!(m.review_base(Phase::Verify), Some("aaa"));
    }
}
