//! Claude Code's transcripts as the cost reads them: one JSON line per
//! content block, an assistant message's lines sharing its `message.id`
//! and carrying its `usage` (a message is counted once: each count is the
//! largest its lines report). Every other line (prompts, tool results,
//! attachments, API request records) is skipped without being parsed:
//! the check for `"assistant"` and `"usage"` comes first, so a 50 KB tool
//! result costs a substring search. Unknown fields of another Claude Code
//! version are ignored.

use chrono::{DateTime, Utc};
use serde::Deserialize;

use super::Usage;

/// One API response of a transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// `message.id` (with the request's id when the line has one).
    pub id: String,
    pub at: DateTime<Utc>,
    pub model: String,
    pub usage: Usage,
}

/// What one line is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// An assistant message's usage.
    Message(Message),
    /// A line with no usage to count (or a synthetic message).
    Other,
    /// A line that is not what it should be: why.
    Bad(String),
}

#[derive(Deserialize)]
struct Raw<'a> {
    #[serde(rename = "type", borrow)]
    kind: Option<&'a str>,
    timestamp: Option<DateTime<Utc>>,
    #[serde(rename = "requestId", borrow)]
    request_id: Option<&'a str>,
    message: Option<RawMessage>,
}

#[derive(Deserialize)]
struct RawMessage {
    id: Option<String>,
    model: Option<String>,
    usage: Option<RawUsage>,
}

#[derive(Deserialize)]
struct RawUsage {
    #[serde(default)]
    input_tokens: u64,
    #[serde(default)]
    output_tokens: u64,
    #[serde(default)]
    cache_creation_input_tokens: u64,
    #[serde(default)]
    cache_read_input_tokens: u64,
    #[serde(default)]
    cache_creation: Option<RawCacheCreation>,
}

#[derive(Deserialize)]
struct RawCacheCreation {
    #[serde(default)]
    ephemeral_1h_input_tokens: u64,
}

/// Reads one line of a transcript.
pub fn parse_line(line: &str) -> Line {
    let line = line.trim_end_matches('\r');
    if line.trim().is_empty() || !line.contains("\"assistant\"") || !line.contains("\"usage\"") {
        return Line::Other;
    }
    let raw: Raw<'_> = match serde_json::from_str(line) {
        Ok(r) => r,
        Err(e) => return Line::Bad(format!("not JSON ({e})")),
    };
    if raw.kind != Some("assistant") {
        return Line::Other;
    }
    let Some(m) = raw.message else { return Line::Other };
    let (Some(usage), Some(id)) = (m.usage, m.id) else { return Line::Other };
    let model = m.model.unwrap_or_default();
    // Claude Code's own placeholder replies (an error it shows, no request).
    if model == "<synthetic>" {
        return Line::Other;
    }
    let Some(at) = raw.timestamp else { return Line::Bad("an assistant line without a timestamp".to_owned()) };
    let one_hour =
        usage.cache_creation.map_or(0, |c| c.ephemeral_1h_input_tokens).min(usage.cache_creation_input_tokens);
    Line::Message(Message {
        id: match raw.request_id {
            Some(r) => format!("{id}/{r}"),
            None => id,
        },
        at,
        model,
        usage: Usage {
            input: usage.input_tokens,
            output: usage.output_tokens,
            cache_read: usage.cache_read_input_tokens,
            cache_write: usage.cache_creation_input_tokens,
            cache_write_1h: one_hour,
        },
    })
}

/// The messages of a transcript's lines, each id once (its counts the
/// largest its lines report, its time and model the first line's).
pub fn merge(messages: impl IntoIterator<Item = Message>) -> Vec<Message> {
    let mut out: Vec<Message> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for m in messages {
        match index.get(&m.id) {
            Some(&i) => out[i].usage = out[i].usage.max(m.usage),
            None => {
                index.insert(m.id.clone(), out.len());
                out.push(m);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = r#"{"parentUuid":"a","type":"assistant","timestamp":"2026-11-26T22:11:12.945Z","requestId":"req_1","message":{"id":"msg_1","model":"claude-opus-5-5","content":[{"type":"text","text":"hi"}],"usage":{"input_tokens":10,"cache_creation_input_tokens":300,"cache_read_input_tokens":2000,"output_tokens":5,"cache_creation":{"ephemeral_1h_input_tokens":100,"ephemeral_5m_input_tokens":200},"service_tier":"standard","future_field":{"x":1}}},"newField":true}"#;

    #[test]
    fn an_assistant_line_gives_its_usage_and_the_rest_is_skipped_unparsed() {
        let Line::Message(m) = parse_line(LINE) else { panic!() };
        assert_eq!((m.id.as_str(), m.model.as_str()), ("msg_1/req_1", "claude-opus-5-5"));
        assert_eq!(m.usage, Usage { input: 10, output: 5, cache_read: 2000, cache_write: 300, cache_write_1h: 100 });
        assert_eq!(parse_line(r#"{"type":"user","message":{"content":"the word assistant and usage"}}"#), Line::Other);
        assert_eq!(parse_line(r#"{"type":"queue-operation"}"#), Line::Other);
        assert!(matches!(parse_line(r#"{"type":"assistant","message":{"usage":"#), Line::Bad(_)));
        let synthetic = LINE.replace("claude-opus-5-5", "<synthetic>");
        assert_eq!(parse_line(&synthetic), Line::Other);
    }

    #[test]
    fn a_message_split_over_lines_is_counted_once() {
        let Line::Message(a) = parse_line(LINE) else { panic!() };
        let mut b = a.clone();
        b.usage.output = 42;
        let mut other = a.clone();
        other.id = "msg_2".into();
        let merged = merge([a.clone(), b, other]);
        assert_eq!(merged.len(), 2);
        assert_eq!(merged[0].usage.output, 42, "the largest count of its lines");
        assert_eq!(merged[0].usage.input, 10, "not summed");
    }
}
