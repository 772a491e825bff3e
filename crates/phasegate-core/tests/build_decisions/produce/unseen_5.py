# The fifth unseen corpus: toolchains that no row, cue, case, test, issue, document or earlier corpus names (each
# checked with `git grep -iw` over the whole repository, no hit in any file), chosen and labelled by someone who had
# not read the classifier (build_cues.rs, build_table.rs, build.rs) and never ran it, and none of them a toolchain
# already installed on the machine that made it (so none a cue could have been written from there). Each case:
# family, file name, tool, wanted class (decided here, before the output exists, and committed before any output
# existed), how it is produced, the script that produces it. `package` is the missing module's name as the source
# names it (what a person installs); none for a header, a file or a program. A toolchain that speaks a language a
# table family is about sits in that family's folder (`c`, `python`, `shell`, `javascript`, `js-tests`, `js-lint`,
# `jvm`), as in unseen_3.py and unseen_4.py. Its PyPI and npm tools are in /tmp/gen5/venv and /tmp/gen5/npm.
S, M, V, C, R, T, N, O = ("SYNTAX_ERROR", "MISSING_DEPENDENCY", "VALIDATION_FAILED", "CONFLICT", "RESOURCE",
                          "TIMEOUT", "NETWORK", "OTHER")
ENV["PATH"] = ENV["PATH"] + ":/tmp/gen5/venv/bin:/tmp/gen5/npm/node_modules/.bin"
NONET = "unshare -n "
SMALLFS = "unshare -m sh -c 'mount -t tmpfs -o size=64k tmpfs /mnt && cd /mnt && {}'"
NODE = "export NODE_PATH=/tmp/gen5/npm/node_modules; "
ESM = "ln -s /tmp/gen5/npm/node_modules node_modules; echo '{\"type\": \"module\"}' > package.json; "


def w(name, text):
    """A shell line writing `text` to `name` as it is."""
    return f"cat > {name} <<'EOF_CASE'\n{text}EOF_CASE\n"


# ---- shell (the table's family shell is left out): fish, MirBSD Korn shell, yash, posh ----
case("shell", "fish-syntax-1", "fish", S, "fish 3.6 -n: an if without its end",
     w("a.fish", "if test 1 -eq 1\n    echo one\n") + "fish -n a.fish")
case("shell", "fish-validation-1", "fish", V, "fish 3.6: a division by zero in math, the script stopping on its status",
     w("a.fish", "set -l total (math 1 / 0); or exit 1\necho $total\n") + "fish a.fish")
case("shell", "fish-missing-1", "fish", M, "fish 3.6: a script running a program that is not installed",
     w("a.fish", "pandoc README.md -o README.html; or exit 1\n") + "touch README.md; fish a.fish")
case("shell", "mksh-syntax-1", "mksh", S, "mksh R59: an if without its fi",
     w("a.sh", "if true; then\n  echo one\n") + "mksh a.sh")
case("shell", "mksh-validation-1", "mksh", V, "mksh R59: set -u and a parameter that is not set",
     w("a.sh", "set -u\necho \"total: $total\"\n") + "mksh a.sh")
case("shell", "mksh-timeout-1", "mksh", T, "mksh R59: an endless loop under a CPU time limit of 1 s (ulimit -t 1)",
     w("a.sh", "i=0\nwhile :; do i=$((i + 1)); done\n") + "ulimit -t 1; mksh a.sh && echo passed", timeout=60)
case("shell", "yash-syntax-1", "yash", S, "yash 2.52: a case without its esac",
     w("a.sh", "case x in\n  x) echo x;;\n") + "yash a.sh")
case("shell", "yash-validation-1", "yash", V, "yash 2.52: a division by zero in arithmetic",
     w("a.sh", "echo $((1 / 0))\n") + "yash a.sh")
case("shell", "yash-resource-1", "yash", R, "yash 2.52: a string doubled without end under a 50 MB address-space limit (ulimit -v)",
     w("a.sh", "s=x\nwhile :; do s=\"$s$s\"; done\n") + "ulimit -v 50000; yash a.sh", timeout=90)
case("shell", "posh-syntax-1", "posh", S, "posh 0.14: a for without its done",
     w("a.sh", "for i in 1 2; do\n  echo $i\n") + "posh a.sh")
case("shell", "posh-validation-1", "posh", V, "posh 0.14: set -e and a test comparing a word as a number",
     w("a.sh", "set -e\n[ 1 -eq two ]\necho same\n") + "posh a.sh")

# ---- lisp4: TinyScheme (UCBLogo dropped, below) ----
case("lisp4", "tinyscheme-syntax-1", "tinyscheme", S, "TinyScheme 1.42: a closing parenthesis too many",
     w("a.scm", "(display (+ 1 2)))\n(newline)\n") + "tinyscheme a.scm < /dev/null", timeout=60)
case("lisp4", "tinyscheme-validation-1", "tinyscheme", V, "TinyScheme 1.42: car of a number",
     w("a.scm", "(display (car 5))\n(newline)\n") + "tinyscheme a.scm < /dev/null", timeout=60)
# dropped after their outputs were produced (before any classifier read them): Debian's UCBLogo is a wxWidgets program that
# will not start without a display ("Unable to initialize GTK+, is DISPLAY set properly?"), so none of these failures happened
# case("lisp4", "ucblogo-syntax-1", "ucblogo", S, "UCBLogo 6.2: a list whose bracket is never closed",
#      w("a.lg", "print [1 2\nbye\n") + "ucblogo a.lg < /dev/null", timeout=60)
# case("lisp4", "ucblogo-validation-1", "ucblogo", V, "UCBLogo 6.2: a word given to sum",
#      w("a.lg", "print sum 1 \"two\nbye\n") + "ucblogo a.lg < /dev/null", timeout=60)
# case("lisp4", "ucblogo-timeout-1", "ucblogo", T, "UCBLogo 6.2: an endless loop under a CPU time limit of 1 s (ulimit -t 1)",
#      w("a.lg", "make \"i 0\nforever [make \"i :i + 1]\nbye\n") + "ulimit -t 1; ucblogo a.lg < /dev/null", timeout=60)

# ---- math5: PARI/GP, calc, Yorick, GLPK's glpsol ----
case("math5", "gp-syntax-1", "gp", S, "PARI/GP 2.15: an expression whose parenthesis is never closed",
     w("a.gp", "x = (1 + 2;\nprint(x);\nquit\n") + "gp -q a.gp < /dev/null", timeout=60)
case("math5", "gp-validation-1", "gp", V, "PARI/GP 2.15: a division by zero",
     w("a.gp", "x = 1 / 0;\nprint(x);\nquit\n") + "gp -q a.gp < /dev/null", timeout=60)
case("math5", "gp-resource-1", "gp", R, "PARI/GP 2.15: a vector of a million squares on a 1 MB PARI stack (-s 1000000)",
     w("a.gp", "x = vector(10^6, i, i^2);\nprint(#x);\nquit\n") + "gp -q -s 1000000 a.gp < /dev/null", timeout=60)
case("math5", "gp-timeout-1", "gp", T, "PARI/GP 2.15: a loop under its own alarm of 1 s",
     w("a.gp", "i = 0;\nalarm(1);\nwhile(1, i++);\nquit\n") + "gp -q a.gp < /dev/null", timeout=60,
     note="first made with alarm(1, for(i = 1, 10^12, )), which printed nothing and exited 0 (alarm with an expression returns an error object, it raises none): no failure; re-scripted with alarm(1) before the loop, before any classifier read it")
case("math5", "calc-syntax-1", "calc", S, "calc 2.12: an expression whose parenthesis is never closed",
     w("a.cal", "x = (1 + 2;\nprint x;\n") + "calc -q -f a.cal")
case("math5", "calc-validation-1", "calc", V, "calc 2.12: a string added to a number",
     w("a.cal", "x = 1 + \"two\";\nprint x;\n") + "calc -q -f a.cal")
case("math5", "yorick-syntax-1", "yorick", S, "Yorick 2.2: an expression whose parenthesis is never closed",
     w("a.i", "x = (1 + 2;\nprint, x;\n") + "yorick -batch a.i")
case("math5", "yorick-validation-1", "yorick", V, "Yorick 2.2: an index past an array's end",
     w("a.i", "x = [1, 2, 3];\ny = x(5);\nprint, y;\n") + "yorick -batch a.i")
case("math5", "glpsol-syntax-1", "glpsol", S, "GLPK 5.0 glpsol: a MathProg declaration without its semicolon",
     w("a.mod", "var x >= 0\nmaximize z: x;\ns.t. c: x <= 4;\nend;\n") + "glpsol --math a.mod")
case("math5", "glpsol-validation-1", "glpsol", V, "GLPK 5.0 glpsol: a MathProg objective using a variable that is not declared",
     w("a.mod", "var x >= 0;\nmaximize z: x + y;\ns.t. c: x <= 4;\nend;\n") + "glpsol --math a.mod")
case("math5", "glpsol-timeout-1", "glpsol", T, "GLPK 5.0 glpsol --tmlim 1: 20 pigeons in 19 holes as a MIP",
     w("a.mod", "param n := 20;\nset P := 1..n;\nset H := 1..n-1;\nvar x{P, H} binary;\n"
       "s.t. each{p in P}: sum{h in H} x[p, h] = 1;\ns.t. hole{h in H, p in P, q in P: p < q}: x[p, h] + x[q, h] <= 1;\n"
       "minimize z: 0;\nend;\n") + "glpsol --tmlim 1 --math a.mod", timeout=120)

# ---- jvm (the table's family jvm is left out): BeanShell ----
case("jvm", "bsh-syntax-1", "bsh", S, "BeanShell 2.0b4: an expression whose parenthesis is never closed",
     w("a.bsh", "int x = (1 + 2;\nprint(x);\n") + "bsh a.bsh")
case("jvm", "bsh-validation-1", "bsh", V, "BeanShell 2.0b4: an int assigned to a String",
     w("a.bsh", "String s = 5;\nprint(s);\n") + "bsh a.bsh")
case("jvm", "bsh-missing-1", "bsh", M, "BeanShell 2.0b4: import of a class of a library that is not on the class path",
     w("a.bsh", "import org.apache.commons.lang3.StringUtils;\nprint(StringUtils.capitalize(\"a\"));\n") + "bsh a.bsh",
     package="org.apache.commons.lang3")

# ---- javascript (the table's family javascript is left out): Rhino ----
case("javascript", "rhino-syntax-1", "rhino", S, "Rhino 1.7.14: an expression whose parenthesis is never closed",
     w("a.js", "var x = (1 + 2;\nprint(x);\n") + "rhino a.js")
case("javascript", "rhino-validation-1", "rhino", V, "Rhino 1.7.14: a property of null read while the program runs",
     w("a.js", "var x = null;\nprint(x.length);\n") + "rhino a.js")

# ---- python (the table's family python is left out): Coconut, autopep8, doit, Ward, pip-tools, Hatch ----
case("python", "coconut-syntax-1", "coconut", S, "Coconut 3: a def whose parameter list is broken",
     w("a.coco", "def f(:\n    pass\n") + "coconut a.coco")
case("python", "coconut-validation-1", "coconut", V, "Coconut 3 --run: a destructuring match that fails while the program runs",
     w("a.coco", "[x, y] = [1]\nprint(x, y)\n") + "coconut --run a.coco")
case("python", "coconut-missing-1", "coconut", M, "Coconut 3 --run: import of a package that is not installed",
     w("a.coco", "import pendulum\nprint(pendulum.now())\n") + "coconut --run a.coco", package="pendulum")
case("python", "autopep8-validation-1", "autopep8", V, "autopep8 2 --diff --exit-code: a file not formatted as PEP 8 wants",
     w("a.py", "import os\ndef f( x ):\n  return x+1\n") + "autopep8 --diff --exit-code a.py")
case("python", "doit-syntax-1", "doit", S, "doit 0.36: a dodo.py whose def is broken",
     w("dodo.py", "def task_check(:\n    return {'actions': ['true']}\n") + "doit")
case("python", "doit-validation-1", "doit", V, "doit 0.36: a Python action whose assertion fails",
     w("dodo.py", "def check():\n    assert 2 - 3 == 5\n\n\ndef task_check():\n    return {'actions': [check]}\n") + "doit")
case("python", "doit-missing-1", "doit", M, "doit 0.36: a dodo.py importing a package that is not installed",
     w("dodo.py", "import toolz\n\n\ndef task_check():\n    return {'actions': ['true']}\n") + "doit", package="toolz")
case("python", "ward-validation-1", "ward", V, "Ward 0.68: a test whose assertion fails",
     w("test_add.py", "from ward import test\n\n\ndef add(a, b):\n    return a - b\n\n\n@test(\"adds\")\ndef _():\n    assert add(2, 3) == 5\n")
     + "ward --path test_add.py")
case("python", "ward-missing-1", "ward", M, "Ward 0.68: a test module importing a package that is not installed",
     w("test_time.py", "from ward import test\nimport freezegun\n\n\n@test(\"freezes\")\ndef _():\n    assert freezegun\n")
     + "ward --path test_time.py", package="freezegun")
case("python", "ward-resource-1", "ward", R, "Ward 0.68: a test opening files past a limit of 32 file handles (ulimit -n)",
     w("test_open.py", "from ward import test\n\n\n@test(\"opens\")\ndef _():\n    files = [open(f\"f{i}.txt\", \"w\") for i in range(200)]\n    assert len(files) == 200\n")
     + "ulimit -n 32; ward --path test_open.py")
case("python", "pip-compile-other-1", "pip-compile", O, "pip-tools 7 pip-compile: a requirement PyPI does not have",
     w("requirements.in", "no-such-package-phasegate-5\n") + "pip-compile requirements.in", timeout=240)
case("python", "pip-compile-network-1", "pip-compile", N, "pip-tools 7 pip-compile of six, with no network (an empty network namespace)",
     w("requirements.in", "six\n") + NONET + "pip-compile requirements.in", timeout=240)
case("python", "hatch-syntax-1", "hatch", S, "Hatch 1: hatch build of a pyproject.toml whose table header is never closed",
     w("pyproject.toml", "[project\nname = \"a\"\nversion = \"0.1\"\n") + "hatch build", timeout=240)
case("python", "hatch-network-1", "hatch", N, "Hatch 1: hatch env create of a project depending on six, with no network (an empty network namespace)",
     w("pyproject.toml", "[build-system]\nrequires = [\"hatchling\"]\nbuild-backend = \"hatchling.build\"\n\n[project]\nname = \"a\"\nversion = \"0.1\"\ndependencies = [\"six\"]\n")
     + "mkdir a && touch a/__init__.py && " + NONET + "hatch env create", timeout=240)

# ---- js-tests (the table's family js-tests is left out): zora, Japa, brittle ----
ZORA_NOTE = ("first made with zora 6.0.4, which needs a newer Node than 20 (Promise.withResolvers is not a function) and failed before"
             " any test ran: not the failure labelled; re-made with zora 5.0.0, before any classifier read it")
JAPA_NOTE = ("first made with @japa/runner 5.3.0, which needs a newer Node than 20 (node:fs/promises has no export glob) and failed"
             " before any test ran: not the failure labelled; re-made with @japa/runner 3.1.4 and @japa/assert 3.0.0, before any classifier read it")
BRITTLE_NOTE = ("first made with the brittle command, which ran no test here (it asked for brittle-bare or brittle-node):"
                " not the failure labelled; re-scripted with brittle-node, before any classifier read it")
case("js-tests", "zora-validation-1", "zora", V, "zora 5.0.0: a test whose t.eq fails",
     ESM + w("test.js", "import { test } from 'zora';\nconst add = (a, b) => a - b;\ntest('add', (t) => {\n  t.eq(add(2, 3), 5);\n});\n")
     + "node test.js", note=ZORA_NOTE)
case("js-tests", "zora-missing-1", "zora", M, "zora 5.0.0: a test importing a package that is not installed",
     ESM + w("test.js", "import { test } from 'zora';\nimport td from 'testdouble';\ntest('double', (t) => {\n  t.ok(td.func());\n});\n")
     + "node test.js", package="testdouble", note=ZORA_NOTE + "; first made importing chai, which the npm folder held already (a dependency of another tool): no failure; re-scripted importing testdouble, before any classifier read it")
JAPA_BIN = ("import { assert } from '@japa/assert';\nimport { configure, processCLIArgs, run } from '@japa/runner';\n"
            "processCLIArgs(process.argv.splice(2));\nconfigure({ files: ['tests/**/*.spec.js'], plugins: [assert()] });\nrun();\n")
case("js-tests", "japa-validation-1", "japa", V, "Japa 3 (@japa/runner 3.1.4 with @japa/assert): a test whose assert.equal fails",
     ESM + "mkdir bin tests; " + w("bin/test.js", JAPA_BIN)
     + w("tests/add.spec.js", "import { test } from '@japa/runner';\nconst add = (a, b) => a - b;\ntest('adds', ({ assert }) => {\n  assert.equal(add(2, 3), 5);\n});\n")
     + "node bin/test.js", note=JAPA_NOTE)
case("js-tests", "japa-timeout-1", "japa", T, "Japa 3 (@japa/runner 3.1.4): an async test that never settles, past its timeout of 100 ms",
     ESM + "mkdir bin tests; " + w("bin/test.js", JAPA_BIN)
     + w("tests/wait.spec.js", "import { test } from '@japa/runner';\ntest('settles', async () => {\n  await new Promise(() => {});\n}).timeout(100);\n")
     + "node bin/test.js", timeout=60, note=JAPA_NOTE)
case("js-tests", "brittle-validation-1", "brittle", V, "brittle 3 (brittle-node): a test whose t.is fails",
     w("test.js", "const test = require('brittle');\nconst add = (a, b) => a - b;\ntest('add', (t) => {\n  t.is(add(2, 3), 5);\n});\n")
     + NODE + "brittle-node test.js", note=BRITTLE_NOTE)
case("js-tests", "brittle-timeout-1", "brittle", T, "brittle 3 (brittle-node): an async test waiting 5 s, past its t.timeout(100)",
     w("test.js", "const test = require('brittle');\ntest('settles', async (t) => {\n  t.timeout(100);\n  await new Promise((r) => setTimeout(r, 5000));\n});\n")
     + NODE + "brittle-node test.js", timeout=60, note=BRITTLE_NOTE + "; then made with a promise that never settles, which brittle ended as a deadlock ('Test did not end') before the 100 ms passed: not the failure labelled; re-scripted with a wait of 5 s, before any classifier read it")
case("js-tests", "brittle-network-1", "brittle", N, "brittle 3 (brittle-node): a test fetching a URL, with no network (an empty network namespace)",
     w("test.js", "const test = require('brittle');\ntest('fetch', async (t) => {\n  const res = await fetch('https://example.com/');\n  t.is(res.status, 200);\n});\n")
     + NODE + NONET + "brittle-node test.js", timeout=60, note=BRITTLE_NOTE)

# ---- js-lint (the table's family js-lint is left out): semistandard, oxlint ----
case("js-lint", "semistandard-validation-1", "semistandard", V, "semistandard 17: an unused variable and double quotes",
     w("a.js", "const unused = \"x\";\nconsole.log('hi');\n") + "semistandard a.js")
case("js-lint", "semistandard-syntax-1", "semistandard", S, "semistandard 17: a function whose brace is never closed",
     w("a.js", "function f () {\n  return 1;\n\nf();\n") + "semistandard a.js")
case("js-lint", "oxlint-validation-1", "oxlint", V, "oxlint --deny-warnings: a debugger statement and a comparison with NaN",
     w("a.js", "function f (x) {\n  debugger;\n  return x == NaN;\n}\nf(1);\n") + "oxlint --deny-warnings a.js")
case("js-lint", "oxlint-syntax-1", "oxlint", S, "oxlint: a function whose brace is never closed",
     w("a.js", "function f (x) {\n  return x;\n\nf(1);\n") + "oxlint a.js")

# ---- css: SassC, Less, Stylus ----
case("css", "sassc-syntax-1", "sassc", S, "SassC 3.6: a rule whose brace is never closed",
     w("a.scss", "a {\n  color: red;\n") + "sassc a.scss")
case("css", "sassc-validation-1", "sassc", V, "SassC 3.6: a variable that is not defined",
     w("a.scss", "a {\n  color: $primary;\n}\n") + "sassc a.scss")
case("css", "sassc-resource-1", "sassc", R, "SassC 3.6 writing about 600 KB of CSS into a 64 KiB tmpfs",
     w("big.scss", "@for $i from 1 through 20000 {\n  .c#{$i} { width: #{$i}px; }\n}\n")
     + "export S=\"$PWD\"; " + SMALLFS.format("sassc \"$S/big.scss\" /mnt/out.css"))
case("css", "lessc-syntax-1", "lessc", S, "Less 4 (lessc): a rule whose brace is never closed",
     w("a.less", "a {\n  color: red;\n") + "lessc a.less")
case("css", "lessc-validation-1", "lessc", V, "Less 4 (lessc): a variable that is not defined",
     w("a.less", "a {\n  color: @primary;\n}\n") + "lessc a.less")
case("css", "lessc-missing-1", "lessc", M, "Less 4 (lessc): @plugin of a plugin package that is not installed",
     w("a.less", "@plugin \"less-plugin-autoprefix\";\na {\n  color: red;\n}\n") + NODE + "lessc a.less", package="less-plugin-autoprefix")
case("css", "lessc-network-1", "lessc", N, "Less 4 (lessc, with needle): an @import of a URL, with no network (an empty network namespace)",
     w("a.less", "@import \"https://example.com/base.less\";\na {\n  color: red;\n}\n") + NONET + "lessc a.less", timeout=60)
case("css", "stylus-syntax-1", "stylus", S, "Stylus 0.6: a rule whose brace is never closed",
     w("a.styl", "a {\n  color: red;\n") + "stylus --print a.styl")
case("css", "stylus-validation-1", "stylus", V, "Stylus 0.6: lightness of a length",
     w("a.styl", "a\n  width: lightness(10px)\n") + "stylus --print a.styl")
case("css", "stylus-missing-1", "stylus", M, "Stylus 0.6: @require of nib, a package that is not installed",
     w("a.styl", "@require 'nib'\na\n  color: red\n") + "stylus --print a.styl", package="nib")

# ---- docs5: makeinfo, mandoc, Ghostscript, yajl's json_verify ----
TEXI_HEAD = "\\input texinfo\n@setfilename a.info\n@settitle A\n\n@node Top\n@top A\n\n"
case("docs5", "makeinfo-syntax-1", "makeinfo", S, "GNU makeinfo 6.8: an @code whose brace is never closed",
     w("a.texi", TEXI_HEAD + "Run @code{make all.\n\n@bye\n") + "makeinfo a.texi")
case("docs5", "makeinfo-validation-1", "makeinfo", V, "GNU makeinfo 6.8: an @xref to a node that does not exist",
     w("a.texi", TEXI_HEAD + "See @xref{Nowhere}.\n\n@bye\n") + "makeinfo a.texi")
case("docs5", "makeinfo-resource-1", "makeinfo", R, "GNU makeinfo 6.8 writing a 300 KB manual into a 64 KiB tmpfs",
     "python3 -c \"print(open('/dev/stdin').read() + 'Lorem ipsum dolor sit amet, consectetur adipiscing elit.\\n' * 5000 + '@bye')\" > a.texi <<'EOF_CASE'\n"
     + TEXI_HEAD + "EOF_CASE\n"
     + "export S=\"$PWD\"; " + SMALLFS.format("makeinfo -o /mnt/a.info \"$S/a.texi\""))
case("docs5", "mandoc-validation-1", "mandoc", V, "mandoc 1.14 -T lint -W warning: a manual page without its NAME and with a blank line",
     w("a.1", ".TH A 1\n.SH DESCRIPTION\nDoes things.\n\nMore things.\n") + "mandoc -T lint -W warning a.1")
case("docs5", "gs-syntax-1", "gs", S, "Ghostscript 10.0: a PostScript string never closed",
     w("a.ps", "(hello show\nshowpage\n") + "gs -q -dNODISPLAY -dBATCH -dNOPAUSE a.ps")
case("docs5", "gs-validation-1", "gs", V, "Ghostscript 10.0: a string added to a number",
     w("a.ps", "1 (two) add =\n") + "gs -q -dNODISPLAY -dBATCH -dNOPAUSE a.ps")
case("docs5", "gs-resource-1", "gs", R, "Ghostscript 10.0: a thousand strings of 10 MB kept, under a 500 MB address-space limit (ulimit -v)",
     w("a.ps", "/a [ 0 1 1000 { pop 10000000 string } for ] def\na length =\n") + "ulimit -v 500000; gs -q -dNODISPLAY -dBATCH -dNOPAUSE a.ps", timeout=90)
case("docs5", "gs-timeout-1", "gs", T, "Ghostscript 10.0: an endless loop under a CPU time limit of 1 s (ulimit -t 1)",
     w("a.ps", "{ 1 pop } loop\n") + "ulimit -t 1; gs -q -dNODISPLAY -dBATCH -dNOPAUSE a.ps && echo passed", timeout=60,
     note="first made without '&& echo passed': bash ran gs in its own place, and the run killed at the limit printed nothing at all; re-scripted so that the shell reports the kill, before any classifier read it")
case("docs5", "json_verify-syntax-1", "json_verify", S, "yajl 2.1 json_verify: an object with a trailing comma",
     w("a.json", "{\n  \"a\": 1,\n  \"b\": 2,\n}\n") + "json_verify < a.json")

# ---- config5: nginx, HAProxy, named-checkzone, lighttpd, Varnish, nftables, Monit, dnsmasq ----
NGINX = "mkdir logs; nginx -t -p \"$PWD\" -c \"$PWD/n.conf\" -g 'error_log stderr;'"
case("config5", "nginx-syntax-1", "nginx", S, "nginx 1.22 -t: a directive without its semicolon",
     w("n.conf", "events {}\nhttp {\n  server {\n    listen 8080\n    root /srv;\n  }\n}\n") + NGINX)
case("config5", "nginx-validation-1", "nginx", V, "nginx 1.22 -t: a word where a number of worker processes is wanted",
     w("n.conf", "worker_processes two;\nevents {}\nhttp {\n  server {\n    listen 8080;\n  }\n}\n") + NGINX)
case("config5", "nginx-missing-1", "nginx", M, "nginx 1.22 -t: load_module of a module file that is not installed",
     w("n.conf", "load_module modules/ngx_http_geoip2_module.so;\nevents {}\nhttp {\n  server {\n    listen 8080;\n  }\n}\n") + NGINX)
case("config5", "haproxy-syntax-1", "haproxy", S, "HAProxy 2.6 -c: a section keyword misspelt",
     w("h.cfg", "defaults\n  mode http\n  timeout client 5s\n  timeout server 5s\n  timeout connect 5s\n\nfrontnd web\n  bind :8080\n")
     + "haproxy -c -f h.cfg")
case("config5", "haproxy-validation-1", "haproxy", V, "HAProxy 2.6 -c: a default_backend that is not defined",
     w("h.cfg", "defaults\n  mode http\n  timeout client 5s\n  timeout server 5s\n  timeout connect 5s\n\nfrontend web\n  bind :8080\n  default_backend nowhere\n")
     + "haproxy -c -f h.cfg")
ZONE_HEAD = "$TTL 3600\n@ IN SOA ns1.example.com. admin.example.com. (\n  1 3600 600 86400 300 )\n"
case("config5", "named-checkzone-syntax-1", "named-checkzone", S, "BIND 9.18 named-checkzone: an SOA whose parenthesis is never closed",
     w("db.example", "$TTL 3600\n@ IN SOA ns1.example.com. admin.example.com. (\n  1 3600 600 86400 300\n@ IN NS ns1.example.com.\nns1 IN A 192.0.2.1\n")
     + "named-checkzone example.com db.example")
case("config5", "named-checkzone-validation-1", "named-checkzone", V, "BIND 9.18 named-checkzone: a name with a CNAME and other data",
     w("db.example", ZONE_HEAD + "@ IN NS ns1.example.com.\nns1 IN A 192.0.2.1\nwww IN CNAME ns1.example.com.\nwww IN A 192.0.2.2\n")
     + "named-checkzone example.com db.example")
case("config5", "lighttpd-syntax-1", "lighttpd", S, "lighttpd 1.4.69 -tt: a value whose quote is never closed",
     w("l.conf", "server.document-root = \"/srv\nserver.port = 8080\n") + "lighttpd -tt -f l.conf")
VARNISH = "chmod -R a+rX \"$PWD\"; varnishd -n \"$PWD/v\" -C -f \"$PWD/a.vcl\" > /dev/null"
VARNISH_NOTE = ("first made without the chmod: varnishd's compiler, which runs as another user, could not read the VCL file"
                " (Permission denied): not the failure labelled; re-scripted, before any classifier read it")
case("config5", "varnishd-syntax-1", "varnishd", S, "Varnish 7.1 varnishd -C: a statement without its semicolon",
     w("a.vcl", "vcl 4.1;\nbackend default {\n  .host = \"127.0.0.1\";\n  .port = \"8080\";\n}\nsub vcl_recv {\n  set req.http.X-A = \"1\"\n}\n") + VARNISH, note=VARNISH_NOTE)
case("config5", "varnishd-validation-1", "varnishd", V, "Varnish 7.1 varnishd -C: a backend that is not defined",
     w("a.vcl", "vcl 4.1;\nbackend default {\n  .host = \"127.0.0.1\";\n  .port = \"8080\";\n}\nsub vcl_recv {\n  set req.backend_hint = nowhere;\n}\n") + VARNISH, note=VARNISH_NOTE)
case("config5", "nft-syntax-1", "nft", S, "nftables 1.0.6 nft -c: a rule whose brace is never closed",
     w("a.nft", "table inet filter {\n  chain input {\n    type filter hook input priority 0;\n    tcp dport 22 accept\n}\n") + "nft -c -f a.nft")
case("config5", "monit-syntax-1", "monit", S, "Monit 5.33 -t: a statement Monit does not know",
     w("m.rc", "set daemon 30\ncheck process web with pidfile /run/web.pid\n  start program = \"/bin/true\"\n  if cpu > 80% for 5 cycle then restart\n  whenever it breaks\n")
     + "chmod 600 m.rc; monit -t -c m.rc")
case("config5", "dnsmasq-validation-1", "dnsmasq", V, "dnsmasq 2.90 --test: a DHCP range whose end is not an address (10.0.0.500)",
     w("d.conf", "port=0\ndhcp-range=10.0.0.10,10.0.0.500,12h\n") + "dnsmasq --test --conf-file=d.conf",
     note="first made with a range whose start is past its end, which dnsmasq --test accepted (syntax check OK, exit 0): no failure; re-scripted before any classifier read it")

# ---- build3: remake, muon ----
case("build3", "remake-syntax-1", "remake", S, "remake 4.3 (GNU make with a debugger): a recipe indented with spaces",
     w("Makefile", "all:\n    echo hi\n") + "remake")
case("build3", "remake-missing-1", "remake", M, "remake 4.3: a recipe running a program that is not installed",
     w("Makefile", "all:\n\tprotoc-gen-docs api.proto\n") + "touch api.proto; remake")
case("build3", "remake-other-1", "remake", O, "remake 4.3: a silent recipe that exits 3, the output saying nothing of why",
     w("Makefile", "all:\n\t@./check.sh\n") + w("check.sh", "#!/bin/sh\nexit 3\n") + "chmod +x check.sh; remake")
case("build3", "muon-meson-syntax-1", "muon-meson", S, "muon 0.1 (muon-meson) (a meson in C): a project() whose parenthesis is never closed",
     w("meson.build", "project('a', 'c'\nexecutable('a', 'a.c')\n") + "echo 'int main(void) { return 0; }' > a.c; muon-meson setup build")
case("build3", "muon-meson-validation-1", "muon-meson", V, "muon 0.1 (muon-meson) (a meson in C): a variable that is not defined",
     w("meson.build", "project('a', 'c')\nexecutable('a', srcs)\n") + "echo 'int main(void) { return 0; }' > a.c; muon-meson setup build")

# ---- packaging3: nala ----
case("packaging3", "nala-other-1", "nala", O, "nala 0.12 install of a name the archive does not have",
     "nala install -y no-such-package-phasegate-5 < /dev/null", timeout=300)

# ---- c (the table's family c is left out): Sparse ----
case("c", "sparse-syntax-1", "sparse", S, "Sparse 0.6.4: a declaration without its semicolon",
     w("a.c", "int main(void) {\n    int x = 1\n    return x;\n}\n") + "sparse a.c")
case("c", "sparse-validation-1", "sparse", V, "Sparse 0.6.4 -Wsparse-error: a plain integer used as a NULL pointer",
     w("a.c", "int main(void) {\n    int *p = 0;\n    return p != 0;\n}\n") + "sparse -Wsparse-error a.c")

# ---- vcs5: dpkg-source, patch-package, nbdime's nbmerge ----
DEB = ("mkdir -p pkg/debian/source pkg/debian/patches && cd pkg && echo '3.0 (quilt)' > debian/source/format && "
       "printf 'a (1.0-1) unstable; urgency=low\\n\\n  * x\\n\\n -- Dev <dev@example.com>  Mon, 01 Jan 2024 00:00:00 +0000\\n' > debian/changelog && "
       "printf 'Source: a\\nMaintainer: Dev <dev@example.com>\\n\\nPackage: a\\nArchitecture: all\\nDescription: a\\n a\\n' > debian/control && ")
case("vcs5", "dpkg-source-conflict-1", "dpkg-source", C, "dpkg-source 1.21 --before-build: a quilt patch whose line was changed otherwise, after one that applies",
     DEB + "printf 'a\\nbee\\nc\\n' > f.txt && printf -- '--- /dev/null\\n+++ b/NEWS\\n@@ -0,0 +1 @@\\n+news\\n' > debian/patches/news.patch && "
     "printf -- '--- a/f.txt\\n+++ b/f.txt\\n@@ -1,3 +1,3 @@\\n a\\n-b\\n+B\\n c\\n' > debian/patches/fix.patch && "
     "printf 'news.patch\\nfix.patch\\n' > debian/patches/series && dpkg-source --before-build .",
     note="first made with the failing patch alone, where dpkg-source took the series for applied already and printed nothing (exit 0): no failure; re-scripted with a patch that applies before it, before any classifier read it")
case("vcs5", "dpkg-source-conflict-2", "dpkg-source", C, "dpkg-source 1.21 --before-build: a second quilt patch changing a line the first changed",
     DEB + "printf 'a\\nb\\nc\\n' > f.txt && printf -- '--- a/f.txt\\n+++ b/f.txt\\n@@ -1,3 +1,3 @@\\n a\\n-b\\n+B1\\n c\\n' > debian/patches/one.patch && "
     "printf -- '--- a/f.txt\\n+++ b/f.txt\\n@@ -1,3 +1,3 @@\\n a\\n-b\\n+B2\\n c\\n' > debian/patches/two.patch && "
     "printf 'one.patch\\ntwo.patch\\n' > debian/patches/series && dpkg-source --before-build .")
PP_NOTE = ("first made without --error-on-fail: patch-package reported the failed patch but exited 0 (its default outside CI);"
           " re-scripted so that the run fails, before any classifier read it")
PP = ("echo '{\"name\": \"app\", \"version\": \"1.0.0\", \"dependencies\": {\"left-pad\": \"1.0.0\"}}' > package.json && "
      "mkdir -p node_modules/left-pad patches && ")
case("vcs5", "patch-package-conflict-1", "patch-package", C, "patch-package 8 --error-on-fail: a patch of a dependency whose line was changed otherwise",
     PP + "echo '{\"name\": \"left-pad\", \"version\": \"1.0.0\"}' > node_modules/left-pad/package.json && "
     "printf 'module.exports = function (s) {\\n  return \" \" + s;\\n};\\n' > node_modules/left-pad/index.js && "
     "printf -- 'diff --git a/node_modules/left-pad/index.js b/node_modules/left-pad/index.js\\n--- a/node_modules/left-pad/index.js\\n+++ b/node_modules/left-pad/index.js\\n"
     "@@ -1,3 +1,3 @@\\n module.exports = function (s) {\\n-  return s;\\n+  return \"  \" + s;\\n };\\n' > patches/left-pad+1.0.0.patch && patch-package --error-on-fail", note=PP_NOTE)
case("vcs5", "patch-package-conflict-2", "patch-package", C, "patch-package 8 --error-on-fail: a patch made for version 1.0.0 of a dependency, 1.1.0 installed with the patched line changed",
     PP + "echo '{\"name\": \"left-pad\", \"version\": \"1.1.0\"}' > node_modules/left-pad/package.json && "
     "printf 'module.exports = function (s, n) {\\n  return \" \".repeat(n) + s;\\n};\\n' > node_modules/left-pad/index.js && "
     "printf -- 'diff --git a/node_modules/left-pad/index.js b/node_modules/left-pad/index.js\\n--- a/node_modules/left-pad/index.js\\n+++ b/node_modules/left-pad/index.js\\n"
     "@@ -1,3 +1,3 @@\\n module.exports = function (s) {\\n-  return s;\\n+  return \"  \" + s;\\n };\\n' > patches/left-pad+1.0.0.patch && patch-package --error-on-fail", note=PP_NOTE)
NB_NOTE = ("first made with -o for the output file, which nbmerge refused (a usage error): not the failure labelled;"
           " re-scripted with --out, before any classifier read it")
NB = ("python3 - <<'EOF_CASE'\nimport json\n"
      "def nb(src): return {'cells': [{'cell_type': 'code', 'execution_count': None, 'id': 'c1', 'metadata': {}, 'outputs': [], 'source': src}],"
      " 'metadata': {}, 'nbformat': 4, 'nbformat_minor': 5}\n"
      "for name, src in [('base', BASE), ('local', LOCAL), ('remote', REMOTE)]:\n    json.dump(nb(src), open(name + '.ipynb', 'w'))\nEOF_CASE\n")
case("vcs5", "nbmerge-conflict-1", "nbmerge", C, "nbdime 4 nbmerge: a cell whose line both sides changed otherwise",
     NB.replace("BASE", "'x = 1\\nprint(x)\\n'").replace("LOCAL", "'x = 2\\nprint(x)\\n'").replace("REMOTE", "'x = 3\\nprint(x)\\n'")
     + "nbmerge base.ipynb local.ipynb remote.ipynb --out merged.ipynb", note=NB_NOTE)
case("vcs5", "nbmerge-conflict-2", "nbmerge", C, "nbdime 4 nbmerge: a cell one side deleted the line of and the other changed",
     NB.replace("BASE", "'import os\\nx = 1\\n'").replace("LOCAL", "'import os\\n'").replace("REMOTE", "'import os\\nx = 5\\n'")
     + "nbmerge base.ipynb local.ipynb remote.ipynb --out merged.ipynb", note=NB_NOTE)
