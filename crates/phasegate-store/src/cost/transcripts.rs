//! Claude Code's transcripts as the cost reads them: read, never copied,
//! through one cache of what was already read (`cost/transcripts.json` in
//! the runtime folder: per transcript, the bytes read so far and the usage
//! of each message found).
//!
//! What makes a first read fast: the transcripts are read in parallel (one
//! worker per CPU, at most [`MAX_WORKERS`]), each in large blocks into one
//! buffer per worker (no copy per line); a block is searched for
//! `"usage"` (SIMD, through memchr) and only the lines holding it are
//! parsed, so prompts and tool results, most of a transcript, are never
//! looked at line by line. The cache is one file written once, not a file
//! per transcript.

use super::Cost;
use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, SystemTime};

use chrono::{DateTime, Utc};
use memchr::memmem;
use phasegate_core::cost::{self, Line, Message, USAGE_KEY, Usage};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::claude::{MAX_LINE, Unread, confined};
use crate::fs;
use crate::lock::FileLock;

/// The most transcripts read at once.
const MAX_WORKERS: usize = 8;

/// How much of a transcript is read at a time (a longer line grows the
/// buffer, up to [`MAX_LINE`]).
const BLOCK: usize = 1024 * 1024;

/// The cache's format; another is read as no cache (one full read).
const CACHE_VERSION: u32 = 2;

/// The largest cache read (a cache is small: about 150 bytes a message).
const MAX_CACHE_BYTES: u64 = 1024 * 1024 * 1024;

/// How long a reader waits for another writing the cache; past it, what
/// this one read is simply not kept (the next read reads it again).
const CACHE_LOCK_WAIT: Duration = Duration::from_secs(2);

/// What one transcript holds: each message once. Its ids are kept one
/// after another in one string (a message names its range), so a reader of
/// a thousand transcripts frees a thousand strings, not one per message.
#[derive(Debug, Clone, Default)]
pub struct Transcript {
    ids: String,
    models: Vec<String>,
    messages: Vec<Held>,
    /// Lines that are not JSON (or too long), counted.
    pub bad_lines: u64,
}

#[derive(Debug, Clone, Copy)]
struct Held {
    id: (usize, usize),
    at: DateTime<Utc>,
    model: usize,
    usage: Usage,
}

/// One message of a transcript.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MessageRef<'a> {
    /// Its message id and request id (`msg/req`; the message id alone when
    /// it has none).
    pub id: &'a str,
    pub at: DateTime<Utc>,
    pub model: &'a str,
    pub usage: Usage,
}

impl Transcript {
    /// Its messages, in the order of their ids.
    pub fn messages(&self) -> impl ExactSizeIterator<Item = MessageRef<'_>> {
        self.messages.iter().map(|h| MessageRef {
            id: &self.ids[h.id.0..h.id.1],
            at: h.at,
            model: self.models.get(h.model).map_or("", String::as_str),
            usage: h.usage,
        })
    }
}

/// What was read of one transcript.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Entry {
    /// Bytes read so far (through the last whole line).
    offset: u64,
    #[serde(default)]
    bad_lines: u64,
    /// The models its messages name (a row gives an index).
    #[serde(default)]
    models: Vec<String>,
    #[serde(default)]
    messages: Vec<Row>,
}

/// One message: its id, when (microseconds since the epoch), its model
/// (an index into the entry's models), then input, output, cache read,
/// cache write and, of those, the tokens written for an hour.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Row(String, i64, u32, u64, u64, u64, u64, u64);

impl Row {
    fn usage(&self) -> Usage {
        Usage { input: self.3, output: self.4, cache_read: self.5, cache_write: self.6, cache_write_1h: self.7 }
    }

    fn set_usage(&mut self, u: Usage) {
        (self.3, self.4, self.5, self.6, self.7) = (u.input, u.output, u.cache_read, u.cache_write, u.cache_write_1h);
    }
}

impl Entry {
    fn into_transcript(self) -> Transcript {
        let mut ids = String::with_capacity(self.messages.iter().map(|r| r.0.len()).sum());
        let messages = self
            .messages
            .iter()
            .map(|r| {
                let start = ids.len();
                ids.push_str(&r.0);
                Held {
                    id: (start, ids.len()),
                    at: DateTime::from_timestamp_micros(r.1).unwrap_or_default(),
                    model: r.2 as usize,
                    usage: r.usage(),
                }
            })
            .collect();
        Transcript { ids, models: self.models, messages, bad_lines: self.bad_lines }
    }

    fn model_index(&mut self, model: &str) -> u32 {
        match self.models.iter().position(|m| m == model) {
            Some(i) => i as u32,
            None => {
                self.models.push(model.to_owned());
                (self.models.len() - 1) as u32
            }
        }
    }

    /// Takes in the messages of newly read lines, each message once: the
    /// first of its lines (here or where the last read stopped) keeps its
    /// time and model, each count the largest its lines report. Sorted by
    /// id rather than hashed: no id is copied.
    fn absorb(&mut self, found: Vec<Message>) {
        if found.is_empty() {
            return;
        }
        self.messages.reserve(found.len());
        for m in found {
            let model = self.model_index(&m.model);
            let (u, at) = (m.usage, m.at.timestamp_micros());
            self.messages.push(Row(m.id, at, model, u.input, u.output, u.cache_read, u.cache_write, u.cache_write_1h));
        }
        let rows = &mut self.messages;
        let mut order: Vec<usize> = (0..rows.len()).collect();
        order.sort_unstable_by(|&a, &b| rows[a].0.cmp(&rows[b].0).then(a.cmp(&b)));
        let mut dropped = vec![false; rows.len()];
        let mut merged = Vec::new();
        for group in order.chunk_by(|&a, &b| rows[a].0 == rows[b].0) {
            let (&first, rest) = group.split_first().expect("a group has one row");
            if !rest.is_empty() {
                merged.push((first, rest.iter().fold(rows[first].usage(), |u, &i| u.max(rows[i].usage()))));
                rest.iter().for_each(|&i| dropped[i] = true);
            }
        }
        for &(first, usage) in &merged {
            rows[first].set_usage(usage);
        }
        if !merged.is_empty() {
            let mut i = 0;
            rows.retain(|_| {
                i += 1;
                !dropped[i - 1]
            });
        }
    }
}

/// The cache of phasegate before one file held every transcript's (a file
/// per transcript in `cost/cache/`): read once, then kept in the new one.
#[derive(Deserialize)]
struct LegacyCached {
    path: String,
    offset: u64,
    messages: Vec<LegacyMessage>,
    #[serde(default)]
    bad_lines: u64,
}

#[derive(Deserialize)]
struct LegacyMessage {
    id: String,
    at: DateTime<Utc>,
    model: String,
    usage: Usage,
}

impl LegacyCached {
    fn into_entry(self) -> Entry {
        let mut e = Entry { offset: self.offset, bad_lines: self.bad_lines, ..Entry::default() };
        e.absorb(
            self.messages.into_iter().map(|m| Message { id: m.id, at: m.at, model: m.model, usage: m.usage }).collect(),
        );
        e
    }
}

/// What a worker found for one transcript: what it holds, and the cache's
/// new entry for it (its JSON, written by the worker) when it changed.
struct Found {
    transcript: Result<Transcript, Unread>,
    changed: Option<(String, String)>,
    legacy: Option<PathBuf>,
}

impl Found {
    fn unread(why: Unread) -> Found {
        Found { transcript: Err(why), changed: None, legacy: None }
    }

    /// Found in `entry` (`key`'s); `changed`: written back to the cache.
    fn read(key: String, entry: Entry, changed: bool, legacy: Option<PathBuf>) -> Found {
        let changed = changed.then(|| (key, serde_json::to_string(&entry).expect("an entry serialises")));
        Found { transcript: Ok(entry.into_transcript()), changed, legacy }
    }
}

/// The cache as loaded: each transcript's entry still as JSON, parsed only
/// by the worker that reads that transcript.
struct Loaded<'a> {
    transcripts: HashMap<String, &'a RawValue>,
}

#[derive(Deserialize)]
struct RawCache<'a> {
    version: u32,
    #[serde(borrow)]
    transcripts: HashMap<String, &'a RawValue>,
}

impl<'a> Loaded<'a> {
    /// The cache in `bytes` (one of another format, or unreadable, is no cache).
    fn parse(bytes: &'a [u8]) -> Loaded<'a> {
        let transcripts = serde_json::from_slice::<RawCache<'a>>(bytes)
            .ok()
            .filter(|c| c.version == CACHE_VERSION)
            .map(|c| c.transcripts)
            .unwrap_or_default();
        Loaded { transcripts }
    }

    fn entry(&self, key: &str) -> Option<Entry> {
        serde_json::from_str(self.transcripts.get(key)?.get()).ok()
    }
}

/// The size and time of the cache file when it was loaded: another reader
/// wrote it since when they differ.
type Stamp = Option<(u64, Option<SystemTime>)>;

impl Cost<'_> {
    fn cost_cache_path(&self) -> PathBuf {
        self.cost_dir().join("transcripts.json")
    }

    fn legacy_cache_path(&self, real: &str) -> PathBuf {
        let key = phasegate_core::hash::fnv1a64(real.as_bytes());
        self.cost_dir().join("cache").join(format!("{key:016x}.json"))
    }

    /// The usage `transcript` records, read from where the cache stopped.
    pub fn read_transcript(&self, transcript: &Path, allowed: &Path) -> Result<Transcript, Unread> {
        self.read_transcripts(&[transcript.to_owned()], allowed).pop().unwrap_or(Err(Unread::Missing))
    }

    /// The usage each of `transcripts` records (in their order), each read
    /// from where the cache stopped (from the start when it was rewritten
    /// shorter), in parallel. A last line without its end (being written)
    /// is left for the next read. Only a regular file inside `allowed`
    /// (Claude Code's folder) is read; one that is gone (Claude Code
    /// removes transcripts after its cleanup period) still gives what was
    /// read of it before.
    pub fn read_transcripts(&self, transcripts: &[PathBuf], allowed: &Path) -> Vec<Result<Transcript, Unread>> {
        let path = self.cost_cache_path();
        let stamp = cache_stamp(&path);
        let bytes = fs::read_regular_bytes(&path, MAX_CACHE_BYTES).ok().flatten().unwrap_or_default();
        let cache = Loaded::parse(&bytes);
        let allowed = fs::canonical_or_same(allowed);
        // The former cache (a file per transcript) is looked in only while
        // its folder is there.
        let legacy = fs::is_dir(&self.cost_dir().join("cache"));
        let next = AtomicUsize::new(0);
        let work = || -> Vec<(usize, Found)> {
            let (mut done, mut buf) = (Vec::new(), Vec::new());
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(path) = transcripts.get(i) else { return done };
                done.push((i, self.read_one(path, &allowed, &cache, legacy, &mut buf)));
            }
        };
        let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_WORKERS);
        let mut found: Vec<(usize, Found)> = if workers < 2 || transcripts.len() < 2 {
            work()
        } else {
            std::thread::scope(|s| {
                let handles: Vec<_> = (0..workers.min(transcripts.len())).map(|_| s.spawn(work)).collect();
                handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
            })
        };
        found.sort_unstable_by_key(|(i, _)| *i);
        let mut changed: HashMap<String, String> = HashMap::new();
        let mut legacy = Vec::new();
        let mut out = Vec::with_capacity(found.len());
        for (_, f) in found {
            changed.extend(f.changed);
            legacy.extend(f.legacy);
            out.push(f.transcript);
        }
        if !changed.is_empty() && self.save_cost_cache(&cache, changed, stamp) {
            for old in legacy {
                let _ = fs::remove_if_exists(&old);
            }
        }
        out
    }

    /// One transcript: where it really is, and what is new in it.
    fn read_one(
        &self,
        transcript: &Path,
        allowed: &Path,
        cache: &Loaded<'_>,
        legacy: bool,
        buf: &mut Vec<u8>,
    ) -> Found {
        let real = match confined(transcript, allowed) {
            Ok(real) => real,
            // Gone: what was read of it before still counts.
            Err(Unread::Missing) => {
                let was = fs::canonical(transcript.parent().unwrap_or(transcript))
                    .map(|dir| dir.join(transcript.file_name().unwrap_or_default()))
                    .unwrap_or_else(|| transcript.to_owned());
                let key = was.to_string_lossy().into_owned();
                if let Some(entry) = cache.entry(&key) {
                    return Found::read(key, entry, false, None);
                }
                return match legacy.then(|| self.legacy_entry(&key)).flatten() {
                    Some((entry, old)) => Found::read(key, entry, true, Some(old)),
                    None => Found::unread(Unread::Missing),
                };
            }
            Err(why) => return Found::unread(why),
        };
        let key = real.to_string_lossy().into_owned();
        let (cached, legacy) = match cache.entry(&key) {
            Some(e) => (Some(e), None),
            None if !legacy => (None, None),
            None => match self.legacy_entry(&key) {
                Some((e, old)) => (Some(e), Some(old)),
                None => (None, None),
            },
        };
        match read_new(&real, cached, buf) {
            Ok((entry, changed)) => Found::read(key, entry, changed || legacy.is_some(), legacy),
            Err(why) => Found::unread(why),
        }
    }

    /// What the former cache kept of the transcript at `real`.
    fn legacy_entry(&self, real: &str) -> Option<(Entry, PathBuf)> {
        let path = self.legacy_cache_path(real);
        let text = fs::read_optional(&path).ok().flatten()?;
        let old: LegacyCached = serde_json::from_str(&text).ok()?;
        (old.path == real).then(|| (old.into_entry(), path))
    }

    /// Writes the cache back: the entries this read changed, the others as
    /// loaded (and what another reader wrote since it was loaded, for the
    /// transcripts this one did not change). False when it was not written
    /// (another reader held it too long, or the disk refused).
    fn save_cost_cache(&self, loaded: &Loaded<'_>, changed: HashMap<String, String>, stamp: Stamp) -> bool {
        let Ok(_lock) = FileLock::acquire(&self.project.lock_dir().join("cost-cache.lock"), CACHE_LOCK_WAIT) else {
            return false;
        };
        let path = self.cost_cache_path();
        let disk_bytes;
        let mut disk = None;
        if cache_stamp(&path) != stamp {
            disk_bytes = fs::read_regular_bytes(&path, MAX_CACHE_BYTES).ok().flatten().unwrap_or_default();
            disk = Some(Loaded::parse(&disk_bytes));
        }
        let base = disk.as_ref().unwrap_or(loaded);
        let mut text = String::with_capacity(
            changed.values().map(String::len).sum::<usize>()
                + base.transcripts.values().map(|r| r.get().len()).sum::<usize>()
                + 64 * (changed.len() + base.transcripts.len()),
        );
        // Written piece by piece (no `format!`, whose doubled braces a
        // reader of the source counts as blocks).
        text.push_str("{\"version\":");
        text.push_str(&CACHE_VERSION.to_string());
        text.push_str(",\"transcripts\":{");
        let kept =
            base.transcripts.iter().filter(|(k, _)| !changed.contains_key(*k)).map(|(k, r)| (k.as_str(), r.get()));
        for (k, (key, entry)) in kept.chain(changed.iter().map(|(k, e)| (k.as_str(), e.as_str()))).enumerate() {
            if k > 0 {
                text.push(',');
            }
            text.push_str(&serde_json::to_string(key).expect("a path serialises"));
            text.push(':');
            text.push_str(entry);
        }
        text.push_str("}}");
        fs::write_cache(&path, text.as_bytes()).is_ok()
    }
}

fn cache_stamp(path: &Path) -> Stamp {
    std::fs::symlink_metadata(path).ok().map(|m| (m.len(), m.modified().ok()))
}

/// The entry of the transcript at `real` once its new lines are read, and
/// whether it changed since `cached`.
fn read_new(real: &Path, cached: Option<Entry>, buf: &mut Vec<u8>) -> Result<(Entry, bool), Unread> {
    let io = |e: std::io::Error| Unread::Io(format!("{}: {e}", real.display()));
    let mut file = File::open(real).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    let (mut entry, rewritten) = match cached {
        // Rewritten shorter: read again from the start.
        Some(c) if len < c.offset => (Entry::default(), true),
        Some(c) if len == c.offset => return Ok((c, false)),
        Some(c) => (c, false),
        None => (Entry::default(), false),
    };
    file.seek(SeekFrom::Start(entry.offset)).map_err(io)?;
    // About a line with a usage in every few kilobytes: room made once.
    let mut found = Vec::with_capacity(usize::try_from((len - entry.offset) / 2048).unwrap_or(0).min(1 << 16));
    let mut bad = 0;
    let scanned = scan(&mut file, buf, &mut |line| match cost::parse_usage_line(line) {
        Line::Message(m) => found.push(m),
        Line::Other => {}
        Line::Bad(_) => bad += 1,
    })
    .map_err(io)?;
    if scanned.consumed == 0 && !rewritten {
        return Ok((entry, false));
    }
    entry.offset += scanned.consumed;
    entry.bad_lines += bad + scanned.long_lines;
    entry.absorb(found);
    Ok((entry, true))
}

/// What [`scan`] got through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Scanned {
    /// Bytes of whole lines (a last line without its newline is not).
    consumed: u64,
    /// Lines longer than [`MAX_LINE`], skipped to their end.
    long_lines: u64,
}

/// Reads `file` from where it stands to its end in blocks, and calls
/// `each` on every whole line (without its newline) that holds
/// [`USAGE_KEY`]; no other line is looked at. A line longer than
/// [`MAX_LINE`] is skipped and counted; one still being written (no
/// newline yet) is left.
fn scan(file: &mut impl Read, buf: &mut Vec<u8>, each: &mut dyn FnMut(&[u8])) -> std::io::Result<Scanned> {
    let finder = memmem::Finder::new(USAGE_KEY);
    let max_line = usize::try_from(MAX_LINE).unwrap_or(usize::MAX);
    if buf.len() < BLOCK {
        buf.resize(BLOCK, 0);
    }
    let mut out = Scanned { consumed: 0, long_lines: 0 };
    // Bytes in `buf` not yet consumed: the start of a line.
    let mut held = 0;
    // Inside a line longer than MAX_LINE: the bytes skipped so far.
    let mut skipping: Option<u64> = None;
    loop {
        if held == buf.len() {
            // A full buffer and no newline in it: a long line.
            if buf.len() >= max_line || skipping.is_some() {
                *skipping.get_or_insert(0) += held as u64;
                held = 0;
            } else {
                buf.resize((buf.len() * 2).min(max_line), 0);
            }
        }
        let n = match file.read(&mut buf[held..]) {
            Ok(0) => return Ok(out),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let new = held;
        held += n;
        let mut start = 0;
        if let Some(skipped) = skipping {
            match memchr::memchr(b'\n', &buf[new..held]) {
                None => continue,
                Some(i) => {
                    start = new + i + 1;
                    out.consumed += skipped + start as u64;
                    out.long_lines += 1;
                    skipping = None;
                }
            }
        }
        // Only the new bytes can hold the last newline.
        let Some(last) = memchr::memrchr(b'\n', &buf[new.max(start)..held]).map(|i| new.max(start) + i) else {
            if start > 0 {
                buf.copy_within(start..held, 0);
                held -= start;
            }
            continue;
        };
        let lines = &buf[start..=last];
        let mut next_line = 0;
        for hit in finder.find_iter(lines) {
            if hit < next_line {
                continue;
            }
            let from = memchr::memrchr(b'\n', &lines[next_line..hit]).map_or(next_line, |i| next_line + i + 1);
            let to = memchr::memchr(b'\n', &lines[hit..]).map_or(lines.len(), |i| hit + i);
            each(&lines[from..to]);
            next_line = to + 1;
        }
        out.consumed += (last + 1 - start) as u64;
        buf.copy_within(last + 1..held, 0);
        held -= last + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Project;

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

    /// Every line [`scan`] hands on, read through a reader that gives at
    /// most `step` bytes a call (a block boundary anywhere).
    fn scanned(text: &[u8], step: usize) -> (Vec<String>, Scanned) {
        struct Trickle<'a>(&'a [u8], usize);
        impl Read for Trickle<'_> {
            fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
                let n = self.0.len().min(self.1).min(out.len());
                out[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut lines = Vec::new();
        let s = scan(&mut Trickle(text, step), &mut Vec::new(), &mut |l| {
            lines.push(String::from_utf8_lossy(l).into_owned())
        })
        .unwrap();
        (lines, s)
    }

    #[test]
    fn only_the_lines_holding_a_usage_are_handed_on_whole_wherever_a_block_ends() {
        let text = "{\"type\":\"user\"}\n{\"usage\":1}\n\n{\"a\":\"usage\",\"usage\":2,\"usage\":3}\nx\n{\"usage\":4} being written";
        for step in [1, 2, 3, 7, 64, 1 << 20] {
            let (lines, s) = scanned(text.as_bytes(), step);
            assert_eq!(lines, ["{\"usage\":1}", "{\"a\":\"usage\",\"usage\":2,\"usage\":3}"], "step {step}");
            assert_eq!(s.consumed as usize, text.rfind('\n').unwrap() + 1, "step {step}");
            assert_eq!(s.long_lines, 0);
        }
    }

    #[test]
    fn a_line_longer_than_the_limit_is_skipped_and_counted_and_one_being_written_is_left() {
        let long = format!("{{\"usage\":\"{}\"}}\n", "x".repeat(MAX_LINE as usize));
        let text = format!("{{\"usage\":1}}\n{long}{{\"usage\":2}}\n");
        let (lines, s) = scanned(text.as_bytes(), 1 << 22);
        assert_eq!(lines, ["{\"usage\":1}", "{\"usage\":2}"]);
        assert_eq!((s.consumed as usize, s.long_lines), (text.len(), 1));
        // Still being written: nothing of it is consumed.
        let torn = &text[..12 + long.len() - 1];
        let (lines, s) = scanned(torn.as_bytes(), 1 << 22);
        assert_eq!(lines, ["{\"usage\":1}"]);
        assert_eq!((s.consumed, s.long_lines), (12, 0));
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
        let r = project.cost().read_transcript(&t, &allowed).unwrap();
        let m: Vec<MessageRef<'_>> = r.messages().collect();
        assert_eq!((m.len(), m[0].usage.output, m[0].model, r.bad_lines), (1, 7, "claude-opus-5-5", 1));
        // Appended: one whole line and one being written.
        let mut f = std::fs::OpenOptions::new().append(true).open(&t).unwrap();
        use std::io::Write;
        write!(f, "{}{}", line("m2", 1), &line("m3", 1)[..20]).unwrap();
        let r = project.cost().read_transcript(&t, &allowed).unwrap();
        assert_eq!(r.messages().map(|m| m.id).collect::<Vec<_>>(), ["m1", "m2"]);
        // Rewritten shorter: read again from the start.
        std::fs::write(&t, line("m9", 2)).unwrap();
        let r = project.cost().read_transcript(&t, &allowed).unwrap();
        assert_eq!(r.messages().map(|m| m.id).collect::<Vec<_>>(), ["m9"]);
    }

    #[test]
    fn transcripts_read_together_keep_their_order_and_one_cache() {
        let (_d, project, claude) = project();
        let allowed = claude.parent().unwrap().parent().unwrap().to_owned();
        let paths: Vec<PathBuf> = (0..20).map(|i| claude.join(format!("s{i}.jsonl"))).collect();
        for (i, p) in paths.iter().enumerate() {
            std::fs::write(p, line(&format!("m{i}"), i as u64)).unwrap();
        }
        let mut asked = paths.clone();
        asked.insert(3, claude.join("gone.jsonl"));
        let read = project.cost().read_transcripts(&asked, &allowed);
        assert_eq!(read[3].as_ref().unwrap_err(), &Unread::Missing);
        let outputs: Vec<u64> =
            read.iter().filter_map(|r| r.as_ref().ok()).map(|t| t.messages().next().unwrap().usage.output).collect();
        assert_eq!(outputs, (0..20).collect::<Vec<u64>>());
        let cache = project.cost().cost_dir().join("transcripts.json");
        assert!(fs::is_regular_file(&cache));
        assert_eq!(
            std::fs::read_dir(project.cost().cost_dir()).unwrap().count(),
            1,
            "one file, not one per transcript"
        );
        // Removed: what was read of it still counts.
        std::fs::remove_file(&paths[5]).unwrap();
        let again = project.cost().read_transcripts(&paths[5..6], &allowed);
        assert_eq!(again[0].as_ref().unwrap().messages().next().unwrap().id, "m5");
    }

    #[test]
    fn what_the_former_cache_kept_of_a_removed_transcript_still_counts() {
        let (_d, project, claude) = project();
        let allowed = claude.parent().unwrap().parent().unwrap().to_owned();
        let t = claude.join("old.jsonl");
        let old = project.cost().legacy_cache_path(&t.to_string_lossy());
        std::fs::create_dir_all(old.parent().unwrap()).unwrap();
        std::fs::write(
            &old,
            serde_json::json!({"path": t, "offset": 300, "badLines": 0, "messages": [{"id": "m1",
                "at": "2026-11-26T10:00:00Z", "model": "claude-opus-5-5",
                "usage": {"input": 4, "output": 2, "cacheRead": 0, "cacheWrite": 0, "cacheWrite1h": 0}}]})
            .to_string(),
        )
        .unwrap();
        let r = project.cost().read_transcript(&t, &allowed).unwrap();
        let m = r.messages().next().unwrap();
        assert_eq!((m.id, m.usage.input), ("m1", 4));
        assert!(!fs::exists_entry(&old), "taken into the one cache");
        let r = project.cost().read_transcript(&t, &allowed).unwrap();
        assert_eq!(r.messages().next().unwrap().usage.input, 4);
    }

    #[test]
    fn a_transcript_missing_or_out_of_claude_codes_folder_is_not_read() {
        let (d, project, claude) = project();
        let allowed = claude.parent().unwrap().parent().unwrap().to_owned();
        assert_eq!(project.cost().read_transcript(&claude.join("gone.jsonl"), &allowed).unwrap_err(), Unread::Missing);
        let outside = d.path().join("secret.jsonl");
        std::fs::write(&outside, line("x", 1)).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&outside, claude.join("link.jsonl")).unwrap();
            assert!(matches!(
                project.cost().read_transcript(&claude.join("link.jsonl"), &allowed),
                Err(Unread::LinkOut { .. })
            ));
        }
        assert!(matches!(project.cost().read_transcript(&outside, &allowed), Err(Unread::Elsewhere { .. })));
        std::fs::create_dir(claude.join("dir.jsonl")).unwrap();
        assert_eq!(
            project.cost().read_transcript(&claude.join("dir.jsonl"), &allowed).unwrap_err(),
            Unread::NotRegular
        );
    }
}
