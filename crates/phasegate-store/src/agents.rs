//! The sub-agents a session can spawn, found where Claude Code finds them:
//! the project's `.claude/agents/`, the user's `~/.claude/agents/`, and this
//! plugin's `agents/` (named `phasegate:<name>`). Read from their
//! frontmatter, so an agent added to a folder is a candidate at once.

use std::path::{Path, PathBuf};

use phasegate_core::tasks::frontmatter;
use phasegate_core::words::Command;
use serde::Serialize;

use crate::fs;

/// Where an agent comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    Project,
    User,
    Plugin,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AgentInfo {
    /// The name the Agent tool takes (`phasegate:code-reviewer` for ours).
    pub name: String,
    pub description: String,
    pub model: Option<String>,
    pub source: Source,
    pub path: PathBuf,
}

/// Every agent of the three folders (a project agent shadows a user or
/// plugin agent of the same name, as in Claude Code), and what could not be
/// read (a link, a file without a name), one line each.
pub fn discover(project_root: &Path, home: Option<&Path>, plugin_root: Option<&Path>) -> (Vec<AgentInfo>, Vec<String>) {
    let mut found: Vec<AgentInfo> = Vec::new();
    let mut problems = Vec::new();
    let folders = [
        (Some(project_root.join(".claude/agents")), Source::Project),
        (home.map(|h| h.join(".claude/agents")), Source::User),
        (plugin_root.map(|p| p.join("agents")), Source::Plugin),
    ];
    for (dir, source) in folders {
        let Some(dir) = dir else { continue };
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut paths: Vec<PathBuf> =
            entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "md")).collect();
        paths.sort();
        for path in paths {
            // Regular files only: a link could lead anywhere.
            let text = match fs::read_optional(&path) {
                Ok(Some(t)) => t,
                Ok(None) => continue,
                Err(e) => {
                    problems.push(e.to_string());
                    continue;
                }
            };
            let Some(f) = frontmatter(&text) else {
                problems.push(format!("{}: no frontmatter with a `name:`; not an agent", path.display()));
                continue;
            };
            let name = match source {
                Source::Plugin => format!("phasegate:{}", f.name),
                Source::Project | Source::User => f.name,
            };
            if found.iter().any(|a| a.name == name) {
                continue;
            }
            found.push(AgentInfo { name, description: f.description, model: f.model, source, path });
        }
    }
    (found, problems)
}

impl crate::Feature {
    /// `.review-cycles.json`: the per-task review cycles of seed 003.
    pub fn review_cycles_path(&self) -> PathBuf {
        self.dir().join(phasegate_core::tasks::REVIEW_CYCLES_FILE)
    }

    /// The review cycles (empty without a file); an unreadable file is an
    /// error naming it, never overwritten.
    pub fn read_review_cycles(&self) -> Result<phasegate_core::tasks::ReviewCycles, crate::StoreError> {
        let path = self.review_cycles_path();
        fs::confine(self.root(), &path)?;
        match fs::read_optional(&path)? {
            None => Ok(Default::default()),
            Some(text) => phasegate_core::tasks::ReviewCycles::parse(&text).map_err(|detail| {
                crate::StoreError::Corrupt {
                    path: path.clone(),
                    detail: format!("{detail}; it is written by `{tasks}` only, so restore it from git or remove it to start the review cycles again", tasks = Command::new("tasks")),
                }
            }),
        }
    }

    /// The change that writes `cycles`, stamped `updated_at: now` (commit
    /// it with the guard).
    pub fn review_cycles_change(
        &self,
        cycles: &phasegate_core::tasks::ReviewCycles,
        now: chrono::DateTime<chrono::Utc>,
    ) -> crate::FileWrite {
        let stamped = phasegate_core::tasks::ReviewCycles { updated_at: Some(now), ..cycles.clone() };
        let mut text = serde_json::to_string_pretty(&stamped).expect("our files always serialise");
        text.push('\n');
        crate::FileWrite::put(self.review_cycles_path(), text)
    }
}

impl crate::Project {
    /// `.phasegate/implement.config.json` (defaults without a file); an
    /// invalid file is an error naming it.
    pub fn implement_config(&self) -> Result<phasegate_core::tasks::ImplementConfig, crate::StoreError> {
        use phasegate_core::tasks::{IMPLEMENT_CONFIG_PATH, ImplementConfig};
        let path = self.root().join(IMPLEMENT_CONFIG_PATH);
        fs::confine(self.root(), &path)?;
        match fs::read_optional(&path)? {
            None => Ok(ImplementConfig::default()),
            Some(text) => ImplementConfig::parse(&text)
                .map_err(|e| crate::StoreError::Corrupt { path: path.clone(), detail: e.to_string() }),
        }
    }
}
