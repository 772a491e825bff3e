//! The outcome of the plan's test commands (seed 001, test_plan): every
//! command exits 0, no output matches the failure pattern, and the output
//! matches the success pattern when one is given. Patterns are regular
//! expressions.

use regex::Regex;

use super::files::TestPlan;

/// The outcome of running the plan's test commands, then proving its
/// acceptance criteria.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TestOutcome {
    Passed,
    /// A test command failed, or its output says so.
    Failed {
        summary: String,
    },
    /// The test commands pass, but the acceptance criteria are not proven
    /// (the plan's `test_plan.checks`, run into the evidence ledger).
    NotProven {
        summary: String,
    },
}

impl TestOutcome {
    /// What holds the pipeline, in one message; None when it passed.
    pub fn problem(&self) -> Option<String> {
        match self {
            TestOutcome::Passed => None,
            TestOutcome::Failed { summary } => Some(format!("the plan's tests fail:\n{summary}")),
            TestOutcome::NotProven { summary } => {
                Some(format!("the plan's tests pass, but its acceptance criteria are not proven: {summary}"))
            }
        }
    }
}

/// One command's run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandRun {
    pub command: String,
    /// None when it was killed (timeout or signal).
    pub exit: Option<i32>,
    pub timed_out: bool,
    /// stdout and stderr, interleaved as captured.
    pub output: String,
}

const TAIL_LINES: usize = 15;

pub fn judge(plan: &TestPlan, runs: &[CommandRun]) -> TestOutcome {
    let pattern = |p: &Option<String>| -> Result<Option<Regex>, String> {
        match p.as_deref().filter(|p| !p.is_empty()) {
            None => Ok(None),
            Some(p) => {
                Regex::new(p).map(Some).map_err(|e| format!("the pattern `{p}` is not a valid regular expression: {e}"))
            }
        }
    };
    let (success, failure) = match (pattern(&plan.success_pattern), pattern(&plan.failure_pattern)) {
        (Ok(s), Ok(f)) => (s, f),
        (Err(e), _) | (_, Err(e)) => return TestOutcome::Failed { summary: e },
    };
    for run in runs {
        let why = if run.timed_out {
            Some("timed out".to_owned())
        } else if run.exit != Some(0) {
            Some(run.exit.map_or("was killed".to_owned(), |c| format!("exited {c}")))
        } else {
            failure
                .as_ref()
                .filter(|f| f.is_match(&run.output))
                .map(|f| format!("printed the failure pattern `{}`", f.as_str()))
        };
        if let Some(why) = why {
            return TestOutcome::Failed {
                summary: format!("`{}` {why}; last lines:\n{}", run.command, tail(&run.output)),
            };
        }
    }
    if let Some(s) = success {
        let all: String = runs.iter().map(|r| r.output.as_str()).collect::<Vec<_>>().join("\n");
        if !s.is_match(&all) {
            return TestOutcome::Failed {
                summary: format!(
                    "no test output matches the success pattern `{}`; last lines:\n{}",
                    s.as_str(),
                    tail(&all)
                ),
            };
        }
    }
    TestOutcome::Passed
}

fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.len().saturating_sub(TAIL_LINES);
    let mut out = lines[start..].join("\n");
    if out.len() > 2000 {
        let cut = out.len() - 2000;
        let cut = (cut..out.len()).find(|i| out.is_char_boundary(*i)).unwrap_or(out.len());
        out = format!("…{}", &out[cut..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(success: Option<&str>, failure: Option<&str>) -> TestPlan {
        TestPlan {
            commands: vec!["t".into()],
            success_pattern: success.map(Into::into),
            failure_pattern: failure.map(Into::into),
            checks: Vec::new(),
        }
    }

    fn run(exit: i32, output: &str) -> CommandRun {
        CommandRun { command: "npm test".into(), exit: Some(exit), timed_out: false, output: output.into() }
    }

    #[test]
    fn exit_codes_and_patterns() {
        assert_eq!(judge(&plan(None, None), &[run(0, "ok")]), TestOutcome::Passed);
        let TestOutcome::Failed { summary } = judge(&plan(None, None), &[run(1, "a\nb\nboom")]) else { panic!() };
        assert!(summary.starts_with("`npm test` exited 1; last lines:\na\nb\nboom"), "{summary}");
        assert!(matches!(judge(&plan(None, Some("FAILED")), &[run(0, "1 FAILED")]), TestOutcome::Failed { .. }));
        assert!(matches!(judge(&plan(Some("All tests passed"), None), &[run(0, "done")]), TestOutcome::Failed { .. }));
        assert_eq!(
            judge(&plan(Some("All tests passed"), Some("FAILED")), &[run(0, "All tests passed")]),
            TestOutcome::Passed
        );
        let timed = CommandRun { timed_out: true, exit: None, ..run(0, "") };
        assert!(
            matches!(judge(&plan(None, None), &[timed]), TestOutcome::Failed { summary } if summary.contains("timed out"))
        );
        assert!(
            matches!(judge(&plan(Some("("), None), &[run(0, "")]), TestOutcome::Failed { summary } if summary.contains("not a valid regular expression"))
        );
    }
}
