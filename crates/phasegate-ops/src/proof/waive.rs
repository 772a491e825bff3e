//! Waivers: a person may decide that a requirement is done without proof,
//! never the model. `verify waive <id> --reason <why>` asks a blocking
//! question that only a person may answer (Slack, the question dialog,
//! `/phasegate:answer` typed by them, or a terminal); its "yes" is taken
//! into the ledger with the reason and when, by the next `verify waive` or
//! `verify run`. A "no" waives nothing.

use std::collections::BTreeMap;

use phasegate_core::proof::{self, LEDGER_VERSION, Ledger, ProofStatus, RequirementProof, WaiveSaid, Waiver, Waiving};
use phasegate_core::questions::{Answer, AnsweredBy, ItemType, Question};
use phasegate_store::{Feature, Project};
use serde::Serialize;

use super::sources::sources;
use super::state::{Proof, proof};
use crate::coordination::effects::Effects;
use crate::env::Env;
use crate::error::{Invalid, OpResult, Refusal};
use crate::questions::ask::{self, AskInput, Asked, Interaction};
use crate::session;
use crate::witness::{self, PersonAnswer};

/// The question's task field: names the requirement, so the answer is found
/// again (and marks the question as only a person's to answer).
fn task_of(requirement: &str) -> String {
    format!("verify-waive {requirement}")
}

/// What `verify waive` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WaiverState {
    /// The person was asked; nothing is waived yet.
    Asked,
    /// The person said yes: the ledger records the waiver.
    Waived,
    /// The person said no (or something else).
    Declined,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Waived {
    pub feature: String,
    pub requirement: String,
    pub state: WaiverState,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub asked: Option<Asked>,
    #[serde(serialize_with = "phasegate_core::words::as_words")]
    pub message: WaiveSaid,
}

/// The requirement a `verify waive` is about, and its feature.
struct Subject<'a> {
    name: String,
    requirement: &'a str,
}

impl Subject<'_> {
    fn done(&self, state: WaiverState, question: Option<String>, how: Waiving) -> Waived {
        let message = WaiveSaid { feature: self.name.clone(), requirement: self.requirement.to_owned(), how };
        Waived {
            feature: self.name.clone(),
            requirement: self.requirement.to_owned(),
            state,
            question,
            asked: None,
            message,
        }
    }
}

/// Asks whether `requirement` may be done without proof, or records the
/// person's answer (module doc).
pub fn waive(
    env: &Env,
    given: Option<&str>,
    requirement: &str,
    reason: Option<&str>,
    session: Interaction,
) -> OpResult<Waived> {
    let (project, feature) = session::find(env, given)?;
    let meta = feature.load()?;
    let sources = sources(&project, &feature, &meta)?;
    let Some(req) = sources.requirements.iter().find(|r| r.id == requirement) else {
        return Err(Invalid::NotARequirement {
            requirement: requirement.to_owned(),
            file: sources.requirements_file.clone(),
            known: sources.requirements.iter().map(|r| r.id.to_string()).collect(),
        }
        .into());
    };
    let now = proof(env, &project, &feature, &meta)?;
    let subject = Subject { name: feature.name().to_owned(), requirement };
    if let Some(settled) = settled_already(&now, &subject)? {
        Effects::of("verify waive").turn_to(feature.name()).apply_to_log(&project, env);
        return Ok(settled);
    }
    let name = subject.name.clone();
    ask::confirm_dialogs_settled(&project, env);
    let key = witness::key(env)?;
    let (stored, _) = project.questions().all()?;
    let task = task_of(requirement);
    let mine = stored.iter().rev().find(|s| s.question.slug == name && s.question.task_id.as_deref() == Some(&task));
    match mine.map(|s| (&s.question, witness::person_answer(&key, &s.question))) {
        Some((q, PersonAnswer::None)) => {
            Err(Refusal::WaiverWaits { feature: name, requirement: requirement.to_owned(), question: q.id.clone() }
                .into())
        }
        Some((q, PersonAnswer::NotRecorded(_))) => Err(Refusal::AnswerNotRecorded { id: q.id.clone() }.into()),
        Some((q, PersonAnswer::Recorded(a))) if waiver_of(q, a).is_some() => {
            let w = waiver_of(q, a).expect("checked");
            record(&project, &feature, env, requirement, w.clone())?;
            Ok(subject.done(
                WaiverState::Waived,
                Some(q.id.clone()),
                Waiving::Waived { answered_in: w.answered_in.clone(), reason: w.reason.clone() },
            ))
        }
        // A "no" stands until the person is asked again with a new reason.
        Some((q, PersonAnswer::Recorded(_))) if reason.is_none_or(|r| q.question_context == r.trim()) => Ok(subject
            .done(
                WaiverState::Declined,
                Some(q.id.clone()),
                Waiving::Declined {
                    id: q.id.clone(),
                    answer: q.answer.as_ref().map(|a| a.text.clone()).unwrap_or_default(),
                },
            )),
        _ => ask_person(env, &subject, reason, &req.text, &now, task, session),
    }
}

/// A requirement proven at this tree (refused: nothing to waive) or
/// waived already (said so); None when it is still open.
fn settled_already(now: &Proof, subject: &Subject<'_>) -> OpResult<Option<Waived>> {
    let (name, requirement) = (&subject.name, subject.requirement);
    let status = now.judgement.as_ref().and_then(|j| j.statuses.iter().find(|r| r.id == requirement));
    if let Some(r) = status {
        match (r.status, r.stale) {
            (ProofStatus::Proven, _) => {
                return Err(Refusal::NothingToWaive {
                    feature: name.clone(),
                    requirement: requirement.to_owned(),
                    status: "proven at this tree".to_owned(),
                }
                .into());
            }
            (ProofStatus::Waived, _) => {
                let w = now
                    .ledger
                    .as_ref()
                    .and_then(|l| l.requirements.iter().find(|p| p.id == requirement))
                    .and_then(|p| p.waiver.as_ref())
                    .map(|w| w.reason.clone())
                    .unwrap_or_default();
                return Ok(Some(subject.done(WaiverState::Waived, None, Waiving::WaivedAlready { reason: w })));
            }
            (ProofStatus::Failed | ProofStatus::Unchecked | ProofStatus::NotRun, _) => {}
        }
    }
    Ok(None)
}

/// Asks a person the blocking waiver question (`reason` is its context);
/// an answer that came at once is taken in by waiving again.
fn ask_person(
    env: &Env,
    subject: &Subject<'_>,
    reason: Option<&str>,
    requirement_text: &str,
    now: &Proof,
    task: String,
    session: Interaction,
) -> OpResult<Waived> {
    let (name, requirement) = (&subject.name, subject.requirement);
    let Some(reason) = reason.map(str::trim).filter(|r| !r.is_empty()) else {
        return Err(Invalid::NoWaiverReason { requirement: requirement.to_owned(), feature: name.to_string() }.into());
    };
    let why = now
        .judgement
        .as_ref()
        .and_then(|j| j.open.iter().find(|o| o.id == requirement))
        .map(|o| format!("{}: {}", o.status, o.why))
        .unwrap_or_else(|| "the checks have not run".to_owned());
    let request = ask::yes_or_no(
        format!(
            "Waive {requirement} of {name} (\"{requirement_text}\")? It is not proven ({why}). A waived requirement counts as done without proof; status, finish and the pull request show the waiver and its reason."
        ),
        Some(reason),
        "waive it: done without proof, for the reason given",
        "keep it: it must be proven",
    )?;
    let asked = ask::ask(
        env,
        Some(name),
        AskInput { request, task: Some(task), item_type: ItemType::Feature, session, round: None },
    )?;
    if asked.route == ask::Went::Answered {
        return waive(env, Some(name), requirement, Some(reason), session);
    }
    let how = Waiving::Asked(asked.message.clone());
    Ok(Waived { question: asked.id.clone(), asked: Some(asked), ..subject.done(WaiverState::Asked, None, how) })
}

/// The waiver a person's recorded "yes" `a` to waiver question `q` gives
/// (unsealed: the ledger's writer seals it).
fn waiver_of(q: &Question, a: &Answer) -> Option<Waiver> {
    let yes = a.by == AnsweredBy::Human && a.option.as_deref().unwrap_or(&a.text).trim().eq_ignore_ascii_case("yes");
    yes.then(|| Waiver {
        reason: q.question_context.clone(),
        at: a.at,
        question: q.id.clone(),
        by: a.user.clone(),
        answered_in: a.source.name().to_owned(),
        seal: None,
    })
}

/// Every requirement of `feature` a person waived by answering yes, as the
/// binary recorded their answer (a dialog's answer waiting in Claude
/// Code's transcript is read first; an answer written by hand waives
/// nothing).
pub fn answered_waivers(env: &Env, project: &Project, feature: &Feature) -> OpResult<BTreeMap<String, Waiver>> {
    ask::confirm_dialogs_settled(project, env);
    let key = witness::key(env)?;
    let (stored, _) = project.questions().all()?;
    Ok(stored
        .iter()
        .filter(|s| s.question.slug == feature.name())
        .filter_map(|s| {
            let r = s.question.task_id.as_deref()?.strip_prefix("verify-waive ")?;
            let PersonAnswer::Recorded(a) = witness::person_answer(&key, &s.question) else { return None };
            Some((r.to_owned(), waiver_of(&s.question, a)?))
        })
        .collect())
}

/// Writes `waiver` for `requirement` into the ledger (made from the
/// feature's requirements when no check ran yet), under the feature's lock.
fn record(project: &Project, feature: &Feature, env: &Env, requirement: &str, waiver: Waiver) -> OpResult<()> {
    let meta = feature.load()?;
    let lock = project.proof().ledger_lock(feature, env.lock_timeout)?;
    let mut ledger = match feature.ledger()? {
        Some(l) => l,
        None => {
            let s = sources(project, feature, &meta)?;
            let tree = project.proof().tree(&project.code_dir(&meta), feature)?;
            Ledger {
                version: LEDGER_VERSION,
                feature: feature.name().to_owned(),
                ran_at: env.now,
                tree: tree.id,
                changed_by_checks: Vec::new(),
                earlier: Vec::new(),
                requirements: s
                    .requirements
                    .iter()
                    .map(|r| RequirementProof {
                        id: r.id.clone(),
                        text: r.text.clone(),
                        status: ProofStatus::Unchecked,
                        checks: Vec::new(),
                        waiver: None,
                    })
                    .collect(),
            }
        }
    };
    let key = witness::key(env)?;
    if let Some(r) = ledger.requirements.iter_mut().find(|r| r.id == requirement) {
        let mut waiver = waiver;
        waiver.seal(&key, feature.name(), requirement);
        r.status = proof::status_of(&r.checks, Some(&waiver));
        r.waiver = Some(waiver);
    }
    lock.write(&ledger)?;
    drop(lock);
    Ok(())
}
