//! [`MockApi`]: a scripted Anthropic Messages API on 127.0.0.1.

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use serde_json::{Value, json};
use tiny_http::{Header, Response, Server};

use crate::request::{RecordedRequest, Route};
use crate::scenario::{Scenario, Turn, Usage};
use crate::text;

/// The text answered when a request does not fit the scenario; it ends the
/// model's turn so Claude Code stops instead of waiting.
pub const MISMATCH_REPLY: &str = "phasegate-testkit: scenario mismatch";

/// The text answered to auxiliary requests (see the crate docs).
pub const AUXILIARY_REPLY: &str = "phasegate-testkit: auxiliary reply";

/// How often the server thread looks at the shutdown flag.
const POLL: Duration = Duration::from_millis(50);

/// A scripted Messages API served on `127.0.0.1:<random port>` by a
/// background thread. Dropping it shuts the server down.
pub struct MockApi {
    base_url: String,
    state: Arc<Mutex<State>>,
    shutdown: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl MockApi {
    /// Binds a free port on 127.0.0.1 and starts answering from `scenario`.
    pub fn start(scenario: Scenario) -> Self {
        let server =
            Server::http("127.0.0.1:0").unwrap_or_else(|e| panic!("phasegate-testkit: cannot bind 127.0.0.1:0: {e}"));
        let port = server.server_addr().to_ip().expect("phasegate-testkit: a TCP server has an IP address").port();
        let state = Arc::new(Mutex::new(State::new(scenario)));
        let shutdown = Arc::new(AtomicBool::new(false));
        let thread = {
            let (state, shutdown) = (Arc::clone(&state), Arc::clone(&shutdown));
            thread::Builder::new()
                .name("phasegate-testkit-api".into())
                .spawn(move || serve(&server, &state, &shutdown))
                .expect("phasegate-testkit: cannot spawn the server thread")
        };
        Self { base_url: format!("http://127.0.0.1:{port}"), state, shutdown, thread: Some(thread) }
    }

    /// `http://127.0.0.1:<port>`, the value for `ANTHROPIC_BASE_URL`.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// Every request received so far, in arrival order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.lock().requests.clone()
    }

    /// The requests answered by the main script.
    pub fn requests_for_main(&self) -> Vec<RecordedRequest> {
        self.requests_where(|route| *route == Route::Main)
    }

    /// The requests answered by the agent script registered with `marker`.
    pub fn requests_for_agent(&self, marker: &str) -> Vec<RecordedRequest> {
        self.requests_where(|route| matches!(route, Route::Agent(m) if m == marker))
    }

    /// Every mismatch so far, each as `#<request index> <explanation>`.
    pub fn mismatches(&self) -> Vec<String> {
        self.lock()
            .requests
            .iter()
            .filter_map(|req| req.mismatch.as_ref().map(|why| format!("#{} {why}", req.index)))
            .collect()
    }

    /// The turns no request has consumed yet, one line each.
    pub fn unconsumed_turns(&self) -> Vec<String> {
        self.lock().unconsumed()
    }

    /// Whether every script is used up and nothing mismatched.
    pub fn is_finished(&self) -> bool {
        self.mismatches().is_empty() && self.unconsumed_turns().is_empty()
    }

    /// Panics with a readable report unless every script was fully consumed
    /// and no request mismatched.
    #[track_caller]
    pub fn assert_finished(&self) {
        let mismatches = self.mismatches();
        let unconsumed = self.unconsumed_turns();
        if mismatches.is_empty() && unconsumed.is_empty() {
            return;
        }
        let mut problems = String::new();
        for mismatch in &mismatches {
            problems.push_str(&format!("- mismatch {}\n", text::indent(mismatch, "  ").trim_start()));
        }
        for turn in &unconsumed {
            problems.push_str(&format!("- never consumed: {turn}\n"));
        }
        let dump = self.lock().dump(&self.base_url);
        panic!("phasegate-testkit: scenario not finished\n{problems}\n{dump}");
    }

    /// Every request (header line, last user message tail, reply), then the
    /// mismatches and unconsumed turns.
    pub fn report(&self) -> String {
        self.lock().report(&self.base_url)
    }

    fn requests_where(&self, keep: impl Fn(&Route) -> bool) -> Vec<RecordedRequest> {
        self.lock().requests.iter().filter(|req| keep(&req.route)).cloned().collect()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        lock(&self.state)
    }
}

impl Drop for MockApi {
    fn drop(&mut self) {
        self.shutdown.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            // The thread wakes within POLL; a panic in it was already reported.
            let _ = thread.join();
        }
    }
}

/// A poisoned lock only means a panic elsewhere; the data is still readable.
fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The server loop: answers requests one at a time until shut down.
fn serve(server: &Server, state: &Mutex<State>, shutdown: &AtomicBool) {
    while !shutdown.load(Ordering::SeqCst) {
        match server.recv_timeout(POLL) {
            Ok(Some(request)) => handle(state, request),
            Ok(None) => {}
            Err(_) => thread::sleep(POLL),
        }
    }
}

fn handle(state: &Mutex<State>, mut request: tiny_http::Request) {
    let headers = request
        .headers()
        .iter()
        .map(|h| (h.field.as_str().as_str().to_ascii_lowercase(), h.value.as_str().to_owned()))
        .collect();
    let mut raw = String::new();
    let read_error = request.as_reader().read_to_string(&mut raw).err();
    let mut recorded = RecordedRequest {
        index: 0,
        method: request.method().as_str().to_owned(),
        path: request.url().to_owned(),
        headers,
        body: serde_json::from_str(&raw).unwrap_or(Value::Null),
        route: Route::NotFound,
        turn: None,
        reply: Vec::new(),
        mismatch: None,
    };
    let answer = {
        let mut state = lock(state);
        recorded.index = state.requests.len();
        let answer = state.answer(&mut recorded, read_error.map(|e| e.to_string()), &raw);
        state.requests.push(recorded);
        answer
    };
    let mut response = Response::from_data(answer.body).with_status_code(answer.status).with_header(
        Header::from_bytes("Content-Type", answer.content_type).expect("phasegate-testkit: a static header is valid"),
    );
    for (name, value) in &answer.headers {
        if let Ok(h) = Header::from_bytes(name.as_bytes(), value.as_bytes()) {
            response.add_header(h);
        }
    }
    // The client may have gone away (e.g. killed on timeout); nothing to do then.
    let _ = request.respond(response);
}

/// An HTTP answer, fully buffered.
struct Answer {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
    headers: Vec<(String, String)>,
}

impl Answer {
    fn json(status: u16, value: &Value) -> Self {
        Self { status, content_type: "application/json", body: value.to_string().into_bytes(), headers: Vec::new() }
    }
}

/// One FIFO of turns.
struct Script {
    route: Route,
    turns: Vec<Turn>,
    next: usize,
}

/// Message ids of every server of this process.
static NEXT_MESSAGE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

struct State {
    /// The main script first, then the agent scripts in the order added.
    scripts: Vec<Script>,
    requests: Vec<RecordedRequest>,
    /// Counters behind message and tool-use ids.
    messages_sent: u64,
    tool_uses_sent: u64,
    /// The usage the turn being answered reports.
    usage: Option<Usage>,
    /// The HTTP error the turn being answered is.
    error: Option<crate::scenario::ApiError>,
}

impl State {
    fn new(scenario: Scenario) -> Self {
        let main = Script { route: Route::Main, turns: scenario.main, next: 0 };
        let agents =
            scenario.agents.into_iter().map(|(marker, turns)| Script { route: Route::Agent(marker), turns, next: 0 });
        Self {
            scripts: std::iter::once(main).chain(agents).collect(),
            requests: Vec::new(),
            messages_sent: 0,
            tool_uses_sent: 0,
            usage: None,
            error: None,
        }
    }

    /// Fills in how `req` is routed and answered, and returns the answer.
    fn answer(&mut self, req: &mut RecordedRequest, read_error: Option<String>, raw: &str) -> Answer {
        let path = req.path.split('?').next().unwrap_or_default();
        match (req.method.as_str(), path) {
            ("POST", "/v1/messages/count_tokens") => {
                req.route = Route::CountTokens;
                Answer::json(200, &json!({ "input_tokens": 10 }))
            }
            ("POST", "/v1/messages") => {
                self.usage = None;
                self.error = None;
                let content = self.messages_reply(req, read_error, raw);
                if let Some(e) = self.error.take() {
                    let mut answer = Answer::json(e.status, &e.body);
                    answer.headers = e.headers;
                    answer.headers.push(("request-id".into(), format!("req_pgtk_{:04}", req.index)));
                    return answer;
                }
                let usage = self.usage.take().unwrap_or(Usage { input: 10, output: 5, cache_read: 0, cache_write: 0 });
                let stop_reason = if content.iter().any(|b| b["type"] == "tool_use") { "tool_use" } else { "end_turn" };
                let model = req.model().unwrap_or("claude-mock").to_owned();
                self.messages_sent += 1;
                // Unique in the process, as the real API's ids are: a
                // transcript written across several servers counts each once.
                let message_id =
                    format!("msg_pgtk_{:04}", NEXT_MESSAGE.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
                req.reply.clone_from(&content);
                if req.is_stream() {
                    Answer {
                        status: 200,
                        content_type: "text/event-stream",
                        body: sse(&message_id, &model, &content, stop_reason, usage).into_bytes(),
                        headers: Vec::new(),
                    }
                } else {
                    Answer::json(200, &message(&message_id, &model, content, stop_reason, usage))
                }
            }
            _ => {
                req.route = Route::NotFound;
                let error = format!("phasegate-testkit: no route for {} {}", req.method, req.path);
                Answer::json(404, &json!({ "type": "error", "error": { "type": "not_found_error", "message": error } }))
            }
        }
    }

    /// Routes a Messages request and returns the content blocks to answer.
    fn messages_reply(&mut self, req: &mut RecordedRequest, read_error: Option<String>, raw: &str) -> Vec<Value> {
        if !req.body.is_object() {
            req.route = Route::Unrouted;
            let why = match read_error {
                Some(error) => format!("cannot read the request body: {error}"),
                None => format!("the request body is not a JSON object: {}", text::head(raw, 300)),
            };
            return self.mismatch(req, why);
        }
        let system = req.system_text();
        let agent = self.scripts.iter().position(|script| match &script.route {
            Route::Agent(marker) => system.contains(marker.as_str()),
            _ => false,
        });
        let script = match agent {
            Some(index) => index,
            None if req.is_subagent() => {
                req.route = Route::Unrouted;
                let markers = self.agent_markers();
                let why = format!(
                    "a sub-agent request matched no agent script (markers: {markers}); \
                     its agent prompt begins: {}",
                    text::one_line(&agent_part(req), 300)
                );
                return self.mismatch(req, why);
            }
            None if req.tool_names().is_empty() => {
                req.route = Route::Auxiliary;
                return vec![text_block(AUXILIARY_REPLY)];
            }
            None => 0,
        };
        self.play(script, req)
    }

    /// Takes the next turn of `scripts[index]` for `req`, checking its expectations.
    fn play(&mut self, index: usize, req: &mut RecordedRequest) -> Vec<Value> {
        let script = &mut self.scripts[index];
        req.route = script.route.clone();
        let Some(turn) = script.turns.get(script.next).cloned() else {
            let why = format!(
                "{} script exhausted: all {} turn(s) used; last user message: {}",
                script.route,
                script.turns.len(),
                text::one_line_tail(&req.last_user_text(), 400)
            );
            return self.mismatch(req, why);
        };
        req.turn = Some(script.next);
        script.next += 1;
        for act in &turn.meanwhile {
            act();
        }
        let failures: Vec<String> = turn
            .expectations
            .iter()
            .filter_map(|check| match panic::catch_unwind(AssertUnwindSafe(|| check(req))) {
                Ok(Ok(())) => None,
                Ok(Err(why)) => Some(why),
                Err(payload) => Some(format!("the expectation panicked: {}", panic_text(&*payload))),
            })
            .collect();
        if !failures.is_empty() {
            let why = format!(
                "{} turn {} ({}): expectation failed:\n{}",
                req.route,
                req.turn.unwrap_or_default(),
                turn.describe(),
                failures.join("\n")
            );
            return self.mismatch(req, why);
        }
        let mut content = Vec::new();
        self.usage = turn.usage;
        if let Some(e) = &turn.error {
            self.error = Some(e.clone());
            return content;
        }
        if let Some(text) = &turn.text {
            content.push(text_block(text));
        }
        for tool in &turn.tools {
            let input = match tool.input_for(req) {
                Ok(input) => input,
                Err(why) => {
                    let why =
                        format!("{} turn {} ({}): {why}", req.route, req.turn.unwrap_or_default(), turn.describe());
                    return self.mismatch(req, why);
                }
            };
            self.tool_uses_sent += 1;
            let id = format!("toolu_pgtk_{:04}", self.tool_uses_sent);
            content.push(json!({ "type": "tool_use", "id": id, "name": tool.name, "input": input }));
        }
        content
    }

    fn mismatch(&mut self, req: &mut RecordedRequest, why: String) -> Vec<Value> {
        req.mismatch = Some(why);
        vec![text_block(MISMATCH_REPLY)]
    }

    fn agent_markers(&self) -> String {
        let markers: Vec<String> = self
            .scripts
            .iter()
            .filter_map(|script| match &script.route {
                Route::Agent(marker) => Some(format!("{marker:?}")),
                _ => None,
            })
            .collect();
        if markers.is_empty() { "none".to_owned() } else { markers.join(", ") }
    }

    fn unconsumed(&self) -> Vec<String> {
        self.scripts
            .iter()
            .flat_map(|script| {
                script.turns[script.next.min(script.turns.len())..].iter().enumerate().map(move |(offset, turn)| {
                    format!("{} turn {}: {}", script.route, script.next + offset, turn.describe())
                })
            })
            .collect()
    }

    /// One summary per request.
    fn dump(&self, base_url: &str) -> String {
        let mut out = format!("mock API {base_url}: {} request(s)\n", self.requests.len());
        for req in &self.requests {
            out.push_str(&req.summary());
            out.push('\n');
        }
        out
    }

    /// The dump, then the turns never consumed.
    fn report(&self, base_url: &str) -> String {
        let mut out = self.dump(base_url);
        let unconsumed = self.unconsumed();
        if !unconsumed.is_empty() {
            out.push_str("never consumed:\n");
            for turn in unconsumed {
                out.push_str(&format!("  {turn}\n"));
            }
        }
        out
    }
}

/// The part of a sub-agent system prompt worth showing: Claude Code puts the
/// agent's own Markdown body at the start of the last system block, after a
/// billing header and a one-line preamble.
fn agent_part(req: &RecordedRequest) -> String {
    match req.body.get("system") {
        Some(Value::Array(blocks)) => blocks
            .iter()
            .rev()
            .find_map(|block| block.get("text").and_then(Value::as_str))
            .unwrap_or_default()
            .to_owned(),
        _ => req.system_text(),
    }
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(non-string panic payload)".to_owned())
}

fn text_block(text: &str) -> Value {
    json!({ "type": "text", "text": text })
}

/// A complete (non-streamed) Messages API response.
fn message(id: &str, model: &str, content: Vec<Value>, stop_reason: &str, usage: Usage) -> Value {
    json!({
        "id": id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": null,
        "usage": {
            "input_tokens": usage.input, "output_tokens": usage.output,
            "cache_read_input_tokens": usage.cache_read, "cache_creation_input_tokens": usage.cache_write,
        },
    })
}

/// The same message as a server-sent event stream.
fn sse(id: &str, model: &str, content: &[Value], stop_reason: &str, usage: Usage) -> String {
    let mut out = String::new();
    let mut event = |kind: &str, data: Value| {
        out.push_str(&format!("event: {kind}\ndata: {data}\n\n"));
    };
    event(
        "message_start",
        json!({
            "type": "message_start",
            "message": {
                "id": id, "type": "message", "role": "assistant", "model": model,
                "content": [], "stop_reason": null, "stop_sequence": null,
                "usage": {
                    "input_tokens": usage.input, "output_tokens": 1,
                    "cache_read_input_tokens": usage.cache_read, "cache_creation_input_tokens": usage.cache_write,
                },
            },
        }),
    );
    for (index, block) in content.iter().enumerate() {
        let (start, delta) = if block["type"] == "tool_use" {
            (
                json!({ "type": "tool_use", "id": block["id"], "name": block["name"], "input": {} }),
                json!({ "type": "input_json_delta", "partial_json": block["input"].to_string() }),
            )
        } else {
            (json!({ "type": "text", "text": "" }), json!({ "type": "text_delta", "text": block["text"] }))
        };
        event("content_block_start", json!({ "type": "content_block_start", "index": index, "content_block": start }));
        event("content_block_delta", json!({ "type": "content_block_delta", "index": index, "delta": delta }));
        event("content_block_stop", json!({ "type": "content_block_stop", "index": index }));
    }
    event(
        "message_delta",
        json!({
            "type": "message_delta",
            "delta": { "stop_reason": stop_reason, "stop_sequence": null },
            "usage": { "output_tokens": usage.output },
        }),
    );
    event("message_stop", json!({ "type": "message_stop" }));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::ToolUse;

    fn post(state: &mut State, body: Value) -> RecordedRequest {
        let mut req = RecordedRequest {
            index: state.requests.len(),
            method: "POST".into(),
            path: "/v1/messages?beta=true".into(),
            headers: Vec::new(),
            body,
            route: Route::NotFound,
            turn: None,
            reply: Vec::new(),
            mismatch: None,
        };
        let raw = req.body.to_string();
        state.answer(&mut req, None, &raw);
        state.requests.push(req.clone());
        req
    }

    fn main_body(user: &str) -> Value {
        json!({ "model": "m", "stream": true, "system": "main", "tools": [{"name": "Bash"}],
                "messages": [{"role": "user", "content": user}] })
    }

    #[test]
    fn routes_by_marker_then_main_then_auxiliary() {
        let mut state = State::new(
            Scenario::new()
                .main(vec![Turn::tools(vec![ToolUse::bash("ls")]), Turn::text("done")])
                .agent("REVIEWER", vec![Turn::text("lgtm")]),
        );
        let first = post(&mut state, main_body("go"));
        assert_eq!((first.route.clone(), first.turn), (Route::Main, Some(0)));
        assert_eq!(first.reply[0]["id"], "toolu_pgtk_0001");

        let agent = post(
            &mut state,
            json!({ "system": "cc_is_subagent=true\nREVIEWER", "tools": [{"name": "Read"}], "messages": [] }),
        );
        assert_eq!(agent.route, Route::Agent("REVIEWER".into()));
        assert_eq!(agent.reply[0]["text"], "lgtm");

        let aux = post(&mut state, json!({ "system": "title please", "messages": [] }));
        assert_eq!(aux.route, Route::Auxiliary);
        assert!(aux.mismatch.is_none());

        let stray = post(
            &mut state,
            json!({ "system": "cc_is_subagent=true\nother", "tools": [{"name": "Read"}], "messages": [] }),
        );
        assert_eq!(stray.route, Route::Unrouted);
        assert!(stray.mismatch.as_deref().unwrap_or_default().contains("REVIEWER"));

        post(&mut state, main_body("again"));
        let extra = post(&mut state, main_body("more"));
        assert!(extra.mismatch.as_deref().unwrap_or_default().contains("exhausted"));
        assert_eq!(extra.reply[0]["text"], MISMATCH_REPLY);
        assert!(state.unconsumed().is_empty());
    }

    #[test]
    fn failed_expectation_is_a_mismatch() {
        let mut state = State::new(Scenario::new().main(vec![
            Turn::text("x").expect_user_text_contains("needle"),
            Turn::text("y").expect(|_| panic!("boom")),
            Turn::text("z"),
        ]));
        let req = post(&mut state, main_body("haystack"));
        let why = req.mismatch.unwrap_or_default();
        assert!(why.contains("main turn 0") && why.contains("needle") && why.contains("haystack"), "{why}");
        let req = post(&mut state, main_body("haystack"));
        assert!(req.mismatch.unwrap_or_default().contains("boom"));
        assert_eq!(state.unconsumed(), ["main turn 2: text \"z\""]);
    }

    #[test]
    fn sse_has_the_event_sequence() {
        let content = vec![
            text_block("hi"),
            json!({ "type": "tool_use", "id": "t", "name": "Bash", "input": { "command": "ls" } }),
        ];
        let stream = sse("msg", "m", &content, "tool_use", Usage::default());
        let kinds: Vec<&str> = stream.lines().filter_map(|l| l.strip_prefix("event: ")).collect();
        assert_eq!(
            kinds,
            [
                "message_start",
                "content_block_start",
                "content_block_delta",
                "content_block_stop",
                "content_block_start",
                "content_block_delta",
                "content_block_stop",
                "message_delta",
                "message_stop",
            ]
        );
        assert!(stream.contains(r#""partial_json":"{\"command\":\"ls\"}""#));
    }
}
