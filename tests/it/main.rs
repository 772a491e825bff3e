//! Integration tests: the real `workflow-state` and `phasegate-hook` binaries
//! on temporary git repositories. One test binary made of modules.
#![allow(clippy::disallowed_methods)]

mod claude_records;
#[path = "../common/mod.rs"]
mod common;
mod util;

mod attacks;
mod build;
mod concurrency;
mod coordination;
mod cost;
mod dist_launcher;
mod docs;
mod feature;
mod finish;
mod floors;
mod gates;
mod hook_pre_tool_use;
mod hook_session_start;
mod hook_stop;
mod index;
mod interrupt;
mod knowledge;
mod knowledge_briefs;
mod knowledge_hooks;
mod parallel;
mod phase;
mod pipeline;
mod pipeline_files;
mod pipeline_ops;
mod printed;
mod probes;
mod proof;
mod questions;
mod report;
mod retro;
mod review;
mod rounds;
mod run_bugs;
mod schemas;
mod settle;
mod slack;
mod snapshots;
mod status;
mod task_review;
mod tasks;
mod team;
mod validate;
mod version;
mod walk_again;
mod walk_bugs;

/// Every file in tests/it is a module of this binary.
#[test]
fn no_forgotten_test_files() {
    common::assert_every_file_is_a_module(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it"));
}
