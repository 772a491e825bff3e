//! `.phasegate/cost.config.json`: prices that override the default table,
//! and budgets per mode or per feature (USD).

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use super::price::{MAX_PRICE, Price, defaults};
use crate::Mode;
use crate::schema::{ConfigError, Schema};
use crate::words::Command;

/// Where the settings live, from the repository's root.
pub const COST_CONFIG_PATH: &str = ".phasegate/cost.config.json";

/// What a budget's share used says.
pub(crate) const WARN_AT: f64 = 0.8;

/// The largest budget (USD): a raise of half as much again stays finite.
pub const MAX_BUDGET: f64 = 1_000_000_000.0;

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Budgets {
    #[serde(default)]
    pub modes: BTreeMap<Mode, f64>,
    /// By feature folder name (`001-search`).
    #[serde(default)]
    pub features: BTreeMap<String, f64>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CostConfig {
    /// USD per million tokens by model id, over the defaults.
    #[serde(default)]
    pub prices: BTreeMap<String, Price>,
    #[serde(default)]
    pub budgets: Budgets,
}

/// Where a feature stands against its budget.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[serde(rename_all = "kebab-case", tag = "state")]
pub enum BudgetState {
    /// No budget applies.
    None,
    Under {
        budget: f64,
        used: f64,
    },
    /// At 80% or more.
    Near {
        budget: f64,
        used: f64,
    },
    /// At 100% or more.
    Over {
        budget: f64,
        used: f64,
    },
}

impl CostConfig {
    /// Reads the settings: the schema, then every price within
    /// [`MAX_PRICE`] and every budget within [`MAX_BUDGET`] (a price of
    /// 1e308 would make a cost infinite, and `$NaN` under every budget).
    pub fn parse(text: &str) -> Result<CostConfig, ConfigError> {
        let value: Value = serde_json::from_str(text).map_err(|e| ConfigError::Syntax(e.into()))?;
        Schema::CostConfig.check(&value).map_err(ConfigError::Schema)?;
        let config: CostConfig = serde_json::from_value(value).map_err(|e| ConfigError::Rule(e.to_string()))?;
        for (model, price) in &config.prices {
            if let Some((field, rate)) = price.out_of_bounds() {
                return Err(ConfigError::Rule(format!(
                    "prices.{model}.{field} is {rate}: a price is from 0 to {MAX_PRICE} USD per million tokens"
                )));
            }
        }
        let budgets = config.budgets.modes.iter().map(|(m, b)| (format!("modes.{m}"), *b));
        let mut budgets = budgets.chain(config.budgets.features.iter().map(|(f, b)| (format!("features.{f}"), *b)));
        if let Some((name, b)) = budgets.find(|(_, b)| !(*b > 0.0 && *b <= MAX_BUDGET)) {
            return Err(ConfigError::Rule(format!(
                "budgets.{name} is {b}: a budget is over 0 and at most {MAX_BUDGET} USD"
            )));
        }
        Ok(config)
    }

    /// The default prices with this configuration's over them.
    pub fn prices(&self) -> BTreeMap<String, Price> {
        let mut table = defaults();
        table.extend(self.prices.iter().map(|(k, v)| (k.clone(), *v)));
        table
    }

    /// The budget of `feature` (in `mode`): its own, else its mode's.
    pub fn budget(&self, feature: &str, mode: Mode) -> Option<f64> {
        self.budgets.features.get(feature).or_else(|| self.budgets.modes.get(&mode)).copied()
    }

    /// `used` USD against the budget of `feature`; a sum that is not a
    /// number is over any budget, never under it.
    pub fn state(&self, feature: &str, mode: Mode, used: f64) -> BudgetState {
        match self.budget(feature, mode) {
            None => BudgetState::None,
            Some(b) if used.is_nan() || used >= b => BudgetState::Over { budget: b, used },
            Some(b) if used >= b * WARN_AT => BudgetState::Near { budget: b, used },
            Some(b) => BudgetState::Under { budget: b, used },
        }
    }
}

impl BudgetState {
    /// The one line a brief or the Stop hook's note says (None under 80%).
    pub fn line(&self, feature: &str) -> Option<String> {
        match *self {
            BudgetState::None | BudgetState::Under { .. } => None,
            BudgetState::Near { budget, used } => Some(format!(
                "phasegate: {feature} has used ${used:.2} of its ${budget:.2} budget ({:.0}%); `{cost}` shows where",
                used / budget * 100.0,
                cost = Command::new("cost").feature(&feature)
            )),
            BudgetState::Over { budget, used } => Some(format!(
                "phasegate: {feature} is over its ${budget:.2} budget (${used:.2} used): it waits for a person to raise the budget or stop it"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_per_feature_over_per_mode_and_the_lines_at_80_and_100_percent() {
        let c = CostConfig::parse(
            r#"{"prices": {"claude-next-9": {"input": 1, "output": 2, "cacheRead": 0.1, "cacheWrite": 1.25}},
                "budgets": {"modes": {"standard": 10}, "features": {"001-a": 2}}}"#,
        )
        .unwrap();
        assert_eq!(c.budget("001-a", Mode::Standard), Some(2.0));
        assert_eq!(c.budget("002-b", Mode::Standard), Some(10.0));
        assert_eq!(c.budget("003-c", Mode::Quick), None);
        assert!(c.state("002-b", Mode::Standard, 7.99).line("002-b").is_none());
        assert!(
            c.state("002-b", Mode::Standard, 8.0)
                .line("002-b")
                .unwrap()
                .contains("has used $8.00 of its $10.00 budget (80%)")
        );
        assert!(matches!(c.state("001-a", Mode::Standard, 2.0), BudgetState::Over { .. }));
        assert!(c.prices().contains_key("claude-next-9") && c.prices().contains_key("claude-opus-4-5"));
        assert!(CostConfig::parse(r#"{"budget": 1}"#).is_err());
        assert!(CostConfig::parse(r#"{"prices": {"m": {"input": 1}}}"#).unwrap_err().to_string().contains("output"));
    }

    #[test]
    fn prices_and_budgets_out_of_bounds_are_refused_by_name() {
        let err =
            CostConfig::parse(r#"{"prices": {"m": {"input": 1e308, "output": 1, "cacheRead": 0, "cacheWrite": 0}}}"#)
                .unwrap_err()
                .to_string();
        assert!(err.contains("input"), "{err}");
        let typed = CostConfig {
            prices: BTreeMap::from([("m".to_owned(), Price::flat(1.0, 1e308, 0.0, 0.0, 0.0))]),
            ..CostConfig::default()
        };
        assert_eq!(typed.prices["m"].out_of_bounds(), Some(("output", 1e308)));
        let err = CostConfig::parse(r#"{"budgets": {"features": {"001-a": 1e300}}}"#).unwrap_err().to_string();
        assert!(err.contains("001-a"), "{err}");
        let budget = CostConfig::parse(r#"{"budgets": {"features": {"001-a": 5}}}"#).unwrap();
        for used in [f64::NAN, f64::INFINITY] {
            assert!(matches!(budget.state("001-a", Mode::Standard, used), BudgetState::Over { .. }), "{used}");
        }
    }
}
