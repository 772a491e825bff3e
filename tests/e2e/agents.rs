//! Every agent in agents/ resolves as `phasegate:<name>` through the Agent
//! tool, with the tools and model its frontmatter declares.

use std::collections::BTreeMap;

use phasegate_testkit::{MockApi, Scenario, ToolUse, Turn};

use crate::support::{Fixture, plugin_root};

/// Each agent and a sentence of its body that identifies its requests. An
/// agent file without an entry fails `every_agent_has_a_scenario`.
const AGENTS: &[(&str, &str)] = &[
    ("chain-reviewer", "You are phasegate's chain reviewer"),
    ("final-reviewer", "You are phasegate's final reviewer"),
    ("requirements-gatherer", "You are the requirements gatherer of a phasegate pipeline"),
    ("planner", "You are the planner of a phasegate pipeline"),
    ("plan-reviewer", "You are the plan reviewer of a phasegate pipeline"),
    ("implementer", "You are the implementer of a phasegate pipeline"),
    ("code-reviewer", "You are the code reviewer of a phasegate pipeline"),
    ("design-implementer", "You are a stateless implementer"),
    ("task-implementer", "You implement one task of a phasegate feature"),
    ("retrospective", "You are phasegate's retrospective"),
];

#[derive(serde::Deserialize)]
struct Frontmatter {
    name: String,
    description: String,
    tools: Option<String>,
    model: Option<String>,
}

fn agents() -> BTreeMap<String, Frontmatter> {
    std::fs::read_dir(plugin_root().join("agents"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let yaml = text.strip_prefix("---\n").and_then(|r| r.split_once("\n---\n")).map(|(y, _)| y).unwrap();
            let fm: Frontmatter = serde_yaml::from_str(yaml).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p.file_stem().unwrap().to_string_lossy().into_owned(), fm)
        })
        .collect()
}

#[test]
fn every_agent_has_a_scenario() {
    let files = agents();
    for (name, fm) in &files {
        assert_eq!(&fm.name, name, "agents/{name}.md: frontmatter name differs from the file name");
        assert!(fm.description.len() <= 200, "agents/{name}.md: keep the description short (it is always in context)");
        assert!(
            AGENTS.iter().any(|(n, _)| n == name),
            "agents/{name}.md has no scenario: add it to AGENTS in tests/e2e/agents.rs"
        );
    }
    for (name, _) in AGENTS {
        assert!(files.contains_key(*name), "AGENTS names {name}, but agents/{name}.md does not exist");
    }
}

#[test]
fn every_agent_resolves_with_its_tools_and_model() {
    let files = agents();
    for (name, marker) in AGENTS {
        let fm = &files[*name];
        let declared: Vec<String> = fm
            .tools
            .as_deref()
            .unwrap_or("")
            .split(',')
            .map(|t| t.trim().to_owned())
            .filter(|t| !t.is_empty())
            .collect();
        let model = fm.model.clone().unwrap_or_default();
        // The round loop's implementer is held to its STATUS protocol by the SubagentStop hook.
        let reply = if *name == "design-implementer" {
            format!("STATUS: COMPLETE\n---\n{name} reporting")
        } else {
            format!("{name} reporting")
        };
        let f = Fixture::repo();
        let api = MockApi::start(
            Scenario::new()
                .main(vec![
                    Turn::tools(vec![ToolUse::agent(format!("phasegate:{name}"), "Say who you are.")]),
                    // Claude Code indents a multi-line report: match its last line.
                    Turn::text("done").expect_tool_result_contains(reply.lines().last().unwrap()),
                ])
                .agent(
                    *marker,
                    vec![Turn::text(&reply).expect(move |req| {
                        let tools = req.tool_names();
                        if let Some(extra) = tools.iter().find(|t| !declared.contains(t)) {
                            return Err(format!("tool {extra} is not in the frontmatter's {declared:?}"));
                        }
                        let got = req.model().unwrap_or("");
                        if !model.is_empty() && model != "inherit" && !got.contains(&model) {
                            return Err(format!("model {got} does not match the frontmatter's {model}"));
                        }
                        Ok(())
                    })],
                ),
        );
        let out = f.claude().prompt("spawn the agent").run(&api);
        assert!(out.success(), "{name}: {}", out.report());
        api.assert_finished();
    }
}
