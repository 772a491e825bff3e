#!/usr/bin/env python3
"""Agreement checks and timings for bench/run.sh.

    measure.py <config.json>

For every fixture: run each pair once and fail loudly when the two
implementations disagree, then time the pair side by side with hyperfine
(when installed and not BENCH_TIMER=loop) or with a perf_counter loop, and
print Markdown tables: size | ours (ms) | bash+python (ms) | ratio.
"""

import json
import os
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def die(msg):
    sys.stderr.write(f"\nbench: DISAGREEMENT: {msg}\n")
    sys.exit(1)


class Cmd:
    """A command run in a directory, with an optional stdin file."""

    def __init__(self, argv, cwd, stdin=None):
        self.argv, self.cwd, self.stdin = argv, cwd, stdin

    def run(self):
        with open(self.stdin or os.devnull, "rb") as f:
            r = subprocess.run(self.argv, cwd=self.cwd, stdin=f, capture_output=True)
        return r.returncode, r.stdout.decode(), r.stderr.decode()

    def shell(self):
        s = " ".join(shlex.quote(a) for a in self.argv)
        return f"{s} < {shlex.quote(self.stdin)}" if self.stdin else s


# --- agreement -------------------------------------------------------------

def hook_features(out, who):
    """The active features a SessionStart output names, and its head count."""
    if not out.strip():
        die(f"{who}: the hook printed nothing")
    try:
        ctx = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    except (ValueError, KeyError, TypeError) as e:
        die(f"{who}: hook output is not the SessionStart JSON ({e}): {out[:300]}")
    m = re.match(r"phasegate: (\d+) active features?", ctx)
    if not m:
        die(f"{who}: no active-feature count in: {ctx[:300]}")
    names = re.findall(r"^- (\S+) \(mode ", ctx, re.M)
    return int(m.group(1)), names, ctx


def by_number(name):
    num = name.split("-", 1)[0]
    return (int(num) if num.isdigit() else -1, name)


def check_hook(fx, ours, seed):
    (oc, oo, oe), (sc, so, se) = ours.run(), seed.run()
    if oc != 0 or sc != 0:
        die(f"hook exit codes ours={oc} seed={sc}\n{oe}{se}")
    on, onames, octx = hook_features(oo, "ours")
    sn, snames, sctx = hook_features(so, "bash+python")
    expected = sorted(fx["active"])
    if (on, sorted(onames)) != (len(expected), expected):
        die(f"ours names {onames} (count {on}), expected {expected}")
    if (sn, sorted(snames)) != (on, sorted(onames)):
        die(f"hook: ours names {onames} (count {on}), bash+python names {snames} (count {sn})")
    for name in (fx["mid"], fx["partial"]):
        for who, ctx in (("ours", octx), ("bash+python", sctx)):
            if name not in ctx:
                die(f"{who} does not mention {name}")
    for who, ctx in (("ours", octx), ("bash+python", sctx)):
        if f"- {fx['partial']} (mode standard): phase specify is PARTIAL" not in ctx:
            die(f"{who} does not report {fx['partial']} as partial:\n{ctx}")
        if "WARNING: this session runs in" not in ctx:
            die(f"{who} does not warn about {fx['partial']}'s worktree:\n{ctx}")
    same = "byte-identical output" if oo == so else "same features named, output text differs"
    return f"both name {', '.join(onames)}; {same}"


def check_validate(fx, ours, seed, expect):
    (oc, oo, oe), (sc, so, se) = ours.run(), seed.run()
    if expect == "several-active":
        want = f"several active features: {', '.join(sorted(fx['active'], key=by_number))};"
        for who, code, err in (("ours", oc, oe), ("bash+python", sc, se)):
            if code != 2 or want not in err:
                die(f"{who}: expected exit 2 and '{want}', got exit {code}: {err.strip()}")
        return f"both refuse with exit 2: several active features ({', '.join(sorted(fx['active'], key=by_number))})"
    try:
        ov, sv = json.loads(oo), json.loads(so)
    except ValueError:
        die(f"validate output is not JSON: ours={oo!r} {oe!r} seed={so!r} {se!r}")
    if (oc, ov.get("allowed"), ov.get("type")) != (sc, sv.get("allowed"), sv.get("type")):
        die(f"validate: ours exit {oc} {oo.strip()} vs bash+python exit {sc} {so.strip()}")
    if ov.get("type") != expect:
        die(f"validate: both say {ov.get('type')}, the fixture expects {expect}")
    same = "identical JSON" if ov == sv else "messages differ"
    return f"both exit {oc}, type {ov['type']}, allowed {str(ov['allowed']).lower()} ({same})"


# --- timing ----------------------------------------------------------------

def time_hyperfine(cmds, cfg, ignore_failure):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
        out = tmp.name
    args = ["hyperfine", "--style", "none", "--warmup", str(cfg["warmup"]), "--min-runs", str(cfg["runs"]),
            "--export-json", out]
    if ignore_failure:
        args.append("-i")
    if not any(c.stdin for c in cmds):
        args.append("-N")  # no shell: exec the command directly (a stdin redirect needs the shell)
    args += [c.shell() for c in cmds]
    r = subprocess.run(args, cwd=cmds[0].cwd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"bench: hyperfine failed:\n{r.stdout}{r.stderr}")
    with open(out) as f:
        results = json.load(f)["results"]
    os.unlink(out)
    return [{"mean": x["mean"] * 1e3, "median": x["median"] * 1e3, "stddev": (x["stddev"] or 0) * 1e3,
             "min": x["min"] * 1e3, "user": x["user"] * 1e3, "system": x["system"] * 1e3,
             "runs": len(x["times"])} for x in results]


def time_loop(cmds, cfg, ignore_failure):
    """Runs the commands alternately (a b a b ...) so drift hits both alike."""
    def once(c, cpu=None):
        with open(c.stdin or os.devnull, "rb") as f:
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            r = subprocess.run(c.argv, cwd=c.cwd, stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            dt = time.perf_counter() - t0
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        if r.returncode != 0 and not ignore_failure:
            sys.exit(f"bench: {c.shell()} exited {r.returncode}")
        if cpu is not None:
            cpu[0] += r1.ru_utime - r0.ru_utime
            cpu[1] += r1.ru_stime - r0.ru_stime
        return dt * 1e3

    for _ in range(cfg["warmup"]):
        for c in cmds:
            once(c)
    times = [[] for _ in cmds]
    cpus = [[0.0, 0.0] for _ in cmds]
    start = time.perf_counter()
    while True:
        for i, c in enumerate(cmds):
            times[i].append(once(c, cpus[i]))
        n = len(times[0])
        if n >= cfg["runs"] and (time.perf_counter() - start > cfg["min_seconds"] or n >= cfg["max_runs"]):
            break
    return [{"mean": statistics.fmean(t), "median": statistics.median(t), "stddev": statistics.stdev(t),
             "min": min(t), "user": u * 1e3 / len(t), "system": s * 1e3 / len(t), "runs": len(t)}
            for t, (u, s) in zip(times, cpus)]


def measure(cmds, cfg, ignore_failure=False):
    timer = time_hyperfine if cfg["timer"] == "hyperfine" else time_loop
    return timer(cmds, cfg, ignore_failure)


# --- report ----------------------------------------------------------------

def table(title, rows):
    lines = [f"### {title}", "",
             "| features | ours (ms) | bash+python (ms) | ratio (bash+python / ours) | ours median | bash+python median "
             "| ours CPU user / sys | bash+python CPU user / sys | runs |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for size, o, s in rows:
        lines.append(f"| {size:,} | {o['mean']:.1f} ± {o['stddev']:.1f} | {s['mean']:.1f} ± {s['stddev']:.1f} "
                     f"| {s['mean'] / o['mean']:.1f}× | {o['median']:.1f} | {s['median']:.1f} "
                     f"| {o['user']:.0f} / {o['system']:.0f} | {s['user']:.0f} / {s['system']:.0f} "
                     f"| {o['runs']} / {s['runs']} |")
    return "\n".join(lines) + "\n"


def floor_table(rows):
    lines = ["### The hooks against a bare process start", "",
             "`bare` is a Rust program whose `main` does nothing, built with the same compiler and `-O`: the floor "
             "any native hook pays. SessionStart reads the index of active features, then only those features.",
             "",
             "| features | bare process (ms) | SessionStart (ms) | ratio | PreToolUse, a code file (ms) | ratio "
             "| PreToolUse, a state file (ms) | ratio | SessionStart, index rebuilt (one run, ms) |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for size, bare, hook, pre_code, pre_state, rebuild in rows:
        lines.append(f"| {size:,} | {bare['mean']:.2f} | {hook['mean']:.2f} | {hook['mean'] / bare['mean']:.1f}× "
                     f"| {pre_code['mean']:.2f} | {pre_code['mean'] / bare['mean']:.1f}× "
                     f"| {pre_state['mean']:.2f} | {pre_state['mean'] / bare['mean']:.1f}× | {rebuild:.1f} |")
    return "\n".join(lines) + "\n"


def pre_tool_inputs(work, repo, partial):
    """Two PreToolUse inputs: a Write of a code file, and an Edit of a state file."""
    paths = []
    for name, tool, path in (("code", "Write", f"{repo}/src/lib.rs"),
                             ("state", "Edit", f"{repo}/docs/features/{partial}/.meta.json")):
        p = os.path.join(work, f"pre-{name}-{os.path.basename(repo)}.json")
        with open(p, "w") as f:
            json.dump({"session_id": "bench", "cwd": repo, "hook_event_name": "PreToolUse", "tool_name": tool,
                       "tool_input": {"file_path": path, "content": "fn main() {}\n" * 20}}, f)
        paths.append(p)
    return paths


def rebuild_once(cmd, repo):
    """One SessionStart right after the index is removed: the full scan."""
    index = os.path.join(repo, ".git/phasegate/index.json")
    best = None
    for _ in range(3):
        if os.path.exists(index):
            os.unlink(index)
        with open(cmd.stdin, "rb") as f:
            t0 = time.perf_counter()
            subprocess.run(cmd.argv, cwd=cmd.cwd, stdin=f, stdout=subprocess.DEVNULL, check=True)
            dt = (time.perf_counter() - t0) * 1e3
        best = dt if best is None else min(best, dt)
    return best


def main():
    with open(sys.argv[1]) as f:
        cfg = json.load(f)
    if cfg["timer"] == "hyperfine" and not shutil.which("hyperfine"):
        cfg["timer"] = "loop"
    report = {"hook": [], "validate_root": [], "validate_feature": []}
    floor = []
    notes = []
    for fx in cfg["fixtures"]:
        repo, size = fx["repo"], fx["size"]
        pairs = {
            "hook": (Cmd([cfg["ours_hook"], "session-start"], repo, fx["input"]),
                     Cmd([cfg["seed_hook"]], repo, fx["input"])),
            "validate_root": (Cmd([cfg["ours_ws"], "validate", "design"], repo),
                              Cmd([cfg["seed_validate"], "design"], repo)),
            "validate_feature": (Cmd([cfg["ours_ws"], "validate", "design", "--feature", fx["mid_id"]], repo),
                                 Cmd([cfg["seed_validate"], "design", "--feature", fx["mid_id"]], repo)),
        }
        print(f"\n== {size:,} features ({fx['completed']:,} completed, active: {fx['mid']} between phases, "
              f"no worktree; {fx['partial']} with specify PARTIAL, in a worktree) ==", flush=True)
        agreed = {
            "hook": check_hook(fx, *pairs["hook"]),
            "validate_root": check_validate(fx, *pairs["validate_root"], "several-active"),
            "validate_feature": check_validate(fx, *pairs["validate_feature"], "proceed"),
        }
        for key, text in agreed.items():
            print(f"  agree [{key}]: {text}", flush=True)
            notes.append(f"{size:,} features, {key}: {text}")
        for key, (ours, seed) in pairs.items():
            o, s = measure([ours, seed], cfg, ignore_failure=(key == "validate_root"))
            report[key].append((size, o, s))
            print(f"  time  [{key}]: ours {o['mean']:.1f} ms, bash+python {s['mean']:.1f} ms "
                  f"({s['mean'] / o['mean']:.1f}×)", flush=True)
        code_in, state_in = pre_tool_inputs(os.path.dirname(fx["input"]), repo, fx["partial"])
        pre_state = Cmd([cfg["ours_hook"], "pre-tool-use"], repo, state_in)
        if '"deny"' not in pre_state.run()[1]:
            die("the PreToolUse hook does not deny an edit of .meta.json")
        bare, hook, code, state = measure([Cmd([cfg["bare"]], repo, fx["input"]), pairs["hook"][0],
                                           Cmd([cfg["ours_hook"], "pre-tool-use"], repo, code_in), pre_state], cfg)
        rebuild = rebuild_once(pairs["hook"][0], repo)
        floor.append((size, bare, hook, code, state, rebuild))
        print(f"  time  [floor]: bare {bare['mean']:.2f} ms, SessionStart {hook['mean']:.2f} ms "
              f"({hook['mean'] / bare['mean']:.1f}×), PreToolUse {code['mean']:.2f} / {state['mean']:.2f} ms, "
              f"index rebuild {rebuild:.1f} ms", flush=True)

    # Where the reference's time goes on the largest fixture: its fixed parts.
    big = cfg["fixtures"][-1]
    glob = f"shopt -s nullglob; m=({shlex.quote(big['repo'])}/docs/features/[0-9][0-9][0-9]*-?*/.meta.json)"
    parts = [("python3 -c '' (interpreter start)", Cmd(["python3", "-c", ""], big["repo"])),
             ("git rev-parse (repository root)",
              Cmd(["git", "rev-parse", "--path-format=absolute", "--show-toplevel", "--git-common-dir"], big["repo"])),
             (f"bash glob of {big['size']:,} feature folders", Cmd(["bash", "-c", "export LC_ALL=C; " + glob], big["repo"])),
             ("bash -c '' (shell start)", Cmd(["bash", "-c", ""], big["repo"]))]
    comp = measure([c for _, c in parts], cfg)

    if cfg["timer"] == "hyperfine":
        timer = (f"hyperfine {cfg['hyperfine_version']} (the hook through `sh -c '... < input.json'` with hyperfine's "
                 "shell-spawn correction; everything else with -N, no shell)")
    else:
        timer = "perf_counter loop (python3 subprocess, no shell, the two commands alternated)"
    out = [f"Timer: {timer}; warmup {cfg['warmup']}, at least {cfg['runs']} runs per command. "
           "Times are wall-clock per run, mean ± σ.", "",
           floor_table(floor),
           table("SessionStart hook: `phasegate-hook session-start` vs `bench/seed/session-start.sh`", report["hook"]),
           table("`workflow-state validate design` at the repository root (no --feature: finds the only active feature through the index of active features; with two active features both refuse, exit 2)",
                 report["validate_root"]),
           table("`workflow-state validate design --feature <id>` at the repository root (the decision path: proceed)",
                 report["validate_feature"]),
           f"### Fixed costs inside the bash+python reference ({big['size']:,}-feature fixture)", "",
           "| part | mean (ms) | median (ms) |", "|---|---:|---:|"]
    for (label, _), r in zip(parts, comp):
        out.append(f"| {label} | {r['mean']:.1f} | {r['median']:.1f} |")
    out += ["", "Agreement checks (run once per size before timing):", ""] + [f"- {n}" for n in notes]
    text = "\n".join(out) + "\n"
    print("\n" + text)
    if cfg.get("out"):
        with open(cfg["out"], "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
