//! The pipeline's state machine (seed 001, "State Machine"): the states and
//! the transitions the binary allows between them.

use serde::{Deserialize, Serialize};

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum State {
    Idle,
    RequirementsGathering,
    PlanDrafting,
    PlanRefining,
    PlanReviewing,
    Implementing,
    ImplementingLoop,
    Complete,
    Error,
    NeedsUserInput,
}

impl State {
    pub const ALL: [State; 10] = [
        State::Idle,
        State::RequirementsGathering,
        State::PlanDrafting,
        State::PlanRefining,
        State::PlanReviewing,
        State::Implementing,
        State::ImplementingLoop,
        State::Complete,
        State::Error,
        State::NeedsUserInput,
    ];

    /// The states reachable from this one by `pipeline transition` (the
    /// forward flow; pausing and failing are open from every working state).
    /// needs_user_input and error return through `resume` and `recover`.
    pub fn forward(self) -> &'static [State] {
        match self {
            State::Idle => &[State::RequirementsGathering],
            State::RequirementsGathering => &[State::PlanDrafting],
            State::PlanDrafting => &[State::PlanRefining],
            State::PlanRefining => &[State::PlanReviewing],
            State::PlanReviewing => &[State::Implementing],
            State::Implementing => &[State::ImplementingLoop],
            State::ImplementingLoop => &[State::Complete],
            State::Complete | State::Error | State::NeedsUserInput => &[],
        }
    }

    /// States where work happens: they may pause for the user or fail.
    pub fn is_working(self) -> bool {
        match self {
            State::RequirementsGathering
            | State::PlanDrafting
            | State::PlanRefining
            | State::PlanReviewing
            | State::Implementing
            | State::ImplementingLoop => true,
            State::Idle | State::Complete | State::Error | State::NeedsUserInput => false,
        }
    }

    /// Every state `transition` accepts from here.
    pub fn legal(self) -> Vec<State> {
        let mut out = self.forward().to_vec();
        if self.is_working() {
            out.push(State::NeedsUserInput);
            out.push(State::Error);
        }
        out
    }
}

crate::named!(State, "pipeline state");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_forward_flow_follows_the_seed() {
        let mut s = State::Idle;
        let mut seen = vec![s];
        while let [next] = s.forward() {
            s = *next;
            seen.push(s);
        }
        assert_eq!(
            seen,
            [
                State::Idle,
                State::RequirementsGathering,
                State::PlanDrafting,
                State::PlanRefining,
                State::PlanReviewing,
                State::Implementing,
                State::ImplementingLoop,
                State::Complete
            ]
        );
    }

    #[test]
    fn pausing_and_failing_only_from_working_states() {
        assert!(State::PlanReviewing.legal().contains(&State::NeedsUserInput));
        assert!(State::ImplementingLoop.legal().contains(&State::Error));
        assert!(State::Idle.legal() == [State::RequirementsGathering]);
        assert!(State::Complete.legal().is_empty());
        assert!(State::NeedsUserInput.legal().is_empty());
    }

    #[test]
    fn names_round_trip() {
        crate::names::assert_serde_names::<State>();
        assert!("done".parse::<State>().unwrap_err().to_string().contains("implementing_loop"));
    }
}
