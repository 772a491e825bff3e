//! Where each request's usage belongs. A session's request at time `t`
//! belongs to the feature the session last acted on at or before `t` (the
//! binaries record each session's turns between features); within that
//! feature, to the phase whose window holds `t` (a reopened phase has
//! several windows; a pipeline's phases are its states), and inside a
//! task's window to that task; a sub-agent spawned with a task's context
//! package belongs to that task exactly. What falls outside every window is
//! shown as such, never spread over the phases; a request before the
//! session's first turn to a feature belongs to no feature.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

pub use crate::time::Span;

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

/// What the binaries saw of one session, for its cost: where its
/// transcript is, its turns between features, and the sub-agents it
/// spawned for a task (by the spawning tool use's id).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SessionLog {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turns: Vec<Turn>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub agent_tasks: BTreeMap<String, (String, String)>,
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
}

/// Where a request's usage goes.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Place {
    /// A feature's: the phase whose window holds it (None: outside every
    /// window), and the task in progress (several joined with `+`).
    Feature { feature: String, phase: Option<String>, task: Option<String> },
    /// No feature's: before the session's first turn to one.
    Unattributed,
}

/// Everything attribution needs: each feature's windows, each session's
/// turns, and the sub-agents spawned for a task (by their tool use's id).
#[derive(Debug, Clone, Default)]
pub struct Attributor {
    pub windows: BTreeMap<String, Windows>,
    pub turns: BTreeMap<String, Vec<Turn>>,
    pub agent_tasks: BTreeMap<String, (String, String)>,
}

impl Attributor {
    /// The place of a request of `session` at `at`; `tool_use` is the
    /// spawning tool use of the sub-agent that made it, if any.
    pub fn place(&self, session: &str, at: DateTime<Utc>, tool_use: Option<&str>) -> Place {
        if let Some((feature, task)) = tool_use.and_then(|id| self.agent_tasks.get(id)) {
            let phase = self.phase_at(feature, at);
            return Place::Feature { feature: feature.clone(), phase, task: Some(task.clone()) };
        }
        let Some(feature) = self
            .turns
            .get(session)
            .and_then(|turns| turns.iter().rev().find(|t| t.at <= at))
            .map(|t| t.feature.clone())
        else {
            return Place::Unattributed;
        };
        let phase = self.phase_at(&feature, at);
        let tasks: Vec<&str> = self
            .windows
            .get(&feature)
            .map(|w| w.tasks.iter().filter(|(_, s)| s.holds(at)).map(|(t, _)| t.as_str()).collect())
            .unwrap_or_default();
        let task = (!tasks.is_empty()).then(|| {
            let mut tasks = tasks;
            tasks.sort_unstable();
            tasks.dedup();
            tasks.join("+")
        });
        Place::Feature { feature, phase, task }
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

    fn attributor() -> Attributor {
        let mut a = Attributor::default();
        a.windows.insert(
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
        a.windows.insert("002-b".into(), Windows { phases: vec![("design".into(), span(0, None))], tasks: vec![] });
        a.turns.insert(
            "s1".into(),
            vec![
                Turn { at: t(0), feature: "001-a".into() },
                Turn { at: t(25), feature: "002-b".into() },
                Turn { at: t(30), feature: "001-a".into() },
            ],
        );
        a.agent_tasks.insert("toolu_9".into(), ("001-a".into(), "T2".into()));
        a
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
}
