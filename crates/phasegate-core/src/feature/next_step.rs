//! The suggested next step of a feature: the command to run and why.

use crate::words::Command;
use serde::Serialize;

use super::meta::{Meta, PhaseState, Status, Workflow};
use super::phase::Phase;

/// The suggested next step of a feature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Next {
    pub phase: Option<Phase>,
    pub command: Option<Suggested>,
    pub reason: String,
}

/// A command suggested to run next: one of the plugin's slash commands or
/// a line of the binary. Its `Display` (and its JSON) is the command as
/// typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Suggested {
    /// The phase's slash command (`/phasegate:specify`).
    Phase(Phase),
    /// `/phasegate:pipeline`: the feature runs as a pipeline.
    Pipeline,
    /// `/phasegate:answer <id>`: the feature is suspended on the question.
    Answer(String),
    /// A line of the binary (`workflow-state verify run --feature f`).
    Run(Command),
}

impl std::fmt::Display for Suggested {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Suggested::Phase(phase) => f.write_str(&phase.command()),
            Suggested::Pipeline => f.write_str("/phasegate:pipeline"),
            Suggested::Answer(id) => write!(f, "/phasegate:answer {id}"),
            Suggested::Run(command) => command.fmt(f),
        }
    }
}

impl Serialize for Suggested {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

pub fn next_step(meta: &Meta) -> Next {
    let done = |reason: String| Next { phase: None, command: None, reason };
    let go = |phase: Phase, reason: String| Next { phase: Some(phase), command: Some(Suggested::Phase(phase)), reason };
    match meta.status {
        Status::Completed => return done(format!("feature {} is completed", meta.name())),
        Status::Abandoned => return done(format!("feature {} was abandoned", meta.name())),
        Status::Active => {}
    }
    match meta.workflow {
        Workflow::Pipeline => {
            return Next {
                phase: None,
                command: Some(Suggested::Pipeline),
                reason: format!("feature {} runs as a pipeline", meta.name()),
            };
        }
        Workflow::Phased => {}
    }
    let Some(current) = meta.current_phase else {
        return go(Phase::Brainstorm, "no phase has run yet".into());
    };
    match meta.phase_state(current) {
        PhaseState::Partial | PhaseState::NotStarted => go(current, format!("{current} was started but not completed")),
        PhaseState::Completed => match current.next() {
            Some(n) => go(n, format!("{current} is complete")),
            None => done(format!("feature {} has run every phase", meta.name())),
        },
    }
}

/// Where a feature's proof stands when its next step is finish.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProofStanding {
    /// Every requirement proven at the tree as it is (or waived).
    Proven,
    /// Proven once, but the code changed since the checks ran.
    Stale,
    /// Not proven: a check failed, did not run, or none names a requirement.
    NotProven,
}

/// `next`, unless it is finish and `finish` would refuse it for its proof:
/// then the checks run first (`verify run`), which is all a stale proof
/// needs and what shows why one is not proven. Never suggests a finish
/// that would refuse.
pub fn before_finish(next: Next, feature: &str, proof: ProofStanding) -> Next {
    if next.phase != Some(Phase::Finish) {
        return next;
    }
    let reason = match proof {
        ProofStanding::Proven => return next,
        ProofStanding::Stale => "stale: the code changed since `verify run` proved it; run the checks again",
        ProofStanding::NotProven => "not proven: `verify run` shows which requirement is not, and why",
    };
    Next {
        phase: Some(Phase::Verify),
        command: Some(Suggested::Run(Command::new("verify run").feature(&feature))),
        reason: format!("feature {feature} is verified, but its proof is {reason}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::feature::ArtifactSet;
    use crate::feature::Mode;
    use crate::feature::StartMode;
    use chrono::Utc;

    #[test]
    fn next_follows_the_feature() {
        let now = Utc::now();
        let mut m = Meta::new("001".into(), "a".into(), Mode::Standard, now);
        assert_eq!(next_step(&m).command.map(|c| c.to_string()).as_deref(), Some("/phasegate:brainstorm"));
        m.start_phase(Phase::Specify, now, StartMode::Continue, ArtifactSet::empty()).unwrap();
        assert_eq!(next_step(&m).command.map(|c| c.to_string()).as_deref(), Some("/phasegate:specify"));
        m.complete_phase(Phase::Specify, now, Default::default(), None).unwrap();
        assert_eq!(next_step(&m).command.map(|c| c.to_string()).as_deref(), Some("/phasegate:design"));
        m.finish(now).unwrap();
        assert_eq!(next_step(&m).command, None);
    }

    #[test]
    fn finish_is_never_suggested_while_its_proof_would_refuse_it() {
        let finish =
            Next { phase: Some(Phase::Finish), command: Some(Suggested::Phase(Phase::Finish)), reason: String::new() };
        assert_eq!(before_finish(finish.clone(), "001-a", ProofStanding::Proven), finish);
        let stale = before_finish(finish.clone(), "001-a", ProofStanding::Stale);
        assert_eq!(stale.command.map(|c| c.to_string()).as_deref(), Some("workflow-state verify run --feature 001-a"));
        assert!(stale.reason.contains("stale"), "{}", stale.reason);
        let open = before_finish(finish, "001-a", ProofStanding::NotProven);
        assert_eq!(open.command.map(|c| c.to_string()).as_deref(), Some("workflow-state verify run --feature 001-a"));
        let design =
            Next { phase: Some(Phase::Design), command: Some(Suggested::Phase(Phase::Design)), reason: String::new() };
        assert_eq!(before_finish(design.clone(), "001-a", ProofStanding::Stale), design);
    }
}
