#!/usr/bin/env python3
"""What proving a feature costs. See docs/benchmarks.md.

    bench/proof.sh            (builds the release binaries, then runs this)

1. `verify run` on 200 requirements, each with its own check (`true`): the
   whole run next to the time its checks took (as the ledger records it),
   and next to 200 bare `sh -c true` starts from Python (what any runner
   pays to start the checks).
2. The readers of a ledger of 200 requirements, each a mean of RUNS runs
   next to a bare process start: `verify status` (proven), `finish`
   (refused: one requirement fails), and a pipeline's Stop hook whose
   ledger proves its 200 acceptance criteria at this tree (it runs the
   plan's test command `true`, reads the ledger instead of running the
   checks, and completes the pipeline; each run on a fresh copy
   whose index git has refreshed).
"""
import json, os, shutil, statistics, subprocess, sys, tempfile, time

WS, HOOK, BARE, FIXTURES = sys.argv[1:5]
RUNS = int(os.environ.get("BENCH_RUNS") or 20)
N = 200
GIT_ENV = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@b", GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@b")


def run(argv, cwd, stdin=b"", ok=(0,)):
    r = subprocess.run(argv, cwd=cwd, input=stdin, capture_output=True, env=GIT_ENV)
    if r.returncode not in ok:
        sys.exit(f"bench: {' '.join(argv)} exited {r.returncode}: {r.stderr.decode()}")
    return r


def timed(argv, cwd, stdin=b"", ok=(0,)):
    t = time.perf_counter()
    run(argv, cwd, stdin, ok)
    return (time.perf_counter() - t) * 1000


def repo(root, name, files=N):
    path = os.path.join(root, name)
    os.makedirs(os.path.join(path, "src"))
    for i in range(files):
        with open(os.path.join(path, "src", f"f{i}.py"), "w") as f:
            f.write(f"def f{i}():\n    return {i}\n")
    for argv in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-q", "-m", "init"]):
        subprocess.run(argv, cwd=path, check=True, env=GIT_ENV, capture_output=True)
    return path


def phased(root, name, failing):
    path = repo(root, name)
    run([WS, "feature", "new", "bench"], path)
    d = os.path.join(path, "docs/features/001-bench")
    with open(os.path.join(d, "spec.md"), "w") as f:
        f.write("# Spec\n\n## Requirements\n\n" + "".join(f"- **R{i}**: requirement {i}\n" for i in range(1, N + 1)))
    with open(os.path.join(d, "tasks.md"), "w") as f:
        f.write("# Tasks\n\n## Checks\n\n")
        f.write("".join(f"- R{i}: `{'false' if failing and i == N else 'true'} {i}`\n" for i in range(1, N + 1)))
    return path


def pipeline(root):
    """A pipeline in its implementation loop, code approved, whose ledger
    proves its 200 acceptance criteria at this tree."""
    path = repo(root, "pipeline")
    os.makedirs(os.path.join(path, ".phasegate"))
    with open(os.path.join(path, ".phasegate/pipeline.config.json"), "w") as f:
        f.write('{"finalGate": {"command": ["phasegate-bench-no-such-reviewer"]}}')
    s = ["--session", "bench-session"]
    env_s = dict(GIT_ENV, CLAUDE_CODE_SESSION_ID="bench-session")

    def ws(*args, ok=(0,)):
        r = subprocess.run([WS, *args], cwd=path, capture_output=True, env=env_s)
        if r.returncode not in ok:
            sys.exit(f"bench: workflow-state {' '.join(args)}: {r.stderr.decode()}")
        return r

    ws("pipeline", "start", "auth", "--request", "Bench", *s)
    task = os.path.join(path, "docs/features/001-auth/.task")
    story = json.load(open(os.path.join(FIXTURES, "user-story.json")))
    story["acceptance_criteria"] = [
        {"id": f"AC{i}", "scenario": f"criterion {i}", "given": "g", "when": "w", "then": "t"} for i in range(1, N + 1)
    ]
    json.dump(story, open(os.path.join(task, "user-story.json"), "w"))
    plan = json.load(open(os.path.join(FIXTURES, "plan-refined.json")))
    plan["test_plan"] = {"commands": ["true"], "checks": [{"requirements": [f"AC{i}"], "command": f"true {i}"} for i in range(1, N + 1)]}
    json.dump(plan, open(os.path.join(task, "plan-refined.json"), "w"))
    for to in ("plan_drafting", "plan_refining", "plan_reviewing"):
        ws("pipeline", "transition", to)

    def review(reviewer, model):
        with open(os.path.join(task, f"review-{model}.json"), "w") as f:
            json.dump({"id": "review-1", "reviewer": reviewer, "model": model, "status": "approved", "summary": "ok",
                       "findings": [], "reviewed_at": "2026-11-22T10:00:00Z"}, f)
        ws("pipeline", "review", model)

    review("plan-reviewer", "sonnet")
    review("plan-reviewer", "opus")
    ws("pipeline", "final-gate")
    ws("pipeline", "transition", "implementing")
    ws("pipeline", "transition", "implementing_loop")
    review("code-reviewer", "sonnet")
    review("code-reviewer", "opus")
    ws("pipeline", "final-gate")
    ws("verify", "run")
    return path


def fmt(xs):
    return f"{statistics.mean(xs):.2f} ± {statistics.pstdev(xs):.2f}"


def main():
    with tempfile.TemporaryDirectory() as root:
        proven = phased(root, "proven", failing=False)
        failing = phased(root, "failing", failing=True)
        run([WS, "verify", "run"], failing, ok=(1,))
        pipe = pipeline(root)

        # 1. verify run's overhead.
        totals, checks = [], []
        for _ in range(5):
            t = time.perf_counter()
            out = json.loads(run([WS, "verify", "run", "--json"], proven).stdout)
            totals.append((time.perf_counter() - t) * 1000)
            checks.append(out["checksMs"])
        starts = []
        for _ in range(5):
            t = time.perf_counter()
            for i in range(N):
                subprocess.run(["sh", "-c", f"true {i}"], cwd=proven, capture_output=True)
            starts.append((time.perf_counter() - t) * 1000)
        print(f"| `verify run`, {N} requirements, a check each (`true`) | ms, mean ± σ of 5 |")
        print("|---|---|")
        print(f"| the whole run | {fmt(totals)} |")
        print(f"| its checks, as the ledger records them | {fmt(checks)} |")
        print(f"| `verify run`'s own part (the whole run less its checks) | {fmt([a - b for a, b in zip(totals, checks)])} |")
        print(f"| {N} × `sh -c true` from Python, for reference | {fmt(starts)} |")
        print()

        # 2. The readers.
        stop = json.dumps({"session_id": "bench-session", "cwd": pipe, "hook_event_name": "Stop",
                           "stop_hook_active": False,
                           "last_assistant_message": "Done. <promise>IMPLEMENTATION_COMPLETE</promise>"}).encode()
        cases = [
            ("bare process (floor)", lambda: timed([BARE], proven)),
            ("`workflow-state --version` (the CLI's own start; reads nothing)", lambda: timed([WS, "--version"], proven)),
            (f"`verify status`, {N} requirements proven", lambda: timed([WS, "verify", "status"], proven)),
            (f"`finish`, refused: 1 of {N} requirements failed", lambda: timed([WS, "finish"], failing, ok=(1,))),
        ]
        copies = iter(range(10_000))

        def stop_on_a_copy():
            dst = os.path.join(root, f"pipe-{next(copies)}")
            shutil.copytree(pipe, dst, symlinks=True)
            # A copy has new inodes and change times, which git's index
            # records: refreshed (outside the timing) as any git command
            # leaves a checkout, or every reading of the tree would hash
            # every file again, which no user's repository does.
            run(["git", "update-index", "-q", "--refresh"], dst, ok=(0, 1))
            data = stop.replace(pipe.encode(), dst.encode())
            t = timed([HOOK, "stop"], dst, data)
            shutil.rmtree(dst)
            return t

        cases.append((f"Stop hook, a pipeline whose ledger proves its {N} criteria (completes it)", stop_on_a_copy))
        # The Stop hook's own reading of that ledger: what `verify status`
        # does on the same pipeline (the ledger and the tree's identity).
        cases.append((f"`verify status` of that pipeline ({N} criteria): the ledger's share of its Stop hook",
                      lambda: timed([WS, "verify", "status"], pipe)))
        times = {name: [] for name, _ in cases}
        for name, f in cases:
            for _ in range(2):
                f()
        for _ in range(RUNS):
            for name, f in cases:
                times[name].append(f())
        floor = statistics.mean(times["bare process (floor)"])
        print(f"| reader | ms, mean ± σ of {RUNS} | × bare |")
        print("|---|---|---|")
        for name, _ in cases:
            xs = times[name]
            print(f"| {name} | {fmt(xs)} | {statistics.mean(xs) / floor:.2f} |")


if __name__ == "__main__":
    main()
