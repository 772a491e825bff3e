//! The wait graph and its cycles (seed 004 §7.3, `check_deadlocks`): a
//! session denied a file waits for the file's holder; sessions that wait
//! for each other in a circle never move again.
//!
//! Design choices:
//! - Every elementary cycle is reported once, in its canonical rotation:
//!   it starts at its smallest session id, so the same circle found from
//!   another session is not a second deadlock. Two circles through the same
//!   sessions in different orders are two cycles.
//! - Cycles come sorted by their session lists: the same graph always gives
//!   the same alerts in the same order.
//! - A session waiting for itself (it holds the file it asks for) is not a
//!   deadlock: the edge is ignored.
//! - The message closes the circle: `Deadlock detected: a -> b -> a`. The
//!   seed joins its cycle list with ' -> ' and leaves open whether the list
//!   repeats its first node; repeating it reads as a circle and tells a
//!   two-session cycle from a chain.
//! - The search is a depth-first search from each session over larger ids
//!   only, bounded by [`MAX_CYCLES`] and [`MAX_STEPS`] so a pathological
//!   graph cannot stall a hook; with a few sessions each waiting for one
//!   holder neither bound is ever near.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::lease::LeasePath;
use crate::session::SessionId;

/// At most this many cycles are reported.
pub const MAX_CYCLES: usize = 64;
/// At most this many search steps are taken.
pub const MAX_STEPS: usize = 100_000;

/// `waiter` waits for `holder` to release `path`, since `since`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wait {
    pub waiter: SessionId,
    pub holder: SessionId,
    pub path: LeasePath,
    pub since: DateTime<Utc>,
}

/// Sessions waiting for each other in a circle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WaitCycle {
    /// The circle, starting at its smallest id, without repeating it.
    pub cycle: Vec<SessionId>,
    /// One wait per hop: `cycle[i]` waits for `cycle[i + 1]` (the last for
    /// the first); the earliest when a hop has several.
    pub waits: Vec<Wait>,
}

impl WaitCycle {
    /// `a -> b -> a`.
    pub fn chain(&self) -> String {
        let mut names: Vec<&str> = self.cycle.iter().map(SessionId::as_str).collect();
        if let Some(first) = names.first().copied() {
            names.push(first);
        }
        names.join(" -> ")
    }

    /// §7.3: `Deadlock detected: {' -> '.join(cycle)}`.
    pub fn message(&self) -> String {
        format!("Deadlock detected: {}", self.chain())
    }
}

/// Every cycle of the wait graph, once each, in a stable order.
pub(crate) fn find_cycles(waits: &[Wait]) -> Vec<WaitCycle> {
    let mut graph: BTreeMap<&SessionId, BTreeSet<&SessionId>> = BTreeMap::new();
    for w in waits.iter().filter(|w| w.waiter != w.holder) {
        graph.entry(&w.waiter).or_default().insert(&w.holder);
    }
    let mut search = Search { graph: &graph, found: Vec::new(), steps: 0 };
    for &start in graph.keys() {
        let mut path = vec![start];
        search.walk(start, &mut path);
    }
    let mut cycles: Vec<WaitCycle> = search
        .found
        .into_iter()
        .map(|ids| {
            let hops = (0..ids.len()).map(|i| (ids[i], ids[(i + 1) % ids.len()]));
            let waits = hops
                .map(|(from, to)| {
                    waits
                        .iter()
                        .filter(|w| w.waiter == *from && w.holder == *to)
                        .min_by(|a, b| (a.since, &a.path).cmp(&(b.since, &b.path)))
                        .expect("every hop of a cycle is an edge of the graph")
                        .clone()
                })
                .collect();
            WaitCycle { cycle: ids.into_iter().cloned().collect(), waits }
        })
        .collect();
    cycles.sort_by(|a, b| a.cycle.cmp(&b.cycle));
    cycles
}

struct Search<'a> {
    graph: &'a BTreeMap<&'a SessionId, BTreeSet<&'a SessionId>>,
    found: Vec<Vec<&'a SessionId>>,
    steps: usize,
}

impl<'a> Search<'a> {
    /// Extends `path` (which starts at its smallest node, `path[0]`) by
    /// every successor of `at`, recording the paths that lead back.
    fn walk(&mut self, at: &'a SessionId, path: &mut Vec<&'a SessionId>) {
        let start = path[0];
        let Some(next) = self.graph.get(at) else { return };
        for &n in next {
            if self.found.len() >= MAX_CYCLES || self.steps >= MAX_STEPS {
                return;
            }
            self.steps += 1;
            if n == start {
                self.found.push(path.clone());
            } else if n > start && !path.contains(&n) {
                path.push(n);
                self.walk(n, path);
                path.pop();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{TimeDelta, TimeZone};

    fn t(m: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 22, 10, 0, 0).unwrap() + TimeDelta::minutes(m)
    }

    fn wait(waiter: &str, holder: &str, path: &str, m: i64) -> Wait {
        Wait {
            waiter: SessionId::parse(waiter).unwrap(),
            holder: SessionId::parse(holder).unwrap(),
            path: LeasePath::parse(path).unwrap(),
            since: t(m),
        }
    }

    fn chains(waits: &[Wait]) -> Vec<String> {
        find_cycles(waits).iter().map(WaitCycle::chain).collect()
    }

    #[test]
    fn two_sessions_waiting_for_each_other_are_one_deadlock_with_the_seeds_message() {
        let waits = [wait("b", "a", "x.rs", 1), wait("a", "b", "y.rs", 2)];
        let cycles = find_cycles(&waits);
        assert_eq!(cycles.len(), 1);
        assert_eq!(cycles[0].message(), "Deadlock detected: a -> b -> a");
        assert_eq!(cycles[0].waits, [waits[1].clone(), waits[0].clone()]);
    }

    #[test]
    fn a_cycle_found_from_every_start_is_reported_once_from_its_smallest_id() {
        let waits = [wait("c", "a", "1", 0), wait("b", "c", "2", 0), wait("a", "b", "3", 0)];
        assert_eq!(chains(&waits), ["a -> b -> c -> a"]);
        // Any order of the input gives the same answer.
        let reversed: Vec<Wait> = waits.iter().rev().cloned().collect();
        assert_eq!(chains(&reversed), ["a -> b -> c -> a"]);
    }

    #[test]
    fn a_self_wait_is_not_a_deadlock() {
        assert!(find_cycles(&[wait("a", "a", "x.rs", 0)]).is_empty());
        assert_eq!(chains(&[wait("a", "a", "x", 0), wait("a", "b", "y", 0), wait("b", "a", "z", 0)]), ["a -> b -> a"]);
    }

    #[test]
    fn a_chain_without_a_circle_is_not_a_deadlock() {
        assert!(find_cycles(&[wait("a", "b", "x", 0), wait("b", "c", "y", 0)]).is_empty());
        assert!(find_cycles(&[]).is_empty());
    }

    #[test]
    fn separate_and_overlapping_cycles_come_sorted_and_each_once() {
        let waits = [
            wait("d", "e", "1", 0),
            wait("e", "d", "2", 0),
            wait("a", "b", "3", 0),
            wait("b", "a", "4", 0),
            wait("b", "c", "5", 0),
            wait("c", "a", "6", 0),
        ];
        assert_eq!(chains(&waits), ["a -> b -> a", "a -> b -> c -> a", "d -> e -> d"]);
    }

    #[test]
    fn a_hop_waited_for_twice_shows_the_earliest_wait() {
        let waits = [wait("a", "b", "late.rs", 5), wait("a", "b", "early.rs", 1), wait("b", "a", "z.rs", 3)];
        let c = &find_cycles(&waits)[0];
        assert_eq!(c.waits[0].path.as_str(), "early.rs");
    }

    #[test]
    fn a_dense_graph_stays_bounded() {
        let ids: Vec<String> = (0..12).map(|i| format!("s{i:02}")).collect();
        let mut waits = Vec::new();
        for a in &ids {
            for b in &ids {
                waits.push(wait(a, b, "f", 0));
            }
        }
        let cycles = find_cycles(&waits);
        assert_eq!(cycles.len(), MAX_CYCLES);
        let distinct: BTreeSet<&Vec<SessionId>> = cycles.iter().map(|c| &c.cycle).collect();
        assert_eq!(distinct.len(), cycles.len(), "no duplicates");
        assert!(cycles.iter().all(|c| c.cycle[0] == *c.cycle.iter().min().unwrap()), "canonical rotation");
    }
}
