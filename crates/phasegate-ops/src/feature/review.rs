//! The phase reviewer loop's bookkeeping: the reviewer's brief (with the code
//! change for the phases that change code) and recording its verdict.

use std::path::Path;

use phasegate_core::change::CodeChange;
use phasegate_core::feature::Step;
use phasegate_core::feature::parse_verdict;
use phasegate_core::feature::{BriefInput, CodeUnderReview, review_brief};
use phasegate_core::feature::{HistoryEntry as Entry, append_history};
use phasegate_core::feature::{Issue, Severity};
use phasegate_core::words::Command;
use phasegate_core::{Agent, Phase, Status};
use phasegate_store::project::FEATURES_DIR;
use phasegate_store::questions::PREFERENCES_PATH;
use phasegate_store::{Feature, FileWrite, Project, files, git};
use serde::Serialize;

use crate::brief;
use crate::coordination::effects::Effects;
use crate::env::Env;
use crate::error::{Invalid, OpResult, Refusal};
use crate::knowledge::inject;
use crate::proof;
use crate::session;
use crate::witness;

/// What `review brief` prints.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReviewerBrief {
    /// The agent to spawn (`subagent_type`).
    pub agent: String,
    /// For implement and verify: the whole diff, for the reviewer to read.
    pub diff_file: Option<String>,
    /// The prompt for the reviewer.
    pub prompt: String,
    /// What the pack kept and cut under the `review` budget.
    pub pack: phasegate_core::brief::Packed,
}

/// The brief for the reviewer of `phase`'s current iteration.
pub fn brief(env: &Env, given: Option<&str>, phase: Phase) -> OpResult<ReviewerBrief> {
    let (project, feature) = session::find(env, given)?;
    let Some(agent) = phase.reviewer() else {
        return Err(Refusal::NoReviewer { phase, feature: feature.name().to_owned() }.into());
    };
    project.exclude_scratch()?;
    let meta = feature.load()?;
    let code_dir = project.code_dir(&meta);
    let present = feature.artifacts();
    let record = meta.record(phase);
    let carried = meta.open_concerns_before(phase);
    let change: Option<(CodeChange, Option<String>)>;
    let why_no_change;
    let code = if phase.reviews_code() {
        match meta.review_base(phase) {
            Some(base) => {
                let c = code_change(&project, &code_dir, base)?;
                let path = write_diff(&feature, phase, &c)?;
                change = Some((c, Some(path)));
                change.as_ref().map(|(c, p)| CodeUnderReview::Change { change: c, full_diff: p.as_deref() })
            }
            None => {
                why_no_change = if project.repo().is_none() {
                    "the project is not a git repository"
                } else {
                    "no commit was recorded when the phase started"
                };
                Some(CodeUnderReview::Tree { why: why_no_change })
            }
        }
    } else {
        None
    };
    let dir = feature.dir().display().to_string();
    let code_text = code_dir.display().to_string();
    let previous_issues: &[String] = record.map_or(&[], |r| &r.open_issues);
    let mut brief = review_brief(&BriefInput {
        phase,
        feature: feature.name(),
        feature_dir: &dir,
        code_dir: &code_text,
        iteration: record.map_or(0, |r| r.iterations).saturating_add(1),
        max_iterations: meta.mode.max_iterations(),
        present,
        previous_issues,
        carried: &carried,
        code,
    });
    // The final reviewer sees the evidence ledger: whether each check ran
    // and passed at this tree is the binary's to say; whether the checks
    // test what the criteria say is the reviewer's to judge.
    if phase.facts().approval_needs_proof {
        let p = proof::proof(env, &project, &feature, &meta)?;
        brief.push_from(
            "evidence-ledger",
            phasegate_core::brief::SectionKind::Task,
            proof_section(&p),
            Some(feature.evidence_path().display().to_string()),
        );
    }
    let subject = reviewer_subject(&feature, phase, &code_dir);
    let pack = brief::finish(&project, brief, &subject).packed;
    let prompt = pack.text.clone();
    // The verdict is taken from a reviewer spawned with this very prompt.
    let iteration = record.map_or(0, |r| r.iterations).saturating_add(1);
    witness::note_brief(env, &project, &review_subject(feature.name(), phase, agent, iteration), &prompt)?;
    let diff_file = feature.scratch_file(&diff_name(phase));
    Effects::of("review brief").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(ReviewerBrief { agent: agent.qualified(), diff_file: diff_file.map(|f| f.display().to_string()), prompt, pack })
}

/// What the reviewer's brief loads: a reviewer of code checks the gotchas
/// the implementer was given.
fn reviewer_subject<'a>(feature: &'a Feature, phase: Phase, code_dir: &Path) -> brief::Subject<'a> {
    if phase.reviews_code() {
        brief::Subject {
            feature: Some(feature),
            work: inject::tasks_work(feature),
            root: Some(code_dir.to_path_buf()),
            role: brief::Role::Reviewer,
            loading: phasegate_core::brief::Loading::Eager,
        }
    } else {
        brief::Subject::feature(feature, phasegate_core::brief::Loading::Eager)
    }
}

/// The ledger as the final reviewer reads it.
fn proof_section(p: &proof::Proof) -> String {
    let mut out = format!(
        "## Evidence ledger (phasegate)\n{}. The binary ran these checks and records what they answered; your approval counts only when every requirement is proven. Judge scope and quality, and whether each check tests what its requirement's acceptance criteria say: a check that proves nothing is a blocker.\n",
        p.summary()
    );
    match &p.ledger {
        None => out.push_str(&format!("No `verify run` yet: nothing is proven (`{}`).\n", p.command)),
        Some(l) => {
            for r in &l.requirements {
                out.push_str(&format!("- {} [{}] {}\n", r.id, r.status, r.text));
                for c in &r.checks {
                    let result = c.failure().unwrap_or_else(|| "passed".to_owned());
                    out.push_str(&format!("  - `{}`: {result}\n", c.command));
                }
                if let Some(w) = &r.waiver {
                    out.push_str(&format!("  - waived by a person: {}\n", w.reason));
                }
            }
        }
    }
    out
}

fn diff_name(phase: Phase) -> String {
    format!("{phase}.diff")
}

/// phasegate's own files in `code_dir`, which are not code: the features
/// folder and the question state at the project's root (never in a
/// worktree), as path prefixes.
pub fn own_files(project: &Project, code_dir: &std::path::Path) -> Vec<String> {
    if code_dir == project.root() {
        [&format!("{FEATURES_DIR}/"), ".claude/suspended/", ".claude/questions/", PREFERENCES_PATH]
            .iter()
            .map(|d| d.to_string())
            .collect()
    } else {
        Vec::new()
    }
}

/// The change in the code directory since `base`, without phasegate's files.
pub fn code_change(project: &Project, code_dir: &std::path::Path, base: &str) -> OpResult<CodeChange> {
    Ok(git::change_since(code_dir, base, &own_files(project, code_dir))?)
}

fn write_diff(feature: &Feature, phase: Phase, change: &CodeChange) -> OpResult<String> {
    Ok(feature.write_scratch(&diff_name(phase), &change.patch)?.display().to_string())
}

/// The most of a reviewer's reply that is read.
pub const MAX_REPLY_BYTES: u64 = files::MAX_STATE_BYTES;

/// Reads a file a command was given (a regular file only); None when it
/// does not exist.
pub fn read_file(path: &std::path::Path) -> OpResult<Option<String>> {
    Ok(files::read_optional(path)?)
}

/// What a phase's reviewer is briefed for: its `iteration`.
fn review_subject(feature: &str, phase: Phase, agent: Agent, iteration: u32) -> witness::Subject<'_> {
    witness::Subject { feature, key: format!("{phase}#{iteration}"), agent: agent.qualified() }
}

/// Records one reviewer verdict: the iteration is counted, the cycle decides,
/// the history gains an entry; `.meta.json` and `.review-history.md` change
/// together or not at all. Inside Claude Code the verdict is the reviewer's
/// own reply, read from Claude Code's transcript (`verdict`, when given,
/// must be that reply); outside it, the file a person gives. An invalid
/// verdict records nothing.
pub fn record(
    env: &Env,
    given: Option<&str>,
    phase: Phase,
    verdict: Option<witness::Given>,
    changes: Option<&str>,
) -> OpResult<Step> {
    let (project, feature) = session::find(env, given)?;
    let iteration = feature.load()?.next_iteration(phase)?;
    let Some(agent) = phase.reviewer() else {
        return Err(Refusal::NoReviewer { phase, feature: feature.name().to_owned() }.into());
    };
    let subject = review_subject(feature.name(), phase, agent, iteration);
    let brief = Command::new("review brief").arg(&phase).feature(&feature.name()).to_string();
    let verdict = witness::verdict(env, &project, &subject, verdict, &brief)?;
    let mut parsed = match parse_verdict(&verdict.text) {
        Ok(p) => p,
        Err(source) => {
            // That reply is spent: the reviewer answers again.
            witness::count(env, &project, feature.name(), &verdict)?;
            return Err(Invalid::Verdict { from: verdict.source.clone(), source }.into());
        }
    };
    if phase.facts().approval_needs_proof && parsed.approved {
        // An approval counts only with the feature proven at this tree:
        // what holds it becomes the reviewer's blockers.
        let meta = feature.load()?;
        let p = proof::proof(env, &project, &feature, &meta)?;
        if !p.proven() {
            parsed.approved = false;
            for why in p.blocking() {
                parsed.issues.push(Issue {
                    severity: Severity::Blocker,
                    description: format!(
                        "not proven: {why} (phasegate; run `{verify_run}`)",
                        verify_run = Command::new("verify run").feature(&feature.name())
                    ),
                    location: Some(phasegate_core::proof::EVIDENCE_FILE.to_owned()),
                });
            }
        }
    }
    let guard = feature.lock(env.lock_timeout)?;
    let mut meta = guard.load()?;
    let step = meta.record_review(phase, &parsed, verdict.by.clone(), env.now)?;
    let changes = changes.unwrap_or(if step.iteration == 1 { "Initial version." } else { "" });
    let entry = Entry { phase, iteration: step.iteration, at: env.now, verdict: &parsed, changes };
    let existing = guard.read_history()?;
    let history = FileWrite::put(feature.history_path(), append_history(&existing, &entry));
    guard.commit_with_meta("review record", &meta, vec![history])?;
    drop(guard);
    witness::count(env, &project, feature.name(), &verdict)?;
    debug_assert_eq!(meta.status, Status::Active);
    let mut effects = Effects::of("review record").turn_to(feature.name());
    if step.decision != phasegate_core::cycle::Decision::Revise {
        effects = effects.phase_completed(feature.name(), phase);
        // What the remote was not told waits for `team sync`.
        let _ = crate::coordination::team::phase_ended(&project, env, feature.name(), phase);
    }
    effects.apply_to_log(&project, env);
    Ok(step)
}
