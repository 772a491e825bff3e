//! The suggested next step of a feature: the command to run and why.

use serde::Serialize;

use super::meta::{Meta, PhaseState, Status, Workflow};
use super::phase::Phase;

/// The suggested next step of a feature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Next {
    pub phase: Option<Phase>,
    pub command: Option<String>,
    pub reason: String,
}

pub fn next_step(meta: &Meta) -> Next {
    let done = |reason: String| Next { phase: None, command: None, reason };
    let go = |phase: Phase, reason: String| Next { phase: Some(phase), command: Some(phase.command()), reason };
    match meta.status {
        Status::Completed => return done(format!("feature {} is completed", meta.name())),
        Status::Abandoned => return done(format!("feature {} was abandoned", meta.name())),
        Status::Active => {}
    }
    match meta.workflow {
        Workflow::Pipeline => {
            return Next {
                phase: None,
                command: Some("/phasegate:pipeline".into()),
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
        assert_eq!(next_step(&m).command.as_deref(), Some("/phasegate:brainstorm"));
        m.start_phase(Phase::Specify, now, StartMode::Continue, ArtifactSet::empty()).unwrap();
        assert_eq!(next_step(&m).command.as_deref(), Some("/phasegate:specify"));
        m.complete_phase(Phase::Specify, now, Default::default(), None).unwrap();
        assert_eq!(next_step(&m).command.as_deref(), Some("/phasegate:design"));
        m.finish(now).unwrap();
        assert_eq!(next_step(&m).command, None);
    }
}
