#!/usr/bin/env bash
# What proving a feature costs: `verify run`'s own overhead beside its
# checks' time, and the readers of a ledger of 200 requirements (`verify
# status`, `finish`, a pipeline's Stop hook) next to a bare process start.
# See docs/benchmarks.md.
#
#   bench/proof.sh            BENCH_RUNS (default 20), BENCH_SKIP_BUILD=1
set -euo pipefail
bench=$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname -- "$bench")
if [[ -z ${BENCH_SKIP_BUILD:-} ]]; then
  cargo build --release --manifest-path "$root/Cargo.toml" --bin workflow-state --bin phasegate-hook >&2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/phasegate-bench-proof.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
printf 'fn main() {}\n' >"$work/bare.rs"
rustc -O -C strip=symbols -o "$work/bare" "$work/bare.rs"
target=${CARGO_TARGET_DIR:-$root/target}/release
cp "$target/workflow-state" "$target/phasegate-hook" "$work/"
echo "== machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)"
python3 "$bench/proof.py" "$work/workflow-state" "$work/phasegate-hook" "$work/bare" "$root/tests/it/fixtures/pipeline"
