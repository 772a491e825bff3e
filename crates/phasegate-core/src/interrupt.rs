//! Interrupted, never lost: a turn Claude Code ended on an API error (its
//! StopFailure hook: a usage limit, an overloaded API, a server error, the
//! output limit, a sign-in or billing problem), what it means for the work
//! that was in flight, and when that work may go on: at the reset Claude
//! Code printed ("You've hit your 5-hour limit · resets 5:31am
//! (Europe/Berlin)"), else after a back-off, else when a person acted.
//! Pure: the caller passes the clock and the time zones.

use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, NaiveTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};

/// Why a turn ended, from Claude Code's `error` word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cause {
    /// `rate_limit`: a usage limit (a subscription's window) or the API's
    /// rate limit.
    UsageLimit,
    /// `overloaded`: the API is at capacity.
    Overloaded,
    /// `server_error` (Claude Code's word for repeated 529s too).
    ServerError,
    /// `max_output_tokens`: the reply hit the output limit; nothing waits.
    OutputLimit,
    /// Sign-in, billing, an account on hold, a model or request the API
    /// refuses: a person acts before anything goes on.
    NeedsPerson,
    /// `unknown`, or a word this version does not know.
    Other,
}

impl Cause {
    /// The cause Claude Code's `error` word names.
    pub fn of(error: &str) -> Cause {
        match error {
            "rate_limit" => Cause::UsageLimit,
            "overloaded" => Cause::Overloaded,
            "server_error" => Cause::ServerError,
            "max_output_tokens" => Cause::OutputLimit,
            "authentication_failed"
            | "oauth_org_not_allowed"
            | "account_on_hold"
            | "verification_required"
            | "billing_error"
            | "invalid_request"
            | "model_not_found"
            | "cloud_credential_error" => Cause::NeedsPerson,
            _ => Cause::Other,
        }
    }

    /// What stopped the work, in the words a line says it with.
    pub fn words(self) -> &'static str {
        match self {
            Cause::UsageLimit => "a usage limit",
            Cause::Overloaded => "an overloaded API",
            Cause::ServerError => "an API server error",
            Cause::OutputLimit => "the output limit",
            Cause::NeedsPerson => "an API error a person must fix",
            Cause::Other => "an API error",
        }
    }
}

/// A reset as Claude Code prints it: `resets 5:31am (Europe/Berlin)`,
/// `resets 6am (UTC)`, `resets Nov 30, 11:01pm (America/New_York)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResetText {
    /// Month and day, when the reset is not within the next day.
    pub month_day: Option<(u32, u32)>,
    pub time: NaiveTime,
    /// The IANA zone named in parentheses; None when none is.
    pub zone: Option<String>,
}

const MONTHS: [&str; 12] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/// The reset named in `said` (what the user saw), if it names one.
pub fn reset_text(said: &str) -> Option<ResetText> {
    let lower = said.to_ascii_lowercase();
    let at = lower.find("resets ").or_else(|| lower.find("reset at "))?;
    let rest = &said[at..];
    let rest = rest.split_once(' ')?.1.trim_start();
    let rest = rest.strip_prefix("at ").unwrap_or(rest);
    let (month_day, rest) = month_day(rest);
    let (clock, rest) = rest.split_once(|c: char| c.is_whitespace() || c == '·').unwrap_or((rest, ""));
    let time = clock_time(clock.trim_end_matches([',', '.', ';']))?;
    let zone =
        rest.trim_start().strip_prefix('(').and_then(|z| z.split_once(')')).map(|(z, _)| z.trim().to_owned()).filter(
            |z| !z.is_empty() && z.len() <= 64 && z.chars().all(|c| c.is_ascii_alphanumeric() || "/_+-".contains(c)),
        );
    Some(ResetText { month_day, time, zone })
}

/// `Nov 30, ` at the start of `text`: the month and day, and what follows.
fn month_day(text: &str) -> (Option<(u32, u32)>, &str) {
    let Some((word, rest)) = text.split_once(' ') else { return (None, text) };
    let Some(month) = MONTHS.iter().position(|m| word.to_ascii_lowercase().starts_with(m)) else {
        return (None, text);
    };
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let Ok(day) = digits.parse::<u32>() else { return (None, text) };
    if !(1..=31).contains(&day) {
        return (None, text);
    }
    let rest = rest[digits.len()..].trim_start_matches([',', ' ']);
    (Some((month as u32 + 1, day)), rest)
}

/// `5:31am`, `6am`, `11:01pm`, `17:05`.
fn clock_time(text: &str) -> Option<NaiveTime> {
    let lower = text.to_ascii_lowercase();
    let (digits, half) = match (lower.strip_suffix("am"), lower.strip_suffix("pm")) {
        (Some(d), _) => (d, Some(false)),
        (_, Some(d)) => (d, Some(true)),
        _ => (lower.as_str(), None),
    };
    let (h, m) = match digits.split_once(':') {
        Some((h, m)) => (h.parse::<u32>().ok()?, m.parse::<u32>().ok()?),
        None if half.is_some() => (digits.parse::<u32>().ok()?, 0),
        None => return None,
    };
    let h = match half {
        Some(pm) if (1..=12).contains(&h) => h % 12 + if pm { 12 } else { 0 },
        Some(_) => return None,
        None => h,
    };
    NaiveTime::from_hms_opt(h, m, 0)
}

/// `resets in 3h 20m`, `resets in 45m`, `try again in 30 seconds`: the
/// wait `said` names, if any.
pub(crate) fn reset_in(said: &str) -> Option<TimeDelta> {
    let lower = said.to_ascii_lowercase();
    let at = lower.find(" in ")?;
    let mut total = TimeDelta::zero();
    let mut any = false;
    let mut words = lower[at + 4..].split_whitespace().take(8).peekable();
    while let Some(word) = words.next() {
        let digits: String = word.chars().take_while(char::is_ascii_digit).collect();
        let Ok(n) = digits.parse::<i64>() else { break };
        let unit = match &word[digits.len()..] {
            // `30 seconds`: the unit is the next word.
            "" => words.next().unwrap_or_default(),
            attached => attached,
        };
        let unit = unit.trim_end_matches([',', '.', ')']);
        let step = match unit {
            "h" | "hr" | "hrs" | "hour" | "hours" => TimeDelta::hours(n),
            "m" | "min" | "mins" | "minute" | "minutes" => TimeDelta::minutes(n),
            "s" | "sec" | "secs" | "second" | "seconds" => TimeDelta::seconds(n),
            _ => break,
        };
        total += step;
        any = true;
    }
    any.then_some(total)
}

/// A time zone, as the caller can read one: local wall time of an instant,
/// and the instant of a local wall time (None when it does not exist).
pub trait Zone {
    fn local(&self, t: DateTime<Utc>) -> NaiveDateTime;
    fn instant(&self, t: NaiveDateTime) -> Option<DateTime<Utc>>;
}

/// UTC, for a reset that names no zone Claude Code would print (it prints
/// the machine's).
pub struct UtcZone;

impl Zone for UtcZone {
    fn local(&self, t: DateTime<Utc>) -> NaiveDateTime {
        t.naive_utc()
    }
    fn instant(&self, t: NaiveDateTime) -> Option<DateTime<Utc>> {
        Some(t.and_utc())
    }
}

/// The instant `text` names, seen at `at` in `zone`: the next such wall
/// time, but a time up to an hour before `at` is a reset already passed
/// (Claude Code prints the minute the reset falls in, and the runner may
/// read it minutes later on a loaded machine: a day's wait for that would
/// be wrong, and a limit printed an hour before its reset is not read an
/// hour late); with a date, in `at`'s year, or the next year's when that
/// date has passed by more than a day.
pub fn reset_at(text: &ResetText, at: DateTime<Utc>, zone: &dyn Zone) -> Option<DateTime<Utc>> {
    let now = zone.local(at);
    let slack = TimeDelta::hours(1);
    match text.month_day {
        None => {
            let today = now.date().and_time(text.time);
            let local = if today + slack < now { today + TimeDelta::days(1) } else { today };
            zone.instant(local)
        }
        Some((month, day)) => {
            let this_year = NaiveDate::from_ymd_opt(now.year(), month, day)?.and_time(text.time);
            let local = if this_year + TimeDelta::days(1) < now {
                NaiveDate::from_ymd_opt(now.year() + 1, month, day)?.and_time(text.time)
            } else {
                this_year
            };
            zone.instant(local)
        }
    }
}

/// When the work may go on, and who decides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Resume {
    /// At `at`: the reset Claude Code printed (`from: reset`), or a back-off.
    At { at: DateTime<Utc>, from: ResumeFrom },
    /// Not by itself: a person acts first (signs in, pays, fixes a model
    /// name), or a back-off gave up.
    Person { why: String },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ResumeFrom {
    /// The reset Claude Code printed.
    Reset,
    /// A wait Claude Code printed (`resets in 2h`).
    Wait,
    /// phasegate's back-off for the cause and the attempt.
    BackOff,
    /// Nothing to wait for (the output limit).
    Now,
}

/// Back-offs give up after this many interruptions in a row of one
/// session (no turn ended well in between).
pub(crate) const MAX_ATTEMPTS: u32 = 6;

/// The back-off for `cause` at the `attempt`th interruption in a row (1 for
/// the first): doubling from a base, up to a cap. A usage limit with no
/// reset printed (the API's own rate limit, a key with no plan) waits 1
/// minute, then 2, 4, … up to an hour; an overloaded API or a server error
/// 30 s up to 15 minutes; anything else 1 minute up to 30.
pub fn back_off(cause: Cause, attempt: u32) -> TimeDelta {
    let (base, cap) = match cause {
        Cause::UsageLimit => (TimeDelta::minutes(1), TimeDelta::hours(1)),
        Cause::Overloaded | Cause::ServerError => (TimeDelta::seconds(30), TimeDelta::minutes(15)),
        Cause::OutputLimit => (TimeDelta::zero(), TimeDelta::zero()),
        Cause::NeedsPerson | Cause::Other => (TimeDelta::minutes(1), TimeDelta::minutes(30)),
    };
    let factor = 1i32 << attempt.clamp(1, 16).saturating_sub(1).min(10);
    (base * factor).min(cap)
}

/// When the work interrupted at `at` by `cause` may go on: at the reset
/// `said` names (in `zone`, or the zone `said` names, which `zone_named`
/// reads), else after the wait it names, else after the back-off for the
/// `attempt`th interruption in a row.
pub fn resume(
    cause: Cause,
    said: &str,
    at: DateTime<Utc>,
    attempt: u32,
    zone_named: &dyn Fn(Option<&str>) -> Box<dyn Zone>,
) -> Resume {
    match cause {
        Cause::NeedsPerson => {
            return Resume::Person {
                why: "Claude Code cannot reach the API until a person acts (sign in, billing, the model or the request): see what it said".into(),
            };
        }
        Cause::OutputLimit => return Resume::At { at, from: ResumeFrom::Now },
        Cause::UsageLimit | Cause::Overloaded | Cause::ServerError | Cause::Other => {}
    }
    if let Some(text) = reset_text(said)
        && let Some(reset) = reset_at(&text, at, zone_named(text.zone.as_deref()).as_ref())
    {
        return Resume::At { at: reset.max(at), from: ResumeFrom::Reset };
    }
    if let Some(wait) = reset_in(said).filter(|w| *w > TimeDelta::zero()) {
        return Resume::At { at: at + wait, from: ResumeFrom::Wait };
    }
    if attempt > MAX_ATTEMPTS {
        return Resume::Person {
            why: format!("{} interruptions in a row: the back-off gave up", attempt.saturating_sub(1)),
        };
    }
    Resume::At { at: at + back_off(cause, attempt), from: ResumeFrom::BackOff }
}

/// What was in flight in one feature when the session was interrupted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InFlight {
    pub feature: String,
    /// The phase in progress (started, not completed), with the reviewer
    /// iterations it had counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iterations: Option<u32>,
    /// Tasks in progress (`[~]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tasks: Vec<String>,
    /// A pipeline's state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pipeline: Option<String>,
    /// A question it waits on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// The command that goes on with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}

impl InFlight {
    /// `T3 of 002-export`, `phase design of 001-auth (iteration 2)`, `the
    /// pipeline 003-x in implementing_loop`.
    pub fn words(&self) -> String {
        if let Some(q) = &self.question {
            return format!("{} waits on question {q}", self.feature);
        }
        if !self.tasks.is_empty() {
            return format!("{} of {}", self.tasks.join(", "), self.feature);
        }
        if let Some(state) = &self.pipeline {
            return format!("the pipeline {} in {state}", self.feature);
        }
        match (&self.phase, self.iterations) {
            (Some(p), Some(n)) if n > 0 => format!("phase {p} of {} (reviewer iteration {})", self.feature, n + 1),
            (Some(p), _) => format!("phase {p} of {}", self.feature),
            (None, _) => self.feature.clone(),
        }
    }
}

/// One interrupted session, as its StopFailure hook recorded it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Interruption {
    pub session: String,
    pub cause: Cause,
    /// Claude Code's `error` word.
    pub error: String,
    /// What the user saw (scrubbed, at most [`MAX_SAID`] bytes).
    #[serde(default)]
    pub said: String,
    /// The time zone the reset was printed in (the user's), if it named one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    pub at: DateTime<Utc>,
    pub resume: Resume,
    /// Interruptions of this session in a row, this one included.
    pub attempt: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub in_flight: Vec<InFlight>,
}

/// The longest pause that keeps a session's leases: a weekly limit's
/// window, and a day more for the clock of the reset's zone.
pub const MAX_PAUSE: TimeDelta = TimeDelta::days(8);

/// The most of what the user saw that is kept.
pub const MAX_SAID: usize = 300;

impl Interruption {
    /// Whether the work may go on by itself at `now` (its reset or back-off
    /// has passed).
    pub fn may_resume(&self, now: DateTime<Utc>) -> bool {
        match &self.resume {
            Resume::At { at, .. } => *at <= now,
            Resume::Person { .. } => false,
        }
    }

    /// The session's id as messages print it (its first 8 characters).
    pub fn short_session(&self) -> &str {
        self.session.get(..8).unwrap_or(&self.session)
    }

    /// Whether it still pauses the session at `now`: its resume time plus
    /// the grace a paused session keeps its files for has not passed.
    pub fn pauses_at(&self, now: DateTime<Utc>) -> bool {
        self.pauses_until().is_some_and(|until| now < until + crate::coordination::PAUSE_GRACE)
    }

    /// Until when it pauses the session's hold on its leases and task:
    /// its resume time, when that lies at most [`MAX_PAUSE`] after the
    /// interruption (Claude Code's longest window is a week). The record is
    /// a file in `.git/phasegate/` that a shell could write: a resume time
    /// beyond that holds nothing, so no record can keep files for good.
    pub fn pauses_until(&self) -> Option<DateTime<Utc>> {
        self.waits().filter(|until| *until - self.at <= MAX_PAUSE)
    }

    /// Whether it waits for a reset or a back-off (not for a person).
    pub fn waits(&self) -> Option<DateTime<Utc>> {
        match &self.resume {
            Resume::At { at, .. } => Some(*at),
            Resume::Person { .. } => None,
        }
    }
}

/// What the runner (`workflow-state run`) is doing, for `status`, `watch`
/// and the report: `.git/phasegate/runner.json`, written by the runner only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunnerState {
    pub pid: u32,
    pub started_at: DateTime<Utc>,
    /// The prompt it runs (`/phasegate:auto`).
    pub prompt: String,
    /// The Claude Code session it drives.
    pub session: String,
    pub now: RunnerNow,
    /// Runs of `claude` so far (the first, and each resume).
    pub runs: u32,
    /// Usage-limit windows waited out.
    pub windows: u32,
    /// What Claude Code reported spending, this run and this window.
    pub spent_usd: f64,
    pub window_usd: f64,
}

/// Where the runner stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum RunnerNow {
    /// `claude` runs.
    Running { since: DateTime<Utc> },
    /// It waits for a reset or a back-off.
    Waiting { until: DateTime<Utc>, why: String },
    /// It ended, and why.
    Ended { at: DateTime<Utc>, why: String },
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    /// A fixed offset, for tests (Claude Code prints IANA names; the store
    /// reads them from the system's database).
    struct Offset(i64);

    impl Zone for Offset {
        fn local(&self, t: DateTime<Utc>) -> NaiveDateTime {
            t.naive_utc() + TimeDelta::minutes(self.0)
        }
        fn instant(&self, t: NaiveDateTime) -> Option<DateTime<Utc>> {
            Some((t - TimeDelta::minutes(self.0)).and_utc())
        }
    }

    fn utc(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, mo, d, h, mi, 0).unwrap()
    }

    #[test]
    fn the_resets_claude_code_prints_are_read() {
        // Each seen from Claude Code 2.1.328 against a scripted API, and the
        // shapes around them.
        type Case<'a> = (&'a str, Option<(u32, u32)>, (u32, u32), Option<&'a str>);
        let cases: &[Case] = &[
            ("You've hit your 5-hour limit · resets 5:31am (Europe/Berlin)", None, (5, 31), Some("Europe/Berlin")),
            ("You've hit your 5-hour limit · resets 6am (UTC)", None, (6, 0), Some("UTC")),
            (
                "You've hit your weekly limit · resets Nov 30, 11:01pm (America/New_York)",
                Some((11, 30)),
                (23, 1),
                Some("America/New_York"),
            ),
            (
                "You've hit your weekly limit · resets Dec 6, 11:58am (Asia/Kolkata)",
                Some((12, 6)),
                (11, 58),
                Some("Asia/Kolkata"),
            ),
            ("You've hit your 5-hour limit · resets 12pm", None, (12, 0), None),
            (
                "You've hit your 5-hour limit · resets 12am (Australia/Adelaide)",
                None,
                (0, 0),
                Some("Australia/Adelaide"),
            ),
            ("Usage limit reached · resets at 17:05 (Etc/GMT-2)", None, (17, 5), Some("Etc/GMT-2")),
        ];
        for (said, md, (h, m), zone) in cases {
            let t = reset_text(said).unwrap_or_else(|| panic!("{said}"));
            assert_eq!(t.month_day, *md, "{said}");
            assert_eq!(t.time, NaiveTime::from_hms_opt(*h, *m, 0).unwrap(), "{said}");
            assert_eq!(t.zone.as_deref(), *zone, "{said}");
        }
        for said in [
            "API Error: Request rejected (429) · This request would exceed your account's rate limit. Please try again later.",
            "API Error: Repeated 529 Overloaded errors. The API is at capacity — this is usually temporary.",
            "resets 13pm (UTC)",
            "resets soon",
            "",
        ] {
            assert_eq!(reset_text(said), None, "{said}");
        }
    }

    #[test]
    fn a_reset_is_the_next_such_wall_time_in_its_zone() {
        let at = utc(2026, 11, 28, 4, 1);
        let berlin = Offset(60);
        let t = reset_text("resets 5:31am (Europe/Berlin)").unwrap();
        assert_eq!(reset_at(&t, at, &berlin), Some(utc(2026, 11, 28, 4, 31)));
        // Printed as the minute it falls in: the current minute is now.
        let t = reset_text("resets 5:01am (Europe/Berlin)").unwrap();
        assert_eq!(reset_at(&t, at, &berlin), Some(utc(2026, 11, 28, 4, 1)));
        // Read minutes after the minute it fell in (CI saw a day's wait for
        // it): passed, not tomorrow's.
        let t = reset_text("resets 4:58am (UTC)").unwrap();
        assert_eq!(reset_at(&t, utc(2026, 11, 28, 5, 2), &UtcZone), Some(utc(2026, 11, 28, 4, 58)));
        // Earlier today in that zone: tomorrow.
        let t = reset_text("resets 4:30am (Australia/Adelaide)").unwrap();
        let adelaide = Offset(630);
        assert_eq!(reset_at(&t, at, &adelaide), Some(utc(2026, 11, 28, 18, 0)));
        // A date: this year, or next year's once it has passed.
        let t = reset_text("resets Nov 30, 11:01pm (America/New_York)").unwrap();
        assert_eq!(reset_at(&t, at, &Offset(-300)), Some(utc(2026, 12, 1, 4, 1)));
        let t = reset_text("resets Jan 2, 9am (UTC)").unwrap();
        assert_eq!(reset_at(&t, utc(2026, 12, 30, 10, 0), &UtcZone), Some(utc(2027, 1, 2, 9, 0)));
    }

    #[test]
    fn waits_and_back_offs() {
        assert_eq!(reset_in("Fast limit reached · resets in 3h 20m"), Some(TimeDelta::minutes(200)));
        assert_eq!(reset_in("try again in 30 seconds"), Some(TimeDelta::seconds(30)));
        assert_eq!(reset_in("API Error: Repeated 529 Overloaded errors. Try again in a moment."), None);
        assert_eq!(back_off(Cause::ServerError, 1), TimeDelta::seconds(30));
        assert_eq!(back_off(Cause::ServerError, 3), TimeDelta::minutes(2));
        assert_eq!(back_off(Cause::ServerError, 30), TimeDelta::minutes(15));
        assert_eq!(back_off(Cause::UsageLimit, 8), TimeDelta::hours(1));
        let at = utc(2026, 11, 28, 4, 1);
        let zones = |_: Option<&str>| -> Box<dyn Zone> { Box::new(UtcZone) };
        assert_eq!(
            resume(Cause::UsageLimit, "You've hit your 5-hour limit · resets 6am (UTC)", at, 1, &zones),
            Resume::At { at: utc(2026, 11, 28, 6, 0), from: ResumeFrom::Reset }
        );
        assert_eq!(
            resume(Cause::ServerError, "API Error: Repeated 529 Overloaded errors.", at, 2, &zones),
            Resume::At { at: at + TimeDelta::minutes(1), from: ResumeFrom::BackOff }
        );
        assert!(matches!(resume(Cause::ServerError, "", at, MAX_ATTEMPTS + 1, &zones), Resume::Person { .. }));
        assert!(matches!(resume(Cause::NeedsPerson, "resets 6am", at, 1, &zones), Resume::Person { .. }));
        assert_eq!(resume(Cause::OutputLimit, "", at, 1, &zones), Resume::At { at, from: ResumeFrom::Now });
        assert_eq!(Cause::of("rate_limit"), Cause::UsageLimit);
        assert_eq!(Cause::of("billing_error"), Cause::NeedsPerson);
        assert_eq!(Cause::of("something new"), Cause::Other);
    }
}

#[cfg(test)]
mod pause_tests {
    use super::*;
    use chrono::TimeZone;

    /// A record written by a shell (`resume.at` in 2099) must not keep a
    /// session's files for good: a pause holds only within a week's window.
    #[test]
    fn an_interruption_resuming_beyond_a_week_pauses_nothing() {
        let at = Utc.with_ymd_and_hms(2026, 11, 28, 4, 0, 0).unwrap();
        let with = |resume: DateTime<Utc>| Interruption {
            session: "s".into(),
            cause: Cause::UsageLimit,
            error: "rate_limit".into(),
            said: String::new(),
            zone: None,
            at,
            resume: Resume::At { at: resume, from: ResumeFrom::Reset },
            attempt: 1,
            in_flight: Vec::new(),
        };
        let weekly = at + TimeDelta::days(7);
        assert_eq!(with(weekly).pauses_until(), Some(weekly));
        let forged = Utc.with_ymd_and_hms(2099, 1, 1, 0, 0, 0).unwrap();
        assert_eq!(with(forged).pauses_until(), None);
        assert_eq!(with(forged).waits(), Some(forged), "the runner still reads what was recorded");
    }
}
