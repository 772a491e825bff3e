//! The client against the test kit's [`FakeSlack`]: each Slack method, each
//! error variant, and the token kept out of every message.

use std::net::TcpListener;
use std::thread;
use std::time::{Duration, Instant};

use phasegate_slack::{Client, SlackError, Token, TokenKind};
use phasegate_testkit::{FakeSlack, SlackTokenKind};

const BOT_TOKEN: &str = "xoxb-111-222-botsecretvalue";
const USER_TOKEN: &str = "xoxp-111-222-usersecretvalue";
const BOT_USER: &str = "U0BOT";
const ASKER: &str = "U0ASKER";

/// A fake with a bot and a user token, a channel `C0TEAM` the app is in, a
/// channel `C0OUTSIDE` it is not in, and a DM `D0DIRECT`.
fn fake() -> FakeSlack {
    let slack = FakeSlack::start();
    slack.add_token(BOT_TOKEN, SlackTokenKind::Bot, BOT_USER);
    slack.add_token(USER_TOKEN, SlackTokenKind::User, ASKER);
    slack.add_channel("C0TEAM", true);
    slack.add_channel("C0OUTSIDE", false);
    slack.add_channel("D0DIRECT", true);
    slack
}

fn client(slack: &FakeSlack, token: &str) -> Client {
    Client::new(&slack.base_url(), Token::new(token.to_owned()).unwrap()).unwrap()
}

fn api_error(result: Result<impl std::fmt::Debug, SlackError>) -> (String, Option<String>, String) {
    match result {
        Err(err @ SlackError::Api { .. }) => {
            let text = err.to_string();
            let SlackError::Api { error, needed, .. } = err else { unreachable!() };
            (error, needed, text)
        }
        other => panic!("expected SlackError::Api, got {other:?}"),
    }
}

/// A port nothing listens on (bound, then released).
fn closed_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

#[test]
fn auth_test_with_a_bot_token_reports_its_bot_id() {
    let slack = fake();
    let auth = client(&slack, BOT_TOKEN).auth_test().unwrap();
    assert_eq!(auth.user_id.as_deref(), Some(BOT_USER));
    assert!(auth.bot_id.as_deref().is_some_and(|id| id.starts_with('B')), "{auth:?}");
    assert!(auth.team.is_some() && auth.url.is_some(), "{auth:?}");
    let requests = slack.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].method_path, "POST /api/auth.test");
    assert!(requests[0].has_auth_header);
}

#[test]
fn auth_test_with_a_user_token_has_no_bot_id() {
    let slack = fake();
    let auth = client(&slack, USER_TOKEN).auth_test().unwrap();
    assert_eq!(auth.user_id.as_deref(), Some(ASKER));
    assert_eq!(auth.bot_id, None);
}

#[test]
fn unknown_token_is_invalid_auth_pointing_at_the_env_var() {
    let slack = fake();
    let (error, _, text) = api_error(client(&slack, "xoxb-not-registered").auth_test());
    assert_eq!(error, "invalid_auth");
    assert!(text.contains("check PHASEGATE_SLACK_TOKEN"), "{text}");
}

#[test]
fn token_kind_follows_the_prefix() {
    assert_eq!(Token::new(BOT_TOKEN.into()).unwrap().kind(), TokenKind::Bot);
    assert_eq!(Token::new(USER_TOKEN.into()).unwrap().kind(), TokenKind::User);
}

#[test]
fn post_message_sends_json_and_replies_into_the_thread() {
    let slack = fake();
    let client = client(&slack, USER_TOKEN);
    let parent = client.post_message("C0TEAM", "Ship it? \"yes\" & ✓", None).unwrap();
    assert_eq!(parent.channel, "C0TEAM");
    let reply = client.post_message("C0TEAM", "details", Some(&parent.ts)).unwrap();
    assert!(reply.ts > parent.ts, "{reply:?} after {parent:?}");

    let thread = slack.thread("C0TEAM", &parent.ts);
    assert_eq!(thread.len(), 2);
    assert_eq!(thread[0]["text"], "Ship it? \"yes\" & ✓");
    assert_eq!(thread[1]["thread_ts"], parent.ts.as_str());
    let post = &slack.requests()[0];
    assert_eq!(post.method_path, "POST /api/chat.postMessage");
    assert_eq!(post.content_type.as_deref(), Some("application/json; charset=utf-8"));
    assert!(post.has_auth_header);
    assert!(!post.params.contains_key("thread_ts"), "{post:?}");
    assert_eq!(slack.requests()[1].params["thread_ts"], parent.ts);
}

#[test]
fn replies_follow_the_cursor_across_three_pages() {
    let slack = fake();
    slack.set_page_size_cap(2);
    let client = client(&slack, USER_TOKEN);
    let parent = client.post_message("C0TEAM", "Which database?", None).unwrap();
    let mut expected = vec![parent.ts.clone()];
    for (user, text) in [("U0A", "Postgres"), ("U0B", "SQLite"), ("U0C", "either")] {
        expected.push(slack.add_human_reply("C0TEAM", &parent.ts, user, text));
    }
    expected.push(client.post_message("C0TEAM", "thanks", Some(&parent.ts)).unwrap().ts);

    let messages = client.replies("C0TEAM", &parent.ts).unwrap();
    let ts: Vec<&str> = messages.iter().map(|m| m.ts.as_str()).collect();
    assert_eq!(ts, expected.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(messages[1].text, "Postgres");
    assert_eq!(messages[1].thread_ts.as_deref(), Some(parent.ts.as_str()));

    let reads: Vec<_> = slack.requests().into_iter().filter(|r| r.method() == Some("conversations.replies")).collect();
    assert_eq!(reads.len(), 3, "{reads:#?}");
    for read in &reads {
        assert_eq!(read.content_type.as_deref(), Some("application/x-www-form-urlencoded"));
        assert_eq!(read.params["limit"], "200");
        assert_eq!(read.params["channel"], "C0TEAM");
    }
    assert!(!reads[0].params.contains_key("cursor"));
    assert!(reads[1].params.contains_key("cursor") && reads[2].params.contains_key("cursor"));
}

#[test]
fn is_from_person_tells_humans_from_the_bot() {
    let slack = fake();
    let bot = client(&slack, BOT_TOKEN);
    // Bot tokens read threads in DMs.
    let parent = bot.post_message("D0DIRECT", "Approve the plan?", None).unwrap();
    bot.post_message("D0DIRECT", "(reminder)", Some(&parent.ts)).unwrap();
    slack.add_human_reply("D0DIRECT", &parent.ts, "U0ALICE", "approved");

    let messages = bot.replies("D0DIRECT", &parent.ts).unwrap();
    let people: Vec<bool> = messages.iter().map(|m| m.is_from_person()).collect();
    assert_eq!(people, [false, false, true]);
    let auth = bot.auth_test().unwrap();
    assert_eq!(messages[0].bot_id, auth.bot_id);
    assert_eq!(messages[2].user.as_deref(), Some("U0ALICE"));
}

#[test]
fn unknown_thread_is_thread_not_found() {
    let slack = fake();
    let (error, _, text) = api_error(client(&slack, USER_TOKEN).replies("C0TEAM", "1708300000.999900"));
    assert_eq!(error, "thread_not_found");
    assert!(text.starts_with("conversations.replies: thread_not_found"), "{text}");
}

#[test]
fn unknown_channel_is_channel_not_found() {
    let slack = fake();
    let (error, _, _) = api_error(client(&slack, BOT_TOKEN).post_message("C0NOWHERE", "hi", None));
    assert_eq!(error, "channel_not_found");
}

#[test]
fn channel_without_the_app_is_not_in_channel() {
    let slack = fake();
    let (error, _, text) = api_error(client(&slack, BOT_TOKEN).post_message("C0OUTSIDE", "hi", None));
    assert_eq!(error, "not_in_channel");
    assert!(text.contains("invite the app to the channel"), "{text}");
}

#[test]
fn bot_token_reading_a_channel_thread_is_missing_scope() {
    let slack = fake();
    let bot = client(&slack, BOT_TOKEN);
    let parent = bot.post_message("C0TEAM", "Approve?", None).unwrap();
    let (error, needed, text) = api_error(bot.replies("C0TEAM", &parent.ts));
    assert_eq!(error, "missing_scope");
    assert_eq!(needed.as_deref(), Some("channels:history"));
    assert!(text.contains("`channels:history`"), "{text}");
    // The same thread read with a user token works.
    assert_eq!(client(&slack, USER_TOKEN).replies("C0TEAM", &parent.ts).unwrap().len(), 1);
}

#[test]
fn rate_limit_is_waited_out_then_succeeds() {
    let slack = fake();
    slack.rate_limit_next(1, 1);
    let started = Instant::now();
    let auth = client(&slack, USER_TOKEN).auth_test().unwrap();
    assert!(started.elapsed() >= Duration::from_secs(1), "waited only {:?}", started.elapsed());
    assert_eq!(auth.user_id.as_deref(), Some(ASKER));
    let statuses: Vec<u16> = slack.requests().iter().map(|r| r.status).collect();
    assert_eq!(statuses, [429, 200]);
}

#[test]
fn rate_limit_longer_than_max_retry_wait_is_rate_limited_without_waiting() {
    let slack = fake();
    slack.rate_limit_next(1, 60);
    let started = Instant::now();
    let err = client(&slack, USER_TOKEN).with_max_retry_wait(Duration::from_secs(5)).auth_test().unwrap_err();
    assert_eq!(err, SlackError::RateLimited { method: "auth.test", retry_after_secs: 60 });
    assert!(err.is_retryable());
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    assert_eq!(slack.requests().len(), 1);
}

#[test]
fn rate_limit_gives_up_after_three_retries() {
    let slack = fake();
    slack.rate_limit_next(4, 0);
    let err = client(&slack, USER_TOKEN).auth_test().unwrap_err();
    assert_eq!(err, SlackError::RateLimited { method: "auth.test", retry_after_secs: 0 });
    assert_eq!(slack.requests().len(), 4);
}

#[test]
fn server_error_is_http_and_retryable() {
    let slack = fake();
    slack.fail_next(1, 500);
    let err = client(&slack, USER_TOKEN).post_message("C0TEAM", "hi", None).unwrap_err();
    assert_eq!(err, SlackError::Http { method: "chat.postMessage", status: 500 });
    assert!(err.is_retryable());
    assert!(slack.messages("C0TEAM").is_empty());
}

#[test]
fn connection_refused_is_transport() {
    let token = Token::new(USER_TOKEN.into()).unwrap();
    let client = Client::new(&format!("http://127.0.0.1:{}/api", closed_port()), token).unwrap();
    let err = client.auth_test().unwrap_err();
    let SlackError::Transport { method: "auth.test", reason } = &err else { panic!("{err:?}") };
    assert!(reason.to_lowercase().contains("refused"), "{err}");
    assert!(err.is_retryable());
}

#[test]
fn silent_server_times_out_as_transport() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    // Accept and hold the connection without ever answering.
    let holder = thread::spawn(move || {
        let accepted = listener.accept();
        thread::sleep(Duration::from_secs(3));
        drop(accepted);
    });
    let token = Token::new(USER_TOKEN.into()).unwrap();
    let client = Client::new(&format!("http://127.0.0.1:{port}/api/"), token)
        .unwrap()
        .with_timeouts(Duration::from_secs(1), Duration::from_millis(300));
    let started = Instant::now();
    let err = client.auth_test().unwrap_err();
    let SlackError::Transport { reason, .. } = &err else { panic!("{err:?}") };
    assert!(reason.contains("timeout"), "{err}");
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
    drop(holder);
}

#[test]
fn html_answer_is_bad_response() {
    let slack = fake();
    slack.garble_next(1);
    let err = client(&slack, USER_TOKEN).replies("C0TEAM", "1708300000.000100").unwrap_err();
    let SlackError::BadResponse { method, reason } = &err else { panic!("{err:?}") };
    assert_eq!(*method, "conversations.replies");
    assert!(reason.contains("not JSON (text/html") && reason.contains("hotel Wi-Fi"), "{reason}");
    assert!(!err.is_retryable());
}

/// Regression guard for the one secret this crate handles: every error
/// variant, as produced against a server, printed with `Display` and
/// `Debug`, and the client itself, never show the token.
#[test]
fn token_never_appears_in_any_error_text() {
    let slack = fake();
    let unknown = "xoxb-999-888-unregisteredsecret";
    let mut errors = Vec::new();
    errors.push(client(&slack, unknown).auth_test().unwrap_err());
    for token in [BOT_TOKEN, USER_TOKEN] {
        let client = client(&slack, token).with_max_retry_wait(Duration::ZERO);
        errors.push(client.replies("C0TEAM", "1.000001").unwrap_err());
        errors.push(client.post_message("C0NOWHERE", "hi", None).unwrap_err());
        errors.push(client.post_message("C0OUTSIDE", "hi", None).unwrap_err());
        slack.rate_limit_next(1, 5);
        errors.push(client.auth_test().unwrap_err());
        slack.fail_next(1, 503);
        errors.push(client.auth_test().unwrap_err());
        slack.garble_next(1);
        errors.push(client.auth_test().unwrap_err());
        let refused =
            Client::new(&format!("http://127.0.0.1:{}/api/", closed_port()), Token::new(token.into()).unwrap());
        errors.push(refused.unwrap().auth_test().unwrap_err());
        errors
            .push(Client::new(&format!("ftp://{token}@example.com/"), Token::new(token.into()).unwrap()).unwrap_err());
        errors.push(Token::new(format!("{token}\n")).unwrap_err());
        assert!(!format!("{client:?}").contains(token), "{client:?}");
    }
    errors
        .push(client(&slack, BOT_TOKEN).replies("C0TEAM", &slack.add_human_message("C0TEAM", "U0A", "q")).unwrap_err());

    let kinds: std::collections::BTreeSet<&str> = errors
        .iter()
        .map(|err| match err {
            SlackError::Api { .. } => "Api",
            SlackError::RateLimited { .. } => "RateLimited",
            SlackError::Http { .. } => "Http",
            SlackError::Transport { .. } => "Transport",
            SlackError::BadResponse { .. } => "BadResponse",
            SlackError::BadConfig { .. } => "BadConfig",
        })
        .collect();
    assert_eq!(kinds.len(), 6, "not every variant was produced: {kinds:?}");
    for err in &errors {
        let texts = [err.to_string(), format!("{err:?}")];
        for secret in [BOT_TOKEN, USER_TOKEN, unknown, "secretvalue", "unregisteredsecret"] {
            for text in &texts {
                assert!(!text.contains(secret), "{secret:?} leaked into {text:?}");
            }
        }
    }
    for request in slack.requests() {
        assert!(!format!("{request:?}").contains("secret"), "{request:?}");
    }
}
