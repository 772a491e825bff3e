//! How well build decisions read validation outputs, measured on corpora of
//! outputs kept as data files beside this test (`README.md` says their
//! format): `development/`, the cases the table's rows were written from,
//! and `held_out/`, cases written before the rows and not consulted while
//! writing them. The corpora are test data: nothing of them is compiled
//! into phasegate.
#![allow(clippy::disallowed_methods, reason = "a test reads its data files")]
#![allow(clippy::print_stderr, reason = "the accuracy and every miss belong in the test output")]

mod corpus;

use std::collections::{BTreeMap, BTreeSet};

use corpus::Case;
use phasegate_core::tasks::{ErrorType, build_families, classify_run};

// Pins the issues "Build decisions misread common failures" (at least 95% of real tool outputs get their
// class) and "Build decisions that generalise" (a table per toolchain family, measured on a held-out half
// written before its rows and not consulted while writing them).
#[test]
fn build_decisions_misread_common_failures() {
    let development = corpus::read("development");
    let held_out = corpus::read("held_out");
    let mut per_class: BTreeMap<String, usize> = BTreeMap::new();
    for c in &development {
        *per_class.entry(class_name(&c.want)).or_default() += 1;
    }
    // Refuse to pass on a thin table: enough cases, every class, and at least 30 toolchains named by the
    // rows' families and present in the corpus, each of them both.
    let named: BTreeSet<&str> = build_families().flat_map(|(_, toolchains)| toolchains.iter().copied()).collect();
    let cased: BTreeSet<&str> = development.iter().chain(&held_out).map(Case::toolchain).collect();
    assert!(development.len() >= 150 && held_out.len() >= 60, "{} + {} cases", development.len(), held_out.len());
    assert_eq!(per_class.len(), 8, "every class has development cases: {per_class:?}");
    assert!(
        named.len() >= 30 && cased.len() >= 30,
        "{} toolchains in the table, {} in the corpus",
        named.len(),
        cased.len()
    );
    assert_eq!(
        named.symmetric_difference(&cased).collect::<Vec<_>>(),
        Vec::<&&str>::new(),
        "every toolchain the table names has cases, and every case's toolchain is named"
    );
    for c in development.iter().chain(&held_out) {
        assert!(
            build_families().any(|(name, toolchains)| name == c.family && toolchains.contains(&c.toolchain())),
            "{} sits in the folder of a family that names its toolchain",
            c.file
        );
    }
    eprintln!(
        "{} toolchains in {} families; development cases per class {per_class:?}",
        named.len(),
        build_families().count()
    );
    let development = report("development", &development, classify);
    let held_out = report("held-out", &held_out, classify);
    assert!(development >= 0.95, "development accuracy {:.1}% < 95% (misses listed above)", development * 100.0);
    assert!(held_out >= HELD_OUT_FLOOR, "held-out accuracy {:.1}% fell below its floor", held_out * 100.0);
}

/// What the held-out half must not fall below: a floor against regressions, under the 81/98 (82.7%)
/// measured when the table was written, not a target to tune rows to.
const HELD_OUT_FLOOR: f64 = 0.80;

/// The class phasegate gives a case.
fn classify(c: &Case) -> ErrorType {
    classify_run(c.command.as_deref(), &c.output)
}

/// Prints the accuracy on `cases` and each miss; returns the accuracy.
fn report(name: &str, cases: &[Case], classify: impl Fn(&Case) -> ErrorType) -> f64 {
    let misses: Vec<_> = cases
        .iter()
        .filter_map(|c| {
            let got = classify(c);
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
        eprintln!("  miss {} want {:?}, got {got:?}", c.file, c.want);
    }
    accuracy
}

fn class_name(e: &ErrorType) -> String {
    serde_json::to_value(e).unwrap()["type"].as_str().unwrap().to_owned()
}
