//! The interruptions' part of the hooks: StopFailure records what was in
//! flight and when it may go on (and tells the user in one line);
//! SessionStart names every interruption still standing; a Stop (a turn
//! that ended well) ends this session's, and those whose time has come.
//! Nothing recorded: one folder lookup.

use crate::hook::{Contributor, HookCtx, MAX_LISTED, StopVote, one_line};

use super::{Failure, line, record, settle};

pub struct Interrupt;

pub static INTERRUPT: Interrupt = Interrupt;

impl Contributor for Interrupt {
    fn stop_failure(&self, ctx: &HookCtx<'_>) -> Vec<String> {
        let (Some(session), Ok(project)) = (ctx.session(), ctx.project()) else { return Vec::new() };
        let input = ctx.input;
        let said = input.error_details.as_deref().or(input.last_assistant_message.as_deref()).unwrap_or_default();
        let failure = Failure { session: &session, error: input.error.as_deref().unwrap_or("unknown"), said };
        match record(project, ctx.env, &failure) {
            Ok(Some(i)) => vec![format!("phasegate: {}", line(&i, ctx.env.now))],
            Ok(None) => Vec::new(),
            Err(e) => vec![format!("phasegate: the interruption was not recorded: {}", one_line(&e.to_string()))],
        }
    }

    fn session_start(&self, ctx: &HookCtx<'_>) -> Vec<String> {
        let Ok(project) = ctx.project() else { return Vec::new() };
        let store = project.interruptions();
        if ctx.compacted() || !store.any() {
            return Vec::new();
        }
        let me = ctx.session();
        store
            .all()
            .iter()
            .take(MAX_LISTED)
            .map(|i| {
                let whose = match &me {
                    Some(s) if s.as_str() == i.session => "this session".to_owned(),
                    _ => format!("session {}", i.short_session()),
                };
                format!("phasegate: {whose} was {}", line(i, ctx.env.now))
            })
            .collect()
    }

    fn stop(&self, ctx: &HookCtx<'_>) -> StopVote {
        if let (Some(session), Ok(project)) = (ctx.session(), ctx.project()) {
            settle(project, &session, ctx.env.now);
        }
        StopVote::Pass
    }
}
