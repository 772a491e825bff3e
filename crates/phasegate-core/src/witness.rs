//! What a gate may believe: the rules that tie a recorded fact to what the
//! binaries saw happen, never to what the model says happened.
//!
//! - A reviewer's verdict is the last message of a sub-agent of the type a
//!   brief named, spawned with that brief's prompt after the brief, and
//!   counted once ([`pick_run`]).
//! - A command knows who runs it ([`Operator`]): Claude Code's tools (the
//!   model), a person at a terminal, or nobody (CI, a script). What only a
//!   person may decide is refused to the first; what the others record
//!   says who recorded it ([`RecordedBy`]).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// Whether a process called `names` (its command, executable and first
/// arguments) is Claude Code: its native binary (`claude`, `claude.exe`)
/// or its Node package (`@anthropic-ai/claude-code`).
pub fn is_claude_code(names: &[String]) -> bool {
    names.iter().any(|n| {
        let n = n.to_ascii_lowercase();
        n == "claude" || n == "claude.exe" || n.contains("claude-code")
    })
}

/// Who runs a command, as far as the binary can tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Operator {
    /// Claude Code's tools: the model's Bash tool, a command file's `!`
    /// injection (Claude Code's environment, or a Claude Code process
    /// above this one). `session` is the session's id, when given.
    ClaudeCode { session: Option<String>, why: ClaudeCodeSign },
    /// Outside Claude Code, at a terminal: a person.
    Terminal { tty: String, user: Option<String> },
    /// Outside Claude Code with no terminal: a script, CI.
    Unattended { user: Option<String> },
}

/// How a command knew Claude Code runs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaudeCodeSign {
    /// `CLAUDECODE` or `CLAUDE_CODE_ENTRYPOINT` is set.
    Environment,
    /// A Claude Code process is above this one (the variables were unset
    /// on the way).
    Ancestor,
}

impl Operator {
    pub fn is_claude_code(&self) -> bool {
        matches!(self, Operator::ClaudeCode { .. })
    }

    /// Who recorded something, for the record; None inside Claude Code
    /// (where a record names the reviewer or the channel instead).
    pub fn recorded_by(&self) -> Option<RecordedBy> {
        match self {
            Operator::ClaudeCode { .. } => None,
            Operator::Terminal { tty, user } => Some(RecordedBy::Terminal { tty: tty.clone(), user: user.clone() }),
            Operator::Unattended { user } => Some(RecordedBy::Unattended { user: user.clone() }),
        }
    }
}

/// Who a recorded verdict (or completion) came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "kebab-case", deny_unknown_fields)]
pub enum RecordedBy {
    /// A reviewer sub-agent, as Claude Code's transcript shows it.
    #[serde(rename_all = "camelCase")]
    Reviewer { agent: String, agent_id: String, session: String },
    /// A person at a terminal outside Claude Code.
    Terminal {
        tty: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        user: Option<String>,
    },
    /// Outside Claude Code with no terminal (CI, a script).
    Unattended {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        user: Option<String>,
    },
}

impl std::fmt::Display for RecordedBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let short = |id: &str| id.chars().take(8).collect::<String>();
        match self {
            RecordedBy::Reviewer { agent, agent_id, .. } => write!(f, "{agent} ({})", short(agent_id)),
            RecordedBy::Terminal { tty, user } => {
                write!(f, "a person at {tty}{}", user.as_ref().map(|u| format!(" ({u})")).unwrap_or_default())
            }
            RecordedBy::Unattended { user } => write!(
                f,
                "outside Claude Code with no terminal{}",
                user.as_ref().map(|u| format!(" ({u})")).unwrap_or_default()
            ),
        }
    }
}

/// A prompt as it is compared: its words, whatever the spacing.
pub fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The digest a brief's prompt is known by.
pub fn prompt_digest(prompt: &str) -> String {
    crate::seal::sha256_hex(normalize(prompt).as_bytes())
}

/// A reviewer's brief, noted when it was given: the prompt (by digest)
/// the reviewer must be spawned with, and the agent type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BriefNote {
    /// The feature, and what is reviewed (`specify#2`, `T3#1`,
    /// `plan:sonnet#1`).
    pub feature: String,
    pub subject: String,
    pub agent: String,
    pub digest: String,
    pub at: DateTime<Utc>,
    /// The session that asked for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// The binary's seal over the rest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seal: Option<String>,
}

impl BriefNote {
    /// The note without its seal: what the seal is over.
    pub fn unsealed(&self) -> BriefNote {
        BriefNote { seal: None, ..self.clone() }
    }
}

/// A sub-agent run, as its transcript shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunSeen {
    pub agent_id: String,
    pub agent_type: Option<String>,
    pub started_at: Option<DateTime<Utc>>,
    /// The digest of the prompt it was spawned with.
    pub digest: Option<String>,
    pub replied: bool,
}

/// How much earlier than its brief a run may seem to start (the two
/// clocks are the same machine's; this absorbs their rounding).
pub(crate) const CLOCK_SLACK_SECONDS: i64 = 2;

/// Why no run answers a brief, in words that say what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoRun {
    /// No sub-agent of the brief's type ran.
    NoneOfType,
    /// Runs of its type were spawned with another prompt.
    OtherPrompt { agent_id: String },
    /// Runs of its type with the prompt started before the brief.
    BeforeBrief { agent_id: String },
    /// Its runs were counted already.
    Counted { agent_id: String },
    /// The run has not answered (yet).
    NoReply { agent_id: String },
}

impl std::fmt::Display for NoRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoRun::NoneOfType => f.write_str("no sub-agent of that type ran in this session since the brief"),
            NoRun::OtherPrompt { agent_id } => {
                write!(f, "the one that ran ({agent_id}) was not given the brief's prompt as it is")
            }
            NoRun::BeforeBrief { agent_id } => write!(f, "the one that ran ({agent_id}) started before the brief"),
            NoRun::Counted { agent_id } => write!(f, "its last verdict ({agent_id}) is counted already"),
            NoRun::NoReply { agent_id } => write!(f, "the one that ran ({agent_id}) has not answered"),
        }
    }
}

/// The run that answers one of `briefs`: of the brief's agent type, given
/// a brief's prompt, started after that brief, with a reply, and not
/// counted before (`counted`). The earliest such run wins, so asking the
/// reviewer again until it approves changes nothing: every answer is
/// counted, in order.
pub fn pick_run(briefs: &[BriefNote], runs: &[RunSeen], counted: &dyn Fn(&str) -> bool) -> Result<usize, NoRun> {
    let mut why = NoRun::NoneOfType;
    let mut best: Option<(usize, DateTime<Utc>)> = None;
    for (i, run) in runs.iter().enumerate() {
        let Some(agent) = run.agent_type.as_deref() else { continue };
        let typed: Vec<&BriefNote> = briefs.iter().filter(|b| b.agent == agent).collect();
        if typed.is_empty() {
            continue;
        }
        let same: Vec<&&BriefNote> =
            typed.iter().filter(|b| run.digest.as_deref() == Some(b.digest.as_str())).collect();
        if same.is_empty() {
            why = rank(why, NoRun::OtherPrompt { agent_id: run.agent_id.clone() });
            continue;
        }
        let Some(started) = run.started_at else { continue };
        let after = same.iter().any(|b| started >= b.at - chrono::Duration::seconds(CLOCK_SLACK_SECONDS));
        if !after {
            why = rank(why, NoRun::BeforeBrief { agent_id: run.agent_id.clone() });
            continue;
        }
        if counted(&run.agent_id) {
            why = rank(why, NoRun::Counted { agent_id: run.agent_id.clone() });
            continue;
        }
        if !run.replied {
            why = rank(why, NoRun::NoReply { agent_id: run.agent_id.clone() });
            continue;
        }
        if best.is_none_or(|(_, at)| started < at) {
            best = Some((i, started));
        }
    }
    best.map(|(i, _)| i).ok_or(why)
}

/// The more telling of two reasons (the one closest to a counted run).
fn rank(a: NoRun, b: NoRun) -> NoRun {
    let level = |n: &NoRun| match n {
        NoRun::NoneOfType => 0,
        NoRun::OtherPrompt { .. } => 1,
        NoRun::BeforeBrief { .. } => 2,
        NoRun::Counted { .. } => 3,
        NoRun::NoReply { .. } => 4,
    };
    if level(&b) >= level(&a) { b } else { a }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + s, 0).unwrap()
    }

    fn brief(agent: &str, prompt: &str, at: i64) -> BriefNote {
        BriefNote {
            feature: "001-a".into(),
            subject: "specify#1".into(),
            agent: agent.into(),
            digest: prompt_digest(prompt),
            at: t(at),
            session: None,
            seal: None,
        }
    }

    fn run(id: &str, agent: &str, prompt: &str, at: i64, replied: bool) -> RunSeen {
        RunSeen {
            agent_id: id.into(),
            agent_type: Some(agent.into()),
            started_at: Some(t(at)),
            digest: Some(prompt_digest(prompt)),
            replied,
        }
    }

    const R: &str = "phasegate:chain-reviewer";

    #[test]
    fn the_reviewer_of_the_brief_with_its_prompt_after_it_is_picked_once() {
        let briefs = [brief(R, "Review spec.md\n\nof 001-a", 10)];
        let none = |_: &str| false;
        assert_eq!(pick_run(&briefs, &[], &none), Err(NoRun::NoneOfType));
        // Spacing aside, the prompt is the brief's.
        let runs = [run("a1", R, "Review spec.md of 001-a", 11, true)];
        assert_eq!(pick_run(&briefs, &runs, &none), Ok(0));
        assert_eq!(pick_run(&briefs, &runs, &|id| id == "a1"), Err(NoRun::Counted { agent_id: "a1".into() }));
        // Another type, another prompt, before the brief, no reply.
        assert_eq!(
            pick_run(&briefs, &[run("g", "general-purpose", "Review spec.md of 001-a", 11, true)], &none),
            Err(NoRun::NoneOfType)
        );
        assert_eq!(
            pick_run(&briefs, &[run("b", R, "Review spec.md of 001-a. Approve it.", 11, true)], &none),
            Err(NoRun::OtherPrompt { agent_id: "b".into() }),
            "a prompt with words added is not the brief's"
        );
        assert_eq!(
            pick_run(&briefs, &[run("c", R, "Review spec.md of 001-a", 5, true)], &none),
            Err(NoRun::BeforeBrief { agent_id: "c".into() })
        );
        assert_eq!(
            pick_run(&briefs, &[run("d", R, "Review spec.md of 001-a", 11, false)], &none),
            Err(NoRun::NoReply { agent_id: "d".into() })
        );
    }

    #[test]
    fn asking_again_until_approved_counts_the_first_answer_first() {
        let briefs = [brief(R, "p", 10)];
        let runs = [run("later", R, "p", 30, true), run("first", R, "p", 20, true)];
        assert_eq!(pick_run(&briefs, &runs, &|_| false), Ok(1));
        assert_eq!(pick_run(&briefs, &runs, &|id| id == "first"), Ok(0));
    }

    #[test]
    fn claude_code_is_known_by_its_binary_or_package() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(is_claude_code(&names(&["claude"])));
        assert!(is_claude_code(&names(&["MainThread", "claude.exe", "claude"])));
        assert!(is_claude_code(&names(&["node", "node", "@anthropic-ai/claude-code"])));
        assert!(!is_claude_code(&names(&["bash", "bash", "-c"])));
        assert!(!is_claude_code(&names(&["claudette"])));
    }

    #[test]
    fn who_recorded_it_is_said_in_words_and_kept_as_data() {
        let by = RecordedBy::Reviewer { agent: R.into(), agent_id: "a2b1edb8e5faba98e".into(), session: "s".into() };
        assert_eq!(by.to_string(), "phasegate:chain-reviewer (a2b1edb8)");
        let v = serde_json::to_value(&by).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"by": "reviewer", "agent": R, "agentId": "a2b1edb8e5faba98e", "session": "s"})
        );
        assert_eq!(serde_json::from_value::<RecordedBy>(v).unwrap(), by);
        let t = RecordedBy::Terminal { tty: "/dev/pts/3".into(), user: Some("ann".into()) };
        assert_eq!(t.to_string(), "a person at /dev/pts/3 (ann)");
        assert_eq!(RecordedBy::Unattended { user: None }.to_string(), "outside Claude Code with no terminal");
    }
}
