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
        scrub_secrets(&text.replace(&self.0, REDACTED))
    }
}

/// `text` with every Slack token in it (`xoxb-…`, `xoxp-…`, `xoxa-…`,
/// `xoxr-…`, `xoxe-…`, `xapp-…`) replaced, whoever's it is: a response may
/// quote a token other than the one the call used.
pub fn scrub_secrets(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('x') {
        let (before, at) = rest.split_at(i);
        out.push_str(before);
        let prefix = ["xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxe-", "xoxe.", "xoxs-", "xapp-"]
            .iter()
            .find(|p| at.starts_with(**p));
        match prefix {
            Some(p) => {
                let end = at[p.len()..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.'))
                    .map_or(at.len(), |e| e + p.len());
                out.push_str(REDACTED);
                rest = &at[end..];
            }
            None => {
                out.push('x');
                rest = &at[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod scrub_tests {
    use super::*;

    #[test]
    fn every_slack_token_in_a_text_is_scrubbed() {
        let t = scrub_secrets(
            "invalid type: string \"xoxb-123-456-abcDEF\", expected a sequence; also xoxp-9-9 and xapp-1-A.",
        );
        assert!(!t.contains("xoxb-123") && !t.contains("xoxp-9") && !t.contains("xapp-1"), "{t}");
        assert!(t.contains("expected a sequence"), "{t}");
        assert_eq!(scrub_secrets("box xylophone xox"), "box xylophone xox");
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
