#!/usr/bin/env python3
"""What each hook costs a Claude Code session in its common case, side by
side with a bare process start (the floor). See docs/benchmarks.md.

    bench/hooks.sh            (builds the release binaries, then runs this)

Each figure is the mean wall time of one hook run over RUNS runs, in ms,
the hook input fed on stdin as Claude Code does.
"""
import fcntl, json, os, re, resource, statistics, subprocess, sys, tempfile, time

HOOK, WS, BARE = sys.argv[1], sys.argv[2], sys.argv[3]
RUNS = int(os.environ.get("BENCH_RUNS") or 50)

BLOCKING = {"question": {"type": "blocking", "text": "Grid or list?", "context": "The spec names both.",
                         "options": [{"label": "Grid"}, {"label": "List"}]}}


def run(argv, cwd, stdin=b"", env=None, check=True):
    r = subprocess.run(argv, cwd=cwd, input=stdin, capture_output=True, env=env)
    if check and r.returncode != 0:
        sys.exit(f"bench: {' '.join(argv)} failed ({r.returncode}): {r.stderr.decode()}")
    return r


def timed(argv, cwd, stdin=b"", env=None):
    t = time.perf_counter()
    run(argv, cwd, stdin, env)
    return (time.perf_counter() - t) * 1000


def faults(argv, cwd, stdin=b"", env=None):
    """Page faults (minor + major) of one run, from the children's rusage."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run(argv, cwd, stdin, env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_minflt - before.ru_minflt) + (after.ru_majflt - before.ru_majflt)


def relocations(argv, cwd, stdin=b""):
    """Relocations the dynamic loader processed (LD_DEBUG=statistics);
    0 for a static executable, which has no loader."""
    env = dict(os.environ, LD_DEBUG="statistics")
    r = subprocess.run(argv, cwd=cwd, input=stdin, capture_output=True, env=env)
    found = [int(n) for n in re.findall(rb":\s+number of (?:relative )?relocations: (\d+)", r.stderr)]
    return sum(found)


def repo(root, name):
    path = os.path.join(root, name)
    os.makedirs(path)
    env = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@b", GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@b")
    for argv in (["git", "init", "-q"], ["git", "commit", "-q", "--allow-empty", "-m", "init"]):
        subprocess.run(argv, cwd=path, check=True, env=env)
    for f in ("alpha", "beta"):
        run([WS, "feature", "new", f], path)
    os.makedirs(os.path.join(path, "src"))
    return path


def hook_input(path, event, **extra):
    return json.dumps(dict({"session_id": "bench-session", "cwd": path, "hook_event_name": event}, **extra)).encode()


def fmt(xs):
    return f"{statistics.mean(xs):.2f} ± {statistics.pstdev(xs):.2f}"


def main():
    rows = []
    with tempfile.TemporaryDirectory() as root:
        plain = repo(root, "plain")
        # The same project with a feature suspended on a question that waits
        # on Slack, and a background poller running (its lock held here).
        asking = repo(root, "asking")
        os.makedirs(os.path.join(asking, ".phasegate"))
        with open(os.path.join(asking, ".phasegate/questions.config.json"), "w") as f:
            f.write('{"slack": {"channels": {"feature": "C0BENCH"}}}')
        with open(os.path.join(asking, "q.json"), "w") as f:
            json.dump(BLOCKING, f)
        no_slack = dict(os.environ, PHASEGATE_SLACK_API_URL="http://127.0.0.1:9/")
        no_slack.pop("PHASEGATE_SLACK_TOKEN", None)
        run([WS, "question", "ask", "--file", "q.json", "--headless", "--feature", "001-alpha"], asking, env=no_slack)
        lock_dir = os.path.join(asking, ".git/phasegate/locks")
        os.makedirs(lock_dir, exist_ok=True)
        held = open(os.path.join(lock_dir, "slack-watch.lock"), "a")
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with_token = dict(os.environ, CLAUDE_PLUGIN_OPTION_SLACK_TOKEN="xoxb-bench")

        cases = [
            ("bare process (floor)", [BARE], plain, b"", None),
            ("SessionStart, 2 active features", [HOOK, "session-start"], plain,
             hook_input(plain, "SessionStart", source="startup"), None),
            ("Stop, a session that owns no loop", [HOOK, "stop"], plain,
             hook_input(plain, "Stop", stop_hook_active=False, last_assistant_message="Done."), None),
            ("Stop, a question waiting on Slack, poller running", [HOOK, "stop"], asking,
             hook_input(asking, "Stop", stop_hook_active=False, last_assistant_message="Done."), with_token),
            ("SessionStart, same", [HOOK, "session-start"], asking,
             hook_input(asking, "SessionStart", source="startup"), with_token),
            ("PreToolUse, Edit of src/lib.rs", [HOOK, "pre-tool-use"], plain,
             hook_input(plain, "PreToolUse", tool_name="Edit",
                        tool_input={"file_path": os.path.join(plain, "src/lib.rs"), "old_string": "a", "new_string": "b"}),
             None),
            ("PreToolUse, Agent (a reviewer)", [HOOK, "pre-tool-use"], plain,
             hook_input(plain, "PreToolUse", tool_name="Agent",
                        tool_input={"subagent_type": "phasegate:chain-reviewer", "description": "Review",
                                    "prompt": "Review the spec of 001-alpha."}),
             None),
            ("PostToolUse, Bash, 2 features witnessed", [HOOK, "post-tool-use"], plain,
             hook_input(plain, "PostToolUse", tool_name="Bash", tool_input={"command": "ls"},
                        tool_response={"stdout": "", "stderr": "", "interrupted": False}),
             None),
            ("SubagentStop, a reviewer", [HOOK, "subagent-stop"], plain,
             hook_input(plain, "SubagentStop", agent_type="phasegate:chain-reviewer",
                        last_assistant_message="APPROVED", stop_hook_active=False), None),
            ("StopFailure, a usage limit (recorded)", [HOOK, "stop-failure"], plain,
             hook_input(plain, "StopFailure", error="rate_limit",
                        last_assistant_message="You've hit your 5-hour limit \u00b7 resets 3pm (Europe/Berlin)"),
             None),
        ]
        for name, argv, cwd, stdin, env in cases:
            out = run(argv, cwd, stdin, env)
            if b"did not start" in out.stdout:
                sys.exit(f"bench: {name}: {out.stdout.decode()}")
            for _ in range(3):
                run(argv, cwd, stdin, env)
        # Interleaved rounds, so a burst of load hits every case alike.
        times = {name: [] for name, *_ in cases}
        for _ in range(RUNS):
            for name, argv, cwd, stdin, env in cases:
                times[name].append(timed(argv, cwd, stdin, env))
        fcntl.flock(held, fcntl.LOCK_UN)
        if os.path.exists(os.path.join(asking, ".git/phasegate/slack-watch.log")):
            sys.exit("bench: a hook started a second poller while one ran")
        for name, argv, cwd, stdin, env in cases:
            flt = statistics.mean(faults(argv, cwd, stdin, env) for _ in range(5))
            rows.append((name, times[name], flt, relocations(argv, cwd, stdin)))
    floor = statistics.mean(rows[0][1])
    print(f"| hook (common case) | ms, mean ± σ of {RUNS} | × bare | page faults | relocations |")
    print("|---|---|---|---|---|")
    for name, xs, flt, rel in rows:
        print(f"| {name} | {fmt(xs)} | {statistics.mean(xs) / floor:.2f} | {flt:.0f} | {rel} |")


if __name__ == "__main__":
    main()
