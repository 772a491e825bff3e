//! Build decisions (seed 004 §5.3, the Build Agent) for the tasks of an
//! orchestrated implement: a failed task's error classified from its
//! validation output and the seed's rule for it (retry, install and retry,
//! rebase and retry, skip, escalate); whether the build goes on (more than 3
//! failed tasks, a failed database task, the time limit of 2 hours, a stop
//! request); and the seed's layer order (§4.3: database, types, queries,
//! api, ui, tests). Pure.
//!
//! Classification weighs evidence line by line, from two layers of rows. A
//! row is a class, a strength, how its match names a missing package, and a
//! regular expression.
//!
//! - The generic cues (`build_cues.rs`): what each class looks like in any
//!   language, whoever prints it: a module, package, library, unit or
//!   collection that cannot be found (named when the line names it); a
//!   header, a linked library or a program that is missing; a parse error's
//!   words with a position; a test summary with failures, a diagnostic at a
//!   position, a type error; a merge, rebase or update stopped on
//!   conflicting changes in any version control system; memory, disk, file
//!   handles or processes running out; a time limit passed; a host not
//!   resolved, a connection refused. A registry that has no such name or
//!   version is evidence too, of `OTHER` (the user's to decide).
//! - The families' rows (`build_table.rs`), refinements: one table per
//!   toolchain family (git; curl and docker; shells and shellcheck;
//!   JavaScript runtimes, package managers and bundlers; TypeScript;
//!   JavaScript test runners; JavaScript linters; Python; Rust; Go; C with
//!   make, CMake and CTest; SQL clients; the JVM; .NET; Swift; Elixir, Mix
//!   and ExUnit; GHC, cabal and stack; Terraform; PHP; Ruby; Dart and
//!   Flutter; YAML parsers), 71 toolchains in all, recognising what a
//!   toolchain shows (a diagnostic code, a parser's sentence, a runner's
//!   summary, a resolver naming its package as the installer spells it).
//!
//! How a line's evidence is chosen: a few cross-family shadows are tried
//! first (a `SyntaxError` thrown by `JSON.parse` is a failed test; a
//! connection that timed out is the network's), and the first that matches
//! is the line's only evidence. Otherwise each family says what its first
//! matching row says, and the families' say is the strongest of them, a
//! tie going to the earlier class in [`Class`]; the first generic cue that
//! matches replaces it only when stronger (a family's row refines the
//! generic cues where it is as sure), but a family's decisive row gives way
//! to a generic cue as sure of an earlier class (a host not resolved, on the
//! line of a name a family reads as a module not resolved). Parse words
//! without a position are clear evidence when a line of its own gives their
//! position within three lines before or after them (`,-[a.js:1:16]`,
//! `In a.sh line 12:`). Each line counts for at most one class. The class with the strongest evidence over the output wins; on a
//! tie, the order of [`Class`] decides again (a conflict or a missing
//! package explains the errors that follow from it). A test runner's
//! summary is clear evidence of a failed validation, and words such as
//! "syntax" or "timeout" without a position are only hints, so a test that
//! quotes them stays a failed test.
//!
//! Output no row matches is `OTHER`, unless the validation command is known
//! ([`classify_run`]) and is a test command: a test runner, a type checker
//! or a linter by its program and subcommand (`cargo test`, `pytest`,
//! `npm test`, `mvn verify`, ...; `TEST_COMMANDS` in `build_table.rs`), or
//! a command whose words say it checks (`run-tests.sh`, `luacheck`,
//! `zig build test`; the generic rule of `build_cues.rs`). A test command
//! that failed without a diagnostic is `VALIDATION_FAILED`. A command that
//! sets a time limit (`ulimit -t`, `timeout`) turns a kill it reports
//! (`Killed`, `Terminated`) from the out-of-memory killer's into a
//! `TIMEOUT`.
//!
//! A learned fallback (`build_model.rs`) decides where the rules are
//! unsure: the rules' answer stands where their evidence is decisive, or
//! clear and a naive Bayes model, trained on every labelled corpus and
//! reading the output's normalised words and the rules' answer, is less
//! than 99.9% sure, or knows fewer than five of the output's features;
//! elsewhere the model chooses the class (the package of a missing
//! dependency is still the one a line names).
//!
//! Measured in `tests/build_decisions`, on corpora kept there as data
//! files: the development cases the rows were written from, the held-out
//! cases of issue 22, each family's cases with its own rows left out, and
//! outputs of toolchains no row or cue was written from (see
//! `docs/design.md` for the figures).
//!
//! Every row is tried on every line (all of them compiled once, on first
//! use, with ASCII word boundaries, word characters and digits), and only
//! the first and the last 64 KiB are read.

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

#[path = "build_table.rs"]
mod table;

#[path = "build_cues.rs"]
mod cues;

#[path = "build_model.rs"]
mod model;

use cues::{CUES, PARSE_WORDS, SAYS_NOTHING};
#[cfg(test)]
use model::Model;
use table::Class::{self, Conflict, Missing, Network, Resource, Syntax, Timeout, Unresolvable, Validation};
use table::Naming::{self, File, ModulePath, Npm, Python, Said, Segment, Types, Unnamed, Verbatim};
use table::{ALL_CLASSES, CLASSES, FAMILIES, Row, SHADOWS, Strength};

/// Each row compiled once: the shadows, then each family's rows, then the
/// generic cues. Lines are tried row by row rather than through one
/// `RegexSet`: alone, a row is found by its own literal prefilter, while a
/// set of all of them defeats the lazy DFA (measured on 128 KiB of tool
/// output, release: 11 ms rule by rule, over 100 ms as a set). Rows that
/// follow each other and vote alike (the same class and strength, naming
/// nothing, tried alike) share one expression: the first of them to match
/// says no more than any other, and every expression tried costs a line
/// a search of its own.
struct Compiled {
    shadows: Vec<Group>,
    families: Vec<Vec<Group>>,
    cues: Vec<Group>,
    /// The parse words, which a cue holding them needs on a line to be tried.
    parse_words: Regex,
    /// A line that says only that a step failed, where a hint counts for nothing.
    says_nothing: Regex,
}

/// Rows compiled as one expression, and the first of them (whose vote any
/// match is).
struct Group {
    regex: Regex,
    row: usize,
    needs_parse_words: bool,
}

static COMPILED: LazyLock<Compiled> = LazyLock::new(|| Compiled {
    shadows: groups(SHADOWS),
    families: FAMILIES.iter().map(|f| groups(f.rows)).collect(),
    cues: groups(CUES),
    parse_words: Regex::new(&ascii(PARSE_WORDS)).expect("compiles"),
    says_nothing: Regex::new(&ascii(SAYS_NOTHING)).expect("compiles"),
});

/// `rows` compiled, those that follow each other and vote alike joined.
fn groups(rows: &[Row]) -> Vec<Group> {
    let alike = |a: &Row, b: &Row| {
        a.2 == Unnamed
            && b.2 == Unnamed
            && (a.0, a.1) == (b.0, b.1)
            && a.3.contains(PARSE_WORDS) == b.3.contains(PARSE_WORDS)
    };
    let mut joined: Vec<(usize, Vec<String>)> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        match joined.last_mut() {
            Some((first, patterns)) if alike(&rows[*first], row) => patterns.push(format!("(?:{})", ascii(row.3))),
            _ => joined.push((i, vec![format!("(?:{})", ascii(row.3))])),
        }
    }
    joined
        .into_iter()
        .map(|(row, patterns)| Group {
            regex: Regex::new(&patterns.join("|")).expect("compiles"),
            row,
            needs_parse_words: rows[row].3.contains(PARSE_WORDS),
        })
        .collect()
}

/// A row's pattern with ASCII word boundaries, word characters and
/// digits (`\b`, `\w`, `\d`): the lazy DFA runs on lines with other
/// characters only when its word boundaries are ASCII's, and the classes
/// compile to a fraction of the Unicode ones' size. Tool outputs spell
/// their diagnostics in ASCII.
fn ascii(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() * 2);
    let mut in_class = false;
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('b') if !in_class => out.push_str("(?-u:\\b)"),
                Some('w') if in_class => out.push_str("0-9A-Za-z_"),
                Some('w') => out.push_str("[0-9A-Za-z_]"),
                Some('d') if in_class => out.push_str("0-9"),
                Some('d') => out.push_str("[0-9]"),
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => out.push('\\'),
            },
            '[' if !in_class => {
                in_class = true;
                out.push(c);
                // A `]` or `^]` first in a class is a literal.
                for literal in ['^', ']'] {
                    if chars.as_str().starts_with(literal) {
                        out.push(chars.next().expect("peeked"));
                    }
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}
/// How many lines after a missing module's line may name it.
const NAME_LINES: usize = 3;

/// A line that is only a name, or a label and a name (`\tsrfi-19`,
/// `for module path: gregor`, `collection: "gregor"`).
static NAME_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&ascii(
        r#"^\s*(?:(?i:(?:for |in )?(?:the )?(?:module|package|library|collection|unit|crate|import|dependency|name)(?: path| name)?)\s*:\s*)?['"`‘]?(?P<pkg>[@\w](?:[\w@./:+-]*\w)?)['"`’]?\s*$"#,
    ))
    .expect("compiles")
});

/// How many lines after a parse error's words may give its position, or after its position hold its words.
const PLACE_LINES: usize = 3;

/// A line that gives only a position, below the error it places (`--> src/a.rs:3:5`, `,-[a.js:1:16]`,
/// `at a.x:3:5`, `^ (from line 3 of requirements.txt)`) or above it (`File "a.py", line 3`, `In a.sh line 12:`).
static PLACE_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&ascii(
        r"^[\s^~\-|:,>╭┌─\[(]*(?:(?i:at|in|from|file) )?\(?\x22?(?:[\w/\\.~-]*[A-Za-z_][\w-]*\.[A-Za-z]\w{0,12}\x22?(?::\d+(?::\d+)?|\(\d+(?:[,:] ?\d+)?\)|,? line \d+(?:, col(?:umn)? \d+)?)|(?i:line \d+ of) \S+)[\])]*:?\s*$",
    ))
    .expect("compiles")
});

/// Whether `named` is `short` in full: `short` is its last segment
/// (`mir.ndslice` and `ndslice`, `vibe.d` and `d`).
fn is_fuller(named: &str, short: &str) -> bool {
    named.len() > short.len() && named.ends_with(short) && named[..named.len() - short.len()].ends_with(['.', '/', ':'])
}

static ANSI: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\x1b\[[0-9;]*[A-Za-z]").expect("compiles"));

/// What an output says: for each class its strongest line, and the first
/// missing package it names.
struct Evidence<'a> {
    best: [Option<(Strength, &'a str)>; CLASSES],
    package: Option<String>,
}

impl<'a> Evidence<'a> {
    /// The evidence of every family's rows but those of the families named
    /// in `without`.
    ///
    /// The package is the first a line names, or the fuller name a later
    /// line gives it (`ndslice`, then `mir/ndslice.d`: `mir.ndslice`); a
    /// missing module's line that names none is followed by its name, alone
    /// on one of the next lines or after a label (`for module path: x`).
    fn read(output: &'a str, without: &[&str]) -> Self {
        let mut evidence = Evidence { best: [None; CLASSES], package: None };
        // How many more lines may name the module the last line missed.
        let mut awaited = 0;
        // How many more lines may give the position of the parse error a line without one hinted at, and how
        // many more may hold the parse error a line of its own placed.
        let (mut placing, mut placed) = (0, 0usize);
        for raw in scanned_lines(output) {
            let line = if raw.contains('\x1b') { ANSI.replace_all(raw, "") } else { Cow::Borrowed(raw) };
            let blank = line.trim().is_empty();
            let mut place = false;
            if !blank {
                placed = placed.saturating_sub(1);
                place = PLACE_LINE.is_match(&line);
            }
            if place {
                placed = PLACE_LINES + 1;
            }
            if placing > 0 && !blank {
                placing -= 1;
                if place {
                    let slot = &mut evidence.best[Syntax as usize];
                    if slot.is_some_and(|(s, _)| s == Strength::Hint) {
                        *slot = slot.map(|(_, l)| (Strength::Clear, l));
                    }
                    placing = 0;
                }
            }
            if awaited > 0 && !line.trim().is_empty() {
                awaited -= 1;
                let named = NAME_LINE.captures(&line).and_then(|c| c.name("pkg")).and_then(|m| said(m.as_str()));
                if evidence.package.is_none() && named.is_some() {
                    evidence.package = named;
                    awaited = 0;
                }
            }
            let Some(vote) = vote(&line, without) else { continue };
            if (vote.class, vote.strength) == (Syntax, Strength::Hint) {
                placing = PLACE_LINES;
                if placed > 0 {
                    evidence.best[Syntax as usize] = Some((Strength::Clear, raw));
                    placing = 0;
                    continue;
                }
            }
            match (&evidence.package, vote.package) {
                (None, Some(named)) => evidence.package = Some(named),
                (Some(short), Some(named)) if is_fuller(&named, short) => evidence.package = Some(named),
                (None, None) if vote.names_later => awaited = NAME_LINES,
                _ => {}
            }
            let slot = &mut evidence.best[vote.class as usize];
            if slot.is_none_or(|(s, _)| vote.strength > s) {
                *slot = Some((vote.strength, raw));
            }
        }
        evidence
    }

    /// The strongest class, ties going to the earlier one in [`Class`].
    fn verdict(&self) -> Option<Class> {
        ALL_CLASSES
            .into_iter()
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

/// What one line says.
struct Vote {
    class: Class,
    strength: Strength,
    /// The package a missing-dependency row names.
    package: Option<String>,
    /// A missing module's row that names modules named none on this line.
    names_later: bool,
}

/// The evidence of one line: the first shadow that matches it; else the
/// strongest of each family's first matching row (a tie going to the
/// earlier class in [`Class`]), unless the first generic cue that matches
/// is stronger: a family's row refines the generic cues where it is as
/// sure; a generic hint on a line that says only that a step failed (its
/// exit status) counts for nothing. The families named in `without` are
/// left out.
fn vote(line: &str, without: &[&str]) -> Option<Vote> {
    let compiled = &*COMPILED;
    if let Some(g) = compiled.shadows.iter().find(|g| g.regex.is_match(line)) {
        return Some(weigh(&SHADOWS[g.row], &g.regex, line));
    }
    let family = FAMILIES
        .iter()
        .zip(&compiled.families)
        .filter(|(family, _)| !without.contains(&family.name))
        .filter_map(|(family, groups)| {
            let g = groups.iter().find(|g| g.regex.is_match(line))?;
            Some(weigh(&family.rows[g.row], &g.regex, line))
        })
        .fold(None, |won: Option<Vote>, v| match won {
            Some(w)
                if (w.strength, std::cmp::Reverse(w.class as usize))
                    >= (v.strength, std::cmp::Reverse(v.class as usize)) =>
            {
                Some(w)
            }
            _ => Some(v),
        });
    let generic = || {
        let mut parse_words = None;
        compiled
            .cues
            .iter()
            .find(|g| {
                let gated =
                    g.needs_parse_words && !*parse_words.get_or_insert_with(|| compiled.parse_words.is_match(line));
                !gated && g.regex.is_match(line)
            })
            .map(|g| weigh(&CUES[g.row], &g.regex, line))
            .filter(|g| g.strength > Strength::Hint || !compiled.says_nothing.is_match(line))
    };
    if let Some(f) = family.as_ref().filter(|f| f.strength == Strength::Decisive) {
        // A cause before its effect on one line: a generic cue as sure of an earlier class says what the line is
        // (a host not resolved, on the line of a name that a family's row reads as a module not resolved).
        return match generic() {
            Some(g) if g.strength == Strength::Decisive && (g.class as usize) < (f.class as usize) => Some(g),
            _ => family,
        };
    }
    match (family, generic()) {
        (Some(f), Some(g)) if g.strength > f.strength => Some(g),
        (Some(f), _) => Some(f),
        (None, g) => g,
    }
}

/// A matching row's vote, with the package it names; a module that is a
/// path of the project is a code error, nothing to install.
fn weigh(row: &Row, regex: &Regex, line: &str) -> Vote {
    let Row(class, strength, naming, _) = *row;
    if naming == Unnamed {
        return Vote { class, strength, package: None, names_later: false };
    }
    match regex.captures(line).and_then(|c| c.name("pkg")).map(|m| m.as_str()) {
        Some(n) if is_path(n) || (naming == File && is_data_file(n)) => {
            Vote { class: Validation, strength: Strength::Clear, package: None, names_later: false }
        }
        named => {
            let package = named.filter(|n| !is_module_hierarchy(n, line)).and_then(|n| package_name(naming, n));
            Vote { class, strength, names_later: class == Missing && package.is_none(), package }
        }
    }
}

/// A module named in a hierarchy of capitalised parts (`Data.Aeson`,
/// `Network.HTTP.Simple`, `Json.Decode`) on a line that calls it a module
/// and no package: it names no package (Haskell's, Elm's, PureScript's
/// modules do not say which package holds them), unlike a NuGet package
/// (`Newtonsoft.Json`), which its line calls a package.
fn is_module_hierarchy(name: &str, line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    name.contains('.')
        && name.split('.').all(|part| part.starts_with(|c: char| c.is_ascii_uppercase()))
        && lower.contains("module")
        && !lower.contains("package")
}

/// The families of the table, each by its name with the toolchains it
/// names, in the table's order (the tests count the toolchains and leave
/// each family out in turn).
pub fn build_families() -> impl Iterator<Item = (&'static str, &'static [&'static str])> {
    FAMILIES.iter().map(|f| (f.name, f.toolchains))
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
/// `/abs/x`, `~/x`, an alias `@/x`, a subpath import `#x`, `virtual:x`, `C:\x`
/// (a namespace's `::`, as in `Foo::Bar`, is no path, but Rust's `crate::x`,
/// `self::x` and `super::x` are the crate's own).
fn is_path(name: &str) -> bool {
    name.starts_with(['.', '/', '~', '#', '\\'])
        || name.starts_with("@/")
        || (name.contains(':') && !name.contains("::"))
        || ["crate::", "self::", "super::"].iter().any(|own| name.starts_with(own))
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
        Segment => name.split('/').next().filter(|p| !p.is_empty()).map(str::to_owned),
        Verbatim => Some(name.to_owned()),
        Said => said(name),
        // A file looked for by a module's name: the module is the file's stem (`jsonparse.u1`).
        File => said(name).map(|n| match n.rsplit_once('.') {
            Some((stem, _)) if !stem.is_empty() => stem.to_owned(),
            _ => n,
        }),
        ModulePath => match name.rsplit_once('/') {
            Some((folder, file)) => {
                let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
                said(&format!("{}.{stem}", folder.trim_start_matches("./").replace('/', ".")))
            }
            None => said(name),
        },
    }
}

/// A file that holds data, not code: a file of the project a program
/// could not open, never a module to install.
fn is_data_file(name: &str) -> bool {
    let ext = name.rsplit_once('.').map(|(_, ext)| ext.to_ascii_lowercase()).unwrap_or_default();
    [
        "json", "csv", "tsv", "txt", "yaml", "yml", "xml", "toml", "ini", "cfg", "conf", "log", "dat", "html", "md",
        "png", "jpg", "gif", "svg", "lock", "env", "sql", "db",
    ]
    .contains(&ext.as_str())
}

/// Words a generic cue's name group may catch that are the sentence's, not
/// a name (`could not find module for ...`, `no package named ...`).
const NOT_NAMES: &[&str] = &[
    "a", "an", "the", "for", "at", "in", "with", "from", "named", "called", "that", "which", "to", "of", "on", "is",
    "was", "not", "matching", "file", "files", "found", "any", "this", "it", "error", "version", "versions", "your",
    "required", "some", "such", "or", "and",
];

/// What a line names, as it says it: a sentence's last stop trimmed, a
/// module file's extension dropped; none for a word of the sentence, or a
/// file that is no package's name (a header, an object or a library file).
fn said(name: &str) -> Option<String> {
    let name = name.trim_end_matches(['.', ',', ';', ':']);
    let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
    let file = ["h", "hh", "hpp", "hxx", "o", "a", "so", "dll", "dylib", "lib", "jar", "pc"].contains(&ext);
    // A module's compiled or source file names the module (`netcdf.mod`, `Foo.pm`).
    let name = if ["mod", "pm", "ads", "hrl", "beam", "cmi", "fasl"].contains(&ext) { stem } else { name };
    let word = NOT_NAMES.iter().any(|w| name.eq_ignore_ascii_case(w));
    (!name.is_empty() && !file && !word).then(|| name.to_owned())
}

/// The seed's `classify_error`, from a task's validation output, by the rules
/// alone: the class with the strongest evidence (see the module's
/// documentation), `Other` when no line speaks for any. What the unit tests
/// below pin; [`classify_run`] adds the learned fallback.
#[cfg(test)]
pub fn classify(output: &str) -> ErrorType {
    rules(&[], None, output).error
}

/// [`classify`], knowing the validation command that printed `output`: when
/// no line speaks for any class and the command runs tests, a type checker
/// or a linter (`cargo test`, `npm test`, `mvn verify`, `make check`, ...),
/// the failure is a failed validation, not an unknown error.
pub fn classify_run(command: Option<&str>, output: &str) -> ErrorType {
    classify_run_without(&[], command, output)
}

/// [`classify_run`] with the rows of the families named in `without` left
/// out: how the classifier does on a family's output with nothing written
/// from that family (the leave-one-family-out measurement of
/// `tests/build_decisions`). A name no family has leaves nothing out.
pub fn classify_run_without(without: &[&str], command: Option<&str>, output: &str) -> ErrorType {
    model::decide(rules(without, command, output), command, output)
}

/// What the rules say of an output (the experiment of [`learned`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesSaid {
    /// The class they give.
    pub error: ErrorType,
    /// How strong the evidence that chose it: 0 when no line spoke (the class is the command's, or
    /// `OTHER`), 1 a hint, 2 clear evidence, 3 a decisive row or cue.
    pub strength: u8,
    /// The missing package a line names, whatever the class.
    pub package: Option<String>,
}

fn rules(without: &[&str], command: Option<&str>, output: &str) -> RulesSaid {
    let evidence = Evidence::read(output, without);
    let strength = evidence.verdict().and_then(|c| evidence.best[c as usize]).map_or(0, |(s, _)| match s {
        Strength::Hint => 1,
        Strength::Clear => 2,
        Strength::Decisive => 3,
    });
    let package = evidence.package.clone();
    RulesSaid { error: verdict(&evidence, command, output), strength, package }
}

/// The learned fallback's parts, public for `tests/build_decisions`, which trains it and measures it.
#[doc(hidden)]
pub mod learned {
    pub use super::RulesSaid;
    pub use super::model::{
        ALPHA, Example, LABELS, MIN_TOOLCHAINS, Model, RULE_WEIGHT, best, combine, committed, error, features, label,
        rule_features,
    };

    /// What the rules say of an output, the rows of the families in `without` left out.
    pub fn rules(without: &[&str], command: Option<&str>, output: &str) -> RulesSaid {
        super::rules(without, command, output)
    }
}

fn verdict(evidence: &Evidence<'_>, command: Option<&str>, output: &str) -> ErrorType {
    match evidence.verdict() {
        None | Some(Resource) if killed_at_a_time_limit(command, evidence, output) => ErrorType::Timeout,
        None if command.is_some_and(|c| table::is_test_command(c) || cues::looks_like_a_check(c)) => {
            ErrorType::ValidationFailed
        }
        None => ErrorType::Other,
        Some(Conflict) => ErrorType::Conflict,
        Some(Resource) => ErrorType::Resource,
        Some(Missing) => ErrorType::MissingDependency { package: evidence.package.clone() },
        Some(Syntax) => ErrorType::SyntaxError,
        Some(Timeout) => ErrorType::Timeout,
        Some(Network) => ErrorType::Network,
        Some(Unresolvable) => ErrorType::Other,
        Some(Validation) => ErrorType::ValidationFailed,
    }
}

/// A command run under a CPU or wall-clock time limit (`ulimit -t 60`,
/// `ulimit -St 60`, `timeout 30s`, `timeout -s KILL 5`).
static TIME_LIMITED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&ascii(r"\bulimit\s+(?:-[HS]+\s+)?-[HS]?t\b|(?:^|[;&|(\s])timeout\s+(?:-\S+\s+(?:[A-Z]+\s+)?)*\d"))
        .expect("compiles")
});

/// A kill's words: the shell's `Killed` or `Terminated`, a signal 9 or 15,
/// an exit status of 137 or 143.
static KILL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&ascii(r"(?i)\bkilled\b|\bterminated\b|\bsig(?:kill|term)\b|\bsignal:? (?:9|15)\b|\b(?:137|143)\b"))
        .expect("compiles")
});

/// Whether the process was killed by the time limit its command set: a
/// kill is the kernel's out-of-memory killer's unless the command limits
/// its time (`ulimit -t`, `timeout`), when the limit is the likelier cause;
/// so is a `Terminated` that no other line explains.
fn killed_at_a_time_limit(command: Option<&str>, evidence: &Evidence, output: &str) -> bool {
    command.is_some_and(|c| TIME_LIMITED.is_match(c))
        && match evidence.verdict() {
            Some(Resource) => evidence.line(Resource).is_some_and(|l| KILL.is_match(l)),
            None => scanned_lines(output).any(|l| KILL.is_match(l)),
            Some(_) => false,
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
    let line = Evidence::read(output, &[]).line(class).unwrap_or_else(|| first_line(output));
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
mod tests {
    use super::super::list::TaskList;
    use super::*;

    /// The rules alone: the tests below pin what they say, line by line; the learned fallback has tests of
    /// its own (`the_learned_fallback_decides_only_where_the_rules_are_unsure`) and its measure in
    /// `tests/build_decisions`.
    fn classify_run(command: Option<&str>, output: &str) -> ErrorType {
        rules(&[], command, output).error
    }

    #[test]
    fn the_learned_fallback_decides_only_where_the_rules_are_unsure() {
        // Decisive evidence stands whatever the model says.
        let conflict = "CONFLICT (content): Merge conflict in src/a.rs\nAutomatic merge failed";
        assert_eq!(rules(&[], None, conflict).strength, 3);
        assert_eq!(super::classify_run(None, conflict), ErrorType::Conflict);
        // Where no line speaks, the model chooses, from the output's words and the rules' silence.
        let model = Model::parse(include_str!("build_model.txt")).expect("the committed model parses");
        assert!(model.len() > 1000);
        let words = "prog: giving up after the second pass\nprog: 3 items left unresolved";
        let said = rules(&[], None, words);
        assert_eq!((said.strength, &said.error), (0, &ErrorType::Other));
        let (p, known) = model.probabilities(None, words, &model::rule_features(&said, model::RULE_WEIGHT));
        assert!(known >= model::MIN_KNOWN, "{known}");
        assert_eq!(super::classify_run(None, words), model::combine(&said, &p, known));
        assert_eq!(model::combine(&said, &p, known), model::error(model::best(&p).0, None));
        // An output with next to nothing in it stays the rules' (the user decides an unknown error).
        for few in ["", "weird", "weird again"] {
            assert_eq!(super::classify_run(None, few), ErrorType::Other, "{few:?}");
        }
        // The outputs the binary's and the operations' tests fail tasks with keep the rules' class.
        for (command, output) in [
            (None, "error: expected one of `;` or `}`, found `let`"),
            (None, "Error: Cannot find module 'zod'\n    at require"),
            (None, "test result: FAILED. 3 passed; 1 failed"),
            (Some("cargo test"), "test result: FAILED. 3 passed; 1 failed\n"),
            (None, "error: unexpected end of file"),
            (None, "AssertionError: expected 1 but got 2"),
            (None, "src/form.ts(3,1): error TS1005: ';' expected.\n"),
            (None, "SyntaxError: await is only valid in async functions\n"),
            (None, "SyntaxError: unexpected token in src/form.rs\n"),
        ] {
            assert_eq!(super::classify_run(command, output), classify_run(command, output), "{output:?}");
        }
    }

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
    fn a_failing_test_command_without_a_diagnostic_is_a_failed_validation() {
        let silent = "\n> shop@0.1.0 test\n> node scripts/check.js\n\n3 of 12 fixtures differ\n";
        assert_eq!(classify_run(Some("npm test"), silent), ErrorType::ValidationFailed);
        assert_eq!(classify_run(Some("cd web && ./gradlew :app:test"), silent), ErrorType::ValidationFailed);
        assert_eq!(classify_run(Some("npm run build"), silent), ErrorType::Other, "not a test command");
        assert_eq!(classify_run(None, silent), ErrorType::Other, "no command: unknown");
        assert_eq!(classify(silent), ErrorType::Other);
        // Evidence, when there is some, decides whatever the command.
        let refused = "Error: connect ECONNREFUSED 127.0.0.1:5432";
        assert_eq!(classify_run(Some("npm test"), refused), ErrorType::Network);
        assert_eq!(classify_run(Some("cargo test"), ""), ErrorType::ValidationFailed);
    }

    #[test]
    fn runner_summaries_count_only_when_something_failed() {
        for (out, want) in [
            ("[ERROR] Tests run: 5, Failures: 1, Errors: 0, Skipped: 0", ErrorType::ValidationFailed),
            ("[INFO] Tests run: 5, Failures: 0, Errors: 0, Skipped: 0", ErrorType::Other),
            ("Failed!  - Failed:     1, Passed:    11, Skipped:     0, Total:    12", ErrorType::ValidationFailed),
            ("4 examples, 1 failure", ErrorType::ValidationFailed),
            ("4 examples, 0 failures", ErrorType::Other),
            ("6 runs, 7 assertions, 1 failures, 0 errors, 0 skips", ErrorType::ValidationFailed),
            ("6 runs, 7 assertions, 0 failures, 0 errors, 0 skips", ErrorType::Other),
            ("4 tests, 1 failure", ErrorType::ValidationFailed),
            ("FAILURES!\nTests: 5, Assertions: 7, Failures: 1.", ErrorType::ValidationFailed),
            (
                "\t Executed 2 tests, with 1 failure (0 unexpected) in 0.003 (0.003) seconds",
                ErrorType::ValidationFailed,
            ),
            ("\t Executed 2 tests, with 0 failures (0 unexpected) in 0.003 (0.003) seconds", ErrorType::Other),
            ("67% tests passed, 1 tests failed out of 3", ErrorType::ValidationFailed),
            ("FAILED (failures=1)", ErrorType::ValidationFailed),
            ("00:01 +3 -1: Some tests failed.", ErrorType::ValidationFailed),
            ("error CS1002: ; expected", ErrorType::SyntaxError),
            (
                "src/a.cs(3,1): error CS0103: The name 'x' does not exist in the current context",
                ErrorType::ValidationFailed,
            ),
        ] {
            assert_eq!(classify(out), want, "{out}");
        }
    }

    #[test]
    fn rows_read_ascii_words_digits_and_word_boundaries() {
        assert_eq!(
            ascii(r"\bno \w+ [\w.-]+ \d: [\b] [^\d] []\w] \B\s\\w"),
            r"(?-u:\b)no [0-9A-Za-z_]+ [0-9A-Za-z_.-]+ [0-9]: [\b] [^0-9] []0-9A-Za-z_] \B\s\\w"
        );
        let words = Regex::new(&ascii(r"\bfoo\b")).unwrap();
        assert!(words.is_match("‘foo’ is missing"), "an ASCII boundary beside other characters");
        assert!(!words.is_match("foobar"));
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
    fn a_missing_modules_name_on_a_line_of_its_own_is_its_package() {
        let missing = |p: &str| ErrorType::MissingDependency { package: Some(p.into()) };
        let undefined =
            "\nSyntax error (import): cannot import from undefined module\n\n\tsrfi-19\n\n\tExpansion history:\n";
        assert_eq!(classify(undefined), missing("srfi-19"));
        let labelled = "a.x:2:9: collection not found\n  for module path: gregor\n  collection: \"gregor\"\n";
        assert_eq!(classify(labelled), missing("gregor"));
        // A header names no package, and the words after it are not one.
        let header = "a.c:1:10: fatal error: zlib.h: No such file or directory\ncompilation\nterminated.\n";
        assert_eq!(classify(header), ErrorType::MissingDependency { package: None });
        // Only the next three lines may name it.
        let far = "error: module not found\none two\nthree four\nfive six\nseven\n";
        assert_eq!(classify(far), ErrorType::MissingDependency { package: None });
    }

    #[test]
    fn a_fuller_name_on_a_later_line_replaces_the_short_one() {
        let out = "a.d(1): Error: unable to read module `ndslice`\na.d(1):        Expected 'mir/ndslice.d' or 'mir/ndslice/package.d' in one of the following import paths:\nimport path[0] = /usr/include/d\n";
        assert_eq!(classify(out), ErrorType::MissingDependency { package: Some("mir.ndslice".into()) });
        // Another module named later is not the first one in full.
        let two = "error: cannot find module 'left'\nerror: cannot find module 'other.right'\n";
        assert_eq!(classify(two), ErrorType::MissingDependency { package: Some("left".into()) });
    }

    #[test]
    fn a_registry_out_of_reach_outweighs_the_package_it_then_cannot_find() {
        let out =
            "===> Failed to update package cowboy from repo hexpm\n===> Package not found in any repo: cowboy 2.10.0\n";
        assert_eq!(classify(out), ErrorType::Network);
        let refused = "error: cannot find module 'zod'\nError: connect ECONNREFUSED 127.0.0.1:443\n";
        assert_eq!(classify(refused), ErrorType::Network);
        // Reached, the registry has no such name: the user's to decide.
        assert_eq!(classify("Package not found in any repo: cowboy 9.9.9\n"), ErrorType::Other);
    }

    #[test]
    fn a_file_a_compiler_cannot_open_names_a_module_unless_it_holds_data() {
        let missing = |p: &str| ErrorType::MissingDependency { package: Some(p.into()) };
        assert_eq!(classify("/p/a.nim(1, 8) Error: cannot open file: jester"), missing("jester"));
        assert_eq!(classify("main.adb:1:06: error: file \"aws.ads\" not found"), missing("aws"));
        assert_eq!(classify("Error: can't find file 'kemal'"), missing("kemal"));
        assert_eq!(classify("t.x:3:1: error: cannot open file: fixtures.json"), ErrorType::ValidationFailed);
        // A path is no module; the error's label first on the line makes it a failed check (the fifth round).
        assert_eq!(
            classify("Error: cannot open file 'data/orders.csv'"),
            ErrorType::ValidationFailed,
            "a path is no module"
        );
    }

    #[test]
    fn a_host_not_resolved_outweighs_the_name_a_family_reads_as_a_module_on_its_line() {
        let out = "error: failed to resolve 'registry.npmjs.org': getaddrinfo EAI_AGAIN registry.npmjs.org\n";
        assert_eq!(classify(out), ErrorType::Network);
        assert_eq!(
            classify("Failed to resolve import \"axios\""),
            ErrorType::MissingDependency { package: Some("axios".into()) }
        );
    }

    #[test]
    fn parse_words_with_their_position_on_a_line_of_its_own_are_a_clear_parse_error() {
        // Below the words (miette's `,-[file:line:col]`), a linter's count notwithstanding.
        let below = "  x Expected `}` but found `EOF`\n   ,-[a.js:1:16]\n 1 | function f (x) {\nFound 0 warnings and 1 error.\n";
        assert_eq!(classify(below), ErrorType::SyntaxError);
        // Above them (`In a.sh line 12:`).
        let above = "In a.sh line 12:\nif [ x ]; then\n^-- SC1073 (error): Couldn't parse this if expression.\n2 errors found\n";
        assert_eq!(classify(above), ErrorType::SyntaxError);
        // Far from them, a position places nothing.
        let far = "a.js:1:16\none\ntwo\nthree\nfour\nit met an unexpected token\nFound 1 error.\n";
        assert_eq!(classify(far), ErrorType::ValidationFailed);
    }

    #[test]
    fn a_kill_is_the_time_limits_when_the_command_sets_one() {
        let killed = "bash: line 7: 10189 Killed                  rexx ./a.rexx\n";
        for (command, want) in [
            (None, ErrorType::Resource),
            (Some("rexx ./a.rexx"), ErrorType::Resource),
            (Some("ulimit -t 1; rexx ./a.rexx"), ErrorType::Timeout),
            (Some("ulimit -St 5 && make test"), ErrorType::Timeout),
            (Some("timeout 30s make test"), ErrorType::Timeout),
            (Some("timeout -s KILL 5 ./run.sh"), ErrorType::Timeout),
            (Some("./scripts/timeout-report.sh"), ErrorType::Resource),
        ] {
            assert_eq!(classify_run(command, killed), want, "{command:?}");
        }
        let terminated = "bash: line 3: 4242 Terminated              ./build.sh\n";
        assert_eq!(classify_run(Some("timeout 600 ./build.sh"), terminated), ErrorType::Timeout);
        assert_eq!(classify_run(Some("./build.sh"), terminated), ErrorType::Other);
        // Memory that ran out says so, whatever the command's limit.
        let oom = "fatal error: out of memory allocating 4096 bytes\n";
        assert_eq!(classify_run(Some("ulimit -t 60; make"), oom), ErrorType::Resource);
    }

    #[test]
    fn a_module_looked_for_as_a_file_is_named_by_the_files_stem() {
        let missing = |p: &str| ErrorType::MissingDependency { package: Some(p.into()) };
        assert_eq!(classify("icont: cannot resolve reference to file 'jsonparse.u1'"), missing("jsonparse"));
        assert_eq!(
            classify("%Error: top.v:2:3: Cannot find file containing module: 'uart_core'"),
            missing("uart_core")
        );
        assert_eq!(classify("Could not find JSON::Fast in:\n    /usr/lib/perl6/site\n"), missing("JSON::Fast"));
        assert_eq!(
            classify("error: Failed build dependencies:\n\tlibyaml-devel is needed by a-1-1\n"),
            missing("libyaml-devel")
        );
    }

    #[test]
    fn rows_joined_in_one_expression_vote_as_the_first_of_them_alone() {
        let alone: Vec<Regex> = CUES.iter().map(|r| Regex::new(&ascii(r.3)).expect("compiles")).collect();
        assert!(COMPILED.cues.len() < CUES.len(), "rows that vote alike are joined");
        let everyone: Vec<&str> = FAMILIES.iter().map(|f| f.name).collect();
        for line in [
            "Error: connect ECONNREFUSED 127.0.0.1:5432",
            "curl: (6) Could not resolve host: example.com",
            "fatal: unable to access 'https://example.com/x.git/': Failed to connect",
            "No space left on device",
            "Killed",
            "init terminating in do_boot (killed)",
            "CONFLICT (content): Merge conflict in a.txt",
            "<<<<<<< mine",
            "with-limit: out of time",
            "panic: test timed out after 30s",
            "a.asm:4: error: expecting ] at end of memory operand",
            "SyntaxError: Unexpected token '}'",
            "not ok 3 - adds",
            "Tests: 1 failed, 2 passed",
            "a.c:3:5: error: use of undeclared identifier 'x'",
            "line 2 column 53 - Warning: missing </div>",
            "ModuleNotFoundError: No module named 'requests'",
            "fatal error: zlib.h: No such file or directory",
            "Type not found : haxe.ui.Toolkit",
            "nothing to see here",
        ] {
            let first = CUES.iter().zip(&alone).find(|(_, r)| r.is_match(line)).map(|(row, _)| (row.0, row.1));
            assert_eq!(vote(line, &everyone).map(|v| (v.class, v.strength)), first, "{line}");
        }
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
