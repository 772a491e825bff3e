//! Every command in commands/: invoked as `/phasegate:<name> <args>`, the
//! request carries its body with the arguments substituted and every `!`
//! injection's output in place.

use std::collections::BTreeMap;
use std::process::Command;

use phasegate_testkit::{MockApi, Scenario, Turn};

use crate::support::{Fixture, WORKFLOW_STATE, bin_dir, plugin_root, prompt_text};

/// The arguments each command is invoked with. A command file without an
/// entry here fails `every_command_has_a_scenario`.
pub const COMMAND_ARGS: &[(&str, &str)] = &[
    ("brainstorm", "a login page"),
    ("specify", "001-login"),
    ("design", "001-login"),
    ("create-plan", "login"),
    ("create-tasks", "1"),
    ("implement", ""),
    ("verify", "001-login"),
    ("finish", "001-login"),
    ("status", ""),
    ("pipeline", "Add a login page"),
    ("cancel-loop", ""),
    ("review-codex", ""),
    ("answer", "001-login.1 magic link"),
    ("auto", ""),
    ("pm", ""),
    ("retro", "001-login"),
];

pub fn command_files() -> BTreeMap<String, String> {
    let dir = plugin_root().join("commands");
    std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .collect()
}

#[test]
fn every_command_has_a_scenario() {
    let files = command_files();
    for name in files.keys() {
        assert!(
            COMMAND_ARGS.iter().any(|(n, _)| n == name),
            "commands/{name}.md has no scenario: add it to COMMAND_ARGS in tests/e2e/commands.rs"
        );
    }
    for (name, _) in COMMAND_ARGS {
        assert!(files.contains_key(*name), "COMMAND_ARGS names {name}, but commands/{name}.md does not exist");
    }
}

/// The body as Claude Code should send it: frontmatter removed, arguments
/// and the plugin root substituted, injections replaced by their output
/// (run as `session`, whose UserPromptSubmit hook kept the command's words).
fn expand(markdown: &str, args: &str, f: &Fixture, session: &str) -> String {
    let body = markdown.strip_prefix("---\n").and_then(|r| r.split_once("\n---\n")).map_or(markdown, |(_, b)| b);
    let body = body.replace("$ARGUMENTS", args).replace("${CLAUDE_PLUGIN_ROOT}", &plugin_root().display().to_string());
    let mut out = String::new();
    let mut rest = body.as_str();
    while let Some(start) = rest.find("!`") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let end = after.find('`').expect("unterminated injection");
        let cmd = &after[..end];
        let path = format!("{}:{}", bin_dir().display(), std::env::var("PATH").unwrap_or_default());
        let run = Command::new("sh")
            .arg("-c")
            .arg(cmd)
            .current_dir(&f.repo)
            .env("PATH", path)
            .env("CLAUDE_CODE_SESSION_ID", session)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "injection `{cmd}` fails outside Claude Code: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        out.push_str(String::from_utf8_lossy(&run.stdout).trim_end());
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

#[test]
fn every_command_expands_with_its_arguments_and_injections() {
    assert!(WORKFLOW_STATE.ends_with("workflow-state"));
    let files = command_files();
    for (name, args) in COMMAND_ARGS {
        let f = Fixture::repo();
        f.ws(&["feature", "new", "login"]);
        f.write("docs/features/001-login/spec.md", "# Spec\n");
        f.ws(&["phase", "start", "specify"]);
        let api = MockApi::start(Scenario::new().main(vec![Turn::text("noted")]));
        let prompt = if args.is_empty() { format!("/phasegate:{name}") } else { format!("/phasegate:{name} {args}") };
        let out = f.claude().prompt(&prompt).run(&api);
        assert!(out.success(), "{prompt}: {}", out.report());
        api.assert_finished();
        let sent = prompt_text(&api);
        assert!(sent.contains(&format!("<command-name>/phasegate:{name}</command-name>")), "{prompt}: {sent}");
        let session = out.session_id().expect("the run names its session");
        let expected = expand(&files[*name], args, &f, &session);
        assert!(
            sent.contains(expected.trim()),
            "{prompt}: the request does not carry the expanded body.\n--- expected\n{}\n--- sent\n{sent}",
            expected.trim()
        );
        assert!(!sent.contains("$ARGUMENTS") && !sent.contains("!`"), "{prompt}: unexpanded parts remain:\n{sent}");
    }
}
