//! What the documentation says, held to what the code does: the JSON
//! examples of the Markdown and the README against the schemas they name,
//! the numbers the README states against the code's constants, the exit
//! codes of the README, SKILL.md and `--help` against each other, the steps
//! of the phase loop the binaries name against phase-loop.md, the seven
//! phase commands against one template, and every seed cited against
//! docs/seeds/.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use phasegate_core::schema::Schema;
use regex::Regex;
use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Every file under `dirs` ending in one of `exts`, sorted, relative to the root.
fn files(dirs: &[&str], exts: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = dirs
        .iter()
        .flat_map(|d| walkdir::WalkDir::new(root().join(d)).into_iter().map(|e| e.unwrap().into_path()))
        .filter(|p| p.extension().is_some_and(|x| exts.iter().any(|e| x == *e)))
        .map(|p| p.strip_prefix(root()).unwrap().display().to_string())
        .collect();
    out.sort();
    out
}

/// The Markdown the model reads.
fn markdown_files() -> Vec<String> {
    files(&["commands", "agents", "skills"], &["md"])
}

/// A JSON example in a Markdown file, and the schema its paragraph names
/// (`workflow-state schema <name>` or a link to `schemas/<name>.schema.json`;
/// the last one named before it).
#[derive(Debug)]
struct Example {
    at: String,
    text: String,
    claim: Option<Schema>,
}

fn claim(text: &str) -> Option<Schema> {
    let re = Regex::new(r"workflow-state schema ([a-z-]+)|schemas/([a-z-]+\.schema\.json)").unwrap();
    let last = re.captures_iter(text).last()?;
    match (last.get(1), last.get(2)) {
        (Some(name), _) => Schema::named(name.as_str()),
        (_, Some(file)) => Schema::ALL.into_iter().find(|s| s.file_name() == file.as_str()),
        _ => None,
    }
}

/// The paragraph before line `i` (blank lines right before it skipped).
fn paragraph_before(lines: &[&str], i: usize) -> String {
    let mut j = i;
    while j > 0 && lines[j - 1].trim().is_empty() {
        j -= 1;
    }
    let end = j;
    while j > 0 && !lines[j - 1].trim().is_empty() {
        j -= 1;
    }
    lines[j..end].join("\n")
}

/// The JSON examples of `markdown`: ```json blocks, and with `inline`, a
/// line that is one object and a backtick span that starts with `{`.
fn examples(file: &str, markdown: &str, inline: bool) -> Vec<Example> {
    let lines: Vec<&str> = markdown.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let trimmed = lines[i].trim();
        if let Some(info) = trimmed.strip_prefix("```") {
            let start = i;
            i += 1;
            while i < lines.len() && !lines[i].trim().starts_with("```") {
                i += 1;
            }
            if info.trim() == "json" {
                out.push(Example {
                    at: format!("{file}:{}", start + 1),
                    text: lines[start + 1..i].join("\n"),
                    claim: claim(&paragraph_before(&lines, start)),
                });
            }
        } else if inline && trimmed.starts_with('{') && trimmed.ends_with('}') {
            out.push(Example {
                at: format!("{file}:{}", i + 1),
                text: trimmed.to_owned(),
                claim: claim(&paragraph_before(&lines, i)),
            });
        } else if inline {
            for span in lines[i].split('`').skip(1).step_by(2).filter(|s| s.starts_with('{')) {
                let context = format!("{}\n{}", paragraph_before(&lines, i), lines[i]);
                out.push(Example { at: format!("{file}:{}", i + 1), text: span.to_owned(), claim: claim(&context) });
            }
        }
        i += 1;
    }
    out
}

/// Why an example is wrong, if it is.
fn check(e: &Example) -> Option<String> {
    let value: Value = match serde_json::from_str(&e.text) {
        Ok(v) => v,
        Err(err) => return Some(format!("{}: not JSON ({err}):\n{}", e.at, e.text)),
    };
    let Some(schema) = e.claim else {
        return Some(format!(
            "{}: name its schema in the paragraph before it (`workflow-state schema <name>`):\n{}",
            e.at, e.text
        ));
    };
    schema.check(&value).err().map(|err| format!("{}: against `workflow-state schema {}`: {err}", e.at, schema.name()))
}

#[test]
fn the_example_finder_finds_blocks_lines_and_spans_with_their_schema() {
    let md = "Answer with the verdict JSON (`workflow-state schema verdict`):\n\n{\"approved\": true, \"issues\": [], \"summary\": \"ok\"}\n\nThe config ([schema](schemas/implement-config.schema.json)):\n\n```json\n{\"max_cycles\": 0}\n```\n\nUnclaimed: `{\"a\": 1}`.\n";
    let found = examples("x.md", md, true);
    let got: Vec<(&str, Option<&str>)> = found.iter().map(|e| (e.at.as_str(), e.claim.map(|s| s.name()))).collect();
    assert_eq!(got, [("x.md:3", Some("verdict")), ("x.md:7", Some("implement-config")), ("x.md:11", None)]);
    let problems: Vec<String> = found.iter().filter_map(check).collect();
    assert_eq!(problems.len(), 2, "{problems:#?}");
    assert!(problems[0].contains("/max_cycles"), "{problems:#?}");
    assert!(problems[1].contains("name its schema"), "{problems:#?}");
}

/// Issue "Room to grow": the verdict shape was written five times. Every
/// JSON example the model or a user reads is valid against the schema its
/// paragraph names.
#[test]
fn every_json_example_is_valid_against_the_schema_it_names() {
    let mut all = Vec::new();
    for file in markdown_files() {
        all.extend(examples(&file, &read(&file), true));
    }
    for file in ["README.md", "docs/design.md"] {
        all.extend(examples(file, &read(file), false));
    }
    let problems: Vec<String> = all.iter().filter_map(check).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    let claimed: BTreeSet<&str> = all.iter().filter_map(|e| e.claim.map(|s| s.name())).collect();
    // The verdict's example is the core's (VERDICT_EXAMPLE, in every
    // reviewer's prompt); no Markdown restates it.
    assert!(!claimed.contains("verdict"), "a Markdown file restates the verdict's shape ({all:#?})");
    for name in ["config", "implement-config"] {
        assert!(claimed.contains(name), "no `{name}` example found: the finder is broken ({all:#?})");
    }
}

/// The README with its whitespace collapsed, so that a phrase matches however
/// its lines wrap.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn number(s: &str) -> f64 {
    match s {
        "once" => 1.0,
        "twice" => 2.0,
        _ => s.replace(',', "").parse().unwrap_or_else(|e| panic!("{s:?} is not a number: {e}")),
    }
}

/// The README's ```json block after the paragraph that mentions `file`.
fn json_block_after(readme: &str, file: &str) -> Value {
    let at = readme.find(file).unwrap_or_else(|| panic!("the README no longer mentions {file}"));
    let block = readme[at..].split_once("```json\n").unwrap().1.split_once("\n```").unwrap().0;
    serde_json::from_str(block).unwrap_or_else(|e| panic!("the README's {file} example is not JSON: {e}"))
}

/// Issue "Room to grow": the README restated build and review constants by
/// hand. Each number it states is the code's.
#[test]
fn the_readme_states_the_numbers_the_code_uses() {
    use phasegate_core::questions::{DEFAULT_MAX_ROUNDS, DEFAULT_TIMEOUT_MINUTES, QuestionsConfig};
    use phasegate_core::tasks as t;

    let raw = read("README.md");
    let readme = flat(&raw);
    let questions = QuestionsConfig::default();
    let pipeline = phasegate_core::pipeline::Config::default();
    let poll_minimum = serde_json::from_str::<Value>(Schema::QuestionsConfig.text()).unwrap()["properties"]["slack"]
        ["properties"]["pollIntervalSeconds"]["minimum"]
        .as_f64()
        .unwrap();
    let checks: Vec<(&str, Vec<f64>)> = vec![
        (r"`cap-reached` \((\d+)\) asks the seed's escalation", vec![t::DEFAULT_MAX_CYCLES.into()]),
        (
            r"above a ([\d.]+) failure rate \(from (\d+) reviews\)",
            vec![t::FAILURE_RATE_SWITCH, t::MIN_REVIEWS_FOR_RATE.into()],
        ),
        (r"after the same issue (twice)", vec![t::SAME_ISSUE_THRESHOLD.into()]),
        (r"the configured default applies after (\d+) minutes", vec![t::ESCALATION_TIMEOUT_MINUTES as f64]),
        (r"the review's `deadline` \((\d+) minutes\)", vec![t::DEFAULT_REVIEW_TIMEOUT_MINUTES as f64]),
        (r"share no file \(at most (\d+), or `--max`\)", vec![phasegate_ops::tasks::marks::PARALLEL_MAX as f64]),
        (r"SYNTAX_ERROR retries below (\d+) attempts", vec![t::SYNTAX_RETRIES.into()]),
        (r"VALIDATION_FAILED retries below (\d+) attempts", vec![t::VALIDATION_RETRIES.into()]),
        (r"NETWORK and TIMEOUT retry below (\d+) attempts", vec![t::TRANSIENT_RETRIES.into()]),
        (
            r"more than (\d+) failed tasks, a failed database task, (\d+) hours",
            vec![t::MAX_FAILED_TASKS as f64, t::DEFAULT_TIME_LIMIT_MINUTES as f64 / 60.0],
        ),
        (r"excerpts within ([\d,]+) bytes", vec![t::CONTEXT_BUDGET as f64]),
        (r"`timeout_minutes`, default (\d+)", vec![DEFAULT_TIMEOUT_MINUTES as f64]),
        (r"counts rounds and stops at the cap \((\d+)\)", vec![DEFAULT_MAX_ROUNDS.into()]),
        (
            r"`timeoutMinutes` \((\d+)\), `maxRounds` \((\d+)\)",
            vec![questions.timeout_minutes as f64, questions.max_rounds.into()],
        ),
        (
            r"`slack.pollIntervalSeconds` \((\d+), from (\d+)\)",
            vec![questions.slack.poll_interval_seconds as f64, poll_minimum],
        ),
        (r"polls every `slack.pollIntervalSeconds` \((\d+)\)", vec![questions.slack.poll_interval_seconds as f64]),
        (
            r"`planReviewLoopLimit` \((\d+)\) or `codeReviewLoopLimit` \((\d+)\)",
            vec![pipeline.autonomy.plan_review_loop_limit.into(), pipeline.autonomy.code_review_loop_limit.into()],
        ),
        (r"`stopHook.maxConsecutiveBlocks` \((\d+)\)", vec![pipeline.stop_hook.max_consecutive_blocks.into()]),
        (r"an item file is at most (\d+) KiB", vec![(phasegate_core::knowledge::MAX_ITEM_BYTES / 1024) as f64]),
        (r"may not nest `\[` or `\{` more than (\d+) deep", vec![phasegate_core::knowledge::MAX_FLOW_NESTING as f64]),
    ];
    let mut wrong = Vec::new();
    for (pattern, expected) in &checks {
        let re = Regex::new(pattern).unwrap();
        let found: Vec<Vec<f64>> = re
            .captures_iter(&readme)
            .map(|c| c.iter().skip(1).map(|m| number(m.unwrap().as_str())).collect())
            .collect();
        if found.is_empty() {
            wrong.push(format!("the README no longer says /{pattern}/: say it again, or change this test"));
        }
        for stated in found {
            if &stated != expected {
                wrong.push(format!("/{pattern}/: the README says {stated:?}, the code {expected:?}"));
            }
        }
    }
    // The mode table: the caps per mode.
    let modes = raw.lines().find(|l| l.starts_with("| mode |")).expect("the README's mode table");
    let caps = raw.lines().find(|l| l.starts_with("| reviewer iterations per phase |")).expect("its caps row");
    let cells = |row: &str| row.split('|').skip(2).map(|c| c.trim().to_owned()).filter(|c| !c.is_empty()).collect();
    let (modes, caps): (Vec<String>, Vec<String>) = (cells(modes), cells(caps));
    let stated: Vec<(String, u32)> = modes
        .iter()
        .zip(&caps)
        .map(|(m, c)| (m.split_whitespace().next().unwrap().to_owned(), c.parse().unwrap()))
        .collect();
    let code: Vec<(String, u32)> =
        phasegate_core::Mode::ALL.iter().map(|m| (m.name().to_owned(), m.max_iterations())).collect();
    if stated != code {
        wrong.push(format!("mode caps: the README says {stated:?}, the code {code:?}"));
    }
    // The configuration examples are the defaults.
    let pipeline_json = serde_json::to_value(&pipeline).unwrap();
    if json_block_after(&raw, "`.phasegate/pipeline.config.json` in the project") != pipeline_json {
        wrong.push(format!("the README's pipeline.config.json is not the defaults: {pipeline_json}"));
    }
    let implement_json = serde_json::to_value(phasegate_core::tasks::ImplementConfig::default()).unwrap();
    if json_block_after(&raw, "`.phasegate/implement.config.json` (optional") != implement_json {
        wrong.push(format!("the README's implement.config.json is not the defaults: {implement_json}"));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The codes of a prose list such as "Exit codes: 0 done; 1 refused; …".
fn codes_in(text: &str, separator: &str) -> BTreeSet<u32> {
    let re = Regex::new(&format!(r"(?:: |{separator} )(\d+) ")).unwrap();
    re.captures_iter(text).map(|c| c[1].parse().unwrap()).collect()
}

/// Issue "Room to grow": SKILL.md's exit codes stopped at 2. The README's
/// table, SKILL.md and `workflow-state --help` name the same codes (the
/// help all but 127, which only the bin/ launchers use).
#[test]
fn the_exit_codes_of_the_readme_skill_md_and_help_agree() {
    let readme = read("README.md");
    let table = readme.split_once("### Exit codes").expect("the README's exit codes").1;
    let readme_codes: BTreeSet<u32> = table
        .lines()
        .skip_while(|l| !l.starts_with("| 0 |"))
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.split('|').nth(1).unwrap().trim().parse().unwrap())
        .collect();
    assert_eq!(readme_codes, BTreeSet::from([0, 1, 2, 3, 127, 130]), "the README's table changed: update this test");
    let skill = read("skills/workflow-state/SKILL.md");
    let paragraph =
        flat(skill.split_once("Exit codes").expect("SKILL.md's exit codes").1.split("\n\n").next().unwrap());
    assert_eq!(codes_in(&paragraph, ";"), readme_codes, "SKILL.md's exit codes:\n{paragraph}");
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_workflow-state")).arg("--help").output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    let sentence = help.split_once("Exit codes").expect("--help names the exit codes").1.lines().next().unwrap();
    let launchers_only = BTreeSet::from([127]);
    assert_eq!(
        codes_in(sentence, ","),
        readme_codes.difference(&launchers_only).copied().collect(),
        "--help's exit codes: {sentence}"
    );
}

/// `workflow-state <path…> <flag>`'s standard output.
fn help_of(path: &[String], flag: &str) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_workflow-state")).args(path).arg(flag).output().unwrap();
    assert!(out.status.success(), "{path:?} {flag}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The subcommands a help page lists under "Commands:" (`help` left out).
fn listed_commands(page: &str) -> Vec<String> {
    let Some((_, list)) = page.split_once("Commands:\n") else { return Vec::new() };
    list.lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "help")
        .map(str::to_owned)
        .collect()
}

/// Issue 31, "The command line": `workflow-state --help` printed a whole
/// paragraph per command. Each command and subcommand now has a one-line
/// summary for `-h` and the command lists, the first paragraph of its
/// `--help` (so never a sentence cut short), and `--help` keeps the long
/// text, the top level's exit codes among it.
#[test]
fn every_subcommands_h_summary_is_one_line_and_help_keeps_the_long_text() {
    let dangling =
        [",", ":", ";", "(", "-", "—", " and", " or", " the", " a", " an", " of", " to", " with", " for", " in"];
    let mut paths: Vec<Vec<String>> = vec![Vec::new()];
    let mut seen = 0;
    let mut wrong = Vec::new();
    while let Some(path) = paths.pop() {
        seen += 1;
        let short = help_of(&path, "-h");
        let long = help_of(&path, "--help");
        let summary = short.split("\n\n").next().unwrap();
        let shown = format!("workflow-state {}", path.join(" "));
        let balanced = |open: char, close: char| summary.matches(open).count() == summary.matches(close).count();
        if summary.contains('\n') || summary.chars().count() > 80 || summary.is_empty() {
            wrong.push(format!("{shown} -h: not one line of at most 80 characters: {summary:?}"));
        } else if dangling.iter().any(|d| summary.ends_with(d))
            || !balanced('(', ')')
            || !balanced('[', ']')
            || summary.matches('`').count() % 2 == 1
        {
            wrong.push(format!("{shown} -h: cut mid-sentence: {summary:?}"));
        }
        let first = long.split("\n\n").next().unwrap();
        if first.trim_end_matches('.') != summary {
            wrong.push(format!("{shown}: --help begins {first:?}, not with the -h summary {summary:?}"));
        }
        if long.len() < short.len() {
            wrong.push(format!("{shown}: --help says less than -h"));
        }
        for name in listed_commands(&short) {
            paths.push(path.iter().cloned().chain([name]).collect());
        }
    }
    assert!(seen > 100, "only {seen} commands were found: the walk through `-h` broke");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The exit codes stay in the long help only.
    let (short, long) = (help_of(&[], "-h"), help_of(&[], "--help"));
    assert!(long.contains("Exit codes: 0 success/allowed, 1 refused by a workflow rule"), "{long}");
    assert!(!short.contains("Exit codes"), "-h is the summary and the list: {short}");
    assert_eq!(listed_commands(&short), listed_commands(&long), "-h and --help list the same commands");
}

/// Issue "Room to grow": the seven phase commands are one template. They
/// differ only in the phase's name, description, result and guide (and
/// implement and verify, which run the project's code, may use any command).
#[test]
fn the_phase_commands_are_one_template() {
    // Generated from Phase::facts() (issue "Floors inside the crates"): the
    // files are what `workflow-state generate commands` writes.
    let phases: Vec<phasegate_core::Phase> = phasegate_core::feature::command::phases().collect();
    assert_eq!(phases.len(), 7);
    for phase in phases {
        let file = format!("commands/{}.md", phase.name());
        assert_eq!(
            read(&file),
            phasegate_core::feature::command::render(phase),
            "{file} is not what Phase::facts() makes: change the facts, then run `cargo run --bin workflow-state -- generate commands`"
        );
    }
}

/// Issue "Room to grow": code comments cited "seed 00N §x", documents not in
/// the repository. Every seed cited anywhere is in docs/seeds/.
#[test]
fn every_seed_cited_is_in_docs_seeds() {
    let index = read("docs/seeds/README.md");
    let row = Regex::new(r"\| seed (\d{3}) \| \[[^\]]+\]\(([^)]+)\)").unwrap();
    let seeds: BTreeMap<String, PathBuf> =
        row.captures_iter(&index).map(|c| (c[1].to_owned(), root().join("docs/seeds").join(&c[2]))).collect();
    assert_eq!(seeds.keys().map(String::as_str).collect::<Vec<_>>(), ["000", "001", "002", "003", "004"]);
    for (seed, path) in &seeds {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("seed {seed}: {}: {e}", path.display()));
        assert!(text.starts_with("# "), "seed {seed}: {} is not the seed's text", path.display());
    }
    // A seed is cited by its three digits. The build corpora, which hold
    // test runners' own output verbatim ("Randomized with seed 123456"), are
    // data files (.txt), not read here.
    let cite = Regex::new(r"\b[Ss]eed (\d+)\b").unwrap();
    let mut cited = files(&["crates", "docs", "commands", "agents", "skills", "schemas"], &["rs", "md", "json"]);
    cited.push("README.md".into());
    let mut missing = Vec::new();
    for file in cited.iter().filter(|f| !f.starts_with("docs/seeds/")) {
        for c in cite.captures_iter(&read(file)) {
            if !seeds.contains_key(&c[1]) {
                missing.push(format!("{file}: seed {}", &c[1]));
            }
        }
    }
    assert!(missing.is_empty(), "cited but not in docs/seeds/README.md:\n{}", missing.join("\n"));
}

/// The binaries send the model to steps of the phase loop ("go to step 3b
/// of the phase loop") through `phasegate_core::words::LoopStep`: each step
/// has an anchor in `skills/workflow-state/phase-loop.md`, on the line of
/// the item its label numbers (`3b`: item `b.` of `## 3.`), so the
/// numbering is an interface this test holds. No other code spells a step.
#[test]
fn every_step_of_the_phase_loop_the_code_names_is_there() {
    let md = read("skills/workflow-state/phase-loop.md");
    for step in phasegate_core::words::LoopStep::ALL {
        let anchor = format!("<a id=\"{}\"></a>", step.anchor());
        let at = md.find(&anchor).unwrap_or_else(|| panic!("phase-loop.md has no anchor {anchor} for {step}"));
        let line = md[..at].rsplit('\n').next().unwrap_or_default();
        let (n, x) = step.label().split_at(1);
        assert_eq!(line.trim(), format!("{x}."), "{anchor} is not on item `{x}.` of its section");
        let section = md[..at].rfind("\n## ").map(|h| &md[h + 4..]).unwrap_or_default();
        assert!(section.starts_with(&format!("{n}. ")), "{anchor} is not in `## {n}.`");
    }
    let spelled = Regex::new(r"step \d+[a-z]? of the phase loop|phase loop step \d").unwrap();
    let elsewhere: Vec<String> = files(&["crates"], &["rs"])
        .into_iter()
        .filter(|f| !f.ends_with("phasegate-core/src/words.rs") && spelled.is_match(&read(f)))
        .collect();
    assert!(elsewhere.is_empty(), "a step spelled by hand, not through LoopStep: {elsewhere:?}");
}
