//! What a task verb tells the model, as values with their facts: the
//! outcome keeps the value, its JSON the sentence (`Display`).

use std::fmt;

use super::build::{BuildAction, FailureDecision};
use super::config::DefaultAction;
use crate::paths::shell_word;
use crate::questions::AskSaid;
use crate::words::Command;

/// What `tasks fail` says to do next (its `message`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailedNext {
    pub feature: String,
    pub task: String,
    pub decision: FailureDecision,
    /// The build stops, and why.
    pub stop: Option<String>,
    /// The implementer the task was started with, kept for the retry.
    pub implementer: Option<String>,
    /// Where a rollback saved the files it overwrote or removed.
    pub saved_in: Option<String>,
    /// Changed files a rollback left as they are.
    pub kept: Vec<String>,
    /// Whether the task declares no files (then what it left may be the
    /// user's).
    pub undeclared: bool,
}

impl fmt::Display for FailedNext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let FailedNext { feature, task, decision, stop, implementer, .. } = self;
        // The retry, spelled to run as printed: the feature named, the
        // implementer the task was started with kept.
        let by = implementer.as_ref().map(|b| format!(" --by {}", shell_word(b))).unwrap_or_default();
        let retry = format!("`{}{by}`", Command::new("tasks start").arg(task).flag("feature", feature));
        let reason = &decision.reason;
        match (stop, &decision.action) {
            (Some(why), _) => write!(f, "The build stops: {why}. Report it to the user.")?,
            (None, BuildAction::Retry) => write!(f, "{reason}. Fix it and retry: {retry}.")?,
            (None, BuildAction::InstallAndRetry) => write!(
                f,
                "{reason}. Install {} with the project's package manager, then {retry}.",
                decision.package.as_deref().unwrap_or("the missing package")
            )?,
            (None, BuildAction::RebaseAndRetry) => {
                write!(f, "{reason}. Rebase on the current branch, resolve, then {retry}.")?
            }
            (None, BuildAction::Skip) => {
                write!(f, "{reason}: {task} is skipped; go on with `{}`.", Command::new("tasks next").feature(feature))?
            }
            (None, BuildAction::Escalate) => write!(f, "{reason}. The user decides (see escalation).")?,
        }
        self.rollback(f)
    }
}

impl FailedNext {
    /// What a rollback adds: where the files it overwrote or removed were
    /// saved, and the changed files it left.
    fn rollback(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(saved) = &self.saved_in {
            write!(
                f,
                " The rollback saved every file it overwrote or removed in {saved} first (savedIn); copy back what you need from there."
            )?;
        }
        if !self.kept.is_empty() {
            let why = match self.undeclared {
                true => {
                    "made since the task started, and the task declares no files (add `Files:` to it in tasks.md), so they may be the user's"
                }
                false => "not among the task's declared files",
            };
            write!(
                f,
                " Left as they are, {why}: {}; remove them yourself if they are the task's.",
                self.kept.join(", ")
            )?;
        }
        Ok(())
    }
}

/// What `tasks record --timed-out` says (its `message`): the task, the
/// reviewer that did not answer in time, and what the configuration does
/// then.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewTimedOut {
    pub task: String,
    pub reviewer: String,
    pub action: DefaultAction,
}

impl fmt::Display for ReviewTimedOut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ReviewTimedOut { task, reviewer, action } = self;
        match action {
            DefaultAction::SkipWithWarning => {
                write!(f, "WARNING: {task} was skipped: {reviewer} did not review it in time. Tell the user.")
            }
            DefaultAction::AcceptAsIs => {
                write!(f, "{task} was accepted as it is: {reviewer} did not review it in time. Tell the user.")
            }
            DefaultAction::AbortProcess => {
                write!(f, "The build stops: {reviewer} did not review {task} in time. Tell the user.")
            }
        }
    }
}

/// How a task reviewer is asked to answer: the first line the verdict,
/// then the findings (or the verdict JSON).
pub fn reply_format() -> String {
    format!(
        "Answer on the first line APPROVED or NEEDS REVISION, then your findings, one per line (or the verdict JSON of `{}`).",
        Command::new("schema verdict")
    )
}

/// What `tasks record` says to do next (its `message`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordedNext {
    /// The reply says neither approved nor needs revision: nothing was
    /// counted; spawn the reviewer again with the reply format.
    Unclear { reviewer: Option<String> },
    /// The task is approved and ticked done.
    Approved { task: String },
    /// The findings go back to the implementer ([`super::SELF_IMPLEMENTER`]
    /// when the session implemented it), then the next cycle.
    Revise {
        feature: String,
        task: String,
        implementer: String,
        cycle: u32,
        reviewer: Option<String>,
        /// Why the reviewer was switched, when it was.
        switched: Option<String>,
    },
    /// The cap of review cycles is reached; the escalation was asked.
    CapReached { task: String, max_cycles: u32, asked: AskSaid },
}

impl fmt::Display for RecordedNext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordedNext::Unclear { reviewer } => write!(
                f,
                "The reply of {} says neither approved nor needs revision; nothing was counted. Spawn it again with the same prompt plus \"{}\", then record its new reply.",
                reviewer.as_deref().unwrap_or("the reviewer"),
                reply_format()
            ),
            RecordedNext::Approved { task } => write!(f, "{task} is approved and ticked done."),
            RecordedNext::Revise { feature, task, implementer, cycle, reviewer, switched } => {
                match implementer == super::SELF_IMPLEMENTER {
                    true => write!(f, "Fix the findings yourself in this session (you implemented the task)")?,
                    false => write!(
                        f,
                        "Send the findings back to {implementer} to fix (resume it, or start it again with the findings)"
                    )?,
                }
                write!(
                    f,
                    ", then review cycle {} with {} (`{}`).",
                    cycle + 1,
                    reviewer.as_deref().unwrap_or("the same reviewer"),
                    Command::new("tasks review").arg(task).feature(feature)
                )?;
                match switched {
                    Some(reason) => write!(f, " Reviewer switched: {reason}."),
                    None => Ok(()),
                }
            }
            RecordedNext::CapReached { task, max_cycles, asked } => {
                write!(f, "{task} reached its cap of {max_cycles} review cycles: {asked}")
            }
        }
    }
}

/// What `tasks next` notes when more tasks of a parallel phase are ready
/// than were asked for (its `note`): how to get the batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batch {
    pub feature: String,
    pub ready: usize,
}

impl fmt::Display for Batch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} tasks of this parallel phase can run at once: `{}` gives the batch",
            self.ready,
            Command::new("tasks next").word("--parallel").feature(&self.feature)
        )
    }
}

/// The retrospective a failed task offers (`tasks fail`'s `retro`, seed
/// 004's `task.failed`): now, or once after the build.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetroOffer {
    pub feature: String,
    pub task: String,
}

impl fmt::Display for RetroOffer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let RetroOffer { feature, task } = self;
        write!(f, "To learn from this failure now: /phasegate:retro {feature} --task {task} (or once, after the build)")
    }
}
