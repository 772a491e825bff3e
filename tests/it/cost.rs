//! What a feature costs, through the real binaries on transcripts written
//! here in Claude Code's format: bad input named and skipped, never fatal;
//! budgets at 80% (the brief and the Stop hook say so) and at 100% (the
//! backlog runner pauses the feature on a question only a person answers);
//! the retrospective's record and trend.

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::util::{HOOK, Run, TestEnv};

pub(crate) const S: &str = "cost-session-1";

/// An assistant line of a transcript, in Claude Code's format.
pub(crate) fn line(id: &str, model: &str, input: u64, output: u64) -> String {
    let at = phasegate_core::time::stamp(phasegate_core::time::now());
    json!({
        "type": "assistant", "timestamp": at, "sessionId": S, "uuid": format!("u-{id}"), "someNewField": {"x": 1},
        "message": {"id": id, "model": model, "role": "assistant", "content": [{"type": "text", "text": "ok"}],
                    "usage": {"input_tokens": input, "output_tokens": output, "cache_read_input_tokens": 0,
                              "cache_creation_input_tokens": 0, "futureCounter": 3}}
    })
    .to_string()
        + "\n"
}

pub(crate) struct Costed {
    pub env: TestEnv,
    home: PathBuf,
    transcript: PathBuf,
    pub feature: String,
}

impl Costed {
    /// A feature in specify, the session turned to it, its transcript in
    /// `HOME/.claude/projects/p/`.
    pub fn new() -> Costed {
        let env = TestEnv::new();
        let home = env.outer().join("home");
        let dir = home.join(".claude/projects/p");
        std::fs::create_dir_all(&dir).unwrap();
        let transcript = dir.join(format!("{S}.jsonl"));
        std::fs::write(&transcript, "").unwrap();
        let feature = env.feature("search", "standard");
        let c = Costed { env, home, transcript, feature };
        c.hook("session-start", json!({"hook_event_name": "SessionStart", "source": "startup"}));
        c.ws(&["phase", "start", "specify", "--feature", &c.feature]).ok();
        c
    }

    pub fn ws(&self, args: &[&str]) -> Run {
        self.env.ws(args).env("CLAUDE_CODE_SESSION_ID", S).env("HOME", self.home.to_str().unwrap())
    }

    pub fn hook(&self, event: &str, input: Value) -> crate::util::Done {
        let mut input = input;
        input["session_id"] = json!(S);
        input["cwd"] = json!(self.env.root());
        input["transcript_path"] = json!(self.transcript);
        Run::new(HOOK, &[event], self.env.root()).stdin(input.to_string()).env("HOME", self.home.to_str().unwrap()).ok()
    }

    pub fn append(&self, text: &str) {
        use std::io::Write;
        std::fs::OpenOptions::new().append(true).open(&self.transcript).unwrap().write_all(text.as_bytes()).unwrap();
    }

    /// A sub-agent's transcript beside the session's: `agent-<id>.jsonl`
    /// of type `agent_type`, holding `text`.
    pub fn subagent(&self, id: &str, agent_type: &str, text: &str) {
        let dir = self.transcript.with_extension("").join("subagents");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("agent-{id}.jsonl")), text).unwrap();
        std::fs::write(dir.join(format!("agent-{id}.meta.json")), json!({"agentType": agent_type}).to_string())
            .unwrap();
    }

    fn cost(&self) -> Value {
        self.ws(&["cost", "--json"]).ok().json()
    }
}

fn feature_cost<'a>(all: &'a Value, name: &str) -> &'a Value {
    all["features"].as_array().unwrap().iter().find(|f| f["feature"] == name).unwrap()
}

#[test]
fn bad_transcripts_are_named_and_skipped_never_fatal() {
    let c = Costed::new();
    // Unknown fields, a line that is not JSON, a line still being written.
    c.append(&line("m1", "claude-sonnet-4-5", 1000, 100));
    c.append("{\"type\":\"assistant\",\"usage\": this is not json\n");
    c.append(&line("m2", "claude-next-9", 500, 50));
    c.append(&line("m3", "claude-sonnet-4-5", 7, 7)[..40]);
    let all = c.cost();
    let f = feature_cost(&all, &c.feature);
    assert_eq!(f["phases"]["specify"]["input"], 1500, "{all:#}");
    assert_eq!(f["unpriced"], json!(["claude-next-9"]), "named, not priced at zero silently: {all:#}");
    let problems = all["problems"].to_string();
    assert!(problems.contains("1 line(s) that are not JSON were skipped"), "{all:#}");
    // A huge line (a tool result) is skipped without being held.
    c.append("\n"); // ends the torn line
    let huge = format!("{{\"type\":\"user\",\"message\":\"{}\"}}\n", "x".repeat(20 * 1024 * 1024));
    c.append(&huge);
    c.append(&line("m4", "claude-sonnet-4-5", 5, 5));
    let all = c.cost();
    assert_eq!(feature_cost(&all, &c.feature)["phases"]["specify"]["input"], 1505, "{all:#}");
    // A transcript that is a link out of Claude Code's folder is not read.
    let outside = c.env.outer().join("elsewhere.jsonl");
    std::fs::write(&outside, line("x1", "claude-sonnet-4-5", 99999, 1)).unwrap();
    std::fs::remove_file(&c.transcript).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&outside, &c.transcript).unwrap();
    let all = c.cost();
    assert!(all["problems"].to_string().contains("a link out of Claude Code's folder"), "{all:#}");
    assert_eq!(feature_cost(&all, &c.feature)["total"]["input"], 0, "{all:#}");
    // Removed (Claude Code removes transcripts after its cleanup period):
    // what was read of it still counts, and nothing is said.
    std::fs::remove_file(&c.transcript).unwrap();
    let all = c.cost();
    assert_eq!(feature_cost(&all, &c.feature)["phases"]["specify"]["input"], 1505, "{all:#}");
    assert!(!all["problems"].to_string().contains("missing"), "{all:#}");
    // Missing and never read, of a session that worked on the feature: named.
    let other = c.transcript.with_file_name("cost-session-2.jsonl");
    let start = json!({"hook_event_name": "SessionStart", "source": "startup", "session_id": "cost-session-2",
                       "cwd": c.env.root(), "transcript_path": other});
    Run::new(HOOK, &["session-start"], c.env.root())
        .stdin(start.to_string())
        .env("HOME", c.home.to_str().unwrap())
        .ok();
    c.ws(&["feature", "show", "--feature", &c.feature]).env("CLAUDE_CODE_SESSION_ID", "cost-session-2").ok();
    let all = c.cost();
    assert!(
        all["problems"].to_string().contains("cost-ses") && all["problems"].to_string().contains("it is missing"),
        "{all:#}"
    );
    // An unreadable cost configuration is an error naming it (exit 2).
    c.env.write(".phasegate/cost.config.json", "{\"prices\": 1}");
    c.ws(&["cost"]).code(2).stderr_has("cost.config.json");
}

#[test]
fn a_budget_is_said_at_80_percent_and_pauses_the_feature_at_100() {
    let c = Costed::new();
    let f = c.feature.clone();
    // $3 per million input tokens: 1,000,000 is $3.00 (under 200K per request
    // keeps Sonnet 4.5's first tier).
    for i in 0..10 {
        c.append(&line(&format!("m{i}"), "claude-sonnet-4-5", 100_000, 0));
    }
    c.env.write(".phasegate/cost.config.json", &format!(r#"{{"budgets": {{"features": {{"{f}": 3.5}}}}}}"#));
    let all = c.cost();
    assert!((feature_cost(&all, &f)["total"]["usd"].as_f64().unwrap() - 3.0).abs() < 1e-9, "{all:#}");
    let brief = c.ws(&["phase", "brief", "specify", "--feature", &f]).ok().stdout;
    assert!(brief.contains(&format!("phasegate: {f} has used $3.00 of its $3.50 budget (86%)")), "{brief}");
    let stop = c.hook("stop", json!({"hook_event_name": "Stop", "stop_hook_active": false}));
    assert!(stop.stdout.contains("has used $3.00 of its $3.50 budget"), "{}", stop.report());
    // No budget, nothing said and nothing read.
    c.env.write(".phasegate/cost.config.json", "{}");
    let stop = c.hook("stop", json!({"hook_event_name": "Stop", "stop_hook_active": false}));
    assert!(!stop.stdout.contains("budget"), "{}", stop.report());
    // Over: the backlog runner pauses it on a question only a person answers.
    c.env.write(".phasegate/cost.config.json", &format!(r#"{{"budgets": {{"features": {{"{f}": 2}}}}}}"#));
    let b = c.ws(&["backlog", "--json"]).ok().json();
    assert!(b["next"].is_null(), "{b:#}");
    let waiting = &b["suspended"][0];
    assert_eq!(waiting["state"], "over-budget", "{b:#}");
    let q = waiting["questionId"].as_str().unwrap().to_owned();
    c.ws(&["question", "answer", &q, "Raise to 10"])
        .env("CLAUDECODE", "1")
        .code(1)
        .stderr_has("goes on past its budget");
    // A person, at a terminal outside Claude Code.
    Run::in_terminal(crate::util::WORKFLOW_STATE, &["question", "answer", &q, "Raise to 10"], c.env.root())
        .env("HOME", c.home.to_str().unwrap())
        .ok();
    let b = c.ws(&["backlog", "--json"]).ok().json();
    assert_eq!(b["next"]["feature"], f.as_str(), "raised to $10, it goes on: {b:#}");
}

#[test]
fn the_retrospective_keeps_the_cost_and_its_trend() {
    let c = Costed::new();
    let f = c.feature.clone();
    c.append(&line("m1", "claude-sonnet-4-5", 100_000, 10_000));
    let facts = c.ws(&["retro", "--json", "--feature", &f]).ok().json();
    assert!(facts["cost"]["phases"]["specify"]["usd"].as_f64().unwrap() > 0.4, "{facts:#}");
    assert!(facts["prompt"].as_str().unwrap().contains("COST $0.45 in all"), "{facts:#}");
    let reply = c.env.outer().join("reply.json");
    std::fs::write(&reply, r#"{"summary": "fine"}"#).unwrap();
    c.ws(&["retro", "record", "--feature", &f, "--reply-file", reply.to_str().unwrap()]).ok();
    let record: Value = serde_json::from_str(&c.env.read(&format!("docs/features/{f}/retro.json"))).unwrap();
    assert_eq!(record["cost"]["usd"], 0.45, "{record:#}");
    assert_eq!(record["cost"]["phases"]["specify"], 0.45, "{record:#}");
    assert_eq!(record["metrics"]["cost_usd"], 0.45, "{record:#}");
    let trend = c.ws(&["retro", "trend"]).ok().stdout;
    assert!(trend.contains(&format!("{f}: ")) && trend.contains("cost_usd 0.45"), "{trend}");
    let status = c.ws(&["status", "--json"]).ok().json();
    assert_eq!(status[0]["costUsd"], 0.45, "{status:#}");
}

// Issue 31: what the walk and the attack found in the cost.

/// An assistant line with a request id, `at` its time.
fn request_line(id: &str, request: &str, input: u64, output: u64) -> String {
    let mut v: Value = serde_json::from_str(&line(id, "claude-sonnet-4-5", input, output)).unwrap();
    v["requestId"] = json!(request);
    v.to_string() + "\n"
}

impl Costed {
    /// Another session of this repository: its transcript (made empty, in
    /// Claude Code's folder) noted by SessionStart.
    fn session(&self, id: &str) -> PathBuf {
        let transcript = self.transcript.with_file_name(format!("{id}.jsonl"));
        std::fs::write(&transcript, "").unwrap();
        self.start(id, &transcript);
        transcript
    }

    /// SessionStart of `id` with `transcript`.
    fn start(&self, id: &str, transcript: &std::path::Path) {
        let start = json!({"hook_event_name": "SessionStart", "source": "startup", "session_id": id,
                           "cwd": self.env.root(), "transcript_path": transcript});
        Run::new(HOOK, &["session-start"], self.env.root())
            .stdin(start.to_string())
            .env("HOME", self.home.to_str().unwrap())
            .ok();
    }

    /// `workflow-state` as session `id`.
    fn ws_as(&self, id: &str, args: &[&str]) -> Run {
        self.ws(args).env("CLAUDE_CODE_SESSION_ID", id)
    }

    /// The user typed `prompt` in session `id`.
    fn prompt(&self, id: &str, prompt: &str) {
        let input = json!({"hook_event_name": "UserPromptSubmit", "session_id": id, "cwd": self.env.root(),
                           "prompt": prompt});
        Run::new(HOOK, &["user-prompt-submit"], self.env.root())
            .stdin(input.to_string())
            .env("HOME", self.home.to_str().unwrap())
            .ok();
    }
}

fn append_to(path: &std::path::Path, text: &str) {
    use std::io::Write;
    std::fs::OpenOptions::new().append(true).open(path).unwrap().write_all(text.as_bytes()).unwrap();
}

/// The feature of `all` other than those of `known`.
fn new_feature(all: &Value, known: &[&str]) -> String {
    let names: Vec<&str> = all["features"].as_array().unwrap().iter().map(|f| f["feature"].as_str().unwrap()).collect();
    let new: Vec<&str> = names.into_iter().filter(|n| !known.contains(n)).collect();
    assert_eq!(new.len(), 1, "{all:#}");
    new[0].to_owned()
}

/// Walk bug 2: a feature made by `phase start --new` or `pipeline start`
/// is the session's from then on; its first requests were "unattributed".
#[test]
fn phase_start_new_and_pipeline_start_turn_the_session_to_the_feature_they_make() {
    let c = Costed::new();
    let brainstorm = c.session("cost-session-new");
    c.ws_as("cost-session-new", &["phase", "start", "brainstorm", "--new", "a login page"]).ok();
    append_to(&brainstorm, &line("b1", "claude-sonnet-4-5", 300, 3));
    let all = c.cost();
    let made = new_feature(&all, &[&c.feature]);
    let f = feature_cost(&all, &made);
    assert_eq!(
        (f["phases"]["brainstorm"]["input"].as_u64(), all["unattributed"]["input"].as_u64()),
        (Some(300), Some(0)),
        "{all:#}"
    );

    let pipeline = c.session("cost-session-pipe");
    c.ws_as("cost-session-pipe", &["pipeline", "start", "export", "--request", "export the report as CSV"]).ok();
    append_to(&pipeline, &line("p1", "claude-sonnet-4-5", 40, 4));
    let all = c.cost();
    let run = new_feature(&all, &[&c.feature, &made]);
    let f = feature_cost(&all, &run);
    assert_eq!(f["total"]["input"], 40, "{all:#}");
    assert_eq!(f["phases"]["requirements_gathering"]["input"], 40, "{all:#}");
    assert_eq!(all["unattributed"]["input"], 0, "{all:#}");
}

/// Walk friction: a phase command's first requests (the model reads the
/// brief, then runs `phase start`) fell "outside the phases".
#[test]
fn a_phase_commands_first_requests_are_the_phase_it_starts() {
    let c = Costed::new();
    let t = c.session("cost-session-cmd");
    let made = c.ws_as("cost-session-cmd", &["feature", "new", "billing"]).ok().stdout;
    let billing = std::path::Path::new(made.trim()).file_name().unwrap().to_string_lossy().into_owned();
    // Before the command: outside the phases (no phase was started).
    append_to(&t, &line("c0", "claude-sonnet-4-5", 1, 0));
    std::thread::sleep(std::time::Duration::from_millis(5));
    c.prompt("cost-session-cmd", "/phasegate:brainstorm billing by the hour");
    std::thread::sleep(std::time::Duration::from_millis(5));
    append_to(&t, &line("c1", "claude-sonnet-4-5", 20, 0));
    std::thread::sleep(std::time::Duration::from_millis(5));
    c.ws_as("cost-session-cmd", &["phase", "start", "brainstorm", "--feature", &billing]).ok();
    append_to(&t, &line("c2", "claude-sonnet-4-5", 300, 0));
    let all = c.cost();
    let f = feature_cost(&all, &billing);
    assert_eq!(f["phases"]["brainstorm"]["input"], 320, "the command's first request is brainstorm's: {all:#}");
    assert_eq!(f["outside"]["input"], 1, "{all:#}");
}

/// Walk friction: a transcript in another HOME was called "a link out of
/// Claude Code's folder (to <the same path>)".
#[test]
fn a_transcript_in_another_home_is_not_called_a_link_out() {
    let c = Costed::new();
    let other = c.env.outer().join("other-home/.claude/projects/p/cost-session-away.jsonl");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    std::fs::write(&other, line("a1", "claude-sonnet-4-5", 5, 5)).unwrap();
    c.start("cost-session-away", &other);
    c.ws_as("cost-session-away", &["feature", "show", "--feature", &c.feature]).ok();
    let all = c.cost();
    let problems = all["problems"].to_string();
    assert!(!problems.contains("link"), "{all:#}");
    assert!(problems.contains("another HOME or CLAUDE_CONFIG_DIR"), "{all:#}");
}

/// Attack: SessionStart in a folder outside git wrote
/// `.phasegate/{locks,cost}` into it (and so may no ordinary prompt).
#[test]
fn session_start_outside_git_writes_nothing() {
    let c = Costed::new();
    let plain = c.env.outer().join("plain-folder");
    std::fs::create_dir_all(&plain).unwrap();
    let t = c.transcript.with_file_name("cost-session-plain.jsonl");
    std::fs::write(&t, "").unwrap();
    let start = json!({"hook_event_name": "SessionStart", "source": "startup", "session_id": "cost-session-plain",
                       "cwd": plain, "transcript_path": t});
    Run::new(HOOK, &["session-start"], &plain).stdin(start.to_string()).env("HOME", c.home.to_str().unwrap()).ok();
    let prompt = json!({"hook_event_name": "UserPromptSubmit", "session_id": "cost-session-plain", "cwd": plain,
                        "prompt": "what does this folder hold?"});
    Run::new(HOOK, &["user-prompt-submit"], &plain)
        .stdin(prompt.to_string())
        .env("HOME", c.home.to_str().unwrap())
        .ok();
    let left: Vec<_> = std::fs::read_dir(&plain).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Attack: a session id used again after its session ended, with a new
/// transcript, dropped the first transcript's usage.
#[test]
fn a_session_id_used_again_keeps_the_first_transcripts_usage() {
    let c = Costed::new();
    c.append(&line("first", "claude-sonnet-4-5", 1000, 0));
    assert_eq!(feature_cost(&c.cost(), &c.feature)["total"]["input"], 1000);
    let second = c.transcript.with_file_name("cost-session-1-again.jsonl");
    std::fs::write(&second, line("second", "claude-sonnet-4-5", 7, 0)).unwrap();
    c.start(S, &second);
    let all = c.cost();
    assert_eq!(feature_cost(&all, &c.feature)["total"]["input"], 1007, "{all:#}");
}

/// Attack: the same message (message and request id) in two sessions'
/// transcripts, as a resumed or forked session copies it, was counted
/// twice; ccusage counts it once.
#[test]
fn a_message_copied_into_another_sessions_transcript_is_counted_once() {
    let c = Costed::new();
    c.append(&request_line("msg_1", "req_1", 1000, 10));
    let fork = c.session("cost-session-fork");
    c.ws_as("cost-session-fork", &["feature", "show", "--feature", &c.feature]).ok();
    append_to(&fork, &request_line("msg_1", "req_1", 1000, 10));
    append_to(&fork, &request_line("msg_1", "req_2", 3, 0));
    append_to(&fork, &request_line("msg_2", "req_3", 20, 2));
    let all = c.cost();
    assert_eq!(all["total"]["input"], 1023, "{all:#}");
    assert_eq!(feature_cost(&all, &c.feature)["total"]["input"], 1023, "{all:#}");
}

/// Attack (low): token totals wrapped at 2^64; a price of 1e308 passed the
/// schema and gave `$NaN`, under every budget.
#[test]
fn token_totals_saturate_and_prices_past_the_bound_are_refused() {
    let c = Costed::new();
    c.append(&line("huge1", "claude-sonnet-4-5", 0, u64::MAX - 1));
    c.append(&line("huge2", "claude-sonnet-4-5", 0, 5));
    let all = c.cost();
    let f = feature_cost(&all, &c.feature);
    assert_eq!(f["total"]["output"].as_u64(), Some(u64::MAX), "saturated, not wrapped to 3: {all:#}");
    assert!(f["total"]["usd"].as_f64().is_some_and(f64::is_finite), "{all:#}");
    c.env.write(
        ".phasegate/cost.config.json",
        r#"{"prices": {"claude-sonnet-4-5": {"input": 1e308, "output": 1e308, "cacheRead": 0, "cacheWrite": 0}}}"#,
    );
    c.ws(&["cost"]).code(2).stderr_has("cost.config.json").stderr_has("input");
    c.env.write(".phasegate/cost.config.json", &format!(r#"{{"budgets": {{"features": {{"{}": 1}}}}}}"#, c.feature));
    let brief = c.ws(&["phase", "brief", "specify", "--feature", &c.feature]).ok().stdout;
    assert!(brief.contains("is over its $1.00 budget"), "{brief}");
}
