//! The one error of every operation. Each variant keeps its typed source and
//! knows its class ([`OpError::class`]), so a front end decides what it means
//! (the CLI's exit code, in one place) without parsing messages, and every
//! message says what to do.

use std::path::PathBuf;

use phasegate_core::agent::Agent;
use phasegate_core::cycle::Decision;
use phasegate_core::error::{Classified, ErrorClass};
use phasegate_core::feature::{MetaError, Phase, VerdictError};
use phasegate_core::pipeline::RunError;
use phasegate_core::pipeline::State;
use phasegate_core::pipeline::files::{FileError, FileKind};
use phasegate_core::pipeline::{GateError, Stage};
use phasegate_core::questions::{AnsweredBy, ReplyError, RoundsError, Source};
use phasegate_core::tasks::{CycleError, Mark};
use phasegate_core::words::Command;
use phasegate_store::{ResolveError, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum OpError {
    /// A workflow rule said no.
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// The caller's input is invalid: a usage error, or a verdict, a reply or
    /// a pipeline file that breaks its format ([`Invalid`] says which).
    #[error(transparent)]
    Invalid(Invalid),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Resolve(#[from] ResolveError),
    #[error(transparent)]
    Meta(#[from] MetaError),
    #[error(transparent)]
    Run(#[from] RunError),
    #[error(transparent)]
    Gate(#[from] GateError),
    #[error(transparent)]
    Cycle(#[from] CycleError),
    #[error(transparent)]
    Rounds(#[from] RoundsError),
    /// An input (a flag, a file or reply the command was given) is not
    /// what it must be: `what` names it, the typed source says why.
    #[error("{what}: {source}")]
    BadInput {
        what: String,
        #[source]
        source: Box<dyn std::error::Error + Send + Sync + 'static>,
    },
    /// A typed error of the core's whose own message names its input.
    #[error(transparent)]
    Core(Box<dyn std::error::Error + Send + Sync + 'static>),
    /// A file of the proof (spec.md, tasks.md's Checks, a pipeline's user
    /// story or plan) that cannot be read as its grammar says: each problem
    /// with its line.
    #[error("{file}: {error}")]
    Grammar {
        file: String,
        #[source]
        error: phasegate_core::proof::GrammarError,
    },
}

/// What is invalid ([`OpError::Invalid`]): a message, or a typed error
/// with the input it concerns, each with one `Display` that says what to do.
#[derive(Debug, thiserror::Error)]
pub enum Invalid {
    /// A reviewer's reply (read from `from`) that is not a verdict.
    #[error(
        "{from}: {source}\nNothing was recorded. Spawn the reviewer once more with the same prompt (it answers in the verdict format), then record again: its new reply is read."
    )]
    Verdict {
        from: String,
        #[source]
        source: VerdictError,
    },
    /// The implementer's reply (read from `from`) breaks the STATUS protocol.
    #[error(
        "{from}: {source}\nNothing was recorded. Ask the implementer again with the same prompt; its reply must follow the format."
    )]
    Reply {
        from: String,
        #[source]
        source: ReplyError,
    },
    /// A pipeline file of `kind` at `path` that breaks its schema.
    #[error("{}", bad_pipeline_file(path, *kind, source))]
    PipelineFile {
        path: PathBuf,
        kind: FileKind,
        #[source]
        source: FileError,
    },
    /// No knowledge item has this id (`kb show`, `kb promote`, a
    /// retrospective's judgement of an item since removed).
    #[error("no item `{id}`; `{kb_list}` shows them", kb_list = Command::new("kb list"))]
    NoKnowledgeItem { id: String },
    /// No question of this clone has this id (nor is it a feature with one
    /// open question); `open` are the feature's open ones when it has
    /// several, `unreadable` what could not be read.
    #[error("{}", no_question(id, open, unreadable.as_deref()))]
    NoQuestion { id: String, open: Vec<String>, unreadable: Option<String> },
    /// The user's sealing key has no folder to live in.
    #[error(
        "phasegate keeps its sealing key in $XDG_STATE_HOME/phasegate or ~/.local/state/phasegate, and neither HOME nor XDG_STATE_HOME is set: set one"
    )]
    NoKeyFolder,
    /// Outside Claude Code, a verdict is a person's file.
    #[error(
        "no reviewer ran here (outside Claude Code): give the reply as a file to record it as yours; inside Claude Code, spawn {agent} as `{brief}` says and record again"
    )]
    VerdictToGive { agent: String, brief: String },
    /// The final gate's answer is not JSON.
    #[error("the final gate's answer is not valid JSON ({source}); nothing was recorded")]
    FinalGateNotJson {
        #[source]
        source: serde_json::Error,
    },
    /// The final gate's answer is not a review; it was kept in `saved`.
    #[error("{source}\nThe answer was saved to {}; nothing was recorded.", saved.display())]
    FinalGateRejected {
        saved: PathBuf,
        #[source]
        source: StoreError,
    },

    // Arguments and the environment.
    /// A command that needs the session it runs in, run outside one.
    #[error("no session id: run this inside Claude Code (CLAUDE_CODE_SESSION_ID) or pass --session")]
    NoSession,
    /// `sessions priority` without a session to set it for.
    #[error("whose priority? run it inside a Claude Code session or pass --session <id>")]
    NoPrioritySession,
    /// `--session` names the beginning of several sessions' ids.
    #[error("--session {given}: names {} sessions ({}); give more of the id", .matching.len(), .matching.join(", "))]
    AmbiguousSession { given: String, matching: Vec<String> },
    /// A lock timeout (`variable`) that is not a number of milliseconds.
    #[error("{variable}={value:?} is not a number of milliseconds from 0 to {max}; unset it for the default of 10000")]
    BadLockTimeout { variable: &'static str, value: String, max: u64 },
    /// Words that make no feature name.
    #[error(
        "cannot make a feature name from `{words}`: give a short slug of letters, digits, '-', '_' or '.' (for example `user-auth`)"
    )]
    NoFeatureName { words: String },
    /// `commit` with an empty `--message`.
    #[error("--message is empty; say what the commit holds (`<feature>: <phase>`)")]
    EmptyCommitMessage,
    /// `commit` with no paths.
    #[error("name the paths to commit after `--`")]
    NoPathsToCommit,
    /// The runner's `claude` could not be started.
    #[error("`{}` could not be started: {source} (say where it is with --claude)", .claude.display())]
    ClaudeNotStarted {
        claude: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A text argument that could not be read from stdin (`-`).
    #[error("cannot read the {what} from stdin: {source}")]
    Stdin {
        what: String,
        #[source]
        source: std::io::Error,
    },
    /// A text argument's file that does not exist.
    #[error("cannot read the {what} file {}: it does not exist; write it first", .path.display())]
    NoInputFile { what: String, path: PathBuf },
    /// `schema` of a name that is no schema.
    #[error("unknown schema `{name}`; expected one of: {known}")]
    UnknownSchema { name: String, known: String },

    // Slack's settings.
    /// Slack channels configured, but no token to reach them.
    #[error(
        ".phasegate/questions.config.json names Slack channels but {missing}: export the Slack app's token, or remove slack.channels to answer questions with `{question_answer}`", question_answer = Command::new("question answer"))]
    NoSlackToken { missing: String },
    /// A token variable that is not UTF-8.
    #[error("{name} is not valid UTF-8: set it to the Slack token")]
    TokenNotUtf8 { name: String },
    /// A token variable that holds more than a token.
    #[error(
        "{name} is not a Slack token (it has whitespace, control or non-ASCII characters): set it to the token alone"
    )]
    NotAToken { name: String },
    /// Slack's API address (`variable`) that makes no client.
    #[error("{why} (check {variable})")]
    SlackApiUrl { why: String, variable: &'static str },

    // Tasks.
    /// `--by` that names no implementer.
    #[error(
        "--by `{by}`: give the agent that implements the task (as `tasks reviewers` lists it) or `{}` when this session does it",
        phasegate_core::tasks::SELF_IMPLEMENTER
    )]
    NoImplementer { by: String },
    /// A task's checkbox that is not where tasks.md was read.
    #[error("{file}:{line}: the task's checkbox moved; run the command again")]
    CheckboxMoved { file: String, line: usize },
    /// tasks.md has no task of this id.
    #[error("{file} has no task {id} (tasks: {})", .known.join(", "))]
    NoTask { file: String, id: String, known: Vec<String> },
    /// A task's first review without its reviewer.
    #[error(
        "{task} has no review cycle yet: name its reviewer with --reviewer (candidates: `{tasks_reviewers}`)", tasks_reviewers = Command::new("tasks reviewers").arg(.task).feature(.feature))]
    NoReviewerNamed { task: String, feature: String },

    // The pipeline.
    /// A pipeline command on a feature that runs phase by phase.
    #[error(
        "feature {feature} is not a pipeline (it runs phase by phase); start one with `{pipeline_start}`", pipeline_start = Command::new("pipeline start").word("<slug>").word("--request <text>"))]
    NotAPipeline { feature: String },
    /// No pipeline is active.
    #[error(
        "no active pipeline; start one with `{pipeline_start}` (or /phasegate:pipeline <request>)", pipeline_start = Command::new("pipeline start").word("<slug>").word("--request <text>"))]
    NoActivePipeline,
    /// Several pipelines are active and none was named.
    #[error("several active pipelines: {}; pass --feature <name>", .features.join(", "))]
    SeveralPipelines { features: Vec<String> },
    /// `pipeline start` with an empty `--request`.
    #[error("--request is empty; pass what the user asked for")]
    EmptyRequest,
    /// `pipeline advance` to paused: `pipeline pause` says why.
    #[error("pause with `{pipeline_pause}` instead", pipeline_pause = Command::new("pipeline pause").word("<reason>").word("--message <text>"))]
    PauseInstead,
    /// `pipeline advance` to error: `pipeline fail` says why.
    #[error("fail with `{pipeline_fail}` instead", pipeline_fail = Command::new("pipeline fail").word("--message <text>"))]
    FailInstead,
    /// `pipeline check review` without the file.
    #[error("pass the review file with --file (e.g. --file .task/review-sonnet.json)")]
    ReviewFileNeeded,
    /// A pipeline file to check that does not exist.
    #[error("{} does not exist; write it first", .path.display())]
    NoFileToCheck { path: PathBuf },
    /// The worker's signal, not written yet.
    #[error("{} does not exist yet; the worker writes it", .path.display())]
    NoWorkerSignal { path: PathBuf },
    /// The refined plan, not written yet.
    #[error("{} is missing; the planner writes it", .path.display())]
    NoPlan { path: PathBuf },
    /// A stage's review file, named or default, that does not exist.
    #[error("the {stage} review {} does not exist; give the reviewer's reply there", .path.display())]
    NoStageReview { stage: Stage, path: PathBuf },
    /// A review whose `model` is not its stage's.
    #[error("this review says model `{model}`, but the {stage} stage needs model `{}`", .stage.model())]
    ReviewModel { model: String, stage: Stage },
    /// A review whose `reviewer` is not its gate's.
    #[error("this review comes from `{given}`, but the {gate} gate's {stage} stage expects `{reviewer}`")]
    ReviewReviewer { given: String, gate: phasegate_core::pipeline::GateKind, stage: Stage, reviewer: String },
    /// `finalGate.command` is empty.
    #[error("finalGate.command is empty")]
    FinalGateNoCommand,
    /// The final gate timed out or failed.
    #[error(
        "the final gate `{command}` {end}; nothing was recorded. Its error output ends with:\n{stderr}\nRetry with `{pipeline_final_gate}`, or pause the pipeline for the user.", pipeline_final_gate = Command::new("pipeline final-gate").feature(.feature))]
    FinalGateFailed { command: String, end: GateEnd, stderr: String, feature: String },
    /// The final gate's answer holds no JSON.
    #[error("the final gate's answer holds no JSON object; nothing was recorded. It said:\n{said}")]
    FinalGateNoJson { said: String },

    // Questions and rounds.
    /// An answer that picks none of the question's options.
    #[error("`{text}` does not answer {id}: pick an option by number or label ({})", .options.join(", "))]
    NoOption { id: String, text: String, options: Vec<String> },
    /// A round loop for a phase that writes no document.
    #[error("{phase} writes no document, so it has no implementer round loop")]
    NoRoundLoop { phase: Phase },
    /// `rounds start` with an empty brief.
    #[error("the brief is empty: write what the implementer must produce")]
    EmptyBrief,

    // Proof.
    /// A phased feature's spec.md, not written yet.
    #[error(
        "{file} does not exist: the specify phase writes it (`{}`), and its numbered requirements are what a proof proves",
        Phase::Specify.command()
    )]
    NoSpec { file: String },
    /// A pipeline's user story, not written yet.
    #[error("{file} does not exist yet: the pipeline's requirements come from the user story, written before the plan")]
    NoUserStory { file: String },
    /// `verify waive` of an id that is no requirement.
    #[error("{requirement} is not a requirement of {file} ({}): name one of them", .known.join(", "))]
    NotARequirement { requirement: String, file: String, known: Vec<String> },
    /// `verify waive` without `--reason`.
    #[error(
        "say why {requirement} may be done without proof: `{verify_waive}`", verify_waive = Command::new("verify waive").arg(.requirement).word("--reason \"<why>\"").feature(.feature))]
    NoWaiverReason { requirement: String, feature: String },

    // Coordination.
    /// `ideation decision` without its type or summary.
    #[error("a decision needs a type and a summary; say what was decided")]
    DecisionIncomplete,
    /// `ideation risk` without a summary.
    #[error("a risk needs a summary; say what could go wrong")]
    RiskIncomplete,
    /// `lease take` outside a Claude Code session.
    #[error("a lease belongs to a Claude Code session: run this inside one (CLAUDE_CODE_SESSION_ID is not set)")]
    LeaseWithoutSession,
    /// `lease release` that names no session.
    #[error("say whose lease to release: --session <id> (`{lease_list}` names them)", lease_list = Command::new("lease list"))]
    ReleaseWhose,
    /// A file to lease outside the repository (`link`: where the given path
    /// leads, when it is a link).
    #[error(
        "{given}{} is outside the repository at {}: leases cover the files of its working trees only",
        .link.as_ref().map(|l| format!(" (a link to {})", l.display())).unwrap_or_default(),
        .root.display()
    )]
    LeaseOutsideRepo { given: String, link: Option<PathBuf>, root: PathBuf },

    // The knowledge base and retrospectives.
    /// A knowledge file that cannot be read blocks a change.
    #[error(
        "{}: {why}; fix or remove it first (`{kb_lint}` lists every problem); nothing was changed", .path.display(), kb_lint = Command::new("kb lint"))]
    UnreadableKnowledge { path: PathBuf, why: String },
    /// A path outside the working tree whose patterns it is matched against.
    #[error("{path} is outside the working tree {}", .root.display())]
    OutsideWorkingTree { path: String, root: PathBuf },
    /// An item just recorded that is not found again.
    #[error("{id} was recorded but cannot be read back")]
    NotReadBack { id: String },
    /// `kb supersede` with neither `--by` nor `--reason`.
    #[error("say what replaces it (--by <id>) or why it is obsolete (--reason <text>)")]
    RetireHow,
    /// `kb supersede --by` an item that does not exist.
    #[error("no item `{by}` to supersede {id} with; `{kb_list}` shows them", kb_list = Command::new("kb list"))]
    NoSupersedingItem { id: String, by: String },
    /// An item not found while some items cannot be read.
    #[error("no readable item `{id}` (these cannot be read: {})", .unreadable.join(", "))]
    NoReadableItem { id: String, unreadable: Vec<String> },
    /// `kb promote` that cannot tell whose retrospective asks.
    #[error(
        "name the feature whose retrospective asks (`--feature <feature>`): none of {id}'s evidence names one that exists"
    )]
    PromoteWhichFeature { id: String },
    /// `kb reinforce` without how the lesson was met.
    #[error("say how it was met again: --seen --evidence <text>, --prevented or --not-helped")]
    ReinforceHow,
    /// A retrospective's record that is not one.
    #[error(
        "{}: {why}; it is written by `{retro_record}` only: restore it from git or remove it", .path.display(), retro_record = Command::new("retro record"))]
    RetroRecord { path: PathBuf, why: String },
    /// The retrospective agent's reply that breaks its format.
    #[error("the retrospective's reply: {why}")]
    RetroReply { why: String },
}

impl From<Invalid> for OpError {
    fn from(e: Invalid) -> OpError {
        OpError::Invalid(e)
    }
}

fn no_question(id: &str, open: &[String], unreadable: Option<&str>) -> String {
    let mut msg = format!("no question `{id}`");
    match open.len() {
        0 | 1 => msg.push_str(&format!("; `{}` shows the open ones", Command::new("question list"))),
        n => msg.push_str(&format!("; {id} has {n} open questions: {}", open.join(", "))),
    }
    if let Some(u) = unreadable {
        msg.push_str(u);
    }
    msg
}

fn bad_pipeline_file(path: &std::path::Path, kind: FileKind, e: &FileError) -> String {
    match e {
        FileError::Syntax(e) => format!("{} is not valid JSON: {e}", path.display()),
        e => format!(
            "{} {e}\n(the whole schema: `{schema}`)",
            path.display(),
            schema = Command::new("schema").arg(&kind)
        ),
    }
}

/// Keeps an error's type when it becomes an [`OpError`] of invalid input.
pub trait InvalidInput<T> {
    /// The error, about the input `what` names (`--pattern src/*.rs`, a
    /// file's path).
    fn invalid(self, what: impl Into<String>) -> OpResult<T>;
    /// The error, whose message names its input already.
    fn invalid_input(self) -> OpResult<T>;
}

impl<T, E: std::error::Error + Send + Sync + 'static> InvalidInput<T> for Result<T, E> {
    fn invalid(self, what: impl Into<String>) -> OpResult<T> {
        self.map_err(|e| OpError::BadInput { what: what.into(), source: Box::new(e) })
    }

    fn invalid_input(self) -> OpResult<T> {
        self.map_err(|e| OpError::Core(Box::new(e)))
    }
}

impl OpError {
    /// Refused by a rule, or invalid input or state.
    pub fn class(&self) -> ErrorClass {
        match self {
            OpError::Refused(_) => ErrorClass::Refused,
            OpError::Invalid(_)
            | OpError::Store(_)
            | OpError::Resolve(_)
            | OpError::BadInput { .. }
            | OpError::Core(_)
            | OpError::Grammar { .. } => ErrorClass::Invalid,
            OpError::Meta(e) => e.class(),
            OpError::Run(e) => e.class(),
            OpError::Gate(e) => e.class(),
            OpError::Cycle(e) => e.class(),
            OpError::Rounds(e) => e.class(),
        }
    }
}

/// A workflow rule of an operation said no. Each names what to do instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    // The knowledge base.
    #[error("the lesson is not recorded: {why}")]
    NotAdmitted { why: String },
    #[error(
        "`{id}` does not go into CLAUDE.md: {why} (seed 004 §6.3: confidence at least 0.9, seen at least 3 times, in 2 or more features, not there yet)"
    )]
    NotPromotable { id: String, why: String },
    #[error(
        "`{id}` is not superseded by `{by}`: that would make a circle ({chain}), and every item of it would be retired, so the lesson would reach no query. Supersede the other way round, or retire one with --reason"
    )]
    SupersedeCycle { id: String, by: String, chain: String },
    #[error(
        "`{id}` waits for the user's answer to {question}: nothing is written to CLAUDE.md until they say yes (`{question_answer}`, or No)", question_answer = Command::new("question answer").arg(.question).word("Yes"))]
    PromotionWaits { id: String, question: String },

    // A feature's phases.
    #[error("{message}")]
    TransitionBlocked { phase: Phase, message: phasegate_core::feature::RuleSaid },
    #[error(
        "{phase} has no reviewer: it is not a phase with a result to review; run `{finish}` to end the feature", finish = Command::new("finish").feature(.feature))]
    NoReviewer { phase: Phase, feature: String },

    // Tasks.
    #[error("{task} is {}; only a task in progress can fail", .mark.name())]
    NotInProgress { task: String, mark: Mark },
    #[error("{task} has no checkpoint to roll back to (it was started before checkpoints)")]
    NoCheckpoint { task: String },
    #[error("{task} is {}; it cannot become {}", .from.name(), .to.name())]
    MarkRefused { task: String, from: Mark, to: Mark },
    #[error(
        "{task} is reviewed: its reviewer's approval ticks it (`{tasks_review}`, then `tasks record`); after the cap, a person's \"Accept as-is\" to its escalation lets it be ticked by hand", tasks_review = Command::new("tasks review").arg(.task).feature(.feature))]
    TickedByReview { task: String, feature: String },
    #[error("{task} is not ready: {why}")]
    NotReady { task: String, why: String },
    #[error(
        "the build stopped: {why}. Tell the user; when they want to go on, `{tasks_stop}` begins a new build", tasks_stop = Command::new("tasks stop").word("--clear").feature(.feature))]
    BuildStopped { why: String, feature: String },
    #[error("{task} is {}; start it first (`{tasks_start}`)", .mark.name(), tasks_start = Command::new("tasks start").arg(.task).feature(.feature))]
    NotStarted { task: String, mark: Mark, feature: String },
    #[error(
        "{task} has uncommitted changes or untracked files in {path}: commit them on {branch} (or move them away), then merge again; nothing was merged or removed"
    )]
    UncommittedWork { task: String, path: String, branch: String },
    #[error("{task} has no commit on {branch}: commit the task's work in {path} first")]
    NothingToMerge { task: String, branch: String, path: String },
    #[error("{agent} is not an available agent; available: {}", .available.join(", "))]
    UnknownAgent { agent: String, available: Vec<String> },
    #[error("the review cycle of {task} is over ({})", .outcome.name())]
    CycleOver { task: String, outcome: Decision },
    #[error("the review of {task} moved on from cycle {cycle} meanwhile (another record); nothing was counted")]
    CycleMoved { task: String, cycle: u32 },

    // The pipeline.
    #[error("the pipeline is {state}; reviews are recorded in plan_reviewing and implementing_loop")]
    NotReviewing { state: State },
    #[error(
        "the final gate is next: run `{pipeline_final_gate}`, not a reviewer agent", pipeline_final_gate = Command::new("pipeline final-gate").feature(.feature))]
    FinalGateNext { feature: String },
    #[error(
        "the {stage} review must come from a reviewer run on {want}, but it ran on {model}: spawn it again with `model: \"{want}\"` (`pipeline review-brief` names the model); nothing was counted"
    )]
    ReviewerModel { stage: Stage, model: String, want: &'static str },
    #[error("the final gate runs after the opus review; round {round} expects the {expected} review next")]
    FinalGateTooEarly { round: u32, expected: Stage },
    #[error(
        "the {worker} is still fixing the findings of round {round}; no review starts on work that is being changed. When its result has arrived, run `{pipeline_fixed}`, then review from sonnet", pipeline_fixed = Command::new("pipeline fixed").feature(.feature))]
    FixInProgress { worker: Agent, round: u32, feature: String },
    #[error("the pipeline of {feature} is {state}, not paused: nothing to ask")]
    NotPaused { feature: String, state: State },
    #[error(
        "the pipeline of {feature} is {state}, not complete: its work is committed when it completes (`{pipeline_next}` says what comes first)", pipeline_next = Command::new("pipeline next").feature(.feature))]
    PipelineNotComplete { feature: String, state: State },

    // Questions and the round loop.
    #[error("{path} does not exist yet: write it first")]
    NoArtifact { path: String },
    #[error("{path}: {why}")]
    OpenQuestionsMissing { path: String, why: String },
    #[error("{feature} is {status}: it asks no more questions")]
    AsksNoMore { feature: String, status: String },
    #[error("{feature} is already suspended on {id}: \"{question}\"; one question at a time: wait for its answer")]
    AlreadySuspended { feature: String, id: String, question: String },
    #[error(
        "{feature}'s question {id} is answered; take the answer in first (`{phase_start}`, `rounds prompt` or `pipeline resume` do), then ask again", phase_start = Command::new("phase start").feature(.feature))]
    AnswerWaiting { feature: String, id: String },
    #[error("{id} was taken back into its work meanwhile; nothing to answer")]
    TakenBack { id: String },
    #[error("{id} is already answered ({answered_in} by {by}, {at}): \"{text}\"")]
    AlreadyAnswered { id: String, answered_in: Source, by: AnsweredBy, at: String, text: String },
    #[error(
        "{feature} is suspended: question {id} waits for an answer: \"{question}\". Answer it with `{question_answer}` (or in its Slack thread), or work on another feature.", question_answer = Command::new("question answer").arg(.id).word("\"<answer>\""))]
    Suspended { feature: String, id: String, question: String },

    // Proof.
    #[error(
        "{feature} is not proven ({summary}): {}. Run `{verify_run}`, fix what fails, and run it again; a requirement that cannot be proven goes to a person (`{verify_waive}`)", .open.join("; "), verify_run = Command::new("verify run").feature(.feature), verify_waive = Command::new("verify waive").word("<id>").word("--reason \"<why>\"").feature(.feature))]
    NotProven { feature: String, summary: String, open: Vec<String> },
    #[error(
        "{feature}'s proof is stale: the checks of {stale}/{total} requirements passed, but the code changed since `verify run` ran them. Run them again: `{verify_run}`", verify_run = Command::new("verify run").feature(.feature))]
    ProofStale { feature: String, stale: usize, total: usize },
    #[error(
        "another `verify run` of {feature} is running; wait for it (its ledger is written when it ends), then read it with `{verify_status}`", verify_status = Command::new("verify status").feature(.feature))]
    VerifyRunning { feature: String },
    #[error(
        "{id} is a person's decision ({what}): a person answers it, never the model or a script. They answer in the question dialog, in its Slack thread, by typing `/phasegate:answer {id} <answer>` in Claude Code, or in a terminal outside it: `{question_answer}`", question_answer = Command::new("question answer").arg(.id).word("<answer>"))]
    PersonOnly { id: String, what: String },
    #[error("`{text}` does not answer {id}: pick an option by number or label ({options})")]
    NotAnAnswer { id: String, text: String, options: String },
    #[error("{id} is answered already on {remote} by a teammate: the asker takes that answer in at their next sync")]
    AnsweredOnTeam { id: String, remote: String },
    #[error(
        "{id} is a teammate's question, and {remote} could not be reached ({why}): nothing was answered; answer again when it is back"
    )]
    TeamUnreachable { id: String, remote: String, why: String },
    #[error(
        "the answer to {id} was not recorded by phasegate (its file was edited by hand, or copied from another machine): it decides nothing. Ask the person again"
    )]
    AnswerNotRecorded { id: String },
    #[error(
        "{requirement} of {feature} waits for the person's answer to {question}: nothing is waived until they say yes"
    )]
    WaiverWaits { feature: String, requirement: String, question: String },
    #[error("{requirement} of {feature} is {status}: there is nothing to waive")]
    NothingToWaive { feature: String, requirement: String, status: String },

    // What a gate believes.
    #[error(
        "no verdict of {agent} for {subject}: {why}. Nothing was counted. Spawn {agent} with the Agent tool (subagent_type `{agent}`, the prompt `{brief}` prints after `Prompt:` as it is, run_in_background false), then record again: its reply is read from Claude Code's transcript"
    )]
    NoReviewerVerdict { agent: String, subject: String, why: String, brief: String },
    #[error(
        "{given} is not what {agent} ({agent_id}) answered: only the reviewer's own reply is recorded. Record without it (the reply is read from the reviewer's transcript)"
    )]
    NotTheReviewers { given: String, agent: String, agent_id: String },
    #[error(
        "{phase} has a reviewer: it completes when its reviewer's verdict is recorded (`{review_brief}`, spawn the reviewer, `{review_record}`); a person completes it by hand outside Claude Code", review_brief = Command::new("review brief").arg(.phase).feature(.feature), review_record = Command::new("review record").arg(.phase).feature(.feature))]
    CompletedByReviewer { phase: Phase, feature: String },

    // Tampering.
    #[error("{feature} cannot finish: {summary}")]
    Tampered { feature: String, summary: String },
    #[error("the marks of {feature} wait for a person's answer to {question}: nothing is cleared until they say yes")]
    ClearWaits { feature: String, question: String },

    // The runner.
    #[error("another `{run}` runs in this repository{}: one runner per repository (stop it with Ctrl-C, or wait for it)", .pid.map(|p| format!(" (pid {p})")).unwrap_or_default(), run = Command::new("run"))]
    RunnerRuns { pid: Option<u32> },

    // The report.
    #[error("{path} is not a phasegate report: it is not replaced. Choose another --out, or move the file away first")]
    NotAReport { path: String },

    // A team across machines.
    #[error(
        "{task} of {feature} is claimed on {held} ({times}). Ways on: wait until they finish or the claim expires, then run `{tasks_start}` again (an expired claim is taken over); take another task (`{tasks_next}`); or ask them to finish or give it back", tasks_start = Command::new("tasks start").arg(.task).feature(.feature), tasks_next = Command::new("tasks next").feature(.feature))]
    ClaimedElsewhere {
        task: String,
        feature: String,
        /// `origin by Bob <bob@x> on laptop (session 1a2b3c4d)`.
        held: String,
        /// `last heartbeat …, the claim expires …`.
        times: String,
    },
    #[error(
        "the {phase} phase of {feature} is claimed on {held} ({times}). Ways on: wait until they complete it or the claim expires, then run `{phase_start}` again (an expired claim is taken over); work on another feature (`{status}`); or ask them to complete it or give it back", phase_start = Command::new("phase start").arg(.phase).feature(.feature), status = Command::new("status"))]
    PhaseClaimedElsewhere { phase: Phase, feature: String, held: String, times: String },

    // Coordination: leases and ideation.
    #[error("{task} cannot start: {message}")]
    FileLeased { task: String, message: String },
    #[error(
        "ideation has not started for this feature: run `{ideation_start}` first", ideation_start = Command::new("ideation start").word("\"<the idea in a sentence>\""))]
    IdeationNotStarted,
    #[error("ideation of {feature} is complete; the specify phase reads its handoff.md (/phasegate:specify)")]
    IdeationDone { feature: String },
    #[error("ideation is in {phase}; the handoff brief is written at COMPLETE. Still missing: {missing}")]
    IdeationNotComplete { phase: phasegate_core::coordination::IdeationPhase, missing: String },
}

pub type OpResult<T> = Result<T, OpError>;

/// How a final gate's command ended when it failed ([`Invalid::FinalGateFailed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GateEnd {
    /// Killed after this many seconds.
    TimedOut { seconds: u64 },
    /// Exited with this code (None: killed by a signal).
    Exited { code: Option<i32> },
}

impl std::fmt::Display for GateEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GateEnd::TimedOut { seconds } => write!(f, "timed out after {seconds}s"),
            GateEnd::Exited { code } => write!(f, "exited {code:?}"),
        }
    }
}
