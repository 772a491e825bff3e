//! Questions to a person (seed 004 §11) and the suspension marker that parks
//! one item while it waits (seed 000 Part 2). Pure: the clock, the files and
//! Slack are the caller's.
//!
//! A question is asked with a [`Request`] (the seed's §11.9 format). Where it
//! goes is decided by [`route`]; the "when not to ask" rules the binary can
//! decide are [`Skip`]. A stored [`Question`] is either the suspension marker
//! of its item (`.claude/suspended/<slug>.json`, blocking and headless) or a
//! queued question (`.claude/questions/<id>.json`); both have the seed's
//! marker fields plus the question's own.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use super::rounds::AnsweredBy;

/// Seed 000's `SUSPENDED_DIR`.
pub const SUSPENDED_DIR: &str = ".claude/suspended";
/// Questions that do not suspend their item, and answered ones.
pub const QUESTIONS_DIR: &str = ".claude/questions";
/// Seed 000's `SUSPENSION_TIMEOUT_MINUTES` (24 hours).
pub const DEFAULT_TIMEOUT_MINUTES: u64 = 1440;
/// The longest timeout or expiry accepted (a year).
pub(crate) const MAX_MINUTES: u64 = 525_600;
/// AskUserQuestion's limits: 2–4 options per question.
pub(crate) const ASK_MIN_OPTIONS: usize = 2;
pub(crate) const ASK_MAX_OPTIONS: usize = 4;
/// AskUserQuestion's header chip: at most 12 characters.
const ASK_HEADER_MAX: usize = 12;

/// The six types of seed 004 §11.1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum QuestionType {
    /// Cannot proceed without the answer.
    Blocking,
    /// Would improve quality; has a safe default.
    Clarifying,
    /// Validates an assumption before proceeding.
    Confirming,
    /// Helps the user think ahead; optional.
    Educational,
    /// Marks progress.
    Celebratory,
    /// Learns the user's style; remembered for later questions.
    Preference,
}

crate::named!(QuestionType, "question type");

impl QuestionType {
    /// Seed §11.9's table: only BLOCKING blocks.
    pub fn blocks(self) -> bool {
        matches!(self, QuestionType::Blocking)
    }

    fn header(self) -> &'static str {
        match self {
            QuestionType::Blocking => "Blocking",
            QuestionType::Clarifying => "Clarifying",
            QuestionType::Confirming => "Confirm",
            QuestionType::Educational => "Think ahead",
            QuestionType::Celebratory => "Milestone",
            QuestionType::Preference => "Preference",
        }
    }
}

/// What the question is about (seed 000's `item_type`; the Slack channel).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum ItemType {
    Feature,
    Defect,
}

crate::named!(ItemType, "item type");

/// One answer option (§11.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Choice {
    pub label: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub recommended: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub implications: Option<String>,
}

/// A question as an agent asks it: seed 004 §11.9's JSON (`{"question": …}`
/// or the object alone), with §11.2's behaviour fields.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Request {
    #[serde(rename = "type")]
    pub kind: QuestionType,
    pub text: String,
    #[serde(default)]
    pub context: String,
    #[serde(default)]
    pub options: Vec<Choice>,
    #[serde(default = "yes")]
    pub allow_free_text: bool,
    /// §11.9 calls it `default`, §11.2 `defaultOption`.
    #[serde(default, alias = "default")]
    pub default_option: Option<String>,
    /// Defaults to the type's (§11.9 table).
    #[serde(default)]
    pub blocking: Option<bool>,
    #[serde(default)]
    pub expires_after_minutes: Option<u64>,
    #[serde(default)]
    pub reminder_after_minutes: Option<u64>,
    /// For pattern matching; a preference is remembered under each tag.
    #[serde(default)]
    pub tags: Vec<String>,
}

fn yes() -> bool {
    true
}

/// A request that cannot be asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RequestError(pub String);

impl Request {
    /// Parses and checks a request. Errors name the field.
    pub fn parse(text: &str) -> Result<Request, RequestError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| RequestError(format!("is not valid JSON: {e}")))?;
        // The seed wraps the question: `{"question": {…}}`.
        let inner = match value {
            serde_json::Value::Object(mut o) if o.len() == 1 && o.get("question").is_some_and(|q| q.is_object()) => {
                o.remove("question").unwrap_or_default()
            }
            other => other,
        };
        let req = serde_json::from_value::<Request>(inner).map_err(|e| RequestError(e.to_string()))?;
        req.check()?;
        Ok(req)
    }

    pub fn blocking(&self) -> bool {
        self.blocking.unwrap_or(self.kind.blocks())
    }

    fn check(&self) -> Result<(), RequestError> {
        let bad = |s: String| Err(RequestError(s));
        if self.text.trim().is_empty() {
            return bad("`text` is empty: write the question".into());
        }
        for (i, c) in self.options.iter().enumerate() {
            if c.label.trim().is_empty() {
                return bad(format!("`options[{i}].label` is empty"));
            }
        }
        let labels: Vec<String> = self.options.iter().map(|c| norm(&c.label)).collect();
        if labels.iter().enumerate().any(|(i, l)| labels[..i].contains(l)) {
            return bad("two `options` have the same label".into());
        }
        if self.options.iter().filter(|c| c.recommended).count() > 1 {
            return bad("more than one option is `recommended`".into());
        }
        if !self.allow_free_text && self.options.is_empty() {
            return bad("`allowFreeText` is false but there are no `options` to pick from".into());
        }
        if let Some(d) = &self.default_option
            && !self.options.is_empty()
            && !self.allow_free_text
            && !labels.contains(&norm(d))
        {
            return bad(format!("`defaultOption` \"{d}\" is not one of the options' labels"));
        }
        if !self.blocking() && self.default_option.as_deref().is_none_or(|d| d.trim().is_empty()) {
            return bad(format!(
                "a non-blocking ({}) question needs `defaultOption`: the safe default that applies if nobody answers",
                self.kind
            ));
        }
        for (name, v) in
            [("expiresAfterMinutes", self.expires_after_minutes), ("reminderAfterMinutes", self.reminder_after_minutes)]
        {
            if let Some(m) = v
                && !(1..=MAX_MINUTES).contains(&m)
            {
                return bad(format!("`{name}` is {m}; use 1 to {MAX_MINUTES}"));
            }
        }
        Ok(())
    }
}

/// Where an item stands in the workflow when it asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub slug: String,
    pub item_type: ItemType,
    pub item_path: String,
    pub plan_path: Option<String>,
    /// The phase (or task) that asked.
    pub task_id: Option<String>,
}

/// How a question reached, or will reach, a person.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Delivery {
    /// Attempts to post it to Slack that failed, and the last error.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub failed_attempts: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_error: Option<String>,
    /// When the overdue reminder went out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reminded_at: Option<DateTime<Utc>>,
    /// Thread replies already seen that did not answer (for `allowFreeText:
    /// false`). Kept by earlier versions; a question with any has had its
    /// hint.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rejected_replies: Vec<String>,
    /// When the one hint ("that does not pick an option") was posted: one
    /// hint per question, however many replies miss.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hinted_at: Option<DateTime<Utc>>,
    /// Set just before the question is posted and cleared once its thread
    /// is recorded (or Slack refused the post): when a poll finds it set
    /// without a thread, the post may have gone out before a crash (or its
    /// answer was lost), and the channel is searched for it before anything
    /// is posted again; a search that cannot be made posts nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub posting_since: Option<DateTime<Utc>>,
    /// The client token of the post in progress, recorded with
    /// `postingSince` before the post and written into its text (see
    /// [`Question::slack_text`]): the search finds this question's post by
    /// it, and no other question's, whatever ids repeat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub post_ref: Option<String>,
    /// Further threads of the same question (posted twice before a crash
    /// could be told apart): their replies are read too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_threads: Vec<String>,
}

impl Delivery {
    /// Whether the one hint for a reply that picks no option went out.
    pub fn hinted(&self) -> bool {
        self.hinted_at.is_some() || !self.rejected_replies.is_empty()
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Where an answer came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Source {
    /// A reply in the question's Slack thread, from a user who is not the bot.
    Slack,
    /// `workflow-state question answer` (a shell, or Claude Code).
    Cli,
    /// The question dialog (Claude Code's AskUserQuestion): the person's
    /// choice as Claude Code's transcript records the dialog's result.
    Dialog,
    /// `/phasegate:answer` typed by the person, as Claude Code's transcript
    /// records their prompt.
    Typed,
    /// `workflow-state question answer` in a terminal outside Claude Code.
    Terminal,
    /// A teammate's answer on another machine, taken in from the team's
    /// git remote (`workflow-state team sync`).
    Team,
    /// A stored preference.
    Preference,
    /// The default of an expired non-blocking question.
    Expiry,
}

crate::named!(Source, "answer source");

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Answer {
    pub text: String,
    /// The option it picked, if it picked one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub option: Option<String>,
    pub by: AnsweredBy,
    pub source: Source,
    /// The Slack user, or whoever the CLI was told.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
    pub at: DateTime<Utc>,
    /// The Slack thread was told the answer was taken.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub acknowledged: bool,
    /// The binary's seal over the question and this answer: an answer it
    /// did not record (a file edited by hand) has none that verifies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seal: Option<String>,
}

/// What an answer's seal is over: the question it answers and the answer,
/// without the seal and without what changes after (the Slack thread told).
#[derive(Debug, Serialize)]
pub struct SealedAnswer<'a> {
    pub question: &'a str,
    pub slug: &'a str,
    pub task: Option<&'a str>,
    pub text: &'a str,
    pub option: Option<&'a str>,
    pub by: AnsweredBy,
    pub source: Source,
    pub user: Option<&'a str>,
    pub at: DateTime<Utc>,
}

/// A stored question: seed 000's marker fields (snake_case, as the seed's
/// example), then the question's own (camelCase).
///
/// The seed's marker is a contract with whoever suspends an item: a marker
/// in its shape alone (its eleven fields, written by another tool or by
/// hand) is a blocking question that allows free text, with the id
/// `<slug>.0`; only `slug`, `question` and `suspended_at` must be there.
/// Fields phasegate does not know are kept as they are, never dropped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Question {
    pub slug: String,
    #[serde(default = "default_item_type")]
    pub item_type: ItemType,
    #[serde(default)]
    pub item_path: String,
    #[serde(default)]
    pub plan_path: Option<String>,
    #[serde(default)]
    pub task_id: Option<String>,
    pub question: String,
    #[serde(default)]
    pub question_context: String,
    #[serde(default)]
    pub slack_thread_ts: Option<String>,
    #[serde(default)]
    pub slack_channel_id: Option<String>,
    pub suspended_at: DateTime<Utc>,
    #[serde(default = "default_timeout")]
    pub timeout_minutes: u64,

    /// `<slug>.<n>`; `<slug>.0` for a marker another tool wrote.
    #[serde(default)]
    pub id: String,
    #[serde(rename = "type", default = "default_kind")]
    pub kind: QuestionType,
    #[serde(default = "yes")]
    pub blocking: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<Choice>,
    #[serde(rename = "allowFreeText", default = "yes")]
    pub allow_free_text: bool,
    #[serde(rename = "defaultOption", default, skip_serializing_if = "Option::is_none")]
    pub default_option: Option<String>,
    #[serde(rename = "expiresAfterMinutes", default, skip_serializing_if = "Option::is_none")]
    pub expires_after_minutes: Option<u64>,
    #[serde(rename = "reminderAfterMinutes", default, skip_serializing_if = "Option::is_none")]
    pub reminder_after_minutes: Option<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// The implementer round this question came from (`rounds`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    #[serde(rename = "sessionId", default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    #[serde(default)]
    pub delivery: Delivery,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<Answer>,
    /// When the answer was taken back into the item's work (or, with
    /// `withdrawnAt`, when the question was withdrawn unanswered).
    #[serde(rename = "takenAt", default, skip_serializing_if = "Option::is_none")]
    pub taken_at: Option<DateTime<Utc>>,
    /// When the item ended (finished or abandoned) with the question open:
    /// nobody waits for its answer any more.
    #[serde(rename = "withdrawnAt", default, skip_serializing_if = "Option::is_none")]
    pub withdrawn_at: Option<DateTime<Utc>>,
    /// Fields another tool wrote into the marker, kept as they are.
    #[serde(flatten)]
    pub extra: std::collections::BTreeMap<String, serde_json::Value>,
}

fn default_item_type() -> ItemType {
    ItemType::Feature
}

fn default_timeout() -> u64 {
    DEFAULT_TIMEOUT_MINUTES
}

fn default_kind() -> QuestionType {
    QuestionType::Blocking
}

/// The longest question id.
pub(crate) const MAX_ID: usize = 80;

/// A question id names a file (`.claude/questions/<id>.json`): letters,
/// digits, `.`, `_`, `-`, starting with a letter or digit, no `..`, at most
/// 80 characters.
pub fn validate_id(id: &str) -> Result<(), String> {
    if crate::slug::safe_name(id, MAX_ID) {
        Ok(())
    } else {
        Err(format!(
            "invalid question id `{}`: use 1-{MAX_ID} letters, digits, '-', '_' or '.', starting with a letter or digit, without '..' or path separators (`<feature>.<n>`)",
            id.chars().take(MAX_ID).collect::<String>()
        ))
    }
}

/// Where a question file lies, which its name must agree with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuestionFile {
    /// `.claude/suspended/<slug>.json`.
    Marker,
    /// `.claude/questions/<id>.json`.
    Queue,
}

impl Question {
    /// Reads a question file named `<stem>.json` in its `place`: the JSON,
    /// the defaults of a seed-shaped marker, and every rule the schema
    /// cannot say (ids and slugs that become paths, the name agreeing with
    /// the content, so one file never stands for another's question).
    pub fn parse(text: &str, stem: &str, place: QuestionFile) -> Result<Question, String> {
        let mut q: Question = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if q.id.is_empty() {
            q.id = format!("{}.0", q.slug);
        }
        q.rules()?;
        let (field, value) = match place {
            QuestionFile::Marker => ("slug", &q.slug),
            QuestionFile::Queue => ("id", &q.id),
        };
        if value != stem {
            return Err(format!(
                "its `{field}` is `{value}` but the file is named `{stem}.json`; a question file is named after its {field}"
            ));
        }
        Ok(q)
    }
}

/// Where a question stands now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum QuestionState {
    /// Waiting for a person.
    Waiting,
    /// Blocking and past its reminder time: still waiting; never answers itself.
    Overdue,
    /// Non-blocking and past its expiry: its default applies.
    Expired,
    Answered,
}

crate::named!(QuestionState, "question state");

impl Question {
    /// A new question for `item`, asked at `now`.
    pub fn new(id: String, item: Item, req: &Request, timeout_minutes: u64, now: DateTime<Utc>) -> Question {
        Question {
            slug: item.slug,
            item_type: item.item_type,
            item_path: item.item_path,
            plan_path: item.plan_path,
            task_id: item.task_id,
            question: req.text.trim().to_owned(),
            question_context: req.context.trim().to_owned(),
            slack_thread_ts: None,
            slack_channel_id: None,
            suspended_at: now,
            timeout_minutes,
            id,
            kind: req.kind,
            blocking: req.blocking(),
            options: req.options.clone(),
            allow_free_text: req.allow_free_text,
            default_option: req.default_option.clone(),
            expires_after_minutes: req.expires_after_minutes,
            reminder_after_minutes: req.reminder_after_minutes,
            tags: req.tags.clone(),
            round: None,
            session_id: None,
            delivery: Delivery::default(),
            answer: None,
            taken_at: None,
            withdrawn_at: None,
            extra: Default::default(),
        }
    }

    /// What the schema cannot say.
    pub fn rules(&self) -> Result<(), String> {
        if self.id.trim().is_empty() || self.slug.trim().is_empty() || self.question.trim().is_empty() {
            return Err("`id`, `slug` and `question` must not be empty".into());
        }
        crate::slug::validate(&self.slug).map_err(|e| format!("`slug`: {e}"))?;
        validate_id(&self.id).map_err(|e| format!("`id`: {e}"))?;
        if !(1..=MAX_MINUTES).contains(&self.timeout_minutes) {
            return Err(format!("`timeout_minutes` is {}; use 1 to {MAX_MINUTES}", self.timeout_minutes));
        }
        if self.slack_thread_ts.is_some() != self.slack_channel_id.is_some() {
            return Err("`slack_thread_ts` and `slack_channel_id` are set together or not at all".into());
        }
        Ok(())
    }

    /// Minutes after asking when a blocking question becomes overdue.
    fn reminder_minutes(&self) -> u64 {
        self.reminder_after_minutes.unwrap_or(self.timeout_minutes)
    }

    /// Minutes after asking when a non-blocking question's default applies.
    fn expiry_minutes(&self) -> u64 {
        self.expires_after_minutes.unwrap_or(self.timeout_minutes)
    }

    pub fn state(&self, now: DateTime<Utc>) -> QuestionState {
        if self.answer.is_some() {
            return QuestionState::Answered;
        }
        let after = |m: u64| now >= self.suspended_at + Duration::minutes(m.min(MAX_MINUTES) as i64);
        if self.blocking {
            if after(self.reminder_minutes()) { QuestionState::Overdue } else { QuestionState::Waiting }
        } else if after(self.expiry_minutes()) {
            QuestionState::Expired
        } else {
            QuestionState::Waiting
        }
    }

    /// Is a reminder due (overdue and none sent yet)?
    pub fn reminder_due(&self, now: DateTime<Utc>) -> bool {
        self.state(now) == QuestionState::Overdue && self.delivery.reminded_at.is_none()
    }

    /// The answer of an expired non-blocking question: its default.
    pub fn default_answer(&self, now: DateTime<Utc>) -> Option<Answer> {
        let text = self.default_option.clone()?;
        Some(Answer {
            option: self.option_label(&text),
            text,
            by: AnsweredBy::Default,
            source: Source::Expiry,
            user: None,
            at: now,
            acknowledged: false,
            seal: None,
        })
    }

    fn option_label(&self, text: &str) -> Option<String> {
        self.options.iter().find(|c| norm(&c.label) == norm(text)).map(|c| c.label.clone())
    }

    /// Reads a person's reply: an option's number or label picks it; other
    /// text is a free answer when allowed. None: the reply does not answer.
    pub fn interpret(&self, reply: &str) -> Option<(String, Option<String>)> {
        let t = reply.trim();
        if t.is_empty() {
            return None;
        }
        let head = t.trim_end_matches(['.', '!', ')']);
        if let Ok(n) = head.parse::<usize>()
            && (1..=self.options.len()).contains(&n)
        {
            let label = self.options[n - 1].label.clone();
            return Some((label.clone(), Some(label)));
        }
        // "2) list, because …" / "2. list": a number with words after it.
        if let Some((num, rest)) = t.split_once(['.', ')', ':'])
            && let Ok(n) = num.trim().parse::<usize>()
            && (1..=self.options.len()).contains(&n)
        {
            let label = self.options[n - 1].label.clone();
            let text = if rest.trim().is_empty() { label.clone() } else { t.to_owned() };
            return Some((text, Some(label)));
        }
        if let Some(label) = self.option_label(head) {
            return Some((label.clone(), Some(label)));
        }
        self.allow_free_text.then(|| (t.to_owned(), None))
    }

    /// The message posted to Slack; its last line carries the post's client
    /// token (`delivery.postRef`) when one is recorded.
    pub fn slack_text(&self) -> String {
        let mut out = format!(
            ":question: *{}* ({}{}) asks a {} question (`{}`){}:\n{}\n",
            self.slug,
            self.item_type,
            self.task_id.as_deref().map(|t| format!(", {t}")).unwrap_or_default(),
            self.kind,
            self.id,
            if self.blocking { ", and waits for your answer" } else { "" },
            self.question
        );
        if !self.question_context.is_empty() {
            out.push_str(&format!("_Why:_ {}\n", self.question_context));
        }
        for (i, c) in self.options.iter().enumerate() {
            out.push_str(&format!("{}. *{}*{}", i + 1, c.label, if c.recommended { " (recommended)" } else { "" }));
            if let Some(d) = &c.description {
                out.push_str(&format!(" — {d}"));
            }
            if let Some(imp) = &c.implications {
                out.push_str(&format!(" _({imp})_"));
            }
            out.push('\n');
        }
        let how = match (self.options.is_empty(), self.allow_free_text) {
            (true, _) => "Reply in this thread with your answer.".to_owned(),
            (false, true) => "Reply in this thread with an option's number or label, or your own answer.".to_owned(),
            (false, false) => "Reply in this thread with an option's number or label.".to_owned(),
        };
        out.push_str(&how);
        if let (false, Some(d)) = (self.blocking, &self.default_option) {
            out.push_str(&format!(" Without an answer, \"{d}\" applies after {} minutes.", self.expiry_minutes()));
        }
        if let Some(token) = &self.delivery.post_ref {
            out.push_str(&format!("\n_ref {token}_"));
        }
        out
    }

    /// The AskUserQuestion tool's input for an interactive session, within
    /// its limits (1 question, 2–4 options; it adds "Other" for free text).
    pub fn ask_user_question(&self) -> serde_json::Value {
        let mut options: Vec<&Choice> = self.options.iter().collect();
        if options.len() > ASK_MAX_OPTIONS {
            // Keep the recommended option among the four shown.
            options.sort_by_key(|c| !c.recommended);
            options.truncate(ASK_MAX_OPTIONS);
        }
        let mut rendered: Vec<serde_json::Value> = options
            .iter()
            .map(|c| {
                let mut d = c.description.clone().unwrap_or_default();
                if let Some(imp) = &c.implications {
                    d = if d.is_empty() { imp.clone() } else { format!("{d} ({imp})") };
                }
                let label = if c.recommended { format!("{} (Recommended)", c.label) } else { c.label.clone() };
                serde_json::json!({ "label": label, "description": if d.is_empty() { c.label.clone() } else { d } })
            })
            .collect();
        let fillers = [
            ("Use your judgment", "Decide yourself and say what you chose"),
            ("Not now", "Leave it open and note it as an open question"),
        ];
        for (label, description) in fillers {
            if rendered.len() >= ASK_MIN_OPTIONS {
                break;
            }
            rendered.push(serde_json::json!({ "label": label, "description": description }));
        }
        let text = self.dialog_text();
        let header: String = self.kind.header().chars().take(ASK_HEADER_MAX).collect();
        serde_json::json!({ "questions": [ { "question": text, "header": header, "multiSelect": false, "options": rendered } ] })
    }
}

/// Where a question goes (seed 004 §11.10, with seed 000's suspension for a
/// session that has no one to ask).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::IntoStaticStr, strum::VariantArray)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Route {
    /// Interactive: ask now with AskUserQuestion.
    AskUser,
    /// Blocking, nobody to ask now: the item is suspended until answered.
    Suspend,
    /// Non-blocking, nobody to ask now: queued; work goes on with the default.
    Queue,
}

crate::named!(Route, "route");

/// How the user wants questions handled (configuration).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum RoutePreference {
    /// Ask in the session when it is interactive, else suspend or queue.
    #[default]
    Auto,
    /// Never ask in the session: always suspend or queue (answer later).
    Park,
}

crate::named!(RoutePreference, "question routing");

pub fn route(blocking: bool, interactive: bool, pref: RoutePreference) -> Route {
    match (interactive, pref, blocking) {
        (true, RoutePreference::Auto, _) => Route::AskUser,
        (_, _, true) => Route::Suspend,
        (_, _, false) => Route::Queue,
    }
}

/// Why a question need not be asked (§11.9 "When NOT to ask", the parts a
/// binary can decide).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Skip {
    /// A stored preference answers it.
    Preference { tag: String, answer: String },
    /// The same question about the same item was answered before.
    AlreadyAnswered { id: String, answer: String },
    /// The same question about the same item is waiting for an answer.
    AlreadyAsked { id: String },
}

/// A remembered preference.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Preference {
    pub answer: String,
    pub question: String,
    pub at: DateTime<Utc>,
}

/// `.phasegate/preferences.json`: answered preference questions, by tag.
pub type Preferences = std::collections::BTreeMap<String, Preference>;

/// The keys a preference is stored and found under: its tags, else its text.
pub fn preference_keys(tags: &[String], text: &str) -> Vec<String> {
    let tags: Vec<String> = tags.iter().map(|t| norm(t)).filter(|t| !t.is_empty()).collect();
    if tags.is_empty() { vec![norm(text)] } else { tags }
}

/// Decides whether `req` about `slug` needs asking, given the questions on
/// record and the stored preferences.
pub fn skip(req: &Request, slug: &str, known: &[Question], prefs: &Preferences) -> Option<Skip> {
    if req.kind == QuestionType::Preference || !req.tags.is_empty() {
        for key in preference_keys(&req.tags, &req.text) {
            if let Some(p) = prefs.get(&key) {
                return Some(Skip::Preference { tag: key, answer: p.answer.clone() });
            }
        }
    }
    let text = norm(&req.text);
    let same = known.iter().filter(|q| q.slug == slug && norm(&q.question) == text);
    let mut waiting = None;
    for q in same {
        match &q.answer {
            Some(a) => return Some(Skip::AlreadyAnswered { id: q.id.clone(), answer: a.text.clone() }),
            None => waiting = Some(Skip::AlreadyAsked { id: q.id.clone() }),
        }
    }
    waiting
}

pub use crate::slug::norm;

/// The task field of the questions only a person may answer, by prefix: a
/// requirement's waiver (`verify-waive R3`), a lesson's promotion into
/// CLAUDE.md (`kb-promote <id>`) and a feature over its budget (`budget
/// <feature>`). The model cannot record their answer:
/// it comes from Slack, the question dialog, `/phasegate:answer` typed by
/// the person, or a terminal outside Claude Code.
pub const PERSON_ONLY_TASKS: [&str; 4] = ["verify-waive ", "kb-promote ", "budget ", "tamper-clear "];

/// The tags of the questions only a person may answer besides those: a
/// task's review escalation (accept as it is, skip, abort) and the PM's
/// escalation of a stuck task (wait, skip, retry).
pub const PERSON_ONLY_TAGS: [&str; 2] = ["review-escalation", "stuck-task"];

impl Question {
    /// Whether only a person may answer it ([`PERSON_ONLY_TASKS`],
    /// [`PERSON_ONLY_TAGS`]).
    pub fn person_only(&self) -> bool {
        self.task_id.as_deref().is_some_and(|t| PERSON_ONLY_TASKS.iter().any(|p| t.starts_with(p)))
            || self.tags.iter().any(|t| PERSON_ONLY_TAGS.contains(&t.as_str()))
    }

    /// What the seal of `answer` to this question is over.
    pub fn sealed_answer<'a>(&'a self, answer: &'a Answer) -> SealedAnswer<'a> {
        SealedAnswer {
            question: &self.id,
            slug: &self.slug,
            task: self.task_id.as_deref(),
            text: &answer.text,
            option: answer.option.as_deref(),
            by: answer.by,
            source: answer.source,
            user: answer.user.as_deref(),
            at: answer.at,
        }
    }

    /// The text the question dialog (AskUserQuestion) shows for it: what
    /// its answer is found under in the dialog's reply.
    pub fn dialog_text(&self) -> String {
        match self.question_context.is_empty() {
            true => self.question.clone(),
            false => format!("{} ({})", self.question, self.question_context),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::now;

    fn item() -> Item {
        Item {
            slug: "009-ux".into(),
            item_type: ItemType::Feature,
            item_path: "docs/features/009-ux".into(),
            plan_path: None,
            task_id: Some("design".into()),
        }
    }

    const GRID: &str = r#"{"question": {"type": "blocking", "text": "Grid or list layout?",
        "context": "The spec mentions both.",
        "options": [{"label": "Grid", "recommended": true, "description": "cards"}, {"label": "List"}],
        "allowFreeText": true}}"#;

    #[test]
    fn the_seeds_format_parses_wrapped_or_bare() {
        let r = Request::parse(GRID).unwrap();
        assert!(r.blocking() && r.options.len() == 2);
        let bare = r#"{"type": "clarifying", "text": "Tabs?", "options": [{"label":"Tabs"},{"label":"Spaces"}], "default": "Spaces"}"#;
        let r = Request::parse(bare).unwrap();
        assert!(!r.blocking());
        assert_eq!(r.default_option.as_deref(), Some("Spaces"));
    }

    #[test]
    fn bad_requests_name_the_field() {
        for (text, why) in [
            ("{", "not valid JSON"),
            (r#"{"type": "urgent", "text": "x"}"#, "unknown variant `urgent`"),
            (r#"{"type": "blocking", "text": " "}"#, "`text` is empty"),
            (r#"{"type": "clarifying", "text": "x"}"#, "needs `defaultOption`"),
            (r#"{"type": "blocking", "text": "x", "allowFreeText": false}"#, "no `options`"),
            (r#"{"type": "blocking", "text": "x", "colour": 1}"#, "unknown field `colour`"),
            (r#"{"type": "blocking", "text": "x", "expiresAfterMinutes": 0}"#, "`expiresAfterMinutes` is 0"),
            (r#"{"type": "blocking", "text": "x", "options": [{"label":"a"},{"label":"A"}]}"#, "same label"),
        ] {
            let e = Request::parse(text).unwrap_err().to_string();
            assert!(e.contains(why), "{text}: {e}");
        }
    }

    #[test]
    fn replies_pick_options_by_number_or_label() {
        let q = Question::new("009-ux".into(), item(), &Request::parse(GRID).unwrap(), 1440, now());
        assert_eq!(q.interpret("2"), Some(("List".into(), Some("List".into()))));
        assert_eq!(q.interpret(" grid. "), Some(("Grid".into(), Some("Grid".into()))));
        assert_eq!(q.interpret("1) grid, with filters"), Some(("1) grid, with filters".into(), Some("Grid".into()))));
        assert_eq!(q.interpret("3"), Some(("3".into(), None)), "not an option: free text");
        assert_eq!(q.interpret("   "), None);
        let mut strict = q.clone();
        strict.allow_free_text = false;
        assert_eq!(strict.interpret("maybe a table?"), None);
    }

    #[test]
    fn blocking_questions_go_overdue_and_never_answer_themselves() {
        let t = now();
        let q = Question::new("a".into(), item(), &Request::parse(GRID).unwrap(), 60, t);
        assert_eq!(q.state(t), QuestionState::Waiting);
        assert_eq!(q.state(t + Duration::minutes(61)), QuestionState::Overdue);
        assert!(q.reminder_due(t + Duration::minutes(61)));
        let r = Request::parse(r#"{"type":"clarifying","text":"Tabs?","default":"Spaces","expiresAfterMinutes":5}"#)
            .unwrap();
        let q = Question::new("b".into(), item(), &r, 60, t);
        assert_eq!(q.state(t + Duration::minutes(6)), QuestionState::Expired);
        assert_eq!(q.default_answer(t).unwrap().text, "Spaces");
    }

    #[test]
    fn routes() {
        assert_eq!(route(true, true, RoutePreference::Auto), Route::AskUser);
        assert_eq!(route(true, false, RoutePreference::Auto), Route::Suspend);
        assert_eq!(route(false, false, RoutePreference::Auto), Route::Queue);
        assert_eq!(route(true, true, RoutePreference::Park), Route::Suspend);
    }

    #[test]
    fn when_not_to_ask() {
        let t = now();
        let req = Request::parse(GRID).unwrap();
        let mut q = Question::new("009-ux.1".into(), item(), &req, 60, t);
        assert_eq!(
            skip(&req, "009-ux", std::slice::from_ref(&q), &Preferences::new()),
            Some(Skip::AlreadyAsked { id: "009-ux.1".into() })
        );
        assert_eq!(skip(&req, "010-other", std::slice::from_ref(&q), &Preferences::new()), None);
        q.answer = Some(Answer {
            text: "Grid".into(),
            option: None,
            by: AnsweredBy::Human,
            source: Source::Cli,
            user: None,
            at: t,
            acknowledged: false,
            seal: None,
        });
        assert!(matches!(skip(&req, "009-ux", &[q], &Preferences::new()), Some(Skip::AlreadyAnswered { .. })));
        let pref = Request::parse(
            r#"{"type":"preference","text":"Tabs or spaces?","tags":["Indentation"],"default":"spaces"}"#,
        )
        .unwrap();
        let mut prefs = Preferences::new();
        prefs.insert("indentation".into(), Preference { answer: "tabs".into(), question: "x".into(), at: t });
        assert_eq!(
            skip(&pref, "009-ux", &[], &prefs),
            Some(Skip::Preference { tag: "indentation".into(), answer: "tabs".into() })
        );
    }

    #[test]
    fn ask_user_question_respects_its_limits() {
        let r = Request::parse(r#"{"type":"blocking","text":"Which?","options":[{"label":"a"},{"label":"b"},{"label":"c"},{"label":"d"},{"label":"e","recommended":true}]}"#).unwrap();
        let q = Question::new("x".into(), item(), &r, 60, now());
        let v = q.ask_user_question();
        let opts = v["questions"][0]["options"].as_array().unwrap();
        assert_eq!(opts.len(), 4);
        assert_eq!(opts[0]["label"], "e (Recommended)");
        let r = Request::parse(r#"{"type":"blocking","text":"Name?"}"#).unwrap();
        let v = Question::new("x".into(), item(), &r, 60, now()).ask_user_question();
        assert_eq!(v["questions"][0]["options"].as_array().unwrap().len(), 2);
        assert!(v["questions"][0]["header"].as_str().unwrap().len() <= 12);
    }

    #[test]
    fn slack_text_names_the_item_and_the_options() {
        let q = Question::new("009-ux".into(), item(), &Request::parse(GRID).unwrap(), 60, now());
        let t = q.slack_text();
        assert!(t.contains("*009-ux* (feature, design)"), "{t}");
        assert!(t.contains("1. *Grid* (recommended) — cards\n2. *List*\n"), "{t}");
    }

    #[test]
    fn names_match_serde() {
        crate::names::assert_serde_names::<QuestionType>();
        crate::names::assert_serde_names::<ItemType>();
        crate::names::assert_serde_names::<Source>();
        crate::names::assert_serde_names::<QuestionState>();
        crate::names::assert_serde_names::<RoutePreference>();
    }
}
