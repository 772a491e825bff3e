//! The review-cycle engine: the one rule behind every loop in phasegate that
//! reviews a subject until it is approved or a cap is reached — a phase's
//! reviewer loop, each round of a pipeline review gate, the pipeline's
//! implementation loop, and each task of an orchestrated implement.
//!
//! The binary counts, never the model. An attempt is recorded, the count
//! grows, and the decision follows from the count, the cap and whether the
//! attempt was approved. At the cap only an end is possible, so every loop
//! converges; a counter never wraps.

use serde::{Deserialize, Serialize};

/// What the loop does after an attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Decision {
    /// Not approved, attempts left: revise and review again.
    Revise,
    /// Approved: the cycle is over.
    Approved,
    /// Not approved and the cap is reached: the cycle is over with the
    /// reviewer's concerns open.
    CapReached,
}

crate::named!(Decision, "decision");

/// The loop rule: approval ends the cycle; otherwise the cap does.
pub fn decide(attempt: u32, max: u32, approved: bool) -> Decision {
    match (approved, attempt >= max) {
        (true, _) => Decision::Approved,
        (false, false) => Decision::Revise,
        (false, true) => Decision::CapReached,
    }
}

/// A cycle's count against its cap. Owners keep the count in their own
/// files (a phase's `iterations`, a gate's `loops`, the loop's `iteration`)
/// and run every attempt through here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cycle {
    /// Attempts recorded so far.
    pub attempts: u32,
    /// The cap (at least 1).
    pub max: u32,
}

impl Cycle {
    pub fn new(attempts: u32, max: u32) -> Self {
        Cycle { attempts, max: max.max(1) }
    }

    /// Records one attempt and decides.
    pub fn record(&mut self, approved: bool) -> Decision {
        self.attempts = self.attempts.saturating_add(1);
        decide(self.attempts, self.max, approved)
    }

    /// The number the next attempt will get.
    pub(crate) fn next_attempt(&self) -> u32 {
        self.attempts.saturating_add(1)
    }

    /// No attempt is left: the next unapproved one ends the cycle.
    pub(crate) fn is_exhausted(&self) -> bool {
        self.attempts >= self.max
    }
}

/// The concerns of this attempt that the previous attempt of the same cycle
/// raised too (compared without case, punctuation or spacing): the same
/// critique again, which the loop reports so that it is fixed at its root
/// or answered, not re-litigated.
pub(crate) fn recurring(previous: &[String], current: &[String]) -> Vec<String> {
    let key = |s: &str| -> String {
        s.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect::<String>()
    };
    let before: Vec<String> = previous.iter().map(|p| key(p)).collect();
    current.iter().filter(|c| before.contains(&key(c))).cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cycle_converges() {
        assert_eq!(decide(1, 3, true), Decision::Approved);
        assert_eq!(decide(1, 3, false), Decision::Revise);
        assert_eq!(decide(2, 3, false), Decision::Revise);
        assert_eq!(decide(3, 3, false), Decision::CapReached);
        assert_eq!(decide(3, 3, true), Decision::Approved);
        assert_eq!(decide(1, 1, false), Decision::CapReached);
        // Past the cap only an end is possible.
        assert_eq!(decide(9, 3, false), Decision::CapReached);
    }

    #[test]
    fn counters_never_wrap() {
        // A hand-edited count at u32::MAX must still end the loop, not wrap to 0.
        let mut c = Cycle::new(u32::MAX, 3);
        assert_eq!(c.record(false), Decision::CapReached);
        assert_eq!(c.attempts, u32::MAX);
        assert_eq!(Cycle::new(0, 0).max, 1);
    }

    #[test]
    fn the_same_critique_is_recognised() {
        let before = vec!["[blocker] No acceptance criteria for R2 (Scope)".to_owned()];
        let now = vec!["[blocker] no acceptance criteria for R2. (scope)".to_owned(), "[warning] vague".to_owned()];
        assert_eq!(recurring(&before, &now), vec![now[0].clone()]);
        assert!(recurring(&[], &now).is_empty());
    }

    #[test]
    fn decision_names() {
        crate::names::assert_serde_names::<Decision>();
    }
}
