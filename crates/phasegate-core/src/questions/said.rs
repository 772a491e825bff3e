//! What a question verb tells the model, as values with their facts: the
//! outcome keeps the value, its JSON the sentence (`Display`).

use std::fmt;

use crate::words::Command;

/// What `question ask` says (its `message`): where the question went and
/// what to do now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AskSaid {
    /// A stored preference answers it.
    Preference { tag: String, answer: String },
    /// The same question was asked and answered before.
    AlreadyAnswered { id: String, answer: String },
    /// The same question waits for its answer already.
    AlreadyAsked { id: String },
    /// Ask the user now through the dialog; `person_only` when phasegate
    /// records the choice from the dialog itself.
    AskUser { id: String, person_only: bool },
    /// The feature is suspended until the answer; `slack` when the
    /// question is posted there.
    Suspended { slug: String, id: String, slack: bool },
    /// Queued; the work goes on with `default` meanwhile.
    Queued { id: String, default: String, slack: bool },
}

impl fmt::Display for AskSaid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AskSaid::Preference { tag, answer } => {
                write!(f, "A stored preference ({tag}) answers it: {answer}. Go on with it.")
            }
            AskSaid::AlreadyAnswered { id, answer } => write!(f, "{id} asked this before and was answered: {answer}."),
            AskSaid::AlreadyAsked { id } => {
                write!(f, "{id} asks this already and waits for an answer; do not ask again.")
            }
            AskSaid::AskUser { id, person_only: true } => write!(
                f,
                "Ask the user now with the AskUserQuestion tool (input below, as it is: no `answers`). {id} is theirs alone to answer: phasegate records their choice from the dialog itself, so do not record it with `question answer`."
            ),
            AskSaid::AskUser { id, person_only: false } => write!(
                f,
                "Ask the user now with the AskUserQuestion tool (input below), then record the reply: `{}`.",
                Command::new("question answer").arg(id).word("\"<answer>\"")
            ),
            AskSaid::Suspended { slug, id, slack } => write!(
                f,
                "{slug} is suspended until {id} is answered. Stop working on it and move on to other work. {}",
                Later { id, slack: *slack }
            ),
            AskSaid::Queued { id, default, slack } => write!(
                f,
                "Queued as {id}; go on with \"{default}\" meanwhile (it applies if nobody answers). {}",
                Later { id, slack: *slack }
            ),
        }
    }
}

/// How a question that waits gets its answer later.
struct Later<'a> {
    id: &'a str,
    slack: bool,
}

impl fmt::Display for Later<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let answer = Command::new("question answer").arg(&self.id).word("<text>");
        match self.slack {
            true => write!(
                f,
                "It is posted to Slack; the answer comes from its thread (read by `{}`) or from `{answer}`.",
                Command::new("slack poll")
            ),
            false => write!(f, "Answer it with `{answer}` (or /phasegate:answer in Claude Code)."),
        }
    }
}
