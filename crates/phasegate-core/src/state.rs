//! Every file phasegate keeps its state in, in one table: where it lives,
//! the schema it follows, and the command that writes it. The capabilities
//! name their files through it, the PreToolUse guard refuses a hand edit of
//! any of them (naming the command to use instead), and the schema tests
//! check each entry against `schemas/`.

use std::path::Path;

use crate::schema::Schema;
use crate::words::Command;
use Part::{Run, Text};

/// What writes a state file, said as text and commands ([`Part`]) that
/// render to one line: each command through [`Command`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WrittenBy(pub &'static [Part]);

/// A piece of [`WrittenBy`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// A command's verb path, printed as `` `workflow-state <verb>` ``.
    Run(&'static str),
    /// Words between the commands.
    Text(&'static str),
}

impl std::fmt::Display for WrittenBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for part in self.0 {
            match part {
                Part::Run(verb) => write!(f, "`{}`", Command::new(verb))?,
                Part::Text(text) => f.write_str(text)?,
            }
        }
        Ok(())
    }
}

/// One state file (or family of files).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StateFile {
    /// Where it lives, relative to the repository root: `/`-separated, `*`
    /// stands for one folder or file name, a trailing `**` for anything
    /// below.
    pub path: &'static str,
    /// The schema it follows, if it is JSON phasegate validates.
    pub schema: Option<Schema>,
    /// What to run instead of editing it.
    pub written_by: WrittenBy,
    /// The binaries vouch for it: each write of it is witnessed (a keyed
    /// digest of what was written), and a change made by another route is
    /// marked as tampered until a person clears it.
    pub witnessed: bool,
}

pub const META: StateFile = StateFile {
    path: "docs/features/*/.meta.json",
    schema: Some(Schema::Meta),
    written_by: WrittenBy(&[
        Run("phase start|complete"),
        Text(", "),
        Run("review record"),
        Text(", "),
        Run("feature abandon"),
        Text(" or "),
        Run("finish"),
    ]),
    witnessed: true,
};
pub(crate) const HISTORY: StateFile = StateFile {
    path: "docs/features/*/.review-history.md",
    schema: None,
    written_by: WrittenBy(&[Run("review record"), Text(" appends each iteration")]),
    witnessed: true,
};
pub const ROUNDS: StateFile = StateFile {
    path: "docs/features/*/.rounds.json",
    schema: None,
    written_by: WrittenBy(&[Run("rounds start|record|answer|ask")]),
    witnessed: true,
};
pub(crate) const REVIEW_CYCLES: StateFile = StateFile {
    path: "docs/features/*/.review-cycles.json",
    schema: Some(Schema::ReviewCycles),
    written_by: WrittenBy(&[Run("tasks start|review|record|fail")]),
    witnessed: true,
};
pub(crate) const PIPELINE_STATE: StateFile = StateFile {
    path: "docs/features/*/.task/state.json",
    schema: Some(Schema::PipelineState),
    written_by: WrittenBy(&[
        Run("pipeline transition|pause|resume|fail|recover|reset"),
        Text(" ("),
        Run("pipeline next"),
        Text(" says which)"),
    ]),
    witnessed: true,
};
pub(crate) const LOOP_STATE: StateFile = StateFile {
    path: "docs/features/*/.task/loop-state.json",
    schema: Some(Schema::LoopState),
    written_by: WrittenBy(&[Run("pipeline cancel"), Text(", `claim` or `resume`")]),
    witnessed: true,
};
pub const ORCHESTRATOR_LOCK: StateFile = StateFile {
    path: "docs/features/*/.task/.orchestrator.lock",
    schema: None,
    written_by: WrittenBy(&[Run("pipeline reset"), Text(" or `final-gate`")]),
    witnessed: false,
};
pub(crate) const CODEX_SESSION: StateFile = StateFile {
    path: "docs/features/*/.task/.codex-session-active",
    schema: None,
    written_by: WrittenBy(&[Run("pipeline final-gate")]),
    witnessed: false,
};
pub(crate) const MARKER: StateFile = StateFile {
    path: ".claude/suspended/*",
    schema: Some(Schema::Question),
    written_by: WrittenBy(&[Text("the "), Run("question"), Text(" commands (ask, answer) change suspension markers")]),
    witnessed: true,
};
pub const QUESTION: StateFile = StateFile {
    path: ".claude/questions/*",
    schema: Some(Schema::Question),
    written_by: WrittenBy(&[Run("question answer <id> <answer>"), Text(" records an answer")]),
    witnessed: true,
};
pub(crate) const PREFERENCES: StateFile = StateFile {
    path: ".phasegate/preferences.json",
    schema: None,
    written_by: WrittenBy(&[Run("question answer"), Text(" remembers a preference question's answer")]),
    witnessed: false,
};
pub const KNOWLEDGE: StateFile = StateFile {
    path: ".phasegate/knowledge/*",
    schema: Some(Schema::KnowledgeItem),
    written_by: WrittenBy(&[
        Run("kb record"),
        Text(
            ", `kb reinforce` and `kb supersede` (a person may edit these files in review; the model records lessons through the binary)",
        ),
    ]),
    witnessed: false,
};
pub(crate) const IDEATION: StateFile = StateFile {
    path: "docs/features/*/ideation.json",
    schema: Some(Schema::Ideation),
    written_by: WrittenBy(&[Run("ideation start|artifact|decision|risk|confidence|advance")]),
    witnessed: true,
};
pub(crate) const EVIDENCE: StateFile = StateFile {
    path: "docs/features/*/evidence.json",
    schema: Some(Schema::Evidence),
    written_by: WrittenBy(&[
        Run("verify run"),
        Text(" (the checks' results) and "),
        Run("verify waive"),
        Text(" (a person's waiver)"),
    ]),
    witnessed: true,
};
pub(crate) const REVIEWS: StateFile = StateFile {
    path: "docs/features/*/.task/review-*.json",
    schema: Some(Schema::Review),
    written_by: WrittenBy(&[
        Run("pipeline review"),
        Text(" (it reads the reviewer's reply from Claude Code's transcript) and "),
        Run("pipeline final-gate"),
    ]),
    witnessed: true,
};
pub(crate) const RUNTIME: StateFile = StateFile {
    path: ".git/phasegate/**",
    schema: None,
    written_by: WrittenBy(&[Text(
        "nothing: these are phasegate's runtime files (locks, journals, session records, the index)",
    )]),
    witnessed: false,
};

/// Every state file, in the order the guard checks them.
pub const ALL: [StateFile; 16] = [
    META,
    HISTORY,
    ROUNDS,
    REVIEW_CYCLES,
    PIPELINE_STATE,
    LOOP_STATE,
    ORCHESTRATOR_LOCK,
    CODEX_SESSION,
    MARKER,
    QUESTION,
    PREFERENCES,
    KNOWLEDGE,
    IDEATION,
    EVIDENCE,
    REVIEWS,
    RUNTIME,
];

impl StateFile {
    /// The file's own name (the last part of its path), as features and
    /// stores join it to a folder.
    pub fn file_name(&self) -> &'static str {
        self.path.rsplit('/').next().unwrap_or(self.path)
    }

    /// Whether `path` (absolute, or relative to anywhere) names this file:
    /// its last parts match the pattern, compared without case (macOS and
    /// Windows disks ignore it), after `.` and `..` are resolved. A `**`
    /// pattern matches its folder anywhere in the path.
    pub fn matches(&self, path: &Path) -> bool {
        let text = path.to_string_lossy();
        self.matches_segments(&crate::paths::segments(&text))
    }

    /// [`Self::matches`] on a path already cut into its segments (so
    /// [`protected`] cuts it once for every file of the table).
    fn matches_segments(&self, parts: &[&str]) -> bool {
        let eq = |p: &str, part: &str| match p.split_once('*') {
            // `*` alone is any name; inside a name, any part of one.
            Some(("", "")) => true,
            Some((head, tail)) => {
                let (lower, head, tail) =
                    (part.to_ascii_lowercase(), head.to_ascii_lowercase(), tail.to_ascii_lowercase());
                lower.len() >= head.len() + tail.len() && lower.starts_with(&head) && lower.ends_with(&tail)
            }
            None => p.eq_ignore_ascii_case(part),
        };
        match self.path.strip_suffix("**").map(|dir| dir.trim_end_matches('/')) {
            Some(dir) => {
                let dir: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
                parts.windows(dir.len() + 1).any(|w| w[..dir.len()].iter().zip(&dir).all(|(part, p)| eq(p, part)))
            }
            None => {
                let n = self.path.split('/').count();
                parts.len() >= n
                    && parts[parts.len() - n..].iter().zip(self.path.split('/')).all(|(part, p)| eq(p, part))
            }
        }
    }
}

/// The state file `path` names, if any.
pub fn protected(path: &Path) -> Option<&'static StateFile> {
    let text = path.to_string_lossy();
    let parts = crate::paths::segments(&text);
    ALL.iter().find(|f| f.matches_segments(&parts))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The capabilities' file names are the table's.
    #[test]
    fn file_names_come_from_the_table() {
        assert_eq!(META.file_name(), crate::feature::META_FILE);
        assert_eq!(HISTORY.file_name(), crate::feature::HISTORY_FILE);
        assert_eq!(ROUNDS.file_name(), crate::questions::ROUNDS_FILE);
        assert_eq!(REVIEW_CYCLES.file_name(), crate::tasks::REVIEW_CYCLES_FILE);
        assert_eq!(PIPELINE_STATE.file_name(), crate::pipeline::files::STATE_FILE);
        assert_eq!(IDEATION.file_name(), crate::coordination::IDEATION_FILE);
        assert_eq!(EVIDENCE.file_name(), crate::proof::EVIDENCE_FILE);
        assert_eq!(format!(".claude/suspended/*"), MARKER.path);
        assert_eq!(MARKER.path.trim_end_matches("/*"), crate::questions::SUSPENDED_DIR);
        assert_eq!(QUESTION.path.trim_end_matches("/*"), crate::questions::QUESTIONS_DIR);
    }

    #[test]
    fn state_files_match_however_the_path_is_spelled() {
        for p in [
            "/r/docs/features/001-a/.meta.json",
            "docs/features/001-a/.meta.json",
            "/r/docs/features/001-a/../001-a/.meta.json",
            "/r/docs/features/x/../001-a/./.meta.json",
            "/r/Docs/Features/001-a/.META.json",
        ] {
            assert_eq!(protected(Path::new(p)), Some(&META), "{p}");
        }
        assert_eq!(protected(Path::new("/r/.git/../.git/phasegate/index.json")), Some(&RUNTIME));
        assert_eq!(protected(Path::new("/r/.GIT/phasegate/locks/a.lock")), Some(&RUNTIME));
        assert_eq!(protected(Path::new("/r/.claude/suspended/9-x.json")), Some(&MARKER));
        assert_eq!(protected(Path::new("/r/docs/features/002-b/.task/state.json")), Some(&PIPELINE_STATE));
        for free in [
            "/r/docs/features/001-a/spec.md",
            "/r/docs/features/001-a/.verdict.json",
            "/r/docs/features/002-b/.task/user-story.json",
            "/r/src/.meta.json",
            "/r/state.json",
            "/r/docs/features/001-a/.meta.json/../spec.md",
            "/r/.git/hooks/pre-commit",
        ] {
            assert_eq!(protected(Path::new(free)), None, "{free}");
        }
    }

    #[test]
    fn every_schema_named_is_a_file_in_schemas() {
        for f in ALL {
            if let Some(s) = f.schema {
                let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas").join(s.file_name());
                assert!(p.is_file(), "{}: {}", f.path, p.display());
            }
            assert!(!f.written_by.0.is_empty(), "{}", f.path);
        }
    }
}
