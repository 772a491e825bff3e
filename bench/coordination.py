#!/usr/bin/env python3
"""What the hooks that run on every edit cost with file leases in play: 50
sessions holding 5,000 leases in one repository, side by side with a bare
process start (the floor). See docs/benchmarks.md.

    bench/coordination.sh     (builds the release binaries, then runs this)

The leases are taken the way sessions take them: each session's
PreToolUse hook on its first edit of a file. Each figure is the mean wall
time of one hook run over RUNS runs, in ms, the input fed on stdin as
Claude Code does; rounds interleave the cases so load hits them alike.
"""
import json, os, statistics, subprocess, sys, tempfile, time

HOOK, WS, BARE = sys.argv[1], sys.argv[2], sys.argv[3]
RUNS = int(os.environ.get("BENCH_RUNS") or 50)
SESSIONS = int(os.environ.get("BENCH_SESSIONS") or 50)
LEASES = int(os.environ.get("BENCH_LEASES") or 5000)


def run(argv, cwd, stdin=b""):
    r = subprocess.run(argv, cwd=cwd, input=stdin, capture_output=True)
    if r.returncode != 0:
        sys.exit(f"bench: {' '.join(argv)} failed ({r.returncode}): {r.stderr.decode()}")
    return r


def timed(argv, cwd, stdin=b""):
    t = time.perf_counter()
    out = run(argv, cwd, stdin)
    return (time.perf_counter() - t) * 1000, out


def hook_input(path, session, event, **extra):
    return json.dumps(dict({"session_id": session, "cwd": path, "hook_event_name": event}, **extra)).encode()


def edit(path, session, rel):
    return hook_input(path, session, "PreToolUse", tool_name="Edit",
                      tool_input={"file_path": os.path.join(path, rel), "old_string": "a", "new_string": "b"})


def fmt(xs, floor):
    m = statistics.mean(xs)
    return f"{m:.2f} ± {statistics.pstdev(xs):.2f}", f"{m / floor:.2f}×"


def main():
    with tempfile.TemporaryDirectory() as root:
        path = os.path.join(root, "project")
        os.makedirs(path)
        env = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@b", GIT_COMMITTER_NAME="b",
                   GIT_COMMITTER_EMAIL="b@b")
        for argv in (["git", "init", "-q"], ["git", "commit", "-q", "--allow-empty", "-m", "init"]):
            subprocess.run(argv, cwd=path, check=True, env=env)
        sessions = [f"bench-{i:02d}" for i in range(SESSIONS)]
        per = LEASES // SESSIONS
        t = time.perf_counter()
        for s in sessions:
            run([HOOK, "session-start"], path, hook_input(path, s, "SessionStart", source="startup"))
            for j in range(per):
                out = run([HOOK, "pre-tool-use"], path, edit(path, s, f"src/{s}/f{j:03d}.rs"))
                if b"deny" in out.stdout:
                    sys.exit(f"bench: setup was denied: {out.stdout.decode()}")
        leases = len(os.listdir(os.path.join(path, ".git/phasegate/leases")))
        if leases != per * SESSIONS:
            sys.exit(f"bench: {leases} leases, expected {per * SESSIONS}")
        print(f"== setup: {SESSIONS} sessions took {leases} leases through the hook in {time.perf_counter() - t:.1f} s")

        me, other = sessions[0], sessions[1]
        mine = "src/bench-00/f000.rs"
        theirs = "src/bench-01/f000.rs"
        fresh = iter(range(10**9))
        cases = [
            ("bare process (floor)", lambda: ([BARE], b"")),
            ("PreToolUse, Edit of a file this session leases", lambda: ([HOOK, "pre-tool-use"], edit(path, me, mine))),
            ("PreToolUse, Edit of a file another live session leases (DENY)",
             lambda: ([HOOK, "pre-tool-use"], edit(path, me, theirs))),
            ("PreToolUse, first Edit of a free file (GRANT: the lease written)",
             lambda: ([HOOK, "pre-tool-use"], edit(path, me, f"src/new/n{next(fresh)}.rs"))),
            ("UserPromptSubmit, nothing to offer", lambda: ([HOOK, "user-prompt-submit"],
                                                           hook_input(path, me, "UserPromptSubmit", prompt="go on"))),
            ("PostToolUse, Bash (5,000 leases checked for its writes)",
             lambda: ([HOOK, "post-tool-use"], hook_input(path, me, "PostToolUse", tool_name="Bash",
                                                          tool_input={"command": "true"}, duration_ms=20))),
        ]
        for name, make in cases:
            argv, stdin = make()
            out = run(argv, path, stdin)
            if "DENY" in name and b"deny" not in out.stdout:
                sys.exit(f"bench: {name}: not denied: {out.stdout.decode()}")
        times = {name: [] for name, _ in cases}
        for _ in range(RUNS):
            # Every session stays live (a heartbeat each round, not timed).
            run([HOOK, "user-prompt-submit"], path, hook_input(path, other, "UserPromptSubmit", prompt="x"))
            for name, make in cases:
                argv, stdin = make()
                ms, _ = timed(argv, path, stdin)
                times[name].append(ms)
        floor = statistics.mean(times["bare process (floor)"])
    print(f"| hook, {SESSIONS} sessions, {LEASES} leases | ms, mean ± σ of {RUNS} | × bare process |")
    print("|---|---|---|")
    for name, _ in cases:
        m, ratio = fmt(times[name], floor)
        print(f"| {name} | {m} | {ratio} |")


if __name__ == "__main__":
    main()
