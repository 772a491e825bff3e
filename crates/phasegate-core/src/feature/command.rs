//! The phase commands (`commands/<phase>.md`), generated from
//! [`Phase::facts`] as ripgrep generates its man page from its flag
//! definitions: one template, the per-phase words from the one table of
//! phase facts. `workflow-state generate commands` writes them; a test
//! checks the files are what it writes.

use super::phase::Phase;

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

!`workflow-state phase brief {name}`

Run the `{name}` phase. The user's words: "$ARGUMENTS".

Read the phase loop, `${{CLAUDE_PLUGIN_ROOT}}/skills/workflow-state/phase-loop.md`,
and follow it with `<phase>` = `{name}` (its step 1 says what to do with the
user's words). Produce {produces} as
`${{CLAUDE_PLUGIN_ROOT}}/skills/workflow-state/phases/{name}.md` says. The
workflow-state CLI decides every transition, count and cap; do what it prints.
"#,
        summary = facts.summary,
        tools = allowed_tools(phase),
        produces = facts.produces,
    )
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
}
