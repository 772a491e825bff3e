//! What a check printed, as the ledger keeps it: its last lines, bounded,
//! with secrets scrubbed (the ledger is committed with the feature).

use std::sync::OnceLock;

use regex::Regex;

/// Lines of a check's output the ledger keeps.
pub const TAIL_LINES: usize = 40;
/// Bytes of a check's output the ledger keeps, at most.
pub const TAIL_BYTES: usize = 4096;
/// Bytes of output a run holds in memory (the tail is cut from these):
/// enough to scrub a secret that straddles the kept part's first line.
pub const HELD_BYTES: usize = 64 * 1024;

const REDACTED: &str = "[REDACTED]";

/// Shapes of secrets a test may print: tokens by their prefix, key
/// assignments, bearer headers, private keys.
fn patterns() -> &'static [(Regex, &'static str)] {
    static P: OnceLock<Vec<(Regex, &'static str)>> = OnceLock::new();
    P.get_or_init(|| {
        [
            (r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|\z)", REDACTED),
            (r"\b(?:xox[abeprs]|xapp)-[A-Za-z0-9.\-_]{6,}", REDACTED),
            (r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})", REDACTED),
            (r"\bsk-(?:ant-)?[A-Za-z0-9_\-]{20,}", REDACTED),
            (r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b", REDACTED),
            (r"\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}", REDACTED),
            (r"(?i)(\bbearer\s+)[A-Za-z0-9._~+/\-]{8,}=*", "${1}[REDACTED]"),
            (
                r#"(?i)(\b[A-Za-z0-9_]*(?:password|passwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key)[A-Za-z0-9_]*["']?\s*[=:]\s*["']?)[^\s"',;]{6,}"#,
                "${1}[REDACTED]",
            ),
        ]
        .into_iter()
        .map(|(p, r)| (Regex::new(p).expect("a valid pattern"), r))
        .collect()
    })
}

/// `text` with every secret it shows replaced: the known values (the
/// environment's secrets, at least 8 bytes long) and the shapes above.
pub fn scrub(text: &str, known: &[String]) -> String {
    let mut out = text.to_owned();
    for k in known.iter().filter(|k| k.len() >= 8) {
        if out.contains(k.as_str()) {
            out = out.replace(k.as_str(), REDACTED);
        }
    }
    if !may_hold_a_secret_shape(&out) {
        return out;
    }
    for (re, with) in patterns() {
        if re.is_match(&out) {
            out = re.replace_all(&out, *with).into_owned();
        }
    }
    out
}

/// Whether `text` holds a word every shape of [`patterns`] needs: when it
/// holds none, no pattern can match, and they are not compiled (a hook
/// that scrubs one line, StopFailure's, then costs no regex build). The
/// case-insensitive shapes need their word in any case; the few letters
/// outside ASCII that fold onto one of theirs (`ſ` onto s, the Kelvin
/// sign onto k, the dotted and dotless i) send the text to the patterns.
fn may_hold_a_secret_shape(text: &str) -> bool {
    const EXACT: [&str; 9] = ["-----BEGIN ", "xox", "xapp-", "gh", "github_pat_", "sk-", "AKIA", "ASIA", "eyJ"];
    const ANY_CASE: [&str; 5] = ["bearer", "passw", "secret", "token", "key"];
    if text.contains(['\u{17F}', '\u{212A}', '\u{130}', '\u{131}']) || EXACT.iter().any(|w| text.contains(w)) {
        return true;
    }
    let lower = text.to_ascii_lowercase();
    ANY_CASE.iter().any(|w| lower.contains(w))
}

/// The ledger's part of an output: its last [`TAIL_LINES`] lines within
/// [`TAIL_BYTES`], scrubbed, marked when anything was left out. `held` is
/// what the run kept of the output's end; `total_bytes` what it printed.
pub fn tail(held: &str, total_bytes: u64, known: &[String]) -> String {
    let clean = scrub(held, known);
    let lines: Vec<&str> = clean.lines().collect();
    let mut start = lines.len().saturating_sub(TAIL_LINES);
    let mut kept = lines[start..].join("\n");
    while kept.len() > TAIL_BYTES && start + 1 < lines.len() {
        start += 1;
        kept = lines[start..].join("\n");
    }
    let mut cut = start > 0 || total_bytes > held.len() as u64;
    if kept.len() > TAIL_BYTES {
        let mut at = kept.len() - TAIL_BYTES;
        while !kept.is_char_boundary(at) {
            at += 1;
        }
        kept = kept[at..].to_owned();
        cut = true;
    }
    match cut {
        true => format!("[… earlier output not kept; {total_bytes} bytes in all]\n{kept}"),
        false => kept,
    }
}

/// The names of environment variables whose values are secrets.
pub fn secret_name(name: &str) -> bool {
    let n = name.to_ascii_uppercase();
    ["TOKEN", "SECRET", "PASSWORD", "PASSWD", "API_KEY", "APIKEY", "ACCESS_KEY", "PRIVATE_KEY", "CREDENTIAL"]
        .iter()
        .any(|w| n.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_a_test_may_print_are_scrubbed() {
        let cases = [
            ("token xoxb-123-456-abcdef here", "token [REDACTED] here"),
            ("GITHUB ghp_0123456789abcdefghijABCDEFGHIJ", "GITHUB [REDACTED]"),
            ("key sk-ant-api03-abcdefghijklmnopqrstuv", "key [REDACTED]"),
            ("aws AKIAIOSFODNN7EXAMPLE ok", "aws [REDACTED] ok"),
            ("Authorization: Bearer abc.def-ghi_jkl", "Authorization: Bearer [REDACTED]"),
            ("DB_PASSWORD=hunter2hunter2 next", "DB_PASSWORD=[REDACTED] next"),
            ("\"api_key\": \"0123456789\"", "\"api_key\": \"[REDACTED]\""),
            ("-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\nafter", "[REDACTED]\nafter"),
            ("tokens: 5 passed, 12 tests", "tokens: 5 passed, 12 tests"),
        ];
        for (given, want) in cases {
            assert_eq!(scrub(given, &[]), want, "{given}");
        }
        assert_eq!(scrub("db at s3cr3t-value-1 ok", &["s3cr3t-value-1".into(), "short".into()]), "db at [REDACTED] ok");
        assert!(secret_name("SLACK_TOKEN") && secret_name("aws_secret_access_key") && !secret_name("PATH"));
    }

    #[test]
    fn the_word_check_never_skips_a_text_a_pattern_matches() {
        let texts = [
            "token xoxb-123-456-abcdef here",
            "xapp-1-abcdefgh",
            "GITHUB ghp_0123456789abcdefghijABCDEFGHIJ",
            "github_pat_0123456789abcdefghij_x",
            "key sk-ant-api03-abcdefghijklmnopqrstuv",
            "aws AKIAIOSFODNN7EXAMPLE ok",
            "ASIAIOSFODNN7EXAMPLE",
            "jwt eyJhbGciOiJI.eyJzdWIiOiIx.SflKxwRJSMeK",
            "Authorization: BEARER abc.def-ghi_jkl",
            "DB_PASSWORD=hunter2hunter2 next",
            "Passwd: hunter2hunter2",
            "PRIVATE-KEY=abcdefgh1234",
            "AccessKey = abcdefgh1234",
            "\"api_key\": \"0123456789\"",
            "my_Secret=abcdefgh1234",
            "GH_TOKEN=abcdefgh1234",
            "-----BEGIN RSA PRIVATE KEY-----\nMIIE",
            "PAſSWORD=hunter2hunter2",
            "api_\u{212A}ey=abcdefgh1234",
        ];
        for t in texts {
            let matched = patterns().iter().any(|(re, _)| re.is_match(t));
            assert!(matched, "the case is a secret's shape: {t}");
            assert!(may_hold_a_secret_shape(t), "skipped: {t}");
        }
        // What a usage limit says needs no pattern.
        assert!(!may_hold_a_secret_shape("You've hit your 5-hour limit · resets 3pm (Europe/Berlin)"));
        assert_eq!(scrub("You've hit your limit · resets 3pm", &[]), "You've hit your limit · resets 3pm");
    }

    #[test]
    fn the_tail_is_bounded_in_lines_and_bytes() {
        let many: String = (0..100).map(|i| format!("line {i}\n")).collect();
        let t = tail(&many, many.len() as u64, &[]);
        assert!(t.starts_with("[… ") && t.ends_with("line 99") && !t.contains("line 59\n"), "{t}");
        assert_eq!(t.lines().count(), TAIL_LINES + 1);
        let long = "x".repeat(100_000);
        let t = tail(&long, 100_000_000, &[]);
        assert!(t.len() < TAIL_BYTES + 60, "{}", t.len());
        assert!(t.starts_with("[… earlier output not kept; 100000000 bytes in all]"), "{}", &t[..50]);
        assert_eq!(tail("ok\n", 3, &[]), "ok");
        assert_eq!(tail("token=supersecret123 ok\n", 24, &[]), "token=[REDACTED] ok", "scrubbing is not cutting");
    }
}
