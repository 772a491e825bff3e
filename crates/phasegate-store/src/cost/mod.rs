//! What the cost reads and keeps: each session's log (its transcript, its
//! turns between features, the sub-agents it spawned for a task) in git's
//! runtime folder, and Claude Code's transcripts, read incrementally through
//! a cache of the usage already read (a transcript is read, never copied).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::Duration;

use phasegate_core::cost::{self, Line, Message, SessionLog};
use phasegate_core::session::SessionId;
use serde::{Deserialize, Serialize};

use crate::claude::confined;
pub use crate::claude::{AgentTranscript, Unread, agent_transcripts, claude_dir, find_transcript};
use crate::error::StoreError;
use crate::lock::FileLock;
use crate::{Project, fs};

/// The longest transcript line read; a longer one (a huge tool result) is
/// skipped, never held.
const MAX_LINE: u64 = 16 * 1024 * 1024;

impl Project {
    fn cost_dir(&self) -> PathBuf {
        self.runtime_dir().join("cost")
    }

    fn cost_session_path(&self, session: &SessionId) -> PathBuf {
        self.cost_dir().join("sessions").join(format!("{}.json", session.file_stem()))
    }

    /// A session's log; None before the binaries saw it at work. An
    /// unreadable log is an error naming it.
    pub fn cost_session(&self, session: &SessionId) -> Result<Option<SessionLog>, StoreError> {
        let path = self.cost_session_path(session);
        let Some(text) = fs::read_optional(&path)? else { return Ok(None) };
        serde_json::from_str(&text).map(Some).map_err(|e| StoreError::Corrupt {
            path,
            detail: format!("{e}; phasegate's hooks and commands write it: remove it (the session's cost is then counted from its next turn)"),
        })
    }

    /// Changes a session's log under its lock (waiting at most `wait`);
    /// `change` says whether anything changed (nothing is written if not).
    pub fn update_cost_session(
        &self,
        session: &SessionId,
        wait: Duration,
        change: impl FnOnce(&mut SessionLog) -> bool,
    ) -> Result<(), StoreError> {
        let path = self.cost_session_path(session);
        let _lock = FileLock::acquire(&self.lock_dir().join(format!("cost-{}.lock", session.file_stem())), wait)?;
        let mut log = self.cost_session(session)?.unwrap_or_default();
        if change(&mut log) {
            fs::write_cache(&path, &serde_json::to_vec(&log).expect("a log serialises"))?;
        }
        Ok(())
    }

    /// Every session's log, by session id; the unreadable ones named apart.
    pub fn cost_sessions(&self) -> Result<(BTreeMap<String, SessionLog>, Vec<String>), StoreError> {
        let mut good = BTreeMap::new();
        let mut bad = Vec::new();
        for (name, path) in fs::regular_files(&self.cost_dir().join("sessions"))? {
            let Some(stem) = name.strip_suffix(".json") else { continue };
            let Some(id) = SessionId::from_file_stem(stem) else { continue };
            match fs::read_optional(&path).map(|t| t.map(|t| serde_json::from_str::<SessionLog>(&t))) {
                Ok(Some(Ok(log))) => {
                    good.insert(id.as_str().to_owned(), log);
                }
                Ok(None) => {}
                Ok(Some(Err(e))) => bad.push(format!("{}: {e}", path.display())),
                Err(e) => bad.push(e.to_string()),
            }
        }
        Ok((good, bad))
    }

    /// The cost settings (defaults when there is no file).
    pub fn cost_config(&self) -> Result<cost::CostConfig, StoreError> {
        let path = self.root().join(cost::COST_CONFIG_PATH);
        fs::confine(self.root(), &path)?;
        match fs::read_optional(&path)? {
            None => Ok(cost::CostConfig::default()),
            Some(text) => cost::CostConfig::parse(&text)
                .map_err(|e| StoreError::Corrupt { path: path.clone(), detail: e.to_string() }),
        }
    }

    /// Whether a cost configuration exists (one `stat`: what a hook asks
    /// before it reads anything about cost).
    pub fn has_cost_config(&self) -> bool {
        fs::exists_entry(&self.root().join(cost::COST_CONFIG_PATH))
    }

    fn transcript_cache_path(&self, transcript: &Path) -> PathBuf {
        let key = phasegate_core::hash::fnv1a64(transcript.to_string_lossy().as_bytes());
        self.cost_dir().join("cache").join(format!("{key:016x}.json"))
    }
}

/// A transcript's usage as the cache keeps it.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Cached {
    path: String,
    /// Bytes read so far (through the last whole line).
    offset: u64,
    messages: Vec<CachedMessage>,
    #[serde(default)]
    bad_lines: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct CachedMessage {
    id: String,
    at: chrono::DateTime<chrono::Utc>,
    model: String,
    usage: cost::Usage,
}

/// What one transcript holds.
#[derive(Debug, Clone, Default)]
pub struct Transcript {
    pub messages: Vec<Message>,
    /// Lines that are not JSON (or too long), counted.
    pub bad_lines: u64,
}

impl Project {
    /// The usage `transcript` records, read from where the cache stopped
    /// (from the start when it was rewritten). A last line without its end
    /// (being written) is left for the next read.
    pub fn read_transcript(&self, transcript: &Path, allowed: &Path) -> Result<Transcript, Unread> {
        let real = match confined(transcript, allowed) {
            Ok(real) => real,
            // Gone (Claude Code removes transcripts after its cleanup
            // period): what was read of it before still counts.
            Err(Unread::Missing) => {
                let was = crate::fs::canonical(transcript.parent().unwrap_or(transcript))
                    .map(|dir| dir.join(transcript.file_name().unwrap_or_default()))
                    .unwrap_or_else(|| transcript.to_owned());
                return self.cached_transcript(&was).map(Cached::into_transcript).ok_or(Unread::Missing);
            }
            Err(why) => return Err(why),
        };
        let mut cached = self.cached_transcript(&real).unwrap_or_default();
        let file = std::fs::File::open(&real).map_err(|e| Unread::Io(format!("{}: {e}", real.display())))?;
        let len = file.metadata().map(|m| m.len()).unwrap_or(0);
        if len < cached.offset {
            cached = Cached::default();
        }
        cached.path = real.to_string_lossy().into_owned();
        let before = cached.offset;
        if len > cached.offset {
            let mut reader = BufReader::with_capacity(256 * 1024, file);
            reader.seek(SeekFrom::Start(cached.offset)).map_err(|e| Unread::Io(e.to_string()))?;
            let mut found = Vec::new();
            let mut buf = Vec::new();
            loop {
                buf.clear();
                let n =
                    (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buf).map_err(|e| Unread::Io(e.to_string()))?;
                if n == 0 {
                    break;
                }
                if buf.last() != Some(&b'\n') {
                    if n as u64 == MAX_LINE {
                        // Too long a line: skipped to its end.
                        cached.bad_lines += 1;
                        let mut skipped = n as u64;
                        loop {
                            buf.clear();
                            let m = (&mut reader)
                                .take(MAX_LINE)
                                .read_until(b'\n', &mut buf)
                                .map_err(|e| Unread::Io(e.to_string()))?;
                            skipped += m as u64;
                            if m == 0 || buf.last() == Some(&b'\n') {
                                break;
                            }
                        }
                        cached.offset += skipped;
                        continue;
                    }
                    // A line still being written.
                    break;
                }
                cached.offset += n as u64;
                match parse_bytes(&buf) {
                    Line::Message(m) => found.push(m),
                    Line::Other => {}
                    Line::Bad(_) => cached.bad_lines += 1,
                }
            }
            let all = cached
                .messages
                .drain(..)
                .map(|c| Message { id: c.id, at: c.at, model: c.model, usage: c.usage })
                .chain(found);
            cached.messages = cost::merge(all)
                .into_iter()
                .map(|m| CachedMessage { id: m.id, at: m.at, model: m.model, usage: m.usage })
                .collect();
        }
        if cached.offset != before {
            let _ = fs::write_cache(
                &self.transcript_cache_path(&real),
                &serde_json::to_vec(&cached).expect("a cache serialises"),
            );
        }
        Ok(cached.into_transcript())
    }

    /// What the cache kept of the transcript at `real`, if anything.
    fn cached_transcript(&self, real: &Path) -> Option<Cached> {
        fs::read_optional(&self.transcript_cache_path(real))
            .ok()
            .flatten()
            .and_then(|t| serde_json::from_str(&t).ok())
            .filter(|c: &Cached| c.path == real.to_string_lossy())
    }
}

impl Cached {
    fn into_transcript(self) -> Transcript {
        Transcript {
            messages: self
                .messages
                .into_iter()
                .map(|c| Message { id: c.id, at: c.at, model: c.model, usage: c.usage })
                .collect(),
            bad_lines: self.bad_lines,
        }
    }
}

fn parse_bytes(line: &[u8]) -> Line {
    match std::str::from_utf8(line) {
        Ok(s) => cost::parse_line(s),
        Err(_) => Line::Bad("not UTF-8".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(id: &str, out: u64) -> String {
        format!(
            "{{\"type\":\"assistant\",\"timestamp\":\"2026-11-26T10:00:00Z\",\"message\":{{\"id\":\"{id}\",\"model\":\"claude-opus-5-5\",\"usage\":{{\"input_tokens\":10,\"output_tokens\":{out}}}}}}}\n"
        )
    }

    fn project() -> (tempfile::TempDir, Project, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        git2::Repository::init(root.join("repo")).unwrap();
        let project = Project::discover(&root.join("repo")).unwrap();
        let claude = root.join("home/.claude/projects/p");
        std::fs::create_dir_all(&claude).unwrap();
        (dir, project, claude)
    }

    #[test]
    fn a_transcript_is_read_once_and_then_from_where_it_stopped() {
        let (_d, project, claude) = project();
        let allowed = claude.parent().unwrap().parent().unwrap().to_owned();
        let t = claude.join("s.jsonl");
        std::fs::write(
            &t,
            format!(
                "{}{}{{\"type\":\"user\"}}\n{{\"type\":\"assistant\",\"usage\": torn\n",
                line("m1", 5),
                line("m1", 7)
            ),
        )
        .unwrap();
        let r = project.read_transcript(&t, &allowed).unwrap();
        assert_eq!((r.messages.len(), r.messages[0].usage.output, r.bad_lines), (1, 7, 1));
        // Appended: one whole line and one being written.
        let mut f = std::fs::OpenOptions::new().append(true).open(&t).unwrap();
        use std::io::Write;
        write!(f, "{}{}", line("m2", 1), &line("m3", 1)[..20]).unwrap();
        let r = project.read_transcript(&t, &allowed).unwrap();
        assert_eq!(r.messages.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(), ["m1", "m2"]);
        // Rewritten shorter: read again from the start.
        std::fs::write(&t, line("m9", 2)).unwrap();
        let r = project.read_transcript(&t, &allowed).unwrap();
        assert_eq!(r.messages.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(), ["m9"]);
    }

    #[test]
    fn a_transcript_missing_or_out_of_claude_codes_folder_is_not_read() {
        let (d, project, claude) = project();
        let allowed = claude.parent().unwrap().parent().unwrap().to_owned();
        assert_eq!(project.read_transcript(&claude.join("gone.jsonl"), &allowed).unwrap_err(), Unread::Missing);
        let outside = d.path().join("secret.jsonl");
        std::fs::write(&outside, line("x", 1)).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&outside, claude.join("link.jsonl")).unwrap();
            assert!(matches!(
                project.read_transcript(&claude.join("link.jsonl"), &allowed),
                Err(Unread::Outside { .. })
            ));
        }
        std::fs::create_dir(claude.join("dir.jsonl")).unwrap();
        assert_eq!(project.read_transcript(&claude.join("dir.jsonl"), &allowed).unwrap_err(), Unread::NotRegular);
    }
}
