//! Slack for `workflow-state`: the tokens from the environment, the client,
//! and the operations' [`Messenger`] over it. Only this binary links the
//! HTTP client; the hook binary never does.

use std::cell::OnceCell;
use std::time::Duration;

use phasegate_ops::env::{SLACK_API_URL, SLACK_READ_TOKEN, SLACK_READ_TOKEN_OPTION, SLACK_TOKEN, SLACK_TOKEN_OPTION};
use phasegate_ops::questions::poll::{Messenger, PostError, ThreadMessage};
use phasegate_ops::{Invalid, OpError};
use phasegate_slack::{Client, SlackError, Token, TokenKind};

pub const DEFAULT_API_URL: &str = "https://slack.com/api/";

/// How long calls may take: a poll can wait for Slack, a command a person
/// or a model waits on (`question ask`) should not wait long.
#[derive(Debug, Clone, Copy)]
pub enum Patience {
    Poll,
    Brief,
}

impl Patience {
    fn apply(self, client: Client) -> Client {
        match self {
            Patience::Poll => client,
            Patience::Brief => client
                .with_timeouts(Duration::from_secs(5), Duration::from_secs(10))
                .with_max_retry_wait(Duration::from_secs(5)),
        }
    }
}

/// The tokens, as the environment gives them (values never printed), each
/// with the variable it came from.
pub struct Tokens {
    pub post: Token,
    pub post_from: &'static str,
    /// A second token for reading threads, when set.
    pub read: Option<(Token, &'static str)>,
}

impl Tokens {
    /// The token that reads threads and its variable.
    pub fn reader(&self) -> (&Token, &'static str) {
        self.read.as_ref().map(|(t, from)| (t, *from)).unwrap_or((&self.post, self.post_from))
    }
}

/// The posting token: `PHASEGATE_SLACK_TOKEN`, else the plugin's
/// `slack_token` option (None when neither is set); the reading token
/// likewise from `PHASEGATE_SLACK_READ_TOKEN` or `slack_read_token`.
pub fn tokens() -> Result<Option<Tokens>, OpError> {
    let Some((post, post_from)) = first_token(&[SLACK_TOKEN, SLACK_TOKEN_OPTION])? else { return Ok(None) };
    Ok(Some(Tokens { post, post_from, read: first_token(&[SLACK_READ_TOKEN, SLACK_READ_TOKEN_OPTION])? }))
}

/// Why there is no token, for messages.
pub fn no_token() -> String {
    format!(
        "{SLACK_TOKEN} is not set, nor the plugin's slack_token option (which reaches phasegate's hooks, not a shell)"
    )
}

fn first_token(names: &[&'static str]) -> Result<Option<(Token, &'static str)>, OpError> {
    for name in names {
        if let Some(token) = token_var(name)? {
            return Ok(Some((token, name)));
        }
    }
    Ok(None)
}

fn token_var(name: &str) -> Result<Option<Token>, OpError> {
    match std::env::var(name) {
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => Err(Invalid::TokenNotUtf8 { name: name.to_owned() }.into()),
        Ok(v) if v.is_empty() => Ok(None),
        Ok(v) => Token::new(v).map(Some).map_err(|_| Invalid::NotAToken { name: name.to_owned() }.into()),
    }
}

/// `PHASEGATE_SLACK_API_URL`, else Slack's.
pub fn api_url() -> String {
    std::env::var(SLACK_API_URL).ok().filter(|v| !v.trim().is_empty()).unwrap_or_else(|| DEFAULT_API_URL.to_owned())
}

/// A client for `token` at the configured base URL.
pub fn client(token: &Token, patience: Patience) -> Result<Client, OpError> {
    Client::new(&api_url(), token.clone())
        .map(|c| patience.apply(c))
        .map_err(|e| Invalid::SlackApiUrl { why: e.to_string(), variable: SLACK_API_URL }.into())
}

/// Slack as the poll sees it: posts with one token, reads threads with the
/// read token when there is one, and never takes its own messages for a
/// person's answer.
pub struct SlackMessenger {
    poster: Client,
    poster_kind: TokenKind,
    reader: Option<Client>,
    /// The user the posting token acts as (asked once, for user tokens).
    own_user: OnceCell<Option<String>>,
}

impl SlackMessenger {
    pub fn new(tokens: &Tokens, patience: Patience) -> Result<SlackMessenger, OpError> {
        Ok(SlackMessenger {
            poster: client(&tokens.post, patience)?,
            poster_kind: tokens.post.kind(),
            reader: tokens.read.as_ref().map(|(t, _)| client(t, patience)).transpose()?,
            own_user: OnceCell::new(),
        })
    }

    /// A bot's posts carry `bot_id`; a user token's posts look like a
    /// person's, so they are told apart by the token's user.
    fn own_user(&self) -> Result<Option<&str>, String> {
        if self.own_user.get().is_none() {
            let auth = self.poster.auth_test().map_err(|e| reading_hint(&e, false))?;
            let _ = self.own_user.set(auth.user_id);
        }
        Ok(self.own_user.get().and_then(|u| u.as_deref()))
    }
}

impl Messenger for SlackMessenger {
    fn post(&self, channel: &str, text: &str, thread_ts: Option<&str>) -> Result<(String, String), PostError> {
        let posted = self
            .poster
            .post_message(channel, text, thread_ts)
            .map_err(|e| PostError { message: reading_hint(&e, false), maybe_posted: maybe_posted(&e) })?;
        Ok((posted.channel, posted.ts))
    }

    fn replies(&self, channel: &str, ts: &str) -> Result<Vec<ThreadMessage>, String> {
        let own = self.own_user()?.map(str::to_owned);
        let reader = self.reader.as_ref().unwrap_or(&self.poster);
        let messages = reader
            .replies(channel, ts)
            .map_err(|e| reading_hint(&e, self.reader.is_none() && self.poster_kind == TokenKind::Bot))?;
        Ok(messages.into_iter().map(|m| message(m, own.as_deref())).collect())
    }

    fn recent(&self, channel: &str) -> Result<Vec<ThreadMessage>, String> {
        let own = self.own_user()?.map(str::to_owned);
        let reader = self.reader.as_ref().unwrap_or(&self.poster);
        let messages = reader
            .history(channel, RECENT_MESSAGES)
            .map_err(|e| reading_hint(&e, self.reader.is_none() && self.poster_kind == TokenKind::Bot))?;
        Ok(messages.into_iter().map(|m| message(m, own.as_deref())).collect())
    }
}

/// Whether Slack may have taken a message whose post failed: yes unless it
/// answered with an error, a rate limit or a client error status (or the
/// client never sent it).
fn maybe_posted(e: &SlackError) -> bool {
    match e {
        SlackError::Api { .. } | SlackError::RateLimited { .. } | SlackError::BadConfig { .. } => false,
        SlackError::Http { status, .. } => !(400..500).contains(status),
        SlackError::Transport { .. } | SlackError::BadResponse { .. } => true,
    }
}

/// How far back a channel is searched for a question posted before a crash.
const RECENT_MESSAGES: usize = 1000;

/// A Slack message as the poll sees it: phasegate's own posts (the
/// token's user, bot or person) are never a person's answer.
fn message(m: phasegate_slack::Message, own: Option<&str>) -> ThreadMessage {
    let is_own = own.is_some() && m.user.as_deref() == own;
    ThreadMessage {
        from_person: m.is_from_person() && m.user.is_some() && !is_own,
        own: is_own,
        ts: m.ts,
        user: m.user,
        text: m.text,
    }
}

/// A Slack error as the poll reports it (any token in it scrubbed); a bot
/// token refused a thread read is told what to set.
pub fn reading_hint(e: &SlackError, bot_reads: bool) -> String {
    phasegate_slack::scrub_secrets(&match e {
        SlackError::Api { error, .. } if bot_reads && error == "missing_scope" => format!(
            "{e}; a bot token may not read this channel's threads: set {SLACK_READ_TOKEN} (or the plugin's slack_read_token) to a user token (xoxp-) with channels:history"
        ),
        _ => e.to_string(),
    })
}
