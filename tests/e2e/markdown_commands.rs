//! Every shell command that a command, agent or skill file tells the model
//! to run (lines of ```bash blocks, `!` injections, and inline `workflow-state …`
//! and `git …` spans) is taken out of the Markdown and run through Claude
//! Code's Bash tool in a fixture repository, in the order of the file. Each
//! must succeed there: a command naming a missing subcommand or flag fails.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use phasegate_testkit::{MockApi, Scenario, ToolUse, Turn};
use walkdir::WalkDir;

use crate::support::{Fixture, plugin_root};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    Block,
    Injection,
    Inline,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snippet {
    pub kind: Kind,
    pub text: String,
}

/// The shell commands of one Markdown file, in order.
pub fn extract(markdown: &str) -> Vec<Snippet> {
    let body = match markdown.strip_prefix("---\n").and_then(|r| r.split_once("\n---\n")) {
        Some((_, b)) => b,
        None => markdown,
    };
    let mut out = Vec::new();
    let mut prose = String::new();
    let mut fence: Option<String> = None;
    for line in body.lines() {
        let trimmed = line.trim_start();
        match &fence {
            None if trimmed.starts_with("```") => {
                inline_spans(&prose, &mut out);
                prose.clear();
                fence = Some(trimmed.trim_start_matches('`').trim().to_owned());
            }
            None => {
                prose.push_str(line);
                prose.push('\n');
            }
            Some(_) if trimmed.starts_with("```") => fence = None,
            Some(info) if info == "bash" || info == "sh" => {
                if !trimmed.is_empty() && !trimmed.starts_with('#') {
                    out.push(Snippet { kind: Kind::Block, text: trimmed.to_owned() });
                }
            }
            Some(_) => {}
        }
    }
    assert!(fence.is_none(), "unterminated code block");
    inline_spans(&prose, &mut out);
    out
}

fn inline_spans(prose: &str, out: &mut Vec<Snippet>) {
    let bytes = prose.as_bytes();
    let mut i = 0;
    while let Some(open) = prose[i..].find('`').map(|o| o + i) {
        let Some(close) = prose[open + 1..].find('`').map(|c| c + open + 1) else { break };
        let text = prose[open + 1..close].split_whitespace().collect::<Vec<_>>().join(" ");
        let injected = open > 0 && bytes[open - 1] == b'!';
        if injected {
            out.push(Snippet { kind: Kind::Injection, text });
        } else if text.starts_with("workflow-state ") || text.starts_with("git ") {
            out.push(Snippet { kind: Kind::Inline, text });
        }
        i = close + 1;
    }
}

fn markdown_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = ["commands", "agents", "skills"]
        .iter()
        .flat_map(|d| WalkDir::new(plugin_root().join(d)).into_iter().map(|e| e.unwrap().into_path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    files.sort();
    files
}

/// The fixture a file's commands run in, and the values of its placeholders.
struct Setup {
    fixture: Fixture,
    values: BTreeMap<&'static str, String>,
}

/// Files about pipeline mode run in a pipeline fixture.
const PIPELINE_FILES: &[&str] = &[
    "commands/pipeline.md",
    "commands/cancel-loop.md",
    "commands/review-codex.md",
    "agents/requirements-gatherer.md",
    "agents/planner.md",
    "agents/plan-reviewer.md",
    "agents/implementer.md",
    "agents/code-reviewer.md",
];

fn setup(file: &Path) -> Setup {
    if PIPELINE_FILES.iter().any(|p| file.ends_with(p)) {
        let fixture = Fixture::repo();
        let feature = fixture.pipeline_at_final_gate("fixture-session", "echo 'All tests passed'", 3);
        let values = BTreeMap::from([
            ("feature", feature),
            ("slug", "extra".to_owned()),
            ("request", "Add a login page".to_owned()),
        ]);
        return Setup { fixture, values };
    }
    let fixture = Fixture::repo();
    let with_worktree = file.ends_with("commands/finish.md");
    let mut args = vec!["feature", "new", "login"];
    if with_worktree {
        args.push("--worktree");
    }
    fixture.ws(&args);
    let dir = fixture.path("docs/features/001-login");
    fixture.write("docs/features/001-login/spec.md", "# Spec\n");
    fixture.ws(&["phase", "complete", "specify"]);
    fixture.write(
        "docs/features/001-login/.verdict.json",
        r#"{"approved": false, "issues": [{"severity": "blocker", "description": "no interfaces", "location": "Components"}], "summary": "Close."}"#,
    );
    fixture.write("docs/features/001-login/.design-brief.md", "Design the login page.\n");
    fixture.write(
        "docs/features/001-login/.reply.md",
        "STATUS: QUESTION\nQUESTION: Password or magic link?\nCONTEXT: The spec names both.\n",
    );
    fixture
        .write("docs/features/001-login/tasks.md", "- [ ] T1: Add the login form\n  - Done when: form_test passes\n");
    if file.ends_with("commands/pm.md") {
        fixture.ws(&["events", "emit", "alert.stuck_task", "--feature", "001-login"]);
    }
    if file.ends_with("commands/answer.md") {
        fixture.write("question.json", r#"{"type": "blocking", "text": "Password or magic link?"}"#);
        fixture.ws(&["question", "ask", "--file", "question.json", "--headless", "--feature", "001-login"]);
    }
    let values = BTreeMap::from([
        ("phase", "design".to_owned()),
        ("reply-file", dir.join(".reply.md").display().to_string()),
        ("id", "001-login.1".to_owned()),
        ("task", "T1".to_owned()),
        ("reviewer", "phasegate:code-reviewer".to_owned()),
        ("reply", "magic link".to_owned()),
        ("answer", "Use a magic link.".to_owned()),
        ("feature", "001-login".to_owned()),
        ("feature-dir", dir.display().to_string()),
        ("slug", "extra".to_owned()),
        ("mode", "quick".to_owned()),
        ("what you changed", "Clarified the interfaces.".to_owned()),
        ("the user's words", "add search".to_owned()),
        ("verdict-file", dir.join(".verdict.json").display().to_string()),
        ("path", fixture.path(".worktrees/001-login").display().to_string()),
        ("idea", "A habit tracker for night-shift nurses".to_owned()),
        ("type", "target-user".to_owned()),
        ("summary", "night-shift nurses".to_owned()),
        ("confidence", "0.8".to_owned()),
        ("event", "e1".to_owned()),
        ("session", "fixture-session".to_owned()),
    ]);
    Setup { fixture, values }
}

fn substitute(text: &str, values: &BTreeMap<&'static str, String>, file: &Path) -> String {
    let re = regex::Regex::new(r"<([a-z][a-z' -]*)>").unwrap();
    re.replace_all(text, |c: &regex::Captures<'_>| {
        values.get(&c[1]).cloned().unwrap_or_else(|| {
            panic!(
                "{}: placeholder <{}> in `{text}` has no fixture value; add one in tests/e2e/markdown_commands.rs",
                file.display(),
                &c[1]
            )
        })
    })
    .into_owned()
}

const EXIT_MARK: &str = "phasegate-e2e-exit=";

#[test]
fn the_extractor_finds_blocks_injections_and_inline_commands() {
    let md = "---\ndescription: x\n---\nRun !`workflow-state status` then `workflow-state\nnext` and `git status`, not `ls`.\n\n```bash\n# comment\nworkflow-state phase start <phase>\n```\n```json\n{\"a\": 1}\n```\n";
    let got = extract(md);
    assert_eq!(
        got,
        vec![
            Snippet { kind: Kind::Injection, text: "workflow-state status".into() },
            Snippet { kind: Kind::Inline, text: "workflow-state next".into() },
            Snippet { kind: Kind::Inline, text: "git status".into() },
            Snippet { kind: Kind::Block, text: "workflow-state phase start <phase>".into() },
        ]
    );
    let phase_loop = std::fs::read_to_string(plugin_root().join("skills/workflow-state/phase-loop.md")).unwrap();
    let texts: Vec<String> = extract(&phase_loop).into_iter().map(|s| s.text).collect();
    for needle in ["workflow-state phase start", "workflow-state review brief", "workflow-state review record"] {
        assert!(texts.iter().any(|t| t.starts_with(needle)), "{needle} not found in {texts:?}");
    }
}

#[test]
fn every_markdown_shell_command_runs_through_claude_code() {
    let mut ran = 0;
    for file in markdown_files() {
        let markdown = std::fs::read_to_string(&file).unwrap();
        let snippets = extract(&markdown);
        if snippets.is_empty() {
            continue;
        }
        let setup = setup(&file);
        let commands: Vec<String> = snippets.iter().map(|s| substitute(&s.text, &setup.values, &file)).collect();
        let mut turns = Vec::new();
        for (i, cmd) in commands.iter().enumerate() {
            let turn = Turn::tools(vec![ToolUse::bash(format!("{cmd}; echo \"{EXIT_MARK}$?\""))]);
            turns.push(if i == 0 { turn } else { expect_success(turn, &commands[i - 1]) });
        }
        turns.push(expect_success(Turn::text("done"), commands.last().unwrap()));
        let api = MockApi::start(Scenario::new().main(turns));
        let out = setup.fixture.claude().prompt("run the documented commands").run(&api);
        assert!(out.success(), "{}: {}", file.display(), out.report());
        if !api.is_finished() {
            panic!("{}: a documented command failed in Claude Code's Bash tool\n{}", file.display(), api.report());
        }
        ran += commands.len();
    }
    assert!(ran >= 15, "only {ran} commands found in the Markdown; the extractor is broken");
}

fn expect_success(turn: Turn, previous: &str) -> Turn {
    let previous = previous.to_owned();
    turn.expect(move |req| {
        let results = req.tool_results();
        let text = results.first().map(|r| r.text.as_str()).unwrap_or("");
        if text.contains(&format!("{EXIT_MARK}0")) {
            Ok(())
        } else {
            Err(format!("`{previous}` did not exit 0; its output:\n{text}"))
        }
    })
}
