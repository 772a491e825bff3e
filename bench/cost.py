#!/usr/bin/env python3
"""What reading a feature's cost costs. See docs/benchmarks.md.

    bench/cost.sh            (builds the release binaries, installs ccusage)

A repository with 10 features and SESSIONS Claude Code sessions, each
turned to one feature the way the hooks and the CLI see it (SessionStart
with its transcript_path, then a command naming the feature); then each
session's transcript in Claude Code's format under CLAUDE_CONFIG_DIR:
requests of three models, each message over two lines that share its
message.id and requestId (as Claude Code writes a thinking and a tool_use
block), tool results between them, and every fourth session a sub-agent's
transcript with its meta.json. About 200 KB a session.

Then, each a mean of RUNS runs: `workflow-state cost --json` reading every
transcript for the first time (its cache removed before each run), again
with its cache warm and nothing new, and `ccusage claude session --json
--offline` on the same folder. The two must agree on every token count
(input, output, cache read, cache write); their USD are printed side by
side (each prices from its own table).
"""
import json, os, random, shutil, statistics, subprocess, sys, time
from datetime import datetime, timedelta, timezone

WS, HOOK, CCUSAGE, WORK = sys.argv[1:5]
SESSIONS = int(os.environ.get("BENCH_SESSIONS") or 1000)
RUNS = int(os.environ.get("BENCH_RUNS") or 3)
FEATURES = 10
REQUESTS = 60
AGENT_REQUESTS = 20
MODELS = ["claude-sonnet-4-5-20250929"] * 6 + ["claude-opus-4-5-20251101"] * 2 + ["claude-haiku-4-5-20251001"] * 2
GIT_ENV = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@b", GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@b")
CLAUDE = os.path.join(WORK, "claude")
REPO = os.path.join(WORK, "repo")
PROJECTS = os.path.join(CLAUDE, "projects", "-bench-repo")
ENV = dict(GIT_ENV, CLAUDE_CONFIG_DIR=CLAUDE, HOME=os.path.join(WORK, "home"))
PAD = "x" * 900


def run(argv, stdin=b"", env=None, ok=(0,)):
    r = subprocess.run(argv, cwd=REPO, input=stdin, capture_output=True, env=env or ENV)
    if r.returncode not in ok:
        sys.exit(f"bench: {' '.join(argv)} exited {r.returncode}: {r.stderr.decode()[:2000]}")
    return r


def timed(argv):
    """Wall time (ms) of one run, and its stdout."""
    t = time.perf_counter()
    p = subprocess.Popen(argv, cwd=REPO, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = p.communicate()
    ms = (time.perf_counter() - t) * 1000
    if p.returncode != 0:
        sys.exit(f"bench: {' '.join(argv)} exited {p.returncode}: {err.decode()[:2000]}")
    return ms, out


def rss_mb(argv):
    """Peak resident memory of one run (MB), from wait4."""
    p = subprocess.Popen(argv, cwd=REPO, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(p.pid, 0)
    return usage.ru_maxrss / 1024


def setup():
    os.makedirs(os.path.join(REPO, "src"))
    os.makedirs(PROJECTS)
    os.makedirs(ENV["HOME"])
    with open(os.path.join(REPO, "src", "main.py"), "w") as f:
        f.write("print('hi')\n")
    for argv in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-q", "-m", "init"]):
        subprocess.run(argv, cwd=REPO, check=True, env=GIT_ENV, capture_output=True)
    features = []
    for i in range(FEATURES):
        name = run([WS, "feature", "new", f"feature-{i}"]).stdout.decode().strip().rsplit("/", 1)[-1]
        run([WS, "phase", "start", "specify", "--feature", name])
        features.append(name)
    sessions = []
    for s in range(SESSIONS):
        sid = f"bench-{s:05d}-{random.Random(s).getrandbits(64):016x}"
        path = os.path.join(PROJECTS, f"{sid}.jsonl")
        open(path, "w").close()
        hook = {"hook_event_name": "SessionStart", "session_id": sid, "cwd": REPO, "transcript_path": path, "source": "startup"}
        run([HOOK, "session-start"], stdin=json.dumps(hook).encode())
        feature = features[s % FEATURES]
        run([WS, "feature", "show", "--feature", feature], env=dict(ENV, CLAUDE_CODE_SESSION_ID=sid))
        sessions.append((sid, path))
    return features, sessions


def stamp(t):
    """Claude Code's timestamps: milliseconds, Z."""
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def usage(rng):
    return {
        "input_tokens": rng.randint(3, 4000),
        "cache_creation_input_tokens": rng.randint(0, 6000),
        "cache_read_input_tokens": rng.randint(5000, 90000),
        "output_tokens": rng.randint(40, 2500),
        "service_tier": "standard",
    }


def transcript(f, sid, rng, clock, requests, agent=None):
    """Writes one transcript; returns the tokens it holds, each message once."""
    totals = [0, 0, 0, 0]
    parent = None
    for r in range(requests):
        model = rng.choice(MODELS)
        u = usage(rng)
        for k, key in enumerate(("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")):
            totals[k] += u[key]
        mid = f"msg_{sid}_{agent or 'main'}_{r}"
        rid = f"req_{sid}_{agent or 'main'}_{r}"
        for block in ({"type": "thinking", "thinking": PAD[:300]}, {"type": "tool_use", "id": f"toolu_{r}", "name": "Read", "input": {"file_path": "src/main.py"}}):
            clock[0] += timedelta(microseconds=20)
            line = {
                "parentUuid": parent, "isSidechain": agent is not None, "userType": "external", "cwd": REPO,
                "sessionId": sid, "version": "2.0.76", "gitBranch": "main", "type": "assistant",
                "message": {"id": mid, "type": "message", "role": "assistant", "model": model, "content": [block],
                            "stop_reason": None, "usage": u},
                "requestId": rid, "uuid": f"{mid}-{block['type']}", "timestamp": stamp(clock[0]),
            }
            if agent:
                line["agentId"] = agent
            f.write(json.dumps(line, separators=(",", ":")) + "\n")
            parent = line["uuid"]
        clock[0] += timedelta(microseconds=20)
        result = {
            "parentUuid": parent, "isSidechain": agent is not None, "userType": "external", "cwd": REPO, "sessionId": sid,
            "type": "user", "message": {"role": "user", "content": [{"tool_use_id": f"toolu_{r}", "type": "tool_result", "content": PAD}]},
            "uuid": f"{mid}-result", "timestamp": stamp(clock[0]),
        }
        f.write(json.dumps(result, separators=(",", ":")) + "\n")
        parent = result["uuid"]
    return totals


def transcripts(sessions):
    clock = [datetime.now(timezone.utc)]
    totals = [0, 0, 0, 0]
    size = 0
    for s, (sid, path) in enumerate(sessions):
        rng = random.Random(s)
        with open(path, "w") as f:
            t = transcript(f, sid, rng, clock, REQUESTS)
        totals = [a + b for a, b in zip(totals, t)]
        size += os.path.getsize(path)
        if s % 4 == 0:
            sub = os.path.join(PROJECTS, sid, "subagents")
            os.makedirs(sub)
            with open(os.path.join(sub, "agent-a1b2c3.jsonl"), "w") as f:
                t = transcript(f, sid, rng, clock, AGENT_REQUESTS, agent="a1b2c3")
            with open(os.path.join(sub, "agent-a1b2c3.meta.json"), "w") as f:
                json.dump({"agentType": "phasegate:reviewer"}, f)
            totals = [a + b for a, b in zip(totals, t)]
            size += os.path.getsize(os.path.join(sub, "agent-a1b2c3.jsonl"))
    # Every line's timestamp is before the readers run.
    while datetime.now(timezone.utc) <= clock[0]:
        time.sleep(0.01)
    return totals, size


def mean(xs):
    return f"{statistics.mean(xs):,.0f}" + (f" ± {statistics.stdev(xs):,.0f}" if len(xs) > 1 else "")


def main():
    t = time.perf_counter()
    features, sessions = setup()
    made = time.perf_counter() - t
    totals, size = transcripts(sessions)
    print(f"== {SESSIONS} sessions on {FEATURES} features ({SESSIONS // 4} with a sub-agent): {size / 1e6:,.0f} MB of transcripts; set up in {made:,.0f} s")
    cost_dir = os.path.join(REPO, ".git", "phasegate", "cost")

    def drop_cache():
        """A first read: the cache of transcripts removed (one file; a folder of one per transcript before)."""
        shutil.rmtree(os.path.join(cost_dir, "cache"), ignore_errors=True)
        try:
            os.remove(os.path.join(cost_dir, "transcripts.json"))
        except FileNotFoundError:
            pass

    ours = [WS, "cost", "--json"]
    theirs = [CCUSAGE, "claude", "session", "--json", "--offline"]

    # Agreement first.
    drop_cache()
    _, out = timed(ours)
    p = json.loads(out)
    t_ours = p["total"]
    got = [t_ours["input"], t_ours["output"], t_ours["cacheRead"], t_ours["cacheWrite"]]
    if got != totals:
        sys.exit(f"bench: DISAGREEMENT: phasegate counted {got}, the transcripts hold {totals}")
    per_feature = sum(f["total"]["output"] for f in p["features"])
    if per_feature != totals[1] or p["unattributed"]["output"] != 0:
        sys.exit(f"bench: DISAGREEMENT: the features hold {per_feature} output tokens of {totals[1]}")
    _, out = timed(theirs)
    c = json.loads(out)["totals"]
    cc = [c["inputTokens"], c["outputTokens"], c["cacheReadTokens"], c["cacheCreationTokens"]]
    if cc != totals:
        sys.exit(f"bench: DISAGREEMENT: ccusage counted {cc}, the transcripts hold {totals}")
    print(f"== both count {sum(totals):,} tokens (in {totals[0]:,}, out {totals[1]:,}, cache read {totals[2]:,}, cache write {totals[3]:,}); "
          f"USD: phasegate ${t_ours['usd']:,.2f} (its table, by feature and phase), ccusage ${c['totalCost']:,.2f} (its bundled table)")

    cold, warm, cc_ms = [], [], []
    for _ in range(RUNS):
        drop_cache()
        cold.append(timed(ours)[0])
        warm.append(timed(ours)[0])
        cc_ms.append(timed(theirs)[0])
    drop_cache()
    cold_rss = rss_mb(ours)
    warm_rss = rss_mb(ours)
    cc_rss = rss_mb(theirs)
    print()
    print(f"| reader, {size / 1e6:,.0f} MB of transcripts | ms (mean of {RUNS}) | peak memory (MB) |")
    print("|---|---:|---:|")
    print(f"| `workflow-state cost --json`, first read (no cache) | {mean(cold)} | {cold_rss:,.0f} |")
    print(f"| `workflow-state cost --json`, cache warm, nothing new | {mean(warm)} | {warm_rss:,.0f} |")
    print(f"| `ccusage claude session --json --offline` | {mean(cc_ms)} | {cc_rss:,.0f} |")
    print(f"\nfirst read: {statistics.mean(cc_ms) / statistics.mean(cold):.1f}x faster than ccusage; "
          f"warm: {statistics.mean(cc_ms) / statistics.mean(warm):.0f}x")


main()
