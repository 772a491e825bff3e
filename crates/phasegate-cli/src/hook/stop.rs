//! Stop: while a pipeline owned by *this* session is in its implementation
//! loop, keep the session working until the code reviews are approved, the
//! plan's tests pass and the last message carries the completion promise; or
//! until the loop's limit, its expiry, or Claude Code's cap on consecutive
//! blocks. A session that owns no loop is never blocked: the lookup is one
//! small file named after the session id, and its absence ends the hook.

use std::cell::RefCell;
use std::time::Duration;

use phasegate_core::pipeline::files::{FINAL_GATE_SESSION_MARKER, FileKind, STATE_FILE};
use phasegate_core::pipeline::looping::{self, StopContext, StopDecision, TestOutcome};
use phasegate_core::pipeline::{LoopState, Run};
use phasegate_store::{Feature, Project};

use super::HookInput;
use crate::commands::pipeline::{loop_file, run_tests};
use crate::env;

/// Claude Code caps hook output strings at 10,000 characters.
const MAX_REASON: usize = 9_000;
/// How long the hook waits for a writer of the same feature.
const LOCK_WAIT: Duration = Duration::from_secs(5);

pub fn run(input: HookInput, note: Option<String>) -> String {
    let session = input.session_id.clone().or_else(|| std::env::var(env::SESSION_ID).ok()).filter(|s| !s.is_empty());
    let Some(session) = session else {
        return note.map(|n| allow(&format!("phasegate: {n}; the stop is allowed."))).unwrap_or_default();
    };
    let Ok(project) = Project::discover(&input.dir()) else { return String::new() };
    let feature = match project.session_feature(&session) {
        Ok(Some(f)) => f,
        Ok(None) => return String::new(),
        Err(e) => return allow(&format!("phasegate: {}; the stop is allowed.", first_line(&e.to_string()))),
    };
    match decide_and_apply(&project, &feature, &session, &input) {
        Ok(out) => out,
        Err(why) => allow(&format!(
            "phasegate: cannot check the loop of {}: {why}; the stop is allowed. Fix the file, or run /phasegate:cancel-loop.",
            feature.name()
        )),
    }
}

fn decide_and_apply(project: &Project, feature: &Feature, session: &str, input: &HookInput) -> Result<String, String> {
    let config = project.pipeline_config().map_err(|e| first_line(&e.to_string()).to_owned())?;
    let (run, looping) = read(feature)?;
    let Some(looping) = looping else {
        return Ok(if run.owned_by(session) { String::new() } else { forget(project, session) });
    };
    if !run.owned_by(session) {
        // Another session claimed the pipeline since: this record is stale.
        return Ok(forget(project, session));
    }
    let last = input.last_assistant_message.clone().unwrap_or_default();
    let now = chrono::Utc::now();
    let tests: RefCell<Option<TestOutcome>> = RefCell::new(None);
    let run_once = || {
        tests
            .borrow_mut()
            .get_or_insert_with(|| match run_tests(project, feature, &config) {
                Ok((outcome, _)) => outcome,
                Err(e) => TestOutcome::Failed { summary: e.message },
            })
            .clone()
    };
    // Decide without the lock (tests may take minutes), then apply under it
    // on a fresh read; if a writer changed the files meanwhile, decide again
    // on what it wrote.
    let ctx = |run, looping| StopContext {
        feature: feature.name(),
        run,
        loop_state: looping,
        config: &config.stop_hook,
        session_id: session,
        stop_hook_active: input.stop_hook_active,
        last_message: &last,
        now,
    };
    let first = looping::decide(&ctx(&run, &looping), run_once);
    if first == StopDecision::Ignore {
        return Ok(String::new());
    }
    let guard = feature.lock(LOCK_WAIT).map_err(|e| first_line(&e.to_string()).to_owned())?;
    let (mut run2, looping2) = read(feature)?;
    let Some(mut looping2) = looping2 else { return Ok(String::new()) };
    let decision =
        if run2 == run && looping2 == looping { first } else { looping::decide(&ctx(&run2, &looping2), run_once) };
    looping::apply(&decision, &mut run2, &mut looping2, input.stop_hook_active, now);
    let write = |e: phasegate_store::StoreError| first_line(&e.to_string()).to_owned();
    if decision != StopDecision::Ignore {
        guard.write_task(loop_file(), &looping2).map_err(write)?;
        guard.write_task(STATE_FILE, &run2).map_err(write)?;
    }
    drop(guard);
    Ok(match decision {
        StopDecision::Ignore => String::new(),
        StopDecision::Block { reason } => serde_json::json!({"decision": "block", "reason": clip(&reason)}).to_string(),
        StopDecision::Yield { message } => allow(&message),
        StopDecision::Complete { message }
        | StopDecision::LimitReached { message }
        | StopDecision::Expired { message } => {
            let _ = std::fs::remove_file(feature.task_path(FINAL_GATE_SESSION_MARKER));
            let _ = project.unregister_session(session);
            allow(&message)
        }
    })
}

fn read(feature: &Feature) -> Result<(Run, Option<LoopState>), String> {
    let brief = |e: phasegate_store::StoreError| first_line(&e.to_string()).to_owned();
    let run = feature
        .read_task::<Run>(FileKind::State, STATE_FILE)
        .map_err(brief)?
        .ok_or_else(|| format!("{} is missing", feature.task_path(STATE_FILE).display()))?;
    let looping = feature.read_task::<LoopState>(FileKind::LoopState, loop_file()).map_err(brief)?;
    Ok((run, looping))
}

fn forget(project: &Project, session: &str) -> String {
    let _ = project.unregister_session(session);
    String::new()
}

fn allow(message: &str) -> String {
    serde_json::json!({"systemMessage": clip(message)}).to_string()
}

fn clip(text: &str) -> String {
    if text.len() <= MAX_REASON {
        return text.to_owned();
    }
    let mut end = MAX_REASON;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or(s)
}
