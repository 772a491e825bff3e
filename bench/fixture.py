#!/usr/bin/env python3
"""Builds a benchmark fixture repository for bench/run.sh.

    fixture.py <workflow-state> <template-dir> <repo-dir> <features>

The repository gets `git init` and one commit (README.md only), then
<features> feature folders in docs/features/:

- features 1 .. N-2 are completed. Their .meta.json files are written
  directly (10,000 runs of the binary would take minutes), cloned from a
  template feature that the real `workflow-state` binary drove through every
  phase with reviewer verdicts and `finish` (made once in <template-dir>), so
  they have exactly the shape and formatting the binary writes; ids, slugs,
  modes, timestamps and review counts vary. Up to 10,000 features each
  folder also holds the five artifacts (brainstorm.md, spec.md, design.md,
  plan.md, tasks.md); above that only .meta.json (neither implementation
  reads a completed feature's artifacts, and 100,000 x 6 files would only
  cost disk).
- feature N-1 is active, made with the binary, no worktree, between phases:
  brainstorm and specify approved, design next (`validate design` proceeds).
- feature N is active, made with the binary with a git worktree
  (.worktrees/<name>): brainstorm approved, specify PARTIAL (one reviewer
  iteration, not approved).

Prints a JSON description of the fixture on stdout.
"""

import copy
import datetime as dt
import json
import os
import random
import subprocess
import sys

PHASES = ["brainstorm", "specify", "design", "create-plan", "create-tasks", "implement", "verify", "finish"]
ARTIFACTS = {"brainstorm": "brainstorm.md", "specify": "spec.md", "design": "design.md",
             "create-plan": "plan.md", "create-tasks": "tasks.md"}
CAPS = {"hotfix": 1, "quick": 2, "standard": 3, "full": 5}
REVISE = {"approved": False, "summary": "needs work",
          "issues": [{"severity": "blocker", "description": "acceptance criteria missing", "location": "§2"},
                     {"severity": "note", "description": "one typo"}]}
APPROVE = {"approved": True, "summary": "ready for the next phase",
           "issues": [{"severity": "note", "description": "could be shorter"}]}
WORDS = ["auth", "billing", "search", "export", "import", "cache", "audit", "login", "profile", "invoice",
         "report", "webhook", "queue", "upload", "payment", "settings", "sync", "notify", "admin", "api",
         "dashboard", "metrics", "backup", "tenant", "onboarding", "rate-limit", "session", "token", "i18n", "sso"]
ACTIVE_MID = "billing-export-v2"
ACTIVE_PARTIAL = "search-reindex"


def run(cmd, cwd, stdin=None):
    r = subprocess.run(cmd, cwd=cwd, input=stdin, text=True, capture_output=True)
    if r.returncode != 0:
        sys.exit(f"fixture: {' '.join(cmd)} failed in {cwd} (exit {r.returncode}):\n{r.stdout}{r.stderr}")
    return r.stdout


def git(repo, *args):
    return run(["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid",
                "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args], repo)


def review(ws, repo, feature, phase, verdict):
    run([ws, "review", "record", phase, "--feature", feature, "--verdict-file", "-"], repo, json.dumps(verdict))


def artifact_text(name, phase):
    return f"# {phase}: {name}\n\n" + "".join(
        f"- item {i}: requirement, decision or step for {name}.\n" for i in range(1, 9))


def drive(ws, repo, feature, phase, approve=True, fdir=None):
    """One phase the way the phase commands run it: start, write the
    artifact, one revise verdict, then (when approve) an approving one."""
    run([ws, "phase", "start", phase, "--feature", feature], repo)
    if phase in ARTIFACTS:
        with open(os.path.join(fdir, ARTIFACTS[phase]), "w") as f:
            f.write(artifact_text(os.path.basename(fdir), phase))
    review(ws, repo, feature, phase, REVISE)
    if approve:
        review(ws, repo, feature, phase, APPROVE)


def template(ws, tdir):
    """A completed feature as the binary writes it (made once per run)."""
    meta = os.path.join(tdir, "docs/features/001-template/.meta.json")
    if not os.path.exists(meta):
        os.makedirs(tdir, exist_ok=True)
        git(tdir, "init", "-q")
        run([ws, "feature", "new", "template"], tdir)
        for phase in PHASES[:-1]:
            drive(ws, tdir, "1", phase, fdir=os.path.dirname(meta))
        run([ws, "finish", "--feature", "1"], tdir)
    with open(meta) as f:
        return json.load(f)


def ts(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def completed_meta(tmpl, i, slug, rng, base):
    m = copy.deepcopy(tmpl)
    mode = rng.choices(["standard", "quick", "full", "hotfix"], weights=[6, 2, 1, 1])[0]
    cap = CAPS[mode]
    m["id"], m["slug"], m["mode"] = f"{i:03d}", slug, mode
    t = base + dt.timedelta(hours=6 * i, milliseconds=rng.randrange(1, 999))
    m["created"] = ts(t)
    for phase in PHASES:
        rec = m["phases"][phase]
        t += dt.timedelta(minutes=rng.randrange(1, 90), milliseconds=rng.randrange(1, 999))
        rec["started"] = ts(t)
        t += dt.timedelta(minutes=rng.randrange(5, 240), milliseconds=rng.randrange(1, 999))
        rec["completed"] = ts(t)
        if phase == "finish":
            continue
        n = rng.randint(1, cap)
        rec["iterations"] = n
        if n == cap and rng.random() < 0.3:  # the loop hit the mode's cap
            rec["outcome"] = "cap-reached"
            rec["reviewerNotes"] = ["[blocker] acceptance criteria missing (§2)"]
            rec["summary"] = "needs work"
        # The last verdict's counts (zeros included, as the binary writes them).
        approved = rec.get("outcome") != "cap-reached"
        rec["issues"] = {"blocker": 0 if approved else 1, "warning": rng.randrange(0, 2), "note": rng.randrange(0, 3)}
    m["completed"] = m["phases"]["finish"]["completed"]
    return m


def write(path, data, mode=0o644):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w") as f:
        f.write(data)


def main():
    ws, tdir, repo, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    if n < 3:
        sys.exit("fixture: need at least 3 features")
    tmpl = template(ws, tdir)
    os.makedirs(repo)
    git(repo, "init", "-q")
    write(os.path.join(repo, "README.md"), "# bench fixture\n")
    git(repo, "add", "README.md")
    git(repo, "commit", "-q", "-m", "initial commit")

    rng = random.Random(n)
    base = dt.datetime(2020, 1, 1, tzinfo=dt.timezone.utc)
    features = os.path.join(repo, "docs/features")
    os.makedirs(features)
    for i in range(1, n - 1):
        slug = f"{rng.choice(WORDS)}-{rng.choice(WORDS)}-{i}"
        name = f"{i:03d}-{slug}"
        d = os.path.join(features, name)
        os.mkdir(d)
        meta = completed_meta(tmpl, i, slug, rng, base)
        # serde_json's to_string_pretty: two-space indent, "key": value, trailing newline.
        write(os.path.join(d, ".meta.json"), json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
        if n <= 10_000:
            for phase, file in ARTIFACTS.items():
                write(os.path.join(d, file), artifact_text(name, phase))

    # The two active features, made by the binary itself.
    mid = os.path.basename(run([ws, "feature", "new", ACTIVE_MID], repo).strip())
    for phase in ["brainstorm", "specify"]:
        drive(ws, repo, mid, phase, fdir=os.path.join(features, mid))
    partial = os.path.basename(run([ws, "feature", "new", "--worktree", ACTIVE_PARTIAL], repo).strip())
    drive(ws, repo, partial, "brainstorm", fdir=os.path.join(features, partial))
    drive(ws, repo, partial, "specify", approve=False, fdir=os.path.join(features, partial))

    json.dump({"size": n, "repo": repo, "active": [mid, partial], "mid": mid, "partial": partial,
               "mid_id": str(n - 1), "completed": n - 2}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
