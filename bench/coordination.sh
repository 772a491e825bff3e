#!/usr/bin/env bash
# What the per-edit hooks cost with file leases: 50 sessions holding 5,000
# leases, next to a bare process start. See docs/benchmarks.md.
#
#   bench/coordination.sh     BENCH_RUNS (default 50), BENCH_SKIP_BUILD=1,
#                             BENCH_SESSIONS (50), BENCH_LEASES (5000)
set -euo pipefail
bench=$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname -- "$bench")
if [[ -z ${BENCH_SKIP_BUILD:-} ]]; then
  cargo build --release --manifest-path "$root/Cargo.toml" --bin workflow-state --bin phasegate-hook >&2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/phasegate-bench-coord.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
printf 'fn main() {}\n' >"$work/bare.rs"
rustc -O -C strip=symbols -o "$work/bare" "$work/bare.rs"
target=${CARGO_TARGET_DIR:-$root/target}
cp "$target/release/workflow-state" "$target/release/phasegate-hook" "$work/"
echo "== machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)"
python3 "$bench/coordination.py" "$work/phasegate-hook" "$work/workflow-state" "$work/bare"
