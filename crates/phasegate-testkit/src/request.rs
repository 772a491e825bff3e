//! What the mock API saw: one [`RecordedRequest`] per HTTP request.

use std::fmt;

use serde_json::Value;

use crate::text;

/// The marker Claude Code puts in the system prompt of every sub-agent request.
pub const SUBAGENT_MARKER: &str = "cc_is_subagent=true";

/// Which part of the scenario answered a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// The main conversation's script.
    Main,
    /// The agent script registered with this marker.
    Agent(String),
    /// A side request (no tools, not a sub-agent, no marker): answered with a
    /// generic text, never a failure.
    Auxiliary,
    /// `POST /v1/messages/count_tokens`.
    CountTokens,
    /// A Messages request that no script could take (a mismatch).
    Unrouted,
    /// Any other path: answered 404, shown in reports, not a failure by itself.
    NotFound,
}

impl fmt::Display for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Route::Main => f.write_str("main"),
            Route::Agent(marker) => write!(f, "agent {:?}", text::head(marker, 40)),
            Route::Auxiliary => f.write_str("auxiliary"),
            Route::CountTokens => f.write_str("count_tokens"),
            Route::Unrouted => f.write_str("unrouted"),
            Route::NotFound => f.write_str("404"),
        }
    }
}

/// One `tool_result` block of a user message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolResult {
    /// The id of the `tool_use` block this answers.
    pub tool_use_id: String,
    /// The result's text: a string content as is, text blocks joined by newlines.
    pub text: String,
    /// Whether Claude Code flagged the result as an error.
    pub is_error: bool,
}

/// One HTTP request the mock API received, with how it was answered.
#[derive(Clone, Debug)]
pub struct RecordedRequest {
    /// Position in arrival order, from 0.
    pub index: usize,
    /// HTTP method, e.g. `POST`.
    pub method: String,
    /// Path including the query, e.g. `/v1/messages?beta=true`.
    pub path: String,
    /// All request headers, names lower-cased.
    pub headers: Vec<(String, String)>,
    /// The parsed JSON body (`Value::Null` when there was none or it was not JSON).
    pub body: Value,
    /// Which script answered.
    pub route: Route,
    /// Index of the script turn that answered, when a script turn did.
    pub turn: Option<usize>,
    /// The content blocks sent back (text and tool_use), empty for non-Messages paths.
    pub reply: Vec<Value>,
    /// Why this request counts as a scenario mismatch, if it does.
    pub mismatch: Option<String>,
}

impl RecordedRequest {
    /// The value of a header (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(key, _)| key.eq_ignore_ascii_case(name)).map(|(_, value)| value.as_str())
    }

    /// The `X-Claude-Code-Session-Id` header.
    pub fn session_id(&self) -> Option<&str> {
        self.header("x-claude-code-session-id")
    }

    /// The requested model, e.g. `claude-opus-5-5`.
    pub fn model(&self) -> Option<&str> {
        self.body.get("model").and_then(Value::as_str)
    }

    /// Whether the client asked for a streamed (SSE) answer.
    pub fn is_stream(&self) -> bool {
        self.body.get("stream").and_then(Value::as_bool) == Some(true)
    }

    /// The whole `system` field as one string (text blocks joined by newlines).
    ///
    /// Claude Code also sends `role: "system"` entries inside `messages`
    /// (environment, agent list); those are not part of this text.
    pub fn system_text(&self) -> String {
        match self.body.get("system") {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Array(blocks)) => join_texts(blocks),
            _ => String::new(),
        }
    }

    /// Whether this request comes from a sub-agent (its system prompt carries
    /// [`SUBAGENT_MARKER`]).
    pub fn is_subagent(&self) -> bool {
        self.system_text().contains(SUBAGENT_MARKER)
    }

    /// Names of the tools offered to the model.
    pub fn tool_names(&self) -> Vec<String> {
        self.body
            .get("tools")
            .and_then(Value::as_array)
            .map(|tools| {
                tools.iter().filter_map(|tool| tool.get("name").and_then(Value::as_str)).map(str::to_owned).collect()
            })
            .unwrap_or_default()
    }

    /// The `messages` array (empty when absent).
    pub fn messages(&self) -> &[Value] {
        self.body.get("messages").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default()
    }

    /// Every text of the `role: "system"` entries inside `messages`, in
    /// order: where Claude Code puts hook context ("SessionStart hook
    /// additional context: ...") and the environment.
    pub fn system_message_texts(&self) -> Vec<String> {
        self.messages()
            .iter()
            .filter(|m| m.get("role").and_then(Value::as_str) == Some("system"))
            .flat_map(message_texts)
            .collect()
    }

    /// Every text of every `role: "user"` message, in order (string contents
    /// and text blocks; tool results are not included).
    pub fn user_texts(&self) -> Vec<String> {
        self.user_messages().flat_map(message_texts).collect()
    }

    /// The texts of the last `role: "user"` message, joined by newlines.
    pub fn last_user_text(&self) -> String {
        self.last_user_message().map(|message| message_texts(message).join("\n")).unwrap_or_default()
    }

    /// The `tool_result` blocks of the last `role: "user"` message.
    pub fn tool_results(&self) -> Vec<ToolResult> {
        self.last_user_message().map(results_of).unwrap_or_default()
    }

    /// The `tool_result` blocks of every `role: "user"` message, oldest
    /// first: what the conversation has seen so far.
    pub fn all_tool_results(&self) -> Vec<ToolResult> {
        self.user_messages().flat_map(results_of).collect()
    }

    /// A few readable lines: header (index, route, turn, model) and the tail of
    /// the last user message; never the system prompt itself.
    pub fn summary(&self) -> String {
        let mut out = format!("#{} {} {} → {}", self.index, self.method, self.path, self.route);
        if let Some(turn) = self.turn {
            out.push_str(&format!(" turn {turn}"));
        }
        if let Some(model) = self.model() {
            let kind = if self.is_subagent() { "sub-agent" } else { "top level" };
            out.push_str(&format!(" [{model}, {kind}, {} tools]", self.tool_names().len()));
        }
        if self.body.get("messages").is_some() {
            for result in self.tool_results() {
                let error = if result.is_error { " (error)" } else { "" };
                out.push_str(&format!(
                    "\n    tool_result {}{error}: {}",
                    result.tool_use_id,
                    text::one_line_tail(&result.text, 400)
                ));
            }
            // The last text block: the prompt, a skill body, a notification…
            let texts = self.last_user_message().map(message_texts).unwrap_or_default();
            if let Some(last) = texts.last() {
                let earlier = match texts.len() - 1 {
                    0 => String::new(),
                    n => format!(" (after {n} more text block(s))"),
                };
                out.push_str(&format!("\n    user{earlier}: {}", text::one_line_tail(last, 300)));
            }
        }
        for block in &self.reply {
            out.push_str(&format!("\n    replied {}", describe_block(block)));
        }
        if let Some(mismatch) = &self.mismatch {
            out.push_str(&format!("\n    MISMATCH: {}", text::indent(mismatch, "      ").trim_start()));
        }
        out
    }

    fn user_messages(&self) -> impl Iterator<Item = &Value> {
        self.messages().iter().filter(|message| str_field(message, "role") == "user")
    }

    fn last_user_message(&self) -> Option<&Value> {
        self.user_messages().last()
    }
}

/// One line describing a reply content block.
pub(crate) fn describe_block(block: &Value) -> String {
    match block_type(block) {
        Some("text") => format!("text {:?}", text::head(str_field(block, "text"), 120)),
        Some("tool_use") => format!(
            "tool_use {} {}",
            str_field(block, "name"),
            text::head(&block.get("input").map(Value::to_string).unwrap_or_default(), 160)
        ),
        _ => text::head(&block.to_string(), 160),
    }
}

fn block_type(block: &Value) -> Option<&str> {
    block.get("type").and_then(Value::as_str)
}

fn str_field<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or_default()
}

/// The `text` of every text block, joined by newlines.
fn join_texts(blocks: &[Value]) -> String {
    blocks
        .iter()
        .filter(|block| block_type(block) == Some("text"))
        .map(|block| str_field(block, "text"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The texts of one message: its string content, or its text blocks.
fn message_texts(message: &Value) -> Vec<String> {
    match message.get("content") {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter(|block| block_type(block) == Some("text"))
            .map(|block| str_field(block, "text").to_owned())
            .collect(),
        _ => Vec::new(),
    }
}

/// The `tool_result` blocks of one message.
fn results_of(message: &Value) -> Vec<ToolResult> {
    let Some(Value::Array(blocks)) = message.get("content") else { return Vec::new() };
    blocks
        .iter()
        .filter(|block| block_type(block) == Some("tool_result"))
        .map(|block| ToolResult {
            tool_use_id: str_field(block, "tool_use_id").to_owned(),
            text: match block.get("content") {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Array(parts)) => join_texts(parts),
                _ => String::new(),
            },
            is_error: block.get("is_error").and_then(Value::as_bool) == Some(true),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn request(body: Value) -> RecordedRequest {
        RecordedRequest {
            index: 0,
            method: "POST".into(),
            path: "/v1/messages".into(),
            headers: vec![("x-claude-code-session-id".into(), "s1".into())],
            body,
            route: Route::Main,
            turn: Some(0),
            reply: Vec::new(),
            mismatch: None,
        }
    }

    #[test]
    fn reads_system_user_texts_and_tool_results() {
        let req = request(json!({
            "model": "m",
            "system": [{"type": "text", "text": "a"}, {"type": "text", "text": "cc_is_subagent=true"}],
            "messages": [
                {"role": "user", "content": "first"},
                {"role": "system", "content": "env"},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}]},
                {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": "t1", "content": "out", "is_error": false},
                    {"type": "tool_result", "tool_use_id": "t2", "content": [{"type": "text", "text": "x"}, {"type": "text", "text": "y"}], "is_error": true},
                    {"type": "text", "text": "second"}
                ]}
            ]
        }));
        assert_eq!(req.system_text(), "a\ncc_is_subagent=true");
        assert!(req.is_subagent());
        assert_eq!(req.user_texts(), ["first", "second"]);
        assert_eq!(req.last_user_text(), "second");
        assert_eq!(req.session_id(), Some("s1"));
        assert_eq!(req.model(), Some("m"));
        let results = req.tool_results();
        assert_eq!(results.len(), 2);
        assert_eq!(results[0].text, "out");
        assert!(!results[0].is_error);
        assert_eq!(results[1].text, "x\ny");
        assert!(results[1].is_error);
        assert!(req.summary().contains("tool_result t2 (error): x⏎y"));
    }

    #[test]
    fn system_may_be_a_plain_string() {
        let req = request(json!({"system": "plain", "messages": []}));
        assert_eq!(req.system_text(), "plain");
        assert!(!req.is_subagent());
        assert!(req.tool_results().is_empty());
        assert_eq!(req.last_user_text(), "");
    }
}
