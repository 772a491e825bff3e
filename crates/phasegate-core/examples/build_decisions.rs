//! Tools for the build-decision corpora (not tests; `tests/build_decisions`
//! measures them):
//!
//! - `cargo run -p phasegate-core --example build_decisions -- explain development/go/go-build-missing-1.txt`:
//!   what each line of a case says, with every family and with the case's own left out;
//! - `cargo run -p phasegate-core --release --example build_decisions -- speed`: how long 128 KiB of tool
//!   output (the development cases, repeated) takes to classify, the regular expressions already compiled.
#![allow(clippy::disallowed_methods, reason = "a tool reads the corpora's files")]
#![allow(clippy::print_stderr, reason = "a tool prints what it found")]

#[path = "../tests/build_decisions/corpus.rs"]
#[allow(dead_code, reason = "the tool uses part of the corpus reader")]
mod corpus;

use phasegate_core::tasks::{ErrorType, build_families, classify_run, classify_run_without, learned};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["explain", file] => explain(file),
        ["speed"] => speed(),
        _ => {
            eprintln!("usage: build_decisions explain <corpus>/<family>/<case>.txt | speed");
            std::process::exit(2);
        }
    }
}

fn explain(file: &str) {
    let (corpus_name, _) = file.split_once('/').expect("<corpus>/<family>/<case>.txt");
    let cases = corpus::read(corpus_name);
    let c = cases.iter().find(|c| c.file == file).expect("no such case");
    let own: Vec<&'static str> = build_families()
        .filter(|(name, toolchains)| *name == c.family || toolchains.contains(&c.toolchain()))
        .map(|(name, _)| name)
        .collect();
    eprintln!(
        "{}: want {:?}, got {:?}, without {own:?} {:?}",
        c.file,
        c.want,
        classify_run(c.command.as_deref(), &c.output),
        classify_run_without(&own, c.command.as_deref(), &c.output)
    );
    for line in c.output.lines() {
        let all = classify_run(None, line);
        let without = classify_run_without(&own, None, line);
        if all != ErrorType::Other || without != ErrorType::Other {
            eprintln!("  {all:?} / {without:?}: {line}");
        }
    }
}

fn speed() {
    let cases = corpus::read("development");
    let mut output = String::new();
    while output.len() < 128 * 1024 {
        for c in &cases {
            output.push_str(&c.output);
        }
    }
    let start = std::time::Instant::now();
    classify_run(None, &output);
    eprintln!("first call, the expressions compiled on the way: {:?}", start.elapsed());
    let runs: Vec<std::time::Duration> = (0..5)
        .map(|_| {
            let start = std::time::Instant::now();
            classify_run(None, &output);
            start.elapsed()
        })
        .collect();
    eprintln!("{} KiB classified in {:?} (the fastest of {runs:?})", output.len() / 1024, runs.iter().min().unwrap());
    let fastest = |f: &dyn Fn()| {
        (0..5)
            .map(|_| {
                let start = std::time::Instant::now();
                f();
                start.elapsed()
            })
            .min()
            .unwrap()
    };
    let rules = fastest(&|| {
        learned::rules(&[], None, &output);
    });
    eprintln!("the rules alone: {rules:?}");
    let start = std::time::Instant::now();
    let model = learned::committed().expect("the committed model parses");
    eprintln!("the model read from its file on first use: {:?}", start.elapsed());
    let said = learned::rules(&[], None, &output);
    let extra = learned::rule_features(&said, learned::RULE_WEIGHT);
    let reading = fastest(&|| {
        model.probabilities(None, &output, &extra);
    });
    eprintln!("the model alone, on the same output (what an output the rules are unsure of adds): {reading:?}");
}
