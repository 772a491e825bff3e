//! [`FakeSlack`]: the Slack Web API's wire format on 127.0.0.1, for tests.
//!
//! It serves `auth.test`, `chat.postMessage`, `conversations.replies` and
//! `conversations.history`
//! under `/api/` the way Slack documents them: HTTP 200 with `{"ok": true,
//! ...}` or `{"ok": false, "error": "<code>"}`, HTTP 429 with `Retry-After`
//! when rate limited, the token in `Authorization: Bearer <token>`,
//! parameters in the query string, a form body or (for writes) a JSON body.
//! It knows nothing of phasegate: tests set up tokens, channels and human
//! replies, then inspect what was posted and which requests came in.
//!
//! Where Slack's documentation leaves a choice open, the fake picks:
//! - a bot token reading a thread in a channel whose id starts with `C`
//!   gets `missing_scope` (`needed: channels:history`): Slack documents that
//!   bot tokens read threads only in DMs and group DMs;
//! - a channel added with `member: false` answers `not_in_channel` to posts
//!   and thread reads alike;
//! - `chat.postMessage` with an unknown `thread_ts` answers `thread_not_found`;
//! - a bot's post carries `bot_id` and `app_id` and the bot's `user`, no
//!   `subtype` (as `chat.postMessage` with a bot token does today);
//! - cursors are `next_offset:<n>`; anything else is `invalid_cursor`.
//!
//! ```
//! use phasegate_testkit::{FakeSlack, SlackTokenKind};
//!
//! let slack = FakeSlack::start();
//! slack.add_token("xoxp-test", SlackTokenKind::User, "U0ASKER");
//! slack.add_channel("C0TEAM", true);
//! let parent = slack.add_human_message("C0TEAM", "U0ALICE", "Which database?");
//! slack.add_human_reply("C0TEAM", &parent, "U0BOB", "Postgres");
//! assert_eq!(slack.thread("C0TEAM", &parent).len(), 2);
//! assert!(slack.base_url().ends_with("/api/"));
//! ```

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use serde_json::{Map, Value, json};
use tiny_http::{Header, Response, Server};

/// How often the server thread looks at the shutdown flag.
const POLL: Duration = Duration::from_millis(50);
/// The seconds part of the first ts; later ones count up from it.
const TS_EPOCH: u64 = 1_708_300_000;
/// `conversations.replies`' `limit` when none is given, and its maximum.
const DEFAULT_LIMIT: usize = 1000;
const CURSOR_PREFIX: &str = "next_offset:";
const TEAM: &str = "Phasegate Fake";
const TEAM_ID: &str = "T0FAKE";
const TEAM_URL: &str = "https://phasegate-fake.slack.com/";
const APP_ID: &str = "A0FAKE";

/// What kind of token [`FakeSlack::add_token`] registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlackTokenKind {
    /// An `xoxb-` bot token: gets a `bot_id`; cannot read channel threads.
    Bot,
    /// An `xoxp-` user token: may read channel threads.
    User,
}

/// One HTTP request [`FakeSlack`] received, and how it answered.
#[derive(Debug, Clone)]
pub struct SlackRequest {
    /// `POST /api/chat.postMessage` (the path with its query string).
    pub method_path: String,
    /// Whether an `Authorization` header came (its value is not kept).
    pub has_auth_header: bool,
    pub content_type: Option<String>,
    /// The raw body.
    pub body: String,
    /// Query and body parameters merged (body wins); JSON values other
    /// than strings as JSON text.
    pub params: BTreeMap<String, String>,
    /// The HTTP status answered.
    pub status: u16,
    /// The `error` code answered with `"ok": false`, if any.
    pub error: Option<String>,
}

impl SlackRequest {
    /// The Slack method called (`chat.postMessage`), if the path is under `/api/`.
    pub fn method(&self) -> Option<&str> {
        let path = self.method_path.split_once(' ').map_or(self.method_path.as_str(), |(_, path)| path);
        let path = path.split_once('?').map_or(path, |(path, _)| path);
        path.strip_prefix("/api/")
    }
}

/// The Slack Web API on `127.0.0.1:<random port>`, served by a background
/// thread. Dropping it shuts the server down.
pub struct FakeSlack {
    base_url: String,
    state: Arc<Mutex<State>>,
    shutdown: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl FakeSlack {
    /// Binds a free port on 127.0.0.1 and starts answering; no tokens or
    /// channels yet.
    pub fn start() -> Self {
        let server =
            Server::http("127.0.0.1:0").unwrap_or_else(|e| panic!("phasegate-testkit: cannot bind 127.0.0.1:0: {e}"));
        let port = server.server_addr().to_ip().expect("phasegate-testkit: a TCP server has an IP address").port();
        let state = Arc::new(Mutex::new(State::default()));
        let shutdown = Arc::new(AtomicBool::new(false));
        let thread = {
            let (state, shutdown) = (Arc::clone(&state), Arc::clone(&shutdown));
            thread::Builder::new()
                .name("phasegate-testkit-slack".into())
                .spawn(move || serve(&server, &state, &shutdown))
                .expect("phasegate-testkit: cannot spawn the fake Slack thread")
        };
        Self { base_url: format!("http://127.0.0.1:{port}/api/"), state, shutdown, thread: Some(thread) }
    }

    /// `http://127.0.0.1:<port>/api/`: the base URL a Slack client appends method names to.
    pub fn base_url(&self) -> String {
        self.base_url.clone()
    }

    /// Accepts `token`, acting as `user_id`; a bot token also gets a `bot_id`.
    pub fn add_token(&self, token: &str, kind: SlackTokenKind, user_id: &str) {
        let mut state = self.lock();
        let bot_id = match kind {
            SlackTokenKind::Bot => Some(format!("B{:07}", state.tokens.len() + 1)),
            SlackTokenKind::User => None,
        };
        state.tokens.insert(token.to_owned(), TokenInfo { kind, user_id: user_id.to_owned(), bot_id });
    }

    /// Creates channel `id` (empty). With `member: false` the tokens are not
    /// in it: posts and thread reads answer `not_in_channel`.
    pub fn add_channel(&self, id: &str, member: bool) {
        self.lock().channels.insert(id.to_owned(), Channel { member, messages: Vec::new() });
    }

    /// Posts a new message from person `user` to `channel`; returns its ts.
    /// Panics if the channel was not added.
    #[track_caller]
    pub fn add_human_message(&self, channel: &str, user: &str, text: &str) -> String {
        let mut state = self.lock();
        let message = json!({ "type": "message", "user": user, "text": text });
        state.insert(channel, message, None).unwrap_or_else(|code| panic!("phasegate-testkit: {code} ({channel})"))
    }

    /// Posts a reply from person `user` into the thread `thread_ts` of
    /// `channel`; returns its ts. Panics if the channel or thread is unknown.
    #[track_caller]
    pub fn add_human_reply(&self, channel: &str, thread_ts: &str, user: &str, text: &str) -> String {
        let mut state = self.lock();
        let message = json!({ "type": "message", "user": user, "text": text });
        state
            .insert(channel, message, Some(thread_ts))
            .unwrap_or_else(|code| panic!("phasegate-testkit: {code} ({channel} {thread_ts})"))
    }

    /// Every message in `channel`, parents and replies, in the order posted
    /// (empty for an unknown channel).
    pub fn messages(&self, channel: &str) -> Vec<Value> {
        self.lock().channels.get(channel).map(|c| c.messages.clone()).unwrap_or_default()
    }

    /// The thread of message `ts`, parent first, as `conversations.replies`
    /// would list it (empty when unknown).
    pub fn thread(&self, channel: &str, ts: &str) -> Vec<Value> {
        self.lock().channels.get(channel).and_then(|c| c.thread(ts)).unwrap_or_default()
    }

    /// The next `n` requests get HTTP 429 with `Retry-After: <retry_after_secs>`.
    pub fn rate_limit_next(&self, n: usize, retry_after_secs: u64) {
        self.lock().faults.extend((0..n).map(|_| Fault::RateLimit(retry_after_secs)));
    }

    /// The next `n` requests get HTTP `status` with a plain-text body.
    pub fn fail_next(&self, n: usize, status: u16) {
        self.lock().faults.extend((0..n).map(|_| Fault::Status(status)));
    }

    /// The next `n` requests are carried out (a message is posted), but
    /// their answers are lost: the caller gets HTTP 502, as from a proxy
    /// that timed out after Slack did the work.
    pub fn lose_answer_next(&self, n: usize) {
        self.lock().faults.extend((0..n).map(|_| Fault::LoseAnswer));
    }

    /// The next `n` requests get HTTP 200 with an HTML body, as from a
    /// captive portal or a misconfigured proxy.
    pub fn garble_next(&self, n: usize) {
        self.lock().faults.extend((0..n).map(|_| Fault::Garble));
    }

    /// The next `n` requests get `ok: true` bodies whose fields have the
    /// wrong shape and quote the caller's token.
    pub fn misshape_next(&self, n: usize) {
        self.lock().faults.extend((0..n).map(|_| Fault::Misshape));
    }

    /// `conversations.replies` and `conversations.history` pages hold at most
    /// `n` messages, whatever `limit` asks.
    pub fn set_page_size_cap(&self, n: usize) {
        self.lock().page_size_cap = Some(n.max(1));
    }

    /// Every request so far, in arrival order.
    pub fn requests(&self) -> Vec<SlackRequest> {
        self.lock().requests.clone()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        lock(&self.state)
    }
}

impl Drop for FakeSlack {
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
    let header = |name: &str| {
        request
            .headers()
            .iter()
            .find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name))
            .map(|h| h.value.as_str().to_owned())
    };
    let authorization = header("Authorization");
    let content_type = header("Content-Type");
    let mut body = String::new();
    let readable = request.as_reader().read_to_string(&mut body).is_ok();
    let url = request.url().to_owned();
    let (path, query) = url.split_once('?').unwrap_or((url.as_str(), ""));
    let mut params = form_params(query);
    let is_json = content_type.as_deref().is_some_and(|ct| ct.trim_start().starts_with("application/json"));
    let body_params = if is_json { json_params(&body) } else { Some(form_params(&body)) };
    let valid_body = readable && body_params.is_some();
    params.extend(body_params.unwrap_or_default());

    let answer = {
        let mut state = lock(state);
        let answer = state.answer(path, authorization.as_deref(), &params, valid_body);
        state.requests.push(SlackRequest {
            method_path: format!("{} {url}", request.method()),
            has_auth_header: authorization.is_some(),
            content_type,
            body,
            params,
            status: answer.status,
            error: answer.error.clone(),
        });
        answer
    };
    let mut response = Response::from_string(answer.body)
        .with_status_code(answer.status)
        .with_header(header_of("Content-Type", answer.content_type));
    if let Some(secs) = answer.retry_after {
        response.add_header(header_of("Retry-After", &secs.to_string()));
    }
    // The client may have gone away (e.g. timed out); nothing to do then.
    let _ = request.respond(response);
}

fn header_of(name: &str, value: &str) -> Header {
    Header::from_bytes(name, value).expect("phasegate-testkit: a fake Slack header is valid")
}

/// An HTTP answer, fully buffered.
struct Answer {
    status: u16,
    content_type: &'static str,
    body: String,
    retry_after: Option<u64>,
    /// The `error` code of an `"ok": false` answer, for [`SlackRequest::error`].
    error: Option<String>,
}

impl Answer {
    fn ok(mut value: Value) -> Self {
        value["ok"] = Value::Bool(true);
        Self::json(200, &value, None)
    }

    fn error(code: &str) -> Self {
        Self::json(200, &json!({ "ok": false, "error": code }), Some(code))
    }

    fn json(status: u16, value: &Value, error: Option<&str>) -> Self {
        Self {
            status,
            content_type: "application/json; charset=utf-8",
            body: value.to_string(),
            retry_after: None,
            error: error.map(str::to_owned),
        }
    }
}

/// A failure injected by a test, answered before anything else.
enum Fault {
    RateLimit(u64),
    Status(u16),
    Garble,
    /// `ok: true` with every field of the wrong type, each holding the
    /// caller's own token (a body that quotes the request).
    Misshape,
    /// The request is carried out, its answer replaced by HTTP 502.
    LoseAnswer,
}

impl Fault {
    fn answer(self, token: Option<&str>) -> Answer {
        match self {
            Fault::Misshape => {
                let t = token.unwrap_or("none");
                Answer::json(
                    200,
                    &json!({ "ok": true, "messages": t, "channel": [t], "ts": [t], "user_id": [t], "has_more": t }),
                    None,
                )
            }
            Fault::RateLimit(secs) => Answer {
                retry_after: Some(secs),
                ..Answer::json(429, &json!({ "ok": false, "error": "ratelimited" }), Some("ratelimited"))
            },
            Fault::Status(status) => Answer {
                status,
                content_type: "text/plain; charset=utf-8",
                body: format!("phasegate-testkit: injected HTTP {status}"),
                retry_after: None,
                error: None,
            },
            Fault::LoseAnswer => Fault::Status(502).answer(token),
            Fault::Garble => Answer {
                status: 200,
                content_type: "text/html; charset=utf-8",
                body: "<html><body><h1>Welcome to the hotel Wi-Fi</h1></body></html>".into(),
                retry_after: None,
                error: None,
            },
        }
    }
}

struct TokenInfo {
    kind: SlackTokenKind,
    user_id: String,
    bot_id: Option<String>,
}

struct Channel {
    member: bool,
    /// Parents and replies in the order posted (so in ts order).
    messages: Vec<Value>,
}

impl Channel {
    fn find(&self, ts: &str) -> Option<usize> {
        self.messages.iter().position(|m| m["ts"] == ts)
    }

    /// The ts of the thread `ts` belongs to (its own ts for a parent).
    fn root_of(&self, ts: &str) -> Option<String> {
        let message = &self.messages[self.find(ts)?];
        Some(message.get("thread_ts").and_then(Value::as_str).unwrap_or(ts).to_owned())
    }

    fn thread(&self, ts: &str) -> Option<Vec<Value>> {
        let root = self.root_of(ts)?;
        let parent = self.messages[self.find(&root)?].clone();
        let replies = self.messages.iter().filter(|m| m["thread_ts"] == root.as_str() && m["ts"] != root.as_str());
        Some(std::iter::once(parent).chain(replies.cloned()).collect())
    }
}

#[derive(Default)]
struct State {
    tokens: HashMap<String, TokenInfo>,
    channels: HashMap<String, Channel>,
    /// How many ts were handed out.
    issued: u64,
    faults: VecDeque<Fault>,
    page_size_cap: Option<usize>,
    requests: Vec<SlackRequest>,
}

impl State {
    fn answer(
        &mut self,
        path: &str,
        authorization: Option<&str>,
        params: &BTreeMap<String, String>,
        valid_body: bool,
    ) -> Answer {
        match self.faults.pop_front() {
            None => self.carry_out(path, authorization, params, valid_body),
            // Done, and then the answer is lost on its way back.
            Some(Fault::LoseAnswer) => {
                let _ = self.carry_out(path, authorization, params, valid_body);
                Fault::Status(502).answer(None)
            }
            Some(fault) => {
                let token = authorization.and_then(|value| value.strip_prefix("Bearer ")).map(str::trim);
                fault.answer(token)
            }
        }
    }

    /// The method called, as Slack would carry it out.
    fn carry_out(
        &mut self,
        path: &str,
        authorization: Option<&str>,
        params: &BTreeMap<String, String>,
        valid_body: bool,
    ) -> Answer {
        let Some(method) = path.strip_prefix("/api/") else {
            return Answer::json(404, &json!({ "ok": false, "error": "unknown_method" }), Some("unknown_method"));
        };
        if !matches!(method, "auth.test" | "chat.postMessage" | "conversations.replies" | "conversations.history") {
            return Answer::error("unknown_method");
        }
        if !valid_body {
            return Answer::error("invalid_json");
        }
        let Some(token) = authorization.and_then(|value| value.strip_prefix("Bearer ")).map(str::trim) else {
            return Answer::error("not_authed");
        };
        if token.is_empty() {
            return Answer::error("not_authed");
        }
        let Some(caller) = self.tokens.get(token) else {
            return Answer::error("invalid_auth");
        };
        let caller = Caller { kind: caller.kind, user_id: caller.user_id.clone(), bot_id: caller.bot_id.clone() };
        let param = |name: &str| params.get(name).map(String::as_str).filter(|value| !value.is_empty());
        match method {
            "auth.test" => auth_test(&caller),
            "chat.postMessage" => self.post_message(&caller, param("channel"), param("text"), param("thread_ts")),
            "conversations.history" => self.history(&caller, param("channel"), param("limit"), param("cursor")),
            _ => self.replies(&caller, param("channel"), param("ts"), param("limit"), param("cursor")),
        }
    }

    fn post_message(
        &mut self,
        caller: &Caller,
        channel: Option<&str>,
        text: Option<&str>,
        thread_ts: Option<&str>,
    ) -> Answer {
        let Some(channel) = channel else { return Answer::error("channel_not_found") };
        let Some(text) = text else { return Answer::error("no_text") };
        match self.channels.get(channel) {
            None => return Answer::error("channel_not_found"),
            Some(found) if !found.member => return Answer::error("not_in_channel"),
            Some(_) => {}
        }
        let mut message = json!({ "type": "message", "user": caller.user_id, "text": text });
        if let Some(bot_id) = &caller.bot_id {
            message["bot_id"] = Value::from(bot_id.as_str());
            message["app_id"] = Value::from(APP_ID);
        }
        match self.insert(channel, message, thread_ts) {
            Ok(ts) => {
                let channel_messages = &self.channels[channel].messages;
                let posted = channel_messages.last().cloned().unwrap_or(Value::Null);
                Answer::ok(json!({ "channel": channel, "ts": ts, "message": posted }))
            }
            Err(code) => Answer::error(code),
        }
    }

    /// `conversations.history`: top-level messages, newest first.
    fn history(&self, caller: &Caller, channel: Option<&str>, limit: Option<&str>, cursor: Option<&str>) -> Answer {
        let channel = match self.readable_channel(caller, channel, None) {
            Ok(channel) => channel,
            Err(answer) => return answer,
        };
        let (limit, offset) = match self.page_request(limit, cursor) {
            Ok(bounds) => bounds,
            Err(answer) => return answer,
        };
        let top: Vec<&Value> =
            channel.messages.iter().rev().filter(|m| m.get("thread_ts").is_none_or(|t| *t == m["ts"])).collect();
        page(&top, limit, offset)
    }

    /// `conversations.replies`: the thread of `ts`, parent first.
    fn replies(
        &self,
        caller: &Caller,
        channel: Option<&str>,
        ts: Option<&str>,
        limit: Option<&str>,
        cursor: Option<&str>,
    ) -> Answer {
        let provided = "chat:write,groups:history,im:history,mpim:history";
        let channel = match self.readable_channel(caller, channel, Some(provided)) {
            Ok(channel) => channel,
            Err(answer) => return answer,
        };
        let (limit, offset) = match self.page_request(limit, cursor) {
            Ok(bounds) => bounds,
            Err(answer) => return answer,
        };
        let Some(thread) = ts.and_then(|ts| channel.thread(ts)) else { return Answer::error("thread_not_found") };
        let thread: Vec<&Value> = thread.iter().collect();
        page(&thread, limit, offset)
    }

    /// The channel a history or replies read names, or the answer refusing
    /// it: `channel_not_found`, `not_in_channel`, or for a bot token in a
    /// `C` channel `missing_scope` (with `provided` when given).
    fn readable_channel(
        &self,
        caller: &Caller,
        channel: Option<&str>,
        provided: Option<&str>,
    ) -> Result<&Channel, Answer> {
        let Some(channel_id) = channel else { return Err(Answer::error("channel_not_found")) };
        let channel = match self.channels.get(channel_id) {
            None => return Err(Answer::error("channel_not_found")),
            Some(found) if !found.member => return Err(Answer::error("not_in_channel")),
            Some(found) => found,
        };
        if caller.kind == SlackTokenKind::Bot && channel_id.starts_with('C') {
            let mut body = json!({ "ok": false, "error": "missing_scope", "needed": "channels:history" });
            if let Some(provided) = provided {
                body["provided"] = Value::from(provided);
            }
            return Err(Answer::json(200, &body, Some("missing_scope")));
        }
        Ok(channel)
    }

    /// A read's `limit` (default and maximum [`DEFAULT_LIMIT`], at most the
    /// page size cap) and the offset its `cursor` names, or the answer
    /// refusing them (`invalid_limit`, `invalid_cursor`).
    fn page_request(&self, limit: Option<&str>, cursor: Option<&str>) -> Result<(usize, usize), Answer> {
        let limit = match limit.map(str::parse::<usize>) {
            None => DEFAULT_LIMIT,
            Some(Ok(limit)) => limit.clamp(1, DEFAULT_LIMIT),
            Some(Err(_)) => return Err(Answer::error("invalid_limit")),
        };
        let limit = self.page_size_cap.map_or(limit, |cap| limit.min(cap));
        let offset = match cursor.map(|c| c.strip_prefix(CURSOR_PREFIX).and_then(|n| n.parse::<usize>().ok())) {
            None => 0,
            Some(Some(offset)) => offset,
            Some(None) => return Err(Answer::error("invalid_cursor")),
        };
        Ok((limit, offset))
    }

    /// Adds `message` to `channel` with a fresh ts (as a reply when
    /// `thread_ts` is given, updating the parent's reply fields); returns
    /// the ts, or the Slack error code.
    fn insert(&mut self, channel: &str, mut message: Value, thread_ts: Option<&str>) -> Result<String, &'static str> {
        let ts = self.next_ts();
        let channel = self.channels.get_mut(channel).ok_or("channel_not_found")?;
        message["ts"] = Value::from(ts.as_str());
        if let Some(thread_ts) = thread_ts {
            let root = channel.root_of(thread_ts).ok_or("thread_not_found")?;
            let index = channel.find(&root).ok_or("thread_not_found")?;
            let parent = &mut channel.messages[index];
            let count = parent.get("reply_count").and_then(Value::as_u64).unwrap_or(0);
            parent["thread_ts"] = Value::from(root.as_str());
            parent["reply_count"] = Value::from(count + 1);
            parent["latest_reply"] = Value::from(ts.as_str());
            message["thread_ts"] = Value::from(root);
        }
        channel.messages.push(message);
        Ok(ts)
    }

    /// `1708300000.000100`, `1708300000.000200`, ...: increasing, as numbers and as text.
    fn next_ts(&mut self) -> String {
        self.issued += 1;
        format!("{}.{:06}", TS_EPOCH + self.issued / 10_000, (self.issued % 10_000) * 100)
    }
}

/// The token's owner, copied out so the state can be changed.
struct Caller {
    kind: SlackTokenKind,
    user_id: String,
    bot_id: Option<String>,
}

/// The page of `items` from `offset`, at most `limit` long, with the cursor
/// of the next page; `invalid_cursor` when `offset` is past the end.
fn page(items: &[&Value], limit: usize, offset: usize) -> Answer {
    if offset > items.len() {
        return Answer::error("invalid_cursor");
    }
    let end = (offset + limit).min(items.len());
    let has_more = end < items.len();
    let next_cursor = if has_more { format!("{CURSOR_PREFIX}{end}") } else { String::new() };
    Answer::ok(json!({
        "messages": items[offset..end],
        "has_more": has_more,
        "response_metadata": { "next_cursor": next_cursor },
    }))
}

fn auth_test(caller: &Caller) -> Answer {
    let mut value = json!({
        "url": TEAM_URL,
        "team": TEAM,
        "user": caller.user_id.to_lowercase(),
        "team_id": TEAM_ID,
        "user_id": caller.user_id,
    });
    if let Some(bot_id) = &caller.bot_id {
        value["bot_id"] = Value::from(bot_id.as_str());
    }
    Answer::ok(value)
}

/// `a=1&b=x+y%21` as pairs; malformed escapes are kept as they are.
fn form_params(text: &str) -> BTreeMap<String, String> {
    text.split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            (form_decode(key), form_decode(value))
        })
        .collect()
}

fn form_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%').then(|| text.get(i + 1..i + 3)).flatten();
        match (bytes[i], escaped.and_then(|hex| u8::from_str_radix(hex, 16).ok())) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (b'+', _) => {
                out.push(b' ');
                i += 1;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A JSON object body as parameters (strings as they are, other values as
/// JSON text); `None` unless the body is an object. An empty body is none.
fn json_params(body: &str) -> Option<BTreeMap<String, String>> {
    if body.trim().is_empty() {
        return Some(BTreeMap::new());
    }
    let object: Map<String, Value> = serde_json::from_str(body).ok()?;
    Some(
        object
            .into_iter()
            .map(|(key, value)| {
                let value = match value {
                    Value::String(text) => text,
                    other => other.to_string(),
                };
                (key, value)
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ts_values_increase_as_numbers_and_text() {
        let mut state = State::default();
        let all: Vec<String> = (0..20_005).map(|_| state.next_ts()).collect();
        assert_eq!(all[0], "1708300000.000100");
        assert_eq!(all[1], "1708300000.000200");
        for pair in all.windows(2) {
            assert!(pair[0] < pair[1], "{pair:?}");
            assert!(pair[0].parse::<f64>().unwrap() < pair[1].parse::<f64>().unwrap(), "{pair:?}");
        }
    }

    #[test]
    fn form_decoding() {
        let params = form_params("channel=C1&text=a+b%21%E2%9C%93&bad=%zz&flag");
        assert_eq!(params["channel"], "C1");
        assert_eq!(params["text"], "a b!✓");
        assert_eq!(params["bad"], "%zz");
        assert_eq!(params["flag"], "");
    }

    #[test]
    fn json_bodies_become_parameters() {
        let params = json_params(r#"{"channel":"C1","limit":2,"x":null}"#).unwrap();
        assert_eq!(params["channel"], "C1");
        assert_eq!(params["limit"], "2");
        assert!(json_params("[1]").is_none());
        assert!(json_params("{").is_none());
    }

    #[test]
    fn replies_thread_lists_parent_then_replies_and_updates_the_parent() {
        let slack = FakeSlack::start();
        slack.add_channel("C1", true);
        let parent = slack.add_human_message("C1", "U1", "question?");
        let other = slack.add_human_message("C1", "U1", "unrelated");
        let reply = slack.add_human_reply("C1", &parent, "U2", "answer");
        // A reply to a reply lands in the same thread.
        let nested = slack.add_human_reply("C1", &reply, "U3", "me too");
        let thread = slack.thread("C1", &parent);
        let ts: Vec<&str> = thread.iter().map(|m| m["ts"].as_str().unwrap()).collect();
        assert_eq!(ts, [parent.as_str(), reply.as_str(), nested.as_str()]);
        assert_eq!(thread[0]["reply_count"], 2);
        assert_eq!(thread[0]["latest_reply"], nested.as_str());
        assert_eq!(thread[2]["thread_ts"], parent.as_str());
        assert_eq!(slack.thread("C1", &other).len(), 1);
        assert_eq!(slack.messages("C1").len(), 4);
        assert!(slack.thread("C1", "1.2").is_empty() && slack.messages("C9").is_empty());
    }

    #[test]
    #[should_panic(expected = "thread_not_found")]
    fn human_reply_to_an_unknown_thread_panics() {
        let slack = FakeSlack::start();
        slack.add_channel("C1", true);
        slack.add_human_reply("C1", "1.000001", "U1", "hello?");
    }
}
