//! One poll of the open questions (`workflow-state slack poll`): expired
//! non-blocking questions take their default, questions not yet posted go to
//! their channel, posted ones have their threads read for a person's reply,
//! overdue blocking ones get one reminder. Every change is written under the
//! feature's lock on a fresh read, so two pollers answer a question once; a
//! failed post leaves the question queued, to be retried.
//!
//! The transport is a [`Messenger`]: Slack's Web API in the CLI
//! (`phasegate-slack`); this crate never links a network client.

use std::path::{Path, PathBuf};
use std::time::Duration;

use phasegate_core::feature::{Workflow, next_step};
use phasegate_core::questions::AnsweredBy;
use phasegate_core::questions::QuestionsConfig;
use phasegate_core::questions::{Answer, Question, QuestionState, Source};
use phasegate_store::questions::{Stored, question_change, read_question};
use phasegate_store::{Project, StoreError};
use serde::Serialize;

use crate::coordination::effects::Effects;
use crate::env;
use crate::env::Env;
use crate::error::{OpError, OpResult};
use crate::questions::ask::remembered_change;
use crate::session;

/// A message of a question's thread.
#[derive(Debug, Clone)]
pub struct ThreadMessage {
    pub ts: String,
    pub user: Option<String>,
    pub text: String,
    /// Written by a person (not a bot, no subtype).
    pub from_person: bool,
    /// Posted with phasegate's own token.
    pub own: bool,
}

/// A post that failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PostError {
    pub message: String,
    /// No answer came, or one that could not be read: Slack may have taken
    /// the message all the same. False when Slack answered with an error (or
    /// a rate limit): nothing was posted.
    pub maybe_posted: bool,
}

impl std::fmt::Display for PostError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PostError {}

impl From<PostError> for String {
    fn from(e: PostError) -> String {
        e.message
    }
}

/// Why one question was not polled to the end (it stays, and the next pass
/// tries again), or why the background poller did not start.
#[derive(Debug, thiserror::Error)]
pub enum PollError {
    /// Slack refused a post, or its answer was lost.
    #[error(transparent)]
    Post(#[from] PostError),
    /// A thread or the channel's history could not be read (the
    /// transport's words, which say what to do).
    #[error("{0}")]
    Read(String),
    #[error(
        "an earlier post of it may have gone out, and {channel}'s history cannot be read to find it ({why}); it is not posted again until the history can be read (see `{slack_doctor}`)", slack_doctor = phasegate_core::words::Command::new("slack doctor"))]
    HistoryUnreadable { channel: String, why: String },
    /// The question's file, its feature's lock or the configuration.
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Op(#[from] OpError),
    #[error("cannot start {}: {source}", program.display())]
    Spawn {
        program: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "a question waits on Slack but no Slack token reaches phasegate's hooks: set the plugin's slack_token option, or export {} before starting Claude Code",
        env::SLACK_TOKEN
    )]
    NoHookToken,
}

/// Where questions are posted and answered.
pub trait Messenger {
    /// Posts `text` (in the thread `thread_ts` when given); returns the
    /// message's channel id and ts.
    fn post(&self, channel: &str, text: &str, thread_ts: Option<&str>) -> Result<(String, String), PostError>;
    /// Every message of the thread, the parent first.
    fn replies(&self, channel: &str, ts: &str) -> Result<Vec<ThreadMessage>, String>;
    /// The channel's recent top-level messages, newest first.
    fn recent(&self, channel: &str) -> Result<Vec<ThreadMessage>, String>;
}

/// What one poll did, per question id.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PollReport {
    pub posted: Vec<String>,
    pub answered: Vec<AnsweredNote>,
    pub defaulted: Vec<String>,
    pub reminded: Vec<String>,
    /// Answers given outside Slack (the CLI, /phasegate:answer, a default)
    /// told in the question's thread.
    pub told: Vec<String>,
    /// Posting or reading failed; the question stays and is retried.
    pub failed: Vec<String>,
    /// Still waiting for a person in Slack.
    pub waiting: usize,
    /// Waiting for a person outside Slack (no Slack, or no channel for its
    /// item type): answered with `question answer`, nothing to poll.
    pub local: usize,
    /// Question files that could not be read (left alone).
    pub unreadable: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AnsweredNote {
    pub id: String,
    pub feature: String,
    pub answer: String,
    /// What takes the answer in and goes on.
    pub resume: String,
}

/// Polls every open question once (only the question `only` when given),
/// holding the project's poll-pass lock (waiting at most `wait` for another
/// pass) so two pollers never post the same question twice.
pub fn poll(env: &Env, messenger: Option<&dyn Messenger>, only: Option<&str>, wait: Duration) -> OpResult<PollReport> {
    let project = session::project(env)?;
    let config = project.questions().questions_config()?;
    let _pass = project.questions().poll_pass_lock(wait)?;
    let (stored, bad) = project.questions().all()?;
    let mut report = PollReport { unreadable: bad.iter().map(|b| b.error.to_string()).collect(), ..Default::default() };
    for s in stored {
        let q = &s.question;
        if only.is_some_and(|id| id != q.id) {
            continue;
        }
        let needs_ack = q.answer.as_ref().is_some_and(|a| !a.acknowledged) && q.slack_thread_ts.is_some();
        if q.answer.is_some() && !needs_ack || q.withdrawn_at.is_some() {
            continue;
        }
        if let Err(why) = poll_one(&project, env, &config, messenger, &s, &mut report) {
            report.failed.push(format!("{}: {why}", q.id));
        }
    }
    Ok(report)
}

fn poll_one(
    project: &Project,
    env: &Env,
    config: &QuestionsConfig,
    messenger: Option<&dyn Messenger>,
    s: &Stored,
    report: &mut PollReport,
) -> Result<(), PollError> {
    let q = &s.question;
    // An answer recorded elsewhere (the CLI, a default) is told in its thread.
    if let Some(a) = &q.answer {
        if let (Some(m), Some(ch), Some(ts)) = (messenger, &q.slack_channel_id, &q.slack_thread_ts) {
            m.post(ch, &ack_text(a), Some(ts))?;
            update(project, env, s, acknowledge)?;
            report.told.push(q.id.clone());
        }
        return Ok(());
    }
    if q.state(env.now) == QuestionState::Expired {
        return take_default(project, env, s, report);
    }
    let Some(m) = messenger else {
        report.local += 1;
        return Ok(());
    };
    let (channel, ts) = match (&q.slack_channel_id, &q.slack_thread_ts) {
        (Some(c), Some(t)) => (c.clone(), t.clone()),
        _ => {
            let Some(channel) = config.slack.channels.for_item(q.item_type) else {
                report.local += 1;
                return Ok(());
            };
            // A post that may have gone out (the poller was killed between
            // the post and the write of its thread, or the post's answer was
            // lost) is looked for before anything is posted again; when the
            // channel cannot be searched, nothing is posted: a question is
            // posted once.
            if q.delivery.posting_since.is_some() && adopt_earlier_post(project, env, m, s, channel)? {
                report.posted.push(q.id.clone());
                report.waiting += 1;
                return Ok(());
            }
            post(project, env, m, s, channel)?;
            report.posted.push(q.id.clone());
            report.waiting += 1;
            return Ok(());
        }
    };
    if read_thread(project, env, m, s, (&channel, &ts), report)? {
        return Ok(());
    }
    report.waiting += 1;
    if q.reminder_due(env.now) {
        let text = format!(
            ":hourglass: Still waiting: {} is suspended until this is answered ({} minutes so far).",
            q.slug,
            (env.now - q.suspended_at).num_minutes()
        );
        m.post(&channel, &text, Some(&ts))?;
        update(project, env, s, |q| {
            q.delivery.reminded_at = Some(env.now);
            true
        })?;
        report.reminded.push(q.id.clone());
    }
    Ok(())
}

/// An expired question takes its default (sealed), unless answered meanwhile.
fn take_default(project: &Project, env: &Env, s: &Stored, report: &mut PollReport) -> Result<(), PollError> {
    let key = crate::witness::key(env)?;
    let applied = update(project, env, s, |q| {
        if q.answer.is_some() {
            return false;
        }
        q.answer = crate::witness::sealed_default(&key, q, env.now);
        true
    })?;
    if applied {
        report.defaulted.push(s.question.id.clone());
    }
    Ok(())
}

/// Looks in `channel` for a post of the question that may have gone out
/// and takes the first as its thread (true when found); when the history
/// cannot be read, the attempt is counted and nothing is posted.
fn adopt_earlier_post(
    project: &Project,
    env: &Env,
    m: &dyn Messenger,
    s: &Stored,
    channel: &str,
) -> Result<bool, PollError> {
    let found = match posted_before(m, channel, &s.question) {
        Ok(found) => found,
        Err(why) => {
            let unreadable = PollError::HistoryUnreadable { channel: channel.to_owned(), why };
            update(project, env, s, |q| {
                q.delivery.failed_attempts = q.delivery.failed_attempts.saturating_add(1);
                q.delivery.last_error = Some(unreadable.to_string());
                true
            })?;
            return Err(unreadable);
        }
    };
    let Some((first, others)) = found.split_first() else { return Ok(false) };
    update(project, env, s, |q| {
        if q.slack_thread_ts.is_some() {
            return false;
        }
        q.slack_channel_id = Some(channel.to_owned());
        q.slack_thread_ts = Some(first.clone());
        q.delivery.other_threads = others.to_vec();
        q.delivery.posting_since = None;
        q.delivery.post_ref = None;
        true
    })?;
    Ok(true)
}

/// Posts the question to `channel`, its intent written first, and keeps
/// its thread; a failed post is counted, and its intent kept when Slack
/// may have taken it.
fn post(project: &Project, env: &Env, m: &dyn Messenger, s: &Stored, channel: &str) -> Result<(), PollError> {
    let q = &s.question;
    // The intent, with the post's client token, is on disk before
    // the post: whatever happens next, the post can be found.
    let token = q.delivery.post_ref.clone().unwrap_or_else(|| client_token(&q.id, env));
    update(project, env, s, |q| {
        q.delivery.posting_since = Some(env.now);
        q.delivery.post_ref = Some(token.clone());
        true
    })?;
    let mut posted = q.clone();
    posted.delivery.post_ref = Some(token);
    match m.post(channel, &posted.slack_text(), None) {
        Ok((c, t)) => {
            phasegate_store::failpoint::hit("slack-poll:posted");
            update(project, env, s, |q| {
                if q.slack_thread_ts.is_some() {
                    return false;
                }
                q.slack_channel_id = Some(c.clone());
                q.slack_thread_ts = Some(t.clone());
                q.delivery.posting_since = None;
                q.delivery.post_ref = None;
                q.delivery.last_error = None;
                true
            })?;
            Ok(())
        }
        Err(e) => {
            // Refused by Slack: nothing was posted, the intent goes.
            // Otherwise it stays, and the next poll looks first.
            update(project, env, s, |q| {
                q.delivery.failed_attempts = q.delivery.failed_attempts.saturating_add(1);
                q.delivery.last_error = Some(e.message.clone());
                if !e.maybe_posted {
                    q.delivery.posting_since = None;
                    q.delivery.post_ref = None;
                }
                true
            })?;
            Err(e.into())
        }
    }
}

/// Reads the question's threads for a person's reply: the first that
/// picks an option answers it (true); one that does not gets one hint.
fn read_thread(
    project: &Project,
    env: &Env,
    m: &dyn Messenger,
    s: &Stored,
    (channel, ts): (&str, &str),
    report: &mut PollReport,
) -> Result<bool, PollError> {
    let q = &s.question;
    let mut messages = m.replies(channel, ts).map_err(PollError::Read)?;
    for other in &q.delivery.other_threads {
        messages.extend(m.replies(channel, other).map_err(PollError::Read)?.into_iter().filter(|r| r.ts != *other));
    }
    messages.sort_by(|a, b| a.ts.cmp(&b.ts));
    let mut hinted = q.delivery.hinted();
    for msg in messages.iter().filter(|r| r.ts != ts && r.from_person) {
        match q.interpret(&msg.text) {
            Some((text, option)) => {
                let answer = Answer {
                    text: text.clone(),
                    option,
                    by: AnsweredBy::Human,
                    source: Source::Slack,
                    user: msg.user.clone(),
                    at: env.now,
                    acknowledged: false,
                    seal: None,
                };
                let won = answer_in(project, env, s, &answer)?;
                if won {
                    Effects::of("slack poll").question_answered(&q.id).apply_to_log(project, env);
                    report.answered.push(AnsweredNote {
                        id: q.id.clone(),
                        feature: q.slug.clone(),
                        answer: text,
                        resume: resume_command(project, &q.slug),
                    });
                    // Not acknowledged yet when the post fails: the next poll tries again.
                    match m.post(channel, &ack_text(&answer), Some(ts)) {
                        Ok(_) => {
                            update(project, env, s, acknowledge)?;
                        }
                        Err(why) => report.failed.push(format!("{}: acknowledging: {why}", q.id)),
                    }
                }
                return Ok(true);
            }
            // One hint per question, however many replies miss.
            None if hinted => {}
            None => {
                let hint = format!(
                    "That does not pick an option. Reply with one of: {}.",
                    q.options
                        .iter()
                        .enumerate()
                        .map(|(i, c)| format!("{} {}", i + 1, c.label))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                m.post(channel, &hint, Some(ts))?;
                update(project, env, s, |q| {
                    q.delivery.hinted_at = Some(env.now);
                    true
                })?;
                hinted = true;
            }
        }
    }
    Ok(false)
}

/// What goes on with a feature once its answer arrived: a pipeline resumes;
/// a phased feature runs its next command (which takes the answer in); the
/// backlog runner when the feature cannot be read.
pub fn resume_command(project: &Project, slug: &str) -> String {
    let feature = project.feature_named(slug);
    match feature.load() {
        Ok(meta) => match meta.workflow {
            Workflow::Pipeline => format!(
                "`{pipeline_resume}`",
                pipeline_resume = phasegate_core::words::Command::new("pipeline resume").feature(&slug)
            ),
            Workflow::Phased => {
                next_step(&meta).command.map_or_else(|| "/phasegate:auto".to_owned(), |c| c.to_string())
            }
        },
        Err(_) => "/phasegate:auto".to_owned(),
    }
}

/// The threads of question `q` already posted in `channel`, oldest first:
/// top-level messages carrying its post's client token, posted by
/// phasegate's token or by an app (a person quoting the text is not one);
/// for an intent an older version recorded without a token, phasegate's own
/// messages naming its id.
fn posted_before(m: &dyn Messenger, channel: &str, q: &Question) -> Result<Vec<String>, String> {
    let recent = m.recent(channel)?;
    let mut found: Vec<String> = match &q.delivery.post_ref {
        Some(token) => recent
            .into_iter()
            .filter(|r| (r.own || !r.from_person) && r.text.contains(token.as_str()))
            .map(|r| r.ts)
            .collect(),
        None => {
            let marker = format!("(`{}`)", q.id);
            recent.into_iter().filter(|r| r.own && r.text.contains(&marker)).map(|r| r.ts).collect()
        }
    };
    found.sort();
    Ok(found)
}

/// A client token for one question's post: unique to this question, this
/// process and this moment (std's per-process random hash keys).
fn client_token(id: &str, env: &Env) -> String {
    use std::hash::BuildHasher;
    let random = std::collections::hash_map::RandomState::new();
    format!("pg-{:016x}", random.hash_one((id, env.now.timestamp_nanos_opt(), std::process::id())))
}

fn acknowledge(q: &mut Question) -> bool {
    match q.answer.as_mut() {
        Some(a) if !a.acknowledged => {
            a.acknowledged = true;
            true
        }
        _ => false,
    }
}

fn ack_text(a: &Answer) -> String {
    match a.by {
        AnsweredBy::Default => {
            format!(":white_check_mark: Nobody answered in time, so the default applies: {}", a.text)
        }
        _ => match a.source {
            Source::Slack => format!(":white_check_mark: Thanks, taken (slack): {}", a.text),
            Source::Cli
            | Source::Dialog
            | Source::Typed
            | Source::Terminal
            | Source::Team
            | Source::Preference
            | Source::Expiry => {
                format!(
                    ":white_check_mark: Answered outside Slack ({}{}): {}. Nothing more is needed here.",
                    a.source.name(),
                    a.user.as_deref().map(|u| format!(", by {u}")).unwrap_or_default(),
                    a.text
                )
            }
        },
    }
}

/// Records a reply from Slack as the question's answer, once, with the
/// preference it teaches in the same journaled change (an unreadable
/// preferences file leaves the question unanswered and fails the pass: the
/// next poll tries again). True when this pass recorded it.
fn answer_in(project: &Project, env: &Env, s: &Stored, answer: &Answer) -> Result<bool, PollError> {
    let feature = project.feature_named(&s.question.slug);
    let guard = feature.lock(env.lock_timeout)?;
    let Some(mut q) = read_question(project.root(), &s.path)? else { return Ok(false) };
    if q.answer.is_some() {
        return Ok(false);
    }
    let mut answer = answer.clone();
    crate::witness::seal_answer(&crate::witness::key(env)?, &q, &mut answer);
    q.answer = Some(answer);
    let (remembered, prefs_lock) = remembered_change(project, env, &q)?;
    let mut changes = vec![question_change(&s.path, &q)];
    changes.extend(remembered);
    guard.commit("slack poll", changes)?;
    drop(prefs_lock);
    Ok(true)
}

/// Re-reads the question under its feature's lock and applies `change`
/// (which returns false when there is nothing to do). True when written.
fn update(
    project: &Project,
    env: &Env,
    s: &Stored,
    change: impl FnOnce(&mut Question) -> bool,
) -> Result<bool, PollError> {
    let feature = project.feature_named(&s.question.slug);
    let guard = feature.lock(env.lock_timeout)?;
    let Some(mut q) = read_question(project.root(), &s.path)? else { return Ok(false) };
    if !change(&mut q) {
        return Ok(false);
    }
    guard.commit("slack poll", vec![question_change(&s.path, &q)])?;
    Ok(true)
}

/// The project's questions configuration (defaults without a file).
pub fn config(env: &Env) -> OpResult<QuestionsConfig> {
    Ok(session::project(env)?.questions().questions_config()?)
}

/// The right to be the project's one background poller, held until dropped.
#[derive(Debug)]
pub struct Watcher {
    _lock: phasegate_store::lock::FileLock,
}

/// Becomes the project's background poller; None when another one is.
pub fn watcher(env: &Env) -> OpResult<Option<Watcher>> {
    Ok(session::project(env)?.questions().try_watcher_lock()?.map(|l| Watcher { _lock: l }))
}

/// Starts `workflow-state slack poll --watch --until-idle --detached` in the
/// background for `project` and returns once it has left the caller's
/// session (a few milliseconds; a hook or a command never waits on Slack).
/// Claude Code ends every process of a Bash command's session when the
/// command ends, so the poller makes its own session first. Its output goes
/// to [`watch_log`]. It steps aside when another poller runs, and ends when
/// no question waits on Slack any more.
pub fn spawn_watcher(project: &Project, workflow_state: &Path) -> Result<(), PollError> {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let log = project.questions().open_watch_log()?;
    let mut child = Command::new(workflow_state)
        .args(["slack", "poll", "--watch", "--until-idle", "--if-configured", "--detached"])
        .current_dir(project.root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(log)
        .spawn()
        .map_err(|source| PollError::Spawn { program: workflow_state.to_owned(), source })?;
    // One line once it has its own session (or nothing: it ended at once).
    if let Some(mut out) = child.stdout.take() {
        let mut byte = [0u8; 1];
        let _ = out.read(&mut byte);
    }
    Ok(())
}

/// The background poller's log (`Questions::watch_log`) of the project of
/// `env`.
pub fn watch_log_of(env: &Env) -> OpResult<std::path::PathBuf> {
    Ok(session::project(env)?.questions().watch_log())
}

/// The background poller's log, opened for appending (a detached poller
/// writes its lines there).
pub fn open_watch_log(env: &Env) -> OpResult<std::fs::File> {
    Ok(session::project(env)?.questions().open_watch_log()?)
}

/// [`spawn_watcher`] for the project of `env`, unless its configuration
/// turns the background poller off (`slack.background: false`); false then.
pub fn start_background(env: &Env, workflow_state: &Path) -> OpResult<Result<bool, PollError>> {
    let project = session::project(env)?;
    if !project.questions().questions_config()?.slack.background {
        return Ok(Ok(false));
    }
    Ok(spawn_watcher(&project, workflow_state).map(|()| true))
}

/// Whether a poll has something to do for `q` in Slack: post it, read its
/// thread, or acknowledge its answer there.
pub fn waits_on_slack(q: &Question, config: &QuestionsConfig) -> bool {
    if q.withdrawn_at.is_some() {
        return false;
    }
    match &q.answer {
        Some(a) => !a.acknowledged && q.slack_thread_ts.is_some(),
        None => q.slack_thread_ts.is_some() || config.slack.channels.for_item(q.item_type).is_some(),
    }
}

/// From a hook: starts the background poller when a question waits on
/// Slack, the configuration wants it, and no poller runs. The hooks get the
/// plugin's `slack_token` option where Bash commands do not, so this is
/// what posts a question asked from a shell without a token. Ok(false)
/// when nothing was started; the cost without questions is two folder
/// lookups.
pub fn wake_watcher(project: &Project, workflow_state: &Path) -> Result<bool, PollError> {
    let (questions, _) = project.questions().all()?;
    if questions.is_empty() {
        return Ok(false);
    }
    let config = project.questions().questions_config()?;
    if !config.slack.background || !questions.iter().any(|s| waits_on_slack(&s.question, &config)) {
        return Ok(false);
    }
    if !env::slack_token_set() {
        return Err(PollError::NoHookToken);
    }
    match project.questions().try_watcher_lock()? {
        // Released at once: the poller started next takes it.
        Some(_free) => {}
        None => return Ok(false),
    }
    spawn_watcher(project, workflow_state).map(|()| true)
}
