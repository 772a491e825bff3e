//! Build decisions (seed 004 §5.3, the Build Agent) for the tasks of an
//! orchestrated implement: a failed task's error classified from its
//! validation output and the seed's rule for it (retry, install and retry,
//! rebase and retry, skip, escalate); whether the build goes on (more than 3
//! failed tasks, a failed database task, the time limit of 2 hours, a stop
//! request); and the seed's layer order (§4.3: database, types, queries,
//! api, ui, tests). Pure.
//!
//! Classification weighs evidence line by line: each line of the output
//! counts for at most one class, through the first rule of [`RULES`] that
//! matches it, with that rule's strength. The class with the strongest
//! evidence wins; on a tie, the order of [`Class`] decides (a conflict or a
//! missing package explains the errors that follow from it). A test runner's
//! summary is clear evidence of a failed validation, and words such as
//! "syntax" or "timeout" anywhere in a line are only hints, so a test that
//! quotes them stays a failed test.

use std::borrow::Cow;
use std::sync::LazyLock;

use chrono::Duration;
use regex::Regex;
use serde::Serialize;

use super::list::{Layer, Mark, Task, layer};

/// Seed 004 §5.3: "Too many failures (>3)".
pub const MAX_FAILED_TASKS: usize = 3;
/// Seed 004 §5.3: "Time limit exceeded (2 hours)".
pub const DEFAULT_TIME_LIMIT_MINUTES: i64 = 120;
/// Seed 004 §5.3: a syntax error is retried while `task.attempts < 3`.
pub const SYNTAX_RETRIES: u32 = 3;
/// Seed 004 §5.3: a failed validation is retried while `task.attempts < 2`.
pub const VALIDATION_RETRIES: u32 = 2;
/// A network error or a timeout is retried while `task.attempts < 2`, then
/// escalated (ours: the seed has no such classes; both are usually gone on
/// the next run, and a second failure says they are not).
pub const TRANSIENT_RETRIES: u32 = 2;

/// How much of an output is read: its first and its last 64 KiB (a tool
/// names its error at the start or in its summary at the end).
const SCAN_HEAD: usize = 64 * 1024;
const SCAN_TAIL: usize = 64 * 1024;

/// The seed's classes of a failed task's error, and three of ours that it
/// calls unknown: `NETWORK` (refused, unreachable, a name not resolved),
/// `TIMEOUT` (a test, a statement or a request out of time) and `RESOURCE`
/// (the machine out of memory, disk space, file handles or processes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE", tag = "type")]
pub enum ErrorType {
    SyntaxError,
    MissingDependency { package: Option<String> },
    Conflict,
    ValidationFailed,
    Network,
    Timeout,
    Resource,
    Other,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum BuildAction {
    Retry,
    InstallAndRetry,
    RebaseAndRetry,
    Skip,
    Escalate,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FailureDecision {
    pub action: BuildAction,
    pub reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
}

/// The classes evidence can point to, in the order that breaks a tie in
/// strength: the cause before the errors it causes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Conflict,
    Resource,
    Missing,
    Syntax,
    Timeout,
    Network,
    Validation,
}

const CLASSES: usize = 7;

/// How much one line says about its class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    /// A word that may as well be quoted ("syntax error", "timed out").
    Hint,
    /// A tool's summary or a telling phrase (jest's `Tests: 1 failed`).
    Clear,
    /// A tool's own error code or sentence (`error TS1005`, `CONFLICT (content)`).
    Decisive,
}

/// How the `pkg` group of a missing-dependency rule becomes a package name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Naming {
    /// The rule names no package.
    Unnamed,
    /// An npm specifier: `lodash/fp` → `lodash`, `@scope/a/b` → `@scope/a`.
    Npm,
    /// The module lacks its type declarations: `express` → `@types/express`.
    Types,
    /// A dotted module: `google.protobuf` → `google`.
    Python,
    /// A Go package path or a Rust crate, as written.
    Verbatim,
}

use Class::{Conflict, Missing, Network, Resource, Syntax, Timeout, Validation};
use Naming::{Npm, Python, Types, Unnamed, Verbatim};
use Strength::{Clear, Decisive, Hint};

/// The evidence, most specific first: the first rule that matches a line is
/// the only one that counts for it.
const RULES: &[(Class, Strength, Naming, &str)] = &[
    // Lines that look like one class and are another.
    (Validation, Clear, Unnamed, r"SyntaxError: .*\bJSON\b|SyntaxError: Invalid regular expression"),
    (Validation, Clear, Unnamed, r"^error\[E0432\]: unresolved import `(?:crate|self|super)\b"),
    (
        Network,
        Decisive,
        Unnamed,
        r"ReadTimeoutError|ConnectTimeoutError|NewConnectionError|requests\.exceptions\.ConnectionError|dial tcp\b.*: (?:i/o timeout|lookup |connect: )",
    ),
    (Network, Decisive, Unnamed, r"(?i)connection timed out|\bETIMEDOUT\b"),
    // git, and the markers it leaves in files.
    (Conflict, Decisive, Unnamed, r"^CONFLICT \([\w/ ]+\): |Automatic merge failed; fix conflicts"),
    (
        Conflict,
        Decisive,
        Unnamed,
        r"^(?:error: )?[Cc]ould not apply [0-9a-f]{7,}\.\.\.|^hint: Resolve all conflicts manually",
    ),
    (
        Conflict,
        Decisive,
        Unnamed,
        r"is not possible because you have unmerged files|you need to resolve your current index first|: needs merge$",
    ),
    (Conflict, Decisive, Unnamed, r"would be overwritten by (?:merge|checkout|rebase)"),
    (Conflict, Decisive, Unnamed, r"error TS1185:|encountered diff marker|(?:^|[\s|>])<{7}(?: |$)"),
    (Conflict, Clear, Unnamed, r"(?i)\bmerge conflict\b"),
    // The machine ran out of something.
    (
        Resource,
        Decisive,
        Unnamed,
        r"(?i)heap out of memory|allocation failed|out of memory|cannot allocate memory|\bENOMEM\b|std::bad_alloc|memory allocation of \d+ bytes failed|unable to allocate [\d.]+ [KMGTP]i?B|OOMKilled|oom-kill",
    ),
    (Resource, Decisive, Unnamed, r"MemoryError\b"),
    (Resource, Decisive, Unnamed, r"(?i)no space left on device|\bENOSPC\b|disk quota exceeded|\bEDQUOT\b"),
    (Resource, Decisive, Unnamed, r"(?i)too many open files|\bE[MN]FILE\b"),
    (
        Resource,
        Decisive,
        Unnamed,
        r"Killed signal terminated program|signal: 9, SIGKILL|signal: killed|terminated by signal SIGKILL|exit code 137\b",
    ),
    (Resource, Clear, Unnamed, r"^Killed$|: \d+ Killed\b|\bKilled {2,}\S"),
    (Resource, Clear, Unnamed, r"(?i)resource temporarily unavailable|\bEAGAIN\b"),
    // Out of time.
    (
        Timeout,
        Decisive,
        Unnamed,
        r"Exceeded timeout of \d+ ?ms|(?:Test|Hook) timed out in \d+ ?ms|[Tt]imeout of \d+ ?ms exceeded|[Tt]imeout \d+ ?ms exceeded",
    ),
    (Timeout, Decisive, Unnamed, r"Failed: Timeout \(?>[\d.]+s|^\+{5,} Timeout \+{5,}$|panic: test timed out after"),
    (Timeout, Decisive, Unnamed, r"(?i)deadline exceeded|Client\.Timeout exceeded"),
    (Timeout, Decisive, Unnamed, r"canceling statement due to statement timeout|Lock wait timeout exceeded"),
    (Timeout, Clear, Unnamed, r"^\s*(?:E\s+)?(?:asyncio\.(?:exceptions\.)?)?TimeoutError\b"),
    // The network.
    (
        Network,
        Decisive,
        Unnamed,
        r"\b(?:ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH|ECONNABORTED|ESOCKETTIMEDOUT|ERR_SOCKET_TIMEOUT)\b|\bgetaddrinfo\b",
    ),
    (
        Network,
        Decisive,
        Unnamed,
        r"(?i)could(?: not|n't) resolve host|connection refused|connection reset by peer|network is unreachable|no route to host|temporary failure in name resolution|name or service not known|failed to establish a new connection|socket hang up|failed to connect to \S+ port \d+|can't connect to (?:local )?MySQL server",
    ),
    (
        Network,
        Decisive,
        Unnamed,
        r"^npm (?:ERR!|error) network |trouble with your network connection|spurious network error",
    ),
    (
        Network,
        Clear,
        Unnamed,
        r"(?i)\bfetch failed\b|certificate verify failed|unable to get local issuer certificate|self[- ]signed certificate|\b(?:502 Bad Gateway|503 Service Unavailable|504 Gateway Time-?out)\b",
    ),
    // A package, a crate, a module, a header or a command is missing.
    (Missing, Decisive, Types, r"error TS7016: Could not find a declaration file for module '(?P<pkg>[^']+)'"),
    (Missing, Decisive, Npm, r"Cannot find (?:module|package) '(?P<pkg>[^']+)'"),
    (Missing, Decisive, Npm, r#"[Ff]ailed to resolve (?:import |entry for package )?["'](?P<pkg>[^"']+)["']"#),
    (Missing, Decisive, Npm, r"Can't resolve '(?P<pkg>[^']+)'"),
    (Missing, Decisive, Npm, r#"Could not resolve ["'](?P<pkg>[^"']+)["']"#),
    (
        Missing,
        Decisive,
        Npm,
        r"Your application tried to access (?P<pkg>[@\w./-]+), but it isn't declared in your dependencies",
    ),
    (Missing, Decisive, Python, r"No module named '?(?P<pkg>[\w.]+)'?"),
    (Missing, Decisive, Verbatim, r#"Hint: "python3 -m pip install (?P<pkg>types-[\w.-]+)""#),
    (Missing, Decisive, Unnamed, r#"Library stubs not installed for ""#),
    (Missing, Decisive, Python, r#"Cannot find implementation or library stub for module named "(?P<pkg>[^"]+)""#),
    (Missing, Decisive, Verbatim, r"^error\[E0432\]: unresolved import `(?P<pkg>\w+)`"),
    (
        Missing,
        Decisive,
        Verbatim,
        r"^error\[E0433\]: failed to resolve: use of (?:undeclared crate or module|unresolved module or unlinked crate) `(?P<pkg>\w+)`",
    ),
    (Missing, Decisive, Verbatim, r"use `cargo add (?P<pkg>[\w-]+)`"),
    (Missing, Decisive, Verbatim, r"can't find crate for `(?P<pkg>\w+)`"),
    (Missing, Decisive, Verbatim, r"no required module provides package (?P<pkg>[^\s;]+)"),
    (Missing, Decisive, Verbatim, r"missing go\.sum entry for module providing package (?P<pkg>[^\s;]+)"),
    (Missing, Decisive, Verbatim, r#"cannot find package "(?P<pkg>[^"]+)""#),
    (Missing, Decisive, Unnamed, r"fatal error: [\w./+-]+: No such file or directory|cannot find -l\S+"),
    (
        Missing,
        Decisive,
        Unnamed,
        r"^(?:/bin/)?(?:ba|da|z)?sh: (?:line )?\d+: [\w.-]+: (?:command )?not found|command not found: \S+|^[\w.-]+: command not found",
    ),
    (Missing, Hint, Unnamed, r"(?i)\bMODULE_NOT_FOUND\b|\bmodule not found\b"),
    // The code does not parse.
    (Syntax, Decisive, Unnamed, r"error TS1(?:0\d\d|1[0-6]\d):"),
    (Syntax, Decisive, Unnamed, r"^\s*(?:E\s+)?(?:Uncaught )?(?:SyntaxError|IndentationError|TabError)\b"),
    (Syntax, Decisive, Unnamed, r"\bParsing error: |: SyntaxError: |: error: .*\[syntax\]$"),
    (
        Syntax,
        Decisive,
        Unnamed,
        r"^error: (?:expected\b|unexpected closing delimiter|mismatched closing delimiter|this file contains an unclosed delimiter|unterminated |unknown start of token|unexpected token)",
    ),
    (
        Syntax,
        Decisive,
        Unnamed,
        r":\d+(?::\d+)?: (?:fatal )?error: (?:expected\b|stray\b|missing terminating\b|unterminated\b|extraneous closing brace)",
    ),
    (
        Syntax,
        Decisive,
        Unnamed,
        r":\d+:\d+: syntax error: |syntax error near unexpected token|syntax error: unexpected end of file",
    ),
    (
        Syntax,
        Decisive,
        Unnamed,
        r"(?i)syntax error at or near|syntax error at end of input|ERROR 1064 \(42000\)|error in your SQL syntax|near \S+: syntax error|unrecognized token:",
    ),
    (
        Syntax,
        Decisive,
        Unnamed,
        r"✘ \[ERROR\] (?:Expected|Unexpected|Unterminated)|: ERROR: (?:Expected|Unexpected|Unterminated)",
    ),
    (Syntax, Clear, Unnamed, r"Jest encountered an unexpected token|Jest failed to parse a file"),
    // The code parses and does the wrong thing: type checkers, linters, tests, constraints.
    (Validation, Clear, Unnamed, r"error TS\d{4,5}:"),
    (
        Validation,
        Clear,
        Unnamed,
        r"^✖ \d+ problems? \(|^\s+\d+:\d+\s+(?:error|warning)\s{2,}|Code style issues found in",
    ),
    (
        Validation,
        Clear,
        Unnamed,
        r"^\s*FAIL\s+\S|^FAIL$|^Tests:\s+\d+ failed|^Test Suites:\s+\d+ failed|^\s*● |^\s*Test Files\s+\d+ failed|^\s*Tests\s+\d+ failed|expect\(received\)|^\s*\d+ failing$|AssertionError",
    ),
    (
        Validation,
        Clear,
        Unnamed,
        r"^FAILED \S|^=+ .*\b\d+ failed\b|^E\s+assert\b|^ERROR \S+\.py\b|^ImportError: cannot import name",
    ),
    (
        Validation,
        Clear,
        Unnamed,
        r":\d+: error: .*  \[[\w-]+\]$|^Found \d+ errors? in \d+ files?|:\d+:\d+: [A-Z]{1,3}\d{3,4} |^Found \d+ errors?\.$",
    ),
    (
        Validation,
        Clear,
        Unnamed,
        r"^error\[E\d{4}\]|^test result: FAILED|^test \S+ \.\.\. FAILED$|assertion `left [!=]= right` failed|^assertion failed: |rust-clippy/master/index\.html#|implied by `-D warnings`",
    ),
    (Validation, Clear, Unnamed, r"^--- FAIL: |^vet: |^# \[[\w./-]+\]$"),
    (Validation, Clear, Unnamed, r":\d+:\d+: (?:fatal )?error: |^\d+ errors? generated\.$|undefined reference to"),
    (
        Validation,
        Clear,
        Unnamed,
        r"constraint failed|violates (?:unique|foreign key|not-null|check|exclusion) constraint|Duplicate entry '.*' for key|a foreign key constraint fails|^ERROR \d{4} \(\w{5}\)|SQLITE_CONSTRAINT|no such (?:table|column):|ERROR:\s+(?:relation|column|function|type|schema) .* does not exist",
    ),
    (
        Validation,
        Hint,
        Unnamed,
        r"^\S+\.go:\d+:\d+: |^error: could not compile|^make(?:\[\d+\])?: \*\*\* .*Error \d+|\b\d+ (?:failed|failing)\b|(?i)\btests? failed\b",
    ),
    (
        Validation,
        Hint,
        Unnamed,
        r"^\s*(?:E\s+)?(?:TypeError|ReferenceError|AttributeError|KeyError|ValueError|NameError)\b",
    ),
    // Words that may as well be quoted.
    (
        Syntax,
        Hint,
        Unnamed,
        r"(?i)syntax ?error|unexpected token|unexpected end of (?:file|input)|parse error|invalid syntax|unterminated",
    ),
    (Timeout, Hint, Unnamed, r"(?i)\btimed out\b|\btimeout\b"),
    (Network, Hint, Unnamed, r"(?i)\bnetwork error\b"),
];

/// Each rule compiled once. Lines are tried rule by rule rather than
/// through one `RegexSet`: alone, a rule is found by its own literal
/// prefilter, while a set of all of them defeats the lazy DFA (measured on
/// 128 KiB of tool output, release: 11 ms rule by rule, over 100 ms as a set).
static COMPILED: LazyLock<Vec<Regex>> =
    LazyLock::new(|| RULES.iter().map(|r| Regex::new(r.3).expect("compiles")).collect());
static ANSI: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\x1b\[[0-9;]*[A-Za-z]").expect("compiles"));

/// What an output says: for each class its strongest line, and the first
/// missing package it names.
struct Evidence<'a> {
    best: [Option<(Strength, &'a str)>; CLASSES],
    package: Option<String>,
}

impl<'a> Evidence<'a> {
    fn read(output: &'a str) -> Self {
        let mut evidence = Evidence { best: [None; CLASSES], package: None };
        for raw in scanned_lines(output) {
            let line = if raw.contains('\x1b') { ANSI.replace_all(raw, "") } else { Cow::Borrowed(raw) };
            let Some(i) = COMPILED.iter().position(|r| r.is_match(&line)) else { continue };
            let (mut class, mut strength, naming, _) = RULES[i];
            if naming != Unnamed {
                let named = COMPILED[i].captures(&line).and_then(|c| c.name("pkg")).map(|m| m.as_str().to_owned());
                match named {
                    // The project's own file: a code error, nothing to install.
                    Some(n) if is_path(&n) => (class, strength) = (Validation, Clear),
                    Some(n) if evidence.package.is_none() => evidence.package = package_name(naming, &n),
                    _ => {}
                }
            }
            let slot = &mut evidence.best[class as usize];
            if slot.is_none_or(|(s, _)| strength > s) {
                *slot = Some((strength, raw));
            }
        }
        evidence
    }

    /// The strongest class, ties going to the earlier one in [`Class`].
    fn verdict(&self) -> Option<Class> {
        const ALL: [Class; CLASSES] = [Conflict, Resource, Missing, Syntax, Timeout, Network, Validation];
        ALL.into_iter()
            .filter_map(|c| self.best[c as usize].map(|(s, _)| (s, c)))
            .fold(None, |won: Option<(Strength, Class)>, (s, c)| match won {
                Some((w, _)) if w >= s => won,
                _ => Some((s, c)),
            })
            .map(|(_, c)| c)
    }

    fn line(&self, class: Class) -> Option<&'a str> {
        self.best[class as usize].map(|(_, l)| l)
    }
}

/// The lines of the first and the last 64 KiB (all of them when the output
/// is smaller), cut at line ends.
fn scanned_lines(output: &str) -> impl Iterator<Item = &str> {
    let (head, tail) = if output.len() <= SCAN_HEAD + SCAN_TAIL {
        (output, "")
    } else {
        let bytes = output.as_bytes();
        let head_end = match bytes[..SCAN_HEAD].iter().rposition(|&b| b == b'\n') {
            Some(i) => i,
            None => (0..=SCAN_HEAD).rev().find(|&i| output.is_char_boundary(i)).unwrap_or(0),
        };
        let from = output.len() - SCAN_TAIL;
        let tail_start = match bytes[from..].iter().position(|&b| b == b'\n') {
            Some(i) => from + i + 1,
            None => (from..output.len()).find(|&i| output.is_char_boundary(i)).unwrap_or(output.len()),
        };
        (&output[..head_end], &output[tail_start..])
    };
    head.lines().chain(tail.lines())
}

/// A module that is a file of the project, not a package: `./x`, `../x`,
/// `/abs/x`, `~/x`, an alias `@/x`, a subpath import `#x`, `virtual:x`, `C:\x`.
fn is_path(name: &str) -> bool {
    name.starts_with(['.', '/', '~', '#', '\\']) || name.starts_with("@/") || name.contains(':')
}

fn package_name(naming: Naming, name: &str) -> Option<String> {
    let npm = |name: &str| -> Option<String> {
        let mut parts = name.split('/');
        let first = parts.next().filter(|p| !p.is_empty())?;
        match first.starts_with('@') {
            true => parts.next().map(|second| format!("{first}/{second}")),
            false => Some(first.to_owned()),
        }
    };
    match naming {
        Unnamed => None,
        Npm => npm(name),
        Types => npm(name).map(|n| match n.strip_prefix('@') {
            Some(scoped) => format!("@types/{}", scoped.replace('/', "__")),
            None => format!("@types/{n}"),
        }),
        Python => name.split('.').next().filter(|p| !p.is_empty()).map(str::to_owned),
        Verbatim => Some(name.to_owned()),
    }
}

/// The seed's `classify_error`, from a task's validation output: the class
/// with the strongest evidence (see the module's documentation), `Other`
/// when no line speaks for any.
pub fn classify(output: &str) -> ErrorType {
    let evidence = Evidence::read(output);
    match evidence.verdict() {
        None => ErrorType::Other,
        Some(Conflict) => ErrorType::Conflict,
        Some(Resource) => ErrorType::Resource,
        Some(Missing) => ErrorType::MissingDependency { package: evidence.package },
        Some(Syntax) => ErrorType::SyntaxError,
        Some(Timeout) => ErrorType::Timeout,
        Some(Network) => ErrorType::Network,
        Some(Validation) => ErrorType::ValidationFailed,
    }
}

/// The seed's `handle_task_failure`: `attempts` is how often the task ran,
/// this failure included. The seed's rules, and ours for the classes it
/// lacks: a network error or a timeout is transient, retried while
/// `attempts < 2` ([`TRANSIENT_RETRIES`]) and then escalated; a machine out
/// of memory, disk space, file handles or processes is escalated at once,
/// since no retry frees them.
pub fn decide_failure(error: &ErrorType, attempts: u32, output: &str) -> FailureDecision {
    let d = |action, reason: &str| FailureDecision { action, reason: reason.to_owned(), package: None };
    let escalate = |reason: String| FailureDecision { action: BuildAction::Escalate, reason, package: None };
    match error {
        ErrorType::SyntaxError if attempts < SYNTAX_RETRIES => {
            d(BuildAction::Retry, "Syntax error - will retry with correction")
        }
        ErrorType::SyntaxError => {
            escalate(format!("Syntax error after {attempts} attempts: {}", quote(first_line(output))))
        }
        ErrorType::MissingDependency { package } => FailureDecision {
            action: BuildAction::InstallAndRetry,
            reason: format!(
                "Missing dependency{} - install it and retry",
                package.as_ref().map(|p| format!(" {p}")).unwrap_or_default()
            ),
            package: package.clone(),
        },
        ErrorType::Conflict => d(BuildAction::RebaseAndRetry, "Merge conflict detected"),
        ErrorType::ValidationFailed if attempts < VALIDATION_RETRIES => {
            d(BuildAction::Retry, "Validation failed - will fix")
        }
        ErrorType::ValidationFailed => d(BuildAction::Skip, "Validation failed after 2 attempts"),
        ErrorType::Network if attempts < TRANSIENT_RETRIES => d(BuildAction::Retry, "Network error - will retry"),
        ErrorType::Network => {
            escalate(format!("Network error after {attempts} attempts: {}", quote(&evidence_line(output, Network))))
        }
        ErrorType::Timeout if attempts < TRANSIENT_RETRIES => d(BuildAction::Retry, "Timed out - will retry"),
        ErrorType::Timeout => {
            escalate(format!("Timed out after {attempts} attempts: {}", quote(&evidence_line(output, Timeout))))
        }
        ErrorType::Resource => {
            let line = evidence_line(output, Resource);
            escalate(format!("The machine ran out of {}: {}", ran_out_of(&line), quote(&line)))
        }
        ErrorType::Other => escalate(format!("Unknown error: {}", quote(first_line(output)))),
    }
}

fn first_line(output: &str) -> &str {
    output.lines().find(|l| !l.trim().is_empty()).unwrap_or("no output")
}

/// The line that says most about `class`, else the first line; without
/// colours.
fn evidence_line(output: &str, class: Class) -> String {
    let line = Evidence::read(output).line(class).unwrap_or_else(|| first_line(output));
    ANSI.replace_all(line, "").into_owned()
}

fn quote(line: &str) -> String {
    line.trim().chars().take(200).collect()
}

/// What a resource line says ran out.
fn ran_out_of(line: &str) -> &'static str {
    let l = line.to_ascii_lowercase();
    let has = |keys: &[&str]| keys.iter().any(|k| l.contains(k));
    if has(&["file watchers"]) {
        "file watchers"
    } else if has(&["no space", "enospc", "quota"]) {
        "disk space"
    } else if has(&["open files", "emfile", "enfile"]) {
        "file handles"
    } else if has(&["resource temporarily unavailable", "eagain"]) {
        "processes"
    } else {
        "memory"
    }
}

/// Whether the build goes on (seed 004's `should_continue`).
pub fn should_continue(
    tasks: &[Task],
    elapsed: Option<Duration>,
    limit_minutes: i64,
    stop_requested: bool,
) -> Result<(), String> {
    let failed: Vec<&Task> = tasks.iter().filter(|t| t.mark == Mark::Failed).collect();
    if failed.len() > MAX_FAILED_TASKS {
        return Err(format!("Too many failures (>{MAX_FAILED_TASKS}): {}", ids(&failed)));
    }
    if let Some(t) = failed.iter().find(|t| layer(t) == Some(Layer::Database)) {
        return Err(format!("Critical database task failed: {}", t.id));
    }
    if elapsed.is_some_and(|e| e > Duration::minutes(limit_minutes)) {
        return Err(format!("Time limit exceeded ({} hours)", limit_minutes as f64 / 60.0));
    }
    if stop_requested {
        return Err("Stop signal received".into());
    }
    Ok(())
}

fn ids(tasks: &[&Task]) -> String {
    tasks.iter().map(|t| t.id.as_str()).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
#[path = "build_corpus.rs"]
mod corpus;

#[cfg(test)]
#[path = "build_held_out.rs"]
mod held_out;

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use super::super::list::TaskList;
    use super::*;

    #[test]
    fn errors_are_classified_from_validation_output() {
        for (out, want) in [
            ("src/a.ts(3,1): error TS1005: SyntaxError: Unexpected token '}'", ErrorType::SyntaxError),
            ("error: expected one of `;` or `}`, found `let`", ErrorType::SyntaxError),
            ("Error: Cannot find module 'zod'", ErrorType::MissingDependency { package: Some("zod".into()) }),
            (
                "ModuleNotFoundError: No module named 'requests'",
                ErrorType::MissingDependency { package: Some("requests".into()) },
            ),
            (
                "error[E0432]: unresolved import `serde_yaml`",
                ErrorType::MissingDependency { package: Some("serde_yaml".into()) },
            ),
            ("CONFLICT (content): Merge conflict in src/api.rs", ErrorType::Conflict),
            ("test result: FAILED. 3 passed; 1 failed", ErrorType::ValidationFailed),
            ("AssertionError: expected 200 but got 500", ErrorType::ValidationFailed),
            ("error: unexpected end of file", ErrorType::SyntaxError),
            ("Killed", ErrorType::Resource),
        ] {
            assert_eq!(classify(out), want, "{out}");
        }
    }

    #[test]
    fn the_seeds_failure_rules() {
        let syntax = ErrorType::SyntaxError;
        assert_eq!(decide_failure(&syntax, 1, "").action, BuildAction::Retry);
        assert_eq!(decide_failure(&syntax, 2, "").action, BuildAction::Retry);
        assert_eq!(decide_failure(&syntax, 3, "x").action, BuildAction::Escalate, "retried while attempts < 3");
        let missing = ErrorType::MissingDependency { package: Some("zod".into()) };
        let d = decide_failure(&missing, 5, "");
        assert_eq!((d.action, d.package.as_deref()), (BuildAction::InstallAndRetry, Some("zod")));
        assert_eq!(decide_failure(&ErrorType::Conflict, 9, "").action, BuildAction::RebaseAndRetry);
        assert_eq!(decide_failure(&ErrorType::ValidationFailed, 1, "").action, BuildAction::Retry);
        let d = decide_failure(&ErrorType::ValidationFailed, 2, "");
        assert_eq!((d.action, d.reason.as_str()), (BuildAction::Skip, "Validation failed after 2 attempts"));
        let d = decide_failure(&ErrorType::Other, 1, "\nKilled by OOM\n");
        assert_eq!((d.action, d.reason.as_str()), (BuildAction::Escalate, "Unknown error: Killed by OOM"));
    }

    // Pins the issue "Build decisions misread common failures": at least 95% of real tool outputs get their class;
    // and reports the held-out half, written before the rows and not consulted while writing them.
    #[test]
    #[allow(clippy::print_stderr, reason = "the accuracy and every miss belong in the test output")]
    fn build_decisions_misread_common_failures() {
        let development = corpus::development();
        let tools: BTreeSet<&str> = development.iter().map(|c| c.tool).collect();
        let mut per_class: BTreeMap<String, usize> = BTreeMap::new();
        for c in &development {
            *per_class.entry(class_name(&c.want)).or_default() += 1;
        }
        // Refuse to pass on a thin table: enough cases, tools and every class.
        assert!(development.len() >= 60 && tools.len() >= 12, "{} cases from {} tools", development.len(), tools.len());
        assert_eq!(per_class.len(), 8, "every class has cases: {per_class:?}");
        let accuracy = report("development", &development);
        eprintln!("  cases per class {per_class:?}");
        report("held-out", &held_out::cases());
        assert!(accuracy >= 0.95, "development accuracy {:.1}% < 95% (misses listed above)", accuracy * 100.0);
    }

    /// Prints the accuracy on `cases` and each miss; returns the accuracy.
    #[allow(clippy::print_stderr, reason = "the accuracy and every miss belong in the test output")]
    fn report(name: &str, cases: &[corpus::Case]) -> f64 {
        let misses: Vec<_> = cases
            .iter()
            .filter_map(|c| {
                let got = classify(&c.output);
                (got != c.want).then_some((c, got))
            })
            .collect();
        let right = cases.len() - misses.len();
        let accuracy = right as f64 / cases.len() as f64;
        let mut per_toolchain: BTreeMap<&str, usize> = BTreeMap::new();
        for c in cases {
            *per_toolchain.entry(c.toolchain()).or_default() += 1;
        }
        eprintln!(
            "classify, {name}: {right}/{} right ({:.1}%) over {} toolchains {per_toolchain:?}",
            cases.len(),
            accuracy * 100.0,
            per_toolchain.len()
        );
        for (c, got) in &misses {
            let first = c.output.lines().find(|l| !l.trim().is_empty()).unwrap_or_default();
            let command = c.command.map(|c| format!(" `{c}`")).unwrap_or_default();
            eprintln!("  miss [{}{command}] want {:?}, got {got:?}: {first}", c.tool, c.want);
        }
        accuracy
    }

    fn class_name(e: &ErrorType) -> String {
        serde_json::to_value(e).unwrap()["type"].as_str().unwrap().to_owned()
    }

    #[test]
    fn the_issues_examples_land_in_their_class() {
        let missing = |p: &str| ErrorType::MissingDependency { package: Some(p.into()) };
        for (out, want) in [
            ("src/api/users.ts(14,27): error TS1005: ';' expected.", ErrorType::SyntaxError),
            ("main.c:4:17: error: expected ';' before 'return'", ErrorType::SyntaxError),
            ("main.c:4:17: error: expected \u{2018};\u{2019} before \u{2018}return\u{2019}", ErrorType::SyntaxError),
            ("error: expected `;`, found `let`\n --> src/main.rs:4:18", ErrorType::SyntaxError),
            (
                "  File \"app/views.py\", line 8\n    return x\n    ^^^^^^\nIndentationError: expected an indented block after function definition on line 7",
                ErrorType::SyntaxError,
            ),
            (
                "main.go:6:2: no required module provides package github.com/gorilla/mux; to add it:\n\tgo get github.com/gorilla/mux",
                missing("github.com/gorilla/mux"),
            ),
            ("Error: [vite]: Rollup failed to resolve import \"axios\" from \"/app/src/api.ts\".", missing("axios")),
            (
                "[plugin:vite:import-analysis] Failed to resolve import \"@tanstack/react-query\" from \"src/main.tsx\". Does the file exist?",
                missing("@tanstack/react-query"),
            ),
            (
                "src/a.ts(18,7): error TS2322: Type 'string' is not assignable to type 'number'.",
                ErrorType::ValidationFailed,
            ),
            (
                "/app/src/a.ts\n  12:7  error  'x' is assigned a value but never used  no-unused-vars\n\n\u{2716} 1 problem (1 error, 0 warnings)",
                ErrorType::ValidationFailed,
            ),
            (
                "app/users.py:42: error: Argument 1 to \"get_user\" has incompatible type \"str\"; expected \"int\"  [arg-type]\nFound 1 error in 1 file (checked 3 source files)",
                ErrorType::ValidationFailed,
            ),
            ("Runtime error near line 12: UNIQUE constraint failed: users.email (19)", ErrorType::ValidationFailed),
            ("ERROR:  duplicate key value violates unique constraint \"users_email_key\"", ErrorType::ValidationFailed),
            ("Error: connect ECONNREFUSED 127.0.0.1:5432", ErrorType::Network),
            ("curl: (6) Could not resolve host: registry.example.com", ErrorType::Network),
            ("    thrown: \"Exceeded timeout of 5000 ms for a test.", ErrorType::Timeout),
            ("panic: test timed out after 30s", ErrorType::Timeout),
            ("FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory", ErrorType::Resource),
            ("error: failed to write target/x.rmeta: No space left on device (os error 28)", ErrorType::Resource),
        ] {
            assert_eq!(classify(out), want, "{out}");
        }
    }

    #[test]
    fn conflicts_and_missing_packages_outweigh_the_errors_they_cause() {
        let out = "src/a.ts(3,1): error TS1185: Merge conflict marker encountered.\nsrc/a.ts(9,5): error TS1005: ';' expected.\nsrc/a.ts(12,3): error TS2322: Type 'string' is not assignable to type 'number'.";
        assert_eq!(classify(out), ErrorType::Conflict);
        let out = "src/a.ts(1,20): error TS2307: Cannot find module 'zod' or its corresponding type declarations.\nsrc/a.ts(8,3): error TS2339: Property 'parse' does not exist on type 'unknown'.\nerror: build failed";
        assert_eq!(classify(out), ErrorType::MissingDependency { package: Some("zod".into()) });
    }

    #[test]
    fn only_the_head_and_the_tail_of_a_large_output_are_read() {
        let noise = "ok: compiled one more module\n".repeat(20_000);
        let tail = format!("{noise}CONFLICT (content): Merge conflict in src/a.rs\n");
        assert_eq!(classify(&tail), ErrorType::Conflict);
        let head = format!("CONFLICT (content): Merge conflict in src/a.rs\n{noise}");
        assert_eq!(classify(&head), ErrorType::Conflict);
        let middle = format!("{noise}CONFLICT (content): Merge conflict in src/a.rs\n{noise}");
        assert_eq!(classify(&middle), ErrorType::Other, "beyond the first and last 64 KiB");
        // No line end near the cuts, and multi-byte characters across them.
        assert_eq!(classify(&"\u{2500}".repeat(100_000)), ErrorType::Other);
    }

    #[test]
    fn the_new_classes_serialise_like_the_seeds() {
        for (e, want) in
            [(ErrorType::Network, "NETWORK"), (ErrorType::Timeout, "TIMEOUT"), (ErrorType::Resource, "RESOURCE")]
        {
            assert_eq!(serde_json::to_value(&e).unwrap(), serde_json::json!({ "type": want }));
        }
        let missing = ErrorType::MissingDependency { package: Some("zod".into()) };
        assert_eq!(
            serde_json::to_value(&missing).unwrap(),
            serde_json::json!({ "type": "MISSING_DEPENDENCY", "package": "zod" })
        );
    }

    /// Ours, for the classes the seed lacks: a network error or a timeout is
    /// retried while attempts < 2 and then escalated; a machine out of
    /// something is escalated at once.
    #[test]
    fn network_errors_and_timeouts_are_retried_once_and_resources_escalate() {
        let refused = "npm ERR! code ECONNREFUSED\nError: connect ECONNREFUSED 127.0.0.1:5432";
        let slow = "FAIL tests/sync.test.ts\n    thrown: \"Exceeded timeout of 5000 ms for a test.";
        let oom =
            "<--- Last few GCs --->\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory";
        let disk = "npm ERR! code ENOSPC\nnpm ERR! nospc ENOSPC: no space left on device, write";
        let files = "OSError: [Errno 24] Too many open files: 'data/part-0412.csv'";
        for (error, attempts, output, action, reason) in [
            (ErrorType::Network, 1, refused, BuildAction::Retry, "Network error - will retry"),
            (
                ErrorType::Network,
                2,
                refused,
                BuildAction::Escalate,
                "Network error after 2 attempts: npm ERR! code ECONNREFUSED",
            ),
            (ErrorType::Timeout, 1, slow, BuildAction::Retry, "Timed out - will retry"),
            (
                ErrorType::Timeout,
                2,
                slow,
                BuildAction::Escalate,
                "Timed out after 2 attempts: thrown: \"Exceeded timeout of 5000 ms for a test.",
            ),
            (
                ErrorType::Resource,
                1,
                oom,
                BuildAction::Escalate,
                "The machine ran out of memory: FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory",
            ),
            (
                ErrorType::Resource,
                1,
                disk,
                BuildAction::Escalate,
                "The machine ran out of disk space: npm ERR! code ENOSPC",
            ),
            (
                ErrorType::Resource,
                1,
                files,
                BuildAction::Escalate,
                "The machine ran out of file handles: OSError: [Errno 24] Too many open files: 'data/part-0412.csv'",
            ),
            (ErrorType::Resource, 1, "Killed", BuildAction::Escalate, "The machine ran out of memory: Killed"),
        ] {
            let d = decide_failure(&error, attempts, output);
            assert_eq!((&d.action, d.reason.as_str(), &d.package), (&action, reason, &None), "{error:?} {attempts}");
        }
    }

    #[test]
    fn the_build_stops_on_the_seeds_four_conditions() {
        let text = "- [!] T1: a\n- [!] T2: b\n- [!] T3: c\n- [ ] T4: d\n- [ ] T5: Add the users migration\n";
        let mut l = TaskList::parse(text).unwrap();
        assert_eq!(should_continue(&l.tasks, None, 120, false), Ok(()));
        l.tasks[3].mark = Mark::Failed;
        assert!(should_continue(&l.tasks, None, 120, false).unwrap_err().starts_with("Too many failures (>3)"));
        let mut l =
            TaskList::parse("- [ ] T1: a\n- [ ] T2: Add the users migration\n  - Files: db/migrations/002_users.sql\n")
                .unwrap();
        l.tasks[1].mark = Mark::Failed;
        assert_eq!(should_continue(&l.tasks, None, 120, false), Err("Critical database task failed: T2".into()));
        let l = TaskList::parse("- [ ] T1: a\n").unwrap();
        assert_eq!(
            should_continue(&l.tasks, Some(Duration::minutes(121)), 120, false),
            Err("Time limit exceeded (2 hours)".into())
        );
        assert_eq!(
            should_continue(&l.tasks, Some(Duration::minutes(119)), 120, true),
            Err("Stop signal received".into())
        );
    }
}
