//! The reviewer loop's decision after one iteration (seed 002, step 5).

use serde::Serialize;

use crate::meta::PhaseRecord;
use crate::phase::Phase;
use crate::verdict::ReviewVerdict;

/// What the phase command does next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decision {
    /// Not approved, iterations left: revise the artifact and review again.
    Revise,
    /// Approved: the phase is complete.
    Approved,
    /// Not approved and the mode's cap is reached: the phase is complete with
    /// the reviewer's concerns recorded.
    CapReached,
}

/// The loop rule: approval ends the loop; otherwise the cap does.
pub fn decide(iteration: u32, max_iterations: u32, approved: bool) -> Decision {
    match (approved, iteration >= max_iterations) {
        (true, _) => Decision::Approved,
        (false, false) => Decision::Revise,
        (false, true) => Decision::CapReached,
    }
}

/// The result of recording one iteration, as printed by `review record`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    pub phase: Phase,
    pub iteration: u32,
    pub max_iterations: u32,
    pub decision: Decision,
    /// What to do now, in one or two sentences for the model and the user.
    pub message: String,
    /// Open blocker and warning issues of this verdict.
    pub open_issues: Vec<String>,
}

impl Step {
    pub(crate) fn new(
        phase: Phase,
        iteration: u32,
        max_iterations: u32,
        decision: Decision,
        verdict: &ReviewVerdict,
        record: &PhaseRecord,
    ) -> Self {
        let open_issues = verdict.open_concerns();
        let message = match decision {
            Decision::Revise => format!(
                "Not approved (iteration {iteration} of {max_iterations}). Revise to resolve the {} open issue(s), then review again.",
                open_issues.len()
            ),
            Decision::Approved => format!(
                "Phase {phase} complete ({iteration} iteration{}).{}",
                if iteration == 1 { "" } else { "s" },
                next_hint(phase)
            ),
            Decision::CapReached => format!(
                "Phase {phase} complete after {iteration} iteration{} (the mode's cap) with reviewer concerns recorded in reviewerNotes: {}.{}",
                if iteration == 1 { "" } else { "s" },
                if record.reviewer_notes.is_empty() { "none".to_owned() } else { record.reviewer_notes.join("; ") },
                next_hint(phase)
            ),
        };
        Step { phase, iteration, max_iterations, decision, message, open_issues }
    }
}

fn next_hint(phase: Phase) -> String {
    phase.next().map(|n| format!(" Next: {}", n.command())).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loop_converges() {
        assert_eq!(decide(1, 3, true), Decision::Approved);
        assert_eq!(decide(1, 3, false), Decision::Revise);
        assert_eq!(decide(2, 3, false), Decision::Revise);
        assert_eq!(decide(3, 3, false), Decision::CapReached);
        assert_eq!(decide(3, 3, true), Decision::Approved);
        assert_eq!(decide(1, 1, false), Decision::CapReached);
        // Past the cap can only end the loop.
        assert_eq!(decide(9, 3, false), Decision::CapReached);
    }
}
