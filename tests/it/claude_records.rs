//! Claude Code's records of a session, written as Claude Code 2.1.328
//! writes them (checked against its real transcripts): a transcript per
//! session under `<CLAUDE_CONFIG_DIR>/projects/<project>/`, each line a JSON
//! object; a sub-agent's transcript and meta file under
//! `<session>/subagents/`. What the gates read to know what happened; the
//! end-to-end tests produce the same files with the real Claude Code.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::util::{Done, HOOK, Run, TestEnv, WORKFLOW_STATE};

/// Claude Code's folder for the tests of one project.
pub struct ClaudeRecords {
    /// `CLAUDE_CONFIG_DIR`.
    pub dir: PathBuf,
    project: PathBuf,
    root: PathBuf,
}

fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

impl ClaudeRecords {
    pub fn new(env: &TestEnv) -> ClaudeRecords {
        let dir = env.outer().join("claude");
        let project = dir.join("projects").join("-project");
        std::fs::create_dir_all(&project).unwrap();
        ClaudeRecords { dir, project, root: env.root().to_owned() }
    }

    pub fn transcript(&self, session: &str) -> PathBuf {
        self.project.join(format!("{session}.jsonl"))
    }

    fn append(path: &Path, line: &Value) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let mut f = std::fs::OpenOptions::new().create(true).append(true).open(path).unwrap();
        writeln!(f, "{line}").unwrap();
    }

    /// The person typed `prompt` in the interactive session (a slash
    /// command is recorded with its name and arguments in tags).
    pub fn typed(&self, session: &str, prompt: &str) {
        let content = match prompt.strip_prefix('/').and_then(|p| p.split_once(' ')) {
            Some((name, args)) => format!(
                "<command-message>{name}</command-message>\n<command-name>/{name}</command-name>\n<command-args>{args}</command-args>"
            ),
            None => prompt.to_owned(),
        };
        Self::append(
            &self.transcript(session),
            &json!({"type": "user", "timestamp": now(), "uuid": format!("u-{}", now()), "isSidechain": false,
                    "origin": {"kind": "human"}, "turnOrigin": "human", "sessionId": session,
                    "message": {"role": "user", "content": content}}),
        );
    }

    /// The session's model opened the question dialog `input` with tool
    /// call `tool_use_id`, as Claude Code records the model's message.
    pub fn dialog_opened(&self, session: &str, tool_use_id: &str, input: &Value) {
        Self::append(
            &self.transcript(session),
            &json!({"type": "assistant", "timestamp": now(), "sessionId": session, "isSidechain": false,
                    "message": {"id": format!("msg_{tool_use_id}"), "role": "assistant", "model": "claude-opus-5-5",
                                "content": [{"type": "tool_use", "id": tool_use_id, "name": "AskUserQuestion", "input": input}]}}),
        );
    }

    /// A tool call's result, as Claude Code records it after the tool ran.
    pub fn tool_result(&self, session: &str, tool_use_id: &str, content: &str, tool_use_result: Value) {
        Self::append(
            &self.transcript(session),
            &json!({"type": "user", "timestamp": now(), "sessionId": session,
                    "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool_use_id, "content": content}]},
                    "toolUseResult": tool_use_result}),
        );
    }

    /// A sub-agent of `agent_type` spawned with `prompt` that answered
    /// `reply` (its transcript and meta file, as Claude Code keeps them).
    pub fn subagent(&self, session: &str, agent_id: &str, agent_type: &str, prompt: &str, reply: &str) {
        let dir = self.project.join(session).join("subagents");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join(format!("agent-{agent_id}.meta.json")),
            json!({"agentType": agent_type, "description": "review", "toolUseId": format!("toolu_{agent_id}"),
                   "model": "claude-opus-5-5", "finished": true})
            .to_string(),
        )
        .unwrap();
        let path = dir.join(format!("agent-{agent_id}.jsonl"));
        Self::append(
            &path,
            &json!({"type": "user", "timestamp": now(), "isSidechain": true, "agentId": agent_id,
                    "message": {"role": "user", "content": prompt}}),
        );
        Self::append(
            &path,
            &json!({"type": "assistant", "timestamp": now(), "isSidechain": true, "agentId": agent_id,
                    "message": {"id": format!("msg_{agent_id}"), "role": "assistant", "model": "claude-opus-5-5",
                                "content": [{"type": "text", "text": reply}]}}),
        );
        // The main transcript exists too (the session that spawned it).
        Self::append(&self.transcript(session), &json!({"type": "attachment", "timestamp": now()}));
    }

    /// `workflow-state <args>` as Claude Code session `session`'s Bash tool
    /// runs it: at the model's hand.
    pub fn ws_as(&self, session: &str, args: &[&str]) -> Run {
        Run::new(WORKFLOW_STATE, args, &self.root)
            .env("CLAUDECODE", "1")
            .env("CLAUDE_CODE_SESSION_ID", session)
            .env("CLAUDE_CONFIG_DIR", self.dir.to_str().unwrap())
    }

    /// A hook as Claude Code runs it for `session` (the input's session,
    /// folder and transcript filled in).
    pub fn hook(&self, session: &str, event: &str, input: Value) -> Done {
        self.hook_run(session, event, input).ok()
    }

    /// [`Self::hook`], not yet run (to set more of its environment).
    pub fn hook_run(&self, session: &str, event: &str, input: Value) -> Run {
        let mut input = input;
        input["session_id"] = json!(session);
        input["cwd"] = json!(self.root);
        input["transcript_path"] = json!(self.transcript(session));
        Run::new(HOOK, &[event], &self.root)
            .env("CLAUDECODE", "1")
            .env("CLAUDE_CONFIG_DIR", self.dir.to_str().unwrap())
            .stdin(input.to_string())
    }
}
