#!/usr/bin/env bash
# What the knowledge base costs: `kb query` and the PreToolUse hook at 100 and
# 10,000 items beside a bare process start, and the bytes each brief and each
# injection adds. See docs/benchmarks.md.
#
#   bench/knowledge.sh        build this machine's release package with the
#                             release script (scripts/package.sh build <host>)
#   bench/knowledge.sh DIR    time the binaries in DIR
#   BENCH_RUNS (default 30)
set -euo pipefail
bench=$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname -- "$bench")
if [[ $# -ge 1 ]]; then
  bin=$1
else
  host=$(rustc -vV | sed -n 's/^host: //p')
  bin=$(sh "$root/scripts/package.sh" build "$host")
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/phasegate-bench-kb.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
printf 'fn main() {}\n' >"$work/bare.rs"
rustc -O -C strip=symbols -o "$work/bare" "$work/bare.rs"
cp "$bin/workflow-state" "$bin/phasegate-hook" "$work/"
echo "== machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)"
python3 "$bench/knowledge.py" "$work/phasegate-hook" "$work/workflow-state" "$work/bare"
