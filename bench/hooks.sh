#!/usr/bin/env bash
# What each hook costs in its common case, next to a bare process start, on
# the binaries that ship. See docs/benchmarks.md.
#
#   bench/hooks.sh          build this machine's release package with the release
#                           script (scripts/package.sh build <host>) and time it
#   bench/hooks.sh DIR      time the binaries in DIR, e.g. an installed plugin's
#                           node_modules/@phasegate/plugin-linux-x64-gnu/bin
#   BENCH_RUNS (default 50)
set -euo pipefail
bench=$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname -- "$bench")
if [[ $# -ge 1 ]]; then
  bin=$1
else
  host=$(rustc -vV | sed -n 's/^host: //p')
  bin=$(sh "$root/scripts/package.sh" build "$host")
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/phasegate-bench-hooks.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
printf 'fn main() {}\n' >"$work/bare.rs"
rustc -O -C strip=symbols -o "$work/bare" "$work/bare.rs"
# Copied together: the hooks start the workflow-state beside them.
cp "$bin/workflow-state" "$bin/phasegate-hook" "$work/"
echo "== machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)"
echo "== binaries: $bin ($(du -k "$work/phasegate-hook" | cut -f1) KiB hook, $(du -k "$work/bare" | cut -f1) KiB bare)"
python3 "$bench/hooks.py" "$work/phasegate-hook" "$work/workflow-state" "$work/bare"
