//! Claude Code's own records of its sessions, read as evidence and never
//! written: a session's transcript (`<claude dir>/projects/<project>/<session>.jsonl`)
//! and its sub-agents' (`<session>/subagents/agent-<id>.jsonl`, with an
//! `agent-<id>.meta.json` naming the agent's type and the tool call that
//! spawned it). A gate reads here what happened (a reviewer spawned with a
//! prompt and what it answered, a person's choice in the question dialog,
//! a prompt the person typed) instead of what the model says happened.
//!
//! Only regular files inside Claude Code's folder are read: a link out of
//! it is refused, so a transcript cannot be swapped for a file elsewhere.
//! Lines are read bounded ([`MAX_LINE`]); a line that is not JSON is
//! skipped.

use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use phasegate_core::session::SessionId;
use serde::Deserialize;
use serde_json::Value;

use crate::fs;

/// The longest transcript line read; a longer one is skipped, never held.
pub const MAX_LINE: u64 = 16 * 1024 * 1024;

/// How much of a transcript's end is read first when looking for what
/// happened lately (the whole file is read only when that is not enough).
const TAIL: u64 = 8 * 1024 * 1024;

/// Claude Code's folder for `home` (`~/.claude`).
pub fn claude_dir(home: &Path) -> PathBuf {
    home.join(".claude")
}

/// Why a transcript was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unread {
    Missing,
    /// A link in Claude Code's folder that leads out of it.
    LinkOut {
        lands: PathBuf,
    },
    /// A path that is not in Claude Code's folder at all: a session that
    /// ran under another HOME or CLAUDE_CONFIG_DIR (`folder` is this one's).
    Elsewhere {
        folder: PathBuf,
    },
    NotRegular,
    Io(String),
}

impl std::fmt::Display for Unread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unread::Missing => f.write_str("it is missing"),
            Unread::LinkOut { lands } => write!(f, "it is a link out of Claude Code's folder (to {})", lands.display()),
            Unread::Elsewhere { folder } => write!(
                f,
                "it is not in Claude Code's folder here ({}): its session ran under another HOME or CLAUDE_CONFIG_DIR, and only this one's transcripts are read",
                folder.display()
            ),
            Unread::NotRegular => f.write_str("it is not a regular file"),
            Unread::Io(e) => f.write_str(e),
        }
    }
}

/// The real path of `path`, if it lies under `allowed` (Claude Code's
/// folder, `~/.claude`) and is a regular file: a transcript is only read
/// there.
pub fn confined(path: &Path, allowed: &Path) -> Result<PathBuf, Unread> {
    let real = match dunce::canonicalize(path) {
        Ok(r) => r,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(Unread::Missing),
        Err(e) => return Err(Unread::Io(format!("{}: {e}", path.display()))),
    };
    let root = crate::fs::canonical_or_same(allowed);
    if !real.starts_with(&root) {
        // Named inside the folder (as given, or its folder resolved), it
        // is a link out; otherwise it was never in this folder.
        let named_inside = path.starts_with(allowed)
            || path.starts_with(&root)
            || path
                .parent()
                .and_then(crate::fs::canonical)
                .is_some_and(|dir| dir.join(path.file_name().unwrap_or_default()).starts_with(&root));
        return Err(if named_inside { Unread::LinkOut { lands: real } } else { Unread::Elsewhere { folder: root } });
    }
    match std::fs::metadata(&real) {
        Ok(m) if m.is_file() => Ok(real),
        Ok(_) => Err(Unread::NotRegular),
        Err(e) => Err(Unread::Io(format!("{}: {e}", real.display()))),
    }
}

/// A session's transcript when no hook said where it is: Claude Code keeps
/// it as `<claude dir>/projects/<project>/<session id>.jsonl`.
pub fn find_transcript(claude_dir: &Path, session: &SessionId) -> Option<PathBuf> {
    let id = session.as_str();
    // An id is a file name here: none that could lead elsewhere.
    if id.contains(['/', '\\']) || id.starts_with('.') {
        return None;
    }
    let name = format!("{id}.jsonl");
    let projects = claude_dir.join("projects");
    let dirs = std::fs::read_dir(&projects).ok()?;
    dirs.flatten().map(|d| d.path().join(&name)).find(|p| fs::is_regular_file(p))
}

/// A sub-agent's transcript and what its meta file says.
#[derive(Debug, Clone)]
pub struct AgentTranscript {
    pub path: PathBuf,
    /// The agent's id (`agent-<id>.jsonl`).
    pub agent_id: String,
    pub agent_type: Option<String>,
    /// The Agent tool call that spawned it.
    pub tool_use: Option<String>,
    /// The model it ran on, as Claude Code chose it.
    pub model: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct AgentMeta {
    agent_type: Option<String>,
    tool_use_id: Option<String>,
    model: Option<String>,
}

/// The sub-agents' transcripts of the session whose transcript is
/// `transcript` (`<dir>/<session>.jsonl` → `<dir>/<session>/subagents/`).
pub fn agent_transcripts(transcript: &Path) -> Vec<AgentTranscript> {
    let Some(stem) = transcript.file_stem() else { return Vec::new() };
    let dir = transcript.with_file_name(stem).join("subagents");
    let Ok(files) = fs::regular_files(&dir) else { return Vec::new() };
    let mut out = Vec::new();
    for (name, path) in &files {
        let Some(agent) = name.strip_suffix(".jsonl") else { continue };
        let meta = dir.join(format!("{agent}.meta.json"));
        let meta: Option<AgentMeta> =
            fs::read_optional_up_to(&meta, 1024 * 1024).ok().flatten().and_then(|t| serde_json::from_str(&t).ok());
        out.push(AgentTranscript {
            path: path.clone(),
            agent_id: agent.strip_prefix("agent-").unwrap_or(agent).to_owned(),
            agent_type: meta.as_ref().and_then(|m| m.agent_type.clone()),
            tool_use: meta.as_ref().and_then(|m| m.tool_use_id.clone()),
            model: meta.and_then(|m| m.model),
        });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// What a sub-agent was asked and what it answered last, from its own
/// transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentRun {
    /// When its first message (the prompt) was written.
    pub started_at: Option<DateTime<Utc>>,
    /// The prompt it was spawned with.
    pub prompt: Option<String>,
    /// The text of its last message.
    pub reply: Option<String>,
}

/// Reads a sub-agent's transcript for its prompt and its last reply.
pub fn agent_run(path: &Path, allowed: &Path) -> Result<AgentRun, Unread> {
    let real = confined(path, allowed)?;
    let mut run = AgentRun { started_at: None, prompt: None, reply: None };
    let mut last: Option<(String, Vec<String>)> = None;
    for_each_line(&real, 0, &mut |line| {
        let Ok(v) = serde_json::from_slice::<Value>(line) else { return true };
        match v.get("type").and_then(Value::as_str) {
            Some("user") if run.prompt.is_none() => {
                run.started_at = stamp(&v);
                run.prompt = v.get("message").and_then(|m| m.get("content")).map(content_text);
            }
            Some("assistant") => {
                let m = v.get("message");
                let id = m.and_then(|m| m.get("id")).and_then(Value::as_str).unwrap_or_default().to_owned();
                let texts = m.and_then(|m| m.get("content")).map(text_blocks).unwrap_or_default();
                match &mut last {
                    Some((last_id, parts)) if *last_id == id && !id.is_empty() => parts.extend(texts),
                    _ => last = Some((id, texts)),
                }
            }
            _ => {}
        }
        true
    })?;
    run.reply = last.map(|(_, parts)| parts.join("\n")).filter(|t| !t.trim().is_empty());
    Ok(run)
}

/// The line of a session's transcript that holds the result of tool call
/// `tool_use_id`, whole (with Claude Code's `toolUseResult`); None when
/// there is none (yet: Claude Code writes it after the PostToolUse hook).
/// Only the session's own `user` line counts: Claude Code 2.1.328 also
/// writes `api-request-blob` lines that copy a request's messages, the
/// tool result among them but without its `toolUseResult`, sometimes
/// before the result's own line.
pub fn tool_result(transcript: &Path, allowed: &Path, tool_use_id: &str) -> Result<Option<Value>, Unread> {
    let real = confined(transcript, allowed)?;
    let needle = format!("\"{tool_use_id}\"");
    let mut found = None;
    scan_recent(&real, &mut |line| {
        if !contains(line, needle.as_bytes()) || !contains(line, b"tool_result") {
            return true;
        }
        let Ok(v) = serde_json::from_slice::<Value>(line) else { return true };
        let is_result = v.get("type").and_then(Value::as_str) == Some("user")
            && v.get("message").and_then(|m| m.get("content")).and_then(Value::as_array).is_some_and(|blocks| {
                blocks.iter().any(|b| {
                    b.get("type").and_then(Value::as_str) == Some("tool_result")
                        && b.get("tool_use_id").and_then(Value::as_str) == Some(tool_use_id)
                })
            });
        if is_result {
            found = Some(v);
            return false;
        }
        true
    })?;
    Ok(found)
}

/// A question dialog (AskUserQuestion) the model of a session opened, as
/// Claude Code recorded the tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DialogAsk {
    pub tool_use_id: String,
    /// When the model's message that opened it was written.
    pub at: DateTime<Utc>,
    /// The questions' texts.
    pub questions: Vec<String>,
    /// Whether the call carried its own `answers` (no person chose them).
    pub prefilled: bool,
}

/// The question dialogs the model of the session of `transcript` opened
/// since `since` (its own messages: a sub-agent's are in its own file).
pub fn dialog_asks(transcript: &Path, allowed: &Path, since: DateTime<Utc>) -> Result<Vec<DialogAsk>, Unread> {
    let real = confined(transcript, allowed)?;
    let mut out = Vec::new();
    scan_recent(&real, &mut |line| {
        if !contains(line, b"\"AskUserQuestion\"") || !contains(line, b"\"assistant\"") {
            return true;
        }
        let Ok(v) = serde_json::from_slice::<Value>(line) else { return true };
        let (Some("assistant"), Some(at)) = (v.get("type").and_then(Value::as_str), stamp(&v)) else { return true };
        if at < since || v.get("isSidechain").and_then(Value::as_bool) == Some(true) {
            return true;
        }
        let blocks = v.get("message").and_then(|m| m.get("content")).and_then(Value::as_array);
        for b in blocks.into_iter().flatten() {
            if b.get("type").and_then(Value::as_str) != Some("tool_use")
                || b.get("name").and_then(Value::as_str) != Some("AskUserQuestion")
            {
                continue;
            }
            let Some(id) = b.get("id").and_then(Value::as_str) else { continue };
            let input = b.get("input");
            let questions = input
                .and_then(|i| i.get("questions"))
                .and_then(Value::as_array)
                .map(|qs| {
                    qs.iter().filter_map(|q| q.get("question").and_then(Value::as_str).map(str::to_owned)).collect()
                })
                .unwrap_or_default();
            let prefilled =
                input.and_then(|i| i.get("answers")).and_then(Value::as_object).is_some_and(|a| !a.is_empty());
            if !out.iter().any(|d: &DialogAsk| d.tool_use_id == id) {
                out.push(DialogAsk { tool_use_id: id.to_owned(), at, questions, prefilled });
            }
        }
        true
    })?;
    out.sort_by_key(|d| d.at);
    Ok(out)
}

/// A prompt a person typed in an interactive session, as Claude Code
/// recorded it: a user message of human origin (never a tool's result, a
/// hook's or a command file's expansion, nor a `claude -p` prompt).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypedPrompt {
    pub uuid: String,
    pub at: DateTime<Utc>,
    /// As typed: a slash command is `<command-name>/x</command-name>`…
    pub text: String,
}

/// The prompts a person typed into the session of `transcript` since `since`.
pub fn typed_prompts(transcript: &Path, allowed: &Path, since: DateTime<Utc>) -> Result<Vec<TypedPrompt>, Unread> {
    let real = confined(transcript, allowed)?;
    let mut out = Vec::new();
    scan_recent(&real, &mut |line| {
        if !contains(line, b"\"human\"") && !contains(line, b"\"typed\"") {
            return true;
        }
        let Ok(v) = serde_json::from_slice::<Value>(line) else { return true };
        if v.get("type").and_then(Value::as_str) != Some("user")
            || v.get("isMeta").and_then(Value::as_bool) == Some(true)
        {
            return true;
        }
        let human = v.get("origin").and_then(|o| o.get("kind")).and_then(Value::as_str) == Some("human")
            || v.get("promptSource").and_then(Value::as_str) == Some("typed");
        let sidechain = v.get("isSidechain").and_then(Value::as_bool) == Some(true);
        let content = v.get("message").and_then(|m| m.get("content"));
        let plain = content.is_some_and(|c| {
            c.is_string()
                || c.as_array().is_some_and(|b| b.iter().all(|b| b.get("type").and_then(Value::as_str) == Some("text")))
        });
        match (human && !sidechain && plain, stamp(&v)) {
            (true, Some(at)) if at >= since => out.push(TypedPrompt {
                uuid: v.get("uuid").and_then(Value::as_str).unwrap_or_default().to_owned(),
                at,
                text: content.map(content_text).unwrap_or_default(),
            }),
            _ => {}
        }
        true
    })?;
    out.sort_by_key(|p| p.at);
    Ok(out)
}

fn stamp(v: &Value) -> Option<DateTime<Utc>> {
    v.get("timestamp").and_then(Value::as_str).and_then(|t| DateTime::parse_from_rfc3339(t).ok()).map(|t| t.to_utc())
}

/// A message's content as text: a string, or its text blocks joined.
fn content_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        other => text_blocks(other).join("\n"),
    }
}

fn text_blocks(content: &Value) -> Vec<String> {
    match content {
        Value::String(s) => vec![s.clone()],
        Value::Array(blocks) => blocks
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|b| b.get("text").and_then(Value::as_str).map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    }
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && hay.windows(needle.len()).any(|w| w == needle)
}

/// Calls `each` on the lines of the last part of `path`, then, when that
/// was not the whole file and `each` never said stop, on the whole file.
fn scan_recent(path: &Path, each: &mut dyn FnMut(&[u8]) -> bool) -> Result<(), Unread> {
    let len = std::fs::metadata(path).map(|m| m.len()).map_err(|e| Unread::Io(e.to_string()))?;
    let start = len.saturating_sub(TAIL);
    let mut stopped = false;
    let mut first = true;
    for_each_line(path, start, &mut |line| {
        // A tail starts mid-line: its first part is not a line.
        if std::mem::take(&mut first) && start > 0 {
            return true;
        }
        let go_on = each(line);
        stopped |= !go_on;
        go_on
    })?;
    if !stopped && start > 0 {
        for_each_line(path, 0, each)?;
    }
    Ok(())
}

/// Calls `each` on every whole line of `path` from byte `from`, a line
/// longer than [`MAX_LINE`] skipped; stops when `each` returns false.
fn for_each_line(path: &Path, from: u64, each: &mut dyn FnMut(&[u8]) -> bool) -> Result<(), Unread> {
    let file = std::fs::File::open(path).map_err(|e| Unread::Io(format!("{}: {e}", path.display())))?;
    let mut reader = BufReader::with_capacity(256 * 1024, file);
    reader.seek(SeekFrom::Start(from)).map_err(|e| Unread::Io(e.to_string()))?;
    let mut buf = Vec::new();
    let mut skipping = false;
    loop {
        buf.clear();
        let n = (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buf).map_err(|e| Unread::Io(e.to_string()))?;
        if n == 0 {
            return Ok(());
        }
        let whole = buf.last() == Some(&b'\n');
        if skipping {
            skipping = !whole;
            continue;
        }
        if !whole && n as u64 == MAX_LINE {
            skipping = true;
            continue;
        }
        if !whole {
            // The last line, still being written.
            return Ok(());
        }
        if !each(&buf[..buf.len() - 1]) {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dirs() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let d = tempfile::tempdir().unwrap();
        let claude = d.path().canonicalize().unwrap().join("home/.claude");
        let project = claude.join("projects/-repo");
        std::fs::create_dir_all(project.join("s1/subagents")).unwrap();
        (d, claude, project)
    }

    #[test]
    fn a_sub_agents_prompt_and_last_reply_are_read_from_its_transcript() {
        let (_d, claude, project) = dirs();
        let agent = project.join("s1/subagents/agent-a1.jsonl");
        std::fs::write(
            &agent,
            concat!(
                r#"{"type":"user","timestamp":"2026-11-28T10:00:00Z","message":{"role":"user","content":"Review it."}}"#,
                "\n",
                r#"{"type":"assistant","message":{"id":"m1","content":[{"type":"text","text":"Reading."},{"type":"tool_use","name":"Read"}]}}"#,
                "\n",
                "not json\n",
                r#"{"type":"assistant","message":{"id":"m2","content":[{"type":"text","text":"{\"approved\": true,"}]}}"#,
                "\n",
                r#"{"type":"assistant","message":{"id":"m2","content":[{"type":"text","text":"\"issues\": []}"}]}}"#,
                "\n",
                r#"{"type":"attachment"}"#,
                "\n"
            ),
        )
        .unwrap();
        std::fs::write(
            project.join("s1/subagents/agent-a1.meta.json"),
            r#"{"agentType":"phasegate:chain-reviewer","toolUseId":"toolu_1","model":"claude-opus-5-5"}"#,
        )
        .unwrap();
        let found = agent_transcripts(&project.join("s1.jsonl"));
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].agent_id.as_str(), found[0].agent_type.as_deref(), found[0].tool_use.as_deref()),
            ("a1", Some("phasegate:chain-reviewer"), Some("toolu_1"))
        );
        let run = agent_run(&agent, &claude).unwrap();
        assert_eq!(run.prompt.as_deref(), Some("Review it."));
        assert_eq!(run.reply.as_deref(), Some("{\"approved\": true,\n\"issues\": []}"), "the last message, whole");
        assert_eq!(run.started_at.unwrap().to_rfc3339(), "2026-11-28T10:00:00+00:00");
    }

    #[test]
    fn a_tool_result_and_typed_prompts_are_found_and_nothing_else_passes_for_them() {
        let (_d, claude, project) = dirs();
        let t = project.join("s1.jsonl");
        std::fs::write(
            &t,
            concat!(
                r#"{"type":"user","timestamp":"2026-11-28T10:00:00Z","origin":{"kind":"human"},"uuid":"u1","message":{"content":"<command-name>/phasegate:answer</command-name>\n<command-args>q1 yes</command-args>"}}"#,
                "\n",
                r#"{"type":"user","timestamp":"2026-11-28T10:00:01Z","isMeta":true,"origin":{"kind":"human"},"message":{"content":[{"type":"text","text":"expanded"}]}}"#,
                "\n",
                r#"{"type":"user","timestamp":"2026-11-28T10:00:02Z","promptSource":"sdk","message":{"content":"/phasegate:answer q1 yes"}}"#,
                "\n",
                r#"{"type":"user","timestamp":"2026-11-28T10:00:03Z","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_9","content":"answered"}]},"toolUseResult":{"answers":{"Q?":"Yes"}}}"#,
                "\n"
            ),
        )
        .unwrap();
        let since = DateTime::parse_from_rfc3339("2026-11-28T09:00:00Z").unwrap().to_utc();
        let typed = typed_prompts(&t, &claude, since).unwrap();
        assert_eq!(typed.len(), 1, "only the human's own prompt: {typed:?}");
        assert!(typed[0].text.contains("<command-args>q1 yes"));
        let later = DateTime::parse_from_rfc3339("2026-11-28T10:00:00.5Z").unwrap().to_utc();
        assert!(typed_prompts(&t, &claude, later).unwrap().is_empty(), "not before `since`");
        let r = tool_result(&t, &claude, "toolu_9").unwrap().unwrap();
        assert_eq!(r["toolUseResult"]["answers"]["Q?"], "Yes");
        assert_eq!(tool_result(&t, &claude, "toolu_8").unwrap(), None);
    }

    /// CI lost a dialog's answer now and then: the request's copy of the
    /// dialog's result, an `api-request-blob` line without the answers,
    /// was written before the result's own line and read for it.
    #[test]
    fn a_requests_copy_of_a_tool_result_is_not_read_for_the_result() {
        let (_d, claude, project) = dirs();
        let t = project.join("s3.jsonl");
        std::fs::write(
            &t,
            concat!(
                r#"{"type":"api-request-blob","sessionId":"s3","hash":"ae85","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_7","content":"Your questions have been answered"}]}}"#,
                "\n",
                r#"{"type":"user","timestamp":"2026-11-28T10:00:03Z","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_7","content":"Your questions have been answered"}]},"toolUseResult":{"answers":{"Q?":"Yes"}}}"#,
                "\n"
            ),
        )
        .unwrap();
        let r = tool_result(&t, &claude, "toolu_7").unwrap().unwrap();
        assert_eq!(r["toolUseResult"]["answers"]["Q?"], "Yes", "{r}");
        std::fs::write(&t, std::fs::read_to_string(&t).unwrap().lines().next().unwrap().to_owned() + "\n").unwrap();
        assert_eq!(tool_result(&t, &claude, "toolu_7").unwrap(), None, "the copy alone is not the result");
    }

    #[test]
    fn a_transcript_out_of_claude_codes_folder_is_not_read() {
        let (d, claude, project) = dirs();
        let outside = d.path().join("forged.jsonl");
        std::fs::write(&outside, "{}\n").unwrap();
        assert_eq!(tool_result(&outside, &claude, "x").unwrap_err(), Unread::Elsewhere { folder: claude.clone() });
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&outside, project.join("s2.jsonl")).unwrap();
            assert!(matches!(
                typed_prompts(&project.join("s2.jsonl"), &claude, Utc::now()),
                Err(Unread::LinkOut { .. })
            ));
        }
        assert_eq!(tool_result(&project.join("gone.jsonl"), &claude, "x").unwrap_err(), Unread::Missing);
    }
}
