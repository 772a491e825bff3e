//! Sub-agents as the orchestrator chooses among them (seed 003's dynamic
//! reviewer selection): an agent file's frontmatter, the review priorities a
//! change calls for, and the seed's REVIEW REQUEST prompt. Pure.

use serde::Serialize;

use crate::brief::{Brief, SectionKind};
use crate::change::CodeChange;

/// An agent file's frontmatter: what a choice needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Frontmatter {
    pub name: String,
    pub description: String,
    pub model: Option<String>,
}

/// Reads `name`, `description` and `model` from a Markdown file's YAML
/// frontmatter (plain, quoted, or a folded `>`/`|` block). None when the
/// file has no frontmatter or no name.
pub fn frontmatter(text: &str) -> Option<Frontmatter> {
    let body = text.strip_prefix("---\n").or_else(|| text.strip_prefix("---\r\n"))?;
    let end = body.find("\n---")?;
    let lines: Vec<&str> = body[..end].lines().collect();
    let get = |key: &str| -> Option<String> {
        let i = lines.iter().position(|l| l.strip_prefix(key).is_some_and(|r| r.starts_with(':')))?;
        let value = lines[i][key.len() + 1..].trim();
        if value == ">" || value == "|" || value == ">-" || value == "|-" {
            let block: Vec<&str> =
                lines[i + 1..].iter().take_while(|l| l.starts_with(' ') || l.is_empty()).map(|l| l.trim()).collect();
            return Some(block.join(if value.starts_with('>') { " " } else { "\n" }).trim().to_owned());
        }
        let unquoted = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .or_else(|| value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
            .unwrap_or(value);
        Some(unquoted.to_owned())
    };
    let name = get("name").filter(|n| !n.is_empty())?;
    Some(Frontmatter { name, description: get("description").unwrap_or_default(), model: get("model") })
}

/// One review priority of seed 003 and the words that call for it. A word
/// ending in `*` is a stem (`optimi*` matches optimize and optimisation);
/// others match whole words only. `path_words` also count when they name a
/// folder or file of the change (`src/auth/`, `migrations/`).
#[derive(Debug, Clone, Copy)]
pub struct Priority {
    pub name: &'static str,
    pub words: &'static [&'static str],
    pub path_words: &'static [&'static str],
}

/// Seed 003's review priorities, in its order.
pub(crate) const PRIORITIES: [Priority; 5] = [
    Priority {
        name: "security",
        words: &[
            "auth*",
            "login",
            "password*",
            "token*",
            "jwt",
            "crypt*",
            "encrypt*",
            "secret*",
            "permission*",
            "session*",
            "oauth*",
        ],
        path_words: &["auth*", "login", "security", "crypto"],
    },
    Priority {
        name: "data integrity",
        words: &["database*", "migration*", "schema*", "sql", "query", "queries", "transaction*"],
        path_words: &["db", "database*", "migration*", "models", "schema*"],
    },
    Priority {
        name: "architecture",
        words: &["interface*", "trait", "abstract*", "architecture*"],
        path_words: &["mod.rs", "lib.rs"],
    },
    Priority {
        name: "performance",
        words: &["cache", "caching", "cached", "performance", "optimi*", "latency", "pool*", "batch*"],
        path_words: &[],
    },
    Priority {
        name: "integration",
        words: &["api", "apis", "endpoint*", "route*", "contract*", "openapi", "graphql", "webhook*"],
        path_words: &["api", "routes", "endpoints", "webhooks"],
    },
];

/// Paths that are built or fetched, not written: their changes say nothing
/// about what to review.
fn generated(path: &str) -> bool {
    let lower = path.to_lowercase();
    let parts: Vec<&str> = lower.split('/').collect();
    parts.iter().any(|p| {
        matches!(*p, "node_modules" | "target" | "dist" | "build" | "vendor" | ".git" | "coverage")
            || p.starts_with("__pycache__")
            || p.ends_with(".egg-info")
    }) || lower.ends_with(".lock")
        || lower.ends_with(".min.js")
        || lower.ends_with(".map")
        || lower.ends_with(".pyc")
        || lower.ends_with("package-lock.json")
}

fn word_hits(
    priority: &Priority,
    words: &std::collections::BTreeSet<String>,
    paths: &std::collections::BTreeSet<String>,
) -> Vec<&'static str> {
    let matches = |pattern: &str, set: &std::collections::BTreeSet<String>| match pattern.strip_suffix('*') {
        Some(stem) => set.range(stem.to_owned()..).take_while(|w| w.starts_with(stem)).next().is_some(),
        None => set.contains(pattern),
    };
    let mut hits: Vec<&'static str> = priority.words.iter().copied().filter(|w| matches(w, words)).collect();
    for w in priority.path_words {
        if matches(w, paths) && !hits.contains(w) {
            hits.push(w);
        }
    }
    hits
}

/// The priorities a change calls for (seed: `identifyReviewPriorities`),
/// each with the words that raised it. Read from the change's content: the
/// lines the patch adds or removes (not git's `diff`/`index`/`@@` headers),
/// and the folder and file names of files that are written, not generated
/// (`__pycache__/`, `node_modules/`, lock files are left out).
pub fn priorities(change: &CodeChange) -> Vec<(&'static str, Vec<&'static str>)> {
    let split = |text: &str, set: &mut std::collections::BTreeSet<String>| {
        for w in text.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty()) {
            set.insert(w.to_lowercase());
            // snake_case and camelCase parts count as words too.
            for part in w.split('_').filter(|p| !p.is_empty() && p.len() < w.len()) {
                set.insert(part.to_lowercase());
            }
            let mut start = 0;
            let chars: Vec<(usize, char)> = w.char_indices().collect();
            for pair in chars.windows(2) {
                if pair[0].1.is_lowercase() && pair[1].1.is_uppercase() {
                    set.insert(w[start..pair[1].0].to_lowercase());
                    start = pair[1].0;
                }
            }
            if start > 0 {
                set.insert(w[start..].to_lowercase());
            }
        }
    };
    let mut words = std::collections::BTreeSet::new();
    let mut in_generated = false;
    for line in change.patch.lines() {
        if let Some(rest) = line.strip_prefix("diff --git ") {
            in_generated =
                rest.split_whitespace().any(|p| generated(p.trim_start_matches("a/").trim_start_matches("b/")));
            continue;
        }
        if in_generated || line.starts_with("+++") || line.starts_with("---") {
            continue;
        }
        if let Some(body) = line.strip_prefix('+').or_else(|| line.strip_prefix('-')) {
            split(body, &mut words);
        }
    }
    let mut paths = std::collections::BTreeSet::new();
    for f in change.files.iter().filter(|f| !generated(&f.path)) {
        for part in f.path.split('/') {
            paths.insert(part.to_lowercase());
            if let Some((stem, _)) = part.rsplit_once('.') {
                paths.insert(stem.to_lowercase());
            }
        }
    }
    PRIORITIES
        .iter()
        .filter_map(|p| {
            let hits = word_hits(p, &words, &paths);
            (!hits.is_empty()).then_some((p.name, hits))
        })
        .collect()
}

/// What a REVIEW REQUEST is made of.
#[derive(Debug, Clone)]
pub struct RequestInput<'a> {
    pub cycle: u32,
    pub max_cycles: u32,
    pub task: &'a str,
    pub implementer: &'a str,
    /// The change section (files and patch excerpt).
    pub changes: &'a str,
    pub focus: &'a [String],
    /// Earlier cycles' feedback, when an issue recurs or a revision follows.
    pub previous: &'a [String],
    /// What to answer with.
    pub reply_format: &'a str,
}

/// Seed 003's reviewer prompt.
pub fn review_request(i: &RequestInput<'_>) -> Brief {
    let mut brief = Brief::of(crate::brief::BriefKind::TaskReview);
    brief.push(
        "request",
        SectionKind::Task,
        format!(
            "REVIEW REQUEST [Cycle: {}/{}]\nOriginal Task: {}\nImplemented by: {}\nChanges Made:\n{}\nFocus Areas: {}\n",
            i.cycle,
            i.max_cycles,
            i.task,
            i.implementer,
            i.changes.trim_end(),
            if i.focus.is_empty() { "correctness, tests".to_owned() } else { i.focus.join(", ") }
        ),
    );
    if !i.previous.is_empty() {
        let mut out = String::from("Previous Issues:\n");
        for p in i.previous {
            out.push_str(&format!("- {}\n", p.replace('\n', " ")));
        }
        brief.push("previous-issues", SectionKind::Task, out);
    }
    // The gotchas the implementer was given, before what to answer.
    brief.slot_here();
    brief.push(
        "reply",
        SectionKind::Task,
        format!(
            "Please review for: {}\n\n{}\n",
            if i.focus.is_empty() { "correctness".to_owned() } else { i.focus.join(", ") },
            i.reply_format
        ),
    );
    brief
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::{FileChange, FileStatus};

    #[test]
    fn frontmatter_reads_plain_quoted_and_folded_values() {
        let f =
            frontmatter("---\nname: sec\ndescription: \"Security: auth and secrets\"\nmodel: opus\n---\nBody").unwrap();
        assert_eq!(
            (f.name.as_str(), f.description.as_str(), f.model.as_deref()),
            ("sec", "Security: auth and secrets", Some("opus"))
        );
        let f = frontmatter("---\nname: db\ndescription: >\n  Reviews migrations\n  and queries.\n---\n").unwrap();
        assert_eq!(f.description, "Reviews migrations and queries.");
        assert!(frontmatter("no frontmatter").is_none());
        assert!(frontmatter("---\ndescription: x\n---\n").is_none(), "a name is required");
    }

    #[test]
    fn priorities_follow_the_seeds_categories() {
        let change = CodeChange {
            base: "b".into(),
            files: vec![FileChange {
                path: "src/auth/login.rs".into(),
                status: FileStatus::Added,
                insertions: 3,
                deletions: 0,
            }],
            patch: "+ let q = sql(\"SELECT\");\n".into(),
        };
        let p: Vec<&str> = priorities(&change).into_iter().map(|(p, _)| p).collect();
        assert_eq!(p, ["security", "data integrity"]);
    }

    /// Regression: every change was flagged for a performance review, from
    /// git's `index <sha>..<sha>` header and from `__pycache__/` paths.
    #[test]
    fn every_change_is_flagged_for_a_performance_review() {
        let change = |path: &str, patch: &str| CodeChange {
            base: "b".into(),
            files: vec![FileChange { path: path.into(), status: FileStatus::Modified, insertions: 1, deletions: 1 }],
            patch: patch.into(),
        };
        let header = "diff --git a/src/greet.py b/src/greet.py\nindex 3b18e51..a9c7f2d 100644\n--- a/src/greet.py\n+++ b/src/greet.py\n@@ -1,2 +1,2 @@\n-print('hi')\n+print('hello')\n";
        assert!(
            priorities(&change("src/greet.py", header)).is_empty(),
            "{:?}",
            priorities(&change("src/greet.py", header))
        );
        let pyc = "diff --git a/src/__pycache__/greet.cpython-311.pyc b/src/__pycache__/greet.cpython-311.pyc\nBinary files differ\n";
        assert!(priorities(&change("src/__pycache__/greet.cpython-311.pyc", pyc)).is_empty());
        // The content still counts: a cache added by the change.
        let cached = "diff --git a/src/a.py b/src/a.py\n--- a/src/a.py\n+++ b/src/a.py\n+from functools import lru_cache\n+@lru_cache\n";
        let p = priorities(&change("src/a.py", cached));
        assert_eq!(p, vec![("performance", vec!["cache"])]);
        // Words are whole words or declared stems: "prototype" is no "type",
        // "capital" is no "api", "reindexing" is no "index".
        let words = "diff --git a/x b/x\n+let prototype = capital + reindexing;\n";
        assert!(priorities(&change("x", words)).is_empty(), "{:?}", priorities(&change("x", words)));
    }

    #[test]
    fn the_review_request_has_the_seeds_shape() {
        let r = review_request(&RequestInput {
            cycle: 2,
            max_cycles: 3,
            task: "T2: Add the API",
            implementer: "the-developer",
            changes: "src/api.rs (+10 -0)",
            focus: &["security".into()],
            previous: &["Add rate limiting".into()],
            reply_format: "Answer APPROVED or NEEDS REVISION on the first line.",
        })
        .pack()
        .text;
        assert!(r.starts_with("REVIEW REQUEST [Cycle: 2/3]\nOriginal Task: T2: Add the API\nImplemented by: the-developer\nChanges Made:\nsrc/api.rs (+10 -0)\nFocus Areas: security\nPrevious Issues:\n- Add rate limiting\nPlease review for: security\n"), "{r}");
    }
}
