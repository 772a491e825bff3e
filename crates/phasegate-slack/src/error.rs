//! [`SlackError`]: every way a Slack call fails, with messages that name the fix.

/// A failed Slack call. No variant ever holds the token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SlackError {
    /// Slack answered `{"ok": false, "error": ...}`.
    #[error("{}", api_message(.method, .error, .needed.as_deref()))]
    Api { method: &'static str, error: String, needed: Option<String> },
    /// HTTP 429 more often, or for longer, than the client may wait.
    #[error("{method}: rate limited by Slack; retry in {retry_after_secs} s")]
    RateLimited { method: &'static str, retry_after_secs: u64 },
    /// An HTTP status other than 200 and 429.
    #[error("{method}: Slack answered HTTP {status}")]
    Http { method: &'static str, status: u16 },
    /// No answer: connection refused, timeout, TLS, DNS...
    #[error("{method}: cannot reach Slack: {reason}")]
    Transport { method: &'static str, reason: String },
    /// An answer that is not the JSON Slack sends.
    #[error("{method}: unexpected answer from Slack: {reason}")]
    BadResponse { method: &'static str, reason: String },
    /// A bad token or base URL, found before any request.
    #[error("Slack client configuration: {reason}")]
    BadConfig { reason: String },
}

impl SlackError {
    /// Whether trying the same call again later may succeed.
    pub fn is_retryable(&self) -> bool {
        match self {
            SlackError::RateLimited { .. } | SlackError::Transport { .. } => true,
            SlackError::Http { status, .. } => (500..600).contains(status),
            SlackError::Api { .. } | SlackError::BadResponse { .. } | SlackError::BadConfig { .. } => false,
        }
    }
}

/// The message of [`SlackError::Api`]: Slack's code, then what to do about it.
fn api_message(method: &str, error: &str, needed: Option<&str>) -> String {
    let advice = match error {
        "invalid_auth" | "not_authed" | "token_revoked" | "token_expired" | "account_inactive" => {
            "Slack refused the token: check PHASEGATE_SLACK_TOKEN".to_owned()
        }
        "channel_not_found" => "no such channel, or the token cannot see it: check the channel id".to_owned(),
        "not_in_channel" => "the app is not a member of the channel: invite the app to the channel".to_owned(),
        "missing_scope" => match needed {
            Some(needed) => format!("the token lacks the scope `{needed}`: add it to the Slack app and reinstall it"),
            None => "the token lacks a scope: add it to the Slack app and reinstall it".to_owned(),
        },
        "thread_not_found" => "no thread with that ts in that channel".to_owned(),
        _ => return format!("{method}: {error}"),
    };
    format!("{method}: {error}: {advice}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn api(error: &str, needed: Option<&str>) -> String {
        SlackError::Api { method: "m", error: error.to_owned(), needed: needed.map(str::to_owned) }.to_string()
    }

    #[test]
    fn api_messages_name_the_fix() {
        assert_eq!(api("invalid_auth", None), "m: invalid_auth: Slack refused the token: check PHASEGATE_SLACK_TOKEN");
        assert!(api("not_authed", None).contains("check PHASEGATE_SLACK_TOKEN"));
        assert!(api("channel_not_found", None).contains("check the channel id"));
        assert!(api("not_in_channel", None).contains("invite the app to the channel"));
        assert!(api("missing_scope", Some("channels:history")).contains("`channels:history`"));
        assert!(api("missing_scope", None).contains("lacks a scope"));
        assert!(api("thread_not_found", None).contains("no thread with that ts"));
        assert_eq!(api("is_archived", None), "m: is_archived");
    }

    #[test]
    fn retryable_are_rate_limits_transport_and_5xx() {
        let http = |status| SlackError::Http { method: "m", status };
        assert!(SlackError::RateLimited { method: "m", retry_after_secs: 1 }.is_retryable());
        assert!(SlackError::Transport { method: "m", reason: String::new() }.is_retryable());
        assert!(http(500).is_retryable() && http(503).is_retryable());
        assert!(!http(404).is_retryable() && !http(302).is_retryable());
        assert!(!SlackError::Api { method: "m", error: "ratelimited".into(), needed: None }.is_retryable());
        assert!(!SlackError::BadResponse { method: "m", reason: String::new() }.is_retryable());
        assert!(!SlackError::BadConfig { reason: String::new() }.is_retryable());
    }
}
