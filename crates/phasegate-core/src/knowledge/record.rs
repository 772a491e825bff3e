//! Recording a lesson (seed 004 §10.1 `record_gotcha`): check for a
//! similar item; a similar one with higher or equal confidence wins and is
//! reinforced instead; a similar one with lower confidence is superseded by
//! the new item; otherwise a new item is created. The result is the exact
//! item values to write, each with the value it replaces, so the store can
//! write them together and atomically, and refuse if a file changed since
//! it was read.
//!
//! **Similar** means all of: the same type; the same file pattern (or both
//! unset) and the same action (or both unset); content words alike, a
//! Jaccard index of at least 0.6 over the stemmed content words (see
//! `words`); the same polarity (both negated or neither: "Use X" and "Never
//! use X" share their words and say opposite things); no opposite pair
//! between them ("before"/"after", "enable"/"disable", ...); and the same
//! numbers ("30s" and "60s" are different lessons). When in doubt the rule
//! says "not similar": a second item costs a line in a brief, a wrong merge
//! loses a lesson. Among several similar items the best is the one with
//! the highest confidence (then more occurrences, then the smaller id);
//! retired items are not compared.
//!
//! **Reinforce**: the existing item gains one occurrence per new sighting
//! (a feature and task not yet in its evidence, or, outside any task, a
//! failure output not yet in it: recording the same failure twice changes
//! nothing and returns [`RecordDecision::Known`]), the evidence is
//! appended, and its confidence becomes the highest of its own, the
//! lesson's and, once seen twice, 0.85 (seed §10.2). **Supersede**: the new
//! item carries the old one's occurrences and evidence over (its sightings
//! are the same mistake), plus its own new sightings, with the 0.85 boost
//! when that makes two or more; its feedback counters start at 0, as they
//! judged the old wording; the old item gets `superseded_by`. A new id that
//! an unrelated (or retired) item already has is salted and hashed again,
//! so no file is ever overwritten by a different lesson.

use chrono::{DateTime, Utc};

use super::admission::{Admitted, Lesson};
use super::item::{KnowledgeItem, KnowledgeItemError, new_id};
use super::lifecycle::{SEEN_TWICE, append_evidence, hundredths, new_sightings, seen_again};
use super::query::{order, rank};
use super::words::{self, jaccard, opposed};
use crate::hash::fnv1a32;

/// The least Jaccard index of two similar lessons' content words.
pub(crate) const SIMILARITY: f64 = 0.6;

/// What recording a lesson decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordDecision {
    /// No similar item: a new one.
    Create { new: String },
    /// A similar item with higher or equal confidence, seen again.
    Reinforce { existing: String },
    /// A similar item with lower confidence, replaced by a new one.
    Supersede { existing: String, new: String },
    /// A similar item already has these sightings: nothing to write.
    Known { existing: String },
}

/// One file to write: the value it replaces (None: a new file) and the
/// value to write.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemChange {
    pub before: Option<KnowledgeItem>,
    pub after: KnowledgeItem,
}

/// A decision and its changes, in the order to write them: a new item
/// before the item it supersedes, so that a crash between two writes leaves
/// a duplicate, never a lesson retired in favour of a missing one.
#[derive(Debug, Clone, PartialEq)]
pub struct Recording {
    pub decision: RecordDecision,
    pub changes: Vec<ItemChange>,
}

/// Whether a lesson and an item say the same thing (the module doc).
pub fn similar(lesson: &Lesson, item: &KnowledgeItem) -> bool {
    if lesson.item_type != item.item_type || lesson.file_pattern != item.file_pattern || lesson.action != item.action {
        return false;
    }
    similar_content(&lesson.content, &item.content)
}

fn similar_content(a: &str, b: &str) -> bool {
    let (a, b) = (words::read(a), words::read(b));
    jaccard(&a.stems, &b.stems) >= SIMILARITY
        && a.negated == b.negated
        && !opposed(&a.stems, &b.stems)
        && a.numbers == b.numbers
}

/// The seed's recording logic for an admitted lesson against every item
/// (retired ones included, for their ids).
pub fn record(items: &[KnowledgeItem], lesson: Admitted, now: DateTime<Utc>) -> Result<Recording, KnowledgeItemError> {
    let lesson = lesson.lesson();
    let best = items
        .iter()
        .filter(|i| !i.is_superseded() && similar(lesson, i))
        .min_by(|a, b| order(&rank(a, None), &rank(b, None)));
    let base = new_id(lesson.item_type, lesson.file_pattern.as_deref(), lesson.action.as_deref(), &lesson.content);

    let Some(old) = best else {
        let new = create(lesson, free_id(items, &base), now);
        new.validate()?;
        let decision = RecordDecision::Create { new: new.id.clone() };
        return Ok(Recording { decision, changes: vec![ItemChange { before: None, after: new }] });
    };
    if old.confidence >= hundredths(lesson.confidence) || old.id == base {
        let Some(mut after) = seen_again(old, &lesson.evidence, now) else {
            return Ok(Recording { decision: RecordDecision::Known { existing: old.id.clone() }, changes: Vec::new() });
        };
        after.confidence = hundredths(after.confidence.max(lesson.confidence));
        after.validate()?;
        let decision = RecordDecision::Reinforce { existing: old.id.clone() };
        return Ok(Recording { decision, changes: vec![ItemChange { before: Some(old.clone()), after }] });
    }
    let mut new = create(lesson, free_id(items, &base), now);
    let sightings = new_sightings(&old.evidence, &lesson.evidence);
    new.evidence = old.evidence.clone();
    append_evidence(&mut new.evidence, &sightings);
    new.fit();
    new.occurrences = old.occurrences.saturating_add(u32::try_from(sightings.len()).unwrap_or(u32::MAX));
    new.confidence = hundredths(lesson.confidence);
    boost(&mut new);
    new.topic = new.topic.or_else(|| old.topic.clone());
    let mut after = old.clone();
    after.superseded_by = Some(new.id.clone());
    after.updated_at = now.max(after.updated_at);
    new.validate()?;
    after.validate()?;
    Ok(Recording {
        decision: RecordDecision::Supersede { existing: old.id.clone(), new: new.id.clone() },
        changes: vec![ItemChange { before: None, after: new }, ItemChange { before: Some(old.clone()), after }],
    })
}

fn create(lesson: &Lesson, id: String, now: DateTime<Utc>) -> KnowledgeItem {
    let mut evidence = Vec::new();
    append_evidence(&mut evidence, &lesson.evidence.iter().collect::<Vec<_>>());
    let sightings = new_sightings(&[], &lesson.evidence).len();
    let mut item = KnowledgeItem {
        id,
        item_type: lesson.item_type,
        file_pattern: lesson.file_pattern.clone(),
        action: lesson.action.clone(),
        topic: lesson.topic.clone(),
        confidence: hundredths(lesson.confidence),
        occurrences: u32::try_from(sightings).unwrap_or(u32::MAX).max(1),
        discovered_by: lesson.discovered_by.clone(),
        superseded_by: None,
        superseded_reason: None,
        created_at: now,
        updated_at: now,
        injected: 0,
        prevented: 0,
        not_helped: 0,
        evidence,
        content: lesson.content.trim().to_owned(),
    };
    boost(&mut item);
    item.fit();
    item
}

/// Seed §10.2: "If seen 2+ times → Boost confidence to 0.85".
fn boost(item: &mut KnowledgeItem) {
    if item.occurrences >= 2 {
        item.confidence = hundredths(item.confidence.max(SEEN_TWICE));
    }
}

/// `base`, or when an item has it, `base` with its hash replaced by the
/// hash of `base` and a counter, the first that is free.
fn free_id(items: &[KnowledgeItem], base: &str) -> String {
    let taken = |id: &str| items.iter().any(|i| i.id == id);
    let stem = &base[..base.len() - 8];
    let mut id = base.to_owned();
    let mut n = 1u32;
    while taken(&id) {
        n += 1;
        id = format!("{stem}{:08x}", fnv1a32(format!("{base}#{n}").as_bytes()));
    }
    id
}

#[cfg(test)]
mod tests {
    use super::super::admission::tests::{GOOD, lesson};
    use super::super::admission::{Lesson, admit};
    use super::super::item::tests::at;
    use super::super::item::{Evidence, KnowledgeType};
    use super::*;

    fn admitted(l: Lesson) -> Admitted {
        admit(l, &[]).unwrap()
    }

    fn sighting(l: &mut Lesson, feature: &str, task: &str) {
        l.evidence[0].feature = feature.into();
        l.evidence[0].task = task.into();
    }

    #[test]
    fn near_duplicates_are_similar() {
        let base = lesson(GOOD);
        for other in [
            "Run each migration inside a transaction: a failed ALTER leaves the schema half-applied.",
            "Always run migrations inside transactions; a failing ALTER leaves the schema half applied",
            "RUN EVERY MIGRATION INSIDE A TRANSACTION - a failed alter leaves the schema half applied!",
            "Run every migration inside a transaction, because a failed ALTER leaves the schema half applied.",
        ] {
            let item = create(&lesson(other), "gotcha-x-1".into(), at(1));
            assert!(similar(&base, &item), "{other}");
        }
    }

    #[test]
    fn false_friends_are_not_similar() {
        let base = lesson("Use the connection pool for queries in route handlers, it keeps connections bounded.");
        let other = |content: &str| create(&lesson(content), "gotcha-x-1".into(), at(1));
        for (content, why) in [
            ("Never use the connection pool for queries in route handlers, it keeps connections bounded.", "negated"),
            ("Avoid the connection pool for queries in route handlers, it keeps connections bounded.", "negated"),
            ("Use the connection pool for queries in route handlers without keeping connections bounded.", "negated"),
            ("Use the connection pool for migrations in deploy scripts, it runs them one at a time.", "other words"),
        ] {
            assert!(!similar(&base, &other(content)), "{why}: {content}");
        }
        let t30 = lesson("Set the statement timeout to 30s on the reporting queries or the dashboard hangs.");
        let t60 = create(
            &lesson("Set the statement timeout to 60s on the reporting queries or the dashboard hangs."),
            "gotcha-x-1".into(),
            at(1),
        );
        assert!(!similar(&t30, &t60), "different numbers");
        let before = lesson("Run the seed script before the migration, or the foreign keys fail on empty tables.");
        let after = create(
            &lesson("Run the seed script after the migration, or the foreign keys fail on empty tables."),
            "gotcha-x-1".into(),
            at(1),
        );
        assert!(!similar(&before, &after), "opposite words");
        // Same words, other files, action or type.
        let same = create(&base, "gotcha-x-1".into(), at(1));
        assert!(similar(&base, &same));
        for change in [
            |i: &mut KnowledgeItem| i.file_pattern = Some("server/routes/*".into()),
            |i: &mut KnowledgeItem| i.file_pattern = None,
            |i: &mut KnowledgeItem| i.action = Some("UPDATE".into()),
            |i: &mut KnowledgeItem| i.action = None,
            |i: &mut KnowledgeItem| i.item_type = KnowledgeType::Pattern,
        ] {
            let mut i = same.clone();
            change(&mut i);
            assert!(!similar(&base, &i), "{i:?}");
        }
    }

    /// The new values a recording writes, by decision.
    fn created(r: &Recording) -> &KnowledgeItem {
        assert!(matches!(r.decision, RecordDecision::Create { .. }), "{r:?}");
        &r.changes[0].after
    }

    fn reinforced(r: &Recording) -> (&KnowledgeItem, &KnowledgeItem) {
        assert!(matches!(r.decision, RecordDecision::Reinforce { .. }), "{r:?}");
        (r.changes[0].before.as_ref().unwrap(), &r.changes[0].after)
    }

    /// (old before, old after, new)
    fn superseded(r: &Recording) -> (&KnowledgeItem, &KnowledgeItem, &KnowledgeItem) {
        assert!(matches!(r.decision, RecordDecision::Supersede { .. }), "{r:?}");
        (r.changes[1].before.as_ref().unwrap(), &r.changes[1].after, &r.changes[0].after)
    }

    #[test]
    fn nothing_similar_creates_an_item() {
        let r = record(&[], admitted(lesson(GOOD)), at(2)).unwrap();
        let new = created(&r);
        assert_eq!((new.confidence, new.occurrences, new.created_at, new.updated_at), (0.7, 1, at(2), at(2)));
        assert_eq!(new.id, new_id(KnowledgeType::Gotcha, Some("*.sql"), Some("CREATE"), GOOD));
        assert_eq!(KnowledgeItem::parse(&new.render()).unwrap(), *new, "what is written reads back");
        assert_eq!(r.decision, RecordDecision::Create { new: new.id.clone() });
        assert_eq!(r.changes, [ItemChange { before: None, after: new.clone() }]);
    }

    #[test]
    fn a_similar_item_with_higher_or_equal_confidence_is_reinforced() {
        let first = created(&record(&[], admitted(lesson(GOOD)), at(2)).unwrap()).clone();
        let mut again =
            lesson("Run each migration inside a transaction: a failed ALTER leaves the schema half-applied.");
        sighting(&mut again, "billing", "T7");
        let r = record(std::slice::from_ref(&first), admitted(again.clone()), at(3)).unwrap();
        let (before, after) = reinforced(&r);
        assert_eq!(before, &first);
        assert_eq!(r.decision, RecordDecision::Reinforce { existing: first.id.clone() });
        assert_eq!((after.occurrences, after.confidence, after.evidence.len()), (2, 0.85, 2), "seen twice: 0.85");
        assert_eq!((after.content.as_str(), after.updated_at), (GOOD, at(3)), "the existing wording stays");
        assert_eq!(r.changes.len(), 1);
        // The same sighting recorded again changes nothing.
        let r = record(std::slice::from_ref(after), admitted(again), at(4)).unwrap();
        assert_eq!(r, Recording { decision: RecordDecision::Known { existing: first.id.clone() }, changes: vec![] });
        // Equal confidence: the existing item wins.
        let mut equal = lesson(GOOD);
        sighting(&mut equal, "search", "T1");
        let mut high = first.clone();
        high.confidence = 0.9;
        equal.confidence = 0.9;
        let r = record(&[high], admitted(equal), at(4)).unwrap();
        let (_, after) = reinforced(&r);
        assert_eq!((after.confidence, after.occurrences), (0.9, 2));
    }

    #[test]
    fn a_similar_item_with_lower_confidence_is_superseded() {
        let mut old = create(&lesson(GOOD), "gotcha-old-1".into(), at(1));
        old.confidence = 0.6;
        old.topic = Some("database".into());
        old.injected = 3;
        old.not_helped = 1;
        let mut better = lesson(
            "Run every migration inside a transaction; a failed ALTER leaves the schema half applied and breaks the next run.",
        );
        better.confidence = 0.8;
        sighting(&mut better, "billing", "T9");
        let r = record(std::slice::from_ref(&old), admitted(better.clone()), at(5)).unwrap();
        let (before, after, new) = superseded(&r);
        assert_eq!(r.decision, RecordDecision::Supersede { existing: old.id.clone(), new: new.id.clone() });
        assert_eq!(before, &old);
        assert_eq!(r.changes[0].before, None, "the new item is written first");
        assert_eq!((after.superseded_by.as_deref(), after.updated_at), (Some(new.id.as_str()), at(5)));
        assert_eq!(new.content, better.content);
        assert_eq!((new.occurrences, new.evidence.len(), new.confidence), (2, 2, 0.85), "old sightings carried over");
        assert_eq!(new.evidence[0], old.evidence[0]);
        assert_eq!((new.injected, new.not_helped), (0, 0), "feedback judged the old wording");
        assert_eq!(new.topic.as_deref(), Some("database"));
        // A better wording of the same sighting: superseded, not counted twice.
        let mut reworded = better.clone();
        reworded.evidence = old.evidence.clone();
        let r2 = record(std::slice::from_ref(&old), admitted(reworded), at(5)).unwrap();
        let (_, _, new2) = superseded(&r2);
        assert_eq!((new2.occurrences, new2.confidence), (1, 0.8));
        // The superseded item is never compared again: the new one is.
        let items = [after.clone(), new.clone()];
        let mut third = lesson(GOOD);
        sighting(&mut third, "search", "T2");
        let r3 = record(&items, admitted(third), at(6)).unwrap();
        assert_eq!(reinforced(&r3).0.id, new.id);
    }

    #[test]
    fn the_same_lesson_with_more_confidence_raises_its_own_item() {
        // Its id is the existing item's: it cannot supersede itself.
        let first = created(&record(&[], admitted(lesson(GOOD)), at(2)).unwrap()).clone();
        let mut sure = lesson(GOOD);
        sure.confidence = 0.9;
        sighting(&mut sure, "billing", "T2");
        let r = record(std::slice::from_ref(&first), admitted(sure), at(3)).unwrap();
        let (_, after) = reinforced(&r);
        assert_eq!((after.id.as_str(), after.confidence, after.occurrences), (first.id.as_str(), 0.9, 2));
    }

    #[test]
    fn a_taken_id_is_never_overwritten() {
        let first = created(&record(&[], admitted(lesson(GOOD)), at(2)).unwrap()).clone();
        let mut retired = first.clone();
        retired.superseded_reason = Some("the ORM wraps migrations now".into());
        let new = created(&record(std::slice::from_ref(&retired), admitted(lesson(GOOD)), at(3)).unwrap()).clone();
        assert_ne!(new.id, retired.id);
        assert_eq!(new.id[..new.id.len() - 8], retired.id[..retired.id.len() - 8]);
        crate::knowledge::validate_id(&new.id).unwrap();
        let mut two = vec![retired, new.clone()];
        two[1].superseded_reason = Some("again".into());
        let third = created(&record(&two, admitted(lesson(GOOD)), at(4)).unwrap()).clone();
        assert!(two.iter().all(|i| i.id != third.id));
    }

    #[test]
    fn a_lesson_seen_in_two_tasks_is_seen_twice() {
        let mut l = lesson(GOOD);
        l.evidence.push(Evidence {
            task: "T4".into(),
            feature: "user-auth".into(),
            commit: Some("abcdef0".into()),
            at: at(3),
            excerpt: None,
        });
        let r = record(&[], admitted(l.clone()), at(3)).unwrap();
        let new = created(&r);
        assert_eq!(new.evidence, l.evidence);
        assert_eq!((new.occurrences, new.confidence), (2, 0.85), "two sightings: seen twice");
    }
}
