//! Every shell command that a command, agent or skill file tells the model
//! to run (lines of ```bash blocks, `!` injections, and inline `workflow-state …`
//! and `git …` spans) is taken out of the Markdown and run through Claude
//! Code's Bash tool in a fixture repository, in the order of the file. Each
//! must succeed there: a command naming a missing subcommand or flag fails.
//! A command is spelled in full (`workflow-state tasks merge <task>`, never
//! `tasks merge <task>`), so that it runs here.

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
    for (injected, text) in spans(prose) {
        if injected {
            out.push(Snippet { kind: Kind::Injection, text });
        } else if text.starts_with("workflow-state ") || text.starts_with("git ") {
            out.push(Snippet { kind: Kind::Inline, text });
        }
    }
}

/// Every backtick span of `prose` (whitespace collapsed), and whether a `!`
/// injects it.
fn spans(prose: &str) -> Vec<(bool, String)> {
    let bytes = prose.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(open) = prose[i..].find('`').map(|o| o + i) {
        let Some(close) = prose[open + 1..].find('`').map(|c| c + open + 1) else { break };
        let text = prose[open + 1..close].split_whitespace().collect::<Vec<_>>().join(" ");
        out.push((open > 0 && bytes[open - 1] == b'!', text));
        i = close + 1;
    }
    out
}

/// The prose of a Markdown file: everything outside its code blocks.
fn prose(markdown: &str) -> String {
    let mut fence = false;
    let mut out = String::new();
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
        } else if !fence {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// The subcommands `workflow-state --help` lists.
fn subcommands() -> Vec<String> {
    let out = std::process::Command::new(crate::support::WORKFLOW_STATE).arg("--help").output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let list = help.split_once("Commands:\n").expect("--help lists its commands").1;
    let names: Vec<String> = list
        .lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "help")
        .map(str::to_owned)
        .collect();
    assert!(names.len() >= 10 && names.iter().any(|n| n == "tasks"), "no subcommands read from --help:\n{help}");
    names
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
    // The verify guide waives a requirement no check names: hotfix lets the
    // feature be proven without it.
    let verify_guide = file.ends_with("phases/verify.md");
    let mut args = vec!["feature", "new", "login"];
    if with_worktree {
        args.push("--worktree");
    }
    if verify_guide {
        args.extend(["--mode", "hotfix"]);
    }
    fixture.ws(&args);
    let dir = fixture.path("docs/features/001-login");
    fixture.write(
        "docs/features/001-login/spec.md",
        "# Spec\n\n## Requirements\n\n- **R1**: Users log in with a password\n- **R2**: Users log out\n",
    );
    fixture.ws(&["phase", "complete", "specify"]);
    fixture.write("docs/features/001-login/.design-brief.md", "Design the login page.\n");
    fixture.write(
        "docs/features/001-login/.reply.md",
        "STATUS: QUESTION\nQUESTION: Password or magic link?\nCONTEXT: The spec names both.\n",
    );
    fixture.write(
        "docs/features/001-login/tasks.md",
        &format!(
            "- [ ] T1: Add the login form\n  - Done when: form_test passes\n\n## Docs (parallel)\n\n- [ ] T2: Write the guide [`files: docs/guide.md`]\n- [ ] T3: Write the reference [`files: docs/reference.md`]\n\n## Checks\n\n- R1: `true`\n{}",
            if verify_guide { "" } else { "- R2: `true`\n" }
        ),
    );
    fixture.write(
        "docs/features/001-login/.question.json",
        r#"{"type": "blocking", "text": "Password or magic link?", "options": [{"label": "Password"}, {"label": "Magic link"}]}"#,
    );
    fixture.write("validation.log", "SyntaxError: unexpected token in src/form.rs\n");
    // The session commits (the phase loop's Commits section).
    for (key, value) in [("user.name", "phasegate e2e"), ("user.email", "e2e@example.com")] {
        let ok = std::process::Command::new("git").args(["config", key, value]).current_dir(&fixture.repo).status();
        assert!(ok.unwrap().success(), "git config {key}");
    }
    // The feature is proven at this tree (finish needs it; the skill reads it).
    fixture.ws(&["verify", "run", "--feature", "001-login"]);
    if file.ends_with("commands/pm.md") {
        fixture.ws(&["events", "emit", "alert.stuck_task", "--feature", "001-login"]);
    }
    if file.ends_with("commands/answer.md") || file.ends_with("commands/pm.md") {
        fixture.write("question.json", r#"{"type": "blocking", "text": "Password or magic link?"}"#);
        fixture.ws(&["question", "ask", "--file", "question.json", "--headless", "--feature", "001-login"]);
    }
    let mut values = BTreeMap::from([
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
        ("path", fixture.path(".worktrees/001-login").display().to_string()),
        ("output-file", fixture.path("validation.log").display().to_string()),
        ("validation command", "cargo test".to_owned()),
        ("working tree", fixture.repo.display().to_string()),
        ("file", "db/migrations/001.sql".to_owned()),
        (
            "text",
            "Wrap each migration's DDL in one transaction or a failed step leaves half a schema behind".to_owned(),
        ),
        ("failure output", "ERROR: relation users already exists".to_owned()),
        ("idea", "A habit tracker for night-shift nurses".to_owned()),
        ("type", "target-user".to_owned()),
        ("summary", "night-shift nurses".to_owned()),
        ("confidence", "0.8".to_owned()),
        ("event", "e1".to_owned()),
        ("session", "fixture-session".to_owned()),
        ("requirement", "R2".to_owned()),
        ("why it cannot be proven", "a person checks the logout page by hand".to_owned()),
    ]);
    if file.ends_with("commands/retro.md") {
        // The agent's reply, and a lesson seen in three features at 0.9:
        // ready for CLAUDE.md once the user says yes.
        fixture.write("docs/features/001-login/.retro.reply.md", r#"{"summary": "Nothing to learn."}"#);
        let mut item = String::new();
        for f in ["001-login", "002-search", "003-export"] {
            let out = fixture.ws(&[
                "kb",
                "record",
                "--type",
                "gotcha",
                "--pattern",
                "*.sql",
                "--confidence",
                "0.9",
                "--task",
                "T1",
                "--feature",
                f,
                "--evidence",
                &format!("the migration hung in {f}"),
                "--json",
                "--content",
                "Close the pool in each migration's down step, or the next up step hangs forever",
            ]);
            item = serde_json::from_str::<serde_json::Value>(&out).unwrap()["id"].as_str().unwrap().to_owned();
        }
        values.insert("item", item);
        values.insert("question id", "001-login.1".to_owned());
        values.insert("answer", "Yes".to_owned());
    }
    Setup { fixture, values }
}

/// What happens between two documented commands of a file in a real session
/// (the session retrying a task, a delegate committing, a reviewer spawned,
/// a person answering), so that the next command finds the state it is
/// written for: before the first command that starts with `before`, `run`
/// runs in the session, the session spawns `spawn` (an agent, with the
/// prompt its brief printed) and a person runs `person` in a terminal of
/// their own, outside Claude Code (placeholders substituted); from then on
/// the placeholders in `set` take new values.
struct Between {
    file: &'static str,
    before: &'static str,
    run: Option<&'static str>,
    set: &'static [(&'static str, &'static str)],
    spawn: Option<&'static str>,
    person: Option<&'static str>,
}

impl Between {
    const fn run(file: &'static str, before: &'static str, run: Option<&'static str>) -> Between {
        Between { file, before, run, set: &[], spawn: None, person: None }
    }
}

/// The agents the Markdown spawns: their type, the start of their system
/// prompt, and what each answers.
const AGENTS: &[(&str, &str, &str)] = &[
    (
        "phasegate:chain-reviewer",
        "You are phasegate's chain reviewer",
        r#"{"approved": false, "issues": [{"severity": "blocker", "description": "no interfaces", "location": "Components"}], "summary": "Close."}"#,
    ),
    (
        "phasegate:code-reviewer",
        "You are the code reviewer of a phasegate pipeline",
        "NEEDS REVISION\nThe form has no test.",
    ),
];

/// `line` (a `workflow-state` command) run by a person in a terminal of
/// their own, outside Claude Code, with the fixture's HOME (its key).
fn in_a_terminal(home: &Path, repo: &Path, line: &str) {
    let line = line.replacen("workflow-state", crate::support::WORKFLOW_STATE, 1);
    let out = std::process::Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .current_dir(repo)
        .env("HOME", home)
        .env_remove("XDG_STATE_HOME")
        .env_remove("CLAUDECODE")
        .env_remove("CLAUDE_CODE_ENTRYPOINT")
        .env_remove("CLAUDE_CODE_SESSION_ID")
        .env("PHASEGATE_TEST_OUTSIDE_CLAUDE_CODE", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "a person's `{line}`: {}", String::from_utf8_lossy(&out.stdout));
}

const BETWEEN: &[Between] = &[
    // The reviewer the brief names answers (its reply is read from Claude
    // Code's transcript, never passed).
    Between {
        spawn: Some("phasegate:chain-reviewer"),
        ..Between::run("skills/workflow-state/phase-loop.md", "workflow-state review record", None)
    },
    Between {
        spawn: Some("phasegate:code-reviewer"),
        ..Between::run(
            "skills/workflow-state/phases/implement.md",
            "workflow-state tasks record <task> --feature",
            None,
        )
    },
    // The person says yes to the promotion, in a terminal of their own
    // (the model's Bash tool may not answer a question only a person may).
    Between {
        person: Some("workflow-state question answer <question id> Yes"),
        ..Between::run("commands/retro.md", "workflow-state kb promote <item> --feature <feature> --json", None)
    },
    // `tasks fail` decided RETRY: the session starts the task again.
    Between {
        file: "skills/workflow-state/phases/implement.md",
        before: "workflow-state tasks complete",
        run: Some("workflow-state tasks start <task> --feature <feature>"),
        set: &[],
        spawn: None,
        person: None,
    },
    // The reviewer was asked long ago: its deadline has passed.
    Between {
        file: "skills/workflow-state/phases/implement.md",
        before: "workflow-state tasks record <task> --timed-out",
        run: Some(
            "sed -E 's/\"asked_at\": *\"[^\"]*\"/\"asked_at\": \"2000-01-01T00:00:00Z\"/' <feature-dir>/.review-cycles.json > <feature-dir>/.review-cycles.tmp && mv <feature-dir>/.review-cycles.tmp <feature-dir>/.review-cycles.json",
        ),
        set: &[],
        spawn: None,
        person: None,
    },
    // The batch: T2 and T3 of the parallel heading.
    Between {
        file: "skills/workflow-state/phases/implement.md",
        before: "workflow-state tasks next --parallel",
        run: None,
        set: &[("task", "T2")],
        spawn: None,
        person: None,
    },
    // The delegate committed in its worktree.
    Between {
        file: "skills/workflow-state/phases/implement.md",
        before: "workflow-state tasks merge",
        run: Some("git -C .worktrees/001-login--t2 commit --allow-empty -q -m 'T2: Write the guide'"),
        set: &[],
        spawn: None,
        person: None,
    },
];

/// One step of a session that runs a file's commands.
#[derive(Debug, Clone, PartialEq)]
enum Step {
    /// A command in the session's Bash tool.
    Run(String),
    /// An agent spawned with the prompt its brief printed.
    Spawn(&'static str),
    /// A command a person runs in a terminal of their own meanwhile.
    Person(String),
}

/// The steps to run for a file: its snippets, with the steps between
/// them, placeholders substituted.
fn commands(file: &Path, snippets: &[Snippet], values: &BTreeMap<&'static str, String>) -> Vec<Step> {
    let mut values = values.clone();
    let mut pending: Vec<&Between> = BETWEEN.iter().filter(|b| file.ends_with(b.file)).collect();
    let mut out = Vec::new();
    for snippet in snippets {
        while let Some(i) = pending.iter().position(|b| snippet.text.starts_with(b.before)) {
            let b = pending.remove(i);
            if let Some(run) = b.run {
                out.push(Step::Run(substitute(run, &values, file)));
            }
            if let Some(agent) = b.spawn {
                out.push(Step::Spawn(agent));
            }
            if let Some(person) = b.person {
                out.push(Step::Person(substitute(person, &values, file)));
            }
            for (key, value) in b.set {
                values.insert(key, (*value).to_owned());
            }
        }
        out.push(Step::Run(substitute(&snippet.text, &values, file)));
    }
    assert!(
        pending.is_empty(),
        "{}: no command starts with {:?}; update BETWEEN in tests/e2e/markdown_commands.rs",
        file.display(),
        pending.iter().map(|b| b.before).collect::<Vec<_>>()
    );
    out
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

/// Regression: phases/implement.md said `tasks next --parallel`, `tasks merge
/// <task>`, `tasks record <task> --timed-out`: short forms this test never
/// ran. A span that starts with a subcommand of `workflow-state` and goes on
/// is a command and is spelled in full.
#[test]
fn no_command_is_written_without_workflow_state() {
    let subcommands = subcommands();
    let mut short = Vec::new();
    for file in markdown_files() {
        let markdown = std::fs::read_to_string(&file).unwrap();
        let mut texts: Vec<String> = spans(&prose(&markdown)).into_iter().map(|(_, t)| t).collect();
        texts.extend(extract(&markdown).into_iter().filter(|s| s.kind == Kind::Block).map(|s| s.text));
        for text in texts {
            let mut words = text.split(' ');
            let first = words.next().unwrap_or_default();
            if subcommands.iter().any(|c| c == first) && words.next().is_some() {
                short.push(format!("{}: `{text}`", file.strip_prefix(plugin_root()).unwrap().display()));
            }
        }
    }
    assert!(short.is_empty(), "write these as `workflow-state …` so that they run in this test:\n{}", short.join("\n"));
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
        let steps = commands(&file, &snippets, &setup.values);
        let mut turns: Vec<Turn> = Vec::new();
        let mut previous: Option<String> = None;
        let mut meanwhile: Vec<String> = Vec::new();
        for step in &steps {
            let turn = match step {
                Step::Person(cmd) => {
                    meanwhile.push(cmd.clone());
                    continue;
                }
                Step::Run(cmd) => Turn::tools(vec![ToolUse::bash(format!("{cmd}; echo \"{EXIT_MARK}$?\""))]),
                Step::Spawn(agent) => Turn::tools(vec![ToolUse::agent_briefed_before(*agent, Some(EXIT_MARK))]),
            };
            let mut turn = match &previous {
                Some(p) => expect_success(turn, p),
                None => turn,
            };
            for cmd in meanwhile.drain(..) {
                let home = setup.fixture.home.clone();
                let repo = setup.fixture.repo.clone();
                turn = turn.meanwhile(move || in_a_terminal(&home, &repo, &cmd));
            }
            previous = match step {
                Step::Run(cmd) => Some(cmd.clone()),
                Step::Spawn(_) | Step::Person(_) => None,
            };
            turns.push(turn);
        }
        let last = Turn::text("done");
        turns.push(match &previous {
            Some(p) => expect_success(last, p),
            None => last,
        });
        let mut scenario = Scenario::new().main(turns);
        for (agent, marker, reply) in AGENTS {
            let spawned = steps.iter().filter(|s| **s == Step::Spawn(agent)).count();
            if spawned > 0 {
                scenario = scenario.agent(*marker, (0..spawned).map(|_| Turn::text(*reply)).collect());
            }
        }
        let api = MockApi::start(scenario);
        let out = setup.fixture.claude().prompt("run the documented commands").run(&api);
        assert!(out.success(), "{}: {}", file.display(), out.report());
        if !api.is_finished() {
            panic!("{}: a documented command failed in Claude Code's Bash tool\n{}", file.display(), api.report());
        }
        ran += steps.iter().filter(|s| matches!(s, Step::Run(_))).count();
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
