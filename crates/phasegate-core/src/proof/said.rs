//! What a proof verb tells the model, as values with their facts: the
//! outcome keeps the value, its JSON the sentence (`Display`).

use std::fmt;

use crate::questions::AskSaid;
use crate::words::Command;

/// What `verify run` says (its `message`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RanNext {
    pub feature: String,
    pub proven: bool,
    /// The judgement's one-line summary (`2/3 proven`).
    pub summary: String,
    /// What keeps it from proven, each in a few words.
    pub blocking: Vec<String>,
    /// The ledger's path, relative to the project.
    pub ledger: String,
    /// Files the checks changed that git does not ignore.
    pub changed: Vec<String>,
}

impl fmt::Display for RanNext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let RanNext { feature, proven, summary, blocking, ledger, changed } = self;
        match proven {
            true => write!(
                f,
                "{feature}: {summary}. The ledger {ledger} proves it at this tree; commit it with the feature."
            )?,
            false => write!(
                f,
                "{feature}: {summary}. Not proven: {}. Fix what fails and run `{}` again; a requirement that cannot be proven goes to a person (`{}`).",
                blocking.join("; "),
                Command::new("verify run").feature(feature),
                Command::new("verify waive").word("<id>").word("--reason \"<why>\"").feature(feature)
            )?,
        }
        if !changed.is_empty() {
            let shown: Vec<&str> = changed.iter().take(5).map(String::as_str).collect();
            write!(
                f,
                " The checks changed files git does not ignore ({}{}): the tree is not the one they ran on, so the ledger is stale until those are ignored (.gitignore) or put back.",
                shown.join(", "),
                if changed.len() > 5 { ", …" } else { "" }
            )?;
        }
        Ok(())
    }
}

/// What `verify waive` says (its `message`), with the facts it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaiveSaid {
    pub feature: String,
    pub requirement: String,
    pub how: Waiving,
}

/// Where a waiver stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Waiving {
    /// A person waived it now, through `answered_in`, for `reason`.
    Waived { answered_in: String, reason: String },
    /// It was waived before, for `reason`.
    WaivedAlready { reason: String },
    /// Question `id` was answered no (`answer`).
    Declined { id: String, answer: String },
    /// The person is asked, as `asked` says; `asked` is `question ask`'s
    /// own saying.
    Asked(crate::questions::AskSaid),
}

impl fmt::Display for WaiveSaid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let WaiveSaid { feature, requirement, how } = self;
        match how {
            Waiving::Waived { answered_in, reason } => write!(
                f,
                "A person waived {requirement} of {feature} ({answered_in}): \"{reason}\". The ledger records it; status, finish and the pull request show it."
            ),
            Waiving::WaivedAlready { reason } => write!(f, "{requirement} of {feature} is waived already: {reason}"),
            Waiving::Declined { id, answer } => write!(
                f,
                "{id} answered \"{answer}\": {requirement} is not waived. Prove it (`{}`), or ask again with another reason.",
                Command::new("verify run").feature(feature)
            ),
            Waiving::Asked(asked) => write!(
                f,
                "{asked} Only a person answers it; nothing is waived until they say yes (then `{}` or the next `verify run` records it).",
                Command::new("verify waive").arg(requirement).feature(feature)
            ),
        }
    }
}

/// The marks of tampering that stand on a feature, in one line (for
/// `tamper list`, status, briefs and refusals).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TamperStands {
    pub feature: String,
    pub count: usize,
    /// The first three marks, each `file how`.
    pub first: Vec<String>,
}

impl fmt::Display for TamperStands {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let TamperStands { feature, count, first } = self;
        write!(
            f,
            "{count} state file change{} made outside phasegate's commands ({}{}): it proves nothing, and a person clears the mark (`{}`)",
            if *count == 1 { "" } else { "s" },
            first.join("; "),
            if *count > 3 { "; …" } else { "" },
            Command::new("tamper clear").feature(feature)
        )
    }
}

/// What `tamper list` and `tamper clear` say (their `message`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TamperSaid {
    /// Marks stand.
    Stands(TamperStands),
    /// `tamper list`: no mark.
    Clean { feature: String },
    /// `tamper clear`: no mark to clear.
    NothingToClear { feature: String },
    /// The person asked said no.
    Declined { feature: String, question: String, answer: String },
    /// The person said yes: cleared.
    Cleared { feature: String },
    /// A person is asked now.
    Asked { feature: String, asked: AskSaid },
}

impl fmt::Display for TamperSaid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TamperSaid::Stands(stands) => stands.fmt(f),
            TamperSaid::Clean { feature } => {
                write!(f, "{feature}: every state file is as phasegate's commands left it")
            }
            TamperSaid::NothingToClear { feature } => {
                write!(f, "{feature} has no marks of tampering: nothing to clear")
            }
            TamperSaid::Declined { feature, question, answer } => {
                write!(f, "{question} answered \"{answer}\": the marks of {feature} stand")
            }
            TamperSaid::Cleared { feature } => write!(
                f,
                "A person cleared the marks of {feature}; the state files as they are now count as phasegate's"
            ),
            TamperSaid::Asked { feature, asked } => write!(
                f,
                "{asked} Only a person answers it; once they said yes, `{}` clears the marks.",
                Command::new("tamper clear").feature(feature)
            ),
        }
    }
}
