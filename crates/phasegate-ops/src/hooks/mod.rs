//! The hooks' decisions. The hook binary only reads Claude Code's input,
//! calls these, and prints; every problem becomes a message here, never a
//! failed hook.

use std::path::PathBuf;

use phasegate_core::pipeline::impl_loop::BackgroundTask;
use serde::Deserialize;
use serde_json::Value;

use crate::env::{self, Env};

pub mod pre_tool_use;
pub mod session_start;
pub mod stop;
pub mod subagent_stop;

/// The fields of Claude Code's hook input that phasegate reads.
#[derive(Debug, Default)]
pub struct HookInput {
    pub session_id: Option<String>,
    pub cwd: Option<PathBuf>,
    pub hook_event_name: Option<String>,
    pub stop_hook_active: bool,
    pub last_assistant_message: Option<String>,
    pub background_tasks: Vec<BackgroundTask>,
    pub tool_name: Option<String>,
    pub tool_input: Option<Value>,
    pub agent_type: Option<String>,
    /// The input was larger than the hook reads: only `tool_name` was taken
    /// from its start.
    pub too_large: bool,
}

impl HookInput {
    /// Reads the input leniently: a field of an unexpected shape is taken as
    /// absent rather than failing the whole input (another Claude Code
    /// version may add or change fields). Only text that is not a JSON
    /// object is an error.
    pub fn parse(text: &str) -> Result<HookInput, String> {
        if text.trim().is_empty() {
            return Ok(HookInput::default());
        }
        let value: Value = serde_json::from_str(text).map_err(|e| format!("the hook input is not JSON ({e})"))?;
        let Value::Object(obj) = value else { return Err("the hook input is not a JSON object".into()) };
        let string = |k: &str| obj.get(k).and_then(Value::as_str).map(str::to_owned);
        let background_tasks = obj
            .get("background_tasks")
            .and_then(Value::as_array)
            .map(|items| items.iter().filter_map(|i| BackgroundTask::deserialize(i).ok()).collect())
            .unwrap_or_default();
        Ok(HookInput {
            session_id: string("session_id"),
            cwd: string("cwd").map(PathBuf::from),
            hook_event_name: string("hook_event_name"),
            stop_hook_active: obj.get("stop_hook_active").and_then(Value::as_bool).unwrap_or(false),
            last_assistant_message: string("last_assistant_message"),
            background_tasks,
            tool_name: string("tool_name"),
            tool_input: obj.get("tool_input").cloned(),
            agent_type: string("agent_type"),
            too_large: false,
        })
    }

    /// The directory the session works in.
    pub fn dir(&self, env: &Env) -> PathBuf {
        self.cwd
            .clone()
            .or_else(|| std::env::var_os(env::PROJECT_DIR).map(PathBuf::from))
            .unwrap_or_else(|| env.cwd.clone())
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
