//! The hooks' kernel, below every capability: Claude Code's hook input as
//! phasegate reads it, the context every contributor sees (the project and
//! session found once), the [`Contributor`] trait each capability's hook
//! part implements, the votes, and the text helpers. The registry that
//! folds the contributors into each hook (the `hooks` module) stands above the
//! capabilities.

use std::borrow::Cow;
use std::cell::{OnceCell, RefCell};
use std::path::{Path, PathBuf};

use phasegate_core::pipeline::impl_loop::BackgroundTask;
use phasegate_core::session::SessionId;
use phasegate_store::git::RepoLayout;
use phasegate_store::{Project, StoreError};
use serde::Deserialize;
use serde_json::Value;

use crate::env::Env;

/// Hook input that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum HookInputError {
    #[error("the hook input is not JSON ({0})")]
    NotJson(#[source] serde_json::Error),
    #[error("the hook input is not a JSON object")]
    NotObject,
}

/// The fields of Claude Code's hook input that phasegate reads.
#[derive(Debug, Default)]
pub struct HookInput {
    pub session_id: Option<String>,
    /// The session's transcript (Claude Code's JSONL).
    pub transcript_path: Option<String>,
    pub cwd: Option<PathBuf>,
    pub hook_event_name: Option<String>,
    pub stop_hook_active: bool,
    pub last_assistant_message: Option<String>,
    pub background_tasks: Vec<BackgroundTask>,
    pub tool_name: Option<String>,
    pub tool_input: Option<Value>,
    /// PreToolUse's and PostToolUse's `tool_use_id`.
    pub tool_use_id: Option<String>,
    /// PostToolUse's `tool_response`, kept for the question dialog only
    /// (AskUserQuestion: the person's choices).
    pub tool_response: Option<Value>,
    pub agent_type: Option<String>,
    /// SessionStart's `source`: startup, resume, clear, compact.
    pub source: Option<String>,
    /// UserPromptSubmit's `prompt`.
    pub prompt: Option<String>,
    /// PostToolUse's `duration_ms`: how long the tool ran.
    pub duration_ms: Option<u64>,
    /// StopFailure's `error` (`rate_limit`, `overloaded`, …).
    pub error: Option<String>,
    /// StopFailure's `error_details`: what the user saw, when Claude Code
    /// says more than `last_assistant_message`.
    pub error_details: Option<String>,
    /// The input was larger than the hook reads: only `tool_name` was taken
    /// from its start.
    pub too_large: bool,
}

impl HookInput {
    /// Reads the input leniently: a field of an unexpected shape is taken as
    /// absent rather than failing the whole input (another Claude Code
    /// version may add or change fields). Only text that is not a JSON
    /// object is an error.
    pub fn parse(text: &str) -> Result<HookInput, HookInputError> {
        if text.trim().is_empty() {
            return Ok(HookInput::default());
        }
        let value: Value = serde_json::from_str(text).map_err(HookInputError::NotJson)?;
        let Value::Object(obj) = value else { return Err(HookInputError::NotObject) };
        let string = |k: &str| obj.get(k).and_then(Value::as_str).map(str::to_owned);
        let background_tasks = obj
            .get("background_tasks")
            .and_then(Value::as_array)
            .map(|items| items.iter().filter_map(|i| BackgroundTask::deserialize(i).ok()).collect())
            .unwrap_or_default();
        Ok(HookInput {
            session_id: string("session_id"),
            transcript_path: string("transcript_path"),
            cwd: string("cwd").map(PathBuf::from),
            hook_event_name: string("hook_event_name"),
            stop_hook_active: obj.get("stop_hook_active").and_then(Value::as_bool).unwrap_or(false),
            last_assistant_message: string("last_assistant_message"),
            background_tasks,
            tool_name: string("tool_name"),
            tool_input: obj.get("tool_input").cloned(),
            tool_use_id: string("tool_use_id"),
            tool_response: match obj.get("tool_name").and_then(Value::as_str) {
                Some(DIALOG_TOOL) => obj.get("tool_response").cloned(),
                _ => None,
            },
            agent_type: string("agent_type"),
            source: string("source"),
            prompt: string("prompt"),
            duration_ms: obj.get("duration_ms").and_then(Value::as_u64),
            error: string("error"),
            // Text as documented; anything else is kept as its JSON.
            error_details: obj.get("error_details").filter(|v| !v.is_null()).map(|v| match v.as_str() {
                Some(s) => s.to_owned(),
                None => v.to_string(),
            }),
            too_large: false,
        })
    }

    /// The directory the session works in.
    pub fn dir(&self, env: &Env) -> PathBuf {
        self.cwd.clone().or_else(|| env.project_dir.clone()).unwrap_or_else(|| env.cwd.clone())
    }

    /// The session: the input's, else Claude Code's environment variable.
    pub fn session(&self, env: &Env) -> Option<String> {
        self.session_id.clone().filter(|s| !s.is_empty()).or_else(|| env.session_var.clone())
    }
}

/// The first line of a message, whole (for one-line reports).
pub fn one_line(s: &str) -> String {
    phasegate_store::project::one_line(s)
}

/// At most `max` bytes, cut at a character, marked when cut.
pub fn clip(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

/// What every contributor of one hook run sees: the input, the environment,
/// and the project and session, found once and only when asked.
pub struct HookCtx<'a> {
    pub input: &'a HookInput,
    pub env: &'a Env,
    /// `workflow-state`, for what a hook starts in the background.
    pub workflow_state: Option<&'a Path>,
    /// The session's folder, resolved once (see [`HookCtx::dir`]).
    dir: PathBuf,
    project: OnceCell<Result<Project, StoreError>>,
    /// The repositories found with [`HookCtx::repo_of`], by the path asked
    /// (the session's folder and the edited file, at most).
    located: RefCell<Vec<(PathBuf, Option<RepoLayout>)>>,
}

/// Claude Code's question dialog.
pub const DIALOG_TOOL: &str = "AskUserQuestion";

/// The tools that write a file by path.
pub const WRITING_TOOLS: [&str; 4] = ["Write", "Edit", "MultiEdit", "NotebookEdit"];

/// The longest a hook waits for one of phasegate's locks (Claude Code gives
/// a hook 10 seconds): what cannot be done in time is let through, and said.
pub const HOOK_LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

impl<'a> HookCtx<'a> {
    pub fn new(input: &'a HookInput, env: &'a Env, workflow_state: Option<&'a Path>) -> HookCtx<'a> {
        // Resolved as the CLI resolves its working directory: Claude Code
        // may spell it with forward slashes or another case on Windows, and
        // the session's record, its leases and its repository are then
        // found and stored under one name.
        let dir = phasegate_store::files::canonical_or_same(&input.dir(env));
        HookCtx { input, env, workflow_state, dir, project: OnceCell::new(), located: Default::default() }
    }

    /// The repository around `path` (a file that need not exist, or a
    /// folder), found with a few `stat`s and no libgit2: what the hooks that
    /// run on every edit use. The answers are kept, so the contributors of
    /// one hook run look once per path.
    pub fn repo_of(&self, path: &Path) -> Option<RepoLayout> {
        if let Some((_, found)) = self.located.borrow().iter().find(|(asked, _)| asked == path) {
            return found.clone();
        }
        let found = phasegate_store::locate::locate(path);
        self.located.borrow_mut().push((path.to_owned(), found.clone()));
        found
    }

    /// The file a writing tool (Write, Edit, MultiEdit, NotebookEdit) is
    /// about to change, however spelled: absolute, `..` applied, links
    /// resolved, as leases and gotchas both know it.
    pub fn edited_file(&self) -> Option<PathBuf> {
        let tool = self.input.tool_name.as_deref()?;
        if !WRITING_TOOLS.contains(&tool) {
            return None;
        }
        let input = self.input.tool_input.as_ref()?;
        let raw = ["file_path", "notebook_path", "path"].iter().find_map(|k| input.get(*k).and_then(Value::as_str))?;
        let p = Path::new(raw);
        let abs = if p.is_absolute() { p.to_path_buf() } else { self.dir().join(p) };
        Some(phasegate_store::coordination::leases::resolve_file(&abs))
    }

    /// The repository around the session's folder, found as [`Self::repo_of`] does.
    pub fn repo(&self) -> Option<RepoLayout> {
        self.repo_of(&self.dir())
    }

    /// The environment for work a hook does: lock waits at most
    /// [`HOOK_LOCK_WAIT`].
    pub fn hook_env(&self) -> Env {
        Env { lock_timeout: self.env.lock_timeout.min(HOOK_LOCK_WAIT), ..self.env.clone() }
    }

    /// The directory the session works in: the input's `cwd`, else
    /// `CLAUDE_PROJECT_DIR`, else this process's; links resolved, in the
    /// plain form (`C:\x` on Windows).
    pub fn dir(&self) -> PathBuf {
        self.dir.clone()
    }

    /// The project around the session, or why there is none.
    pub fn project(&self) -> Result<&Project, &StoreError> {
        self.project
            .get_or_init(|| Project::discover(&self.dir()).map(|p| p.with_key_dir(self.env.key_dir.clone())))
            .as_ref()
    }

    /// The project of the working tree at `root` (one [`Self::repo_of`]
    /// found, the edited file's, say): the session's own when the session
    /// works in that tree, else found there. None when there is none.
    pub fn project_at(&self, root: &Path) -> Option<Cow<'_, Project>> {
        if self.repo().is_some_and(|r| r.current_root == root) {
            return self.project().ok().map(Cow::Borrowed);
        }
        Project::discover(root).ok().map(|p| Cow::Owned(p.with_key_dir(self.env.key_dir.clone())))
    }

    /// SessionStart after `/compact`: the startup context is still in the
    /// conversation, so a contributor adds only what compaction lost (the
    /// task in progress, its gotchas, what is new), never its startup
    /// lines again.
    pub fn compacted(&self) -> bool {
        self.input.source.as_deref() == Some("compact")
    }

    /// The session, when it has an id phasegate accepts.
    pub fn session(&self) -> Option<SessionId> {
        SessionId::parse(&self.input.session(self.env)?).ok()
    }
}

/// A Stop contributor's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StopVote {
    /// Nothing to say or decide.
    Pass,
    /// The session may stop; tell the user this.
    Note(String),
    /// Keep the session working; the reason goes to the model.
    Block(String),
}

/// A PreToolUse contributor's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolVote {
    /// Nothing to say.
    Pass,
    /// Refuse the tool call; the reason goes to the model.
    Deny(String),
    /// Let it through, and tell the model this first.
    Context(String),
}

/// What a capability adds to, or decides for, each hook event. Every method
/// has a default that does nothing; a capability answers the events it
/// cares about.
pub trait Contributor: Sync {
    /// Lines of SessionStart context (`ctx.input.source` says why the
    /// session started: startup, resume, clear or compact).
    fn session_start(&self, _ctx: &HookCtx<'_>) -> Vec<String> {
        Vec::new()
    }

    /// Lines of context for the prompt the user just submitted.
    fn user_prompt(&self, _ctx: &HookCtx<'_>) -> Vec<String> {
        Vec::new()
    }

    /// A vote on a tool call about to run (PreToolUse).
    fn pre_tool_use(&self, _ctx: &HookCtx<'_>) -> ToolVote {
        ToolVote::Pass
    }

    /// Lines to tell the model after a tool call ran (PostToolUse).
    fn post_tool_use(&self, _ctx: &HookCtx<'_>) -> Vec<String> {
        Vec::new()
    }

    /// A vote on a Stop.
    fn stop(&self, _ctx: &HookCtx<'_>) -> StopVote {
        StopVote::Pass
    }

    /// The session ended (SessionEnd cannot block or add context).
    fn session_end(&self, _ctx: &HookCtx<'_>) {}

    /// A turn ended on an API error (StopFailure cannot block): a line
    /// for the user, if any.
    fn stop_failure(&self, _ctx: &HookCtx<'_>) -> Vec<String> {
        Vec::new()
    }
}

/// The most context SessionStart adds (Claude Code previews anything over
/// 10,000 characters).
pub const MAX_CONTEXT: usize = 8_000;

/// How many items (features, suspended questions) a context names in full;
/// the rest are counted.
pub const MAX_LISTED: usize = 5;

/// What the Stop hook answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StopOutcome {
    /// Nothing to say; the session stops.
    Silent,
    /// The session stops; the message is shown.
    Allow { message: String },
    /// The session keeps working; the reason goes to the model.
    Block { reason: String },
}
