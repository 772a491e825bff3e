//! `phasegate-hook <event>`: Claude Code hooks (SessionStart,
//! UserPromptSubmit, PreToolUse, PostToolUse, Stop, SubagentStop,
//! SessionEnd, StopFailure). A hook never breaks a session: every problem, even a panic,
//! becomes a short message in valid hook JSON and exit 0; only a deliberate
//! block uses the blocking protocol. The decisions are phasegate-ops'; this
//! crate reads the input and prints the answer.
#![cfg_attr(test, allow(clippy::disallowed_methods))]

use std::io::{IsTerminal, Read, Write};
use std::process::ExitCode;

use phasegate_ops::Env;
use phasegate_ops::hooks::{self, HookInput, StopOutcome, ToolVote, pre_tool_use};
use phasegate_ops::questions::{self, SubagentOutcome};
use serde_json::json;

/// What the last panic said, for the log.
static PANICKED: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// The most hook input read; Claude Code's inputs are far smaller except a
/// Write's content, which is read up to here and then cut (the path comes first).
const MAX_INPUT: u64 = 16 * 1024 * 1024;

/// The events this binary answers, by the argument hooks.json passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Event {
    SessionStart,
    UserPromptSubmit,
    PreToolUse,
    PostToolUse,
    Stop,
    SubagentStop,
    SessionEnd,
    StopFailure,
}

impl Event {
    fn parse(arg: &str) -> Option<Event> {
        match arg {
            "session-start" => Some(Event::SessionStart),
            "user-prompt-submit" => Some(Event::UserPromptSubmit),
            "pre-tool-use" => Some(Event::PreToolUse),
            "post-tool-use" => Some(Event::PostToolUse),
            "stop" => Some(Event::Stop),
            "subagent-stop" => Some(Event::SubagentStop),
            "session-end" => Some(Event::SessionEnd),
            "stop-failure" => Some(Event::StopFailure),
            _ => None,
        }
    }

    /// The answer when the hook itself failed: valid JSON, never a block.
    fn failure(self, message: &str) -> String {
        match self {
            Event::SessionStart => context_for("SessionStart", message),
            Event::UserPromptSubmit
            | Event::PreToolUse
            | Event::PostToolUse
            | Event::Stop
            | Event::SubagentStop
            | Event::SessionEnd
            | Event::StopFailure => json!({ "systemMessage": message }).to_string(),
        }
    }
}

pub fn main() -> ExitCode {
    // A background process it starts (the Slack poller) must not hold the
    // answer's pipe open (Windows).
    phasegate_ops::env::keep_own_stdio();
    let arg = std::env::args().nth(1).unwrap_or_default();
    let Some(event) = Event::parse(&arg) else {
        let _ = writeln!(
            std::io::stderr(),
            "usage: phasegate-hook session-start|user-prompt-submit|pre-tool-use|post-tool-use|stop|subagent-stop|session-end|stop-failure\n(reads Claude Code's hook input JSON on stdin; register it in hooks/hooks.json)"
        );
        return ExitCode::from(2);
    };
    // A panic prints nothing (stderr would reach the user as an error): its
    // message and place are kept, and logged once the hook has answered.
    std::panic::set_hook(Box::new(|info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_owned());
        let place = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        if let Ok(mut p) = PANICKED.lock() {
            *p = Some(format!("{what}{place}"));
        }
    }));
    let (input, note) = read_input();
    let output =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| answer(event, &input, note))).unwrap_or_else(|_| {
            let what = PANICKED.lock().ok().and_then(|mut p| p.take()).unwrap_or_else(|| "a panic".to_owned());
            let logged = hooks::record_problem(&input, &Env::lenient(), &arg, &format!("panicked: {what}"));
            let r#where = logged.map(|p| format!(" (logged in {})", p.display())).unwrap_or_default();
            event.failure(&format!(
                "phasegate: the hook failed unexpectedly{where}; run `workflow-state status` to check the features"
            ))
        });
    if !output.is_empty() {
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(output.as_bytes());
        let _ = out.write_all(b"\n");
        let _ = out.flush();
    }
    ExitCode::SUCCESS
}

/// Reads stdin (not when it is a terminal, so a manual run does not hang).
/// Unreadable input yields an empty input and a note.
fn read_input() -> (HookInput, Option<String>) {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return (HookInput::default(), None);
    }
    let mut bytes = Vec::new();
    if let Err(e) = stdin.lock().take(MAX_INPUT + 1).read_to_end(&mut bytes) {
        return (HookInput::default(), Some(format!("could not read the hook input: {e}")));
    }
    if bytes.len() as u64 > MAX_INPUT {
        let input = HookInput { tool_name: tool_name_hint(&bytes), too_large: true, ..HookInput::default() };
        return (input, Some(format!("the hook input is larger than {} MiB", MAX_INPUT / (1024 * 1024))));
    }
    let text = String::from_utf8_lossy(&bytes);
    match HookInput::parse(&text) {
        Ok(input) => (input, None),
        Err(e) => (HookInput::default(), Some(e.to_string())),
    }
}

/// The `tool_name` of an input that cannot be parsed whole (it comes early
/// in Claude Code's input), so a guard can tell a writing tool from others.
fn tool_name_hint(bytes: &[u8]) -> Option<String> {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]).into_owned();
    let after = head.split_once("\"tool_name\"")?.1.trim_start().strip_prefix(':')?.trim_start();
    let name = after.strip_prefix('"')?.split('"').next()?;
    Some(name.to_owned())
}

fn answer(event: Event, input: &HookInput, note: Option<String>) -> String {
    let env = || Env::from_process().map_err(|e| event.failure(&format!("phasegate: {e}")));
    match event {
        // A tool call too large to read whole is not judged: a writing tool
        // is refused. Input that is not JSON at all is no tool call: it
        // passes. Otherwise every contributor votes.
        Event::PreToolUse => {
            let vote = match (input.too_large, note.as_deref()) {
                (true, Some(why)) => match pre_tool_use::unjudged(input.tool_name.as_deref(), why) {
                    Some(deny) => ToolVote::Deny(deny.reason),
                    None => ToolVote::Pass,
                },
                (true, None) | (false, _) => hooks::pre_tool_use(input, &Env::lenient()),
            };
            match vote {
                ToolVote::Pass => String::new(),
                ToolVote::Deny(reason) => json!({"hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "deny",
                    "permissionDecisionReason": clip(&reason),
                }})
                .to_string(),
                ToolVote::Context(text) => json!({"hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "additionalContext": clip(&text),
                }})
                .to_string(),
            }
        }
        Event::UserPromptSubmit => {
            let context = hooks::user_prompt(input, &Env::lenient());
            if context.is_empty() { String::new() } else { context_for("UserPromptSubmit", &clip(&context)) }
        }
        Event::PostToolUse => {
            let context = hooks::post_tool_use(input, &Env::lenient());
            if context.is_empty() { String::new() } else { context_for("PostToolUse", &clip(&context)) }
        }
        Event::SessionEnd => {
            hooks::session_end(input, &Env::lenient());
            String::new()
        }
        Event::StopFailure => {
            let message = hooks::stop_failure(input, &Env::lenient());
            if message.is_empty() { String::new() } else { json!({ "systemMessage": clip(&message) }).to_string() }
        }
        // No environment, no repository: the reply's first lines only.
        Event::SubagentStop => match questions::subagent_stop(input) {
            SubagentOutcome::Silent => String::new(),
            SubagentOutcome::Block { reason } => json!({ "decision": "block", "reason": clip(&reason) }).to_string(),
        },
        Event::SessionStart => match env() {
            Ok(env) => {
                let note = install_problem().into_iter().chain(note).reduce(|a, b| format!("{a}\nphasegate: {b}"));
                let context = hooks::session_start(input, &env, note, phasegate_ops::env::workflow_state().as_deref());
                if context.is_empty() { String::new() } else { context_for("SessionStart", &context) }
            }
            Err(failed) => failed,
        },
        Event::Stop => match env() {
            Ok(env) => match hooks::stop(input, &env, note, phasegate_ops::env::workflow_state().as_deref()) {
                StopOutcome::Silent => String::new(),
                StopOutcome::Allow { message } => json!({ "systemMessage": clip(&message) }).to_string(),
                StopOutcome::Block { reason } => json!({ "decision": "block", "reason": clip(&reason) }).to_string(),
            },
            Err(failed) => failed,
        },
    }
}

/// SessionStart's line when the install is broken or mixed: versions that
/// disagree, or a `workflow-state` that is missing, not executable, built
/// for another machine, or (macOS) quarantined. Nothing when all is well.
fn install_problem() -> Option<String> {
    let ws = phasegate_ops::env::workflow_state_path()?;
    phasegate_ops::install::install_problem(phasegate_ops::env::plugin_root().as_deref(), &ws)
        .or_else(|| quarantined(&ws))
}

/// macOS refuses to start a file downloaded by a browser until the user
/// allows it (the `com.apple.quarantine` attribute).
#[cfg(target_os = "macos")]
fn quarantined(ws: &std::path::Path) -> Option<String> {
    matches!(xattr::get(ws, "com.apple.quarantine"), Ok(Some(_))).then(|| {
        format!(
            "macOS quarantined workflow-state ({}), so it will not start; run: xattr -d com.apple.quarantine {}",
            ws.display(),
            ws.display()
        )
    })
}

#[cfg(not(target_os = "macos"))]
fn quarantined(_: &std::path::Path) -> Option<String> {
    None
}

fn context_for(event: &str, text: &str) -> String {
    json!({"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}).to_string()
}

/// Claude Code caps hook output strings at 10,000 characters.
fn clip(text: &str) -> String {
    hooks::clip(text, 9_000)
}
