#!/usr/bin/env python3
"""Per-task overhead of `workflow-state tasks ...` at 10 and 1,000 tasks,
side by side with a bare process start (the floor). See docs/benchmarks.md.

    bench/tasks.sh            (builds the release binaries, then runs this)

Each figure is the mean wall time of one call over RUNS calls, in ms.
`next` is read-only and repeated; `start`+`complete` and `review`+`record`
change state, so each pair runs on a different task.
"""
import json, os, statistics, subprocess, sys, tempfile, time

WS, BARE = sys.argv[1], sys.argv[2]
SIZES = [int(n) for n in (sys.argv[3:] or ["10", "1000"])]
RUNS = int(os.environ.get("BENCH_RUNS") or 10)


def run(argv, cwd, check=True):
    r = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    if check and r.returncode != 0:
        sys.exit(f"bench: {' '.join(argv)} failed ({r.returncode}): {r.stderr}")
    return r


def timed(argv, cwd):
    t = time.perf_counter()
    run(argv, cwd)
    return (time.perf_counter() - t) * 1000


def fixture(n, root):
    repo = os.path.join(root, f"repo-{n}")
    os.makedirs(repo)
    env = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@b", GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@b")
    for argv in (["git", "init", "-q"], ["git", "commit", "-q", "--allow-empty", "-m", "init"]):
        subprocess.run(argv, cwd=repo, check=True, env=env)
    run([WS, "feature", "new", "bench"], repo)
    lines = ["## Work (parallel)", ""]
    for i in range(1, n + 1):
        lines.append(f"- [ ] **Task {i}** [`files: src/f{i}.rs`] [`review: true`]")
        lines.append(f"  - Done when: test_{i} passes")
    with open(os.path.join(repo, "docs/features/001-bench/tasks.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    os.makedirs(os.path.join(repo, ".claude/agents"))
    with open(os.path.join(repo, ".claude/agents/bench-reviewer.md"), "w") as f:
        f.write("---\nname: bench-reviewer\ndescription: reviews\n---\nReview.\n")
    with open(os.path.join(repo, "lgtm.md"), "w") as f:
        f.write("LGTM\n")
    return repo


def fmt(xs):
    return f"{statistics.mean(xs):.2f} ± {statistics.pstdev(xs):.2f}"


def main():
    rows = {}
    with tempfile.TemporaryDirectory() as root:
        for n in SIZES:
            repo = fixture(n, root)
            for _ in range(3):
                run([WS, "tasks", "next", "--json", "--parallel"], repo)
                run([BARE], repo)
            rows.setdefault("bare process (floor)", {})[n] = [timed([BARE], repo) for _ in range(RUNS)]
            rows.setdefault("tasks next --json --parallel", {})[n] = [
                timed([WS, "tasks", "next", "--json", "--parallel"], repo) for _ in range(RUNS)
            ]
            k = min(RUNS, n // 2)
            start, complete, review, record = [], [], [], []
            for i in range(1, k + 1):
                start.append(timed([WS, "tasks", "start", f"T{i}"], repo))
                complete.append(timed([WS, "tasks", "complete", f"T{i}"], repo))
            for i in range(k + 1, 2 * k + 1):
                run([WS, "tasks", "start", f"T{i}"], repo)
                review.append(timed([WS, "tasks", "review", f"T{i}", "--reviewer", "bench-reviewer"], repo))
                record.append(timed([WS, "tasks", "record", f"T{i}", "--reply-file", "lgtm.md", "--headless"], repo))
            rows.setdefault("tasks start", {})[n] = start
            rows.setdefault("tasks complete", {})[n] = complete
            rows.setdefault("tasks review", {})[n] = review
            rows.setdefault("tasks record (LGTM, ticks the task)", {})[n] = record
    head = "| command | " + " | ".join(f"{n} tasks (ms)" for n in SIZES) + " |"
    out = [head, "|---|" + "---|" * len(SIZES)]
    for name, by in rows.items():
        out.append(f"| {name} | " + " | ".join(fmt(by[n]) if n in by else "–" for n in SIZES) + " |")
    print("\n".join(out))


main()
