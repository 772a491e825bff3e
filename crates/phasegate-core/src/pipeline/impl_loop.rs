//! The implementation loop (the seed's "ralph loop"): its state file
//! `.task/loop-state.json` and what the Stop hook decides at each stop of the
//! owning session.
//!
//! Each blocked stop is one attempt of the loop's cycle. A stop made while the
//! session waits for its own worker (a sub-agent still running in the
//! background, e.g. the implementer fixing review findings) is not an
//! attempt: the session is idle by design and the worker's result will wake
//! it, so the stop is let through and nothing is counted.

use crate::words::Command;
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use super::config::StopHook;
use super::gate::GateKind;
use super::run::{PauseReason, PipelineRun, gate_missing};
use super::state::State;
use super::test_outcome::TestOutcome;
use crate::cycle::Cycle;

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

impl super::files::Owned for LoopState {
    const KIND: super::files::FileKind = super::files::FileKind::LoopState;

    fn rules(&self) -> Result<(), String> {
        if self.max_iterations == 0 {
            return Err("at /max_iterations: 0 is less than the minimum of 1".into());
        }
        if self.completion_promise.is_empty() {
            return Err("at /completion_promise: the promise is empty".into());
        }
        Ok(())
    }
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

    pub(crate) fn last_activity(&self) -> DateTime<Utc> {
        self.updated_at.unwrap_or(self.started_at)
    }

    /// Ends the loop: it holds no session any more.
    pub fn end(&mut self, reason: &str, now: DateTime<Utc>) {
        self.active = false;
        self.ended_reason = Some(reason.to_owned());
        self.consecutive_blocks = 0;
        self.updated_at = Some(now);
    }

    /// Makes the loop hold `session` again (after resume, recover or claim).
    /// `fresh_budget` restarts the iteration count.
    pub fn reactivate(&mut self, session: Option<String>, now: DateTime<Utc>, fresh_budget: bool) {
        self.active = true;
        self.ended_reason = None;
        self.consecutive_blocks = 0;
        self.session_id = session;
        self.updated_at = Some(now);
        if fresh_budget {
            self.iteration = 0;
        }
    }
}

/// Background work of the session still in flight, as the Stop hook input
/// reports it (`background_tasks`); only the fields phasegate reads.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
pub struct BackgroundTask {
    #[serde(default)]
    pub id: String,
    #[serde(default, rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub status: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub agent_type: Option<String>,
}

impl BackgroundTask {
    /// A sub-agent (a worker or a reviewer) that has not finished yet. A
    /// background shell (a dev server, say) does not count: it never wakes
    /// the session by finishing.
    pub(crate) fn is_running_agent(&self) -> bool {
        let agent = self.kind == "subagent" || self.agent_type.is_some();
        let done = matches!(self.status.as_str(), "completed" | "failed" | "killed" | "cancelled" | "stopped");
        agent && !done
    }
}

/// What the Stop hook knows about one stop.
#[derive(Debug, Clone)]
pub struct StopContext<'a> {
    pub feature: &'a str,
    pub run: &'a PipelineRun,
    pub loop_state: &'a LoopState,
    pub config: &'a StopHook,
    pub session_id: &'a str,
    pub stop_hook_active: bool,
    pub last_message: &'a str,
    pub background: &'a [BackgroundTask],
    pub now: DateTime<Utc>,
}

/// What the Stop hook does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StopDecision {
    /// Not this session's loop, or no loop running: let it stop, silently.
    Ignore,
    /// The session waits for its own sub-agent: let it stop, count nothing.
    Wait,
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
    let StopContext { feature, run, loop_state, config, session_id, stop_hook_active, last_message, background, now } =
        *ctx;
    let mine = loop_state.session_id.as_deref() == Some(session_id) && run.owned_by(session_id);
    if run.state != State::ImplementingLoop || !loop_state.active || !mine {
        return StopDecision::Ignore;
    }
    let idle = now - loop_state.last_activity();
    let limit =
        Duration::try_minutes(i64::try_from(config.stale_after_minutes).unwrap_or(i64::MAX)).unwrap_or(Duration::MAX);
    if idle > limit {
        return StopDecision::Expired {
            message: format!(
                "phasegate: the implementation loop of {feature} expired after {} minutes without activity, so this session is free to stop. Run /phasegate:pipeline to pick it up again.",
                idle.num_minutes()
            ),
        };
    }
    if background.iter().any(BackgroundTask::is_running_agent) {
        return StopDecision::Wait;
    }
    let mut open: Vec<String> = Vec::new();
    let gate = run.gate(GateKind::Code);
    if !gate.passed {
        let mut item = gate_missing(gate, GateKind::Code);
        if gate.fixing.is_some() {
            let fixed = Command::new("pipeline fixed").feature(&feature);
            item.push_str(&format!("; if its result has arrived, run `{fixed}`, else resume it with the findings"));
        }
        open.push(item);
    }
    let promised = last_message.contains(&loop_state.completion_promise);
    if !promised {
        open.push(format!(
            "your last message does not contain the completion promise {}; say it only when the work is done",
            loop_state.completion_promise
        ));
    }
    if open.is_empty() {
        match run_tests().problem() {
            None => {
                return StopDecision::Complete {
                    message: format!("phasegate: pipeline {feature} complete: all reviews approved, tests pass."),
                };
            }
            Some(problem) => open.push(problem),
        }
    }
    let cycle = Cycle::new(loop_state.iteration, loop_state.max_iterations);
    if cycle.is_exhausted() {
        return StopDecision::LimitReached {
            message: format!(
                "phasegate: the implementation loop of {feature} reached its limit of {} iterations without finishing; the pipeline waits for you (needs_user_input). Still open: {}. Run /phasegate:pipeline to decide how to go on.",
                cycle.max,
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
        cycle.next_attempt(),
        cycle.max
    );
    for item in &open {
        reason.push_str("- ");
        reason.push_str(item);
        reason.push('\n');
    }
    reason.push_str(&format!("Continue: `{pipeline_next}` prints the next step. End your message with the promise only when reviews are approved and the tests pass.", pipeline_next = Command::new("pipeline next").feature(&feature)));
    StopDecision::Block { reason }
}

/// Applies a decision to the run and the loop.
pub fn apply(
    decision: &StopDecision,
    run: &mut PipelineRun,
    loop_state: &mut LoopState,
    stop_hook_active: bool,
    now: DateTime<Utc>,
) {
    match decision {
        StopDecision::Ignore | StopDecision::Wait => {}
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
            // The decision was made above; the cycle only counts the attempt.
            let mut cycle = Cycle::new(loop_state.iteration, loop_state.max_iterations);
            let _decided_above = cycle.record(false);
            loop_state.iteration = cycle.attempts;
            loop_state.consecutive_blocks =
                if stop_hook_active { loop_state.consecutive_blocks.saturating_add(1) } else { 1 };
            loop_state.updated_at = Some(now);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::files::GateReviewStatus;
    use crate::pipeline::gate::Stage;
    use chrono::TimeZone;

    const PROMISE: &str = "<promise>DONE</promise>";

    fn t(m: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 22, 10, 0, 0).unwrap() + Duration::minutes(m)
    }

    fn looping_run() -> (PipelineRun, LoopState) {
        let mut run = PipelineRun::new("x".into(), Some("s1".into()), t(0));
        run.state = State::ImplementingLoop;
        run.code_review = crate::pipeline::gate::Gate::new();
        (run, LoopState::new(3, PROMISE.into(), Some("s1".into()), t(0)))
    }

    struct Stop<'a> {
        session: &'a str,
        active: bool,
        msg: &'a str,
        at: i64,
        background: &'a [BackgroundTask],
    }

    impl Default for Stop<'_> {
        fn default() -> Self {
            Stop { session: "s1", active: false, msg: "", at: 1, background: &[] }
        }
    }

    fn ctx<'a>(run: &'a PipelineRun, l: &'a LoopState, cfg: &'a StopHook, s: Stop<'a>) -> StopContext<'a> {
        StopContext {
            feature: "001-x",
            run,
            loop_state: l,
            config: cfg,
            session_id: s.session,
            stop_hook_active: s.active,
            last_message: s.msg,
            background: s.background,
            now: t(s.at),
        }
    }

    fn no_tests() -> TestOutcome {
        panic!("tests must not run")
    }

    fn approve(run: &mut PipelineRun) {
        for s in Stage::ALL {
            run.code_review.admit(s, "v", GateKind::Code).unwrap();
            run.code_review.record(s, GateReviewStatus::Approved, "v", 15, t(0)).unwrap();
        }
    }

    #[test]
    fn other_sessions_are_never_held() {
        let (run, l) = looping_run();
        let cfg = StopHook::default();
        let d = decide(&ctx(&run, &l, &cfg, Stop { session: "s2", ..Stop::default() }), no_tests);
        assert_eq!(d, StopDecision::Ignore);
    }

    #[test]
    fn unapproved_review_blocks_with_a_reason_naming_it() {
        let (mut run, mut l) = looping_run();
        let cfg = StopHook::default();
        run.code_review.admit(Stage::Sonnet, "v", GateKind::Code).unwrap();
        run.code_review.record(Stage::Sonnet, GateReviewStatus::Approved, "v", 15, t(0)).unwrap();
        let d = decide(&ctx(&run, &l, &cfg, Stop { msg: "working", ..Stop::default() }), no_tests);
        let StopDecision::Block { reason } = &d else { panic!("{d:?}") };
        assert!(reason.contains("round 1, the opus review is next"), "{reason}");
        assert!(reason.contains("completion promise <promise>DONE</promise>"), "{reason}");
        apply(&d, &mut run, &mut l, false, t(1));
        assert_eq!((l.iteration, l.consecutive_blocks), (1, 1));
    }

    /// Regression: while the implementer fixed review findings in the
    /// background, every stop of the waiting session was blocked and counted;
    /// a loop of 5 ran out with the implementer still working.
    #[test]
    fn waiting_for_a_background_worker_counts_nothing() {
        let (mut run, mut l) = looping_run();
        let cfg = StopHook::default();
        let worker = BackgroundTask {
            id: "a1".into(),
            kind: "subagent".into(),
            status: "running".into(),
            description: "fix findings".into(),
            agent_type: Some("phasegate:implementer".into()),
        };
        let shell = BackgroundTask { kind: "shell".into(), status: "running".into(), ..BackgroundTask::default() };
        let background = [worker.clone()];
        for _ in 0..10 {
            let d = decide(&ctx(&run, &l, &cfg, Stop { background: &background, ..Stop::default() }), no_tests);
            assert_eq!(d, StopDecision::Wait);
            apply(&d, &mut run, &mut l, false, t(1));
        }
        assert_eq!(l.iteration, 0);
        // A background shell is not a worker the session waits for.
        let shells = [shell];
        let d = decide(&ctx(&run, &l, &cfg, Stop { background: &shells, ..Stop::default() }), no_tests);
        assert!(matches!(d, StopDecision::Block { .. }), "{d:?}");
        let done = [BackgroundTask { status: "completed".into(), ..worker }];
        let d = decide(&ctx(&run, &l, &cfg, Stop { background: &done, ..Stop::default() }), no_tests);
        assert!(matches!(d, StopDecision::Block { .. }), "{d:?}");
    }

    #[test]
    fn approval_tests_and_promise_complete() {
        let (mut run, mut l) = looping_run();
        let cfg = StopHook::default();
        approve(&mut run);
        let failing = decide(&ctx(&run, &l, &cfg, Stop { msg: PROMISE, ..Stop::default() }), || TestOutcome::Failed {
            summary: "1 failed".into(),
        });
        assert!(
            matches!(&failing, StopDecision::Block { reason } if reason.contains("tests fail:\n1 failed")),
            "{failing:?}"
        );
        let msg = format!("all good {PROMISE}");
        let d = decide(&ctx(&run, &l, &cfg, Stop { msg: &msg, active: true, at: 2, ..Stop::default() }), || {
            TestOutcome::Passed
        });
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
        let d = decide(&ctx(&run, &l, &cfg, Stop::default()), no_tests);
        assert!(
            matches!(&d, StopDecision::LimitReached { message } if message.contains("limit of 3 iterations")),
            "{d:?}"
        );
        apply(&d, &mut run, &mut l, false, t(1));
        assert_eq!(run.state, State::NeedsUserInput);
        assert_eq!(run.paused.as_ref().unwrap().reason, PauseReason::LoopLimit);
        assert!(!l.active);
        // Once ended, the loop holds nobody.
        assert_eq!(decide(&ctx(&run, &l, &cfg, Stop { at: 2, ..Stop::default() }), no_tests), StopDecision::Ignore);
    }

    #[test]
    fn stale_loops_expire() {
        let (run, l) = looping_run();
        let cfg = StopHook { stale_after_minutes: 30, ..StopHook::default() };
        assert!(matches!(
            decide(&ctx(&run, &l, &cfg, Stop { at: 31, ..Stop::default() }), no_tests),
            StopDecision::Expired { .. }
        ));
    }

    /// Regression: a huge staleAfterMinutes that the schema allowed panicked
    /// inside the Stop hook, and u64::MAX read as "expired after 0 minutes".
    #[test]
    fn huge_stale_limits_never_overflow() {
        let (run, l) = looping_run();
        for minutes in [u64::MAX, i64::MAX as u64, 1 << 40] {
            let cfg = StopHook { stale_after_minutes: minutes, ..StopHook::default() };
            let d = decide(&ctx(&run, &l, &cfg, Stop { at: 100_000, ..Stop::default() }), no_tests);
            assert!(matches!(d, StopDecision::Block { .. }), "{minutes}: {d:?}");
        }
    }

    #[test]
    fn consecutive_blocks_yield_before_claude_codes_cap() {
        let (run, mut l) = looping_run();
        l.max_iterations = 100;
        let cfg = StopHook { max_consecutive_blocks: 2, ..StopHook::default() };
        l.consecutive_blocks = 2;
        let d = decide(&ctx(&run, &l, &cfg, Stop { active: true, ..Stop::default() }), no_tests);
        assert!(matches!(d, StopDecision::Yield { .. }), "{d:?}");
        // A new turn (stop_hook_active false) starts counting again.
        assert!(matches!(decide(&ctx(&run, &l, &cfg, Stop::default()), no_tests), StopDecision::Block { .. }));
    }
}
