# The seventh unseen corpus: toolchains that no row, cue, case, test, issue, document or earlier corpus names (each
# checked with `git grep -iw` over the whole repository, no hit in any file, a binary one included), chosen and labelled
# by someone who had not read the classifier (build_cues.rs, build_table.rs, build.rs) and never ran it, and none of them
# a toolchain already installed on the machine that made it (checked with `command -v` and in the earlier corpora's tool
# folders, /tmp/gen*/venv and /tmp/gen*/npm). Each case: family, file name, tool, wanted class (decided here, before the
# output exists, and committed before any output existed), how it is produced, the script that produces it. `package` is
# the missing module's name as the source names it (what a person installs), and only where the source names an
# installable package; none for a header, a file, a module file, a plugin or theme named otherwise, or a program. A
# toolchain that speaks a language a table family is about sits in that family's folder (`c`, `haskell`, `python`,
# `js-tests`, `js-lint`, `typescript`, `ruby`, `php`), as in unseen_3.py to unseen_6.py. Its PyPI and npm tools are in
# /tmp/gen7/venv and /tmp/gen7/npm, which this file puts first on the PATH itself.
S, M, V, C, R, T, N, O = ("SYNTAX_ERROR", "MISSING_DEPENDENCY", "VALIDATION_FAILED", "CONFLICT", "RESOURCE",
                          "TIMEOUT", "NETWORK", "OTHER")
# (put before run.py's own folders, which hold other tools of the same names)
ENV["PATH"] = "/tmp/gen7/venv/bin:/tmp/gen7/npm/node_modules/.bin:" + ENV["PATH"]
NONET = "unshare -n "
SMALLFS = "unshare -m sh -c 'mount -t tmpfs -o size=64k tmpfs /mnt && cd /mnt && {}'"
LINK = "ln -s /tmp/gen7/npm/node_modules node_modules; "
RB = ", before any classifier read it"


def w(name, text):
    """A shell line writing `text` to `name` as it is."""
    return f"cat > {name} <<'EOF_CASE'\n{text}EOF_CASE\n"


# ---- math7: GNU Octave, Asymptote ----
OCT = "octave-cli --norc --quiet a.m"
case("math7", "octave-syntax-1", "octave", S, "GNU Octave 7.3 (octave-cli): an expression whose parenthesis is never closed",
     w("a.m", "x = (1 + 2;\ndisp(x);\n") + OCT)
case("math7", "octave-validation-1", "octave", V, "GNU Octave 7.3 (octave-cli): an assert that fails",
     w("a.m", "1;\nfunction r = add(a, b)\n  r = a - b;\nend\nassert(add(2, 3), 5);\n") + OCT)
case("math7", "octave-missing-1", "octave", M, "GNU Octave 7.3 (octave-cli): pkg load of a package that is not installed",
     w("a.m", "pkg load statistics\ndisp(nanmean([1 2 3]));\n") + OCT, package="statistics")
case("math7", "octave-timeout-1", "octave", T, "GNU Octave 7.3 (octave-cli): an endless loop under a CPU time limit of 2 s (ulimit -t 2)",
     w("a.m", "i = 0;\nwhile true\n  i = i + 1;\nend\n") + "ulimit -t 2; " + OCT + " && echo passed", timeout=60)
case("math7", "octave-resource-1", "octave", R, "GNU Octave 7.3 (octave-cli): a 100000 x 100000 matrix of zeros under a 2 GB address-space limit (ulimit -v)",
     w("a.m", "x = zeros(100000, 100000);\ndisp(size(x));\n") + "ulimit -v 2000000; " + OCT, timeout=60)
case("math7", "octave-other-1", "octave", O, "GNU Octave 7.3 (octave-cli): a script that exits 3 and prints nothing, the output saying nothing of why",
     w("a.m", "x = 1;\nexit(3);\n") + OCT,
     note="octave printed one line of its own while exiting (ignoring const execution_exception& while preparing to exit), nothing of why the script exits 3")
ASY = "asy -noV -f eps a.asy"
case("math7", "asy-syntax-1", "asy", S, "Asymptote 2.85: a draw whose parenthesis is never closed",
     w("a.asy", "size(100);\ndraw((0,0)--(1,1);\n") + ASY)
case("math7", "asy-validation-1", "asy", V, "Asymptote 2.85: a string assigned to an int",
     w("a.asy", "size(100);\nint n = \"three\";\ndraw((0,0)--(n,n));\n") + ASY)
case("math7", "asy-missing-1", "asy", M, "Asymptote 2.85: import of a module file that is not installed (AoPS's cse5)",
     w("a.asy", "import cse5;\nsize(100);\ndraw((0,0)--(1,1));\n") + ASY)

# ---- logic7: Coq, the E prover, MiniSat, Maude ----
case("logic7", "coqc-syntax-1", "coqc", S, "Coq 8.16 coqc: a definition whose parenthesis is never closed",
     w("a.v", "Definition x := (1 + 2.\n") + "coqc a.v")
case("logic7", "coqc-validation-1", "coqc", V, "Coq 8.16 coqc: a bool where a nat is wanted",
     w("a.v", "Definition x : nat := true.\n") + "coqc a.v")
case("logic7", "coqc-missing-1", "coqc", M, "Coq 8.16 coqc: From mathcomp Require of a library that is not installed",
     w("a.v", "From mathcomp Require Import ssreflect ssrnat.\nLemma l : 1 + 1 = 2.\nProof. by []. Qed.\n") + "coqc a.v", package="mathcomp")
case("logic7", "coqc-timeout-1", "coqc", T, "Coq 8.16 coqc: an exponential computation past its Timeout 1",
     w("a.v", "Fixpoint loop (n : nat) : nat := match n with 0 => 0 | S m => loop m + loop m end.\nTimeout 1 Eval vm_compute in loop 60.\n")
     + "coqc a.v", timeout=120)
case("logic7", "eprover-syntax-1", "eprover", S, "E 2.6 (eprover): a TPTP formula whose parenthesis is never closed",
     w("a.p", "fof(a1, axiom, p(a).\nfof(c, conjecture, p(a)).\n") + "eprover --auto a.p")
case("logic7", "eprover-missing-1", "eprover", M, "E 2.6 (eprover): an include of a TPTP axiom file that is not installed",
     w("a.p", "include('Axioms/SET001-0.ax').\nfof(c, conjecture, ![X]: member(X, X)).\n") + "eprover --auto a.p")
case("logic7", "eprover-timeout-1", "eprover", T, "E 2.6 (eprover --cpu-limit=2): the pigeonhole formula of 10 pigeons and 9 holes as TPTP clauses, stopped at its time limit",
     "python3 - <<'EOF_CASE'\np, h = 10, 9\nc = ['|'.join(f'x{i}_{j}' for j in range(h)) for i in range(p)]\n"
     "c += [f'~x{i}_{j}|~x{k}_{j}' for j in range(h) for i in range(p) for k in range(i + 1, p)]\n"
     "open('a.p', 'w').write(''.join(f'cnf(c{n}, axiom, {x}).\\n' for n, x in enumerate(c)))\nEOF_CASE\n"
     + "eprover --auto -s --cpu-limit=2 a.p", timeout=60,
     note="first made with a problem of three formulas whose saturation was meant never to end, which E saturated at once (CounterSatisfiable): no failure; re-scripted with a pigeonhole formula, hard for resolution, which stopped at its time limit but printed 29,000 lines of clauses (1.1 MB); re-made with -s (--silent)" + RB)
case("logic7", "minisat-syntax-1", "minisat", S, "MiniSat 2.2: a DIMACS clause holding a letter",
     w("a.cnf", "p cnf 2 2\n1 -x 0\n2 0\n") + "minisat a.cnf")
PHP_CNF = ("python3 - <<'EOF_CASE'\np, h = 13, 12\nv = lambda i, j: i * h + j + 1\nc = [[v(i, j) for j in range(h)] for i in range(p)]\n"
           "c += [[-v(i, j), -v(k, j)] for j in range(h) for i in range(p) for k in range(i + 1, p)]\n"
           "open('php.cnf', 'w').write(f'p cnf {p * h} {len(c)}\\n' + ''.join(' '.join(map(str, x)) + ' 0\\n' for x in c))\nEOF_CASE\n")
case("logic7", "minisat-timeout-1", "minisat", T, "MiniSat 2.2 -cpu-lim=1: the pigeonhole formula of 13 pigeons and 12 holes, stopped at its time limit",
     PHP_CNF + "minisat -cpu-lim=1 php.cnf", timeout=60)
case("logic7", "minisat-resource-1", "minisat", R, "MiniSat 2.2 -mem-lim=64: a random 3-SAT formula of 3 million clauses past its memory limit of 64 MB",
     "python3 - <<'EOF_CASE'\nimport random\nrandom.seed(7)\nn, m = 1000000, 3000000\nwith open('big.cnf', 'w') as f:\n    f.write(f'p cnf {n} {m}\\n')\n"
     "    for _ in range(m):\n        f.write(' '.join(str(random.choice((-1, 1)) * random.randint(1, n)) for _ in range(3)) + ' 0\\n')\nEOF_CASE\n"
     + "minisat -mem-lim=64 big.cnf", timeout=240,
     note="first made with -mem-lim=40 and 1.2 million clauses, which minisat refused (value <40> is too small for option mem-lim, its least being 64): not the failure labelled; re-scripted with 64 MB and 3 million clauses" + RB
     + "; minisat says nothing of memory: the limit stopped it while it read the formula (its statistics are empty) and it printed INDETERMINATE")

case("logic7", "maude-syntax-1", "maude", S, "Maude 3.2: an op declaration without its closing period",
     w("a.maude", "fmod A is\n  sort S .\n  op a : -> S\n  op b : -> S .\nendfm\nred a .\n") + "maude -no-banner a.maude < /dev/null")
case("logic7", "maude-missing-1", "maude", M, "Maude 3.2: a load of a library file that is not there",
     w("a.maude", "load alpha-lib\nfmod A is\n  sort S .\n  op a : -> S .\nendfm\nred a .\n") + "maude -no-banner a.maude < /dev/null")

# ---- lisp7: GNU Common Lisp, Emacs Lisp ----
GCL = "gcl -batch -load a.lisp < /dev/null"
case("lisp7", "gcl-syntax-1", "gcl", S, "GCL 2.6: a file ending inside a form",
     w("a.lisp", "(defun add (a b)\n  (+ a b)\n") + GCL)
case("lisp7", "gcl-validation-1", "gcl", V, "GCL 2.6: car of a number",
     w("a.lisp", "(print (car 5))\n") + GCL)
case("lisp7", "gcl-missing-1", "gcl", M, "GCL 2.6: require of a system that is not installed",
     w("a.lisp", "(require \"cl-ppcre\")\n(print (cl-ppcre:split \",\" \"a,b\"))\n") + GCL, package="cl-ppcre")
case("lisp7", "gcl-timeout-1", "gcl", T, "GCL 2.6: an endless loop under a CPU time limit of 2 s (ulimit -t 2)",
     w("a.lisp", "(loop)\n") + "ulimit -t 2; " + GCL + " && echo passed", timeout=60)
EMACS = "emacs --batch -Q -l ./a.el"
case("lisp7", "emacs-syntax-1", "emacs", S, "GNU Emacs 28 --batch: a file ending inside a form",
     w("a.el", "(defun add (a b)\n  (+ a b)\n") + EMACS)
case("lisp7", "emacs-validation-1", "emacs", V, "GNU Emacs 28 batch-byte-compile with byte-compile-error-on-warn: a reference to a free variable",
     w("a.el", ";;; a.el --- a  -*- lexical-binding: t -*-\n(defun add-one ()\n  (+ undefined-total 1))\n(provide 'a)\n")
     + "emacs --batch -Q --eval '(setq byte-compile-error-on-warn t)' -f batch-byte-compile a.el")
case("lisp7", "emacs-missing-1", "emacs", M, "GNU Emacs 28 --batch: require of a package that is not installed",
     w("a.el", "(require 'dash)\n(message \"%s\" (-map #'1+ '(1 2)))\n") + EMACS, package="dash")
case("lisp7", "emacs-resource-1", "emacs", R, "GNU Emacs 28 --batch: a vector of 200 million elements under a 600 MB address-space limit (ulimit -v)",
     w("a.el", "(setq v (make-vector 200000000 0))\n(message \"%d\" (length v))\n") + "ulimit -v 600000; " + EMACS, timeout=60)

# ---- grammar7: Menhir, Happy, Peggy ----
case("grammar7", "menhir-syntax-1", "menhir", S, "Menhir 20220210: a semantic action whose brace is never closed",
     w("a.mly", "%token A EOF\n%start <int> main\n%%\nmain: A EOF { 1\n") + "menhir a.mly")
case("grammar7", "menhir-validation-1", "menhir", V, "Menhir 20220210: a rule using a symbol that is not defined",
     w("a.mly", "%token A EOF\n%start <int> main\n%%\nmain: A B EOF { 1 }\n") + "menhir a.mly")
HAPPY = "{\nmodule Main where\n}\n%name calc\n%tokentype { Char }\n%error { parseError }\n%token\n  'a' { 'a' }\n%%\n"
HAPPY_TAIL = "{\nparseError :: [Char] -> a\nparseError _ = error \"parse\"\n}\n"
case("grammar7", "happy-syntax-1", "happy", S, "Happy 1.20: a production whose code brace is never closed",
     w("a.y", HAPPY + "Exp : 'a' { 1\n" + HAPPY_TAIL) + "happy a.y")
case("grammar7", "happy-validation-1", "happy", V, "Happy 1.20: a production using a nonterminal that is not defined",
     w("a.y", HAPPY + "Exp : 'a' { 1 }\n    | Missing { 2 }\n" + HAPPY_TAIL) + "happy a.y")
case("grammar7", "peggy-syntax-1", "peggy", S, "Peggy 5: a rule whose parenthesis is never closed",
     w("a.peggy", "start = \"a\" (\"b\" / \"c\"\n") + "peggy a.peggy -o a.js")
case("grammar7", "peggy-validation-1", "peggy", V, "Peggy 5: a rule referring to a rule that is not defined",
     w("a.peggy", "start = \"a\" rest\n") + "peggy a.peggy -o a.js")

# ---- haskell (the table's family haskell is left out): HLint ----
case("haskell", "hlint-validation-1", "hlint", V, "HLint 3.3: a redundant do and a redundant bracket",
     w("a.hs", "main :: IO ()\nmain = do putStrLn (show (1 + 2))\n") + "hlint a.hs")
case("haskell", "hlint-syntax-1", "hlint", S, "HLint 3.3: an expression whose parenthesis is never closed",
     w("a.hs", "main :: IO ()\nmain = print (1 + 2\n") + "hlint a.hs")

# ---- c (the table's family c is left out): the Portable C Compiler ----
case("c", "pcc-syntax-1", "pcc", S, "pcc 1.2: an expression whose parenthesis is never closed",
     w("a.c", "int main(void) {\n    int x = (1 + 2;\n    return x;\n}\n") + "pcc -c a.c -o a.o")
case("c", "pcc-validation-1", "pcc", V, "pcc 1.2: a variable used that is not declared",
     w("a.c", "int main(void) {\n    int x = 1;\n    return x + y;\n}\n") + "pcc -c a.c -o a.o")
case("c", "pcc-missing-1", "pcc", M, "pcc 1.2: an #include of a library's header that is not installed",
     w("a.c", "#include <curl/curl.h>\nint main(void) {\n    return curl_global_init(0);\n}\n") + "pcc -c a.c -o a.o")

# ---- asm7: z80asm, Pasmo ----
case("asm7", "z80asm-syntax-1", "z80asm", S, "z80asm 1.8: an operand ending in an operator",
     w("a.asm", "\torg 0\n\tld a, 1 +\n\tret\n") + "z80asm -o a.bin a.asm",
     note="first made with an operand whose parenthesis is never closed, which z80asm took with a warning (exit 0): no failure; re-scripted with an operand ending in an operator" + RB)
case("asm7", "z80asm-validation-1", "z80asm", V, "z80asm 1.8: a jump to a label that is not defined",
     w("a.asm", "\torg 0\n\tjp nowhere\n") + "z80asm -o a.bin a.asm")
case("asm7", "pasmo-syntax-1", "pasmo", S, "Pasmo 0.5.3: an operand whose parenthesis is never closed",
     w("a.asm", "\torg 0\n\tld a, (1 + 2\n\tret\n") + "pasmo a.asm a.bin")
case("asm7", "pasmo-validation-1", "pasmo", V, "Pasmo 0.5.3: a jump to a label that is not defined",
     w("a.asm", "\torg 0\n\tjp nowhere\n") + "pasmo a.asm a.bin")
case("asm7", "z80asm-missing-1", "z80asm", M, "z80asm 1.8: an include of a file that is not there (a platform's definitions)",
     w("a.asm", "\tinclude \"msxbios.inc\"\n\torg 0\n\tret\n") + "z80asm -o a.bin a.asm")

# ---- classic7: f2c (Fortran 77) ----
case("classic7", "f2c-syntax-1", "f2c", S, "f2c 20200916: a Fortran 77 assignment whose parenthesis is never closed",
     w("a.f", "      PROGRAM A\n      X = (1 + 2\n      PRINT *, X\n      END\n") + "f2c a.f")
case("classic7", "f2c-validation-1", "f2c", V, "f2c 20200916: a GOTO to a statement label that is not defined",
     w("a.f", "      PROGRAM A\n      GOTO 100\n      END\n") + "f2c a.f")

# ---- config7: Caddy, Kea, Squid, collectd, logrotate, FreeRADIUS ----
CADDY = "caddy validate --config Caddyfile --adapter caddyfile"
case("config7", "caddy-syntax-1", "caddy", S, "Caddy 2.6 validate: a site block whose brace is never closed",
     w("Caddyfile", ":8080 {\n\trespond \"hi\"\n") + CADDY)
case("config7", "caddy-validation-1", "caddy", V, "Caddy 2.6 validate: a port past 65535",
     w("Caddyfile", ":99999 {\n\trespond \"hi\"\n}\n") + CADDY)
case("config7", "caddy-missing-1", "caddy", M, "Caddy 2.6 validate: a DNS provider module this caddy was not built with (cloudflare)",
     w("Caddyfile", "example.com {\n\ttls {\n\t\tdns cloudflare abc123\n\t}\n\trespond \"hi\"\n}\n") + CADDY)
KEA = "{\"Dhcp4\": {\"interfaces-config\": {\"interfaces\": []}, \"lease-database\": {\"type\": \"memfile\", \"persist\": false}, "
case("config7", "kea-dhcp4-syntax-1", "kea-dhcp4", S, "Kea 2.2 kea-dhcp4 -t: a configuration whose brace is never closed",
     w("k.json", KEA + "\"valid-lifetime\": 4000\n") + "kea-dhcp4 -t k.json")
case("config7", "kea-dhcp4-validation-1", "kea-dhcp4", V, "Kea 2.2 kea-dhcp4 -t: a word where a lifetime is wanted",
     w("k.json", KEA + "\"valid-lifetime\": \"long\"}}\n") + "kea-dhcp4 -t k.json")
case("config7", "squid-syntax-1", "squid", S, "Squid 5.7 -k parse: an http_port without its port",
     w("s.conf", "http_port\nhttp_access deny all\n") + "squid -k parse -f \"$PWD/s.conf\"")
case("config7", "squid-validation-1", "squid", V, "Squid 5.7 -k parse: an http_access naming an acl that is not defined",
     w("s.conf", "http_port 3128\nhttp_access allow nosuchacl\nhttp_access deny all\n") + "squid -k parse -f \"$PWD/s.conf\"")
case("config7", "collectd-syntax-1", "collectd", S, "collectd 5.12 -T: a Plugin block that is never closed",
     w("c.conf", "Interval 10\nLoadPlugin cpu\n<Plugin cpu>\n  ReportByCpu true\n") + "collectd -T -C \"$PWD/c.conf\"",
     note="first made with collectd -t, which printed nothing and exited 0 (it does not load the plugins, nor here report the block left open): no failure; re-scripted with -T, which reads the configuration and loads the plugins" + RB)
case("config7", "collectd-missing-1", "collectd", M, "collectd 5.12 -T: LoadPlugin of a plugin whose client library is not installed (redis, libhiredis)",
     w("c.conf", "Interval 10\nLoadPlugin redis\n") + "collectd -T -C \"$PWD/c.conf\"",
     note="first made with collectd -t, which printed nothing and exited 0 (it does not load the plugins, nor here report the block left open): no failure; re-scripted with -T, which reads the configuration and loads the plugins" + RB)
LR = "logrotate -d -s \"$PWD/state\" l.conf"
case("config7", "logrotate-syntax-1", "logrotate", S, "logrotate 3.21 -d: a closing brace with no block open",
     w("l.conf", "/var/log/gen7-app.log {\n    daily\n    rotate 4\n}\n}\n") + LR,
     note="first made with a block whose brace is never closed, where logrotate said nothing of it (it stopped on /tmp's permissions instead): not the failure labelled; re-scripted with a closing brace too many and a log under /var/log" + RB)
case("config7", "logrotate-validation-1", "logrotate", V, "logrotate 3.21 -d: a word where a rotation count is wanted",
     w("l.conf", "/tmp/gen7-app.log {\n    daily\n    rotate many\n}\n") + LR)
case("config7", "freeradius-missing-1", "freeradius", M, "FreeRADIUS 3.2 -XC: the ldap module enabled, its driver (freeradius-ldap) not installed",
     "cp -r /etc/freeradius/3.0 raddb && ln -s ../mods-available/ldap raddb/mods-enabled/ldap && freeradius -XC -d \"$PWD/raddb\"")

# ---- docs7: LilyPond, CSpell, MkDocs, EPUBCheck ----
case("docs7", "lilypond-syntax-1", "lilypond", S, "LilyPond 2.24: a music expression whose brace is never closed",
     w("a.ly", "\\version \"2.24.0\"\n{ c'4 d'4 e'4\n") + "lilypond a.ly", timeout=120)
case("docs7", "lilypond-missing-1", "lilypond", M, "LilyPond 2.24: an \\include of an openLilyLib file that is not installed",
     w("a.ly", "\\version \"2.24.0\"\n\\include \"oll-core/package.ily\"\n{ c'4 d'4 }\n") + "lilypond a.ly", timeout=120)
case("docs7", "cspell-validation-1", "cspell", V, "CSpell 9 lint: words misspelt",
     w("README.md", "# A\n\nThis tool will recieve teh files.\n") + "cspell lint --no-progress README.md")
case("docs7", "cspell-missing-1", "cspell", M, "CSpell 9 lint: a dictionary package imported by cspell.json that is not installed",
     w("cspell.json", "{\"version\": \"0.2\", \"import\": [\"@cspell/dict-fr-fr/cspell-ext.json\"], \"language\": \"en,fr\"}\n")
     + w("README.md", "# A\n\nBonjour.\n") + "cspell lint --no-progress README.md", package="@cspell/dict-fr-fr")
MKD = w("mkdocs.yml", "site_name: A\n") + "mkdir docs; "
case("docs7", "mkdocs-validation-1", "mkdocs", V, "MkDocs 1.6 build --strict: a link to a page that does not exist",
     MKD + w("docs/index.md", "# A\n\nSee [the guide](guide.md).\n") + "mkdocs build --strict")
case("docs7", "mkdocs-missing-1", "mkdocs", M, "MkDocs 1.6 build: a theme that is not installed (material, of mkdocs-material)",
     w("mkdocs.yml", "site_name: A\ntheme:\n  name: material\n") + "mkdir docs; " + w("docs/index.md", "# A\n") + "mkdocs build")
case("docs7", "mkdocs-resource-1", "mkdocs", R, "MkDocs 1.6 build into a 64 KiB tmpfs (the disk fills)",
     MKD + w("docs/index.md", "# A\n\nSome text.\n") + "export S=\"$PWD\"; " + SMALLFS.format("mkdocs build -f \"$S/mkdocs.yml\" -d /mnt/site"))
EPUB = ("python3 - <<'EOF_CASE'\nimport zipfile\nz = zipfile.ZipFile('a.epub', 'w')\nz.writestr('mimetype', 'application/epub+zip', compress_type=zipfile.ZIP_STORED)\n"
        "z.writestr('META-INF/container.xml', '<?xml version=\"1.0\"?><container version=\"1.0\" xmlns=\"urn:oasis:names:tc:opendocument:xmlns:container\">"
        "<rootfiles><rootfile full-path=\"content.opf\" media-type=\"application/oebps-package+xml\"/></rootfiles></container>')\n"
        "z.writestr('content.opf', '<?xml version=\"1.0\"?><package xmlns=\"http://www.idpf.org/2007/opf\" version=\"3.0\" unique-identifier=\"id\">"
        "<metadata xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:identifier id=\"id\">a</dc:identifier><dc:language>en</dc:language></metadata>"
        "<manifest><item id=\"c\" href=\"c.xhtml\" media-type=\"application/xhtml+xml\"/></manifest><spine><itemref idref=\"c\"/></spine></package>')\n"
        "z.writestr('c.xhtml', '<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>c</title></head><body><p>c</p></body></html>')\n"
        "z.close()\nEOF_CASE\n")
case("docs7", "epubcheck-validation-1", "epubcheck", V, "EPUBCheck 4.2: an EPUB 3 without a dc:title, a nav document or a modified date",
     EPUB + "java -jar /usr/share/java/epubcheck.jar a.epub", timeout=120,
     note="first made as `epubcheck a.epub`, but Debian's /usr/bin/epubcheck is the jar itself, which bash ran as a script ($'PK\\003\\004': command not found): not the failure labelled; re-scripted to run the jar with java -jar" + RB)

# ---- data7: BaseX, Spectral, Redocly CLI ----
case("data7", "basex-syntax-1", "basex", S, "BaseX 9.7: a FLWOR expression whose parenthesis is never closed",
     w("a.xq", "let $x := (1 + 2\nreturn $x\n") + "basex a.xq")
case("data7", "basex-validation-1", "basex", V, "BaseX 9.7: a number added to a string (XPTY0004)",
     w("a.xq", "let $x := 1 + \"two\"\nreturn $x\n") + "basex a.xq")
case("data7", "basex-missing-1", "basex", M, "BaseX 9.7: an import module whose file is not there",
     w("a.xq", "import module namespace f = \"http://example.com/f\" at \"f.xqm\";\nf:g()\n") + "basex a.xq")
case("data7", "basex-timeout-1", "basex", T, "BaseX 9.7: a query over 10^11 numbers under a CPU time limit of 6 s (ulimit -t 6)",
     w("a.xq", "count(for $i in 1 to 100000000000 where $i mod 7 = 3 return $i)\n") + "ulimit -t 6; basex a.xq && echo passed", timeout=90)
OAS = "openapi: 3.0.3\ninfo:\n  title: A\n  version: '1'\npaths:\n  /items:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema:\n                type: lots\n"
case("data7", "spectral-validation-1", "spectral", V, "Spectral 6 lint with spectral:oas: a schema type that does not exist",
     w(".spectral.yaml", "extends: [\"spectral:oas\"]\n") + w("openapi.yaml", OAS) + "spectral lint --ruleset .spectral.yaml openapi.yaml")
RED = "export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true; "
case("data7", "redocly-validation-1", "redocly", V, "Redocly CLI 2 lint: a schema type that does not exist and no operationId",
     RED + w("openapi.yaml", OAS) + "redocly lint openapi.yaml")
case("data7", "redocly-network-1", "redocly", N, "Redocly CLI 2 lint of a description given by URL, with no network (an empty network namespace)",
     RED + NONET + "redocly lint https://api.example.com/openapi.yaml", timeout=120)

# ---- python (the table's family python is left out): Cython, twine, xdoctest ----
case("python", "cython-syntax-1", "cython", S, "Cython 3: a def whose parameter list is broken",
     w("a.pyx", "def f(:\n    return 1\n") + "cython -3 a.pyx")
case("python", "cython-validation-1", "cython", V, "Cython 3: a string assigned to a cdef int",
     w("a.pyx", "def f():\n    cdef int n = \"three\"\n    return n\n") + "cython -3 a.pyx")
case("python", "cython-missing-1", "cython", M, "Cython 3: cimport of a package that is not installed",
     w("a.pyx", "from cysignals.signals cimport sig_check\n\ndef f():\n    sig_check()\n") + "cython -3 a.pyx", package="cysignals")
SDIST = ("mkdir -p dist a-1.0 && printf 'Metadata-Version: 2.1\\nName: a\\nVersion: 1.0\\nSummary: a\\nDescription-Content-Type: text/x-rst\\n\\n"
         "Title\\n===\\n\\n.. nosuchdirective::\\n\\n`broken link <\\n' > a-1.0/PKG-INFO && tar czf dist/a-1.0.tar.gz a-1.0 && ")
case("python", "twine-validation-1", "twine", V, "twine 6 check: an sdist whose reStructuredText description would not render",
     SDIST + "twine check dist/a-1.0.tar.gz")
case("python", "twine-network-1", "twine", N, "twine 6 upload to a repository URL, with no network (an empty network namespace)",
     SDIST + NONET + "twine upload --non-interactive --repository-url https://upload.example.org/legacy/ -u dev -p secret dist/a-1.0.tar.gz", timeout=120)
case("python", "xdoctest-validation-1", "xdoctest", V, "xdoctest 1: a doctest whose expected value is wrong",
     w("a.py", "def add(a, b):\n    \"\"\"\n    >>> add(2, 3)\n    5\n    \"\"\"\n    return a - b\n") + "xdoctest a.py all")
case("python", "xdoctest-missing-1", "xdoctest", M, "xdoctest 1: a module importing a package that is not installed",
     w("a.py", "import pendulum\n\n\ndef today():\n    \"\"\"\n    >>> today() is not None\n    True\n    \"\"\"\n    return pendulum.today()\n")
     + "xdoctest a.py all", package="pendulum")

# ---- js-tests (the table's family js-tests is left out): ospec ----
OSPEC = "const o = require('ospec');\n"
case("js-tests", "ospec-validation-1", "ospec", V, "ospec 4: a test whose o(...).equals fails",
     LINK + "mkdir test; " + w("test/add.js", OSPEC + "const add = (a, b) => a - b;\no('add', () => {\n  o(add(2, 3)).equals(5);\n});\n") + "ospec 'test/*.js'")
case("js-tests", "ospec-missing-1", "ospec", M, "ospec 4: a test requiring a package that is not installed",
     LINK + "mkdir test; " + w("test/http.js", OSPEC + "const request = require('supertest');\no('requests', () => {\n  o(typeof request).equals('function');\n});\n")
     + "ospec 'test/*.js'", package="supertest")
case("js-tests", "ospec-timeout-1", "ospec", T, "ospec 4: an async test that never settles, past its default timeout",
     LINK + "mkdir test; " + w("test/wait.js", OSPEC + "o('settles', async () => {\n  await new Promise(() => {});\n});\n") + "ospec 'test/*.js'", timeout=60)

# ---- js-lint (the table's family js-lint is left out): putout ----
case("js-lint", "putout-validation-1", "putout", V, "putout 41: an unused variable and a useless return",
     LINK + w("a.js", "function f(x) {\n    const unused = 1;\n    return x;\n}\n\nf(1);\n") + "putout a.js")
case("js-lint", "putout-syntax-1", "putout", S, "putout 41: a function whose brace is never closed",
     LINK + w("a.js", "function f(x) {\n    return x;\n\nf(1);\n") + "putout a.js")

# ---- typescript (the table's family typescript is left out): TSLint ----
case("typescript", "tslint-validation-1", "tslint", V, "TSLint 6 with tslint:recommended: a var and a double-quoted string",
     LINK + w("tslint.json", "{\"extends\": \"tslint:recommended\"}\n") + w("a.ts", "var x = \"one\";\nexport { x };\n") + "tslint -c tslint.json a.ts")
case("typescript", "tslint-missing-1", "tslint", M, "TSLint 6: an extends of a configuration package that is not installed",
     LINK + w("tslint.json", "{\"extends\": \"tslint-config-airbnb\"}\n") + w("a.ts", "export const x = 1;\n") + "tslint -c tslint.json a.ts",
     package="tslint-config-airbnb")

# ---- ml7: ReScript ----
RES = (LINK + w("package.json", "{\"name\": \"a\", \"version\": \"1.0.0\"}\n") + "mkdir src; ")
RESJ = "{\"name\": \"a\", \"sources\": {\"dir\": \"src\"}, \"package-specs\": {\"module\": \"commonjs\", \"in-source\": true}, \"suffix\": \".res.js\""
case("ml7", "rescript-syntax-1", "rescript", S, "ReScript 12 build: a let whose parenthesis is never closed",
     RES + w("rescript.json", RESJ + "}\n") + w("src/A.res", "let x = (1 + 2\nJs.log(x)\n") + "rescript build", timeout=120)
case("ml7", "rescript-validation-1", "rescript", V, "ReScript 12 build: a string where an int is declared",
     RES + w("rescript.json", RESJ + "}\n") + w("src/A.res", "let x: int = \"three\"\n") + "rescript build", timeout=120)
case("ml7", "rescript-missing-1", "rescript", M, "ReScript 12 build: a dependency in rescript.json that is not installed",
     RES + w("rescript.json", RESJ + ", \"dependencies\": [\"@rescript/react\"]}\n") + w("src/A.res", "let x = 1\n") + "rescript build",
     package="@rescript/react", timeout=120)

# ---- vcs7: xstow, vcsh, yadm, daff ----
case("vcs7", "xstow-conflict-1", "xstow", C, "xstow 1.1: a package whose file would replace a file the target holds",
     "mkdir -p stow/app/bin target/bin && echo '#!/bin/sh' > stow/app/bin/tool && echo old > target/bin/tool && xstow -d stow -t target app")
ORIGIN = ("git init -q -b master src && cd src && printf 'a\\nb\\nc\\n' > f.txt && git add f.txt && git commit -qm base && cd .. && "
          "git config --global pull.rebase false && ")
case("vcs7", "vcsh-conflict-1", "vcsh", C, "vcsh 1.2019 pull: the remote and the home changed one line otherwise (a merge conflict)",
     ORIGIN + "vcsh clone -b master \"$PWD/src\" r && cd src && sed -i 's/^b$/B1/' f.txt && git commit -qam one && cd .. && "
     "sed -i 's/^b$/B2/' \"$HOME/f.txt\" && vcsh r commit -qam two && vcsh r pull --no-edit")
case("vcs7", "yadm-conflict-1", "yadm", C, "yadm 3.2 pull: the remote and the home changed one line otherwise (a merge conflict)",
     ORIGIN + "yadm clone --no-bootstrap -b master \"$PWD/src\" && cd src && sed -i 's/^b$/B1/' f.txt && git commit -qam one && cd .. && "
     "sed -i 's/^b$/B2/' \"$HOME/f.txt\" && yadm commit -qam two && yadm pull --no-edit")
case("vcs7", "daff-conflict-1", "daff", C, "daff 1.4 merge: two tables that changed one cell of their parent otherwise",
     w("parent.csv", "id,name\n1,apple\n2,pear\n") + w("local.csv", "id,name\n1,apple\n2,quince\n") + w("remote.csv", "id,name\n1,apple\n2,plum\n")
     + "daff merge --output merged.csv parent.csv local.csv remote.csv")

# ---- packaging7: Flatpak, skopeo, debootstrap, Carton ----
case("packaging7", "flatpak-network-1", "flatpak", N, "Flatpak 1.14 --user remote-add of a remote by URL, with no network (an empty network namespace)",
     NONET + "flatpak --user remote-add --if-not-exists flathub https://dl.flathub.org/repo/flathub.flatpakrepo", timeout=120)
case("packaging7", "flatpak-other-1", "flatpak", O, "Flatpak 1.14 --user install of an application no configured remote has",
     "flatpak --user install -y --noninteractive org.example.NoSuchApp", timeout=120)
case("packaging7", "skopeo-network-1", "skopeo", N, "skopeo 1.9 inspect of an image in a registry, with no network (an empty network namespace)",
     NONET + "skopeo inspect docker://docker.io/library/alpine:3.19", timeout=120)
case("packaging7", "debootstrap-network-1", "debootstrap", N, "debootstrap 1.0.128 of bookworm from a mirror, with no network (an empty network namespace)",
     NONET + "debootstrap --variant=minbase bookworm root http://mirror.example.org/debian", timeout=180)
case("packaging7", "carton-network-1", "carton", N, "Carton 1.0 install of a cpanfile's module, with no network (an empty network namespace)",
     w("cpanfile", "requires 'Mojolicious', '9.0';\n") + NONET + "carton install", timeout=180,
     note="cpanm printed no error of the network: its index could not be fetched, and it says only that gunzip found no file")

# ---- build7: qmake, Jam ----
QMAKE = "export QT_SELECT=qt5; qmake a.pro"
case("build7", "qmake-syntax-1", "qmake", S, "qmake 5.15: a scope whose brace is never closed",
     w("a.pro", "TEMPLATE = app\nSOURCES = main.cpp\nunix {\n    LIBS += -lm\n") + w("main.cpp", "int main() { return 0; }\n") + QMAKE)
case("build7", "qmake-missing-1", "qmake", M, "qmake 5.15: a Qt module that is not installed (QT += charts)",
     w("a.pro", "TEMPLATE = app\nQT += charts\nSOURCES = main.cpp\n") + w("main.cpp", "int main() { return 0; }\n") + QMAKE)
case("build7", "jam-syntax-1", "jam", S, "Jam 2.6: a rule invocation without its closing semicolon",
     w("Jamfile", "Main a : a.c\n") + w("a.c", "int main(void) { return 0; }\n") + "jam")
case("build7", "jam-missing-1", "jam", M, "Jam 2.6: a C file including a library's header that is not installed",
     w("Jamfile", "Main a : a.c ;\n") + w("a.c", "#include <sodium.h>\nint main(void) { return sodium_init(); }\n") + "jam",
     note="first made with gmp.h, which was installed after all (it came with GCL), so the link failed on an undefined reference instead: not the failure labelled; re-scripted with libsodium's header, which is not installed" + RB)

# ---- ruby (the table's family ruby is left out): Jekyll (Debian's jekyll) ----
JK = w("_config.yml", "title: A\n")
case("ruby", "jekyll-syntax-1", "jekyll", S, "Jekyll 4.3 build: an if tag that is never closed",
     JK + w("index.html", "---\n---\n{% if site.title %}\n<h1>{{ site.title }}</h1>\n") + "jekyll build", timeout=120)
case("ruby", "jekyll-validation-1", "jekyll", V, "Jekyll 4.3 build with liquid strict_variables: a variable that is not defined",
     w("_config.yml", "title: A\nliquid:\n  strict_variables: true\n") + w("index.html", "---\n---\n<h1>{{ page.subtitle }}</h1>\n") + "jekyll build", timeout=120)
case("ruby", "jekyll-missing-1", "jekyll", M, "Jekyll 4.3 build: a plugin gem that is not installed",
     w("_config.yml", "title: A\nplugins:\n  - jekyll-archives\n") + w("index.html", "---\n---\n<h1>{{ site.title }}</h1>\n") + "jekyll build",
     package="jekyll-archives", timeout=120)
case("ruby", "jekyll-resource-1", "jekyll", R, "Jekyll 4.3 build of a site holding a 1 MB file into a 64 KiB tmpfs (the disk fills)",
     JK + w("index.html", "---\n---\n<h1>{{ site.title }}</h1>\n") + "head -c 1000000 /dev/urandom > data.bin; export S=\"$PWD\"; "
     + SMALLFS.format("jekyll build -s \"$S\" -d /mnt/site"), timeout=120)

# ---- php (the table's family php is left out): PHPMD ----
case("php", "phpmd-validation-1", "phpmd", V, "PHPMD 2.13 unusedcode: an unused local variable and an unused parameter",
     w("a.php", "<?php\nfunction add($a, $b, $c)\n{\n    $unused = 1;\n    return $a + $b;\n}\n") + "phpmd a.php text unusedcode")
case("php", "phpmd-syntax-1", "phpmd", S, "PHPMD 2.13: a function whose parameter list is broken",
     w("a.php", "<?php\nfunction add($a, {\n    return $a;\n}\n") + "phpmd a.php text unusedcode")
