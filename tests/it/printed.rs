//! Every command an output tells the model or the user to run runs as
//! printed, in a repository with several active features (the issue "A day
//! of real use stays quiet and true", bug 10): a walk through the commands
//! and hooks that print commands, each printed `workflow-state …` command
//! taken out of what was printed (text, JSON strings, hook context) and run
//! right there. A printed command may be refused by a workflow rule (exit
//! 1, the state moved on), but it is never a usage error, never asks which
//! feature is meant (exit 2), and always ends by itself.

use serde_json::{Value, json};

use crate::util::{Done, HOOK, Run, TestEnv, WORKFLOW_STATE};

/// The backtick spans of `text` that are `workflow-state` commands, whole:
/// templates (`<task>`, `…`, `a|b`) are left out, since they are filled in
/// by whoever reads them.
fn printed_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('`') else { break };
        let span = after[..close].trim();
        if span.starts_with("workflow-state ")
            && !span.contains('<')
            && !span.contains('…')
            && !span.split_whitespace().any(|w| w.contains('|'))
        {
            out.push(span.to_owned());
        }
        rest = &after[close + 1..];
    }
    out
}

/// Every string of a JSON value, or the text itself when it is not JSON.
fn texts(out: &str) -> Vec<String> {
    fn walk(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::String(s) => out.push(s.clone()),
            Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            Value::Object(o) => o.values().for_each(|x| walk(x, out)),
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }
    match serde_json::from_str::<Value>(out.trim()) {
        Ok(v) => {
            let mut all = Vec::new();
            walk(&v, &mut all);
            all
        }
        Err(_) => vec![out.to_owned()],
    }
}

/// A walk that runs what every step printed.
struct Walk {
    env: TestEnv,
    ran: Vec<String>,
}

impl Walk {
    /// Runs the commands `done` printed, in the project, with a shell (as
    /// the model's Bash tool does), in session `session` when given.
    fn follow(&mut self, done: &Done, session: Option<&str>) {
        let mut printed: Vec<String> = Vec::new();
        for t in texts(&done.stdout).iter().chain(texts(&done.stderr).iter()) {
            printed.extend(printed_in(t));
        }
        let bin = std::path::Path::new(WORKFLOW_STATE).parent().unwrap().display().to_string();
        let path = format!("{bin}:{}", std::env::var("PATH").unwrap_or_default());
        for command in printed {
            // A printed command must end by itself (the model waits for it):
            // one still running after 30 s is killed and fails the walk.
            let line = format!("exec {command}");
            let mut run =
                Run::new("timeout", &["-s", "KILL", "30", "sh", "-c", &line], self.env.root()).env("PATH", &path);
            if let Some(s) = session {
                run = run.env("CLAUDE_CODE_SESSION_ID", s);
            }
            let out = run.output();
            assert_ne!(out.code, Some(2), "printed by `{}`, it does not run as printed:\n{}", done.desc, out.report());
            assert!(out.code.is_some_and(|c| c < 124), "`{command}` did not end by itself:\n{}", out.report());
            assert!(
                !out.stderr.contains("several active features"),
                "`{command}` (printed by `{}`) does not say which feature:\n{}",
                done.desc,
                out.report()
            );
            self.ran.push(command);
        }
    }

    /// A step of the walk: whatever it answers (an error names a command
    /// too), what it printed runs.
    fn ws(&mut self, args: &[&str]) -> Done {
        let done = self.env.ws(args).output();
        self.follow(&done, None);
        done
    }

    fn hook(&mut self, event: &str, session: &str, input: Value) -> Done {
        let mut input = input;
        input["session_id"] = json!(session);
        input["cwd"] = json!(self.env.root());
        let done = Run::new(HOOK, &[event], self.env.root()).stdin(input.to_string()).ok();
        self.follow(&done, Some(session));
        done
    }
}

#[test]
fn printed_commands_ran_as_printed_with_several_active_features() {
    let env = TestEnv::new();
    let login = env.feature("login", "standard");
    let search = env.feature("search", "standard");
    env.feature("export", "quick");
    env.write(
        &format!("docs/features/{login}/tasks.md"),
        "- [ ] T1: Add the form [`files: src/form.rs`]\n\n## Docs (parallel)\n\n- [ ] T2: Guide [`files: docs/guide.md`]\n- [ ] T3: Reference [`files: docs/ref.md`]\n",
    );
    let log = |name: &str, text: &str| {
        let p = env.outer().join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    };
    let syntax = log("syntax.log", "src/form.ts(3,1): error TS1005: ';' expected.\n");
    let failed_test = log("test.log", "test result: FAILED. 3 passed; 1 failed\n");
    let mut w = Walk { env, ran: Vec::new() };

    // Tasks: a start, failures that retry, skip and say what is next.
    w.ws(&["tasks", "next", "--feature", &login]);
    w.ws(&["tasks", "start", "T1", "--feature", &login]);
    w.ws(&["tasks", "fail", "T1", "--feature", &login, "--output-file", &syntax]);
    // The printed retry started T1 again.
    w.ws(&["tasks", "fail", "T1", "--feature", &login, "--output-file", &failed_test, "--command", "cargo test"]);
    w.ws(&["tasks", "fail", "T1", "--feature", &login, "--output-file", &failed_test, "--command", "cargo test"]);
    w.ws(&["tasks", "next", "--feature", &login]);
    w.ws(&["tasks", "review", "T2", "--feature", &login]);

    // Ideation, to its rule met.
    w.ws(&["ideation", "start", "A habit tracker for night-shift nurses", "--feature", &search]);
    for (kind, summary) in
        [("target-user", "nurses"), ("problem", "rotating shifts"), ("solution-concept", "reminders")]
    {
        w.ws(&["ideation", "artifact", kind, summary, "--confidence", "0.8", "--feature", &search]);
    }

    // Phases, the next step, the overview.
    w.ws(&["phase", "start", "specify", "--feature", &search]);
    w.ws(&["phase", "complete", "specify", "--feature", &search]);
    w.ws(&["next", "--feature", &search]);
    w.ws(&["status"]);
    w.ws(&["review", "brief", "finish", "--feature", &login]);

    // Hooks of two sessions: the context, a deny, the events offered.
    w.hook("session-start", "sess-a", json!({"hook_event_name": "SessionStart", "source": "startup"}));
    w.hook("session-start", "sess-b", json!({"hook_event_name": "SessionStart", "source": "startup"}));
    let file = w.env.path("src/shared.rs").display().to_string();
    let edit = json!({"hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": {"file_path": file, "content": "x"}});
    w.hook("pre-tool-use", "sess-a", edit.clone());
    let denied = w.hook("pre-tool-use", "sess-b", edit);
    assert!(denied.stdout.contains("deny"), "{}", denied.report());
    w.hook("user-prompt-submit", "sess-b", json!({"hook_event_name": "UserPromptSubmit", "prompt": "go on"}));
    w.ws(&["events", "pending"]);

    let has = |prefix: &str| w.ran.iter().any(|c| c.starts_with(prefix));
    for prefix in [
        "workflow-state tasks start T1 --feature",
        "workflow-state tasks next --feature",
        "workflow-state ideation prompt --feature",
        "workflow-state lease release",
        "workflow-state finish --feature",
    ] {
        assert!(has(prefix), "no printed command starting with {prefix:?} was run; ran: {:#?}", w.ran);
    }
}
