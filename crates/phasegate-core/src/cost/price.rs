//! Prices as data: USD per million tokens for each model, a default table
//! (dated, from Anthropic's published prices) that `.phasegate/cost.config.json`
//! overrides. A model with no price is counted in tokens and named as
//! unpriced, never priced at zero.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Usage;

/// When the default table was last checked against Anthropic's pricing page
/// (its newest change then: Sonnet 5.5's cache reads, 2026-10-07).
pub const PRICES_AS_OF: &str = "2026-10-24";

/// USD per million tokens.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Price {
    pub input: f64,
    pub output: f64,
    pub cache_read: f64,
    /// A 5-minute cache write.
    pub cache_write: f64,
    /// A 1-hour cache write (default: twice the input price, as Anthropic
    /// prices it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_write_1h: Option<f64>,
    /// A higher tier for long prompts: a request whose prompt (input, cache
    /// reads and writes) is over `thresholdTokens` pays these rates on all
    /// its tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub long_prompt: Option<LongPrompt>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LongPrompt {
    pub threshold_tokens: u64,
    pub input: f64,
    pub output: f64,
    pub cache_read: f64,
    pub cache_write: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_write_1h: Option<f64>,
}

impl Price {
    pub(super) const fn flat(input: f64, output: f64, cache_write: f64, cache_write_1h: f64, cache_read: f64) -> Price {
        Price { input, output, cache_read, cache_write, cache_write_1h: Some(cache_write_1h), long_prompt: None }
    }

    /// What one request with `u` costs: never NaN nor infinite (a price
    /// read from a configuration is at most [`MAX_PRICE`]; a token count
    /// of zero costs nothing at any price).
    pub fn usd(&self, u: &Usage) -> f64 {
        let prompt = u.input.saturating_add(u.cache_read).saturating_add(u.cache_write);
        let (input, output, read, write, write_1h) = match self.long_prompt {
            Some(l) if prompt > l.threshold_tokens => {
                (l.input, l.output, l.cache_read, l.cache_write, l.cache_write_1h.unwrap_or(l.input * 2.0))
            }
            _ => (
                self.input,
                self.output,
                self.cache_read,
                self.cache_write,
                self.cache_write_1h.unwrap_or(self.input * 2.0),
            ),
        };
        let five_min = u.cache_write.saturating_sub(u.cache_write_1h);
        let at = |tokens: u64, rate: f64| if tokens == 0 { 0.0 } else { tokens as f64 * rate };
        let usd = (at(u.input, input)
            + at(u.output, output)
            + at(u.cache_read, read)
            + at(five_min, write)
            + at(u.cache_write_1h, write_1h))
            / 1_000_000.0;
        if usd.is_nan() { 0.0 } else { usd.min(f64::MAX) }
    }

    /// Each rate (USD per million tokens), named as the configuration
    /// names it.
    fn rates(&self) -> Vec<(&'static str, f64)> {
        let mut out = vec![
            ("input", self.input),
            ("output", self.output),
            ("cacheRead", self.cache_read),
            ("cacheWrite", self.cache_write),
        ];
        out.extend(self.cache_write_1h.map(|r| ("cacheWrite1h", r)));
        if let Some(l) = &self.long_prompt {
            out.extend([
                ("longPrompt.input", l.input),
                ("longPrompt.output", l.output),
                ("longPrompt.cacheRead", l.cache_read),
                ("longPrompt.cacheWrite", l.cache_write),
            ]);
            out.extend(l.cache_write_1h.map(|r| ("longPrompt.cacheWrite1h", r)));
        }
        out
    }

    /// The first rate that is not a price (negative, past [`MAX_PRICE`]):
    /// its name and value.
    pub(crate) fn out_of_bounds(&self) -> Option<(&'static str, f64)> {
        self.rates().into_iter().find(|(_, r)| !(0.0..=MAX_PRICE).contains(r))
    }
}

/// The highest price a configuration may give (USD per million tokens):
/// over a hundred times the dearest model's, and low enough that no count
/// of tokens makes a sum infinite.
pub const MAX_PRICE: f64 = 10_000.0;

const SONNET_4: Price = Price {
    input: 3.0,
    output: 15.0,
    cache_read: 0.3,
    cache_write: 3.75,
    cache_write_1h: Some(6.0),
    long_prompt: Some(LongPrompt {
        threshold_tokens: 200_000,
        input: 6.0,
        output: 22.5,
        cache_read: 0.6,
        cache_write: 7.5,
        cache_write_1h: Some(12.0),
    }),
};

/// The default prices, by model id as Claude Code records it (a dated id,
/// `claude-sonnet-4-5-20250929`, and a `[1m]` variant match their base id).
pub fn defaults() -> BTreeMap<String, Price> {
    let table: &[(&str, Price)] = &[
        // Fable and Mythos 5.1: cache hits at 0.025× input.
        ("claude-fable-5-1", Price::flat(10.0, 50.0, 12.5, 20.0, 0.25)),
        ("claude-mythos-5-1", Price::flat(10.0, 50.0, 12.5, 20.0, 0.25)),
        ("claude-fable-5", Price::flat(10.0, 50.0, 12.5, 20.0, 1.0)),
        ("claude-mythos-5", Price::flat(10.0, 50.0, 12.5, 20.0, 1.0)),
        ("claude-opus-5-5", Price::flat(4.0, 20.0, 5.0, 8.0, 0.2)),
        ("claude-opus-5", Price::flat(5.0, 25.0, 6.25, 10.0, 0.5)),
        ("claude-opus-4-8", Price::flat(5.0, 25.0, 6.25, 10.0, 0.5)),
        ("claude-opus-4-7", Price::flat(5.0, 25.0, 6.25, 10.0, 0.5)),
        ("claude-opus-4-6", Price::flat(5.0, 25.0, 6.25, 10.0, 0.5)),
        ("claude-opus-4-5", Price::flat(5.0, 25.0, 6.25, 10.0, 0.5)),
        ("claude-opus-4-1", Price::flat(15.0, 75.0, 18.75, 30.0, 1.5)),
        ("claude-opus-4", Price::flat(15.0, 75.0, 18.75, 30.0, 1.5)),
        ("claude-opus-4-0", Price::flat(15.0, 75.0, 18.75, 30.0, 1.5)),
        ("claude-3-opus", Price::flat(15.0, 75.0, 18.75, 30.0, 1.5)),
        ("claude-sonnet-5-5", Price::flat(2.0, 10.0, 2.5, 4.0, 0.1)),
        ("claude-sonnet-5", Price::flat(2.0, 10.0, 2.5, 4.0, 0.2)),
        ("claude-sonnet-4-6", Price::flat(3.0, 15.0, 3.75, 6.0, 0.3)),
        // Sonnet 4 and 4.5: a prompt over 200K tokens (the 1M context) at
        // the long-context rates.
        ("claude-sonnet-4-5", SONNET_4),
        ("claude-sonnet-4", SONNET_4),
        ("claude-sonnet-4-0", SONNET_4),
        ("claude-3-7-sonnet", Price::flat(3.0, 15.0, 3.75, 6.0, 0.3)),
        ("claude-3-5-sonnet", Price::flat(3.0, 15.0, 3.75, 6.0, 0.3)),
        (
            "claude-haiku-5-5",
            Price {
                input: 0.1,
                output: 0.5,
                cache_read: 0.01,
                cache_write: 0.125,
                cache_write_1h: Some(0.2),
                long_prompt: Some(LongPrompt {
                    threshold_tokens: 100_000,
                    input: 0.5,
                    output: 2.5,
                    cache_read: 0.05,
                    cache_write: 0.625,
                    cache_write_1h: Some(1.0),
                }),
            },
        ),
        ("claude-haiku-4-5", Price::flat(1.0, 5.0, 1.25, 2.0, 0.1)),
        ("claude-3-5-haiku", Price::flat(0.8, 4.0, 1.0, 1.6, 0.08)),
        ("claude-3-haiku", Price::flat(0.25, 1.25, 0.3, 0.5, 0.03)),
    ];
    table.iter().map(|(id, p)| ((*id).to_owned(), *p)).collect()
}

/// A model's price in `table`: its own id, else its base id (a dated id
/// `<base>-YYYYMMDD`, a `-latest` alias, a `[1m]` variant).
pub fn find<'a>(table: &'a BTreeMap<String, Price>, model: &str) -> Option<&'a Price> {
    if let Some(p) = table.get(model) {
        return Some(p);
    }
    let mut base = model.trim_end_matches("[1m]").trim_end_matches("-latest");
    if let Some(p) = table.get(base) {
        return Some(p);
    }
    if let Some((head, date)) = base.rsplit_once('-')
        && date.len() == 8
        && date.bytes().all(|b| b.is_ascii_digit())
    {
        base = head;
    }
    table.get(base)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(input: u64, output: u64, cache_read: u64, cache_write: u64, cache_write_1h: u64) -> Usage {
        Usage { input, output, cache_read, cache_write, cache_write_1h }
    }

    #[test]
    fn ids_find_their_price_dated_or_not_and_nothing_is_guessed() {
        let t = defaults();
        assert_eq!(find(&t, "claude-sonnet-4-5-20250929").unwrap().input, 3.0);
        assert_eq!(find(&t, "claude-sonnet-4-5[1m]").unwrap().input, 3.0);
        assert_eq!(find(&t, "claude-opus-4-20250514").unwrap().input, 15.0);
        assert_eq!(find(&t, "claude-opus-4-5-20251101").unwrap().input, 5.0, "not claude-opus-4's price");
        assert_eq!(find(&t, "claude-opus-5-5").unwrap().output, 20.0);
        assert_eq!(find(&t, "claude-3-5-haiku-latest").unwrap().input, 0.8);
        assert_eq!(find(&t, "claude-3-haiku-20240307").unwrap().cache_write, 0.3);
        assert!(find(&t, "claude-next-9").is_none());
        assert!(find(&t, "gpt-5").is_none());
    }

    #[test]
    fn each_kind_of_token_has_its_rate() {
        let sonnet = Price::flat(3.0, 15.0, 3.75, 6.0, 0.3);
        // 1M of each: 3 + 15 + 0.3 + 3.75 (5 min) = 22.05; with the write for an hour: 3 + 15 + 0.3 + 6.
        assert!((sonnet.usd(&u(1_000_000, 1_000_000, 1_000_000, 1_000_000, 0)) - 22.05).abs() < 1e-9);
        assert!((sonnet.usd(&u(1_000_000, 1_000_000, 1_000_000, 1_000_000, 1_000_000)) - 24.3).abs() < 1e-9);
        let haiku = defaults()["claude-haiku-5-5"];
        let short = haiku.usd(&u(50_000, 1_000, 40_000, 0, 0));
        let long = haiku.usd(&u(60_000, 1_000, 50_000, 0, 0));
        assert!((short - (0.005 + 0.0005 + 0.0004)).abs() < 1e-9, "{short}");
        assert!((long - (0.03 + 0.0025 + 0.0025)).abs() < 1e-9, "over 100,000 prompt tokens: the long tier, {long}");
    }

    #[test]
    fn a_price_is_never_nan_nor_infinite() {
        let huge = Price::flat(1e308, 1e308, 1e308, f64::INFINITY, 1e308);
        let usd = huge.usd(&u(10, 10, 10, 10, 0));
        assert!(usd.is_finite(), "{usd}");
        assert_eq!(Price::flat(1.0, 1.0, 1.0, 1.0, 1.0).usd(&u(0, 0, 0, 0, 0)), 0.0);
        assert_eq!(huge.out_of_bounds(), Some(("input", 1e308)));
        assert_eq!(defaults().values().find_map(Price::out_of_bounds), None, "the default table is in bounds");
    }
}
