//! Build decisions (seed 004 §5.3, the Build Agent) for the tasks of an
//! orchestrated implement: a failed task's error classified from its
//! validation output and the seed's rule for it (retry, install and retry,
//! rebase and retry, skip, escalate); whether the build goes on (more than 3
//! failed tasks, a failed database task, the time limit of 2 hours, a stop
//! request); and the seed's layer order (§4.3: database, types, queries,
//! api, ui, tests). Pure.

use std::sync::LazyLock;

use chrono::Duration;
use regex::Regex;
use serde::Serialize;

use super::list::{Layer, Mark, Task, layer};

/// Seed 004 §5.3: "Too many failures (>3)".
pub const MAX_FAILED_TASKS: usize = 3;
/// Seed 004 §5.3: "Time limit exceeded (2 hours)".
pub const DEFAULT_TIME_LIMIT_MINUTES: i64 = 120;
/// Seed 004 §5.3: a syntax error is retried while `task.attempts < 3`.
pub const SYNTAX_RETRIES: u32 = 3;
/// Seed 004 §5.3: a failed validation is retried while `task.attempts < 2`.
pub const VALIDATION_RETRIES: u32 = 2;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE", tag = "type")]
pub enum ErrorType {
    SyntaxError,
    MissingDependency { package: Option<String> },
    Conflict,
    ValidationFailed,
    Other,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum BuildAction {
    Retry,
    InstallAndRetry,
    RebaseAndRetry,
    Skip,
    Escalate,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FailureDecision {
    pub action: BuildAction,
    pub reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
}

static SYNTAX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(syntax ?error|unexpected token|parse error|expected one of|unterminated|invalid syntax|error\[E0(?:06[0-9]|1[0-9]{2})\]|unexpected end of (?:file|input))")
        .expect("compiles")
});
static MISSING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)(?:cannot find module|module not found:?(?: error:)?(?: can't resolve)?|no module named|unresolved import|could not find crate|can't find crate for|package not found|command not found:?)\s*['"`]?([A-Za-z0-9@/._-]+)?"#)
        .expect("compiles")
});
static CONFLICT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(merge conflict|conflict \(content\)|<<<<<<< |automatic merge failed|needs merge|rebase.*conflict)",
    )
    .expect("compiles")
});
static VALIDATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(test(?:s)? failed|test result: failed|\b\d+ (?:failed|failing)\b|failures?:|assertion(?:error| failed| `left == right` failed)|expected .* (?:but|got)|\bFAIL\b|lint(?:ing)? (?:error|failed)|type ?error|mismatched types)")
        .expect("compiles")
});

/// The seed's `classify_error`, from a task's validation output.
pub fn classify(output: &str) -> ErrorType {
    if CONFLICT.is_match(output) {
        return ErrorType::Conflict;
    }
    if let Some(c) = MISSING.captures(output) {
        let package = c.get(1).map(|m| m.as_str().trim_matches(|c| c == '\'' || c == '"').to_owned());
        return ErrorType::MissingDependency { package: package.filter(|p| !p.is_empty()) };
    }
    if SYNTAX.is_match(output) {
        return ErrorType::SyntaxError;
    }
    if VALIDATION.is_match(output) {
        return ErrorType::ValidationFailed;
    }
    ErrorType::Other
}

/// The seed's `handle_task_failure`: `attempts` is how often the task ran,
/// this failure included.
pub fn decide_failure(error: &ErrorType, attempts: u32, output: &str) -> FailureDecision {
    let d = |action, reason: &str| FailureDecision { action, reason: reason.to_owned(), package: None };
    match error {
        ErrorType::SyntaxError if attempts < SYNTAX_RETRIES => {
            d(BuildAction::Retry, "Syntax error - will retry with correction")
        }
        ErrorType::MissingDependency { package } => FailureDecision {
            action: BuildAction::InstallAndRetry,
            reason: format!(
                "Missing dependency{} - install it and retry",
                package.as_ref().map(|p| format!(" {p}")).unwrap_or_default()
            ),
            package: package.clone(),
        },
        ErrorType::Conflict => d(BuildAction::RebaseAndRetry, "Merge conflict detected"),
        ErrorType::ValidationFailed if attempts < VALIDATION_RETRIES => {
            d(BuildAction::Retry, "Validation failed - will fix")
        }
        ErrorType::ValidationFailed => d(BuildAction::Skip, "Validation failed after 2 attempts"),
        ErrorType::SyntaxError | ErrorType::Other => {
            let first = output.lines().find(|l| !l.trim().is_empty()).unwrap_or("no output").trim();
            let first: String = first.chars().take(200).collect();
            FailureDecision {
                action: BuildAction::Escalate,
                reason: match error {
                    ErrorType::SyntaxError => format!("Syntax error after {attempts} attempts: {first}"),
                    _ => format!("Unknown error: {first}"),
                },
                package: None,
            }
        }
    }
}

/// Whether the build goes on (seed 004's `should_continue`).
pub fn should_continue(
    tasks: &[Task],
    elapsed: Option<Duration>,
    limit_minutes: i64,
    stop_requested: bool,
) -> Result<(), String> {
    let failed: Vec<&Task> = tasks.iter().filter(|t| t.mark == Mark::Failed).collect();
    if failed.len() > MAX_FAILED_TASKS {
        return Err(format!("Too many failures (>{MAX_FAILED_TASKS}): {}", ids(&failed)));
    }
    if let Some(t) = failed.iter().find(|t| layer(t) == Some(Layer::Database)) {
        return Err(format!("Critical database task failed: {}", t.id));
    }
    if elapsed.is_some_and(|e| e > Duration::minutes(limit_minutes)) {
        return Err(format!("Time limit exceeded ({} hours)", limit_minutes as f64 / 60.0));
    }
    if stop_requested {
        return Err("Stop signal received".into());
    }
    Ok(())
}

fn ids(tasks: &[&Task]) -> String {
    tasks.iter().map(|t| t.id.as_str()).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::super::list::TaskList;
    use super::*;

    #[test]
    fn errors_are_classified_from_validation_output() {
        for (out, want) in [
            ("src/a.ts(3,1): error TS1005: SyntaxError: Unexpected token '}'", ErrorType::SyntaxError),
            ("error: expected one of `;` or `}`, found `let`", ErrorType::SyntaxError),
            ("Error: Cannot find module 'zod'", ErrorType::MissingDependency { package: Some("zod".into()) }),
            (
                "ModuleNotFoundError: No module named 'requests'",
                ErrorType::MissingDependency { package: Some("requests".into()) },
            ),
            (
                "error[E0432]: unresolved import `serde_yaml`",
                ErrorType::MissingDependency { package: Some("serde_yaml".into()) },
            ),
            ("CONFLICT (content): Merge conflict in src/api.rs", ErrorType::Conflict),
            ("test result: FAILED. 3 passed; 1 failed", ErrorType::ValidationFailed),
            ("AssertionError: expected 200 but got 500", ErrorType::ValidationFailed),
            ("Killed", ErrorType::Other),
        ] {
            assert_eq!(classify(out), want, "{out}");
        }
    }

    #[test]
    fn the_seeds_failure_rules() {
        let syntax = ErrorType::SyntaxError;
        assert_eq!(decide_failure(&syntax, 1, "").action, BuildAction::Retry);
        assert_eq!(decide_failure(&syntax, 2, "").action, BuildAction::Retry);
        assert_eq!(decide_failure(&syntax, 3, "x").action, BuildAction::Escalate, "retried while attempts < 3");
        let missing = ErrorType::MissingDependency { package: Some("zod".into()) };
        let d = decide_failure(&missing, 5, "");
        assert_eq!((d.action, d.package.as_deref()), (BuildAction::InstallAndRetry, Some("zod")));
        assert_eq!(decide_failure(&ErrorType::Conflict, 9, "").action, BuildAction::RebaseAndRetry);
        assert_eq!(decide_failure(&ErrorType::ValidationFailed, 1, "").action, BuildAction::Retry);
        let d = decide_failure(&ErrorType::ValidationFailed, 2, "");
        assert_eq!((d.action, d.reason.as_str()), (BuildAction::Skip, "Validation failed after 2 attempts"));
        let d = decide_failure(&ErrorType::Other, 1, "\nKilled by OOM\n");
        assert_eq!((d.action, d.reason.as_str()), (BuildAction::Escalate, "Unknown error: Killed by OOM"));
    }

    #[test]
    fn the_build_stops_on_the_seeds_four_conditions() {
        let text = "- [!] T1: a\n- [!] T2: b\n- [!] T3: c\n- [ ] T4: d\n- [ ] T5: Add the users migration\n";
        let mut l = TaskList::parse(text).unwrap();
        assert_eq!(should_continue(&l.tasks, None, 120, false), Ok(()));
        l.tasks[3].mark = Mark::Failed;
        assert!(should_continue(&l.tasks, None, 120, false).unwrap_err().starts_with("Too many failures (>3)"));
        let mut l =
            TaskList::parse("- [ ] T1: a\n- [ ] T2: Add the users migration\n  - Files: db/migrations/002_users.sql\n")
                .unwrap();
        l.tasks[1].mark = Mark::Failed;
        assert_eq!(should_continue(&l.tasks, None, 120, false), Err("Critical database task failed: T2".into()));
        let l = TaskList::parse("- [ ] T1: a\n").unwrap();
        assert_eq!(
            should_continue(&l.tasks, Some(Duration::minutes(121)), 120, false),
            Err("Time limit exceeded (2 hours)".into())
        );
        assert_eq!(
            should_continue(&l.tasks, Some(Duration::minutes(119)), 120, true),
            Err("Stop signal received".into())
        );
    }
}
