//! Questions to a person: asking (routed to AskUserQuestion, a suspension,
//! or the queue; or not asked at all when the binary can answer it),
//! answering by id, listing, and taking an arrived answer back into the
//! item's work. Slack delivery is the poller's (`phasegate-slack`), through
//! [`Messenger`]; nothing here touches the network.

use phasegate_core::Status;
use phasegate_core::coordination::TeamSaid;
use phasegate_core::feature::Workflow;
use phasegate_core::questions::{
    self, Answer, Item, ItemType, Preference, Question, QuestionState, QuestionType, Request, RoundsFile, Route, Skip,
    Source,
};
use phasegate_core::questions::{AnsweredBy, AskSaid};
use phasegate_store::questions::{DialogNote, Place, Stored, question_change};
use phasegate_store::{Feature, FeatureGuard, FileWrite, Project, files};
use serde::Serialize;

use crate::coordination::effects::Effects;
use crate::coordination::events;
use crate::env::Env;
use crate::error::{Invalid, InvalidInput, OpError, OpResult, Refusal};
use crate::session;
use crate::witness;
use phasegate_core::feature::command::PromptWords;
use phasegate_core::session::SessionId;
use phasegate_core::witness::Operator;

/// How the session that asks can be reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interaction {
    /// A person is at the session (Claude Code's interactive CLI).
    Interactive,
    /// Nobody is: `claude -p`, a pipeline, a shell or CI.
    Headless,
}

impl Interaction {
    /// Claude Code sets `CLAUDE_CODE_ENTRYPOINT` to `cli` in an interactive
    /// session and `sdk-cli` for `claude -p`; anything else is headless.
    pub fn from_entrypoint(value: Option<&str>) -> Interaction {
        match value {
            Some("cli") => Interaction::Interactive,
            _ => Interaction::Headless,
        }
    }

    /// This process's, from its environment.
    pub fn of_this_process() -> Interaction {
        Interaction::from_entrypoint(std::env::var(crate::env::ENTRYPOINT).ok().as_deref())
    }
}

/// What a feature asks, and from where.
#[derive(Debug, Clone)]
pub struct AskInput {
    pub request: Request,
    /// The phase or task that asks.
    pub task: Option<String>,
    pub item_type: ItemType,
    pub session: Interaction,
    /// The implementer round this came from.
    pub round: Option<u32>,
}

/// Where a question went: the core's route, or nowhere since the binary
/// knew the answer or the question waits already.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Went {
    AskUser,
    Suspend,
    Queue,
    /// A preference or an earlier answer answered it.
    Answered,
    /// The same question waits for its answer already.
    AlreadyAsked,
}

impl From<Route> for Went {
    fn from(r: Route) -> Went {
        match r {
            Route::AskUser => Went::AskUser,
            Route::Suspend => Went::Suspend,
            Route::Queue => Went::Queue,
        }
    }
}

impl std::fmt::Display for Went {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Went::AskUser => "ask-user",
            Went::Suspend => "suspend",
            Went::Queue => "queue",
            Went::Answered => "answered",
            Went::AlreadyAsked => "already-asked",
        })
    }
}

/// What `question ask` prints: where the question went and what to do now.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Asked {
    pub route: Went,
    pub id: Option<String>,
    pub feature: String,
    pub file: Option<String>,
    /// For `ask-user`: the AskUserQuestion tool's input.
    pub ask_user_question: Option<serde_json::Value>,
    /// For `answered`: the answer.
    pub answer: Option<String>,
    /// For `queue`: the default to go on with meanwhile.
    pub proceed_with: Option<String>,
    #[serde(serialize_with = "phasegate_core::words::as_words")]
    pub message: AskSaid,
}

/// Asks a question for the feature `given`.
pub fn ask(env: &Env, given: Option<&str>, input: AskInput) -> OpResult<Asked> {
    ask_with(env, given, input, false)
}

/// Asks a question for the feature `given`, also when it is finished when
/// `about_finished_work` (the retrospective of a finished feature asks
/// before a lesson goes into CLAUDE.md).
pub fn ask_with(env: &Env, given: Option<&str>, input: AskInput, about_finished_work: bool) -> OpResult<Asked> {
    let (project, feature) = session::find(env, given)?;
    let config = project.questions().questions_config()?;
    let guard = feature.lock(env.lock_timeout)?;
    let meta = guard.load()?;
    if meta.status != Status::Active && !about_finished_work {
        return Err(Refusal::AsksNoMore { feature: feature.name().to_owned(), status: meta.status.to_string() }.into());
    }
    let slug = feature.name().to_owned();
    // Markers and the queue are this checkout's state, not history.
    project.exclude_scratch()?;
    let (stored, _) = project.questions().all()?;
    let known: Vec<Question> = stored.iter().filter(|s| s.question.slug == slug).map(|s| s.question.clone()).collect();
    let prefs = project.questions().preferences()?;
    if let Some(skip) = questions::skip(&input.request, &slug, &known, &prefs) {
        Effects::of("question ask").turn_to(feature.name()).apply_to_log(&project, env);
        return Ok(skipped(&slug, skip));
    }
    // A pipeline runs unattended whatever the session is.
    let session = if meta.workflow == Workflow::Pipeline { Interaction::Headless } else { input.session };
    let route = questions::route(input.request.blocking(), session == Interaction::Interactive, config.routing);
    if route == Route::Suspend
        && let Some(marker) = project.questions().marker(&slug)?
    {
        return Err(match marker.answer {
            None => Refusal::AlreadySuspended { feature: slug, id: marker.id, question: marker.question },
            // Regression: this named `question take`, a command that does not exist.
            Some(_) => Refusal::AnswerWaiting { feature: slug, id: marker.id },
        }
        .into());
    }
    let id = next_id(&slug, &known);
    let item = Item {
        slug: slug.clone(),
        item_type: input.item_type,
        item_path: files::relative(feature.dir(), project.root()).display().to_string(),
        plan_path: feature_plan(&project, &feature),
        task_id: input.task.clone(),
    };
    let mut q = Question::new(id.clone(), item, &input.request, config.timeout_minutes, env.now);
    q.round = input.round;
    q.session_id = env.session_var.clone();
    let path = match route {
        Route::Suspend => project.questions().marker_path(&slug),
        Route::AskUser | Route::Queue => project.questions().queued_path(&id),
    };
    guard.commit("question ask", vec![question_change(&path, &q)])?;
    let slack = config.slack.channels.for_item(q.item_type).is_some();
    Effects::of("question ask").turn_to(feature.name()).apply_to_log(&project, env);
    Ok(routed(&q, route, &path, slack))
}

/// What `question ask` says, before the fields of its route.
fn went(feature: &str, route: Went, id: Option<String>, message: AskSaid) -> Asked {
    Asked {
        route,
        id,
        feature: feature.to_owned(),
        file: None,
        ask_user_question: None,
        answer: None,
        proceed_with: None,
        message,
    }
}

/// A question the binary answered, or that waits already: not asked.
fn skipped(slug: &str, skip: Skip) -> Asked {
    match skip {
        Skip::Preference { tag, answer } => Asked {
            answer: Some(answer.clone()),
            ..went(slug, Went::Answered, None, AskSaid::Preference { tag, answer })
        },
        Skip::AlreadyAnswered { id, answer } => Asked {
            answer: Some(answer.clone()),
            ..went(slug, Went::Answered, Some(id.clone()), AskSaid::AlreadyAnswered { id, answer })
        },
        Skip::AlreadyAsked { id } => went(slug, Went::AlreadyAsked, Some(id.clone()), AskSaid::AlreadyAsked { id }),
    }
}

/// The question `q`, written at `path`, as its route has it asked:
/// through the dialog now, suspending its feature, or queued.
fn routed(q: &Question, route: Route, path: &std::path::Path, slack: bool) -> Asked {
    let (slug, id) = (q.slug.clone(), q.id.clone());
    let file = Some(path.display().to_string());
    match route {
        Route::AskUser => Asked {
            file,
            ask_user_question: Some(q.ask_user_question()),
            ..went(&slug, Went::AskUser, Some(id.clone()), AskSaid::AskUser { id, person_only: q.person_only() })
        },
        Route::Suspend => Asked {
            file,
            ..went(&slug, Went::Suspend, Some(id.clone()), AskSaid::Suspended { slug: slug.clone(), id, slack })
        },
        Route::Queue => Asked {
            file,
            proceed_with: q.default_option.clone(),
            ..went(
                &slug,
                Went::Queue,
                Some(id.clone()),
                AskSaid::Queued { id, default: q.default_option.clone().unwrap_or_default(), slack },
            )
        },
    }
}

fn feature_plan(project: &Project, feature: &Feature) -> Option<String> {
    let plan = feature.artifact_path(phasegate_core::Artifact::Plan);
    feature
        .has_file(phasegate_core::Artifact::Plan.file_name())
        .then(|| files::relative(&plan, project.root()).display().to_string())
}

/// `<slug>.<n>`, one more than any question of the item on record.
fn next_id(slug: &str, known: &[Question]) -> String {
    let n =
        known.iter().filter_map(|q| q.id.strip_prefix(slug)?.strip_prefix('.')?.parse::<u32>().ok()).max().unwrap_or(0);
    format!("{slug}.{}", n + 1)
}

/// A question as `question list` shows it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct View {
    pub id: String,
    pub feature: String,
    #[serde(rename = "type")]
    pub kind: QuestionType,
    pub blocking: bool,
    pub state: QuestionState,
    /// Its item is suspended on it.
    pub suspends: bool,
    pub question: String,
    pub task: Option<String>,
    pub asked: String,
    pub slack: Option<String>,
    pub answer: Option<String>,
    pub answered_by: Option<AnsweredBy>,
    pub file: String,
}

impl View {
    pub fn of(s: &Stored, now: chrono::DateTime<chrono::Utc>) -> View {
        let q = &s.question;
        let state = q.state(now);
        View {
            id: q.id.clone(),
            feature: q.slug.clone(),
            kind: q.kind,
            blocking: q.blocking,
            state,
            suspends: s.place == Place::Marker && state != QuestionState::Answered,
            question: q.question.clone(),
            task: q.task_id.clone(),
            asked: phasegate_core::time::stamp(q.suspended_at),
            slack: q
                .slack_thread_ts
                .as_ref()
                .map(|ts| format!("{} {ts}", q.slack_channel_id.clone().unwrap_or_default())),
            answer: q.answer.as_ref().map(|a| a.text.clone()),
            answered_by: q.answer.as_ref().map(|a| a.by),
            file: s.path.display().to_string(),
        }
    }
}

/// Every question on record; `open_only` leaves out answered ones that were
/// taken (archived). Unreadable files are errors listed by the caller.
pub fn list(env: &Env, open_only: bool) -> OpResult<(Vec<View>, Vec<String>)> {
    let project = session::project(env)?;
    let (stored, bad) = project.questions().all()?;
    let views =
        stored.iter().filter(|s| !open_only || s.question.taken_at.is_none()).map(|s| View::of(s, env.now)).collect();
    Ok((views, bad.into_iter().map(|u| u.error.to_string()).collect()))
}

/// Finds a question by id, or by feature (its marker, else its one open
/// question).
pub fn find(project: &Project, id: &str) -> OpResult<Stored> {
    let (stored, bad) = project.questions().all()?;
    if let Some(s) = stored.iter().find(|s| s.question.id == id) {
        return Ok(s.clone());
    }
    let open: Vec<&Stored> = stored.iter().filter(|s| s.question.slug == id && s.question.answer.is_none()).collect();
    if let Some(m) = open.iter().find(|s| s.place == Place::Marker) {
        return Ok((*m).clone());
    }
    if let [one] = open.as_slice() {
        return Ok((*one).clone());
    }
    let open = if open.len() > 1 { open.iter().map(|s| s.question.id.clone()).collect() } else { Vec::new() };
    let slug = id.rsplit_once('.').map_or(id, |(slug, _)| slug);
    let unreadable = match bad.iter().find(|b| b.feature() == Some(slug) || b.feature() == Some(id)) {
        Some(b) => Some(format!("; a question file of {slug} cannot be read: {}", b.error)),
        None => {
            bad.first().map(|b| format!(" ({} question file(s) cannot be read, e.g. {})", bad.len(), b.path.display()))
        }
    };
    Err(Invalid::NoQuestion { id: id.to_owned(), open, unreadable }.into())
}

/// What answering did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Answered {
    pub id: String,
    pub feature: String,
    pub answer: String,
    pub option: Option<String>,
    /// The item was suspended on this question and may go on now.
    pub resumes: bool,
    pub remembered: bool,
    /// The question was posted in Slack: the answer is told in its thread
    /// (at once when a token is at hand, else by the background poller).
    pub in_slack: bool,
    /// A teammate's question answered on the team's remote: what happens
    /// next.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "phasegate_core::words::as_words_opt")]
    pub team: Option<TeamSaid>,
}

/// Records an answer to question `id` (once: a second answer is refused).
/// `user` says who, for the record.
///
/// A question only a person may answer (a waiver, a budget raise, a
/// promotion into CLAUDE.md, an escalation) is recorded only from a
/// person's channel: inside Claude Code, when Claude Code's transcript of
/// this session shows the person typed this very answer with
/// `/phasegate:answer` after the question was asked; outside it, at a
/// terminal. Never from the model's own command, nor from a script with no
/// terminal. Its dialog answer is recorded from the dialog's result in the
/// transcript ([`confirm_dialogs`]), its Slack answer by the poller.
pub fn answer(env: &Env, id: &str, text: &str, user: Option<&str>, source: Source) -> OpResult<Answered> {
    let project = session::project(env)?;
    let found = find(&project, id)?;
    let q = &found.question;
    let mut user = user.map(str::to_owned);
    let source = match (source, q.person_only()) {
        (Source::Cli, true) => match env.operator() {
            Operator::ClaudeCode { session, .. } => match typed_by_person(&project, env, q, text, session.as_deref()) {
                true => Source::Typed,
                false => return Err(person_only(q)),
            },
            Operator::Terminal { user: who, .. } => {
                user = user.or(who);
                Source::Terminal
            }
            Operator::Unattended { .. } => return Err(person_only(q)),
        },
        (other, _) => other,
    };
    record(env, &project, found, text, user.as_deref(), source)
}

/// The refusal of a person's decision at the model's hand.
fn person_only(q: &Question) -> OpError {
    let what = match q.task_id.as_deref().unwrap_or_default().split_once(' ') {
        Some(("verify-waive", r)) => format!("whether {r} of {} is done without proof", q.slug),
        Some(("budget", f)) => format!("whether {f} goes on past its budget"),
        Some(("kb-promote", item)) => format!("whether {item} goes into CLAUDE.md"),
        Some(("tamper-clear", f)) => format!("whether the marks of tampering of {f} are cleared"),
        _ => format!("{} of {}", q.question, q.slug),
    };
    Refusal::PersonOnly { id: q.id.clone(), what }.into()
}

/// Whether Claude Code's transcript of `session` shows the person typed
/// `/phasegate:answer <id or item> <text>` after `q` was asked.
fn typed_by_person(project: &Project, env: &Env, q: &Question, text: &str, session: Option<&str>) -> bool {
    let (Some(claude_dir), Some(session)) = (env.claude_dir.as_ref(), session.and_then(|s| SessionId::parse(s).ok()))
    else {
        return false;
    };
    let Some(transcript) = witness::transcript_of(project, claude_dir, &session) else { return false };
    let Ok(prompts) = phasegate_store::claude::typed_prompts(&transcript, claude_dir, q.suspended_at) else {
        return false;
    };
    prompts.iter().any(|p| {
        PromptWords::of_recorded_prompt(&p.text, p.at).is_some_and(|w| w.typed_answer(&q.id, &q.slug, text, env.now))
    })
}

/// How long a dialog's note waits for its result in the transcript.
const DIALOG_NOTE_LIFE: chrono::TimeDelta = chrono::TimeDelta::hours(24);

/// Records the choices people made in the question dialogs noted by the
/// PostToolUse hook, each read from Claude Code's transcript of the dialog
/// (its tool result, by the tool call's id): what a hook's input said is
/// never taken for them. A dialog whose result is not written yet waits
/// for the next look; one gone unread for a day is dropped. Each result is
/// the question's id with what was recorded, or why not.
pub fn confirm_dialogs(project: &Project, env: &Env) -> Vec<DialogAnswer> {
    confirm_notes(project, env, project.questions().dialog_notes()).0
}

/// A dialog's answer recorded, or the question's id and why not.
pub type DialogAnswer = Result<Answered, (String, OpError)>;

/// [`confirm_dialogs`] over `notes`; also the tool calls whose result is
/// not written yet. A note is dropped once its dialog was read and each of
/// its questions is answered or cannot be (an answer recorded, refused for
/// good, or none chosen); one whose answer could not be written this time
/// (a lock held too long, a write that failed) stays for the next look, so
/// the person's choice is never lost.
fn confirm_notes(project: &Project, env: &Env, notes: Vec<DialogNote>) -> (Vec<DialogAnswer>, Vec<String>) {
    let mut out = Vec::new();
    let mut unwritten = Vec::new();
    let Some(claude_dir) = env.claude_dir.as_ref() else { return (out, unwritten) };
    for note in notes {
        let result = SessionId::parse(&note.session)
            .ok()
            .and_then(|s| witness::transcript_of(project, claude_dir, &s))
            .and_then(|t| phasegate_store::claude::tool_result(&t, claude_dir, &note.tool_use_id).ok().flatten());
        let Some(line) = result else {
            if env.now.signed_duration_since(note.at) > DIALOG_NOTE_LIFE {
                project.questions().drop_dialog_note(&note.tool_use_id);
            }
            unwritten.push(note.tool_use_id);
            continue;
        };
        let answers = line.get("toolUseResult").and_then(|r| r.get("answers")).and_then(serde_json::Value::as_object);
        let mut keep = false;
        for id in &note.questions {
            let found = match find(project, id) {
                Ok(found) => found,
                // A question taken back is gone for good.
                Err(OpError::Invalid(Invalid::NoQuestion { .. })) => continue,
                // One not read now (a folder that failed to read) may be
                // read next time: the note stays for the next look.
                Err(e) => {
                    keep = true;
                    events::note_problem(
                        project,
                        env,
                        "question dialog",
                        &format!("the dialog's question {id} was not read: {e}"),
                    );
                    continue;
                }
            };
            if found.question.answer.is_some() {
                continue;
            }
            let Some(choice) = answers.and_then(|a| a.get(&found.question.dialog_text())).and_then(|c| c.as_str())
            else {
                let keys: Vec<&str> = answers.map(|a| a.keys().map(String::as_str).collect()).unwrap_or_default();
                events::note_problem(
                    project,
                    env,
                    "question dialog",
                    &format!(
                        "the dialog's result names no choice for {id} (it asked {:?}; the result answers {keys:?})",
                        found.question.dialog_text()
                    ),
                );
                continue;
            };
            let choice = choice.trim().trim_end_matches("(Recommended)").trim().to_owned();
            let recorded = record(env, project, found, &choice, None, Source::Dialog);
            match &recorded {
                Ok(_) => {}
                // Another reader recorded it first: no problem.
                Err(OpError::Refused(Refusal::AlreadyAnswered { .. })) => {}
                Err(e) => {
                    keep |= !matches!(e, OpError::Refused(_) | OpError::Invalid(_));
                    events::note_problem(
                        project,
                        env,
                        "question dialog",
                        &format!("the dialog's answer to {id} was not recorded: {e}"),
                    );
                }
            }
            out.push(recorded.map_err(|e| (id.clone(), e)));
        }
        if !keep || env.now.signed_duration_since(note.at) > DIALOG_NOTE_LIFE {
            project.questions().drop_dialog_note(&note.tool_use_id);
        }
    }
    (out, unwritten)
}

/// How long a command that needs a person's answer waits for a dialog's
/// result Claude Code has not written to its transcript yet. Only a dialog
/// opened and not written yet is waited for: a written one is read at once.
const DIALOG_WAIT: std::time::Duration = std::time::Duration::from_secs(15);

/// A dialog noted this long ago or less may still be unwritten.
const DIALOG_FRESH: chrono::TimeDelta = chrono::TimeDelta::minutes(1);

/// A dialog this session's model opened this long ago or less, whose
/// result is not in the transcript, may still be answered and written.
const DIALOG_OPEN: chrono::TimeDelta = chrono::TimeDelta::hours(1);

/// [`confirm_dialogs`] for a command that needs a person's answer (a
/// waiver, a clearing, a promotion): Claude Code writes a dialog's result
/// to its transcript a moment after its hooks ran, sometimes after the next
/// tool call, so a dialog whose result is not written yet is looked at
/// again for a few seconds. The dialogs are those the PostToolUse hook
/// noted and, inside Claude Code, those this session's transcript shows
/// its model opened on a question only a person may answer (so a hook
/// that did not run, or ran late, loses no choice). Nothing to wait for
/// when no such question is open (one folder lookup, one question read).
pub fn confirm_dialogs_settled(project: &Project, env: &Env) {
    let opened = dialogs_opened_here(project, env);
    if !project.questions().has_dialog_notes() && opened.is_empty() {
        return;
    }
    let deadline = std::time::Instant::now() + DIALOG_WAIT;
    loop {
        let mut notes = project.questions().dialog_notes();
        for o in &opened {
            if !notes.iter().any(|n| n.tool_use_id == o.tool_use_id) {
                notes.push(o.clone());
            }
        }
        let (results, unwritten) = confirm_notes(project, env, notes);
        // An answer that could not be written this time (a lock held, a
        // write that failed) is tried again within the wait; why it
        // failed is kept where `status` reads the hooks' problems.
        let retry = results
            .iter()
            .any(|r| r.as_ref().is_err_and(|(_, e)| !matches!(e, OpError::Refused(_) | OpError::Invalid(_))));
        let noted_fresh = project
            .questions()
            .dialog_notes()
            .iter()
            .any(|n| unwritten.contains(&n.tool_use_id) && env.now.signed_duration_since(n.at) < DIALOG_FRESH);
        let opened_waits = opened
            .iter()
            .any(|o| unwritten.contains(&o.tool_use_id) && env.now.signed_duration_since(o.at) < DIALOG_OPEN);
        if !(noted_fresh || opened_waits || retry) || std::time::Instant::now() >= deadline {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// The question dialogs this Claude Code session's model opened, as its
/// transcript records them, on open questions only a person may answer
/// (never one whose call carried its own answers). Empty outside Claude
/// Code and when no such question is open.
fn dialogs_opened_here(project: &Project, env: &Env) -> Vec<DialogNote> {
    let Operator::ClaudeCode { session: Some(session), .. } = env.operator() else { return Vec::new() };
    let (Some(claude_dir), Ok(session)) = (env.claude_dir.as_ref(), SessionId::parse(&session)) else {
        return Vec::new();
    };
    let Ok((stored, _)) = project.questions().all() else { return Vec::new() };
    let open: Vec<Question> =
        stored.into_iter().map(|s| s.question).filter(|q| q.answer.is_none() && q.person_only()).collect();
    let Some(since) = open.iter().map(|q| q.suspended_at).min() else { return Vec::new() };
    let Some(transcript) = witness::transcript_of(project, claude_dir, &session) else { return Vec::new() };
    let Ok(asks) = phasegate_store::claude::dialog_asks(&transcript, claude_dir, since) else { return Vec::new() };
    asks.into_iter()
        .filter(|a| !a.prefilled)
        .filter_map(|a| {
            let questions: Vec<String> = open
                .iter()
                .filter(|q| a.at >= q.suspended_at && a.questions.contains(&q.dialog_text()))
                .map(|q| q.id.clone())
                .collect();
            (!questions.is_empty()).then(|| DialogNote {
                tool_use_id: a.tool_use_id,
                session: session.as_str().to_owned(),
                questions,
                at: a.at,
            })
        })
        .collect()
}

/// A yes-or-no question only a person answers (a waiver, a promotion, a
/// clearing of tamper marks): blocking, its two options described, no
/// free text; `context` is what the person is asked about (a waiver's
/// reason), shown with the question.
pub(crate) fn yes_or_no(text: String, context: Option<&str>, yes: &str, no: &str) -> OpResult<Request> {
    let mut request = serde_json::json!({
        "type": "blocking",
        "text": text,
        "options": [{"label": "Yes", "description": yes}, {"label": "No", "description": no}],
        "allowFreeText": false
    });
    if let Some(context) = context {
        request["context"] = context.into();
    }
    Request::parse(&request.to_string()).invalid_input()
}

/// Records `text` as the answer to `found` from `source` (the checks of
/// who may answer are the caller's).
pub(crate) fn record(
    env: &Env,
    project: &Project,
    found: Stored,
    text: &str,
    user: Option<&str>,
    source: Source,
) -> OpResult<Answered> {
    let feature = project.feature_named(&found.question.slug);
    let guard = feature.lock(env.lock_timeout)?;
    // Read again under the lock: another answer may have won.
    let Some(mut q) = phasegate_store::questions::read_question(project.root(), &found.path)? else {
        return Err(Refusal::TakenBack { id: found.question.id.clone() }.into());
    };
    if let Some(a) = &q.answer {
        return Err(Refusal::AlreadyAnswered {
            id: q.id.clone(),
            answered_in: a.source,
            by: a.by,
            at: phasegate_core::time::stamp(a.at),
            text: a.text.clone(),
        }
        .into());
    }
    let Some((text, option)) = q.interpret(text) else {
        let options = q.options.iter().enumerate().map(|(i, c)| format!("{} {}", i + 1, c.label)).collect();
        return Err(Invalid::NoOption { id: q.id.clone(), text: text.trim().to_owned(), options }.into());
    };
    let mut answer = Answer {
        text: text.clone(),
        option: option.clone(),
        by: AnsweredBy::Human,
        source,
        user: user.map(str::to_owned),
        at: env.now,
        // Told in the question's Slack thread by the next poll, so people
        // there see it answered; nothing to tell without a thread.
        acknowledged: q.slack_thread_ts.is_none(),
        seal: None,
    };
    witness::seal_answer(&witness::key(env)?, &q, &mut answer);
    q.answer = Some(answer);
    // The answer and the preference it teaches are written together, and
    // the preferences are read before anything is: an unreadable file
    // refuses the answer whole, so a retry can record both.
    let (remembered, prefs_lock) = remembered_change(project, env, &q)?;
    let mut changes = vec![question_change(&found.path, &q)];
    let remembered = remembered.map(|c| changes.push(c)).is_some();
    guard.commit("question answer", changes)?;
    drop(prefs_lock);
    drop(guard);
    Effects::of("question answer").question_answered(&q.id).apply_to_log(project, env);
    Ok(Answered {
        id: q.id.clone(),
        feature: q.slug.clone(),
        answer: text,
        option,
        resumes: found.place == Place::Marker,
        remembered,
        in_slack: q.slack_thread_ts.is_some(),
        team: None,
    })
}

/// A person's answer to a preference question is remembered for later
/// questions: the change that writes the preferences with it, and their lock
/// (held until the change is committed, after the feature's lock). None for
/// any other answer. An unreadable preferences file is an error, before
/// anything is written.
pub fn remembered_change(
    project: &Project,
    env: &Env,
    q: &Question,
) -> OpResult<(Option<FileWrite>, Option<phasegate_store::lock::FileLock>)> {
    let Some(a) = &q.answer else { return Ok((None, None)) };
    if q.kind != questions::QuestionType::Preference || a.by != AnsweredBy::Human {
        return Ok((None, None));
    }
    let lock = project.questions().preferences_lock(env.lock_timeout)?;
    let mut prefs = project.questions().preferences()?;
    for k in questions::preference_keys(&q.tags, &q.question) {
        prefs.insert(k, Preference { answer: a.text.clone(), question: q.question.clone(), at: a.at });
    }
    Ok((Some(project.questions().preferences_change(&prefs)), Some(lock)))
}

/// An answer taken back into its item's work.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Taken {
    pub id: String,
    pub question: String,
    pub answer: String,
    pub by: AnsweredBy,
    pub task: Option<String>,
    pub round: Option<u32>,
}

/// The changes that take the feature's arrived answers (its marker, and
/// expired defaults) out of the open questions: the marker moves to the
/// archive, so the item is no longer suspended, and an answer to a round
/// loop's question becomes that loop's next `A_n`, marked with who answered
/// (in `rounds` when the caller holds the rounds file, else in a change of
/// `.rounds.json` returned here). The caller commits the changes with its
/// own, under `guard`.
pub fn take_answers(
    project: &Project,
    guard: &FeatureGuard<'_>,
    env: &Env,
    rounds: Option<&mut RoundsFile>,
) -> OpResult<(Vec<Taken>, Vec<FileWrite>)> {
    let slug = guard.feature().name();
    let (stored, _) = project.questions().all()?;
    let mut taken = Vec::new();
    let mut changes = Vec::new();
    let mut key = None;
    for s in stored.iter().filter(|s| s.question.slug == slug && s.question.taken_at.is_none()) {
        let mut q = s.question.clone();
        if q.answer.is_none() && q.state(env.now) == QuestionState::Expired {
            let key = match &key {
                Some(k) => k,
                None => key.insert(witness::key(env)?),
            };
            q.answer = witness::sealed_default(key, &q, env.now);
        }
        let Some(a) = q.answer.clone() else { continue };
        q.taken_at = Some(env.now);
        let archived = project.questions().queued_path(&q.id);
        changes.push(question_change(&archived, &q));
        if s.place == Place::Marker {
            changes.push(FileWrite::remove(&s.path));
        }
        taken.push(Taken {
            id: q.id.clone(),
            question: q.question.clone(),
            answer: a.text.clone(),
            by: a.by,
            task: q.task_id.clone(),
            round: q.round,
        });
    }
    if !taken.is_empty() {
        let mut own;
        let (file, write) = match rounds {
            Some(file) => (file, false),
            None => {
                own = guard.feature().read_rounds()?;
                (&mut own, true)
            }
        };
        let mut changed = false;
        for t in &taken {
            changed |= file.take_answer(&t.id, &t.answer, t.by, env.now).is_some();
        }
        if changed && write {
            changes.push(guard.rounds_change(file));
        }
    }
    Ok((taken, changes))
}

/// The changes that withdraw the feature's open questions when it ends
/// (finished or abandoned): each is archived as taken and withdrawn, its
/// marker removed, so nobody is asked, reminded or shown it any more.
pub fn withdraw_open(project: &Project, guard: &FeatureGuard<'_>, env: &Env) -> OpResult<Vec<FileWrite>> {
    let slug = guard.feature().name();
    let (stored, _) = project.questions().all()?;
    let mut changes = Vec::new();
    for s in stored.iter().filter(|s| s.question.slug == slug && s.question.taken_at.is_none()) {
        let mut q = s.question.clone();
        q.taken_at = Some(env.now);
        if q.answer.is_none() {
            q.withdrawn_at = Some(env.now);
        }
        changes.push(question_change(&project.questions().queued_path(&q.id), &q));
        if s.place == Place::Marker {
            changes.push(FileWrite::remove(&s.path));
        }
    }
    Ok(changes)
}

/// Why an item may not go on: it is suspended on an unanswered question.
pub fn suspended_on(project: &Project, slug: &str) -> OpResult<Option<Question>> {
    Ok(project.questions().marker(slug)?.filter(|q| q.answer.is_none()))
}

/// The refusal for starting work on a suspended item.
pub fn suspended_refusal(q: &Question) -> OpError {
    Refusal::Suspended { feature: q.slug.clone(), id: q.id.clone(), question: q.question.clone() }.into()
}
