//! The evidence [`super::classify_run`] weighs, as data: one table of rows
//! per toolchain family, a few cross-family shadows tried before them, and
//! the commands whose failure is a failed validation. See the documentation
//! of `build.rs` for how a row is chosen.
//!
//! Rows recognise what a toolchain's output shows rather than phrases: a
//! diagnostic with its code (`error CS1002`, `error TS2307`, `[GHC-58481]`,
//! `SC1073 (error)`), a parser's own sentence (`';' expected`), a test
//! runner's summary line with a failure count that is not zero (Surefire's
//! `Tests run: 5, Failures: 1`, RSpec's `4 examples, 1 failure`), or a
//! package manager's or module resolver's error naming what is missing.
//! They were written from the development cases
//! (`tests/build_decisions/development/`); where
//! one of those shows a member of a tool's diagnostic family, a row may
//! cover the family as the tool prints it (javac's parse errors all end in
//! `expected` or start with `illegal start of`), but no row names a message
//! that no development case shows.

use Class::{Conflict, Missing, Network, Resource, Syntax, Timeout, Unresolvable, Validation};
use Naming::{Npm, Python, Segment, Types, Unnamed, Verbatim};
use Strength::{Clear, Decisive, Hint};

/// The classes evidence can point to, in the order that breaks a tie in
/// strength: the cause before the errors it causes (a registry out of
/// reach before the package it then cannot find).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Class {
    Conflict,
    Resource,
    Network,
    Missing,
    Syntax,
    Timeout,
    /// A name or a version no registry has: the user's to decide (`OTHER`).
    Unresolvable,
    Validation,
}

pub(super) const CLASSES: usize = 8;

/// Every class, in the order of [`Class`].
pub(super) const ALL_CLASSES: [Class; CLASSES] =
    [Conflict, Resource, Network, Missing, Syntax, Timeout, Unresolvable, Validation];

/// How much one line says about its class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Strength {
    /// A word that may as well be quoted ("syntax error", "timed out").
    Hint,
    /// A tool's summary or a telling phrase (jest's `Tests: 1 failed`).
    Clear,
    /// A tool's own error code or sentence (`error TS1005`, `CONFLICT (content)`).
    Decisive,
}

/// How the `pkg` group of a missing-dependency row becomes a package name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Naming {
    /// The row names no package.
    Unnamed,
    /// An npm specifier: `lodash/fp` → `lodash`, `@scope/a/b` → `@scope/a`.
    Npm,
    /// The module lacks its type declarations: `express` → `@types/express`.
    Types,
    /// A dotted module: `google.protobuf` → `google`.
    Python,
    /// A required path's first segment: `faraday/retry` → `faraday`.
    Segment,
    /// As written: a Go package path, a crate, a Java package, a gem, a provider.
    Verbatim,
    /// As the line says it, from a generic cue: without its quotes and a
    /// sentence's last stop; none when it is a word of the sentence rather
    /// than a name, or a file (a header, an object or a library file).
    Said,
    /// A file a compiler looked for, named without a folder: the module it
    /// holds, as [`Naming::Said`] (`kemal`, `aws.ads` → `aws`); a data file
    /// (`.json`, `.csv`, ...) is a file of the project, a code error.
    File,
    /// A module's file on a search path: the module (`mir/ndslice.d` →
    /// `mir.ndslice`, `cheshire/core.cljc` → `cheshire.core`); a name
    /// without a folder as it is.
    ModulePath,
}

/// One row: a line the regular expression matches is evidence of `class`
/// with this strength; a missing-dependency row's `pkg` group names the
/// package.
#[derive(Debug, Clone, Copy)]
pub(super) struct Row(pub Class, pub Strength, pub Naming, pub &'static str);

/// A toolchain family's table: the toolchains it reads and its rows, most
/// specific first (the first row of a family that matches a line is the
/// family's only say on it).
pub(super) struct Family {
    pub name: &'static str,
    pub toolchains: &'static [&'static str],
    pub rows: &'static [Row],
}

/// Lines that look like one class to some family and are another, tried
/// before every family: the first that matches a line is the only evidence
/// it gives.
pub(super) const SHADOWS: &[Row] = &[
    // `JSON.parse` or `new RegExp` throwing at run time: the code parsed.
    Row(Validation, Clear, Unnamed, r"SyntaxError: .*\bJSON\b|SyntaxError: Invalid regular expression"),
    // A connection that timed out is the network's, not a slow test's.
    Row(
        Network,
        Decisive,
        Unnamed,
        r"ReadTimeoutError|ConnectTimeoutError|NewConnectionError|requests\.exceptions\.ConnectionError|dial tcp\b.*: (?:i/o timeout|lookup |connect: )",
    ),
    Row(Network, Decisive, Unnamed, r"(?i)connection timed out|\bETIMEDOUT\b"),
];

/// The families, each one table. Their order is only the order of this
/// list: a line's evidence is the strongest any family gives it.
pub(super) const FAMILIES: &[Family] = &[
    GIT, SYSTEM, SHELL, JAVASCRIPT, TYPESCRIPT, JS_TESTS, JS_LINT, PYTHON, RUST, GO, C, SQL, JVM, DOTNET, SWIFT, BEAM,
    HASKELL, TERRAFORM, PHP, RUBY, DART, YAML,
];

/// git, and the markers a conflict leaves in files as compilers report them.
const GIT: Family = Family {
    name: "git",
    toolchains: &["git"],
    rows: &[
        Row(Conflict, Decisive, Unnamed, r"^CONFLICT \([\w/ ]+\): |Automatic merge failed; fix conflicts"),
        Row(
            Conflict,
            Decisive,
            Unnamed,
            r"^(?:error: )?[Cc]ould not apply [0-9a-f]{7,}\.\.\.|^hint: Resolve all conflicts manually",
        ),
        Row(
            Conflict,
            Decisive,
            Unnamed,
            r"is not possible because you have unmerged files|you need to resolve your current index first|: needs merge$",
        ),
        Row(Conflict, Decisive, Unnamed, r"would be overwritten by (?:merge|checkout|rebase)"),
        Row(Conflict, Decisive, Unnamed, r"error TS1185:|encountered diff marker|(?:^|[\s|>])<{7}(?: |$)"),
        Row(Conflict, Clear, Unnamed, r"(?i)\bmerge conflict\b"),
    ],
};

/// curl and docker: their own words for the network and the machine (the
/// words anyone prints for them are generic cues, `build_cues.rs`).
const SYSTEM: Family = Family {
    name: "system",
    toolchains: &["curl", "docker"],
    rows: &[
        Row(Resource, Decisive, Unnamed, r"OOMKilled|exit code 137\b"),
        Row(Network, Decisive, Unnamed, r"^curl: \((?:5|6|7|28|35|52|56)\) |failed to connect to \S+ port \d+"),
    ],
};

/// POSIX shells and shellcheck.
const SHELL: Family = Family {
    name: "shell",
    toolchains: &["sh", "bash", "shellcheck"],
    rows: &[
        Row(
            Missing,
            Decisive,
            Unnamed,
            r"^(?:/bin/)?(?:ba|da|z)?sh: (?:line )?\d+: [\w.-]+: (?:command )?not found|command not found: \S+|^[\w.-]+: command not found",
        ),
        Row(
            Syntax,
            Decisive,
            Unnamed,
            r"syntax error near unexpected token|syntax error: unexpected end of file|unexpected EOF while looking for matching",
        ),
        // shellcheck: SC1xxx are the parser's; an error among them means the script does not parse.
        Row(Syntax, Decisive, Unnamed, r"\bSC1\d{3} \(error\): "),
        Row(Validation, Clear, Unnamed, r"\bSC\d{4} \((?:error|warning|info|style)\): "),
    ],
};

/// JavaScript runtimes, package managers and bundlers: module resolution,
/// the parser, the registry.
const JAVASCRIPT: Family = Family {
    name: "javascript",
    toolchains: &["node", "bun", "deno", "npm", "yarn", "pnpm", "vite", "webpack", "esbuild"],
    rows: &[
        Row(Network, Decisive, Unnamed, r"^npm (?:ERR!|error) network |trouble with your network connection"),
        Row(Missing, Decisive, Npm, r"Cannot find (?:module|package) '(?P<pkg>[^']+)'"),
        Row(Missing, Decisive, Npm, r#"[Ff]ailed to resolve (?:import |entry for package )?["'](?P<pkg>[^"']+)["']"#),
        Row(Missing, Decisive, Npm, r"Can't resolve '(?P<pkg>[^']+)'"),
        Row(Missing, Decisive, Npm, r#"Could not resolve ["'](?P<pkg>[^"']+)["']"#),
        Row(
            Missing,
            Decisive,
            Npm,
            r"Your application tried to access (?P<pkg>[@\w./-]+), but it isn't declared in your dependencies",
        ),
        // deno: a bare specifier that no import map or package.json provides.
        Row(Missing, Decisive, Npm, r#"Relative import path "(?P<pkg>[^"]+)" not prefixed with / or \./ or \.\./"#),
        Row(Missing, Hint, Unnamed, r"(?i)\bMODULE_NOT_FOUND\b|\bmodule not found\b"),
        Row(Syntax, Decisive, Unnamed, r"^\s*(?:Uncaught )?SyntaxError\b|: SyntaxError: "),
        Row(
            Syntax,
            Decisive,
            Unnamed,
            r"✘ \[ERROR\] (?:Expected|Unexpected|Unterminated)|: ERROR: (?:Expected|Unexpected|Unterminated)",
        ),
        Row(Validation, Hint, Unnamed, r"^\s*(?:TypeError|ReferenceError)\b"),
    ],
};

/// The TypeScript compiler: `error TS1xxx` is its parser's.
const TYPESCRIPT: Family = Family {
    name: "typescript",
    toolchains: &["tsc"],
    rows: &[
        Row(Missing, Decisive, Types, r"error TS7016: Could not find a declaration file for module '(?P<pkg>[^']+)'"),
        Row(Syntax, Decisive, Unnamed, r"error TS1(?:0\d\d|1[0-6]\d):"),
        Row(Validation, Clear, Unnamed, r"error TS\d{4,5}:"),
    ],
};

/// JavaScript test runners, each by its summary: jest, vitest, mocha,
/// Playwright, node's, bun's and deno's.
const JS_TESTS: Family = Family {
    name: "js-tests",
    toolchains: &["jest", "vitest", "mocha", "playwright", "node", "bun", "deno"],
    rows: &[
        // Playwright: a web-first assertion that waited in vain failed its expectation.
        Row(Validation, Clear, Unnamed, r"Timed out \d+ ?ms waiting for expect\("),
        Row(
            Timeout,
            Decisive,
            Unnamed,
            r"Exceeded timeout of \d+ ?ms|(?:Test|Hook) timed out in \d+ ?ms|[Tt]imeout of \d+ ?ms exceeded|[Tt]imeout \d+ ?ms exceeded",
        ),
        Row(
            Network,
            Decisive,
            Unnamed,
            r"net::ERR_(?:CONNECTION_\w+|NAME_NOT_RESOLVED|INTERNET_DISCONNECTED|ADDRESS_UNREACHABLE|NETWORK_CHANGED|TIMED_OUT)\b",
        ),
        Row(Missing, Decisive, Unnamed, r"browserType\.launch: Executable doesn't exist at "),
        Row(Syntax, Clear, Unnamed, r"Jest encountered an unexpected token|Jest failed to parse a file"),
        Row(
            Validation,
            Clear,
            Unnamed,
            r"^\s*FAIL\s+\S|^FAIL$|^Tests:\s+\d+ failed|^Test Suites:\s+\d+ failed|^\s*● |^\s*Test Files\s+\d+ failed|^\s*Tests\s+\d+ failed|expect\(received\)|^\s*\d+ failing$|AssertionError",
        ),
        // Playwright's summary; node --test's; bun test's; deno test's.
        Row(Validation, Clear, Unnamed, r"^ {2}[1-9]\d* failed$"),
        Row(Validation, Clear, Unnamed, r"^ℹ fail [1-9]\d*$|^✖ failing tests:$"),
        Row(Validation, Clear, Unnamed, r"^ *[1-9]\d* fail$|^✗ "),
        Row(
            Validation,
            Clear,
            Unnamed,
            r"^FAILED \| \d+ passed \| [1-9]\d* failed|^error: Test failed$|\.\.\. FAILED \(",
        ),
    ],
};

/// JavaScript linters and formatters.
const JS_LINT: Family = Family {
    name: "js-lint",
    toolchains: &["eslint", "prettier"],
    rows: &[
        Row(Syntax, Decisive, Unnamed, r"\bParsing error: "),
        Row(
            Validation,
            Clear,
            Unnamed,
            r"^✖ \d+ problems? \(|^\s+\d+:\d+\s+(?:error|warning)\s{2,}|Code style issues found in",
        ),
    ],
};

/// Python, its test runners, type checkers, linters and pip.
const PYTHON: Family = Family {
    name: "python",
    toolchains: &["python", "pytest", "unittest", "mypy", "pyright", "ruff", "pip"],
    rows: &[
        Row(Resource, Decisive, Unnamed, r"MemoryError\b"),
        Row(Timeout, Decisive, Unnamed, r"Failed: Timeout \(?>[\d.]+s|^\+{5,} Timeout \+{5,}$"),
        Row(Timeout, Clear, Unnamed, r"^\s*(?:E\s+)?(?:asyncio\.(?:exceptions\.)?)?TimeoutError\b"),
        Row(Missing, Decisive, Python, r"No module named '?(?P<pkg>[\w.]+)'?"),
        Row(Missing, Decisive, Verbatim, r#"Hint: "python3 -m pip install (?P<pkg>types-[\w.-]+)""#),
        Row(Missing, Decisive, Unnamed, r#"Library stubs not installed for ""#),
        Row(
            Missing,
            Decisive,
            Python,
            r#"Cannot find implementation or library stub for module named "(?P<pkg>[^"]+)""#,
        ),
        Row(Missing, Decisive, Python, r#" - error: Import "(?P<pkg>[\w.]+)" could not be resolved"#),
        Row(Syntax, Decisive, Unnamed, r"^\s*(?:E\s+)?(?:SyntaxError|IndentationError|TabError)\b"),
        Row(Syntax, Decisive, Unnamed, r": error: .*\[syntax\]$|^ERROR: Invalid requirement: "),
        Row(
            Validation,
            Clear,
            Unnamed,
            r"^FAILED \S|^=+ .*\b\d+ failed\b|^E\s+assert\b|^ERROR \S+\.py\b|^ImportError: cannot import name|AssertionError",
        ),
        // unittest's summary and the head of each failure.
        Row(Validation, Clear, Unnamed, r"^FAILED \((?:failures|errors)=\d+|^(?:FAIL|ERROR): \w+ \("),
        // mypy, ruff, pyright.
        Row(
            Validation,
            Clear,
            Unnamed,
            r":\d+: error: .*  \[[\w-]+\]$|^Found \d+ errors? in \d+ files?|:\d+:\d+: [A-Z]{1,3}\d{3,4} |^Found \d+ errors?\.$|^\s*\S+:\d+:\d+ - error: ",
        ),
        Row(Validation, Hint, Unnamed, r"^\s*(?:E\s+)?(?:TypeError|AttributeError|KeyError|ValueError|NameError)\b"),
    ],
};

/// rustc, cargo and clippy.
const RUST: Family = Family {
    name: "rust",
    toolchains: &["rustc", "cargo", "clippy"],
    rows: &[
        // An import of the crate's own module: a code error, nothing to install.
        Row(Validation, Clear, Unnamed, r"^error\[E0432\]: unresolved import `(?:crate|self|super)\b"),
        Row(Network, Decisive, Unnamed, r"spurious network error"),
        Row(Missing, Decisive, Verbatim, r"^error\[E0432\]: unresolved import `(?P<pkg>\w+)`"),
        Row(
            Missing,
            Decisive,
            Verbatim,
            r"^error\[E0433\]: failed to resolve: use of (?:undeclared crate or module|unresolved module or unlinked crate) `(?P<pkg>\w+)`",
        ),
        Row(Missing, Decisive, Verbatim, r"use `cargo add (?P<pkg>[\w-]+)`"),
        Row(Missing, Decisive, Verbatim, r"can't find crate for `(?P<pkg>\w+)`"),
        Row(
            Syntax,
            Decisive,
            Unnamed,
            r"^error: (?:expected\b|unexpected closing delimiter|mismatched closing delimiter|this file contains an unclosed delimiter|unterminated |unknown start of token|unexpected token)",
        ),
        Row(
            Validation,
            Clear,
            Unnamed,
            r"^error\[E\d{4}\]|^test result: FAILED|^test \S+ \.\.\. FAILED$|assertion `left [!=]= right` failed|^assertion failed: |rust-clippy/master/index\.html#|implied by `-D warnings`",
        ),
        Row(Validation, Hint, Unnamed, r"^error: could not compile"),
    ],
};

/// The go command: build, vet, test, modules.
const GO: Family = Family {
    name: "go",
    toolchains: &["go"],
    rows: &[
        Row(Timeout, Decisive, Unnamed, r"panic: test timed out after"),
        Row(Timeout, Decisive, Unnamed, r"(?i)deadline exceeded|Client\.Timeout exceeded"),
        Row(Missing, Decisive, Verbatim, r"no required module provides package (?P<pkg>[^\s;]+)"),
        Row(Missing, Decisive, Verbatim, r"missing go\.sum entry for module providing package (?P<pkg>[^\s;]+)"),
        Row(Missing, Decisive, Verbatim, r#"cannot find package "(?P<pkg>[^"]+)""#),
        Row(Syntax, Decisive, Unnamed, r":\d+:\d+: syntax error: "),
        Row(Validation, Clear, Unnamed, r"^--- FAIL: |^vet: |^# \[[\w./-]+\]$|^FAIL\t\S+\t"),
        Row(Validation, Hint, Unnamed, r"^\S+\.go:\d+:\d+: "),
    ],
};

/// C and C++ compilers, the linker, make, CMake and CTest.
const C: Family = Family {
    name: "c",
    toolchains: &["gcc", "g++", "clang", "make", "cmake", "ctest"],
    rows: &[
        Row(Missing, Decisive, Unnamed, r"fatal error: [\w./+-]+: No such file or directory|cannot find -l\S+"),
        Row(
            Syntax,
            Decisive,
            Unnamed,
            r":\d+(?::\d+)?: (?:fatal )?error: (?:expected (?:['‘\x22]|\w+ or |(?:expression|identifier|declaration|statement|unqualified-id|primary-expression|initializer|specifier)\b)|stray\b|missing terminating\b|unterminated\b|extraneous closing brace)",
        ),
        Row(Validation, Clear, Unnamed, r"^\d+ errors? generated\.$|undefined reference to"),
        // CMake: a package find_package did not find, a parse error, any other error.
        Row(Missing, Decisive, Verbatim, r"Could NOT find (?P<pkg>[\w:+.-]+)"),
        Row(Missing, Decisive, Verbatim, r#"package configuration file provided by "(?P<pkg>[^"]+)""#),
        Row(Syntax, Decisive, Unnamed, r"^\s*Parse error\.\s"),
        Row(Validation, Clear, Unnamed, r"^CMake Error at \S+:\d+"),
        // CTest: a test out of time, a failed test, the summary.
        Row(Timeout, Decisive, Unnamed, r"^\s*\d+/\d+ Test +#\d+: \S+ \.+\*\*\*Timeout\b"),
        Row(
            Validation,
            Clear,
            Unnamed,
            r"\*\*\*Failed\b|\d+% tests passed, [1-9]\d* tests? failed out of \d+|^Errors while running CTest",
        ),
        Row(Validation, Hint, Unnamed, r"^make(?:\[\d+\])?: \*\*\* .*Error \d+"),
    ],
};

/// PostgreSQL, SQLite and MySQL clients.
const SQL: Family = Family {
    name: "sql",
    toolchains: &["psql", "sqlite3", "mysql"],
    rows: &[
        Row(Network, Decisive, Unnamed, r"(?i)can't connect to (?:local )?MySQL server"),
        Row(Timeout, Decisive, Unnamed, r"canceling statement due to statement timeout|Lock wait timeout exceeded"),
        Row(
            Syntax,
            Decisive,
            Unnamed,
            r"(?i)syntax error at or near|syntax error at end of input|ERROR 1064 \(42000\)|error in your SQL syntax|near \S+: syntax error|unrecognized token:",
        ),
        Row(
            Validation,
            Clear,
            Unnamed,
            r"constraint failed|violates (?:unique|foreign key|not-null|check|exclusion) constraint|Duplicate entry '.*' for key|a foreign key constraint fails|^ERROR \d{4} \(\w{5}\)|SQLITE_CONSTRAINT|no such (?:table|column):|ERROR:\s+(?:relation|column|function|type|schema) .* does not exist",
        ),
    ],
};

/// The JVM: javac, Maven (Surefire), Gradle, kotlinc, scalac and sbt.
const JVM: Family = Family {
    name: "jvm",
    toolchains: &["javac", "mvn", "gradle", "kotlinc", "scalac", "sbt"],
    rows: &[
        Row(
            Network,
            Decisive,
            Unnamed,
            r"\bUnknown host \S+|java\.net\.(?:UnknownHost|Connect|NoRouteToHost|SocketTimeout)Exception\b",
        ),
        Row(Resource, Decisive, Unnamed, r"OutOfMemoryError\b|JVM heap space is exhausted|GC overhead limit exceeded"),
        // javac (alone, `File.java:12: error:`, or under Maven, `File.java:[12,5]`).
        Row(Missing, Decisive, Verbatim, r"\bpackage (?P<pkg>[a-z_]\w*(?:\.\w+)+) does not exist$"),
        Row(
            Syntax,
            Decisive,
            Unnamed,
            r"\.java:(?:\d+: error:|\[\d+,\d+\]) (?:.*\bexpected$|illegal start of |reached end of file while parsing|unclosed (?:string|character|comment)|not a statement$)",
        ),
        Row(Validation, Clear, Unnamed, r"\.java:(?:\d+: error:|\[\d+,\d+\]) |^\[ERROR\] COMPILATION ERROR"),
        // kotlinc: every parse error starts `Expecting`.
        Row(Syntax, Decisive, Unnamed, r"^e: (?:file://)?\S+:\d+:\d+ .*\bExpecting\b"),
        Row(
            Validation,
            Clear,
            Unnamed,
            r"^e: (?:file://)?\S+:\d+:\d+ |^\s*> Compilation error\. See log for more details",
        ),
        // scalac 3 and sbt.
        Row(Syntax, Decisive, Unnamed, r"-- \[E\d{3}\] Syntax Error: "),
        Row(
            Validation,
            Clear,
            Unnamed,
            r"-- \[E\d{3}\] [\w ]+Error: |\(Compile / compileIncremental\) Compilation failed",
        ),
        Row(
            Validation,
            Clear,
            Unnamed,
            r"^\[info\] \*\*\* [1-9]\d* TESTS? FAILED \*\*\*|^\[error\] Failed tests:|sbt\.TestsFailedException",
        ),
        // Maven Surefire and Gradle's test task.
        Row(
            Validation,
            Clear,
            Unnamed,
            r"Tests run: \d+, Failures: (?:[1-9]\d*, Errors: \d+|\d+, Errors: [1-9]\d*)|<<< (?:FAILURE|ERROR)!|There are test failures",
        ),
        Row(
            Validation,
            Clear,
            Unnamed,
            r"^\d+ tests completed, [1-9]\d* failed|There were failing tests|^\S+ > .+ FAILED$",
        ),
    ],
};

/// .NET: MSBuild's compiler diagnostics, NuGet's restore, `dotnet test`.
const DOTNET: Family = Family {
    name: "dotnet",
    toolchains: &["dotnet"],
    rows: &[
        Row(Network, Decisive, Unnamed, r"error NU1301: |Unable to load the service index for source"),
        // A C# parse error names what it expected (`; expected`, `} expected`).
        Row(
            Syntax,
            Decisive,
            Unnamed,
            r"error CS\d{4}: (?:\S+|Identifier|Type) expected\b|error CS\d{4}: Syntax error, ",
        ),
        Row(Validation, Clear, Unnamed, r"error (?:CS|FS|BC)\d{4,5}: "),
        Row(Validation, Clear, Unnamed, r"^Failed!\s+- Failed:\s+[1-9]|^\s+Failed \S+ \[\d+ m?s\]$|\[FAIL\]$"),
    ],
};

/// Swift: the compiler, SwiftPM, XCTest.
const SWIFT: Family = Family {
    name: "swift",
    toolchains: &["swift"],
    rows: &[
        Row(Missing, Decisive, Verbatim, r"error: no such module '(?P<pkg>[^']+)'"),
        Row(Syntax, Decisive, Unnamed, r"\.swift:\d+:\d+: error: expected\b"),
        Row(
            Validation,
            Clear,
            Unnamed,
            r"Executed \d+ tests?, with [1-9]\d* failures?|^Test Case '.+' failed \(|: error: \S+ : XCT\w+ failed",
        ),
    ],
};

/// Elixir, Mix and ExUnit.
const BEAM: Family = Family {
    name: "beam",
    toolchains: &["elixir", "mix", "exunit"],
    rows: &[
        Row(Missing, Decisive, Verbatim, r"^\* (?P<pkg>\w+) \(Hex package\)$"),
        Row(
            Missing,
            Decisive,
            Unnamed,
            r"^Unchecked dependencies for environment |the dependency is not available, run ",
        ),
        Row(Syntax, Decisive, Unnamed, r"\*\* \(SyntaxError\) "),
        Row(Validation, Clear, Unnamed, r"^== Compilation error in file |\*\* \(CompileError\) "),
        Row(Validation, Clear, Unnamed, r"^(?:\d+ (?:doctests?|properties|tests?), )+[1-9]\d* failures?\b"),
    ],
};

/// GHC, cabal and stack (with hspec).
const HASKELL: Family = Family {
    name: "haskell",
    toolchains: &["ghc", "cabal", "stack"],
    rows: &[
        Row(Missing, Decisive, Verbatim, r"Perhaps you need to add ‘(?P<pkg>[^’]+)’ to the build-depends"),
        // The module does not say its package.
        Row(Missing, Decisive, Unnamed, r"Could not (?:find|load) module ‘"),
        Row(
            Syntax,
            Decisive,
            Unnamed,
            r"error: \[GHC-58481\]|^\s*parse error (?:on input|\(possibly incorrect indentation)",
        ),
        Row(Validation, Clear, Unnamed, r"^\S+\.hs:\d+:\d+: error:"),
        Row(Validation, Clear, Unnamed, r"^\d+ examples?, [1-9]\d* failures?|Test suite \S+ failed$"),
    ],
};

/// Terraform's diagnostics, each boxed (`│ Error: ...`).
const TERRAFORM: Family = Family {
    name: "terraform",
    toolchains: &["terraform"],
    rows: &[
        Row(Missing, Decisive, Verbatim, r"requires provider (?:registry\.terraform\.io/)?(?P<pkg>[\w-]+/[\w-]+)"),
        Row(Missing, Decisive, Unnamed, r"^│ Error: Missing required provider$"),
        Row(Syntax, Decisive, Unnamed, r"^│ Error: Argument or block definition required$"),
        Row(Validation, Clear, Unnamed, r"^│ Error: "),
    ],
};

/// PHP, PHPUnit, Composer and PHPStan.
const PHP: Family = Family {
    name: "php",
    toolchains: &["php", "phpunit", "composer", "phpstan"],
    rows: &[
        Row(Network, Decisive, Unnamed, r"curl error \d+ while downloading "),
        Row(
            Missing,
            Decisive,
            Verbatim,
            r"requires PHP extension (?P<pkg>ext-\w+) \S+ but it is missing from your system",
        ),
        Row(Syntax, Decisive, Unnamed, r"PHP Parse error: |^Parse error: |^Errors parsing "),
        Row(
            Validation,
            Clear,
            Unnamed,
            r"^(?:FAILURES|ERRORS)!$|^Tests: \d+, Assertions: \d+, (?:Errors|Failures): [1-9]|^\s*\[ERROR\] Found \d+ errors?",
        ),
    ],
};

/// Ruby, Bundler, RSpec, minitest and RuboCop.
const RUBY: Family = Family {
    name: "ruby",
    toolchains: &["ruby", "bundler", "rspec", "minitest", "rubocop"],
    rows: &[
        Row(Missing, Decisive, Segment, r"cannot load such file -- (?P<pkg>[\w./-]+)"),
        Row(Missing, Decisive, Verbatim, r"Could not find gem '(?P<pkg>[\w.-]+)"),
        Row(Syntax, Decisive, Unnamed, r"\.rb:\d+: syntax error, "),
        Row(Validation, Clear, Unnamed, r"^\d+ examples?, [1-9]\d* failures?|^rspec \./\S+:\d+ # |^\s*Failure/Error: "),
        Row(
            Validation,
            Clear,
            Unnamed,
            r"^\d+ runs, \d+ assertions, (?:[1-9]\d* failures|\d+ failures, [1-9]\d* errors)|^Failure:$",
        ),
        Row(Validation, Clear, Unnamed, r"^\d+ files? inspected, [1-9]\d* offenses? detected"),
    ],
};

/// Dart and Flutter: the analyzer (`error - file:line:col - message - code`),
/// the compiler, `dart test` and `flutter test`.
const DART: Family = Family {
    name: "dart",
    toolchains: &["dart", "flutter"],
    rows: &[
        Row(Missing, Decisive, Verbatim, r"Target of URI doesn't exist: 'package:(?P<pkg>\w+)/"),
        Row(Syntax, Decisive, Unnamed, r"^\s*error - \S+:\d+:\d+ - .* - expected_token$"),
        Row(Validation, Clear, Unnamed, r"^\s*error - \S+:\d+:\d+ - |^\d+ issues? found\.|^\S+\.dart:\d+:\d+: Error: "),
        Row(
            Validation,
            Clear,
            Unnamed,
            r"^\d\d:\d\d \+\d+(?: ~\d+)? -\d+: Some tests failed\.|^\d\d:\d\d \+\d+.* \[E\]$",
        ),
    ],
};

/// YAML parsers: yamllint, PyYAML, js-yaml.
const YAML: Family = Family {
    name: "yaml",
    toolchains: &["yamllint", "pyyaml", "js-yaml"],
    rows: &[
        Row(Syntax, Decisive, Unnamed, r"^\s+\d+:\d+\s+error\s+syntax error: .*\(syntax\)$"),
        Row(Syntax, Decisive, Unnamed, r"^yaml\.\w+\.\w+Error: |^YAMLException: "),
        Row(Validation, Clear, Unnamed, r"^\s+\d+:\d+\s+(?:error|warning)\s+.*\s\([\w-]+\)$"),
    ],
};

/// How a command's words make it a test command.
#[derive(Debug, Clone, Copy)]
pub(super) enum Words {
    /// The program alone (`pytest`, `rspec`, `ctest`).
    Any,
    /// Its first word that is not a flag (`cargo test`, `dotnet test`).
    First(&'static [&'static str]),
    /// Any of its words that are not flags, a goal or task among others
    /// (`mvn clean verify`, `./gradlew :app:test`, `make check`).
    Goal(&'static [&'static str]),
    /// A package script, by itself or through `run` (`npm test`, `yarn run test:unit`).
    Script(&'static [&'static str]),
    /// A flag (`node --test`).
    Flag(&'static [&'static str]),
}

/// The commands whose failure is a failed validation: test runners, and the
/// type checkers and linters a task's validation runs. A word matches a
/// name when it is the name, or the name with a suffix after `:` (`test:unit`)
/// or a prefix before one (`:app:test`, `surefire:test`).
pub(super) const TEST_COMMANDS: &[(&str, Words)] = &[
    ("cargo", Words::First(&["test", "nextest", "clippy"])),
    ("pytest", Words::Any),
    ("py.test", Words::Any),
    ("unittest", Words::Any),
    ("tox", Words::Any),
    ("nox", Words::Any),
    ("manage.py", Words::First(&["test"])),
    ("mypy", Words::Any),
    ("pyright", Words::Any),
    ("ruff", Words::First(&["check"])),
    ("flake8", Words::Any),
    ("pylint", Words::Any),
    ("go", Words::First(&["test", "vet"])),
    ("golangci-lint", Words::First(&["run"])),
    ("npm", Words::Script(&["test"])),
    ("pnpm", Words::Script(&["test"])),
    ("yarn", Words::Script(&["test"])),
    ("bun", Words::Script(&["test"])),
    ("jest", Words::Any),
    ("vitest", Words::Any),
    ("mocha", Words::Any),
    ("ava", Words::Any),
    ("playwright", Words::First(&["test"])),
    ("cypress", Words::First(&["run"])),
    ("node", Words::Flag(&["--test"])),
    ("deno", Words::First(&["test", "check", "lint"])),
    ("tsc", Words::Any),
    ("eslint", Words::Any),
    ("mvn", Words::Goal(&["test", "verify", "integration-test"])),
    ("gradle", Words::Goal(&["test", "check"])),
    ("sbt", Words::Goal(&["test", "testOnly", "testQuick"])),
    ("ant", Words::Goal(&["test"])),
    ("dotnet", Words::First(&["test"])),
    ("swift", Words::First(&["test"])),
    ("xcodebuild", Words::Goal(&["test"])),
    ("mix", Words::First(&["test"])),
    ("stack", Words::First(&["test"])),
    ("cabal", Words::First(&["test"])),
    ("terraform", Words::First(&["validate"])),
    ("tflint", Words::Any),
    ("phpunit", Words::Any),
    ("pest", Words::Any),
    ("phpstan", Words::Any),
    ("artisan", Words::First(&["test"])),
    ("composer", Words::First(&["test"])),
    ("rspec", Words::Any),
    ("rake", Words::Goal(&["test", "spec"])),
    ("rails", Words::First(&["test"])),
    ("rubocop", Words::Any),
    ("ctest", Words::Any),
    ("make", Words::Goal(&["test", "check", "tests"])),
    ("ninja", Words::Goal(&["test"])),
    ("meson", Words::First(&["test"])),
    ("dart", Words::First(&["test", "analyze"])),
    ("flutter", Words::First(&["test", "analyze"])),
    ("shellcheck", Words::Any),
    ("bats", Words::Any),
    ("yamllint", Words::Any),
];

/// Words before the program that only run it: dropped, with a wrapper's
/// own program word (`bundle exec`, `npx`, `python -m`).
const WRAPPERS: &[&[&str]] = &[
    &["env"],
    &["time"],
    &["nice"],
    &["xvfb-run"],
    &["npx"],
    &["pnpx"],
    &["bunx"],
    &["npm", "exec"],
    &["pnpm", "exec"],
    &["yarn", "exec"],
    &["bundle", "exec"],
    &["poetry", "run"],
    &["uv", "run"],
    &["pipenv", "run"],
    &["pdm", "run"],
    &["python", "-m"],
];

/// Other names of a program.
const ALIASES: &[(&str, &str)] = &[("gradlew", "gradle"), ("mvnw", "mvn"), ("python3", "python"), ("py", "python")];

/// Interpreters that, given a script, run the script: the script is the
/// program (`python manage.py test`, `php artisan test`, `bash -c 'npm test'`).
const INTERPRETERS: &[&str] = &["python", "php", "ruby", "node", "bash", "sh"];

/// Whether a command runs a test command of [`TEST_COMMANDS`]: any of its
/// parts between `&&`, `||`, `;`, `|` and `&` does (quotes are not parsed,
/// only dropped from words).
pub(super) fn is_test_command(command: &str) -> bool {
    any_part(command, |program, rest| TEST_COMMANDS.iter().any(|(p, w)| *p == program && matches(*w, rest)))
}

/// Whether `test` holds for the program and the words after it of any part
/// of a command between `&&`, `||`, `;`, `|` and `&`.
pub(super) fn any_part(command: &str, test: impl Fn(&str, &[&str]) -> bool) -> bool {
    command.split(['&', '|', ';']).any(|part| {
        let words: Vec<&str> = part.split_whitespace().map(|w| w.trim_matches(['\'', '"'])).collect();
        let (program, rest) = program(&words);
        test(program, rest)
    })
}

/// The program a part runs, named as [`TEST_COMMANDS`] names it, and its
/// words after it.
fn program<'a, 'w>(mut words: &'a [&'w str]) -> (&'w str, &'a [&'w str]) {
    // Environment assignments, then wrappers (`timeout` with its duration).
    while let Some((first, rest)) = words.split_first() {
        let name = normalise(first);
        if first.contains('=') && !first.starts_with('-') {
            words = rest;
        } else if name == "timeout" {
            words = rest.iter().position(|w| !w.starts_with('-')).map_or(&[], |i| &rest[i + 1..]);
        } else if let Some(w) = WRAPPERS
            .iter()
            .find(|w| w[0] == name && w[1..].iter().enumerate().all(|(i, x)| rest.get(i).is_some_and(|r| r == x)))
        {
            words = &rest[w.len() - 1..];
        } else {
            break;
        }
    }
    let Some((first, mut rest)) = words.split_first() else { return ("", &[]) };
    let mut name = normalise(first);
    if INTERPRETERS.contains(&name)
        && let Some(i) = rest.iter().position(|w| !w.starts_with('-'))
    {
        name = normalise(rest[i]);
        rest = &rest[i + 1..];
    }
    (name, rest)
}

/// A program's name without its folder and by its usual name
/// (`./gradlew` → `gradle`, `vendor/bin/phpunit` → `phpunit`).
fn normalise(word: &str) -> &str {
    let base = word.rsplit('/').next().unwrap_or(word);
    ALIASES.iter().find(|(a, _)| *a == base).map_or(base, |(_, n)| n)
}

fn matches(words: Words, rest: &[&str]) -> bool {
    let named = |w: &str, names: &[&str]| {
        names.iter().any(|n| {
            w == *n
                || w.strip_prefix(n).is_some_and(|s| s.starts_with(':'))
                || w.strip_suffix(n).is_some_and(|s| s.ends_with(':'))
        })
    };
    let mut positional = rest.iter().copied().take_while(|w| *w != "--").filter(|w| !w.starts_with(['-', '+']));
    match words {
        Words::Any => true,
        Words::First(names) => positional.next().is_some_and(|w| named(w, names)),
        Words::Goal(names) => positional.any(|w| named(w, names)),
        Words::Script(names) => match positional.next() {
            Some("run" | "run-script") => positional.next().is_some_and(|w| named(w, names)),
            Some(w) => named(w, names),
            None => false,
        },
        Words::Flag(flags) => rest.iter().any(|w| flags.contains(w)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_commands_are_recognised_by_program_and_subcommand() {
        for (command, want) in [
            ("cargo test", true),
            ("cargo test -p phasegate-core", true),
            ("cargo +nightly nextest run", true),
            ("cargo build", false),
            ("cargo run -- test", false),
            ("pytest", true),
            ("python -m pytest -x tests/", true),
            ("python3 -m unittest discover", true),
            ("uv run pytest", true),
            ("poetry run python -m pytest", true),
            ("python manage.py test orders", true),
            ("python manage.py migrate", false),
            ("python scripts/seed.py", false),
            ("go test ./...", true),
            ("go build ./...", false),
            ("npm test", true),
            ("npm run test", true),
            ("npm run test:unit", true),
            ("npm run build", false),
            ("npm install", false),
            ("yarn test", true),
            ("pnpm test", true),
            ("bun test", true),
            ("npx jest --ci", true),
            ("npx vitest run", true),
            ("mocha", true),
            ("npx playwright test", true),
            ("npx playwright install", false),
            ("node --test", true),
            ("node server.js", false),
            ("mvn test", true),
            ("mvn -B clean verify", true),
            ("./mvnw package", false),
            ("gradle test", true),
            ("./gradlew :app:test", true),
            ("./gradlew build", false),
            ("sbt test", true),
            ("dotnet test", true),
            ("dotnet build", false),
            ("swift test", true),
            ("swift build", false),
            ("mix test", true),
            ("mix compile", false),
            ("rspec", true),
            ("bundle exec rspec spec/models", true),
            ("bundle exec rake test", true),
            ("bin/rails test", true),
            ("phpunit", true),
            ("vendor/bin/phpunit --testdox", true),
            ("php artisan test", true),
            ("composer install", false),
            ("ctest --output-on-failure", true),
            ("make test", true),
            ("make check", true),
            ("make", false),
            ("cd shop && make test", true),
            ("npm ci && npm test", true),
            ("dart test", true),
            ("flutter test", true),
            ("stack test", true),
            ("cabal test", true),
            ("terraform validate", true),
            ("terraform apply", false),
            ("CI=1 timeout 300 npm test", true),
            ("env RUST_LOG=debug cargo test", true),
            ("pytest | tee test.log", true),
            ("bash -c 'cd web && npm test'", true),
            ("sh -c \"npm run lint\"", false),
            ("./run-tests.sh", false),
            ("./scripts/build-assets.sh", false),
            ("", false),
        ] {
            assert_eq!(is_test_command(command), want, "{command:?}");
        }
    }

    #[test]
    fn the_table_names_every_toolchain_once_per_family() {
        for f in FAMILIES {
            let mut seen = std::collections::BTreeSet::new();
            assert!(f.toolchains.iter().all(|t| seen.insert(*t)), "{} names a toolchain twice", f.name);
            assert!(!f.rows.is_empty(), "{} has no rows", f.name);
        }
    }
}
