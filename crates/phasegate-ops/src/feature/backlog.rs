//! The backlog runner's order (seed 000's auto-pipeline): the active
//! features one after another, each to its next step; suspended ones are
//! skipped, and one whose answer arrived comes first, to be taken up again.
//! A feature whose next phase a teammate's clone claims on the team's
//! remote (as the last sync saw it) is skipped too, so runners on several
//! machines take distinct features.

use phasegate_core::coordination::Claimed;
use phasegate_core::feature::Workflow;
use phasegate_store::questions::Place;
use serde::Serialize;

use crate::coordination::team;
use crate::cost;
use crate::env::Env;
use crate::error::OpResult;
use crate::session;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Ready {
    pub feature: String,
    pub workflow: Workflow,
    pub phase: Option<String>,
    /// What to run for it (the phase command, or the pipeline's).
    pub command: Option<phasegate_core::feature::Suggested>,
    pub reason: String,
    /// An answer to its question arrived: take it up first.
    pub answer_arrived: bool,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Waiting {
    pub feature: String,
    pub question_id: String,
    pub question: String,
    pub state: &'static str,
}

/// A feature skipped because a teammate's clone claims its next phase.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Elsewhere {
    pub feature: String,
    pub phase: String,
    /// Who: `Bob <bob@x> on laptop (session 1a2b3c4d)`.
    pub holder: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Backlog {
    /// The feature to work on now, if any.
    pub next: Option<Ready>,
    pub ready: Vec<Ready>,
    pub suspended: Vec<Waiting>,
    /// Features whose next phase a teammate works on (skipped).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub elsewhere: Vec<Elsewhere>,
    /// Active features whose state cannot be read (skipped).
    pub unreadable: Vec<String>,
}

pub fn backlog(env: &Env) -> OpResult<Backlog> {
    let project = session::project(env)?;
    let (questions, bad) = project.questions().all()?;
    let mut ready = Vec::new();
    let mut suspended = Vec::new();
    let mut unreadable = Vec::new();
    let mut elsewhere = Vec::new();
    // Live claims of teammates' clones, as the last sync saw them.
    let claims: Vec<_> = team::seen_claims(env)?.into_iter().filter(|c| !c.ours && !c.expired).collect();
    for l in project.list_active()? {
        let name = l.feature.name().to_owned();
        let meta = match l.meta {
            Ok(m) => m,
            Err(e) => {
                unreadable.push(e.to_string());
                continue;
            }
        };
        // A question file of this feature that cannot be read may be the
        // marker that suspends it: the feature is not ready until it is
        // fixed, and the error names the file.
        if let Some(b) = bad.iter().find(|b| b.feature() == Some(name.as_str())) {
            unreadable.push(format!("{name}: {}", b.error));
            continue;
        }
        let mine = questions.iter().filter(|s| s.question.slug == name && s.question.taken_at.is_none());
        let mut waiting_on = None;
        let mut arrived = false;
        for s in mine {
            match (&s.question.answer, s.place) {
                (None, Place::Marker) => waiting_on = Some(s),
                (Some(_), _) => arrived = true,
                (None, Place::Queue) => {}
            }
        }
        if let Some(s) = waiting_on {
            suspended.push(Waiting {
                feature: name,
                question_id: s.question.id.clone(),
                question: s.question.question.clone(),
                state: s.question.state(env.now).into(),
            });
            continue;
        }
        let n = super::status::next_of(env, &project, &l.feature, &meta);
        if n.command.is_none() && !arrived {
            continue;
        }
        // Over its budget: it waits for a person (raise, or stop).
        if let Some(p) = cost::pause_if_over(&project, env, &l.feature, &meta)? {
            suspended.push(Waiting {
                feature: name,
                question_id: p.question.unwrap_or_default(),
                question: p.message.to_string(),
                state: "over-budget",
            });
            continue;
        }
        let held = n.phase.and_then(|p| {
            let claim = Claimed::Phase(p).name();
            claims.iter().find(|c| c.feature == name && c.task == claim)
        });
        if let (Some(c), Some(p)) = (held, n.phase) {
            elsewhere.push(Elsewhere { feature: name, phase: p.to_string(), holder: c.holder.clone() });
            continue;
        }
        ready.push(Ready {
            feature: name,
            workflow: meta.workflow,
            phase: n.phase.map(|p| p.to_string()),
            command: n.command,
            reason: n.reason,
            answer_arrived: arrived,
        });
    }
    // Answers first; otherwise the features' own order (by number).
    ready.sort_by_key(|r| !r.answer_arrived);
    Ok(Backlog { next: ready.first().cloned(), ready, suspended, elsewhere, unreadable })
}
