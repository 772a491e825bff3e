//! Budgets (`.phasegate/cost.config.json`): at 80% the next brief and the
//! Stop hook's note say so in one line; at 100% the backlog runner and the
//! pipeline pause the feature on a question only a person answers (raise
//! the budget, or stop). Nothing is read, and nothing blocked, for a
//! feature that has no budget.

use phasegate_core::cost::{BudgetPause, BudgetState, PauseWhy};
use phasegate_core::feature::Meta;
use phasegate_core::questions::{AnsweredBy, ItemType, Request};
use phasegate_store::{Feature, Project};
use serde::Serialize;

use super::collect::collect;
use crate::env::Env;
use crate::error::{InvalidInput, OpError, OpResult, Refusal};
use crate::questions::ask::{self, AskInput, Interaction};

/// The question's task field (a person's decision: `Question::person_only`
/// covers it through its `budget ` prefix).
pub fn task_of(feature: &str) -> String {
    format!("budget {feature}")
}

/// What a person decided about `feature`'s budget, if asked.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Decision {
    /// Go on, to this budget.
    Raised(f64),
    Stopped,
}

/// Where `feature` stands against its budget (None without a budget: no
/// transcript is read). A raise a person answered counts as its budget.
pub fn state(project: &Project, env: &Env, feature: &Feature, meta: &Meta) -> OpResult<BudgetState> {
    if !project.cost().has_config() {
        return Ok(BudgetState::None);
    }
    let config = project.cost().config()?;
    let Some(mut budget) = config.budget(feature.name(), meta.mode) else { return Ok(BudgetState::None) };
    if let Some(Decision::Raised(to)) = decision(env, project, feature.name())? {
        budget = budget.max(to);
    }
    let costs = collect(project, env, Some(feature.name()))?;
    let used = costs.feature(feature.name()).map_or(0.0, |c| c.total.usd);
    let mut c = config.clone();
    c.budgets.features.insert(feature.name().to_owned(), budget);
    Ok(c.state(feature.name(), meta.mode, used))
}

/// The person's answer to `feature`'s latest budget question: a raise to
/// the amount they gave (without one, half as much again), or a stop.
/// Only an answer the binary recorded from a person's channel counts.
fn decision(env: &Env, project: &Project, feature: &str) -> OpResult<Option<Decision>> {
    if project.questions().has_dialog_notes() {
        let _ = crate::questions::ask::confirm_dialogs(project, env);
    }
    let (stored, _) = project.questions().all()?;
    let task = task_of(feature);
    let Some(q) = stored.iter().rev().map(|s| &s.question).find(|q| q.task_id.as_deref() == Some(&task)) else {
        return Ok(None);
    };
    let key = crate::witness::key(env)?;
    let crate::witness::PersonAnswer::Recorded(a) = crate::witness::person_answer(&key, q) else { return Ok(None) };
    if a.by != AnsweredBy::Human {
        return Ok(None);
    }
    let text = a.text.to_lowercase();
    if text.contains("stop") {
        return Ok(Some(Decision::Stopped));
    }
    let amount = text.split(|c: char| !(c.is_ascii_digit() || c == '.')).find_map(|w| w.parse::<f64>().ok());
    Ok(Some(Decision::Raised(match amount {
        Some(n) if n > 0.0 => n,
        _ => q.question_context.parse::<f64>().unwrap_or(0.0) * 1.5,
    })))
}

/// What a pause on the budget did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Paused {
    pub feature: String,
    pub question: Option<String>,
    #[serde(serialize_with = "phasegate_core::words::as_words")]
    pub message: BudgetPause,
}

/// Over its budget: the feature waits on a blocking question only a
/// person answers ("Raise", with an amount, or "Stop"). None when it is
/// within its budget (or has none).
pub fn pause_if_over(project: &Project, env: &Env, feature: &Feature, meta: &Meta) -> OpResult<Option<Paused>> {
    let BudgetState::Over { budget, used } = state(project, env, feature, meta)? else { return Ok(None) };
    let name = feature.name();
    let said = |why| BudgetPause { feature: name.to_owned(), budget, used, why };
    if decision(env, project, name)? == Some(Decision::Stopped) {
        return Ok(Some(Paused { feature: name.to_owned(), question: None, message: said(PauseWhy::Stopped) }));
    }
    let request = Request::parse(
        &serde_json::json!({
            "type": "blocking",
            "text": format!("{name} has used ${used:.2} of its ${budget:.2} budget. Raise the budget (say to how much), or stop the feature?"),
            "context": format!("{budget:.2}"),
            "options": [
                {"label": "Raise", "description": format!("go on; the budget becomes the amount you give (without one: ${:.2})", budget * 1.5)},
                {"label": "Stop", "description": "the feature waits; raise its budget in .phasegate/cost.config.json to go on"}
            ],
            "allowFreeText": true
        })
        .to_string(),
    )
    .invalid_input()?;
    let input = AskInput {
        request,
        task: Some(task_of(name)),
        item_type: ItemType::Feature,
        session: Interaction::Headless,
        round: None,
    };
    let asked = match ask::ask(env, Some(name), input) {
        Ok(a) => a,
        // Suspended on another question already: it waits for that first.
        Err(OpError::Refused(Refusal::AlreadySuspended { id, .. } | Refusal::AnswerWaiting { id, .. })) => {
            return Ok(Some(Paused {
                feature: name.to_owned(),
                question: Some(id.clone()),
                message: said(PauseWhy::WaitsOn { id: id.clone() }),
            }));
        }
        Err(e) => return Err(e),
    };
    Ok(Some(Paused {
        feature: name.to_owned(),
        question: asked.id.clone(),
        message: said(PauseWhy::Asked(asked.message)),
    }))
}
