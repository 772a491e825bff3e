//! What a knowledge verb tells the model, as values with their facts: the
//! outcome keeps the value, its JSON the sentence (`Display`).

use std::fmt;

use crate::questions::AskSaid;

use crate::words::Command;

/// What became of a lesson `kb record` was given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LessonKept {
    /// A new item.
    Created,
    /// A similar item was known and is reinforced.
    Reinforced,
    /// A new item replaces `replaced`, of lower confidence.
    Superseded { replaced: String },
    /// The item holds this sighting already.
    Known,
}

/// What `kb record` says (its `message`).
#[derive(Debug, Clone, PartialEq)]
pub struct LessonRecorded {
    pub kept: LessonKept,
    /// The item that holds the lesson now.
    pub id: String,
    pub confidence: f64,
    pub occurrences: u32,
    /// It now meets every condition for CLAUDE.md but the user's yes.
    pub promotable: bool,
}

impl fmt::Display for LessonRecorded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let LessonRecorded { kept, id, confidence, occurrences, promotable } = self;
        match kept {
            LessonKept::Created => write!(f, "Recorded {id} (confidence {confidence}).")?,
            LessonKept::Reinforced => write!(
                f,
                "A similar lesson was already known: {id} is reinforced (seen {occurrences} times, confidence {confidence})."
            )?,
            LessonKept::Superseded { replaced } => {
                write!(f, "Recorded {id}; it replaces {replaced} (lower confidence).")?
            }
            LessonKept::Known => write!(f, "{id} already holds this sighting; nothing changed.")?,
        }
        if *promotable {
            write!(
                f,
                " It now qualifies for CLAUDE.md (confidence {confidence}, seen {occurrences} times, in several features): `{}` asks the user.",
                Command::new("kb promote").arg(id)
            )?;
        }
        Ok(())
    }
}

/// What `retro record` says (its `message`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetroRecorded {
    pub feature: String,
    /// Where the record was written.
    pub file: String,
    /// Lessons created (or superseding an older one), and reinforced.
    pub created: usize,
    pub reinforced: usize,
    /// Injected gotchas judged.
    pub judged: usize,
    /// Template changes proposed.
    pub templates: usize,
    /// Items now eligible for CLAUDE.md.
    pub promotable: Vec<String>,
    /// Pending events it settled.
    pub settled: Vec<String>,
    /// Why its events could not be settled, when they could not.
    pub unsettled: Option<String>,
}

impl fmt::Display for RetroRecorded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let RetroRecorded { feature, file, created, reinforced, judged, templates, promotable, settled, unsettled } =
            self;
        write!(
            f,
            "Recorded the retrospective of {feature} in {file}: {created} new lesson(s), {reinforced} reinforced, {judged} injected gotcha(s) judged."
        )?;
        if *templates > 0 {
            write!(
                f,
                " {templates} template change(s) proposed: ask the user for each (the `question` field) and, if yes, add it to the file it names."
            )?;
        }
        if !promotable.is_empty() {
            write!(
                f,
                " Ready for CLAUDE.md once the user agrees: {}; run `{}` for each to ask.",
                promotable.join(", "),
                Command::new("kb promote").word("<id>")
            )?;
        }
        if !settled.is_empty() {
            write!(f, " Settled event(s) {}: no session is offered this retrospective again.", settled.join(", "))?;
        }
        if let Some(e) = unsettled {
            write!(f, " (The events of {feature} were not settled: {e}.)")?;
        }
        Ok(())
    }
}

/// What `kb promote` says (its `message`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromoteSaid {
    /// The lesson is in CLAUDE.md already.
    AlreadyThere { id: String },
    /// The person said yes: added to phasegate's block of `file`.
    Added { id: String, file: String },
    /// The person said no.
    Declined { id: String, question: String, answer: String },
    /// The person is asked now; `feature` as the command named it (to run
    /// again as printed).
    Asked { id: String, feature: Option<String>, asked: AskSaid },
}

impl fmt::Display for PromoteSaid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PromoteSaid::AlreadyThere { id } => write!(f, "{id} is in CLAUDE.md already."),
            PromoteSaid::Added { id, file } => write!(
                f,
                "Added {id} to phasegate's block of {file}; the rest of the file is unchanged. Commit CLAUDE.md with the knowledge base."
            ),
            PromoteSaid::Declined { id, question, answer } => {
                write!(f, "{question} answered \"{answer}\": {id} stays in the knowledge base only.")
            }
            PromoteSaid::Asked { id, feature, asked } => write!(
                f,
                "{asked} Nothing is written to CLAUDE.md until the user says yes; then run `{}` again.",
                crate::words::Command::new("kb promote")
                    .arg(id)
                    .feature_opt(feature.as_deref().map(crate::paths::shell_word))
            ),
        }
    }
}
