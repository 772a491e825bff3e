//! What may enter the knowledge base: only what cannot be read off the
//! source, and only with evidence. [`admit`] is the one way to an
//! [`Admitted`] lesson, and recording takes nothing else, so no lesson is
//! written unchecked.
//!
//! Refused, each with what to do instead: a lesson without evidence (no
//! entry, or a gotcha none of whose entries has a failure excerpt or a
//! commit: a gotcha is learned from a failure); a lesson with an invalid
//! field; one that only names files or identifiers (paths, `code spans`,
//! `snake_case`, `camelCase`, `a.b`, `a::b`, calls); a low-value note:
//! fewer than 5 content words once stopwords, names and platitudes ("write
//! tests", "follow best practices", "be careful", ...) are set aside, so
//! that a platitude padded with filler is still refused while a real lesson
//! that mentions one is not, unless it is short and concrete: 3 words or
//! more (names counted) of which at least 2 name concrete things (a name or
//! code span, an acronym or word with capitals inside like `TEXT`, `SQLite`
//! or `IDs`, a word with a digit, a capitalised word inside a sentence like
//! `Postgres`), as in "Use TEXT for SQLite IDs"; and one whose normalised words occur, in
//! order, in a text that is read anyway (CLAUDE.md, README.md, the file the
//! lesson is about): Claude reads those, so the lesson adds nothing. The
//! callers pass those texts; nothing here reads a file.

use std::sync::LazyLock;

use chrono::DateTime;
use regex::Regex;

use super::item::{Evidence, KnowledgeItem, KnowledgeItemError, KnowledgeType, new_id};
use super::words::{self, contains_sequence};

/// The fewest content words a lesson has.
pub(crate) const MIN_CONTENT_WORDS: usize = 5;
/// The fewest words (names counted) of a short lesson, and the fewest
/// concrete things it names.
pub(crate) const MIN_SHORT_WORDS: usize = 3;
pub(crate) const MIN_CONCRETE: usize = 2;

/// Advice for any project, which is no lesson about this one.
pub(crate) const PLATITUDES: &[&str] = &[
    "write tests",
    "write good tests",
    "test thoroughly",
    "follow best practices",
    "use best practices",
    "be careful",
    "double check",
    "pay attention",
    "keep it simple",
    "write clean code",
    "handle errors properly",
    "read the documentation",
    "read the docs",
    "check your work",
    "think carefully",
];

/// A lesson as an agent or the retrospective proposes it.
#[derive(Debug, Clone, PartialEq)]
pub struct Lesson {
    pub item_type: KnowledgeType,
    /// The lesson itself, Markdown.
    pub content: String,
    /// See `pattern_for`; unset: any file.
    pub file_pattern: Option<String>,
    pub action: Option<String>,
    pub topic: Option<String>,
    /// Usually [`DISCOVERY`](super::lifecycle::DISCOVERY).
    pub confidence: f64,
    pub evidence: Vec<Evidence>,
    pub discovered_by: String,
}

/// A lesson that passed [`admit`].
#[derive(Debug, Clone, PartialEq)]
pub struct Admitted(Lesson);

impl Admitted {
    pub fn lesson(&self) -> &Lesson {
        &self.0
    }
}

/// A text that is read anyway: CLAUDE.md, README.md, the file the lesson
/// is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceText<'a> {
    /// How the refusal names it (`CLAUDE.md`, `src/db.rs`).
    pub name: &'a str,
    pub text: &'a str,
}

/// Why a lesson is not admitted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error(
        "a lesson without evidence is refused: give the task and feature it was learned in and the failure output excerpt or the commit that fixed it"
    )]
    NoEvidence,
    #[error(
        "a gotcha is learned from a failure: add the failure output excerpt or the commit that fixed it to its evidence"
    )]
    NoFailure,
    #[error("{0}")]
    Invalid(KnowledgeItemError),
    #[error("the lesson only names files or identifiers: say what goes wrong with them and what to do instead")]
    OnlyNames,
    #[error(
        "`{phrase}` is advice for any project: record what this project needs that others do not, and why, in at least 5 words besides it"
    )]
    Platitude { phrase: String },
    #[error(
        "the lesson has {words} content words: write at least 5, saying what goes wrong, when, and what to do instead (a shorter one names at least two concrete things, as in `Use TEXT for SQLite IDs`)"
    )]
    TooShort { words: usize },
    #[error(
        "{name} already says this and is read anyway: nothing to record; record only what cannot be read off the source"
    )]
    InSource { name: String },
}

/// A path, an identifier or a call: `src/db.rs`, `pool_size`, `getUser`,
/// `pool.query`, `a::b`, `f()`.
static NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:.*[/\\].*|.*::.*|.*\(\).*|.*_.*|.*[a-z][A-Z].*|.*[A-Za-z0-9]\.[A-Za-z0-9].*)$").expect("compiles")
});
static CODE_SPAN: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"`[^`]*`").expect("compiles"));

/// The lesson's text with code spans and names taken out, and how many
/// there were.
fn without_names(content: &str) -> (String, usize) {
    let mut names = CODE_SPAN.find_iter(content).count();
    let spans_out = CODE_SPAN.replace_all(content, " ");
    let mut kept = Vec::new();
    for token in spans_out.split_whitespace() {
        let bare = token.trim_matches(|c: char| !c.is_alphanumeric() && c != '_' && c != '/' && c != '\\');
        if !bare.is_empty() && NAME.is_match(bare) {
            names += 1;
        } else {
            kept.push(token);
        }
    }
    (kept.join(" "), names)
}

/// How many words of `plain` (names taken out) name a concrete thing: an
/// acronym or a word with capitals inside (`TEXT`, `SQLite`, `IDs`), a
/// word with a digit (`S3`, `30s`), a capitalised word inside a sentence
/// (`Postgres`).
fn concrete_words(plain: &str) -> usize {
    let mut count = 0;
    let mut sentence_start = true;
    for token in plain.split_whitespace() {
        let word = token.trim_matches(|c: char| !c.is_alphanumeric());
        let capitals = word.chars().filter(|c| c.is_uppercase()).count();
        let capitalised = word.chars().next().is_some_and(char::is_uppercase) && word.chars().count() >= 2;
        let concrete = capitals >= 2 || word.chars().any(|c| c.is_ascii_digit()) || (capitalised && !sentence_start);
        count += usize::from(!word.is_empty() && concrete);
        sentence_start = token.ends_with(['.', '!', '?', ':']);
    }
    count
}

/// The admission rules of the module doc, in that order.
pub fn admit(lesson: Lesson, sources: &[SourceText<'_>]) -> Result<Admitted, Refusal> {
    if lesson.evidence.is_empty() {
        return Err(Refusal::NoEvidence);
    }
    let failure = |e: &Evidence| e.excerpt.is_some() || e.commit.is_some();
    match lesson.item_type {
        KnowledgeType::Gotcha if !lesson.evidence.iter().any(failure) => return Err(Refusal::NoFailure),
        KnowledgeType::Gotcha | KnowledgeType::Pattern | KnowledgeType::Decision => {}
    }
    if lesson.content.trim().is_empty() {
        return Err(Refusal::TooShort { words: 0 });
    }
    draft(&lesson).validate().map_err(Refusal::Invalid)?;

    let (plain, names) = without_names(&lesson.content);
    let plain_words = words::read(&plain);
    if plain_words.content_words == 0 && names > 0 {
        return Err(Refusal::OnlyNames);
    }
    let mut remaining: Vec<String> = plain_words.sequence.clone();
    let mut platitude = None;
    for phrase in PLATITUDES {
        let p = words::read(phrase).sequence;
        while let Some(at) = remaining.windows(p.len()).position(|w| w == p.as_slice()) {
            remaining.drain(at..at + p.len());
            platitude.get_or_insert(*phrase);
        }
    }
    let content_words = remaining.iter().filter(|w| w.chars().any(char::is_alphabetic)).count();
    let short_and_concrete = content_words + names >= MIN_SHORT_WORDS && concrete_words(&plain) + names >= MIN_CONCRETE;
    if content_words < MIN_CONTENT_WORDS && !short_and_concrete {
        return Err(match platitude {
            Some(phrase) => Refusal::Platitude { phrase: phrase.to_owned() },
            None => Refusal::TooShort { words: content_words },
        });
    }

    let lesson_words = words::read(&lesson.content).sequence;
    for source in sources {
        if contains_sequence(&words::read(source.text).sequence, &lesson_words) {
            return Err(Refusal::InSource { name: source.name.to_owned() });
        }
    }
    Ok(Admitted(lesson))
}

/// The item a lesson would become, to check its fields.
fn draft(lesson: &Lesson) -> KnowledgeItem {
    KnowledgeItem {
        id: new_id(lesson.item_type, lesson.file_pattern.as_deref(), lesson.action.as_deref(), &lesson.content),
        item_type: lesson.item_type,
        file_pattern: lesson.file_pattern.clone(),
        action: lesson.action.clone(),
        topic: lesson.topic.clone(),
        confidence: lesson.confidence,
        occurrences: 1,
        discovered_by: lesson.discovered_by.clone(),
        superseded_by: None,
        superseded_reason: None,
        created_at: DateTime::UNIX_EPOCH,
        updated_at: DateTime::UNIX_EPOCH,
        injected: 0,
        prevented: 0,
        not_helped: 0,
        evidence: lesson.evidence.clone(),
        content: lesson.content.clone(),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::item::tests::at;
    use super::*;

    pub(crate) fn lesson(content: &str) -> Lesson {
        Lesson {
            item_type: KnowledgeType::Gotcha,
            content: content.into(),
            file_pattern: Some("*.sql".into()),
            action: Some("CREATE".into()),
            topic: None,
            confidence: 0.7,
            evidence: vec![Evidence {
                task: "T3".into(),
                feature: "user-auth".into(),
                commit: None,
                at: at(2),
                excerpt: Some("ERROR: relation \"users\" already exists".into()),
            }],
            discovered_by: "build-agent".into(),
        }
    }

    pub(crate) const GOOD: &str =
        "Run every migration inside a transaction: a failed ALTER leaves the schema half applied.";

    #[test]
    fn a_lesson_with_evidence_that_the_source_does_not_say_is_admitted() {
        let claude = SourceText { name: "CLAUDE.md", text: "# Project\nUse pnpm, never npm.\n" };
        let admitted = admit(lesson(GOOD), &[claude]).unwrap();
        assert_eq!(admitted.lesson().content, GOOD);
        // A commit alone is a failure's evidence too; a pattern needs no failure.
        let mut by_commit = lesson(GOOD);
        by_commit.evidence[0].excerpt = None;
        by_commit.evidence[0].commit = Some("3f2a9c1".into());
        admit(by_commit, &[]).unwrap();
        let mut pattern = lesson(GOOD);
        pattern.item_type = KnowledgeType::Pattern;
        pattern.evidence[0].excerpt = None;
        admit(pattern, &[]).unwrap();
        // A lesson that mentions a platitude but says more is a lesson.
        admit(lesson("Be careful: the users table has a trigger that rewrites every email to lowercase."), &[])
            .unwrap();
    }

    #[test]
    fn refusals_say_what_to_do_instead() {
        let claude = "## Database\n\nAlways run every migration inside a transaction: a failed `ALTER` leaves the schema half-applied!\n";
        let file = "-- 001.sql\nCREATE TABLE users (id serial primary key);\n";
        let sources =
            [SourceText { name: "CLAUDE.md", text: claude }, SourceText { name: "database/001.sql", text: file }];
        let mut no_evidence = lesson(GOOD);
        no_evidence.evidence.clear();
        let mut no_failure = lesson(GOOD);
        no_failure.evidence[0].excerpt = None;
        let mut bad_pattern = lesson(GOOD);
        bad_pattern.file_pattern = Some("db/**/*.sql".into());
        let mut bad_confidence = lesson(GOOD);
        bad_confidence.confidence = 7.0;
        for (l, want, says) in [
            (no_evidence, Refusal::NoEvidence, "give the task and feature"),
            (no_failure, Refusal::NoFailure, "add the failure output excerpt"),
            (lesson("`src/db.rs` `pool.query` MAX_CONNECTIONS getUser()"), Refusal::OnlyNames, "say what goes wrong"),
            (lesson("see src/db.rs"), Refusal::TooShort { words: 1 }, "write at least 5"),
            (lesson(" \n "), Refusal::TooShort { words: 0 }, "write at least 5"),
            (lesson("Don't forget the index."), Refusal::TooShort { words: 3 }, "write at least 5"),
            (
                lesson("Always remember to write tests and follow best practices!"),
                Refusal::Platitude { phrase: "write tests".into() },
                "advice for any project",
            ),
            (
                lesson("Be careful, double check and pay attention."),
                Refusal::Platitude { phrase: "be careful".into() },
                "in at least 5 words",
            ),
            (lesson(GOOD), Refusal::InSource { name: "CLAUDE.md".into() }, "nothing to record"),
            (
                lesson("CREATE TABLE users (id serial primary key)"),
                Refusal::InSource { name: "database/001.sql".into() },
                "read anyway",
            ),
        ] {
            let got = admit(l.clone(), &sources);
            assert_eq!(got.as_ref().err(), Some(&want), "{}", l.content);
            assert!(want.to_string().contains(says), "{want}");
        }
        for (l, field) in [(bad_pattern, "file_pattern"), (bad_confidence, "confidence")] {
            let e = admit(l, &[]).unwrap_err();
            assert!(matches!(e, Refusal::Invalid(_)) && e.to_string().contains(field), "{e}");
        }
        // The opposite of what CLAUDE.md says is not in it.
        admit(lesson("Never run a migration inside a transaction: CREATE INDEX CONCURRENTLY fails there."), &sources)
            .unwrap();
    }

    // `kb record` refused "Use TEXT for SQLite IDs" (four content words,
    // with evidence): a short, concrete lesson is a lesson; a short vague
    // one and a platitude still are not.
    #[test]
    fn a_short_concrete_lesson_with_evidence_was_refused() {
        for good in [
            "Use TEXT for SQLite IDs",
            "Set TZ=UTC in CI",
            "Handle NULL in LEFT JOINs",
            "Quote `user` in Postgres",
            "Retry S3 uploads 3 times",
            "Pin Node 20 in Docker images",
        ] {
            let got = admit(lesson(good), &[]);
            assert!(got.is_ok(), "{good}: {got:?}");
        }
        for (bad, want) in [
            ("Don't forget the index.", Refusal::TooShort { words: 3 }),
            ("Check the API docs first", Refusal::TooShort { words: 4 }),
            ("Always use HTTPS", Refusal::TooShort { words: 2 }),
            ("Use SQLite", Refusal::TooShort { words: 2 }),
            ("Be careful with SQLite", Refusal::Platitude { phrase: "be careful".into() }),
            ("Write tests for CI", Refusal::Platitude { phrase: "write tests".into() }),
            ("Keep it simple with JSON and YAML", Refusal::Platitude { phrase: "keep it simple".into() }),
            ("Follow best practices for REST APIs", Refusal::Platitude { phrase: "follow best practices".into() }),
        ] {
            assert_eq!(admit(lesson(bad), &[]).err(), Some(want), "{bad}");
        }
        // Evidence is still required, short or not.
        let mut no_evidence = lesson("Use TEXT for SQLite IDs");
        no_evidence.evidence.clear();
        assert_eq!(admit(no_evidence, &[]).err(), Some(Refusal::NoEvidence));
    }
}
