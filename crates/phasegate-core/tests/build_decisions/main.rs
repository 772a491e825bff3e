//! How well build decisions read validation outputs, measured on corpora of
//! outputs kept as data files beside this test (`README.md` says their
//! format): `development/`, the cases the table's rows were written from,
//! and `held_out/`, cases written before the rows and not consulted while
//! writing them. The corpora are test data: nothing of them is compiled
//! into phasegate.
#![allow(clippy::disallowed_methods, reason = "a test reads its data files")]
#![allow(clippy::print_stderr, reason = "the accuracy and every miss belong in the test output")]

mod corpus;
mod learned;

use std::collections::{BTreeMap, BTreeSet};

use corpus::Case;
use phasegate_core::tasks::{ErrorType, build_families, classify_run, classify_run_without};

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
/// measured when the table was written (91/98 with the third round of generic cues, less two cases: 89/98
/// is 90.8%), not a target to tune rows to.
const HELD_OUT_FLOOR: f64 = 0.90;

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

/// The families whose rows a case's measurement leaves out: its folder's, and every family naming its
/// toolchain.
fn own_families(c: &Case) -> Vec<&'static str> {
    build_families()
        .filter(|(name, toolchains)| *name == c.family || toolchains.contains(&c.toolchain()))
        .map(|(name, _)| name)
        .collect()
}

/// Leave one family out: each family's cases classified with that family's rows removed (the generic cues
/// and the other families' rows only). Prints a line per family and every miss; returns the accuracy over
/// all cases.
fn leave_one_family_out(name: &str, cases: &[Case]) -> f64 {
    let mut per_family: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut misses = Vec::new();
    for c in cases {
        let got = classify_run_without(&own_families(c), c.command.as_deref(), &c.output);
        let tally = per_family.entry(&c.family).or_default();
        tally.1 += 1;
        if got == c.want {
            tally.0 += 1;
        } else {
            misses.push((c, got));
        }
    }
    let right: usize = per_family.values().map(|t| t.0).sum();
    let accuracy = right as f64 / cases.len() as f64;
    eprintln!("leave one family out, {name}: {right}/{} right ({:.1}%)", cases.len(), accuracy * 100.0);
    for (family, (r, n)) in &per_family {
        eprintln!("  {family:<14} {r:>3}/{n:<3} {:>5.1}%", *r as f64 * 100.0 / *n as f64);
    }
    for (c, got) in &misses {
        eprintln!("  miss {} want {:?}, got {got:?}", c.file, c.want);
    }
    accuracy
}

/// How the cues that belong to no family do alone, every family's rows left out.
fn generic_only(name: &str, cases: &[Case]) -> f64 {
    let all: Vec<&str> = build_families().map(|(name, _)| name).collect();
    let right = cases.iter().filter(|c| classify_run_without(&all, c.command.as_deref(), &c.output) == c.want).count();
    let accuracy = right as f64 / cases.len() as f64;
    eprintln!("generic cues alone, {name}: {right}/{} right ({:.1}%)", cases.len(), accuracy * 100.0);
    accuracy
}

/// What the development and held-out cases, each family's read without its own rows, must not fall
/// below: the 260/290 (89.7%) measured with the third round of generic cues, less a margin of two cases
/// (258/290 is 88.97%). The generic cues were written from the development cases, so this is their
/// coverage of known families, not a measure of unseen ones.
const LEAVE_ONE_OUT_FLOOR: f64 = 0.885;

// Pins issue 31's "Build decisions that generalise — really": a family's cases read without the rows written
// from that family.
#[test]
fn build_decisions_read_a_family_without_its_rows() {
    let development = corpus::read("development");
    let held_out = corpus::read("held_out");
    let both: Vec<Case> = development.into_iter().chain(held_out).collect();
    generic_only("development and held-out", &both);
    let lofo = leave_one_family_out("development and held-out", &both);
    assert!(lofo >= LEAVE_ONE_OUT_FLOOR, "leave-one-family-out accuracy {:.1}% fell below its floor", lofo * 100.0);
}

/// What `unseen/` must not fall below, each family read without the table's family of its name: a floor
/// against regressions. The first round of generic cues read it as it was made (74/116); the second round
/// was written from its misses (105/116, 112/116 after the third), so it is development data now, not a
/// measure.
const UNSEEN_FLOOR: f64 = 0.945;

/// What `unseen_2/` must not fall below: a floor against regressions. The second round of generic cues read
/// it as it was made (31/42); the third round was written from its misses (42/42), so it is development data
/// now, not a measure.
const UNSEEN_2_FLOOR: f64 = 0.95;

/// What `unseen_3/` must not fall below: a floor against regressions. The third round of generic cues read
/// it as it was made (50/83, 60.2%; its labels and outputs committed before); the fourth round was written
/// from its misses (80/83, less a margin of two cases: 78/83 is 93.98%), so it is development data now, not
/// a measure.
const UNSEEN_3_FLOOR: f64 = 0.939;

/// What `unseen_4/` must not fall below: a floor against regressions. The fourth round of generic cues read
/// it as it was made (75/96, 78.1%; its labels and outputs made by someone who never read the classifier,
/// committed before any classifier read them); the fifth round was written from its misses (95/96, less a
/// margin of two cases: 93/96 is 96.875%), so it is development data now, not a measure.
const UNSEEN_4_FLOOR: f64 = 0.968;

/// What `unseen_5/` must not fall below: a floor against regressions. The fifth round of generic cues read
/// it as it was made (72/100, 72.0%; its labels and outputs made by someone who never read the classifier,
/// committed before any classifier read them); the sixth round was written from its misses (95/100, less a
/// margin of two cases: 93/100), so it is development data now, not a measure.
const UNSEEN_5_FLOOR: f64 = 0.93;

/// What `unseen_6/` must not fall below: the held-out set of the sixth round of generic cues (its labels
/// and outputs made by someone who never read the classifier, committed before any classifier read them),
/// read as it was made: 75/97, less a margin of two cases (73/97 is 75.26%).
const UNSEEN_6_FLOOR: f64 = 0.752;

/// What `unseen_7/` must not fall below: the held-out set of the learned fallback (its labels and outputs
/// made by someone who never read the classifier, the model frozen and trained without it), read as it was
/// made: 78/110, less a margin of two cases (76/110 is 69.09%).
const UNSEEN_7_FLOOR: f64 = 0.69;

/// The checks every corpus of unseen toolchains passes: none of its toolchains is one the table names or
/// an earlier corpus has, each case says whether it is real, and every class has cases.
fn unseen(corpus: &str, earlier: &[&Case]) -> Vec<Case> {
    let cases = corpus::read(corpus);
    let named: BTreeSet<&str> = build_families().flat_map(|(_, toolchains)| toolchains.iter().copied()).collect();
    let before: BTreeSet<&str> = earlier.iter().map(|c| c.toolchain()).collect();
    let toolchains: BTreeSet<&str> = cases.iter().map(Case::toolchain).collect();
    let families: BTreeSet<&str> = cases.iter().map(|c| c.family.as_str()).collect();
    let classes: BTreeSet<String> = cases.iter().map(|c| class_name(&c.want)).collect();
    for c in &cases {
        assert!(!named.contains(c.toolchain()), "{}: a toolchain the table names is not unseen", c.file);
        assert!(!before.contains(c.toolchain()), "{}: a toolchain an earlier corpus has is not unseen", c.file);
        assert!(c.source.is_some(), "{}: says whether it is real or written", c.file);
    }
    let real = cases.iter().filter(|c| c.source.as_deref() == Some("real")).count();
    eprintln!(
        "{corpus}: {} cases ({real} real, {} written) of {} toolchains in {} families, classes {classes:?}",
        cases.len(),
        cases.len() - real,
        toolchains.len(),
        families.len()
    );
    assert!(
        toolchains.len() >= 15 && families.len() >= 5,
        "{} toolchains, {} families",
        toolchains.len(),
        families.len()
    );
    assert!(classes.len() >= 7, "every class but OTHER has {corpus} cases: {classes:?}");
    cases
}

// Pins issue 31's "Build decisions that generalise — really": outputs of toolchains that no row, no earlier
// case and no issue names, run here, read by cues never written from them.
#[test]
fn build_decisions_generalise_to_toolchains_no_cue_was_written_from() {
    let first = unseen("unseen", &[]);
    report("unseen, every row", &first, classify);
    generic_only("unseen", &first);
    let lofo = leave_one_family_out("unseen", &first);
    assert!(lofo >= UNSEEN_FLOOR, "unseen accuracy {:.1}% fell below its floor", lofo * 100.0);
    let second = unseen("unseen_2", &first.iter().collect::<Vec<_>>());
    report("unseen_2, every row", &second, classify);
    generic_only("unseen_2", &second);
    let lofo = leave_one_family_out("unseen_2", &second);
    assert!(lofo >= UNSEEN_2_FLOOR, "unseen_2 accuracy {:.1}% fell below its floor", lofo * 100.0);
    let third = unseen("unseen_3", &first.iter().chain(&second).collect::<Vec<_>>());
    report("unseen_3, every row", &third, classify);
    generic_only("unseen_3", &third);
    let lofo = leave_one_family_out("unseen_3", &third);
    assert!(lofo >= UNSEEN_3_FLOOR, "unseen_3 accuracy {:.1}% fell below its floor", lofo * 100.0);
    let earlier: Vec<&Case> = first.iter().chain(&second).chain(&third).collect();
    let fourth = unseen("unseen_4", &earlier);
    report("unseen_4, every row", &fourth, classify);
    generic_only("unseen_4", &fourth);
    let lofo = leave_one_family_out("unseen_4", &fourth);
    assert!(lofo >= UNSEEN_4_FLOOR, "unseen_4 accuracy {:.1}% fell below its floor", lofo * 100.0);
    let earlier: Vec<&Case> = earlier.into_iter().chain(&fourth).collect();
    let fifth = unseen("unseen_5", &earlier);
    report("unseen_5, every row", &fifth, classify);
    generic_only("unseen_5", &fifth);
    let lofo = leave_one_family_out("unseen_5", &fifth);
    assert!(lofo >= UNSEEN_5_FLOOR, "unseen_5 accuracy {:.1}% fell below its floor", lofo * 100.0);
    let earlier: Vec<&Case> = earlier.into_iter().chain(&fifth).collect();
    let sixth = unseen("unseen_6", &earlier);
    report("unseen_6, every row", &sixth, classify);
    generic_only("unseen_6", &sixth);
    let lofo = leave_one_family_out("unseen_6", &sixth);
    assert!(lofo >= UNSEEN_6_FLOOR, "unseen_6 accuracy {:.1}% fell below its floor", lofo * 100.0);
    let earlier: Vec<&Case> = earlier.into_iter().chain(&sixth).collect();
    let seventh = unseen("unseen_7", &earlier);
    report("unseen_7, every row", &seventh, classify);
    generic_only("unseen_7", &seventh);
    let lofo = leave_one_family_out("unseen_7", &seventh);
    assert!(lofo >= UNSEEN_7_FLOOR, "unseen_7 accuracy {:.1}% fell below its floor", lofo * 100.0);
}

/// What the committed combination (the rules where their evidence is decisive, or clear and the model less
/// than 99.9% sure; the model elsewhere) must not fall below, leaving one corpus out over the seven unseen
/// corpora, each read by the rules as they were when it was made (`as_made.txt`) and by a model trained on
/// the other corpora: 512/644 (79.5%) measured, less a margin of five cases (507/644 is 78.73%). The rules
/// alone read 445/644 (69.1%) so. (With six corpora, before `unseen_7/` measured the frozen model at
/// 78/110: 432/534, 80.9%.)
const LEARNED_CORPUS_OUT_FLOOR: f64 = 0.787;

/// The same, leaving one family folder out (every corpus's folders of that name): 509/644 (79.0%)
/// measured on the unseen corpora, less five cases (504/644 is 78.26%).
const LEARNED_FAMILY_OUT_FLOOR: f64 = 0.782;

// Pins issue 31's seventh round: a learned fallback, measured by holding out whole corpora and whole families.
#[test]
fn build_decisions_learned_fallback() {
    let all = learned::read_all();
    let text = learned::trained_text(&all, learned::CHOSEN);
    let path = learned::committed_path();
    if std::env::var_os("PHASEGATE_WRITE_MODEL").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    eprintln!("model: {} bytes, {} features", text.len(), text.lines().count() - 2);
    if std::env::var_os("PHASEGATE_VARIANTS").is_some() {
        for v in learned::VARIANTS {
            learned::leave_one_corpus_out(&all, v, false);
            learned::forward(&all, v);
            learned::leave_one_family_out(&all, v);
        }
    }
    let combined = learned::POLICIES.iter().position(|(name, _)| *name == "combined").unwrap();
    let (right, n) = learned::leave_one_corpus_out(&all, learned::CHOSEN, true);
    let corpus_out = right[combined] as f64 / n as f64;
    learned::forward(&all, learned::CHOSEN);
    let (right, n) = learned::leave_one_family_out(&all, learned::CHOSEN);
    let family_out = right[combined] as f64 / n as f64;
    if let Ok(spec) = std::env::var("PHASEGATE_MISSES") {
        let (corpora, policy) = spec.split_once(':').unwrap();
        for corpus in corpora.split(',') {
            learned::misses(&all, learned::CHOSEN, corpus, policy.parse().unwrap());
        }
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == text,
        "{} differs from what training gives now (PHASEGATE_WRITE_MODEL=1 writes it)",
        path.display()
    );
    assert!(text.len() < 300 * 1024, "the model is {} bytes", text.len());
    assert!(
        corpus_out >= LEARNED_CORPUS_OUT_FLOOR,
        "leaving one corpus out: {:.1}% fell below its floor",
        corpus_out * 100.0
    );
    assert!(
        family_out >= LEARNED_FAMILY_OUT_FLOOR,
        "leaving one family out: {:.1}% fell below its floor",
        family_out * 100.0
    );
}
