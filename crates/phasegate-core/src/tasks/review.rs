//! Per-task review cycles (seed 003): the persisted state in the seed's
//! shape (`sessions → tasks → current_cycle, max_cycles, implementer,
//! reviewers[], pattern_tracking` and `global_patterns`), the seed's status
//! detection (a JSON verdict first, then its approval and revision patterns
//! on the first line, then its keyword rule, else `UNCLEAR`), recurring
//! issues with the seed's specialist map, and reviewer failure rates with
//! the automatic switch above 0.7. Counting goes through [`crate::cycle`],
//! the one review-cycle engine. Pure: the clock and the agents are given.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use chrono::{DateTime, Utc};
use regex::Regex;
use serde::{Deserialize, Serialize};

use crate::cycle::{Cycle, Decision};
use crate::feature::{ReviewVerdict, extract_json, parse_verdict};
use crate::witness::RecordedBy;
use crate::words::Command;

/// Next to tasks.md in the feature folder.
pub const REVIEW_CYCLES_FILE: &str = ".review-cycles.json";
/// Seed 003: "Maximum 3 review cycles per task (configurable)".
pub const DEFAULT_MAX_CYCLES: u32 = 3;
/// Seed 003: "High failure rate (>70%) triggers automatic reviewer switching".
pub const FAILURE_RATE_SWITCH: f64 = 0.7;
/// Reviews a reviewer needs on record before its failure rate may switch it
/// (ours: the seed gives no floor, and one failed review is a rate of 1.0).
pub const MIN_REVIEWS_FOR_RATE: u32 = 5;
/// Seed 003: "After 2 occurrences of same issue: suggest alternative reviewer".
pub const SAME_ISSUE_THRESHOLD: u32 = 2;
/// Seed 003: "After 3 cycles OR timeout (5 minutes default): escalate to
/// user ... apply default action if no response".
pub const ESCALATION_TIMEOUT_MINUTES: u64 = 5;
/// Seed 003: the default reviewer for persistent issues.
pub(crate) const ARCHITECT: &str = "the-architect";

/// Seed 003's `specializations`: a recurring pattern's specialist.
pub(crate) const SPECIALISTS: [(&str, &str); 5] = [
    ("rate_limiting", "the-architect"),
    ("authentication", "the-security-engineer"),
    ("performance", "the-site-reliability-engineer"),
    ("data_integrity", "the-data-engineer"),
    ("api_design", "the-architect"),
];

/// A review's status, spelled as the seed's state file spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TaskReviewStatus {
    #[serde(rename = "APPROVED")]
    Approved,
    #[serde(rename = "NEEDS_REVISION")]
    NeedsRevision,
    #[serde(rename = "UNCLEAR")]
    Unclear,
    #[serde(rename = "pending")]
    Pending,
    /// Seed 003: no reply within the review timeout.
    #[serde(rename = "TIMEOUT")]
    Timeout,
}

impl TaskReviewStatus {
    pub fn name(self) -> &'static str {
        match self {
            TaskReviewStatus::Approved => "APPROVED",
            TaskReviewStatus::NeedsRevision => "NEEDS_REVISION",
            TaskReviewStatus::Unclear => "UNCLEAR",
            TaskReviewStatus::Pending => "pending",
            TaskReviewStatus::Timeout => "TIMEOUT",
        }
    }
}

static APPROVAL: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        r"(?i)^APPROVED$",
        r"(?i)^LOOKS\s+GOOD$",
        r"(?i)^LGTM$",
        r"(?i)^SHIP\s+IT$",
        r"^\+1$",
        r"(?i)^READY\s+TO\s+(MERGE|SHIP)$",
        r"(?i)^ALL\s+GOOD$",
        r"(?i)^PASSED\s+REVIEW$",
        r"^✅",
        r"^👍",
    ]
    .iter()
    .map(|p| Regex::new(p).expect("the seed's approval patterns compile"))
    .collect()
});

static REVISION: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        r"(?i)^NEEDS[\s_]REVISION$",
        r"(?i)^REQUIRES?\s+CHANGES?$",
        r"(?i)^NEEDS?\s+WORK$",
        r"(?i)^NOT\s+READY$",
        r"^-1$",
        r"(?i)^BLOCKED$",
        r"(?i)^FIX\s+REQUIRED$",
        r"^❌",
        r"^👎",
    ]
    .iter()
    .map(|p| Regex::new(p).expect("the seed's revision patterns compile"))
    .collect()
});

static ISSUE_WORDS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(issue|problem|error|bug|wrong|incorrect|missing)\b").expect("compiles"));
static APPROVAL_WORDS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b(good|great|excellent|perfect|works|correct)\b").expect("compiles"));

/// The seed's `detectReviewStatus`: the first line against the approval,
/// then the revision patterns; else the keyword rule; else `UNCLEAR`.
pub(crate) fn detect_status(feedback: &str) -> TaskReviewStatus {
    let first = feedback.split('\n').next().unwrap_or("").trim();
    if APPROVAL.iter().any(|p| p.is_match(first)) {
        return TaskReviewStatus::Approved;
    }
    if REVISION.iter().any(|p| p.is_match(first)) {
        return TaskReviewStatus::NeedsRevision;
    }
    let lower = feedback.to_lowercase();
    match (ISSUE_WORDS.is_match(&lower), APPROVAL_WORDS.is_match(&lower)) {
        (true, false) => TaskReviewStatus::NeedsRevision,
        (false, true) => TaskReviewStatus::Approved,
        _ => TaskReviewStatus::Unclear,
    }
}

/// A reviewer's reply read: the JSON verdict when the reply holds a valid
/// one, else the seed's fuzzy detection.
pub(crate) fn read_reply(reply: &str) -> (TaskReviewStatus, Option<ReviewVerdict>) {
    if extract_json(reply).is_some()
        && let Ok(v) = parse_verdict(reply)
    {
        let status = if v.approved { TaskReviewStatus::Approved } else { TaskReviewStatus::NeedsRevision };
        return (status, Some(v));
    }
    (detect_status(reply), None)
}

/// Recurring-issue patterns of a reply: the seed's specialisation keys it
/// mentions, and (for a JSON verdict) each issue's description as a key.
pub(crate) fn review_patterns(reply: &str, verdict: Option<&ReviewVerdict>) -> Vec<String> {
    let lower = reply.to_lowercase();
    let mut out = Vec::new();
    let mentions = [
        ("rate_limiting", &["rate limit", "rate-limit", "rate_limit", "throttl"][..]),
        ("authentication", &["authenticat", "auth ", "login", "password", "token"][..]),
        ("performance", &["performance", "slow", "latency", "n+1"][..]),
        ("data_integrity", &["data integrity", "transaction", "constraint", "migration"][..]),
        ("api_design", &["api design", "endpoint", "contract", "interface"][..]),
    ];
    for (key, words) in mentions {
        if words.iter().any(|w| lower.contains(w)) {
            out.push(key.to_owned());
        }
    }
    if let Some(v) = verdict {
        for i in &v.issues {
            let key: String = i
                .description
                .to_lowercase()
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .take(6)
                .collect::<Vec<_>>()
                .join("_");
            if !key.is_empty() && !out.contains(&key) {
                out.push(key);
            }
        }
    }
    out
}

/// `.review-cycles.json`.
///
/// Read with [`ReviewCycles::parse`]: an object with the known fields only
/// (its schema's `additionalProperties: false`), so a file another tool or
/// a hand wrote is refused with the reason rather than rewritten without
/// what it added.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewCycles {
    #[serde(default)]
    pub sessions: BTreeMap<String, SessionCycles>,
    #[serde(default)]
    pub updated_at: Option<DateTime<Utc>>,
}

/// One implement run (keyed by the feature: a new Claude Code session
/// resumes the same run).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionCycles {
    #[serde(default)]
    pub tasks: BTreeMap<String, TaskCycle>,
    #[serde(default)]
    pub global_patterns: GlobalPatterns,
    /// The commit each task started at (`tasks start`): its change is what
    /// differs from it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub bases: BTreeMap<String, String>,
    /// The build loop's state (seed 004 §5.3).
    #[serde(default, skip_serializing_if = "BuildState::is_empty")]
    pub build: BuildState,
}

/// What the build decisions need across sessions.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BuildState {
    /// When the first task started (the time limit counts from here).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<DateTime<Utc>>,
    /// How often each task was started.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attempts: BTreeMap<String, u32>,
    /// A snapshot of the working tree (a git tree id) when each task started,
    /// for a rollback that keeps the user's uncommitted work.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub snapshots: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stop_requested: bool,
    /// The worktree of each task of a parallel batch, until it is merged.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub worktrees: BTreeMap<String, String>,
    /// Who implements each task, from `tasks start --by`: an agent, or
    /// [`SELF_IMPLEMENTER`] when the session does it itself.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub implementers: BTreeMap<String, String>,
    /// When each task last started (a task in progress since then may be
    /// stuck) and, once settled, when it ended.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub started: BTreeMap<String, DateTime<Utc>>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub ended: BTreeMap<String, DateTime<Utc>>,
    /// Each failure of each task: its error type and when.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub failures: BTreeMap<String, Vec<TaskFailureRecord>>,
    /// The knowledge base's gotchas each task's brief carried (their ids).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub gotchas: BTreeMap<String, Vec<String>>,
    /// Every span each task was in progress (a retry starts another): what
    /// its cost counts.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub windows: BTreeMap<String, Vec<crate::time::Span>>,
}

impl BuildState {
    /// `task` started (again) at `now`.
    pub fn task_started(&mut self, task: &str, now: DateTime<Utc>) {
        self.started.insert(task.to_owned(), now);
        self.ended.remove(task);
        let spans = self.windows.entry(task.to_owned()).or_default();
        if let Some(open) = spans.last_mut().filter(|s| s.end.is_none()) {
            open.end = Some(now);
        }
        spans.push(crate::time::Span { start: now, end: None });
    }

    /// `task` settled (done, skipped or failed) at `now`.
    pub fn task_ended(&mut self, task: &str, now: DateTime<Utc>) {
        self.ended.insert(task.to_owned(), now);
        if let Some(open) = self.windows.get_mut(task).and_then(|s| s.last_mut()).filter(|s| s.end.is_none()) {
            open.end = Some(now);
        }
    }
}

/// One failure of a task, for the retrospective.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskFailureRecord {
    /// The build decision's class (SYNTAX_ERROR, NETWORK, …).
    pub error_type: String,
    pub at: DateTime<Utc>,
    /// The output's first telling line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<String>,
}

/// The implementer recorded when the orchestrating session does a task
/// itself instead of delegating it.
pub const SELF_IMPLEMENTER: &str = "self";

impl ReviewCycles {
    /// Parses `.review-cycles.json`: a JSON object of the known shape.
    pub fn parse(text: &str) -> Result<ReviewCycles, String> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if !value.is_object() {
            return Err(format!(
                "it must be a JSON object with `sessions` (see `{}`)",
                Command::new("schema review-cycles")
            ));
        }
        serde_json::from_value(value).map_err(|e| {
            format!(
                "{e} (see `{schema_review_cycles}`; unknown fields are not kept)",
                schema_review_cycles = Command::new("schema review-cycles")
            )
        })
    }
}

impl BuildState {
    pub fn is_empty(&self) -> bool {
        *self == BuildState::default()
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskCycle {
    pub description: String,
    pub current_cycle: u32,
    pub max_cycles: u32,
    pub implementer: String,
    #[serde(default)]
    pub reviewers: Vec<ReviewerEntry>,
    #[serde(default)]
    pub pattern_tracking: PatternTracking,
    /// Reviewer switches, with their reasons.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub switches: Vec<Switch>,
    /// How the cycle ended, once it has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Decision>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewerEntry {
    pub agent: String,
    pub cycle: u32,
    pub status: TaskReviewStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feedback: Option<String>,
    pub timestamp: DateTime<Utc>,
    /// When the review was asked (`tasks review` printed its request): the
    /// reviewer's deadline counts from here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asked_at: Option<DateTime<Utc>>,
    /// Who the recorded reply came from: the reviewer sub-agent Claude
    /// Code's transcript shows, or a person outside Claude Code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recorded_by: Option<RecordedBy>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PatternTracking {
    pub same_issue_count: u32,
    pub recurring_patterns: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Switch {
    pub from: String,
    pub to: String,
    pub reason: String,
    pub cycle: u32,
    pub timestamp: DateTime<Utc>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GlobalPatterns {
    #[serde(default)]
    pub reviewer_failure_rates: BTreeMap<String, FailureRate>,
    #[serde(default)]
    pub common_issues: Vec<CommonIssue>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FailureRate {
    pub total_reviews: u32,
    pub revisions_required: u32,
    pub failure_rate: f64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommonIssue {
    pub pattern: String,
    pub count: u32,
    pub suggested_reviewer: String,
}

/// Why a review cannot be requested or recorded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CycleError {
    #[error(
        "task {0} has no review waiting for a reply: ask for one with `{tasks_review}`", tasks_review = Command::new("tasks review").arg(.0).word("--reviewer <agent>"))]
    NotStarted(String),
    #[error("the review of task {task} is not late yet: its reviewer has until {deadline}; wait for its reply")]
    NotDue { task: String, deadline: String },
    #[error("{agent} implemented task {task}; a task is never reviewed by its own implementer")]
    OwnImplementer { task: String, agent: String },
    #[error("{agent} is not an available agent; available: {available}")]
    UnknownAgent { agent: String, available: String },
    #[error("the review cycle of task {task} is over ({outcome})")]
    Over { task: String, outcome: &'static str },
}

/// What recording a review decided.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CycleRecorded {
    pub task: String,
    pub status: TaskReviewStatus,
    /// `revise`, `approved`, `cap-reached`; absent for `UNCLEAR` (nothing
    /// counted: ask the user whether it approves).
    pub decision: Option<Decision>,
    pub cycle: u32,
    pub max_cycles: u32,
    /// The reviewer of the next cycle, when there is one.
    pub next_reviewer: Option<String>,
    /// A switch made or suggested, with its reason.
    pub switch: Option<Switch>,
    pub same_issue_count: u32,
    pub recurring: Vec<String>,
}

impl SessionCycles {
    /// The task's cycle, started at cycle 1 with `reviewer` pending when it
    /// has none; an existing one is returned as it is (a restart resumes
    /// the same cycle).
    pub fn begin(
        &mut self,
        task: &str,
        description: &str,
        implementer: &str,
        reviewer: &str,
        max_cycles: u32,
        now: DateTime<Utc>,
    ) -> Result<&TaskCycle, CycleError> {
        if reviewer == implementer {
            return Err(CycleError::OwnImplementer { task: task.into(), agent: reviewer.into() });
        }
        let entry = self.tasks.entry(task.to_owned()).or_insert_with(|| TaskCycle {
            description: description.to_owned(),
            current_cycle: 1,
            max_cycles: max_cycles.max(1),
            implementer: implementer.to_owned(),
            reviewers: vec![ReviewerEntry {
                agent: reviewer.to_owned(),
                cycle: 1,
                status: TaskReviewStatus::Pending,
                feedback: None,
                timestamp: now,
                asked_at: None,
                recorded_by: None,
            }],
            pattern_tracking: PatternTracking::default(),
            switches: Vec::new(),
            outcome: None,
        });
        Ok(entry)
    }

    /// Records the pending reviewer's reply for `task`.
    /// The cycle under review of `task` and the reviewer it waits for: what
    /// the next reply is recorded for.
    pub fn under_review(&self, task: &str) -> Result<(u32, String), CycleError> {
        let t = self.tasks.get(task).ok_or_else(|| CycleError::NotStarted(task.into()))?;
        if let Some(o) = t.outcome {
            return Err(CycleError::Over { task: task.into(), outcome: o.name() });
        }
        let cycle = t.current_cycle;
        let reviewer = t
            .reviewers
            .iter()
            .rev()
            .find(|r| r.cycle == cycle && r.status == TaskReviewStatus::Pending)
            .map(|r| r.agent.clone())
            .unwrap_or_else(|| t.reviewers.last().map(|r| r.agent.clone()).unwrap_or_default());
        Ok((cycle, reviewer))
    }

    /// Records the reply of the reviewer of `task`'s current cycle, given
    /// `by` (the reviewer sub-agent it came from, or a person).
    pub fn record(
        &mut self,
        task: &str,
        reply: &str,
        by: Option<RecordedBy>,
        available: &[String],
        now: DateTime<Utc>,
    ) -> Result<CycleRecorded, CycleError> {
        let (status, verdict) = read_reply(reply);
        let patterns = review_patterns(reply, verdict.as_ref());
        let (cycle, reviewer) = self.under_review(task)?;
        let global = &mut self.global_patterns;
        let t = self.tasks.get_mut(task).expect("under_review found it");
        let feedback = Some(reply.trim().chars().take(2000).collect::<String>());
        if status == TaskReviewStatus::Unclear {
            return Ok(CycleRecorded {
                task: task.into(),
                status,
                decision: None,
                cycle,
                max_cycles: t.max_cycles,
                next_reviewer: Some(reviewer),
                switch: None,
                same_issue_count: t.pattern_tracking.same_issue_count,
                recurring: Vec::new(),
            });
        }
        // The pending entry of this cycle takes the status.
        t.settle_pending(ReviewerEntry {
            agent: reviewer.clone(),
            cycle,
            status,
            feedback,
            timestamp: now,
            asked_at: None,
            recorded_by: by,
        });
        let approved = status == TaskReviewStatus::Approved;
        let rate = global.count_review(&reviewer, approved);
        let decision = Cycle::new(cycle - 1, t.max_cycles).record(approved);
        // Recurring issues (seed: trackRecurringPatterns).
        let recurring = if approved { Vec::new() } else { t.pattern_tracking.track(&patterns) };
        let mut switch = None;
        let mut next_reviewer = None;
        match decision {
            Decision::Revise => {
                let (next, switched) = t.revise(&reviewer, cycle, rate, &recurring, available, now);
                switch = switched;
                next_reviewer = Some(next);
            }
            Decision::Approved | Decision::CapReached => t.outcome = Some(decision),
        }
        global.note_common(&recurring);
        Ok(CycleRecorded {
            task: task.into(),
            status,
            decision: Some(decision),
            cycle,
            max_cycles: t.max_cycles,
            next_reviewer,
            switch,
            same_issue_count: t.pattern_tracking.same_issue_count,
            recurring,
        })
    }
}

impl TaskCycle {
    /// The feedback of every review that asked for changes, oldest first:
    /// what the next reviewer reads as the previous rounds.
    pub fn revision_feedback(&self) -> Vec<String> {
        self.reviewers
            .iter()
            .filter(|r| r.status == TaskReviewStatus::NeedsRevision)
            .filter_map(|r| r.feedback.clone())
            .collect()
    }

    /// The pending entry of `reply`'s cycle takes its status, feedback,
    /// time and recorder; with none pending, `reply` is added.
    fn settle_pending(&mut self, reply: ReviewerEntry) {
        match self.reviewers.iter_mut().rev().find(|r| r.cycle == reply.cycle && r.status == TaskReviewStatus::Pending)
        {
            Some(r) => {
                r.status = reply.status;
                r.feedback = reply.feedback;
                r.timestamp = reply.timestamp;
                r.recorded_by = reply.recorded_by;
            }
            None => self.reviewers.push(reply),
        }
    }

    /// Opens the next cycle after `reviewer` asked for changes in `cycle`:
    /// a specialist takes over when the same issues recur or `reviewer`
    /// fails too often (`rate`). Returns who reviews next, and the switch.
    fn revise(
        &mut self,
        reviewer: &str,
        cycle: u32,
        rate: f64,
        recurring: &[String],
        available: &[String],
        now: DateTime<Utc>,
    ) -> (String, Option<Switch>) {
        let alternative = if self.pattern_tracking.same_issue_count >= SAME_ISSUE_THRESHOLD {
            specialist(recurring, reviewer, &self.implementer, available)
        } else if rate > FAILURE_RATE_SWITCH {
            specialist(&[], reviewer, &self.implementer, available)
                .map(|(to, _)| (to, format!("{reviewer}'s failure rate is {rate:.2}, above {FAILURE_RATE_SWITCH}")))
        } else {
            None
        };
        let mut switch = None;
        let next = match alternative {
            Some((to, reason)) => {
                let s = Switch { from: reviewer.to_owned(), to: to.clone(), reason, cycle: cycle + 1, timestamp: now };
                self.switches.push(s.clone());
                switch = Some(s);
                to
            }
            None => reviewer.to_owned(),
        };
        self.current_cycle = cycle + 1;
        self.reviewers.push(ReviewerEntry {
            agent: next.clone(),
            cycle: cycle + 1,
            status: TaskReviewStatus::Pending,
            feedback: None,
            timestamp: now,
            asked_at: None,
            recorded_by: None,
        });
        (next, switch)
    }
}

impl PatternTracking {
    /// Notes a rejected review's `patterns`: those seen before are
    /// returned (recurring) and counted, the others remembered.
    fn track(&mut self, patterns: &[String]) -> Vec<String> {
        let mut recurring = Vec::new();
        for p in patterns {
            if self.recurring_patterns.contains(p) {
                self.same_issue_count = self.same_issue_count.saturating_add(1);
                recurring.push(p.clone());
            } else {
                self.recurring_patterns.push(p.clone());
            }
        }
        recurring
    }
}

impl GlobalPatterns {
    /// Counts a review by `reviewer`; returns its failure rate, 0 until it
    /// has reviewed [`MIN_REVIEWS_FOR_RATE`] times.
    fn count_review(&mut self, reviewer: &str, approved: bool) -> f64 {
        let rate = self.reviewer_failure_rates.entry(reviewer.to_owned()).or_default();
        rate.total_reviews = rate.total_reviews.saturating_add(1);
        if !approved {
            rate.revisions_required = rate.revisions_required.saturating_add(1);
        }
        rate.failure_rate = f64::from(rate.revisions_required) / f64::from(rate.total_reviews.max(1));
        if rate.total_reviews >= MIN_REVIEWS_FOR_RATE { rate.failure_rate } else { 0.0 }
    }

    /// Counts the recurring issues across tasks.
    fn note_common(&mut self, recurring: &[String]) {
        for p in recurring {
            match self.common_issues.iter_mut().find(|c| &c.pattern == p) {
                Some(c) => c.count = c.count.saturating_add(1),
                None => self.common_issues.push(CommonIssue {
                    pattern: p.clone(),
                    count: 1,
                    suggested_reviewer: specialist_for(p).unwrap_or(ARCHITECT).to_owned(),
                }),
            }
        }
    }
}

impl SessionCycles {
    /// The pending review of `task` is being asked now: its deadline counts
    /// from the first time it is asked (asking again keeps it). Returns when
    /// it was asked.
    pub fn ask(&mut self, task: &str, now: DateTime<Utc>) -> Result<DateTime<Utc>, CycleError> {
        let t = self.tasks.get_mut(task).ok_or_else(|| CycleError::NotStarted(task.into()))?;
        if let Some(o) = t.outcome {
            return Err(CycleError::Over { task: task.into(), outcome: o.name() });
        }
        let cycle = t.current_cycle;
        let r = t
            .reviewers
            .iter_mut()
            .rev()
            .find(|r| r.cycle == cycle && r.status == TaskReviewStatus::Pending)
            .ok_or_else(|| CycleError::NotStarted(task.into()))?;
        Ok(*r.asked_at.get_or_insert(now))
    }

    /// Seed 003's TIMEOUT: the pending review of `task` got no reply within
    /// `timeout_minutes` of being asked. Refused before that. Nothing is
    /// counted; the caller applies the default action.
    pub fn time_out(
        &mut self,
        task: &str,
        now: DateTime<Utc>,
        timeout_minutes: u64,
    ) -> Result<ReviewerEntry, CycleError> {
        let t = self.tasks.get_mut(task).ok_or_else(|| CycleError::NotStarted(task.into()))?;
        if let Some(o) = t.outcome {
            return Err(CycleError::Over { task: task.into(), outcome: o.name() });
        }
        let cycle = t.current_cycle;
        let r = t
            .reviewers
            .iter_mut()
            .rev()
            .find(|r| r.cycle == cycle && r.status == TaskReviewStatus::Pending)
            .ok_or_else(|| CycleError::NotStarted(task.into()))?;
        let deadline = r.asked_at.unwrap_or(r.timestamp) + chrono::Duration::minutes(timeout_minutes as i64);
        if now < deadline {
            return Err(CycleError::NotDue { task: task.into(), deadline: crate::time::stamp(deadline) });
        }
        r.status = TaskReviewStatus::Timeout;
        r.timestamp = now;
        Ok(r.clone())
    }
}

/// The seed's specialist for a pattern.
pub(crate) fn specialist_for(pattern: &str) -> Option<&'static str> {
    SPECIALISTS.iter().find(|(k, _)| pattern.contains(k)).map(|(_, a)| *a)
}

/// The seed's `suggestAlternativeReviewer`, checked against the available
/// agents (by name, with or without a plugin prefix): the specialist of a
/// recurring pattern, else the architect; never the current reviewer or the
/// implementer.
pub fn specialist(
    recurring: &[String],
    current: &str,
    implementer: &str,
    available: &[String],
) -> Option<(String, String)> {
    let find = |name: &str| -> Option<String> {
        available
            .iter()
            .find(|a| a.as_str() == name || a.rsplit(':').next() == Some(name))
            .filter(|a| a.as_str() != current && a.as_str() != implementer)
            .cloned()
    };
    for p in recurring {
        for (key, agent) in SPECIALISTS {
            if p.contains(key)
                && let Some(a) = find(agent)
            {
                return Some((a, format!("Recurring {key} issues detected, switching to specialist")));
            }
        }
    }
    find(ARCHITECT).map(|a| (a, "Escalating to architect after recurring issues".to_owned()))
}

/// Its class: what a front end maps it to.
impl crate::error::Classified for CycleError {
    fn class(&self) -> crate::error::ErrorClass {
        use CycleError as E;
        match self {
            E::NotStarted(_)
            | E::NotDue { .. }
            | E::OwnImplementer { .. }
            | E::UnknownAgent { .. }
            | E::Over { .. } => crate::error::ErrorClass::Refused,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> DateTime<Utc> {
        "2026-11-23T10:00:00Z".parse().unwrap()
    }

    #[test]
    fn every_approval_pattern_of_the_seed_approves() {
        for first in [
            "APPROVED",
            "approved",
            "Looks  good",
            "LGTM",
            "ship it",
            "+1",
            "Ready to merge",
            "READY TO SHIP",
            "all good",
            "Passed review",
            "✅ fine by me",
            "👍",
        ] {
            assert_eq!(detect_status(&format!("{first}\nmore text with a bug")), TaskReviewStatus::Approved, "{first}");
        }
    }

    #[test]
    fn every_revision_pattern_of_the_seed_asks_for_revision() {
        for first in [
            "NEEDS REVISION",
            "needs_revision",
            "Requires changes",
            "require change",
            "needs work",
            "need work",
            "not ready",
            "-1",
            "BLOCKED",
            "fix required",
            "❌ no",
            "👎",
        ] {
            assert_eq!(
                detect_status(&format!("{first}\nlooks great otherwise")),
                TaskReviewStatus::NeedsRevision,
                "{first}"
            );
        }
    }

    #[test]
    fn the_keyword_rule_decides_when_the_first_line_does_not() {
        assert_eq!(detect_status("Reviewed.\nThere is a missing null check."), TaskReviewStatus::NeedsRevision);
        for word in ["issue", "problem", "error", "bug", "wrong", "incorrect", "missing"] {
            assert_eq!(
                detect_status(&format!("Reviewed.\nOne {word} here.")),
                TaskReviewStatus::NeedsRevision,
                "{word}"
            );
        }
        for word in ["good", "great", "excellent", "perfect", "works", "correct"] {
            assert_eq!(detect_status(&format!("Reviewed.\nIt {word}.")), TaskReviewStatus::Approved, "{word}");
        }
        assert_eq!(detect_status("Reviewed.\nGood, but one bug."), TaskReviewStatus::Unclear);
        assert_eq!(detect_status("Reviewed the change."), TaskReviewStatus::Unclear);
        // Whole lines only: "approved with changes" is not the approval pattern.
        assert_eq!(detect_status("Approved with changes"), TaskReviewStatus::Unclear);
    }

    #[test]
    fn a_json_verdict_comes_before_the_patterns() {
        let r = r#"LGTM
```json
{"approved": false, "issues": [{"severity": "blocker", "description": "No rate limiting on login"}], "summary": "x"}
```"#;
        let (status, v) = read_reply(r);
        assert_eq!(status, TaskReviewStatus::NeedsRevision);
        assert!(v.is_some());
    }

    fn agents() -> Vec<String> {
        ["phasegate:code-reviewer", "the-security-engineer", "the-architect", "the-developer"]
            .map(String::from)
            .to_vec()
    }

    #[test]
    fn a_task_converges_in_at_most_max_cycles_and_resumes_where_it_was() {
        let mut s = SessionCycles::default();
        s.begin("T1", "JWT auth", "the-developer", "the-security-engineer", 3, now()).unwrap();
        let r = s.record("T1", "NEEDS REVISION\nAdd input validation", None, &agents(), now()).unwrap();
        assert_eq!(
            (r.decision, r.cycle, r.next_reviewer.as_deref()),
            (Some(Decision::Revise), 1, Some("the-security-engineer"))
        );
        // A restart: begin again returns the same cycle.
        let t = s.begin("T1", "JWT auth", "the-developer", "other", 3, now()).unwrap();
        assert_eq!(t.current_cycle, 2);
        let r = s.record("T1", "Reviewed.\nThe docs are unclear", None, &agents(), now()).unwrap();
        assert_eq!((r.status, r.decision), (TaskReviewStatus::Unclear, None), "nothing counted");
        let r = s.record("T1", "-1\nstill failing", None, &agents(), now()).unwrap();
        assert_eq!((r.decision, r.cycle), (Some(Decision::Revise), 2));
        let r = s.record("T1", "-1\nstill failing", None, &agents(), now()).unwrap();
        assert_eq!((r.decision, r.cycle), (Some(Decision::CapReached), 3));
        assert!(matches!(s.record("T1", "LGTM", None, &agents(), now()), Err(CycleError::Over { .. })));
        let t = &s.tasks["T1"];
        assert_eq!(t.reviewers.len(), 3);
        assert_eq!(t.reviewers[0].status, TaskReviewStatus::NeedsRevision);
        assert_eq!(t.reviewers[0].feedback.as_deref(), Some("NEEDS REVISION\nAdd input validation"));
    }

    #[test]
    fn the_same_issue_twice_switches_to_the_seeds_specialist() {
        let mut s = SessionCycles::default();
        s.begin("T2", "login", "the-developer", "phasegate:code-reviewer", 5, now()).unwrap();
        let reply = "NEEDS REVISION\nNo rate limiting on the login endpoint.";
        s.record("T2", reply, None, &agents(), now()).unwrap();
        let r = s.record("T2", reply, None, &agents(), now()).unwrap();
        assert!(r.recurring.contains(&"rate_limiting".to_owned()), "{r:?}");
        let r = if r.switch.is_some() { r } else { s.record("T2", reply, None, &agents(), now()).unwrap() };
        let sw = r.switch.expect("a switch after the same issue twice");
        assert_eq!(sw.to, "the-architect");
        assert!(sw.reason.contains("rate_limiting"), "{}", sw.reason);
        assert_eq!(s.tasks["T2"].switches.len(), 1);
        assert!(s.global_patterns.common_issues.iter().any(|c| c.pattern == "rate_limiting"));
    }

    #[test]
    fn a_reviewer_failing_more_than_seven_in_ten_is_switched_and_logged() {
        let mut s = SessionCycles::default();
        s.global_patterns.reviewer_failure_rates.insert(
            "phasegate:code-reviewer".into(),
            FailureRate { total_reviews: 9, revisions_required: 7, failure_rate: 0.78 },
        );
        s.begin("T3", "x", "the-developer", "phasegate:code-reviewer", 3, now()).unwrap();
        let r = s.record("T3", "NEEDS WORK", None, &agents(), now()).unwrap();
        let sw = r.switch.unwrap();
        assert_eq!((sw.from.as_str(), sw.to.as_str()), ("phasegate:code-reviewer", "the-architect"));
        assert!(sw.reason.contains("failure rate is 0.80"), "{}", sw.reason);
        assert_eq!(r.next_reviewer.as_deref(), Some("the-architect"));
    }

    /// Regression: one failed review is a failure rate of 1.0, which switched
    /// every reviewer after its first revision.
    #[test]
    fn a_reviewer_with_few_reviews_is_not_switched_by_its_rate() {
        let mut s = SessionCycles::default();
        s.begin("T4", "x", "the-developer", "phasegate:code-reviewer", 3, now()).unwrap();
        let r = s.record("T4", "NEEDS WORK", None, &agents(), now()).unwrap();
        assert!(r.switch.is_none());
        assert_eq!(r.next_reviewer.as_deref(), Some("phasegate:code-reviewer"));
    }

    #[test]
    fn the_implementer_never_reviews_its_own_task() {
        let mut s = SessionCycles::default();
        assert!(matches!(
            s.begin("T1", "x", "the-developer", "the-developer", 3, now()),
            Err(CycleError::OwnImplementer { .. })
        ));
        // Nor is it switched to.
        assert_eq!(specialist(&[], "a", "the-architect", &agents()), None);
    }

    #[test]
    fn the_state_file_has_the_seeds_shape() {
        let mut file = ReviewCycles::default();
        let s = file.sessions.entry("001-auth".into()).or_default();
        s.begin("T1", "JWT", "the-developer", "the-security-engineer", 3, now()).unwrap();
        s.record("T1", "NEEDS_REVISION\nAdd rate limiting", None, &agents(), now()).unwrap();
        let v = serde_json::to_value(&file).unwrap();
        let t = &v["sessions"]["001-auth"]["tasks"]["T1"];
        for k in ["description", "current_cycle", "max_cycles", "implementer", "reviewers", "pattern_tracking"] {
            assert!(t.get(k).is_some(), "{k}: {t}");
        }
        assert_eq!(t["reviewers"][0]["status"], "NEEDS_REVISION");
        assert_eq!(t["reviewers"][1]["status"], "pending");
        assert_eq!(t["pattern_tracking"]["same_issue_count"], 0);
        let g = &v["sessions"]["001-auth"]["global_patterns"];
        assert_eq!(g["reviewer_failure_rates"]["the-security-engineer"]["failure_rate"], 1.0);
        let back: ReviewCycles = serde_json::from_value(v).unwrap();
        assert_eq!(back, file);
    }
}
