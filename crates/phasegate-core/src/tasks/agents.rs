//! Sub-agents as the orchestrator chooses among them (seed 003's dynamic
//! reviewer selection): an agent file's frontmatter, the review priorities a
//! change calls for, and the seed's REVIEW REQUEST prompt. Pure.

use serde::Serialize;

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

/// Seed 003's review priorities, in its order.
pub const PRIORITIES: [(&str, &[&str]); 5] = [
    ("security", &["auth", "login", "password", "token", "jwt", "crypt", "secret", "permission", "session", "oauth"]),
    ("data integrity", &["database", "migration", "schema", "sql", "query", "transaction", "db/", "models"]),
    ("architecture", &["mod.rs", "lib.rs", "interface", "trait ", "abstract", "pattern", "architecture"]),
    ("performance", &["cache", "performance", "optimiz", "optimis", "latency", "index", "pool", "batch"]),
    ("integration", &["api", "endpoint", "route", "contract", "client", "openapi", "graphql", "webhook"]),
];

/// The priorities a change calls for (seed: `identifyReviewPriorities`),
/// from its paths and its patch, each with the words that raised it.
pub fn priorities(change: &CodeChange) -> Vec<(&'static str, Vec<&'static str>)> {
    let paths: String = change.files.iter().map(|f| f.path.to_lowercase()).collect::<Vec<_>>().join("\n");
    let patch = change.patch.to_lowercase();
    let mut out = Vec::new();
    for (priority, words) in PRIORITIES {
        let hits: Vec<&str> = words.iter().copied().filter(|w| paths.contains(w) || patch.contains(w)).collect();
        if !hits.is_empty() {
            out.push((priority, hits));
        }
    }
    out
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
pub fn review_request(i: &RequestInput<'_>) -> String {
    let mut out = format!(
        "REVIEW REQUEST [Cycle: {}/{}]\nOriginal Task: {}\nImplemented by: {}\nChanges Made:\n{}\nFocus Areas: {}\n",
        i.cycle,
        i.max_cycles,
        i.task,
        i.implementer,
        i.changes.trim_end(),
        if i.focus.is_empty() { "correctness, tests".to_owned() } else { i.focus.join(", ") }
    );
    if !i.previous.is_empty() {
        out.push_str("Previous Issues:\n");
        for p in i.previous {
            out.push_str(&format!("- {}\n", p.replace('\n', " ")));
        }
    }
    out.push_str(&format!(
        "Please review for: {}\n\n{}\n",
        if i.focus.is_empty() { "correctness".to_owned() } else { i.focus.join(", ") },
        i.reply_format
    ));
    out
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
        });
        assert!(r.starts_with("REVIEW REQUEST [Cycle: 2/3]\nOriginal Task: T2: Add the API\nImplemented by: the-developer\nChanges Made:\nsrc/api.rs (+10 -0)\nFocus Areas: security\nPrevious Issues:\n- Add rate limiting\nPlease review for: security\n"), "{r}");
    }
}
