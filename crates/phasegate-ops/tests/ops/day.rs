//! A day of real use, lived on the test clock (issue "A day of real use
//! stays quiet and true"): twenty sessions start, prompt, edit, stop and
//! end, some vanish without SessionEnd (one holding the lease of a task's
//! file), features go through their phases, a pipeline runs to completion,
//! a task fails, a retrospective is recorded, and the monitor checks every
//! few minutes. At the end of the day: no session that ended is live or
//! alerted on, no alert names a session that held nothing, a handful of
//! events at most are pending and each names something still actionable,
//! every request the sessions made is counted once where it belongs (a
//! phase, a task, or no feature at all), and a new session is told little.

use std::cell::RefCell;
use std::collections::BTreeSet;

use phasegate_core::coordination::{Alert, AlertDetails, Presence};
use phasegate_core::{Mode, Phase};
use phasegate_ops::coordination::events;
use phasegate_ops::feature::{lifecycle, phase};
use phasegate_ops::hooks::{self, HookInput, ToolVote};
use phasegate_ops::oversight::report::Column;
use phasegate_ops::oversight::{monitor, view};
use phasegate_ops::questions::ask::Interaction;
use phasegate_ops::tasks::build;
use phasegate_ops::tasks::marks::{self, MarkAction};
use serde_json::json;

use crate::kit::Repo;
use crate::pipeline::{PROMISE, S as PIPELINE_SESSION, approve_code, stop_of, to_loop};

fn input(t: &Repo, session: &str, event: &str) -> HookInput {
    HookInput {
        session_id: Some(session.to_owned()),
        cwd: Some(t.root().to_owned()),
        hook_event_name: Some(event.to_owned()),
        source: Some("startup".into()),
        transcript_path: Some(transcript(t, session).display().to_string()),
        ..HookInput::default()
    }
}

/// Where Claude Code writes the session's transcript.
fn transcript(t: &Repo, session: &str) -> std::path::PathBuf {
    t.claude_dir().join("projects").join("day").join(format!("{session}.jsonl"))
}

/// The day: the repository, and what the sessions did.
struct Day {
    t: Repo,
    /// Sessions that ended through SessionEnd.
    ended: RefCell<BTreeSet<String>>,
    /// Sessions that vanished holding nothing.
    vanished_empty: RefCell<BTreeSet<String>>,
    /// Sessions that vanished holding something.
    vanished_holding: RefCell<BTreeSet<String>>,
    /// Sessions at work: each runs a tool now and then (a hook, so a
    /// heartbeat) while time passes.
    working: RefCell<BTreeSet<String>>,
    /// Input tokens the sessions' requests used, by where they belong
    /// (`search/specify`, `search/T1`, `none` for a session that never
    /// turned to a feature).
    spent: RefCell<std::collections::BTreeMap<String, u64>>,
}

impl Day {
    fn session(i: usize) -> String {
        format!("3f2a1b{i:02}-5d4e-4f00-8a7b-0123456789ab")
    }

    /// `minutes` pass, with the plugin's monitor checking every 2 minutes
    /// when something ran in the meantime.
    fn pass(&self, minutes: i64) {
        for _ in 0..minutes / 2 {
            self.t.clock.advance(2);
            for s in self.working.borrow().iter() {
                let mut i = input(&self.t, s, "PostToolUse");
                i.tool_name = Some("Read".into());
                hooks::post_tool_use(&i, &self.t.env_as(s));
            }
            monitor::check(&self.t.env(), true).unwrap();
        }
        if minutes % 2 == 1 {
            self.t.clock.advance(1);
        }
    }

    /// A request of `s` now, as Claude Code writes it (a message over two
    /// lines sharing its id), using `tokens` input tokens; `at`: where it
    /// belongs.
    fn spend(&self, s: &str, tokens: u64, at: &str) {
        use std::io::Write;
        let path = transcript(&self.t, s);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let n = self.spent.borrow().values().count();
        let id = format!("msg_{s}_{n}_{tokens}");
        let mut f = std::fs::OpenOptions::new().create(true).append(true).open(&path).unwrap();
        for block in ["thinking", "tool_use"] {
            let line = json!({
                "type": "assistant", "sessionId": s, "requestId": format!("req_{id}"),
                "timestamp": phasegate_core::time::stamp(self.t.clock.now()),
                "message": {"id": id, "model": "claude-sonnet-4-5", "role": "assistant",
                            "content": [{"type": block}],
                            "usage": {"input_tokens": tokens, "output_tokens": tokens / 10,
                                      "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}}
            });
            writeln!(f, "{line}").unwrap();
        }
        *self.spent.borrow_mut().entry(at.to_owned()).or_default() += tokens;
    }

    fn start(&self, s: &str) -> String {
        self.working.borrow_mut().insert(s.to_owned());
        hooks::session_start(&input(&self.t, s, "SessionStart"), &self.t.env_as(s), None, None)
    }

    fn prompt(&self, s: &str) -> String {
        let mut i = input(&self.t, s, "UserPromptSubmit");
        i.prompt = Some("go on".into());
        hooks::user_prompt(&i, &self.t.env_as(s))
    }

    fn write(&self, s: &str, rel: &str) -> ToolVote {
        let mut i = input(&self.t, s, "PreToolUse");
        i.tool_name = Some("Write".into());
        i.tool_input = Some(json!({"file_path": self.t.path(rel), "content": "x"}));
        let vote = hooks::pre_tool_use(&i, &self.t.env_as(s));
        if !matches!(vote, ToolVote::Deny(_)) {
            self.t.write(rel, &format!("written by {s}\n"));
        }
        vote
    }

    /// A phase of `feature` run by `s`: started, its document written, done.
    fn phase(&self, s: &str, feature: &str, p: Phase, minutes: i64) {
        phase::start(&self.t.env_as(s), phase::Target::Existing(Some(feature)), p, Default::default()).unwrap();
        self.prompt(s);
        self.t.clock.advance_secs(30);
        self.spend(s, 1000 * (minutes as u64), &format!("{feature}/{p}"));
        if let Some(doc) = match p {
            Phase::Brainstorm => Some("brainstorm.md"),
            Phase::Specify => Some("spec.md"),
            Phase::Design => Some("design.md"),
            Phase::CreatePlan => Some("plan.md"),
            Phase::CreateTasks | Phase::Implement | Phase::Verify | Phase::Finish => None,
        } {
            self.t.write(&Repo::in_feature(feature, doc), &format!("# {p}\n"));
        }
        self.pass(minutes);
        phase::complete(&self.t.env_as(s), Some(feature), p, Default::default()).unwrap();
    }

    fn stop(&self, s: &str) {
        let mut i = input(&self.t, s, "Stop");
        i.last_assistant_message = Some("Done for now.".into());
        hooks::stop(&i, &self.t.env_as(s), None, None);
    }

    /// The terminal is closed without SessionEnd.
    fn vanish(&self, s: &str, holding: bool) {
        self.working.borrow_mut().remove(s);
        match holding {
            true => self.vanished_holding.borrow_mut().insert(s.to_owned()),
            false => self.vanished_empty.borrow_mut().insert(s.to_owned()),
        };
    }

    fn end(&self, s: &str) {
        self.working.borrow_mut().remove(s);
        hooks::session_end(&input(&self.t, s, "SessionEnd"), &self.t.env_as(s));
        self.ended.borrow_mut().insert(s.to_owned());
    }

    /// A short session of its own: it starts, prompts, edits a file of its
    /// own, stops and ends (or, with `vanish`, its terminal is closed).
    fn errand(&self, i: usize, vanish: bool) {
        let s = Day::session(i);
        // No session is told about an earlier errand that vanished.
        for told in [self.start(&s), self.prompt(&s)] {
            for quiet in ["/phasegate:pm", "omponent", "not responding", "stopped answering"] {
                assert!(!told.contains(quiet), "errand {i} is told {quiet}: {told}");
            }
        }
        self.pass(1);
        self.spend(&s, 7, "none");
        assert_eq!(self.write(&s, &format!("notes/errand-{i}.md")), ToolVote::Pass);
        self.stop(&s);
        self.pass(3);
        match vanish {
            // Its lease is held until the monitor expires it.
            true => self.vanish(&s, true),
            false => self.end(&s),
        }
    }
}

#[test]
#[allow(clippy::print_stderr, reason = "what a new session is told at the end of the day belongs in the test output")]
fn a_day_of_real_use_stays_quiet_and_true() {
    let t = Repo::new();
    let day = Day {
        t,
        ended: RefCell::default(),
        vanished_empty: RefCell::default(),
        vanished_holding: RefCell::default(),
        working: RefCell::default(),
        spent: RefCell::default(),
    };
    let env = |s: &str| day.t.env_as(s);

    // 08:00 Three features are created; one is brainstormed and specified.
    let search = day.t.feature("search", Mode::Quick);
    let billing = day.t.feature("billing", Mode::Quick);
    let export = day.t.feature("export", Mode::Quick);
    let alice = Day::session(1);
    day.start(&alice);
    day.prompt(&alice);
    for p in [Phase::Brainstorm, Phase::Specify] {
        day.phase(&alice, &search, p, 5);
    }
    day.stop(&alice);
    day.end(&alice);

    // A session that only looks: opens, reads the context, closes its terminal.
    let looker = Day::session(2);
    day.start(&looker);
    day.vanish(&looker, false);
    day.pass(10);

    // 08:30 Bob designs, plans and writes the tasks of search.
    let bob = Day::session(3);
    let context = day.start(&bob);
    assert!(!context.contains(&looker), "a session that vanished holding nothing is not named: {context}");
    for p in [Phase::Design, Phase::CreatePlan] {
        day.phase(&bob, &search, p, 7);
    }
    day.t.write(
        &Repo::in_feature(&search, "tasks.md"),
        "## Phase 1 (parallel)\n\n- [ ] T1: The index [`files: src/index.rs`]\n- [ ] T2: The query [`files: src/query.rs`]\n- [ ] T3: The ranking [`files: src/rank.rs`]\n",
    );
    day.phase(&bob, &search, Phase::CreateTasks, 7);
    day.t.commit_all("search: tasks");
    day.end(&bob);

    // 09:00 Carol implements: T1 fails once, then passes.
    let carol = Day::session(4);
    day.start(&carol);
    phase::start(&env(&carol), phase::Target::Existing(Some(&search)), Phase::Implement, Default::default()).unwrap();
    marks::mark(&env(&carol), Some(&search), "T1", MarkAction::Start, None).unwrap();
    assert_eq!(day.write(&carol, "src/index.rs"), ToolVote::Pass);
    day.t.clock.advance_secs(30);
    day.spend(&carol, 40_000, &format!("{search}/T1"));
    day.pass(6);
    build::fail(
        &env(&carol),
        Some(&search),
        "T1",
        Some("test result: FAILED. 3 passed; 1 failed"),
        Some("cargo test"),
        false,
        Interaction::Headless,
    )
    .unwrap();
    let told = day.prompt(&carol);
    assert!(!told.contains("task.failed"), "its own failure is not offered back to it: {told}");
    marks::mark(&env(&carol), Some(&search), "T1", MarkAction::Start, None).unwrap();
    day.pass(4);
    marks::mark(&env(&carol), Some(&search), "T1", MarkAction::Complete, None).unwrap();

    // Dave takes T2 and his terminal dies holding the lease of its file.
    let dave = Day::session(5);
    day.start(&dave);
    marks::mark(&env(&dave), Some(&search), "T2", MarkAction::Start, None).unwrap();
    assert_eq!(day.write(&dave, "src/query.rs"), ToolVote::Pass);
    day.t.clock.advance_secs(30);
    day.spend(&dave, 300, &format!("{search}/T2"));
    day.vanish(&dave, true);
    // Carol wants that file meanwhile and is refused, naming Dave.
    let ToolVote::Deny(reason) = day.write(&carol, "src/query.rs") else { panic!("Dave leases src/query.rs") };
    assert!(reason.contains(&dave[..8]), "{reason}");
    day.pass(1);
    marks::mark(&env(&carol), Some(&search), "T3", MarkAction::Start, None).unwrap();
    day.write(&carol, "src/rank.rs");
    day.pass(8);
    marks::mark(&env(&carol), Some(&search), "T3", MarkAction::Complete, None).unwrap();
    // The monitor gives Dave's task to the live session; Carol finishes it.
    day.pass(10);
    let t2 = std::fs::read_to_string(day.t.path(&Repo::in_feature(&search, "tasks.md"))).unwrap();
    assert!(t2.contains("- [ ] T2"), "Dave's task is pending again: {t2}");
    marks::mark(&env(&carol), Some(&search), "T2", MarkAction::Start, None).unwrap();
    assert_eq!(day.write(&carol, "src/query.rs"), ToolVote::Pass, "Dave's lease expired");
    marks::mark(&env(&carol), Some(&search), "T2", MarkAction::Complete, None).unwrap();
    phase::complete(&env(&carol), Some(&search), Phase::Implement, Default::default()).unwrap();
    phase::start(&env(&carol), phase::Target::Existing(Some(&search)), Phase::Verify, Default::default()).unwrap();
    phase::complete(&env(&carol), Some(&search), Phase::Verify, Default::default()).unwrap();
    day.t.prove(&search);
    lifecycle::finish(&env(&carol), Some(&search)).unwrap();
    day.end(&carol);

    // 10:30 The retrospective of search.
    let erin = Day::session(6);
    day.start(&erin);
    let reply = json!({"summary": "The query needed its index first."}).to_string();
    phasegate_ops::retro::record(&env(&erin), Some(&search), &reply).unwrap();
    day.t.clock.advance_secs(30);
    // After finish: the feature's, outside its phases.
    day.spend(&erin, 900, &format!("{search}/outside"));
    day.end(&erin);

    // 11:00 A pipeline runs to completion in its own session.
    day.pass(20);
    let pipeline = to_loop(&day.t, "echo 'All tests passed'", 5);
    day.start(PIPELINE_SESSION);
    approve_code(&day.t, &pipeline);
    day.t.clock.advance_secs(30);
    day.spend(PIPELINE_SESSION, 5000, &format!("{pipeline}/implementing_loop"));
    day.pass(4);
    let done = stop_of(&day.t, PIPELINE_SESSION, &format!("All done. {PROMISE}"), false);
    assert!(format!("{done:?}").contains("complete"), "{done:?}");
    phasegate_ops::pipeline::commit(&day.t.env_as(PIPELINE_SESSION), Some(&pipeline)).unwrap();
    day.end(PIPELINE_SESSION);

    // Billing is abandoned after its brainstorm; export is brainstormed.
    let frank = Day::session(7);
    day.start(&frank);
    day.phase(&frank, &billing, Phase::Brainstorm, 3);
    lifecycle::abandon(&env(&frank), Some(&billing)).unwrap();
    day.phase(&frank, &export, Phase::Brainstorm, 3);
    day.phase(&frank, &export, Phase::Specify, 3);
    day.end(&frank);

    // 12:00 to 18:00 Errands: short sessions, some closed without SessionEnd.
    for i in 8..=20 {
        let vanish = i % 3 == 0;
        day.errand(i, vanish);
        day.pass(25);
    }
    // The evening: hours with nothing running but the monitor.
    day.pass(120);

    // At the end of the day.
    let o = view::overview(&day.t.env()).unwrap();
    for s in &o.sessions {
        if day.ended.borrow().contains(&s.id) {
            assert_eq!(s.presence, Presence::Ended, "{} ended: {:?}", s.id, s.presence);
        }
        assert_ne!(s.presence, Presence::Live, "nobody runs any more: {} is {:?}", s.id, s.presence);
    }
    let alerts = day.t.json_lines(".git/phasegate/monitor/alerts.jsonl");
    let mut named: BTreeSet<String> = BTreeSet::new();
    for a in &alerts {
        let alert: Alert = serde_json::from_value(a.clone()).unwrap();
        assert!(!alert.message.to_lowercase().contains("component"), "{}", alert.message);
        if let AlertDetails::SessionDown(s) = alert.details {
            named.insert(s.status.session.to_string());
            if s.status.session.as_str() == dave {
                assert_eq!(
                    alert.message,
                    format!(
                        "Session {} stopped answering 5 min ago; it held task T2 of {search}; session {} waits for a file it leased; src/query.rs, which it wrote, is not committed",
                        &dave[..8],
                        &carol[..8]
                    )
                );
            }
        }
    }
    // A day stays quiet: the errands that vanished after writing a notes
    // file held nothing another session waits for; their leases expired
    // without an alert.
    assert_eq!(named, BTreeSet::from([dave.clone()]), "Dave vanished holding a task; nobody else is alerted on");
    assert!(named.iter().all(|s| !day.ended.borrow().contains(s)), "no ended session is alerted on: {named:?}");
    assert!(day.vanished_empty.borrow().iter().all(|s| !named.contains(s)));

    let pending = events::pending(&day.t.env(), None).unwrap().events;
    let listed: Vec<String> = pending.iter().map(|e| format!("{} {:?}", e.event_type, e.feature)).collect();
    assert!(pending.len() <= 3, "a handful at most: {listed:?}");
    for e in &pending {
        // Each names something still to do: the pipeline's retrospective,
        // or the next phase of export, the feature at work.
        let feature = e.feature.as_deref().unwrap_or_else(|| panic!("about no feature: {listed:?}"));
        let command = e.suggestion.as_ref().and_then(|s| s.command.clone());
        match feature {
            f if f == pipeline => assert_eq!(
                (e.event_type.as_str(), command.as_deref()),
                ("build.completed", Some("/phasegate:retro")),
                "{listed:?}"
            ),
            f if f == export => {
                let next = phasegate_ops::feature::status::next(&day.t.env(), Some(&export)).unwrap();
                assert_eq!(command, next.command.map(|c| c.to_string()), "the feature's own next step: {listed:?}");
            }
            other => panic!("{other} has nothing left to do: {listed:?}"),
        }
    }
    let summary = view::summary(&day.t.env()).unwrap_or_default();
    assert!(summary.starts_with("Sessions: 0 live") || summary.is_empty(), "{summary}");

    // Every request counted once, where it belongs: each phase's share in
    // its phase, T1's in T1, the errands' in no feature.
    let costs = phasegate_ops::cost::cost(&day.t.env(), None).unwrap();
    assert!(costs.problems.is_empty(), "{:?}", costs.problems);
    let spent = day.spent.borrow();
    let input_of = |feature: &str, phase: &str| {
        costs.feature(feature).and_then(|f| f.phases.get(phase)).map_or(0, |t| t.usage.input)
    };
    for (at, tokens) in spent.iter() {
        match at.split_once('/') {
            Some((f, task @ ("T1" | "T2"))) => {
                let used = costs.feature(f).and_then(|c| c.tasks.get(task)).map_or(0, |t| t.usage.input);
                assert_eq!(used, *tokens, "{at}: {:?}", costs.feature(f).map(|c| &c.tasks));
            }
            Some((f, "outside")) => {
                assert_eq!(costs.feature(f).map_or(0, |c| c.outside.usage.input), *tokens, "{at}");
            }
            Some((f, p)) => assert_eq!(input_of(f, p), *tokens, "{at}"),
            None => assert_eq!(costs.unattributed.usage.input, *tokens, "the errands turned to no feature"),
        }
    }
    assert_eq!(costs.total.usage.input, spent.values().sum::<u64>(), "each request once");
    let search_cost = costs.feature(&search).unwrap();
    assert_eq!(
        search_cost.total.usage.input,
        spent.iter().filter(|(k, _)| k.starts_with(&search)).map(|(_, v)| v).sum::<u64>()
    );
    assert!(search_cost.total.usd > 0.0);
    drop(spent);
    // The report's page of the day: export at work, search done, billing
    // abandoned, nothing it could not read.
    let page = phasegate_ops::oversight::report::gather(&day.t.env()).unwrap();
    let column_of = |f: &str| page.cards.iter().find(|c| c.row.name == f).map(|c| c.column);
    assert_eq!(column_of(&export), Some(Column::Phase(Phase::Specify)));
    assert_eq!(column_of(&search), Some(Column::Done));
    assert_eq!((column_of(&billing), page.abandoned), (None, 1));
    assert!(page.unreadable.is_empty() && page.costs.problems.is_empty() && page.overview.problems.is_empty());

    // A new session the next morning, with one feature active.
    day.pass(10);
    let newcomer = Day::session(21);
    let context = day.start(&newcomer);
    eprintln!("A new session at the end of the day is told ({} bytes):\n{context}", context.len());
    assert!(context.contains(&export), "{context}");
    assert!(context.len() < 600, "{} bytes: {context}", context.len());
    for quiet in ["not responding", "/phasegate:pm", "other session", "LOADING"] {
        assert!(!context.contains(quiet), "{quiet}: {context}");
    }
}
