//! A knowledge item: one Markdown file, `<id>.md`, with YAML front matter
//! (the facts: type, pattern, action, confidence, evidence, counters) and
//! the lesson itself as the body, so a team shares the knowledge base
//! through git and reviews a change to it in a diff.
//!
//! The front matter has a JSON Schema (`schemas/knowledge-item.schema.json`).
//! Reading it is typed and checks every constraint of the schema (a test
//! holds the two together); the schema, which costs milliseconds to
//! compile, is consulted only to say which fields are wrong in a file the
//! typed reading refused. A few rules the schema cannot say are checked
//! after it (an item superseded by itself, counters that do not add up).
//! Rendering writes the fields in one fixed order, short scalars first and
//! the evidence list last, and the lesson after one blank line, so that a
//! rewrite changes only the lines whose values changed. Ids are made from
//! the type, the first words of the lesson and a stable hash (FNV-1a) of
//! what makes a lesson itself (type, pattern, action, normalised content);
//! ids become file names, so they are validated like slugs.

use std::sync::LazyLock;

use chrono::{DateTime, Utc};
use regex::Regex;
use serde::{Deserialize, Deserializer, Serialize};

use super::bounds::{MAX_FLOW_NESTING, MAX_ITEM_BYTES, too_deep};
use super::pattern::validate_pattern;
use crate::hash::fnv1a32;
use crate::schema::{Schema, SchemaErrors};

/// The longest failure excerpt kept in one evidence entry, in characters.
pub const MAX_EXCERPT_CHARS: usize = 2_000;
/// The longest id (a file name without `.md`).
pub(crate) const MAX_ID: usize = 64;
/// How long the words at the start of an id get (whole words).
const ID_WORDS: usize = 40;
/// The longest task, feature or `discovered_by` text.
const MAX_NAME: usize = 200;
/// The longest `superseded_reason`.
const MAX_REASON: usize = 500;

/// What a knowledge item records.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum KnowledgeType {
    /// A mistake to avoid, learned from a failure; injected into the
    /// briefs of tasks on matching files.
    Gotcha,
    /// A reusable approach that worked; looked up by topic.
    Pattern,
    /// A choice the team made on purpose ("we use X, not Y, because ...");
    /// looked up by topic with the patterns.
    Decision,
}

crate::named!(KnowledgeType, "knowledge item type");

/// Where a lesson came from: the task and feature it was learned in, the
/// commit that fixed it, the failure output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Evidence {
    pub task: String,
    pub feature: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    #[serde(deserialize_with = "utc")]
    pub at: DateTime<Utc>,
    /// The failure output excerpt (see [`excerpt`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<String>,
}

/// One knowledge item: the front matter's fields in the order they are
/// written, and the lesson.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnowledgeItem {
    pub id: String,
    #[serde(rename = "type")]
    pub item_type: KnowledgeType,
    /// Which files the lesson is about (see `pattern`); unset: any file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_pattern: Option<String>,
    /// The task action it is about (`CREATE`, `UPDATE`, ...); unset: any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// A lowercase word that patterns and decisions are looked up by.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic: Option<String>,
    /// 0.0 to 1.0, kept to hundredths.
    pub confidence: f64,
    /// How often the lesson was learned (at least 1).
    pub occurrences: u32,
    /// The agent or session that recorded it first.
    pub discovered_by: String,
    /// The item that replaced this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub superseded_by: Option<String>,
    /// Why it was retired (without a successor, or with one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub superseded_reason: Option<String>,
    #[serde(deserialize_with = "utc")]
    pub created_at: DateTime<Utc>,
    #[serde(deserialize_with = "utc")]
    pub updated_at: DateTime<Utc>,
    /// How many briefs it was put in.
    #[serde(default)]
    pub injected: u32,
    /// Injections after which the task did not fail the way it warns of.
    #[serde(default)]
    pub prevented: u32,
    /// Injections after which the task still failed that way.
    #[serde(default)]
    pub not_helped: u32,
    pub evidence: Vec<Evidence>,
    /// The lesson, Markdown: the body after the front matter.
    #[serde(skip)]
    pub content: String,
}

/// Why a knowledge file cannot be read. The caller adds the file's path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KnowledgeItemError {
    #[error(
        "does not start with a `---` line: a knowledge item is YAML front matter between two `---` lines, then the lesson"
    )]
    NoFrontMatter,
    #[error(
        "the front matter opened on line 1 is never closed: add a line `---` between the front matter and the lesson"
    )]
    Unclosed,
    #[error("line {line}: the front matter is not YAML ({message}); fix the syntax (quote a value that contains `: `)")]
    Yaml { line: usize, message: String },
    #[error("the front matter is not a list of `field: value` lines ({0}); write one field per line")]
    NotAMapping(String),
    #[error("fix these fields of the front matter: it {0}")]
    Schema(SchemaErrors),
    #[error("field `{field}`: {message}")]
    Field { field: &'static str, message: String },
    #[error("there is no lesson after the front matter: write what goes wrong and what to do instead")]
    NoContent,
    #[error(
        "is {size} bytes, more than the {max} a knowledge item may have (a lesson is a few lines and at most ten evidence excerpts): shorten it, or remove it if it is no lesson (`git log -- <file>` says where it came from)"
    )]
    TooLarge { size: usize, max: usize },
    #[error(
        "line {line}: the front matter nests `[` or `{{` more than {max} deep: no item does (a real one nests 2 at most), and the YAML parser would take minutes over it; write the front matter as `field: value` lines, or remove the file"
    )]
    TooDeep { line: usize, max: usize },
}

/// Why an id cannot name an item.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "invalid knowledge item id `{0}`: use 1-64 lowercase letters and digits in words joined by single `-` (ids are file names), for example `gotcha-run-migrations-in-a-transaction-1a2b3c4d`"
)]
pub struct InvalidId(pub String);

static ID: LazyLock<Regex> = LazyLock::new(|| Regex::new("^[a-z0-9]+(?:-[a-z0-9]+)*$").expect("compiles"));
static ACTION: LazyLock<Regex> = LazyLock::new(|| Regex::new("^[A-Z][A-Z0-9_]*$").expect("compiles"));
static COMMIT: LazyLock<Regex> = LazyLock::new(|| Regex::new("^[0-9a-f]{7,64}$").expect("compiles"));
static STAMP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,9})?Z$").expect("compiles")
});

/// Ids are lowercase words of letters and digits joined by single `-`, at
/// most 64 characters: a safe file name on every platform, never a path.
pub fn validate_id(id: &str) -> Result<(), InvalidId> {
    if id.len() <= MAX_ID && ID.is_match(id) { Ok(()) } else { Err(InvalidId(id.to_owned())) }
}

/// An action is one uppercase word (`CREATE`, `UPDATE`, `DELETE`, `TEST`,
/// `MIGRATE`, ...): letters, digits and `_`, at most 32 characters.
pub(crate) fn valid_action(action: &str) -> bool {
    action.len() <= 32 && ACTION.is_match(action)
}

/// A topic is a lowercase word (or words joined by `-`), at most 40
/// characters.
pub(crate) fn valid_topic(topic: &str) -> bool {
    topic.len() <= 40 && ID.is_match(topic)
}

/// A confidence is a number from 0 to 1 (not NaN, not infinite).
pub fn valid_confidence(confidence: f64) -> bool {
    confidence.is_finite() && (0.0..=1.0).contains(&confidence)
}

/// The file an item lives in, inside the knowledge folder.
pub fn file_name(id: &str) -> String {
    format!("{id}.md")
}

/// `<type>-<first words of the lesson, ≤ 40 chars>-<8 hex>`; the hash is
/// FNV-1a of the type, pattern, action and the lesson lowercased with its
/// white space collapsed, so the same lesson about the same files gets the
/// same id wherever it is recorded.
pub(crate) fn new_id(
    item_type: KnowledgeType,
    file_pattern: Option<&str>,
    action: Option<&str>,
    content: &str,
) -> String {
    let normalised = content.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
    let key = format!("{}\n{}\n{}\n{normalised}", item_type.name(), file_pattern.unwrap_or(""), action.unwrap_or(""));
    let hash = fnv1a32(key.as_bytes());
    let mut words = String::new();
    let lower = content.to_ascii_lowercase();
    for word in lower.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()) {
        let extra = if words.is_empty() { word.len() } else { word.len() + 1 };
        if words.len() + extra > ID_WORDS {
            if words.is_empty() {
                words.push_str(&word[..ID_WORDS]);
            }
            break;
        }
        if !words.is_empty() {
            words.push('-');
        }
        words.push_str(word);
    }
    if words.is_empty() {
        format!("{}-{hash:08x}", item_type.name())
    } else {
        format!("{}-{words}-{hash:08x}", item_type.name())
    }
}

/// A failure output cut to at most [`MAX_EXCERPT_CHARS`] characters: its
/// start and its end (where compilers and test runners put the error), with
/// `[…]` between them. None for an output that is only white space.
pub fn excerpt(output: &str) -> Option<String> {
    let output = output.trim();
    if output.is_empty() {
        return None;
    }
    let chars: Vec<char> = output.chars().collect();
    if chars.len() <= MAX_EXCERPT_CHARS {
        return Some(output.to_owned());
    }
    const MARK: &str = "\n[…]\n";
    let room = MAX_EXCERPT_CHARS - MARK.chars().count();
    let head: String = chars[..room / 2].iter().collect();
    let tail: String = chars[chars.len() - (room - room / 2)..].iter().collect();
    Some(format!("{head}{MARK}{tail}"))
}

/// A timestamp as phasegate writes it: RFC 3339 in UTC with a `Z`.
fn utc<'de, D: Deserializer<'de>>(d: D) -> Result<DateTime<Utc>, D::Error> {
    let text = String::deserialize(d)?;
    parse_stamp(&text).ok_or_else(|| {
        serde::de::Error::custom(format!("`{text}` is not a UTC timestamp such as 2026-11-22T10:00:00Z"))
    })
}

fn parse_stamp(text: &str) -> Option<DateTime<Utc>> {
    if !STAMP.is_match(text) {
        return None;
    }
    DateTime::parse_from_rfc3339(text).ok().map(|t| t.with_timezone(&Utc))
}

fn has_text(s: &str) -> bool {
    s.chars().any(|c| !c.is_whitespace())
}

fn name_ok(s: &str, max: usize) -> bool {
    has_text(s) && s.chars().count() <= max
}

impl KnowledgeItem {
    /// Reads a knowledge file. Its size and its front matter's nesting are
    /// checked before the YAML parser sees it (see `bounds`).
    pub fn parse(text: &str) -> Result<KnowledgeItem, KnowledgeItemError> {
        let (yaml, rest) = split(text)?;
        if let Some(line) = too_deep(yaml, MAX_FLOW_NESTING) {
            // The front matter starts on the file's line 2.
            return Err(KnowledgeItemError::TooDeep { line: line + 1, max: MAX_FLOW_NESTING });
        }
        let value: serde_yaml::Value = serde_yaml::from_str(yaml).map_err(|e| KnowledgeItemError::Yaml {
            // The front matter starts on the file's line 2.
            line: e.location().map_or(2, |l| l.line() + 1),
            message: yaml_message(&e),
        })?;
        if !value.is_mapping() {
            return Err(KnowledgeItemError::NotAMapping("found no `field: value` line".into()));
        }
        let json = serde_json::to_value(&value).map_err(|e| KnowledgeItemError::NotAMapping(e.to_string()))?;
        let mut item = typed(&json).map_err(|(field, message)| match Schema::KnowledgeItem.check(&json) {
            Err(errors) => KnowledgeItemError::Schema(errors),
            Ok(()) => KnowledgeItemError::Field { field, message },
        })?;
        item.content = body(rest);
        item.check_rules()?;
        Ok(item)
    }

    /// The file's text: front matter in a fixed field order, a blank line,
    /// the lesson.
    pub fn render(&self) -> String {
        let yaml = serde_yaml::to_string(self).expect("an item serialises to YAML");
        format!("---\n{yaml}---\n\n{}\n", self.content.trim_end())
    }

    /// Every constraint of the schema and the rules after it: what
    /// [`KnowledgeItem::parse`] accepts. Used before writing an item made in
    /// code.
    pub fn validate(&self) -> Result<(), KnowledgeItemError> {
        check(self).map_err(|(field, message)| KnowledgeItemError::Field { field, message })?;
        self.check_rules()?;
        let size = self.render().len();
        if size > MAX_ITEM_BYTES {
            return Err(KnowledgeItemError::TooLarge { size, max: MAX_ITEM_BYTES });
        }
        Ok(())
    }

    /// Drops the oldest evidence after the first (the discovery) while the
    /// file would be larger than a reader takes: an item seen many times
    /// with long failure outputs stays readable.
    pub(crate) fn fit(&mut self) {
        while self.evidence.len() > 1 && self.render().len() > MAX_ITEM_BYTES {
            self.evidence.remove(1);
        }
    }

    /// Retired: superseded by another item or obsolete.
    pub fn is_superseded(&self) -> bool {
        self.superseded_by.is_some() || self.superseded_reason.is_some()
    }

    fn check_rules(&self) -> Result<(), KnowledgeItemError> {
        let field = |field, message: &str| Err(KnowledgeItemError::Field { field, message: message.to_owned() });
        if self.superseded_by.as_deref() == Some(self.id.as_str()) {
            return field("superseded_by", "an item cannot supersede itself: name the item that replaced it");
        }
        if self.updated_at < self.created_at {
            return field("updated_at", "is before `created_at`: set it to the time of the last change");
        }
        if u64::from(self.prevented) + u64::from(self.not_helped) > u64::from(self.injected) {
            return field(
                "injected",
                "is less than `prevented` + `not_helped`: each outcome follows one injection; correct the counters",
            );
        }
        if !has_text(&self.content) {
            return Err(KnowledgeItemError::NoContent);
        }
        Ok(())
    }
}

/// An item file's front matter and what follows it, split at its `---`
/// lines, after its size is checked.
fn split(text: &str) -> Result<(&str, &str), KnowledgeItemError> {
    if text.len() > MAX_ITEM_BYTES {
        return Err(KnowledgeItemError::TooLarge { size: text.len(), max: MAX_ITEM_BYTES });
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    if lines.next().map(|l| l.trim_end()) != Some("---") {
        return Err(KnowledgeItemError::NoFrontMatter);
    }
    let start = text.find('\n').map_or(text.len(), |i| i + 1);
    let mut offset = start;
    for line in lines {
        if line.trim_end() == "---" {
            return Ok((&text[start..offset], &text[offset + line.len()..]));
        }
        offset += line.len();
    }
    Err(KnowledgeItemError::Unclosed)
}

/// The lesson of an item file (its body), without reading the front
/// matter; None when the file has no front matter or no lesson.
pub(crate) fn lesson_in(text: &str) -> Option<String> {
    let (_, rest) = split(text).ok()?;
    Some(body(rest)).filter(|l| has_text(l))
}

/// serde_yaml's message without its own position, which counts from the
/// front matter, not from the file.
fn yaml_message(e: &serde_yaml::Error) -> String {
    let text = e.to_string();
    match text.find(" at line ") {
        Some(i) => text[..i].to_owned(),
        None => text,
    }
}

/// The lesson: the body without the blank lines around it, with `\n` line
/// ends.
fn body(text: &str) -> String {
    text.replace("\r\n", "\n").trim_start_matches('\n').trim_end().to_owned()
}

/// The typed reading, with every constraint of the schema.
fn typed(value: &serde_json::Value) -> Result<KnowledgeItem, (&'static str, String)> {
    let item = KnowledgeItem::deserialize(value).map_err(|e| ("front matter", e.to_string()))?;
    check(&item)?;
    Ok(item)
}

/// The schema's constraints on the typed values.
fn check(item: &KnowledgeItem) -> Result<(), (&'static str, String)> {
    let bad = |field: &'static str, message: &str| Err((field, message.to_owned()));
    if validate_id(&item.id).is_err() {
        return bad("id", &InvalidId(item.id.clone()).to_string());
    }
    if let Some(p) = &item.file_pattern {
        validate_pattern(p).map_err(|e| ("file_pattern", e.to_string()))?;
    }
    if item.action.as_deref().is_some_and(|a| !valid_action(a)) {
        return bad("action", "use one uppercase word such as CREATE, UPDATE, DELETE, TEST or MIGRATE");
    }
    if item.topic.as_deref().is_some_and(|t| !valid_topic(t)) {
        return bad("topic", "use a lowercase word (letters, digits, single `-`), at most 40 characters");
    }
    if !valid_confidence(item.confidence) {
        return bad("confidence", "use a number from 0.0 to 1.0");
    }
    if item.occurrences == 0 {
        return bad("occurrences", "use a whole number of at least 1");
    }
    if !name_ok(&item.discovered_by, MAX_NAME) {
        return bad("discovered_by", "name the agent or session that found the lesson (at most 200 characters)");
    }
    if item.superseded_by.as_deref().is_some_and(|s| validate_id(s).is_err()) {
        return bad("superseded_by", "use the id of the item that replaced this one");
    }
    if item.superseded_reason.as_deref().is_some_and(|r| !name_ok(r, MAX_REASON)) {
        return bad("superseded_reason", "say in at most 500 characters why the item no longer applies");
    }
    if item.evidence.is_empty() {
        return bad("evidence", "add at least one entry: the task, feature and failure excerpt or commit it came from");
    }
    for e in &item.evidence {
        if !name_ok(&e.task, MAX_NAME) || !name_ok(&e.feature, MAX_NAME) {
            return bad("evidence", "each entry names its `task` and `feature` (at most 200 characters each)");
        }
        if e.commit.as_deref().is_some_and(|c| !COMMIT.is_match(c)) {
            return bad("evidence", "a `commit` is 7 to 64 lowercase hex digits");
        }
        if e.excerpt.as_deref().is_some_and(|x| !has_text(x) || x.chars().count() > MAX_EXCERPT_CHARS) {
            return bad("evidence", "an `excerpt` is the failure output, 1 to 2,000 characters");
        }
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use chrono::TimeZone;

    pub(crate) fn at(day: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, day, 10, 0, 0).unwrap()
    }

    pub(crate) const FILE: &str = "---
id: gotcha-run-migrations-inside-a-transaction-0b5c6f1e
type: gotcha
file_pattern: '*.sql'
action: CREATE
confidence: 0.7
occurrences: 1
discovered_by: build-agent
created_at: 2026-11-02T10:00:00Z
updated_at: 2026-11-02T10:00:00Z
injected: 0
prevented: 0
not_helped: 0
evidence:
- task: T3
  feature: user-auth
  commit: 3f2a9c1
  at: 2026-11-02T10:00:00Z
  excerpt: |-
    ERROR: relation \"users\" already exists
    migration 001 left half applied
---

Run every migration inside a transaction: a failed `ALTER` leaves the schema half applied and the next run fails on objects that already exist.
";

    #[test]
    fn an_item_reads_and_renders_byte_for_byte() {
        let item = KnowledgeItem::parse(FILE).unwrap();
        assert_eq!(item.item_type, KnowledgeType::Gotcha);
        assert_eq!(item.file_pattern.as_deref(), Some("*.sql"));
        assert_eq!(item.action.as_deref(), Some("CREATE"));
        assert_eq!((item.confidence, item.occurrences), (0.7, 1));
        assert_eq!(item.evidence[0].commit.as_deref(), Some("3f2a9c1"));
        assert_eq!((item.created_at, item.evidence[0].at), (at(2), at(2)));
        assert!(item.evidence[0].excerpt.as_deref().unwrap().ends_with("half applied"));
        assert!(item.content.starts_with("Run every migration") && item.content.ends_with("already exist."));
        assert_eq!(item.render(), FILE, "a rewrite of an unchanged item is no diff");
        assert_eq!(KnowledgeItem::parse(&item.render()).unwrap(), item);
        // Markers, indentation and trailing spaces inside values and the lesson survive.
        let mut tricky = item.clone();
        tricky.evidence[0].excerpt = Some("  indented first line\n---\ntrailing space  \n\tTAB".into());
        tricky.content = "First paragraph.\n\n---\n\n```\n---\n```".into();
        assert_eq!(KnowledgeItem::parse(&tricky.render()).unwrap(), tricky);
        // CRLF files and a byte order mark read the same.
        let crlf = format!("\u{feff}{}", FILE.replace('\n', "\r\n"));
        assert_eq!(KnowledgeItem::parse(&crlf).unwrap(), item);
    }

    #[test]
    fn a_changed_value_is_a_one_line_diff() {
        let mut item = KnowledgeItem::parse(FILE).unwrap();
        item.confidence = 0.85;
        item.occurrences = 2;
        let rendered = item.render();
        let changed: Vec<(&str, &str)> = FILE.lines().zip(rendered.lines()).filter(|(a, b)| a != b).collect();
        assert_eq!(changed, [("confidence: 0.7", "confidence: 0.85"), ("occurrences: 1", "occurrences: 2")]);
    }

    #[test]
    fn errors_name_the_field_and_what_to_do() {
        let with = |from: &str, to: &str| {
            assert!(FILE.contains(from), "{from}");
            FILE.replacen(from, to, 1)
        };
        for (text, want) in [
            ("no front matter".to_owned(), "does not start with a `---` line"),
            ("---\nid: x\n".to_owned(), "add a line `---`"),
            (with("action: CREATE", "action: CREATE: UPDATE"), "line 5: the front matter is not YAML"),
            ("---\n- a\n---\nx\n".to_owned(), "write one field per line"),
            (with("confidence: 0.7", "confidence: 1.5"), "at /confidence:"),
            (
                with("type: gotcha", "type: tip"),
                "at /type: \"tip\" is not one of \"gotcha\", \"pattern\", \"decision\"",
            ),
            (with("file_pattern: '*.sql'", "file_pattern: src/**/*.sql"), "at /file_pattern:"),
            (with("action: CREATE", "action: create"), "at /action:"),
            (with("occurrences: 1", "occurrences: 0"), "at /occurrences:"),
            (with("  commit: 3f2a9c1\n", "  commit: xyz\n"), "at /evidence/0/commit:"),
            (with("  feature: user-auth\n", ""), "at /evidence/0:"),
            (with("id: gotcha-run", "id: ../gotcha-run"), "at /id:"),
            (with("injected: 0\n", "injected: 0\nweight: 2\n"), "weight"),
            (with("created_at: 2026-11-02T10:00:00Z", "created_at: 2026-11-02 10:00"), "at /created_at:"),
            (
                with("injected: 0", "injected: 0\nsuperseded_by: gotcha-run-migrations-inside-a-transaction-0b5c6f1e"),
                "cannot supersede itself",
            ),
            (
                with("updated_at: 2026-11-02T10:00:00Z", "updated_at: 2026-11-01T10:00:00Z"),
                "field `updated_at`: is before",
            ),
            (with("prevented: 0", "prevented: 1"), "field `injected`"),
            (FILE[..FILE.find("\nRun every").unwrap()].to_owned(), "there is no lesson"),
        ] {
            let err = KnowledgeItem::parse(&text).unwrap_err().to_string();
            assert!(err.contains(want), "want {want:?} in: {err}");
        }
    }

    // 200 KB of nested `[` in an item (it arrives by `git pull`) kept the
    // YAML parser busy for minutes in every command and hook.
    #[test]
    fn a_nested_bracket_front_matter_is_refused_before_parsing() {
        let started = std::time::Instant::now();
        let huge = format!("---\nid: {}\n---\nlesson\n", "[".repeat(200_000));
        let err = KnowledgeItem::parse(&huge).unwrap_err();
        assert!(matches!(err, KnowledgeItemError::TooLarge { size, max: MAX_ITEM_BYTES } if size == huge.len()));
        assert!(err.to_string().contains("more than the 65536 a knowledge item may have"), "{err}");
        let deep = format!("---\nid: x\nevidence: {}\n---\nlesson\n", "[".repeat(60_000));
        let err = KnowledgeItem::parse(&deep).unwrap_err();
        assert_eq!(err, KnowledgeItemError::TooDeep { line: 3, max: MAX_FLOW_NESTING });
        assert!(err.to_string().starts_with("line 3: the front matter nests `[` or `{` more than 32 deep"), "{err}");
        assert!(started.elapsed() < std::time::Duration::from_secs(2), "{:?}", started.elapsed());
    }

    #[test]
    fn an_item_seen_often_drops_old_evidence_to_stay_readable() {
        let mut item = KnowledgeItem::parse(FILE).unwrap();
        let first = item.evidence[0].clone();
        for k in 0..40 {
            let mut e = first.clone();
            e.task = format!("T{k}");
            e.excerpt = Some("失敗".repeat(1000));
            item.evidence.push(e);
        }
        assert!(item.render().len() > MAX_ITEM_BYTES);
        assert!(matches!(item.validate(), Err(KnowledgeItemError::TooLarge { .. })));
        item.fit();
        assert!(item.render().len() <= MAX_ITEM_BYTES && item.evidence.len() > 1);
        assert_eq!(item.evidence[0], first, "the discovery is kept");
        assert_eq!(item.evidence.last().unwrap().task, "T39", "the latest is kept");
        item.validate().unwrap();
        assert_eq!(KnowledgeItem::parse(&item.render()).unwrap(), item);
    }

    /// The schema and the typed reading accept the same front matter.
    #[test]
    fn the_typed_reading_accepts_what_the_schema_accepts() {
        let base = serde_json::to_value(KnowledgeItem::parse(FILE).unwrap()).unwrap();
        let set = |field: &str, v: serde_json::Value| {
            let mut doc = base.clone();
            doc[field] = v;
            doc
        };
        let ev = |field: &str, v: serde_json::Value| {
            let mut doc = base.clone();
            doc["evidence"][0][field] = v;
            doc
        };
        let without = |field: &str| {
            let mut doc = base.clone();
            doc.as_object_mut().unwrap().remove(field);
            doc
        };
        use serde_json::json;
        let long = |n: usize| json!("x".repeat(n));
        let cases = [
            base.clone(),
            set("type", json!("pattern")),
            set("type", json!("decision")),
            set("type", json!("Gotcha")),
            set("id", json!("a")),
            set("id", json!("a-b-1")),
            set("id", json!("a--b")),
            set("id", json!("-a")),
            set("id", json!("A-b")),
            set("id", json!("a_b")),
            set("id", json!("a/b")),
            set("id", json!("a".repeat(64))),
            set("id", json!("a".repeat(65))),
            set("id", json!(7)),
            set("file_pattern", json!(null)),
            set("file_pattern", json!("server/routes/*")),
            set("file_pattern", json!("config/.env")),
            set("file_pattern", json!("*.SQL")),
            set("file_pattern", json!("src/*.rs")),
            set("file_pattern", json!("../x")),
            set("file_pattern", json!("a".repeat(512))),
            set("file_pattern", json!("a".repeat(513))),
            set("action", json!(null)),
            set("action", json!("MIGRATE")),
            set("action", json!("RUN_TESTS2")),
            set("action", json!("create")),
            set("action", json!("CREATE UPDATE")),
            set("action", json!("A".repeat(33))),
            set("topic", json!("auth")),
            set("topic", json!("rate-limit")),
            set("topic", json!(null)),
            set("topic", json!("Auth")),
            set("topic", json!("a".repeat(41))),
            set("confidence", json!(0)),
            set("confidence", json!(1)),
            set("confidence", json!(1.0)),
            set("confidence", json!(1.01)),
            set("confidence", json!(-0.1)),
            set("confidence", json!("0.7")),
            set("confidence", json!(null)),
            set("occurrences", json!(0)),
            set("occurrences", json!(3)),
            set("occurrences", json!(-1)),
            set("occurrences", json!(1.5)),
            set("occurrences", json!(4_294_967_295u64)),
            set("occurrences", json!(4_294_967_296u64)),
            set("injected", json!(0)),
            set("injected", json!(-1)),
            without("injected"),
            without("not_helped"),
            set("discovered_by", json!("")),
            set("discovered_by", json!("  ")),
            set("discovered_by", long(200)),
            set("discovered_by", long(201)),
            set("superseded_by", json!("gotcha-x-1")),
            set("superseded_by", json!("Gotcha")),
            set("superseded_by", json!(null)),
            set("superseded_reason", json!("the library fixed it in 2.0")),
            set("superseded_reason", json!("")),
            set("superseded_reason", long(501)),
            set("created_at", json!("2026-11-02T10:00:00.123Z")),
            set("created_at", json!("2026-11-02T10:00:00+00:00")),
            set("created_at", json!("2026-11-02t10:00:00z")),
            set("created_at", json!("2026-02-30T10:00:00Z")),
            set("created_at", json!("2026-11-02")),
            set("evidence", json!([])),
            set("evidence", json!({})),
            ev("commit", json!("3f2a9c1")),
            ev("commit", json!("3f2a9c")),
            ev("commit", json!("3F2A9C1")),
            ev("commit", json!("a".repeat(64))),
            ev("commit", json!("a".repeat(65))),
            ev("commit", json!(null)),
            ev("excerpt", long(2000)),
            ev("excerpt", long(2001)),
            ev("excerpt", json!("é".repeat(2000))),
            ev("excerpt", json!(" \n ")),
            ev("excerpt", json!(null)),
            ev("task", json!("")),
            ev("task", json!(3)),
            ev("feature", long(201)),
            ev("at", json!("yesterday")),
            ev("why", json!("x")),
            without("evidence"),
            without("id"),
            without("confidence"),
            without("discovered_by"),
            without("created_at"),
            set("weight", json!(1)),
            json!([]),
            json!("gotcha"),
        ];
        for doc in cases {
            let schema = Schema::KnowledgeItem.check(&doc);
            let typed = typed(&doc);
            assert_eq!(typed.is_ok(), schema.is_ok(), "{doc}: typed {typed:?}, schema {schema:?}");
        }
    }

    #[test]
    fn the_schema_states_the_pattern_forms() {
        let schema: serde_json::Value = serde_json::from_str(Schema::KnowledgeItem.text()).unwrap();
        let stated = schema["properties"]["file_pattern"]["pattern"].as_str().unwrap();
        assert_eq!(stated, super::super::pattern::pattern_regex());
    }

    #[test]
    fn ids_are_stable_slugs() {
        let id =
            new_id(KnowledgeType::Gotcha, Some("*.sql"), Some("CREATE"), "Run every migration inside a transaction");
        // The first words fill at most 40 characters, whole words only.
        assert!(id.starts_with("gotcha-run-every-migration-inside-a-transaction-"), "{id}");
        let longer = new_id(KnowledgeType::Gotcha, None, None, "Run every migration inside a single transaction");
        assert!(longer.starts_with("gotcha-run-every-migration-inside-a-single-"), "{longer}");
        validate_id(&id).unwrap();
        // The same lesson spelled with other spacing and case: the same id.
        assert_eq!(
            new_id(KnowledgeType::Gotcha, Some("*.sql"), Some("CREATE"), "run every  migration\ninside a Transaction"),
            new_id(KnowledgeType::Gotcha, Some("*.sql"), Some("CREATE"), "Run every migration inside a transaction"),
        );
        let other = [
            new_id(KnowledgeType::Pattern, Some("*.sql"), Some("CREATE"), "Run every migration inside a transaction"),
            new_id(KnowledgeType::Gotcha, None, Some("CREATE"), "Run every migration inside a transaction"),
            new_id(KnowledgeType::Gotcha, Some("*.sql"), None, "Run every migration inside a transaction"),
        ];
        for o in &other {
            assert_ne!(o[o.len() - 8..], id[id.len() - 8..], "{o}");
        }
        // The hash is FNV-1a of its key: fixed across releases.
        assert_eq!(
            new_id(KnowledgeType::Decision, None, None, ""),
            format!("decision-{:08x}", fnv1a32(b"decision\n\n\n"))
        );
        assert_eq!(
            new_id(KnowledgeType::Gotcha, None, None, "Ünïcode only ✓").len(),
            "gotcha-".len() + "n-code-only".len() + 9
        );
        let long = new_id(KnowledgeType::Gotcha, None, None, &"x".repeat(90));
        assert_eq!(long, format!("gotcha-{}-{}", "x".repeat(40), &long[long.len() - 8..]));
        assert!(long.len() <= MAX_ID);
        assert_eq!(file_name(&id), format!("{id}.md"));
        for bad in ["", "a/b", "../x", "a..b", "A", "a--b", "-a", "a-", &"a".repeat(65)] {
            assert!(validate_id(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn excerpts_keep_the_start_and_the_end() {
        assert_eq!(excerpt("  \n "), None);
        assert_eq!(excerpt(" error: x \n").as_deref(), Some("error: x"));
        let long = format!("HEAD{}TAIL", "é".repeat(5000));
        let e = excerpt(&long).unwrap();
        assert_eq!(e.chars().count(), MAX_EXCERPT_CHARS);
        assert!(e.starts_with("HEAD") && e.ends_with("TAIL") && e.contains("\n[…]\n"));
    }

    #[test]
    fn item_type_names() {
        crate::names::assert_serde_names::<KnowledgeType>();
    }
}
