//! What of the working tree a proof is about: the files whose identity the
//! ledger records and every gate compares. Everything git tracks or would
//! (untracked files it does not ignore), except what is not the feature's
//! code nor its documents: phasegate's own state (the ledger itself,
//! `.meta.json`, the review history, scratch files, a pipeline's `.task/`
//! state; its user story and plan count, being what it must prove and how),
//! other features' folders, the knowledge base, and Claude Code's questions
//! and suspension markers. A lesson recorded or another feature's phase
//! does not make a ledger stale; a changed test, source file or spec does.

use std::path::Path;

use super::ledger::EVIDENCE_FILE;

/// Whether `path` (`/`-separated, from the tree's root) counts toward the
/// identity of the tree `feature`'s proof is about; `features_dir` is where
/// features live, from the same root (`docs/features`).
pub fn counts(path: &str, features_dir: &str, feature: &str) -> bool {
    if crate::state::protected(Path::new(path)).is_some() {
        return false;
    }
    if path.starts_with(".phasegate/knowledge/") || path.starts_with(".git/") {
        return false;
    }
    let features = features_dir.trim_end_matches('/');
    let Some(inside) = path.strip_prefix(features).and_then(|r| r.strip_prefix('/')) else { return true };
    let Some((folder, rest)) = inside.split_once('/') else { return true };
    if folder != feature {
        return false;
    }
    // The feature's own documents count, a pipeline's requirements and
    // plan (its acceptance criteria and checks) too; its state and scratch
    // do not.
    if PIPELINE_SOURCES.contains(&rest) {
        return true;
    }
    !(rest.starts_with('.') || rest == EVIDENCE_FILE || rest.contains("/."))
}

/// A pipeline's files that say what it must prove and what proves it,
/// from its feature's folder: part of its tree's identity even where git
/// ignores its `.task/` folder.
pub const PIPELINE_SOURCES: [&str; 2] = [".task/user-story.json", ".task/plan-refined.json"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_and_the_features_documents_count_state_and_other_features_do_not() {
        let c = |p: &str| counts(p, "docs/features", "001-search");
        for yes in [
            "src/search.rs",
            "tests/test_search.py",
            "docs/features/001-search/spec.md",
            "docs/features/001-search/tasks.md",
            "docs/features/001-search/.task/user-story.json",
            "docs/features/001-search/.task/plan-refined.json",
            "README.md",
            "docs/guide.md",
        ] {
            assert!(c(yes), "{yes}");
        }
        for no in [
            "docs/features/001-search/evidence.json",
            "docs/features/001-search/.meta.json",
            "docs/features/001-search/.review-history.md",
            "docs/features/001-search/.verdict.json",
            "docs/features/001-search/.task/state.json",
            "docs/features/002-export/spec.md",
            ".phasegate/knowledge/g-1.md",
            ".claude/suspended/001-search.json",
            ".claude/questions/001-search.2.json",
        ] {
            assert!(!c(no), "{no}");
        }
    }
}
