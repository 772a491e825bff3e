//! `verify run`: every check of the feature, run in the feature's working
//! tree (its worktree when it has one), each bounded in time and output;
//! the evidence ledger written from what they answered, with the identity
//! of the tree they ran on. One run of a feature at a time.

use std::collections::BTreeMap;
use std::time::Duration;

use phasegate_core::proof::{
    self, CheckDecl, CheckRun, Declared, HELD_BYTES, Judgement, LEDGER_VERSION, Ledger, RanNext, RequirementProof,
    Waiver,
};
use phasegate_store::{Feature, Project, files, process};
use serde::Serialize;

use super::sources::{Sources, sources};
use super::waive::answered_waivers;
use crate::coordination::effects::Effects;
use crate::env::{self, Env};
use crate::error::{OpResult, Refusal};
use crate::session;
use crate::witness;

/// The environment every check runs with, besides the session's: tools
/// run once instead of watching (`CI`), and Python writes no bytecode
/// next to the sources (a `__pycache__` git does not ignore would change
/// the tree the checks just proved).
pub const CHECK_ENV: [(&str, &str); 2] = [("CI", "true"), ("PYTHONDONTWRITEBYTECODE", "1")];

/// What `verify run` did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Ran {
    pub feature: String,
    /// Every requirement is proven (or waived) under the mode's rule, at
    /// the tree as it is after the run.
    pub proven: bool,
    pub summary: String,
    pub judgement: Judgement,
    pub requirements: Vec<RequirementProof>,
    pub tree: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changed_by_checks: Vec<String>,
    /// The ledger's path, from the project's root.
    pub ledger: String,
    /// How long the checks themselves ran, and the whole run.
    pub checks_ms: u64,
    pub total_ms: u64,
    #[serde(serialize_with = "phasegate_core::words::as_words")]
    pub message: RanNext,
}

/// Runs every check of feature `given` and writes its ledger.
pub fn run(env: &Env, given: Option<&str>) -> OpResult<Ran> {
    let (project, feature) = session::find(env, given)?;
    let ran = run_feature(&project, &feature, env, None)?;
    Effects::of("verify run").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(ran)
}

/// Runs every check of `feature` and writes its ledger; `timeout` bounds
/// each check instead of the settings' (the pipeline's Stop hook uses its
/// own test timeout).
pub fn run_feature(project: &Project, feature: &Feature, env: &Env, timeout: Option<Duration>) -> OpResult<Ran> {
    let started = std::time::Instant::now();
    let meta = feature.load()?;
    let sources = sources(project, feature, &meta)?;
    // An unreadable ledger is never overwritten: its waivers may be in it.
    let previous = feature.ledger()?;
    let Some(ledger_lock) = project.proof().try_ledger_lock(feature)? else {
        return Err(Refusal::VerifyRunning { feature: feature.name().to_owned() }.into());
    };
    let timeout = timeout.unwrap_or(Duration::from_secs(project.proof().verify_config()?.timeout_seconds));
    let dir = project.code_dir(&meta);
    let before = project.proof().tree(&dir, feature)?;
    let secrets = env::secret_values();
    let mut runs: Vec<(&CheckDecl, CheckRun)> = Vec::new();
    let mut checks_ms = 0;
    for check in &sources.checks {
        // The same command (and report) declared twice runs once.
        if let Some((_, done)) = runs.iter().find(|(c, _)| c.command == check.command && c.junit == check.junit) {
            let mut again = done.clone();
            again.requirements = check.requirements.clone();
            again.line = check.line;
            runs.push((check, again));
            continue;
        }
        let ran_at = env.now + chrono::Duration::from_std(started.elapsed()).unwrap_or_default();
        let run = run_check(&dir, check, timeout, &secrets, &before.id, ran_at);
        checks_ms += run.duration_ms;
        runs.push((check, run));
    }
    let after = project.proof().tree(&dir, feature)?;
    let changed_by_checks = before.changed(&after);
    let key = witness::key(env)?;
    // A waiver carries over only when the binary recorded it here.
    let mut waivers: BTreeMap<String, Waiver> = previous
        .iter()
        .flat_map(|l| l.requirements.iter())
        .filter_map(|r| r.waiver.clone().filter(|w| w.sealed(&key, feature.name(), &r.id)).map(|w| (r.id.clone(), w)))
        .collect();
    waivers.extend(answered_waivers(env, project, feature)?);
    let mut ledger = ledger_of(feature, &sources, &runs, &waivers, env, &before.id, changed_by_checks.clone());
    // The runs before this one stay, for the retrospective.
    ledger.earlier = previous.as_ref().map(|l| l.earlier_for_next(&key, feature.name())).unwrap_or_default();
    ledger.seal(&key, feature.name());
    ledger_lock.write(&ledger)?;
    drop(ledger_lock);
    let declared = Declared { requirements: &sources.requirements, checks: &sources.checks };
    let judgement = proof::judge(&ledger, declared, &key, feature.name(), &after.id, meta.mode.proof());
    let ledger_path = files::relative(&feature.evidence_path(), project.root()).display().to_string();
    let message = RanNext {
        feature: feature.name().to_owned(),
        proven: judgement.proven,
        summary: judgement.summary(),
        blocking: judgement.blocking().into_iter().map(|b| b.to_string()).collect(),
        ledger: ledger_path.clone(),
        changed: changed_by_checks.clone(),
    };
    Ok(Ran {
        feature: feature.name().to_owned(),
        proven: judgement.proven,
        summary: judgement.summary(),
        requirements: ledger.requirements,
        tree: before.id,
        changed_by_checks,
        ledger: ledger_path,
        checks_ms,
        total_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        judgement,
        message,
    })
}

/// The ledger of one run.
fn ledger_of(
    feature: &Feature,
    sources: &Sources,
    runs: &[(&CheckDecl, CheckRun)],
    waivers: &BTreeMap<String, Waiver>,
    env: &Env,
    tree: &str,
    changed_by_checks: Vec<String>,
) -> Ledger {
    let requirements = sources
        .requirements
        .iter()
        .map(|r| {
            let checks: Vec<CheckRun> =
                runs.iter().filter(|(c, _)| c.requirements.contains(&r.id)).map(|(_, run)| run.clone()).collect();
            let waiver = waivers.get(&r.id).cloned();
            RequirementProof {
                id: r.id.clone(),
                text: r.text.clone(),
                status: proof::status_of(&checks, waiver.as_ref()),
                checks,
                waiver,
            }
        })
        .collect();
    Ledger {
        version: LEDGER_VERSION,
        feature: feature.name().to_owned(),
        ran_at: env.now,
        tree: tree.to_owned(),
        changed_by_checks,
        requirements,
        earlier: Vec::new(),
    }
}

/// Runs one check and reads its JUnit report, if it writes one.
fn run_check(
    dir: &std::path::Path,
    check: &CheckDecl,
    timeout: Duration,
    secrets: &[String],
    tree: &str,
    ran_at: chrono::DateTime<chrono::Utc>,
) -> CheckRun {
    let report = check.junit.clone().or_else(|| junit_in(&check.command));
    let started = std::time::SystemTime::now();
    let mut run = CheckRun::starting(check, tree, ran_at);
    match process::run_shell_tail(&check.command, dir, &CHECK_ENV, timeout, HELD_BYTES) {
        Ok(t) => {
            run.exit_code = t.exit;
            run.timed_out = t.timed_out;
            run.duration_ms = u64::try_from(t.duration.as_millis()).unwrap_or(u64::MAX);
            run.output = proof::tail(&t.output, t.total_bytes, secrets);
            run.output_bytes = t.total_bytes;
        }
        Err(e) => run.problems.push(format!("could not start `sh -c` in {}: {e}", dir.display())),
    }
    if let Some(rel) = report {
        read_junit(dir, &rel, started, secrets, &mut run);
    }
    run
}

/// The JUnit report `rel` into `run`, when this run wrote it.
fn read_junit(dir: &std::path::Path, rel: &str, since: std::time::SystemTime, secrets: &[String], run: &mut CheckRun) {
    let path = dir.join(rel);
    let fresh = files::modified(&path).is_some_and(|m| m >= since - Duration::from_secs(1));
    match phasegate_store::proof::read_report(dir, rel) {
        Ok(None) => run.problems.push(format!("its JUnit report {rel} was not written")),
        Ok(Some(_)) if !fresh => run.problems.push(format!("its JUnit report {rel} is older than this run: not read")),
        Ok(Some(xml)) => match proof::test_cases(&xml) {
            Ok(mut r) => {
                // A test's name can carry a parameter: a token in it is
                // scrubbed like the output's.
                for case in &mut r.cases {
                    case.name = proof::scrub(&case.name, secrets);
                    case.classname = case.classname.as_deref().map(|c| proof::scrub(c, secrets));
                }
                run.tests = r.cases;
                run.tests_omitted = r.omitted;
                run.tests_omitted_failed = r.omitted_failed;
            }
            Err(why) => run.problems.push(format!("its JUnit report {rel}: {why}")),
        },
        Err(e) => run.problems.push(format!("its JUnit report {rel}: {e}")),
    }
}

/// The report a command names with pytest's `--junitxml` (or
/// `--junit-xml`), if any.
fn junit_in(command: &str) -> Option<String> {
    let words: Vec<&str> = command.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        for flag in ["--junitxml", "--junit-xml"] {
            if let Some(v) = w.strip_prefix(flag).and_then(|r| r.strip_prefix('=')) {
                return Some(v.trim_matches(['"', '\'']).to_owned()).filter(|v| !v.is_empty());
            }
            if *w == flag {
                return words.get(i + 1).map(|v| v.trim_matches(['"', '\'']).to_owned());
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pytest_junit_flag_names_the_report() {
        assert_eq!(junit_in("python -m pytest -q --junitxml=build/r1.xml tests"), Some("build/r1.xml".into()));
        assert_eq!(junit_in("pytest --junit-xml 'out.xml'"), Some("out.xml".into()));
        assert_eq!(junit_in("cargo test"), None);
    }
}
