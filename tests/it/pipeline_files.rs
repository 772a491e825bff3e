//! Every pipeline file format: a valid example passes `pipeline check`, and
//! invalid ones fail with the field and the expected values named.

use crate::util::TestEnv;

/// A mutation of the valid example, and what the error must say about it.
type Mutation = (String, &'static str);

/// (kind, valid example, mutations).
fn cases() -> Vec<(&'static str, String, Vec<Mutation>)> {
    let ex = TestEnv::fixture;
    let codex = r#"{"id": "review-2", "reviewer": "review-codex", "model": "codex", "status": "skipped", "summary": "s", "findings": [], "skip_reason": "codex missing", "reviewed_at": "2026-11-22T10:00:00Z"}"#;
    vec![
        ("worker-signal", ex("worker-signal.json"), vec![
            (ex("worker-signal.json").replace("\"needs_input\"", "\"waiting\""), "at /status: \"waiting\" is not one of"),
            (ex("worker-signal.json").replace("\"requirements\"", "\"coding\""), "at /phase"),
            (r#"{"worker_id": "w", "phase": "requirements", "status": "needs_input", "timestamp": "2026-11-22T10:00:00Z"}"#.into(), "\"questions\" is a required property"),
        ]),
        ("user-story", ex("user-story.json"), vec![
            (ex("user-story.json").replace("\"story-20261122-100000\"", "\"20261122\""), "at /id"),
            (ex("user-story.json").replace("\"approved_at\": \"2026-11-22T10:05:00Z\"", "\"approved_at\": \"yesterday\""), "at /approved_at"),
            (ex("user-story.json").replace("\"given\": \"User is on login page\",", ""), "\"given\" is a required property"),
        ]),
        ("plan-refined", ex("plan-refined.json"), vec![
            (ex("plan-refined.json").replace("\"create\"", "\"rewrite\""), "at /steps/0/action: \"rewrite\" is not one of \"create\", \"modify\", \"delete\""),
            (ex("plan-refined.json").replace("[\"sh test.sh\"]", "[]"), "at /test_plan/commands"),
            (ex("plan-refined.json").replace("\"max_iterations\": 4", "\"max_iterations\": 0"), "at /implementation/max_iterations"),
        ]),
        ("review", ex("review-sonnet.json"), vec![
            (ex("review-sonnet.json").replace("\"approved\"", "\"ok\""), "at /status: \"ok\" is not one of \"approved\", \"needs_changes\", \"needs_clarification\", \"skipped\""),
            (ex("review-sonnet.json").replace("\"low\"", "\"minor\""), "at /findings/0/severity"),
            (ex("review-sonnet.json").replace("\"security\": 8", "\"security\": 11"), "at /scores/security"),
        ]),
        ("review", codex.into(), vec![
            (codex.replace(", \"skip_reason\": \"codex missing\"", ""), "\"skip_reason\" is a required property"),
            (codex.replace("\"model\": \"codex\"", "\"model\": \"opus\""), "at /model"),
        ]),
        ("impl-result", ex("impl-result.json"), vec![
            (ex("impl-result.json").replace("\"complete\"", "\"done\""), "at /status"),
            (ex("impl-result.json").replace("\"failing\": 0", "\"failing\": -1"), "at /tests/failing"),
        ]),
        ("loop-state", ex("loop-state.json"), vec![
            (ex("loop-state.json").replace("\"active\": true", "\"active\": \"yes\""), "at /active"),
            (ex("loop-state.json").replace("\"max_iterations\": 10,", ""), "\"max_iterations\" is a required property"),
        ]),
        ("config", ex("pipeline.config.json"), vec![
            (ex("pipeline.config.json").replace("planReviewLoopLimit", "planReviewLoopLimt"), "planReviewLoopLimt"),
            (ex("pipeline.config.json").replace("\"codeReviewLoopLimit\": 15", "\"codeReviewLoopLimit\": 0"), "at /autonomy/codeReviewLoopLimit"),
            (r#"{"finalGate": {"whenUnavailable": "ignore"}}"#.into(), "at /finalGate/whenUnavailable"),
        ]),
    ]
}

#[test]
fn valid_and_invalid_examples_of_every_format() {
    let env = TestEnv::new();
    let mut kinds = std::collections::BTreeSet::new();
    for (i, (kind, valid, invalid)) in cases().into_iter().enumerate() {
        kinds.insert(kind);
        let path = env.outer().join(format!("{i}-valid.json"));
        std::fs::write(&path, &valid).unwrap();
        env.ws(&["pipeline", "check", kind, "--file", path.to_str().unwrap()]).ok().stdout_has("ok:");
        for (j, (text, expect)) in invalid.into_iter().enumerate() {
            assert_ne!(text, valid, "{kind} case {j}: the mutation did not apply");
            let path = env.outer().join(format!("{i}-invalid-{j}.json"));
            std::fs::write(&path, &text).unwrap();
            env.ws(&["pipeline", "check", kind, "--file", path.to_str().unwrap()]).code(2).stderr_has(expect);
        }
    }
    for kind in ["worker-signal", "user-story", "plan-refined", "review", "impl-result", "loop-state", "config"] {
        assert!(kinds.contains(kind), "no examples for {kind}");
    }
}

#[test]
fn syntax_errors_and_defaults() {
    let env = TestEnv::new();
    let f = env.outer().join("broken.json");
    std::fs::write(&f, "{\"status\": ").unwrap();
    env.ws(&["pipeline", "check", "worker-signal", "--file", f.to_str().unwrap()])
        .code(2)
        .stderr_has("is not valid JSON")
        .stderr_has("line 1");
    env.ws(&["pipeline", "check", "review"]).code(2).stderr_has("--file");
    env.ws(&["pipeline", "check", "plan"]).code(2).stderr_has("unknown file kind `plan`");
    // The state and loop files the binary writes match their schemas.
    let name = env.to_loop("s", "true", 3);
    env.ws(&["pipeline", "check", "state", "--feature", &name]).ok();
    env.ws(&["pipeline", "check", "loop-state", "--feature", &name]).ok();
    env.ws(&["pipeline", "check", "config"]).ok();
}
