#!/usr/bin/env bash
# What proving a feature costs: `verify run`'s own overhead beside its
# checks' time, and the readers of a ledger of 200 requirements (`verify
# status`, `finish`, a pipeline's Stop hook) next to a bare process start
# and to the CLI's own start (`workflow-state --version`, which reads nothing).
# See docs/benchmarks.md.
#
#   bench/proof.sh            BENCH_RUNS (default 20), BENCH_SKIP_BUILD=1
set -euo pipefail
bench=$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname -- "$bench")
# The shipped build (scripts/package.sh, as bench/hooks.sh and every install
# use): what a user's `finish` and Stop hook run.
host=$(rustc -vV | sed -n 's/^host: //p')
if [[ -z ${BENCH_SKIP_BUILD:-} ]]; then
  bin=$(sh "$root/scripts/package.sh" build "$host")
else
  bin=${CARGO_TARGET_DIR:-$root/target}/dist-bin/$host
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/phasegate-bench-proof.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
printf 'fn main() {}\n' >"$work/bare.rs"
rustc -O -C strip=symbols -o "$work/bare" "$work/bare.rs"
cp "$bin/workflow-state" "$bin/phasegate-hook" "$work/"
echo "== machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)"
python3 "$bench/proof.py" "$work/workflow-state" "$work/phasegate-hook" "$work/bare" "$root/tests/it/fixtures/pipeline"
