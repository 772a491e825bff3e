//! What a cost verb tells the model, as values with their facts: the
//! outcome keeps the value, its JSON the sentence (`Display`).

use std::fmt;

use crate::questions::AskSaid;

/// A feature over its budget, as its pause says it (its `message`).
#[derive(Debug, Clone, PartialEq)]
pub struct BudgetPause {
    pub feature: String,
    pub budget: f64,
    pub used: f64,
    pub why: PauseWhy,
}

/// Where a feature over its budget stands with its person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PauseWhy {
    /// A person stopped it at its budget.
    Stopped,
    /// It waits on another question (`id`) first.
    WaitsOn { id: String },
    /// The question was asked just now, as `asked` says.
    Asked(AskSaid),
}

impl fmt::Display for BudgetPause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let BudgetPause { feature, budget, used, why } = self;
        match why {
            PauseWhy::Stopped => write!(
                f,
                "{feature} was stopped at its budget (${used:.2} of ${budget:.2}); raise its budget in .phasegate/cost.config.json to go on"
            ),
            PauseWhy::WaitsOn { id } => {
                write!(f, "{feature} is over its ${budget:.2} budget (${used:.2} used) and waits on {id} already")
            }
            PauseWhy::Asked(asked) => write!(
                f,
                "{feature} is over its ${budget:.2} budget (${used:.2} used): it waits for a person to raise the budget or stop it ({asked}). `{}` shows where it went.",
                crate::words::Command::new("cost").feature(feature)
            ),
        }
    }
}
