# The second unseen corpus: toolchains neither corpus nor any row or cue names, run after the second round of
# generic cues was frozen. Each case: family, file name, tool, wanted class (decided here, before the output
# exists), how it is produced, the script that produces it.
S, M, V, C, R, T, N, O = ("SYNTAX_ERROR", "MISSING_DEPENDENCY", "VALIDATION_FAILED", "CONFLICT", "RESOURCE",
                          "TIMEOUT", "NETWORK", "OTHER")
NONET = "unshare -n "
SMALLFS = "unshare -m sh -c 'mount -t tmpfs -o size=64k tmpfs /mnt && cd /mnt && {}'"

# ---- racket and chicken (schemes) ----
case("scheme", "racket-syntax-1", "racket", S, "Racket 8.7: a definition without its closing parenthesis",
     "printf '#lang racket\\n(define (add a b)\\n  (+ a b)\\n' > a.rkt; racket a.rkt")
case("scheme", "racket-missing-1", "racket", M, "Racket 8.7: require of a collection that is not installed",
     "printf '#lang racket\\n(require gregor)\\n' > a.rkt; racket a.rkt", package="gregor")
case("scheme", "racket-test-validation-1", "raco test", V, "Racket 8.7: a rackunit check that fails",
     "printf '#lang racket\\n(require rackunit)\\n(define (add a b) (- a b))\\n(check-equal? (add 2 3) 5)\\n' > a.rkt; raco test a.rkt")
case("scheme", "racket-timeout-1", "racket", T, "Racket 8.7: a loop under racket/sandbox's call-with-limits of 1 s",
     "printf '#lang racket\\n(require racket/sandbox)\\n(call-with-limits 1 #f (lambda () (let loop () (loop))))\\n' > a.rkt; racket a.rkt", timeout=60)
case("scheme", "racket-resource-1", "racket", R, "Racket 8.7: an allocation under call-with-limits of 16 MB",
     "printf '#lang racket\\n(require racket/sandbox)\\n(call-with-limits #f 16 (lambda () (make-vector 10000000 0)))\\n' > a.rkt; racket a.rkt", timeout=60)
case("scheme", "raco-network-1", "raco pkg install", N, "Racket 8.7: raco pkg install with no network (an empty network namespace)",
     NONET + "raco pkg install --auto gregor", timeout=120)
case("scheme", "csc-syntax-1", "csc", S, "CHICKEN 5.3: a file ending inside a form",
     "printf '(define (add a b)\\n  (+ a b)\\n' > a.scm; csc a.scm")
case("scheme", "csc-missing-1", "csc", M, "CHICKEN 5.3: import of an egg that is not installed",
     "printf '(import srfi-19)\\n(display 1)\\n' > a.scm; csc a.scm", package="srfi-19")
case("scheme", "chicken-install-network-1", "chicken-install", N, "CHICKEN 5.3: installing an egg with no network (an empty network namespace)",
     NONET + "chicken-install -s srfi-19", timeout=120)

# ---- crystal, d (ldc), haxe ----
case("compiled", "crystal-syntax-1", "crystal build", S, "Crystal 1.6: a method whose expression ends early",
     "printf 'def add(a, b)\\n  a +\\nend\\nputs add(1, 2)\\n' > a.cr; crystal build a.cr")
case("compiled", "crystal-missing-1", "crystal build", M, "Crystal 1.6: require of a shard that is not installed",
     "printf 'require \"kemal\"\\nputs 1\\n' > a.cr; crystal build a.cr", package="kemal")
case("compiled", "crystal-validation-1", "crystal build", V, "Crystal 1.6: an Int32 added to a String",
     "printf 'x = 1 + \"two\"\\nputs x\\n' > a.cr; crystal build a.cr")
case("compiled", "crystal-spec-validation-1", "crystal spec", V, "Crystal 1.6: a spec whose expectation fails",
     "mkdir spec; printf 'require \"spec\"\\ndef add(a, b)\\n  a - b\\nend\\ndescribe \"add\" do\\n  it \"adds\" do\\n    add(2, 3).should eq(5)\\n  end\\nend\\n' > spec/add_spec.cr; crystal spec", timeout=240)
case("compiled", "ldc2-syntax-1", "ldc2", S, "LDC 1.30 (D): a statement without its semicolon",
     "printf 'void main() {\\n    int x = 1\\n    x++;\\n}\\n' > a.d; ldc2 a.d")
case("compiled", "ldc2-missing-1", "ldc2", M, "LDC 1.30 (D): import of a dub package that is not there",
     "printf 'import mir.ndslice;\\nvoid main() {}\\n' > a.d; ldc2 a.d", package="mir.ndslice")
case("compiled", "ldc2-validation-1", "ldc2", V, "LDC 1.30 (D): a call of a function that is not defined",
     "printf 'void main() {\\n    int x = twice(2);\\n}\\n' > a.d; ldc2 a.d")
case("compiled", "ldc2-resource-1", "ldc2", R, "LDC 1.30 (D) writing its object file into a 64 KiB tmpfs",
     "printf 'import std.stdio;\\n__gshared ubyte[300000] buf = 1;\\nvoid main() { writeln(buf[0]); }\\n' > /tmp/gen/a2.d; " + SMALLFS.format("ldc2 -of=/mnt/a /tmp/gen/a2.d"))
case("compiled", "haxe-syntax-1", "haxe", S, "Haxe 4.2.5: a statement without its semicolon",
     "printf 'class Main {\\n  static function main() {\\n    var x = 1\\n    trace(x);\\n  }\\n}\\n' > Main.hx; haxe --main Main --interp")
case("compiled", "haxe-missing-1", "haxe", M, "Haxe 4.2.5: import of a haxelib library that is not installed",
     "printf 'import haxe.ui.Toolkit;\\nclass Main {\\n  static function main() {}\\n}\\n' > Main.hx; haxe --main Main --interp", package="haxe.ui.Toolkit")
case("compiled", "haxe-validation-1", "haxe", V, "Haxe 4.2.5: a String assigned to an Int",
     "printf 'class Main {\\n  static function main() {\\n    var x:Int = \"two\";\\n  }\\n}\\n' > Main.hx; haxe --main Main --interp")
case("compiled", "haxelib-network-1", "haxelib install", N, "Haxe 4.2.5: haxelib install with no network (an empty network namespace)",
     "mkdir lib && haxelib setup $PWD/lib >/dev/null && " + NONET + "haxelib --always install haxeui-core", timeout=120)

# ---- ml and prolog: standard ml (smlnj, poly/ml), gnu prolog ----
case("ml-logic", "sml-syntax-1", "sml", S, "SML/NJ 110.79: a val without its expression",
     "printf 'val x = \\nval y = 2;\\n' > a.sml; sml a.sml < /dev/null")
case("ml-logic", "sml-validation-1", "sml", V, "SML/NJ 110.79: an int added to a string",
     "printf 'val x = 1 + \"two\";\\n' > a.sml; sml a.sml < /dev/null")
case("ml-logic", "poly-validation-1", "poly", V, "Poly/ML 5.7.1: an int added to a string",
     "printf 'val x = 1 + \"two\";\\n' > a.sml; poly --script a.sml")
case("ml-logic", "gprolog-syntax-1", "gprolog", S, "GNU Prolog 1.4.5: a clause with an operator missing its operand",
     "printf 'add(X, Y, Z) :- Z is X + .\\n' > a.pl; gprolog --consult-file a.pl --query-goal halt")

# ---- hardware description and assembly: iverilog, ghdl, nasm ----
case("hdl-asm", "iverilog-syntax-1", "iverilog", S, "Icarus Verilog 11: a module without its endmodule and a missing semicolon",
     "printf 'module top;\\n  reg a\\n  initial a = 1;\\n' > a.v; iverilog a.v")
case("hdl-asm", "iverilog-validation-1", "iverilog", V, "Icarus Verilog 11: an assignment to a name that is not declared",
     "printf 'module top;\\n  initial b = 1;\\nendmodule\\n' > a.v; iverilog a.v")
case("hdl-asm", "ghdl-syntax-1", "ghdl -a", S, "GHDL 2.0: an entity declaration without its semicolon",
     "printf 'entity top is\\nend top\\n' > a.vhd; ghdl -a a.vhd")
case("hdl-asm", "ghdl-missing-1", "ghdl -a", M, "GHDL 2.0: use of a library that is not installed",
     "printf 'library osvvm;\\nuse osvvm.RandomPkg.all;\\nentity top is\\nend top;\\n' > a.vhd; ghdl -a a.vhd", package="osvvm")
case("hdl-asm", "nasm-syntax-1", "nasm", S, "NASM 2.16: an instruction with a malformed operand",
     "printf 'section .text\\nglobal _start\\n_start:\\n  mov eax, [ebx\\n' > a.asm; nasm -f elf64 a.asm")
case("hdl-asm", "nasm-resource-1", "nasm", R, "NASM 2.16 writing its object file into a 64 KiB tmpfs",
     "printf 'section .data\\n  buf: times 200000 db 0\\n' > /tmp/gen/b.asm; " + SMALLFS.format("nasm -f elf64 -o /mnt/b.o /tmp/gen/b.asm"))

# ---- data and markup: jq, xmllint, tidy, gawk ----
case("data", "jq-syntax-1", "jq", S, "jq 1.6 reading a JSON document with a trailing comma",
     "printf '{\"name\": \"shop\",}\\n' > a.json; jq . a.json")
case("data", "jq-filter-syntax-1", "jq", S, "jq 1.6: a filter with an unclosed bracket",
     "printf '{\"a\": 1}\\n' > a.json; jq '.a | [' a.json")
case("data", "xmllint-syntax-1", "xmllint", S, "xmllint (libxml2 2.9.14): a tag not closed",
     "printf '<shop><item>1</shop>\\n' > a.xml; xmllint --noout a.xml")
case("data", "xmllint-validation-1", "xmllint --schema", V, "xmllint (libxml2 2.9.14): a document failing its schema",
     "printf '<?xml version=\"1.0\"?>\\n<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\"><xs:element name=\"qty\" type=\"xs:integer\"/></xs:schema>\\n' > a.xsd; printf '<qty>many</qty>\\n' > a.xml; xmllint --noout --schema a.xsd a.xml")
case("data", "xmllint-network-1", "xmllint", N, "xmllint (libxml2 2.9.14): a document loaded from a local port nothing listens on",
     "xmllint --noout http://127.0.0.1:9/feed.xml")
case("data", "tidy-validation-1", "tidy", V, "HTML Tidy 5.6: an unclosed element and an unknown attribute",
     "printf '<!DOCTYPE html>\\n<html><head><title>x</title></head><body><p foo=1>hi<div></body></html>\\n' > a.html; tidy -q -e a.html")
case("data", "gawk-syntax-1", "gawk", S, "GNU awk 5.2: a program with an unclosed brace",
     "printf 'a b\\n' > in.txt; gawk '{ print $1 ' in.txt")
case("data", "gawk-resource-1", "gawk", R, "GNU awk 5.2 under a 100 MB address-space limit, building a huge array",
     "(ulimit -v 100000; gawk 'BEGIN { for (i = 0; i < 100000000; i++) a[i] = i }')", timeout=120)

# ---- version control: rcs merge, patch ----
case("vcs2", "merge-conflict-1", "merge", C, "RCS 5.10 merge(1): a three-way merge of two changes to the same line",
     "printf 'total = 1\\n' > base.txt; printf 'total = 2\\n' > mine.txt; printf 'total = 3\\n' > theirs.txt; merge mine.txt base.txt theirs.txt")
case("vcs2", "rcsmerge-conflict-1", "rcsmerge", C, "RCS 5.10: rcsmerge of a revision changing the line a working change changed",
     "printf 'total = 1\\n' > a.txt && ci -q -t-base -m1 -l a.txt && printf 'total = 2\\n' > a.txt && ci -q -m2 -l a.txt && co -q -l -r1.1 a.txt 2>/dev/null; printf 'total = 3\\n' > a.txt; rcsmerge -r1.1 -r1.2 a.txt")
case("vcs2", "patch-conflict-1", "patch", C, "GNU patch: a patch whose hunk no longer applies",
     "printf 'total = 1\\nname = shop\\n' > a.txt; printf -- '--- a.txt\\n+++ a.txt\\n@@ -1,2 +1,2 @@\\n-total = 1\\n+total = 2\\n name = shop\\n' > fix.patch; printf 'total = 9\\nname = mall\\n' > a.txt; patch -p0 < fix.patch")
