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
    assert!(all["problems"].to_string().contains("leads out of Claude Code's folder"), "{all:#}");
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
