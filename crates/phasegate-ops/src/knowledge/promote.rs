//! Promotion into CLAUDE.md (seed 004 §6.3 `should_update_claude_md`,
//! §10.2 step 5): only an item with confidence ≥ 0.9, seen ≥ 3 times, in
//! at least two features (universal) and not already there; and only after
//! a person says yes to a blocking question. The first `kb promote` asks;
//! the answer arrives like any other (AskUserQuestion, Slack, `question
//! answer`); the next `kb promote` writes the item into the block of
//! CLAUDE.md that phasegate owns (between `<!-- phasegate:knowledge -->`
//! and `<!-- /phasegate:knowledge -->`) and touches nothing else of the
//! file. A "no", a default, or a preference never writes.

use phasegate_core::knowledge::{self, PromoteSaid, Unmet};
use phasegate_core::questions::{AnsweredBy, ItemType};
use phasegate_store::{Project, files};
use serde::Serialize;

use super::base::{self, tree_root};
use crate::env::Env;
use crate::error::{Invalid, InvalidInput, OpError, OpResult, Refusal};
use crate::questions::ask::{self, AskInput, Asked, Interaction};
use crate::session;
use crate::witness::{self, PersonAnswer};

/// Where a promotion to CLAUDE.md stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PromotionStatus {
    /// The user is asked; nothing is written until they say yes.
    Asked,
    /// The lesson is in CLAUDE.md.
    Promoted,
    /// The user said no.
    Declined,
}

/// What `kb promote` did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Promotion {
    pub id: String,
    pub status: PromotionStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// For `asked`: where the question went (AskUserQuestion's input, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub asked: Option<Asked>,
    #[serde(serialize_with = "phasegate_core::words::as_words")]
    pub message: PromoteSaid,
}

/// The question's task field names the item, so the answer is found again.
fn task_of(id: &str) -> String {
    format!("kb-promote {id}")
}

/// Asks, waits, writes or declines (module doc).
pub fn promote(env: &Env, given: Option<&str>, id: &str, session: Interaction) -> OpResult<Promotion> {
    knowledge::validate_id(id).invalid_input()?;
    let project = session::project(env)?;
    let root = tree_root(&project, &env.cwd);
    let loaded = base::load(&project, &root)?;
    let item = loaded
        .items
        .iter()
        .find(|s| s.item.id == id)
        .map(|s| s.item.clone())
        .ok_or_else(|| OpError::from(Invalid::NoKnowledgeItem { id: id.to_owned() }))?;
    let claude_path = root.join("CLAUDE.md");
    // Confined to the working tree it belongs to: a link out of it is refused.
    files::confine(&root, &claude_path)?;
    let claude = files::read_optional(&claude_path)?.unwrap_or_default();
    let unmet = knowledge::unmet(&item, &claude).invalid(claude_path.display().to_string())?;
    if !unmet.is_empty() {
        if unmet.contains(&Unmet::AlreadyThere) {
            return Ok(Promotion {
                id: id.to_owned(),
                status: PromotionStatus::Promoted,
                question: None,
                asked: None,
                message: PromoteSaid::AlreadyThere { id: id.to_owned() },
            });
        }
        let why = unmet.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ");
        return Err(Refusal::NotPromotable { id: id.to_owned(), why }.into());
    }
    let feature = match given {
        Some(f) => f.to_owned(),
        None => latest_feature(&project, &item).ok_or_else(|| Invalid::PromoteWhichFeature { id: id.to_owned() })?,
    };
    let (project, feature) = session::find(env, Some(&feature))?;
    ask::confirm_dialogs_settled(&project, env);
    let (stored, _) = project.questions().all()?;
    let task = task_of(id);
    let mine =
        stored.iter().rev().find(|s| s.question.slug == feature.name() && s.question.task_id.as_deref() == Some(&task));
    match mine.map(|s| &s.question) {
        None => ask_person(env, given, id, &item, feature.name(), task, session),
        Some(q) => match witness::person_answer(&witness::key(env)?, q) {
            PersonAnswer::None => Err(Refusal::PromotionWaits { id: id.to_owned(), question: q.id.clone() }.into()),
            PersonAnswer::NotRecorded(_) => Err(Refusal::AnswerNotRecorded { id: q.id.clone() }.into()),
            PersonAnswer::Recorded(a)
                if a.by == AnsweredBy::Human && a.text.trim().to_lowercase().starts_with("yes") =>
            {
                write(env, &project, &claude_path, &item)?;
                Ok(Promotion {
                    id: id.to_owned(),
                    status: PromotionStatus::Promoted,
                    question: Some(q.id.clone()),
                    asked: None,
                    message: PromoteSaid::Added { id: id.to_owned(), file: claude_path.display().to_string() },
                })
            }
            PersonAnswer::Recorded(a) => Ok(Promotion {
                id: id.to_owned(),
                status: PromotionStatus::Declined,
                question: Some(q.id.clone()),
                asked: None,
                message: PromoteSaid::Declined { id: id.to_owned(), question: q.id.clone(), answer: a.text.clone() },
            }),
        },
    }
}

/// Asks the user the blocking question whether `item` goes into
/// CLAUDE.md, for `feature`'s retrospective; an earlier answer is acted on
/// now.
fn ask_person(
    env: &Env,
    given: Option<&str>,
    id: &str,
    item: &knowledge::KnowledgeItem,
    feature: &str,
    task: String,
    session: Interaction,
) -> OpResult<Promotion> {
    let request = ask::yes_or_no(
        format!(
            "phasegate learned this and it holds across features (confidence {}, seen {} times): \"{}\". Add it to CLAUDE.md, where every session reads it?",
            item.confidence,
            item.occurrences,
            item.content.split_whitespace().collect::<Vec<_>>().join(" ")
        ),
        None,
        "add it to phasegate's block of CLAUDE.md",
        "keep it in the knowledge base only",
    )?;
    let asked = ask::ask_with(
        env,
        Some(feature),
        AskInput { request, task: Some(task), item_type: ItemType::Feature, session, round: None },
        true,
    )?;
    if asked.route == ask::Went::Answered {
        // An earlier answer to the same question: act on it now.
        return promote(env, Some(feature), id, session);
    }
    Ok(Promotion {
        id: id.to_owned(),
        status: PromotionStatus::Asked,
        question: asked.id.clone(),
        message: PromoteSaid::Asked {
            id: id.to_owned(),
            feature: given.map(str::to_owned),
            asked: asked.message.clone(),
        },
        asked: Some(asked),
    })
}

/// Writes the item into the block, under the knowledge lock, reading
/// CLAUDE.md again there (a person may have edited it meanwhile).
fn write(env: &Env, project: &Project, path: &std::path::Path, item: &knowledge::KnowledgeItem) -> OpResult<()> {
    let _lock = project.knowledge().lock(env.lock_timeout)?;
    let text = files::read_optional(path)?.unwrap_or_default();
    let changed = knowledge::promote(&text, &[item]).invalid(path.display().to_string())?;
    files::write_whole(path, &changed)?;
    Ok(())
}

/// The newest feature in the item's evidence that exists.
fn latest_feature(project: &Project, item: &knowledge::KnowledgeItem) -> Option<String> {
    let features = project.features().ok()?;
    item.evidence
        .iter()
        .rev()
        .find_map(|e| features.iter().find(|f| f.name() == e.feature).map(|f| f.name().to_owned()))
}
