//! What a proof verb tells the model, as values with their facts: the
//! outcome keeps the value, its JSON the sentence (`Display`).

use std::fmt;

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
