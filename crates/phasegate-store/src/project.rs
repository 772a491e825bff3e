//! The project around a working directory: its root, its features, and which
//! feature a command is about.

use std::fs;
use std::path::{Path, PathBuf};

use phasegate_core::feature::{META_FILE, Meta};
use phasegate_core::slug;
use phasegate_core::words::Command;

use crate::error::{IoContext, StoreError};
use crate::feature::Feature;
use crate::feature::index::{self, Stamp};
use crate::fs as sfs;
use crate::git::{self, RepoLayout};

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
    /// The key its writers witness state files with (see
    /// [`crate::witness`]).
    sealer: crate::seal::Sealer,
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
    #[error(
        "no feature matches `{given}`; known features: {known}. To start a new feature for it: `{}`",
        Command::new("feature new").arg(&format!("\"{}\"", .given))
    )]
    NoMatch { given: String, known: String },
    #[error("`{given}` matches several features: {matches}; pass the full folder name")]
    Ambiguous { given: String, matches: String },
    #[error("no active feature in {}; create one with `{feature_new}`", dir.display(), feature_new = Command::new("feature new").word("<slug or description>"))]
    NoActive { dir: PathBuf },
    #[error("several active features: {names}; pass --feature <name> (for example --feature {first})")]
    SeveralActive { names: String, first: String },
    #[error(
        "the feature cannot be chosen for you while {names} cannot be read ({reason}); pass --feature <name>, or fix that file first"
    )]
    Unreadable { names: String, reason: String },
    #[error(transparent)]
    Store(#[from] StoreError),
}

use phasegate_core::slug::split_feature_name;

/// What [`Project::exclude_scratch`] keeps out of git.
pub const LOCAL_EXCLUDES: &[&str] = &[
    "/docs/features/*/.verdict.json",
    "/docs/features/*/.*-brief.md",
    "/docs/features/*/.*.reply.md",
    "/docs/features/*/.*.review.md",
    "/docs/features/*/.question.json",
    "/.claude/suspended/",
    "/.claude/questions/",
    // A killed writer's temporary file, in any folder phasegate writes.
    sfs::TEMPORARY_PATTERN,
];

impl Project {
    /// Finds the project that contains `cwd`: the main working tree of its git
    /// repository; outside git, the nearest directory holding `docs/features`,
    /// else `cwd` itself.
    pub fn discover(cwd: &Path) -> Result<Project, StoreError> {
        if !cwd.is_dir() {
            return Err(StoreError::Invalid(format!(
                "the working directory {} does not exist (or is not a folder); run the command from the project",
                cwd.display()
            )));
        }
        match git::layout(cwd)? {
            Some(repo) => Ok(Project { root: repo.main_root.clone(), repo: Some(repo), sealer: Default::default() }),
            None => {
                let root = cwd.ancestors().find(|d| d.join(FEATURES_DIR).is_dir()).unwrap_or(cwd).to_path_buf();
                Ok(Project { root, repo: None, sealer: Default::default() })
            }
        }
    }

    /// The project of a repository already located (see [`crate::locate`]).
    pub fn from_layout(repo: RepoLayout) -> Project {
        Project { root: repo.main_root.clone(), repo: Some(repo), sealer: Default::default() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn repo(&self) -> Option<&RepoLayout> {
        self.repo.as_ref()
    }

    /// Whether this is a project phasegate works in: a git repository, or
    /// a folder with features (`docs/features/`). Elsewhere (any folder a
    /// session happens to start in) a hook leaves no trace.
    pub fn is_project(&self) -> bool {
        self.repo.is_some() || sfs::is_dir(&self.features_dir())
    }

    pub fn features_dir(&self) -> PathBuf {
        sfs::join_slashed(&self.root, FEATURES_DIR)
    }

    /// Where phasegate keeps runtime files (locks, journals, session records,
    /// the index): inside the git directory (shared by all worktrees), so they
    /// never show up in the user's tree; outside git, `.phasegate/` at the root.
    pub fn runtime_dir(&self) -> PathBuf {
        match &self.repo {
            Some(r) => r.common_dir.join("phasegate"),
            None => self.root.join(".phasegate"),
        }
    }

    pub fn lock_dir(&self) -> PathBuf {
        self.runtime_dir().join("locks")
    }

    /// Keeps phasegate's local files out of `git status` (through
    /// `.git/info/exclude`): the phase loop's scratch files (a reviewer's
    /// reply, a brief, a reply of the round loop) and the questions'
    /// runtime state (suspension markers and the question queue), which are
    /// this checkout's, not the project's history.
    pub fn exclude_scratch(&self) -> Result<(), StoreError> {
        for pattern in LOCAL_EXCLUDES {
            self.exclude_from_git(pattern)?;
        }
        Ok(())
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
    pub(crate) fn feature_for_dir(&self, dir: PathBuf) -> Feature {
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        Feature::new(dir, name, self.root.clone(), self.runtime_dir(), self.sealer.clone())
    }

    /// The project whose writers witness the state files they write with
    /// the key in `dir` (the user's key folder; none: nothing is witnessed).
    pub fn with_key_dir(mut self, dir: Option<PathBuf>) -> Project {
        self.sealer = crate::seal::Sealer::new(dir);
        self
    }

    /// The feature named `name` (a folder name), whether or not it exists.
    pub fn feature_named(&self, name: &str) -> Feature {
        self.feature_for_dir(self.features_dir().join(name))
    }

    /// The feature whose folder is exactly `name` (`001-login`), when the
    /// name is a valid feature folder name and its `.meta.json` exists; a
    /// name from a record (an event, a session) is checked before it
    /// becomes a path.
    pub fn find_feature(&self, name: &str) -> Result<Option<Feature>, StoreError> {
        match split_feature_name(name) {
            Some((_, s)) if slug::validate(s).is_ok() && !name.contains(['/', '\\']) => {}
            Some(_) | None => return Ok(None),
        }
        let f = self.feature_named(name);
        if !sfs::exists_entry(&f.meta_path()) {
            return Ok(None);
        }
        f.confine()?;
        Ok(Some(f))
    }

    /// Folders named like features (`NNN-slug` with a valid slug) that hold
    /// something at `.meta.json` (a dangling link or a directory included:
    /// reading it says what is wrong), in feature order; plus the names of
    /// folders that look like features but whose name is not a valid one.
    fn candidates(&self) -> Result<(Vec<Feature>, Vec<String>), StoreError> {
        self.candidates_named(|_| true)
    }

    /// [`Self::candidates`] whose folder name passes `wanted`, checked before
    /// the one `stat` per folder that tells a feature from another folder.
    fn candidates_named(&self, wanted: impl Fn(&str) -> bool) -> Result<(Vec<Feature>, Vec<String>), StoreError> {
        let dir = self.features_dir();
        sfs::confine(&self.root, &dir)?;
        let entries = match fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), Vec::new())),
            Err(e) => return Err(e).at("list", dir),
        };
        let mut out = Vec::new();
        let mut invalid = Vec::new();
        for entry in entries {
            let entry = entry.at("list", &dir)?;
            let raw = entry.file_name();
            let name = raw.to_string_lossy();
            match split_feature_name(&name) {
                Some((n, s)) if slug::validate(s).is_ok() => {
                    if !wanted(&name) {
                        continue;
                    }
                    let f = self.feature_for_dir(entry.path());
                    if sfs::exists_entry(&f.meta_path()) {
                        out.push((n, f));
                    }
                }
                Some(_) => invalid.push(name.escape_debug().to_string()),
                None if name.as_bytes().first().is_some_and(u8::is_ascii_digit) && name.contains('-') => {
                    invalid.push(name.escape_debug().to_string())
                }
                None => {}
            }
        }
        out.sort_by(|(n, a), (m, b)| n.cmp(m).then_with(|| a.name().cmp(b.name())));
        invalid.sort();
        Ok((out.into_iter().map(|(_, f)| f).collect(), invalid))
    }

    /// Feature folders, in feature order.
    pub fn features(&self) -> Result<Vec<Feature>, StoreError> {
        Ok(self.candidates()?.0)
    }

    /// Every feature with its state; one unreadable file does not hide the
    /// others. A folder whose name cannot be a feature's is listed with the
    /// reason (its name escaped, so it cannot forge output lines). Refreshes
    /// the index of active features as a side effect.
    pub fn list(&self) -> Result<Vec<Listed>, StoreError> {
        let stamp = self.stamp();
        let (candidates, invalid) = self.candidates()?;
        let mut listed = read_all(candidates, |f| Some(f.load()));
        self.write_index(stamp, &listed);
        for name in invalid {
            listed.push(Listed {
                feature: self.feature_named(&name),
                meta: Err(StoreError::Invalid(format!(
                    "{}/{name} is not a valid feature folder name (NNN-slug, the slug of letters, digits, '-', '_', '.'); rename it",
                    FEATURES_DIR
                ))),
            });
        }
        Ok(listed)
    }

    /// The active features with their state, and every feature whose state
    /// cannot be read. Uses the index of active features when it is fresh,
    /// so the cost does not grow with the number of finished features.
    pub fn list_active(&self) -> Result<Vec<Listed>, StoreError> {
        let stamp = self.stamp();
        let runtime = self.runtime_dir();
        if let Some(index) = index::read_fresh(&runtime, &stamp) {
            let names = index.active.iter().chain(&index.unreadable);
            let features: Vec<Feature> = names.map(|n| self.feature_named(n)).collect();
            return Ok(read_all(features, |f| match f.load() {
                Ok(meta) if meta.status == phasegate_core::Status::Active => Some(Ok(meta)),
                Ok(_) => None,
                Err(e) => Some(Err(e)),
            }));
        }
        let (candidates, _) = self.candidates()?;
        let listed = read_all(candidates, |f| match f.load_if_active() {
            Ok(None) => None,
            Ok(Some(meta)) => Some(Ok(meta)),
            Err(e) => Some(Err(e)),
        });
        self.write_index(stamp, &listed);
        Ok(listed)
    }

    /// The features whose state files phasegate witnessed in this clone
    /// (what a look for tampering checks): only the active ones when the
    /// index of active features is fresh, so finished features cost nothing.
    pub fn witnessed_features(&self) -> Vec<Feature> {
        let runtime = self.runtime_dir();
        let Ok(dirs) = fs::read_dir(runtime.join("witness")) else { return Vec::new() };
        let active = index::read_fresh(&runtime, &self.stamp()).map(|i| i.active);
        dirs.flatten()
            .filter_map(|d| d.file_name().to_str().map(str::to_owned))
            .filter(|name| active.as_ref().is_none_or(|a| a.contains(name)))
            .filter(|name| slug::split_feature_name(name).is_some())
            .map(|name| self.feature_named(&name))
            .collect()
    }

    pub(crate) fn stamp(&self) -> Stamp {
        Stamp::now(&self.features_dir(), self.repo.as_ref().map(|r| r.head_file()).as_deref())
    }

    fn write_index(&self, stamp: Stamp, listed: &[Listed]) {
        // No features, nothing to cache: a look at a folder that has none
        // (outside a repository, say) writes nothing into it.
        if !self.features_dir().is_dir() {
            return;
        }
        let mut active = Vec::new();
        let mut unreadable = Vec::new();
        for l in listed {
            match &l.meta {
                Ok(m) if m.status == phasegate_core::Status::Active => active.push(l.feature.name().to_owned()),
                Ok(_) => {}
                Err(_) => unreadable.push(l.feature.name().to_owned()),
            }
        }
        index::write(&self.runtime_dir(), stamp, active, unreadable);
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
        if sfs::exists_entry(&as_path.join(META_FILE)) {
            let dir = dunce::canonicalize(&as_path).at("resolve", &as_path)?;
            if dir.parent() == Some(self.features_dir().as_path())
                || dir.parent() == sfs::canonical(&self.features_dir()).as_deref()
            {
                let f = self.feature_for_dir(dir);
                f.confine()?;
                return Ok(f);
            }
        }
        let (matches, _) = self.candidates_named(|name| name_matches(name, given))?;
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
        if let Some(first) = cwd.strip_prefix(&features_dir).ok().and_then(|rest| rest.components().next()) {
            let f = self.feature_for_dir(features_dir.join(first));
            if sfs::exists_entry(&f.meta_path()) {
                f.confine()?;
                return Ok(f);
            }
        }
        if let Some(repo) = self.repo.as_ref().filter(|r| r.in_linked_worktree())
            && let Some(found) = self.feature_of_worktree(repo)?
        {
            return Ok(found);
        }
        let listed = self.list_active()?;
        let (active, broken): (Vec<&Listed>, Vec<&Listed>) = listed.iter().partition(|l| l.meta.is_ok());
        // Regression: with one feature unreadable, a bare command acted on
        // the one readable active feature. The unreadable one may be the one
        // meant: never guess past it.
        if let Some(first) = broken.first() {
            let reason = first.meta.as_ref().err().map(|e| one_line(&e.to_string())).unwrap_or_default();
            return Err(ResolveError::Unreadable {
                names: broken.iter().map(|l| l.feature.name()).collect::<Vec<_>>().join(", "),
                reason,
            });
        }
        match active.as_slice() {
            [one] => Ok(one.feature.clone()),
            [] => Err(ResolveError::NoActive { dir: features_dir }),
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
        let is_here =
            |f: &Feature| f.load().ok().and_then(|m| self.worktree_path(&m)).is_some_and(|w| same_dir(&w, here));
        if let Some(name) = &repo.worktree_name {
            let f = self.feature_named(name);
            if is_here(&f) {
                return Ok(Some(f));
            }
        }
        Ok(self.features()?.into_iter().find(|f| is_here(f)))
    }

    /// The feature's worktree as an absolute path, if it has one that stays
    /// inside the repository (the model refuses any other when reading).
    pub fn worktree_path(&self, meta: &Meta) -> Option<PathBuf> {
        let rel = meta.worktree.as_deref()?;
        phasegate_core::feature::check_worktree(rel).ok()?;
        let path = sfs::join_slashed(&self.root, rel);
        sfs::confine(&self.root, &path).ok()?;
        Some(path)
    }

    /// Where the feature's code lives: its worktree when it exists, else the
    /// project root.
    pub fn code_dir(&self, meta: &Meta) -> PathBuf {
        self.worktree_path(meta).filter(|w| w.is_dir()).unwrap_or_else(|| self.root.clone())
    }

    /// Whether `cwd` is inside the feature's worktree.
    pub fn worktree_status(&self, meta: &Meta, cwd: &Path) -> WorktreeStatus {
        let Some(path) = self.worktree_path(meta) else { return WorktreeStatus::NoWorktree };
        let Some(canonical) = sfs::canonical(&path) else { return WorktreeStatus::Missing { worktree: path } };
        let here = sfs::canonical_or_same(cwd);
        if here.starts_with(&canonical) {
            WorktreeStatus::Inside { worktree: canonical }
        } else {
            WorktreeStatus::Outside { worktree: canonical }
        }
    }
}

/// Reads every candidate with `read` (None: leave it out). Many folders are
/// read on all cores.
fn read_all(
    candidates: Vec<Feature>,
    read: impl Fn(&Feature) -> Option<Result<Meta, StoreError>> + Sync,
) -> Vec<Listed> {
    let one = |f: Feature| -> Option<Listed> {
        match read(&f)? {
            // The folder went away while we listed it.
            Err(e) if e.is_not_found() && !sfs::exists_entry(&f.meta_path()) => None,
            meta => Some(Listed { meta, feature: f }),
        }
    };
    // Asked only for many folders: available_parallelism reads the cgroup
    // files under /proc (about a millisecond).
    if candidates.len() < 256 {
        return candidates.into_iter().filter_map(one).collect();
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
    if threads == 1 {
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

fn name_matches(name: &str, given: &str) -> bool {
    if name == given {
        return true;
    }
    let Some((n, slug)) = split_feature_name(name) else { return false };
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
    match (sfs::canonical(a), sfs::canonical(b)) {
        (Some(a), Some(b)) => a == b,
        _ => a == b,
    }
}

/// The whole of a multi-line message on one line (for one-line reports).
pub fn one_line(s: &str) -> String {
    s.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_matching() {
        assert_eq!(split_feature_name("001-auth"), Some((1, "auth")));
        assert_eq!(split_feature_name("1234-x-y"), Some((1234, "x-y")));
        assert_eq!(split_feature_name("01-x"), None);
        assert_eq!(split_feature_name("abc-x"), None);
        assert!(name_matches("007-auth", "7"));
        assert!(name_matches("007-auth", "007"));
        assert!(name_matches("007-auth", "auth"));
        assert!(name_matches("007-auth", "007-auth"));
        assert!(!name_matches("007-auth", "aut"));
        assert!(phasegate_core::slug::feature_order("009-a") < phasegate_core::slug::feature_order("010-b"));
    }
}
