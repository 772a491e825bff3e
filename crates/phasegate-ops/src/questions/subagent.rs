//! SubagentStop: the implementer of the round loop must answer in the
//! STATUS protocol (seed 000, Design Decision 1). A reply that breaks it is
//! sent back once with the format; the second stop is let through whatever
//! it says (`stop_hook_active`), so the hook can never loop, and
//! `rounds record` refuses what is still malformed.

use phasegate_core::agent::Agent;
use phasegate_core::questions::parse_reply;

use crate::hook::HookInput;

/// The agents held to the protocol (by `agent_type`; a plugin's agents are
/// named `<plugin>:<agent>`).
const PROTOCOL_AGENTS: &[Agent] = &[Agent::DesignImplementer];

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubagentOutcome {
    Silent,
    /// Send the reply back: the sub-agent continues with the reason.
    Block {
        reason: String,
    },
}

pub fn subagent_stop(input: &HookInput) -> SubagentOutcome {
    let Some(agent) = input.agent_type.as_deref() else { return SubagentOutcome::Silent };
    let name = agent.rsplit(':').next().unwrap_or(agent);
    let held = name.parse::<Agent>().is_ok_and(|a| PROTOCOL_AGENTS.contains(&a));
    if !held || input.stop_hook_active {
        return SubagentOutcome::Silent;
    }
    let Some(last) = input.last_assistant_message.as_deref() else { return SubagentOutcome::Silent };
    match parse_reply(last) {
        Ok(_) => SubagentOutcome::Silent,
        Err(e) => SubagentOutcome::Block {
            reason: format!("phasegate: {e}\nAnswer again now, in that format, with the complete content."),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(agent: &str, active: bool, last: &str) -> HookInput {
        HookInput {
            agent_type: Some(agent.into()),
            stop_hook_active: active,
            last_assistant_message: Some(last.into()),
            ..HookInput::default()
        }
    }

    #[test]
    fn a_malformed_implementer_reply_is_sent_back_once() {
        let bad = "Here is the design: …";
        assert!(matches!(
            subagent_stop(&input("phasegate:design-implementer", false, bad)),
            SubagentOutcome::Block { reason } if reason.contains("STATUS: COMPLETE\n---")
        ));
        // Bounded: the second stop goes through.
        assert_eq!(subagent_stop(&input("phasegate:design-implementer", true, bad)), SubagentOutcome::Silent);
        assert_eq!(
            subagent_stop(&input("phasegate:design-implementer", false, "STATUS: COMPLETE\n---\n# D\n")),
            SubagentOutcome::Silent
        );
        // Other agents are not held to it.
        assert_eq!(subagent_stop(&input("phasegate:chain-reviewer", false, bad)), SubagentOutcome::Silent);
        assert_eq!(subagent_stop(&HookInput::default()), SubagentOutcome::Silent);
    }
}
