//! The evidence ledger (`docs/features/<feature>/evidence.json`): per
//! requirement, the checks that ran, what they answered and on which tree,
//! and a person's waiver; and the judgement every gate makes from it. A
//! ledger whose tree is not the tree as it is now proves nothing.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::grammar::CheckDecl;
use crate::feature::ProofRule;

/// The ledger's file name in the feature's folder.
pub const EVIDENCE_FILE: &str = "evidence.json";
/// The ledger format this binary writes.
pub const LEDGER_VERSION: u32 = 1;

/// Where a requirement stands.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum ProofStatus {
    /// Every check of it passed.
    Proven,
    /// A check of it failed (or timed out, or a test case in its JUnit
    /// report failed).
    Failed,
    /// No check names it.
    Unchecked,
    /// Not proven, and a person waived it.
    Waived,
}

crate::named!(ProofStatus, "proof status");

/// A test case a check's JUnit XML listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TestCase {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub classname: Option<String>,
    pub status: TestStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum TestStatus {
    Passed,
    Failed,
    Error,
    Skipped,
}

crate::named!(TestStatus, "test status");

impl TestStatus {
    pub fn failed(self) -> bool {
        match self {
            TestStatus::Failed | TestStatus::Error => true,
            TestStatus::Passed | TestStatus::Skipped => false,
        }
    }
}

/// One run of one check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CheckRun {
    pub command: String,
    /// Every requirement the check names.
    pub requirements: Vec<String>,
    /// Its line in the file that declares it.
    pub line: usize,
    /// None when it was killed (its time ran out, or a signal).
    pub exit_code: Option<i32>,
    pub timed_out: bool,
    pub duration_ms: u64,
    pub ran_at: DateTime<Utc>,
    /// The identity of the tree it ran on.
    pub tree: String,
    /// The last lines of its output (stdout and stderr as they came),
    /// bounded, secrets scrubbed.
    pub output: String,
    /// How much it printed in all.
    pub output_bytes: u64,
    /// The test cases of its JUnit XML, if it writes one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tests: Vec<TestCase>,
    /// Test cases left out of `tests` (a report of thousands).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tests_omitted: usize,
    /// Of those, how many failed (failed cases are kept first).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tests_omitted_failed: usize,
    /// What could not be read (a JUnit file that is missing or malformed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl CheckRun {
    /// The record of `check` about to run on `tree` at `ran_at`: no exit,
    /// no output yet (what its run fills in).
    pub fn starting(check: &CheckDecl, tree: &str, ran_at: DateTime<Utc>) -> CheckRun {
        CheckRun {
            command: check.command.clone(),
            requirements: check.requirements.clone(),
            line: check.line,
            exit_code: None,
            timed_out: false,
            duration_ms: 0,
            ran_at,
            tree: tree.to_owned(),
            output: String::new(),
            output_bytes: 0,
            tests: Vec::new(),
            tests_omitted: 0,
            tests_omitted_failed: 0,
            problems: Vec::new(),
        }
    }

    /// It exited 0 in time and no test case of its report failed.
    pub fn passed(&self) -> bool {
        self.exit_code == Some(0)
            && !self.timed_out
            && self.tests_omitted_failed == 0
            && !self.tests.iter().any(|t| t.status.failed())
    }

    /// Why it did not pass, in a few words.
    pub fn failure(&self) -> Option<String> {
        if self.passed() {
            return None;
        }
        Some(match (self.timed_out, self.exit_code) {
            (true, _) => format!("`{}` ran out of time after {} s", self.command, self.duration_ms / 1000),
            (false, None) => format!("`{}` was killed", self.command),
            (false, Some(0)) => {
                let failed: Vec<&str> =
                    self.tests.iter().filter(|t| t.status.failed()).map(|t| t.name.as_str()).take(3).collect();
                format!("`{}` exited 0 but its report lists failed tests: {}", self.command, failed.join(", "))
            }
            (false, Some(c)) => format!("`{}` exited {c}", self.command),
        })
    }
}

/// A person's decision that a requirement needs no proof, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Waiver {
    pub reason: String,
    /// When the person said yes.
    pub at: DateTime<Utc>,
    /// The question they answered.
    pub question: String,
    /// Who, where known (a Slack user id), and where they answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    pub answered_in: String,
}

/// One requirement's evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RequirementProof {
    pub id: String,
    pub text: String,
    pub status: ProofStatus,
    #[serde(default)]
    pub checks: Vec<CheckRun>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiver: Option<Waiver>,
}

/// The ledger.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Ledger {
    pub version: u32,
    pub feature: String,
    pub ran_at: DateTime<Utc>,
    /// The identity of the tree the checks ran on.
    pub tree: String,
    /// Files the checks themselves changed that git does not ignore: the
    /// tree after the run is not the tree they ran on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changed_by_checks: Vec<String>,
    pub requirements: Vec<RequirementProof>,
}

/// A requirement's status from its check runs and its waiver.
pub fn status_of(checks: &[CheckRun], waiver: Option<&Waiver>) -> ProofStatus {
    match (checks.is_empty(), checks.iter().all(CheckRun::passed), waiver) {
        (false, true, _) => ProofStatus::Proven,
        (_, _, Some(_)) => ProofStatus::Waived,
        (true, _, None) => ProofStatus::Unchecked,
        (false, false, None) => ProofStatus::Failed,
    }
}

/// What a gate reads from the ledger at the tree as it is now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Judgement {
    /// Whether the gate may pass under the mode's rule.
    pub proven: bool,
    /// The tree changed since the checks ran: no check proves anything.
    pub stale: bool,
    pub total: usize,
    /// Requirements proven at the current tree.
    pub proven_count: usize,
    pub waived: usize,
    /// Every requirement that is not proven nor waived, with why.
    pub open: Vec<Open>,
    /// What else holds the gate (hotfix: no check at all).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Open {
    pub id: String,
    pub status: ProofStatus,
    /// Why, in a few words (the failed check, "no check", "stale").
    pub why: String,
    /// Whether the mode lets the gate pass with it open (hotfix:
    /// unchecked requirements).
    pub allowed: bool,
}

impl Judgement {
    /// `3/4 proven`, `3/4 proven, 1 waived`, with `(stale)` when it is.
    pub fn summary(&self) -> String {
        let mut s = format!("{}/{} proven", self.proven_count, self.total);
        if self.waived > 0 {
            s.push_str(&format!(", {} waived", self.waived));
        }
        if self.stale {
            s.push_str(" (stale: the tree changed since `verify run`)");
        }
        s
    }

    /// The requirements that hold the gate, as `R2 (failed: `x` exited 1)`.
    pub fn blocking(&self) -> Vec<String> {
        let open = self.open.iter().filter(|o| !o.allowed).map(|o| format!("{} ({}: {})", o.id, o.status, o.why));
        open.chain(self.note.clone()).collect()
    }
}

impl Ledger {
    /// The ledger read at `current_tree` under `rule`.
    pub fn judge(&self, current_tree: &str, rule: ProofRule) -> Judgement {
        let stale = self.tree != current_tree;
        let mut j = Judgement {
            proven: true,
            stale,
            total: self.requirements.len(),
            proven_count: 0,
            waived: 0,
            open: Vec::new(),
            note: None,
        };
        for r in &self.requirements {
            let (status, why) = match (r.status, stale) {
                (ProofStatus::Proven, false) => {
                    j.proven_count += 1;
                    continue;
                }
                (ProofStatus::Waived, _) => {
                    j.waived += 1;
                    continue;
                }
                (ProofStatus::Proven, true) => (ProofStatus::Proven, "stale: the tree changed since it ran".to_owned()),
                (ProofStatus::Failed, _) => (
                    ProofStatus::Failed,
                    r.checks.iter().find_map(CheckRun::failure).unwrap_or_else(|| "a check failed".to_owned()),
                ),
                (ProofStatus::Unchecked, _) => (ProofStatus::Unchecked, "no check names it".to_owned()),
            };
            let allowed = match (rule, status) {
                (ProofRule::DeclaredChecks, ProofStatus::Unchecked) => true,
                (ProofRule::DeclaredChecks | ProofRule::EveryRequirement, _) => false,
            };
            j.proven &= allowed;
            j.open.push(Open { id: r.id.clone(), status, why, allowed });
        }
        if rule == ProofRule::DeclaredChecks && self.requirements.iter().all(|r| r.checks.is_empty()) {
            j.proven = false;
            j.note = Some("no requirement has a check: hotfix mode needs at least one".to_owned());
        }
        j
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + s, 0).unwrap()
    }

    fn run(exit: Option<i32>) -> CheckRun {
        let check = CheckDecl { line: 3, requirements: vec!["R1".into()], command: "pytest".into(), junit: None };
        CheckRun {
            exit_code: exit,
            timed_out: exit.is_none(),
            duration_ms: 1200,
            ..CheckRun::starting(&check, "tree-a", t(0))
        }
    }

    fn waiver() -> Waiver {
        Waiver { reason: "manual".into(), at: t(1), question: "q".into(), by: None, answered_in: "slack".into() }
    }

    fn req(id: &str, checks: Vec<CheckRun>, waiver: Option<Waiver>) -> RequirementProof {
        RequirementProof {
            id: id.into(),
            text: "x".into(),
            status: status_of(&checks, waiver.as_ref()),
            checks,
            waiver,
        }
    }

    #[test]
    fn statuses_from_checks_and_waivers() {
        assert_eq!(status_of(&[run(Some(0))], None), ProofStatus::Proven);
        assert_eq!(status_of(&[run(Some(0)), run(Some(1))], None), ProofStatus::Failed);
        assert_eq!(status_of(&[run(None)], None), ProofStatus::Failed);
        assert_eq!(status_of(&[], None), ProofStatus::Unchecked);
        assert_eq!(status_of(&[run(Some(1))], Some(&waiver())), ProofStatus::Waived);
        assert_eq!(status_of(&[run(Some(0))], Some(&waiver())), ProofStatus::Proven, "proof beats a waiver");
        let mut junit_failed = run(Some(0));
        junit_failed.tests.push(TestCase {
            name: "t1".into(),
            classname: None,
            status: TestStatus::Failed,
            time_ms: None,
        });
        assert_eq!(status_of(&[junit_failed.clone()], None), ProofStatus::Failed);
        assert!(junit_failed.failure().unwrap().contains("exited 0 but its report lists failed tests: t1"));
        crate::names::assert_serde_names::<ProofStatus>();
    }

    #[test]
    fn a_stale_ledger_proves_nothing_and_hotfix_lets_unchecked_pass() {
        let ledger = Ledger {
            version: LEDGER_VERSION,
            feature: "001-a".into(),
            ran_at: t(0),
            tree: "tree-a".into(),
            changed_by_checks: Vec::new(),
            requirements: vec![
                req("R1", vec![run(Some(0))], None),
                req("R2", vec![], None),
                req("R3", vec![run(Some(1))], Some(waiver())),
            ],
        };
        let j = ledger.judge("tree-a", ProofRule::EveryRequirement);
        assert_eq!((j.proven, j.proven_count, j.waived, j.summary().as_str()), (false, 1, 1, "1/3 proven, 1 waived"));
        assert_eq!(j.blocking(), ["R2 (unchecked: no check names it)"]);
        assert!(ledger.judge("tree-a", ProofRule::DeclaredChecks).proven, "hotfix: unchecked is allowed");
        let stale = ledger.judge("tree-b", ProofRule::DeclaredChecks);
        assert!(!stale.proven && stale.stale && stale.proven_count == 0, "{stale:?}");
        assert!(stale.summary().ends_with("(stale: the tree changed since `verify run`)"));
        assert_eq!(stale.blocking(), ["R1 (proven: stale: the tree changed since it ran)"]);
    }

    #[test]
    fn a_ledger_is_what_its_schema_says() {
        let mut checked = run(Some(0));
        checked.tests.push(TestCase {
            name: "t".into(),
            classname: Some("c".into()),
            status: TestStatus::Passed,
            time_ms: Some(3),
        });
        let ledger = Ledger {
            version: LEDGER_VERSION,
            feature: "001-a".into(),
            ran_at: t(0),
            tree: "tree-a".into(),
            changed_by_checks: vec!["x.pyc".into()],
            requirements: vec![req("R1", vec![checked], None), req("R2", vec![run(None)], Some(waiver()))],
        };
        let value = serde_json::to_value(&ledger).unwrap();
        crate::schema::Schema::Evidence.check(&value).unwrap();
        assert_eq!(serde_json::from_value::<Ledger>(value).unwrap(), ledger);
    }
}
