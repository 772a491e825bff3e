//! [`Client`]: one `POST` per Slack method, with the rate-limit wait bounded.
//!
//! Slack answers HTTP 200 with `{"ok": true, ...}` or `{"ok": false,
//! "error": ...}`, and HTTP 429 with `Retry-After` when rate limited. A 429
//! is waited out only while the total wait stays under `max_retry_wait`:
//! a caller polling a thread would rather get [`SlackError::RateLimited`]
//! and come back later than hang for minutes.

use std::fmt;
use std::thread;
use std::time::Duration;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::{SlackError, Token};

const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
const DEFAULT_TOTAL_TIMEOUT: Duration = Duration::from_secs(30);
const DEFAULT_MAX_RETRY_WAIT: Duration = Duration::from_secs(30);
/// Retries after a 429, at most; each waits for `Retry-After`.
const MAX_RETRIES: u32 = 3;
/// The wait when a 429 has no usable `Retry-After`.
const RETRY_AFTER_FALLBACK_SECS: u64 = 1;
/// The page size asked of `conversations.replies` (Slack allows up to 1000
/// for internal apps and recommends no more than 200).
const REPLIES_LIMIT: &str = "200";
/// A bound on `conversations.replies` pages, against a cursor that never ends.
const MAX_REPLY_PAGES: usize = 1000;
/// How much of a non-JSON answer an error quotes.
const EXCERPT_CHARS: usize = 80;
const JSON_CONTENT_TYPE: &str = "application/json; charset=utf-8";

/// What `auth.test` says about the token.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Auth {
    /// The user the token acts as (for a bot token: the bot's user).
    pub user_id: Option<String>,
    /// Present for bot tokens: the `bot_id` its messages carry.
    pub bot_id: Option<String>,
    /// The workspace's name.
    pub team: Option<String>,
    /// The workspace's URL.
    pub url: Option<String>,
}

/// Where `chat.postMessage` put a message.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Posted {
    /// The channel id.
    pub channel: String,
    /// The message's ts: its id within the channel, and the thread's id for replies.
    pub ts: String,
}

/// One message of a thread.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Message {
    pub ts: String,
    /// The thread's parent ts (equal to `ts` on the parent itself).
    pub thread_ts: Option<String>,
    pub user: Option<String>,
    #[serde(default)]
    pub text: String,
    /// Set on messages posted by an app or bot.
    pub bot_id: Option<String>,
    /// Set on system and bot messages (`channel_join`, `bot_message`, ...).
    pub subtype: Option<String>,
}

impl Message {
    /// Whether a person wrote it: a user, and neither a bot id nor a subtype.
    pub fn is_from_person(&self) -> bool {
        self.user.is_some() && self.bot_id.is_none() && self.subtype.is_none()
    }
}

/// A blocking Slack Web API client bound to one token.
pub struct Client {
    /// Ends with `/`; a method name is appended.
    base_url: String,
    token: Token,
    agent: ureq::Agent,
    max_retry_wait: Duration,
}

/// A request body: form-encoded (every method) or JSON (write methods).
enum Body<'a> {
    Form(&'a [(&'a str, &'a str)]),
    Json(Value),
}

impl Client {
    /// A client for `base_url` (`https://slack.com/api/`, or a local test
    /// server; the trailing slash is optional). Sends nothing yet.
    pub fn new(base_url: &str, token: Token) -> Result<Client, SlackError> {
        let base_url = validate_base_url(base_url).map_err(|reason| SlackError::BadConfig {
            reason: token.scrub(&format!("base URL {base_url:?}: {reason}")),
        })?;
        Ok(Client {
            base_url,
            token,
            agent: agent(DEFAULT_CONNECT_TIMEOUT, DEFAULT_TOTAL_TIMEOUT),
            max_retry_wait: DEFAULT_MAX_RETRY_WAIT,
        })
    }

    /// Bounds connecting, and each whole request (connect, send, receive).
    /// Defaults: 10 s and 30 s.
    pub fn with_timeouts(mut self, connect: Duration, total: Duration) -> Client {
        self.agent = agent(connect, total);
        self
    }

    /// Bounds the total time one call sleeps on HTTP 429 (default 30 s).
    pub fn with_max_retry_wait(mut self, max_retry_wait: Duration) -> Client {
        self.max_retry_wait = max_retry_wait;
        self
    }

    /// `auth.test`: who the token is.
    pub fn auth_test(&self) -> Result<Auth, SlackError> {
        const METHOD: &str = "auth.test";
        decode(METHOD, self.call(METHOD, &Body::Form(&[]))?)
    }

    /// `chat.postMessage`: posts `text` to `channel`, as a reply when
    /// `thread_ts` is given.
    pub fn post_message(&self, channel: &str, text: &str, thread_ts: Option<&str>) -> Result<Posted, SlackError> {
        const METHOD: &str = "chat.postMessage";
        let mut body = json!({ "channel": channel, "text": text });
        if let Some(thread_ts) = thread_ts {
            body["thread_ts"] = Value::from(thread_ts);
        }
        decode(METHOD, self.call(METHOD, &Body::Json(body))?)
    }

    /// `conversations.replies`: the whole thread of the message `ts`, the
    /// parent first, following `next_cursor` page after page.
    pub fn replies(&self, channel: &str, ts: &str) -> Result<Vec<Message>, SlackError> {
        const METHOD: &str = "conversations.replies";
        #[derive(Deserialize)]
        struct Page {
            messages: Vec<Message>,
            response_metadata: Option<Metadata>,
        }
        #[derive(Deserialize)]
        struct Metadata {
            next_cursor: Option<String>,
        }

        let mut messages = Vec::new();
        let mut cursor = String::new();
        for _ in 0..MAX_REPLY_PAGES {
            let mut form = vec![("channel", channel), ("ts", ts), ("limit", REPLIES_LIMIT)];
            if !cursor.is_empty() {
                form.push(("cursor", cursor.as_str()));
            }
            let page: Page = decode(METHOD, self.call(METHOD, &Body::Form(&form))?)?;
            messages.extend(page.messages);
            let next = page.response_metadata.and_then(|meta| meta.next_cursor).unwrap_or_default();
            if next.is_empty() {
                return Ok(messages);
            }
            if next == cursor {
                return Err(SlackError::BadResponse { method: METHOD, reason: "next_cursor did not advance".into() });
            }
            cursor = next;
        }
        Err(SlackError::BadResponse { method: METHOD, reason: format!("more than {MAX_REPLY_PAGES} pages") })
    }

    /// `conversations.history`: the channel's most recent top-level
    /// messages, newest first, at most `max` of them (page after page).
    pub fn history(&self, channel: &str, max: usize) -> Result<Vec<Message>, SlackError> {
        const METHOD: &str = "conversations.history";
        #[derive(Deserialize)]
        struct Page {
            messages: Vec<Message>,
            response_metadata: Option<Metadata>,
        }
        #[derive(Deserialize)]
        struct Metadata {
            next_cursor: Option<String>,
        }

        let mut messages = Vec::new();
        let mut cursor = String::new();
        while messages.len() < max {
            let mut form = vec![("channel", channel), ("limit", REPLIES_LIMIT)];
            if !cursor.is_empty() {
                form.push(("cursor", cursor.as_str()));
            }
            let page: Page = decode(METHOD, self.call(METHOD, &Body::Form(&form))?)?;
            messages.extend(page.messages);
            let next = page.response_metadata.and_then(|meta| meta.next_cursor).unwrap_or_default();
            if next.is_empty() || next == cursor {
                break;
            }
            cursor = next;
        }
        messages.truncate(max);
        Ok(messages)
    }

    /// One method call: `Ok` holds an `{"ok": true}` answer. Waits out 429s
    /// within the bounds described in the module docs.
    fn call(&self, method: &'static str, body: &Body<'_>) -> Result<Value, SlackError> {
        let url = format!("{}{method}", self.base_url);
        let mut waited = Duration::ZERO;
        let mut retries = 0;
        loop {
            let request = self.agent.post(&url).header("Authorization", format!("Bearer {}", self.token.secret()));
            let sent = match body {
                Body::Form(pairs) => request.send_form(pairs.iter().copied()),
                Body::Json(value) => request.header("Content-Type", JSON_CONTENT_TYPE).send(value.to_string()),
            };
            let mut response = sent.map_err(|e| self.transport_error(method, &e))?;
            let status = response.status().as_u16();
            if status == 429 {
                let header = response.headers().get("retry-after").and_then(|value| value.to_str().ok());
                let retry_after_secs = retry_after_secs(header);
                let wait = Duration::from_secs(retry_after_secs);
                if retries >= MAX_RETRIES || waited + wait > self.max_retry_wait {
                    return Err(SlackError::RateLimited { method, retry_after_secs });
                }
                thread::sleep(wait);
                waited += wait;
                retries += 1;
                continue;
            }
            if !(200..300).contains(&status) {
                return Err(SlackError::Http { method, status });
            }
            let content_type = response
                .headers()
                .get("content-type")
                .and_then(|value| value.to_str().ok())
                .unwrap_or("no content type")
                .to_owned();
            let text = response.body_mut().read_to_string().map_err(|e| match e {
                ureq::Error::Io(_) | ureq::Error::Timeout(_) | ureq::Error::ConnectionFailed => {
                    self.transport_error(method, &e)
                }
                other => SlackError::BadResponse { method, reason: self.token.scrub(&other.to_string()) },
            })?;
            return self.interpret(method, &content_type, &text);
        }
    }

    /// An HTTP 2xx answer's body as Slack's envelope.
    fn interpret(&self, method: &'static str, content_type: &str, text: &str) -> Result<Value, SlackError> {
        let value: Value = serde_json::from_str(text).map_err(|_| {
            let excerpt: String = text.chars().take(EXCERPT_CHARS).collect();
            let ellipsis = if text.chars().count() > EXCERPT_CHARS { "…" } else { "" };
            SlackError::BadResponse {
                method,
                reason: self.token.scrub(&format!("not JSON ({content_type}): {excerpt:?}{ellipsis}")),
            }
        })?;
        match value.get("ok").and_then(Value::as_bool) {
            Some(true) => Ok(value),
            Some(false) => {
                let field = |name: &str| value.get(name).and_then(Value::as_str).map(|s| self.token.scrub(s));
                Err(SlackError::Api {
                    method,
                    error: field("error").unwrap_or_else(|| "unknown_error".into()),
                    needed: field("needed"),
                })
            }
            None => Err(SlackError::BadResponse { method, reason: "no boolean `ok` field".into() }),
        }
    }

    fn transport_error(&self, method: &'static str, error: &ureq::Error) -> SlackError {
        SlackError::Transport { method, reason: self.token.scrub(&error.to_string()) }
    }
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("base_url", &self.base_url)
            .field("token", &self.token)
            .field("max_retry_wait", &self.max_retry_wait)
            .finish_non_exhaustive()
    }
}

/// An agent that returns every status as a response (429 and 5xx are
/// handled here) and follows no redirect (Slack's API sends none).
fn agent(connect: Duration, total: Duration) -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .timeout_connect(Some(connect))
        .timeout_global(Some(total))
        .user_agent(concat!("phasegate-slack/", env!("CARGO_PKG_VERSION")))
        .build()
        .new_agent()
}

/// `base_url` with a trailing slash, if it is an absolute http(s) URL with a
/// host and without query or fragment.
fn validate_base_url(base_url: &str) -> Result<String, &'static str> {
    if base_url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("contains whitespace or control characters");
    }
    if base_url.contains(['?', '#']) {
        return Err("must not have a query or fragment");
    }
    let lower = base_url.to_ascii_lowercase();
    if !lower.starts_with("http://") && !lower.starts_with("https://") {
        return Err("must start with http:// or https://");
    }
    let uri: ureq::http::Uri = base_url.parse().map_err(|_| "not a valid URL")?;
    if uri.host().is_none_or(str::is_empty) {
        return Err("has no host");
    }
    let mut base_url = base_url.to_owned();
    if !base_url.ends_with('/') {
        base_url.push('/');
    }
    Ok(base_url)
}

/// `Retry-After` in whole seconds; absent or not a number of seconds (an
/// HTTP date, say) means the fallback.
fn retry_after_secs(header: Option<&str>) -> u64 {
    header.and_then(|value| value.trim().parse().ok()).unwrap_or(RETRY_AFTER_FALLBACK_SECS)
}

/// An `{"ok": true}` answer as `T`; a missing field is a [`SlackError::BadResponse`].
/// The envelope as the type Slack documents. A body of another shape is an
/// error that names the shape, never the values: a reply may hold anything,
/// a token included.
fn decode<T: DeserializeOwned>(method: &'static str, value: Value) -> Result<T, SlackError> {
    serde_json::from_value(value).map_err(|e| SlackError::BadResponse {
        method,
        reason: format!("a body of another shape than Slack documents ({})", without_values(&e.to_string())),
    })
}

/// A serde message with every quoted value replaced by `…`.
fn without_values(message: &str) -> String {
    let mut out = String::new();
    let mut quoted = false;
    for c in message.chars() {
        match (c, quoted) {
            ('"' | '`', false) => {
                quoted = true;
                out.push('"');
            }
            ('"' | '`', true) => {
                quoted = false;
                out.push_str("…\"");
            }
            (_, true) => {}
            (c, false) => out.push(c),
        }
    }
    crate::token::scrub_secrets(&out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_url_gets_a_trailing_slash() {
        assert_eq!(validate_base_url("https://slack.com/api").unwrap(), "https://slack.com/api/");
        assert_eq!(validate_base_url("https://slack.com/api/").unwrap(), "https://slack.com/api/");
        assert_eq!(validate_base_url("http://127.0.0.1:8080/api/").unwrap(), "http://127.0.0.1:8080/api/");
    }

    #[test]
    fn base_url_must_be_http_or_https_with_a_host() {
        for bad in
            ["", "slack.com/api", "ftp://slack.com/api/", "https:///api", "https://slack.com/api/?x=1", "http://a b/"]
        {
            assert!(validate_base_url(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn bad_base_url_is_bad_config() {
        let token = Token::new("xoxb-1".into()).unwrap();
        let err = Client::new("file:///etc/passwd", token).unwrap_err();
        assert!(matches!(err, SlackError::BadConfig { .. }), "{err:?}");
        assert!(err.to_string().contains("http:// or https://"), "{err}");
    }

    #[test]
    fn retry_after_falls_back_to_one_second() {
        assert_eq!(retry_after_secs(Some("7")), 7);
        assert_eq!(retry_after_secs(Some(" 2 ")), 2);
        assert_eq!(retry_after_secs(Some("Wed, 21 Oct 2015 07:28:00 GMT")), 1);
        assert_eq!(retry_after_secs(Some("-3")), 1);
        assert_eq!(retry_after_secs(None), 1);
    }

    #[test]
    fn is_from_person_needs_a_user_and_no_bot_marks() {
        let message = |user: Option<&str>, bot_id: Option<&str>, subtype: Option<&str>| Message {
            ts: "1.1".into(),
            thread_ts: None,
            user: user.map(Into::into),
            text: String::new(),
            bot_id: bot_id.map(Into::into),
            subtype: subtype.map(Into::into),
        };
        assert!(message(Some("U1"), None, None).is_from_person());
        assert!(!message(Some("U1"), Some("B1"), None).is_from_person());
        assert!(!message(Some("U1"), None, Some("channel_join")).is_from_person());
        assert!(!message(None, None, None).is_from_person());
    }
}
