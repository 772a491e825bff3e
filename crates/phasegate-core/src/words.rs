//! The binary's commands as values: what a message, a hint or a `next`
//! field tells someone to run. A [`Command`] holds the verb path (`verify
//! run`), its arguments and an optional `--feature`; its one `Display`
//! renders `workflow-state <verb> <args> [--feature f]`, the only place the
//! binary's name is spelled below the CLI (jj's library spells `jj <cmd>`
//! in 3 lines).
//!
//! ```
//! use phasegate_core::words::Command;
//! let c = Command::new("verify run").feature(&"auth");
//! assert_eq!(c.to_string(), "workflow-state verify run --feature auth");
//! ```

use std::fmt;

/// The CLI binary's name.
pub const BINARY: &str = "workflow-state";

/// One command line of the binary, rendered by its `Display`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    /// The verb path: `status`, `verify run`, `pipeline final-gate`; an
    /// alternation (`phase start|complete`) in the tables that list what
    /// writes a file.
    verb: &'static str,
    /// The arguments after the verb, each as printed (`<id>`,
    /// `--reason "<why>"`).
    args: Vec<String>,
    /// `--feature <name>`, printed last.
    feature: Option<String>,
}

impl Command {
    /// `workflow-state <verb>`.
    pub fn new(verb: &'static str) -> Command {
        Command { verb, args: Vec::new(), feature: None }
    }

    /// The verb path (`verify run`).
    pub fn verb(&self) -> &'static str {
        self.verb
    }

    /// One more argument: a value (an id, a phase, a path).
    pub fn arg(mut self, value: &dyn fmt::Display) -> Command {
        self.args.push(value.to_string());
        self
    }

    /// One more argument as printed: a placeholder (`<id>`), a bare flag
    /// (`--once`), or a flag with a placeholder (`--message <text>`).
    pub fn word(mut self, word: &'static str) -> Command {
        self.args.push(word.to_owned());
        self
    }

    /// A flag and its value: `--name value`.
    pub fn flag(mut self, name: &str, value: &dyn fmt::Display) -> Command {
        self.args.push(format!("--{name} {value}"));
        self
    }

    /// `--feature <feature>`, printed after the arguments.
    pub fn feature(mut self, feature: &dyn fmt::Display) -> Command {
        self.feature = Some(feature.to_string());
        self
    }

    /// `--feature <feature>` when there is one.
    pub(crate) fn feature_opt(self, feature: Option<impl fmt::Display>) -> Command {
        match feature {
            Some(f) => self.feature(&f),
            None => self,
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{BINARY} {}", self.verb)?;
        for a in &self.args {
            write!(f, " {a}")?;
        }
        if let Some(feature) = &self.feature {
            write!(f, " --feature {feature}")?;
        }
        Ok(())
    }
}

/// Serialises a value that says something by its words (its `Display`):
/// an outcome keeps the typed value with its facts, and its JSON carries the
/// sentence (`#[serde(serialize_with = "phasegate_core::words::as_words")]`).
pub fn as_words<T: fmt::Display, S: serde::Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

/// [`as_words`] for a value that may be absent (`null` then).
pub fn as_words_opt<T: fmt::Display, S: serde::Serializer>(value: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => s.collect_str(v),
        None => s.serialize_none(),
    }
}

/// What `workflow-state commit` did, as its `message` says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommitDone {
    /// Nothing to commit in the paths named.
    Nothing { paths: Vec<String> },
    /// Commit `id` of `paths`.
    Committed { id: String, paths: Vec<String> },
}

impl fmt::Display for CommitDone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommitDone::Nothing { paths } => write!(f, "Nothing to commit in {}.", paths.join(", ")),
            CommitDone::Committed { id, paths } => {
                write!(f, "Committed {} ({}).", &id[..id.len().min(12)], paths.join(", "))
            }
        }
    }
}

/// A step of the phase loop (`skills/workflow-state/phase-loop.md`) that
/// an output sends the model to. Each has an anchor the Markdown carries on
/// the step's own line; a test reads the file and checks that every anchor
/// is there, on the step its [`Self::label`] names, so renumbering the
/// Markdown cannot leave an output pointing at the wrong step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopStep {
    /// Produce or revise the result (3a).
    Produce,
    /// Get the reviewer's brief (3b).
    ReviewBrief,
    /// Spawn the reviewer the brief names (3c).
    SpawnReviewer,
}

impl LoopStep {
    pub const ALL: [LoopStep; 3] = [LoopStep::Produce, LoopStep::ReviewBrief, LoopStep::SpawnReviewer];

    /// The step's anchor in the Markdown (`<a id="..."></a>`).
    pub fn anchor(self) -> &'static str {
        match self {
            LoopStep::Produce => "produce",
            LoopStep::ReviewBrief => "review-brief",
            LoopStep::SpawnReviewer => "spawn-reviewer",
        }
    }

    /// The step's number as the Markdown numbers it: section, then letter.
    pub fn label(self) -> &'static str {
        match self {
            LoopStep::Produce => "3a",
            LoopStep::ReviewBrief => "3b",
            LoopStep::SpawnReviewer => "3c",
        }
    }
}

impl fmt::Display for LoopStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "step {} of the phase loop", self.label())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_verb_args_then_the_feature() {
        let c = Command::new("verify waive").arg(&"R1").word("--reason \"<why>\"").feature(&"x");
        assert_eq!(c.to_string(), "workflow-state verify waive R1 --reason \"<why>\" --feature x");
        assert_eq!(Command::new("status").to_string(), "workflow-state status");
        assert_eq!(Command::new("cost").feature_opt(None::<&str>).to_string(), "workflow-state cost");
    }
}
