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

use super::list::{Mark, Task, layer};

/// Seed 004 §5.3: "Too many failures (>3)".
pub const MAX_FAILED_TASKS: usize = 3;
/// Seed 004 §5.3: "Time limit exceeded (2 hours)".
pub const DEFAULT_TIME_LIMIT_MINUTES: i64 = 120;
/// Seed 004 §5.3: a syntax error is retried while `task.attempts < 3`.
pub const SYNTAX_RETRIES: u32 = 3;
/// Seed 004 §5.3: a failed validation is retried while `task.attempts < 2`.
pub const VALIDATION_RETRIES: u32 = 2;
/// A network error or a timeout is retried while `task.attempts < 2`, then
/// escalated (ours: the seed has no such classes; both are usually gone on
/// the next run, and a second failure says they are not).
pub const TRANSIENT_RETRIES: u32 = 2;

/// The seed's classes of a failed task's error, and three of ours that it
/// calls unknown: `NETWORK` (refused, unreachable, a name not resolved),
/// `TIMEOUT` (a test, a statement or a request out of time) and `RESOURCE`
/// (the machine out of memory, disk space, file handles or processes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE", tag = "type")]
pub enum ErrorType {
    SyntaxError,
    MissingDependency { package: Option<String> },
    Conflict,
    ValidationFailed,
    Network,
    Timeout,
    Resource,
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
/// this failure included. The seed's rules, and ours for the classes it
/// lacks: a network error or a timeout is transient, retried while
/// `attempts < 2` ([`TRANSIENT_RETRIES`]) and then escalated; a machine out
/// of memory, disk space, file handles or processes is escalated at once,
/// since no retry frees them.
pub fn decide_failure(error: &ErrorType, attempts: u32, output: &str) -> FailureDecision {
    let d = |action, reason: &str| FailureDecision { action, reason: reason.to_owned(), package: None };
    let escalate = |reason: String| FailureDecision { action: BuildAction::Escalate, reason, package: None };
    let first = quote(first_line(output));
    match error {
        ErrorType::SyntaxError if attempts < SYNTAX_RETRIES => {
            d(BuildAction::Retry, "Syntax error - will retry with correction")
        }
        ErrorType::SyntaxError => escalate(format!("Syntax error after {attempts} attempts: {first}")),
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
        ErrorType::Network if attempts < TRANSIENT_RETRIES => d(BuildAction::Retry, "Network error - will retry"),
        ErrorType::Network => escalate(format!("Network error after {attempts} attempts: {first}")),
        ErrorType::Timeout if attempts < TRANSIENT_RETRIES => d(BuildAction::Retry, "Timed out - will retry"),
        ErrorType::Timeout => escalate(format!("Timed out after {attempts} attempts: {first}")),
        ErrorType::Resource => escalate(format!("The machine ran out of {}: {first}", ran_out_of(&first))),
        ErrorType::Other => escalate(format!("Unknown error: {first}")),
    }
}

fn first_line(output: &str) -> &str {
    output.lines().find(|l| !l.trim().is_empty()).unwrap_or("no output")
}

fn quote(line: &str) -> String {
    line.trim().chars().take(200).collect()
}

/// What a resource line says ran out.
fn ran_out_of(line: &str) -> &'static str {
    let l = line.to_ascii_lowercase();
    let has = |keys: &[&str]| keys.iter().any(|k| l.contains(k));
    if has(&["file watchers"]) {
        "file watchers"
    } else if has(&["no space", "enospc", "quota"]) {
        "disk space"
    } else if has(&["open files", "emfile", "enfile"]) {
        "file handles"
    } else if has(&["resource temporarily unavailable", "eagain"]) {
        "processes"
    } else {
        "memory"
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
    if let Some(t) = failed.iter().find(|t| layer(t) == Some("database")) {
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
    fn the_new_classes_serialise_like_the_seeds() {
        for (e, want) in
            [(ErrorType::Network, "NETWORK"), (ErrorType::Timeout, "TIMEOUT"), (ErrorType::Resource, "RESOURCE")]
        {
            assert_eq!(serde_json::to_value(&e).unwrap(), serde_json::json!({ "type": want }));
        }
        let missing = ErrorType::MissingDependency { package: Some("zod".into()) };
        assert_eq!(
            serde_json::to_value(&missing).unwrap(),
            serde_json::json!({ "type": "MISSING_DEPENDENCY", "package": "zod" })
        );
    }

    /// Ours, for the classes the seed lacks: a network error or a timeout is
    /// retried while attempts < 2 and then escalated; a machine out of
    /// something is escalated at once.
    #[test]
    fn network_errors_and_timeouts_are_retried_once_and_resources_escalate() {
        let refused = "Error: connect ECONNREFUSED 127.0.0.1:5432";
        let slow = "Error: Test timed out in 5000ms.";
        let oom = "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory";
        let disk = "npm ERR! nospc ENOSPC: no space left on device, write";
        let files = "OSError: [Errno 24] Too many open files: 'data/part-0412.csv'";
        for (error, attempts, output, action, reason) in [
            (ErrorType::Network, 1, refused, BuildAction::Retry, "Network error - will retry"),
            (
                ErrorType::Network,
                2,
                refused,
                BuildAction::Escalate,
                "Network error after 2 attempts: Error: connect ECONNREFUSED 127.0.0.1:5432",
            ),
            (ErrorType::Timeout, 1, slow, BuildAction::Retry, "Timed out - will retry"),
            (
                ErrorType::Timeout,
                2,
                slow,
                BuildAction::Escalate,
                "Timed out after 2 attempts: Error: Test timed out in 5000ms.",
            ),
            (
                ErrorType::Resource,
                1,
                oom,
                BuildAction::Escalate,
                "The machine ran out of memory: FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory",
            ),
            (
                ErrorType::Resource,
                1,
                disk,
                BuildAction::Escalate,
                "The machine ran out of disk space: npm ERR! nospc ENOSPC: no space left on device, write",
            ),
            (
                ErrorType::Resource,
                1,
                files,
                BuildAction::Escalate,
                "The machine ran out of file handles: OSError: [Errno 24] Too many open files: 'data/part-0412.csv'",
            ),
            (ErrorType::Resource, 1, "Killed", BuildAction::Escalate, "The machine ran out of memory: Killed"),
        ] {
            let d = decide_failure(&error, attempts, output);
            assert_eq!((&d.action, d.reason.as_str(), &d.package), (&action, reason, &None), "{error:?} {attempts}");
        }
    }

    #[test]
    fn the_build_stops_on_the_seeds_four_conditions() {
        let text = "- [!] T1: a\n- [!] T2: b\n- [!] T3: c\n- [ ] T4: d\n- [ ] T5: Add the users migration\n";
        let mut l = TaskList::parse(text).unwrap();
        assert_eq!(should_continue(&l.tasks, None, 120, false), Ok(()));
        l.tasks[3].mark = Mark::Failed;
        assert!(should_continue(&l.tasks, None, 120, false).unwrap_err().starts_with("Too many failures (>3)"));
        let mut l = TaskList::parse("- [ ] T1: a\n- [ ] T2: Add the users migration\n").unwrap();
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
