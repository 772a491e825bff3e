//! The implementation loop (the seed's "ralph loop"): its state file and what
//! the Stop hook decides at each stop of the owning session.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use super::config::StopHook;
use super::gate::GateKind;
use super::run::{PauseReason, Run};
use super::state::State;

/// `.task/loop-state.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoopState {
    pub active: bool,
    /// Stops blocked so far: each one sends the model back to work.
    pub iteration: u32,
    pub max_iterations: u32,
    #[serde(default)]
    pub implementer_agent_id: Option<String>,
    pub completion_promise: String,
    /// The Claude Code session this loop holds; no other session is blocked.
    #[serde(default)]
    pub session_id: Option<String>,
    /// Blocks in a row within one turn (Claude Code ends a turn after 8).
    #[serde(default)]
    pub consecutive_blocks: u32,
    #[serde(default)]
    pub ended_reason: Option<String>,
    pub started_at: DateTime<Utc>,
    #[serde(default)]
    pub updated_at: Option<DateTime<Utc>>,
}

impl LoopState {
    pub fn new(
        max_iterations: u32,
        completion_promise: String,
        session_id: Option<String>,
        now: DateTime<Utc>,
    ) -> Self {
        LoopState {
            active: true,
            iteration: 0,
            max_iterations,
            implementer_agent_id: None,
            completion_promise,
            session_id,
            consecutive_blocks: 0,
            ended_reason: None,
            started_at: now,
            updated_at: Some(now),
        }
    }

    pub fn last_activity(&self) -> DateTime<Utc> {
        self.updated_at.unwrap_or(self.started_at)
    }

    fn end(&mut self, reason: &str, now: DateTime<Utc>) {
        self.active = false;
        self.ended_reason = Some(reason.to_owned());
        self.consecutive_blocks = 0;
        self.updated_at = Some(now);
    }
}

/// The outcome of running the plan's test commands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TestOutcome {
    Passed,
    Failed { summary: String },
}

/// What the Stop hook knows about one stop.
#[derive(Debug, Clone)]
pub struct StopContext<'a> {
    pub feature: &'a str,
    pub run: &'a Run,
    pub loop_state: &'a LoopState,
    pub config: &'a StopHook,
    pub session_id: &'a str,
    pub stop_hook_active: bool,
    pub last_message: &'a str,
    pub now: DateTime<Utc>,
}

/// What the Stop hook does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StopDecision {
    /// Not this session's loop, or no loop running: let it stop, silently.
    Ignore,
    /// Everything passed: the pipeline completes and the session stops.
    Complete { message: String },
    /// The iteration limit is reached: the pipeline pauses for the user.
    LimitReached { message: String },
    /// No activity for too long: the loop ends and stops holding the session.
    Expired { message: String },
    /// Claude Code's cap on consecutive blocks is near: let this stop happen
    /// with a message; the loop stays active for the next turn.
    Yield { message: String },
    /// Keep working: the reason goes to the model.
    Block { reason: String },
}

/// Decides one stop. Tests run (through `run_tests`) only when the reviews
/// passed and the model claims completion with the promise.
pub fn decide(ctx: &StopContext<'_>, run_tests: impl FnOnce() -> TestOutcome) -> StopDecision {
    let StopContext { feature, run, loop_state, config, session_id, stop_hook_active, last_message, now } = *ctx;
    let mine = loop_state.session_id.as_deref() == Some(session_id) && run.owned_by(session_id);
    if run.state != State::ImplementingLoop || !loop_state.active || !mine {
        return StopDecision::Ignore;
    }
    let idle = now - loop_state.last_activity();
    if idle > Duration::minutes(config.stale_after_minutes as i64) {
        return StopDecision::Expired {
            message: format!(
                "phasegate: the implementation loop of {feature} expired after {} minutes without activity, so this session is free to stop. Run /phasegate:pipeline to pick it up again.",
                idle.num_minutes()
            ),
        };
    }
    let mut open: Vec<String> = Vec::new();
    let gate = run.gate(GateKind::Code);
    if !gate.passed {
        open.push(match gate.expected() {
            Some(stage) => format!(
                "the code review gate has not passed: round {}, the {stage} review is next (sonnet → opus → final gate)",
                gate.round.max(1)
            ),
            None => "the code review gate has not passed".to_owned(),
        });
    }
    let promised = last_message.contains(&loop_state.completion_promise);
    if !promised {
        open.push(format!(
            "your last message does not contain the completion promise {}; say it only when the work is done",
            loop_state.completion_promise
        ));
    }
    if open.is_empty() {
        match run_tests() {
            TestOutcome::Passed => {
                return StopDecision::Complete {
                    message: format!("phasegate: pipeline {feature} complete: all reviews approved, tests pass."),
                };
            }
            TestOutcome::Failed { summary } => open.push(format!("the plan's tests fail:\n{summary}")),
        }
    }
    if loop_state.iteration >= loop_state.max_iterations {
        return StopDecision::LimitReached {
            message: format!(
                "phasegate: the implementation loop of {feature} reached its limit of {} iterations without finishing; the pipeline waits for you (needs_user_input). Still open: {}. Run /phasegate:pipeline to decide how to go on.",
                loop_state.max_iterations,
                open.join("; ")
            ),
        };
    }
    let consecutive = if stop_hook_active { loop_state.consecutive_blocks } else { 0 };
    if consecutive >= config.max_consecutive_blocks {
        return StopDecision::Yield {
            message: format!(
                "phasegate: pausing the loop of {feature} after {consecutive} blocked stops in a row (Claude Code ends a turn after 8). The loop stays active: send any message to continue."
            ),
        };
    }
    let mut reason = format!(
        "phasegate: pipeline {feature} is in its implementation loop (iteration {} of {}); it is not done:\n",
        loop_state.iteration + 1,
        loop_state.max_iterations
    );
    for item in &open {
        reason.push_str("- ");
        reason.push_str(item);
        reason.push('\n');
    }
    reason.push_str("Continue: `workflow-state pipeline next` prints the next step. End your message with the promise only when reviews are approved and the tests pass.");
    StopDecision::Block { reason }
}

/// Applies a decision to the run and the loop.
pub fn apply(
    decision: &StopDecision,
    run: &mut Run,
    loop_state: &mut LoopState,
    stop_hook_active: bool,
    now: DateTime<Utc>,
) {
    match decision {
        StopDecision::Ignore => {}
        StopDecision::Complete { .. } => {
            // The gate passed and the tests ran: the transition's checks hold.
            let _ = run.transition(
                State::Complete,
                now,
                Some("stop hook: reviews approved, tests pass, promise given".into()),
                |_| Ok(()),
            );
            loop_state.end("complete", now);
        }
        StopDecision::LimitReached { message } => {
            let _ = run.pause(PauseReason::LoopLimit, message.clone(), now);
            loop_state.end("iteration limit reached", now);
        }
        StopDecision::Expired { message } => {
            let _ = run.pause(PauseReason::Stale, message.clone(), now);
            loop_state.end("expired", now);
        }
        StopDecision::Yield { .. } => {
            loop_state.consecutive_blocks = 0;
            loop_state.updated_at = Some(now);
        }
        StopDecision::Block { .. } => {
            loop_state.iteration += 1;
            loop_state.consecutive_blocks = if stop_hook_active { loop_state.consecutive_blocks + 1 } else { 1 };
            loop_state.updated_at = Some(now);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::files::ReviewStatus;
    use crate::pipeline::gate::Stage;
    use chrono::TimeZone;

    const PROMISE: &str = "<promise>DONE</promise>";

    fn t(m: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 22, 10, 0, 0).unwrap() + Duration::minutes(m)
    }

    fn looping_run() -> (Run, LoopState) {
        let mut run = Run::new("x".into(), Some("s1".into()), t(0));
        run.state = State::ImplementingLoop;
        run.code_review = crate::pipeline::gate::Gate::new();
        (run, LoopState::new(3, PROMISE.into(), Some("s1".into()), t(0)))
    }

    fn ctx<'a>(
        run: &'a Run,
        l: &'a LoopState,
        cfg: &'a StopHook,
        session: &'a str,
        active: bool,
        msg: &'a str,
        now: i64,
    ) -> StopContext<'a> {
        StopContext {
            feature: "001-x",
            run,
            loop_state: l,
            config: cfg,
            session_id: session,
            stop_hook_active: active,
            last_message: msg,
            now: t(now),
        }
    }

    fn no_tests() -> TestOutcome {
        panic!("tests must not run")
    }

    #[test]
    fn other_sessions_are_never_held() {
        let (run, l) = looping_run();
        let cfg = StopHook::default();
        assert_eq!(decide(&ctx(&run, &l, &cfg, "s2", false, "", 1), no_tests), StopDecision::Ignore);
    }

    #[test]
    fn unapproved_review_blocks_with_a_reason_naming_it() {
        let (mut run, mut l) = looping_run();
        let cfg = StopHook::default();
        run.code_review.record(Stage::Sonnet, ReviewStatus::Approved, 15).unwrap();
        let d = decide(&ctx(&run, &l, &cfg, "s1", false, "working", 1), no_tests);
        let StopDecision::Block { reason } = &d else { panic!("{d:?}") };
        assert!(reason.contains("round 1, the opus review is next"), "{reason}");
        assert!(reason.contains("completion promise <promise>DONE</promise>"), "{reason}");
        apply(&d, &mut run, &mut l, false, t(1));
        assert_eq!((l.iteration, l.consecutive_blocks), (1, 1));
    }

    #[test]
    fn approval_tests_and_promise_complete() {
        let (mut run, mut l) = looping_run();
        let cfg = StopHook::default();
        for s in Stage::ALL {
            run.code_review.record(s, ReviewStatus::Approved, 15).unwrap();
        }
        let failing = decide(&ctx(&run, &l, &cfg, "s1", false, PROMISE, 1), || TestOutcome::Failed {
            summary: "1 failed".into(),
        });
        assert!(
            matches!(&failing, StopDecision::Block { reason } if reason.contains("tests fail:\n1 failed")),
            "{failing:?}"
        );
        let d = decide(&ctx(&run, &l, &cfg, "s1", true, &format!("all good {PROMISE}"), 2), || TestOutcome::Passed);
        assert!(matches!(d, StopDecision::Complete { .. }), "{d:?}");
        apply(&d, &mut run, &mut l, true, t(2));
        assert_eq!(run.state, State::Complete);
        assert!(!l.active);
    }

    #[test]
    fn the_limit_ends_the_loop_cleanly() {
        let (mut run, mut l) = looping_run();
        let cfg = StopHook::default();
        l.iteration = 3;
        let d = decide(&ctx(&run, &l, &cfg, "s1", false, "", 1), no_tests);
        assert!(
            matches!(&d, StopDecision::LimitReached { message } if message.contains("limit of 3 iterations")),
            "{d:?}"
        );
        apply(&d, &mut run, &mut l, false, t(1));
        assert_eq!(run.state, State::NeedsUserInput);
        assert_eq!(run.paused.as_ref().unwrap().reason, PauseReason::LoopLimit);
        assert!(!l.active);
        // Once ended, the loop holds nobody.
        assert_eq!(decide(&ctx(&run, &l, &cfg, "s1", false, "", 2), no_tests), StopDecision::Ignore);
    }

    #[test]
    fn stale_loops_expire() {
        let (run, l) = looping_run();
        let cfg = StopHook { stale_after_minutes: 30, ..StopHook::default() };
        assert!(matches!(decide(&ctx(&run, &l, &cfg, "s1", false, "", 31), no_tests), StopDecision::Expired { .. }));
    }

    #[test]
    fn consecutive_blocks_yield_before_claude_codes_cap() {
        let (run, mut l) = looping_run();
        l.max_iterations = 100;
        let cfg = StopHook { max_consecutive_blocks: 2, ..StopHook::default() };
        l.consecutive_blocks = 2;
        assert!(matches!(decide(&ctx(&run, &l, &cfg, "s1", true, "", 1), no_tests), StopDecision::Yield { .. }));
        // A new turn (stop_hook_active false) starts counting again.
        assert!(matches!(decide(&ctx(&run, &l, &cfg, "s1", false, "", 1), no_tests), StopDecision::Block { .. }));
    }
}
