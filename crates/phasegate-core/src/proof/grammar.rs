//! The two grammars a proof reads: spec.md's numbered requirements and
//! tasks.md's `## Checks`. Pure text in, typed lists or line-numbered errors
//! out; one pass over the lines, so a spec of 20,000 lines costs nothing.
//!
//! Requirements live under a heading that says "requirements" (`##
//! Requirements`, `## Functional requirements`, …) down to the next heading
//! of the same or a higher level. A requirement is a line that begins, after
//! list markers, heading marks, table bars and emphasis, with its id: `R`
//! and a number (`- **R1**: …`, `1. R2 — …`, `### R3: …`, `| R4 | … |`).
//! Its indented sub-bullets are its acceptance criteria, as are the lines
//! under its id in a section headed "acceptance". Checks live under a
//! heading `Checks`, one list item each: the requirements it proves, a
//! colon, the command in backticks, and optionally where it writes JUnit
//! XML (``- R1, R2: `pytest -k search --junitxml=out.xml` (junit: out.xml)``).

use std::collections::BTreeMap;

use serde::Serialize;

/// Something in a file that is not understood, with its line (1-based).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct LineError {
    pub line: usize,
    pub message: String,
}

impl LineError {
    fn new(line: usize, message: impl Into<String>) -> LineError {
        LineError { line, message: message.into() }
    }
}

/// Every problem of one file, each with its line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
pub struct GrammarError(pub Vec<LineError>);

/// One numbered requirement of spec.md.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Requirement {
    /// `R` and its number, without leading zeros (`R01` is `R1`).
    pub id: String,
    pub line: usize,
    /// What it asks, as written after its id.
    pub text: String,
    /// Its acceptance criteria, as written (sub-bullets, or the lines under
    /// its id in the acceptance section).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub criteria: Vec<String>,
}

/// One check of tasks.md's `## Checks`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckDecl {
    pub line: usize,
    /// The requirements it proves, as ids (`R1`).
    pub requirements: Vec<String>,
    /// The shell command, as written between the backticks.
    pub command: String,
    /// Where the command writes JUnit XML, relative to where it runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub junit: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    Requirements,
    Acceptance,
    Checks,
}

/// Lines without their fenced code blocks (a fence opens with ``` or ~~~
/// and closes with the same), numbered from 1, CR removed.
fn prose(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut fence: Option<&str> = None;
    text.lines().enumerate().filter_map(move |(i, raw)| {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let t = line.trim_start();
        for mark in ["```", "~~~"] {
            if t.starts_with(mark) {
                match fence {
                    None => fence = Some(mark),
                    Some(open) if open == mark => fence = None,
                    Some(_) => {}
                }
                return None;
            }
        }
        if fence.is_some() { None } else { Some((i + 1, line)) }
    })
}

/// An ATX heading: its level and its text.
fn heading(line: &str) -> Option<(usize, &str)> {
    let t = line.trim_start();
    if line.len() - t.len() > 3 {
        return None;
    }
    let level = t.bytes().take_while(|b| *b == b'#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let rest = &t[level..];
    if !rest.is_empty() && !rest.starts_with([' ', '\t']) {
        return None;
    }
    Some((level, rest.trim().trim_end_matches('#').trim()))
}

/// What kind of section a heading opens, if any of the three.
fn section_of(title: &str) -> Option<Section> {
    let words: String = title.chars().filter(|c| c.is_alphanumeric() || c.is_whitespace()).collect();
    let lower = words.to_lowercase();
    let first = lower.split_whitespace().find(|w| w.parse::<u64>().is_err()).unwrap_or("");
    if first == "checks" || first == "check" && lower.split_whitespace().count() == 1 {
        return Some(Section::Checks);
    }
    if lower.split_whitespace().any(|w| w == "acceptance") {
        return Some(Section::Acceptance);
    }
    if lower.split_whitespace().any(|w| w == "requirements" || w == "requirement") {
        return Some(Section::Requirements);
    }
    None
}

/// Strips what may stand before an id: heading marks, table bars, list
/// markers (`-`, `*`, `+`, `1.`, `1)`), emphasis and brackets.
fn lead(line: &str) -> &str {
    let mut s = line.trim_start();
    loop {
        let before = s;
        s = s.trim_start_matches('#').trim_start_matches('|').trim_start();
        for marker in ["- ", "* ", "+ "] {
            if let Some(rest) = s.strip_prefix(marker) {
                s = rest.trim_start();
            }
        }
        let digits = s.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && s[digits..].starts_with(['.', ')']) && s[digits + 1..].starts_with([' ', '\t']) {
            s = s[digits + 1..].trim_start();
        }
        s = s.trim_start_matches(['*', '_', '[', '`']);
        if s == before {
            return s;
        }
    }
}

/// An id at the start of `s` (`R12`, not `R2D2`, not `Redis`): its
/// number and the rest after it.
fn id_at(s: &str) -> Option<(u64, &str)> {
    let rest = s.strip_prefix('R')?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 9 {
        return None;
    }
    let after = &rest[digits..];
    if after.chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    Some((rest[..digits].parse().ok()?, after))
}

/// A requirement line: its number and its text.
fn requirement_line(line: &str) -> Option<(u64, String)> {
    let (n, after) = id_at(lead(line))?;
    let text = after
        .trim_start_matches(['*', '_', ']', '`'])
        .trim_start_matches([':', '.', ')', '-', '–', '—', '|', ' ', '\t', '*', '_'])
        .trim()
        .trim_end_matches('|')
        .trim();
    Some((n, text.to_owned()))
}

fn id(n: u64) -> String {
    format!("R{n}")
}

/// A sub-bullet or continuation line's text, without its list marker.
fn item_text(line: &str) -> String {
    let t = line.trim();
    ["- ", "* ", "+ "].iter().find_map(|m| t.strip_prefix(m)).unwrap_or(t).trim().to_owned()
}

/// spec.md's requirements, in the order written.
pub fn requirements(text: &str) -> Result<Vec<Requirement>, GrammarError> {
    let mut out: Vec<Requirement> = Vec::new();
    let mut seen: BTreeMap<u64, usize> = BTreeMap::new();
    let mut errors = Vec::new();
    let mut section: Option<(usize, Section)> = None;
    let mut sections_seen = Vec::new();
    // Where criteria lines go: a requirement (index into `out`) or a
    // criteria target in the acceptance section (by number).
    let mut current: Option<usize> = None;
    let mut target: Option<u64> = None;
    let mut criteria: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    for (n, line) in prose(text) {
        if let Some((level, title)) = heading(line) {
            if section.is_some_and(|(l, _)| level <= l) {
                section = None;
            }
            if section.is_none()
                && let Some(kind) = section_of(title)
                && kind != Section::Checks
            {
                section = Some((level, kind));
                sections_seen.push((n, kind));
                current = None;
                target = None;
                continue;
            }
        }
        let Some((_, kind)) = section else { continue };
        let is_heading = heading(line).is_some();
        match (kind, requirement_line(line)) {
            (Section::Requirements, Some((num, body))) => {
                current = None;
                match numbered(&mut seen, num, body, n) {
                    Ok(r) => {
                        out.push(r);
                        current = Some(out.len() - 1);
                    }
                    Err(e) => errors.push(e),
                }
            }
            (Section::Acceptance, Some((num, body))) => {
                target = Some(num);
                if !body.is_empty() {
                    criteria.entry(num).or_default().push(body);
                }
            }
            (Section::Requirements, None) => {
                let indented = line.starts_with([' ', '\t']);
                match (current, line.trim().is_empty()) {
                    (_, true) => {}
                    (Some(i), false) if indented && !is_heading => out[i].criteria.push(item_text(line)),
                    (Some(_), false) => current = None,
                    (None, false) => {}
                }
            }
            (Section::Acceptance, None) => {
                if let Some(num) = target
                    && !line.trim().is_empty()
                    && !is_heading
                {
                    criteria.entry(num).or_default().push(item_text(line));
                }
            }
            (Section::Checks, _) => {}
        }
    }
    for r in &mut out {
        if let Some(more) = criteria.remove(&r.id[1..].parse::<u64>().unwrap_or(0)) {
            r.criteria.extend(more);
        }
    }
    if !errors.is_empty() {
        return Err(GrammarError(errors));
    }
    if out.is_empty() {
        return Err(GrammarError(vec![no_requirements(&sections_seen)]));
    }
    Ok(out)
}

/// A numbered requirement line (line `n`): the requirement, or why it is
/// refused (its number taken, no text); `seen` keeps each number's line.
fn numbered(seen: &mut BTreeMap<u64, usize>, num: u64, body: String, n: usize) -> Result<Requirement, LineError> {
    if let Some(first) = seen.get(&num) {
        return Err(LineError::new(
            n,
            format!("{} is numbered twice (lines {first} and {n}): give each requirement its own number", id(num)),
        ));
    }
    if body.is_empty() {
        return Err(LineError::new(n, format!("{} has no text: write what it requires after its id", id(num))));
    }
    seen.insert(num, n);
    Ok(Requirement { id: id(num), line: n, text: body, criteria: Vec::new() })
}

/// Why a spec numbers no requirement: its Requirements section numbers
/// none, or it has no such section.
fn no_requirements(sections_seen: &[(usize, Section)]) -> LineError {
    match sections_seen.iter().find(|(_, k)| *k == Section::Requirements) {
        Some((line, _)) => LineError::new(
            *line,
            "this Requirements section numbers no requirement: write each as `- **R1**: …` (R2, R3, … after it)",
        ),
        None => LineError::new(
            1,
            "there is no `## Requirements` section: number the requirements under it as `- **R1**: …` (the specify guide shows the form)",
        ),
    }
}

/// The line of tasks.md's Checks heading, if it has one.
pub fn checks_section(text: &str) -> Option<usize> {
    prose(text)
        .find_map(|(n, line)| heading(line).and_then(|(_, t)| (section_of(t) == Some(Section::Checks)).then_some(n)))
}

/// tasks.md's checks (none when it has no Checks section).
pub fn checks(text: &str) -> Result<Vec<CheckDecl>, GrammarError> {
    let (out, errors) = checks_and_errors(text);
    if errors.is_empty() { Ok(out) } else { Err(GrammarError(errors)) }
}

/// The checks that parse, and each line that does not.
pub fn checks_and_errors(text: &str) -> (Vec<CheckDecl>, Vec<LineError>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    let mut section: Option<usize> = None;
    for (n, line) in prose(text) {
        if let Some((level, title)) = heading(line) {
            if section.is_some_and(|l| level <= l) {
                section = None;
            }
            if section.is_none() && section_of(title) == Some(Section::Checks) {
                section = Some(level);
            }
            continue;
        }
        if section.is_none() {
            continue;
        }
        let t = line.trim_start();
        let Some(item) = ["- ", "* ", "+ "].iter().find_map(|m| t.strip_prefix(m)) else { continue };
        match check_item(item.trim()) {
            Ok((requirements, command, junit)) => out.push(CheckDecl { line: n, requirements, command, junit }),
            Err(why) => errors.push(LineError::new(n, why)),
        }
    }
    (out, errors)
}

const CHECK_FORM: &str = "a check is `- R1: `command`` (or `- R1, R2: `command``)";

/// One check item: `R1, R2: `command` (junit: path)`.
fn check_item(item: &str) -> Result<(Vec<String>, String, Option<String>), String> {
    let Some((ids, rest)) = item.split_once(':') else {
        return Err(format!("`{}` names no requirement before a colon: {CHECK_FORM}", clip(item)));
    };
    let mut requirements = Vec::new();
    for word in ids.split([',', ' ', '\t']).map(|w| w.trim_matches(['*', '_'])).filter(|w| !w.is_empty() && *w != "and")
    {
        match id_at(word) {
            Some((n, "")) => {
                if !requirements.contains(&id(n)) {
                    requirements.push(id(n));
                }
            }
            _ => return Err(format!("`{}` is not a requirement id (R1, R2, …): {CHECK_FORM}", clip(word))),
        }
    }
    if requirements.is_empty() {
        return Err(format!("the check names no requirement: {CHECK_FORM}"));
    }
    let rest = rest.trim_start();
    let fence = rest.bytes().take_while(|b| *b == b'`').count();
    if fence == 0 {
        return Err(format!(
            "{}'s check has no command: put it in backticks after the colon ({CHECK_FORM})",
            requirements.join(", ")
        ));
    }
    let ticks = &rest[..fence];
    let body = &rest[fence..];
    let close = find_run(body, fence)
        .ok_or_else(|| format!("the command of {}'s check has no closing {ticks}", requirements.join(", ")))?;
    let mut command = &body[..close];
    if fence > 1 && command.starts_with(' ') && command.ends_with(' ') && command.trim() != "" {
        command = &command[1..command.len() - 1];
    }
    let command = command.trim();
    if command.is_empty() {
        return Err(format!("{}'s check has an empty command", requirements.join(", ")));
    }
    let after = &body[close + fence..];
    let junit = after.find("junit:").map(|i| {
        after[i + "junit:".len()..]
            .split_whitespace()
            .next()
            .unwrap_or("")
            .trim_matches(['`', '(', ')', ',', ';', '"', '\''])
            .to_owned()
    });
    if junit.as_deref() == Some("") {
        return Err("`junit:` names no file: write `(junit: <path of the XML file>)`".to_owned());
    }
    Ok((requirements, command.to_owned(), junit))
}

/// Where a run of exactly `len` backticks starts in `s`.
fn find_run(s: &str, len: usize) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'`' {
            let run = b[i..].iter().take_while(|c| **c == b'`').count();
            if run == len {
                return Some(i);
            }
            i += run;
        } else {
            i += 1;
        }
    }
    None
}

fn clip(s: &str) -> String {
    let cut: String = s.chars().take(60).collect();
    if cut.len() < s.len() { format!("{cut}…") } else { cut }
}

/// The checks' ids that name no requirement of the spec, as errors on
/// their lines.
pub fn unknown_ids(requirements: &[Requirement], checks: &[CheckDecl]) -> Vec<LineError> {
    let known: Vec<&str> = requirements.iter().map(|r| r.id.as_str()).collect();
    let listed = match (known.first(), known.last()) {
        (Some(a), Some(b)) if a != b => format!("{a}–{b}"),
        (Some(a), _) => (*a).to_owned(),
        _ => "none".to_owned(),
    };
    let mut out = Vec::new();
    for c in checks {
        for r in c.requirements.iter().filter(|r| !known.contains(&r.as_str())) {
            out.push(LineError::new(c.line, format!("{r} is not a requirement of spec.md (it numbers {listed})")));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(text: &str) -> Vec<String> {
        requirements(text).unwrap().into_iter().map(|r| r.id).collect()
    }

    #[test]
    fn requirements_in_every_form_the_guide_and_people_write() {
        let spec = "# Spec\n\n## Summary\nR9 is not here: outside the section.\n\n## Requirements\n\n### Functional\n\
                    - **R1**: Users search by title\n  - Given a title, When searched, Then it is found\n\
                    1. R2 — Results are paged\n### R3: Export to CSV\n| R4 | Loads in 200 ms |\n\
                    R05. Leading zeros are one number\n- R2D2 is not an id, nor Redis\n\n## Scope\n- R6 out of scope\n";
        let reqs = requirements(spec).unwrap();
        let got: Vec<(&str, &str)> = reqs.iter().map(|r| (r.id.as_str(), r.text.as_str())).collect();
        assert_eq!(
            got,
            [
                ("R1", "Users search by title"),
                ("R2", "Results are paged"),
                ("R3", "Export to CSV"),
                ("R4", "Loads in 200 ms"),
                ("R5", "Leading zeros are one number"),
            ]
        );
        assert_eq!(reqs[0].criteria, ["Given a title, When searched, Then it is found"]);
        assert_eq!(reqs[0].line, 9);
    }

    #[test]
    fn acceptance_criteria_attach_to_their_requirement() {
        let spec = "## Requirements\n- **R1**: Search\n- **R2**: Page\n\n## Acceptance criteria\n\n### R1\n- Given x\n- When y\n\
                    - R2: Given a long list, Then pages\n";
        let reqs = requirements(spec).unwrap();
        assert_eq!(reqs[0].criteria, ["Given x", "When y"]);
        assert_eq!(reqs[1].criteria, ["Given a long list, Then pages"]);
    }

    #[test]
    fn crlf_fences_and_a_huge_spec() {
        assert_eq!(ids("## Requirements\r\n- R1: a\r\n```\r\n- R7: in a fence\r\n```\r\n- R2: b\r\n"), ["R1", "R2"]);
        let mut big = String::from("## Requirements\n");
        for i in 1..=20_000 {
            big.push_str(&format!("- **R{i}**: requirement number {i}\n"));
        }
        let start = std::time::Instant::now();
        assert_eq!(requirements(&big).unwrap().len(), 20_000);
        assert!(start.elapsed() < std::time::Duration::from_secs(2));
    }

    #[test]
    fn what_a_spec_gets_wrong_is_named_by_line() {
        let e = requirements("## Requirements\n- R1: a\n- R2: b\n- R1: again\n").unwrap_err().to_string();
        assert_eq!(e, "line 4: R1 is numbered twice (lines 2 and 4): give each requirement its own number");
        let e = requirements("## Requirements\n- **R3**:\n").unwrap_err().to_string();
        assert!(e.starts_with("line 2: R3 has no text"), "{e}");
        let e = requirements("# Spec\nNothing numbered.\n").unwrap_err().to_string();
        assert!(e.contains("there is no `## Requirements` section"), "{e}");
        let e = requirements("## Requirements\nUsers can search.\n").unwrap_err().to_string();
        assert!(e.starts_with("line 1: this Requirements section numbers no requirement"), "{e}");
    }

    fn one(item: &str) -> Result<CheckDecl, String> {
        match checks(&format!("# Tasks\n\n## Checks\n\n{item}\n")) {
            Ok(mut c) => Ok(c.remove(0)),
            Err(e) => Err(e.to_string()),
        }
    }

    #[test]
    fn checks_name_requirements_and_a_command() {
        let c = one("- R1: `python -m pytest tests/test_search.py -k case`").unwrap();
        assert_eq!(
            (c.requirements, c.command.as_str(), c.line),
            (vec!["R1".to_owned()], "python -m pytest tests/test_search.py -k case", 5)
        );
        let c = one("- R1, R2 and R03: `cargo test search`").unwrap();
        assert_eq!(c.requirements, ["R1", "R2", "R3"]);
        let c = one("- **R4**: ``grep -c '`' x`` (junit: build/r4.xml)").unwrap();
        assert_eq!((c.command.as_str(), c.junit.as_deref()), ("grep -c '`' x", Some("build/r4.xml")));
        let c = one("* R5: `npm test -- search` — the search suite").unwrap();
        assert_eq!((c.command.as_str(), c.junit), ("npm test -- search", None));
        let crlf = checks("## Checks\r\n- R1: `true`\r\n").unwrap();
        assert_eq!(crlf[0].command, "true");
    }

    #[test]
    fn a_check_line_with_no_command_or_no_id_is_named_by_line() {
        assert_eq!(
            one("- R1: run the tests").unwrap_err(),
            "line 5: R1's check has no command: put it in backticks after the colon (a check is `- R1: `command`` (or `- R1, R2: `command``))"
        );
        assert!(
            one("- R1: ``").unwrap_err().contains("R1's check has an empty command")
                || one("- R1: ``").unwrap_err().contains("no closing")
        );
        assert!(one("- R1: `unclosed").unwrap_err().contains("no closing `"));
        assert!(one("- `pytest`").unwrap_err().contains("names no requirement before a colon"));
        assert!(one("- Search: `pytest`").unwrap_err().contains("`Search` is not a requirement id"));
        assert!(one("- R1: `x` (junit:)").unwrap_err().contains("`junit:` names no file"));
    }

    #[test]
    fn checks_outside_their_section_and_in_fences_are_not_checks() {
        let text = "- R1: `not a check`\n## Checks\nProse is fine.\n```\n- R1: `in a fence`\n```\n- R2: `real`\n## Verification\n- R3: `after`\n";
        let c = checks(text).unwrap();
        assert_eq!(c.iter().map(|c| c.command.as_str()).collect::<Vec<_>>(), ["real"]);
        assert_eq!(checks_section(text), Some(2));
        assert_eq!(checks("# Tasks\n- [ ] T1 x\n").unwrap(), Vec::new());
    }

    #[test]
    fn a_check_naming_a_requirement_the_spec_lacks_is_named() {
        let reqs = requirements("## Requirements\n- R1: a\n- R2: b\n").unwrap();
        let c = checks("## Checks\n- R1, R9: `t`\n").unwrap();
        let e = unknown_ids(&reqs, &c);
        assert_eq!(e, [LineError::new(2, "R9 is not a requirement of spec.md (it numbers R1–R2)")]);
    }
}
