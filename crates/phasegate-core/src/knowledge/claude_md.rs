//! Promotion to CLAUDE.md (seed 004 §6.3 `should_update_claude_md`,
//! §10.2 "promotion"): a lesson becomes part of every session once its
//! confidence is at least 0.9, it was seen at least 3 times, it is
//! universal and CLAUDE.md does not say it already, and only after the user
//! says yes (the caller asks; [`promote`] checks the rule again, so a
//! lesson that does not qualify is never written).
//!
//! **Universal** ("applies across ideas, not just one"): its evidence
//! names at least 2 different features. **Already there**: the block holds
//! its bullet with the current text, or the rest of CLAUDE.md contains the
//! lesson's words in order (compared as in admission); a bullet whose
//! lesson changed since is updated in place. phasegate owns one delimited
//! block, `<!-- phasegate:knowledge -->` … `<!-- /phasegate:knowledge -->`
//! (each marker alone on its line), with one bullet per lesson, its id in a
//! comment at the end of the line. A bullet is one line, the lesson with
//! its white space collapsed: CLAUDE.md is read every session, so it holds
//! the rule and the item file holds the rest. Everything outside the block
//! is kept byte for byte (a new block is appended after a blank line), and
//! so is every line inside it that is not one of the bullets being changed.
//! A block that cannot be read (a start without an end, two starts, an end
//! before a start) is an error naming the lines, and nothing is rewritten.

use std::sync::LazyLock;

use regex::Regex;

use super::item::{KnowledgeItem, validate_id};
use super::words::{self, contains_sequence};

/// The line that opens phasegate's block.
pub(crate) const BLOCK_START: &str = "<!-- phasegate:knowledge -->";
/// The line that closes it.
pub(crate) const BLOCK_END: &str = "<!-- /phasegate:knowledge -->";
/// The heading a new block starts with.
const HEADING: &str = "## Lessons learned (kept by phasegate)";
/// Seed 004 §6.3: `pattern.confidence >= 0.9`.
pub(crate) const PROMOTE_MIN_CONFIDENCE: f64 = 0.9;
/// Seed 004 §6.3: `pattern.occurrences >= 3` ("Pattern seen 3+ times").
pub(crate) const PROMOTE_MIN_OCCURRENCES: u32 = 3;
/// Universal: seen in at least this many different features.
pub(crate) const UNIVERSAL_FEATURES: usize = 2;

static BULLET: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^- .* <!-- ([a-z0-9]+(?:-[a-z0-9]+)*) -->\s*$").expect("compiles"));

/// A condition of the promotion rule that an item does not meet.
#[derive(Debug, Clone, PartialEq)]
pub enum Unmet {
    Superseded,
    Confidence(f64),
    Occurrences(u32),
    NotUniversal { features: usize },
    AlreadyThere,
}

impl std::fmt::Display for Unmet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unmet::Superseded => f.write_str("it is superseded"),
            Unmet::Confidence(c) => write!(f, "its confidence {c} is below {PROMOTE_MIN_CONFIDENCE}"),
            Unmet::Occurrences(n) => write!(f, "it was seen {n} times, fewer than {PROMOTE_MIN_OCCURRENCES}"),
            Unmet::NotUniversal { features } => {
                write!(f, "it was seen in {features} feature(s), fewer than {UNIVERSAL_FEATURES}")
            }
            Unmet::AlreadyThere => f.write_str("CLAUDE.md already says it"),
        }
    }
}

/// Why CLAUDE.md's block cannot be read or a promotion cannot be written.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BlockError {
    #[error(
        "CLAUDE.md line {line}: `{BLOCK_START}` has no `{BLOCK_END}` after it: add the end marker on its own line after the block (phasegate does not rewrite a block it cannot read)"
    )]
    NoEnd { line: usize },
    #[error(
        "CLAUDE.md lines {first} and {second}: two `{BLOCK_START}` lines: keep one block, with one start and one end (phasegate does not rewrite a block it cannot read)"
    )]
    TwoStarts { first: usize, second: usize },
    #[error(
        "CLAUDE.md line {line}: `{BLOCK_END}` without a `{BLOCK_START}` before it: put the start marker before the block or remove this line (phasegate does not rewrite a block it cannot read)"
    )]
    EndBeforeStart { line: usize },
    #[error("`{id}` is not promoted to CLAUDE.md: {why}; promote only what the rule allows")]
    NotPromotable { id: String, why: String },
}

/// Line indexes (0-based) of the block's start and end markers.
fn block(lines: &[&str]) -> Result<Option<(usize, usize)>, BlockError> {
    let mut start: Option<usize> = None;
    let mut found: Option<(usize, usize)> = None;
    for (i, line) in lines.iter().enumerate() {
        match line.trim() {
            BLOCK_START => {
                if let Some(first) = start.or(found.map(|(s, _)| s)) {
                    return Err(BlockError::TwoStarts { first: first + 1, second: i + 1 });
                }
                start = Some(i);
            }
            BLOCK_END => match start.take() {
                Some(s) => found = Some((s, i)),
                None => return Err(BlockError::EndBeforeStart { line: i + 1 }),
            },
            _ => {}
        }
    }
    match start {
        Some(s) => Err(BlockError::NoEnd { line: s + 1 }),
        None => Ok(found),
    }
}

/// The id of a bullet line of the block, if it is one.
fn bullet_id(line: &str) -> Option<&str> {
    BULLET.captures(line.trim_end()).and_then(|c| c.get(1)).map(|m| m.as_str()).filter(|id| validate_id(id).is_ok())
}

/// The bullet of an item: one line.
fn bullet(item: &KnowledgeItem) -> String {
    let text = item.content.split_whitespace().collect::<Vec<_>>().join(" ");
    format!("- {text} <!-- {} -->", item.id)
}

/// Universal: the evidence names at least 2 different features.
pub(crate) fn is_universal(item: &KnowledgeItem) -> bool {
    features(item) >= UNIVERSAL_FEATURES
}

fn features(item: &KnowledgeItem) -> usize {
    let mut names: Vec<&str> = item.evidence.iter().map(|e| e.feature.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    names.len()
}

/// Every condition of the rule the item does not meet (none: promote).
pub fn unmet(item: &KnowledgeItem, claude_md: &str) -> Result<Vec<Unmet>, BlockError> {
    let lines: Vec<&str> = claude_md.split_inclusive('\n').collect();
    block(&lines)?;
    let mut out = Vec::new();
    if item.is_superseded() {
        out.push(Unmet::Superseded);
    }
    if item.confidence < PROMOTE_MIN_CONFIDENCE {
        out.push(Unmet::Confidence(item.confidence));
    }
    if item.occurrences < PROMOTE_MIN_OCCURRENCES {
        out.push(Unmet::Occurrences(item.occurrences));
    }
    if !is_universal(item) {
        out.push(Unmet::NotUniversal { features: features(item) });
    }
    let own = lines.iter().any(|l| bullet_id(l) == Some(item.id.as_str()) && l.trim_end() == bullet(item));
    let others: String = lines.iter().filter(|l| bullet_id(l) != Some(item.id.as_str())).copied().collect();
    let lesson = words::read(&item.content).sequence;
    if own || contains_sequence(&words::read(&others).sequence, &lesson) {
        out.push(Unmet::AlreadyThere);
    }
    Ok(out)
}

/// Seed 004 §6.3 `should_update_claude_md`.
pub fn should_update_claude_md(item: &KnowledgeItem, claude_md: &str) -> Result<bool, BlockError> {
    Ok(unmet(item, claude_md)?.is_empty())
}

/// CLAUDE.md with these items' bullets inserted into phasegate's block, or
/// updated where the block has them; the block is appended when there is
/// none. Refused unless every item meets the rule.
pub fn promote(claude_md: &str, items: &[&KnowledgeItem]) -> Result<String, BlockError> {
    let mut unique: Vec<&KnowledgeItem> = Vec::with_capacity(items.len());
    for item in items {
        if !unique.iter().any(|u| u.id == item.id) {
            unique.push(item);
        }
    }
    let items = unique.as_slice();
    for item in items {
        let why = unmet(item, claude_md)?;
        if !why.is_empty() {
            let why = why.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
            return Err(BlockError::NotPromotable { id: item.id.clone(), why });
        }
    }
    let lines: Vec<&str> = claude_md.split_inclusive('\n').collect();
    let eol = if lines.first().is_some_and(|l| l.ends_with("\r\n")) { "\r\n" } else { "\n" };
    let Some((start, end)) = block(&lines)? else {
        if items.is_empty() {
            return Ok(claude_md.to_owned());
        }
        let mut out = claude_md.to_owned();
        if !out.is_empty() {
            out.push_str(if out.ends_with('\n') { eol } else { "\n\n" });
        }
        for line in [BLOCK_START.to_owned(), HEADING.to_owned()].into_iter().chain(items.iter().map(|i| bullet(i))) {
            out.push_str(&line);
            out.push_str(eol);
        }
        out.push_str(BLOCK_END);
        out.push_str(eol);
        return Ok(out);
    };
    let mut out = String::with_capacity(claude_md.len() + 256);
    let mut placed: Vec<&str> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if i == end {
            for item in items.iter().filter(|it| !placed.contains(&it.id.as_str())) {
                out.push_str(&bullet(item));
                out.push_str(eol);
            }
        }
        let replacing = (i > start && i < end)
            .then(|| bullet_id(line))
            .flatten()
            .and_then(|id| items.iter().find(|it| it.id == id));
        match replacing {
            Some(item) => {
                out.push_str(&bullet(item));
                out.push_str(line_end(line));
                placed.push(&item.id);
            }
            None => out.push_str(line),
        }
    }
    Ok(out)
}

/// The ids whose bullets the block holds, in order.
pub fn promoted_ids(claude_md: &str) -> Result<Vec<String>, BlockError> {
    let lines: Vec<&str> = claude_md.split_inclusive('\n').collect();
    let Some((start, end)) = block(&lines)? else {
        return Ok(Vec::new());
    };
    Ok(lines[start + 1..end].iter().filter_map(|l| bullet_id(l)).map(str::to_owned).collect())
}

fn line_end(line: &str) -> &str {
    if line.ends_with("\r\n") {
        "\r\n"
    } else if line.ends_with('\n') {
        "\n"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::super::item::Evidence;
    use super::super::item::tests::at;
    use super::super::query::tests::item;
    use super::*;

    const LESSON: &str = "Run every migration inside a transaction:\na failed ALTER leaves the schema half applied.";

    fn ready() -> KnowledgeItem {
        let mut i = item(Some("*.sql"), None, 0.95, LESSON);
        i.occurrences = 3;
        i.evidence.push(Evidence {
            task: "T2".into(),
            feature: "billing".into(),
            commit: None,
            at: at(3),
            excerpt: Some("half applied".into()),
        });
        i
    }

    const CLAUDE: &str = "# Project\r\n\r\nUse pnpm, never npm.  \r\n<!-- not ours -->\r\n- a user bullet\r\n";

    #[test]
    fn the_seeds_rule() {
        let i = ready();
        assert_eq!(unmet(&i, CLAUDE).unwrap(), []);
        assert!(should_update_claude_md(&i, CLAUDE).unwrap());
        let mut low = i.clone();
        low.confidence = 0.89;
        low.occurrences = 2;
        low.evidence.truncate(1);
        low.superseded_by = Some("gotcha-x".into());
        assert_eq!(
            unmet(&low, CLAUDE).unwrap(),
            [Unmet::Superseded, Unmet::Confidence(0.89), Unmet::Occurrences(2), Unmet::NotUniversal { features: 1 }]
        );
        // Exactly at the thresholds is enough.
        let mut edge = i.clone();
        edge.confidence = 0.9;
        assert!(should_update_claude_md(&edge, CLAUDE).unwrap());
        // Already said outside the block, in other words' case and punctuation.
        let said = format!(
            "{CLAUDE}\nRun every migration inside a transaction - a failed `ALTER` leaves the schema half-applied!\n"
        );
        assert_eq!(unmet(&i, &said).unwrap(), [Unmet::AlreadyThere]);
    }

    #[test]
    fn a_new_block_is_appended_and_the_rest_kept_byte_for_byte() {
        let i = ready();
        let out = promote(CLAUDE, &[&i]).unwrap();
        assert!(out.starts_with(CLAUDE), "the file is only appended to");
        assert_eq!(
            &out[CLAUDE.len()..],
            format!(
                "\r\n{BLOCK_START}\r\n{HEADING}\r\n- Run every migration inside a transaction: a failed ALTER leaves the schema half applied. <!-- {} -->\r\n{BLOCK_END}\r\n",
                i.id
            )
        );
        assert_eq!(promoted_ids(&out).unwrap(), std::slice::from_ref(&i.id));
        // Promoted: already there, and promoting again is refused with the reason.
        assert_eq!(unmet(&i, &out).unwrap(), [Unmet::AlreadyThere]);
        let e = promote(&out, &[&i]).unwrap_err().to_string();
        assert!(e.contains("CLAUDE.md already says it"), "{e}");
        // A file without a final newline, and an empty one.
        assert!(promote("# P", &[&i]).unwrap().starts_with(&format!("# P\n\n{BLOCK_START}\n")));
        assert!(promote("", &[&i]).unwrap().starts_with(BLOCK_START));
    }

    #[test]
    fn a_changed_lesson_is_updated_in_place() {
        let i = ready();
        let before = format!(
            "# P\n\n{BLOCK_START}\n{HEADING}\nA note the user wrote.\n{}\n- a user bullet\n{BLOCK_END}\n\nAfter the block.",
            bullet(&i)
        );
        let mut changed = i.clone();
        changed.content =
            "Wrap every migration in one transaction: a failed ALTER leaves the schema half applied.".into();
        let mut other = ready();
        other.id = "gotcha-other-1".into();
        other.content = "Quote every identifier in generated SQL: the users table has a column named order.".into();
        let out = promote(&before, &[&changed, &other, &other]).unwrap();
        let want = before
            .replace(&bullet(&i), &bullet(&changed))
            .replace("- a user bullet\n", &format!("- a user bullet\n{}\n", bullet(&other)));
        assert_eq!(out, want);
        assert_eq!(promoted_ids(&out).unwrap(), [i.id.clone(), other.id.clone()]);
    }

    #[test]
    fn a_broken_block_is_an_error_naming_the_line_and_never_rewritten() {
        let i = ready();
        for (text, want) in [
            (format!("# P\n{BLOCK_START}\n- x\n"), BlockError::NoEnd { line: 2 }),
            (format!("{BLOCK_START}\n{BLOCK_START}\n{BLOCK_END}\n"), BlockError::TwoStarts { first: 1, second: 2 }),
            (
                format!("{BLOCK_START}\n{BLOCK_END}\n\n  {BLOCK_START}\n{BLOCK_END}\n"),
                BlockError::TwoStarts { first: 1, second: 4 },
            ),
            (format!("# P\n\n{BLOCK_END}\n{BLOCK_START}\n"), BlockError::EndBeforeStart { line: 3 }),
            (format!("{BLOCK_START}\n{BLOCK_END}\n{BLOCK_END}\n"), BlockError::EndBeforeStart { line: 3 }),
        ] {
            assert_eq!(promote(&text, &[&i]), Err(want.clone()), "{text}");
            assert_eq!(promoted_ids(&text), Err(want.clone()));
            assert!(want.to_string().contains("does not rewrite"), "{want}");
        }
    }
}
