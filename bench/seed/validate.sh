#!/usr/bin/env bash
# Reference implementation of `workflow-state validate <target-phase>`, written
# the way the seed design names it: bash finds the repository and the feature
# folders, one python3 process parses the .meta.json files and applies the
# transition rules.
#
#   validate.sh <target-phase> [--feature <folder|NNN-slug|id|slug>]
#
# Prints {"allowed": bool, "type": "proceed|warning|blocked", "message": ...};
# exits 0 when allowed, 1 when blocked, 2 on a usage or state error.
# Without --feature the feature is the folder the working directory is in, else
# the feature whose worktree it is in, else the only active feature (which
# means reading every feature's .meta.json).
set -uo pipefail
export LC_ALL=C

die() { printf 'validate.sh: %s\n' "$*" >&2; exit 2; }

target= given=
while (($#)); do
  case $1 in
    --feature) (($# >= 2)) || die "--feature needs a value"; given=$2; shift 2 ;;
    --feature=*) given=${1#*=}; shift ;;
    -*) die "unknown option $1" ;;
    *) [[ -z $target ]] || die "unexpected argument $1"; target=$1; shift ;;
  esac
done
case $target in
  brainstorm | specify | design | create-plan | create-tasks | implement | verify | finish) ;;
  '') die "usage: validate.sh <target-phase> [--feature <name>]" ;;
  *) die "unknown phase \`$target\`; expected one of: brainstorm, specify, design, create-plan, create-tasks, implement, verify, finish" ;;
esac

cwd=$(pwd -P)

# The project root: the main working tree of the git repository; outside git,
# the nearest directory holding docs/features, else cwd.
root= current=
if top=$(git rev-parse --path-format=absolute --show-toplevel --git-common-dir 2>/dev/null); then
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
  current=$root
fi
features=$root/docs/features

# Which feature folders python3 has to look at.
shopt -s nullglob
how=auto
metas=()
if [[ -n $given && -f $cwd/$given/.meta.json ]]; then
  how=dir; metas=("$(cd -P -- "$cwd/$given" && pwd)/.meta.json")
elif [[ -n $given ]]; then
  how=named; metas=("$features"/[0-9][0-9][0-9]*-?*/.meta.json)
elif [[ $cwd == "$features"/?* ]]; then
  rest=${cwd#"$features"/}
  dir=$features/${rest%%/*}
  if [[ -f $dir/.meta.json ]]; then how=dir; metas=("$dir/.meta.json"); fi
fi
if [[ $how == auto ]]; then
  metas=("$features"/[0-9][0-9][0-9]*-?*/.meta.json)
fi

read -r -d '' py <<'PY' || true
import json, os, re, sys

target, how, given, root, current, features = sys.argv[1:7]
def by_number(path):
    name = os.path.basename(os.path.dirname(path)) if path.endswith(".meta.json") else os.path.basename(path)
    num = name.split("-", 1)[0]
    return (int(num) if num.isdigit() else -1, name)

paths = sorted((p for p in sys.stdin.buffer.read().decode().split("\0") if p), key=by_number)
PHASES = ["brainstorm", "specify", "design", "create-plan", "create-tasks", "implement", "verify", "finish"]
ARTIFACTS = {"brainstorm": "brainstorm.md", "specify": "spec.md", "design": "design.md",
             "create-plan": "plan.md", "create-tasks": "tasks.md"}
REQUIRED = {"implement": "specify", "create-tasks": "create-plan"}  # target -> phase of the needed artifact
NAME = re.compile(r"([0-9]{3,})-(.+)")

def fail(msg, code=2):
    sys.stderr.write(f"validate.sh: {msg}\n")
    sys.exit(code)

def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            meta = json.load(f)
    except (OSError, ValueError) as e:
        raise ValueError(f"{path} is not a valid feature state file: {e}")
    if not isinstance(meta, dict) or meta.get("status") not in ("active", "completed", "abandoned"):
        raise ValueError(f"{path} is not a valid feature state file: bad or missing status")
    return meta

def folders():
    out = []
    for p in paths:
        d = os.path.dirname(p)
        if NAME.fullmatch(os.path.basename(d)):
            out.append(d)
    return out

def name_matches(name, g):
    if name == g:
        return True
    m = NAME.fullmatch(name)
    return bool(m) and (m.group(2) == g or (g.isdigit() and int(g) == int(m.group(1))))

if how == "dir":
    feature = os.path.dirname(paths[0])
elif how == "named":
    dirs = folders()
    hits = [d for d in dirs if name_matches(os.path.basename(d), given)]
    if not hits:
        known = ", ".join(os.path.basename(d) for d in dirs) or "(none)"
        fail(f"no feature matches `{given}`; known features: {known}")
    if len(hits) > 1:
        fail(f"`{given}` matches several features: {', '.join(os.path.basename(d) for d in hits)}; pass the full folder name")
    feature = hits[0]
else:
    # Keep only what the resolution needs (status, worktree), not 10,000 dicts.
    listed = []
    for d in folders():
        try:
            meta = load(os.path.join(d, ".meta.json"))
            listed.append((d, meta["status"], meta.get("worktree"), None))
        except ValueError as e:
            listed.append((d, None, None, e))
    feature = None
    if current != root:  # a linked worktree: the feature working in it
        for d, _, wt, _ in listed:
            if wt and os.path.realpath(os.path.join(root, wt)) == os.path.realpath(current):
                feature = d
                break
    if feature is None:
        active = [d for d, status, _, _ in listed if status == "active"]
        if len(active) > 1:
            names = [os.path.basename(d) for d in active]
            fail(f"several active features: {', '.join(names)}; pass --feature <name> (for example --feature {names[0]})")
        if not active:
            bad = next((e for *_, e in listed if e), None)
            fail(str(bad) if bad else f"no active feature in {features}; create one with `workflow-state feature new <slug>`")
        feature = active[0]

name = os.path.basename(feature)
try:
    meta = load(os.path.join(feature, ".meta.json"))
except ValueError as e:
    fail(str(e))

def answer(kind, message=None):
    print(json.dumps({"allowed": kind != "blocked", "type": kind, "message": message},
                     ensure_ascii=False, separators=(",", ":")))
    sys.exit(0 if kind != "blocked" else 1)

status = meta["status"]
if status == "completed":
    answer("blocked", f"feature {name} is completed; start a new feature with `workflow-state feature new <slug>`")
if status == "abandoned":
    answer("blocked", f"feature {name} was abandoned; start a new feature with `workflow-state feature new <slug>`")

def present(phase):
    try:
        st = os.stat(os.path.join(feature, ARTIFACTS[phase]))
    except OSError:
        return False
    return st.st_size > 0 and (st.st_mode & 0o170000) == 0o100000

need = REQUIRED.get(target)
if need and not present(need):
    answer("blocked", f"{target} needs {ARTIFACTS[need]}, which does not exist; run /phasegate:{need} first")

ti = PHASES.index(target)
cur = meta.get("currentPhase")
if not cur:
    if target == "brainstorm":
        answer("proceed")
    answer("warning", f"{target} skips {', '.join(PHASES[:ti])}; no phase has run for this feature yet")
rec = (meta.get("phases") or {}).get(cur) or {}
in_progress = bool(rec.get("started")) and not rec.get("completed")
ci = PHASES.index(cur)
unfinished = f"{cur} was started but not completed (run /phasegate:{cur} to finish it)" if in_progress else None
if ti == ci + 1:
    answer("warning", unfinished) if unfinished else answer("proceed")
if ti > ci + 1:
    msg = f"{target} skips {', '.join(PHASES[ci + 1:ti])} after {cur}"
    answer("warning", msg + (f"; {unfinished}" if unfinished else ""))
if ti == ci:
    answer("proceed", f"continues {cur}, started earlier" if in_progress
           else f"{cur} was already completed; running it again revises its result")
answer("warning", f"goes back from {cur} to {target}; artifacts of later phases may need revisiting")
PY

printf '%s\0' "${metas[@]}" | python3 -c "$py" "$target" "$how" "$given" "$root" "$current" "$features"
