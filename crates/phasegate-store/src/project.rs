//! The project around a working directory: its root, its features, and which
//! feature a command is about.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, Utc};
use phasegate_core::Mode;
use phasegate_core::meta::{META_FILE, Meta, Workflow};

use crate::error::{IoContext, StoreError};
use crate::feature::Feature;
use crate::git::{self, RepoLayout};
use crate::lock::FileLock;

/// Where features live, relative to the project root.
pub const FEATURES_DIR: &str = "docs/features";
/// Where `feature new --worktree` puts worktrees, relative to the root.
pub const WORKTREES_DIR: &str = ".worktrees";

/// A project: the main working tree of a git repository (features live in
/// the main checkout even when commands run inside a linked worktree), or a
/// plain directory.
#[derive(Debug, Clone)]
pub struct Project {
    root: PathBuf,
    repo: Option<RepoLayout>,
}

/// One entry of `docs/features/`: a folder and its state, or why the state
/// could not be read.
#[derive(Debug)]
pub struct Listed {
    pub feature: Feature,
    pub meta: Result<Meta, StoreError>,
}

/// Where a directory stands relative to a feature's worktree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorktreeStatus {
    /// The feature works in the main checkout.
    NoWorktree,
    Inside {
        worktree: PathBuf,
    },
    Outside {
        worktree: PathBuf,
    },
    /// `.meta.json` names a worktree that does not exist (removed or moved).
    Missing {
        worktree: PathBuf,
    },
}

/// Why a command could not tell which feature it is about.
#[derive(Debug, thiserror::Error)]
pub enum ResolveError {
    #[error("no feature matches `{given}`; known features: {known}")]
    NoMatch { given: String, known: String },
    #[error("`{given}` matches several features: {matches}; pass the full folder name")]
    Ambiguous { given: String, matches: String },
    #[error("no active feature in {}; create one with `workflow-state feature new <slug>`", dir.display())]
    NoActive { dir: PathBuf },
    #[error("several active features: {names}; pass --feature <name> (for example --feature {first})")]
    SeveralActive { names: String, first: String },
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl Project {
    /// Finds the project that contains `cwd`: the main working tree of its git
    /// repository; outside git, the nearest directory holding `docs/features`,
    /// else `cwd` itself.
    pub fn discover(cwd: &Path) -> Result<Project, StoreError> {
        match git::layout(cwd)? {
            Some(repo) => Ok(Project { root: repo.main_root.clone(), repo: Some(repo) }),
            None => {
                let root = cwd.ancestors().find(|d| d.join(FEATURES_DIR).is_dir()).unwrap_or(cwd).to_path_buf();
                Ok(Project { root, repo: None })
            }
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn repo(&self) -> Option<&RepoLayout> {
        self.repo.as_ref()
    }

    pub fn features_dir(&self) -> PathBuf {
        self.root.join(FEATURES_DIR)
    }

    /// Where phasegate keeps runtime files (locks, session records): inside
    /// the git directory (shared by all worktrees), so they never show up in
    /// the user's tree; outside git, `.phasegate/` at the root.
    pub fn runtime_dir(&self) -> PathBuf {
        match &self.repo {
            Some(r) => r.common_dir.join("phasegate"),
            None => self.root.join(".phasegate"),
        }
    }

    pub fn lock_dir(&self) -> PathBuf {
        self.runtime_dir().join("locks")
    }

    /// Keeps `pattern` out of `git status` through `.git/info/exclude`
    /// (nothing to do outside git).
    pub fn exclude_from_git(&self, pattern: &str) -> Result<(), StoreError> {
        match &self.repo {
            Some(r) => git::exclude(&r.common_dir, pattern),
            None => Ok(()),
        }
    }

    /// The feature in `dir` (a folder under docs/features).
    pub fn feature_for_dir(&self, dir: PathBuf) -> Feature {
        self.feature_at(dir)
    }

    fn feature_at(&self, dir: PathBuf) -> Feature {
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let lock = self.lock_dir().join(format!("{name}.lock"));
        Feature::new(dir, name, lock)
    }

    /// Folders named like features (`NNN-slug`), sorted by name, unchecked.
    fn candidates(&self) -> Result<Vec<Feature>, StoreError> {
        let dir = self.features_dir();
        let entries = match fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(e).at("list", dir),
        };
        let mut out = Vec::new();
        for entry in entries {
            let entry = entry.at("list", &dir)?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            if let Some((n, _)) = split_name(name) {
                out.push((n, self.feature_at(entry.path())));
            }
        }
        // 9-foo before 10-bar: by number, then by name.
        out.sort_by(|(n, a), (m, b)| n.cmp(m).then_with(|| a.name().cmp(b.name())));
        Ok(out.into_iter().map(|(_, f)| f).collect())
    }

    /// Feature folders (`NNN-slug` holding `.meta.json`), sorted by name.
    pub fn features(&self) -> Result<Vec<Feature>, StoreError> {
        Ok(self.candidates()?.into_iter().filter(|f| f.meta_path().is_file()).collect())
    }

    /// Every feature with its state; one unreadable file does not hide the
    /// others.
    pub fn list(&self) -> Result<Vec<Listed>, StoreError> {
        Ok(read_all(self.candidates()?, |f| Some(f.load())))
    }

    /// The active features with their state, and every feature whose state
    /// cannot be read. Inactive features are recognised from their status
    /// alone, without reading the rest of the file into memory (SessionStart
    /// reads every feature of the project).
    pub fn list_active(&self) -> Result<Vec<Listed>, StoreError> {
        Ok(read_all(self.candidates()?, |f| match f.load_if_active() {
            Ok(None) => None,
            Ok(Some(meta)) => Some(Ok(meta)),
            Err(e) => Some(Err(e)),
        }))
    }

    /// Finds the feature a command is about. With `given`: a folder path, a
    /// folder name (`001-auth`), an id (`001` or `1`) or a slug (`auth`).
    /// Without: the feature folder `cwd` is in, else the feature whose
    /// worktree `cwd` is in, else the only active feature.
    pub fn resolve(&self, given: Option<&str>, cwd: &Path) -> Result<Feature, ResolveError> {
        match given.map(str::trim).filter(|g| !g.is_empty()) {
            Some(g) => self.resolve_named(g, cwd),
            None => self.resolve_from_cwd(cwd),
        }
    }

    fn resolve_named(&self, given: &str, cwd: &Path) -> Result<Feature, ResolveError> {
        let as_path = cwd.join(given);
        if as_path.join(META_FILE).is_file() {
            let dir = as_path.canonicalize().at("resolve", &as_path)?;
            return Ok(self.feature_at(dir));
        }
        let matches: Vec<Feature> = self
            .candidates()?
            .into_iter()
            .filter(|f| name_matches(f.name(), given) && f.meta_path().is_file())
            .collect();
        match matches.as_slice() {
            [one] => Ok(one.clone()),
            [] => Err(ResolveError::NoMatch { given: given.to_owned(), known: names(&self.features()?) }),
            many => Err(ResolveError::Ambiguous {
                given: given.to_owned(),
                matches: many.iter().map(|f| f.name()).collect::<Vec<_>>().join(", "),
            }),
        }
    }

    fn resolve_from_cwd(&self, cwd: &Path) -> Result<Feature, ResolveError> {
        let features_dir = self.features_dir();
        if let Ok(rest) = cwd.strip_prefix(&features_dir)
            && let Some(first) = rest.components().next()
        {
            let dir = features_dir.join(first);
            if dir.join(META_FILE).is_file() {
                return Ok(self.feature_at(dir));
            }
        }
        if let Some(repo) = &self.repo
            && repo.in_linked_worktree()
            && let Some(found) = self.feature_of_worktree(repo)?
        {
            return Ok(found);
        }
        let listed = self.list_active()?;
        let active: Vec<&Listed> = listed
            .iter()
            .filter(|l| l.meta.as_ref().is_ok_and(|m| m.status == phasegate_core::Status::Active))
            .collect();
        match active.as_slice() {
            [one] => Ok(one.feature.clone()),
            [] => {
                // An unreadable .meta.json may be the active feature: say so.
                if let Some(bad) = listed.into_iter().find_map(|l| l.meta.err()) {
                    return Err(ResolveError::Store(bad));
                }
                Err(ResolveError::NoActive { dir: features_dir })
            }
            many => Err(ResolveError::SeveralActive {
                names: many.iter().map(|l| l.feature.name()).collect::<Vec<_>>().join(", "),
                first: many[0].feature.name().to_owned(),
            }),
        }
    }

    /// The feature whose worktree is the linked worktree we are in: the one
    /// named like the worktree (how `feature new --worktree` names them),
    /// else any feature whose recorded worktree is this one.
    fn feature_of_worktree(&self, repo: &RepoLayout) -> Result<Option<Feature>, StoreError> {
        let here = &repo.current_root;
        let is_here = |f: &Feature| f.load().is_ok_and(|m| self.worktree_path(&m).is_some_and(|w| same_dir(&w, here)));
        if let Some(name) = &repo.worktree_name {
            let dir = self.features_dir().join(name);
            let f = self.feature_at(dir);
            if is_here(&f) {
                return Ok(Some(f));
            }
        }
        Ok(self.features()?.into_iter().find(|f| is_here(f)))
    }

    /// The feature's worktree as an absolute path, if it has one.
    pub fn worktree_path(&self, meta: &Meta) -> Option<PathBuf> {
        meta.worktree.as_deref().map(|w| self.root.join(w))
    }

    /// Where the feature's code lives: its worktree when it exists, else the
    /// project root.
    pub fn code_dir(&self, meta: &Meta) -> PathBuf {
        self.worktree_path(meta).filter(|w| w.is_dir()).unwrap_or_else(|| self.root.clone())
    }

    /// Whether `cwd` is inside the feature's worktree.
    pub fn worktree_status(&self, meta: &Meta, cwd: &Path) -> WorktreeStatus {
        let Some(path) = self.worktree_path(meta) else { return WorktreeStatus::NoWorktree };
        let Ok(canonical) = path.canonicalize() else { return WorktreeStatus::Missing { worktree: path } };
        let here = cwd.canonicalize().unwrap_or_else(|_| cwd.to_path_buf());
        if here.starts_with(&canonical) {
            WorktreeStatus::Inside { worktree: canonical }
        } else {
            WorktreeStatus::Outside { worktree: canonical }
        }
    }

    /// Creates `docs/features/<NNN>-<slug>/` with a fresh `.meta.json`; with
    /// `worktree`, also a branch `feature/<NNN>-<slug>` and a git worktree in
    /// `.worktrees/<NNN>-<slug>`.
    pub fn create_feature(
        &self,
        slug: &str,
        mode: Mode,
        workflow: Workflow,
        worktree: bool,
        now: DateTime<Utc>,
        timeout: Duration,
    ) -> Result<(Feature, Meta), StoreError> {
        validate_slug(slug)?;
        let _guard = FileLock::acquire(&self.lock_dir().join("features.lock"), timeout)?;
        let next = self.next_id()?;
        let id = format!("{next:03}");
        let name = format!("{id}-{slug}");
        let dir = self.features_dir().join(&name);
        let mut meta = Meta::new(id, slug.to_owned(), mode, now);
        meta.workflow = workflow;
        if worktree {
            let repo = self.repo.as_ref().ok_or_else(|| {
                StoreError::Invalid(format!(
                    "--worktree needs a git repository, and {} is not in one",
                    self.root.display()
                ))
            })?;
            let rel = format!("{WORKTREES_DIR}/{name}");
            let branch = format!("feature/{name}");
            git::add_worktree(repo, &name, &self.root.join(&rel), &branch)?;
            meta.worktree = Some(rel);
            meta.branch = Some(branch);
        }
        fs::create_dir_all(&dir).at("create", &dir)?;
        let feature = self.feature_at(dir);
        feature.write_meta_unlocked(&meta)?;
        Ok((feature, meta))
    }

    fn next_id(&self) -> Result<u32, StoreError> {
        let dir = self.features_dir();
        let mut max = 0;
        match fs::read_dir(&dir) {
            Ok(entries) => {
                for entry in entries {
                    let entry = entry.at("list", &dir)?;
                    if let Some((n, _)) = entry.file_name().to_str().and_then(split_name) {
                        max = max.max(n);
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e).at("list", dir),
        }
        Ok(max + 1)
    }
}

/// Reads every candidate with `read` (None: leave it out); a folder without
/// `.meta.json` is not a feature. Many folders are read on all cores.
fn read_all(
    candidates: Vec<Feature>,
    read: impl Fn(&Feature) -> Option<Result<Meta, StoreError>> + Sync,
) -> Vec<Listed> {
    let one = |f: Feature| -> Option<Listed> {
        match read(&f)? {
            Err(StoreError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => None,
            meta => Some(Listed { meta, feature: f }),
        }
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
    if candidates.len() < 256 || threads == 1 {
        return candidates.into_iter().filter_map(one).collect();
    }
    let chunk = candidates.len().div_ceil(threads);
    let mut parts: Vec<Vec<Feature>> = Vec::new();
    let mut rest = candidates;
    while !rest.is_empty() {
        let tail = rest.split_off(chunk.min(rest.len()));
        parts.push(rest);
        rest = tail;
    }
    std::thread::scope(|scope| {
        let one = &one;
        let handles: Vec<_> = parts
            .into_iter()
            .map(|part| scope.spawn(move || part.into_iter().filter_map(one).collect::<Vec<_>>()))
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("a reader thread panicked")).collect()
    })
}

/// `NNN-slug` → (NNN, slug) when the name has that shape.
pub fn split_name(name: &str) -> Option<(u32, &str)> {
    let (num, slug) = name.split_once('-')?;
    if num.len() < 3 || !num.bytes().all(|b| b.is_ascii_digit()) || slug.is_empty() {
        return None;
    }
    Some((num.parse().ok()?, slug))
}

fn name_matches(name: &str, given: &str) -> bool {
    if name == given {
        return true;
    }
    let Some((n, slug)) = split_name(name) else { return false };
    slug == given || given.parse::<u32>().is_ok_and(|g| g == n)
}

fn names(features: &[Feature]) -> String {
    if features.is_empty() {
        "(none)".to_owned()
    } else {
        features.iter().map(|f| f.name()).collect::<Vec<_>>().join(", ")
    }
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// A slug names a folder and a branch: letters, digits, `.`, `_`, `-`;
/// starting with a letter or digit; no `..`; at most 64 characters.
pub fn validate_slug(slug: &str) -> Result<(), StoreError> {
    let ok_chars = slug.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.');
    let ok_start = slug.bytes().next().is_some_and(|b| b.is_ascii_alphanumeric());
    if slug.is_empty() || slug.len() > 64 || !ok_chars || !ok_start || slug.contains("..") || slug.ends_with(".lock") {
        return Err(StoreError::Invalid(format!(
            "invalid slug `{slug}`: use 1-64 letters, digits, '-', '_' or '.', starting with a letter or digit, without '..' or path separators (for example `user-auth`)"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs() {
        for ok in ["auth", "user-auth", "v2.api", "a_b", "X1"] {
            validate_slug(ok).unwrap();
        }
        for bad in ["", "../x", "a/b", "a\\b", "..", "-x", ".hidden", "a..b", "x.lock", &"a".repeat(65), "é"] {
            assert!(validate_slug(bad).is_err(), "{bad} should be refused");
        }
    }

    #[test]
    fn names_and_matching() {
        assert_eq!(split_name("001-auth"), Some((1, "auth")));
        assert_eq!(split_name("1234-x-y"), Some((1234, "x-y")));
        assert_eq!(split_name("01-x"), None);
        assert_eq!(split_name("abc-x"), None);
        assert!(name_matches("007-auth", "7"));
        assert!(name_matches("007-auth", "007"));
        assert!(name_matches("007-auth", "auth"));
        assert!(name_matches("007-auth", "007-auth"));
        assert!(!name_matches("007-auth", "aut"));
    }
}
