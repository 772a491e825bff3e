//! The plugin's always-on cost: what loading phasegate adds to the first
//! request of a session, measured on the requests Claude Code really sends
//! (the same session with and without the plugin). Budget: 1,200 bytes.

use phasegate_testkit::{ClaudeCode, MockApi, Scenario, Turn};

use crate::support::{Fixture, bin_dir, plugin_root};

const BUDGET: usize = 1_200;

fn first_request(f: &Fixture, with_plugin: bool) -> serde_json::Value {
    let api = MockApi::start(Scenario::new().main(vec![Turn::text("ok")]));
    let mut claude =
        ClaudeCode::new().home(&f.home).cwd(&f.repo).env("PHASEGATE_BIN_DIR", bin_dir()).allowed_tools("Bash,Read");
    if with_plugin {
        claude = claude.plugin_dir(plugin_root());
    }
    let out = claude.prompt("hello").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let mut body = api.requests_for_main().into_iter().next().expect("no request").body;
    // What differs from run to run whatever the plugin: the ids.
    body.as_object_mut().unwrap().remove("metadata");
    body
}

/// The texts of a request, one per line, to show what the plugin added.
fn lines(body: &serde_json::Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut walk = vec![body];
    while let Some(v) = walk.pop() {
        match v {
            serde_json::Value::String(s) => out.extend(s.lines().map(str::to_owned)),
            serde_json::Value::Array(a) => walk.extend(a.iter()),
            serde_json::Value::Object(o) => walk.extend(o.values()),
            _ => {}
        }
    }
    out
}

/// What the plugin adds to the first request in `f`: bytes, and its new lines.
fn added(f: &Fixture) -> (usize, String) {
    let without = first_request(f, false);
    let with = first_request(f, true);
    let added = with.to_string().len().saturating_sub(without.to_string().len());
    let before: std::collections::HashSet<String> = lines(&without).into_iter().collect();
    let new_lines: Vec<String> = lines(&with).into_iter().filter(|l| !before.contains(l)).collect();
    let report = new_lines.join("\n");
    assert!(
        new_lines.iter().any(|l| l.contains("phasegate:workflow-state")),
        "the plugin's skill is not listed: the measurement would be vacuous\n{report}"
    );
    (added, report)
}

/// Measured with no feature, and with one active feature (the SessionStart
/// context names it); the README's "Context cost" gives both figures.
#[test]
#[allow(clippy::print_stderr, reason = "the measured figures belong in the test output")]
fn the_plugin_adds_at_most_1200_bytes_to_a_sessions_first_request() {
    let f = Fixture::repo();
    let (none, report) = added(&f);
    eprintln!("with no feature, the plugin adds {none} bytes to the first request; its new lines:\n{report}");
    assert!(none <= BUDGET, "with no feature, the plugin adds {none} bytes (budget {BUDGET}):\n{report}");
    f.ws(&["feature", "new", "login"]);
    let (one, report) = added(&f);
    eprintln!("with one feature, the plugin adds {one} bytes to the first request; its new lines:\n{report}");
    assert!(one > none, "the feature is not in the session's context: the measurement would be vacuous\n{report}");
    assert!(one <= BUDGET, "with one feature, the plugin adds {one} bytes (budget {BUDGET}):\n{report}");
}
