#!/bin/bash
# Replays each frozen round of rules on the corpus it was measured on, writing ../as_made.txt: what the
# rules said of each case as that corpus was made (its labels and outputs committed before any classifier
# read them), so that the learned fallback (issue 31, seventh round) is measured against the rules as they
# were, not against cues later written from those very cases. Run from the repository's root, in a clean
# work tree: for each round it checks out that round's build.rs, build_table.rs and build_cues.rs, appends
# a function saying the deciding evidence's strength, runs a throwaway test, and restores the files.
# The replay gives each round's published figure: 74/116, 31/42, 50/83, 75/96, 72/100, 75/97.
set -euo pipefail
T=crates/phasegate-core/src/tasks
D=crates/phasegate-core/tests/build_decisions
OUT=$(mktemp -d)
cat > "$OUT/dumpfn.rs" <<'RS'

/// What the rules said (a replay of a frozen round, for the learned fallback's measure).
#[doc(hidden)]
pub fn as_made_dump(without: &[&str], command: Option<&str>, output: &str) -> (ErrorType, u8, Option<String>) {
    let evidence = Evidence::read(output, without);
    let strength = evidence.verdict().and_then(|c| evidence.best[c as usize]).map_or(0, |(s, _)| match s {
        Strength::Hint => 1,
        Strength::Clear => 2,
        Strength::Decisive => 3,
    });
    (classify_run_without(without, command, output), strength, evidence.package.clone())
}
RS
cat > "$OUT/as_made_dump.rs" <<'RS'
#![allow(clippy::disallowed_methods, reason = "a tool")]
#[path = "build_decisions/corpus.rs"]
#[allow(dead_code)]
mod corpus;
use phasegate_core::tasks::{ErrorType, as_made_dump, build_families};
#[test]
fn dump() {
    let name = std::env::var("DUMP_CORPUS").unwrap();
    let mut out = String::new();
    let mut right = 0;
    let cases = corpus::read(&name);
    for c in &cases {
        let own: Vec<&'static str> = build_families()
            .filter(|(n, t)| *n == c.family || t.contains(&c.toolchain()))
            .map(|(n, _)| n)
            .collect();
        let (e, s, p) = as_made_dump(&own, c.command.as_deref(), &c.output);
        if e == c.want { right += 1; }
        let label = match &e {
            ErrorType::SyntaxError => "SYNTAX_ERROR".to_owned(),
            ErrorType::MissingDependency { package } => format!("MISSING_DEPENDENCY {}", package.as_deref().unwrap_or("-")),
            ErrorType::Conflict => "CONFLICT".into(),
            ErrorType::ValidationFailed => "VALIDATION_FAILED".into(),
            ErrorType::Network => "NETWORK".into(),
            ErrorType::Timeout => "TIMEOUT".into(),
            ErrorType::Resource => "RESOURCE".into(),
            ErrorType::Other => "OTHER".into(),
        };
        out.push_str(&format!("{}\t{label}\t{s}\t{}\n", c.file, p.as_deref().unwrap_or("-")));
    }
    eprintln!("{name}: {right}/{}", cases.len());
    std::fs::write(format!("{}/as_made_{name}.txt", std::env::var("DUMP_DIR").unwrap()), out).unwrap();
}
RS
for pair in 322d620:unseen ac34ef0:unseen_2 f728203:unseen_3 3b4df6d:unseen_4 dd05edd:unseen_5 12f60dc:unseen_6 12f60dc:unseen_7; do
  commit=${pair%%:*} corpus=${pair##*:}
  for f in build.rs build_table.rs build_cues.rs; do git show "$commit:$T/$f" > "$T/$f"; done
  cat "$OUT/dumpfn.rs" >> "$T/build.rs"
  sed -i 's/decide_failure, learned,/decide_failure, as_made_dump,/' "$T/mod.rs"
  cp "$OUT/as_made_dump.rs" crates/phasegate-core/tests/as_made_dump.rs
  DUMP_DIR=$OUT DUMP_CORPUS=$corpus cargo test -q -p phasegate-core --test as_made_dump -- --nocapture
  rm crates/phasegate-core/tests/as_made_dump.rs
  git checkout -q -- "$T"
done
{
  head -1 "$D/as_made.txt"
  for k in "" _2 _3 _4 _5 _6 _7; do cat "$OUT/as_made_unseen$k.txt"; done
} > "$OUT/as_made.txt"
mv "$OUT/as_made.txt" "$D/as_made.txt"
