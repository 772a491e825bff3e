//! How the knowledge base reads the words of a lesson, shared by
//! similarity (record), admission and CLAUDE.md promotion, so that "the
//! same lesson" means one thing everywhere.
//!
//! A text becomes lowercase tokens (apostrophes dropped, so "don't" is
//! `dont`; every other character that is not a letter or a digit splits),
//! stopwords removed, and each word cut by a light stemmer (plural `s`,
//! `es`, `ies`; `-ing`; `-ed`; then a final silent `e`, so `use`, `uses`,
//! `used` and `using` are one stem). Negations and numbers are kept apart:
//! they decide whether two lessons that share their words say the same
//! thing. The stemmer is deliberately light: it maps the common forms of
//! one word together and never merges two different words, and where it
//! misses (`run`/`running`), two items are kept instead of one, which the
//! next reinforcement or a human merges; a wrong merge would lose a lesson.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

/// Words that carry no lesson: articles, pronouns, auxiliaries and
/// intensifiers ("always", "must", "make sure").
const STOPWORDS: &[&str] = &[
    "a", "an", "the", "and", "or", "but", "to", "of", "in", "on", "at", "by", "for", "from", "with", "into", "onto",
    "is", "are", "was", "were", "be", "been", "being", "am", "it", "its", "this", "that", "these", "those", "as", "if",
    "then", "than", "so", "do", "does", "did", "always", "must", "should", "shall", "you", "your", "we", "our", "us",
    "they", "their", "them", "i", "me", "my", "will", "would", "can", "could", "may", "might", "also", "just", "very",
    "make", "sure", "please", "there", "here", "which", "who", "what", "has", "have", "had", "any", "all", "each",
];

/// Words that turn a lesson around: "Use X" and "Never use X" share every
/// other word.
const NEGATIONS: &[&str] = &[
    "not",
    "no",
    "never",
    "dont",
    "doesnt",
    "didnt",
    "cant",
    "cannot",
    "wont",
    "shouldnt",
    "mustnt",
    "isnt",
    "arent",
    "wasnt",
    "werent",
    "avoid",
    "without",
    "nor",
    "neither",
    "none",
    "nothing",
    "forbid",
    "forbidden",
    "prohibited",
];

/// Pairs of words that make two lessons with the same other words say
/// opposite things ("run it before the deploy" / "after the deploy").
const OPPOSITES: &[(&str, &str)] = &[
    ("before", "after"),
    ("enable", "disable"),
    ("true", "false"),
    ("allow", "deny"),
    ("include", "exclude"),
    ("add", "remove"),
    ("sync", "async"),
    ("first", "last"),
    ("min", "max"),
    ("open", "close"),
    ("lock", "unlock"),
    ("encrypt", "decrypt"),
];

static NUMBER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[0-9][0-9,]*(?:\.[0-9]+)?").expect("compiles"));

/// The words of a text as the knowledge base compares them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Words {
    /// Stems of the content words (no stopwords, negations or numbers).
    pub stems: BTreeSet<String>,
    /// Whether a negation occurs.
    pub negated: bool,
    /// The numbers, normalised (`1,000` = `1000`, `007` = `7`, `1.50` = `1.5`).
    pub numbers: BTreeSet<String>,
    /// Every non-stopword token stemmed, in order, negations and numbers
    /// included: what "contained in" compares.
    pub sequence: Vec<String>,
    /// How many tokens are words (have a letter) and not stopwords.
    pub content_words: usize,
}

/// Lowercase tokens; apostrophes inside words dropped.
pub(crate) fn tokens(text: &str) -> Vec<String> {
    let lower: String = text.chars().filter(|c| *c != '\'' && *c != '\u{2019}').flat_map(char::to_lowercase).collect();
    lower.split(|c: char| !c.is_alphanumeric()).filter(|t| !t.is_empty()).map(str::to_owned).collect()
}

pub(crate) fn is_stopword(token: &str) -> bool {
    STOPWORDS.contains(&token)
}

/// The light stemmer described in the module doc.
pub(crate) fn stem(word: &str) -> String {
    let len = |s: &str| s.chars().count();
    let mut w = word.to_owned();
    if len(&w) <= 2 {
        return w;
    }
    if let Some(s) = w.strip_suffix("ies").filter(|s| len(s) >= 2) {
        w = format!("{s}y");
    } else if ["sses", "xes", "zes", "ches", "shes"].iter().any(|x| w.ends_with(x)) {
        w.truncate(w.len() - 2);
    } else if w.ends_with('s') && !["ss", "us", "is"].iter().any(|x| w.ends_with(x)) {
        w.pop();
    }
    if let Some(s) = w.strip_suffix("ing").filter(|s| len(s) >= 2) {
        w = s.to_owned();
    } else if let Some(s) = w.strip_suffix("ed").filter(|s| len(s) >= 2) {
        w = s.to_owned();
    }
    if w.ends_with('e') && len(&w) > 2 {
        w.pop();
    }
    w
}

fn number(raw: &str) -> String {
    let plain: String = raw.chars().filter(|c| *c != ',').collect();
    let (int, frac) = plain.split_once('.').unwrap_or((&plain, ""));
    let int = int.trim_start_matches('0');
    let int = if int.is_empty() { "0" } else { int };
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() { int.to_owned() } else { format!("{int}.{frac}") }
}

/// Reads a text's words.
pub(crate) fn read(text: &str) -> Words {
    let mut words = Words {
        stems: BTreeSet::new(),
        negated: false,
        numbers: NUMBER.find_iter(text).map(|m| number(m.as_str().trim_end_matches(','))).collect(),
        sequence: Vec::new(),
        content_words: 0,
    };
    for token in tokens(text) {
        if is_stopword(&token) {
            continue;
        }
        let has_letter = token.chars().any(char::is_alphabetic);
        if has_letter {
            words.content_words += 1;
        }
        let stemmed = stem(&token);
        words.sequence.push(stemmed.clone());
        if NEGATIONS.contains(&token.as_str()) {
            words.negated = true;
        } else if token.chars().next().is_some_and(char::is_alphabetic) {
            words.stems.insert(stemmed);
        }
    }
    words
}

/// Jaccard similarity of two stem sets (0 when both are empty: nothing to
/// compare is not a match).
pub(crate) fn jaccard(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    let union = a.union(b).count();
    if union == 0 {
        return 0.0;
    }
    a.intersection(b).count() as f64 / union as f64
}

/// Whether one text says one side of an opposite pair and the other the
/// other side.
pub(crate) fn opposed(a: &BTreeSet<String>, b: &BTreeSet<String>) -> bool {
    OPPOSITES.iter().any(|(x, y)| {
        let (x, y) = (stem(x), stem(y));
        let one = |s: &BTreeSet<String>, w: &str, not: &str| s.contains(w) && !s.contains(not);
        (one(a, &x, &y) && one(b, &y, &x)) || (one(a, &y, &x) && one(b, &x, &y))
    })
}

/// Whether `needle`'s word sequence occurs, in order and contiguous, in
/// `haystack`'s (an empty needle is never contained).
pub(crate) fn contains_sequence(haystack: &[String], needle: &[String]) -> bool {
    !needle.is_empty() && haystack.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stemmer_maps_common_forms_together() {
        for group in [
            &["use", "uses", "used", "using"][..],
            &["migration", "migrations"],
            &["file", "files"],
            &["query", "queries"],
            &["cache", "caches", "caching", "cached"],
            &["class", "classes"],
            &["index", "indexes"],
            &["test", "tests", "tested", "testing"],
            &["enable", "enabled", "enables", "enabling"],
            &["process", "processes"],
        ] {
            let stems: BTreeSet<String> = group.iter().map(|w| stem(w)).collect();
            assert_eq!(stems.len(), 1, "{group:?} -> {stems:?}");
        }
        // Different words stay different.
        for (a, b) in [("status", "state"), ("route", "router"), ("test", "text"), ("add", "ad")] {
            assert_ne!(stem(a), stem(b), "{a} {b}");
        }
    }

    #[test]
    fn negations_numbers_and_sequences() {
        let w = read("Don't set the pool size above 1,000 connections; 0030 seconds, 1.50 ratio.");
        assert!(w.negated);
        assert_eq!(w.numbers.iter().map(String::as_str).collect::<Vec<_>>(), ["1.5", "1000", "30"]);
        assert!(!w.stems.contains("dont"), "negations are not content stems");
        assert!(w.sequence.starts_with(&["dont".to_owned(), "set".to_owned(), "pool".to_owned()]));
        assert!(!read("Use the pool").negated);
        assert!(read("use the pool without a transaction").negated);
        assert_eq!(read("30s").numbers, read("wait 30 seconds").numbers);
    }

    #[test]
    fn opposite_words() {
        let a = read("run the migration before the deploy").stems;
        let b = read("run the migration after the deploy").stems;
        assert!(opposed(&a, &b));
        assert!(!opposed(&a, &a));
        let both = read("before and after the deploy").stems;
        assert!(!opposed(&a, &both));
    }
}
