//! The learned fallback (issue 31, seventh round): the model trained on every corpus, checked against the
//! committed file, and measured by cross-validation that holds out whole corpora and whole families: the
//! rules alone, the model alone, and the rules with the model where they are unsure.

use std::collections::{BTreeMap, BTreeSet};

use phasegate_core::tasks::ErrorType;
use phasegate_core::tasks::learned::{self, Example, Model, RulesSaid};

use crate::corpus::{self, Case};
use crate::own_families;

/// Every labelled corpus, in the order they were made.
pub const CORPORA: [&str; 9] =
    ["development", "held_out", "unseen", "unseen_2", "unseen_3", "unseen_4", "unseen_5", "unseen_6", "unseen_7"];

/// The committed model, relative to the crate.
const MODEL_FILE: &str = "src/tasks/build_model.txt";

/// One case, read once: its corpus, its features, what the rules say without its own families' rows.
pub struct Read {
    pub corpus: &'static str,
    pub case: Case,
    pub features: BTreeSet<String>,
    /// What the rules say now, without the case's own families' rows.
    pub now: RulesSaid,
    /// What the rules said as its corpus was made (`as_made.txt`): the unseen corpora's only.
    pub as_made: Option<RulesSaid>,
}

impl Read {
    /// What the rules said of the case before any cue was written from it, where that is known
    /// (the unseen corpora), else what they say now.
    pub fn rules(&self) -> &RulesSaid {
        self.as_made.as_ref().unwrap_or(&self.now)
    }
}

/// `as_made.txt`: what each frozen round of rules said of the corpus it was measured on.
fn as_made() -> BTreeMap<String, RulesSaid> {
    let text = std::fs::read_to_string(corpus::root().join("as_made.txt")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            let [file, class, strength, package] = cells[..] else { panic!("as_made.txt: {line:?}") };
            let named = |p: &str| (p != "-").then(|| p.to_owned());
            let (class, missing) = class.split_once(' ').map_or((class, None), |(c, p)| (c, named(p)));
            let label = learned::LABELS.iter().position(|l| *l == class).expect("a class");
            let said = RulesSaid {
                error: learned::error(label, missing),
                strength: strength.parse().unwrap(),
                package: named(package),
            };
            (file.to_owned(), said)
        })
        .collect()
}

pub fn read_all() -> Vec<Read> {
    let mut as_made = as_made();
    let all: Vec<Read> = CORPORA
        .iter()
        .flat_map(|&corpus| {
            corpus::read(corpus).into_iter().map(move |case| {
                let features = learned::features(case.command.as_deref(), &case.output);
                let now = learned::rules(&own_families(&case), case.command.as_deref(), &case.output);
                Read { corpus, case, features, now, as_made: None }
            })
        })
        .collect();
    all.into_iter()
        .map(|mut r| {
            r.as_made = as_made.remove(&r.case.file);
            assert_eq!(r.as_made.is_some(), r.corpus.starts_with("unseen"), "{}: as made", r.case.file);
            r
        })
        .collect()
}

/// A way to train the model: which features it keeps, and how much the rules' answer weighs among them.
#[derive(Clone, Copy)]
pub struct Variant {
    pub name: &'static str,
    pub min_toolchains: usize,
    /// How many times the rules' answer is a feature (0: the model reads the output alone).
    pub rule_weight: usize,
    pub alpha: f64,
}

/// The way the committed model is trained.
pub const CHOSEN: Variant = Variant {
    name: "the committed model (the rules' answer once among the features, alpha 0.1)",
    min_toolchains: learned::MIN_TOOLCHAINS,
    rule_weight: learned::RULE_WEIGHT,
    alpha: learned::ALPHA,
};

/// The other ways tried (`PHASEGATE_VARIANTS=1` reports them).
pub const VARIANTS: [Variant; 7] = [
    Variant { name: "the output alone, alpha 0.5", min_toolchains: 2, rule_weight: 0, alpha: 0.5 },
    Variant { name: "the output alone, 3 toolchains", min_toolchains: 3, rule_weight: 0, alpha: 0.5 },
    Variant { name: "rules 1, alpha 0.5", min_toolchains: 2, rule_weight: 1, alpha: 0.5 },
    Variant { name: "rules 1, alpha 1", min_toolchains: 2, rule_weight: 1, alpha: 1.0 },
    Variant { name: "rules 3, alpha 1", min_toolchains: 2, rule_weight: 3, alpha: 1.0 },
    Variant { name: "rules 10, alpha 0.5", min_toolchains: 2, rule_weight: 10, alpha: 0.5 },
    Variant { name: "rules 30, alpha 0.5", min_toolchains: 2, rule_weight: 30, alpha: 0.5 },
];

/// A case's features under `v`, with what the rules said of it (as made, where known).
fn features_of(r: &Read, v: Variant) -> BTreeSet<String> {
    let mut f = r.features.clone();
    f.extend(learned::rule_features(r.rules(), v.rule_weight));
    f
}

pub fn train(cases: &[(&Read, &BTreeSet<String>)], v: Variant) -> Model {
    let examples: Vec<Example<'_>> = cases
        .iter()
        .map(|(r, f)| Example { features: f, label: learned::label(&r.case.want), toolchain: r.case.toolchain() })
        .collect();
    Model::train_with(&examples, v.min_toolchains, v.alpha)
}

/// A way to join the rules and the model: its name, and the class it gives from what the rules say and
/// the model's probabilities.
pub type Policy = (&'static str, fn(&RulesSaid, &[f64; 8], usize) -> ErrorType);

fn model_says(r: &RulesSaid, p: &[f64; 8], _: usize) -> ErrorType {
    learned::error(learned::best(p).0, r.package.clone())
}

/// The model where the rules' evidence is at most `strength` and the model is at least `sure`.
fn fallback(r: &RulesSaid, p: &[f64; 8], strength: u8, sure: f64) -> ErrorType {
    let (k, q) = learned::best(p);
    if r.strength <= strength && q >= sure { learned::error(k, r.package.clone()) } else { r.error.clone() }
}

/// The policies compared: the rules alone, the model alone, the committed combination (the rules where
/// their evidence is decisive, or clear and the model less than 99.9% sure; the model elsewhere), and
/// others tried: the model where the rules' evidence is at most none, a hint, clear, or clear and the
/// model at least 90% sure.
pub const POLICIES: [Policy; 7] = [
    ("rules", |r, _, _| r.error.clone()),
    ("model", model_says),
    ("combined", learned::combine),
    ("none>model", |r, p, _| fallback(r, p, 0, 0.0)),
    ("hint>model", |r, p, _| fallback(r, p, 1, 0.0)),
    ("clear>model", |r, p, _| fallback(r, p, 2, 0.0)),
    ("clear>m.9", |r, p, _| fallback(r, p, 2, 0.9)),
];

/// Right answers of each policy over the cases `test` picks, the model trained on those `train_on` picks.
fn score(
    all: &[Read],
    features: &[BTreeSet<String>],
    v: Variant,
    train_on: impl Fn(&Read) -> bool,
    test: impl Fn(&Read) -> bool,
) -> (Vec<usize>, usize) {
    let training: Vec<(&Read, &BTreeSet<String>)> = all.iter().zip(features).filter(|(r, _)| train_on(r)).collect();
    let model = train(&training, v);
    let mut right = vec![0; POLICIES.len()];
    let mut n = 0;
    for (r, f) in all.iter().zip(features).filter(|(r, _)| test(r)) {
        n += 1;
        let (p, known) = model.probabilities_of(f);
        for (i, (_, policy)) in POLICIES.iter().enumerate() {
            if policy(r.rules(), &p, known) == r.case.want {
                right[i] += 1;
            }
        }
    }
    (right, n)
}

fn row(name: &str, right: &[usize], n: usize) {
    let cells: Vec<String> =
        right.iter().map(|&r| format!("{r:>3}/{n:<3} {:>5.1}%", r as f64 * 100.0 / n as f64)).collect();
    eprintln!("  {name:<13} {}", cells.join(" "));
}

fn header(what: &str) {
    let names: Vec<String> = POLICIES.iter().map(|(n, _)| format!("{n:<14}")).collect();
    eprintln!("{what}\n  {:<13} {}", "", names.join(""));
}

/// The held-out half shares its toolchains with the development cases: the two are left out together.
fn pair(c: &str) -> &str {
    if c == "held_out" { "development" } else { c }
}

/// Leave one corpus out under `v`: each corpus read by a model trained on the others; the rules are
/// what they said as the corpus was made (the unseen corpora) or say now without the case's own
/// families' rows (development and held-out, from which they were written). Returns the right answers
/// per policy over the unseen corpora, and their number.
pub fn leave_one_corpus_out(all: &[Read], v: Variant, every_corpus: bool) -> (Vec<usize>, usize) {
    let features: Vec<BTreeSet<String>> = all.iter().map(|r| features_of(r, v)).collect();
    header(&format!("leave one corpus out, {}", v.name));
    let mut unseen = vec![0; POLICIES.len()];
    let mut unseen_n = 0;
    for corpus in CORPORA {
        let (right, n) = score(all, &features, v, |r| pair(r.corpus) != pair(corpus), |r| r.corpus == corpus);
        if every_corpus || corpus == "unseen_6" {
            row(corpus, &right, n);
        }
        if corpus.starts_with("unseen") {
            unseen.iter_mut().zip(&right).for_each(|(u, r)| *u += r);
            unseen_n += n;
        }
    }
    row("unseen, all", &unseen, unseen_n);
    (unseen, unseen_n)
}

/// Each unseen corpus read by a model trained only on the corpora made before it, as the rules were.
pub fn forward(all: &[Read], v: Variant) -> (Vec<usize>, usize) {
    let features: Vec<BTreeSet<String>> = all.iter().map(|r| features_of(r, v)).collect();
    header(&format!("each unseen corpus, the model trained on the corpora before it, {}", v.name));
    let order = |c: &str| CORPORA.iter().position(|k| *k == c).unwrap();
    let mut total = vec![0; POLICIES.len()];
    let mut total_n = 0;
    for corpus in CORPORA.iter().filter(|c| c.starts_with("unseen")) {
        let (right, n) = score(all, &features, v, |r| order(r.corpus) < order(corpus), |r| r.corpus == *corpus);
        row(corpus, &right, n);
        total.iter_mut().zip(&right).for_each(|(t, r)| *t += r);
        total_n += n;
    }
    row("unseen, all", &total, total_n);
    (total, total_n)
}

/// Leave one family out under `v`: each family folder's cases, in every corpus, read by a model trained
/// on every other folder's. Returns the right answers per policy over the unseen corpora's cases and all.
pub fn leave_one_family_out(all: &[Read], v: Variant) -> (Vec<usize>, usize) {
    let features: Vec<BTreeSet<String>> = all.iter().map(|r| features_of(r, v)).collect();
    let families: BTreeSet<&str> = all.iter().map(|r| r.case.family.as_str()).collect();
    let mut unseen = vec![0; POLICIES.len()];
    let mut unseen_n = 0;
    let mut total = vec![0; POLICIES.len()];
    for family in &families {
        let (right, _) = score(all, &features, v, |r| r.case.family != *family, |r| r.case.family == *family);
        total.iter_mut().zip(&right).for_each(|(t, r)| *t += r);
        let (right, n) = score(
            all,
            &features,
            v,
            |r| r.case.family != *family,
            |r| r.case.family == *family && r.corpus.starts_with("unseen"),
        );
        unseen.iter_mut().zip(&right).for_each(|(t, r)| *t += r);
        unseen_n += n;
    }
    header(&format!("leave one family out ({} family folders), {}", families.len(), v.name));
    row("unseen", &unseen, unseen_n);
    row("all", &total, all.len());
    (unseen, unseen_n)
}

/// The model trained on every corpus under `v`, as its file.
pub fn trained_text(all: &[Read], v: Variant) -> String {
    let features: Vec<BTreeSet<String>> = all.iter().map(|r| features_of(r, v)).collect();
    train(&all.iter().zip(&features).collect::<Vec<_>>(), v).to_text()
}

pub fn committed_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(MODEL_FILE)
}

/// The misses of one policy on one corpus, the model trained on the other corpora.
pub fn misses(all: &[Read], v: Variant, corpus: &str, policy: usize) {
    let features: Vec<BTreeSet<String>> = all.iter().map(|r| features_of(r, v)).collect();
    let training: Vec<(&Read, &BTreeSet<String>)> =
        all.iter().zip(&features).filter(|(r, _)| pair(r.corpus) != pair(corpus)).collect();
    let model = train(&training, v);
    for (r, f) in all.iter().zip(&features).filter(|(r, _)| r.corpus == corpus) {
        let (p, known) = model.probabilities_of(f);
        let got = (POLICIES[policy].1)(r.rules(), &p, known);
        if got != r.case.want {
            eprintln!(
                "  miss {} want {:?}, got {got:?} (rules {:?} at {}, model {} {:.2})",
                r.case.file,
                r.case.want,
                r.rules().error,
                r.rules().strength,
                learned::LABELS[learned::best(&p).0],
                learned::best(&p).1
            );
        }
    }
}
