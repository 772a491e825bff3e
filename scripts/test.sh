#!/bin/sh
# Run every phasegate check: formatting, clippy, then unit, integration, and
# end-to-end tests that drive the real Claude Code (pinned in
# tests/e2e/package.json) against a scripted Messages API on 127.0.0.1.
#
# Installs what the tests need first: the pinned Claude Code npm package
# (npm ci in tests/e2e) and the Rust crates (cargo fetches them).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

echo "phasegate: installing the pinned Claude Code (tests/e2e/package-lock.json)"
npm ci --prefix tests/e2e --no-audit --no-fund --loglevel=error

echo "phasegate: cargo fmt --check"
cargo fmt --all -- --check

echo "phasegate: cargo clippy -D warnings"
cargo clippy --workspace --all-targets --locked -- -D warnings

echo "phasegate: building and running the tests"
cargo test --workspace --locked "$@"
