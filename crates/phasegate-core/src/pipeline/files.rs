//! The pipeline's files (seed 001, Output Formats): which schema each one
//! follows, where it lives, and typed views of the ones the binary reads.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::schema::Schema;

/// The folder inside a pipeline feature that holds its files.
pub const TASK_DIR: &str = ".task";
/// The pipeline's own state (the state machine, gates, owner).
pub const STATE_FILE: &str = "state.json";
/// The seed's marker of an open final-gate reviewer session.
pub const FINAL_GATE_SESSION_MARKER: &str = ".codex-session-active";
/// The seed's lock file for destructive operations (reset).
pub const ORCHESTRATOR_LOCK: &str = ".orchestrator.lock";

/// Every file format of pipeline mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::IntoStaticStr, strum::VariantArray)]
#[strum(serialize_all = "kebab-case")]
pub enum FileKind {
    WorkerSignal,
    UserStory,
    PlanRefined,
    Review,
    ImplResult,
    LoopState,
    Config,
    State,
}

impl FileKind {
    pub const ALL: [FileKind; 8] = [
        FileKind::WorkerSignal,
        FileKind::UserStory,
        FileKind::PlanRefined,
        FileKind::Review,
        FileKind::ImplResult,
        FileKind::LoopState,
        FileKind::Config,
        FileKind::State,
    ];

    pub fn schema(self) -> Schema {
        match self {
            FileKind::WorkerSignal => Schema::WorkerSignal,
            FileKind::UserStory => Schema::UserStory,
            FileKind::PlanRefined => Schema::PlanRefined,
            FileKind::Review => Schema::Review,
            FileKind::ImplResult => Schema::ImplResult,
            FileKind::LoopState => Schema::LoopState,
            FileKind::Config => Schema::PipelineConfig,
            FileKind::State => Schema::PipelineState,
        }
    }

    /// The file's name in `.task/` (None: reviews have one file per stage,
    /// and the configuration lives at the project root).
    pub fn task_file(self) -> Option<&'static str> {
        match self {
            FileKind::WorkerSignal => Some("worker-signal.json"),
            FileKind::UserStory => Some("user-story.json"),
            FileKind::PlanRefined => Some("plan-refined.json"),
            FileKind::ImplResult => Some("impl-result.json"),
            FileKind::LoopState => Some("loop-state.json"),
            FileKind::State => Some(STATE_FILE),
            FileKind::Review | FileKind::Config => None,
        }
    }
}

crate::named!(FileKind, "file kind");

/// Why a pipeline file is not usable: the one error of our JSON files.
pub type FileError = crate::schema::ConfigError;

/// Parses `text` as JSON and checks it against the kind's schema.
pub(super) fn check_schema(kind: FileKind, text: &str) -> Result<Value, FileError> {
    let value: Value = serde_json::from_str(text).map_err(|e| FileError::Syntax(e.into()))?;
    kind.schema().check(&value).map_err(FileError::Schema)?;
    Ok(value)
}

/// A file phasegate writes itself, read on hot paths (the hooks): its typed
/// reading plus [`Owned::rules`] accept exactly what its schema accepts (a
/// test holds them to it), so the schema, slow to build, is consulted only to
/// explain a failure field by field.
pub trait Owned: serde::de::DeserializeOwned {
    const KIND: FileKind;

    /// What the schema requires beyond the types.
    fn rules(&self) -> Result<(), String> {
        Ok(())
    }
}

/// Reads a file phasegate writes itself.
pub fn read_owned<T: Owned>(text: &str) -> Result<T, FileError> {
    let read = serde_json::from_str::<T>(text).map_err(|e| e.to_string()).and_then(|v| {
        v.rules()?;
        Ok(v)
    });
    match read {
        Ok(v) => Ok(v),
        Err(why) => match check_schema(T::KIND, text) {
            Err(e) => Err(e),
            Ok(_) => Err(FileError::Rule(why)),
        },
    }
}

/// Checks `text` and reads it as `T`.
pub fn parse<T: serde::de::DeserializeOwned>(kind: FileKind, text: &str) -> Result<T, FileError> {
    let value = check_schema(kind, text)?;
    serde_json::from_value(value).map_err(|e| FileError::Rule(e.to_string()))
}

/// The part of plan-refined.json the binary acts on.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct PlanRefined {
    pub id: String,
    /// The steps, each on one file (the knowledge base's gotchas are looked
    /// up by them).
    #[serde(default)]
    pub steps: Vec<PlanStep>,
    pub test_plan: TestPlan,
    #[serde(default)]
    pub implementation: Option<Implementation>,
    #[serde(default)]
    pub completion_promise: Option<String>,
}

/// One step of the plan.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct PlanStep {
    pub id: u32,
    pub file: String,
    /// create, modify or delete.
    pub action: String,
}

impl PlanStep {
    /// The knowledge base's action type for the step (seed 004's CREATE,
    /// UPDATE, DELETE).
    pub fn action_type(&self) -> &'static str {
        match self.action.as_str() {
            "create" => "CREATE",
            "delete" => "DELETE",
            _ => "UPDATE",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestPlan {
    pub commands: Vec<String>,
    #[serde(default)]
    pub success_pattern: Option<String>,
    #[serde(default)]
    pub failure_pattern: Option<String>,
    /// What proves each acceptance criterion of the user story (phasegate's
    /// addition to seed 001): the pipeline completes only when every one
    /// is proven (`workflow-state verify run`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<PlanCheck>,
}

/// One check of a pipeline's plan: the acceptance criteria it proves and
/// its command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlanCheck {
    pub requirements: Vec<String>,
    pub command: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub junit: Option<String>,
}

/// The ids of a user story's acceptance criteria (`AC1`, …), in order.
pub fn acceptance_criteria(story: &Value) -> Vec<String> {
    story
        .get("acceptance_criteria")
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(|c| c.get("id").and_then(Value::as_str).map(str::to_owned)).collect())
        .unwrap_or_default()
}

/// Whether a plan's checks can prove its story: at least one check, each
/// acceptance criterion named by one, and no check naming a criterion the
/// story lacks. `criteria`: the story's, when it can be read (without it,
/// only an empty list is refused). The pipeline completes only when every
/// criterion is proven by its checks, so a plan that cannot prove them is
/// refused where it is checked, before any review or loop is spent on it.
pub fn plan_proves(checks: &[PlanCheck], criteria: Option<&[String]>) -> Result<(), String> {
    const SHAPE: &str = r#"{"requirements": ["AC1"], "command": "<the command that proves it>"}"#;
    if checks.is_empty() {
        let ids = criteria.filter(|c| !c.is_empty()).map(|c| format!(" ({})", c.join(", "))).unwrap_or_default();
        return Err(format!(
            "test_plan.checks is empty: give each acceptance criterion of the user story{ids} a check, {SHAPE}; the pipeline completes only when every criterion is proven by one"
        ));
    }
    let Some(criteria) = criteria else { return Ok(()) };
    let mut problems = Vec::new();
    for (i, c) in checks.iter().enumerate() {
        for r in c.requirements.iter().filter(|r| !criteria.contains(r)) {
            problems.push(format!(
                "test_plan.checks[{i}] names {r}, which is not an acceptance criterion of the user story ({})",
                criteria.join(", ")
            ));
        }
    }
    let unchecked: Vec<&str> =
        criteria.iter().filter(|id| !checks.iter().any(|c| c.requirements.contains(id))).map(String::as_str).collect();
    if !unchecked.is_empty() {
        problems
            .push(format!("no check in test_plan.checks names {}: give each a check, {SHAPE}", unchecked.join(", ")));
    }
    match problems.is_empty() {
        true => Ok(()),
        false => Err(problems.join("; ")),
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Implementation {
    #[serde(default)]
    pub mode: Option<String>,
    #[serde(default)]
    pub max_iterations: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum GateReviewStatus {
    Approved,
    NeedsChanges,
    NeedsClarification,
    /// Only the final gate: its reviewer was not available and the
    /// configuration says to go on; `skip_reason` says why.
    Skipped,
}

crate::named!(GateReviewStatus, "review status");

/// The part of a review file the binary acts on.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Review {
    pub reviewer: String,
    pub model: String,
    pub status: GateReviewStatus,
    pub summary: String,
    #[serde(default)]
    pub findings: Vec<Value>,
    #[serde(default)]
    pub blockers: Vec<String>,
    #[serde(default)]
    pub questions: Vec<String>,
    #[serde(default)]
    pub skip_reason: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SignalStatus {
    NeedsInput,
    Completed,
    Error,
    InProgress,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkerQuestion {
    pub id: String,
    pub question: String,
    #[serde(default)]
    pub options: Vec<String>,
    #[serde(default)]
    pub context: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct WorkerSignal {
    pub worker_id: String,
    pub phase: String,
    pub status: SignalStatus,
    #[serde(default)]
    pub questions: Vec<WorkerQuestion>,
    #[serde(default)]
    pub error: Option<String>,
    #[serde(default)]
    pub agent_id: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::impl_loop::LoopState;
    use crate::pipeline::run::PipelineRun;
    use serde_json::json;

    /// The fast readings of state.json and loop-state.json accept the same
    /// documents as their schemas.
    #[test]
    fn a_plan_proves_its_story_only_with_a_check_for_every_criterion() {
        let check = |ids: &[&str]| PlanCheck {
            requirements: ids.iter().map(|s| (*s).to_owned()).collect(),
            command: "true".into(),
            junit: None,
        };
        let story = ["AC1".to_owned(), "AC2".to_owned()];
        let e = plan_proves(&[], Some(&story)).unwrap_err();
        assert!(
            e.starts_with(
                "test_plan.checks is empty: give each acceptance criterion of the user story (AC1, AC2) a check"
            ),
            "{e}"
        );
        assert!(plan_proves(&[], None).is_err(), "no story read: an empty list is still refused");
        assert_eq!(
            plan_proves(&[check(&["AC1"])], Some(&story)).unwrap_err(),
            r#"no check in test_plan.checks names AC2: give each a check, {"requirements": ["AC1"], "command": "<the command that proves it>"}"#
        );
        let e = plan_proves(&[check(&["AC1", "AC2"]), check(&["AC9"])], Some(&story)).unwrap_err();
        assert!(
            e.contains(
                "test_plan.checks[1] names AC9, which is not an acceptance criterion of the user story (AC1, AC2)"
            ),
            "{e}"
        );
        assert_eq!(plan_proves(&[check(&["AC1", "AC2"])], Some(&story)), Ok(()));
        assert_eq!(plan_proves(&[check(&["AC7"])], None), Ok(()), "without the story only emptiness is judged");
        let story_json = serde_json::json!({"acceptance_criteria": [{"id": "AC1"}, {"id": "AC2"}]});
        assert_eq!(acceptance_criteria(&story_json), story);
    }

    #[test]
    fn owned_readers_and_schemas_agree() {
        let run = json!({"state": "plan_reviewing", "request": "x", "createdAt": "2026-11-22T10:00:00Z",
            "updatedAt": "2026-11-22T10:00:00Z", "planReview": {"round": 1, "loops": 0, "results": []},
            "owner": {"sessionId": "s", "claimedAt": "2026-11-22T10:00:00Z"}});
        let looping = json!({"active": true, "iteration": 0, "max_iterations": 3, "completion_promise": "p",
            "started_at": "2026-11-22T10:00:00Z"});
        let r = |s: &str, st: &str| json!({"stage": s, "status": st});
        let cases: Vec<(FileKind, &serde_json::Value, &str, serde_json::Value)> = vec![
            (FileKind::State, &run, "/state", json!("done")),
            (FileKind::State, &run, "/request", json!(7)),
            (FileKind::State, &run, "/createdAt", json!("now")),
            (FileKind::State, &run, "/planReview/round", json!(-1)),
            (FileKind::State, &run, "/planReview/loops", json!(4294967296u64)),
            (
                FileKind::State,
                &run,
                "/planReview/results",
                json!([r("sonnet", "approved"), r("opus", "approved"), r("final", "approved"), r("final", "approved")]),
            ),
            (FileKind::State, &run, "/planReview/results", json!([r("gpt", "approved")])),
            (FileKind::State, &run, "/owner/sessionId", json!(null)),
            (FileKind::LoopState, &looping, "/max_iterations", json!(0)),
            (FileKind::LoopState, &looping, "/iteration", json!(-3)),
            (FileKind::LoopState, &looping, "/completion_promise", json!("")),
            (FileKind::LoopState, &looping, "/started_at", json!("soon")),
            (FileKind::LoopState, &looping, "/active", json!("yes")),
        ];
        let read = |kind: FileKind, text: &str| match kind {
            FileKind::State => read_owned::<PipelineRun>(text).map(drop),
            FileKind::LoopState => read_owned::<LoopState>(text).map(drop),
            _ => unreachable!("only owned files here"),
        };
        for base in [(FileKind::State, &run), (FileKind::LoopState, &looping)] {
            assert!(base.0.schema().check(base.1).is_ok());
            read(base.0, &base.1.to_string()).unwrap();
        }
        for (kind, base, pointer, bad) in cases {
            let mut v = base.clone();
            let (parent, key) = pointer.rsplit_once('/').unwrap();
            v.pointer_mut(parent).and_then(|p| p.as_object_mut()).unwrap().insert(key.into(), bad.clone());
            assert!(kind.schema().check(&v).is_err(), "the schema accepts {pointer} = {bad}");
            let err = read(kind, &v.to_string()).unwrap_err().to_string();
            assert!(err.contains(&format!("at {pointer}")), "{pointer} = {bad}: {err}");
        }
    }
}
