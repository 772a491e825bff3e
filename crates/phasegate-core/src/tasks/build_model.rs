//! A learned fallback (issue 31, seventh round): a naive Bayes model of the
//! labelled corpora's outputs, over normalised words and word pairs, that
//! chooses a class where the rules (the families' rows and the generic
//! cues) are unsure. The model is data: the number of training outputs of
//! each class holding each feature (`build_model.txt`), written by
//! `tests/build_decisions` from the corpora (`PHASEGATE_WRITE_MODEL=1`),
//! which also fails when the committed file differs from what training
//! gives now.
//!
//! Normalisation: ANSI colours stripped; lower case; a quoted name
//! (`'foo'`, `"x.y"`, `` `z` ``) becomes `<q>`, a path `<path>`, a file
//! name `<file>`, a number `<n>`, a hex string `<hex>`; a camel-cased word
//! is split into its words; a letter prefix with digits (`TS1005`,
//! `E0425`) keeps its letters (`ts<n>`). A feature is a word, a pair of
//! words following each other on a line (the first with `<s>` before it),
//! or a word of the command (`$test`), each counted once per output.
//! Training keeps only the features found in the outputs of at least two
//! toolchains: a toolchain's own words teach nothing about the next one.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::LazyLock;

use super::{ErrorType, RulesSaid};

/// The model trained on every corpus, as committed.
static MODEL: LazyLock<Option<Model>> = LazyLock::new(|| Model::parse(include_str!("build_model.txt")));

/// The committed model; none if its file does not parse (then the rules decide alone).
pub fn committed() -> Option<&'static Model> {
    MODEL.as_ref()
}

/// The strength of the rules' evidence at which their answer stands, whatever the model says: a
/// family's decisive row or a decisive generic cue.
pub(crate) const RULES_STAND_AT: u8 = 3;

/// How sure the model must be to override clear evidence of the rules (a test summary, a diagnostic at a
/// position); a hint, or no evidence, it overrides whenever it disagrees.
pub(crate) const OVERRIDES_CLEAR_AT: f64 = 0.999;

/// How many times the rules' answer is a feature of the model.
pub const RULE_WEIGHT: usize = 1;

/// How many of an output's words and pairs the model must know before it speaks: below that (an empty
/// output, a word or two) the rules' answer stands (`OTHER` where no line speaks: the user decides).
pub(crate) const MIN_KNOWN: usize = 5;

/// The rules' answer where their evidence is decisive, or clear and the model not quite sure, or where
/// the model knows fewer than [`MIN_KNOWN`] of the output's features; else the model's, reading the
/// output and the rules' answer, with the package a line names (none when no line names one).
pub fn combine(said: &RulesSaid, p: &[f64; K], known: usize) -> ErrorType {
    if known < MIN_KNOWN {
        return said.error.clone();
    }
    let (k, sure) = best(p);
    let model = match said.strength {
        0 | 1 => true,
        2 => sure >= OVERRIDES_CLEAR_AT,
        _ => false,
    };
    if model { error(k, said.package.clone()) } else { said.error.clone() }
}

/// [`combine`] with the committed model.
pub fn decide(said: RulesSaid, command: Option<&str>, output: &str) -> ErrorType {
    match &*MODEL {
        Some(model) if said.strength < RULES_STAND_AT => {
            let (p, known) = model.probabilities(command, output, &rule_features(&said, RULE_WEIGHT));
            combine(&said, &p, known)
        }
        _ => said.error,
    }
}

/// The classes the model chooses among, in the order of its counts.
pub const LABELS: [&str; 8] =
    ["SYNTAX_ERROR", "MISSING_DEPENDENCY", "CONFLICT", "VALIDATION_FAILED", "NETWORK", "TIMEOUT", "RESOURCE", "OTHER"];

const K: usize = LABELS.len();

/// The first line of the model's file, naming its format.
const HEADER: &str = "phasegate build model 1";

/// In how many toolchains' outputs a feature must be found to be kept.
pub const MIN_TOOLCHAINS: usize = 2;

/// The smoothing added to each feature's count of each class.
pub const ALPHA: f64 = 0.1;

/// The index of `e`'s class in [`LABELS`].
pub fn label(e: &ErrorType) -> usize {
    match e {
        ErrorType::SyntaxError => 0,
        ErrorType::MissingDependency { .. } => 1,
        ErrorType::Conflict => 2,
        ErrorType::ValidationFailed => 3,
        ErrorType::Network => 4,
        ErrorType::Timeout => 5,
        ErrorType::Resource => 6,
        ErrorType::Other => 7,
    }
}

/// The class of index `label`, naming `package` when it is a missing dependency.
pub fn error(label: usize, package: Option<String>) -> ErrorType {
    match label {
        0 => ErrorType::SyntaxError,
        1 => ErrorType::MissingDependency { package },
        2 => ErrorType::Conflict,
        3 => ErrorType::ValidationFailed,
        4 => ErrorType::Network,
        5 => ErrorType::Timeout,
        6 => ErrorType::Resource,
        _ => ErrorType::Other,
    }
}

/// Calls `f` with each feature of an output (a feature may come more than once).
pub(crate) fn each_feature(command: Option<&str>, output: &str, mut f: impl FnMut(&str)) {
    let mut tokens: Vec<String> = Vec::new();
    let mut pair = String::new();
    for raw in super::scanned_lines(output) {
        tokens.clear();
        tokens.push("<s>".to_owned());
        if raw.contains('\x1b') {
            line_tokens(&super::ANSI.replace_all(raw, ""), &mut tokens);
        } else {
            line_tokens(raw, &mut tokens);
        }
        for (i, t) in tokens.iter().enumerate() {
            if i > 0 {
                f(t);
                pair.clear();
                pair.push_str(&tokens[i - 1]);
                pair.push(' ');
                pair.push_str(t);
                f(&pair);
            }
        }
    }
    if let Some(command) = command {
        for word in command.split(|c: char| !c.is_ascii_alphabetic()).filter(|w| w.len() > 1) {
            f(&format!("${}", word.to_ascii_lowercase()));
        }
    }
}

/// The features of an output, each once, in order.
pub fn features(command: Option<&str>, output: &str) -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    each_feature(command, output, |f| {
        if !set.contains(f) {
            set.insert(f.to_owned());
        }
    });
    set
}

/// The rules' answer as features of the model, each `weight` times: its class and the strength of its
/// evidence, and whether a line names a missing package.
pub fn rule_features(rules: &RulesSaid, weight: usize) -> Vec<String> {
    let class = LABELS[label(&rules.error)];
    let mut out = Vec::new();
    for i in 0..weight {
        out.push(format!("@rule{i}:{class}:{}", rules.strength));
        out.push(format!("@rule{i}:{class}"));
        if rules.package.is_some() {
            out.push(format!("@named{i}"));
        }
    }
    out
}

fn closing(c: char) -> Option<char> {
    match c {
        '\'' | '"' | '`' => Some(c),
        '‘' => Some('’'),
        '“' => Some('”'),
        _ => None,
    }
}

/// A line's normalised tokens, pushed onto `out`.
fn line_tokens(line: &str, out: &mut Vec<String>) {
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if let Some(close) = closing(c) {
            // A quote opens after a space or a punctuation mark, not inside a word (`can't`).
            let opens = i == 0 || !chars[i - 1].is_alphanumeric();
            let end = (i + 1..chars.len().min(i + 120)).find(|&j| chars[j] == close);
            match end {
                Some(j) if opens && j > i + 1 => {
                    out.push("<q>".to_owned());
                    i = j + 1;
                }
                _ => i += 1,
            }
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && !chars[i].is_whitespace() && closing(chars[i]).is_none() {
            i += 1;
        }
        chunk_tokens(&chars[start..i], out);
    }
}

/// A chunk's tokens: a path or a file name as one placeholder, else its words and numbers.
fn chunk_tokens(chunk: &[char], out: &mut Vec<String>) {
    let is_punct = |c: &char| !c.is_alphanumeric() && *c != '_';
    if chunk.iter().all(is_punct) {
        let first = chunk[0];
        if "^~<>=-*+#!|".contains(first) && (first == '^' || chunk.len() >= 3) {
            out.push(std::iter::repeat_n(first, 3).collect());
        }
        return;
    }
    // Pieces split at the marks that join a position to a file (`a.py:3:5`, `a.c(3)`, `x=1`).
    for piece in chunk.split(|c| matches!(c, ':' | '(' | ')' | ',' | '=' | '[' | ']' | '{' | '}' | '<' | '>' | ';')) {
        let start = piece.iter().position(|c| !is_punct(c));
        let end = piece.iter().rposition(|c| !is_punct(c));
        let (Some(start), Some(end)) = (start, end) else { continue };
        let piece = &piece[start..=end];
        if piece.iter().any(|&c| c == '/' || c == '\\') && piece.len() > 1 {
            out.push("<path>".to_owned());
        } else if is_file(piece) {
            out.push("<file>".to_owned());
        } else {
            words(piece, out);
        }
    }
}

/// A file name or a dotted name: letters, a dot, then a short extension of letters and digits.
fn is_file(piece: &[char]) -> bool {
    let Some(dot) = piece.iter().rposition(|&c| c == '.') else { return false };
    let ext = &piece[dot + 1..];
    dot > 0
        && piece[dot - 1].is_alphanumeric()
        && (1..=8).contains(&ext.len())
        && ext.iter().all(|c| c.is_ascii_alphanumeric())
        && ext.iter().any(|c| c.is_ascii_alphabetic())
}

/// The words of a piece: letters (a camel-cased word split into its words), numbers as `<n>`, hex as
/// `<hex>`, letters followed by digits as the letters and `<n>`.
fn words(piece: &[char], out: &mut Vec<String>) {
    let mut i = 0;
    while i < piece.len() {
        if !piece[i].is_alphanumeric() {
            i += 1;
            continue;
        }
        let start = i;
        while i < piece.len() && piece[i].is_alphanumeric() {
            i += 1;
        }
        let run = &piece[start..i];
        let digits = run.iter().filter(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            camel_words(run, out);
        } else if digits == run.len() {
            out.push("<n>".to_owned());
        } else if run.len() >= 6 && run.iter().all(|c| c.is_ascii_hexdigit()) {
            out.push("<hex>".to_owned());
        } else {
            let letters: String = run.iter().take_while(|c| c.is_alphabetic()).flat_map(|c| c.to_lowercase()).collect();
            out.push(format!("{letters}<n>"));
        }
    }
}

/// A run of letters, lower-cased, a camel-cased one split at its capitals (`ModuleNotFoundError`).
fn camel_words(run: &[char], out: &mut Vec<String>) {
    if run.len() > 30 {
        out.push("<long>".to_owned());
        return;
    }
    let mut word = String::new();
    for (j, &c) in run.iter().enumerate() {
        let boundary = j > 0
            && c.is_uppercase()
            && (run[j - 1].is_lowercase() || run.get(j + 1).is_some_and(|n| n.is_lowercase()));
        if boundary && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        word.extend(c.to_lowercase());
    }
    if !word.is_empty() {
        out.push(word);
    }
}

/// A naive Bayes model: for each feature kept, how many training outputs of each class hold it.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// Training outputs per class.
    docs: [u32; K],
    counts: BTreeMap<String, [u32; K]>,
    /// Log-probabilities, computed from the counts.
    weights: HashMap<String, [f64; K]>,
    /// The log-prior of each class.
    prior: [f64; K],
}

/// One training output: its features, the class it must get, and the toolchain that printed it.
pub struct Example<'a> {
    pub features: &'a BTreeSet<String>,
    pub label: usize,
    pub toolchain: &'a str,
}

impl Model {
    /// Trains on `examples`: the features found in at least two toolchains' outputs, counted per class.
    pub fn train(examples: &[Example<'_>]) -> Model {
        Model::train_with(examples, MIN_TOOLCHAINS, ALPHA)
    }

    /// Trains on `examples`, keeping the features found in at least `min_toolchains` toolchains' outputs.
    pub fn train_with(examples: &[Example<'_>], min_toolchains: usize, alpha: f64) -> Model {
        let mut toolchains: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for e in examples {
            for f in e.features {
                toolchains.entry(f.as_str()).or_default().insert(e.toolchain);
            }
        }
        let mut docs = [0; K];
        let mut counts: BTreeMap<String, [u32; K]> = BTreeMap::new();
        for e in examples {
            docs[e.label] += 1;
            for f in e.features {
                if toolchains[f.as_str()].len() >= min_toolchains {
                    counts.entry(f.clone()).or_insert([0; K])[e.label] += 1;
                }
            }
        }
        Model::from_counts(docs, counts, alpha)
    }

    fn from_counts(docs: [u32; K], counts: BTreeMap<String, [u32; K]>, alpha: f64) -> Model {
        let total_docs: u32 = docs.iter().sum();
        let vocabulary = counts.len() as f64;
        let mut mass = [0f64; K];
        for c in counts.values() {
            for k in 0..K {
                mass[k] += f64::from(c[k]);
            }
        }
        let weights = counts
            .iter()
            .map(|(f, c)| {
                let mut w = [0f64; K];
                for k in 0..K {
                    w[k] = ((f64::from(c[k]) + alpha) / (mass[k] + alpha * vocabulary)).ln();
                }
                (f.clone(), w)
            })
            .collect();
        let mut prior = [0f64; K];
        for k in 0..K {
            prior[k] = ((f64::from(docs[k]) + 1.0) / (f64::from(total_docs) + K as f64)).ln();
        }
        Model { docs, counts, weights, prior }
    }

    /// How many features the model keeps.
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    /// Whether the model keeps no feature.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// The model as its file: a header, the outputs per class, then a line per feature (its name, a tab,
    /// `class:count` for each class that has it).
    pub fn to_text(&self) -> String {
        let mut text = format!("{HEADER}\n{}\n", self.docs.map(|d| d.to_string()).join(" "));
        for (f, c) in &self.counts {
            text.push_str(f);
            text.push('\t');
            let cells: Vec<String> = (0..K).filter(|&k| c[k] > 0).map(|k| format!("{k}:{}", c[k])).collect();
            text.push_str(&cells.join(" "));
            text.push('\n');
        }
        text
    }

    /// The model of a file [`Model::to_text`] wrote; none when it is not one.
    pub fn parse(text: &str) -> Option<Model> {
        let mut lines = text.lines();
        if lines.next()? != HEADER {
            return None;
        }
        let mut docs = [0; K];
        let given: Vec<u32> = lines.next()?.split(' ').map(str::parse).collect::<Result<_, _>>().ok()?;
        if given.len() != K {
            return None;
        }
        docs.copy_from_slice(&given);
        let mut counts = BTreeMap::new();
        for line in lines {
            let (f, cells) = line.split_once('\t')?;
            let mut c = [0; K];
            for cell in cells.split(' ') {
                let (k, n) = cell.split_once(':')?;
                *c.get_mut(k.parse::<usize>().ok()?)? = n.parse().ok()?;
            }
            counts.insert(f.to_owned(), c);
        }
        Some(Model::from_counts(docs, counts, ALPHA))
    }

    /// The probability of each class for an output's features and `extra` ones, and how many of the
    /// output's the model knows.
    pub fn probabilities(&self, command: Option<&str>, output: &str, extra: &[String]) -> ([f64; K], usize) {
        let mut seen: BTreeSet<&str> = BTreeSet::new();
        let mut score = self.prior;
        let mut known = 0;
        let mut add = |f: &str| {
            if let Some((name, w)) = self.weights.get_key_value(f)
                && seen.insert(name.as_str())
            {
                known += usize::from(!name.starts_with('@'));
                for k in 0..K {
                    score[k] += w[k];
                }
            }
        };
        each_feature(command, output, &mut add);
        extra.iter().for_each(|f| add(f));
        (normalised(score), known)
    }

    /// The probability of each class for a set of features, and how many of them the model knows, the
    /// rules' (`@...`) not counted.
    pub fn probabilities_of(&self, features: &BTreeSet<String>) -> ([f64; K], usize) {
        let mut score = self.prior;
        let mut known = 0;
        for f in features {
            if let Some(w) = self.weights.get(f) {
                known += usize::from(!f.starts_with('@'));
                for k in 0..K {
                    score[k] += w[k];
                }
            }
        }
        (normalised(score), known)
    }
}

fn normalised(score: [f64; K]) -> [f64; K] {
    let top = score.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut p = score.map(|s| (s - top).exp());
    let sum: f64 = p.iter().sum();
    for x in &mut p {
        *x /= sum;
    }
    p
}

/// The most probable class, and its probability.
pub fn best(p: &[f64; K]) -> (usize, f64) {
    (0..K).fold((0, f64::NEG_INFINITY), |(b, bp), k| if p[k] > bp { (k, p[k]) } else { (b, bp) })
}
