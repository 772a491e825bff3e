//! The learned fallback (issue 31, seventh round): the model trained on every corpus, checked against the
//! committed file, and measured by cross-validation that holds out whole corpora and whole families: the
//! rules alone, the model alone, and the rules with the model where they are unsure.

use std::collections::{BTreeMap, BTreeSet};

use phasegate_core::tasks::ErrorType;
use phasegate_core::tasks::learned::{self, Example, Model, RulesSaid};

use crate::corpus::{self, Case};
use crate::own_families;

/// Every labelled corpus, in the order they were made.
pub const CORPORA: [&str; 8] =
    ["development", "held_out", "unseen", "unseen_2", "unseen_3", "unseen_4", "unseen_5", "unseen_6"];

/// The committed model, relative to the crate.
const MODEL_FILE: &str = "src/tasks/build_model.txt";

/// One case, read once: its corpus, its features, what the rules say without its own families' rows.
pub struct Read {
    pub corpus: &'static str,
    pub case: Case,
    pub features: BTreeSet<String>,
    pub rules: RulesSaid,
}

pub fn read_all() -> Vec<Read> {
    CORPORA
        .iter()
        .flat_map(|&corpus| {
            corpus::read(corpus).into_iter().map(move |case| {
                let features = learned::features(case.command.as_deref(), &case.output);
                let rules = learned::rules(&own_families(&case), case.command.as_deref(), &case.output);
                Read { corpus, case, features, rules }
            })
        })
        .collect()
}

pub fn train(cases: &[&Read]) -> Model {
    let examples: Vec<Example<'_>> = cases
        .iter()
        .map(|r| Example { features: &r.features, label: learned::label(&r.case.want), toolchain: r.case.toolchain() })
        .collect();
    Model::train(&examples)
}

/// An experiment's features: a case's own, changed.
pub struct Variant {
    pub name: &'static str,
    pub min_toolchains: usize,
    pub features: fn(&Read) -> BTreeSet<String>,
}

/// The rules' answer as `times` features of its own.
fn with_rules(r: &Read, times: usize) -> BTreeSet<String> {
    let mut f = r.features.clone();
    for i in 0..times {
        f.insert(format!("@rule{i}:{}:{}", learned::LABELS[learned::label(&r.rules.error)], r.rules.strength));
    }
    f
}

pub const VARIANTS: [Variant; 6] = [
    Variant { name: "words and pairs, 2 toolchains", min_toolchains: 2, features: |r| r.features.clone() },
    Variant { name: "words and pairs, 3 toolchains", min_toolchains: 3, features: |r| r.features.clone() },
    Variant { name: "words and pairs, 5 toolchains", min_toolchains: 5, features: |r| r.features.clone() },
    Variant {
        name: "words only, 2 toolchains",
        min_toolchains: 2,
        features: |r| r.features.iter().filter(|f| !f.contains(' ')).cloned().collect(),
    },
    Variant { name: "rules as 1 feature", min_toolchains: 2, features: |r| with_rules(r, 1) },
    Variant { name: "rules as 10 features", min_toolchains: 2, features: |r| with_rules(r, 10) },
];

/// Leave one corpus out for each variant: the unseen corpora's right answers per policy.
pub fn variants(all: &[Read]) {
    for v in &VARIANTS {
        let features: Vec<BTreeSet<String>> = all.iter().map(v.features).collect();
        header(&format!("variant {}: leave one corpus out", v.name));
        let mut unseen = vec![0; POLICIES.len()];
        let mut n = 0;
        for corpus in CORPORA.iter().filter(|c| c.starts_with("unseen")) {
            let examples: Vec<Example<'_>> = all
                .iter()
                .zip(&features)
                .filter(|(r, _)| r.corpus != *corpus)
                .map(|(r, f)| Example { features: f, label: learned::label(&r.case.want), toolchain: r.case.toolchain() })
                .collect();
            let model = Model::train_min(&examples, v.min_toolchains);
            let mut right = vec![0; POLICIES.len()];
            let mut m = 0;
            for (r, f) in all.iter().zip(&features).filter(|(r, _)| r.corpus == *corpus) {
                let p = model.probabilities_of(f);
                m += 1;
                for (i, (_, policy)) in POLICIES.iter().enumerate() {
                    if policy(&r.rules, &p) == r.case.want {
                        right[i] += 1;
                    }
                }
            }
            if *corpus == "unseen_6" {
                row(corpus, &right, m);
            }
            unseen.iter_mut().zip(&right).for_each(|(u, r)| *u += r);
            n += m;
        }
        row("unseen, all", &unseen, n);
    }
}

/// A way to join the rules and the model: its name, and the class it gives from what the rules say and
/// the model's probabilities.
pub type Policy = (&'static str, fn(&RulesSaid, &[f64; 8]) -> ErrorType);

fn model_says(r: &RulesSaid, p: &[f64; 8]) -> ErrorType {
    learned::error(learned::best(p).0, r.package.clone())
}

/// The model where the rules' evidence is at most `strength` and the model is at least `sure`.
fn fallback(r: &RulesSaid, p: &[f64; 8], strength: u8, sure: f64) -> ErrorType {
    let (k, q) = learned::best(p);
    if r.strength <= strength && q >= sure { learned::error(k, r.package.clone()) } else { r.error.clone() }
}

pub const POLICIES: [Policy; 9] = [
    ("rules", |r, _| r.error.clone()),
    ("model", model_says),
    ("none>model", |r, p| fallback(r, p, 0, 0.0)),
    ("hint>model", |r, p| fallback(r, p, 1, 0.0)),
    ("clear>model", |r, p| fallback(r, p, 2, 0.0)),
    ("hint>model.9", |r, p| fallback(r, p, 1, 0.9)),
    ("clear>model.9", |r, p| fallback(r, p, 2, 0.9)),
    ("clear>model.99", |r, p| fallback(r, p, 2, 0.99)),
    ("any>model.999", |r, p| fallback(r, p, 3, 0.999)),
];

/// Right answers of each policy over `test`, the model trained on `train`.
fn score(train_on: &[&Read], test: &[&Read]) -> Vec<usize> {
    let model = train(train_on);
    let mut right = vec![0; POLICIES.len()];
    for r in test {
        let p = model.probabilities_of(&r.features);
        for (i, (_, policy)) in POLICIES.iter().enumerate() {
            if policy(&r.rules, &p) == r.case.want {
                right[i] += 1;
            }
        }
    }
    right
}

fn row(name: &str, right: &[usize], n: usize) {
    let cells: Vec<String> =
        right.iter().map(|&r| format!("{r:>3}/{n:<3} {:>5.1}%", r as f64 * 100.0 / n as f64)).collect();
    eprintln!("  {name:<13} {}", cells.join("  "));
}

fn header(what: &str) {
    let names: Vec<String> = POLICIES.iter().map(|(n, _)| format!("{n:<14}")).collect();
    eprintln!("{what}\n  {:<13} {}", "", names.join(""));
}

/// Leave one corpus out: each corpus read by a model trained on the others (the rules without the case's
/// own families' rows). Returns the right answers per policy over the unseen corpora, and their number.
pub fn leave_one_corpus_out(all: &[Read]) -> (Vec<usize>, usize) {
    header("leave one corpus out (model trained on the other corpora; rules without the case's own families)");
    let mut unseen = vec![0; POLICIES.len()];
    let mut unseen_n = 0;
    for corpus in CORPORA {
        // The held-out half shares its toolchains with the development cases: both are left out together.
        fn pair(c: &str) -> &str {
            if c == "held_out" { "development" } else { c }
        }
        let train_on: Vec<&Read> = all.iter().filter(|r| pair(r.corpus) != pair(corpus)).collect();
        let test: Vec<&Read> = all.iter().filter(|r| r.corpus == corpus).collect();
        let right = score(&train_on, &test);
        row(corpus, &right, test.len());
        if corpus.starts_with("unseen") {
            unseen.iter_mut().zip(&right).for_each(|(u, r)| *u += r);
            unseen_n += test.len();
        }
    }
    row("unseen, all", &unseen, unseen_n);
    (unseen, unseen_n)
}

/// Leave one family out: each family folder's cases, in every corpus, read by a model trained on every
/// other folder's. Returns the right answers per policy and the number of cases.
pub fn leave_one_family_out(all: &[Read]) -> (Vec<usize>, usize) {
    let families: BTreeSet<&str> = all.iter().map(|r| r.case.family.as_str()).collect();
    let mut total = vec![0; POLICIES.len()];
    for family in &families {
        let train_on: Vec<&Read> = all.iter().filter(|r| r.case.family != *family).collect();
        let test: Vec<&Read> = all.iter().filter(|r| r.case.family == *family).collect();
        let right = score(&train_on, &test);
        total.iter_mut().zip(&right).for_each(|(t, r)| *t += r);
    }
    header(&format!("leave one family out ({} family folders, every corpus)", families.len()));
    row("all", &total, all.len());
    (total, all.len())
}

/// The model trained on every corpus, as its file.
pub fn trained_text(all: &[Read]) -> String {
    train(&all.iter().collect::<Vec<_>>()).to_text()
}

pub fn committed_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(MODEL_FILE)
}

/// The misses of one policy on one corpus, the model trained on the other corpora.
pub fn misses(all: &[Read], corpus: &str, policy: usize) {
    let train_on: Vec<&Read> = all.iter().filter(|r| r.corpus != corpus).collect();
    let model = train(&train_on);
    let mut by_class: BTreeMap<String, usize> = BTreeMap::new();
    for r in all.iter().filter(|r| r.corpus == corpus) {
        let p = model.probabilities_of(&r.features);
        let got = (POLICIES[policy].1)(&r.rules, &p);
        if got != r.case.want {
            *by_class.entry(format!("{:?}", r.case.want)).or_default() += 1;
            eprintln!(
                "  miss {} want {:?}, got {got:?} (rules {:?} at {}, model {} {:.2})",
                r.case.file,
                r.case.want,
                r.rules.error,
                r.rules.strength,
                learned::LABELS[learned::best(&p).0],
                learned::best(&p).1
            );
        }
    }
    eprintln!("  {} misses on {corpus}: {by_class:?}", POLICIES[policy].0);
}
