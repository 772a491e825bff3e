//! One poll of the open questions (`workflow-state slack poll`): expired
//! non-blocking questions take their default, questions not yet posted go to
//! their channel, posted ones have their threads read for a person's reply,
//! overdue blocking ones get one reminder. Every change is written under the
//! feature's lock on a fresh read, so two pollers answer a question once; a
//! failed post leaves the question queued, to be retried.
//!
//! The transport is a [`Messenger`]: Slack's Web API in the CLI
//! (`phasegate-slack`); this crate never links a network client.

use phasegate_core::question::{Answer, Question, Source, State};
use phasegate_core::questions_config::QuestionsConfig;
use phasegate_core::rounds::AnsweredBy;
use phasegate_store::Project;
use phasegate_store::questions::{Stored, question_change, read_question};
use serde::Serialize;

use crate::env::Env;
use crate::error::OpResult;
use crate::questions::remember;

/// A message of a question's thread.
#[derive(Debug, Clone)]
pub struct ThreadMessage {
    pub ts: String,
    pub user: Option<String>,
    pub text: String,
    /// Written by a person (not a bot, no subtype).
    pub from_person: bool,
}

/// Where questions are posted and answered.
pub trait Messenger {
    /// Posts `text` (in the thread `thread_ts` when given); returns the
    /// message's channel id and ts.
    fn post(&self, channel: &str, text: &str, thread_ts: Option<&str>) -> Result<(String, String), String>;
    /// Every message of the thread, the parent first.
    fn replies(&self, channel: &str, ts: &str) -> Result<Vec<ThreadMessage>, String>;
}

/// What one poll did, per question id.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PollReport {
    pub posted: Vec<String>,
    pub answered: Vec<AnsweredNote>,
    pub defaulted: Vec<String>,
    pub reminded: Vec<String>,
    /// Posting or reading failed; the question stays and is retried.
    pub failed: Vec<String>,
    /// Still waiting for a person.
    pub waiting: usize,
    /// Question files that could not be read (left alone).
    pub unreadable: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AnsweredNote {
    pub id: String,
    pub feature: String,
    pub answer: String,
}

/// Polls every open question once.
pub fn poll(env: &Env, messenger: Option<&dyn Messenger>) -> OpResult<PollReport> {
    let project = crate::feature::project(env)?;
    let config = project.questions_config()?;
    let (stored, bad) = project.questions()?;
    let mut report = PollReport { unreadable: bad.iter().map(|b| b.error.to_string()).collect(), ..Default::default() };
    for s in stored {
        let q = &s.question;
        let needs_ack = q.answer.as_ref().is_some_and(|a| !a.acknowledged) && q.slack_thread_ts.is_some();
        if q.answer.is_some() && !needs_ack {
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
) -> Result<(), String> {
    let q = &s.question;
    // An answer recorded elsewhere (the CLI, a default) is told in its thread.
    if let Some(a) = &q.answer {
        if let (Some(m), Some(ch), Some(ts)) = (messenger, &q.slack_channel_id, &q.slack_thread_ts) {
            m.post(ch, &ack_text(a), Some(ts))?;
            update(project, env, s, |q| {
                if let Some(a) = q.answer.as_mut() {
                    a.acknowledged = true;
                }
                true
            })?;
        }
        return Ok(());
    }
    if q.state(env.now) == State::Expired {
        let applied = update(project, env, s, |q| {
            if q.answer.is_some() {
                return false;
            }
            q.answer = q.default_answer(env.now);
            true
        })?;
        if applied {
            report.defaulted.push(q.id.clone());
        }
        return Ok(());
    }
    let Some(m) = messenger else {
        report.waiting += 1;
        return Ok(());
    };
    let (channel, ts) = match (&q.slack_channel_id, &q.slack_thread_ts) {
        (Some(c), Some(t)) => (c.clone(), t.clone()),
        _ => {
            let Some(channel) = config.slack.channels.for_item(q.item_type) else {
                report.waiting += 1;
                return Ok(());
            };
            match m.post(channel, &q.slack_text(), None) {
                Ok((c, t)) => {
                    update(project, env, s, |q| {
                        if q.slack_thread_ts.is_some() {
                            return false;
                        }
                        q.slack_channel_id = Some(c.clone());
                        q.slack_thread_ts = Some(t.clone());
                        q.delivery.last_error = None;
                        true
                    })?;
                    report.posted.push(q.id.clone());
                    report.waiting += 1;
                    return Ok(());
                }
                Err(why) => {
                    update(project, env, s, |q| {
                        q.delivery.failed_attempts = q.delivery.failed_attempts.saturating_add(1);
                        q.delivery.last_error = Some(why.clone());
                        true
                    })?;
                    return Err(why);
                }
            }
        }
    };
    let messages = m.replies(&channel, &ts)?;
    for msg in messages.iter().filter(|r| r.ts != ts && r.from_person) {
        if q.delivery.rejected_replies.contains(&msg.ts) {
            continue;
        }
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
                };
                let won = update(project, env, s, |q| {
                    if q.answer.is_some() {
                        return false;
                    }
                    q.answer = Some(answer.clone());
                    true
                })?;
                if won {
                    report.answered.push(AnsweredNote { id: q.id.clone(), feature: q.slug.clone(), answer: text });
                    let mut answered = q.clone();
                    answered.answer = Some(answer.clone());
                    let _ = remember(project, env, &answered);
                    if m.post(&channel, &ack_text(&answer), Some(&ts)).is_ok() {
                        update(project, env, s, |q| {
                            if let Some(a) = q.answer.as_mut() {
                                a.acknowledged = true;
                            }
                            true
                        })?;
                    }
                }
                return Ok(());
            }
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
                m.post(&channel, &hint, Some(&ts))?;
                update(project, env, s, |q| {
                    q.delivery.rejected_replies.push(msg.ts.clone());
                    true
                })?;
            }
        }
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

fn ack_text(a: &Answer) -> String {
    match a.by {
        AnsweredBy::Default => {
            format!(":white_check_mark: Nobody answered in time, so the default applies: {}", a.text)
        }
        _ => format!(":white_check_mark: Thanks, taken ({}): {}", a.source.name(), a.text),
    }
}

/// Re-reads the question under its feature's lock and applies `change`
/// (which returns false when there is nothing to do). True when written.
fn update(
    project: &Project,
    env: &Env,
    s: &Stored,
    change: impl FnOnce(&mut Question) -> bool,
) -> Result<bool, String> {
    let feature = project.feature_named(&s.question.slug);
    let guard = feature.lock(env.lock_timeout).map_err(|e| e.to_string())?;
    let Some(mut q) = read_question(project.root(), &s.path).map_err(|e| e.to_string())? else { return Ok(false) };
    if !change(&mut q) {
        return Ok(false);
    }
    guard.commit("slack poll", vec![question_change(&s.path, &q)]).map_err(|e| e.to_string())?;
    Ok(true)
}
