//! Where each request's usage belongs. A session's request at time `t`
//! belongs to the feature the session last acted on at or before `t` (the
//! binaries record each session's turns between features); within that
//! feature, to the phase whose window holds `t` (a reopened phase has
//! several windows; a pipeline's phases are its states), and inside a
//! task's window to that task; a sub-agent spawned with a task's context
//! package belongs to that task exactly. A phase command's first requests,
//! from its prompt until the phase it starts opens its window (the model
//! reads the brief, then runs `phase start`), are that phase's, of the
//! feature the session turned to when it started (a new one too). What
//! falls outside every window is shown as such, never spread over the
//! phases; a request before the session's first turn to a feature belongs
//! to no feature.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::Phase;
use crate::names::Named;
use crate::pipeline::State;
pub use crate::time::Span;

/// The command that starts a pipeline (`/phasegate:pipeline`); a phase's
/// command is named after its phase.
pub const PIPELINE_COMMAND: &str = "pipeline";

/// One feature's windows: its phases' (in the order they are named) and
/// its tasks'.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Windows {
    pub phases: Vec<(String, Span)>,
    pub tasks: Vec<(String, Span)>,
}

/// A session's turn to a feature: from `at` on, its requests are that
/// feature's (until its next turn).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub at: DateTime<Utc>,
    pub feature: String,
}

/// A phase command typed in a session (`/phasegate:design`, or
/// `/phasegate:pipeline`), as the UserPromptSubmit hook saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Command {
    pub at: DateTime<Utc>,
    /// A phase's name, or [`PIPELINE_COMMAND`].
    pub command: String,
}

/// The command a prompt runs, when it is a phase's or the pipeline's.
pub fn command_of_prompt(prompt: &str) -> Option<&str> {
    let rest = prompt.trim_start().strip_prefix("/phasegate:")?;
    let name = &rest[..rest.find(char::is_whitespace).unwrap_or(rest.len())];
    (name == PIPELINE_COMMAND || Phase::parse_name(name).is_ok()).then_some(name)
}

/// What the binaries saw of one session, for its cost: where its
/// transcripts are, its turns between features, the phase commands typed
/// in it, and the sub-agents it spawned for a task (by the spawning tool
/// use's id).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SessionLog {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript: Option<String>,
    /// The transcripts this session id had before the current one (an id
    /// used again after its session ended, with a new transcript): still
    /// read, so their usage stays counted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier_transcripts: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turns: Vec<Turn>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub agent_tasks: BTreeMap<String, (String, String)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<Command>,
}

impl SessionLog {
    /// Notes a turn to `feature` at `at`; false when the session was on it
    /// already (nothing to write).
    pub fn turn_to(&mut self, feature: &str, at: DateTime<Utc>) -> bool {
        if self.turns.last().is_some_and(|t| t.feature == feature) {
            return false;
        }
        self.turns.push(Turn { at, feature: feature.to_owned() });
        true
    }

    /// The feature the session is on now (its last turn).
    pub fn feature(&self) -> Option<&str> {
        self.turns.last().map(|t| t.feature.as_str())
    }

    /// Notes the session's transcript; one it had before stays among its
    /// transcripts. False when it is the one already noted.
    pub fn note_transcript(&mut self, path: &str) -> bool {
        if self.transcript.as_deref() == Some(path) {
            return false;
        }
        if let Some(old) = self.transcript.take()
            && !self.earlier_transcripts.contains(&old)
        {
            self.earlier_transcripts.push(old);
        }
        self.earlier_transcripts.retain(|t| t != path);
        self.transcript = Some(path.to_owned());
        true
    }

    /// Every transcript of the session: the earlier ones, then the current.
    pub fn transcripts(&self) -> impl Iterator<Item = &str> {
        self.earlier_transcripts.iter().map(String::as_str).chain(self.transcript.as_deref())
    }

    /// Notes a phase command typed at `at`.
    pub fn note_command(&mut self, command: &str, at: DateTime<Utc>) {
        self.commands.push(Command { at, command: command.to_owned() });
    }
}

/// A phase command's first requests: from its prompt (`from`) until the
/// window it opened (`to`), `phase` of `feature`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Opening {
    from: DateTime<Utc>,
    to: DateTime<Utc>,
    feature: String,
    phase: String,
}

/// Where a request's usage goes.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Place {
    /// A feature's: the phase whose window holds it (None: outside every
    /// window), and the task in progress (several joined with `+`).
    Feature { feature: String, phase: Option<String>, task: Option<String> },
    /// No feature's: before the session's first turn to one.
    Unattributed,
}

/// Everything attribution needs: each feature's windows, each session's
/// turns and the openings of its phase commands, and the sub-agents spawned
/// for a task (by their tool use's id).
#[derive(Debug, Clone, Default)]
pub struct Attributor {
    windows: BTreeMap<String, Windows>,
    turns: BTreeMap<String, Vec<Turn>>,
    agent_tasks: BTreeMap<String, (String, String)>,
    openings: BTreeMap<String, Vec<Opening>>,
}

impl Attributor {
    /// Attribution over `windows` (by feature) for the sessions of `logs`
    /// (by session id).
    pub fn new(windows: BTreeMap<String, Windows>, logs: &BTreeMap<String, SessionLog>) -> Attributor {
        let mut a = Attributor { windows, ..Attributor::default() };
        for (session, log) in logs {
            a.turns.insert(session.clone(), log.turns.clone());
            a.agent_tasks.extend(log.agent_tasks.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        for (session, log) in logs {
            let openings = a.openings_of(session, &log.commands);
            if !openings.is_empty() {
                a.openings.insert(session.clone(), openings);
            }
        }
        a
    }

    /// The place of a request of `session` at `at`; `tool_use` is the
    /// spawning tool use of the sub-agent that made it, if any.
    pub fn place(&self, session: &str, at: DateTime<Utc>, tool_use: Option<&str>) -> Place {
        if let Some((feature, task)) = tool_use.and_then(|id| self.agent_tasks.get(id)) {
            let phase = self.phase_at(feature, at);
            return Place::Feature { feature: feature.clone(), phase, task: Some(task.clone()) };
        }
        if let Some(o) = self.openings.get(session).and_then(|os| os.iter().find(|o| o.from <= at && at < o.to)) {
            return Place::Feature { feature: o.feature.clone(), phase: Some(o.phase.clone()), task: None };
        }
        let Some(feature) = self.feature_at(session, at) else {
            return Place::Unattributed;
        };
        let phase = self.phase_at(feature, at);
        let tasks: Vec<&str> = self
            .windows
            .get(feature)
            .map(|w| w.tasks.iter().filter(|(_, s)| s.holds(at)).map(|(t, _)| t.as_str()).collect())
            .unwrap_or_default();
        let task = (!tasks.is_empty()).then(|| {
            let mut tasks = tasks;
            tasks.sort_unstable();
            tasks.dedup();
            tasks.join("+")
        });
        Place::Feature { feature: feature.to_owned(), phase, task }
    }

    /// The feature `session` was on at `at` (its last turn by then).
    fn feature_at(&self, session: &str, at: DateTime<Utc>) -> Option<&str> {
        self.turns.get(session)?.iter().rev().find(|t| t.at <= at).map(|t| t.feature.as_str())
    }

    /// Where each of the session's phase commands went: the first window of
    /// its phase (a pipeline's first state with a length) that opened after
    /// its prompt and before the session's next command, in the feature
    /// the session was on when it opened. A command that opened none (it
    /// resumed a phase in progress, or was refused) has no opening.
    fn openings_of(&self, session: &str, commands: &[Command]) -> Vec<Opening> {
        let mut commands: Vec<&Command> = commands.iter().collect();
        commands.sort_by_key(|c| c.at);
        let mut out = Vec::new();
        for (k, c) in commands.iter().enumerate() {
            let next = commands.get(k + 1).map(|n| n.at);
            let mut best: Option<(DateTime<Utc>, &str, &str)> = None;
            for (feature, w) in &self.windows {
                for (name, span) in &w.phases {
                    let opened_by_it = span.start >= c.at
                        && next.is_none_or(|n| span.start < n)
                        && span.end != Some(span.start)
                        && (c.command == *name || (c.command == PIPELINE_COMMAND && State::parse_name(name).is_ok()));
                    if opened_by_it
                        && best.is_none_or(|(s, _, _)| span.start < s)
                        && self.feature_at(session, span.start) == Some(feature.as_str())
                    {
                        best = Some((span.start, feature, name));
                    }
                }
            }
            if let Some((to, feature, phase)) = best {
                out.push(Opening { from: c.at, to, feature: feature.to_owned(), phase: phase.to_owned() });
            }
        }
        out
    }

    /// The phase of `feature` whose window holds `at` (the latest started
    /// when windows overlap).
    fn phase_at(&self, feature: &str, at: DateTime<Utc>) -> Option<String> {
        self.windows
            .get(feature)?
            .phases
            .iter()
            .filter(|(_, s)| s.holds(at))
            .max_by_key(|(_, s)| s.start)
            .map(|(p, _)| p.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(m: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + m * 60, 0).unwrap()
    }

    fn span(a: i64, b: Option<i64>) -> Span {
        Span { start: t(a), end: b.map(t) }
    }

    fn place(f: &str, phase: Option<&str>, task: Option<&str>) -> Place {
        Place::Feature { feature: f.into(), phase: phase.map(Into::into), task: task.map(Into::into) }
    }

    fn windows() -> BTreeMap<String, Windows> {
        let mut w = BTreeMap::new();
        w.insert(
            "001-a".into(),
            Windows {
                phases: vec![
                    ("specify".into(), span(0, Some(10))),
                    ("design".into(), span(10, Some(20))),
                    // Reopened: a second window of specify.
                    ("specify".into(), span(30, Some(40))),
                    ("implement".into(), span(40, None)),
                ],
                tasks: vec![("T1".into(), span(41, Some(50))), ("T2".into(), span(45, Some(55)))],
            },
        );
        w.insert("002-b".into(), Windows { phases: vec![("design".into(), span(0, None))], tasks: vec![] });
        w
    }

    fn attributor() -> Attributor {
        let mut log = SessionLog {
            turns: vec![
                Turn { at: t(0), feature: "001-a".into() },
                Turn { at: t(25), feature: "002-b".into() },
                Turn { at: t(30), feature: "001-a".into() },
            ],
            ..SessionLog::default()
        };
        log.agent_tasks.insert("toolu_9".into(), ("001-a".into(), "T2".into()));
        Attributor::new(windows(), &BTreeMap::from([("s1".to_owned(), log)]))
    }

    #[test]
    fn requests_go_to_the_phase_and_task_whose_window_holds_them() {
        let a = attributor();
        assert_eq!(a.place("s1", t(5), None), place("001-a", Some("specify"), None));
        assert_eq!(a.place("s1", t(15), None), place("001-a", Some("design"), None));
        assert_eq!(a.place("s1", t(35), None), place("001-a", Some("specify"), None), "the reopened window");
        assert_eq!(a.place("s1", t(42), None), place("001-a", Some("implement"), Some("T1")));
        assert_eq!(a.place("s1", t(47), None), place("001-a", Some("implement"), Some("T1+T2")), "never spread");
        assert_eq!(
            a.place("s1", t(47), Some("toolu_9")),
            place("001-a", Some("implement"), Some("T2")),
            "its own task"
        );
    }

    #[test]
    fn a_session_between_features_and_what_falls_outside() {
        let a = attributor();
        assert_eq!(a.place("s1", t(26), None), place("002-b", Some("design"), None), "its turn to another feature");
        assert_eq!(a.place("s1", t(22), None), place("001-a", None, None), "between windows: outside, not spread");
        assert_eq!(a.place("s2", t(5), None), Place::Unattributed, "a session that never turned to a feature");
        let before = DateTime::from_timestamp(1_800_000_000 - 60, 0).unwrap();
        assert_eq!(a.place("s1", before, None), Place::Unattributed);
    }

    #[test]
    fn a_phase_commands_first_requests_are_the_phase_it_starts() {
        let mut w = windows();
        // A feature made by the command itself (`phase start --new`), whose
        // brainstorm opens at 62; a pipeline started at 80 (its idle state
        // has no length).
        w.insert("003-new".into(), Windows { phases: vec![("brainstorm".into(), span(62, None))], tasks: vec![] });
        w.insert(
            "004-p".into(),
            Windows {
                phases: vec![("idle".into(), span(80, Some(80))), ("requirements_gathering".into(), span(80, None))],
                tasks: vec![],
            },
        );
        let mut log = SessionLog {
            turns: vec![
                Turn { at: t(8), feature: "001-a".into() },
                Turn { at: t(62), feature: "003-new".into() },
                Turn { at: t(80), feature: "004-p".into() },
            ],
            ..SessionLog::default()
        };
        // /phasegate:design at 9 (design opens at 10), /phasegate:brainstorm
        // at 60, a refused /phasegate:verify at 70, /phasegate:pipeline at 78.
        for (at, c) in [(9, "design"), (60, "brainstorm"), (70, "verify"), (78, "pipeline")] {
            log.note_command(c, t(at));
        }
        let a = Attributor::new(w, &BTreeMap::from([("s1".to_owned(), log)]));
        let at = |m: i64| t(0) + chrono::TimeDelta::seconds(m * 60 + 30);
        assert_eq!(a.place("s1", at(9), None), place("001-a", Some("design"), None), "not outside the phases");
        assert_eq!(a.place("s1", at(60), None), place("003-new", Some("brainstorm"), None), "not unattributed");
        assert_eq!(a.place("s1", at(70), None), place("003-new", Some("brainstorm"), None), "opened nothing");
        assert_eq!(a.place("s1", at(78), None), place("004-p", Some("requirements_gathering"), None));
        assert_eq!(a.place("s1", at(7), None), Place::Unattributed, "before any command or turn");
        assert_eq!(command_of_prompt("/phasegate:design add search"), Some("design"));
        assert_eq!(command_of_prompt("  /phasegate:pipeline"), Some("pipeline"));
        assert_eq!(command_of_prompt("/phasegate:answer q1 yes"), None);
        assert_eq!(command_of_prompt("please /phasegate:design"), None);
    }

    #[test]
    fn a_session_id_used_again_keeps_its_earlier_transcript() {
        let mut log = SessionLog::default();
        assert!(log.note_transcript("/a.jsonl"));
        assert!(!log.note_transcript("/a.jsonl"));
        assert!(log.note_transcript("/b.jsonl"));
        assert!(log.note_transcript("/a.jsonl"), "back to the first");
        assert_eq!(log.transcripts().collect::<Vec<_>>(), ["/b.jsonl", "/a.jsonl"]);
        let old: SessionLog = serde_json::from_str(r#"{"transcript": "/a.jsonl"}"#).unwrap();
        assert_eq!(old.transcripts().collect::<Vec<_>>(), ["/a.jsonl"], "a log written before");
    }
}
