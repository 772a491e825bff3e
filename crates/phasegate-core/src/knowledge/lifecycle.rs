//! How an item's confidence and counters change (seed 004 §10.2): 0.7 on
//! discovery; 0.85 once seen twice; 0.95 when an injected gotcha prevented
//! the failure it warns of; 0.1 lower each time an injected gotcha did not
//! help (the task still failed the way it warns of), never below 0.0; and
//! retirement when obsolete, with the superseding item or a reason.
//!
//! The step down is 0.1 so that one miss does not silence a lesson and two
//! do: a fresh gotcha at 0.7 drops to 0.6, still returned (the query's
//! threshold is inclusive), and after a second miss to 0.5, below the
//! query's 0.6, where it stays in the files for review but reaches no
//! brief. A gotcha seen twice (0.85) survives two misses and drops out at
//! the third; a confirmed one (0.95) at the fourth. Confidence is kept to
//! hundredths, so that a file says 0.7 after 0.8 − 0.1, not
//! 0.7000000000000001, and a comparison with a threshold is exact. Every
//! change sets `updated_at` (never earlier than it was, so a skewed clock
//! cannot make an item look older) and the counter it concerns; a feedback
//! outcome needs an injection it answers, so the counters always add up.
//! Evidence is capped at 10 entries: the first (the discovery) and the 9
//! most recent, so a lesson seen a hundred times stays a small file.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::item::{Evidence, InvalidId, KnowledgeItem, KnowledgeItemError, validate_id};

/// Seed 004 §10.2: "Records gotcha with confidence 0.7".
pub const DISCOVERY: f64 = 0.7;
/// Seed 004 §10.2: "If seen 2+ times → Boost confidence to 0.85".
pub(crate) const SEEN_TWICE: f64 = 0.85;
/// Seed 004 §10.2: "If injected gotcha prevents failure → Boost confidence
/// to 0.95".
pub(crate) const PREVENTED: f64 = 0.95;
/// Seed 004 §10.2: "If injected gotcha didn't help → Lower confidence", by
/// this much (the module doc says why 0.1).
pub(crate) const NOT_HELPED_STEP: f64 = 0.1;
/// The most evidence entries an item keeps.
pub(crate) const MAX_EVIDENCE: usize = 10;

/// What became of a task a gotcha was injected into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum InjectionOutcome {
    /// The task did not fail the way the gotcha warns of.
    Prevented,
    /// The task still failed that way.
    NotHelped,
}

crate::named!(InjectionOutcome, "injection outcome");

/// Why an item is retired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Retirement {
    /// Another item replaced it.
    SupersededBy(String),
    /// It no longer applies (a library fixed the bug, the code is gone).
    Obsolete(String),
}

/// Why a change cannot be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LifecycleError {
    #[error(
        "`{id}` has no injection left to answer ({injected} injected, {answered} outcomes recorded): record an injection when the item is put in a brief, then one outcome for it"
    )]
    NoOpenInjection { id: String, injected: u32, answered: u64 },
    #[error("`{id}` is already retired ({why}): leave it, or retire the item that replaced it")]
    AlreadyRetired { id: String, why: String },
    #[error("`{0}` cannot supersede itself: name the item that replaced it")]
    SelfSupersede(String),
    #[error("{0}")]
    InvalidId(#[from] InvalidId),
    #[error("{0}")]
    Invalid(#[from] KnowledgeItemError),
}

/// A confidence kept to hundredths, within 0.0 to 1.0.
pub(crate) fn hundredths(x: f64) -> f64 {
    (x.clamp(0.0, 1.0) * 100.0).round() / 100.0
}

fn touch(item: &mut KnowledgeItem, now: DateTime<Utc>) {
    item.updated_at = now.max(item.updated_at);
}

/// The sightings in `new` that `known` does not have yet: one per feature
/// and task (recording the same failure twice is one sighting).
pub(crate) fn new_sightings<'a>(known: &[Evidence], new: &'a [Evidence]) -> Vec<&'a Evidence> {
    let mut out: Vec<&Evidence> = Vec::new();
    for e in new {
        // A sighting is a feature's task; a lesson recorded outside any
        // task (in a feature or not) is told apart by its failure output.
        let outside = e.task == "-";
        let seen = |x: &Evidence| x.feature == e.feature && x.task == e.task && (!outside || x.excerpt == e.excerpt);
        if !known.iter().any(seen) && !out.iter().any(|x| seen(x)) {
            out.push(e);
        }
    }
    out
}

/// Appends evidence, keeping the first entry and the most recent ones.
pub(crate) fn append_evidence(list: &mut Vec<Evidence>, new: &[&Evidence]) {
    list.extend(new.iter().map(|e| (*e).clone()));
    if list.len() > MAX_EVIDENCE {
        list.drain(1..list.len() - (MAX_EVIDENCE - 1));
    }
}

/// The lesson was learned again (seed §10.2 "validation"): one occurrence
/// per new sighting, the evidence appended, and 0.85 once seen twice. None
/// when every sighting is known already: nothing changes.
pub fn seen_again(item: &KnowledgeItem, evidence: &[Evidence], now: DateTime<Utc>) -> Option<KnowledgeItem> {
    let new = new_sightings(&item.evidence, evidence);
    if new.is_empty() {
        return None;
    }
    let mut after = item.clone();
    let added = u32::try_from(new.len()).unwrap_or(u32::MAX);
    after.occurrences = after.occurrences.saturating_add(added);
    append_evidence(&mut after.evidence, &new);
    after.fit();
    if after.occurrences >= 2 {
        after.confidence = hundredths(after.confidence.max(SEEN_TWICE));
    }
    touch(&mut after, now);
    Some(after)
}

/// The item was put in a brief.
pub fn injected(item: &KnowledgeItem, now: DateTime<Utc>) -> KnowledgeItem {
    let mut after = item.clone();
    after.injected = after.injected.saturating_add(1);
    touch(&mut after, now);
    after
}

/// What an injection achieved (seed §10.2 "reinforcement").
pub fn outcome(
    item: &KnowledgeItem,
    outcome: InjectionOutcome,
    now: DateTime<Utc>,
) -> Result<KnowledgeItem, LifecycleError> {
    let answered = u64::from(item.prevented) + u64::from(item.not_helped);
    if answered >= u64::from(item.injected) {
        return Err(LifecycleError::NoOpenInjection { id: item.id.clone(), injected: item.injected, answered });
    }
    let mut after = item.clone();
    match outcome {
        InjectionOutcome::Prevented => {
            after.prevented += 1;
            after.confidence = hundredths(after.confidence.max(PREVENTED));
        }
        InjectionOutcome::NotHelped => {
            after.not_helped += 1;
            after.confidence = hundredths(after.confidence - NOT_HELPED_STEP);
        }
    }
    touch(&mut after, now);
    Ok(after)
}

/// Retires an item (seed §10.2 "deprecation"): it stays in its file and
/// leaves every query.
pub fn retire(
    item: &KnowledgeItem,
    retirement: Retirement,
    now: DateTime<Utc>,
) -> Result<KnowledgeItem, LifecycleError> {
    if item.is_superseded() {
        let why = match (&item.superseded_by, &item.superseded_reason) {
            (Some(by), _) => format!("superseded by `{by}`"),
            (None, Some(reason)) => format!("obsolete: {reason}"),
            (None, None) => String::new(),
        };
        return Err(LifecycleError::AlreadyRetired { id: item.id.clone(), why });
    }
    let mut after = item.clone();
    match retirement {
        Retirement::SupersededBy(by) => {
            validate_id(&by)?;
            if by == item.id {
                return Err(LifecycleError::SelfSupersede(by));
            }
            after.superseded_by = Some(by);
        }
        Retirement::Obsolete(reason) => after.superseded_reason = Some(reason.trim().to_owned()),
    }
    touch(&mut after, now);
    after.validate()?;
    Ok(after)
}

/// The cycle that superseding `id` by `by` would close, as the chain
/// `[id, by, …, id]`: when `by`'s successors lead back to `id`. Every item
/// of a cycle is retired, so its lesson would leave every query.
pub fn supersede_cycle(items: &[KnowledgeItem], id: &str, by: &str) -> Option<Vec<String>> {
    let successors = successors(items);
    let mut chain = vec![id.to_owned(), by.to_owned()];
    let mut at = by;
    while at != id {
        at = successors.get(at)?;
        // A cycle that does not pass through `id` is not this one.
        if chain[1..].iter().any(|c| c == at) {
            return None;
        }
        chain.push(at.to_owned());
    }
    Some(chain)
}

/// Every cycle of successors among `items` (`kb lint`), each once, as the
/// chain from its smallest id back to it.
pub fn supersede_cycles(items: &[KnowledgeItem]) -> Vec<Vec<String>> {
    let successors = successors(items);
    let mut cycles: Vec<Vec<String>> = Vec::new();
    for start in successors.keys() {
        let mut path: Vec<&str> = vec![start];
        let mut at: &str = start;
        while let Some(next) = successors.get(at) {
            if let Some(from) = path.iter().position(|p| p == next) {
                let cycle = &path[from..];
                let low = cycle.iter().enumerate().min_by_key(|(_, id)| **id).map_or(0, |(k, _)| k);
                let mut chain: Vec<String> =
                    cycle[low..].iter().chain(&cycle[..low]).map(|s| (*s).to_owned()).collect();
                chain.push(chain[0].clone());
                if !cycles.contains(&chain) {
                    cycles.push(chain);
                }
                break;
            }
            path.push(next);
            at = next;
        }
    }
    cycles.sort();
    cycles
}

fn successors(items: &[KnowledgeItem]) -> std::collections::BTreeMap<&str, &str> {
    items.iter().filter_map(|i| Some((i.id.as_str(), i.superseded_by.as_deref()?))).collect()
}

#[cfg(test)]
mod tests {
    use super::super::item::tests::at;
    use super::super::query::tests::item;
    use super::super::query::{GOTCHA_MIN_CONFIDENCE, gotchas_for};
    use super::*;

    fn evidence(feature: &str, task: &str, day: u32) -> Evidence {
        Evidence {
            task: task.into(),
            feature: feature.into(),
            commit: None,
            at: at(day),
            excerpt: Some(format!("{task} failed")),
        }
    }

    #[test]
    fn the_seeds_confidences() {
        let found = item(Some("*.sql"), None, DISCOVERY, "lesson");
        assert_eq!(found.confidence, 0.7);
        let twice = seen_again(&found, &[evidence("billing", "T2", 3)], at(3)).unwrap();
        assert_eq!((twice.confidence, twice.occurrences, twice.evidence.len()), (0.85, 2, 2));
        assert_eq!(twice.updated_at, at(3));
        let prevented = outcome(&injected(&twice, at(4)), InjectionOutcome::Prevented, at(5)).unwrap();
        assert_eq!((prevented.confidence, prevented.injected, prevented.prevented), (0.95, 1, 1));
        assert_eq!(prevented.updated_at, at(5));
        // A higher confidence is kept.
        let sure = KnowledgeItem { confidence: 0.99, ..found.clone() };
        let kept = outcome(&injected(&sure, at(2)), InjectionOutcome::Prevented, at(2)).unwrap();
        assert_eq!(kept.confidence, 0.99);
    }

    #[test]
    fn a_gotcha_that_does_not_help_leaves_the_queries_after_two_misses() {
        let mut g = item(Some("*.sql"), None, DISCOVERY, "lesson");
        let mut seen = Vec::new();
        for day in 2..=4 {
            g = outcome(&injected(&g, at(day)), InjectionOutcome::NotHelped, at(day)).unwrap();
            let items = [g.clone()];
            seen.push((g.confidence, gotchas_for(&items, "db/001.sql", None).unwrap().len()));
        }
        assert_eq!(seen, [(0.6, 1), (0.5, 0), (0.4, 0)]);
        // Why hundredths are kept: floating point drifts.
        assert_ne!(0.8 - NOT_HELPED_STEP, 0.7);
        let eight = item(None, None, 0.8, "lesson");
        assert_eq!(outcome(&injected(&eight, at(2)), InjectionOutcome::NotHelped, at(2)).unwrap().confidence, 0.7);
        assert_eq!((g.injected, g.not_helped), (3, 3));
        // From 0.85 three misses, from 0.95 four.
        for (start, misses) in [(SEEN_TWICE, 3), (PREVENTED, 4)] {
            let mut g = item(None, None, start, "lesson");
            let mut n = 0;
            while g.confidence >= GOTCHA_MIN_CONFIDENCE {
                g = outcome(&injected(&g, at(2)), InjectionOutcome::NotHelped, at(2)).unwrap();
                n += 1;
            }
            assert_eq!(n, misses, "from {start}");
        }
        // Never below 0.
        let low = item(None, None, 0.05, "lesson");
        assert_eq!(outcome(&injected(&low, at(2)), InjectionOutcome::NotHelped, at(2)).unwrap().confidence, 0.0);
    }

    #[test]
    fn every_outcome_answers_an_injection() {
        let g = item(None, None, 0.7, "lesson");
        let e = outcome(&g, InjectionOutcome::Prevented, at(2)).unwrap_err();
        assert_eq!(e, LifecycleError::NoOpenInjection { id: g.id.clone(), injected: 0, answered: 0 });
        assert!(e.to_string().contains("record an injection"), "{e}");
        let once = outcome(&injected(&g, at(2)), InjectionOutcome::NotHelped, at(2)).unwrap();
        assert!(outcome(&once, InjectionOutcome::Prevented, at(2)).is_err());
    }

    #[test]
    fn the_same_sighting_is_counted_once_and_evidence_is_capped() {
        let g = item(None, None, 0.7, "lesson");
        let known = g.evidence[0].clone();
        assert_eq!(seen_again(&g, std::slice::from_ref(&known), at(2)), None, "the same failure recorded twice");
        let twice = [evidence("billing", "T2", 2), evidence("billing", "T2", 3)];
        assert_eq!(seen_again(&g, &twice, at(3)).unwrap().occurrences, 2);
        let mut many = g.clone();
        for day in 2..=20 {
            many = seen_again(&many, &[evidence("billing", &format!("T{day}"), day)], at(day)).unwrap();
        }
        assert_eq!((many.occurrences, many.evidence.len()), (20, MAX_EVIDENCE));
        assert_eq!(many.evidence[0], known, "the discovery is kept");
        assert_eq!(many.evidence[1].task, "T12");
        assert_eq!(many.evidence[9].task, "T20");
    }

    #[test]
    fn retirement() {
        let g = item(None, None, 0.7, "lesson");
        let by = retire(&g, Retirement::SupersededBy("gotcha-better-1".into()), at(2)).unwrap();
        assert_eq!((by.superseded_by.as_deref(), by.updated_at), (Some("gotcha-better-1"), at(2)));
        assert!(gotchas_for(std::slice::from_ref(&by), "x.rs", None).unwrap().is_empty());
        let gone = retire(&g, Retirement::Obsolete(" sqlx 0.8 fixed it ".into()), at(2)).unwrap();
        assert_eq!(gone.superseded_reason.as_deref(), Some("sqlx 0.8 fixed it"));
        assert!(gone.is_superseded());
        for (r, want) in [
            (Retirement::SupersededBy(g.id.clone()), "cannot supersede itself"),
            (Retirement::SupersededBy("../x".into()), "invalid knowledge item id"),
            (Retirement::Obsolete("  ".into()), "superseded_reason"),
        ] {
            let e = retire(&g, r, at(2)).unwrap_err().to_string();
            assert!(e.contains(want), "{e}");
        }
        let e = retire(&by, Retirement::Obsolete("x".into()), at(3)).unwrap_err().to_string();
        assert!(e.contains("already retired (superseded by `gotcha-better-1`)"), "{e}");
        // updated_at never goes back.
        assert_eq!(injected(&by, at(1)).updated_at, at(2));
    }

    #[test]
    fn outcome_names() {
        crate::names::assert_serde_names::<InjectionOutcome>();
    }

    // `kb supersede A --by B` then `kb supersede B --by A` were both
    // accepted, and the lesson left every query.
    #[test]
    fn superseding_in_a_circle_lost_the_lesson() {
        let named = |id: &str, by: Option<&str>| {
            let mut i = item(Some("*.sql"), None, DISCOVERY, id);
            i.id = id.into();
            i.superseded_by = by.map(str::to_owned);
            i
        };
        let items = [named("a", Some("b")), named("b", None), named("c", Some("a")), named("d", None)];
        assert_eq!(supersede_cycle(&items, "b", "a"), Some(vec!["b".into(), "a".into(), "b".into()]));
        assert_eq!(supersede_cycle(&items, "b", "c"), Some(vec!["b".into(), "c".into(), "a".into(), "b".into()]));
        assert_eq!(supersede_cycle(&items, "d", "c"), None, "a chain to a live item");
        assert_eq!(supersede_cycle(&items, "b", "missing"), None);
        assert!(supersede_cycles(&items).is_empty());
        let on_disk = [named("x", Some("y")), named("y", Some("z")), named("z", Some("x")), named("w", Some("x"))];
        assert_eq!(supersede_cycles(&on_disk), vec![vec!["x", "y", "z", "x"]]);
        // A cycle elsewhere does not make every supersede a cycle.
        assert_eq!(supersede_cycle(&on_disk, "v", "w"), None);
    }

    // The same lesson from another failure outside a task, while a feature
    // was active, was not a new sighting (the feature's name hid that no
    // task was given).
    #[test]
    fn another_failure_outside_a_task_was_not_a_new_sighting() {
        let mut known = evidence("001-auth", "-", 1);
        known.excerpt = Some("ERROR: relation users exists".into());
        let mut other = known.clone();
        other.excerpt = Some("ERROR: relation posts exists".into());
        assert_eq!(new_sightings(std::slice::from_ref(&known), std::slice::from_ref(&other)).len(), 1);
        assert!(
            new_sightings(std::slice::from_ref(&known), std::slice::from_ref(&known)).is_empty(),
            "the same failure"
        );
        let mut nowhere = other.clone();
        nowhere.feature = "-".into();
        assert_eq!(new_sightings(std::slice::from_ref(&known), &[nowhere]).len(), 1);
        // In a task, the task is the sighting whatever its output.
        let (a, b) = (evidence("001-auth", "T1", 1), evidence("001-auth", "T1", 2));
        assert!(new_sightings(&[a], &[b]).is_empty());
    }
}
