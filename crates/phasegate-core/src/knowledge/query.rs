//! The two queries of seed 004 §10.1, exactly: the gotchas for a file and
//! an action (`get_gotchas_for_task`) and the patterns for topics
//! (`get_patterns_for_domain`), over all items. The index answers the same
//! gotcha query from a few shards, and phasegate asks the index: the
//! queries over all items here are the reference a test proves the index
//! equal to (built for tests only).
//!
//! Gotchas: not superseded; the item's file pattern matches the path or is
//! unset (the seed compares with the path's one pattern; here every
//! pattern that matches counts, `*.ts` and `src/*` alike, see `pattern`);
//! the item's action equals the given one or is unset (no action given
//! matches only items without one, as the seed's `action_type = NULL` is
//! never true; callers that know the tool map it to an action); confidence
//! ≥ 0.6; items whose pattern is the path's own pattern first (the seed's
//! `CASE WHEN file_pattern = ? THEN 1 ELSE 2 END`), then by confidence
//! descending, ties broken by more occurrences and then by id, so the order
//! is total and the same on every machine; at most 5. An item retired
//! without a successor (`superseded_reason` only) counts as superseded.
//!
//! Patterns: patterns and decisions (a decision answers the same question,
//! "how do we do this here?", so it comes with them), not superseded, topic
//! among the given ones, confidence ≥ 0.7, by confidence descending with
//! the same tie-breaks; no limit, as in the seed.

use std::cmp::Ordering;

use super::item::{KnowledgeItem, KnowledgeType};
#[cfg(test)]
use super::pattern::{PathError, matches_normal, normalise, pattern_of};

/// Seed 004 §10.1: gotchas are returned from `confidence >= 0.6`.
pub const GOTCHA_MIN_CONFIDENCE: f64 = 0.6;
/// Seed 004 §10.1: patterns are returned from `confidence >= 0.7`.
pub const PATTERN_MIN_CONFIDENCE: f64 = 0.7;
/// Seed 004 §10.1: "Return top 5" (`LIMIT 5`).
pub const MAX_GOTCHAS: usize = 5;

/// What the order reads of an item or an index entry.
pub(crate) struct Rank<'a> {
    /// The item's pattern is the path's own pattern.
    pub own: bool,
    pub confidence: f64,
    pub occurrences: u32,
    pub id: &'a str,
}

/// An item's rank; `own` is the path's own pattern, if any.
pub(crate) fn rank<'a>(i: &'a KnowledgeItem, own: Option<&str>) -> Rank<'a> {
    Rank {
        own: own.is_some() && i.file_pattern.as_deref() == own,
        confidence: i.confidence,
        occurrences: i.occurrences,
        id: &i.id,
    }
}

/// Own pattern first, then confidence descending, more occurrences, id.
pub(crate) fn order(a: &Rank<'_>, b: &Rank<'_>) -> Ordering {
    b.own
        .cmp(&a.own)
        .then(b.confidence.total_cmp(&a.confidence))
        .then(b.occurrences.cmp(&a.occurrences))
        .then(a.id.cmp(b.id))
}

/// Whether an item's action passes the seed's `(action_type = ? OR
/// action_type IS NULL)`.
pub(crate) fn action_passes(item_action: Option<&str>, action: Option<&str>) -> bool {
    item_action.is_none() || item_action == action
}

/// Whether an item of this type comes with patterns by topic.
pub(crate) fn by_topic(t: KnowledgeType) -> bool {
    match t {
        KnowledgeType::Gotcha => false,
        KnowledgeType::Pattern | KnowledgeType::Decision => true,
    }
}

/// Seed 004 §10.1 `get_gotchas_for_task` over all items.
#[cfg(test)]
pub fn gotchas_for<'a>(
    items: &'a [KnowledgeItem],
    path: &str,
    action: Option<&str>,
) -> Result<Vec<&'a KnowledgeItem>, PathError> {
    let n = normalise(path)?;
    let own = pattern_of(&n);
    let mut found: Vec<&KnowledgeItem> = items
        .iter()
        .filter(|i| {
            i.item_type == KnowledgeType::Gotcha
                && !i.is_superseded()
                && i.file_pattern.as_deref().is_none_or(|p| matches_normal(p, &n))
                && action_passes(i.action.as_deref(), action)
                && i.confidence >= GOTCHA_MIN_CONFIDENCE
        })
        .collect();
    found.sort_by(|a, b| order(&rank(a, Some(&own)), &rank(b, Some(&own))));
    found.truncate(MAX_GOTCHAS);
    Ok(found)
}

/// Seed 004 §10.1 `get_patterns_for_domain`: patterns and decisions for
/// these topics.
#[cfg(test)]
pub fn patterns_for<'a>(items: &'a [KnowledgeItem], topics: &[&str]) -> Vec<&'a KnowledgeItem> {
    let mut found: Vec<&KnowledgeItem> = items
        .iter()
        .filter(|i| {
            by_topic(i.item_type)
                && !i.is_superseded()
                && i.topic.as_deref().is_some_and(|t| topics.contains(&t))
                && i.confidence >= PATTERN_MIN_CONFIDENCE
        })
        .collect();
    found.sort_by(|a, b| order(&rank(a, None), &rank(b, None)));
    found
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::item::tests::at;
    use super::super::item::{Evidence, new_id};
    use super::*;

    /// An item for tests: a gotcha unless the caller changes it.
    pub(crate) fn item(pattern: Option<&str>, action: Option<&str>, confidence: f64, content: &str) -> KnowledgeItem {
        KnowledgeItem {
            id: new_id(KnowledgeType::Gotcha, pattern, action, content),
            item_type: KnowledgeType::Gotcha,
            file_pattern: pattern.map(str::to_owned),
            action: action.map(str::to_owned),
            topic: None,
            confidence,
            occurrences: 1,
            discovered_by: "build-agent".into(),
            superseded_by: None,
            superseded_reason: None,
            created_at: at(1),
            updated_at: at(1),
            injected: 0,
            prevented: 0,
            not_helped: 0,
            evidence: vec![Evidence {
                task: "T1".into(),
                feature: "user-auth".into(),
                commit: Some("3f2a9c1".into()),
                at: at(1),
                excerpt: Some("error: relation \"users\" already exists".into()),
            }],
            content: content.into(),
        }
    }

    fn ids(found: &[&KnowledgeItem]) -> Vec<String> {
        found.iter().map(|i| i.content.clone()).collect()
    }

    #[test]
    fn gotchas_as_the_seed_queries_them() {
        let mut items = vec![
            item(Some("*.sql"), None, 0.7, "sql any action 0.7"),
            item(Some("*.sql"), Some("CREATE"), 0.9, "sql create 0.9"),
            item(Some("*.sql"), Some("UPDATE"), 0.95, "sql update 0.95"),
            item(Some("database/migrations/*"), None, 0.99, "folder 0.99"),
            item(Some("database/migrations/001.sql"), Some("CREATE"), 0.8, "exact file 0.8"),
            item(None, None, 0.97, "any file 0.97"),
            item(None, Some("CREATE"), 0.6, "any file create 0.6 (the threshold is inclusive)"),
            item(None, Some("CREATE"), 0.59, "below the threshold"),
            item(Some("*.ts"), None, 1.0, "another kind"),
            item(Some("database/*"), None, 1.0, "a parent folder does not match"),
            item(Some("*.sql"), None, 1.0, "superseded"),
            item(Some("*.sql"), None, 1.0, "obsolete"),
        ];
        items[10].superseded_by = Some("gotcha-x".into());
        items[11].superseded_reason = Some("the driver fixed it".into());
        let mut p = item(Some("*.sql"), None, 1.0, "a pattern, not a gotcha");
        p.item_type = KnowledgeType::Pattern;
        items.push(p);

        let found = gotchas_for(&items, "database/migrations/001.sql", Some("CREATE")).unwrap();
        // The path's own pattern (*.sql) first, by confidence; then the rest by confidence; at most 5.
        assert_eq!(
            ids(&found),
            ["sql create 0.9", "sql any action 0.7", "folder 0.99", "any file 0.97", "exact file 0.8"],
        );
        let all = {
            let mut i = items.clone();
            i.truncate(7);
            i
        };
        let found = gotchas_for(&all, "./database\\migrations/001.sql", Some("CREATE")).unwrap();
        assert_eq!(found.len(), MAX_GOTCHAS, "six match; the seed returns five");
        assert_eq!(
            ids(&gotchas_for(&all, "database/migrations/001.sql", Some("DELETE")).unwrap()),
            ["sql any action 0.7", "folder 0.99", "any file 0.97"],
        );
        // No action given: only items without one (SQL's `= NULL` is never true).
        assert_eq!(
            ids(&gotchas_for(&all, "database/migrations/001.sql", None).unwrap()),
            ["sql any action 0.7", "folder 0.99", "any file 0.97"],
        );
        assert_eq!(
            ids(&gotchas_for(&all, "src/app.ts", Some("CREATE")).unwrap()),
            ["any file 0.97", "any file create 0.6 (the threshold is inclusive)"],
        );
        assert_eq!(gotchas_for(&all, "../x.sql", None), Err(PathError::Parent("../x.sql".into())));
    }

    #[test]
    fn the_order_is_total() {
        let mut a = item(Some("*.sql"), None, 0.8, "a");
        let mut b = item(Some("*.sql"), None, 0.8, "b");
        let c = item(Some("*.sql"), None, 0.8, "c");
        a.occurrences = 2;
        b.id = "gotcha-a".into();
        let items = vec![c.clone(), b.clone(), a.clone()];
        let found = gotchas_for(&items, "x.sql", None).unwrap();
        assert_eq!(found.iter().map(|i| i.id.as_str()).collect::<Vec<_>>(), [a.id.as_str(), "gotcha-a", &c.id]);
    }

    #[test]
    fn patterns_by_topic_as_the_seed_queries_them() {
        let with = |t: KnowledgeType, topic: &str, confidence: f64, content: &str| {
            let mut i = item(None, None, confidence, content);
            i.item_type = t;
            i.topic = Some(topic.into());
            i
        };
        let mut items = vec![
            with(KnowledgeType::Pattern, "auth", 0.7, "auth pattern 0.7"),
            with(KnowledgeType::Pattern, "auth", 0.69, "below 0.7"),
            with(KnowledgeType::Decision, "auth", 0.9, "auth decision 0.9"),
            with(KnowledgeType::Pattern, "db", 0.8, "db pattern 0.8"),
            with(KnowledgeType::Pattern, "ui", 1.0, "another topic"),
            with(KnowledgeType::Gotcha, "auth", 1.0, "a gotcha"),
            with(KnowledgeType::Pattern, "auth", 1.0, "superseded"),
        ];
        items[6].superseded_by = Some("pattern-x".into());
        assert_eq!(
            ids(&patterns_for(&items, &["auth", "db"])),
            ["auth decision 0.9", "db pattern 0.8", "auth pattern 0.7"],
        );
        assert!(patterns_for(&items, &[]).is_empty());
    }
}
