//! Test support for driving the real Claude Code CLI offline.
//!
//! [`MockApi`] serves a scripted Anthropic Messages API on `127.0.0.1`;
//! [`ClaudeCode`] runs the pinned `claude` binary against it in a cleared
//! environment, bounded by a timeout.
//!
//! ```no_run
//! use phasegate_testkit::{ClaudeCode, MockApi, Scenario, ToolUse, Turn};
//!
//! let api = MockApi::start(
//!     Scenario::new()
//!         .main(vec![
//!             Turn::tools(vec![ToolUse::bash("echo hi")]),
//!             Turn::text("all done").expect_tool_result_contains("hi"),
//!         ])
//!         .agent("You are the chain reviewer", vec![Turn::text("{\"approved\":true}")]),
//! );
//! let out = ClaudeCode::new()
//!     .plugin_dir("/work/main")
//!     .allowed_tools("Bash,Agent")
//!     .prompt("say hi")
//!     .run(&api);
//! assert!(out.success(), "{}", out.report());
//! api.assert_finished();
//! ```
//!
//! # Routing
//!
//! Each script is an independent FIFO of [`Turn`]s. Sub-agents may talk to
//! the server concurrently with the main thread, so a `POST /v1/messages`
//! is routed by its content, never by arrival order:
//!
//! 1. the first agent script (in the order added) whose marker occurs in the
//!    request's `system` field (Claude Code puts the agent's Markdown body there);
//! 2. otherwise, a sub-agent request (system prompt carries
//!    `cc_is_subagent=true`) is a mismatch: no script was written for it;
//! 3. otherwise, a request that offers tools is the main conversation (the
//!    main thread always sends its full tool list);
//! 4. otherwise (top level, no tools: e.g. a title or summary request) it is
//!    *auxiliary*: answered with [`AUXILIARY_REPLY`], shown in reports, never
//!    a failure. With `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1` Claude Code
//!    2.1.328 sent none in `-p` runs with Bash, Skill, slash-command and
//!    (foreground or background) Agent calls, nor on `--resume`.
//!
//! `POST /v1/messages/count_tokens` is answered `{"input_tokens": 10}`; any
//! other path gets a 404 and is listed in the report, not failed.
//!
//! Prefer [`ToolUse::agent`] (foreground, `run_in_background: false`): the
//! agent's final text then comes back as the Agent tool's result. A
//! background agent answers with "Async agent launched" at once and reports
//! later in a `<task-notification>` user message, so which main turn sees
//! that notification depends on timing.
//!
//! One [`MockApi`] may serve several runs in a row (e.g. a second run with
//! `--resume <session id>`): each script simply continues where it stopped.
//!
//! # Environment
//!
//! `claude` starts from a cleared environment: only `PATH` (with
//! [`ClaudeCode::path_prepend`] directories in front), `LANG`, `HOME`,
//! `ANTHROPIC_BASE_URL`, `ANTHROPIC_API_KEY=test-key`,
//! `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1`, `DISABLE_AUTOUPDATER=1`,
//! [`RUN_TAG_ENV`] and the variables given with [`ClaudeCode::env`]; so no
//! real API key and no `CLAUDE_CODE_*`/`CLAUDECODE` variable of an outer
//! session leaks in. When the run ends or times out, every process carrying
//! its [`RUN_TAG_ENV`] value is killed: Claude Code starts its Bash tool's
//! shells in sessions of their own, out of reach of a process-group kill.
//!
//! # Mismatches
//!
//! A request that fails its turn's expectations, reaches an exhausted script
//! or fits no script is recorded with an explanation and answered with an
//! `end_turn` text [`MISMATCH_REPLY`], so Claude Code finishes quickly instead
//! of hanging. [`MockApi::assert_finished`] then panics with every mismatch,
//! the turns never consumed and a dump of all requests.
#![allow(clippy::disallowed_methods)]

mod claude;
pub mod npm;
mod request;
mod scenario;
mod server;
pub mod slack;
mod text;

pub use claude::{
    CLAUDE_BIN_ENV, ClaudeCode, ClaudeOutput, DEFAULT_TIMEOUT, RUN_TAG_ENV, Survivors, locate_binary, session_of,
};
pub use npm::NpmRegistry;
pub use request::{RecordedRequest, Route, SUBAGENT_MARKER, ToolResult};
pub use scenario::{ApiError, Expectation, Scenario, ToolUse, Turn, Usage};
pub use server::{AUXILIARY_REPLY, MISMATCH_REPLY, MockApi};
pub use slack::{FakeSlack, SlackRequest, SlackTokenKind};
