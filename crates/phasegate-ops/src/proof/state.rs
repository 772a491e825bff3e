//! Where a feature's proof stands now: its ledger read at the tree as it
//! is, under its mode's rule. What `finish`, the verify phase's approval,
//! the pipeline's completion, `status` and the reviewer's brief read.

use chrono::{DateTime, Utc};
use phasegate_core::Mode;
use phasegate_core::feature::{Meta, ProofRule, ProofStanding};
use phasegate_core::proof::{Declared, Judgement, Ledger, ProofStatus, judge};
use phasegate_core::words::Command;
use phasegate_store::{Feature, Project};
use serde::Serialize;

use crate::coordination::effects::Effects;
use crate::env::Env;
use crate::error::OpResult;
use crate::session;
use crate::witness;

use super::sources::sources;

/// A feature's proof at the tree as it is now.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Proof {
    pub feature: String,
    pub mode: Mode,
    /// What the feature's mode requires.
    pub rule: ProofRule,
    /// When the checks last ran; None before the first `verify run`.
    pub ran_at: Option<DateTime<Utc>>,
    /// The ledger read at the current tree; None before the first run.
    pub judgement: Option<Judgement>,
    /// The command that brings it up to date.
    pub command: String,
    /// Its state files changed outside phasegate's commands, until a person
    /// clears the marks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tampered: Option<String>,
    #[serde(skip)]
    pub ledger: Option<Ledger>,
}

impl Proof {
    /// The feature may be called done.
    pub fn proven(&self) -> bool {
        self.judgement.as_ref().is_some_and(|j| j.proven)
    }

    /// Where it stands for a next step: proven, stale (running the checks
    /// again is all it takes), or not proven.
    pub fn standing(&self) -> ProofStanding {
        match &self.judgement {
            Some(j) if j.proven => ProofStanding::Proven,
            Some(j) if j.only_stale() => ProofStanding::Stale,
            Some(_) | None => ProofStanding::NotProven,
        }
    }

    /// `3/4 proven`, `not run yet`, and how many are stale when the code
    /// changed since the checks ran.
    pub fn summary(&self) -> String {
        match &self.judgement {
            Some(j) => j.summary(),
            None => "no `verify run` yet".to_owned(),
        }
    }

    /// `3/4` (and `stale`), in a word or two for a status column.
    pub fn short(&self) -> String {
        match &self.judgement {
            None => "not run".to_owned(),
            Some(j) if j.stale => format!("{}/{} stale", j.proven_count + j.waived, j.total),
            Some(j) => format!("{}/{}", j.proven_count + j.waived, j.total),
        }
    }

    /// What holds the gate, each in a few words.
    pub fn blocking(&self) -> Vec<String> {
        match &self.judgement {
            Some(j) => j.blocking(),
            None => vec!["the checks have not run".to_owned()],
        }
    }

    /// The waivers a person gave that hold now, as `R3 waived by a person
    /// (slack): <reason>`.
    pub fn waivers(&self) -> Vec<String> {
        let (Some(l), Some(j)) = (&self.ledger, &self.judgement) else { return Vec::new() };
        j.statuses
            .iter()
            .filter(|r| r.status == ProofStatus::Waived)
            .filter_map(|r| {
                let w = l.requirements.iter().find(|p| p.id == r.id)?.waiver.as_ref()?;
                Some(format!("{} waived by a person ({}): {}", r.id, w.answered_in, w.reason))
            })
            .collect()
    }
}

impl Proof {
    /// A pull request's description: what proves each requirement, and the
    /// waivers a person gave, with their reasons; every status as the gate
    /// derives it now.
    pub fn pr_body(&self) -> String {
        let mut out = format!("## {}\n\n", self.feature);
        let (Some(l), Some(j)) = (&self.ledger, &self.judgement) else {
            out.push_str(&format!("No `{}` yet: nothing is proven.\n", Command::new("verify run")));
            return out;
        };
        out.push_str(&format!(
            "**Proof** ({}): the checks ran at {}, recorded in `evidence.json` by `{verify_run}`.\n\n",
            self.summary(),
            phasegate_core::time::stamp(l.ran_at),
            verify_run = Command::new("verify run")
        ));
        out.push_str("| Requirement | Status | Proven by |\n|---|---|---|\n");
        for r in &j.statuses {
            let recorded = l.requirements.iter().find(|p| p.id == r.id);
            let by = match (r.status, recorded) {
                (ProofStatus::Waived, Some(p)) => p
                    .waiver
                    .as_ref()
                    .map(|w| {
                        format!(
                            "waived by a person ({}, {}): {}",
                            w.answered_in,
                            phasegate_core::time::stamp(w.at),
                            w.reason
                        )
                    })
                    .unwrap_or_default(),
                (ProofStatus::Unchecked, _) => "no check".to_owned(),
                (_, Some(p)) if !p.checks.is_empty() => p
                    .checks
                    .iter()
                    .map(|c| format!("`{}`", c.command.replace('|', "\\|")))
                    .collect::<Vec<_>>()
                    .join(", "),
                _ => "not run".to_owned(),
            };
            let status = if r.stale { "stale".to_owned() } else { r.status.to_string() };
            out.push_str(&format!(
                "| {} {} | {} | {} |\n",
                r.id,
                r.text.replace('|', "\\|"),
                status,
                by.replace('\n', " ")
            ));
        }
        out
    }
}

/// The feature's proof now: its ledger, if any, judged at the tree its
/// code is in (its worktree, or the main checkout), against the
/// requirements and checks its files declare now and with only the records
/// `verify run` wrote here (`phasegate_core::proof::judge`). A spec or
/// check list that cannot be read proves nothing, and says why.
pub fn proof(env: &Env, project: &Project, feature: &Feature, meta: &Meta) -> OpResult<Proof> {
    proof_at(env, project, feature, meta, At::Now)
}

/// A finished feature's proof as it stood when it finished: its ledger
/// judged at the tree its checks last ran on. The code has moved on since
/// (other features, the merge), so judged now it would be stale; what it
/// says is what `finish` accepted.
pub fn at_finish(env: &Env, project: &Project, feature: &Feature, meta: &Meta) -> OpResult<Proof> {
    let mut p = proof_at(env, project, feature, meta, At::ItsRun)?;
    p.command = Command::new("verify status").feature(&feature.name()).to_string();
    Ok(p)
}

/// At which tree a ledger is judged.
#[derive(Debug, Clone, Copy)]
enum At {
    /// The tree as it is now.
    Now,
    /// The tree its checks last ran on.
    ItsRun,
}

/// [`proof`], judged at `at`.
fn proof_at(env: &Env, project: &Project, feature: &Feature, meta: &Meta, at: At) -> OpResult<Proof> {
    let ledger = feature.ledger()?;
    let judgement = match &ledger {
        None => None,
        Some(l) => {
            let tree = match at {
                At::ItsRun => l.tree.clone(),
                At::Now => project.proof().tree(&project.code_dir(meta), feature)?.id,
            };
            Some(judged_at(env, project, feature, meta, l, &tree)?)
        }
    };
    Ok(Proof {
        feature: feature.name().to_owned(),
        mode: meta.mode,
        rule: meta.mode.proof(),
        ran_at: ledger.as_ref().map(|l| l.ran_at),
        judgement,
        command: Command::new("verify run").feature(&feature.name()).to_string(),
        tampered: super::tamper::summary(feature.name(), &super::tamper::standing(feature, env.now)),
        ledger,
    })
}

/// `ledger` judged at the tree `tree`.
fn judged_at(
    env: &Env,
    project: &Project,
    feature: &Feature,
    meta: &Meta,
    ledger: &Ledger,
    tree: &str,
) -> OpResult<Judgement> {
    let key = witness::key(env)?;
    Ok(match sources(project, feature, meta) {
        Ok(s) => judge(
            ledger,
            Declared { requirements: &s.requirements, checks: &s.checks },
            &key,
            feature.name(),
            tree,
            meta.mode.proof(),
        ),
        Err(e) => {
            let mut j = judge(
                ledger,
                Declared { requirements: &[], checks: &[] },
                &key,
                feature.name(),
                tree,
                meta.mode.proof(),
            );
            j.note = Some(format!("what it must prove cannot be read: {}", crate::hook::one_line(&e.to_string())));
            j
        }
    })
}

/// `verify status`: the proof of feature `given` now.
pub fn status(env: &Env, given: Option<&str>) -> OpResult<Proof> {
    let (project, feature) = session::find(env, given)?;
    let meta = feature.load()?;
    let out = proof(env, &project, &feature, &meta)?;
    Effects::of("verify status").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(out)
}
