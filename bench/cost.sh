#!/usr/bin/env bash
# What reading a feature's cost costs: `workflow-state cost` over 1,000
# generated sessions' transcripts (about 200 MB) beside ccusage, the npm
# package people use to read these transcripts, on the same files; both
# must agree on every token. See docs/benchmarks.md.
#
#   bench/cost.sh      BENCH_SESSIONS (default 1000), BENCH_RUNS (default 3),
#                      BENCH_SKIP_BUILD=1, CCUSAGE_VERSION (default 20.0.24)
#
# ccusage is installed from npm into target/bench-ccusage (the benchmark
# only; the tests never need it) and run with --offline (its bundled prices,
# nothing fetched).
set -euo pipefail
bench=$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname -- "$bench")
if [[ -z ${BENCH_SKIP_BUILD:-} ]]; then
  cargo build --release --manifest-path "$root/Cargo.toml" --bin workflow-state --bin phasegate-hook >&2
fi
target=${CARGO_TARGET_DIR:-$root/target}
version=${CCUSAGE_VERSION:-20.0.24}
ccusage_dir=$target/bench-ccusage
if [[ ! -x $ccusage_dir/node_modules/.bin/ccusage ]] || ! grep -q "\"version\": \"$version\"" "$ccusage_dir/node_modules/ccusage/package.json"; then
  echo "== installing ccusage@$version (npm) into $ccusage_dir" >&2
  mkdir -p "$ccusage_dir"
  npm install --prefix "$ccusage_dir" --no-save --no-audit --no-fund --loglevel=error "ccusage@$version" >&2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/phasegate-bench-cost.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
cp "$target/release/workflow-state" "$target/release/phasegate-hook" "$work/"
echo "== machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true); node $(node --version); ccusage $version"
python3 "$bench/cost.py" "$work/workflow-state" "$work/phasegate-hook" "$ccusage_dir/node_modules/.bin/ccusage" "$work"
