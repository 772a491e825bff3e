//! The Windows binaries under Wine: `workflow-state.exe` and
//! `phasegate-hook.exe`, built for x86_64-pc-windows-gnu, run on temporary
//! git repositories that they see as `Z:\…` (Wine's drive Z: is `/`). What
//! they are given and print is checked as the Linux tests (tests/it) check
//! the Linux binaries: the hook protocol of every event, the state guard,
//! leases across sessions and spellings of a path, feature creation, paths
//! with drive letters and backslashes, CRLF files, locks and processes.
//!
//! `scripts/test-windows.sh` builds the binaries, makes the Wine prefix and
//! runs these tests (`cargo test --test windows`), naming the binaries'
//! folder in `PHASEGATE_WINDOWS_BIN`. The target is `test = false`: a plain
//! `cargo test` neither builds nor runs it, so it skips no test and passes
//! none it did not run; run without that build or Wine, each test fails and
//! says why. (`scripts/test.sh` lints it: `--all-targets` leaves it out.)
//!
//! The figures of a run under Wine are about correctness, never speed.
#![allow(clippy::disallowed_methods)]

#[path = "../common/mod.rs"]
#[allow(dead_code)]
mod common;
mod wine;

mod features;
mod files;
mod guard;
mod hooks;
mod leases;
mod locks;
mod paths;
mod processes;

/// Every file in tests/windows is a module of this binary.
#[test]
fn no_forgotten_test_files() {
    common::assert_every_file_is_a_module(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/windows"));
}
