//! What a feature costs: the usage Claude Code records in its transcripts,
//! attributed to the features, phases, tasks and agents the binaries saw
//! at work, and priced from a table of prices as data. Pure: transcript
//! lines, windows and prices in; tallies out.

mod attribute;
mod config;
mod price;
mod said;
mod skim;
mod transcript;

use std::collections::BTreeMap;
use std::ops::AddAssign;

use serde::{Serialize, Serializer};

pub use attribute::{Attributor, Command, PIPELINE_COMMAND, Place, SessionLog, Span, Turn, Windows, command_of_prompt};
pub use config::{BudgetState, Budgets, COST_CONFIG_PATH, CostConfig};
pub use price::{LongPrompt, PRICES_AS_OF, Price, defaults as default_prices, find as find_price};
pub use said::{BudgetPause, PauseWhy};
pub use transcript::{Line, Message, USAGE_KEY, may_hold_usage, parse_line, parse_usage_line};

/// Tokens as the API's usage counts them. Sums saturate at `u64::MAX`
/// (18,446,744,073,709,551,615) instead of wrapping round to a small count.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    pub input: u64,
    pub output: u64,
    pub cache_read: u64,
    /// Every token written to the cache (5 minutes and 1 hour).
    pub cache_write: u64,
    /// Of those, the ones written for an hour.
    #[serde(default)]
    pub cache_write_1h: u64,
}

impl Usage {
    /// Each count the larger of the two (one message's lines).
    pub fn max(self, o: Usage) -> Usage {
        Usage {
            input: self.input.max(o.input),
            output: self.output.max(o.output),
            cache_read: self.cache_read.max(o.cache_read),
            cache_write: self.cache_write.max(o.cache_write),
            cache_write_1h: self.cache_write_1h.max(o.cache_write_1h),
        }
    }

    pub fn tokens(&self) -> u64 {
        self.input.saturating_add(self.output).saturating_add(self.cache_read).saturating_add(self.cache_write)
    }
}

impl AddAssign for Usage {
    fn add_assign(&mut self, o: Usage) {
        self.input = self.input.saturating_add(o.input);
        self.output = self.output.saturating_add(o.output);
        self.cache_read = self.cache_read.saturating_add(o.cache_read);
        self.cache_write = self.cache_write.saturating_add(o.cache_write);
        self.cache_write_1h = self.cache_write_1h.saturating_add(o.cache_write_1h);
    }
}

/// Tokens and what the priced ones cost. Serialised as
/// `{"input", "output", "cacheRead", "cacheWrite", "usd"}`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Tally {
    pub usage: Usage,
    /// USD of the tokens of priced models (unpriced ones add none).
    pub usd: f64,
}

impl AddAssign for Tally {
    fn add_assign(&mut self, o: Tally) {
        self.usage += o.usage;
        self.usd += o.usd;
    }
}

impl Serialize for Tally {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(5))?;
        m.serialize_entry("input", &self.usage.input)?;
        m.serialize_entry("output", &self.usage.output)?;
        m.serialize_entry("cacheRead", &self.usage.cache_read)?;
        m.serialize_entry("cacheWrite", &self.usage.cache_write)?;
        m.serialize_entry("usd", &round_usd(self.usd))?;
        m.end()
    }
}

/// Dollars to the millionth.
pub fn round_usd(usd: f64) -> f64 {
    (usd * 1_000_000.0).round() / 1_000_000.0
}

/// Tallies by name, in the order first seen (serialised as an object).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Keyed(pub Vec<(String, Tally)>);

impl Keyed {
    pub fn add(&mut self, key: &str, t: Tally) {
        match self.0.iter_mut().find(|(k, _)| k == key) {
            Some((_, v)) => *v += t,
            None => self.0.push((key.to_owned(), t)),
        }
    }

    pub fn get(&self, key: &str) -> Option<&Tally> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Sorted by `order` (names it lacks last, in their order).
    pub fn sort_by_order(&mut self, order: &[&str]) {
        self.0.sort_by_key(|(k, _)| order.iter().position(|o| o == k).unwrap_or(usize::MAX));
    }

    /// Sorted by name, `first` ahead of the rest, a number in a name by its
    /// value (T2 before T10): the same rows in the same order whatever
    /// order the transcripts were read in.
    pub fn sort_by_name(&mut self, first: &str) {
        self.0.sort_by(|(a, _), (b, _)| (a != first).cmp(&(b != first)).then_with(|| natural_cmp(a, b)));
    }
}

/// `a` against `b` with each run of digits compared as a number.
fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    fn runs(s: &str) -> Vec<(bool, &str)> {
        let mut out = Vec::new();
        let mut start = 0;
        let bytes = s.as_bytes();
        for i in 1..=bytes.len() {
            if i == bytes.len() || bytes[i].is_ascii_digit() != bytes[start].is_ascii_digit() {
                out.push((bytes[start].is_ascii_digit(), &s[start..i]));
                start = i;
            }
        }
        out
    }
    fn key((digits, run): (bool, &str)) -> (bool, usize, &str) {
        let trimmed = if digits { run.trim_start_matches('0') } else { run };
        (!digits, if digits { trimmed.len() } else { 0 }, trimmed)
    }
    runs(a).into_iter().map(key).cmp(runs(b).into_iter().map(key)).then_with(|| a.cmp(b))
}

impl Serialize for Keyed {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// The agent a request is counted under when the session itself made it.
pub const MAIN_AGENT: &str = "main";

/// What one feature cost.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FeatureCost {
    pub feature: String,
    pub total: Tally,
    /// By phase (a pipeline's: by state), in the workflow's order.
    pub phases: Keyed,
    /// What the feature's sessions used outside every phase window.
    pub outside: Tally,
    pub tasks: Keyed,
    /// By agent type (`main`: the session itself).
    pub agents: Keyed,
    pub models: Keyed,
    /// Models with no price: counted in tokens, not in dollars.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unpriced: Vec<String>,
    /// The sessions whose requests it counts.
    pub sessions: Vec<String>,
}

impl FeatureCost {
    pub fn new(feature: &str) -> FeatureCost {
        FeatureCost { feature: feature.to_owned(), ..FeatureCost::default() }
    }

    /// Counts one request at its place.
    pub fn add(&mut self, r: &Request<'_>, prices: &BTreeMap<String, Price>) {
        let t = priced(r.usage, r.model, prices, &mut self.unpriced);
        self.total += t;
        match r.phase {
            Some(p) => self.phases.add(p, t),
            None => self.outside += t,
        }
        if let Some(task) = r.task {
            self.tasks.add(task, t);
        }
        self.agents.add(r.agent, t);
        self.models.add(r.model, t);
        // A transcript's requests come together: its session is the last.
        if self.sessions.last().is_none_or(|s| s != r.session) && !self.sessions.iter().any(|s| s == r.session) {
            self.sessions.push(r.session.to_owned());
        }
    }
}

/// One request at its place in a feature.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// None: outside every phase window.
    pub phase: Option<&'a str>,
    pub task: Option<&'a str>,
    /// [`MAIN_AGENT`] or a sub-agent's type.
    pub agent: &'a str,
    pub model: &'a str,
    pub session: &'a str,
    pub usage: Usage,
}

/// A request's tally; an unpriced model is named in `unpriced`, once.
pub fn priced(usage: Usage, model: &str, prices: &BTreeMap<String, Price>, unpriced: &mut Vec<String>) -> Tally {
    match find_price(prices, model) {
        Some(p) => Tally { usage, usd: p.usd(&usage) },
        None => {
            if !unpriced.iter().any(|m| m == model) {
                unpriced.push(model.to_owned());
            }
            Tally { usage, usd: 0.0 }
        }
    }
}

/// A feature's sub-agent task from a spawning prompt: phasegate's task
/// context package names them (`FEATURE: 001-a (…)` and `TASK: T2: …`).
pub fn task_of_prompt(prompt: &str) -> Option<(String, String)> {
    let feature = prompt.lines().find_map(|l| l.strip_prefix("FEATURE: "))?.split_whitespace().next()?;
    let task = prompt.lines().find_map(|l| l.strip_prefix("TASK: "))?.split(':').next()?.trim();
    (!feature.is_empty() && !task.is_empty() && !task.contains(' ')).then(|| (feature.to_owned(), task.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_feature_counts_its_requests_by_phase_task_agent_and_names_what_is_unpriced() {
        let prices = default_prices();
        let mut c = FeatureCost::new("001-a");
        let u = Usage { input: 100_000, output: 0, cache_read: 0, cache_write: 0, cache_write_1h: 0 };
        let r = |phase, task, agent, model, session| Request { phase, task, agent, model, session, usage: u };
        c.add(&r(Some("specify"), None, MAIN_AGENT, "claude-sonnet-4-5", "s1"), &prices);
        c.add(&r(Some("implement"), Some("T1"), "phasegate:task-implementer", "claude-sonnet-4-5", "s1"), &prices);
        c.add(&r(None, None, MAIN_AGENT, "claude-next-9", "s2"), &prices);
        assert_eq!(c.total.usage.input, 300_000);
        assert!((c.total.usd - 0.6).abs() < 1e-9, "the unpriced model adds no dollars: {}", c.total.usd);
        assert_eq!(c.unpriced, ["claude-next-9"]);
        assert_eq!(c.outside.usage.input, 100_000);
        assert_eq!(c.tasks.get("T1").unwrap().usage.input, 100_000);
        assert_eq!(c.agents.get(MAIN_AGENT).unwrap().usage.input, 200_000);
        let json = serde_json::to_value(&c).unwrap();
        assert_eq!(
            json["phases"]["specify"],
            serde_json::json!({"input": 100000, "output": 0, "cacheRead": 0, "cacheWrite": 0, "usd": 0.3})
        );
        assert_eq!(json["sessions"], serde_json::json!(["s1", "s2"]));
    }

    #[test]
    fn keyed_rows_sort_by_name_with_main_first_and_numbers_by_value() {
        let mut k = Keyed::default();
        for name in ["T10", "phasegate:task-implementer", "T2", MAIN_AGENT, "phasegate:chain-reviewer", "T1"] {
            k.add(name, Tally::default());
        }
        k.sort_by_name(MAIN_AGENT);
        let names: Vec<&str> = k.0.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, [MAIN_AGENT, "T1", "T2", "T10", "phasegate:chain-reviewer", "phasegate:task-implementer"]);
    }

    #[test]
    fn a_task_context_package_names_its_feature_and_task() {
        let p = "FEATURE: 001-search (docs/features/001-search); work in /r\nCONTEXT:\n...\nTASK: T2: Page the results\nFiles: a.rs\n";
        assert_eq!(task_of_prompt(p), Some(("001-search".into(), "T2".into())));
        assert_eq!(task_of_prompt("Review the design."), None);
    }
}
