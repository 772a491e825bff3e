//! Interrupted sessions: what each session's StopFailure hook recorded (one
//! small file per session in `.git/phasegate/interrupted/`, replaced
//! atomically; the session's own hooks are its only writers), kept until a
//! turn of that session ends well; and the time zones a reset is printed in.

use std::path::PathBuf;

use chrono::{DateTime, NaiveDateTime, Utc};
use phasegate_core::interrupt::{Interruption, Zone};
use phasegate_core::session::SessionId;
use phasegate_core::words::Command;

use crate::error::StoreError;
use crate::fs;

/// The interrupted sessions of a project.
pub struct Interruptions {
    dir: PathBuf,
}

/// The most interruption records read (each is one session's).
const MAX_LISTED: usize = 200;

impl Interruptions {
    pub(crate) fn new(runtime: PathBuf) -> Interruptions {
        Interruptions { dir: runtime.join("interrupted") }
    }

    fn path(&self, session: &SessionId) -> PathBuf {
        self.dir.join(format!("{}.json", session.as_str()))
    }

    /// The session's interruption; None when it has none. An unreadable
    /// record is an error naming the file.
    pub fn get(&self, session: &SessionId) -> Result<Option<Interruption>, StoreError> {
        let path = self.path(session);
        let Some(text) = fs::read_optional_up_to(&path, 64 * 1024)? else { return Ok(None) };
        serde_json::from_str(&text).map(Some).map_err(|e| StoreError::Corrupt {
            path,
            detail: format!("{e}; the session's StopFailure hook writes it: remove it to forget the interruption"),
        })
    }

    /// Whether any session is interrupted (one folder lookup).
    pub fn any(&self) -> bool {
        fs::is_dir(&self.dir) && fs::regular_files(&self.dir).is_ok_and(|f| !f.is_empty())
    }

    /// Every readable interruption, newest first (an unreadable one is
    /// skipped: `get` names it).
    pub fn all(&self) -> Vec<Interruption> {
        let Ok(files) = fs::regular_files(&self.dir) else { return Vec::new() };
        let mut out: Vec<Interruption> = files
            .into_iter()
            .filter(|(name, _)| name.ends_with(".json"))
            .take(MAX_LISTED)
            .filter_map(|(_, path)| serde_json::from_str(&fs::read_optional_up_to(&path, 64 * 1024).ok()??).ok())
            .collect();
        out.sort_by_key(|i| std::cmp::Reverse(i.at));
        out
    }

    /// Records `i` (replacing the session's earlier one).
    pub fn put(&self, session: &SessionId, i: &Interruption) -> Result<(), StoreError> {
        fs::create_dir_all(&self.dir)?;
        fs::remove_temporaries(&self.dir);
        fs::write_atomic(&self.path(session), &serde_json::to_vec_pretty(i).expect("an interruption serialises"))
    }

    /// Forgets the session's interruption (a turn of it ended well); true
    /// when there was one.
    pub fn clear(&self, session: &SessionId) -> Result<bool, StoreError> {
        fs::remove_if_exists(&self.path(session))
    }
}

impl crate::Project {
    /// The project's interrupted sessions.
    pub fn interruptions(&self) -> Interruptions {
        Interruptions::new(self.runtime_dir())
    }

    /// The runner's lock: one runner per repository. None when another
    /// runner holds it.
    pub fn runner_lock(&self) -> Result<Option<crate::lock::FileLock>, StoreError> {
        crate::lock::FileLock::try_acquire(&self.lock_dir().join("runner.lock"))
    }

    fn runner_path(&self) -> PathBuf {
        self.runtime_dir().join("runner.json")
    }

    /// What the runner is doing (or did last); None when none ever ran.
    pub fn runner_state(&self) -> Result<Option<phasegate_core::interrupt::RunnerState>, StoreError> {
        let path = self.runner_path();
        let Some(text) = fs::read_optional_up_to(&path, 64 * 1024)? else { return Ok(None) };
        serde_json::from_str(&text).map(Some).map_err(|e| StoreError::Corrupt {
            path,
            detail: format!("{e}; `{run}` writes it: remove it", run = Command::new("run")),
        })
    }

    /// Records what the runner is doing (the runner only, under its lock).
    pub fn save_runner_state(&self, state: &phasegate_core::interrupt::RunnerState) -> Result<(), StoreError> {
        fs::create_dir_all(&self.runtime_dir())?;
        fs::write_atomic(&self.runner_path(), &serde_json::to_vec_pretty(state).expect("a runner state serialises"))
    }
}

/// A new session id for Claude Code's `--session-id` (a random UUID, v4).
pub fn new_session_id() -> Result<String, StoreError> {
    let mut b = [0u8; 16];
    getrandom::fill(&mut b).map_err(|e| StoreError::Io {
        op: "draw a random session id",
        path: PathBuf::from("getrandom"),
        source: std::io::Error::other(e.to_string()),
    })?;
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h: String = b.iter().map(|x| format!("{x:02x}")).collect();
    Ok(format!("{}-{}-{}-{}-{}", &h[..8], &h[8..12], &h[12..16], &h[16..20], &h[20..]))
}

/// A time zone of the system's database (or the bundled one on Windows).
struct Tz(jiff::tz::TimeZone);

impl Zone for Tz {
    fn local(&self, t: DateTime<Utc>) -> NaiveDateTime {
        let Ok(ts) = jiff::Timestamp::from_millisecond(t.timestamp_millis()) else { return t.naive_utc() };
        let dt = self.0.to_datetime(ts);
        chrono::NaiveDate::from_ymd_opt(i32::from(dt.year()), dt.month() as u32, dt.day() as u32)
            .and_then(|d| d.and_hms_opt(dt.hour() as u32, dt.minute() as u32, dt.second() as u32))
            .unwrap_or_else(|| t.naive_utc())
    }

    fn instant(&self, t: NaiveDateTime) -> Option<DateTime<Utc>> {
        use chrono::{Datelike, Timelike};
        let dt = jiff::civil::DateTime::new(
            i16::try_from(t.year()).ok()?,
            i8::try_from(t.month()).ok()?,
            i8::try_from(t.day()).ok()?,
            i8::try_from(t.hour()).ok()?,
            i8::try_from(t.minute()).ok()?,
            0,
            0,
        )
        .ok()?;
        // A wall time a clock change skips or repeats: the earlier instant.
        let ts = self.0.to_ambiguous_timestamp(dt).compatible().ok()?;
        DateTime::from_timestamp_millis(ts.as_millisecond())
    }
}

/// The zone Claude Code named (`Europe/Berlin`), else this machine's (the
/// one it prints in), else UTC.
pub fn zone(name: Option<&str>) -> Box<dyn Zone> {
    let tz = name.and_then(named).or_else(|| jiff::tz::TimeZone::try_system().ok());
    match tz {
        Some(tz) => Box::new(Tz(tz)),
        None => Box::new(phasegate_core::interrupt::UtcZone),
    }
}

/// The zone `name`: its file in the system's database read at once (jiff's
/// own lookup first lists the whole database, a few hundred directory reads
/// that made the StopFailure hook cost 3.5 bare process starts), else
/// jiff's lookup (the bundled database on Windows). A name that could leave
/// the database's folder is no zone.
fn named(name: &str) -> Option<jiff::tz::TimeZone> {
    let plain = !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('/')
        && name.split('/').all(|part| !part.is_empty() && part != "." && part != "..")
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '_' | '-' | '+'));
    if !plain {
        return None;
    }
    let dir = std::env::var_os("TZDIR").map_or_else(|| PathBuf::from("/usr/share/zoneinfo"), PathBuf::from);
    let file = fs::read_regular_bytes(&dir.join(name), 1 << 20).ok().flatten();
    file.and_then(|bytes| jiff::tz::TimeZone::tzif(name, &bytes).ok()).or_else(|| jiff::tz::TimeZone::get(name).ok())
}

/// This machine's time zone by its IANA name, when it has one.
pub fn system_zone_name() -> Option<String> {
    jiff::tz::TimeZone::try_system().ok()?.iana_name().map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use phasegate_core::interrupt::{reset_at, reset_text};

    #[test]
    fn a_zone_name_that_could_leave_the_database_is_no_zone() {
        for bad in ["../../etc/passwd", "/etc/localtime", "Europe/../../x", "", "Europe//Berlin", "Europe/Ber lin"] {
            assert!(named(bad).is_none(), "{bad}");
        }
        assert!(named("Europe/Berlin").is_some());
        assert!(named("UTC").is_some());
    }

    #[test]
    fn named_zones_resolve_with_their_summer_time() {
        let at = Utc.with_ymd_and_hms(2026, 11, 28, 4, 1, 47).unwrap();
        let t = reset_text("You've hit your 5-hour limit · resets 5:31am (Europe/Berlin)").unwrap();
        assert_eq!(
            reset_at(&t, at, zone(t.zone.as_deref()).as_ref()),
            Utc.with_ymd_and_hms(2026, 11, 28, 4, 31, 0).single()
        );
        let t = reset_text("resets Nov 30, 11:01pm (America/New_York)").unwrap();
        assert_eq!(
            reset_at(&t, at, zone(t.zone.as_deref()).as_ref()),
            Utc.with_ymd_and_hms(2026, 12, 1, 4, 1, 0).single()
        );
        // July in Berlin is UTC+2.
        let july = Utc.with_ymd_and_hms(2026, 7, 1, 4, 0, 0).unwrap();
        let t = reset_text("resets 9am (Europe/Berlin)").unwrap();
        assert_eq!(
            reset_at(&t, july, zone(t.zone.as_deref()).as_ref()),
            Utc.with_ymd_and_hms(2026, 7, 1, 7, 0, 0).single()
        );
        let t = reset_text("resets 4:30am (Australia/Adelaide)").unwrap();
        assert_eq!(
            reset_at(&t, at, zone(t.zone.as_deref()).as_ref()),
            Utc.with_ymd_and_hms(2026, 11, 28, 18, 0, 0).single()
        );
    }
}
