//! The knowledge base's operations: recording, the index a hook rebuilds
//! within its time, and the queries that do not trust it.

use phasegate_core::knowledge::KnowledgeType;
use phasegate_ops::knowledge::base::{self, RecordInput};
use phasegate_store::Project;
use phasegate_store::knowledge::{IndexDir, Manifest};

use crate::kit::Repo;

fn gotcha(content: &str, pattern: &str) -> RecordInput {
    RecordInput {
        item_type: KnowledgeType::Gotcha,
        content: content.to_owned(),
        path: None,
        pattern: Some(pattern.to_owned()),
        action: None,
        topic: None,
        confidence: None,
        evidence: "ERROR: relation users already exists".to_owned(),
        feature: None,
        task: None,
        commit: None,
    }
}

// A hook that rebuilt the index of a large knowledge base past Claude Code's
// timeout was killed before writing it, so every hook tried again: a hook's
// rebuild stops reading at its deadline and writes what it read, marked
// partial; the hooks use it, and the next command builds it whole.
#[test]
fn a_hook_rebuild_that_ran_out_of_time_was_never_written() {
    let repo = Repo::new();
    let env = repo.env();
    base::record(
        &env,
        gotcha("Wrap every migration's DDL in one transaction or a failure leaves half a schema", "*.sql"),
    )
    .unwrap();
    let project = Project::discover(repo.root()).unwrap();
    let items = phasegate_store::knowledge::dir_in(repo.root());
    let at = project.knowledge().index_dir(repo.root());
    // A deadline already past: nothing is read, and the index says so.
    let past = Some(std::time::Instant::now());
    let index = base::rebuild_index(&project, repo.root(), past).unwrap().unwrap();
    assert!(index.unreadable().iter().any(|u| u.contains("not read")), "{:?}", index.unreadable());
    assert!(IndexDir::by_folder(&at, &items).is_some(), "the hooks answer from it");
    assert!(IndexDir::matching(&at, &Manifest::scan(&items)).is_none(), "the commands do not");
    let q = base::query(&env, Some("db/1.sql"), None, &[]).unwrap();
    assert_eq!(q.gotchas.len(), 1, "the query built it whole");
    assert!(IndexDir::matching(&at, &Manifest::scan(&items)).is_some());
}
