#!/usr/bin/env python3
"""The cost of a team across machines (issue 34), on loopback.

    bench/team.sh     (builds the release binaries, then runs this)

A bare repository is the team's remote, reached four ways: as a file://
path, served by `git daemon` on 127.0.0.1, through a proxy on 127.0.0.1
that delays every chunk by BENCH_DELAY_MS (a slow link), and down (a port
nobody listens on). For each, `workflow-state tasks start` of a fresh task
(its claim pushed: one compare-and-swap round trip) is timed next to the
same start in a clone with no remote; then the hooks that run on every
session, prompt and edit, in the clone whose remote is each of those, next
to a bare process start. Rounds interleave the cases so load hits them
alike; each figure is the mean wall time in ms over RUNS runs.
"""
import asyncio, json, os, shutil, socket, statistics, subprocess, sys, threading, time

WORK = sys.argv[1]
HOOK, WS, BARE = (os.path.join(WORK, n) for n in ("phasegate-hook", "workflow-state", "bare"))
RUNS = int(os.environ.get("BENCH_RUNS") or 20)
DELAY = int(os.environ.get("BENCH_DELAY_MS") or 100) / 1000
HOME = os.path.join(WORK, "home")
ENV = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "PHASEGATE_", "GIT_"))}
ENV.update(HOME=HOME, XDG_STATE_HOME=os.path.join(WORK, "state"), PHASEGATE_TEST_OUTSIDE_CLAUDE_CODE="1")


def run(argv, cwd, stdin=b"", ok=(0,)):
    r = subprocess.run(argv, cwd=cwd, input=stdin, capture_output=True, env=ENV)
    if r.returncode not in ok:
        sys.exit(f"bench: {' '.join(argv)} in {cwd} failed ({r.returncode}): {r.stderr.decode()}")
    return r


def timed(argv, cwd, stdin=b"", ok=(0,)):
    t = time.perf_counter()
    out = run(argv, cwd, stdin, ok)
    return (time.perf_counter() - t) * 1000, out


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port):
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return
        except OSError:
            time.sleep(0.05)
    sys.exit(f"bench: nothing listens on {port}")


def slow_proxy(listen, to):
    """Forwards 127.0.0.1:listen to 127.0.0.1:to, each chunk DELAY late."""
    async def pipe(r, w):
        try:
            while data := await r.read(65536):
                await asyncio.sleep(DELAY)
                w.write(data)
                await w.drain()
        finally:
            w.close()

    async def handle(r1, w1):
        r2, w2 = await asyncio.open_connection("127.0.0.1", to)
        await asyncio.gather(pipe(r1, w2), pipe(r2, w1), return_exceptions=True)

    async def main():
        server = await asyncio.start_server(handle, "127.0.0.1", listen)
        async with server:
            await server.serve_forever()

    threading.Thread(target=lambda: asyncio.run(main()), daemon=True).start()
    wait_port(listen)


def hook_input(path, event, **extra):
    return json.dumps(dict({"session_id": "bench-team", "cwd": path, "hook_event_name": event}, **extra)).encode()


def fmt(xs, floor=None):
    m = statistics.mean(xs)
    ratio = f" | {m / floor:.2f}×" if floor else ""
    return f"{m:.1f} ± {statistics.pstdev(xs):.1f}{ratio}"


def main():
    os.makedirs(HOME)
    with open(os.path.join(HOME, ".gitconfig"), "w") as f:
        f.write("[user]\n\tname = bench\n\temail = bench@example.com\n")
    bare = os.path.join(WORK, "remote.git")
    run(["git", "init", "-q", "--bare", "--initial-branch=main", bare], WORK)
    seed = os.path.join(WORK, "seed")
    run(["git", "init", "-q", "--initial-branch=main", seed], WORK)
    out = run([WS, "feature", "new", "bench"], seed).stdout.decode()
    feature = os.path.basename(out.splitlines()[0].strip())
    tasks = "".join(f"- [ ] T{i}: task {i}\n" for i in range(1, 6 * (RUNS + 1) + 1))
    with open(os.path.join(seed, f"docs/features/{feature}/tasks.md"), "w") as f:
        f.write("# Tasks\n\n## Phase 1 (parallel)\n\n" + tasks)
    run(["git", "add", "."], seed)
    run(["git", "commit", "-q", "-m", "bench"], seed)
    run(["git", "push", "-q", bare, "main"], seed)

    port = free_port()
    daemon = subprocess.Popen(
        [os.path.join(run(["git", "--exec-path"], WORK).stdout.decode().strip(), "git-daemon"), "--reuseaddr",
         "--listen=127.0.0.1", f"--port={port}", "--export-all", "--enable=receive-pack", f"--base-path={WORK}",
         WORK], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_port(port)
        slow = free_port()
        slow_proxy(slow, port)
        remotes = {
            "no remote": None,
            "file:// remote": f"file://{bare}",
            "git daemon on 127.0.0.1": f"git://127.0.0.1:{port}/remote.git",
            f"git daemon behind a proxy adding {int(DELAY * 1000)} ms a chunk": f"git://127.0.0.1:{slow}/remote.git",
            "remote down (nothing listens)": f"git://127.0.0.1:{free_port()}/remote.git",
        }
        clones = {}
        for i, (name, url) in enumerate(remotes.items()):
            c = os.path.join(WORK, f"clone{i}")
            run(["git", "clone", "-q", f"file://{bare}", c], WORK)
            if url is None:
                run(["git", "remote", "remove", "origin"], c)
            else:
                run(["git", "remote", "set-url", "origin", url], c)
            clones[name] = c
        # Task numbers: each case starts its own tasks, one a round.
        nxt = {name: iter(range(i + 1, 10**6, len(remotes))) for i, name in enumerate(remotes)}
        starts = {name: [] for name in remotes}
        lines = {}
        for _ in range(RUNS):
            for name, c in clones.items():
                t = f"T{next(nxt[name])}"
                ms, out = timed([WS, "tasks", "start", t, "--feature", feature], c)
                starts[name].append(ms)
                lines[name] = json.loads(out.stdout).get("team")
                run([WS, "tasks", "skip", t, "--feature", feature], c)
        claims = run(["git", "for-each-ref", "refs/phasegate/claims/"], bare).stdout.decode()
        if claims.strip():
            sys.exit(f"bench: claims left on the remote: {claims}")

        cases = [("bare process (floor)", lambda c: ([BARE], b""))] + [
            ("SessionStart", lambda c: ([HOOK, "session-start"], hook_input(c, "SessionStart", source="startup"))),
            ("UserPromptSubmit", lambda c: ([HOOK, "user-prompt-submit"], hook_input(c, "UserPromptSubmit", prompt="go"))),
            ("PreToolUse, Edit", lambda c: ([HOOK, "pre-tool-use"], hook_input(
                c, "PreToolUse", tool_name="Edit",
                tool_input={"file_path": os.path.join(c, "README.md"), "old_string": "a", "new_string": "b"}))),
            ("Stop", lambda c: ([HOOK, "stop"], hook_input(c, "Stop", stop_hook_active=False))),
        ]
        hooks = {(h, r): [] for h, _ in cases for r in remotes}
        for r, c in clones.items():  # one round untimed: caches warm alike
            for h, make in cases:
                argv, stdin = make(c)
                run(argv, c, stdin)
        for _ in range(RUNS):
            for r, c in clones.items():
                for h, make in cases:
                    argv, stdin = make(c)
                    ms, _ = timed(argv, c, stdin)
                    hooks[(h, r)].append(ms)
    finally:
        daemon.kill()
        daemon.wait()

    base = statistics.mean(starts["no remote"])
    print(f"| `tasks start` of a fresh task, the team's remote | ms, mean ± σ of {RUNS} | claim round trip (− no remote) | what the start said |")
    print("|---|---|---|---|")
    for name in remotes:
        extra = "" if name == "no remote" else f"{statistics.mean(starts[name]) - base:.1f}"
        said = (lines[name] or "").split(";")[0][:70]
        print(f"| {name} | {fmt(starts[name])} | {extra} | {said} |")
    print()
    floor = statistics.mean([ms for r in remotes for ms in hooks[("bare process (floor)", r)]])
    print(f"| hook, in a clone whose remote is … | " + " | ".join(remotes) + " |")
    print("|---|" + "---|" * len(remotes))
    for h, _ in cases:
        cells = [f"{statistics.mean(hooks[(h, r)]):.2f} ({statistics.mean(hooks[(h, r)]) / floor:.2f}×)" for r in remotes]
        print(f"| {h} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
