//! Questions on disk: suspension markers (`.claude/suspended/<slug>.json`,
//! seed 000), queued and answered questions (`.claude/questions/<id>.json`),
//! the implementer round loops of a feature (`.rounds.json`), remembered
//! preferences (`.phasegate/preferences.json`) and the questions
//! configuration.
//!
//! Every question belongs to one feature (its `slug` is the folder name), and
//! is written under that feature's lock, through the feature's journal when
//! a change spans files (an answer consumed into `.rounds.json` and the
//! marker removed): the feature lock is the one lock for all of a feature's
//! state, so nothing can deadlock and a crash leaves old or new.

mod dialogs;
mod rounds;

pub use dialogs::DialogNote;

use std::path::{Path, PathBuf};

use phasegate_core::questions::{Preferences, QUESTIONS_DIR, Question, QuestionFile, SUSPENDED_DIR};
use phasegate_core::questions::{QUESTIONS_CONFIG_PATH, QuestionsConfig};
use phasegate_core::schema::Schema;

use crate::error::StoreError;
use crate::feature::Feature;
use crate::fs;
use crate::journal::FileWrite;
use crate::lock::FileLock;
use crate::project::Project;

/// The questions: suspension markers, the queue, preferences, dialog notes
/// and the Slack poller's locks.
#[derive(Debug, Clone, Copy)]
pub struct Questions<'p> {
    pub(crate) project: &'p Project,
}

impl Project {
    /// The questions.
    pub fn questions(&self) -> Questions<'_> {
        Questions { project: self }
    }
}

/// Remembered preference answers.
pub const PREFERENCES_PATH: &str = ".phasegate/preferences.json";

/// Where a stored question lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// The item's suspension marker.
    Marker,
    /// The queue / archive.
    Queue,
}

/// A question read from disk, with its file.
#[derive(Debug, Clone)]
pub struct Stored {
    pub path: PathBuf,
    pub place: Place,
    pub question: Question,
}

/// A file in a question folder that could not be read.
#[derive(Debug)]
pub struct Unreadable {
    pub path: PathBuf,
    pub error: StoreError,
}

impl Unreadable {
    /// The feature the file belongs to, by its name: a marker is named
    /// after its feature, a queued question `<feature>.<n>`.
    pub fn feature(&self) -> Option<&str> {
        let stem = self.path.file_stem()?.to_str()?;
        match self.path.parent().and_then(Path::file_name).and_then(|n| n.to_str()) {
            Some("suspended") => Some(stem),
            _ => stem.rsplit_once('.').map(|(slug, _)| slug),
        }
    }
}

impl Questions<'_> {
    /// The background Slack poller's log: `slack-watch.log` in the runtime
    /// folder.
    pub fn watch_log(&self) -> PathBuf {
        self.project.runtime_dir().join("slack-watch.log")
    }

    /// [`Self::watch_log`], opened for appending (a detached poller writes
    /// its lines there).
    pub fn open_watch_log(&self) -> Result<std::fs::File, StoreError> {
        crate::fs::open_log(&self.watch_log())
    }

    pub fn suspended_dir(&self) -> PathBuf {
        crate::fs::join_slashed(self.project.root(), SUSPENDED_DIR)
    }

    pub fn questions_dir(&self) -> PathBuf {
        crate::fs::join_slashed(self.project.root(), QUESTIONS_DIR)
    }

    /// `.claude/suspended/<slug>.json`.
    pub fn marker_path(&self, slug: &str) -> PathBuf {
        self.suspended_dir().join(format!("{slug}.json"))
    }

    /// `.claude/questions/<id>.json`.
    pub fn queued_path(&self, id: &str) -> PathBuf {
        self.questions_dir().join(format!("{id}.json"))
    }

    pub fn preferences_path(&self) -> PathBuf {
        crate::fs::join_slashed(self.project.root(), PREFERENCES_PATH)
    }

    pub fn questions_config_path(&self) -> PathBuf {
        self.project.root().join(QUESTIONS_CONFIG_PATH)
    }

    /// The questions configuration (defaults when there is no file).
    pub fn questions_config(&self) -> Result<QuestionsConfig, StoreError> {
        let path = self.questions_config_path();
        fs::confine(self.project.root(), &path)?;
        match fs::read_optional(&path)? {
            None => Ok(QuestionsConfig::default()),
            Some(text) => QuestionsConfig::parse(&text)
                .map_err(|e| StoreError::Corrupt { path: path.clone(), detail: e.to_string() }),
        }
    }

    /// Every stored question, markers first; unreadable files apart. Two
    /// files with one question id are both unreadable (each names the
    /// other): neither may stand for, or overwrite, the other.
    pub fn all(&self) -> Result<(Vec<Stored>, Vec<Unreadable>), StoreError> {
        let (mut good, mut bad) = self.read_place(Place::Marker)?;
        let queued = self.read_place(Place::Queue)?;
        good.extend(queued.0);
        bad.extend(queued.1);
        let mut by_id: std::collections::BTreeMap<&str, Vec<usize>> = std::collections::BTreeMap::new();
        for (i, s) in good.iter().enumerate() {
            by_id.entry(s.question.id.as_str()).or_default().push(i);
        }
        let twice: Vec<usize> = by_id.into_values().filter(|v| v.len() > 1).flatten().collect();
        if twice.is_empty() {
            return Ok((good, bad));
        }
        let mut kept = Vec::new();
        for (i, s) in good.into_iter().enumerate() {
            if twice.contains(&i) {
                bad.push(Unreadable {
                    error: StoreError::Corrupt {
                        path: s.path.clone(),
                        detail: format!(
                            "another file holds question `{}` too; keep one (the answered one, if any) and remove the other",
                            s.question.id
                        ),
                    },
                    path: s.path,
                });
            } else {
                kept.push(s);
            }
        }
        Ok((kept, bad))
    }

    /// The suspension markers only (the hooks' view): one small folder.
    pub fn markers(&self) -> Result<(Vec<Stored>, Vec<Unreadable>), StoreError> {
        self.read_place(Place::Marker)
    }

    fn read_place(&self, place: Place) -> Result<(Vec<Stored>, Vec<Unreadable>), StoreError> {
        let dir = match place {
            Place::Marker => self.suspended_dir(),
            Place::Queue => self.questions_dir(),
        };
        let mut good = Vec::new();
        let mut bad = Vec::new();
        for path in json_files(self.project.root(), &dir)? {
            match read_question_in(self.project.root(), &path, place) {
                Ok(Some(question)) => good.push(Stored { path, place, question }),
                Ok(None) => {}
                Err(error) => bad.push(Unreadable { path, error }),
            }
        }
        Ok((good, bad))
    }

    /// The marker of `slug`, if it is suspended (or was, and its answer waits).
    pub fn marker(&self, slug: &str) -> Result<Option<Question>, StoreError> {
        if phasegate_core::slug::validate(slug).is_err() {
            return Ok(None);
        }
        read_question_in(self.project.root(), &self.marker_path(slug), Place::Marker)
    }

    pub fn preferences(&self) -> Result<Preferences, StoreError> {
        let path = self.preferences_path();
        fs::confine(self.project.root(), &path)?;
        match fs::read_optional(&path)? {
            None => Ok(Preferences::new()),
            Some(text) => serde_json::from_str(&text).map_err(|e| StoreError::Corrupt {
                path: path.clone(),
                detail: format!("{e}; it maps a tag to {{\"answer\", \"question\", \"at\"}}"),
            }),
        }
    }

    /// The preferences' lock, for a change that writes them with other
    /// files in one journal (lock order: the feature's lock first).
    pub fn preferences_lock(&self, timeout: std::time::Duration) -> Result<FileLock, StoreError> {
        FileLock::acquire(&self.project.lock_dir().join("preferences.lock"), timeout)
    }

    /// The change that writes `prefs` (commit it under the preferences'
    /// lock).
    pub fn preferences_change(&self, prefs: &Preferences) -> FileWrite {
        FileWrite::put(self.preferences_path(), render(prefs))
    }

    /// Held for one pass over the questions that talks to Slack (a post, a
    /// thread read), so two passes never post the same question twice.
    pub fn poll_pass_lock(&self, timeout: std::time::Duration) -> Result<FileLock, StoreError> {
        FileLock::acquire(&self.project.lock_dir().join("slack-poll.lock"), timeout)
    }

    /// Held for its whole life by the one background poller of the project
    /// (`slack poll --watch`); None when another one holds it.
    pub fn try_watcher_lock(&self) -> Result<Option<FileLock>, StoreError> {
        FileLock::try_acquire(&self.project.lock_dir().join("slack-watch.lock"))
    }
}

impl Feature {
    /// The feature's suspension marker (`.claude/suspended/<feature>.json`), if any.
    pub fn marker(&self) -> Result<Option<Question>, StoreError> {
        read_question(self.root(), &self.root().join(SUSPENDED_DIR).join(format!("{}.json", self.name())))
    }
}

/// The change that writes `q` at `path`.
pub fn question_change(path: &Path, q: &Question) -> FileWrite {
    FileWrite::put(path, render(q))
}

fn render<T: serde::Serialize>(v: &T) -> String {
    let mut out = serde_json::to_string_pretty(v).expect("our files always serialise");
    out.push('\n');
    out
}

/// Reads one question file: the typed reading, the schema only to explain
/// a failure field by field. None when it does not exist.
pub fn read_question(root: &Path, path: &Path) -> Result<Option<Question>, StoreError> {
    let place = match path.parent().and_then(Path::file_name).and_then(|n| n.to_str()) {
        Some("suspended") => Place::Marker,
        _ => Place::Queue,
    };
    read_question_in(root, path, place)
}

fn read_question_in(root: &Path, path: &Path, place: Place) -> Result<Option<Question>, StoreError> {
    fs::confine(root, path)?;
    let Some(text) = fs::read_optional(path)? else { return Ok(None) };
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    let file = match place {
        Place::Marker => QuestionFile::Marker,
        Place::Queue => QuestionFile::Queue,
    };
    let typed = Question::parse(&text, stem, file);
    match typed {
        Ok(q) => Ok(Some(q)),
        Err(why) => {
            let detail = match serde_json::from_str::<serde_json::Value>(&text) {
                Err(e) => format!("is not valid JSON: {e}"),
                Ok(v) => match Schema::Question.check(&v) {
                    Err(errors) => errors.to_string(),
                    Ok(()) => why,
                },
            };
            Err(StoreError::Corrupt { path: path.to_owned(), detail })
        }
    }
}

/// The `*.json` entries of `dir` (none when it does not exist), sorted;
/// temporary files of killed writers (dot files) are skipped.
fn json_files(root: &Path, dir: &Path) -> Result<Vec<PathBuf>, StoreError> {
    fs::confine(root, dir)?;
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(StoreError::Io { op: "list", path: dir.to_owned(), source: e }),
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".json") && !n.starts_with('.')))
        .collect();
    out.sort();
    Ok(out)
}
