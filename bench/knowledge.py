#!/usr/bin/env python3
"""The knowledge base's cost (see docs/benchmarks.md):

- `workflow-state kb query` and the PreToolUse hook (an Edit of a file the
  knowledge base has gotchas for) with no knowledge base, 100 items and
  10,000 items, beside a bare process start;
- the one-off rebuild of the index after the items changed;
- the bytes a task's context package and the implement brief gain from
  their gotchas, and the bytes of one just-in-time injection.

Items are written as the binary writes them (one Markdown file each, YAML
front matter): 10,000 `kb record` runs would take minutes. Their patterns
spread over 1,000 folders (`svc<k>/*`) and a few extensions, so a query
matches a handful, as in a real project.
"""
import json, os, statistics, subprocess, sys, tempfile, time

HOOK, WS, BARE = sys.argv[1], sys.argv[2], sys.argv[3]
RUNS = int(os.environ.get("BENCH_RUNS") or 30)
ENV = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@b", GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@b")
ENV.pop("CLAUDE_CODE_SESSION_ID", None)
WORDS = "retry queue consumer before closing the pool or the next step hangs on its lock".split()


def run(argv, cwd, stdin=b"", env=None):
    r = subprocess.run(argv, cwd=cwd, input=stdin, capture_output=True, env=env or ENV)
    if r.returncode != 0:
        sys.exit(f"bench: {' '.join(argv)} failed ({r.returncode}): {r.stderr.decode()}")
    return r


def timed(argv, cwd, stdin=b"", env=None):
    t = time.perf_counter()
    run(argv, cwd, stdin, env)
    return (time.perf_counter() - t) * 1000


def item(i):
    k = i % 1000
    pattern = f"svc{k}/*" if i % 10 else "*.rs"
    lesson = " ".join(WORDS[(i + j) % len(WORDS)] for j in range(12)) + f" in service {k} case {i}"
    ident = f"gotcha-bench-{i:08x}"
    return ident, (
        "---\n"
        f"id: {ident}\n"
        "type: gotcha\n"
        f"file_pattern: '{pattern}'\n"
        f"confidence: {0.6 + (i % 40) / 100:.2f}\n"
        f"occurrences: {1 + i % 3}\n"
        "discovered_by: bench\n"
        "created_at: 2026-11-01T10:00:00.000Z\n"
        "updated_at: 2026-11-01T10:00:00.000Z\n"
        "injected: 0\nprevented: 0\nnot_helped: 0\n"
        "evidence:\n"
        f"- task: T{i % 9 + 1}\n  feature: 00{k % 9 + 1}-bench\n  at: 2026-11-01T10:00:00.000Z\n  excerpt: lock wait timeout\n"
        f"---\n\n{lesson}\n"
    )


def project(root, name, items):
    path = os.path.join(root, name)
    os.makedirs(os.path.join(path, "svc7"))
    for argv in (["git", "init", "-q"], ["git", "commit", "-q", "--allow-empty", "-m", "init"]):
        subprocess.run(argv, cwd=path, check=True, env=ENV)
    with open(os.path.join(path, "svc7/main.rs"), "w") as f:
        f.write("fn main() {}\n")
    if items:
        kb = os.path.join(path, ".phasegate/knowledge")
        os.makedirs(kb)
        for i in range(items):
            ident, text = item(i)
            with open(os.path.join(kb, ident + ".md"), "w") as f:
                f.write(text)
    run([WS, "feature", "new", "bench"], path)
    with open(os.path.join(path, "docs/features/001-bench/tasks.md"), "w") as f:
        f.write("- [ ] T1: Change the consumer\n  - Files: svc7/main.rs\n")
    return path


def edit(path, session, file="svc7/main.rs"):
    """An Edit of `file` by `session`. A session's first edit of a file
    leases it, so a new session edits a file of its own: another session's
    file would be denied (bench/coordination.sh measures that)."""
    return json.dumps({"session_id": session, "cwd": path, "hook_event_name": "PreToolUse", "tool_name": "Edit",
                       "tool_input": {"file_path": os.path.join(path, file), "old_string": "a", "new_string": "b"},
                       "tool_use_id": "toolu_1"}).encode()


def start(path, session):
    return json.dumps({"session_id": session, "cwd": path, "hook_event_name": "SessionStart", "source": "startup"}).encode()


def fmt(xs):
    return f"{statistics.mean(xs):.2f} ± {statistics.pstdev(xs):.2f}"


def main():
    with tempfile.TemporaryDirectory() as root:
        repos = {n: project(root, f"kb{n}", n) for n in (0, 100, 10_000)}
        # The one-off rebuild after the items changed (the first command or
        # hook after a pull pays it).
        rebuild = {}
        for n in (100, 10_000):
            rebuild[n] = timed([WS, "kb", "index"], repos[n])
        query = [WS, "kb", "query", "--path", "svc7/main.rs", "--json"]
        hook = [HOOK, "pre-tool-use"]
        cases = [("bare process (floor)", [BARE], repos[0], b"", None)]
        for n in (0, 100, 10_000):
            cases.append((f"kb query, {n:,} items", query, repos[n], b"", None))
        for n in (0, 100, 10_000):
            cases.append((f"PreToolUse Edit, {n:,} items, already given", hook, repos[n], edit(repos[n], "bench-same"), None))
        for _, argv, cwd, stdin, env in cases:
            for _ in range(3):
                run(argv, cwd, stdin, env)
        times = {c[0]: [] for c in cases}
        first = {100: [], 10_000: []}
        for r in range(RUNS):
            for name, argv, cwd, stdin, env in cases:
                times[name].append(timed(argv, cwd, stdin, env))
            for n in first:
                # A session starts (SessionStart registers it), then edits.
                run([HOOK, "session-start"], repos[n], start(repos[n], f"bench-{r}"))
                first[n].append(timed(hook, repos[n], edit(repos[n], f"bench-{r}", f"svc7/new{r}.rs")))
        floor = statistics.mean(times[cases[0][0]])
        print(f"| command | ms, mean ± σ of {RUNS} | × bare |")
        print("|---|---|---|")
        for name, *_ in cases:
            print(f"| {name} | {fmt(times[name])} | {statistics.mean(times[name]) / floor:.2f} |")
        for n, xs in first.items():
            print(f"| PreToolUse Edit, {n:,} items, injecting (a session's first edit: lease written) | {fmt(xs)} | {statistics.mean(xs) / floor:.2f} |")
        for n, ms in rebuild.items():
            print(f"| index rebuild, {n:,} items (once after a change) | {ms:.1f} | {ms / floor:.1f} |")

        # Bytes.
        out = run(hook, repos[100], edit(repos[100], "bench-bytes", "svc7/bytes.rs")).stdout
        injected = json.loads(out)["hookSpecificOutput"]["additionalContext"] if out.strip() else ""
        with_kb = json.loads(run([WS, "tasks", "context", "T1"], repos[100]).stdout)["prompt"]
        without = json.loads(run([WS, "tasks", "context", "T1"], repos[0]).stdout)["prompt"]
        brief_with = run([WS, "phase", "brief", "implement"], repos[100]).stdout
        brief_without = run([WS, "phase", "brief", "implement"], repos[0]).stdout
        print()
        print("| what | bytes without gotchas | bytes with | added |")
        print("|---|---|---|---|")
        print(f"| task context package (tasks context T1) | {len(without.encode())} | {len(with_kb.encode())} | {len(with_kb.encode()) - len(without.encode())} |")
        print(f"| implement phase brief (phase brief implement) | {len(brief_without)} | {len(brief_with)} | {len(brief_with) - len(brief_without)} |")
        print(f"| one just-in-time injection (PreToolUse additionalContext) | 0 | {len(injected.encode())} | {len(injected.encode())} |")


if __name__ == "__main__":
    main()
