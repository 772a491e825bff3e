//! What a gate believes, below every capability: a reviewer's verdict is
//! taken from Claude Code's own transcript of the reviewer sub-agent the
//! brief named, never from a file the model wrote; a person's decision
//! needs a person's channel; the sealing key signs what the binaries
//! wrote. Every gate (the phase loop, a task's review cycle, the
//! pipeline's review gates, proof, waivers, budget raises, promotions)
//! comes here, so the rules are said once (`phasegate_core::witness`).

use phasegate_core::feature::extract_json;
use phasegate_core::questions::{Answer, Question};
use phasegate_core::seal::{SealKey, SealKind};
use phasegate_core::session::SessionId;
use phasegate_core::witness::{self, BriefNote, Operator, RecordedBy, RunSeen};
use phasegate_store::Project;
use phasegate_store::claude;

use crate::env::Env;
use crate::error::{Invalid, OpError, OpResult, Refusal};

/// The user's sealing key (made on first use).
pub fn key(env: &Env) -> OpResult<SealKey> {
    let dir = env.key_dir.as_ref().ok_or(Invalid::NoKeyFolder)?;
    Ok(phasegate_store::seal::key(dir)?)
}

/// What a reviewer is briefed for: a feature and what is reviewed in it
/// (`specify#2`, `T3#1`, `plan:sonnet#1`), and the agent type to spawn.
#[derive(Debug, Clone)]
pub struct Subject<'a> {
    pub feature: &'a str,
    pub key: String,
    pub agent: String,
}

/// Notes the brief of `subject` with its prompt (sealed), so the verdict
/// can be matched to a reviewer spawned with it.
pub fn note_brief(env: &Env, project: &Project, subject: &Subject<'_>, prompt: &str) -> OpResult<()> {
    let key = key(env)?;
    let mut note = BriefNote {
        feature: subject.feature.to_owned(),
        subject: subject.key.clone(),
        agent: subject.agent.clone(),
        digest: witness::prompt_digest(prompt),
        at: env.now,
        session: env.session_var.clone(),
        seal: None,
    };
    note.seal = Some(key.seal_json(SealKind::Brief, &note));
    Ok(project.witness().note_brief(note, env.lock_timeout)?)
}

/// A verdict and who gave it.
#[derive(Debug, Clone)]
pub struct Verdict {
    /// The reply, as the reviewer wrote it (or the file a person gave).
    pub text: String,
    /// Where it was read, for messages.
    pub source: String,
    pub by: RecordedBy,
    /// The reviewer's model, as Claude Code ran it (a reviewer only).
    pub model: Option<String>,
}

impl Verdict {
    /// The reviewer run this came from, if a reviewer gave it.
    pub fn agent_id(&self) -> Option<&str> {
        match &self.by {
            RecordedBy::Reviewer { agent_id, .. } => Some(agent_id),
            RecordedBy::Terminal { .. } | RecordedBy::Unattended { .. } => None,
        }
    }
}

/// A reply given to a record command (`--verdict-file`, `--reply-file`).
#[derive(Debug, Clone)]
pub struct Given {
    /// "the verdict in <file>", "the verdict on stdin".
    pub source: String,
    pub text: String,
}

/// The verdict of `subject`'s current review. Inside Claude Code it is the
/// last message of the reviewer sub-agent the brief named, spawned with
/// the brief's prompt after the brief and not counted before (a reply
/// given as well must be that one); outside Claude Code, a person's file,
/// recorded as theirs. `brief` is the command that briefs the reviewer.
pub fn verdict(
    env: &Env,
    project: &Project,
    subject: &Subject<'_>,
    given: Option<Given>,
    brief: &str,
) -> OpResult<Verdict> {
    let operator = env.operator();
    match operator.recorded_by() {
        Some(by) => {
            let Some(given) = given else {
                return Err(Invalid::VerdictToGive { agent: subject.agent.clone(), brief: brief.to_owned() }.into());
            };
            Ok(Verdict { text: given.text, source: given.source, by, model: None })
        }
        None => {
            let seen = reviewer_reply(env, project, subject, &operator, brief)?;
            if let Some(given) = given
                && !same_reply(&given.text, &seen.text)
            {
                return Err(Refusal::NotTheReviewers {
                    given: given.source,
                    agent: subject.agent.clone(),
                    agent_id: seen.agent_id().unwrap_or_default().to_owned(),
                }
                .into());
            }
            Ok(seen)
        }
    }
}

/// Notes that `verdict`'s run was taken (counted, or refused as no
/// verdict), so it is never taken again.
pub fn count(env: &Env, project: &Project, feature: &str, verdict: &Verdict) -> OpResult<()> {
    match verdict.agent_id() {
        Some(id) => Ok(project.witness().count_run(feature, id, env.lock_timeout)?),
        None => Ok(()),
    }
}

/// Whether two replies say the same: the same words, or the same JSON.
fn same_reply(a: &str, b: &str) -> bool {
    if witness::normalize(a) == witness::normalize(b) {
        return true;
    }
    let json = |t: &str| extract_json(t).and_then(|j| serde_json::from_str::<serde_json::Value>(j).ok());
    matches!((json(a), json(b)), (Some(x), Some(y)) if x == y)
}

/// The reviewer's reply for `subject`, from Claude Code's transcripts of
/// this session and of the sessions its briefs were given in.
fn reviewer_reply(
    env: &Env,
    project: &Project,
    subject: &Subject<'_>,
    operator: &Operator,
    brief: &str,
) -> OpResult<Verdict> {
    let key = key(env)?;
    let briefs: Vec<BriefNote> = project
        .witness()
        .brief_notes(subject.feature)?
        .into_iter()
        .filter(|n| n.subject == subject.key && n.agent == subject.agent)
        .filter(|n| n.seal.as_deref().is_some_and(|s| key.verify_json(SealKind::Brief, &n.unsealed(), s)))
        .collect();
    let refuse = |why: String| -> OpError {
        Refusal::NoReviewerVerdict {
            agent: subject.agent.clone(),
            subject: subject.key.clone(),
            why,
            brief: brief.to_owned(),
        }
        .into()
    };
    if briefs.is_empty() {
        return Err(refuse(format!("no brief was given for {}", subject.key)));
    }
    let claude_dir =
        env.claude_dir.clone().ok_or_else(|| refuse("Claude Code's folder is unknown (HOME is not set)".into()))?;
    let session = match operator {
        Operator::ClaudeCode { session, .. } => session.clone(),
        Operator::Terminal { .. } | Operator::Unattended { .. } => None,
    };
    let mut sessions: Vec<String> = session.into_iter().collect();
    for b in &briefs {
        if let Some(s) = &b.session
            && !sessions.contains(s)
        {
            sessions.push(s.clone());
        }
    }
    let counted = project.witness().counted_runs(subject.feature)?;
    // Claude Code may write a sub-agent's last lines (or its whole run) a
    // moment after the Agent tool returned: a run seen without its reply,
    // or none seen, is looked at again for a few seconds.
    let deadline = std::time::Instant::now() + REPLY_WAIT;
    loop {
        let mut runs = runs_of(project, &claude_dir, &sessions, &subject.agent);
        let seen: Vec<RunSeen> = runs.iter().map(|r| r.0.clone()).collect();
        match witness::pick_run(&briefs, &seen, &|id| counted.iter().any(|c| c == id)) {
            Ok(i) => {
                let (run, session, reply, model) = runs.swap_remove(i);
                return Ok(Verdict {
                    text: reply.unwrap_or_default(),
                    source: format!("the reply of {} ({})", subject.agent, run.agent_id),
                    by: RecordedBy::Reviewer { agent: subject.agent.clone(), agent_id: run.agent_id, session },
                    model,
                });
            }
            // Under load it may not have written the run at all yet (seen
            // by the e2e task cycle on a fresh CI machine, and by the
            // pipeline's opus review, whose run was not written while the
            // sonnet reviewers' runs, with other prompts, were): whatever
            // is seen instead, it is looked for again within the wait.
            Err(
                witness::NoRun::NoReply { .. }
                | witness::NoRun::NoneOfType
                | witness::NoRun::OtherPrompt { .. }
                | witness::NoRun::BeforeBrief { .. }
                | witness::NoRun::Counted { .. },
            ) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            Err(e) => return Err(refuse(e.to_string())),
        }
    }
}

/// How long a record waits for a reviewer's reply Claude Code has not
/// written to its transcript yet.
const REPLY_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// A run seen, the session it ran in, its reply and its model.
type Run = (RunSeen, String, Option<String>, Option<String>);

/// The runs of sub-agents of type `agent` in `sessions`, from Claude
/// Code's transcripts.
fn runs_of(project: &Project, claude_dir: &std::path::Path, sessions: &[String], agent: &str) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for s in sessions {
        let Ok(id) = SessionId::parse(s) else { continue };
        let Some(transcript) = transcript_of(project, claude_dir, &id) else { continue };
        for a in claude::agent_transcripts(&transcript) {
            if a.agent_type.as_deref() != Some(agent) {
                continue;
            }
            let Ok(run) = claude::agent_run(&a.path, claude_dir) else { continue };
            runs.push((
                RunSeen {
                    agent_id: a.agent_id.clone(),
                    agent_type: a.agent_type.clone(),
                    started_at: run.started_at,
                    digest: run.prompt.as_deref().map(witness::prompt_digest),
                    replied: run.reply.is_some(),
                },
                s.clone(),
                run.reply,
                a.model,
            ));
        }
    }
    runs
}

/// A session's transcript: where its SessionStart hook said, else where
/// Claude Code keeps it.
pub fn transcript_of(
    project: &Project,
    claude_dir: &std::path::Path,
    session: &SessionId,
) -> Option<std::path::PathBuf> {
    let noted =
        project.cost().session(session).ok().flatten().and_then(|log| log.transcript).map(std::path::PathBuf::from);
    noted.filter(|p| claude::confined(p, claude_dir).is_ok()).or_else(|| claude::find_transcript(claude_dir, session))
}

/// Seals `answer` to question `q` (what [`person_answer`] verifies).
pub fn seal_answer(key: &SealKey, q: &Question, answer: &mut Answer) {
    answer.seal = None;
    answer.seal = Some(key.seal_json(SealKind::Answer, &q.sealed_answer(answer)));
}

/// The default answer of an expired question, sealed as the binary's own
/// (by the default, never a person's).
pub fn sealed_default(key: &SealKey, q: &Question, now: chrono::DateTime<chrono::Utc>) -> Option<Answer> {
    let mut a = q.default_answer(now)?;
    seal_answer(key, q, &mut a);
    Some(a)
}

/// A question's answer as a gate reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PersonAnswer<'a> {
    /// Not answered.
    None,
    /// Answered, and the binary recorded it (its seal verifies).
    Recorded(&'a Answer),
    /// An answer the binary did not record: the file was edited by hand (or
    /// copied from another machine). It answers nothing.
    NotRecorded(&'a Answer),
}

/// `q`'s answer, if the binary recorded it: what every gate that needs a
/// person's decision reads (a waiver, a budget raise, a promotion, an
/// escalation).
pub fn person_answer<'a>(key: &SealKey, q: &'a Question) -> PersonAnswer<'a> {
    match &q.answer {
        None => PersonAnswer::None,
        Some(a) => match &a.seal {
            Some(seal) if key.verify_json(SealKind::Answer, &q.sealed_answer(a), seal) => PersonAnswer::Recorded(a),
            _ => PersonAnswer::NotRecorded(a),
        },
    }
}
