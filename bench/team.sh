#!/usr/bin/env bash
# A team across machines (issue 34): the claim round trip on loopback
# (`tasks start` with the team's remote as a file:// path, served by git
# daemon, behind a slow proxy, and down) next to the same start with no
# remote, and the hooks in a clone of that remote next to a bare process
# start. See docs/benchmarks.md.
#
#   bench/team.sh     BENCH_RUNS (default 20), BENCH_SKIP_BUILD=1,
#                     BENCH_DELAY_MS (the slow proxy's delay, default 100),
#                     BENCH_BIN (time the binaries in this folder instead,
#                     e.g. the release package's target/dist-bin/<host>)
set -euo pipefail
bench=$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname -- "$bench")
if [[ -z ${BENCH_SKIP_BUILD:-} ]]; then
  cargo build --release --manifest-path "$root/Cargo.toml" --bin workflow-state --bin phasegate-hook >&2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/phasegate-bench-team.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
printf 'fn main() {}\n' >"$work/bare.rs"
rustc -O -C strip=symbols -o "$work/bare" "$work/bare.rs"
target=${CARGO_TARGET_DIR:-$root/target}
bin=${BENCH_BIN:-$target/release}
cp "$bin/workflow-state" "$bin/phasegate-hook" "$work/"
echo "== machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true), $(git --version)"
python3 "$bench/team.py" "$work"
