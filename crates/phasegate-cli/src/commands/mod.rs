//! `workflow-state` subcommands: the clap tree and the dispatch. Each
//! subcommand lives in its own file with its arguments and its function.

use clap::{Args, Parser, Subcommand};

use crate::{CmdResult, Ctx};

mod backlog;
mod commit;
mod cost;
mod events;
mod feature;
mod finish;
mod generate;
mod ideation;
mod input;
mod kb;
mod lease;
mod monitor;
mod next;
mod phase;
mod pipeline;
pub(crate) mod question;
mod report;
mod retro;
mod review;
mod rounds;
mod run;
mod schema;
mod sessions;
mod slack;
pub(crate) mod status;
mod tamper;
mod tasks;
mod team;
mod validate;
mod verify;
pub(crate) mod watch;
mod worktree;

/// Exact workflow state for phasegate's phases, reviews and worktrees.
///
/// The binary decides whether the workflow may move on: phase transitions,
/// `.meta.json`, review loops, tasks, questions, sessions and worktrees.
/// `workflow-state <command> --help` says what a command does in full.
///
/// Exit codes: 0 success/allowed, 1 refused by a workflow rule, 2 usage
/// error or unreadable/invalid state, 3 Slack refused or could not be
/// reached (nothing lost; the next poll retries), 130 `run` stopped by Ctrl-C.
#[derive(Debug, Parser)]
#[command(name = "workflow-state", version, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Validate(validate::ValidateArgs),
    /// Start, complete and inspect phases.
    ///
    /// Start, complete and inspect phases (the seed's updatePhaseState, partial-phase detection).
    #[command(subcommand)]
    Phase(phase::PhaseCommand),
    /// The reviewer loop: the reviewer's brief, and recording its verdict.
    #[command(subcommand)]
    Review(review::ReviewCommand),
    /// Create, show and abandon features.
    #[command(subcommand)]
    Feature(feature::FeatureCommand),
    Status(status::StatusArgs),
    Next(next::NextArgs),
    /// Check the current directory against the feature's worktree.
    #[command(subcommand)]
    Worktree(worktree::WorktreeCommand),
    Finish(finish::FinishArgs),
    /// Pipeline mode: the autonomous plan, review and implementation loop.
    ///
    /// Pipeline mode: the autonomous requirements → plan → review → implementation loop.
    #[command(subcommand)]
    Pipeline(pipeline::PipelineCommand),
    Schema(schema::SchemaArgs),
    /// The implementer round loop of a phase.
    ///
    /// The implementer round loop of a phase: brief, prompts with the prior Q&A, STATUS replies, answers.
    #[command(subcommand)]
    Rounds(rounds::RoundsCommand),
    Backlog(backlog::BacklogArgs),
    /// Questions to a person: ask (AskUserQuestion, suspension or queue), answer, list.
    #[command(subcommand)]
    Question(question::QuestionCommand),
    /// Questions in Slack: check the setup, poll the threads for answers.
    #[command(subcommand)]
    Slack(slack::SlackCommand),
    /// The feature's task list: list, next ready task, checkboxes.
    ///
    /// The feature's task list as data: list, the next ready task(s), and its checkboxes.
    #[command(subcommand)]
    Tasks(tasks::TasksCommand),
    /// The monitor: stuck tasks, deadlocks, sessions down, the PM's decisions.
    ///
    /// The monitor (seed 004 §7): stuck tasks, deadlocks, sessions down, and the PM's decisions.
    #[command(subcommand)]
    Monitor(monitor::MonitorCommand),
    /// The repository's events: what is pending, and acknowledging it.
    ///
    /// The repository's events (seed 004 §2): pending ones with their next step, acknowledging.
    #[command(subcommand)]
    Events(events::EventsCommand),
    /// File leases between Claude Code sessions: list, take, release.
    #[command(subcommand)]
    Lease(lease::LeaseCommand),
    /// The Claude Code sessions working on this repository.
    #[command(subcommand)]
    Sessions(sessions::SessionsCommand),
    /// A team across machines: claims and feature numbers on the git remote.
    #[command(subcommand)]
    Team(team::TeamCommand),
    Watch(watch::WatchArgs),
    /// The brainstorm phase's ideation sub-phases (seed 004 §3).
    ///
    /// The brainstorm phase's ideation sub-phases (seed 004 §3): signals, prompt, advance, handoff.
    #[command(subcommand)]
    Ideation(ideation::IdeationCommand),
    /// The knowledge base: gotchas, patterns and decisions learned from builds.
    #[command(subcommand)]
    Kb(kb::KbCommand),
    Retro(retro::RetroArgs),
    Commit(commit::CommitArgs),
    Cost(cost::CostArgs),
    Report(report::ReportArgs),
    Run(run::RunArgs),
    /// Done means proven: run a feature's checks, read the ledger, waive.
    ///
    /// Done means proven: run a feature's checks into its evidence ledger, read it, waive with a person's yes.
    #[command(subcommand)]
    Verify(verify::VerifyCommand),
    /// State files changed outside phasegate's commands: list, clear.
    ///
    /// State files changed outside phasegate's commands: list the marks, clear them with a person's yes.
    #[command(subcommand)]
    Tamper(tamper::TamperCommand),
    #[command(hide = true)]
    Generate(generate::GenerateArgs),
}

/// `--feature`, shared by every subcommand that acts on one feature.
#[derive(Debug, Clone, Args)]
pub struct FeatureArg {
    /// The feature: its folder, folder name (001-auth), id (1) or slug (auth).
    /// Default: the feature folder or worktree you are in, else the only active feature.
    #[arg(long, value_name = "FEATURE")]
    pub feature: Option<String>,
}

impl FeatureArg {
    pub fn get(&self) -> Option<&str> {
        self.feature.as_deref()
    }
}

pub fn run(cli: Cli, ctx: &mut Ctx<'_>) -> CmdResult {
    match cli.command {
        Command::Validate(args) => validate::cmd_validate(args, ctx),
        Command::Phase(cmd) => phase::run(cmd, ctx),
        Command::Review(cmd) => review::run(cmd, ctx),
        Command::Feature(cmd) => feature::run(cmd, ctx),
        Command::Status(args) => status::cmd_status(args, ctx),
        Command::Run(args) => run::cmd_run(args, ctx),
        Command::Next(args) => next::cmd_next(args, ctx),
        Command::Worktree(cmd) => worktree::run(cmd, ctx),
        Command::Finish(args) => finish::cmd_finish(args, ctx),
        Command::Pipeline(cmd) => pipeline::run(cmd, ctx),
        Command::Schema(args) => schema::cmd_schema(args, ctx),
        Command::Rounds(cmd) => rounds::run(cmd, ctx),
        Command::Backlog(args) => backlog::cmd_backlog(args, ctx),
        Command::Question(cmd) => question::run(cmd, ctx),
        Command::Slack(cmd) => slack::run(cmd, ctx),
        Command::Tasks(cmd) => tasks::run(cmd, ctx),
        Command::Monitor(cmd) => monitor::run(cmd, ctx),
        Command::Events(cmd) => events::run(cmd, ctx),
        Command::Lease(cmd) => lease::run(cmd, ctx),
        Command::Sessions(cmd) => sessions::run(cmd, ctx),
        Command::Team(cmd) => team::run(cmd, ctx),
        Command::Watch(args) => watch::cmd_watch(args, ctx),
        Command::Ideation(cmd) => ideation::run(cmd, ctx),
        Command::Kb(cmd) => kb::run(cmd, ctx),
        Command::Retro(a) => retro::run(a, ctx),
        Command::Commit(a) => commit::cmd_commit(a, ctx),
        Command::Cost(a) => cost::cmd_cost(a, ctx),
        Command::Report(a) => report::cmd_report(a, ctx),
        Command::Verify(cmd) => verify::run(cmd, ctx),
        Command::Tamper(cmd) => tamper::run(cmd, ctx),
        Command::Generate(a) => generate::cmd_generate(a, ctx),
    }
}

#[cfg(test)]
mod spelled_commands {
    //! Every `workflow-state …` command the crates spell out (in a brief, a
    //! message, a help text) names a subcommand and flags that exist, so a
    //! renamed subcommand or flag breaks this test, not a prompt.

    use std::path::{Path, PathBuf};

    use clap::CommandFactory;

    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// The command words after `workflow-state` up to where the command
    /// ends (a quote, a backtick, a closing bracket, a sentence's end).
    fn spelled(text: &str) -> Vec<(String, Vec<String>)> {
        let mut out = Vec::new();
        let mut rest = text;
        while let Some(i) = rest.find("workflow-state ") {
            // Commands, not prose: in backticks or quotes, or a line of its own.
            let before = &rest[..i];
            let command = before.ends_with('`') || before.ends_with('"') || before.ends_with("  ");
            rest = &rest[i + "workflow-state ".len()..];
            if !command {
                continue;
            }
            let end = rest.find(['`', '"', '\n', ')', ';', '\\', '…']).unwrap_or(rest.len());
            let words: Vec<String> = rest[..end].split_whitespace().map(str::to_owned).collect();
            if !words.is_empty() {
                out.push((words[0].clone(), words));
            }
        }
        out
    }

    /// Checks one spelled command against the clap tree; None when fine.
    fn check(root: &clap::Command, words: &[String]) -> Option<String> {
        let mut cmd = root.clone();
        let mut i = 0;
        // The subcommand path: words that name a subcommand (`a|b` names two).
        while let Some(w) = words.get(i) {
            if w.starts_with('-') || w.starts_with('<') || w.starts_with('{') || w.starts_with('[') {
                break;
            }
            let alternatives: Vec<&str> = w.split('|').collect();
            if cmd.get_subcommands().next().is_none() {
                break;
            }
            let word = w.trim_end_matches([',', '.', ':']);
            let found: Vec<clap::Command> = alternatives
                .iter()
                .map(|a| a.trim_end_matches([',', '.', ':']))
                .filter_map(|a| cmd.find_subcommand(a).cloned())
                .collect();
            if found.len() != alternatives.len() {
                return Some(format!("`{word}` is not a subcommand of `{}`", cmd.get_name()));
            }
            cmd = found[0].clone();
            i += 1;
        }
        for w in &words[i..] {
            let Some(flag) = w.strip_prefix("--") else { continue };
            let flag = flag.split('=').next().unwrap_or(flag).trim_end_matches([',', '.', ':', ']']);
            if flag.is_empty() || flag.starts_with('{') || !flag.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            {
                continue;
            }
            for f in flag.split('|') {
                let known = cmd.get_arguments().any(|a| a.get_long() == Some(f)) || f == "help" || f == "version";
                if !known {
                    return Some(format!("`--{f}` is not a flag of `{}`", cmd.get_name()));
                }
            }
        }
        None
    }

    #[test]
    fn every_spelled_command_names_a_real_subcommand_and_flags() {
        let root = super::Cli::command();
        let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut files = Vec::new();
        rust_files(&crates, &mut files);
        let mut checked = 0;
        let mut wrong = Vec::new();
        for file in files.iter().filter(|f| !f.to_string_lossy().contains("testkit")) {
            let text = std::fs::read_to_string(file).unwrap();
            for (first, words) in spelled(&text) {
                if first.starts_with('{')
                    || first.starts_with('<')
                    || !first.chars().next().unwrap().is_ascii_lowercase()
                {
                    continue;
                }
                checked += 1;
                if let Some(why) = check(&root, &words) {
                    wrong.push(format!("{}: `workflow-state {}`: {why}", file.display(), words.join(" ")));
                }
            }
        }
        assert!(checked > 100, "only {checked} commands found: the scan is broken");
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }
}
