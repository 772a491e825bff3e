//! `workflow-state tasks …`: the feature's task list (tasks.md, in today's
//! form or seed 003's PLAN.md form) as data, and its checkboxes.

use clap::Subcommand;

use crate::{CmdResult, Ctx};

mod context;
mod fail;
mod list;
mod mark;
mod merge;
mod next;
mod record;
mod review;
mod reviewers;
mod worktree;

#[derive(Debug, Subcommand)]
pub enum TasksCommand {
    List(list::ListArgs),
    Next(next::NextArgs),
    Start(mark::StartArgs),
    /// Tick a task done: `[x]`.
    ///
    /// Written atomically under the feature's lock. Exit 1 when the change
    /// is refused (with why; also when the feature is no longer active), 2
    /// for an unknown task or unreadable file.
    Complete(mark::MarkArgs),
    /// Skip a task: `[-]`.
    ///
    /// Written atomically under the feature's lock. Exit 1 when the change
    /// is refused (with why; also when the feature is no longer active), 2
    /// for an unknown task or unreadable file.
    Skip(mark::MarkArgs),
    Fail(fail::FailArgs),
    Stop(fail::StopArgs),
    Context(context::ContextArgs),
    Worktree(worktree::WorktreeArgs),
    Merge(merge::MergeArgs),
    Reviewers(reviewers::ReviewersArgs),
    Review(review::ReviewArgs),
    Record(record::RecordArgs),
}

pub fn run(cmd: TasksCommand, ctx: &mut Ctx<'_>) -> CmdResult {
    use phasegate_ops::tasks::marks::MarkAction as Action;
    match cmd {
        TasksCommand::List(a) => list::cmd_list(a, ctx),
        TasksCommand::Next(a) => next::cmd_next(a, ctx),
        TasksCommand::Start(a) => mark::cmd_start(a, ctx),
        TasksCommand::Complete(a) => mark::cmd_mark(a, Action::Complete, ctx),
        TasksCommand::Skip(a) => mark::cmd_mark(a, Action::Skip, ctx),
        TasksCommand::Fail(a) => fail::cmd_fail(a, ctx),
        TasksCommand::Stop(a) => fail::cmd_stop(a, ctx),
        TasksCommand::Context(a) => context::cmd_context(a, ctx),
        TasksCommand::Worktree(a) => worktree::cmd_worktree(a, ctx),
        TasksCommand::Merge(a) => merge::cmd_merge(a, ctx),
        TasksCommand::Reviewers(a) => reviewers::cmd_reviewers(a, ctx),
        TasksCommand::Review(a) => review::cmd_review(a, ctx),
        TasksCommand::Record(a) => record::cmd_record(a, ctx),
    }
}
