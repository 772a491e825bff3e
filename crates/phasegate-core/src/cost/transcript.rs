//! Claude Code's transcripts as the cost reads them: one JSON line per
//! content block, an assistant message's lines sharing its `message.id`
//! and carrying its `usage` (a message is counted once: each count is the
//! largest its lines report). Every other line (prompts, tool results,
//! attachments, API request records) is skipped without being parsed:
//! the check for `"assistant"` and `"usage"` comes first, so a 50 KB tool
//! result costs a substring search; and a line with a usage is read by
//! [`super::skim`], which steps over its content. Unknown fields of another
//! Claude Code version are ignored.

use chrono::{DateTime, FixedOffset, Utc};

use super::Usage;
use super::skim::skim;

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

/// Whether a line may hold a usage to count: only such a line is parsed.
/// A reader that scans a whole transcript looks for [`USAGE_KEY`] first,
/// so the lines without it (prompts, tool results) are never looked at.
pub fn may_hold_usage(line: &[u8]) -> bool {
    memchr::memmem::find(line, USAGE_KEY).is_some() && memchr::memmem::find(line, b"\"assistant\"").is_some()
}

/// The bytes every line with a usage holds.
pub const USAGE_KEY: &[u8] = b"\"usage\"";

/// Reads one line of a transcript (its bytes, without the newline).
pub fn parse_line(line: &[u8]) -> Line {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if !may_hold_usage(line) {
        return Line::Other;
    }
    parse_usage_line(line)
}

/// Reads a line a scanner found [`USAGE_KEY`] in (its bytes, without the
/// newline): [`parse_line`] without searching for it again.
pub fn parse_usage_line(line: &[u8]) -> Line {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if memchr::memmem::find(line, b"\"assistant\"").is_none() {
        return Line::Other;
    }
    let raw = match skim(line) {
        Ok(r) => r,
        Err(e) => return Line::Bad(format!("not JSON ({e})")),
    };
    if raw.kind.as_deref() != Some("assistant") {
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
    let Some(at) = time(&at) else { return Line::Bad(format!("a time that is not one ({at})")) };
    let one_hour = usage.ephemeral_1h_input_tokens.min(usage.cache_creation_input_tokens);
    Line::Message(Message {
        id: match raw.request_id {
            // Without the formatting machinery: this runs once a line.
            Some(r) => [&*id, "/", &*r].concat(),
            None => id.into_owned(),
        },
        at,
        model: model.into_owned(),
        usage: Usage {
            input: usage.input_tokens,
            output: usage.output_tokens,
            cache_read: usage.cache_read_input_tokens,
            cache_write: usage.cache_creation_input_tokens,
            cache_write_1h: one_hour,
        },
    })
}

/// A line's time as serde reads it (chrono's RFC 3339), Claude Code's
/// own form (`2026-11-26T22:11:12.945Z`) read directly.
fn time(text: &str) -> Option<DateTime<Utc>> {
    let b = text.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        b.get(r.clone())?.iter().try_fold(0u32, |n, &d| d.is_ascii_digit().then(|| n * 10 + u32::from(d - b'0')))
    };
    let claude_codes = b.len() >= 20
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b'T'
        && b[13] == b':'
        && b[16] == b':'
        && b[b.len() - 1] == b'Z';
    if claude_codes {
        let fraction = &b[19..b.len() - 1];
        let nanos = match fraction {
            [] => Some(0),
            [b'.', rest @ ..] if (1..=9).contains(&rest.len()) && rest.iter().all(u8::is_ascii_digit) => {
                digits(20..20 + rest.len()).map(|n| n * 10u32.pow(9 - rest.len() as u32))
            }
            _ => None,
        };
        let date = chrono::NaiveDate::from_ymd_opt(digits(0..4)? as i32, digits(5..7)?, digits(8..10)?);
        if let (Some(date), Some(nanos)) = (date, nanos)
            && let Some(t) = date.and_hms_nano_opt(digits(11..13)?, digits(14..16)?, digits(17..19)?, nanos)
        {
            return Some(t.and_utc());
        }
    }
    text.parse::<DateTime<FixedOffset>>().ok().map(|t| t.with_timezone(&Utc))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = r#"{"parentUuid":"a","type":"assistant","timestamp":"2026-11-26T22:11:12.945Z","requestId":"req_1","message":{"id":"msg_1","model":"claude-opus-5-5","content":[{"type":"text","text":"hi"}],"usage":{"input_tokens":10,"cache_creation_input_tokens":300,"cache_read_input_tokens":2000,"output_tokens":5,"cache_creation":{"ephemeral_1h_input_tokens":100,"ephemeral_5m_input_tokens":200},"service_tier":"standard","future_field":{"x":1}}},"newField":true}"#;

    #[test]
    fn an_assistant_line_gives_its_usage_and_the_rest_is_skipped_unparsed() {
        let Line::Message(m) = parse_line(LINE.as_bytes()) else { panic!() };
        assert_eq!((m.id.as_str(), m.model.as_str()), ("msg_1/req_1", "claude-opus-5-5"));
        assert_eq!(m.usage, Usage { input: 10, output: 5, cache_read: 2000, cache_write: 300, cache_write_1h: 100 });
        assert_eq!(parse_line(br#"{"type":"user","message":{"content":"the word assistant and usage"}}"#), Line::Other);
        assert_eq!(parse_line(br#"{"type":"queue-operation"}"#), Line::Other);
        assert!(matches!(parse_line(br#"{"type":"assistant","message":{"usage":"#), Line::Bad(_)));
        let synthetic = LINE.replace("claude-opus-5-5", "<synthetic>");
        assert_eq!(parse_line(synthetic.as_bytes()), Line::Other);
        // An id with an escape is read as the JSON says (no borrowed slice of the line).
        let escaped = LINE.replace("\"msg_1\"", r#""msg_\u0031""#);
        let Line::Message(e) = parse_line(escaped.as_bytes()) else { panic!("{escaped}") };
        assert_eq!(e.id, "msg_1/req_1");
    }

    #[test]
    fn times_read_as_serde_reads_them() {
        for t in [
            "2026-11-26T22:11:12.945Z",
            "2026-11-26T22:11:12Z",
            "2026-11-26T22:11:12.123456789Z",
            "2026-11-26T22:11:12.5+02:00",
            "2026-11-26 22:11:12Z",
            "2026-02-30T22:11:12.945Z",
            "2026-11-26T24:11:12.945Z",
            "2026-11-26T22:11:12.Z",
            "2026-11-26T22:11:12,5Z",
            "not a time at all, Z",
        ] {
            let serde = serde_json::from_value::<DateTime<Utc>>(serde_json::json!(t)).ok();
            assert_eq!(time(t), serde, "{t}");
        }
    }
}
