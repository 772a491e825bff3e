//! Questions in Slack through the real `workflow-state` against the test
//! kit's fake Slack (the Web API's wire format on 127.0.0.1): posting,
//! reading a thread, taking a person's reply once, acknowledging, hints,
//! reminders, defaults, outages, rate limits, and tokens that never leak.

use std::time::{Duration, Instant};

use phasegate_testkit::{FakeSlack, SlackTokenKind};
use serde_json::Value;

use crate::util::{HOOK, Run, TestEnv, WORKFLOW_STATE};

const BOT: &str = "xoxb-bot-secret-0001";
const READER: &str = "xoxp-reader-secret-0002";
const CHANNEL: &str = "C0FEATURES";

const BLOCKING: &str = r#"{"question": {"type": "blocking", "text": "Grid or list layout?", "context": "The spec names both.",
    "options": [{"label": "Grid", "recommended": true}, {"label": "List"}], "allowFreeText": false}}"#;

/// A project whose questions go to a fake Slack: a bot token posts, a user
/// token reads threads (as a bot token may not in channels). No background
/// poller (the tests poll), except where a test turns it on.
struct Slacked {
    env: TestEnv,
    slack: FakeSlack,
    feature: String,
    tokens: Vec<(&'static str, String)>,
}

impl Slacked {
    fn new() -> Slacked {
        let slack = FakeSlack::start();
        slack.add_token(BOT, SlackTokenKind::Bot, "U0BOT");
        slack.add_token(READER, SlackTokenKind::User, "U0READER");
        slack.add_channel(CHANNEL, true);
        let env = TestEnv::new();
        env.write(
            ".phasegate/questions.config.json",
            &format!(r#"{{"slack": {{"channels": {{"feature": "{CHANNEL}"}}, "background": false}}}}"#),
        );
        let feature = env.feature("a", "standard");
        let tokens = vec![("PHASEGATE_SLACK_TOKEN", BOT.to_owned()), ("PHASEGATE_SLACK_READ_TOKEN", READER.to_owned())];
        Slacked { env, slack, feature, tokens }
    }

    fn with_tokens(mut self, tokens: &[(&'static str, &str)]) -> Slacked {
        self.tokens = tokens.iter().map(|(k, v)| (*k, (*v).to_owned())).collect();
        self
    }

    fn ws(&self, args: &[&str]) -> Run {
        let mut run = self.env.ws(args).env("PHASEGATE_SLACK_API_URL", &self.slack.base_url());
        for (k, v) in &self.tokens {
            run = run.env(k, v);
        }
        run
    }

    fn ask(&self, question: &str) -> Value {
        let file = self.env.write("q.json", question);
        self.ws(&["question", "ask", "--file", file.to_str().unwrap(), "--headless", "--feature", &self.feature])
            .ok()
            .json()
    }

    fn poll(&self) -> Value {
        self.ws(&["slack", "poll", "--json"]).ok().json()
    }

    fn marker(&self) -> Value {
        serde_json::from_str(&self.env.read(&format!(".claude/suspended/{}.json", self.feature))).unwrap()
    }

    /// Turns the background poller on, polling every 5 s (the least allowed).
    fn background(&self) {
        self.env.write(
            ".phasegate/questions.config.json",
            &format!(
                r#"{{"slack": {{"channels": {{"feature": "{CHANNEL}"}}, "background": true, "pollIntervalSeconds": 5}}}}"#
            ),
        );
    }

    /// Waits (at most 30 s) for the marker's answer, which only a poller records.
    fn wait_for_answer(&self) -> Value {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let answer = self.marker()["answer"].clone();
            if !answer.is_null() && answer["acknowledged"] == true {
                return answer;
            }
            assert!(Instant::now() < deadline, "no poller recorded the answer: {}", self.marker());
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// The thread of the question the marker names.
    fn thread(&self) -> Vec<Value> {
        let m = self.marker();
        self.slack.thread(m["slack_channel_id"].as_str().unwrap(), m["slack_thread_ts"].as_str().unwrap())
    }

    /// Replies in the question's thread, once the poller that posted it has
    /// recorded the thread in the marker (a background poller may still be
    /// between the post and that write).
    fn reply(&self, user: &str, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        let ts = loop {
            if let Some(ts) = self.marker()["slack_thread_ts"].as_str() {
                break ts.to_owned();
            }
            assert!(Instant::now() < deadline, "the question's thread was never recorded: {}", self.marker());
            std::thread::sleep(Duration::from_millis(100));
        };
        self.slack.add_human_reply(CHANNEL, &ts, user, text)
    }

    /// Moves a stored question's `suspended_at` back, as if time had passed.
    fn age(&self, rel: &str, minutes: i64) {
        let mut q: Value = serde_json::from_str(&self.env.read(rel)).unwrap();
        let at = chrono::Utc::now() - chrono::Duration::minutes(minutes);
        q["suspended_at"] = Value::from(at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
        self.env.write(rel, &serde_json::to_string_pretty(&q).unwrap());
    }
}

fn texts(messages: &[Value]) -> Vec<String> {
    messages.iter().map(|m| m["text"].as_str().unwrap_or_default().to_owned()).collect()
}

#[test]
fn a_headless_question_is_posted_to_its_channel_and_the_first_persons_reply_answers_it_once() {
    let s = Slacked::new();
    let asked = s.ask(BLOCKING);
    assert_eq!(asked["route"], "suspend");
    assert_eq!(asked["slack"]["posted"], true, "{asked}");
    let posted = s.slack.messages(CHANNEL);
    assert_eq!(posted.len(), 1);
    let text = posted[0]["text"].as_str().unwrap();
    for needle in ["001-a", "001-a.1", "Grid or list layout?", "1. *Grid* (recommended)", "2. *List*"] {
        assert!(text.contains(needle), "the post lacks {needle:?}: {text}");
    }
    // The seed's marker holds where the question is.
    let m = s.marker();
    assert_eq!(m["slack_channel_id"], CHANNEL);
    assert_eq!(m["slack_thread_ts"], posted[0]["ts"]);

    // Nobody answered yet: the poll waits.
    let report = s.poll();
    assert_eq!((report["answered"].as_array().unwrap().len(), report["waiting"].as_u64()), (0, Some(1)));

    s.reply("U0ALICE", "2");
    s.reply("U0BOB", "1");
    let report = s.poll();
    assert_eq!(report["answered"][0]["id"], "001-a.1");
    assert_eq!(report["answered"][0]["answer"], "List", "option 2 by number, the first reply wins");
    let answer = &s.marker()["answer"];
    assert_eq!((answer["text"].as_str(), answer["by"].as_str()), (Some("List"), Some("human")));
    assert_eq!((answer["source"].as_str(), answer["user"].as_str()), (Some("slack"), Some("U0ALICE")));
    assert_eq!(answer["acknowledged"], true);
    let thread = texts(&s.thread());
    assert!(thread.last().unwrap().contains("Thanks, taken (slack): List"), "{thread:?}");

    // Polling again changes nothing and posts nothing more.
    let before = s.thread().len();
    let report = s.poll();
    assert!(report["answered"].as_array().unwrap().is_empty() && report["posted"].as_array().unwrap().is_empty());
    assert_eq!(s.thread().len(), before);
    assert_eq!(s.marker()["answer"]["text"], "List");

    // The answer is there for the next session and the next run of the feature.
    crate::util::Run::new(HOOK, &["session-start"], s.env.root())
        .stdin(r#"{"hook_event_name":"SessionStart","source":"startup","session_id":"s1"}"#)
        .ok()
        .stdout_has("answer");
    let started = s.ws(&["phase", "start", "brainstorm", "--feature", &s.feature]).ok();
    started.stdout_has("List");
}

#[test]
fn two_pollers_at_once_take_a_reply_once() {
    let s = Slacked::new();
    s.ask(BLOCKING);
    s.reply("U0ALICE", "Grid");
    let spawn = || {
        let mut c = std::process::Command::new(WORKFLOW_STATE);
        c.args(["slack", "poll", "--json"])
            .current_dir(s.env.root())
            .env("PHASEGATE_SLACK_API_URL", s.slack.base_url())
            .env("PHASEGATE_SLACK_TOKEN", BOT)
            .env("PHASEGATE_SLACK_READ_TOKEN", READER)
            .stdout(std::process::Stdio::piped());
        c.spawn().unwrap()
    };
    let (a, b) = (spawn(), spawn());
    let outs = [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()];
    let answered: usize = outs
        .iter()
        .map(|o| {
            assert!(o.status.success());
            let v: Value = serde_json::from_slice(&o.stdout).unwrap();
            v["answered"].as_array().unwrap().len()
        })
        .sum();
    assert_eq!(answered, 1, "exactly one poller took the answer");
    let acks = texts(&s.thread()).iter().filter(|t| t.contains("Thanks, taken")).count();
    assert_eq!(acks, 1, "acknowledged once");
}

#[test]
fn a_slack_outage_keeps_the_question_and_the_next_poll_posts_it() {
    let s = Slacked::new();
    s.slack.fail_next(1, 503);
    let asked = s.ask(BLOCKING);
    // The question is on record even though Slack was down.
    assert_eq!(asked["route"], "suspend");
    assert_eq!(asked["slack"]["posted"], false);
    assert!(asked["slack"]["error"].as_str().unwrap().contains("HTTP 503"), "{asked}");
    assert!(s.slack.messages(CHANNEL).is_empty());
    let m = s.marker();
    assert_eq!((m["delivery"]["failedAttempts"].as_u64(), m["slack_thread_ts"].is_null()), (Some(1), true));

    // Down again during a poll: exit 3, the question unchanged, the failure counted.
    s.slack.fail_next(1, 500);
    let out = s.ws(&["slack", "poll"]).code(3);
    out.stdout_has("failed: 001-a.1").stdout_has("HTTP 500");
    assert_eq!(s.marker()["delivery"]["failedAttempts"], 2);

    // Back up: posted, and the error cleared.
    let report = s.poll();
    assert_eq!(report["posted"][0], "001-a.1");
    assert_eq!(s.slack.messages(CHANNEL).len(), 1);
    assert!(s.marker()["delivery"]["lastError"].is_null());
}

#[test]
fn a_rate_limited_post_waits_for_retry_after_and_goes_on() {
    let s = Slacked::new();
    s.slack.rate_limit_next(1, 1);
    let started = Instant::now();
    let asked = s.ask(BLOCKING);
    assert_eq!(asked["slack"]["posted"], true, "{asked}");
    assert!(started.elapsed() >= Duration::from_secs(1), "Retry-After was honoured");
    let posts = s.slack.requests().iter().filter(|r| r.method() == Some("chat.postMessage")).count();
    assert_eq!(posts, 2, "one 429, then the post");
    assert_eq!(s.slack.messages(CHANNEL).len(), 1);
}

#[test]
fn a_reply_that_picks_no_option_gets_one_hint_and_the_question_waits() {
    let s = Slacked::new();
    s.ask(BLOCKING);
    s.reply("U0ALICE", "maybe later");
    let report = s.poll();
    assert!(report["answered"].as_array().unwrap().is_empty());
    assert!(s.marker()["answer"].is_null());
    let hints = |s: &Slacked| texts(&s.thread()).iter().filter(|t| t.contains("does not pick an option")).count();
    assert_eq!(hints(&s), 1);
    assert!(texts(&s.thread()).iter().any(|t| t.contains("1 Grid, 2 List")));
    s.poll();
    assert_eq!(hints(&s), 1, "the same reply is not hinted twice");
    s.reply("U0ALICE", "grid");
    assert_eq!(s.poll()["answered"][0]["answer"], "Grid");
}

#[test]
fn a_user_token_that_posts_does_not_take_its_own_messages_for_an_answer() {
    let s = Slacked::new().with_tokens(&[("PHASEGATE_SLACK_TOKEN", READER)]);
    s.ask(BLOCKING);
    s.reply("U0ALICE", "perhaps");
    s.poll();
    // The hint is the reader's own post, which looks like a person's.
    s.poll();
    s.poll();
    let hints = texts(&s.thread()).iter().filter(|t| t.contains("does not pick an option")).count();
    assert_eq!(hints, 1);
    assert!(s.marker()["answer"].is_null());
}

#[test]
fn an_overdue_blocking_question_is_reminded_once_and_never_answers_itself() {
    let s = Slacked::new();
    s.ask(BLOCKING);
    s.age(&format!(".claude/suspended/{}.json", s.feature), 2 * 1440);
    let report = s.poll();
    assert_eq!(report["reminded"][0], "001-a.1");
    assert!(report["defaulted"].as_array().unwrap().is_empty());
    assert!(texts(&s.thread()).iter().any(|t| t.contains("Still waiting: 001-a is suspended")));
    assert!(s.marker()["answer"].is_null());
    s.poll();
    let reminders = texts(&s.thread()).iter().filter(|t| t.contains("Still waiting")).count();
    assert_eq!(reminders, 1);
    s.ws(&["question", "list"]).ok().stdout_has("overdue");
}

#[test]
fn an_expired_non_blocking_question_takes_its_default_and_says_so_in_its_thread() {
    let s = Slacked::new();
    let asked = s.ask(
        r#"{"type": "preference", "text": "Tabs or spaces?", "options": [{"label": "Tabs"}, {"label": "Spaces"}],
            "defaultOption": "Spaces", "expiresAfterMinutes": 30}"#,
    );
    assert_eq!((asked["route"].as_str(), asked["slack"]["posted"].as_bool()), (Some("queue"), Some(true)));
    let rel = ".claude/questions/001-a.1.json";
    s.age(rel, 31);
    let report = s.poll();
    assert_eq!(report["defaulted"][0], "001-a.1");
    let q: Value = serde_json::from_str(&s.env.read(rel)).unwrap();
    assert_eq!((q["answer"]["text"].as_str(), q["answer"]["by"].as_str()), (Some("Spaces"), Some("default")));
    // The next poll tells the thread.
    s.poll();
    let thread = s.slack.thread(CHANNEL, q["slack_thread_ts"].as_str().unwrap());
    assert!(texts(&thread).iter().any(|t| t.contains("Nobody answered in time, so the default applies: Spaces")));
}

#[test]
fn doctor_names_which_token_reads_threads() {
    let s = Slacked::new();
    let out = s.ws(&["slack", "doctor"]).ok();
    out.stdout_has("PHASEGATE_SLACK_TOKEN is a bot token").stdout_has("PHASEGATE_SLACK_READ_TOKEN can read threads");
    assert!(s.slack.messages(CHANNEL).is_empty(), "doctor posts nothing unless asked");
    s.ws(&["slack", "doctor", "--post"]).ok();
    assert_eq!(s.slack.messages(CHANNEL).len(), 1);

    // A bot token alone cannot read channel threads: doctor says what to set.
    let bot_only = Slacked::new().with_tokens(&[("PHASEGATE_SLACK_TOKEN", BOT)]);
    bot_only.ws(&["slack", "doctor"]).code(3).stdout_has("missing_scope").stdout_has("set PHASEGATE_SLACK_READ_TOKEN");
    // A user token alone does both.
    Slacked::new().with_tokens(&[("PHASEGATE_SLACK_TOKEN", READER)]).ws(&["slack", "doctor"]).ok();
    // The app is not in the channel.
    let outside = Slacked::new();
    outside.slack.add_channel("C0ELSEWHERE", false);
    outside.env.write(".phasegate/questions.config.json", r#"{"slack": {"channels": {"feature": "C0ELSEWHERE"}}}"#);
    outside.ws(&["slack", "doctor"]).code(3).stdout_has("invite the app to the channel");
    // No token, no channel: exit 2 with what to set.
    Slacked::new().with_tokens(&[]).ws(&["slack", "doctor"]).code(2).stdout_has("PHASEGATE_SLACK_TOKEN is not set");
    let unconfigured = Slacked::new();
    unconfigured.env.write(".phasegate/questions.config.json", "{}");
    unconfigured.ws(&["slack", "doctor"]).code(2).stdout_has("no Slack channel configured");
}

#[test]
fn a_refused_token_is_named_but_its_value_is_never_printed_or_stored() {
    const WRONG: &str = "xoxb-wrong-secret-9999";
    let s = Slacked::new().with_tokens(&[("PHASEGATE_SLACK_TOKEN", WRONG)]);
    let doctor = s.ws(&["slack", "doctor"]).code(3);
    doctor.stdout_has("invalid_auth").stdout_has("check PHASEGATE_SLACK_TOKEN");
    let asked = s.ask(BLOCKING);
    assert_eq!(asked["slack"]["posted"], false);
    let poll = s.ws(&["slack", "poll"]).code(3);
    poll.stdout_has("invalid_auth");
    for out in [&doctor, &poll] {
        assert!(!out.stdout.contains("wrong-secret") && !out.stderr.contains("wrong-secret"), "{}", out.report());
    }
    assert!(!asked.to_string().contains("wrong-secret"));
    for entry in walkdir::WalkDir::new(s.env.root()).into_iter().filter_map(Result::ok) {
        if entry.file_type().is_file() && !entry.path().components().any(|c| c.as_os_str() == ".git") {
            let bytes = std::fs::read(entry.path()).unwrap();
            assert!(
                !String::from_utf8_lossy(&bytes).contains("wrong-secret"),
                "{} holds the token",
                entry.path().display()
            );
        }
    }
}

#[test]
fn channels_without_a_token_are_a_configuration_error_and_no_slack_is_a_local_poll() {
    let s = Slacked::new().with_tokens(&[]);
    let asked = s.ask(BLOCKING);
    assert!(asked["slack"]["error"].as_str().unwrap().contains("PHASEGATE_SLACK_TOKEN is not set"));
    s.ws(&["slack", "poll"]).code(2).stderr_has("PHASEGATE_SLACK_TOKEN is not set");
    // The monitor's form says nothing and succeeds when Slack is not configured.
    let local = TestEnv::new();
    let out = local.ws(&["slack", "poll", "--watch", "--if-configured"]).ok();
    assert!(out.stdout.is_empty());
    local.ws(&["slack", "poll"]).ok().stdout_has("0 waiting for an answer in Slack, 0 elsewhere.");
    let f = local.feature("b", "standard");
    let q = local.write("q.json", BLOCKING);
    local.ws(&["question", "ask", "--file", q.to_str().unwrap(), "--headless", "--feature", &f]).ok();
    local.ws(&["slack", "poll"]).ok().stdout_has("0 waiting for an answer in Slack, 1 elsewhere.");
}

#[test]
fn the_watcher_prints_a_line_per_answer_and_a_second_watcher_steps_aside() {
    use std::io::BufRead;
    let s = Slacked::new();
    s.ask(BLOCKING);
    let mut watcher = std::process::Command::new(WORKFLOW_STATE)
        .args(["slack", "poll", "--watch", "--interval", "1", "--if-configured"])
        .current_dir(s.env.root())
        .env("PHASEGATE_SLACK_API_URL", s.slack.base_url())
        .env("PHASEGATE_SLACK_TOKEN", BOT)
        .env("PHASEGATE_SLACK_READ_TOKEN", READER)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = watcher.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    // Give it a pass to take the watcher lock, then a second one steps aside at once.
    std::thread::sleep(Duration::from_millis(500));
    let second = s.ws(&["slack", "poll", "--watch", "--interval", "1"]).ok();
    assert!(second.stdout.is_empty());
    s.reply("U0ALICE", "Grid");
    let line = rx.recv_timeout(Duration::from_secs(20)).expect("the watcher reports the answer");
    watcher.kill().unwrap();
    let _ = watcher.wait();
    assert!(line.starts_with("phasegate: the answer to 001-a.1 arrived: \"Grid\""), "{line}");
}

#[test]
fn the_hook_binary_links_no_http_or_tls_client() {
    let has = |exe: &str, needle: &[u8]| std::fs::read(exe).unwrap().windows(needle.len()).any(|w| w == needle);
    // The CLI links the Slack client, so the search finds what it looks for.
    assert!(has(WORKFLOW_STATE, b"rustls"));
    assert!(!has(HOOK, b"rustls") && !has(HOOK, b"ureq"), "the hook binary links rustls or ureq");
}

#[test]
fn a_question_sent_to_slack_starts_a_background_poller_that_records_the_answer() {
    let s = Slacked::new();
    s.background();
    let asked = s.ask(BLOCKING);
    assert_eq!(asked["slack"]["background"], "a background poller reads the thread", "{asked}");
    s.reply("U0ALICE", "List");
    let answer = s.wait_for_answer();
    assert_eq!((answer["text"].as_str(), answer["source"].as_str()), (Some("List"), Some("slack")));
}

#[test]
fn the_session_start_hook_starts_the_background_poller_while_an_item_waits_on_slack() {
    let s = Slacked::new();
    let asked = s.ask(BLOCKING);
    assert!(asked["slack"]["background"].as_str().unwrap().starts_with("off"));
    s.reply("U0ALICE", "Grid");
    std::thread::sleep(Duration::from_secs(1));
    assert!(s.marker()["answer"].is_null(), "nothing polls yet");
    s.background();
    let mut hook = Run::new(HOOK, &["session-start"], s.env.root())
        .env("PHASEGATE_SLACK_API_URL", &s.slack.base_url())
        .stdin(r#"{"hook_event_name":"SessionStart","source":"startup","session_id":"s1"}"#);
    for (k, v) in &s.tokens {
        hook = hook.env(k, v);
    }
    let started = Instant::now();
    hook.ok().stdout_has("suspended, waiting for an answer");
    assert!(started.elapsed() < Duration::from_secs(2), "the hook waited on Slack");
    assert_eq!(s.wait_for_answer()["text"], "Grid");
}

/// Regression: the background poller was started in the session of the
/// command that asked, and Claude Code ends every process of a Bash
/// command's session (by the session id in /proc/<pid>/stat) when the
/// command ends, so no answer was ever read. This runs the ask the same way
/// and kills that session's processes afterwards.
#[test]
#[cfg(target_os = "linux")]
fn the_background_poller_outlives_the_session_of_the_command_that_started_it() {
    let s = Slacked::new();
    s.background();
    let file = s.env.write("q.json", BLOCKING);
    let mut cmd = std::process::Command::new("setsid");
    cmd.args([
        WORKFLOW_STATE,
        "question",
        "ask",
        "--file",
        file.to_str().unwrap(),
        "--headless",
        "--feature",
        &s.feature,
    ])
    .current_dir(s.env.root())
    .env("PHASEGATE_SLACK_API_URL", s.slack.base_url())
    .stdout(std::process::Stdio::null());
    for (k, v) in &s.tokens {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("setsid (util-linux) runs the command in a session of its own");
    let sid = child.id();
    assert!(child.wait().unwrap().success());
    let killed = kill_session(sid);
    assert!(killed.is_empty(), "the poller stayed in the command's session: {killed:?}");
    s.reply("U0ALICE", "List");
    assert_eq!(s.wait_for_answer()["text"], "List");
}

/// SIGKILLs every process of session `sid` (as Claude Code does); their pids.
#[cfg(target_os = "linux")]
fn kill_session(sid: u32) -> Vec<u32> {
    let mut killed = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        if phasegate_testkit::session_of(pid) == Some(sid) {
            let _ = std::process::Command::new("kill").args(["-9", &pid.to_string()]).status();
            killed.push(pid);
        }
    }
    killed
}

#[test]
fn the_plugin_options_tokens_post_and_read_when_the_environment_has_none() {
    let s = Slacked::new()
        .with_tokens(&[("CLAUDE_PLUGIN_OPTION_SLACK_TOKEN", BOT), ("CLAUDE_PLUGIN_OPTION_SLACK_READ_TOKEN", READER)]);
    s.ws(&["slack", "doctor"])
        .ok()
        .stdout_has("CLAUDE_PLUGIN_OPTION_SLACK_TOKEN is a bot token")
        .stdout_has("CLAUDE_PLUGIN_OPTION_SLACK_READ_TOKEN can read threads");
    assert_eq!(s.ask(BLOCKING)["slack"]["posted"], true);
    s.reply("U0ALICE", "List");
    assert_eq!(s.poll()["answered"][0]["answer"], "List");
    // PHASEGATE_SLACK_TOKEN wins over the option.
    let both = Slacked::new()
        .with_tokens(&[("PHASEGATE_SLACK_TOKEN", READER), ("CLAUDE_PLUGIN_OPTION_SLACK_TOKEN", "xoxb-refused-0003")]);
    both.ws(&["slack", "doctor"]).ok().stdout_has("PHASEGATE_SLACK_TOKEN is a user token");
}

/// Claude Code hands the plugin's options to its hooks only, so a question
/// asked from a Bash command has no token: the Stop hook at the end of the
/// turn starts the background poller, which has it, and that posts the
/// question and reads its answer.
#[test]
fn the_stop_hook_wakes_the_poller_with_the_option_token_a_shell_does_not_have() {
    let s = Slacked::new().with_tokens(&[]);
    s.background();
    let asked = s.ask(BLOCKING);
    assert_eq!(asked["slack"]["posted"], false, "{asked}");
    assert!(asked["slack"]["error"].as_str().unwrap().contains("the plugin's slack_token option"), "{asked}");
    assert!(s.slack.messages(CHANNEL).is_empty());

    let stop = |session: &str| {
        Run::new(HOOK, &["stop"], s.env.root())
            .env("PHASEGATE_SLACK_API_URL", &s.slack.base_url())
            .env("CLAUDE_PLUGIN_OPTION_SLACK_TOKEN", BOT)
            .env("CLAUDE_PLUGIN_OPTION_SLACK_READ_TOKEN", READER)
            .stdin(format!(r#"{{"hook_event_name":"Stop","session_id":"{session}","stop_hook_active":false}}"#))
    };
    let started = Instant::now();
    let out = stop("s1").ok();
    assert!(out.stdout.trim().is_empty() && out.stderr.is_empty(), "{}", out.report());
    assert!(started.elapsed() < Duration::from_secs(2), "the hook waited on Slack");
    let deadline = Instant::now() + Duration::from_secs(30);
    while s.slack.messages(CHANNEL).is_empty() {
        assert!(Instant::now() < deadline, "the woken poller posted nothing");
        std::thread::sleep(Duration::from_millis(100));
    }
    // Another stop meanwhile posts nothing twice.
    stop("s1").ok();
    s.reply("U0ALICE", "Grid");
    assert_eq!(s.wait_for_answer()["text"], "Grid");
    let is_parent = |m: &Value| m.get("thread_ts").is_none_or(|t| *t == m["ts"]);
    let parents: Vec<Value> = s.slack.messages(CHANNEL).into_iter().filter(is_parent).collect();
    assert_eq!(parents.len(), 1, "posted once: {parents:?}");
}

#[test]
fn hooks_without_a_token_say_so_instead_of_starting_a_poller_that_cannot_post() {
    let s = Slacked::new().with_tokens(&[]);
    s.background();
    s.ask(BLOCKING);
    for (event, name) in [("stop", "Stop"), ("session-start", "SessionStart")] {
        let out = Run::new(HOOK, &[event], s.env.root())
            .env("PHASEGATE_SLACK_API_URL", &s.slack.base_url())
            .stdin(format!(r#"{{"hook_event_name":"{name}","session_id":"s1"}}"#))
            .ok();
        out.stdout_has("no Slack token reaches phasegate's hooks: set the plugin's slack_token option");
    }
    assert!(!s.env.path(".git/phasegate/slack-watch.log").exists(), "a poller was started");
}

/// Bug 7: `question answer` marked the answer acknowledged, so people in
/// Slack still saw an open question; it is told in the thread.
#[test]
fn an_answer_given_outside_slack_is_never_told_in_its_slack_thread() {
    let s = Slacked::new();
    s.ask(BLOCKING);
    assert_eq!(s.slack.messages(CHANNEL).len(), 1);
    let out = s.ws(&["question", "answer", &s.feature, "List", "--by", "alice"]).ok().json();
    assert_eq!(out["slack"]["told"], true, "{out}");
    let told = texts(&s.thread());
    assert!(
        told.last().unwrap().contains("Answered outside Slack (cli, by alice): List. Nothing more is needed here."),
        "{told:?}"
    );
    assert_eq!(s.marker()["answer"]["acknowledged"], true);
    // Without a token at hand, the next poll tells it.
    let s = Slacked::new();
    s.ask(BLOCKING);
    let out = s.env.ws(&["question", "answer", &s.feature, "Grid"]).ok().json();
    assert_eq!(out["slack"]["told"], false, "{out}");
    assert!(out["slack"]["error"].as_str().unwrap().contains("background poller"), "{out}");
    assert_ne!(s.marker()["answer"]["acknowledged"], true);
    assert_eq!(s.poll()["told"][0], "001-a.1");
    assert!(texts(&s.thread()).last().unwrap().contains("Answered outside Slack (cli): Grid"));
}

/// Attack: a Slack answer of the wrong shape ended in a decode error that
/// quoted the token, printed by `slack poll` and `slack doctor` and written
/// to the background poller's log.
#[test]
fn a_misshaped_slack_answer_quotes_the_token_in_an_error() {
    let s = Slacked::new();
    s.ask(BLOCKING);
    s.slack.misshape_next(1);
    let out = s.ws(&["slack", "poll"]).code(3);
    assert!(out.stdout.contains("another shape than Slack documents"), "{}", out.report());
    s.slack.misshape_next(1);
    let doctor = s.ws(&["slack", "doctor"]).code(3);
    let json = s.ws(&["slack", "poll", "--json"]);
    s.slack.misshape_next(1);
    let json = json.code(3);
    for (what, text) in
        [("poll", &out.stdout), ("poll stderr", &out.stderr), ("doctor", &doctor.stdout), ("json", &json.stdout)]
    {
        assert!(!text.contains(BOT) && !text.contains(READER), "{what} printed a token:\n{text}");
        assert!(!text.contains("xoxb-") && !text.contains("xoxp-"), "{what}:\n{text}");
    }
}

/// Attack: each reply that picked no option got a hint of its own (2,000
/// replies, 2,000 posts in one pass holding the poll lock).
#[test]
fn a_slack_reply_that_picks_no_option_gets_a_hint_each() {
    let s = Slacked::new();
    s.ask(BLOCKING);
    for i in 0..200 {
        s.reply(&format!("U{i:04}"), "not sure");
    }
    let started = Instant::now();
    s.poll();
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    let hints = texts(&s.thread()).iter().filter(|t| t.contains("does not pick an option")).count();
    assert_eq!(hints, 1, "one hint per question");
    s.reply("U9999", "still unsure");
    s.poll();
    assert_eq!(texts(&s.thread()).iter().filter(|t| t.contains("does not pick an option")).count(), 1);
    s.reply("U9999", "2");
    assert_eq!(s.poll()["answered"][0]["answer"], "List");
}

/// Attack: a `kill -9` between posting a question and recording its thread
/// posted it again at the next poll, and the thread kept was the later one,
/// so a reply in the first was never read.
#[test]
fn a_kill_during_slack_poll_posts_a_question_twice() {
    let s = Slacked::new();
    s.ask(BLOCKING);
    let marker = format!(".claude/suspended/{}.json", s.feature);
    let first = s.marker()["slack_thread_ts"].as_str().unwrap().to_owned();
    // Killed after the post, before the thread was written down.
    let crashed = |s: &Slacked, posting: bool| {
        let mut m = s.marker();
        m.as_object_mut().unwrap().remove("slack_thread_ts");
        m.as_object_mut().unwrap().remove("slack_channel_id");
        if posting {
            m["delivery"]["postingSince"] = Value::from("2026-11-24T10:00:00Z");
        }
        s.env.write(&marker, &m.to_string());
    };
    crashed(&s, true);
    assert_eq!(s.poll()["posted"][0], "001-a.1");
    assert_eq!(s.slack.messages(CHANNEL).len(), 1, "found, not posted again");
    assert_eq!(s.marker()["slack_thread_ts"], first.as_str());
    // A question posted twice by an older version: both threads are read.
    crashed(&s, false);
    s.poll();
    assert_eq!(s.slack.messages(CHANNEL).len(), 2);
    crashed(&s, true);
    s.poll();
    assert_eq!(s.marker()["slack_thread_ts"], first.as_str(), "the first thread is the question's");
    let second = s.marker()["delivery"]["otherThreads"][0].as_str().unwrap().to_owned();
    s.slack.add_human_reply(CHANNEL, &second, "U0BOB", "Grid");
    assert_eq!(s.poll()["answered"][0]["answer"], "Grid");
}

/// Bug 8: the poller's line for an answer suggested `workflow-state phase
/// start --feature X`, which exits 2 (the phase is required).
#[test]
fn the_pollers_log_suggests_phase_start_without_a_phase() {
    let s = Slacked::new();
    s.ask(BLOCKING);
    s.reply("U0ALICE", "Grid");
    let out = s.ws(&["slack", "poll"]).ok();
    let line = out.stdout.lines().find(|l| l.contains("arrived")).unwrap().to_owned();
    assert!(line.contains("001-a can go on: /phasegate:brainstorm (or /phasegate:auto)"), "{line}");
    assert!(!line.contains("phase start"), "{line}");
}

/// A question asked without Slack at hand (no token, no API URL): on record,
/// not posted; the next `slack poll` posts it.
fn ask_unposted(env: &crate::util::TestEnv, feature: &str) {
    let file = env.write("q.json", BLOCKING);
    env.ws(&["question", "ask", "--file", file.to_str().unwrap(), "--headless", "--feature", feature]).ok();
}

fn parents(slack: &FakeSlack) -> Vec<Value> {
    let is_parent = |m: &Value| m.get("thread_ts").is_none_or(|t| *t == m["ts"]);
    slack.messages(CHANNEL).into_iter().filter(is_parent).collect()
}

/// Issue 22: kill -9 between a question's Slack post and the write of its thread still posted it twice.
#[test]
fn a_slack_poll_killed_after_posting_posted_the_question_twice() {
    let s = Slacked::new();
    // Another clone posted a question with the same id to the same channel.
    let other = crate::util::TestEnv::new();
    other.write(
        ".phasegate/questions.config.json",
        &format!(r#"{{"slack": {{"channels": {{"feature": "{CHANNEL}"}}, "background": false}}}}"#),
    );
    assert_eq!(other.feature("a", "standard"), s.feature);
    ask_unposted(&other, &s.feature);
    let mut poll = other.ws(&["slack", "poll"]).env("PHASEGATE_SLACK_API_URL", &s.slack.base_url());
    for (k, v) in &s.tokens {
        poll = poll.env(k, v);
    }
    poll.ok();
    let theirs = parents(&s.slack)[0]["ts"].as_str().unwrap().to_owned();

    ask_unposted(&s.env, &s.feature);
    let killed = s.ws(&["slack", "poll"]).env("PHASEGATE_FAILPOINT", "slack-poll:posted").output();
    assert_eq!(killed.code, None, "not killed:\n{}", killed.report());
    let ours = parents(&s.slack)[1]["ts"].as_str().unwrap().to_owned();
    let token = s.marker()["delivery"]["postRef"].as_str().unwrap().to_owned();
    assert!(s.marker()["slack_thread_ts"].is_null() && s.marker()["delivery"]["postingSince"].is_string());
    assert!(parents(&s.slack)[1]["text"].as_str().unwrap().contains(&token));

    // The history cannot be read: nothing is posted.
    s.slack.fail_next(1, 503);
    let out = s.ws(&["slack", "poll", "--json"]).code(3);
    assert!(out.stdout.contains("history cannot be read"), "{}", out.report());
    assert_eq!(parents(&s.slack).len(), 2, "posted again while it could not look");
    // It can: the post is found by its token, not the other clone's by its id.
    assert_eq!(s.poll()["posted"][0], "001-a.1");
    assert_eq!(parents(&s.slack).len(), 2, "posted again");
    assert_eq!(s.marker()["slack_thread_ts"], ours.as_str(), "the other clone's thread {theirs} was taken");
    assert!(s.marker()["delivery"].get("postRef").is_none() && s.marker()["delivery"].get("postingSince").is_none());
    s.slack.add_human_reply(CHANNEL, &ours, "U0ALICE", "List");
    assert_eq!(s.poll()["answered"][0]["answer"], "List");
}

/// Issue 22: a post whose answer was lost (a 502, a timeout) cleared the intent, and the next poll posted it again.
#[test]
fn a_post_whose_answer_was_lost_was_posted_again() {
    let s = Slacked::new();
    ask_unposted(&s.env, &s.feature);
    s.slack.lose_answer_next(1);
    let out = s.ws(&["slack", "poll", "--json"]).code(3);
    assert!(out.stdout.contains("HTTP 502"), "{}", out.report());
    assert_eq!(parents(&s.slack).len(), 1);
    assert!(s.marker()["delivery"]["postingSince"].is_string(), "{}", s.marker());
    assert_eq!(s.poll()["posted"][0], "001-a.1");
    assert_eq!(parents(&s.slack).len(), 1, "posted twice");
    assert_eq!(s.marker()["slack_thread_ts"], parents(&s.slack)[0]["ts"]);
    // A post Slack refused is retried as before (nothing went out).
    let s = Slacked::new();
    ask_unposted(&s.env, &s.feature);
    s.slack.rate_limit_next(4, 0);
    s.ws(&["slack", "poll"]).code(3);
    assert!(s.marker()["delivery"].get("postingSince").is_none(), "{}", s.marker());
    assert_eq!(s.poll()["posted"][0], "001-a.1");
    assert_eq!(parents(&s.slack).len(), 1);
}
