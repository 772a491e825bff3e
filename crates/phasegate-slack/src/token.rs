//! [`Token`]: a Slack token that never prints its value.

use std::fmt;

use crate::SlackError;

/// What a token is printed as, everywhere.
pub(crate) const REDACTED: &str = "xox…(redacted)";

/// Which kind of Slack token, by its prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// `xoxb-`: a bot token. Slack documents that bot tokens read threads
    /// only in DMs and group DMs.
    Bot,
    /// `xoxp-`: a user token; it may read threads in channels.
    User,
    /// Any other prefix (`xapp-`, a test token, …).
    Other,
}

/// A Slack token. `Debug` and `Display` print `xox…(redacted)`, never the value.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// Accepts a token without whitespace or control characters (a stray
    /// newline from a file or a shell is the usual mistake).
    pub fn new(value: String) -> Result<Token, SlackError> {
        let problem = if value.is_empty() {
            Some("the Slack token is empty")
        } else if value.chars().any(|c| c.is_whitespace() || c.is_control()) {
            Some("the Slack token contains whitespace or control characters")
        } else if !value.is_ascii() {
            Some("the Slack token contains non-ASCII characters")
        } else {
            None
        };
        match problem {
            Some(problem) => Err(SlackError::BadConfig { reason: format!("{problem}: check PHASEGATE_SLACK_TOKEN") }),
            None => Ok(Token(value)),
        }
    }

    /// The kind told by the prefix.
    pub fn kind(&self) -> TokenKind {
        if self.0.starts_with("xoxb-") {
            TokenKind::Bot
        } else if self.0.starts_with("xoxp-") {
            TokenKind::User
        } else {
            TokenKind::Other
        }
    }

    /// The value, for the `Authorization` header only.
    pub(crate) fn secret(&self) -> &str {
        &self.0
    }

    /// `text` with every occurrence of the token replaced by [`REDACTED`]:
    /// for reasons built from text this crate does not control.
    pub(crate) fn scrub(&self, text: &str) -> String {
        text.replace(&self.0, REDACTED)
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Token({REDACTED})")
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_follows_the_prefix() {
        let kind = |value: &str| Token::new(value.to_owned()).unwrap().kind();
        assert_eq!(kind("xoxb-1-2-abc"), TokenKind::Bot);
        assert_eq!(kind("xoxp-1-2-abc"), TokenKind::User);
        assert_eq!(kind("xapp-1-abc"), TokenKind::Other);
    }

    #[test]
    fn rejects_empty_whitespace_control_and_non_ascii() {
        for bad in ["", "xoxb-1 2", "xoxb-12\n", "\txoxb-12", "xoxb-1\u{7}2", "xoxb-1é"] {
            let err = Token::new(bad.to_owned()).unwrap_err();
            assert!(matches!(err, SlackError::BadConfig { .. }), "{bad:?}: {err:?}");
            assert!(err.to_string().contains("PHASEGATE_SLACK_TOKEN"), "{err}");
        }
    }

    #[test]
    fn never_prints_the_value() {
        let token = Token::new("xoxb-secret-value".to_owned()).unwrap();
        assert_eq!(token.to_string(), REDACTED);
        assert_eq!(format!("{token:?}"), format!("Token({REDACTED})"));
        assert_eq!(token.scrub("a xoxb-secret-value b"), format!("a {REDACTED} b"));
    }
}
