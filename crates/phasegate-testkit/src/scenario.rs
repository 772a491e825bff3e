//! The script the mock API plays: a main conversation and agent scripts, each
//! a FIFO of [`Turn`]s.

use std::fmt;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::request::RecordedRequest;
use crate::text;

/// A check on the request that triggers a turn: `Err` explains what was wrong.
pub type Expectation = Arc<dyn Fn(&RecordedRequest) -> Result<(), String> + Send + Sync>;

/// One `tool_use` block the mock model emits. Ids are assigned by the server
/// (unique per [`crate::MockApi`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ToolUse {
    /// Tool name, e.g. `Bash`.
    pub name: String,
    /// Tool input as JSON.
    pub input: Value,
    /// Fills in the input from the request being answered (what a tool
    /// printed before: a brief's prompt), as a model copies it.
    pub(crate) fill: Option<Fill>,
}

/// Fills in a tool's input from the request it answers; `Err` says why not.
type FillFn = dyn Fn(&RecordedRequest, &mut Value) -> Result<(), String> + Send + Sync;

/// Computes part of a tool's input from the request that triggers it.
#[derive(Clone)]
pub(crate) struct Fill(Arc<FillFn>);

impl fmt::Debug for Fill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Fill(..)")
    }
}

impl PartialEq for Fill {
    fn eq(&self, other: &Fill) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl ToolUse {
    /// The input as the request it answers fills it in.
    pub(crate) fn input_for(&self, req: &RecordedRequest) -> Result<Value, String> {
        let mut input = self.input.clone();
        if let Some(Fill(fill)) = &self.fill {
            fill(req, &mut input)?;
        }
        Ok(input)
    }

    /// `Agent` starting `subagent_type` in the foreground with the prompt a
    /// brief printed in the newest tool result that has one: after its
    /// `Prompt:` line (`review brief`), or its JSON `prompt` (`tasks
    /// review`, `pipeline review-brief`, which also give the `model`), as
    /// the phase loop tells the model to pass it, unchanged.
    pub fn agent_briefed(subagent_type: impl Into<String>) -> Self {
        Self::agent_briefed_before(subagent_type, None)
    }

    /// [`ToolUse::agent_briefed`] where the brief's `Prompt:` ends before
    /// the line that starts with `end` (what a test printed after the brief).
    pub fn agent_briefed_before(subagent_type: impl Into<String>, end: Option<&'static str>) -> Self {
        let mut tool = Self::agent(subagent_type, "");
        tool.fill = Some(Fill(Arc::new(move |req: &RecordedRequest, input: &mut Value| {
            for result in req.all_tool_results().iter().rev() {
                let text = match end.and_then(|e| result.text.find(&format!("\n{e}"))) {
                    Some(at) => &result.text[..at],
                    None => result.text.as_str(),
                };
                if let Some((_, prompt)) = text.split_once("\nPrompt:\n") {
                    input["prompt"] = json!(prompt);
                    return Ok(());
                }
                if let Ok(brief) = serde_json::from_str::<Value>(text.trim())
                    && let Some(prompt) = brief.get("prompt").and_then(Value::as_str)
                {
                    input["prompt"] = json!(prompt);
                    if let Some(model) = brief.get("model") {
                        input["model"] = model.clone();
                    }
                    return Ok(());
                }
            }
            Err("no brief (a `Prompt:` line or a JSON `prompt`) in any tool result so far".to_owned())
        })));
        tool
    }
}

impl ToolUse {
    /// `AskUserQuestion` with the input a command printed in the newest
    /// tool result that has one (a JSON line with `questions`: `verify
    /// waive`, `question show --dialog`), as it is.
    pub fn dialog_printed() -> Self {
        let mut tool = Self::new("AskUserQuestion", json!({}));
        tool.fill = Some(Fill(Arc::new(|req: &RecordedRequest, input: &mut Value| {
            for result in req.all_tool_results().iter().rev() {
                let printed = result
                    .text
                    .lines()
                    .filter_map(|l| serde_json::from_str::<Value>(l.trim()).ok())
                    .find(|v| v.get("questions").is_some_and(Value::is_array));
                if let Some(printed) = printed {
                    *input = printed;
                    return Ok(());
                }
            }
            Err("no dialog input (a JSON line with `questions`) in any tool result so far".to_owned())
        })));
        tool
    }
}

impl ToolUse {
    /// Any tool with any input.
    pub fn new(name: impl Into<String>, input: Value) -> Self {
        Self { name: name.into(), input, fill: None }
    }

    /// `Bash` running `command`.
    pub fn bash(command: impl Into<String>) -> Self {
        Self::new("Bash", json!({ "command": command.into() }))
    }

    /// `Bash` running `command`, with the human-readable `description`.
    pub fn bash_desc(command: impl Into<String>, description: impl Into<String>) -> Self {
        Self::new("Bash", json!({ "command": command.into(), "description": description.into() }))
    }

    /// `Agent` starting `subagent_type` (e.g. `phasegate:chain-reviewer`) with
    /// `prompt`, in the foreground (`run_in_background: false`), so the tool
    /// result carries the agent's final text.
    pub fn agent(subagent_type: impl Into<String>, prompt: impl Into<String>) -> Self {
        let subagent_type = subagent_type.into();
        Self::new(
            "Agent",
            json!({
                "description": format!("Run {subagent_type}"),
                "subagent_type": subagent_type,
                "prompt": prompt.into(),
                "run_in_background": false,
            }),
        )
    }

    /// `Write` of `content` to the absolute `path`.
    pub fn write(path: impl Into<String>, content: impl Into<String>) -> Self {
        Self::new("Write", json!({ "file_path": path.into(), "content": content.into() }))
    }

    /// `Read` of the absolute `path`.
    pub fn read(path: impl Into<String>) -> Self {
        Self::new("Read", json!({ "file_path": path.into() }))
    }

    /// `Skill` invoking `name` (e.g. `phasegate:workflow`).
    pub fn skill(name: impl Into<String>) -> Self {
        Self::new("Skill", json!({ "skill": name.into() }))
    }

    /// `Skill` invoking `name` with `args`.
    pub fn skill_args(name: impl Into<String>, args: impl Into<String>) -> Self {
        Self::new("Skill", json!({ "skill": name.into(), "args": args.into() }))
    }
}

/// One assistant answer: optional text, then tool uses, plus checks on the
/// request that triggers it.
#[derive(Clone)]
pub struct Turn {
    pub(crate) text: Option<String>,
    pub(crate) tools: Vec<ToolUse>,
    pub(crate) expectations: Vec<Expectation>,
    /// The usage the answer reports (default: 10 in, 5 out).
    pub(crate) usage: Option<Usage>,
    /// What happens outside the session while its request waits (a person
    /// answering in a terminal): run before the turn is answered.
    pub(crate) meanwhile: Vec<Arc<dyn Fn() + Send + Sync>>,
    /// The request is answered with this HTTP error instead of a message.
    pub(crate) error: Option<ApiError>,
}

/// An error answer as the Messages API sends it: a status, headers and a
/// JSON error body.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Value,
}

/// The token counts an answer's `usage` reports, as the Messages API
/// names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    pub input: u64,
    pub output: u64,
    pub cache_read: u64,
    pub cache_write: u64,
}

impl Turn {
    /// The answer reports this usage (input, output, cache reads, cache
    /// writes) instead of the default 10 in, 5 out.
    pub fn usage(mut self, input: u64, output: u64, cache_read: u64, cache_write: u64) -> Self {
        self.usage = Some(Usage { input, output, cache_read, cache_write });
        self
    }

    /// A text-only answer (`stop_reason: end_turn`).
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            text: Some(text.into()),
            tools: Vec::new(),
            expectations: Vec::new(),
            usage: None,
            meanwhile: Vec::new(),
            error: None,
        }
    }

    /// An answer made of tool uses only (`stop_reason: tool_use`).
    pub fn tools(tools: Vec<ToolUse>) -> Self {
        Self { text: None, tools, expectations: Vec::new(), usage: None, meanwhile: Vec::new(), error: None }
    }

    /// A text block followed by tool uses (`stop_reason: tool_use`).
    pub fn text_then_tools(text: impl Into<String>, tools: Vec<ToolUse>) -> Self {
        Self {
            text: Some(text.into()),
            tools,
            expectations: Vec::new(),
            usage: None,
            meanwhile: Vec::new(),
            error: None,
        }
    }

    /// The request is answered with an HTTP error, as the real API sends it.
    pub fn api_error(error: ApiError) -> Self {
        Self { error: Some(error), ..Self::tools(Vec::new()) }
    }

    /// A usage limit, as the API tells a subscriber: 429 with `retry-after`
    /// and the unified rate-limit headers, the window resetting at `reset`
    /// (seconds since the epoch), its claim `five_hour` or `seven_day`.
    /// Claude Code says "You've hit your 5-hour limit · resets …" when it
    /// signs in with a subscription's token (`CLAUDE_CODE_OAUTH_TOKEN`).
    pub fn usage_limit(reset: i64, claim: &str) -> Self {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
        let window = if claim == "five_hour" { "5h" } else { "7d" };
        Self::api_error(ApiError {
            status: 429,
            headers: vec![
                ("retry-after".into(), (reset - now).max(0).to_string()),
                ("anthropic-ratelimit-unified-status".into(), "rejected".into()),
                ("anthropic-ratelimit-unified-reset".into(), reset.to_string()),
                (format!("anthropic-ratelimit-unified-{window}-status"), "rejected".into()),
                (format!("anthropic-ratelimit-unified-{window}-reset"), reset.to_string()),
                ("anthropic-ratelimit-unified-representative-claim".into(), claim.into()),
            ],
            body: json!({"type": "error", "error": {"type": "rate_limit_error", "message": "This request would exceed your account's rate limit. Please try again later."}}),
        })
    }

    /// 529: the API is overloaded.
    pub fn overloaded() -> Self {
        Self::api_error(ApiError {
            status: 529,
            headers: Vec::new(),
            body: json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
        })
    }

    /// Runs `act` when the request arrives, before the turn answers it:
    /// what happens outside the session meanwhile (a person answering a
    /// question in a terminal of their own).
    pub fn meanwhile(mut self, act: impl Fn() + Send + Sync + 'static) -> Self {
        self.meanwhile.push(Arc::new(act));
        self
    }

    /// Adds a check on the triggering request; `Err(why)` records a mismatch.
    /// A panic inside the check is recorded as a mismatch too.
    pub fn expect(mut self, check: impl Fn(&RecordedRequest) -> Result<(), String> + Send + Sync + 'static) -> Self {
        self.expectations.push(Arc::new(check));
        self
    }

    /// Expects some `tool_result` of the last user message to contain `needle`.
    pub fn expect_tool_result_contains(self, needle: impl Into<String>) -> Self {
        let needle = needle.into();
        self.expect(move |req| {
            let results = req.tool_results();
            if results.iter().any(|result| result.text.contains(&needle)) {
                return Ok(());
            }
            let seen = if results.is_empty() {
                "no tool_result in the last user message".to_owned()
            } else {
                results
                    .iter()
                    .map(|r| format!("{}: {}", r.tool_use_id, text::one_line(&r.text, 400)))
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            Err(format!("expected a tool_result containing {needle:?}; got:\n{seen}"))
        })
    }

    /// Expects the text of the last user message to contain `needle`.
    pub fn expect_user_text_contains(self, needle: impl Into<String>) -> Self {
        let needle = needle.into();
        self.expect(move |req| {
            let user = req.last_user_text();
            if user.contains(&needle) {
                Ok(())
            } else {
                Err(format!(
                    "expected the last user message to contain {needle:?}; got: {}",
                    text::one_line_tail(&user, 400)
                ))
            }
        })
    }

    /// Expects the system prompt to contain `needle`.
    pub fn expect_system_contains(self, needle: impl Into<String>) -> Self {
        let needle = needle.into();
        self.expect(move |req| {
            if req.system_text().contains(&needle) {
                Ok(())
            } else {
                Err(format!("expected the system prompt to contain {needle:?}"))
            }
        })
    }

    /// One line describing the answer, for reports.
    pub(crate) fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(e) = &self.error {
            parts.push(format!("HTTP {}", e.status));
        }
        if let Some(text) = &self.text {
            parts.push(format!("text {:?}", text::head(text, 80)));
        }
        for tool in &self.tools {
            parts.push(format!("tool_use {} {}", tool.name, text::head(&tool.input.to_string(), 120)));
        }
        if !self.expectations.is_empty() {
            parts.push(format!("({} expectation(s))", self.expectations.len()));
        }
        parts.join(", ")
    }
}

impl fmt::Debug for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe())
    }
}

/// The whole script: the main conversation and any number of agent scripts.
#[derive(Clone, Debug, Default)]
pub struct Scenario {
    pub(crate) main: Vec<Turn>,
    pub(crate) agents: Vec<(String, Vec<Turn>)>,
}

impl Scenario {
    /// An empty scenario.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the main conversation's turns (replacing earlier ones).
    pub fn main(mut self, turns: Vec<Turn>) -> Self {
        self.main = turns;
        self
    }

    /// Adds an agent script: requests whose system prompt contains `marker`
    /// (e.g. a sentence of the agent's Markdown body) are answered from
    /// `turns`. The first matching script, in the order added, wins.
    pub fn agent(mut self, marker: impl Into<String>, turns: Vec<Turn>) -> Self {
        let marker = marker.into();
        assert!(!marker.is_empty(), "phasegate-testkit: an agent marker must not be empty");
        self.agents.push((marker, turns));
        self
    }
}
