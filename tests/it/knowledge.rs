//! The knowledge base through `workflow-state kb`: items as files a team
//! reviews in git, the §10.1 query and recording rules, the §10.2
//! lifecycle, refusals that say what to do, unreadable files named and
//! never rewritten, and two sessions recording at once losing nothing.

use std::process::{Command, Stdio};

use serde_json::Value;

use crate::util::{TestEnv, WORKFLOW_STATE};

const MIGRATION: &str = "Wrap every migration's DDL in one transaction: a failed step otherwise leaves half a schema";
const ROUTES: &str =
    "Route handlers must await the auth check before reading the body, or anonymous posts slip through";

fn record(env: &TestEnv, content: &str, path: &str, evidence: &str, extra: &[&str]) -> Value {
    env.kb_gotcha(content, evidence, &[&["--path", path], extra].concat())
}

fn item_files(env: &TestEnv) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(env.path(".phasegate/knowledge"))
        .map(|d| d.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn a_recorded_gotcha_is_a_reviewable_file_and_the_query_finds_it_by_pattern() {
    let env = TestEnv::new();
    let r = record(&env, MIGRATION, "database/migrations/001.sql", "ERROR: relation \"users\" already exists", &[]);
    assert_eq!(r["decision"], "created");
    assert_eq!(r["confidence"], 0.7, "seed 004 §10.2: 0.7 on discovery");
    let id = r["id"].as_str().unwrap();
    assert_eq!(item_files(&env), [format!("{id}.md")]);
    let text = env.read(&format!(".phasegate/knowledge/{id}.md"));
    assert!(text.starts_with("---\n"), "YAML front matter:\n{text}");
    assert!(text.contains("file_pattern: '*.sql'") && text.contains("confidence: 0.7"), "{text}");
    assert!(text.trim_end().ends_with(MIGRATION), "the lesson is the body:\n{text}");

    // Another migration matches `*.sql`; a route does not.
    let q = env.ws(&["kb", "query", "--path", "database/migrations/002.sql", "--json"]).ok().json();
    assert_eq!(q["pattern"], "*.sql");
    assert_eq!(q["gotchas"].as_array().unwrap().len(), 1);
    assert_eq!(q["gotchas"][0]["id"], id);
    assert_eq!(q["gotchas"][0]["content"], MIGRATION);
    let q = env.ws(&["kb", "query", "--path", "server/routes/x.ts", "--json"]).ok().json();
    assert_eq!(q["pattern"], "server/routes/*");
    assert_eq!(q["gotchas"], Value::Array(vec![]));
    // The listing shows it in one line.
    env.ws(&["kb", "list"]).ok().stdout_has(id).stdout_has("gotcha 0.70").stdout_has("*.sql");
    assert_eq!(env.ws(&["kb", "list", "--json"]).ok().json()["items"][0]["id"], id);
    assert_eq!(env.ws(&["kb", "show", id, "--json"]).ok().json()["content"], MIGRATION);
}

#[test]
fn a_lesson_without_evidence_or_that_the_source_says_is_refused_with_exit_1() {
    let env = TestEnv::new();
    env.ws(&["kb", "record", "--type", "gotcha", "--content", MIGRATION, "--path", "db/1.sql", "--evidence", " "])
        .code(1)
        .stderr_has("without evidence is refused")
        .stderr_has("--evidence");
    env.write("CLAUDE.md", &format!("# Conventions\n\n{MIGRATION}\n"));
    env.ws(&["kb", "record", "--type", "gotcha", "--content", MIGRATION, "--path", "db/1.sql", "--evidence", "x"])
        .code(1)
        .stderr_has("CLAUDE.md already says this");
    env.ws(&[
        "kb",
        "record",
        "--type",
        "gotcha",
        "--content",
        "Always write clean code and test it well",
        "--evidence",
        "a failure",
    ])
    .code(1)
    .stderr_has("advice for any project");
    assert!(item_files(&env).is_empty(), "nothing was written: {:?}", item_files(&env));
}

#[test]
fn seen_twice_reinforces_to_0_85_and_a_lower_similar_item_is_superseded() {
    let env = TestEnv::new();
    let first = record(&env, MIGRATION, "db/001.sql", "ERROR: relation users exists", &["--task", "T001"]);
    // The same failure recorded again is one sighting.
    let again = record(&env, MIGRATION, "db/001.sql", "ERROR: relation users exists", &["--task", "T001"]);
    assert_eq!(again["decision"], "known");
    // A near-duplicate from another task is the same lesson seen again.
    let near = format!("{MIGRATION} behind");
    let second = record(&env, &near, "db/002.sql", "ERROR: relation posts exists", &["--task", "T004"]);
    assert_eq!(second["decision"], "reinforced");
    assert_eq!(second["id"], first["id"]);
    assert_eq!((second["occurrences"].as_u64(), second["confidence"].as_f64()), (Some(2), Some(0.85)));
    assert_eq!(item_files(&env).len(), 1);

    // A route lesson with higher confidence than a similar one replaces it.
    let low = record(&env, ROUTES, "server/routes/a.ts", "401 missing", &["--confidence", "0.6"]);
    let high = record(&env, &format!("{ROUTES} anyway"), "server/routes/b.ts", "401 again", &["--confidence", "0.8"]);
    assert_eq!(high["decision"], "superseded");
    assert_eq!(high["replaced"], low["id"]);
    let old = env.ws(&["kb", "show", low["id"].as_str().unwrap(), "--json"]).ok().json();
    assert_eq!(old["superseded_by"], high["id"]);
    let q = env.ws(&["kb", "query", "--path", "server/routes/c.ts", "--json"]).ok().json();
    let ids: Vec<&Value> = q["gotchas"].as_array().unwrap().iter().map(|g| &g["id"]).collect();
    assert_eq!(ids, [&high["id"]], "the superseded item leaves the query");
    // Both stay on disk; `--all` lists the retired one.
    assert_eq!(env.ws(&["kb", "list", "--json"]).ok().json()["items"].as_array().unwrap().len(), 2);
    assert_eq!(env.ws(&["kb", "list", "--all", "--json"]).ok().json()["items"].as_array().unwrap().len(), 3);
}

#[test]
fn reinforce_prevented_raises_to_0_95_and_not_helped_lowers_by_a_tenth() {
    let env = TestEnv::new();
    let a = record(&env, MIGRATION, "db/001.sql", "relation exists", &[]);
    let b = record(&env, ROUTES, "server/routes/a.ts", "401 missing", &["--confidence", "0.8"]);
    let (a, b) = (a["id"].as_str().unwrap(), b["id"].as_str().unwrap());
    let up = env.ws(&["kb", "reinforce", a, "--prevented", "--json"]).ok().json();
    assert_eq!((up["confidence"].as_f64(), up["prevented"].as_u64()), (Some(0.95), Some(1)));
    let down = env.ws(&["kb", "reinforce", b, "--not-helped", "--json"]).ok().json();
    assert_eq!((down["confidence"].as_f64(), down["not_helped"].as_u64()), (Some(0.7), Some(1)));
    let seen = env
        .ws(&["kb", "reinforce", b, "--seen", "--evidence", "401 in the admin route", "--task", "T9", "--json"])
        .ok()
        .json();
    assert_eq!((seen["occurrences"].as_u64(), seen["confidence"].as_f64()), (Some(2), Some(0.85)));
    env.ws(&["kb", "reinforce", "no-such-item", "--prevented"]).code(2).stderr_has("no item `no-such-item`");
    env.ws(&["kb", "reinforce", "../escape", "--prevented"]).code(2);
}

#[test]
fn supersede_retires_an_item_out_of_every_query_and_keeps_its_file() {
    let env = TestEnv::new();
    let a = record(&env, MIGRATION, "db/001.sql", "relation exists", &[]);
    let id = a["id"].as_str().unwrap();
    env.ws(&["kb", "supersede", id]).code(2).stderr_has("--reason");
    env.ws(&["kb", "supersede", id, "--by", "gotcha-nothing-12345678"]).code(2).stderr_has("no item");
    env.ws(&["kb", "supersede", id, "--reason", "the migration tool wraps every step in a transaction now"]).ok();
    let q = env.ws(&["kb", "query", "--path", "db/002.sql", "--json"]).ok().json();
    assert_eq!(q["gotchas"], Value::Array(vec![]));
    assert!(env.read(&format!(".phasegate/knowledge/{id}.md")).contains("superseded_reason"));
    env.ws(&["kb", "supersede", id, "--reason", "again"]).code(2).stderr_has("already");
}

#[test]
fn a_malformed_item_is_named_by_every_command_and_never_rewritten() {
    let env = TestEnv::new();
    let a = record(&env, MIGRATION, "db/001.sql", "relation exists", &[]);
    let id = a["id"].as_str().unwrap();
    let bad = "---\nid: gotcha-broken-00000000\ntype: gotcha\nconfidence: high\n---\nA lesson\n";
    env.write(".phasegate/knowledge/gotcha-broken-00000000.md", bad);
    // Reads go on and name it.
    let listed = env.ws(&["kb", "list", "--json"]).ok().json();
    assert_eq!(listed["items"].as_array().unwrap().len(), 1);
    assert!(listed["unreadable"][0].as_str().unwrap().contains("gotcha-broken-00000000.md"), "{listed}");
    let q = env.ws(&["kb", "query", "--path", "db/2.sql", "--json"]).ok().json();
    assert_eq!(q["gotchas"][0]["id"], id, "the readable item still answers");
    assert!(q["unreadable"][0].as_str().unwrap().contains("gotcha-broken-00000000.md"), "{q}");
    let lint = env.ws(&["kb", "lint"]).code(1);
    lint.stdout_has("gotcha-broken-00000000.md").stdout_has("confidence");
    // Changes are refused while it cannot be read, and it is left as it was.
    env.ws(&["kb", "reinforce", id, "--prevented"])
        .code(2)
        .stderr_has("gotcha-broken-00000000.md")
        .stderr_has("kb lint");
    env.ws(&["kb", "record", "--type", "gotcha", "--content", ROUTES, "--path", "r/a.ts", "--evidence", "401"])
        .code(2)
        .stderr_has("gotcha-broken-00000000.md");
    assert_eq!(env.read(".phasegate/knowledge/gotcha-broken-00000000.md"), bad);
    // A file whose id does not name it is refused too.
    std::fs::remove_file(env.path(".phasegate/knowledge/gotcha-broken-00000000.md")).unwrap();
    let moved = env.read(&format!(".phasegate/knowledge/{id}.md"));
    env.write(".phasegate/knowledge/gotcha-renamed-11111111.md", &moved);
    env.ws(&["kb", "lint", "--json"]).code(1).stdout_has("is named");
}

#[test]
fn a_broken_phasegate_block_in_claude_md_is_a_lint_problem() {
    let env = TestEnv::new();
    env.write("CLAUDE.md", "# Project\n\n<!-- phasegate:knowledge -->\n- a lesson\n");
    env.ws(&["kb", "lint", "--json"]).code(1).stdout_has("CLAUDE.md");
    assert_eq!(env.read("CLAUDE.md"), "# Project\n\n<!-- phasegate:knowledge -->\n- a lesson\n");
}

#[test]
fn a_hand_edit_is_seen_by_the_next_query() {
    let env = TestEnv::new();
    let a = record(&env, MIGRATION, "db/001.sql", "relation exists", &[]);
    let id = a["id"].as_str().unwrap();
    assert_eq!(
        env.ws(&["kb", "query", "--path", "db/2.sql", "--json"]).ok().json()["gotchas"].as_array().unwrap().len(),
        1
    );
    // Lowered below the query's 0.6 by hand, in place.
    let path = env.path(&format!(".phasegate/knowledge/{id}.md"));
    let text = std::fs::read_to_string(&path).unwrap().replace("confidence: 0.7", "confidence: 0.5");
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&path, text).unwrap();
    let q = env.ws(&["kb", "query", "--path", "db/2.sql", "--json"]).ok().json();
    assert_eq!(q["gotchas"], Value::Array(vec![]), "the index was rebuilt from the edited item");
}

/// Two sessions record twelve lessons each at the same moment; every one
/// is in the knowledge base and the index answers for all of them.
#[test]
fn two_sessions_recording_at_once_lose_nothing() {
    let env = TestEnv::new();
    let spawn = |session: usize| {
        let root = env.root().to_owned();
        std::thread::spawn(move || {
            for i in 0..12 {
                let content = format!(
                    "Service number {session}{i} must retry its queue consumer {i} times before giving up on session {session}"
                );
                let out = Command::new(WORKFLOW_STATE)
                    .args(["kb", "record", "--type", "gotcha", "--content", &content])
                    .args(["--pattern", &format!("svc{session}/q{i}/*"), "--evidence", "queue closed"])
                    .current_dir(&root)
                    .env("CLAUDE_CODE_SESSION_ID", format!("session-{session}"))
                    .env("PHASEGATE_LOCK_TIMEOUT_MS", "30000")
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .output()
                    .unwrap();
                assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            }
        })
    };
    let (a, b) = (spawn(1), spawn(2));
    a.join().unwrap();
    b.join().unwrap();
    assert_eq!(item_files(&env).len(), 24);
    assert_eq!(env.ws(&["kb", "list", "--json"]).ok().json()["items"].as_array().unwrap().len(), 24);
    for (s, i) in [(1, 0), (2, 11)] {
        let q = env.ws(&["kb", "query", "--path", &format!("svc{s}/q{i}/main.rs"), "--json"]).ok().json();
        assert_eq!(q["gotchas"].as_array().unwrap().len(), 1, "svc{s}/q{i}: {q}");
    }
    env.ws(&["kb", "lint"]).ok();
}

/// Nothing is read through a link out of the repository: a knowledge folder
/// that is a link elsewhere is refused, naming it.
#[cfg(unix)]
#[test]
fn a_knowledge_folder_linked_out_of_the_repository_is_refused() {
    let env = TestEnv::new();
    let outside = env.outer().join("elsewhere");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("gotcha-x-00000000.md"), "---\nid: gotcha-x-00000000\n---\nx\n").unwrap();
    std::fs::create_dir_all(env.path(".phasegate")).unwrap();
    std::os::unix::fs::symlink(&outside, env.path(".phasegate/knowledge")).unwrap();
    env.ws(&["kb", "list"]).code(2).stderr_has(".phasegate/knowledge");
    env.ws(&["kb", "record", "--type", "gotcha", "--content", ROUTES, "--path", "r/a.ts", "--evidence", "401"]).code(2);
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 1, "nothing written there");
}

#[test]
fn an_unreadable_knowledge_journal_was_ignored_and_written_over() {
    let env = TestEnv::new();
    let journal = env.path(".git/phasegate/journal/knowledge.json");
    std::fs::create_dir_all(journal.parent().unwrap()).unwrap();
    std::fs::write(&journal, "{ half a change").unwrap();
    env.ws(&["kb", "record", "--type", "gotcha", "--content", MIGRATION, "--path", "db/1.sql", "--evidence", "x"])
        .code(2)
        .stderr_has("knowledge.json")
        .stderr_has("interrupted change");
    assert_eq!(std::fs::read_to_string(&journal).unwrap(), "{ half a change", "the journal is kept");
    assert!(item_files(&env).is_empty(), "nothing was written: {:?}", item_files(&env));
}

/// A knowledge journal naming `<repo>/../victim.txt` made the next writer
/// overwrite the file outside the repository; a `knowledge-index` folder
/// linked out of it was written through. Both are refused by name now.
#[cfg(unix)]
#[test]
fn a_journal_or_index_folder_pointing_out_of_the_repository_wrote_there() {
    let env = TestEnv::new();
    let victim = env.outer().join("victim.txt");
    std::fs::write(&victim, "keep me").unwrap();
    let journal = env.path(".git/phasegate/journal/knowledge.json");
    std::fs::create_dir_all(journal.parent().unwrap()).unwrap();
    let escaping = format!("{}/../victim.txt", env.root().display());
    let inside = env.path(".phasegate/knowledge/gotcha-x-00000000.md");
    let planted = serde_json::json!({"operation": "kb record", "changes": [
        {"path": inside, "contents": "x"}, {"path": escaping, "contents": "owned"}]});
    std::fs::write(&journal, planted.to_string()).unwrap();
    env.ws(&["kb", "record", "--type", "gotcha", "--content", MIGRATION, "--path", "db/1.sql", "--evidence", "x"])
        .code(2)
        .stderr_has("knowledge.json")
        .stderr_has("outside the repository")
        .stderr_has("Nothing of it was applied");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    assert!(!inside.exists() && journal.exists(), "not applied, kept for a person");
    std::fs::remove_file(&journal).unwrap();

    let elsewhere = env.outer().join("index-elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, env.path(".git/phasegate/knowledge-index")).unwrap();
    record(&env, MIGRATION, "db/1.sql", "relation exists", &[]);
    env.ws(&["kb", "index"]).code(2).stderr_has("knowledge-index is a symbolic link");
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0, "nothing written there");
}

/// The files of this tree's knowledge index, by name.
fn index_files(env: &TestEnv) -> std::path::PathBuf {
    let parent = env.path(".git/phasegate/knowledge-index");
    let mut dirs: Vec<_> = std::fs::read_dir(&parent).unwrap().flatten().map(|e| e.path()).collect();
    dirs.retain(|d| !d.file_name().unwrap().to_string_lossy().starts_with('.'));
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    dirs.pop().unwrap()
}

fn gotcha_shard(env: &TestEnv) -> std::path::PathBuf {
    let dir = index_files(env);
    let shards: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("g-"))
        .collect();
    assert_eq!(shards.len(), 1, "{shards:?}");
    shards[0].clone()
}

// A corrupt shard made `kb query` answer nothing while the items were fine;
// `kb index` did not rebuild it and `kb lint` saw no problem.
#[test]
fn a_corrupt_shard_hid_the_items_and_nothing_noticed() {
    let env = TestEnv::new();
    let id = record(&env, MIGRATION, "db/001.sql", "relation exists", &[])["id"].as_str().unwrap().to_owned();
    let query = || env.ws(&["kb", "query", "--path", "db/2.sql", "--json"]).ok().json();
    assert_eq!(query()["gotchas"][0]["id"], id);
    let shard = gotcha_shard(&env);
    let good = std::fs::read_to_string(&shard).unwrap();
    std::fs::write(&shard, &good[..good.len() / 2]).unwrap();
    env.ws(&["kb", "lint"]).code(1).stdout_has(&shard.display().to_string()).stdout_has("index is corrupt");
    assert_eq!(query()["gotchas"][0]["id"], id, "the shard failed its check and the index was rebuilt");
    env.ws(&["kb", "lint"]).ok();
    // `kb index` rebuilds whatever it finds.
    std::fs::write(&shard, "{}").unwrap();
    env.ws(&["kb", "index"]).ok().stdout_has("index rebuilt from 1 item(s)");
    env.ws(&["kb", "lint"]).ok();
    // A shard the index lists that is gone is a fault too, not "no items".
    std::fs::remove_file(gotcha_shard(&env)).unwrap();
    env.ws(&["kb", "lint"]).code(1).stdout_has("it is missing");
    assert_eq!(query()["gotchas"][0]["id"], id);
}

// `kb query` answered from the index built before the knowledge folder was
// replaced by a link out of the repository; the hook did too.
#[cfg(unix)]
#[test]
fn a_query_answered_from_an_old_index_through_a_linked_knowledge_folder() {
    let env = TestEnv::new();
    record(&env, MIGRATION, "db/001.sql", "relation exists", &[]);
    let outside = env.outer().join("kb-elsewhere");
    std::fs::rename(env.path(".phasegate/knowledge"), &outside).unwrap();
    std::os::unix::fs::symlink(&outside, env.path(".phasegate/knowledge")).unwrap();
    env.ws(&["kb", "query", "--path", "db/2.sql", "--json"])
        .code(2)
        .stderr_has(".phasegate/knowledge is a symbolic link")
        .stderr_has("outside the repository");
    env.write("db/2.sql", "x\n");
    let input = serde_json::json!({
        "session_id": "s-1", "cwd": env.root(), "hook_event_name": "PreToolUse",
        "tool_name": "Edit", "tool_input": {"file_path": env.path("db/2.sql"), "old_string": "x", "new_string": "y"},
        "tool_use_id": "toolu_1"
    });
    let out = crate::util::Run::new(crate::util::HOOK, &["pre-tool-use"], env.root()).stdin(input.to_string()).ok();
    assert!(!out.stdout.contains("Wrap every migration"), "{}", out.stdout);
}

// `kb supersede A --by B` then `kb supersede B --by A` were both accepted
// and the lesson left every query; `kb lint` was clean.
#[test]
fn superseding_in_a_circle_made_the_lesson_vanish() {
    let env = TestEnv::new();
    let a = record(&env, MIGRATION, "db/001.sql", "relation exists", &[])["id"].as_str().unwrap().to_owned();
    let b = record(&env, ROUTES, "server/routes/a.ts", "401 missing", &[])["id"].as_str().unwrap().to_owned();
    env.ws(&["kb", "supersede", &a, "--by", &b]).ok();
    env.ws(&["kb", "supersede", &b, "--by", &a]).code(1).stderr_has("circle").stderr_has(&format!("{b} → {a} → {b}"));
    let q = env.ws(&["kb", "query", "--path", "server/routes/c.ts", "--json"]).ok().json();
    assert_eq!(q["gotchas"][0]["id"], b.as_str(), "the lesson is still answered");
    env.ws(&["kb", "lint"]).ok();
    // A circle made by hand (or by a merge) is named by `kb lint`.
    let path = env.path(&format!(".phasegate/knowledge/{b}.md"));
    let text = std::fs::read_to_string(&path).unwrap();
    let at = text.find("created_at:").unwrap();
    std::fs::write(&path, format!("{}superseded_by: {a}\n{}", &text[..at], &text[at..])).unwrap();
    // (The chain starts at its smallest id.)
    let (low, high) = if a < b { (&a, &b) } else { (&b, &a) };
    env.ws(&["kb", "lint"]).code(1).stdout_has("superseded in a circle").stdout_has(&format!("{low} → {high} → {low}"));
}

// `--confidence NaN`, `inf` or 1.5 was a lesson refused (exit 1); it is a
// usage error (exit 2) naming the flag and the range.
#[test]
fn a_confidence_out_of_range_was_a_refused_lesson_not_a_usage_error() {
    let env = TestEnv::new();
    let record_with = |confidence: &str| {
        env.ws(&[
            "kb",
            "record",
            "--type",
            "gotcha",
            "--content",
            MIGRATION,
            "--path",
            "db/1.sql",
            "--evidence",
            "relation exists",
            "--confidence",
            confidence,
        ])
    };
    for bad in ["NaN", "inf", "-inf", "1.5", "-0.1", "high"] {
        record_with(bad).code(2).stderr_has("--confidence").stderr_has("from 0 to 1");
    }
    assert!(item_files(&env).is_empty());
    record_with("1").ok();
}

// A `kb record` killed (kill -9) between writing and renaming left a
// `.phasegate-*.tmp` file that `git status` offered to commit: the next
// write removes it under the lock, and git ignores such files meanwhile.
#[test]
fn a_killed_record_left_a_temporary_file_git_offered_to_commit() {
    let env = TestEnv::new();
    let leftover = env.write(".phasegate/knowledge/.phasegate-AbC123.tmp", "half an item");
    let untracked = || {
        let repo = git2::Repository::open(env.root()).unwrap();
        let mut opts = git2::StatusOptions::new();
        opts.include_untracked(true).recurse_untracked_dirs(true);
        let statuses = repo.statuses(Some(&mut opts)).unwrap();
        statuses
            .iter()
            .filter_map(|s| s.path().ok().map(str::to_owned))
            .filter(|p| p.ends_with(".tmp"))
            .collect::<Vec<_>>()
    };
    assert_eq!(untracked().len(), 1, "the leftover shows before phasegate wrote anything");
    record(&env, MIGRATION, "db/001.sql", "relation exists", &[]);
    assert!(!leftover.exists(), "removed by the next write");
    // One left by a writer killed later is not offered to git.
    env.write(".phasegate/knowledge/.phasegate-XyZ789.tmp", "half an item");
    assert_eq!(untracked(), Vec::<String>::new());
}

// The same lesson recorded again from another failure outside a task was
// not a new sighting when a feature was active (design: outside any task,
// a new failure output is a new sighting; README: 0.85 once seen twice).
#[test]
fn the_same_lesson_from_another_failure_outside_a_task_was_not_seen_again() {
    let env = TestEnv::new();
    env.feature("users", "standard");
    let first = record(&env, MIGRATION, "db/001.sql", "ERROR: relation users already exists", &[]);
    assert_ne!(first["path"], Value::Null);
    let same = record(&env, MIGRATION, "db/001.sql", "ERROR: relation users already exists", &[]);
    assert_eq!(same["decision"], "known", "the same failure twice is one sighting");
    let other = record(&env, MIGRATION, "db/002.sql", "ERROR: relation posts already exists", &[]);
    assert_eq!(other["decision"], "reinforced");
    assert_eq!((other["occurrences"].as_u64(), other["confidence"].as_f64()), (Some(2), Some(0.85)));
}

// `kb record` refused "Use TEXT for SQLite IDs", with evidence, for having
// four content words; a vague short lesson is still refused.
#[test]
fn a_short_concrete_lesson_was_refused_by_kb_record() {
    let env = TestEnv::new();
    let r =
        env.kb_gotcha("Use TEXT for SQLite IDs", "sqlite3: datatype mismatch on INTEGER id", &["--pattern", "*.sql"]);
    assert_eq!(r["decision"], "created");
    env.ws(&["kb", "record", "--type", "gotcha", "--content", "Don't forget the index.", "--evidence", "slow query"])
        .code(1)
        .stderr_has("two concrete things");
}
