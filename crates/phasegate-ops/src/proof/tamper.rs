//! What the binaries cannot prevent, they show: a feature's state files
//! changed by another route than phasegate's commands (a Bash write to
//! `evidence.json`, `.meta.json` or a marker, a file removed by hand) are
//! marked as tampered, found by every writer before it replaces a file, by
//! the PostToolUse hook after a Bash command, and by the readers here.
//! `status`, `finish`, `verify status`, the report and the pull request's
//! description show the marks; `finish` refuses while they stand; only a
//! person clears them, by the question only a person answers.

use chrono::{DateTime, Utc};
use phasegate_core::proof::{TamperSaid, TamperStands};
use phasegate_core::questions::{AnsweredBy, ItemType};
use phasegate_core::words::Command;
use phasegate_store::Feature;
use phasegate_store::feature::TamperMark;
use serde::Serialize;

use crate::coordination::effects::Effects;
use crate::env::Env;
use crate::error::{OpResult, Refusal};
use crate::hook::{Contributor, HookCtx, MAX_LISTED, one_line};
use crate::questions::ask::{self, AskInput, Asked, Interaction};
use crate::session;
use crate::witness::{self, PersonAnswer};

/// The task field of the question that clears a feature's marks (a
/// person's decision: `Question::person_only`).
fn task_of(feature: &str) -> String {
    format!("tamper-clear {feature}")
}

/// The marks of `feature` as they stand: those kept, with the changes found
/// now (`seen` says where) kept too.
pub fn marks(feature: &Feature, now: DateTime<Utc>, seen: &str) -> OpResult<Vec<TamperMark>> {
    let found = feature.unwitnessed(now, seen);
    if !found.is_empty() {
        feature.add_marks(found)?;
    }
    Ok(feature.tamper_marks()?)
}

/// The marks kept and the changes found now, without writing anything
/// (what a reader shows).
pub fn standing(feature: &Feature, now: DateTime<Utc>) -> Vec<TamperMark> {
    let mut all = feature.tamper_marks().unwrap_or_default();
    for m in feature.unwitnessed(now, "found by a reader") {
        if !all.iter().any(|k| k.file == m.file && k.how == m.how && k.content == m.content) {
            all.push(m);
        }
    }
    all
}

/// One line that says what stands, for status, briefs and refusals; None
/// when nothing does.
pub fn summary(feature: &str, marks: &[TamperMark]) -> Option<String> {
    stands(feature, marks).map(|s| s.to_string())
}

fn stands(feature: &str, marks: &[TamperMark]) -> Option<TamperStands> {
    if marks.is_empty() {
        return None;
    }
    let first = marks.iter().take(3).map(|m| format!("{} {}", m.file, m.how)).collect();
    Some(TamperStands { feature: feature.to_owned(), count: marks.len(), first })
}

/// What `tamper list` prints.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listed {
    pub feature: String,
    pub marks: Vec<TamperMark>,
    #[serde(serialize_with = "phasegate_core::words::as_words")]
    pub message: TamperSaid,
}

/// `tamper list`: the marks of feature `given` (a change found now is
/// shown with them; a reader writes nothing).
pub fn list(env: &Env, given: Option<&str>) -> OpResult<Listed> {
    let (project, feature) = session::find(env, given)?;
    let marks = standing(&feature, env.now);
    let message = match stands(feature.name(), &marks) {
        Some(s) => TamperSaid::Stands(s),
        None => TamperSaid::Clean { feature: feature.name().to_owned() },
    };
    Effects::of("tamper list").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(Listed { feature: feature.name().to_owned(), marks, message })
}

/// Where clearing stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClearState {
    /// There was nothing to clear.
    Nothing,
    /// The person was asked; nothing is cleared yet.
    Asked,
    /// The person said yes: the marks are cleared.
    Cleared,
    /// The person said no: the marks stand.
    Declined,
}

/// What `tamper clear` did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Clearing {
    pub feature: String,
    pub state: ClearState,
    pub marks: Vec<TamperMark>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub asked: Option<Asked>,
    #[serde(serialize_with = "phasegate_core::words::as_words")]
    pub message: TamperSaid,
}

/// `tamper clear`: asks a person (a question only a person answers)
/// whether the marks of feature `given` may be cleared, or, once they
/// answered yes, clears them (kept as cleared, with who); the state files
/// as they are then count as written.
pub fn clear(env: &Env, given: Option<&str>, session: Interaction) -> OpResult<Clearing> {
    let (project, feature) = session::find(env, given)?;
    let name = feature.name().to_owned();
    let marks = marks(&feature, env.now, "before `tamper clear`")?;
    let done = |state, question: Option<String>, message: TamperSaid| Clearing {
        feature: name.clone(),
        state,
        marks: marks.clone(),
        question,
        asked: None,
        message,
    };
    if marks.is_empty() {
        Effects::of("tamper clear").turn_to(feature.name()).apply_to_log(&project, env);
        return Ok(done(ClearState::Nothing, None, TamperSaid::NothingToClear { feature: name.clone() }));
    }
    ask::confirm_dialogs_settled(&project, env);
    let key = witness::key(env)?;
    let newest = marks.iter().map(|m| m.at).max().unwrap_or(env.now);
    let (stored, _) = project.questions().all()?;
    let task = task_of(&name);
    // A question asked before the newest mark was not about it.
    let mine = stored
        .iter()
        .rev()
        .map(|s| &s.question)
        .find(|q| q.slug == name && q.task_id.as_deref() == Some(&task) && q.suspended_at >= newest);
    match mine.map(|q| (q, witness::person_answer(&key, q))) {
        Some((q, PersonAnswer::None)) => {
            Err(Refusal::ClearWaits { feature: name.clone(), question: q.id.clone() }.into())
        }
        Some((q, PersonAnswer::NotRecorded(_))) => Err(Refusal::AnswerNotRecorded { id: q.id.clone() }.into()),
        Some((q, PersonAnswer::Recorded(a))) => {
            let yes =
                a.by == AnsweredBy::Human && a.option.as_deref().unwrap_or(&a.text).trim().eq_ignore_ascii_case("yes");
            if !yes {
                Effects::of("tamper clear").turn_to(feature.name()).apply_to_log(&project, env);
                return Ok(done(
                    ClearState::Declined,
                    Some(q.id.clone()),
                    TamperSaid::Declined { feature: name.clone(), question: q.id.clone(), answer: a.text.clone() },
                ));
            }
            let by = format!("{} ({})", a.user.clone().unwrap_or_else(|| "a person".into()), a.source.name());
            let cleared = feature.clear_marks(env.now, &by)?;
            Ok(Clearing {
                marks: cleared,
                ..done(ClearState::Cleared, Some(q.id.clone()), TamperSaid::Cleared { feature: name.clone() })
            })
        }
        None => {
            let asked = ask_to_clear(env, &name, &marks, task, session)?;
            let message = TamperSaid::Asked { feature: name.clone(), asked: asked.message.clone() };
            Ok(Clearing { question: asked.id.clone(), asked: Some(asked), ..done(ClearState::Asked, None, message) })
        }
    }
}

/// Asks a person, with a question only a person answers, whether the
/// marks of feature `name` may be cleared.
fn ask_to_clear(env: &Env, name: &str, marks: &[TamperMark], task: String, session: Interaction) -> OpResult<Asked> {
    let listed: Vec<String> = marks.iter().map(|m| format!("{} ({}, {})", m.file, m.how, m.seen)).collect();
    let request = ask::yes_or_no(
        format!(
            "phasegate saw {}'s state files changed outside its commands: {}. Clear the marks? Say yes once you have looked at the changes: the files as they are then count as phasegate's.",
            name,
            listed.join("; ")
        ),
        None,
        "I looked at them: clear the marks",
        "keep the marks: the feature is not finished",
    )?;
    ask::ask_with(
        env,
        Some(name),
        AskInput { request, task: Some(task), item_type: ItemType::Feature, session, round: None },
        true,
    )
}

/// The hooks' part: after a Bash command, the state files of every feature
/// phasegate witnessed here are looked at, and a change the command made
/// outside phasegate's commands is marked and said at once; SessionStart
/// names the features whose marks stand.
pub struct Tamper;

pub static TAMPER: Tamper = Tamper;

impl Contributor for Tamper {
    fn post_tool_use(&self, ctx: &HookCtx<'_>) -> Vec<String> {
        if ctx.input.tool_name.as_deref() != Some("Bash") {
            return Vec::new();
        }
        let Ok(project) = ctx.project() else { return Vec::new() };
        let session = ctx.session().map_or_else(|| "unknown".to_owned(), |s| s.short().to_owned());
        let seen = format!("after a Bash command of session {session}");
        let mut lines = Vec::new();
        for feature in project.witnessed_features() {
            let found = feature.unwitnessed(ctx.env.now, &seen);
            if found.is_empty() {
                continue;
            }
            match feature.add_marks(found) {
                Ok(added) if !added.is_empty() => {
                    let files: Vec<String> = added.iter().map(|m| format!("{} {}", m.file, m.how)).collect();
                    lines.push(format!(
                        "phasegate: that command changed {}'s state outside phasegate's commands ({}): it proves nothing, and the feature is marked as tampered until a person clears it (`{tamper_clear}`). Use the {binary} command that writes it instead.", feature.name(), files.join("; "), tamper_clear = Command::new("tamper clear").feature(&feature.name()), binary = phasegate_core::words::BINARY));
                }
                Ok(_) => {}
                Err(e) => lines.push(format!("phasegate: {}", one_line(&e.to_string()))),
            }
        }
        lines
    }

    fn session_start(&self, ctx: &HookCtx<'_>) -> Vec<String> {
        if ctx.compacted() {
            return Vec::new();
        }
        let Ok(project) = ctx.project() else { return Vec::new() };
        project
            .witnessed_features()
            .iter()
            .filter_map(|f| summary(f.name(), &f.tamper_marks().unwrap_or_default()).map(|s| (f.name().to_owned(), s)))
            .take(MAX_LISTED)
            .map(|(name, s)| format!("phasegate: {name}: {s}"))
            .collect()
    }
}
