#!/usr/bin/env bash
# Reference implementation of phasegate's SessionStart hook, written the way
# the seed design names it ("hooks/session-start.sh", "Python3 for JSON parsing
# in hooks"): bash finds the repository and the feature folders, one python3
# process parses every .meta.json and writes the hook output.
#
# Used by bench/run.sh to compare against `phasegate-hook session-start`. It is
# meant as a fair reference: one python3 per run, no per-feature processes.
# Like the Rust hook it never fails a session: any problem exits 0.
set -uo pipefail
export LC_ALL=C # byte-order globbing; python sorts by feature number, like the Rust hook

input=$(cat)

# The session's directory: the hook input's "cwd", else CLAUDE_PROJECT_DIR, else $PWD.
# A plain path needs no JSON parser; an escaped one (\" or \\ inside) goes to python3.
cwd=
if [[ $input =~ \"cwd\"[[:space:]]*:[[:space:]]*\"([^\"\\]*)\" ]]; then
  cwd=${BASH_REMATCH[1]}
elif [[ $input == *'"cwd"'* ]]; then
  cwd=$(printf '%s' "$input" | python3 -c 'import json,sys
try: print(json.load(sys.stdin).get("cwd") or "")
except Exception: print("")')
fi
[[ -n $cwd ]] || cwd=${CLAUDE_PROJECT_DIR:-$PWD}

# The project root: the main working tree of the git repository (features live
# in the main checkout even when the session runs in a linked worktree);
# outside git, the nearest directory holding docs/features, else cwd.
root=
if top=$(git -C "$cwd" rev-parse --path-format=absolute --show-toplevel --git-common-dir 2>/dev/null); then
  current=${top%%$'\n'*}
  common=${top#*$'\n'}
  if [[ $common == */.git ]]; then root=${common%/.git}; else root=$current; fi
else
  d=$cwd
  while :; do
    if [[ -d $d/docs/features ]]; then root=$d; break; fi
    [[ $d == / || -z $d ]] && break
    d=$(dirname -- "$d")
  done
  root=${root:-$cwd}
fi

# Feature folders: NNN-slug holding a .meta.json (python checks the exact name shape).
shopt -s nullglob
metas=("$root"/docs/features/[0-9][0-9][0-9]*-?*/.meta.json)
((${#metas[@]})) || exit 0

read -r -d '' py <<'PY' || true
import json, os, re, sys

cwd, root = sys.argv[1], sys.argv[2]
paths = [p for p in sys.stdin.buffer.read().decode().split("\0") if p]
PHASES = ["brainstorm", "specify", "design", "create-plan", "create-tasks", "implement", "verify", "finish"]
CAP = {"hotfix": 1, "quick": 2, "standard": 3, "full": 5}
NAME = re.compile(r"[0-9]{3,}-.+")
MAX_LISTED = 5

lines, active = [], []
def by_number(path):
    name = os.path.basename(os.path.dirname(path)) if path.endswith(".meta.json") else os.path.basename(path)
    num = name.split("-", 1)[0]
    return (int(num) if num.isdigit() else -1, name)

for path in sorted(paths, key=by_number):
    name = os.path.basename(os.path.dirname(path))
    if not NAME.fullmatch(name):
        continue
    try:
        with open(path, encoding="utf-8") as f:
            meta = json.load(f)
        status = meta["status"]
        if status not in ("active", "completed", "abandoned"):
            raise ValueError(f"unknown status {status!r}")
    except Exception as e:
        reason = str(e).splitlines()[0][:160] if str(e) else type(e).__name__
        lines.append(f"phasegate: {name} is unreadable ({reason}); run `workflow-state status` for details")
        continue
    if status == "active":
        active.append((name, meta))

def state(meta, phase):
    rec = (meta.get("phases") or {}).get(phase) or {}
    if rec.get("completed"):
        return "completed"
    return "partial" if rec.get("started") else "not-started"

def next_command(meta):
    cur = meta.get("currentPhase")
    if not cur:
        return "/phasegate:brainstorm"
    if state(meta, cur) != "completed":
        return f"/phasegate:{cur}"
    i = PHASES.index(cur)
    return f"/phasegate:{PHASES[i + 1]}" if i + 1 < len(PHASES) else "none"

here_real = os.path.realpath(cwd)

def worktree(meta):
    """(kind, path): none, missing, inside or outside."""
    wt = meta.get("worktree")
    if not wt:
        return "none", None
    path = os.path.join(root, wt)
    if not os.path.exists(path):
        return "missing", path
    real = os.path.realpath(path)
    inside = here_real == real or here_real.startswith(real.rstrip("/") + "/")
    return ("inside" if inside else "outside"), real

if not active:
    if lines:
        sys.stdout.write(json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart",
            "additionalContext": "\n".join(lines)}}, ensure_ascii=False, separators=(",", ":")) + "\n")
    sys.exit(0)

trees = [worktree(m) for _, m in active]
here = next((i for i, (kind, _) in enumerate(trees) if kind == "inside"), None)
head = f"phasegate: {len(active)} active feature{'' if len(active) == 1 else 's'}"
if here is not None:
    head += f"; this session is in the worktree of {active[here][0]}"
lines.insert(0, head)
for i, (name, meta) in enumerate(active[:MAX_LISTED]):
    mode = meta.get("mode") or "standard"
    cur = meta.get("currentPhase")
    if not cur:
        text = "no phase started yet"
    else:
        st = state(meta, cur)
        if st == "partial":
            used = ((meta.get("phases") or {}).get(cur) or {}).get("iterations", 0)
            text = (f"phase {cur} is PARTIAL (started, not completed; "
                    f"{used} of {CAP.get(mode, 3)} reviewer iterations used)")
        elif st == "completed":
            text = f"phase {cur} completed"
        else:
            text = f"phase {cur} not started"
    lines.append(f"- {name} (mode {mode}): {text}. Next: {next_command(meta)}")
    if here is None or here == i:
        kind, path = trees[i]
        if kind == "outside":
            lines.append(f"  WARNING: this session runs in {cwd} but the feature's worktree is {path}; "
                         "cd there before changing code.")
        elif kind == "missing":
            lines.append(f"  WARNING: the feature's worktree {path} does not exist.")
if len(active) > MAX_LISTED:
    lines.append(f"- \u2026 and {len(active) - MAX_LISTED} more: `workflow-state status`")
sys.stdout.write(json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart",
    "additionalContext": "\n".join(lines)}}, ensure_ascii=False, separators=(",", ":")) + "\n")
PY

printf '%s\0' "${metas[@]}" | python3 -c "$py" "$cwd" "$root" || true
exit 0
