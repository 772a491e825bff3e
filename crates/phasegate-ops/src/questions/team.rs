//! Questions across machines (above the coordination's team, whose remote
//! and lock it uses): each sync publishes the questions this
//! clone waits on a person for as `refs/phasegate/questions/<id>` (only
//! the asking clone writes them), so teammates see them in `question
//! list`; a teammate answers with `workflow-state question answer <id>`,
//! which creates `refs/phasegate/answers/<id>` (compare-and-swap on its
//! absence: the first answer wins); the asking clone's next sync takes the
//! answer in as its own record (source `team`, who answered and on which
//! machine), sealed with its own key, and deletes both refs. A question
//! only a person may answer is answered by a teammate at a terminal
//! outside Claude Code, as here; the remote is trusted as the team's code
//! is: whoever may push to it.

use chrono::{DateTime, Utc};
use phasegate_core::coordination::TeamSaid;
use phasegate_core::coordination::{ANSWERS, QUESTIONS, SharedQuestion, TeamAnswer, answer_ref, question_ref};
use phasegate_core::questions::{Question, Source};
use phasegate_core::witness::Operator;
use phasegate_store::Project;
use phasegate_store::remote::Swap;

use crate::coordination::team::{self as coordination_team, Synced, Team};
use crate::env::Env;
use crate::error::{Invalid, OpError, OpResult, Refusal};
use crate::questions::ask::{self, Answered};
use crate::session;

/// What a sync did with the team's questions.
#[derive(Debug, Default)]
struct Exchanged {
    /// This clone's questions answered by a teammate, taken in now.
    pub taken: Vec<String>,
    /// Teammates' answers that could not be taken in, and why.
    pub refused: Vec<String>,
}

/// The questions waiting for a person here (not answered, taken or
/// withdrawn).
fn waiting(project: &Project) -> OpResult<Vec<Question>> {
    let (stored, _) = project.questions().all()?;
    Ok(stored
        .into_iter()
        .map(|s| s.question)
        .filter(|q| q.answer.is_none() && q.taken_at.is_none() && q.withdrawn_at.is_none())
        .collect())
}

/// Takes in teammates' answers to this clone's questions, then publishes
/// the questions still waiting and withdraws those that no longer are.
/// Called by [`sync`] after the coordination's sync fetched.
fn exchange(team: &Team, project: &Project, env: &Env) -> OpResult<Exchanged> {
    let mut out = Exchanged::default();
    for q in waiting(project)? {
        let Some(value) = team.remote().seen(&answer_ref(&q.id))? else { continue };
        let Some(a) = TeamAnswer::parse(&value.body) else { continue };
        let found = ask::find(project, &q.id)?;
        let user = format!("{} (on the team's remote)", a.by.describe());
        match ask::record(env, project, found, &a.text, Some(&user), Source::Team) {
            Ok(_) => out.taken.push(q.id.clone()),
            // Answered meanwhile here, or not an answer: said, and dropped.
            Err(e @ (OpError::Refused(_) | OpError::Invalid(_))) => {
                out.refused.push(format!("{}'s answer to {} was not taken: {e}", a.by.describe(), q.id));
            }
            Err(e) => return Err(e),
        }
        team.remote().swap(&answer_ref(&q.id), Some(&value.oid), None)?;
    }
    let now_waiting = waiting(project)?;
    let mut holder = team.me().clone();
    holder.session = None;
    for q in &now_waiting {
        let name = question_ref(&q.id);
        if team.remote().seen(&name)?.is_some() {
            continue;
        }
        let shared = SharedQuestion {
            id: q.id.clone(),
            feature: q.slug.clone(),
            question: q.question.clone(),
            options: q.options.iter().map(|o| o.label.clone()).collect(),
            person_only: q.person_only(),
            asker: holder.clone(),
            asked_at: q.suspended_at,
        };
        team.remote().swap(&name, None, Some(&shared.render()))?;
    }
    // What no longer waits here (answered here, taken back, withdrawn):
    // withdrawn from the remote, with a teammate's answer that came late.
    for (name, value) in team.remote().seen_under(QUESTIONS)? {
        let Some(shared) = SharedQuestion::parse(&value.body) else { continue };
        if shared.asker.clone == team.me().clone && !now_waiting.iter().any(|q| q.id == shared.id) {
            team.remote().swap(&name, Some(&value.oid), None)?;
            if let Some(late) = team.remote().seen(&answer_ref(&shared.id))? {
                team.remote().swap(&answer_ref(&shared.id), Some(&late.oid), None)?;
            }
        }
    }
    Ok(out)
}

/// A teammate's question as the last sync saw it, for `question list`.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TeammateQuestion {
    pub id: String,
    pub feature: String,
    pub question: String,
    pub options: Vec<String>,
    pub person_only: bool,
    /// Who asked: `Bob <bob@x> on laptop`.
    pub asker: String,
    pub asked_at: DateTime<Utc>,
    /// A teammate answered it already; the asker takes it at their sync.
    pub answered: bool,
}

/// The questions teammates' clones wait on a person for, as the last sync
/// saw them (no network). Empty without a team remote.
pub fn teammates(project: &Project) -> OpResult<Vec<TeammateQuestion>> {
    let Some(layout) = project.repo() else { return Ok(Vec::new()) };
    let Some(remote) = phasegate_store::remote::Remote::configured(layout, crate::env::remote_timeout())? else {
        return Ok(Vec::new());
    };
    let shared = remote.seen_under(QUESTIONS)?;
    if shared.is_empty() {
        return Ok(Vec::new());
    }
    let me = phasegate_store::remote::clone_id(&project.runtime_dir())?;
    let answered: Vec<String> = remote.seen_under(ANSWERS)?.into_iter().map(|(n, _)| n).collect();
    Ok(shared
        .iter()
        .filter_map(|(_, v)| SharedQuestion::parse(&v.body))
        .filter(|q| q.asker.clone != me)
        .map(|q| TeammateQuestion {
            answered: answered.contains(&answer_ref(&q.id)),
            id: q.id,
            feature: q.feature,
            question: q.question,
            options: q.options,
            person_only: q.person_only,
            asker: q.asker.describe(),
            asked_at: q.asked_at,
        })
        .collect())
}

/// `workflow-state question answer`: a question of this clone is answered
/// here ([`ask::answer`]); one only a teammate's clone holds, on the team's
/// remote.
pub fn answer(env: &Env, id: &str, text: &str, user: Option<&str>, source: Source) -> OpResult<Answered> {
    match ask::answer(env, id, text, user, source) {
        Err(e @ OpError::Invalid(Invalid::NoQuestion { .. })) => {
            let project = session::project(env)?;
            answer_teammates(&project, env, id, text)?.ok_or(e)
        }
        other => other,
    }
}

/// Answers question `id`, which a teammate's clone asked, on the team's
/// remote; None when no teammate's question has that id. A question only
/// a person may answer is answered at a terminal outside Claude Code.
fn answer_teammates(project: &Project, env: &Env, id: &str, text: &str) -> OpResult<Option<Answered>> {
    let Some(team) = Team::open(project, env)? else { return Ok(None) };
    let mut seen = team.remote().seen(&question_ref(id))?;
    // Not seen at the last sync: asked since, perhaps; one fetch, not a
    // sync (an unreachable remote leaves the id unknown here).
    if seen.is_none() && team.remote().fetch().is_ok() {
        seen = team.remote().seen(&question_ref(id))?;
    }
    let Some(value) = seen else { return Ok(None) };
    let Some(q) = SharedQuestion::parse(&value.body) else { return Ok(None) };
    if q.asker.clone == team.me().clone {
        return Ok(None);
    }
    if q.person_only && !matches!(env.operator(), Operator::Terminal { .. }) {
        return Err(Refusal::PersonOnly {
            id: q.id.clone(),
            what: format!("{}'s question: {}", q.asker.describe(), q.question),
        }
        .into());
    }
    let Some(choice) = q.interpret(text) else {
        let labels: Vec<String> = q.options.iter().enumerate().map(|(i, o)| format!("{} {o}", i + 1)).collect();
        return Err(Refusal::NotAnAnswer {
            id: q.id.clone(),
            text: text.trim().to_owned(),
            options: labels.join(", "),
        }
        .into());
    };
    let body = TeamAnswer { id: q.id.clone(), text: choice.clone(), by: team.me().clone(), at: env.now }.render();
    match team.remote().swap(&answer_ref(&q.id), None, Some(&body))? {
        Swap::Done => Ok(Some(Answered {
            id: q.id.clone(),
            feature: q.feature.clone(),
            answer: choice.clone(),
            option: (!q.options.is_empty()).then_some(choice),
            resumes: false,
            remembered: false,
            in_slack: false,
            team: Some(TeamSaid::AnsweredThere { remote: team.remote().name().to_owned(), asker: q.asker.describe() }),
        })),
        Swap::Moved => {
            Err(Refusal::AnsweredOnTeam { id: q.id.clone(), remote: team.remote().name().to_owned() }.into())
        }
        Swap::Unreachable(why) => {
            Err(Refusal::TeamUnreachable { id: q.id.clone(), remote: team.remote().name().to_owned(), why }.into())
        }
    }
}

/// `workflow-state team sync`: the coordination's sync (numbers, claims,
/// leases), then the questions' exchange; None without a team remote.
pub fn sync(env: &Env) -> OpResult<Option<Synced>> {
    let Some(mut synced) = coordination_team::sync(env)? else { return Ok(None) };
    if !synced.reached {
        return Ok(Some(synced));
    }
    let project = session::project(env)?;
    if let Some(team) = Team::open(&project, env)? {
        let exchanged = exchange(&team, &project, env)?;
        synced.answered = exchanged.taken;
        synced.clashes.extend(exchanged.refused);
    }
    Ok(Some(synced))
}

/// The heartbeat of this clone on the team's remote, for the plugin's
/// monitor (`monitor watch`, never a hook): a sync when the coordination's
/// part is due ([`coordination_team::beat_due`]) or a question waits for a
/// person here (published for teammates, their answer taken in). The
/// lines: clashes only (each becomes a notification to the model).
pub fn beat(env: &Env) -> OpResult<Vec<String>> {
    let project = session::project(env)?;
    let waits = project.repo().is_some() && !waiting(&project)?.is_empty();
    if !coordination_team::beat_due(env)? && !waits {
        return Ok(Vec::new());
    }
    let clashes = sync(env)?.map(|s| s.clashes).unwrap_or_default();
    Ok(clashes.into_iter().map(|c| format!("phasegate: {c}")).collect())
}
