//! The retrospective's rules (seed 004 §6.3, the Self-Improvement Agent):
//! how a divergence from the spec is classified, whether a failure becomes
//! a gotcha, and the metrics kept per feature and as a trend across
//! features. The agent finds the facts (what diverged, whether it helped,
//! whether a failure is reproducible); these functions decide, exactly as
//! the seed, so a model cannot bend the rule.
//!
//! A failure is never recorded as a gotcha for a NETWORK, TIMEOUT or
//! RESOURCE failure (one-off environment trouble); otherwise it is when the
//! task self-corrected (it failed and then passed: a candidate by itself,
//! see [`is_gotcha_candidate`]) or a similar failure was seen before, and
//! else only if it is reproducible. The seed checks self-correction and
//! the earlier sighting before the environment; phasegate checks the
//! environment first, as the issue that specifies the retrospective says
//! "never": a network failure that passed on retry teaches nothing about
//! the code, and a gotcha saying so would be injected into every brief. Error
//! types are the names the build's classification uses (SYNTAX_ERROR,
//! MISSING_DEPENDENCY, CONFLICT, VALIDATION_FAILED, NETWORK, TIMEOUT,
//! RESOURCE, OTHER), taken as strings so the knowledge base depends on no
//! pipeline internals. Metrics: `first_pass_success` (tasks completed at
//! the first attempt / all tasks), `gotcha_effectiveness` (tasks given
//! gotchas that completed at the first attempt / tasks given gotchas) and
//! `build_duration_minutes`, a ratio being 0 when its denominator is 0, as
//! in the seed. A trend takes the last N features' values, oldest first,
//! and their change from the first to the last; higher is better for the
//! two ratios, lower for the duration.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// What a divergence from the spec did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum DivergenceKind {
    /// Added something not in the spec.
    Addition,
    /// Skipped something in the spec.
    Omission,
    /// Changed the spec's approach.
    Modification,
}

crate::named!(DivergenceKind, "divergence kind");

/// The seed's classes, with its exact names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray)]
pub enum DivergenceClass {
    #[serde(rename = "GOOD:enhancement")]
    #[strum(serialize = "GOOD:enhancement")]
    GoodEnhancement,
    #[serde(rename = "BAD:scope_creep")]
    #[strum(serialize = "BAD:scope_creep")]
    BadScopeCreep,
    #[serde(rename = "NEUTRAL:intentional_skip")]
    #[strum(serialize = "NEUTRAL:intentional_skip")]
    NeutralIntentionalSkip,
    #[serde(rename = "BAD:missed_requirement")]
    #[strum(serialize = "BAD:missed_requirement")]
    BadMissedRequirement,
    #[serde(rename = "GOOD:optimization")]
    #[strum(serialize = "GOOD:optimization")]
    GoodOptimization,
    #[serde(rename = "BAD:deviation")]
    #[strum(serialize = "BAD:deviation")]
    BadDeviation,
    #[serde(rename = "UNKNOWN")]
    #[strum(serialize = "UNKNOWN")]
    Unknown,
}

crate::named!(DivergenceClass, "divergence class");

/// What the retrospective judged about a divergence; each flag is read
/// only for its kind (beneficial: addition; intentional: omission;
/// improvement: modification).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DivergenceFacts {
    pub beneficial: bool,
    pub intentional: bool,
    pub improvement: bool,
}

/// Seed 004 §6.3 `classify_divergence`; a kind the seed does not know
/// (None) is UNKNOWN.
pub fn classify_divergence(kind: Option<DivergenceKind>, facts: DivergenceFacts) -> DivergenceClass {
    match kind {
        Some(DivergenceKind::Addition) if facts.beneficial => DivergenceClass::GoodEnhancement,
        Some(DivergenceKind::Addition) => DivergenceClass::BadScopeCreep,
        Some(DivergenceKind::Omission) if facts.intentional => DivergenceClass::NeutralIntentionalSkip,
        Some(DivergenceKind::Omission) => DivergenceClass::BadMissedRequirement,
        Some(DivergenceKind::Modification) if facts.improvement => DivergenceClass::GoodOptimization,
        Some(DivergenceKind::Modification) => DivergenceClass::BadDeviation,
        None => DivergenceClass::Unknown,
    }
}

/// Seed 004 §6.3: "No if: One-off environmental issue".
pub const ENVIRONMENTAL: [&str; 3] = ["NETWORK", "TIMEOUT", "RESOURCE"];

/// The facts of a failure the seed's rule reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskFailure<'a> {
    /// The task failed and then passed.
    pub self_corrected: bool,
    /// A similar failure was seen before.
    pub seen_similar: bool,
    /// One of `tasks::ErrorType`'s names.
    pub error_type: &'a str,
    pub reproducible: bool,
}

/// Seed 004 §6.3 `should_record_gotcha`, the environment first (module
/// doc).
pub fn should_record_gotcha(failure: &TaskFailure<'_>) -> bool {
    if ENVIRONMENTAL.contains(&failure.error_type) {
        return false;
    }
    if failure.self_corrected {
        return true;
    }
    if failure.seen_similar {
        return true;
    }
    failure.reproducible
}

/// One task of a build as the retrospective sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskRun {
    pub task: String,
    /// Its status is complete.
    pub completed: bool,
    /// How often it ran.
    pub attempts: u32,
    /// How many gotchas its brief carried.
    pub gotchas: usize,
}

/// A task that failed and then passed (a retry, or a failure recorded
/// before it was done): a candidate gotcha by itself (it self-corrected).
pub fn is_gotcha_candidate(completed: bool, attempts: u32, failures: usize) -> bool {
    completed && (attempts > 1 || failures > 0)
}

/// The seed's three metrics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Metric {
    FirstPassSuccess,
    GotchaEffectiveness,
    BuildDurationMinutes,
    /// What the feature cost, in USD (from its transcripts).
    CostUsd,
}

crate::named!(Metric, "metric");

impl Metric {
    /// Every metric, in the seed's order.
    pub fn all() -> &'static [Metric] {
        <Metric as strum::VariantArray>::VARIANTS
    }

    /// Whether a rise is an improvement.
    pub(crate) fn higher_is_better(self) -> bool {
        match self {
            Metric::FirstPassSuccess | Metric::GotchaEffectiveness => true,
            Metric::BuildDurationMinutes | Metric::CostUsd => false,
        }
    }
}

/// One build's metrics (seed 004 §6.3 `extract_metrics`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    pub first_pass_success: f64,
    pub gotcha_effectiveness: f64,
    pub build_duration_minutes: f64,
    /// What the feature cost (its transcripts priced), when it was counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
}

impl Metrics {
    /// The metric's value; a cost not counted is none.
    pub fn get(&self, metric: Metric) -> Option<f64> {
        match metric {
            Metric::FirstPassSuccess => Some(self.first_pass_success),
            Metric::GotchaEffectiveness => Some(self.gotcha_effectiveness),
            Metric::BuildDurationMinutes => Some(self.build_duration_minutes),
            Metric::CostUsd => self.cost_usd,
        }
    }
}

/// Why metrics cannot be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the build's end ({completed}) is before its start ({started}): pass the times the build started and completed"
)]
pub struct EndsBeforeStart {
    pub started: String,
    pub completed: String,
}

fn ratio(part: usize, whole: usize) -> f64 {
    if whole > 0 { part as f64 / whole as f64 } else { 0.0 }
}

/// Seed 004 §6.3 `extract_metrics`.
pub fn metrics(
    tasks: &[TaskRun],
    started_at: DateTime<Utc>,
    completed_at: DateTime<Utc>,
) -> Result<Metrics, EndsBeforeStart> {
    if completed_at < started_at {
        return Err(EndsBeforeStart {
            started: crate::time::stamp(started_at),
            completed: crate::time::stamp(completed_at),
        });
    }
    let first_pass = |t: &TaskRun| t.completed && t.attempts == 1;
    let with_gotchas: Vec<&TaskRun> = tasks.iter().filter(|t| t.gotchas > 0).collect();
    Ok(Metrics {
        first_pass_success: ratio(tasks.iter().filter(|t| first_pass(t)).count(), tasks.len()),
        gotcha_effectiveness: ratio(with_gotchas.iter().filter(|t| first_pass(t)).count(), with_gotchas.len()),
        build_duration_minutes: (completed_at - started_at).num_milliseconds() as f64 / 60_000.0,
        cost_usd: None,
    })
}

/// A metric across the last features.
#[derive(Debug, Clone, PartialEq)]
pub struct Trend {
    pub metric: Metric,
    /// (feature, value), oldest first.
    pub values: Vec<(String, f64)>,
    /// Last value minus first; None with fewer than two values.
    pub change: Option<f64>,
    /// Whether the change is an improvement; None without a change or when
    /// there is none.
    pub improved: Option<bool>,
}

/// The trend of one metric over the last `last` features of
/// `per_feature` (oldest first).
pub fn trend(per_feature: &[(String, Metrics)], metric: Metric, last: usize) -> Trend {
    let from = per_feature.len().saturating_sub(last);
    let values: Vec<(String, f64)> =
        per_feature[from..].iter().filter_map(|(f, m)| Some((f.clone(), m.get(metric)?))).collect();
    let change = (values.len() >= 2).then(|| values[values.len() - 1].1 - values[0].1);
    let improved = change.filter(|c| *c != 0.0).map(|c| (c > 0.0) == metric.higher_is_better());
    Trend { metric, values, change, improved }
}

#[cfg(test)]
mod tests {
    use super::super::item::tests::at;
    use super::*;

    #[test]
    fn divergences_as_the_seed_classifies_them() {
        use DivergenceClass as C;
        use DivergenceKind as K;
        let yes = DivergenceFacts { beneficial: true, intentional: true, improvement: true };
        let no = DivergenceFacts::default();
        for (kind, facts, want, name) in [
            (Some(K::Addition), yes, C::GoodEnhancement, "GOOD:enhancement"),
            (Some(K::Addition), no, C::BadScopeCreep, "BAD:scope_creep"),
            (Some(K::Omission), yes, C::NeutralIntentionalSkip, "NEUTRAL:intentional_skip"),
            (Some(K::Omission), no, C::BadMissedRequirement, "BAD:missed_requirement"),
            (Some(K::Modification), yes, C::GoodOptimization, "GOOD:optimization"),
            (Some(K::Modification), no, C::BadDeviation, "BAD:deviation"),
            (None, yes, C::Unknown, "UNKNOWN"),
        ] {
            let got = classify_divergence(kind, facts);
            assert_eq!((got, got.name()), (want, name), "{kind:?}");
        }
        // Each flag counts only for its kind.
        let only_beneficial = DivergenceFacts { beneficial: true, ..no };
        assert_eq!(classify_divergence(Some(K::Omission), only_beneficial), C::BadMissedRequirement);
        assert_eq!(classify_divergence(Some(K::Modification), only_beneficial), C::BadDeviation);
        assert_eq!("removal".parse::<K>().ok(), None, "an unknown kind parses to None: UNKNOWN");
    }

    #[test]
    fn when_a_failure_becomes_a_gotcha() {
        let f = |self_corrected, seen_similar, error_type, reproducible| TaskFailure {
            self_corrected,
            seen_similar,
            error_type,
            reproducible,
        };
        for (failure, want) in [
            (f(true, false, "SYNTAX_ERROR", false), true),
            (f(false, true, "VALIDATION_FAILED", false), true),
            // Never for the environment, even self-corrected or seen before.
            (f(true, false, "NETWORK", false), false),
            (f(false, true, "TIMEOUT", false), false),
            (f(false, false, "NETWORK", true), false),
            (f(false, false, "TIMEOUT", true), false),
            (f(false, false, "RESOURCE", true), false),
            (f(false, false, "SYNTAX_ERROR", true), true),
            (f(false, false, "VALIDATION_FAILED", false), false),
            (f(false, false, "OTHER", true), true),
        ] {
            assert_eq!(should_record_gotcha(&failure), want, "{failure:?}");
        }
        // The error types a failed task is classified with (tasks::ErrorType).
        const ERROR_TYPES: [&str; 8] = [
            "SYNTAX_ERROR",
            "MISSING_DEPENDENCY",
            "CONFLICT",
            "VALIDATION_FAILED",
            "NETWORK",
            "TIMEOUT",
            "RESOURCE",
            "OTHER",
        ];
        for e in ENVIRONMENTAL {
            assert!(ERROR_TYPES.contains(&e));
        }
        assert!(is_gotcha_candidate(true, 2, 0), "failed, then passed on retry");
        assert!(!is_gotcha_candidate(true, 1, 0) && is_gotcha_candidate(true, 1, 1));
        assert!(!is_gotcha_candidate(false, 3, 2));
    }

    #[test]
    fn the_seeds_metrics() {
        let run = |completed, attempts, gotchas| TaskRun { task: "T".into(), completed, attempts, gotchas };
        let tasks = [run(true, 1, 2), run(true, 2, 1), run(true, 1, 0), run(false, 3, 1)];
        let started = at(2);
        let m = metrics(&tasks, started, started + chrono::Duration::seconds(90 * 60 + 30)).unwrap();
        assert_eq!(
            m,
            Metrics {
                first_pass_success: 0.5,
                gotcha_effectiveness: 1.0 / 3.0,
                build_duration_minutes: 90.5,
                cost_usd: None
            }
        );
        // 0 when the denominator is 0, as the seed.
        let none = metrics(&[], started, started).unwrap();
        assert_eq!((none.first_pass_success, none.gotcha_effectiveness, none.build_duration_minutes), (0.0, 0.0, 0.0));
        let no_gotchas = metrics(&[run(true, 1, 0)], started, started).unwrap();
        assert_eq!((no_gotchas.first_pass_success, no_gotchas.gotcha_effectiveness), (1.0, 0.0));
        let e = metrics(&tasks, at(3), at(2)).unwrap_err().to_string();
        assert!(e.contains("2026-11-02T10:00:00Z") && e.contains("pass the times"), "{e}");
    }

    #[test]
    fn trends_across_features() {
        let m = |first_pass_success, build_duration_minutes| Metrics {
            first_pass_success,
            gotcha_effectiveness: 0.0,
            build_duration_minutes,
            cost_usd: None,
        };
        let per = vec![
            ("auth".to_owned(), m(0.25, 120.0)),
            ("billing".to_owned(), m(0.5, 90.0)),
            ("search".to_owned(), m(0.75, 100.0)),
        ];
        let t = trend(&per, Metric::FirstPassSuccess, 2);
        assert_eq!(t.values, [("billing".to_owned(), 0.5), ("search".to_owned(), 0.75)]);
        assert_eq!((t.change, t.improved), (Some(0.25), Some(true)));
        let t = trend(&per, Metric::BuildDurationMinutes, 10);
        assert_eq!((t.values.len(), t.change, t.improved), (3, Some(-20.0), Some(true)), "shorter builds");
        let t = trend(&per, Metric::GotchaEffectiveness, 3);
        assert_eq!((t.change, t.improved), (Some(0.0), None));
        let t = trend(&per[..1], Metric::FirstPassSuccess, 5);
        assert_eq!((t.values.len(), t.change, t.improved), (1, None, None));
        assert_eq!(trend(&per, Metric::FirstPassSuccess, 0).values, []);
    }

    #[test]
    fn names() {
        crate::names::assert_serde_names::<DivergenceKind>();
        crate::names::assert_serde_names::<DivergenceClass>();
        crate::names::assert_serde_names::<Metric>();
        assert_eq!(Metric::FirstPassSuccess.name(), "first_pass_success");
        assert_eq!(Metric::BuildDurationMinutes.name(), "build_duration_minutes");
    }
}
