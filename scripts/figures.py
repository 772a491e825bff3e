#!/usr/bin/env python3
"""The shape figures of issue 32 ("Facts, not prose; one transaction per
verb"), read from the source: how far the code is from each target.

    python3 scripts/figures.py          (from the repository's root)

Each line: the figure, its value now, the target. Test code (files under
tests/, `#[cfg(test)]` parts) is left out. Exit 0 always: a report, not a
gate (the floors test is the gate for import circles).
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BELOW_CLI = ["phasegate-core", "phasegate-store", "phasegate-ops"]


def sources(crate):
    base = os.path.join(ROOT, "crates", crate, "src")
    for d, _, fs in os.walk(base):
        for f in sorted(fs):
            if f.endswith(".rs"):
                p = os.path.join(d, f)
                text = open(p, encoding="utf-8").read()
                cut = text.find("#[cfg(test)]")
                yield os.path.relpath(p, ROOT), text if cut < 0 else text[:cut]


def string_literals(text):
    # Plain and raw string literals, comments left out.
    text = re.sub(r"//[^\n]*", "", text)
    return re.findall(r'r#"(?:.|\n)*?"#|"(?:\\.|[^"\\])*"', text)


def text_errors():
    n = 0
    for crate in BELOW_CLI + ["phasegate-cli"]:
        for _, text in sources(crate):
            n += len(re.findall(r"OpError::invalid\(|Invalid::Message\b", text))
    return n


def spellings():
    n = 0
    for crate in BELOW_CLI:
        for _, text in sources(crate):
            n += sum(lit.count("workflow-state ") for lit in string_literals(text))
    return n


def long_functions(limit=80):
    out = []
    for crate in BELOW_CLI + ["phasegate-cli", "phasegate-hook", "phasegate-slack"]:
        for path, text in sources(crate):
            lines = text.split("\n")
            i = 0
            while i < len(lines):
                m = re.match(r"\s*(pub(\([^)]*\))?\s+)?(async\s+)?fn\s+(\w+)", lines[i])
                if not m or lines[i].rstrip().endswith(";"):
                    i += 1
                    continue
                depth, started, j = 0, False, i
                while j < len(lines):
                    depth += lines[j].count("{") - lines[j].count("}")
                    started |= "{" in lines[j]
                    if started and depth <= 0:
                        break
                    j += 1
                if j - i + 1 > limit:
                    out.append((j - i + 1, f"{path}:{i + 1} {m.group(4)}"))
                i += 1
    return sorted(out, reverse=True)


def project_methods():
    n = 0
    for path, text in sources("phasegate-store"):
        for block in re.finditer(r"\nimpl Project \{", text):
            depth, k = 0, block.end() - 1
            while k < len(text):
                depth += {"{": 1, "}": -1}.get(text[k], 0)
                if depth == 0:
                    break
                k += 1
            n += len(re.findall(r"\n    pub fn ", text[block.start():k]))
    return n


def side_effects():
    """Events raised or settled outside a verb's `Effects` (ops' `effects`
    and the events module itself left out)."""
    n = 0
    for path, text in sources("phasegate-ops"):
        if path.endswith(("coordination/effects.rs", "coordination/events.rs")):
            continue
        n += len(re.findall(r"\bevents::(?:emit|emit_quietly|emit_all|settle|settle_where|on_\w+)\(", text))
    return n


def writing_lookups():
    """Feature lookups that also write (the session's cost note), and cost
    notes written outside a verb's `Effects`: a verb finds its feature with
    `session::find` and returns the turn among its effects."""
    n = 0
    for path, text in sources("phasegate-ops"):
        n += len(re.findall(r"\bsession::resolve(?:_pipeline)?\(", text))
        if not path.endswith(("coordination/effects.rs", os.path.join("session", "mod.rs"))):
            n += len(re.findall(r"\bnote_turn\(", text))
    return n


def store_files():
    """Places in ops that read or write a file by its path through the
    store's `files` face (`store::fs` is private to the store): the user's
    and the plugin's files; a state file goes through its handle. Path
    arithmetic (`relative`, `canonical_or_same`, `join_slashed`) touches no
    file and is not counted."""
    path_math = ("relative", "canonical_or_same", "join_slashed")
    n = 0
    for _, text in sources("phasegate-ops"):
        text = re.sub(r"(?:pipeline|super)::files::", "", text)
        # A file that names core's pipeline files module `files` reaches the
        # store's face by another name (`user_files`).
        core = "use phasegate_core::pipeline::files::{self" in text
        pattern = r"\b(?:sfs|user_files|phasegate_store::files)::(\w+)\(" if core else r"\b(?:files|sfs|user_files)::(\w+)\("
        n += sum(1 for m in re.finditer(pattern, text) if m.group(1) not in path_math)
    return n


def core_public_unnamed():
    """Core's `pub` items (types, functions, methods, constants) whose name
    no other crate and no test spells: candidates for `pub(crate)`. Those
    left are in a public item's signature or re-exported as a face."""
    other = []
    for d, _, fs in os.walk(os.path.join(ROOT, "crates")):
        if os.path.join("phasegate-core", "src") in d:
            continue
        other += [open(os.path.join(d, f), encoding="utf-8").read() for f in fs if f.endswith(".rs")]
    for d, _, fs in os.walk(os.path.join(ROOT, "tests")):
        other += [open(os.path.join(d, f), encoding="utf-8").read() for f in fs if f.endswith(".rs")]
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", "\n".join(other)))
    n = 0
    for _, text in sources("phasegate-core"):
        for m in re.finditer(r"^\s*pub (?:fn|struct|enum|const|type|trait|static) ([A-Za-z_]\w*)", text, re.M):
            n += m.group(1) not in words
    return n


def prose_fields():
    """Fields of ops outcomes (the structs a front end serialises) that
    carry a finished sentence (`message`, `next`, `warning`, `note` as text)
    rather than a typed value that says it
    (`phasegate_core::words::as_words`)."""
    n = 0
    for _, text in sources("phasegate-ops"):
        for m in re.finditer(r"#\[derive\(([^)]*)\)\][^{;]*?pub struct \w+(?:<[^>]*>)? \{", text):
            if "Serialize" not in m.group(1):
                continue
            depth, k = 0, m.end() - 1
            while k < len(text):
                depth += {"{": 1, "}": -1}.get(text[k], 0)
                if depth == 0:
                    break
                k += 1
            n += len(re.findall(r"pub (?:message|next|warning|note): (?:Option<)?String\b", text[m.end():k]))
    return n


def main():
    longs = long_functions()
    rows = [
        ("errors built from text (OpError::invalid, Invalid::Message)", text_errors(), "at most 10"),
        ("command spellings (`workflow-state …`) in string literals below the CLI", spellings(), "at most 10"),
        ("functions over 80 lines", len(longs), "at most 5"),
        ("public methods of the store's Project", project_methods(), "at most 30"),
        ("prose fields in ops outcomes (message, next, warning, note as text)", prose_fields(), "none"),
        ("events raised or settled on the side, outside a verb's Effects", side_effects(), "none"),
        ("feature lookups that write, cost notes outside Effects", writing_lookups(), "none"),
        ("places in ops reading or writing a file by path (store::files)", store_files(), "the user's and the plugin's files only"),
        ("core's public items no other crate or test names", core_public_unnamed(), "only those a public signature needs"),
    ]
    for what, value, target in rows:
        print(f"{what}: {value} (target {target})")
    print("import circles among the files of any folder: `cargo test --test it floors` (target none)")
    if "-v" in sys.argv:
        for n, where in longs:
            print(f"  {n:4} lines  {where}")


if __name__ == "__main__":
    main()
