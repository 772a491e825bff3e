# Each case: family, file name, tool, wanted class (decided here, before the output exists), how it is produced,
# the script that produces it.
S, M, V, C, R, T, N, O = ("SYNTAX_ERROR", "MISSING_DEPENDENCY", "VALIDATION_FAILED", "CONFLICT", "RESOURCE",
                          "TIMEOUT", "NETWORK", "OTHER")
NONET = "unshare -n "          # an empty network namespace: nothing leaves the machine
SMALLFS = "unshare -m sh -c 'mount -t tmpfs -o size=64k tmpfs /mnt && cd /mnt && {}'"

# ---- systems languages: zig, nim, d (gdc), fortran, ada, pascal, cobol, vala ----
ZIG = "/tmp/gen/venv/bin/python -m ziglang"
case("systems", "zig-syntax-1", "zig build-exe", S, "zig 0.17.1 (PyPI ziglang): a statement without its semicolon",
     f"printf 'pub fn main() void {{\\n    const x = 1\\n    _ = x;\\n}}\\n' > main.zig; {ZIG} build-exe main.zig")
case("systems", "zig-missing-1", "zig build-exe", M, "zig 0.17.1: @import of a module the build does not provide",
     f"printf 'const clap = @import(\"clap\");\\npub fn main() void {{ _ = clap; }}\\n' > main.zig; {ZIG} build-exe main.zig",
     package="clap")
case("systems", "zig-validation-1", "zig build-exe", V, "zig 0.17.1: a string assigned to a u8",
     f"printf 'pub fn main() void {{\\n    const x: u8 = \"hi\";\\n    _ = x;\\n}}\\n' > main.zig; {ZIG} build-exe main.zig")
case("systems", "zig-test-validation-1", "zig test", V, "zig 0.17.1: zig test with a failing expectEqual",
     f"printf 'const std = @import(\"std\");\\nfn add(a: i32, b: i32) i32 {{ return a - b; }}\\ntest \"add\" {{\\n    try std.testing.expectEqual(@as(i32, 5), add(2, 3));\\n}}\\n' > t.zig; {ZIG} test t.zig")
case("systems", "nim-syntax-1", "nim c", S, "nim 1.6.10: an if without its colon",
     "printf 'let x = 3\\nif x > 2\\n  echo \"big\"\\n' > a.nim; nim c --hints:off a.nim")
case("systems", "nim-missing-1", "nim c", M, "nim 1.6.10: import of a nimble package that is not installed",
     "printf 'import jester\\necho 1\\n' > a.nim; nim c --hints:off a.nim", package="jester")
case("systems", "nim-validation-1", "nim c", V, "nim 1.6.10: a string passed where an int is wanted",
     "printf 'proc double(x: int): int = x * 2\\necho double(\"4\")\\n' > a.nim; nim c --hints:off a.nim")
case("systems", "nim-test-validation-1", "nim c -r", V, "nim 1.6.10: std/unittest with a failing check",
     "printf 'import std/unittest\\nsuite \"cart\":\\n  test \"total\":\\n    check 2 + 2 == 5\\n  test \"empty\":\\n    check true\\n' > t.nim; nim c -r --hints:off t.nim")
case("systems", "nim-resource-1", "nim c -r", R, "nim 1.6.10: a program allocating past a 300 MB address-space limit",
     "printf 'var s = newSeq[int](1_000_000_000)\\necho s.len\\n' > a.nim; nim c --hints:off a.nim >/dev/null && (ulimit -v 300000; ./a)")
case("systems", "gdc-syntax-1", "gdc", S, "gdc 12.2 (D): a declaration without its semicolon",
     "printf 'import std.stdio;\\nvoid main() {\\n    int x = 1\\n    writeln(x);\\n}\\n' > a.d; gdc a.d")
case("systems", "gdc-missing-1", "gdc", M, "gdc 12.2 (D): import of a dub package that is not there",
     "printf 'import vibe.d;\\nvoid main() {}\\n' > a.d; gdc a.d", package="vibe.d")
case("systems", "gdc-validation-1", "gdc", V, "gdc 12.2 (D): a string assigned to an int",
     "printf 'void main() {\\n    int x = \"hi\";\\n}\\n' > a.d; gdc a.d")
case("systems", "gdc-test-validation-1", "gdc -funittest", V, "gdc 12.2 (D): a unittest block whose assert fails",
     "printf 'int add(int a, int b) { return a - b; }\\nunittest { assert(add(2, 3) == 5); }\\nvoid main() {}\\n' > a.d; gdc -funittest a.d -o a && ./a")
case("systems", "gfortran-syntax-1", "gfortran", S, "gfortran 12.2: an unbalanced parenthesis",
     "printf 'program p\\n  integer :: x\\n  x = (1 + 2\\n  print *, x\\nend program p\\n' > a.f90; gfortran a.f90")
case("systems", "gfortran-missing-1", "gfortran", M, "gfortran 12.2: use of a module no library provides",
     "printf 'program p\\n  use netcdf\\n  print *, 1\\nend program p\\n' > a.f90; gfortran a.f90", package="netcdf")
case("systems", "gfortran-validation-1", "gfortran", V, "gfortran 12.2: a character value assigned to an integer",
     "printf 'program p\\n  integer :: x\\n  x = \"abc\"\\n  print *, x\\nend program p\\n' > a.f90; gfortran a.f90")
case("systems", "gnat-syntax-1", "gnatmake", S, "gnat 12.2 (Ada): a statement without its semicolon",
     "printf 'with Ada.Text_IO;\\nprocedure Main is\\nbegin\\n   Ada.Text_IO.Put_Line (\"hi\")\\nend Main;\\n' > main.adb; gnatmake -q main.adb")
case("systems", "gnat-missing-1", "gnatmake", M, "gnat 12.2 (Ada): with of a unit that is not there",
     "printf 'with AWS.Server;\\nprocedure Main is\\nbegin\\n   null;\\nend Main;\\n' > main.adb; gnatmake -q main.adb",
     package="aws")
case("systems", "gnat-validation-1", "gnatmake", V, "gnat 12.2 (Ada): a string assigned to an Integer",
     "printf 'procedure Main is\\n   X : Integer;\\nbegin\\n   X := \"abc\";\\nend Main;\\n' > main.adb; gnatmake -q main.adb")
case("systems", "fpc-syntax-1", "fpc", S, "fpc 3.2.2 (Pascal): a statement without its semicolon",
     "printf 'program p;\\nvar x: integer;\\nbegin\\n  x := 1\\n  writeln(x)\\nend.\\n' > p.pas; fpc -vew p.pas")
case("systems", "fpc-missing-1", "fpc", M, "fpc 3.2.2 (Pascal): uses of a unit that is not installed",
     "printf 'program p;\\nuses Synapse;\\nbegin\\nend.\\n' > p.pas; fpc -vew p.pas", package="Synapse")
case("systems", "fpc-validation-1", "fpc", V, "fpc 3.2.2 (Pascal): a string assigned to an integer",
     "printf 'program p;\\nvar x: integer;\\nbegin\\n  x := \\x27abc\\x27;\\nend.\\n' > p.pas; fpc -vew p.pas")
case("systems", "cobc-syntax-1", "cobc", S, "GnuCOBOL 3.1.2: a DISPLAY statement misspelt in the procedure division",
     "printf '       IDENTIFICATION DIVISION.\\n       PROGRAM-ID. HELLO.\\n       PROCEDURE DIVISION.\\n           DISPLAYY \"HI\".\\n           STOP RUN.\\n' > h.cob; cobc -x h.cob")
case("systems", "valac-syntax-1", "valac", S, "valac 0.56: a statement without its semicolon",
     "printf 'void main () {\\n    int x = 1\\n    print (\"%%d\\\\n\", x);\\n}\\n' > a.vala; valac a.vala")
case("systems", "valac-missing-1", "valac", M, "valac 0.56: --pkg of a library whose bindings are not installed",
     "printf 'void main () { }\\n' > a.vala; valac --pkg shopkit-1.0 a.vala", package="shopkit-1.0")
case("systems", "valac-validation-1", "valac", V, "valac 0.56: a string assigned to an int",
     "printf 'void main () {\\n    int x = \"abc\";\\n}\\n' > a.vala; valac a.vala")

# ---- ml: ocaml, dune ----
case("ml", "ocamlc-syntax-1", "ocamlc", S, "OCaml 4.13.1: a let without its in",
     "printf 'let x = 1\\nlet y = (x + \\n' > a.ml; ocamlc a.ml")
case("ml", "ocamlc-missing-1", "ocamlc", M, "OCaml 4.13.1: a module of an opam library that is not installed",
     "printf 'let () = print_endline (Yojson.Safe.to_string (`Int 1))\\n' > a.ml; ocamlc a.ml", package="Yojson")
case("ml", "ocamlc-validation-1", "ocamlc", V, "OCaml 4.13.1: a string added to an int",
     "printf 'let x = 1 + \"two\"\\n' > a.ml; ocamlc a.ml")
case("ml", "dune-missing-1", "dune build", M, "dune 2.9.3: an executable depending on a library that is not installed",
     "printf '(lang dune 2.9)\\n' > dune-project; printf '(executable (name main) (libraries lwt))\\n' > dune; printf 'let () = print_endline \"hi\"\\n' > main.ml; dune build 2>&1",
     package="lwt")
case("ml", "dune-test-validation-1", "dune test", V, "dune 2.9.3: a test executable whose assert fails",
     "printf '(lang dune 2.9)\\n' > dune-project; printf '(test (name t))\\n' > dune; printf 'let add a b = a - b\\nlet () = assert (add 2 3 = 5)\\n' > t.ml; dune test 2>&1")
case("ml", "dune-syntax-1", "dune build", S, "dune 2.9.3: a dune file with an unclosed parenthesis",
     "printf '(lang dune 2.9)\\n' > dune-project; printf '(executable (name main)\\n' > dune; printf 'let () = ()\\n' > main.ml; dune build 2>&1")

# ---- lisp and logic: sbcl, guile, swipl, gforth ----
case("lisp", "sbcl-syntax-1", "sbcl --script", S, "SBCL 2.2.9: a file ending inside a form",
     "printf '(defun add (a b)\\n  (+ a b)\\n' > a.lisp; sbcl --script a.lisp")
case("lisp", "sbcl-missing-1", "sbcl --script", M, "SBCL 2.2.9: require of a system that is not installed",
     "printf '(require :cl-ppcre)\\n(print 1)\\n' > a.lisp; sbcl --script a.lisp", package="cl-ppcre")
case("lisp", "sbcl-validation-1", "sbcl --script", V, "SBCL 2.2.9: a type error at run time (a string where a number is wanted)",
     "printf '(defun add (a b) (+ a b))\\n(print (add 1 \"2\"))\\n' > a.lisp; sbcl --script a.lisp")
case("lisp", "sbcl-timeout-1", "sbcl --script", T, "SBCL 2.2.9: a computation run under sb-ext:with-timeout 1",
     "printf '(sb-ext:with-timeout 1 (loop))\\n' > a.lisp; sbcl --script a.lisp", timeout=60)
case("lisp", "sbcl-resource-1", "sbcl", R, "SBCL 2.2.9 with a 64 MB dynamic space, allocating past it",
     "sbcl --dynamic-space-size 64MB --non-interactive --eval '(defparameter *a* (loop repeat 100 collect (make-array 1000000)))' 2>&1 | head -40", timeout=60)
case("lisp", "guile-syntax-1", "guile", S, "Guile 3.0.8: a file ending inside a form",
     "printf '(define (add a b)\\n  (+ a b)\\n' > a.scm; guile --no-auto-compile a.scm")
case("lisp", "guile-missing-1", "guile", M, "Guile 3.0.8: use-modules of a module that is not installed",
     "printf '(use-modules (json))\\n(display 1)\\n' > a.scm; guile --no-auto-compile a.scm", package="json")
case("lisp", "guile-validation-1", "guile", V, "Guile 3.0.8: a wrong-type argument at run time",
     "printf '(display (+ 1 \"2\"))\\n' > a.scm; guile --no-auto-compile a.scm")
case("lisp", "swipl-syntax-1", "swipl", S, "SWI-Prolog 9.0.4: a clause without its final stop",
     "printf 'add(X, Y, Z) :- Z is X + Y\\n' > a.pl; swipl -g halt a.pl")
case("lisp", "swipl-missing-1", "swipl", M, "SWI-Prolog 9.0.4: use_module of a library pack that is not installed",
     "printf ':- use_module(library(func)).\\n' > a.pl; swipl -g halt a.pl", package="func")
case("lisp", "swipl-test-validation-1", "swipl", V, "SWI-Prolog 9.0.4: a plunit test that fails",
     "printf ':- use_module(library(plunit)).\\nadd(X, Y, Z) :- Z is X - Y.\\n:- begin_tests(add).\\ntest(two) :- add(2, 3, 5).\\n:- end_tests(add).\\n' > a.pl; swipl -g run_tests -t halt a.pl")
case("lisp", "swipl-timeout-1", "swipl", T, "SWI-Prolog 9.0.4: a goal under call_with_time_limit(1, ...)",
     "printf ':- use_module(library(time)).\\nloop :- loop.\\n' > a.pl; swipl -g 'call_with_time_limit(1, loop)' -t halt a.pl", timeout=60)
case("lisp", "gforth-validation-1", "gforth", V, "gforth 0.7.3: a word that is not defined",
     "printf ': double 2 * ;\\n3 tripple .\\nbye\\n' > a.fs; gforth a.fs")

# ---- beam: erlang, rebar3 ----
case("beam", "erlc-syntax-1", "erlc", S, "Erlang/OTP 25: a clause without its final stop",
     "printf -- '-module(a).\\n-export([add/2]).\\nadd(A, B) -> A + B\\n' > a.erl; erlc a.erl")
case("beam", "erlc-validation-1", "erlc", V, "Erlang/OTP 25: a call of a function that is not defined",
     "printf -- '-module(a).\\n-export([add/2]).\\nadd(A, B) -> plus(A, B).\\n' > a.erl; erlc a.erl")
case("beam", "erlc-missing-1", "erlc", M, "Erlang/OTP 25: include_lib of an application that is not installed",
     "printf -- '-module(a).\\n-include_lib(\"cowboy/include/cowboy.hrl\").\\n' > a.erl; erlc a.erl")
case("beam", "rebar3-eunit-validation-1", "rebar3 eunit", V, "rebar3 3.19.0: an eunit test whose assertion fails",
     "rebar3 new lib shop >/dev/null && cd shop && mkdir -p test && printf -- '-module(shop_tests).\\n-include_lib(\"eunit/include/eunit.hrl\").\\nadd_test() -> ?assertEqual(5, 2 - 3).\\n' > test/shop_tests.erl && rebar3 eunit 2>&1", timeout=180)
case("beam", "rebar3-eunit-timeout-1", "rebar3 eunit", T, "rebar3 3.19.0: an eunit test given 1 s that sleeps 3",
     "rebar3 new lib shop >/dev/null && cd shop && mkdir -p test && printf -- '-module(shop_tests).\\n-include_lib(\"eunit/include/eunit.hrl\").\\nslow_test_() -> {timeout, 1, fun() -> timer:sleep(3000) end}.\\n' > test/shop_tests.erl && rebar3 eunit 2>&1", timeout=180)
case("beam", "rebar3-network-1", "rebar3 compile", N, "rebar3 3.19.0 fetching a Hex dependency with no network (an empty network namespace)",
     "rebar3 new lib shop >/dev/null && cd shop && printf '{deps, [{cowboy, \"2.10.0\"}]}.\\n' > rebar.config && " + NONET + "rebar3 compile 2>&1", timeout=180)
case("beam", "erl-resource-1", "erl", R, "Erlang/OTP 25: a process over its max_heap_size, killed by the runtime",
     "erl -noshell -eval 'process_flag(max_heap_size, 100000), L = lists:seq(1, 10000000), io:format(\"~p~n\", [length(L)]), halt().' 2>&1 | head -30", timeout=60)

# ---- jvm: groovy, clojure ----
case("jvm", "groovy-syntax-1", "groovy", S, "Groovy 2.4.21: an unclosed parenthesis",
     "printf 'def x = (1 + 2\\nprintln x\\n' > a.groovy; groovy a.groovy")
case("jvm", "groovy-missing-1", "groovy", M, "Groovy 2.4.21: import of a class whose library is not on the classpath",
     "printf 'import com.google.gson.Gson\\nprintln new Gson().toJson(1)\\n' > a.groovy; groovy a.groovy", package="com.google.gson.Gson")
case("jvm", "groovy-validation-1", "groovy", V, "Groovy 2.4.21: an assert that fails",
     "printf 'def add(a, b) { a - b }\\nassert add(2, 3) == 5\\n' > a.groovy; groovy a.groovy")
case("jvm", "groovy-resource-1", "groovy", R, "Groovy 2.4.21 with a 32 MB heap, allocating an array past it",
     "JAVA_OPTS=-Xmx32m groovy -e 'def a = new long[100000000]; println a.length'")
case("jvm", "clojure-syntax-1", "clojure", S, "Clojure 1.11.1: a file ending inside a form",
     "printf '(ns a)\\n(defn add [a b]\\n  (+ a b)\\n' > a.clj; clojure a.clj")
case("jvm", "clojure-missing-1", "clojure", M, "Clojure 1.11.1: require of a namespace whose library is not on the classpath",
     "printf '(ns a (:require [cheshire.core :as json]))\\n(println 1)\\n' > a.clj; clojure a.clj", package="cheshire.core")
case("jvm", "clojure-test-validation-1", "clojure", V, "Clojure 1.11.1: clojure.test with a failing is",
     "printf '(ns a-test (:require [clojure.test :refer [deftest is run-tests]]))\\n(defn add [a b] (- a b))\\n(deftest adds (is (= 5 (add 2 3))))\\n(let [r (run-tests)] (System/exit (if (zero? (:fail r)) 0 1)))\\n' > a.clj; clojure a.clj")

# ---- python's other tools: poetry, pipenv ----
case("python", "poetry-syntax-1", "poetry check", S, "poetry (PyPI, latest) on a pyproject.toml with an unclosed string",
     "printf '[tool.poetry]\\nname = \"shop\\nversion = \"0.1.0\"\\n' > pyproject.toml; poetry check")
case("python", "poetry-network-1", "poetry lock", N, "poetry (PyPI, latest) locking a dependency with no network (an empty network namespace)",
     "printf '[project]\\nname = \"shop\"\\nversion = \"0.1.0\"\\ndependencies = [\"requests\"]\\n' > pyproject.toml; " + NONET + "poetry lock", timeout=180)
case("python", "pipenv-network-1", "pipenv install", N, "pipenv (PyPI, latest) installing a package with no network (an empty network namespace)",
     "PIPENV_VENV_IN_PROJECT=1 " + NONET + "pipenv install requests 2>&1 | tail -40", timeout=300)

# ---- lua: lua, luacheck, busted, luarocks ----
case("lua", "lua-syntax-1", "lua5.4", S, "Lua 5.4.4: a function without its end",
     "printf 'local function add(a, b)\\n  return a + b\\n\\nprint(add(1, 2))\\n' > a.lua; lua5.4 a.lua")
case("lua", "lua-missing-1", "lua5.4", M, "Lua 5.4.4: require of a rock that is not installed",
     "printf 'local json = require(\"cjson\")\\nprint(json.encode({1}))\\n' > a.lua; lua5.4 a.lua", package="cjson")
case("lua", "lua-validation-1", "lua5.4", V, "Lua 5.4.4: arithmetic on a nil field at run time",
     "printf 'local cart = {}\\nprint(cart.total + 1)\\n' > a.lua; lua5.4 a.lua")
case("lua", "lua-resource-1", "lua5.4", R, "Lua 5.4.4 under a 100 MB address-space limit, building a huge string",
     "printf 'local t = {}\\nfor i = 1, 1e8 do t[i] = i end\\n' > a.lua; (ulimit -v 100000; lua5.4 a.lua)")
case("lua", "luacheck-validation-1", "luacheck", V, "luacheck 1.1.0: an unused variable and a global",
     "printf 'local unused = 1\\nfunction add(a, b)\\n  return a + c\\nend\\n' > a.lua; luacheck a.lua")
case("lua", "luacheck-syntax-1", "luacheck", S, "luacheck 1.1.0 on a file that does not parse",
     "printf 'local function add(a, b)\\n  return a + \\nend\\n' > a.lua; luacheck a.lua")
case("lua", "busted-validation-1", "busted", V, "busted 2.1.1: a spec whose assertion fails",
     "mkdir spec; printf 'describe(\"add\", function()\\n  it(\"adds\", function()\\n    assert.are.equal(5, 2 - 3)\\n  end)\\nend)\\n' > spec/add_spec.lua; busted")
case("lua", "luarocks-network-1", "luarocks install", N, "luarocks 3.8.0 installing a rock with no network (an empty network namespace)",
     NONET + "luarocks install --local lua-cjson", timeout=120)

# ---- perl: perl, prove, perlcritic, cpanm ----
case("perl", "perl-syntax-1", "perl", S, "perl 5.36: a statement without its semicolon",
     "printf 'use strict;\\nmy $x = 1\\nprint $x;\\n' > a.pl; perl a.pl")
case("perl", "perl-missing-1", "perl", M, "perl 5.36: use of a CPAN module that is not installed",
     "printf 'use strict;\\nuse Mojo::UserAgent;\\nprint 1;\\n' > a.pl; perl a.pl", package="Mojo::UserAgent")
case("perl", "perl-resource-1", "perl", R, "perl 5.36 under a 100 MB address-space limit, building a huge string",
     "(ulimit -v 100000; perl -e 'my $s = \"x\" x 500_000_000; print length $s')")
case("perl", "prove-validation-1", "prove", V, "prove (Test::Harness, perl 5.36): a Test::More test that fails",
     "mkdir t; printf 'use Test::More tests => 2;\\nsub add { $_[0] - $_[1] }\\nis(add(2, 3), 5, \"adds\");\\nok(1, \"true\");\\n' > t/add.t; prove t")
case("perl", "prove-timeout-1", "prove", T, "prove (perl 5.36): a test that gives itself 1 s with alarm and takes 5",
     "mkdir t; printf 'use Test::More tests => 1;\\nalarm 1;\\nsleep 5;\\nok(1);\\n' > t/slow.t; prove t", timeout=60)
case("perl", "perlcritic-validation-1", "perlcritic", V, "perlcritic 1.148 at severity 4 on a script without strict",
     "printf 'my $x = 1;\\nprint $x;\\n' > a.pl; perlcritic --severity 4 a.pl")
case("perl", "cpanm-network-1", "cpanm", N, "cpanm 1.7046 installing a module with no network (an empty network namespace)",
     NONET + "cpanm --notest Mojo::UserAgent", timeout=120)

# ---- tcl and r ----
case("tcl-r", "tclsh-syntax-1", "tclsh", S, "tclsh 8.6.13: a proc body without its closing brace",
     "printf 'proc add {a b} {\\n  return [expr {$a + $b}]\\n\\nputs [add 1 2]\\n' > a.tcl; tclsh a.tcl")
case("tcl-r", "tclsh-missing-1", "tclsh", M, "tclsh 8.6.13: package require of a package that is not installed",
     "printf 'package require tdom\\nputs 1\\n' > a.tcl; tclsh a.tcl", package="tdom")
case("tcl-r", "tcltest-validation-1", "tclsh", V, "tclsh 8.6.13: a tcltest test that fails",
     "printf 'package require tcltest\\nnamespace import tcltest::*\\nproc add {a b} { expr {$a - $b} }\\ntest add-1 {adds} -body { add 2 3 } -result 5\\ncleanupTests\\n' > a.test; tclsh a.test")
case("tcl-r", "rscript-syntax-1", "Rscript", S, "R 4.2.2: two values with no operator between them",
     "printf 'x <- 1\\ny <- x x\\nprint(y)\\n' > a.R; Rscript a.R")
case("tcl-r", "rscript-missing-1", "Rscript", M, "R 4.2.2: library() of a CRAN package that is not installed",
     "printf 'library(dplyr)\\nprint(1)\\n' > a.R; Rscript a.R", package="dplyr")
case("tcl-r", "rscript-validation-1", "Rscript", V, "R 4.2.2: a stopifnot check that fails",
     "printf 'add <- function(a, b) a - b\\nstopifnot(add(2, 3) == 5)\\n' > a.R; Rscript a.R")
case("tcl-r", "rscript-resource-1", "Rscript", R, "R 4.2.2: a vector larger than the 2 GB address-space limit",
     "printf 'x <- numeric(1e9)\\nprint(length(x))\\n' > a.R; (ulimit -v 2000000; Rscript a.R)")
case("tcl-r", "rscript-timeout-1", "Rscript", T, "R 4.2.2: a loop under setTimeLimit(elapsed = 1)",
     "printf 'setTimeLimit(elapsed = 1)\\nrepeat { x <- 1 }\\n' > a.R; Rscript a.R", timeout=60)

# ---- javascript languages that compile to it: coffeescript, elm ----
case("js-lang", "coffee-syntax-1", "coffee", S, "CoffeeScript 2.7.0: an unclosed bracket",
     "printf 'add = (a, b) ->\\n  [a, b\\nconsole.log add 1, 2\\n' > a.coffee; coffee -c a.coffee")
case("js-lang", "coffee-validation-1", "coffee", V, "CoffeeScript 2.7.0: a run-time TypeError while the script runs",
     "printf 'cart = null\\nconsole.log cart.total\\n' > a.coffee; coffee a.coffee")
case("js-lang", "elm-network-1", "elm make", N, "elm 0.19.1 building a project with no network to fetch its packages (an empty network namespace)",
     "mkdir src; printf '{\"type\":\"application\",\"source-directories\":[\"src\"],\"elm-version\":\"0.19.1\",\"dependencies\":{\"direct\":{\"elm/browser\":\"1.0.2\",\"elm/core\":\"1.0.5\",\"elm/html\":\"1.0.0\",\"elm/json\":\"1.1.3\"},\"indirect\":{\"elm/time\":\"1.0.0\",\"elm/url\":\"1.0.0\",\"elm/virtual-dom\":\"1.0.3\"}},\"test-dependencies\":{\"direct\":{},\"indirect\":{}}}\\n' > elm.json; printf 'module Main exposing (main)\\nmain = 1\\n' > src/Main.elm; " + NONET + "elm make src/Main.elm", timeout=120)

# ---- linters: cppcheck, clang-tidy, markdownlint, stylelint, htmlhint ----
case("c", "cppcheck-validation-1", "cppcheck", V, "cppcheck 2.10: an out-of-bounds write and a leak",
     "printf '#include <stdlib.h>\\nint main(void) {\\n    int a[3];\\n    a[3] = 1;\\n    char *p = malloc(10);\\n    return a[0];\\n}\\n' > a.c; cppcheck --error-exitcode=1 --quiet a.c")
case("c", "cppcheck-syntax-1", "cppcheck", S, "cppcheck 2.10 on a file with an unmatched brace",
     "printf 'int main(void) {\\n    if (1) {\\n    return 0;\\n}\\n' > a.c; cppcheck --error-exitcode=1 --quiet a.c")
case("c", "clang-tidy-validation-1", "clang-tidy", V, "clang-tidy 14 with bugprone checks as errors",
     "printf '#include <string.h>\\nvoid f(char *d, const char *s) { strcpy(d, s); }\\nint main(void) { int x; return x; }\\n' > a.c; clang-tidy --checks='-*,clang-analyzer-*,bugprone-*' --warnings-as-errors='*' a.c -- 2>&1")
case("c", "clang-tidy-missing-1", "clang-tidy", M, "clang-tidy 14 on a file including a library header that is not installed",
     "printf '#include <shopkit/core.h>\\nint main(void) { return 0; }\\n' > a.c; clang-tidy a.c -- 2>&1")
case("lint", "markdownlint-validation-1", "markdownlint", V, "markdownlint-cli (npm, latest): heading levels and trailing spaces",
     "printf '# Title\\n### Skipped a level\\nSome text.   \\n' > README.md; markdownlint README.md")
case("lint", "stylelint-validation-1", "stylelint", V, "stylelint with stylelint-config-standard (npm, latest): an unknown property and a duplicate selector",
     "cp -r /tmp/gen/npm/node_modules . ; printf '{\"extends\": \"stylelint-config-standard\"}\\n' > .stylelintrc.json; printf 'a { colr: red; }\\na { color: red; }\\n' > a.css; stylelint a.css")
case("lint", "stylelint-syntax-1", "stylelint", S, "stylelint (npm, latest) on a stylesheet with an unclosed block",
     "cp -r /tmp/gen/npm/node_modules . ; printf '{\"extends\": \"stylelint-config-standard\"}\\n' > .stylelintrc.json; printf 'a { color: red;\\n' > a.css; stylelint a.css")
case("lint", "stylelint-missing-1", "stylelint", M, "stylelint (npm, latest) extending a shared config that is not installed",
     "cp -r /tmp/gen/npm/node_modules . ; printf '{\"extends\": \"stylelint-config-recess-order\"}\\n' > .stylelintrc.json; printf 'a { color: red; }\\n' > a.css; stylelint a.css",
     package="stylelint-config-recess-order")
case("lint", "htmlhint-validation-1", "htmlhint", V, "htmlhint (npm, latest): an unclosed tag and a duplicate id",
     "printf '<!DOCTYPE html>\\n<html><head><title>x</title></head><body><div id=\"a\"><p>hi</div><span id=\"a\"></span></body></html>\\n' > index.html; htmlhint index.html")

# ---- version control other than git ----
HG_MERGE = ("hg init r && cd r && printf 'total = 1\\n' > a.txt && hg add -q a.txt && hg commit -qm base && "
            "printf 'total = 2\\n' > a.txt && hg commit -qm one && hg update -q 0 && printf 'total = 3\\n' > a.txt && "
            "hg commit -qm two && ")
case("vcs", "hg-merge-conflict-1", "hg merge", C, "Mercurial 6.3.2: two heads changing the same line, merged",
     HG_MERGE + "hg merge --tool internal:merge")
case("vcs", "hg-rebase-conflict-1", "hg rebase", C, "Mercurial 6.3.2 (rebase extension): a rebase onto a head changing the same line",
     HG_MERGE + "hg --config extensions.rebase= rebase -s 2 -d 1 --tool internal:merge")
case("vcs", "hg-network-1", "hg clone", N, "Mercurial 6.3.2: a clone from a local port nothing listens on",
     "hg clone http://127.0.0.1:9/shop shop")
SVN_SETUP = ("svnadmin create repo && svn checkout -q file://$PWD/repo wc1 && cd wc1 && printf 'total = 1\\n' > a.txt && "
             "svn add -q a.txt && svn commit -qm base && cd .. && svn checkout -q file://$PWD/repo wc2 && "
             "cd wc1 && printf 'total = 2\\n' > a.txt && svn commit -qm one && cd ../wc2 && printf 'total = 3\\n' > a.txt && ")
case("vcs", "svn-update-conflict-1", "svn update", C, "Subversion 1.14.2: an update over a local change to the same line",
     SVN_SETUP + "svn update --accept postpone")
case("vcs", "svn-commit-conflict-1", "svn commit", C, "Subversion 1.14.2: a commit of a file another commit changed, out of date",
     SVN_SETUP + "svn commit -m three")
case("vcs", "svn-network-1", "svn checkout", N, "Subversion 1.14.2: a checkout from a local port nothing listens on",
     "svn checkout http://127.0.0.1:9/repo wc")
case("vcs", "fossil-merge-conflict-1", "fossil merge", C, "Fossil 2.21: a merge of a branch changing the same line",
     "export USER=dev; fossil init repo.fossil >/dev/null && mkdir wc && cd wc && fossil open ../repo.fossil >/dev/null && "
     "printf 'total = 1\\n' > a.txt && fossil add a.txt >/dev/null && fossil commit -m base --no-warnings >/dev/null && "
     "fossil branch new feature trunk >/dev/null && fossil update feature >/dev/null && sleep 1 && printf 'total = 2\\n' > a.txt && fossil commit -m one >/dev/null && "
     "fossil update trunk >/dev/null && sleep 1 && printf 'total = 3\\n' > a.txt && fossil commit -m two >/dev/null && fossil merge feature")
case("vcs", "brz-merge-conflict-1", "brz merge", C, "Breezy 3.3.2: a merge of a branch changing the same line",
     "export PATH=/usr/bin:/bin:$PATH; brz whoami 'Dev <dev@example.com>'; brz init -q trunk && cd trunk && printf 'total = 1\\n' > a.txt && brz add -q a.txt && brz commit -q -m base && cd .. && "
     "brz branch -q trunk feature && cd feature && printf 'total = 2\\n' > a.txt && brz commit -q -m one && cd ../trunk && "
     "printf 'total = 3\\n' > a.txt && brz commit -q -m two && brz merge ../feature")
case("vcs", "darcs-pull-conflict-1", "darcs pull", C, "darcs 2.16.5: a pull of a patch changing the same line as a local patch",
     "mkdir a && cd a && darcs init -q && printf 'total = 1\\n' > a.txt && darcs add -q a.txt && darcs record -q -a -m base --author dev && cd .. && "
     "darcs clone -q a b && sleep 1 && cd a && printf 'total = 2\\n' > a.txt && darcs record -q -a -m one --author dev && cd ../b && "
     "printf 'total = 3\\n' > a.txt && darcs record -q -a -m two --author dev && darcs pull -a ../a")
case("vcs", "cvs-update-conflict-1", "cvs update", C, "CVS 1.12.13: an update over a local change to the same line",
     "export CVSROOT=$PWD/cvsroot; cvs -Q init && mkdir src && cd src && printf 'total = 1\\n' > a.txt && cvs -Q import -m base shop vendor start && cd .. && "
     "cvs -Q checkout -d wc1 shop && cvs -Q checkout -d wc2 shop && cd wc1 && printf 'total = 2\\n' > a.txt && cvs -Q commit -m one && cd ../wc2 && "
     "printf 'total = 3\\n' > a.txt && cvs update")
case("vcs", "quilt-push-conflict-1", "quilt push", C, "quilt 0.66: pushing a patch whose context a change removed",
     "printf 'total = 1\\nname = shop\\n' > a.txt && quilt new fix.patch >/dev/null && quilt add a.txt >/dev/null && printf 'total = 2\\nname = shop\\n' > a.txt && "
     "quilt refresh >/dev/null && quilt pop -a >/dev/null && printf 'total = 9\\nname = shop\\n' > a.txt && quilt push")

# ---- the machine's packages: apt, dpkg ----
case("os-packages", "apt-get-other-1", "apt-get install", O, "apt-get (Debian 12): installing a package name the archive does not have",
     "apt-get install -y --no-download python3-shopkit")
case("os-packages", "dpkg-missing-1", "dpkg -i", M, "dpkg (Debian 12): installing a .deb whose dependency is not installed, into a scratch admin directory",
     "mkdir -p pkg/DEBIAN admin/updates admin/info && touch admin/status admin/available && "
     "printf 'Package: shop\\nVersion: 1.0\\nArchitecture: all\\nMaintainer: Dev <dev@example.com>\\nDepends: libshopcore1\\nDescription: shop\\n' > pkg/DEBIAN/control && "
     "dpkg-deb -b pkg shop.deb >/dev/null && dpkg --admindir=$PWD/admin --root=$PWD/root --force-not-root --force-script-chrootless -i shop.deb",
     package="libshopcore1")
case("os-packages", "apt-get-network-1", "apt-get update", N, "apt-get (Debian 12) updating its lists with no network (an empty network namespace)",
     "mkdir -p lists/partial cache/archives/partial && " + NONET + "apt-get -o Dir::State::Lists=$PWD/lists -o Dir::Cache=$PWD/cache update 2>&1 | tail -20", timeout=120)

# ---- resources on a full disk and with few file handles ----
case("systems", "zig-resource-1", "zig build-exe", R, "zig 0.17.1 writing its output into a 64 KiB tmpfs",
     "printf 'pub fn main() void {}\\n' > /tmp/gen/main.zig; " + SMALLFS.format(ZIG + " build-exe /tmp/gen/main.zig --cache-dir /mnt/c --global-cache-dir /mnt/g"))
case("ml", "ocamlopt-resource-1", "ocamlopt", R, "OCaml 4.13.1 (ocamlopt) compiling into a 64 KiB tmpfs",
     "printf 'let () = print_endline \"hi\"\\n' > /tmp/gen/a.ml; " + SMALLFS.format("cp /tmp/gen/a.ml . && ocamlopt -o big a.ml"))
case("vcs", "hg-resource-1", "hg clone", R, "Mercurial 6.3.2 cloning into a 64 KiB tmpfs",
     "hg init /tmp/gen/src && cd /tmp/gen/src && head -c 300000 /dev/urandom | base64 > big.txt && hg add -q big.txt && hg commit -qm big && cd - >/dev/null && " + SMALLFS.format("hg clone /tmp/gen/src copy") + "; rm -rf /tmp/gen/src")
case("perl", "perl-resource-2", "perl", R, "perl 5.36 opening files past a limit of 20 file handles",
     "(ulimit -n 20; perl -e 'my @f; for my $i (1..100) { open(my $fh, \"<\", \"/etc/hostname\") or die \"open $i: $!\\n\"; push @f, $fh } print scalar(@f)')")
case("lua", "lua-resource-2", "lua5.4", R, "Lua 5.4.4 opening files past a limit of 20 file handles",
     "printf 'local t = {}\\nfor i = 1, 100 do t[i] = assert(io.open(\"/etc/hostname\")) end\\n' > a.lua; (ulimit -n 20; lua5.4 a.lua)")
