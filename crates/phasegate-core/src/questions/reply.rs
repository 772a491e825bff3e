//! The implementer's reply protocol (seed 000, Design Decision 1): a rigid
//! status prefix, so the orchestrator never guesses from prose.
//!
//! ```text
//! STATUS: COMPLETE
//! ---
//! <full document>
//! ```
//! or
//! ```text
//! STATUS: QUESTION
//! QUESTION: <structured question text>
//! CONTEXT: <what information is needed and why>
//! ```

use std::fmt;

/// The format, quoted to the implementer and in every refusal.
pub(crate) const REPLY_FORMAT: &str = "Reply in exactly one of these two forms, starting on the first line:\n\n\
STATUS: COMPLETE\n---\n<the full document>\n\nor\n\n\
STATUS: QUESTION\nQUESTION: <one specific question>\nCONTEXT: <what information is needed and why>";

/// A reply that follows the protocol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    Complete { document: String },
    Question { question: String, context: String },
}

/// Why a reply breaks the protocol.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ReplyError {
    pub problem: String,
}

impl fmt::Display for ReplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the reply does not follow the STATUS protocol: {}.\n{REPLY_FORMAT}", self.problem)
    }
}

fn refuse(problem: impl Into<String>) -> ReplyError {
    ReplyError { problem: problem.into() }
}

/// Parses a reply. Blank lines before the status line are tolerated (a
/// model's reply often starts with one); anything else before it is not.
pub fn parse_reply(text: &str) -> Result<Reply, ReplyError> {
    let dedented = dedent(text);
    let text = dedented.trim_start_matches(['\n', '\r', ' ', '\t']);
    let (first, rest) = split_line(text);
    match first.trim_end() {
        "STATUS: COMPLETE" => complete(rest),
        "STATUS: QUESTION" => question(rest),
        "" => Err(refuse("the reply is empty")),
        other => {
            Err(refuse(format!("the first line is `{}`, not `STATUS: COMPLETE` or `STATUS: QUESTION`", clip(other))))
        }
    }
}

fn complete(rest: &str) -> Result<Reply, ReplyError> {
    let (separator, document) = split_line(rest);
    if separator.trim_end() != "---" {
        return Err(refuse("after `STATUS: COMPLETE` the second line must be `---`"));
    }
    if document.trim().is_empty() {
        return Err(refuse("the document after `---` is empty"));
    }
    Ok(Reply::Complete { document: document.trim_end().to_owned() + "\n" })
}

fn question(rest: &str) -> Result<Reply, ReplyError> {
    let body = rest.trim_start_matches(['\n', '\r']);
    let Some(after_q) = body.strip_prefix("QUESTION:") else {
        return Err(refuse("after `STATUS: QUESTION` the next line must start with `QUESTION:`"));
    };
    let Some(at) = find_line_start(after_q, "CONTEXT:") else {
        return Err(refuse("a line starting with `CONTEXT:` must follow the question"));
    };
    let question = after_q[..at].trim();
    let context = after_q[at + "CONTEXT:".len()..].trim();
    if question.is_empty() {
        return Err(refuse("the QUESTION is empty"));
    }
    if context.is_empty() {
        return Err(refuse("the CONTEXT is empty"));
    }
    Ok(Reply::Question { question: question.to_owned(), context: context.to_owned() })
}

/// Removes the indentation every non-blank line shares: Claude Code hands a
/// sub-agent's report to the session indented, and a model may save it so.
fn dedent(text: &str) -> String {
    let indent = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start_matches([' ', '\t']).len())
        .min()
        .unwrap_or(0);
    if indent == 0 {
        return text.to_owned();
    }
    text.split_inclusive('\n')
        .map(|l| l.get(indent..).filter(|_| !l.trim().is_empty()).unwrap_or(l.trim_start_matches([' ', '\t'])))
        .collect()
}

fn split_line(text: &str) -> (&str, &str) {
    match text.split_once('\n') {
        Some((line, rest)) => (line, rest),
        None => (text, ""),
    }
}

/// Byte offset of the first line of `text` that starts with `prefix`.
fn find_line_start(text: &str, prefix: &str) -> Option<usize> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with(prefix) {
            return Some(offset);
        }
        offset += line.len();
    }
    None
}

fn clip(s: &str) -> String {
    let cut: String = s.chars().take(60).collect();
    if cut.len() < s.len() { format!("{cut}…") } else { cut }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complete_reply_keeps_the_document() {
        let r = parse_reply("STATUS: COMPLETE\n---\n# Design\n\nBody.\n").unwrap();
        assert_eq!(r, Reply::Complete { document: "# Design\n\nBody.\n".into() });
        // CRLF and a leading blank line are tolerated.
        let r = parse_reply("\n\nSTATUS: COMPLETE\r\n---\r\n# D\r\n").unwrap();
        assert!(matches!(r, Reply::Complete { document } if document.starts_with("# D")));
    }

    /// Regression: Claude Code indents a sub-agent's report ("The harness
    /// indents every line"); a reply saved from it was refused.
    #[test]
    fn an_indented_reply_as_claude_code_hands_it_back_is_read() {
        let r = parse_reply("  STATUS: COMPLETE\n  ---\n  # Design\n\n    code\n").unwrap();
        assert_eq!(r, Reply::Complete { document: "# Design\n\n  code\n".into() });
        let r = parse_reply("  STATUS: QUESTION\n  QUESTION: A?\n  CONTEXT: b\n").unwrap();
        assert!(matches!(r, Reply::Question { .. }));
    }

    #[test]
    fn question_reply_may_span_lines() {
        let r = parse_reply(
            "STATUS: QUESTION\nQUESTION: Grid or list?\nIt matters for mobile.\nCONTEXT: The spec names both.\n",
        )
        .unwrap();
        assert_eq!(
            r,
            Reply::Question {
                question: "Grid or list?\nIt matters for mobile.".into(),
                context: "The spec names both.".into()
            }
        );
    }

    #[test]
    fn malformed_replies_are_refused_with_the_format() {
        for (text, why) in [
            ("", "empty"),
            ("Here is the design:\nSTATUS: COMPLETE\n---\nx", "first line is `Here is the design:`"),
            ("status: complete\n---\nx", "first line"),
            ("STATUS: COMPLETE\n# Design", "second line must be `---`"),
            ("STATUS: COMPLETE\n---\n  \n", "document after `---` is empty"),
            ("STATUS: QUESTION\nWhat layout?", "must start with `QUESTION:`"),
            ("STATUS: QUESTION\nQUESTION: What layout?", "`CONTEXT:` must follow"),
            ("STATUS: QUESTION\nQUESTION:\nCONTEXT: x", "QUESTION is empty"),
            ("STATUS: QUESTION\nQUESTION: a?\nCONTEXT:", "CONTEXT is empty"),
            ("STATUS: DONE", "first line is `STATUS: DONE`"),
        ] {
            let e = parse_reply(text).unwrap_err().to_string();
            assert!(e.contains(why), "{text:?}: {e}");
            assert!(e.contains("STATUS: QUESTION\nQUESTION: <one specific question>"), "{e}");
        }
    }
}
