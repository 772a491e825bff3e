#!/usr/bin/env python3
"""Runs real toolchains into failures and writes each output as a case of
tests/build_decisions/<corpus>/<family>/: `python3 run.py unseen [filter]`
reads the cases of unseen.py. The label of each case is decided in that
file, before the output exists (README.md, "How unseen/ is labelled").
Needs the toolchains installed (Debian 12 packages, PyPI's ziglang, poetry
and pipenv in /tmp/gen/venv, npm's markdownlint-cli, stylelint,
stylelint-config-standard and htmlhint in /tmp/gen/npm), unshare(1) and
root (an empty network namespace, a 64 KiB tmpfs). `python3 run.py unseen_4`
needs, besides, the Debian 12 packages its cases name, PyPI's robotframework,
pipx and conan in /tmp/gen/venv, and npm's jasmine, tape, uvu, jshint,
livescript and bower in /tmp/gen/npm."""
import os, re, subprocess, sys, tempfile, shutil

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = None
ENV = dict(os.environ)
ENV.update({"PATH": os.environ["PATH"] + ":/tmp/gen/venv/bin:/tmp/gen/npm/node_modules/.bin",
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "dumb", "NO_COLOR": "1"})
CASES = []


def case(family, name, tool, want, produced, script, package=None, timeout=120, note=None):
    CASES.append(dict(family=family, name=name, tool=tool, want=want, produced=produced, script=script,
                      package=package, timeout=timeout, note=note))


def run(c):
    work = tempfile.mkdtemp(prefix="case-", dir="/tmp/gen")
    home = os.path.join(work, "home")
    os.makedirs(home)
    env = dict(ENV, HOME=home)
    with open(os.path.join(home, ".hgrc"), "w") as f:
        f.write("[ui]\nusername = Dev <dev@example.com>\n")
    subprocess.run("git config --global user.name Dev; git config --global user.email dev@example.com; "
                   "brz whoami 'Dev <dev@example.com>' 2>/dev/null; true", shell=True, env=env, cwd=work)
    try:
        p = subprocess.run(["bash", "-c", c["script"]], cwd=work, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=c["timeout"])
        out, rc = p.stdout.decode("utf-8", "replace"), p.returncode
    except subprocess.TimeoutExpired as e:
        out, rc = (e.stdout or b"").decode("utf-8", "replace"), "timeout"
    shutil.rmtree(work, ignore_errors=True)
    # The scratch folder's random name would differ on every run.
    out = re.sub(r"/tmp/gen/case-[A-Za-z0-9_]+", "/home/dev/proj", out)
    return out, rc


def write(c, out):
    d = os.path.join(OUT, c["family"])
    os.makedirs(d, exist_ok=True)
    head = [f"tool: {c['tool']}", f"want: {c['want']}"]
    if c["package"]:
        head.append(f"package: {c['package']}")
    head.append("source: real")
    head.append(f"produced: {c['produced']}")
    if c["note"]:
        head.append(f"note: {c['note']}")
    with open(os.path.join(d, c["name"] + ".txt"), "w") as f:
        f.write("\n".join(head) + "\n---\n" + out)


if __name__ == "__main__":
    corpus, only = sys.argv[1], sys.argv[2:]
    OUT = os.path.join(HERE, "..", corpus)
    exec(open(os.path.join(HERE, corpus + ".py")).read())
    for c in CASES:
        if only and not any(o in c["family"] + "/" + c["name"] for o in only):
            continue
        out, rc = run(c)
        write(c, out)
        first = next((l for l in out.splitlines() if l.strip()), "")
        print(f"{c['family']}/{c['name']} rc={rc} lines={len(out.splitlines())}: {first[:110]}")
