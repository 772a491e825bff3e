//! The one timestamp format phasegate writes and prints: RFC 3339 in UTC with
//! a `Z`, the same text serde writes into `.meta.json` (never `+00:00`).

use chrono::{DateTime, SecondsFormat, SubsecRound, Utc};

/// `2026-11-22T10:00:00.123Z` (fractional seconds only when there are some).
pub fn stamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::AutoSi, true)
}

/// The clock, read once per command or hook run and passed down from there,
/// truncated to milliseconds so what is printed is what is stored.
pub fn now() -> DateTime<Utc> {
    Utc::now().trunc_subsecs(3)
}

/// A span of time; open while `end` is None.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Span {
    pub start: DateTime<Utc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<DateTime<Utc>>,
}

impl Span {
    pub fn holds(&self, t: DateTime<Utc>) -> bool {
        t >= self.start && self.end.is_none_or(|e| t <= e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn stamps_match_what_serde_writes() {
        let t = Utc.with_ymd_and_hms(2026, 11, 22, 10, 0, 0).unwrap();
        assert_eq!(stamp(t), "2026-11-22T10:00:00Z");
        assert_eq!(serde_json::to_string(&t).unwrap(), format!("\"{}\"", stamp(t)));
        let ms = t + chrono::Duration::milliseconds(120);
        assert_eq!(stamp(ms), serde_json::to_value(ms).unwrap().as_str().unwrap());
    }
}
