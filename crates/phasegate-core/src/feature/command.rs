//! The phase commands (`commands/<phase>.md`), generated from
//! [`Phase::facts`] as ripgrep generates its man page from its flag
//! definitions: one template, the per-phase words from the one table of
//! phase facts. `workflow-state generate commands` writes them; a test
//! checks the files are what it writes.

use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};

use super::phase::Phase;
use crate::names::Named;
use crate::words::{BINARY, Command};

/// The tools a phase command may use: a phase whose result is code runs
/// the project's commands (tests, builds) with any Bash.
fn allowed_tools(phase: Phase) -> &'static str {
    match phase.facts().reviews_code {
        true => "Bash, Read, Write, Edit, Glob, Grep, Agent",
        false => "Bash(workflow-state:*), Bash(git -C:*), Read, Write, Edit, Glob, Grep, Agent",
    }
}

/// The phases that have a command of this template (finish has its own).
pub fn phases() -> impl Iterator<Item = Phase> {
    Phase::ALL.iter().copied().filter(|p| *p != Phase::Finish)
}

/// `commands/<phase>.md`, whole.
pub fn render(phase: Phase) -> String {
    let facts = phase.facts();
    let name = phase.name();
    format!(
        r#"---
description: {summary}
argument-hint: "[feature or words]"
allowed-tools: {tools}
disable-model-invocation: true
---
# phasegate: {name}

!`{brief}`

Run the `{name}` phase. The user's words: "$ARGUMENTS".

Read the phase loop, `${{CLAUDE_PLUGIN_ROOT}}/skills/workflow-state/phase-loop.md`,
and follow it with `<phase>` = `{name}` (its step 1 says what to do with the
user's words). Produce {produces} as
`${{CLAUDE_PLUGIN_ROOT}}/skills/workflow-state/phases/{name}.md` says. The
{binary} CLI decides every transition, count and cap; do what it prints.
"#,
        brief = Command::new("phase brief").arg(&name),
        binary = BINARY,
        summary = facts.summary,
        tools = allowed_tools(phase),
        produces = facts.produces,
    )
}

/// The words a person typed with a phasegate command (`/phasegate:design
/// add search`, `/phasegate:answer 001-a.2 yes`), as the UserPromptSubmit
/// hook saw them before Claude Code ran the command's `!` injection: a
/// phase's `phase brief` reads them there, so the words never pass through
/// a shell line (Claude Code splices `$ARGUMENTS` into it as raw text: a
/// quote breaks it, a backtick runs); `question answer` reads them to know
/// that a person typed the answer it records.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromptWords {
    /// The command: a phase's name (`finish` too) or `answer`.
    pub command: String,
    /// What followed the command, trimmed; empty when nothing did.
    pub words: String,
    pub at: DateTime<Utc>,
}

/// The command whose words are kept besides the phases'.
pub(crate) const ANSWER_COMMAND: &str = "answer";

/// How long after its prompt the command's brief may take the words: the
/// injection runs right after the hook, so a minute is generous, and words
/// typed with an earlier command never reach a later one.
pub const PROMPT_WORDS_FRESH: TimeDelta = TimeDelta::minutes(1);

/// How long an answer typed with `/phasegate:answer` vouches for the
/// `question answer` that records it.
pub const TYPED_ANSWER_FRESH: TimeDelta = TimeDelta::minutes(10);

impl PromptWords {
    /// The command a prompt invokes and its words: `/phasegate:<phase>`
    /// (or `finish`, or `answer`), then whitespace or the end.
    pub fn of_prompt(prompt: &str, at: DateTime<Utc>) -> Option<PromptWords> {
        let rest = prompt.trim_start().strip_prefix("/phasegate:")?;
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let name = &rest[..end];
        if name != ANSWER_COMMAND && Phase::parse_name(name).is_err() {
            return None;
        }
        Some(PromptWords { command: name.to_owned(), words: rest[end..].trim().to_owned(), at })
    }

    /// [`PromptWords::of_prompt`] of a prompt as Claude Code's transcript
    /// records it: a slash command is kept as
    /// `<command-name>/x</command-name>` and `<command-args>…</command-args>`.
    pub fn of_recorded_prompt(content: &str, at: DateTime<Utc>) -> Option<PromptWords> {
        let tag = |name: &str| {
            let open = format!("<{name}>");
            let start = content.find(&open)? + open.len();
            let end = content[start..].find(&format!("</{name}>"))? + start;
            Some(&content[start..end])
        };
        match tag("command-name") {
            Some(command) => Self::of_prompt(&format!("{} {}", command.trim(), tag("command-args").unwrap_or("")), at),
            None => Self::of_prompt(content, at),
        }
    }

    /// The words for `phase`'s brief at `now`: typed with that phase's
    /// command within [`PROMPT_WORDS_FRESH`], and not empty.
    pub fn for_brief(&self, phase: Phase, now: DateTime<Utc>) -> Option<&str> {
        let fresh = now.signed_duration_since(self.at) <= PROMPT_WORDS_FRESH;
        (self.command == phase.name() && fresh && !self.words.is_empty()).then_some(self.words.as_str())
    }

    /// Whether the person typed `/phasegate:answer <id or item> <answer>`
    /// within [`TYPED_ANSWER_FRESH`] of `now`, naming `id` (or `item`, the
    /// feature it is about) and `answer` (compared as `norm` does).
    pub fn typed_answer(&self, id: &str, item: &str, answer: &str, now: DateTime<Utc>) -> bool {
        let fresh = now.signed_duration_since(self.at) <= TYPED_ANSWER_FRESH;
        let Some((named, said)) = self.words.split_once(char::is_whitespace) else { return false };
        let norm = |s: &str| crate::slug::norm(s.trim().trim_matches(['"', '\'']));
        self.command == ANSWER_COMMAND && fresh && (named == id || named == item) && norm(said) == norm(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_phase_with_a_reviewer_but_finish_has_a_command() {
        let listed: Vec<&str> = phases().map(|p| p.name()).collect();
        assert_eq!(listed, ["brainstorm", "specify", "design", "create-plan", "create-tasks", "implement", "verify"]);
        let design = render(Phase::Design);
        assert!(design.starts_with("---\ndescription: Write design.md"), "{design}");
        assert!(design.contains("Produce design.md as\n") && design.contains("phases/design.md` says"), "{design}");
        assert!(render(Phase::Implement).contains("allowed-tools: Bash, Read"));
    }

    #[test]
    fn the_words_of_a_phase_command_are_read_from_its_prompt() {
        let t = |s: i64| DateTime::from_timestamp(1_800_000_000 + s, 0).unwrap();
        let w = PromptWords::of_prompt("/phasegate:design add \"search\" `now`", t(0)).unwrap();
        assert_eq!((w.command.as_str(), w.words.as_str()), ("design", "add \"search\" `now`"));
        assert_eq!(w.for_brief(Phase::Design, t(30)), Some("add \"search\" `now`"));
        assert_eq!(w.for_brief(Phase::Design, t(61)), None, "stale words reach no later command");
        assert_eq!(w.for_brief(Phase::Specify, t(1)), None, "another phase's command");
        let bare = PromptWords::of_prompt("  /phasegate:finish", t(0)).unwrap();
        assert_eq!((bare.command.as_str(), bare.for_brief(Phase::Finish, t(0))), ("finish", None));
        for not in ["/phasegate:status x", "/phasegate:designer x", "please /phasegate:design x", "/other:design"] {
            assert_eq!(PromptWords::of_prompt(not, t(0)), None, "{not}");
        }
    }

    #[test]
    fn an_answer_typed_with_the_answer_command_vouches_for_its_recording() {
        let t = |s: i64| DateTime::from_timestamp(1_800_000_000 + s, 0).unwrap();
        let w = PromptWords::of_prompt("/phasegate:answer 001-a.3 Yes", t(0)).unwrap();
        assert!(w.typed_answer("001-a.3", "001-a", "yes", t(60)));
        assert!(w.typed_answer("001-a.3", "001-a", "\"Yes.\"", t(60)));
        assert!(!w.typed_answer("001-a.3", "001-a", "No", t(60)), "another answer");
        assert!(!w.typed_answer("001-a.4", "002-b", "Yes", t(60)), "another question");
        assert!(!w.typed_answer("001-a.3", "001-a", "Yes", t(601)), "stale");
        let recorded = "<command-message>phasegate:answer</command-message>\n<command-name>/phasegate:answer</command-name>\n<command-args>001-a.3 Yes</command-args>";
        assert!(PromptWords::of_recorded_prompt(recorded, t(0)).unwrap().typed_answer("001-a.3", "001-a", "yes", t(1)));
        assert!(PromptWords::of_recorded_prompt("/phasegate:answer 001-a.3 Yes", t(0)).is_some());
        assert_eq!(PromptWords::of_recorded_prompt("<command-name>/phasegate:status</command-name>", t(0)), None);
        let by_item = PromptWords::of_prompt("/phasegate:answer 001-a yes", t(0)).unwrap();
        assert!(by_item.typed_answer("001-a.3", "001-a", "yes", t(1)));
        assert!(w.for_brief(Phase::Design, t(1)).is_none());
    }
}
