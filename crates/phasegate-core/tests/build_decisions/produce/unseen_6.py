# The sixth unseen corpus: toolchains that no row, cue, case, test, issue, document or earlier corpus names (each
# checked with `git grep -iw` over the whole repository, no hit in any file), chosen and labelled by someone who had
# not read the classifier (build_cues.rs, build_table.rs, build.rs) and never ran it, and none of them a toolchain
# already installed on the machine that made it (checked with `command -v`). Each case: family, file name, tool, wanted
# class (decided here, before the output exists, and committed before any output existed), how it is produced, the
# script that produces it. `package` is the missing module's name as the source names it (what a person installs);
# none for a header, a file, a macro or a program. A toolchain that speaks a language a table family is about sits in
# that family's folder (`shell`, `python`, `js-tests`, `js-lint`, `typescript`, `ruby`, `php`, `dotnet`, `go`, `sql`,
# `yaml`), as in unseen_3.py to unseen_5.py. Its PyPI and npm tools are in /tmp/gen6/venv and /tmp/gen6/npm, which this
# file adds to the PATH itself.
S, M, V, C, R, T, N, O = ("SYNTAX_ERROR", "MISSING_DEPENDENCY", "VALIDATION_FAILED", "CONFLICT", "RESOURCE",
                          "TIMEOUT", "NETWORK", "OTHER")
# (put before run.py's own folders, which hold other tools of the same names)
ENV["PATH"] = "/tmp/gen6/venv/bin:/tmp/gen6/npm/node_modules/.bin:" + ENV["PATH"]
NONET = "unshare -n "
SMALLFS = "unshare -m sh -c 'mount -t tmpfs -o size=64k tmpfs /mnt && cd /mnt && {}'"
NODE = "export NODE_PATH=/tmp/gen6/npm/node_modules; "
LINK = "ln -s /tmp/gen6/npm/node_modules node_modules; "
RB = ", before any classifier read it"


def w(name, text):
    """A shell line writing `text` to `name` as it is."""
    return f"cat > {name} <<'EOF_CASE'\n{text}EOF_CASE\n"


# ---- shell (the table's family shell is left out): Elvish, tcsh, xonsh ----
case("shell", "elvish-syntax-1", "elvish", S, "Elvish 0.19: an if whose brace is never closed",
     w("a.elv", "if (== 1 1) {\n  echo one\n") + "elvish a.elv")
case("shell", "elvish-validation-1", "elvish", V, "Elvish 0.19: a division by zero",
     w("a.elv", "var x = (/ 1 0)\necho $x\n") + "elvish a.elv")
case("shell", "elvish-missing-1", "elvish", M, "Elvish 0.19: use of a module of an epm package that is not installed",
     w("a.elv", "use github.com/zzamboni/elvish-modules/alias\necho one\n") + "elvish a.elv",
     package="github.com/zzamboni/elvish-modules")
case("shell", "elvish-timeout-1", "elvish", T, "Elvish 0.19: an endless loop under a CPU time limit of 1 s (ulimit -t 1)",
     w("a.elv", "var i = 0\nwhile $true { set i = (+ $i 1) }\n") + "ulimit -t 1; elvish a.elv && echo passed", timeout=60)
# dropped after its outputs were produced (before any classifier read them): tcsh ran an if then without its endif,
# and then a foreach without its end, printing and exiting 0 both times: the failure never happened
# case("shell", "tcsh-syntax-1", "tcsh", S, "tcsh 6.24: a foreach without its end",
#      w("a.csh", "foreach i (1 2)\n  echo $i\n") + "tcsh -f a.csh",
#      note="first made with an if then without its endif, which tcsh ran (it printed one and exited 0): no failure; re-scripted with a foreach without its end" + RB)
case("shell", "tcsh-validation-1", "tcsh", V, "tcsh 6.24: a division by zero in @",
     w("a.csh", "set x = 1\n@ y = $x / 0\necho $y\n") + "tcsh -f a.csh")
case("shell", "tcsh-other-1", "tcsh", O, "tcsh 6.24: a script that exits 3 and prints nothing, the output saying nothing of why",
     w("a.csh", "set x = 1\nexit 3\n") + "tcsh -f a.csh")
case("shell", "xonsh-syntax-1", "xonsh", S, "xonsh 0.25: a def whose parameter list is broken",
     w("a.xsh", "def f(:\n    pass\n") + "xonsh a.xsh")
case("shell", "xonsh-validation-1", "xonsh", V, "xonsh 0.25: a string added to a number while the script runs",
     w("a.xsh", "x = 1 + \"two\"\nprint(x)\n") + "xonsh a.xsh")
case("shell", "xonsh-missing-1", "xonsh", M, "xonsh 0.25: import of a package that is not installed",
     w("a.xsh", "import arrow\nprint(arrow.utcnow())\n") + "xonsh a.xsh", package="arrow")
case("shell", "xonsh-resource-1", "xonsh", R, "xonsh 0.25: a string doubled without end under a 300 MB address-space limit (ulimit -v)",
     w("a.xsh", "s = \"x\"\nwhile True:\n    s = s + s\n") + "ulimit -v 300000; xonsh a.xsh", timeout=90)

# ---- python (the table's family python is left out): Twisted's trial, pylama, YAPF, pex ----
TRIAL_NOTE = ("first made with the module's name (trial test_add), which trial could not import from the folder it ran in"
              " (ModuleNotFound): not the failure labelled; re-scripted with the file's name (trial test_add.py), which trial could not"
              " find either (ObjectNotFound); re-scripted again with the folder on PYTHONPATH and the module's name" + RB)
case("python", "trial-syntax-1", "trial", S, "Twisted trial: a test module whose def is broken",
     w("test_add.py", "from twisted.trial import unittest\n\n\nclass AddTest(unittest.TestCase):\n    def test_add(self:\n        self.assertEqual(2 + 3, 5)\n")
     + "PYTHONPATH=. trial test_add", note=TRIAL_NOTE)
case("python", "trial-validation-1", "trial", V, "Twisted trial: a test whose assertEqual fails",
     w("test_add.py", "from twisted.trial import unittest\n\n\ndef add(a, b):\n    return a - b\n\n\nclass AddTest(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n")
     + "PYTHONPATH=. trial test_add", note=TRIAL_NOTE)
case("python", "trial-missing-1", "trial", M, "Twisted trial: a test module importing a package that is not installed",
     w("test_cases.py", "from twisted.trial import unittest\nfrom parameterized import parameterized\n\n\nclass CasesTest(unittest.TestCase):\n    def test_one(self):\n        self.assertTrue(parameterized)\n")
     + "PYTHONPATH=. trial test_cases", package="parameterized", note=TRIAL_NOTE)
case("python", "trial-timeout-1", "trial", T, "Twisted trial: a test returning a Deferred that never fires, past its timeout of 1 s",
     w("test_wait.py", "from twisted.internet import defer\nfrom twisted.trial import unittest\n\n\nclass WaitTest(unittest.TestCase):\n    timeout = 1\n\n    def test_wait(self):\n        return defer.Deferred()\n")
     + "PYTHONPATH=. trial test_wait", timeout=60, note=TRIAL_NOTE)
case("python", "trial-resource-1", "trial", R, "Twisted trial: a test opening files past a limit of 32 file handles (ulimit -n)",
     w("test_open.py", "from twisted.trial import unittest\n\n\nclass OpenTest(unittest.TestCase):\n    def test_open(self):\n        files = [open(f\"f{i}.txt\", \"w\") for i in range(200)]\n        self.assertEqual(len(files), 200)\n")
     + "ulimit -n 32; PYTHONPATH=. trial test_open", note=TRIAL_NOTE)
case("python", "pylama-validation-1", "pylama", V, "pylama 8: an unused import and a missing whitespace around an operator",
     w("a.py", "import os\n\n\ndef f(x):\n    return x+1\n") + "pylama a.py")
case("python", "pylama-syntax-1", "pylama", S, "pylama 8: a def whose parameter list is broken",
     w("a.py", "def f(:\n    return 1\n") + "pylama a.py")
case("python", "yapf-validation-1", "yapf", V, "YAPF 0.43 --diff: a file not formatted as YAPF wants",
     w("a.py", "def f( x ):\n  return x+1\n") + "yapf --diff a.py")
case("python", "yapf-syntax-1", "yapf", S, "YAPF 0.43 --diff: a def whose parameter list is broken",
     w("a.py", "def f(:\n    return 1\n") + "yapf --diff a.py")

case("python", "pex-network-1", "pex", N, "pex 2: a PEX of six built with no network (an empty network namespace)",
     NONET + "pex six -o six.pex", timeout=240)
case("python", "pex-other-1", "pex", O, "pex 2: a PEX of a requirement PyPI does not have",
     "pex no-such-package-phasegate-6 -o a.pex", timeout=240)

# ---- js-tests (the table's family js-tests is left out): QUnit, @hapi/lab ----
# dropped after their outputs were produced (before any classifier read them): QUnit was found installed already on the
# machine before this corpus began, in the folders of an earlier corpus (/tmp/gen/npm, not on the PATH, so `command -v`
# missed it; run.py's PATH even ran that copy), so a cue could have been written from it
# case("js-tests", "qunit-validation-1", "qunit", V, "QUnit 2 CLI: a test whose assert.equal fails",
#      w("test.js", "const add = (a, b) => a - b;\nQUnit.test('add', (assert) => {\n  assert.equal(add(2, 3), 5);\n});\n") + "qunit test.js")
# case("js-tests", "qunit-missing-1", "qunit", M, "QUnit 2 CLI: a test requiring a package that is not installed",
#      w("test.js", "const sinon = require('sinon');\nQUnit.test('spy', (assert) => {\n  assert.ok(sinon.spy());\n});\n") + NODE + "qunit test.js",
#      package="sinon")
# case("js-tests", "qunit-timeout-1", "qunit", T, "QUnit 2 CLI: an async test that never settles, past its assert.timeout(100)",
#      w("test.js", "QUnit.test('settles', async (assert) => {\n  assert.timeout(100);\n  await new Promise(() => {});\n  assert.ok(true);\n});\n")
#      + "qunit test.js", timeout=60)
LAB_HEAD = "const { expect } = require('@hapi/code');\nconst Lab = require('@hapi/lab');\nconst { it } = (exports.lab = Lab.script());\n"
case("js-tests", "lab-validation-1", "lab", V, "@hapi/lab: a test whose expect(...).to.equal fails",
     "mkdir test; " + w("test/add.js", LAB_HEAD + "const add = (a, b) => a - b;\nit('adds', () => {\n  expect(add(2, 3)).to.equal(5);\n});\n")
     + NODE + "lab test/add.js")
case("js-tests", "lab-missing-1", "lab", M, "@hapi/lab: a test requiring a package that is not installed",
     "mkdir test; " + w("test/http.js", LAB_HEAD + "const nock = require('nock');\nit('mocks', () => {\n  expect(nock).to.exist();\n});\n")
     + NODE + "lab test/http.js", package="nock")
case("js-tests", "lab-timeout-1", "lab", T, "@hapi/lab: an async test that never settles, past its timeout of 100 ms",
     "mkdir test; " + w("test/wait.js", LAB_HEAD + "it('settles', { timeout: 100 }, async () => {\n  await new Promise(() => {});\n});\n")
     + NODE + "lab test/wait.js", timeout=60)
case("js-tests", "lab-network-1", "lab", N, "@hapi/lab: a test fetching a URL, with no network (an empty network namespace)",
     "mkdir test; " + w("test/fetch.js", LAB_HEAD + "it('fetches', async () => {\n  const res = await fetch('https://example.com/');\n  expect(res.status).to.equal(200);\n});\n")
     + NODE + NONET + "lab test/fetch.js", timeout=60)

# ---- js-lint (the table's family js-lint is left out): quick-lint-js, Biome ----
case("js-lint", "quick-lint-js-syntax-1", "quick-lint-js", S, "quick-lint-js: a function whose brace is never closed",
     w("a.js", "function f(x) {\n  return x;\n\nf(1);\n") + "quick-lint-js a.js")
case("js-lint", "quick-lint-js-validation-1", "quick-lint-js", V, "quick-lint-js: a variable used that is not declared, and an assignment to a const",
     w("a.js", "const total = 1;\ntotal = 2;\nconsole.log(totl);\n") + "quick-lint-js a.js")
case("js-lint", "biome-syntax-1", "biome", S, "Biome (biome lint): a function whose brace is never closed",
     w("a.js", "function f(x) {\n  return x;\n\nf(1);\n") + "biome lint a.js")
case("js-lint", "biome-validation-1", "biome", V, "Biome (biome lint): a debugger statement and a comparison with NaN",
     w("a.js", "function f(x) {\n  debugger;\n  return x == NaN;\n}\nf(1);\n") + "biome lint a.js")

# ---- typescript (the table's family typescript is left out): AssemblyScript's asc ----
# dropped after their outputs were produced (before any classifier read them): AssemblyScript was found installed
# already on the machine before this corpus began, in the folders of an earlier corpus (/tmp/gen/npm, not on the PATH,
# so `command -v` missed it; run.py's PATH even ran that copy), so a cue could have been written from it
# case("typescript", "asc-syntax-1", "asc", S, "AssemblyScript asc: a function whose brace is never closed",
#      w("a.ts", "export function add(a: i32, b: i32): i32 {\n  return a + b;\n") + "asc a.ts -o a.wasm")
# case("typescript", "asc-validation-1", "asc", V, "AssemblyScript asc: a string returned where an i32 is declared",
#      w("a.ts", "export function add(a: i32, b: i32): i32 {\n  return \"three\";\n}\n") + "asc a.ts -o a.wasm")
# case("typescript", "asc-missing-1", "asc", M, "AssemblyScript asc: import from a package that is not installed",
#      w("a.ts", "import { u128 } from \"as-bignum/assembly\";\nexport function one(): u128 {\n  return u128.One;\n}\n") + "asc a.ts -o a.wasm",
#      package="as-bignum")
# case("typescript", "asc-resource-1", "asc", R, "AssemblyScript asc: 20,000 generated functions compiled in a V8 heap of 64 MB (--max-old-space-size)",
#      "python3 -c \"print(''.join(f'export function f{i}(a: i32): i32 {{ return a * {i} + {i}; }}\\n' for i in range(20000)))\" > big.ts; "
#      "NODE_OPTIONS=--max-old-space-size=64 asc big.ts -o big.wasm", timeout=240)

# added after the drops above, labels committed before these outputs existed: tsup (an esbuild-based bundler of TypeScript)
TSUP_NOTE = ("first made without typescript in the npm folder, where tsup stopped at once (Cannot find module 'typescript', its own"
             " peer): not the failure labelled; re-made with typescript installed beside it" + RB)
case("typescript", "tsup-syntax-1", "tsup", S, "tsup 8: a function whose brace is never closed",
     "mkdir src; " + w("src/index.ts", "export function add(a: number, b: number): number {\n  return a + b;\n") + "tsup src/index.ts", note=TSUP_NOTE)
case("typescript", "tsup-missing-1", "tsup", M, "tsup 8: import of a package that is not installed",
     "mkdir src; " + w("src/index.ts", "import { chunk } from \"lodash-es\";\nexport const pairs = chunk([1, 2, 3, 4], 2);\n") + "tsup src/index.ts",
     package="lodash-es", note=TSUP_NOTE)

# ---- ruby (the table's family ruby is left out): Haml, Slim, Mustache (Debian's ruby-haml, ruby-slim, ruby-mustache) ----
SLIMRB = "ruby /usr/share/rubygems-integration/all/gems/slim-4.1.0/bin/slimrb"
SLIM_NOTE = ("first scripted as `slimrb a.slim`, but Debian's ruby-slim puts no slimrb on the PATH (found when installing,"
             " before any output existed): re-scripted to run the gem's own slimrb with ruby, label unchanged")
case("ruby", "haml-syntax-1", "haml", S, "Haml 6 (haml render): a line indented deeper than the one before allows",
     w("a.haml", "%div\n      %p one\n  %p two\n") + "haml render a.haml")
case("ruby", "haml-validation-1", "haml", V, "Haml 6 (haml render): a string added to a number while the template renders",
     w("a.haml", "- items = [1, 2]\n%p= items.sum + \"one\"\n") + "haml render a.haml",
     note="first made with a variable that is not defined (%p= total + 1), which haml render's own command object took for a file to read (Errno::ENOENT): not the failure labelled; re-scripted with a string added to a number" + RB)
case("ruby", "slimrb-syntax-1", "slimrb", S, "Slim 4 (slimrb): an attribute whose quote is never closed",
     w("a.slim", "div class=\"box\n  p one\n") + SLIMRB + " a.slim", note=SLIM_NOTE)
case("ruby", "slimrb-validation-1", "slimrb", V, "Slim 4 (slimrb): a method called on nil while the template renders",
     w("a.slim", "p = nil.upcase\n") + SLIMRB + " a.slim", note=SLIM_NOTE)
# dropped after their outputs were produced (before any classifier read them): a mustache command (npm's) was found
# installed already on the machine before this corpus began, in the folders of an earlier corpus (/tmp/gen5/npm, not on
# the PATH, so `command -v` missed it; run.py's PATH even ran that copy), so a cue could have been written from it
# case("ruby", "mustache-syntax-1", "mustache", S, "Mustache 1.1 (ruby-mustache): a section that is never closed",
#      w("data.yml", "---\nitems:\n  - name: a\n---\n") + w("a.mustache", "{{#items}}\n  <li>{{name}}</li>\n") + "mustache data.yml a.mustache")

# ---- php (the table's family php is left out): PHP_CodeSniffer ----
case("php", "phpcs-validation-1", "phpcs", V, "PHP_CodeSniffer 3.7 --standard=PSR12: a file not laid out as PSR-12 wants",
     w("a.php", "<?php\nfunction add( $a,$b ){\nreturn $a+$b;}\n") + "phpcs --standard=PSR12 a.php")
case("php", "phpcs-syntax-1", "phpcs", S, "PHP_CodeSniffer 3.7 with its Generic.PHP.Syntax sniff: a function whose parameter list is broken",
     w("a.php", "<?php\nfunction add($a, {\n    return $a;\n}\n") + "phpcs --standard=Generic --sniffs=Generic.PHP.Syntax a.php")

# ---- dotnet (the table's family dotnet is left out): Mono's C# compiler mcs ----
case("dotnet", "mcs-syntax-1", "mcs", S, "Mono mcs 6.8: a statement without its semicolon",
     w("a.cs", "class A {\n    static void Main() {\n        int x = 1\n        System.Console.WriteLine(x);\n    }\n}\n") + "mcs a.cs")
case("dotnet", "mcs-validation-1", "mcs", V, "Mono mcs 6.8: an int assigned to a string",
     w("a.cs", "class A {\n    static void Main() {\n        string s = 5;\n        System.Console.WriteLine(s);\n    }\n}\n") + "mcs a.cs")
case("dotnet", "mcs-missing-1", "mcs", M, "Mono mcs 6.8: a using of a namespace of a library that is not referenced (a C# using names its package as written)",
     w("a.cs", "using Newtonsoft.Json;\nclass A {\n    static void Main() {\n        System.Console.WriteLine(JsonConvert.SerializeObject(1));\n    }\n}\n") + "mcs a.cs",
     package="Newtonsoft.Json")

# ---- go (the table's family go is left out): gccgo ----
case("go", "gccgo-syntax-1", "gccgo", S, "gccgo 12: an expression whose parenthesis is never closed",
     w("a.go", "package main\n\nfunc main() {\n\tx := (1 + 2\n\tprintln(x)\n}\n") + "gccgo -c a.go -o a.o")
case("go", "gccgo-validation-1", "gccgo", V, "gccgo 12: an int assigned to a string",
     w("a.go", "package main\n\nfunc main() {\n\tvar s string = 5\n\tprintln(s)\n}\n") + "gccgo -c a.go -o a.o")
case("go", "gccgo-missing-1", "gccgo", M, "gccgo 12: import of a package that is not installed",
     w("a.go", "package main\n\nimport \"github.com/google/uuid\"\n\nfunc main() {\n\tprintln(uuid.NewString())\n}\n") + "gccgo -c a.go -o a.o",
     package="github.com/google/uuid")

# ---- sql (the table's family sql is left out): sqlite-utils, pglast's pgpp ----
case("sql", "sqlite-utils-syntax-1", "sqlite-utils", S, "sqlite-utils 4 query: a keyword misspelt",
     "sqlite-utils query data.db 'SELEC 1'")
case("sql", "sqlite-utils-validation-1", "sqlite-utils", V, "sqlite-utils 4 query: a table that does not exist",
     "sqlite-utils create-table data.db items id integer; sqlite-utils query data.db 'select * from nowhere'")
case("sql", "sqlite-utils-resource-1", "sqlite-utils", R, "sqlite-utils 4 insert of about 1 MB of rows into a database on a 64 KiB tmpfs",
     "python3 -c \"import json; print(json.dumps([{'id': i, 'text': 'lorem ipsum dolor sit amet ' * 4} for i in range(8000)]))\" > rows.json; "
     "export S=\"$PWD\"; " + SMALLFS.format("sqlite-utils insert /mnt/data.db rows \"$S/rows.json\""))
case("sql", "pgpp-syntax-1", "pgpp", S, "pglast 8 pgpp (PostgreSQL's parser): a parenthesis never closed",
     w("a.sql", "SELECT (1 + 2;\n") + "pgpp a.sql")

# ---- yaml (the table's family yaml is left out): Yamale, yamlfix ----
# dropped after their outputs were produced (before any classifier read them): Yamale was found installed already on the
# machine before this corpus began, in the folders of an earlier corpus (/tmp/gen/venv, not on the PATH, so `command -v`
# missed it; run.py's PATH even ran that copy), so a cue could have been written from it
# case("yaml", "yamale-validation-1", "yamale", V, "Yamale 6: a word where the schema wants an int",
#      w("schema.yaml", "name: str()\nage: int()\n") + w("data.yaml", "name: a\nage: old\n") + "yamale -s schema.yaml data.yaml")
# case("yaml", "yamale-syntax-1", "yamale", S, "Yamale 6: a data file whose flow sequence is never closed",
#      w("schema.yaml", "name: list(str())\nage: int()\n") + w("data.yaml", "name: [a, b\nage: 3\n") + "yamale -s schema.yaml data.yaml")
case("yaml", "yamlfix-validation-1", "yamlfix", V, "yamlfix 1.19 --check: a file not formatted as yamlfix wants",
     w("a.yaml", "key:   value\nlist:\n- a\n-   b\n") + "yamlfix --check a.yaml")
case("yaml", "yamlfix-syntax-1", "yamlfix", S, "yamlfix 1.19 --check: a mapping whose flow sequence is never closed",
     w("a.yaml", "key: [a, b\nother: 1\n") + "yamlfix --check a.yaml")

# ---- data6: Miller, check-jsonschema, Taplo, ajv-cli ----
CSV = "x,n\nabc,1\ndef,2\n"
case("data6", "mlr-syntax-1", "mlr", S, "Miller 6.6: a put expression ending in an operator",
     w("a.csv", CSV) + "mlr --icsv --ojson put '$z = $n +' a.csv")
case("data6", "mlr-validation-1", "mlr", V, "Miller 6.6: a type assertion that fails (asserting_int of a word)",
     w("a.csv", CSV) + "mlr --icsv --ojson put '$y = asserting_int($x)' a.csv")
case("data6", "mlr-resource-1", "mlr", R, "Miller 6.6: a map grown without end under a 1 GB address-space limit (ulimit -v)",
     "ulimit -v 1000000; mlr -n put 'end { m = {}; for (i = 0; i < 100000000; i += 1) { m[i] = \"lorem ipsum dolor sit amet\" } }'", timeout=120)
SCHEMA = "{\"type\": \"object\", \"properties\": {\"port\": {\"type\": \"integer\"}}, \"required\": [\"port\"]}\n"
# dropped after their outputs were produced (before any classifier read them): check-jsonschema was found installed
# already on the machine before this corpus began, in the folders of an earlier corpus (/tmp/gen/venv, not on the PATH,
# so `command -v` missed it; run.py's PATH even ran that copy), so a cue could have been written from it
# case("data6", "check-jsonschema-validation-1", "check-jsonschema", V, "check-jsonschema 0.39: a string where the schema wants an integer",
#      w("schema.json", SCHEMA) + w("data.json", "{\"port\": \"eighty\"}\n") + "check-jsonschema --schemafile schema.json data.json")
# case("data6", "check-jsonschema-syntax-1", "check-jsonschema", S, "check-jsonschema 0.39: an instance file with a trailing comma",
#      w("schema.json", SCHEMA) + w("data.json", "{\"port\": 80,}\n") + "check-jsonschema --schemafile schema.json data.json")
# case("data6", "check-jsonschema-network-1", "check-jsonschema", N, "check-jsonschema 0.39: a schema given by URL, with no network (an empty network namespace)",
#      w("data.json", "{\"port\": 80}\n") + NONET + "check-jsonschema --schemafile https://example.com/schema.json data.json", timeout=120)
# dropped after their outputs were produced (before any classifier read them): Taplo was found installed already on the
# machine before this corpus began, in the folders of an earlier corpus (/tmp/gen/npm, not on the PATH, so `command -v`
# missed it; run.py's PATH even ran that copy), so a cue could have been written from it
# case("data6", "taplo-syntax-1", "taplo", S, "Taplo (taplo check): a table header never closed",
#      w("a.toml", "[project\nname = \"a\"\n") + "taplo check a.toml")
# case("data6", "taplo-validation-1", "taplo", V, "Taplo (taplo check --schema): a string where the schema wants an integer",
#      w("schema.json", SCHEMA) + w("a.toml", "port = \"eighty\"\n") + "taplo check --schema \"file://$PWD/schema.json\" a.toml")
# dropped after their outputs were produced (before any classifier read them): ajv-cli was found installed already on
# the machine before this corpus began, in the folders of an earlier corpus (/tmp/gen/npm, not on the PATH, so `command
# -v` missed it; run.py's PATH even ran that copy), so a cue could have been written from it
# case("data6", "ajv-validation-1", "ajv", V, "ajv-cli 5 validate: a string where the schema wants an integer",
#      w("schema.json", SCHEMA) + w("data.json", "{\"port\": \"eighty\"}\n") + "ajv validate -s schema.json -d data.json")
# case("data6", "ajv-syntax-1", "ajv", S, "ajv-cli 5 validate: a data file with a trailing comma",
#      w("schema.json", SCHEMA) + w("data.json", "{\"port\": 80,}\n") + "ajv validate -s schema.json -d data.json")
# case("data6", "ajv-missing-1", "ajv", M, "ajv-cli 5 validate -c: a plugin package that is not installed",
#      w("schema.json", SCHEMA) + w("data.json", "{\"port\": 80}\n") + "ajv validate -s schema.json -d data.json -c ajv-formats-draft2019",
#      package="ajv-formats-draft2019")

# ---- docs6: textlint, remark-cli, markdown-link-check ----
case("docs6", "textlint-validation-1", "textlint", V, "textlint 15 with textlint-rule-no-todo: a TODO left in the text",
     LINK + w(".textlintrc", "{\"rules\": {\"no-todo\": true}}\n") + w("README.md", "# A\n\n- [ ] TODO: write the manual\n") + "textlint README.md")
case("docs6", "textlint-missing-1", "textlint", M, "textlint 15 --rule: a rule package that is not installed",
     LINK + w("README.md", "# A\n\nSome text.\n") + "textlint --rule textlint-rule-write-good README.md",
     note="first made with the rule named in .textlintrc, where textlint said only that it found no rules: not the failure labelled; re-scripted with the rule given by --rule" + RB,
     package="textlint-rule-write-good")
case("docs6", "remark-validation-1", "remark", V, "remark-cli --frail with remark-preset-lint-recommended: mixed list markers and a missing final line end",
     LINK + "printf '# A\\n\\n* one\\n- two\\n\\n[x]: https://example.com\\n[x]: https://example.org' > README.md; "
     "remark --frail --use remark-preset-lint-recommended README.md -o /dev/null")
case("docs6", "remark-missing-1", "remark", M, "remark-cli --use of a plugin package that is not installed",
     LINK + w("README.md", "# A\n\nSee [b](b.md).\n") + "remark --frail --use remark-validate-links README.md -o /dev/null",
     package="remark-validate-links")
case("docs6", "markdown-link-check-network-1", "markdown-link-check", N, "markdown-link-check: a link to a URL, with no network (an empty network namespace)",
     w("README.md", "# A\n\nSee [the site](https://example.com/docs).\n") + NONET + "markdown-link-check README.md", timeout=120)

# added after the drops above, labels committed before these outputs existed: html-validate
case("docs6", "html-validate-validation-1", "html-validate", V, "html-validate 9: an img without alt and an id used twice",
     w("a.html", "<!DOCTYPE html>\n<html lang=\"en\">\n<head><title>A</title></head>\n<body>\n<p id=\"x\">one</p>\n<p id=\"x\">two</p>\n<img src=\"a.png\">\n</body>\n</html>\n")
     + "html-validate a.html")
case("docs6", "html-validate-missing-1", "html-validate", M, "html-validate 9: a plugin package named in .htmlvalidate.json that is not installed",
     w(".htmlvalidate.json", "{\"plugins\": [\"html-validate-vue\"], \"extends\": [\"html-validate:recommended\"]}\n")
     + w("a.html", "<!DOCTYPE html>\n<html lang=\"en\">\n<head><title>A</title></head>\n<body><p>one</p></body>\n</html>\n") + "html-validate a.html",
     package="html-validate-vue")

# ---- config6: unbound-checkconf, visudo -c, rsyslogd -N1, promtool, tor --verify-config ----
UNB = "server:\n  chroot: \"\"\n  username: \"\"\n  interface: 127.0.0.1\n"
case("config6", "unbound-checkconf-syntax-1", "unbound-checkconf", S, "Unbound 1.17 unbound-checkconf: an option without its colon",
     w("u.conf", UNB + "  do-ip6 no\n") + "unbound-checkconf u.conf")
case("config6", "unbound-checkconf-validation-1", "unbound-checkconf", V, "Unbound 1.17 unbound-checkconf: an access-control action that does not exist",
     w("u.conf", UNB + "  access-control: 10.0.0.0/8 allowish\n") + "unbound-checkconf u.conf")
case("config6", "visudo-syntax-1", "visudo", S, "sudo 1.9 visudo -c: a rule whose parenthesis is never closed",
     w("sudoers", "dev ALL=(ALL ALL\n") + "visudo -c -f sudoers")
case("config6", "visudo-validation-1", "visudo", V, "sudo 1.9 visudo -c: a Defaults entry sudo does not know",
     w("sudoers", "Defaults nosuchoption\ndev ALL=(ALL) ALL\n") + "visudo -c -f sudoers")
case("config6", "rsyslogd-syntax-1", "rsyslogd", S, "rsyslog 8.2302 rsyslogd -N1: a module() whose parenthesis is never closed",
     w("r.conf", "module(load=\"imuxsock\"\n*.* action(type=\"omfile\" file=\"/tmp/gen6-rsyslog.log\")\n") + "rsyslogd -N1 -f \"$PWD/r.conf\"")
case("config6", "rsyslogd-validation-1", "rsyslogd", V, "rsyslog 8.2302 rsyslogd -N1: an action parameter that omfile does not know",
     w("r.conf", "*.* action(type=\"omfile\" file=\"/tmp/gen6-rsyslog.log\" nosuchparam=\"1\")\n") + "rsyslogd -N1 -f \"$PWD/r.conf\"")
case("config6", "rsyslogd-missing-1", "rsyslogd", M, "rsyslog 8.2302 rsyslogd -N1: a module whose file is not installed (imkafka)",
     w("r.conf", "module(load=\"imkafka\")\n*.* action(type=\"omfile\" file=\"/tmp/gen6-rsyslog.log\")\n") + "rsyslogd -N1 -f \"$PWD/r.conf\"")
case("config6", "promtool-syntax-1", "promtool", S, "Prometheus 2.42 promtool check config: a YAML mapping indented wrong",
     w("p.yml", "global:\n  scrape_interval: 15s\n scrape_configs:\n  - job_name: a\n") + "promtool check config p.yml")
case("config6", "promtool-syntax-2", "promtool", S, "Prometheus 2.42 promtool check rules: a PromQL expression whose parenthesis is never closed",
     w("r.yml", "groups:\n  - name: a\n    rules:\n      - alert: Down\n        expr: rate(http_requests_total[5m]\n") + "promtool check rules r.yml")
case("config6", "promtool-validation-1", "promtool", V, "Prometheus 2.42 promtool check rules: a word where a duration is wanted",
     w("r.yml", "groups:\n  - name: a\n    rules:\n      - alert: Down\n        expr: up == 0\n        for: soon\n") + "promtool check rules r.yml")
TOR = "tor --verify-config --defaults-torrc /dev/null -f t.rc --DataDirectory \"$PWD/data\""
case("config6", "tor-syntax-1", "tor", S, "Tor 0.4.9 --verify-config: an option Tor does not know",
     w("t.rc", "SocksPort 9050\nNoSuchOption 1\n") + TOR)
case("config6", "tor-validation-1", "tor", V, "Tor 0.4.9 --verify-config: a word where a port is wanted",
     w("t.rc", "SocksPort notaport\n") + TOR)

# ---- math6: Maxima, Yacas, lp_solve, CBC, ngspice ----
case("math6", "maxima-syntax-1", "maxima", S, "Maxima 5.46 batch: an expression whose parenthesis is never closed",
     w("a.mac", "x: (1 + 2;\nprint(x);\n") + "maxima --very-quiet -b a.mac < /dev/null", timeout=60)
case("math6", "maxima-validation-1", "maxima", V, "Maxima 5.46 batch: a division by zero",
     w("a.mac", "x: 1/0;\nprint(x);\n") + "maxima --very-quiet -b a.mac < /dev/null", timeout=60)
case("math6", "maxima-timeout-1", "maxima", T, "Maxima 5.46 batch: an endless loop under a CPU time limit of 2 s (ulimit -t 2)",
     w("a.mac", "i: 0;\ndo i: i + 1;\n") + "ulimit -t 2; maxima --very-quiet -b a.mac < /dev/null && echo passed", timeout=60)
case("math6", "yacas-syntax-1", "yacas", S, "Yacas 1.3.6: an expression whose parenthesis is never closed",
     w("a.ys", "x := (1 + 2;\nEcho(x);\n") + "yacas -pc a.ys < /dev/null", timeout=60)
case("math6", "yacas-validation-1", "yacas", V, "Yacas 1.3.6: a Check whose predicate is false",
     w("a.ys", "add(a, b) := a - b;\nCheck(add(2, 3) = 5, \"add(2, 3) is not 5\");\n") + "yacas -pc a.ys < /dev/null", timeout=60)
case("math6", "lp_solve-syntax-1", "lp_solve", S, "lp_solve 5.5: a constraint without its right-hand side",
     w("a.lp", "max: 3x + 2y;\nc1: x + y <= ;\nc2: x + 3y <= 6;\n") + "lp_solve -S3 a.lp")
case("math6", "lp_solve-validation-1", "lp_solve", V, "lp_solve 5.5: a model whose constraints cannot all hold (infeasible)",
     w("a.lp", "max: x;\nc1: x >= 5;\nc2: x <= 3;\n") + "lp_solve -S3 a.lp")
case("math6", "cbc-syntax-1", "cbc", S, "COIN-OR CBC 2.10: an LP file whose constraint has no right-hand side",
     w("a.lp", "Maximize\n obj: 3 x + 2 y\nSubject To\n c1: x + y <=\nEnd\n") + "cbc a.lp solve")
case("math6", "cbc-timeout-1", "cbc", T, "COIN-OR CBC 2.10 sec 1: a market split instance (5 equations on 40 binaries), stopped at its time limit",
     "python3 - <<'EOF_CASE'\nimport random\nrandom.seed(6)\nm, n = 5, 40\nlines = ['Minimize', ' obj: 0 x1', 'Subject To']\n"
     "for i in range(m):\n    a = [random.randint(0, 99) for _ in range(n)]\n"
     "    lines.append(f' c{i}: ' + ' + '.join(f'{a[j]} x{j + 1}' for j in range(n)) + f' = {sum(a) // 2}')\n"
     "lines.append('Binary')\nlines.append(' ' + ' '.join(f'x{j + 1}' for j in range(n)))\nlines.append('End')\n"
     "open('a.lp', 'w').write('\\n'.join(lines) + '\\n')\nEOF_CASE\n" + "cbc a.lp sec 1 solve", timeout=120)
case("math6", "ngspice-syntax-1", "ngspice", S, "ngspice 39 -b: a resistor value whose parenthesis is never closed",
     w("a.cir", "* divider\nV1 in 0 DC 5\nR1 in out {2k * (1 + 2}\nR2 out 0 1k\n.op\n.end\n") + "ngspice -b a.cir",
     note="first made with a resistor line without its value, which ngspice took as 1 mOhm with a warning and simulated (exit 0): no failure; re-scripted with a value whose parenthesis is never closed" + RB)
case("math6", "ngspice-validation-1", "ngspice", V, "ngspice 39 -b: two voltage sources of different values in parallel (a singular matrix)",
     w("a.cir", "* loop\nV1 a 0 DC 5\nV2 a 0 DC 3\nR1 a 0 1k\n.op\n.end\n") + "ngspice -b a.cir")

# ---- asm6: gputils' gpasm, AVRA ----
case("asm6", "gpasm-syntax-1", "gpasm", S, "gputils 1.4 gpasm: an operand whose parenthesis is never closed",
     w("a.asm", "\torg 0\n\tmovlw (1 + 2\n\tend\n") + "gpasm -p p16f84a a.asm")
case("asm6", "gpasm-validation-1", "gpasm", V, "gputils 1.4 gpasm: a goto to a label that is not defined",
     w("a.asm", "\torg 0\n\tgoto nowhere\n\tend\n") + "gpasm -p p16f84a a.asm")
case("asm6", "gpasm-missing-1", "gpasm", M, "gputils 1.4 gpasm: an #include of a vendor header gputils does not ship (MPLAB XC8's xc.inc)",
     w("a.asm", "#include <xc.inc>\n\torg 0\n\tnop\n\tend\n") + "gpasm -p p16f84a a.asm")
case("asm6", "avra-syntax-1", "avra", S, "AVRA 1.4: an operand whose parenthesis is never closed",
     w("a.asm", ".device ATmega8\nldi r16, (5\n") + "avra a.asm")
case("asm6", "avra-missing-1", "avra", M, "AVRA 1.4: an .include of a device definition file AVRA does not ship (ATmega4809)",
     w("a.asm", ".include \"m4809def.inc\"\nldi r16, 5\n") + "avra a.asm")

# ---- lisp6: SigScheme ----
case("lisp6", "sscm-syntax-1", "sscm", S, "SigScheme 0.9 (sscm): a file ending inside a form",
     w("a.scm", "(define (add a b)\n  (+ a b)\n") + "sscm a.scm")
case("lisp6", "sscm-validation-1", "sscm", V, "SigScheme 0.9 (sscm): car of a number",
     w("a.scm", "(display (car 5))\n(newline)\n") + "sscm a.scm")

# ---- vcs6: git-buildpackage's gbp pq, TopGit, GNU Stow ----
GBP = ("git init -q -b master pkg && cd pkg && mkdir -p debian/patches && "
       "printf 'a (1.0-1) unstable; urgency=low\\n\\n  * x\\n\\n -- Dev <dev@example.com>  Mon, 01 Jan 2024 00:00:00 +0000\\n' > debian/changelog && "
       "printf 'Source: a\\nMaintainer: Dev <dev@example.com>\\n\\nPackage: a\\nArchitecture: all\\nDescription: a\\n a\\n' > debian/control && ")
case("vcs6", "gbp-conflict-1", "gbp", C, "git-buildpackage 0.9 gbp pq import: a patch of the series whose line was changed otherwise",
     GBP + "printf 'a\\nbee\\nc\\n' > f.txt && printf -- '--- a/f.txt\\n+++ b/f.txt\\n@@ -1,3 +1,3 @@\\n a\\n-b\\n+B\\n c\\n' > debian/patches/fix.patch && "
     "echo fix.patch > debian/patches/series && git add -A && git commit -qm init && gbp pq import")
case("vcs6", "gbp-conflict-2", "gbp", C, "git-buildpackage 0.9 gbp pq rebase: the patch queue and the packaging branch changed one line otherwise",
     GBP + "printf 'a\\nb\\nc\\n' > f.txt && touch debian/patches/series && git add -A && git commit -qm init && gbp pq import && "
     "sed -i 's/^b$/B1/' f.txt && git commit -qam one && git checkout -q master && sed -i 's/^b$/B2/' f.txt && git commit -qam two && gbp pq rebase")
case("vcs6", "tg-conflict-1", "tg", C, "TopGit 0.8 tg update: a topic branch and its base changed one line otherwise",
     "export EDITOR=true; git init -q -b master r && cd r && printf 'a\\nb\\nc\\n' > f.txt && git add f.txt && git commit -qm base && "
     "tg create t/fix master && git commit -qm 'topic t/fix' && sed -i 's/^b$/B1/' f.txt && git commit -qam fix && "
     "git checkout -q master && sed -i 's/^b$/B2/' f.txt && git commit -qam change && git checkout -q t/fix && tg update")
case("vcs6", "stow-conflict-1", "stow", C, "GNU Stow 2.3: a package whose file would replace a file the target holds (stow stops on the conflict)",
     "mkdir -p stow/app/bin target/bin && echo '#!/bin/sh' > stow/app/bin/tool && echo old > target/bin/tool && stow -d stow -t target app")

# ---- packaging6: pacman (Debian's pacman-package-manager) ----
PAC = "mkdir -p root db cache && pacman --root \"$PWD/root\" --dbpath \"$PWD/db\" --cachedir \"$PWD/cache\" --config p.conf --noconfirm "
case("packaging6", "pacman-other-1", "pacman", O, "pacman 6.0 -Sy of a name its (empty, local) repository does not have",
     "mkdir repo && tar czf repo/extra6.db.tar.gz -T /dev/null && ln -s extra6.db.tar.gz repo/extra6.db && "
     "printf '[options]\\nArchitecture = auto\\nSigLevel = Never\\n\\n[extra6]\\nServer = file://%s/repo\\n' \"$PWD\" > p.conf && "
     + PAC + "-Sy no-such-package-phasegate-6",
     note="first made with no repository configured, where pacman said only that none was usable: not the failure labelled; re-scripted with an empty repository named local,"
          " a name pacman keeps for itself (database already registered); re-scripted again with the repository named extra6" + RB)
case("packaging6", "pacman-network-1", "pacman", N, "pacman 6.0 -Sy of a repository on a mirror, with no network (an empty network namespace)",
     w("p.conf", "[options]\nArchitecture = auto\nSigLevel = Never\n\n[core]\nServer = https://mirror.example.org/archlinux/$repo/os/$arch\n") + NONET + PAC + "-Sy",
     timeout=120)

# ---- build6: GNU Autoconf ----
case("build6", "autoconf-syntax-1", "autoconf", S, "GNU Autoconf 2.71: an AC_INIT whose quote bracket is never closed",
     w("configure.ac", "AC_INIT([a], [1.0)\nAC_OUTPUT\n") + "autoconf",
     note="first made with AC_INIT's parenthesis never closed, which autoconf took with a warning (exit 0): no failure; re-scripted with a quote bracket never closed" + RB)
case("build6", "autoconf-missing-1", "autoconf", M, "GNU Autoconf 2.71: a macro of autoconf-archive that is not installed (AX_CHECK_COMPILE_FLAG)",
     w("configure.ac", "AC_INIT([a], [1.0])\nm4_pattern_forbid([^AX_])\nAC_PROG_CC\nAX_CHECK_COMPILE_FLAG([-Wall])\nAC_OUTPUT\n") + "autoconf",
     note="first made without m4_pattern_forbid([^AX_]), where autoconf left the macro unexpanded and said nothing (exit 0): no failure; re-scripted with the line projects that use autoconf-archive carry" + RB)
