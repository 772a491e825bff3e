#!/usr/bin/env bash
# Per-task overhead of `workflow-state tasks ...` at 10 and 1,000 tasks, next
# to a bare process start. See docs/benchmarks.md.
#
#   bench/tasks.sh            BENCH_RUNS (default 10), BENCH_SKIP_BUILD=1
set -euo pipefail
bench=$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname -- "$bench")
if [[ -z ${BENCH_SKIP_BUILD:-} ]]; then
  cargo build --release --manifest-path "$root/Cargo.toml" --bin workflow-state >&2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/phasegate-bench-tasks.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
printf 'fn main() {}\n' >"$work/bare.rs"
rustc -O -C strip=symbols -o "$work/bare" "$work/bare.rs"
cp "${CARGO_TARGET_DIR:-$root/target}/release/workflow-state" "$work/workflow-state"
echo "== machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)"
python3 "$bench/tasks.py" "$work/workflow-state" "$work/bare" 10 1000
