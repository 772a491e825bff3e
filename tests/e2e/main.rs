//! End-to-end tests: the real Claude Code (pinned in tests/e2e/package.json)
//! runs with this repository as its plugin against a scripted Messages API
//! on 127.0.0.1. Hooks fire, slash commands expand, agents resolve, and the
//! shell commands our Markdown tells the model to run really run.
#![allow(clippy::disallowed_methods)]

#[path = "../common/mod.rs"]
mod common;
mod support;

mod agents;
mod broken;
mod commands;
mod context_budget;
mod coordination;
mod cost;
mod distribution;
mod install;
mod interrupt;
mod knowledge;
mod markdown_commands;
mod plugin_validate;
mod proof;
mod questions;
mod review_loop;
mod session_start;
mod stop_hook;
mod tasks;
mod team;
mod walk;

/// Every file in tests/e2e is a module of this binary.
#[test]
fn no_forgotten_test_files() {
    common::assert_every_file_is_a_module(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e"));
}
