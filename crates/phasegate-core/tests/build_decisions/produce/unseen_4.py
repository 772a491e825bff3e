# The fourth unseen corpus: toolchains that no row, cue, case, test, issue, document or earlier corpus names (each
# checked with `git grep -iw` over the whole repository, no hit in any file, and against the unseen lists of
# docs/design.md), chosen and labelled by someone who had not read the classifier (build_cues.rs, build_table.rs,
# build.rs) and never ran it. Each case: family, file name, tool, wanted class (decided here, before the output
# exists, and committed before any output existed), how it is produced, the script that produces it. `package` is
# the missing module's name as the source names it (what a person installs); none for a header, a file or a program.
# A toolchain that speaks a language a table family is about sits in that family's folder (`c`, `haskell`,
# `python`, `shell`, `javascript`, `js-tests`, `js-lint`), as in unseen_3.py.
S, M, V, C, R, T, N, O = ("SYNTAX_ERROR", "MISSING_DEPENDENCY", "VALIDATION_FAILED", "CONFLICT", "RESOURCE",
                          "TIMEOUT", "NETWORK", "OTHER")
NONET = "unshare -n "
SMALLFS = "unshare -m sh -c 'mount -t tmpfs -o size=64k tmpfs /mnt && cd /mnt && {}'"
NODE = "export NODE_PATH=/tmp/gen/npm/node_modules; "


def w(name, text):
    """A shell line writing `text` to `name` as it is."""
    return f"cat > {name} <<'EOF_CASE'\n{text}EOF_CASE\n"


# ---- small languages: Bywater BASIC, Yabasic, Nickle, Jim Tcl ----
case("classic2", "bwbasic-syntax-1", "bwbasic", S, "Bywater BASIC 2.20: a PRINT whose parenthesis is never closed",
     w("a.bas", "10 PRINT (1 + 2\n20 END\n") + "bwbasic a.bas < /dev/null", timeout=60)
case("classic2", "bwbasic-validation-1", "bwbasic", V, "Bywater BASIC 2.20: a string added to a number",
     w("a.bas", "10 A = 1 + \"two\"\n20 PRINT A\n30 END\n") + "bwbasic a.bas < /dev/null", timeout=60)
case("classic2", "yabasic-syntax-1", "yabasic", S, "Yabasic 2.90: an if without its endif",
     w("a.yab", "x = 1\nif x = 1 then\n  print x\n") + "yabasic a.yab")
case("classic2", "yabasic-validation-1", "yabasic", V, "Yabasic 2.90: an array index past its bounds",
     w("a.yab", "dim a(3)\na(5) = 1\nprint a(5)\n") + "yabasic a.yab")
case("classic2", "yabasic-timeout-1", "yabasic", T, "Yabasic 2.90: an endless loop under a CPU time limit of 1 s (ulimit -t 1)",
     w("a.yab", "do\n  i = i + 1\nloop\n") + "ulimit -t 1; yabasic a.yab && echo passed", timeout=60)
case("classic2", "nickle-syntax-1", "nickle", S, "Nickle 2.91: a call whose parenthesis is never closed",
     w("a.5c", "int x = 1;\nprintf(\"%d\\n\", (x + 2);\n") + "nickle a.5c",
     note="first made with a declaration without its semicolon, which Nickle accepted at the line end (it printed 1 and exited 0): no failure; re-scripted before any classifier read it")
case("classic2", "nickle-validation-1", "nickle", V, "Nickle 2.91: a string assigned to an int",
     w("a.5c", "int x = \"two\";\nprintf(\"%d\\n\", x);\n") + "nickle a.5c")
case("classic2", "nickle-resource-1", "nickle", R, "Nickle 2.91: a string doubled without end under a 100 MB address-space limit (ulimit -v)",
     w("a.5c", "string s = \"x\";\nwhile (true) s = s + s;\n") + "ulimit -v 100000; nickle a.5c", timeout=90)
case("classic2", "jimsh-syntax-1", "jimsh", S, "Jim Tcl 0.81: a proc whose body's brace is never closed",
     w("a.tcl", "proc add {a b} {\n  return [expr {$a + $b}]\n\nputs [add 1 2]\n") + "jimsh a.tcl")
case("classic2", "jimsh-missing-1", "jimsh", M, "Jim Tcl 0.81: package require of a package that is not installed",
     w("a.tcl", "package require tdom\nputs 1\n") + "jimsh a.tcl", package="tdom")
case("classic2", "jimsh-validation-1", "jimsh", V, "Jim Tcl 0.81: a string in arithmetic",
     w("a.tcl", "puts [expr {1 + \"two\"}]\n") + "jimsh a.tcl")

# ---- lisps: newLISP, PicoLisp, MIT/GNU Scheme ----
case("lisp3", "newlisp-syntax-1", "newlisp", S, "newLISP 10.7: a file ending inside a form",
     w("a.lsp", "(define (add a b)\n  (+ a b)\n") + "newlisp a.lsp < /dev/null", timeout=60)
case("lisp3", "newlisp-validation-1", "newlisp", V, "newLISP 10.7: a string added to a number",
     w("a.lsp", "(println (+ 1 \"two\"))\n(exit)\n") + "newlisp a.lsp < /dev/null", timeout=60)
case("lisp3", "newlisp-network-1", "newlisp", N, "newLISP 10.7: get-url of a host, with no network (an empty network namespace); the script exits 1 on an ERR answer",
     w("a.lsp", "(set 'r (get-url \"http://example.com/\"))\n(println r)\n(if (starts-with r \"ERR\") (exit 1))\n(exit)\n")
     + NONET + "newlisp a.lsp < /dev/null", timeout=60)
case("lisp3", "picolisp-syntax-1", "picolisp", S, "PicoLisp 23.2: a closing parenthesis too many",
     w("a.l", "(prinl (+ 1 2)))\n(bye)\n") + "pil a.l -bye < /dev/null", timeout=60)
case("lisp3", "picolisp-validation-1", "picolisp", V, "PicoLisp 23.2: a string added to a number",
     w("a.l", "(prinl (+ 1 \"two\"))\n(bye)\n") + "pil a.l -bye < /dev/null", timeout=60)
case("lisp3", "mit-scheme-syntax-1", "mit-scheme", S, "MIT/GNU Scheme 12.1: a loaded file ending inside a form",
     w("a.scm", "(define (add a b)\n  (+ a b)\n") + "mit-scheme --quiet --load a.scm --eval '(exit)' < /dev/null", timeout=60)
case("lisp3", "mit-scheme-validation-1", "mit-scheme", V, "MIT/GNU Scheme 12.1: car of a number",
     w("a.scm", "(display (car 5))\n") + "mit-scheme --quiet --load a.scm --eval '(exit)' < /dev/null", timeout=60)
case("lisp3", "mit-scheme-resource-1", "mit-scheme", R, "MIT/GNU Scheme 12.1: a list grown without end in a small heap (--heap 4000)",
     w("a.scm", "(define (grow l) (grow (cons (make-vector 100 0) l)))\n(grow '())\n")
     + "mit-scheme --quiet --heap 4000 --load a.scm --eval '(exit)' < /dev/null", timeout=120)

# ---- haskell (the table's family haskell is left out): Hugs ----
case("haskell", "runhugs-syntax-1", "runhugs", S, "Hugs 98 (runhugs, Sep 2006): an expression whose parenthesis is never closed",
     w("a.hs", "main = print (1 + 2\n") + "runhugs a.hs")
case("haskell", "runhugs-validation-1", "runhugs", V, "Hugs 98 (runhugs, Sep 2006): an Int given to putStrLn",
     w("a.hs", "main = putStrLn (1 + 2 :: Int)\n") + "runhugs a.hs")
case("haskell", "runhugs-missing-1", "runhugs", M, "Hugs 98 (runhugs, Sep 2006): import of a module of a package that is not installed (a Haskell module names no package)",
     w("a.hs", "import Data.Aeson\nmain = print 1\n") + "runhugs a.hs")
case("haskell", "runhugs-resource-1", "runhugs", R, "Hugs 98 (runhugs, Sep 2006): a list kept whole in a small heap (-h200000)",
     w("a.hs", "main = let xs = [1..3000000] :: [Integer] in print (sum xs + fromIntegral (length xs))\n") + "runhugs -h200000 a.hs", timeout=120)

# ---- c (the table's family c is left out): SDCC, cmocka, Flawfinder, Uncrustify, Conan ----
case("c", "sdcc-syntax-1", "sdcc", S, "SDCC 4.2: a declaration without its semicolon",
     w("a.c", "int main(void) {\n    int x = 1\n    return x;\n}\n") + "sdcc -c a.c")
case("c", "sdcc-validation-1", "sdcc", V, "SDCC 4.2: a name that is not declared",
     w("a.c", "int main(void) {\n    return total + 1;\n}\n") + "sdcc -c a.c")
case("c", "sdcc-missing-1", "sdcc", M, "SDCC 4.2: the header of a library that is not installed",
     w("a.c", "#include <zlib.h>\nint main(void) { return 0; }\n") + "sdcc -c a.c")
CMOCKA_HEAD = "#include <stdarg.h>\n#include <stddef.h>\n#include <setjmp.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <cmocka.h>\n"
case("c", "cmocka-validation-1", "cmocka", V, "cmocka 1.1.5: a test whose assert_int_equal fails (built with gcc first)",
     w("t.c", CMOCKA_HEAD + "static int add(int a, int b) { return a - b; }\n"
       "static void test_add(void **state) { (void)state; assert_int_equal(add(2, 3), 5); }\n"
       "int main(void) {\n    const struct CMUnitTest tests[] = { cmocka_unit_test(test_add) };\n"
       "    return cmocka_run_group_tests(tests, NULL, NULL);\n}\n")
     + "gcc -o t t.c -lcmocka && ./t")
case("c", "cmocka-resource-1", "cmocka", R, "cmocka 1.1.5: a test opening files past a limit of 32 file handles (ulimit -n), which reports fopen's error and fails",
     w("t.c", CMOCKA_HEAD + "static void test_open(void **state) {\n    (void)state;\n    char name[32];\n"
       "    for (int i = 0; i < 200; i++) {\n        snprintf(name, sizeof name, \"f%d.txt\", i);\n"
       "        FILE *f = fopen(name, \"w\");\n        if (f == NULL) { perror(\"fopen\"); fail_msg(\"could not open %s\", name); }\n    }\n}\n"
       "int main(void) {\n    const struct CMUnitTest tests[] = { cmocka_unit_test(test_open) };\n"
       "    return cmocka_run_group_tests(tests, NULL, NULL);\n}\n")
     + "gcc -o t t.c -lcmocka && ulimit -n 32 && ./t")
case("c", "flawfinder-validation-1", "flawfinder", V, "Flawfinder 2.0.19 --error-level=4: a strcpy of an argument into a fixed buffer",
     w("a.c", "#include <string.h>\nint main(int argc, char **argv) {\n    char buf[16];\n    strcpy(buf, argv[1]);\n    return buf[0];\n}\n")
     + "flawfinder --error-level=4 a.c")
case("c", "uncrustify-validation-1", "uncrustify", V, "Uncrustify 0.72 --check: a file not formatted as its configuration wants",
     w("u.cfg", "indent_columns = 4\nsp_arith = force\nsp_assign = force\nnl_fdef_brace = add\n")
     + w("a.c", "int main(void){int x=1+2;\nreturn x;}\n") + "uncrustify -c u.cfg --check a.c")
# dropped after its output was produced (before any classifier read it): ConanCenter (center2.conan.io) is not reachable from
# this machine, so Conan failed on the name resolution, not on a name its registry lacks: not the failure labelled
# case("c", "conan-other-1", "conan", O, "Conan 2: conan install of a reference ConanCenter does not have",
#      "conan profile detect >/dev/null 2>&1; conan install --requires=nosuchlib-phasegate/1.0", timeout=240)
case("c", "conan-network-1", "conan", N, "Conan 2: conan install of zlib, with no network (an empty network namespace)",
     "conan profile detect >/dev/null 2>&1; " + NONET + "conan install --requires=zlib/1.3.1", timeout=240)

# ---- assemblers and shader compilers: Yasm, wat2wasm (WABT), glslangValidator ----
case("lowlevel", "yasm-syntax-1", "yasm", S, "Yasm 1.3: a mov without its source operand",
     w("a.asm", "section .text\nglobal _start\n_start:\n    mov eax,\n    ret\n") + "yasm -f elf64 a.asm")
case("lowlevel", "yasm-validation-1", "yasm", V, "Yasm 1.3: a jump to a label that is not defined",
     w("a.asm", "section .text\nglobal _start\n_start:\n    jmp nowhere\n") + "yasm -f elf64 a.asm")
case("lowlevel", "yasm-resource-1", "yasm", R, "Yasm 1.3 writing a 400 KB object into a 64 KiB tmpfs",
     w("big.asm", "section .data\ntimes 400000 db 1\n") + "export S=\"$PWD\"; " + SMALLFS.format("yasm -f elf64 -o /mnt/a.o \"$S/big.asm\""))
case("lowlevel", "wat2wasm-syntax-1", "wat2wasm", S, "wat2wasm (WABT 1.0.32): a module whose parenthesis is never closed",
     w("a.wat", "(module\n  (func (result i32)\n    i32.const 1\n  )\n") + "wat2wasm a.wat")
case("lowlevel", "wat2wasm-validation-1", "wat2wasm", V, "wat2wasm (WABT 1.0.32): a function returning an f32 where an i32 is declared",
     w("a.wat", "(module\n  (func (result i32)\n    f32.const 1.0\n  )\n)\n") + "wat2wasm a.wat")
case("lowlevel", "glslangValidator-syntax-1", "glslangValidator", S, "glslangValidator 12.0: a statement without its semicolon",
     w("a.frag", "#version 450\nlayout(location = 0) out vec4 color;\nvoid main() {\n    color = vec4(1.0)\n}\n") + "glslangValidator a.frag")
case("lowlevel", "glslangValidator-validation-1", "glslangValidator", V, "glslangValidator 12.0: a vec3 assigned to a vec4",
     w("a.frag", "#version 450\nlayout(location = 0) out vec4 color;\nvoid main() {\n    color = vec3(1.0);\n}\n") + "glslangValidator a.frag")

# ---- schemas and grammars: Cap'n Proto, FlatBuffers, SWIG, Berkeley yacc ----
case("grammar2", "capnp-syntax-1", "capnp", S, "capnp 0.9.2: a field without its semicolon",
     w("a.capnp", "@0xbf5147cbbecf40c1;\nstruct A {\n  x @0 :Int32\n  y @1 :Int32;\n}\n") + "capnp compile -o- a.capnp > /dev/null")
case("grammar2", "capnp-validation-1", "capnp", V, "capnp 0.9.2: a field of a type that is not defined",
     w("a.capnp", "@0xbf5147cbbecf40c1;\nstruct A {\n  price @0 :Money;\n}\n") + "capnp compile -o- a.capnp > /dev/null")
case("grammar2", "flatc-syntax-1", "flatc", S, "flatc 2.0.8: a field without its semicolon",
     w("a.fbs", "table A {\n  x: int\n  y: int;\n}\nroot_type A;\n") + "flatc --cpp a.fbs")
case("grammar2", "flatc-validation-1", "flatc", V, "flatc 2.0.8: a field of a type that is not defined",
     w("a.fbs", "table A {\n  price: Money;\n}\nroot_type A;\n") + "flatc --cpp a.fbs")
case("grammar2", "swig-syntax-1", "swig", S, "SWIG 4.1: a declaration without its semicolon",
     w("a.i", "%module a\nint add(int a, int b)\nint sub(int a, int b);\n") + "swig -python a.i")
case("grammar2", "swig-missing-1", "swig", M, "SWIG 4.1: %include of numpy.i, a library file of a package that is not installed",
     w("a.i", "%module a\n%include \"numpy.i\"\nint add(int a, int b);\n") + "swig -python a.i")
case("grammar2", "byacc-syntax-1", "byacc", S, "Berkeley yacc 2.0: a rule with an unterminated action",
     w("a.y", "%token N\n%%\nexpr: expr '+' expr { $$ = $1 + $3;\n    | N\n    ;\n%%\n") + "byacc a.y")
case("grammar2", "byacc-validation-1", "byacc", V, "Berkeley yacc 2.0: a typed grammar assigning $$ of a rule whose symbol has no type",
     w("a.y", "%union { int i; }\n%token <i> N\n%%\nexpr: expr '+' N { $$ = $1 + $3; }\n    | N { $$ = $1; }\n    ;\n%%\n") + "byacc a.y",
     note="first made with a rule using a symbol neither a token nor defined, which byacc only warned of (exit 0): no failure; re-scripted before any classifier read it")

# ---- solvers: clingo, MiniZinc ----
PIGEONS_LP = "#const n=13.\npigeon(1..n). hole(1..n-1).\n{ at(P,H) : hole(H) } = 1 :- pigeon(P).\n:- at(P1,H), at(P2,H), P1 < P2.\n"
case("solver", "clingo-syntax-1", "clingo", S, "clingo 5.4: a rule without its period",
     w("a.lp", "a :- b\nb.\n") + "clingo a.lp")
case("solver", "clingo-validation-1", "clingo", V, "clingo 5.4: a rule with an unsafe variable",
     w("a.lp", "q(1).\np(X) :- not q(X).\n") + "clingo a.lp")
case("solver", "clingo-timeout-1", "clingo", T, "clingo 5.4 --time-limit=1: 13 pigeons in 12 holes",
     w("a.lp", PIGEONS_LP) + "clingo --time-limit=1 a.lp", timeout=60)
case("solver", "minizinc-syntax-1", "minizinc", S, "MiniZinc 2.6 with Gecode: a declaration without its semicolon",
     w("a.mzn", "var 1..3: x\nsolve satisfy;\n") + "minizinc a.mzn")
case("solver", "minizinc-validation-1", "minizinc", V, "MiniZinc 2.6 with Gecode: a string given to an int variable",
     w("a.mzn", "var int: x = \"two\";\nsolve satisfy;\n") + "minizinc a.mzn")
case("solver", "minizinc-timeout-1", "minizinc", T, "MiniZinc 2.6 with Gecode --time-limit 1000: 13 pigeons in 12 holes by pairwise disequalities",
     w("a.mzn", "array[1..13] of var 1..12: h;\nconstraint forall(i, j in 1..13 where i < j)(h[i] != h[j]);\nsolve satisfy;\n")
     + "minizinc --time-limit 1000 a.mzn", timeout=60)

# ---- python (the table's family python is left out): pyflakes, Bandit, Robot Framework, pipx ----
case("python", "pyflakes-validation-1", "pyflakes", V, "pyflakes 2.5: an unused import and a name that is not defined",
     w("a.py", "import os\n\n\ndef f():\n    return undefined_total\n") + "pyflakes3 a.py")
case("python", "pyflakes-syntax-1", "pyflakes", S, "pyflakes 2.5: a def whose parameter list is broken",
     w("a.py", "def f(:\n    pass\n") + "pyflakes3 a.py")
case("python", "bandit-validation-1", "bandit", V, "Bandit 1.6: subprocess with shell=True",
     w("a.py", "import subprocess\n\n\ndef run(cmd):\n    subprocess.call(cmd, shell=True)\n") + "bandit -q a.py")
case("python", "robot-validation-1", "robot", V, "Robot Framework 7: a test whose Should Be Equal As Integers fails",
     w("t.robot", "*** Test Cases ***\nAdds\n    ${sum}=    Evaluate    2 - 3\n    Should Be Equal As Integers    ${sum}    5\n")
     + "robot --consolecolors off --output NONE --report NONE --log NONE t.robot")
case("python", "robot-missing-1", "robot", M, "Robot Framework 7: a suite importing a library that is not installed",
     w("t.robot", "*** Settings ***\nLibrary    SeleniumLibrary\n\n*** Test Cases ***\nOpens\n    Open Browser    https://example.com    firefox\n")
     + "robot --consolecolors off --output NONE --report NONE --log NONE t.robot", package="SeleniumLibrary")
case("python", "robot-timeout-1", "robot", T, "Robot Framework 7: a test past its [Timeout] of 1 second",
     w("t.robot", "*** Test Cases ***\nWaits\n    [Timeout]    1 second\n    Sleep    5 seconds\n")
     + "robot --consolecolors off --output NONE --report NONE --log NONE t.robot", timeout=60)
case("python", "pipx-other-1", "pipx", O, "pipx install of a name PyPI does not have",
     "pipx install no-such-package-phasegate-4", timeout=240)
case("python", "pipx-network-1", "pipx", N, "pipx install of cowsay, with no network (an empty network namespace)",
     NONET + "pipx install cowsay", timeout=240)

# ---- shell (the table's family shell is left out): Cram ----
case("shell", "cram-validation-1", "cram", V, "Cram 0.7: a test whose command prints other than the expected output",
     w("a.t", "  $ echo $((2 - 3))\n  5\n") + "cram3 a.t")

# ---- javascript (the table's family javascript is left out): LiveScript, Bower ----
case("javascript", "lsc-syntax-1", "lsc", S, "LiveScript 1.6 (lsc): a call whose parenthesis is never closed",
     w("a.ls", "console.log (1 + 2\n") + "lsc a.ls")
case("javascript", "lsc-missing-1", "lsc", M, "LiveScript 1.6 (lsc): require! of a package that is not installed",
     w("a.ls", "require! lodash\nconsole.log lodash.VERSION\n") + "lsc a.ls", package="lodash")
case("javascript", "lsc-validation-1", "lsc", V, "LiveScript 1.6 (lsc): a property of null read while the program runs",
     w("a.ls", "x = null\nconsole.log x.length\n") + "lsc a.ls")
case("javascript", "bower-network-1", "bower", N, "Bower 1.8: bower install of jquery, with no network (an empty network namespace)",
     NONET + "bower install --allow-root --config.interactive=false jquery", timeout=120)

# ---- js-tests (the table's family js-tests is left out): Jasmine, tape, uvu ----
case("js-tests", "jasmine-validation-1", "jasmine", V, "Jasmine 5: a spec whose expectation fails",
     w("add.spec.js", "const add = (a, b) => a - b;\ndescribe('add', () => {\n  it('adds', () => {\n    expect(add(2, 3)).toBe(5);\n  });\n});\n")
     + "jasmine add.spec.js")
case("js-tests", "jasmine-timeout-1", "jasmine", T, "Jasmine 5: an async spec that never settles, past its timeout of 100 ms",
     w("wait.spec.js", "describe('wait', () => {\n  it('settles', async () => {\n    await new Promise(() => {});\n  }, 100);\n});\n")
     + "jasmine wait.spec.js", timeout=60)
case("js-tests", "jasmine-missing-1", "jasmine", M, "Jasmine 5: a spec requiring a package that is not installed",
     w("api.spec.js", "const request = require('supertest');\ndescribe('api', () => {\n  it('answers', () => {\n    expect(request).toBeDefined();\n  });\n});\n")
     + "jasmine api.spec.js", package="supertest")
case("js-tests", "tape-validation-1", "tape", V, "tape 5: a test whose t.equal fails",
     w("test.js", "const test = require('tape');\nconst add = (a, b) => a - b;\ntest('add', (t) => {\n  t.equal(add(2, 3), 5);\n  t.end();\n});\n")
     + NODE + "tape test.js")
case("js-tests", "tape-timeout-1", "tape", T, "tape 5: a test that never ends, past its timeoutAfter(100)",
     w("test.js", "const test = require('tape');\ntest('waits', (t) => {\n  t.timeoutAfter(100);\n});\n")
     + NODE + "tape test.js", timeout=60)
case("js-tests", "tape-missing-1", "tape", M, "tape 5: a test requiring a package that is not installed",
     w("test.js", "const test = require('tape');\nconst sinon = require('sinon');\ntest('spy', (t) => {\n  t.ok(sinon.spy());\n  t.end();\n});\n")
     + NODE + "tape test.js", package="sinon")
case("js-tests", "uvu-validation-1", "uvu", V, "uvu 0.5: a test whose assert.is fails",
     "mkdir tests; " + w("tests/add.js", "const { test } = require('uvu');\nconst assert = require('uvu/assert');\nconst add = (a, b) => a - b;\ntest('add', () => {\n  assert.is(add(2, 3), 5);\n});\ntest.run();\n")
     + NODE + "uvu tests")
case("js-tests", "uvu-missing-1", "uvu", M, "uvu 0.5: a test requiring a package that is not installed",
     "mkdir tests; " + w("tests/api.js", "const { test } = require('uvu');\nconst nock = require('nock');\ntest('api', () => {\n  nock('https://example.com');\n});\ntest.run();\n")
     + NODE + "uvu tests", package="nock")
case("js-tests", "uvu-network-1", "uvu", N, "uvu 0.5: a test fetching a URL, with no network (an empty network namespace)",
     "mkdir tests; " + w("tests/fetch.js", "const { test } = require('uvu');\nconst assert = require('uvu/assert');\ntest('fetch', async () => {\n  const res = await fetch('https://example.com/');\n  assert.is(res.status, 200);\n});\ntest.run();\n")
     + NODE + NONET + "uvu tests", timeout=60)

# ---- js-lint (the table's family js-lint is left out): JSHint ----
case("js-lint", "jshint-validation-1", "jshint", V, "JSHint 2.13: a name that is not defined, under undef",
     w("a.js", "/* jshint undef: true */\nfunction f() {\n  return total + 1;\n}\nf();\n") + "jshint a.js")
case("js-lint", "jshint-syntax-1", "jshint", S, "JSHint 2.13: a function whose brace is never closed",
     w("a.js", "function f() {\n  return 1;\n\nf();\n") + "jshint a.js")

# ---- data, accounting, translation and prose checkers: Jsonnet, hledger, Beancount, msgfmt, Jing, gnuplot, proselint ----
case("data-lint", "jsonnet-syntax-1", "jsonnet", S, "Jsonnet 0.18 (C++): a field without its value",
     w("a.jsonnet", "{\n  a: 1,\n  b: ,\n}\n") + "jsonnet a.jsonnet")
case("data-lint", "jsonnet-validation-1", "jsonnet", V, "Jsonnet 0.18 (C++): std.length of a number",
     w("a.jsonnet", "{\n  a: std.length(5),\n}\n") + "jsonnet a.jsonnet")
case("data-lint", "jsonnet-resource-1", "jsonnet", R, "Jsonnet 0.18 (C++): an array of 200 million elements under a 300 MB address-space limit (ulimit -v)",
     w("a.jsonnet", "{\n  n: std.length(std.makeArray(200000000, function(i) i)),\n}\n") + "ulimit -v 300000; jsonnet a.jsonnet", timeout=120)
case("data-lint", "hledger-syntax-1", "hledger", S, "hledger 1.25: a transaction date with a letter in it",
     w("a.journal", "2024-01-1x groceries\n    expenses:food  10 EUR\n    assets:cash\n") + "hledger -f a.journal balance")
case("data-lint", "hledger-validation-1", "hledger", V, "hledger 1.25: a transaction whose postings do not balance",
     w("a.journal", "2024-01-15 groceries\n    expenses:food  10 EUR\n    assets:cash  -9 EUR\n") + "hledger -f a.journal balance")
case("data-lint", "bean-check-syntax-1", "bean-check", S, "Beancount 2.3 bean-check: a narration whose quote is never closed",
     w("a.beancount", "2024-01-01 open Assets:Cash EUR\n2024-01-01 open Expenses:Food EUR\n\n2024-01-15 * \"groceries\n  Expenses:Food  10.00 EUR\n  Assets:Cash\n")
     + "bean-check a.beancount")
case("data-lint", "bean-check-validation-1", "bean-check", V, "Beancount 2.3 bean-check: a balance assertion that fails",
     w("a.beancount", "2024-01-01 open Assets:Cash EUR\n2024-01-01 open Expenses:Food EUR\n\n2024-01-15 * \"groceries\"\n  Expenses:Food  10.00 EUR\n  Assets:Cash\n\n2024-01-16 balance Assets:Cash  -9.00 EUR\n")
     + "bean-check a.beancount")
PO_HEAD = "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n"
case("data-lint", "msgfmt-syntax-1", "msgfmt", S, "GNU msgfmt 0.21: a msgid whose quote is never closed",
     w("a.po", PO_HEAD + "msgid \"hello\nmsgstr \"bonjour\"\n") + "msgfmt -o /dev/null a.po")
case("data-lint", "msgfmt-validation-1", "msgfmt", V, "GNU msgfmt 0.21 -c: a translation whose format directive differs from its msgid's",
     w("a.po", PO_HEAD + "#, c-format\nmsgid \"%d files\"\nmsgstr \"%s fichiers\"\n") + "msgfmt -c -o /dev/null a.po")
case("data-lint", "jing-syntax-1", "jing", S, "Jing 20220510: a document whose element is never closed, against a RELAX NG compact schema",
     w("s.rnc", "element a { xsd:integer }\n") + w("a.xml", "<a>2\n") + "jing -c s.rnc a.xml")
case("data-lint", "jing-validation-1", "jing", V, "Jing 20220510: a document its RELAX NG compact schema refuses",
     w("s.rnc", "element a { xsd:integer }\n") + w("a.xml", "<a>two</a>\n") + "jing -c s.rnc a.xml")
case("data-lint", "gnuplot-syntax-1", "gnuplot", S, "gnuplot 5.4: a plot whose parenthesis is never closed",
     w("a.gp", "set terminal dumb\nplot sin(x\n") + "gnuplot a.gp")
case("data-lint", "gnuplot-validation-1", "gnuplot", V, "gnuplot 5.4: a variable that is not defined",
     w("a.gp", "set terminal dumb\nprint total + 1\n") + "gnuplot a.gp")
case("data-lint", "proselint-validation-1", "proselint", V, "proselint 0.10: prose with its findings",
     w("a.md", "This is very unique, and we will revert back to it at this point in time.\n") + "proselint a.md")

# ---- version control and patch tools other than git: Guilt, BusyBox patch, Toybox patch ----
case("vcs4", "guilt-conflict-1", "guilt", C, "Guilt 0.36: a patch pushed back onto a change to the same line",
     "git init -q r && cd r && printf 'a\\nb\\n' > f.txt && git add f.txt && git commit -qm base && guilt init && guilt new p1 "
     "&& printf 'a\\nB1\\n' > f.txt && guilt refresh && guilt pop && printf 'a\\nB2\\n' > f.txt && git commit -qam other && guilt push")
case("vcs4", "busybox-conflict-1", "busybox patch", C, "BusyBox 1.35 patch: a hunk whose line was changed otherwise",
     "printf 'a\\nbee\\nc\\n' > f.txt; printf -- '--- f.txt\\n+++ f.txt\\n@@ -1,3 +1,3 @@\\n a\\n-b\\n+B\\n c\\n' > p.diff; busybox patch -p0 < p.diff")
case("vcs4", "toybox-conflict-1", "toybox patch", C, "Toybox 0.8.9 patch: a hunk whose line was changed otherwise",
     "printf 'a\\nbee\\nc\\n' > f.txt; printf -- '--- f.txt\\n+++ f.txt\\n@@ -1,3 +1,3 @@\\n a\\n-b\\n+B\\n c\\n' > p.diff; toybox patch -p0 -i p.diff")

# ---- build and system packages: bmake, aptitude ----
case("build2", "bmake-syntax-1", "bmake", S, "bmake 20200710: a target line without its colon",
     w("Makefile", "all\n\techo hi\n") + "bmake")
case("build2", "bmake-missing-1", "bmake", M, "bmake 20200710: a recipe running a program that is not installed",
     w("Makefile", "all:\n\tyacc2json grammar.y > grammar.json\n") + "touch grammar.y; bmake")
case("packaging2", "aptitude-other-1", "aptitude", O, "aptitude 0.8.13 -s install of a name the archive does not have",
     "aptitude -s -y install no-such-package-phasegate-4 < /dev/null", timeout=600,
     note="first run killed by run.py's own limit of 120 s while aptitude built its tag database (it takes about 6 minutes here); re-run with a limit of 600 s, before any classifier read it")
