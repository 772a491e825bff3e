//! What an ideation command tells the model, as values with their facts:
//! the outcome keeps the value, its JSON the sentence (`Display`).

use std::fmt;

use super::ideation::{ArtifactType, IdeationPhase};
use crate::words::Command;

/// What an ideation command says (its `message`).
#[derive(Debug, Clone, PartialEq)]
pub enum IdeationSaid {
    /// `ideation start` on a feature whose ideation has begun.
    AlreadyStarted { phase: IdeationPhase },
    /// `ideation start`: begun in EXPLORING.
    Started { feature: String },
    /// `ideation show` and `prompt`: where it stands.
    Is { phase: IdeationPhase },
    /// `ideation advance` when the rule does not hold: what is missing.
    Still { phase: IdeationPhase, reasons: Vec<String> },
    /// A signal recorded, and the move it made, if any.
    Recorded { signal: SignalRecorded, moved: Option<IdeationMoved> },
    /// `ideation advance` moved one phase on.
    Moved(IdeationMoved),
}

/// The signal a `ideation record` recorded.
#[derive(Debug, Clone, PartialEq)]
pub enum SignalRecorded {
    Artifact(ArtifactType),
    Decision(String),
    Risk,
    Confidence(f64),
}

/// One move on of ideation: to the next sub-phase, or to COMPLETE with its
/// handoff brief.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdeationMoved {
    To { feature: String, from: IdeationPhase, to: IdeationPhase, reasons: Vec<String> },
    Complete { reasons: Vec<String>, handoff: String },
}

impl fmt::Display for IdeationSaid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IdeationSaid::AlreadyStarted { phase } => write!(f, "Ideation already started; it is in {phase}."),
            IdeationSaid::Started { feature } => write!(
                f,
                "Ideation started in EXPLORING: `{}` says how to go on.",
                Command::new("ideation prompt").feature(feature)
            ),
            IdeationSaid::Is { phase } => write!(f, "Ideation is in {phase}."),
            IdeationSaid::Still { phase, reasons } => write!(f, "Still {phase}: {}.", reasons.join("; ")),
            IdeationSaid::Recorded { signal, moved: None } => signal.fmt(f),
            IdeationSaid::Recorded { signal, moved: Some(moved) } => write!(f, "{signal} {moved}"),
            IdeationSaid::Moved(moved) => moved.fmt(f),
        }
    }
}

impl fmt::Display for SignalRecorded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SignalRecorded::Artifact(kind) => write!(f, "Recorded the {kind} artifact."),
            SignalRecorded::Decision(kind) => write!(f, "Recorded the {kind} decision."),
            SignalRecorded::Risk => f.write_str("Recorded the risk."),
            SignalRecorded::Confidence(c) => write!(f, "Confidence is {}%.", (c * 100.0).round()),
        }
    }
}

impl fmt::Display for IdeationMoved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IdeationMoved::To { feature, from, to, reasons } => write!(
                f,
                "{from} → {to}: {}. `{}` gives the new instructions.",
                reasons.join("; "),
                Command::new("ideation prompt").feature(feature)
            ),
            IdeationMoved::Complete { reasons, handoff } => write!(
                f,
                "Ideation is COMPLETE ({}). The handoff brief is {handoff}: write brainstorm.md from it; the specify phase reads both.",
                reasons.join("; ")
            ),
        }
    }
}

/// What the team's remote means for a verb (its `team` or `note` line):
/// the remote not reached and what is kept here until `team sync`, a
/// claim not given back, a teammate's question answered there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TeamSaid {
    /// The remote could not be reached: `held` is done here only.
    Offline { remote: String, why: String, held: HeldHere },
    /// `team sync` could not reach the remote: nothing was synced.
    NotSynced { remote: String, why: String },
    /// A phase's claim could not be given back (not read, or refused).
    NotGivenBack { phase: crate::Phase, error: String },
    /// A claim taken over from a teammate whose claim expired (at
    /// `expired`, as `2026-11-28 17:00 UTC`).
    TookOver { what: String, holder: String, remote: String, expired: String },
    /// A teammate's question answered on the remote; `asker` as
    /// [`super::Holder::describe`] says them.
    AnsweredThere { remote: String, asker: String },
}

/// What a verb did here only while the team's remote was out of reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeldHere {
    /// A feature number, `001`.
    Reserved(String),
    /// A claim of a task or a phase (`T3`, `the design phase`).
    Claimed(String),
    /// A claim given back.
    GivenBack(String),
}

impl fmt::Display for TeamSaid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TeamSaid::Offline { remote, why, held } => {
                let what = match held {
                    HeldHere::Reserved(n) => format!("{n} is reserved"),
                    HeldHere::Claimed(what) => format!("{what} is claimed"),
                    HeldHere::GivenBack(what) => format!("the claim of {what} is given back"),
                };
                write!(
                    f,
                    "{remote} could not be reached ({why}); {what} here only: `{}` carries it over when it is back",
                    Command::new("team sync")
                )
            }
            TeamSaid::NotSynced { remote, why } => write!(
                f,
                "{remote} could not be reached ({why}); nothing was synced: the claims below are as the last sync saw them"
            ),
            TeamSaid::NotGivenBack { phase, error } => write!(
                f,
                "the claim of the {} phase on the team's remote was not given back: {error}",
                <&str>::from(*phase)
            ),
            TeamSaid::TookOver { what, holder, remote, expired } => {
                write!(f, "took {what} over from {holder}, whose claim on {remote} expired {expired}")
            }
            TeamSaid::AnsweredThere { remote, asker } => write!(
                f,
                "answered on {remote}: {asker} takes it in at their next sync (their monitor syncs within minutes, or `{}`)",
                Command::new("team sync")
            ),
        }
    }
}
