//! A question just asked goes to Slack at once, not at the next poll.

use phasegate_ops::OpError;
use phasegate_ops::questions::ask::{Asked, Went};
use phasegate_ops::questions::poll;

use super::transport::{self, Patience, SlackMessenger};
use crate::Ctx;

/// What `question ask` and `rounds ask` print: the ask's outcome, plus
/// `slack` ({posted, error}) when the question was suspended or queued and
/// a Slack channel is configured.
pub fn delivered(ctx: &Ctx<'_>, asked: &Asked) -> Result<serde_json::Value, OpError> {
    let mut shown = serde_json::to_value(asked).expect("outputs always serialise");
    if let (Some(id), Went::Suspend | Went::Queue) = (&asked.id, asked.route)
        && let Some(slack) = deliver(ctx, id)?
    {
        shown["slack"] = slack;
    }
    Ok(shown)
}

/// What `question answer` prints: the answer, plus `slack` ({told, error})
/// when the question was posted in Slack, so people in its thread learn it
/// was answered elsewhere.
pub fn told(ctx: &Ctx<'_>, answered: &phasegate_ops::questions::ask::Answered) -> Result<serde_json::Value, OpError> {
    let mut shown = serde_json::to_value(answered).expect("outputs always serialise");
    if answered.in_slack
        && let Some(mut slack) = deliver(ctx, &answered.id)?
    {
        let told = slack.get("told").and_then(serde_json::Value::as_bool).unwrap_or(false);
        slack["told"] = told.into();
        shown["slack"] = slack;
    }
    Ok(shown)
}

/// Posts a question just asked to Slack when a channel is configured, so it
/// does not wait for the next poll. The question is on record whatever
/// happens here: a failure is reported, and the next poll retries.
fn deliver(ctx: &Ctx<'_>, id: &str) -> Result<Option<serde_json::Value>, OpError> {
    let config = poll::config(&ctx.env)?;
    if !config.slack.configured() {
        return Ok(None);
    }
    let not_posted = |why: String| Some(serde_json::json!({ "posted": false, "error": why }));
    let tokens = match transport::tokens() {
        Ok(Some(t)) => t,
        Ok(None) => {
            return Ok(not_posted(format!(
                "not posted from this shell: {}; when that option is set, the background poller phasegate's hooks start posts it at the end of this turn; else export {} and run `workflow-state slack poll`",
                transport::no_token(),
                phasegate_ops::env::SLACK_TOKEN
            )));
        }
        Err(e) => return Ok(not_posted(e.to_string())),
    };
    let messenger = match SlackMessenger::new(&tokens, Patience::Brief) {
        Ok(m) => m,
        Err(e) => return Ok(not_posted(e.to_string())),
    };
    let outcome = poll::poll(&ctx.env, Some(&messenger), Some(id), ctx.env.lock_timeout);
    // The answer comes back by itself: a background poller reads the thread.
    let background = std::env::current_exe()
        .map_err(|e| e.to_string())
        .and_then(|exe| poll::start_background(&ctx.env, &exe).map_err(|e| e.to_string())?.map_err(|e| e.to_string()));
    let mut shown = report_delivery(outcome, id);
    if let Some(shown) = shown.as_mut() {
        shown["background"] = match background {
            Ok(true) => serde_json::Value::from("a background poller reads the thread"),
            Ok(false) => serde_json::Value::from("off (slack.background): run `workflow-state slack poll`"),
            Err(why) => serde_json::Value::from(format!("not started: {why}; run `workflow-state slack poll`")),
        };
    }
    Ok(shown)
}

fn report_delivery(outcome: Result<poll::PollReport, OpError>, id: &str) -> Option<serde_json::Value> {
    let not_posted = |why: String| Some(serde_json::json!({ "posted": false, "error": why }));
    match outcome {
        Ok(report) if report.posted.iter().any(|p| p == id) => Some(serde_json::json!({ "posted": true })),
        Ok(report) if report.told.iter().any(|p| p == id) => Some(serde_json::json!({ "told": true })),
        Ok(report) => not_posted(match report.failed.first() {
            Some(f) => format!("{f}; the next `workflow-state slack poll` tries again"),
            None => "not posted yet; the next `workflow-state slack poll` posts it".to_owned(),
        }),
        Err(e) => not_posted(format!("{e}; the next `workflow-state slack poll` tries again")),
    }
}
