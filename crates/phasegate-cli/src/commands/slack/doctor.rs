//! `workflow-state slack doctor`: is Slack set up for questions?

use clap::Args;
use phasegate_slack::{Client, SlackError, Token, TokenKind};

use super::transport::{self, Patience, Tokens};
use crate::{CmdResult, Ctx, ExitStatus};

/// Check the Slack setup without posting anything.
///
/// Check the Slack setup without posting anything (unless --post): the
/// channels in .phasegate/questions.config.json, the token (auth.test: which
/// workspace, bot or user), and a thread read in each channel, which says
/// whether PHASEGATE_SLACK_READ_TOKEN is needed. Exit 0 when questions can
/// be posted and answered, 2 when a token or channel is not configured, 3
/// when Slack refuses or cannot be reached.
#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Also post a short test message to each channel.
    #[arg(long)]
    post: bool,
}

/// A thread ts no channel has: reading it proves read access
/// (`thread_not_found`) without knowing a real thread.
const PROBE_TS: &str = "1000000000.000001";

pub fn cmd_doctor(args: DoctorArgs, ctx: &mut Ctx<'_>) -> CmdResult {
    let config = phasegate_ops::questions::poll::config(&ctx.env)?;
    let mut status = ExitStatus::Success;
    let mut channels: Vec<(&str, &str)> = Vec::new();
    if let Some(c) = &config.slack.channels.feature {
        channels.push(("feature", c));
    }
    if let Some(c) = &config.slack.channels.defect {
        channels.push(("defect", c));
    }
    if channels.is_empty() {
        ctx.out.line(
            "fail: no Slack channel configured: set slack.channels.feature (and .defect) in .phasegate/questions.config.json",
        )?;
        status = ExitStatus::Error;
    } else {
        for (kind, c) in &channels {
            ctx.out.line(format!("ok: {kind} questions go to channel {c}"))?;
        }
    }
    let Some(tokens) = transport::tokens()? else {
        ctx.out.line(format!(
            "fail: {}: export the Slack app's bot token (xoxb-) or a user token (xoxp-) as {} (doctor checks only a token it can see: to check the plugin option's token, export the same token for this command)",
            transport::no_token(),
            phasegate_ops::env::SLACK_TOKEN
        ))?;
        return Ok(ExitStatus::Error);
    };
    let Some(poster) = identify(ctx, tokens.post_from, &tokens.post, &mut status)? else { return Ok(status) };
    let reader = match &tokens.read {
        None => None,
        Some((t, from)) => match identify(ctx, from, t, &mut status)? {
            Some(c) => Some(c),
            None => return Ok(status),
        },
    };
    for (_, channel) in &channels {
        check_read(ctx, channel, reader.as_ref().unwrap_or(&poster), &tokens, &mut status)?;
        if args.post {
            match poster.post_message(channel, ":wave: phasegate doctor: questions will be posted here.", None) {
                Ok(p) => ctx.out.line(format!("ok: posted a test message to {channel} (ts {})", p.ts))?,
                Err(e) => fail(ctx, &mut status, &format!("posting to {channel}: {e}"))?,
            }
        }
    }
    if status == ExitStatus::Success {
        ctx.out.line("Slack is ready: `workflow-state slack poll` posts questions and reads their answers.")?;
    }
    Ok(status)
}

/// auth.test for one token; None (and a failure line) when Slack refuses it.
fn identify(
    ctx: &mut Ctx<'_>,
    var: &str,
    token: &Token,
    status: &mut ExitStatus,
) -> Result<Option<Client>, crate::CmdError> {
    let client = transport::client(token, Patience::Brief)?;
    match client.auth_test() {
        Ok(auth) => {
            let kind = match token.kind() {
                TokenKind::Bot => "a bot token",
                TokenKind::User => "a user token",
                TokenKind::Other => "a token of an unknown kind (neither xoxb- nor xoxp-)",
            };
            ctx.out.line(format!(
                "ok: {var} is {kind} of workspace {}, acting as {}",
                auth.team.as_deref().unwrap_or("?"),
                auth.user_id.as_deref().unwrap_or("?")
            ))?;
            Ok(Some(client))
        }
        Err(e) => {
            fail(ctx, status, &format!("{var}: {e}"))?;
            Ok(None)
        }
    }
}

fn check_read(
    ctx: &mut Ctx<'_>,
    channel: &str,
    reader: &Client,
    tokens: &Tokens,
    status: &mut ExitStatus,
) -> Result<(), crate::CmdError> {
    let (_, var) = tokens.reader();
    match reader.replies(channel, PROBE_TS) {
        Ok(_) => ctx.out.line(format!("ok: {var} can read threads in {channel}"))?,
        Err(SlackError::Api { error, .. }) if error == "thread_not_found" => {
            ctx.out.line(format!("ok: {var} can read threads in {channel}"))?
        }
        Err(e) => {
            let bot_reads = tokens.read.is_none() && tokens.post.kind() == TokenKind::Bot;
            fail(ctx, status, &format!("reading threads in {channel}: {}", transport::reading_hint(&e, bot_reads)))?
        }
    }
    Ok(())
}

fn fail(ctx: &mut Ctx<'_>, status: &mut ExitStatus, what: &str) -> Result<(), crate::CmdError> {
    ctx.out.line(format!("fail: {}", phasegate_slack::scrub_secrets(what)))?;
    if *status == ExitStatus::Success {
        *status = ExitStatus::Unavailable;
    }
    Ok(())
}
