#!/usr/bin/env bash
# Benchmark: phasegate's Rust binaries vs a bash + python3 implementation of
# the same SessionStart hook and `validate`, the way the seed design names it
# (bench/seed/). See docs/benchmarks.md.
#
#   bench/run.sh
#
# Environment:
#   BENCH_SIZES   feature counts of the fixtures (default "10 1000 10000 100000")
#   BENCH_TIMER   hyperfine | loop (default: hyperfine when installed, else loop)
#   BENCH_RUNS    minimum timed runs per command (default 20); BENCH_WARMUP (default 3)
#   BENCH_PYTHON  the python3 the reference runs (default /usr/bin/python3 if present)
#   BENCH_OUT     also write the result tables (Markdown) to this file
#   BENCH_KEEP=1  keep the fixtures (their directory is printed)
#   BENCH_SKIP_BUILD=1  use the binaries already in the target directory
set -euo pipefail

bench=$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname -- "$bench")
sizes=${BENCH_SIZES:-10 1000 10000 100000}

for tool in cargo rustc git python3 bash; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is required" >&2; exit 1; }
done

# 1. Release binaries.
if [[ -z ${BENCH_SKIP_BUILD:-} ]]; then
  echo "== cargo build --release" >&2
  cargo build --release --manifest-path "$root/Cargo.toml" --bin phasegate-hook --bin workflow-state >&2
fi
target=${CARGO_TARGET_DIR:-$root/target}
[[ $target == /* ]] || target=$root/$target
if [[ -z ${BENCH_SKIP_BUILD:-} ]]; then
  source_desc="$root at $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')"
  git -C "$root" diff --quiet HEAD -- 2>/dev/null || source_desc+=" (with uncommitted changes)"
else
  source_desc="prebuilt binaries in $target/release (BENCH_SKIP_BUILD)"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/phasegate-bench.XXXXXX")
work=$(cd -P -- "$work" && pwd)
if [[ -n ${BENCH_KEEP:-} ]]; then
  echo "bench: fixtures kept in $work" >&2
else
  trap 'rm -rf -- "$work"' EXIT
fi

# Copies, so a concurrent rebuild in the checkout cannot swap binaries mid-run.
mkdir -p "$work/bin"
# The floor: a Rust program that does nothing, same compiler, optimised.
printf 'fn main() {}\n' >"$work/bare.rs"
rustc -O -C strip=symbols -o "$work/bin/bare" "$work/bare.rs"
for exe in phasegate-hook workflow-state; do
  [[ -x $target/release/$exe ]] || { echo "bench: $target/release/$exe is missing" >&2; exit 1; }
  cp "$target/release/$exe" "$work/bin/$exe"
done

# The reference runs `python3` from PATH. Give it the distribution's interpreter
# (/usr/bin/python3) when there is one, else the python3 on PATH resolved past
# any version-manager shim (pyenv's shim is a bash script with its own start-up);
# BENCH_PYTHON overrides. A slow-starting interpreter would only make the
# reference look worse.
py=${BENCH_PYTHON:-}
if [[ -z $py ]]; then
  if [[ -x /usr/bin/python3 ]]; then py=/usr/bin/python3; else py=python3; fi
fi
py=$("$py" -c 'import sys; print(sys.executable)')
mkdir -p "$work/pybin"
ln -s "$py" "$work/pybin/python3"
export PATH="$work/pybin:$PATH"
export LC_ALL=C

# 2. Fixtures.
fixtures=()
for n in $sizes; do
  echo "== fixture: $n features" >&2
  repo=$work/repo-$n
  info=$(python3 "$bench/fixture.py" "$work/bin/workflow-state" "$work/template" "$repo" "$n")
  printf '{"session_id":"bench","transcript_path":"/tmp/bench-transcript.jsonl","cwd":"%s","hook_event_name":"SessionStart","source":"startup"}\n' \
    "$repo" >"$work/input-$n.json"
  fixtures+=("$(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); d["input"]=sys.argv[2]; print(json.dumps(d))' \
    "$info" "$work/input-$n.json")")
done

# Flush the freshly written fixtures, so background writeback does not run
# during the first timings.
sync

# 3. Agreement checks and timings.
timer=${BENCH_TIMER:-}
if [[ -z $timer ]]; then
  if command -v hyperfine >/dev/null; then timer=hyperfine; else timer=loop; fi
fi
hf_version=$(command -v hyperfine >/dev/null && hyperfine --version | awk '{print $2}' || true)
BENCH_TIMER=$timer HF_VERSION=$hf_version WORK=$work BENCH_DIR=$bench \
  python3 - "$work/config.json" "${fixtures[@]}" <<'PY'
import json, os, sys
e = os.environ
json.dump({
    "timer": e["BENCH_TIMER"], "hyperfine_version": e["HF_VERSION"],
    "runs": int(e.get("BENCH_RUNS") or 20), "warmup": int(e.get("BENCH_WARMUP") or 3),
    "min_seconds": 3.0, "max_runs": 2000,
    "ours_hook": e["WORK"] + "/bin/phasegate-hook", "ours_ws": e["WORK"] + "/bin/workflow-state",
    "bare": e["WORK"] + "/bin/bare",
    "seed_hook": e["BENCH_DIR"] + "/seed/session-start.sh", "seed_validate": e["BENCH_DIR"] + "/seed/validate.sh",
    "out": e.get("BENCH_OUT", ""),
    "fixtures": [json.loads(f) for f in sys.argv[2:]],
}, open(sys.argv[1], "w"), indent=2)
PY
echo "== machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(. /etc/os-release 2>/dev/null; echo "${PRETTY_NAME:-$(uname -s)}"), kernel $(uname -r)"
echo "== binaries: $source_desc"
echo "== tools: $(bash --version | head -1), $(python3 --version) ($py), $(git --version)"
echo "== fixtures: per size N, N-2 completed features (all 8 phases, artifacts) and 2 active ones:"
echo "   one between phases without a worktree (brainstorm+specify approved, design next),"
echo "   one with specify PARTIAL in a git worktree. Hook cwd and validate cwd: the repository root."
echo "== load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
python3 "$bench/measure.py" "$work/config.json"
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
