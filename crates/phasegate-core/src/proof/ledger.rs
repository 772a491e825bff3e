//! The evidence ledger (`docs/features/<feature>/evidence.json`): per
//! requirement, the checks that ran, what they answered and on which tree,
//! and a person's waiver; and the judgement every gate makes from it. A
//! ledger whose tree is not the tree as it is now proves nothing.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::grammar::{CheckDecl, Requirement};
use crate::feature::ProofRule;
use crate::seal::{SealKey, SealKind};

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
    /// A check names it, but no run of that check is on record (declared
    /// or changed since the last `verify run`, or its record was not
    /// written by `verify run` here).
    NotRun,
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
    /// A check with a problem proves nothing: its report says whether its
    /// tests passed, and it could not be read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
    /// `verify run`'s seal over this record and its feature
    /// (`phasegate_core::seal`): a record it did not write here has none
    /// that verifies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seal: Option<String>,
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
            seal: None,
        }
    }

    /// It exited 0 in time, its report (if it names one) was read, and no
    /// test case of it failed.
    pub fn passed(&self) -> bool {
        self.exit_code == Some(0)
            && !self.timed_out
            && self.problems.is_empty()
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
            (false, Some(0)) if !self.problems.is_empty() => {
                format!("`{}` exited 0 but proves nothing: {}", self.command, self.problems.join("; "))
            }
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
    /// The binary's seal over this waiver, its requirement and its feature,
    /// made from the person's recorded answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seal: Option<String>,
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
    /// The runs before this one, oldest first, at most [`EARLIER_RUNS`]:
    /// what verify had to fix is what the retrospective learns from. They
    /// prove nothing; no gate reads them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier: Vec<EarlierRun>,
}

/// How many earlier runs a ledger keeps.
pub const EARLIER_RUNS: usize = 20;
/// How much of a failed check's output an earlier run keeps.
const EARLIER_OUTPUT_BYTES: usize = 1_000;

/// An earlier `verify run`: when, on which tree, and the checks that
/// failed in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EarlierRun {
    pub ran_at: DateTime<Utc>,
    pub tree: String,
    /// How many checks ran.
    pub checks: usize,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<FailedCheck>,
}

/// A check that failed in an earlier run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FailedCheck {
    pub command: String,
    pub requirements: Vec<String>,
    /// What went wrong, in a line: `` `pytest` exited 1 ``.
    pub failure: String,
    /// The last of its output, shorter than the run's own record.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub output: String,
}

impl FailedCheck {
    /// `run`, when it failed, with the last of its output.
    pub fn of(run: &CheckRun) -> Option<FailedCheck> {
        let failure = run.failure()?;
        let mut output = run.output.clone();
        if output.len() > EARLIER_OUTPUT_BYTES {
            let mut at = output.len() - EARLIER_OUTPUT_BYTES;
            while !output.is_char_boundary(at) {
                at += 1;
            }
            output = output[at..].to_owned();
        }
        Some(FailedCheck { command: run.command.clone(), requirements: run.requirements.clone(), failure, output })
    }
}

impl Ledger {
    /// The earlier runs the next run's ledger keeps: these, then this run
    /// itself (only the records `verify run` wrote here, sealed for
    /// `feature`), the oldest dropped beyond [`EARLIER_RUNS`].
    pub fn earlier_for_next(&self, key: &SealKey, feature: &str) -> Vec<EarlierRun> {
        let mut seen: Vec<&CheckRun> = Vec::new();
        for c in self.requirements.iter().flat_map(|r| &r.checks) {
            if !seen.contains(&c) && c.sealed(key, feature) {
                seen.push(c);
            }
        }
        let failed = seen.iter().filter_map(|c| FailedCheck::of(c)).collect();
        let mut out = self.earlier.clone();
        if !seen.is_empty() {
            out.push(EarlierRun { ran_at: self.ran_at, tree: self.tree.clone(), checks: seen.len(), failed });
        }
        let drop = out.len().saturating_sub(EARLIER_RUNS);
        out.drain(..drop);
        out
    }
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

/// What a check run's seal is over: its feature and the record.
#[derive(Serialize)]
struct SealedCheck<'a> {
    feature: &'a str,
    run: &'a CheckRun,
}

/// What a waiver's seal is over: its feature, its requirement and the waiver.
#[derive(Serialize)]
struct SealedWaiver<'a> {
    feature: &'a str,
    requirement: &'a str,
    waiver: &'a Waiver,
}

impl CheckRun {
    /// Seals the record as `feature`'s.
    pub fn seal(&mut self, key: &SealKey, feature: &str) {
        self.seal = None;
        self.seal = Some(key.seal_json(SealKind::Check, &SealedCheck { feature, run: self }));
    }

    /// Whether `verify run` wrote this record here, for `feature`.
    pub fn sealed(&self, key: &SealKey, feature: &str) -> bool {
        let Some(seal) = &self.seal else { return false };
        let bare = CheckRun { seal: None, ..self.clone() };
        key.verify_json(SealKind::Check, &SealedCheck { feature, run: &bare }, seal)
    }
}

impl Waiver {
    /// Seals the waiver as `feature`'s waiver of `requirement`.
    pub fn seal(&mut self, key: &SealKey, feature: &str, requirement: &str) {
        self.seal = None;
        self.seal = Some(key.seal_json(SealKind::Waiver, &SealedWaiver { feature, requirement, waiver: self }));
    }

    /// Whether the binary recorded this waiver here, from a person's answer.
    pub fn sealed(&self, key: &SealKey, feature: &str, requirement: &str) -> bool {
        let Some(seal) = &self.seal else { return false };
        let bare = Waiver { seal: None, ..self.clone() };
        key.verify_json(SealKind::Waiver, &SealedWaiver { feature, requirement, waiver: &bare }, seal)
    }
}

impl Ledger {
    /// Seals every check record and waiver as `feature`'s (what `verify
    /// run` and `verify waive` do before they write it).
    pub fn seal(&mut self, key: &SealKey, feature: &str) {
        for r in &mut self.requirements {
            for c in &mut r.checks {
                c.seal(key, feature);
            }
            if let Some(w) = &mut r.waiver {
                w.seal(key, feature, &r.id);
            }
        }
    }
}

/// What a feature must prove now: its requirements and the checks declared
/// for them, as their files say at the moment a gate reads them.
#[derive(Debug, Clone, Copy)]
pub struct Declared<'a> {
    pub requirements: &'a [Requirement],
    pub checks: &'a [CheckDecl],
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
    /// Records in the ledger `verify run` did not write here (edited by
    /// hand, or copied from another clone): they prove nothing.
    #[serde(skip_serializing_if = "is_zero")]
    pub not_recorded: usize,
    /// Each requirement the spec has now, with its derived status.
    pub statuses: Vec<RequirementStatus>,
}

/// One requirement's status, as a gate derives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RequirementStatus {
    pub id: String,
    pub text: String,
    pub status: ProofStatus,
    /// Not proven, and the record it had ran on another tree.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stale: bool,
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
    /// `3/4 proven`, `3/4 proven, 1 waived`, `0/3 proven, 2 stale`: counts
    /// only, in no parentheses, so that a sentence can hold it in its own
    /// (what holds the gate, and why, is `blocking`).
    pub fn summary(&self) -> String {
        let mut s = format!("{}/{} proven", self.proven_count, self.total);
        if self.waived > 0 {
            s.push_str(&format!(", {} waived", self.waived));
        }
        if self.not_recorded > 0 {
            s.push_str(&format!(
                ", {} record{} not written by `verify run` here",
                self.not_recorded,
                if self.not_recorded == 1 { "" } else { "s" }
            ));
        }
        if self.stale {
            match self.stale_ids().len() {
                0 => s.push_str(", the code changed since `verify run`"),
                n => s.push_str(&format!(", {n} stale")),
            }
        }
        s
    }

    /// The requirements that were proven at their check's run, but on
    /// another tree than this one.
    pub fn stale_ids(&self) -> Vec<&str> {
        self.statuses.iter().filter(|r| r.stale).map(|r| r.id.as_str()).collect()
    }

    /// The proof holds only because the code changed since the checks ran:
    /// every requirement that holds the gate was proven before, and
    /// running them again (`verify run`) is all it takes.
    pub fn only_stale(&self) -> bool {
        self.note.is_none()
            && self.open.iter().filter(|o| !o.allowed).all(|o| self.stale_ids().contains(&o.id.as_str()))
            && !self.stale_ids().is_empty()
    }

    /// What holds the gate, each in a few words: `R2 (failed: `x` exited
    /// 1)`, and the stale ones together: `R1, R3 stale (proven before the
    /// code changed)`.
    pub fn blocking(&self) -> Vec<String> {
        let stale = self.stale_ids();
        let mut out: Vec<String> = self
            .open
            .iter()
            .filter(|o| !o.allowed && !stale.contains(&o.id.as_str()))
            .map(|o| format!("{} ({}: {})", o.id, o.status, o.why))
            .collect();
        if !stale.is_empty() {
            out.push(format!("{} stale (proven before the code changed)", stale.join(", ")));
        }
        out.extend(self.note.clone());
        out
    }
}

/// Where a gate stands on a feature's proof now, derived, never read: each
/// requirement the spec has now, with the checks declared for it now, and
/// the records of those checks that `verify run` wrote here (their seals
/// verify with `key`), at the tree as it is (`current_tree`). A status,
/// a requirement or a record the ledger holds otherwise proves nothing.
pub fn judge(
    ledger: &Ledger,
    declared: Declared<'_>,
    key: &SealKey,
    feature: &str,
    current_tree: &str,
    rule: ProofRule,
) -> Judgement {
    let (records, not_recorded) = sealed_records(ledger, key, feature);
    let mut j = Judgement {
        proven: true,
        // The tree changed since the last run (a record that still
        // matches a declared check says so per requirement).
        stale: ledger.tree != current_tree,
        total: declared.requirements.len(),
        proven_count: 0,
        waived: 0,
        open: Vec::new(),
        note: None,
        not_recorded,
        statuses: Vec::new(),
    };
    let mut any_check = false;
    for r in declared.requirements {
        let decls: Vec<&CheckDecl> = declared.checks.iter().filter(|c| c.requirements.contains(&r.id)).collect();
        any_check |= !decls.is_empty();
        let failure = cause(&decls, &records, not_recorded, current_tree, &mut j.stale);
        let row = |status, stale| RequirementStatus { id: r.id.clone(), text: r.text.clone(), status, stale };
        let Some((status, why)) = failure else {
            j.proven_count += 1;
            j.statuses.push(row(ProofStatus::Proven, false));
            continue;
        };
        let waiver = ledger
            .requirements
            .iter()
            .find(|p| p.id == r.id)
            .and_then(|p| p.waiver.as_ref())
            .filter(|w| w.sealed(key, feature, &r.id));
        if waiver.is_some() {
            j.waived += 1;
            j.statuses.push(row(ProofStatus::Waived, false));
            continue;
        }
        let stale = status == ProofStatus::Proven;
        j.statuses.push(row(if stale { ProofStatus::NotRun } else { status }, stale));
        let allowed = match (rule, status) {
            (ProofRule::DeclaredChecks, ProofStatus::Unchecked) => true,
            (ProofRule::DeclaredChecks | ProofRule::EveryRequirement, _) => false,
        };
        j.proven &= allowed;
        j.open.push(Open { id: r.id.clone(), status, why, allowed });
    }
    if rule == ProofRule::DeclaredChecks && !any_check {
        j.proven = false;
        j.note = Some("no requirement has a check: hotfix mode needs at least one".to_owned());
    }
    if declared.requirements.is_empty() {
        j.proven = false;
        j.note = Some("the spec has no numbered requirements: nothing is proven".to_owned());
    }
    j
}

/// The records `verify run` wrote here (their seals verify with `key`),
/// each once (a check naming several requirements is kept under each),
/// and how many records are not such.
fn sealed_records<'a>(ledger: &'a Ledger, key: &SealKey, feature: &str) -> (Vec<&'a CheckRun>, usize) {
    // A check naming several requirements is kept under each: one record.
    let mut seen: Vec<&CheckRun> = Vec::new();
    let mut records: Vec<&CheckRun> = Vec::new();
    let mut not_recorded = 0;
    for c in ledger.requirements.iter().flat_map(|r| &r.checks) {
        if seen.contains(&c) {
            continue;
        }
        seen.push(c);
        if c.sealed(key, feature) {
            records.push(c);
        } else {
            not_recorded += 1;
        }
    }
    (records, not_recorded)
}

fn same_set(a: &[String], b: &[String]) -> bool {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort();
    b.sort();
    a == b
}

/// Why a requirement with the declared checks `decls` is not proven at
/// `current_tree` (None: proven); a record from another tree marks the
/// judgement `stale`.
fn cause(
    decls: &[&CheckDecl],
    records: &[&CheckRun],
    not_recorded: usize,
    current_tree: &str,
    stale: &mut bool,
) -> Option<(ProofStatus, String)> {
    let mut failure: Option<(ProofStatus, String)> = None;
    for d in decls {
        let found = records.iter().find(|c| c.command == d.command && same_set(&c.requirements, &d.requirements));
        let why = match found {
            None if not_recorded > 0 => Some((
                ProofStatus::NotRun,
                format!(
                    "`{}` has no record `verify run` wrote here: the ledger was edited by hand or copied",
                    d.command
                ),
            )),
            None => Some((ProofStatus::NotRun, format!("`{}` has not run since it was declared", d.command))),
            // Run on another tree: what passed there is stale, what
            // failed there failed (and proves nothing here either).
            Some(c) if c.tree != current_tree => {
                *stale = true;
                match c.failure() {
                    Some(f) => Some((ProofStatus::Failed, format!("{f} at the last run"))),
                    None => Some((ProofStatus::Proven, "stale: the code changed since it ran".to_owned())),
                }
            }
            Some(c) => c.failure().map(|f| (ProofStatus::Failed, f)),
        };
        if let Some(w) = why {
            // The first cause that is the most telling: a failure, then
            // staleness, then a check not run.
            let rank = |s: ProofStatus| match s {
                ProofStatus::Failed => 3,
                ProofStatus::Proven => 2,
                ProofStatus::NotRun | ProofStatus::Unchecked | ProofStatus::Waived => 1,
            };
            if failure.as_ref().is_none_or(|f| rank(w.0) > rank(f.0)) {
                failure = Some(w);
            }
        }
    }
    if decls.is_empty() {
        failure = Some((ProofStatus::Unchecked, "no check names it".to_owned()));
    }
    failure
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seal::KEY_BYTES;

    const F: &str = "001-a";

    fn t(s: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + s, 0).unwrap()
    }

    fn key() -> SealKey {
        SealKey::from_bytes(&[7; KEY_BYTES]).unwrap()
    }

    fn decl(reqs: &[&str], command: &str) -> CheckDecl {
        CheckDecl {
            line: 3,
            requirements: reqs.iter().map(|r| r.to_string()).collect(),
            command: command.into(),
            junit: None,
        }
    }

    fn run_of(d: &CheckDecl, exit: Option<i32>) -> CheckRun {
        CheckRun {
            exit_code: exit,
            timed_out: exit.is_none(),
            duration_ms: 1200,
            ..CheckRun::starting(d, "tree-a", t(0))
        }
    }

    fn run(exit: Option<i32>) -> CheckRun {
        run_of(&decl(&["R1"], "pytest"), exit)
    }

    fn waiver() -> Waiver {
        Waiver {
            reason: "manual".into(),
            at: t(1),
            question: "q".into(),
            by: None,
            answered_in: "slack".into(),
            seal: None,
        }
    }

    fn requirement(id: &str) -> Requirement {
        Requirement { id: id.into(), line: 1, text: "x".into(), criteria: Vec::new() }
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

    fn ledger(requirements: Vec<RequirementProof>) -> Ledger {
        let mut l = Ledger {
            version: LEDGER_VERSION,
            feature: F.into(),
            ran_at: t(0),
            tree: "tree-a".into(),
            changed_by_checks: Vec::new(),
            requirements,
            earlier: Vec::new(),
        };
        l.seal(&key(), F);
        l
    }

    /// R1 checked by `pytest`, R2 by nothing, R3 by `jest`.
    fn declared() -> (Vec<Requirement>, Vec<CheckDecl>) {
        (
            vec![requirement("R1"), requirement("R2"), requirement("R3")],
            vec![decl(&["R1"], "pytest"), decl(&["R3"], "jest")],
        )
    }

    fn judged(l: &Ledger, tree: &str, rule: ProofRule) -> Judgement {
        let (r, c) = declared();
        judge(l, Declared { requirements: &r, checks: &c }, &key(), F, tree, rule)
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

    /// Regression: a check that exited 0 while the JUnit report it names
    /// could not be read (never written, cut short, too large) passed.
    #[test]
    fn a_check_whose_report_cannot_be_read_proves_nothing() {
        let mut r = run(Some(0));
        r.problems.push("its JUnit report out.xml was not written".into());
        assert!(!r.passed());
        assert!(r.failure().unwrap().contains("exited 0 but proves nothing: its JUnit report out.xml was not written"));
    }

    #[test]
    fn the_judgement_is_derived_from_what_is_declared_now_and_what_ran_at_this_tree() {
        let jest = decl(&["R3"], "jest");
        let l = ledger(vec![
            req("R1", vec![run(Some(0))], None),
            req("R2", vec![], None),
            req("R3", vec![run_of(&jest, Some(1))], None),
        ]);
        let j = judged(&l, "tree-a", ProofRule::EveryRequirement);
        assert_eq!((j.proven, j.proven_count, j.total, j.not_recorded), (false, 1, 3, 0));
        assert_eq!(j.blocking(), ["R2 (unchecked: no check names it)", "R3 (failed: `jest` exited 1)"]);
        let hot = judged(&l, "tree-a", ProofRule::DeclaredChecks);
        assert_eq!(hot.blocking(), ["R3 (failed: `jest` exited 1)"], "hotfix: unchecked is allowed, a failure is not");
        let stale = judged(&l, "tree-b", ProofRule::DeclaredChecks);
        assert!(!stale.proven && stale.stale && stale.proven_count == 0, "{stale:?}");
        assert_eq!(stale.summary(), "0/3 proven, 1 stale");
        assert_eq!(
            stale.blocking(),
            ["R3 (failed: `jest` exited 1 at the last run)", "R1 stale (proven before the code changed)"]
        );
        assert!(!stale.only_stale(), "R3 failed: running the checks again is not all it takes");
        // Only R1 declared: running the checks again is all it takes.
        let (r, c) = declared();
        let only_r1 = judge(
            &l,
            Declared { requirements: &r[..1], checks: &c[..1] },
            &key(),
            F,
            "tree-b",
            ProofRule::EveryRequirement,
        );
        assert!(only_r1.only_stale() && !only_r1.proven, "{only_r1:?}");
        assert_eq!(only_r1.statuses[0].status, ProofStatus::NotRun);
        assert!(only_r1.statuses[0].stale);
    }

    /// Regression: `finish` trusted each requirement's `status` over the
    /// rest of the ledger: `proven` beside a check that exited 1.
    #[test]
    fn a_status_edited_to_proven_beside_a_failed_check_is_not_believed() {
        let mut l = ledger(vec![req("R1", vec![run(Some(1))], None)]);
        l.requirements[0].status = ProofStatus::Proven;
        let r = [requirement("R1")];
        let c = [decl(&["R1"], "pytest")];
        let j = judge(&l, Declared { requirements: &r, checks: &c }, &key(), F, "tree-a", ProofRule::EveryRequirement);
        assert!(!j.proven);
        assert_eq!(j.blocking(), ["R1 (failed: `pytest` exited 1)"]);
    }

    /// Regression: a ledger that leaves out one of the spec's requirements
    /// (or all of them) was proven.
    #[test]
    fn a_ledger_that_leaves_a_requirement_out_does_not_prove_it() {
        let l = ledger(vec![req("R1", vec![run(Some(0))], None)]);
        let r = [requirement("R1"), requirement("R2")];
        let c = [decl(&["R1"], "pytest"), decl(&["R2"], "cargo test")];
        let j = judge(&l, Declared { requirements: &r, checks: &c }, &key(), F, "tree-a", ProofRule::EveryRequirement);
        assert_eq!(j.blocking(), ["R2 (not-run: `cargo test` has not run since it was declared)"]);
        let empty = ledger(Vec::new());
        let j =
            judge(&empty, Declared { requirements: &r, checks: &c }, &key(), F, "tree-a", ProofRule::EveryRequirement);
        assert_eq!((j.proven, j.proven_count, j.total), (false, 0, 2));
        let none =
            judge(&l, Declared { requirements: &[], checks: &[] }, &key(), F, "tree-a", ProofRule::EveryRequirement);
        assert!(!none.proven, "no requirement at all proves nothing");
    }

    /// Regression: a check changed in tasks.md after the run still read as
    /// proven by the old command's record.
    #[test]
    fn a_check_changed_after_the_run_has_not_run() {
        let l = ledger(vec![req("R1", vec![run(Some(0))], None)]);
        let r = [requirement("R1")];
        let c = [decl(&["R1"], "false")];
        let j = judge(&l, Declared { requirements: &r, checks: &c }, &key(), F, "tree-a", ProofRule::EveryRequirement);
        assert_eq!(j.blocking(), ["R1 (not-run: `false` has not run since it was declared)"]);
    }

    /// Regression: an `evidence.json` rewritten by hand, or copied from
    /// another clone, was accepted.
    #[test]
    fn records_verify_run_did_not_write_here_prove_nothing() {
        let r = [requirement("R1")];
        let c = [decl(&["R1"], "pytest")];
        let declared = Declared { requirements: &r, checks: &c };
        // Edited: a failure turned into exit 0, seal left as it was.
        let mut edited = ledger(vec![req("R1", vec![run(Some(1))], None)]);
        edited.requirements[0].checks[0].exit_code = Some(0);
        let j = judge(&edited, declared, &key(), F, "tree-a", ProofRule::EveryRequirement);
        assert_eq!((j.proven, j.not_recorded), (false, 1));
        assert!(j.blocking()[0].contains("has no record `verify run` wrote here"), "{:?}", j.blocking());
        assert!(j.summary().contains("1 record not written by `verify run` here"), "{}", j.summary());
        // Written by hand with no seal at all.
        let mut forged = ledger(vec![req("R1", vec![run(Some(0))], None)]);
        forged.requirements[0].checks[0].seal = None;
        assert!(!judge(&forged, declared, &key(), F, "tree-a", ProofRule::EveryRequirement).proven);
        // Sealed by another key (another machine), or for another feature.
        let other = SealKey::from_bytes(&[8; KEY_BYTES]).unwrap();
        let good = ledger(vec![req("R1", vec![run(Some(0))], None)]);
        assert!(judge(&good, declared, &key(), F, "tree-a", ProofRule::EveryRequirement).proven);
        assert!(!judge(&good, declared, &other, F, "tree-a", ProofRule::EveryRequirement).proven);
        assert!(!judge(&good, declared, &key(), "002-b", "tree-a", ProofRule::EveryRequirement).proven);
    }

    /// Regression: `waived` was believed with no waiver, or with a waiver
    /// nobody recorded.
    #[test]
    fn only_a_waiver_the_binary_recorded_waives() {
        let r = [requirement("R1")];
        let c = [decl(&["R1"], "pytest")];
        let declared = Declared { requirements: &r, checks: &c };
        let mut l = ledger(vec![req("R1", vec![run(Some(1))], Some(waiver()))]);
        let j = judge(&l, declared, &key(), F, "tree-a", ProofRule::EveryRequirement);
        assert!(j.proven && j.waived == 1, "a recorded waiver holds: {j:?}");
        l.requirements[0].waiver.as_mut().unwrap().reason = "edited".into();
        assert!(!judge(&l, declared, &key(), F, "tree-a", ProofRule::EveryRequirement).proven, "an edited waiver");
        let mut bare = ledger(vec![req("R1", vec![run(Some(1))], None)]);
        bare.requirements[0].status = ProofStatus::Waived;
        assert!(
            !judge(&bare, declared, &key(), F, "tree-a", ProofRule::EveryRequirement).proven,
            "waived with no waiver"
        );
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
        let mut l = ledger(vec![req("R1", vec![checked], None), req("R2", vec![run(None)], Some(waiver()))]);
        l.earlier = l.earlier_for_next(&key(), F);
        let value = serde_json::to_value(&l).unwrap();
        crate::schema::Schema::Evidence.check(&value).unwrap();
        assert_eq!(serde_json::from_value::<Ledger>(value).unwrap(), l);
    }

    #[test]
    fn a_ledger_keeps_what_failed_in_its_earlier_runs_and_at_most_twenty() {
        let mut failing = run(Some(1));
        failing.output = format!("{}\nassert failed", "x".repeat(5_000));
        let mut l = ledger(vec![req("R1", vec![failing], None), req("R2", vec![run(Some(0))], None)]);
        let earlier = l.earlier_for_next(&key(), F);
        assert_eq!(earlier.len(), 1);
        assert_eq!((earlier[0].checks, earlier[0].failed.len()), (2, 1));
        let failed = &earlier[0].failed[0];
        assert_eq!((failed.command.as_str(), failed.failure.as_str()), ("pytest", "`pytest` exited 1"));
        assert!(failed.output.ends_with("assert failed") && failed.output.len() <= 1_000, "{}", failed.output.len());
        for _ in 0..30 {
            l.earlier = l.earlier_for_next(&key(), F);
        }
        assert_eq!(l.earlier.len(), EARLIER_RUNS);
        // A record `verify run` did not write here is not kept.
        let forged = ledger(vec![req("R1", vec![run(Some(1))], None)]);
        let mut forged_unsealed = forged.clone();
        forged_unsealed.requirements[0].checks[0].seal = None;
        assert!(forged_unsealed.earlier_for_next(&key(), F).is_empty());
    }
}
