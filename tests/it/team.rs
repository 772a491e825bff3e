//! A team across machines through the git remote (issue 34): a bare
//! repository as a file:// remote, or served by `git daemon` on 127.0.0.1,
//! and clones each with its own HOME (its own git user).

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::{Run, WORKFLOW_STATE};

const TASKS: &str = "# Tasks\n\n## Phase 1\n\n- [ ] T1: build the parser\n- [ ] T2: write the docs\n";

/// A remote and its clones.
struct Team {
    dir: tempfile::TempDir,
    url: String,
    daemon: Option<Child>,
}

fn git(dir: &Path, home: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("HOME", home)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

impl Team {
    /// A bare repository with one commit, reached as file://.
    fn new() -> Team {
        let dir = tempfile::tempdir().unwrap();
        let bare = dir.path().canonicalize().unwrap().join("remote.git");
        std::fs::create_dir_all(&bare).unwrap();
        git(&bare, dir.path(), &["init", "--bare", "--quiet", "--initial-branch=main"]);
        let url = format!("file://{}", bare.display());
        let team = Team { dir, url, daemon: None };
        let seed = team.home(0);
        let repo = team.root().join("seed");
        std::fs::create_dir_all(&repo).unwrap();
        git(&repo, &seed, &["init", "--quiet", "--initial-branch=main"]);
        std::fs::write(repo.join("README.md"), "team\n").unwrap();
        git(&repo, &seed, &["add", "."]);
        git(&repo, &seed, &["commit", "--quiet", "-m", "init"]);
        git(&repo, &seed, &["push", "--quiet", &team.url, "main"]);
        team
    }

    /// The same, served by `git daemon` on 127.0.0.1. git ships it; a
    /// machine without it fails here, never skips the case.
    fn served() -> Team {
        let mut team = Team::new();
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        team.start_daemon(port);
        team.url = format!("git://127.0.0.1:{port}/remote.git");
        team
    }

    /// Starts `git daemon` on `port`, serving the remote; waits until it
    /// answers.
    fn start_daemon(&mut self, port: u16) {
        let exec = Command::new("git").arg("--exec-path").output().expect("git --exec-path");
        let exec = PathBuf::from(String::from_utf8_lossy(&exec.stdout).trim());
        assert!(
            exec.join("git-daemon").exists(),
            "no git-daemon in {}: install git's daemon (Debian: it comes with the git package)",
            exec.display()
        );
        // git-daemon itself, not `git daemon`: git runs it as a child of
        // its own, which a kill of `git` would leave running.
        let child = Command::new(exec.join("git-daemon"))
            .args([
                "--reuseaddr",
                "--listen=127.0.0.1",
                &format!("--port={port}"),
                "--export-all",
                "--enable=receive-pack",
                &format!("--base-path={}", self.root().display()),
            ])
            .arg(self.root())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        self.daemon = Some(child);
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(start.elapsed() < Duration::from_secs(10), "git daemon did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Stops the daemon (the remote is unreachable until it starts again).
    fn stop_daemon(&mut self) {
        if let Some(mut d) = self.daemon.take() {
            let _ = d.kill();
            let _ = d.wait();
        }
    }

    fn root(&self) -> PathBuf {
        self.dir.path().canonicalize().unwrap()
    }

    /// Teammate `i`'s HOME, with their git identity.
    fn home(&self, i: usize) -> PathBuf {
        let home = self.root().join(format!("home{i}"));
        if !home.exists() {
            std::fs::create_dir_all(&home).unwrap();
            std::fs::write(home.join(".gitconfig"), format!("[user]\n\tname = dev{i}\n\temail = dev{i}@example.com\n"))
                .unwrap();
        }
        home
    }

    /// Teammate `i`'s clone of the remote.
    fn clone(&self, i: usize) -> PathBuf {
        let dir = self.root().join(format!("clone{i}"));
        if !dir.exists() {
            git(&self.root(), &self.home(i), &["clone", "--quiet", &self.url, dir.to_str().unwrap()]);
        }
        dir
    }

    /// `workflow-state args…` in teammate `i`'s clone, as them.
    fn ws(&self, i: usize, args: &[&str]) -> Run {
        Run::new(WORKFLOW_STATE, args, &self.clone(i)).env("HOME", self.home(i).to_str().unwrap())
    }

    /// A hook of session `session` in teammate `i`'s clone, as them.
    fn hook(&self, i: usize, event: &str, session: &str, input: serde_json::Value) -> crate::util::Done {
        let mut input = input;
        input["session_id"] = serde_json::Value::from(session);
        input["cwd"] = serde_json::Value::from(self.clone(i).to_string_lossy().into_owned());
        Run::new(crate::util::HOOK, &[event], &self.clone(i))
            .env("HOME", self.home(i).to_str().unwrap())
            .stdin(input.to_string())
            .ok()
    }

    /// Session `session` in teammate `i`'s clone edits `rel` (PreToolUse).
    fn edit(&self, i: usize, session: &str, rel: &str) -> crate::util::Done {
        let file = self.clone(i).join(rel);
        let input = serde_json::json!({"hook_event_name": "PreToolUse", "tool_name": "Edit",
            "tool_input": {"file_path": file, "old_string": "a", "new_string": "b"}});
        self.hook(i, "pre-tool-use", session, input)
    }

    /// `workflow-state args…` in teammate `i`'s clone, as them, at a
    /// terminal of their own outside Claude Code.
    fn ws_terminal(&self, i: usize, args: &[&str]) -> Run {
        Run::in_terminal(WORKFLOW_STATE, args, &self.clone(i)).env("HOME", self.home(i).to_str().unwrap())
    }

    fn spawn(&self, i: usize, args: &[&str]) -> Child {
        let home = self.home(i);
        let mut cmd = Command::new(WORKFLOW_STATE);
        cmd.args(args).current_dir(self.clone(i)).env("HOME", &home).env("PHASEGATE_TEST_OUTSIDE_CLAUDE_CODE", "1");
        for (k, _) in std::env::vars_os() {
            let k = k.to_string_lossy().into_owned();
            if k.starts_with("CLAUDE") || k.starts_with("PHASEGATE_") && k != "PHASEGATE_TEST_OUTSIDE_CLAUDE_CODE" {
                cmd.env_remove(k);
            }
        }
        cmd.env("XDG_STATE_HOME", crate::util::state_home());
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap()
    }

    /// The refs under `refs/phasegate/` the remote holds, with their values'
    /// messages.
    fn remote_refs(&self) -> Vec<(String, String)> {
        let bare = self.root().join("remote.git");
        let home = self.home(0);
        let list = git(&bare, &home, &["for-each-ref", "--format=%(refname)", "refs/phasegate/"]);
        list.lines()
            .map(|r| {
                (
                    r.trim_start_matches("refs/phasegate/").to_owned(),
                    git(&bare, &home, &["log", "-1", "--format=%B", r]),
                )
            })
            .collect()
    }

    /// Teammate 0 makes a feature with TASKS and pushes it; every clone up
    /// to `n` pulls it. The feature's name.
    fn shared_feature(&self, n: usize) -> String {
        self.shared_feature_with(n, TASKS)
    }

    fn shared_feature_with(&self, n: usize, tasks: &str) -> String {
        let out = self.ws(0, &["feature", "new", "parser"]).ok();
        let name =
            Path::new(out.stdout.lines().next().unwrap().trim()).file_name().unwrap().to_string_lossy().into_owned();
        let c0 = self.clone(0);
        std::fs::write(c0.join(format!("docs/features/{name}/tasks.md")), tasks).unwrap();
        git(&c0, &self.home(0), &["add", "docs"]);
        git(&c0, &self.home(0), &["commit", "--quiet", "-m", "feature"]);
        git(&c0, &self.home(0), &["push", "--quiet", "origin", "main"]);
        for i in 1..n {
            git(&self.clone(i), &self.home(i), &["pull", "--quiet", "origin", "main"]);
        }
        name
    }
}

impl Drop for Team {
    fn drop(&mut self) {
        if let Some(mut d) = self.daemon.take() {
            let _ = d.kill();
            let _ = d.wait();
        }
    }
}

fn wait_all(children: Vec<Child>) -> Vec<(i32, String, String)> {
    children
        .into_iter()
        .map(|c| {
            let out = c.wait_with_output().unwrap();
            let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
            (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
        })
        .collect()
}

/// The numbers `feature new` printed, one per clone.
fn numbers(results: &[(i32, String, String)]) -> Vec<String> {
    results
        .iter()
        .map(|(code, out, err)| {
            assert_eq!(*code, 0, "{out}{err}");
            assert!(!out.contains("could not be reached"), "{out}");
            let dir = out.lines().next().unwrap().trim();
            Path::new(dir).file_name().unwrap().to_string_lossy()[..3].to_owned()
        })
        .collect()
}

fn race_feature_new(team: &Team, n: usize) {
    for i in 0..n {
        team.clone(i);
    }
    let children: Vec<Child> = (0..n).map(|i| team.spawn(i, &["feature", "new", &format!("work-{i}")])).collect();
    let mut got = numbers(&wait_all(children));
    got.sort();
    let want: Vec<String> = (1..=n).map(|k| format!("{k:03}")).collect();
    assert_eq!(got, want, "every clone got its own number");
    let ids: Vec<String> = team.remote_refs().into_iter().map(|(r, _)| r).filter(|r| r.starts_with("ids/")).collect();
    assert_eq!(ids, want.iter().map(|k| format!("ids/{k}")).collect::<Vec<_>>());
}

/// Issue 34: eight `feature new` at the same moment in eight clones of one
/// file:// remote all made 001; now each reserves its number on the remote
/// and the losers take the next.
#[test]
fn concurrent_feature_new_in_eight_clones_gives_distinct_numbers() {
    let team = Team::new();
    race_feature_new(&team, 8);
    // The user's branches and remote-tracking refs are untouched: only the
    // narrow copy under refs/phasegate-seen/ was fetched.
    let c = team.clone(3);
    let refs = git(&c, &team.home(3), &["for-each-ref", "--format=%(refname)"]);
    assert!(refs.lines().any(|r| r.starts_with("refs/phasegate-seen/origin/ids/")), "{refs}");
    assert!(!refs.lines().any(|r| r.starts_with("refs/remotes/origin/") && r.contains("phasegate")), "{refs}");
    assert!(!c.join(".git/FETCH_HEAD").exists(), "no FETCH_HEAD written");
}

/// The same race over `git daemon` on 127.0.0.1 (git://), three clones.
#[test]
fn concurrent_feature_new_over_git_daemon_gives_distinct_numbers() {
    let team = Team::served();
    race_feature_new(&team, 3);
}

fn race_for_t1(team: &Team, n: usize) {
    let feature = team.shared_feature(n);
    let children: Vec<Child> =
        (0..n).map(|i| team.spawn(i, &["tasks", "start", "T1", "--feature", &feature])).collect();
    let results = wait_all(children);
    let winners: Vec<usize> = (0..n).filter(|&i| results[i].0 == 0).collect();
    assert_eq!(winners.len(), 1, "exactly one winner: {results:#?}");
    let winner = format!("dev{} <dev{}@example.com> on ", winners[0], winners[0]);
    for (i, (code, _, err)) in results.iter().enumerate() {
        if i == winners[0] {
            continue;
        }
        assert_eq!(*code, 1, "{err}");
        assert!(err.contains(&format!("T1 of {feature} is claimed on origin by {winner}")), "{err}");
        assert!(err.contains(&format!("`workflow-state tasks start T1 --feature {feature}`")), "{err}");
        assert!(err.contains("ask them"), "{err}");
    }
    let claims: Vec<(String, String)> =
        team.remote_refs().into_iter().filter(|(r, _)| r.starts_with("claims/")).collect();
    assert_eq!(claims.len(), 1, "{claims:?}");
    assert_eq!(claims[0].0, format!("claims/{feature}/T1"));
    assert!(claims[0].1.contains(&format!("dev{}", winners[0])), "{}", claims[0].1);
}

/// Issue 34: A started T1 and B's `tasks start T1` succeeded: two machines
/// built one task. Eight clones race for it: one wins, seven are refused
/// (exit 1) naming the winner and the ways on.
#[test]
fn eight_clones_racing_for_one_task_give_one_winner_and_seven_refusals_naming_it() {
    let team = Team::new();
    race_for_t1(&team, 8);
}

/// The same race over git://, three clones.
#[test]
fn three_clones_racing_over_git_daemon_give_one_winner() {
    let team = Team::served();
    race_for_t1(&team, 3);
}

/// A claim is given back when its task is done, and a teammate's start
/// then takes the task; status shows the claim marked by machine.
#[test]
fn a_claim_is_given_back_when_the_task_is_done_and_a_teammate_takes_it() {
    let team = Team::new();
    let f = team.shared_feature(2);
    team.ws(0, &["tasks", "start", "T1", "--feature", &f]).ok();
    team.ws(1, &["team", "sync"]).ok().stdout_has(&format!("claimed: T1 of {f} by dev0 <dev0@example.com> on "));
    team.ws(1, &["status"]).ok().stdout_has(&format!("claimed: T1 of {f} by dev0 <dev0@example.com> on "));
    team.ws(0, &["status"]).ok().stdout_has("(this clone)");
    let refused = team.ws(1, &["tasks", "start", "T1", "--feature", &f]).code(1);
    refused.stderr_has("is claimed on origin by dev0");
    // Every command the refusal names runs as printed (refused or not).
    let printed: Vec<&str> = refused.stderr.split('`').skip(1).step_by(2).collect();
    assert_eq!(printed.len(), 2, "{}", refused.stderr);
    for command in printed {
        let words: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(words[0], "workflow-state");
        let code = team.ws(1, &words[1..]).output().code;
        assert!(matches!(code, Some(0 | 1)), "`{command}` exited {code:?}");
    }
    team.ws(0, &["tasks", "complete", "T1", "--feature", &f]).ok();
    assert!(team.remote_refs().iter().all(|(r, _)| !r.starts_with("claims/")), "given back");
    team.ws(1, &["tasks", "start", "T1", "--feature", &f]).ok();
}

/// A phase of a feature that is not split into tasks is claimed by its
/// start: a teammate's start is refused, naming the holder, until the
/// phase completes and the claim is given back.
#[test]
fn a_phase_a_teammate_works_on_is_refused_naming_them_until_it_completes() {
    let team = Team::new();
    let f = team.shared_feature(2);
    team.ws(0, &["phase", "start", "brainstorm", "--feature", &f]).ok();
    let claims = team.remote_refs();
    assert!(
        claims.iter().any(|(r, v)| r == &format!("claims/{f}/phase-brainstorm") && v.contains("dev0")),
        "{claims:?}"
    );
    let meta = team.clone(1).join(format!("docs/features/{f}/.meta.json"));
    let before = std::fs::read_to_string(&meta).unwrap();
    let refused = team.ws(1, &["phase", "start", "brainstorm", "--feature", &f]).code(1);
    refused.stderr_has(&format!("the brainstorm phase of {f} is claimed on origin by dev0 <dev0@example.com> on "));
    let printed: Vec<&str> = refused.stderr.split('`').skip(1).step_by(2).collect();
    assert_eq!(printed.len(), 2, "{}", refused.stderr);
    for command in printed {
        let words: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(words[0], "workflow-state");
        let code = team.ws(1, &words[1..]).output().code;
        assert!(matches!(code, Some(0 | 1)), "`{command}` exited {code:?}");
    }
    assert_eq!(std::fs::read_to_string(&meta).unwrap(), before, "nothing moved in the refused clone");
    team.ws(1, &["team", "sync"]).ok().stdout_has(&format!("claimed: the brainstorm phase of {f} by dev0"));
    // Renewed by a sync while the phase is in progress here.
    let synced = team.ws(0, &["team", "sync", "--json"]).ok().json();
    assert_eq!(synced["claimed"], serde_json::json!([format!("{f} phase-brainstorm")]), "{synced}");
    team.ws(0, &["phase", "complete", "brainstorm", "--feature", &f]).ok();
    assert!(team.remote_refs().iter().all(|(r, _)| !r.starts_with("claims/")), "given back");
    team.ws(1, &["phase", "start", "brainstorm", "--feature", &f]).ok();
}

/// Seen everywhere: a teammate's claims show, marked by their machine, in
/// `sessions list`, `watch` and the report, as the last sync saw them.
#[test]
fn teammates_claims_show_by_machine_in_sessions_list_watch_and_the_report() {
    let team = Team::new();
    let f = team.shared_feature(2);
    team.ws(0, &["tasks", "start", "T1", "--feature", &f]).ok();
    team.ws(0, &["phase", "start", "brainstorm", "--feature", &f]).ok();
    team.ws(1, &["team", "sync"]).ok();
    let machine = team.remote_refs().iter().find_map(|(_, v)| {
        let v: serde_json::Value = serde_json::from_str(v.trim()).ok()?;
        v["holder"]["machine"].as_str().map(str::to_owned)
    });
    let by = format!("by dev0 <dev0@example.com> on {}", machine.unwrap());
    let listed = team.ws(1, &["sessions", "list"]).ok();
    listed.stdout_has("On teammates' machines");
    listed.stdout_has(&format!("claimed: T1 of {f} {by}"));
    listed.stdout_has(&format!("claimed: the brainstorm phase of {f} {by}"));
    let watched = team.ws(1, &["watch", "--once"]).ok();
    watched.stdout_has("TEAMMATES (2 claim(s)");
    watched.stdout_has(&format!("claimed: T1 of {f} {by}"));
    let page = team.root().join("report.html");
    team.ws(1, &["report", "--out", page.to_str().unwrap()]).ok();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("class=\"teammates\"") && html.contains(&format!("the brainstorm phase of {f}")), "{html}");
    // This clone's own claims are not a teammate's.
    assert!(!team.ws(0, &["sessions", "list"]).ok().stdout.contains("On teammates' machines"));
}

/// Runners on several machines take distinct features: the backlog skips
/// a feature whose next phase a teammate's clone claims, and says whose.
#[test]
fn the_backlog_skips_a_feature_whose_next_phase_a_teammate_claims() {
    let team = Team::new();
    let f = team.shared_feature(2);
    let ready = team.ws(1, &["backlog", "--json"]).ok().json();
    assert_eq!(ready["next"]["feature"], f.as_str(), "{ready}");
    team.ws(0, &["phase", "start", "brainstorm", "--feature", &f]).ok();
    team.ws(1, &["team", "sync"]).ok();
    let skipped = team.ws(1, &["backlog", "--json"]).ok().json();
    assert!(skipped["next"].is_null(), "{skipped}");
    assert_eq!(skipped["elsewhere"][0]["feature"], f.as_str(), "{skipped}");
    assert!(skipped["elsewhere"][0]["holder"].as_str().unwrap().starts_with("dev0 <dev0@example.com> on "));
    team.ws(1, &["backlog"]).ok().stdout_has(&format!("{f}: its brainstorm phase is a teammate's (dev0"));
    // The holder's own backlog still offers it.
    assert_eq!(team.ws(0, &["backlog", "--json"]).ok().json()["next"]["feature"], f.as_str());
}

/// File leases across machines: a sync publishes this clone's leases of
/// live sessions; a teammate's `lease list` shows them by machine, and
/// their first edit of the file is told (never refused); when the session
/// ends and the next syncs run, it is gone everywhere.
#[test]
fn a_teammates_file_lease_shows_in_lease_list_and_before_a_first_edit() {
    let team = Team::new();
    team.shared_feature(2);
    let start = serde_json::json!({"hook_event_name": "SessionStart", "source": "startup"});
    team.hook(0, "session-start", "sess-aaaa1111", start.clone());
    team.hook(1, "session-start", "sess-bbbb2222", start);
    let own = team.edit(0, "sess-aaaa1111", "README.md");
    assert!(!own.stdout.contains("teammate"), "{}", own.report());
    // The plugin's monitor publishes a changed lease set by itself.
    team.ws(0, &["monitor", "watch", "--once"]).ok();
    assert!(team.remote_refs().iter().any(|(r, v)| r.starts_with("leases/") && v.contains("README.md")));
    assert!(!team.ws(0, &["team", "sync"]).ok().stdout.contains("published"), "nothing new to publish");
    team.ws(1, &["team", "sync"]).ok();
    let listed = team.ws(1, &["lease", "list"]).ok();
    listed.stdout_has("On teammates' machines");
    listed.stdout_has("README.md  dev0 <dev0@example.com> on ");
    listed.stdout_has("(session sess-aaa)");
    let first = team.edit(1, "sess-bbbb2222", "README.md");
    assert!(!first.stdout.contains("deny"), "told, never refused: {}", first.report());
    assert!(
        first.stdout.contains("README.md is leased on a teammate's machine: dev0 <dev0@example.com> on "),
        "{}",
        first.report()
    );
    let again = team.edit(1, "sess-bbbb2222", "README.md");
    assert!(!again.stdout.contains("teammate"), "told once: {}", again.report());
    // The holder's session ends: its lease goes, and with the syncs, everywhere.
    team.hook(
        0,
        "session-end",
        "sess-aaaa1111",
        serde_json::json!({"hook_event_name": "SessionEnd", "reason": "exit"}),
    );
    team.ws(0, &["team", "sync"]).ok();
    assert!(team.remote_refs().iter().all(|(r, _)| !r.starts_with("leases/")), "{:?}", team.remote_refs());
    team.ws(1, &["team", "sync"]).ok();
    assert!(!team.ws(1, &["lease", "list"]).ok().stdout.contains("On teammates' machines"));
}

/// A teammate's force-push of `refs/phasegate/*` loses no claim of work in
/// progress: the next sync claims it again, and a claim the teammate put
/// in its place is a clash said to the people, never overwritten.
#[test]
fn a_teammates_force_push_of_the_refs_loses_no_claim_of_work_in_progress() {
    let team = Team::new();
    let f = team.shared_feature(2);
    team.ws(0, &["tasks", "start", "T1", "--feature", &f]).ok();
    team.ws(0, &["phase", "start", "brainstorm", "--feature", &f]).ok();
    let c1 = team.clone(1);
    let home1 = team.home(1);
    // The teammate wipes the claims and writes something else over T1's.
    let tree = git(&c1, &home1, &["hash-object", "-t", "tree", "/dev/null"]);
    let junk = git(&c1, &home1, &["commit-tree", tree.trim(), "-m", "not a claim"]);
    git(
        &c1,
        &home1,
        &["push", "--quiet", "--force", "origin", &format!("{}:refs/phasegate/claims/{f}/T1", junk.trim())],
    );
    git(&c1, &home1, &["push", "--quiet", "origin", &format!(":refs/phasegate/claims/{f}/phase-brainstorm")]);
    let synced = team.ws(0, &["team", "sync", "--json"]).ok().json();
    let mut claimed: Vec<&str> = synced["claimed"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
    claimed.sort();
    assert_eq!(claimed, [format!("{f} T1"), format!("{f} phase-brainstorm")], "{synced}");
    let refs = team.remote_refs();
    for task in ["T1", "phase-brainstorm"] {
        assert!(refs.iter().any(|(r, v)| r == &format!("claims/{f}/{task}") && v.contains("dev0")), "{refs:?}");
    }
    // A live claim of the teammate's in T1's place: a clash, left as it is.
    let now = chrono::Utc::now();
    let theirs = serde_json::json!({
        "feature": f, "task": "T1",
        "holder": {"user": "dev1 <dev1@example.com>", "machine": "desk", "clone": "ffff"},
        "heartbeat": now, "expires": now + chrono::TimeDelta::minutes(30),
    });
    let commit = git(&c1, &home1, &["commit-tree", tree.trim(), "-m", &theirs.to_string()]);
    git(
        &c1,
        &home1,
        &["push", "--quiet", "--force", "origin", &format!("{}:refs/phasegate/claims/{f}/T1", commit.trim())],
    );
    let synced = team.ws(0, &["team", "sync", "--json"]).ok().json();
    let clashes = synced["clashes"].to_string();
    assert!(
        clashes.contains(&format!(
            "T1 of {f} is in progress here, but dev1 <dev1@example.com> on desk holds its claim on origin"
        )),
        "{synced}"
    );
    let refs = team.remote_refs();
    assert!(refs.iter().any(|(r, v)| r == &format!("claims/{f}/T1") && v.contains("dev1")), "left as it is: {refs:?}");
}

/// A teammate commits their task as in progress (`[~]` in tasks.md) and
/// this clone pulls it: the sync neither claims it here nor calls it a
/// clash, since this clone never started it.
#[test]
fn work_a_teammate_committed_as_in_progress_is_not_claimed_here() {
    let team = Team::new();
    let f = team.shared_feature(2);
    team.ws(0, &["tasks", "start", "T1", "--feature", &f]).ok();
    let (c0, c1) = (team.clone(0), team.clone(1));
    git(&c0, &team.home(0), &["add", "docs"]);
    git(&c0, &team.home(0), &["commit", "--quiet", "-m", "T1 in progress"]);
    git(&c0, &team.home(0), &["push", "--quiet", "origin", "main"]);
    git(&c1, &team.home(1), &["pull", "--quiet", "origin", "main"]);
    let tasks = std::fs::read_to_string(c1.join(format!("docs/features/{f}/tasks.md"))).unwrap();
    assert!(tasks.contains("[~] T1"), "{tasks}");
    let synced = team.ws(1, &["team", "sync", "--json"]).ok().json();
    assert_eq!(synced["clashes"], serde_json::json!([]), "{synced}");
    assert_eq!(synced["claimed"], serde_json::json!([]), "{synced}");
}

/// `git daemon` stopped mid-work and started again: the work goes on
/// locally with one line that says so, a teammate who starts the same task
/// meanwhile is told of the clash at their next sync, and nothing waits
/// once the syncs ran.
#[test]
fn the_daemon_stopped_mid_work_and_started_again_loses_nothing() {
    let mut team = Team::served();
    let port: u16 = team.url.trim_start_matches("git://127.0.0.1:").split('/').next().unwrap().parse().unwrap();
    let f = team.shared_feature(2);
    team.ws(0, &["tasks", "start", "T1", "--feature", &f]).ok();
    team.stop_daemon();
    let phase = team.ws(0, &["phase", "start", "brainstorm", "--feature", &f]).ok().json();
    assert!(phase["team"].as_str().unwrap().contains("the brainstorm phase is claimed here only"), "{phase}");
    // B never saw A's claim: its start goes on here only, as A's did.
    let b = team.ws(1, &["tasks", "start", "T1", "--feature", &f]).ok().json();
    assert!(b["team"].as_str().unwrap().contains("T1 is claimed here only"), "{b}");
    team.start_daemon(port);
    let a = team.ws(0, &["team", "sync", "--json"]).ok().json();
    assert_eq!(a["reached"], true, "{a}");
    assert!(a["claimed"].as_array().unwrap().iter().any(|c| c == &format!("{f} phase-brainstorm")), "{a}");
    let b = team.ws(1, &["team", "sync", "--json"]).ok().json();
    let clashes = b["clashes"].to_string();
    assert!(
        clashes.contains(&format!(
            "T1 of {f} was started here while origin could not be reached, and dev0 <dev0@example.com>"
        )),
        "{b}"
    );
    for i in 0..2 {
        assert!(!team.clone(i).join(".git/phasegate/team/pending.json").exists(), "nothing waits in clone {i}");
    }
    let refs = team.remote_refs();
    assert!(refs.iter().any(|(r, v)| r == &format!("claims/{f}/T1") && v.contains("dev0")), "A keeps T1: {refs:?}");
}

/// Two clones of one feature; clone 0 asks a person to waive R1 for
/// `reason` and publishes the question at its sync: the team, the feature
/// and the question's id.
fn waiver_published(reason: &str) -> (Team, String, String) {
    let team = Team::new();
    let f = team.shared_feature(2);
    std::fs::write(
        team.clone(0).join(format!("docs/features/{f}/spec.md")),
        "# Spec\n\n## Requirements\n\n- **R1**: the page reads well\n",
    )
    .unwrap();
    let asked =
        team.ws(0, &["verify", "waive", "R1", "--reason", reason, "--headless", "--json", "--feature", &f]).ok().json();
    let id = asked["question"].as_str().unwrap().to_owned();
    team.ws(0, &["team", "sync"]).ok();
    (team, f, id)
}

/// A question answered on one machine is answered everywhere: A's waiver
/// question is published at A's sync; B sees it in `question list` and
/// answers it at a terminal (the model cannot: a person's decision); the
/// first answer wins; A's next sync takes it in as a teammate's, and the
/// waiver is recorded with who answered.
#[test]
fn a_question_asked_on_one_machine_is_answered_from_another() {
    let (team, f, id) = waiver_published("a person reads it");
    assert!(team.remote_refs().iter().any(|(r, _)| r == &format!("questions/{id}")), "{:?}", team.remote_refs());
    // B answers before any sync of theirs: the answer looks on the remote.
    team.ws_terminal(1, &["question", "answer", &id, "maybe"]).code(1).stdout_has("does not answer");
    team.ws(1, &["team", "sync"]).ok();
    let listed = team.ws(1, &["question", "list"]).ok();
    listed.stdout_has(&format!("{id} [asked by dev0 <dev0@example.com> on "));
    listed.stdout_has("a person's decision: answer at a terminal");
    // The model (inside Claude Code) cannot answer a person's decision.
    team.ws(1, &["question", "answer", &id, "Yes"])
        .env("CLAUDECODE", "1")
        .code(1)
        .stderr_has("a person answers it, never the model");
    let answered = team.ws_terminal(1, &["question", "answer", &id, "yes"]).ok();
    answered.stdout_has("answered on origin: dev0 <dev0@example.com> on ");
    team.ws_terminal(1, &["question", "answer", &id, "No"]).code(1).stdout_has("is answered already on origin");
    let synced = team.ws(0, &["team", "sync", "--json"]).ok().json();
    assert_eq!(synced["answered"], serde_json::json!([id]), "{synced}");
    let waived = team.ws(0, &["verify", "waive", "R1", "--json", "--feature", &f]).ok().json();
    assert_eq!(waived["state"], "waived", "{waived}");
    let ledger: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(team.clone(0).join(format!("docs/features/{f}/evidence.json"))).unwrap(),
    )
    .unwrap();
    assert_eq!(ledger["requirements"][0]["waiver"]["answeredIn"], "team", "{ledger}");
    let refs = team.remote_refs();
    assert!(refs.iter().all(|(r, _)| !r.starts_with("questions/") && !r.starts_with("answers/")), "{refs:?}");
}

/// A question answered here after a teammate's answer was pushed: the
/// answer here stands, the teammate's is not taken, and neither the
/// question nor the late answer is left on the remote.
#[test]
fn a_teammates_answer_to_a_question_answered_here_meanwhile_is_not_taken_and_is_cleared() {
    let (team, f, id) = waiver_published("r");
    team.ws_terminal(1, &["question", "answer", &id, "No"]).ok();
    // A answers at their own terminal before their sync.
    team.ws_terminal(0, &["question", "answer", &id, "Yes"]).ok();
    let synced = team.ws(0, &["team", "sync", "--json"]).ok().json();
    assert_eq!(synced["answered"], serde_json::json!([]), "{synced}");
    let refs = team.remote_refs();
    assert!(refs.iter().all(|(r, _)| !r.starts_with("questions/") && !r.starts_with("answers/")), "{refs:?}");
    let waived = team.ws(0, &["verify", "waive", "R1", "--json", "--feature", &f]).ok().json();
    assert_eq!(waived["state"], "waived", "A's own Yes stands: {waived}");
}

/// A claim whose holder stopped beating is taken over after its expiry,
/// and the start says from whom.
#[test]
fn an_expired_claim_is_taken_over_and_the_start_says_from_whom() {
    let team = Team::new();
    let f = team.shared_feature(2);
    let c0 = team.clone(0);
    let old = format!(
        r#"{{"feature":"{f}","task":"T1","holder":{{"user":"gone <gone@example.com>","machine":"old-box","clone":"0000"}},"heartbeat":"2020-01-01T00:00:00Z","expires":"2020-01-01T00:30:00Z"}}"#
    );
    let tree = git(&c0, &team.home(0), &["hash-object", "-t", "tree", "/dev/null"]);
    let commit = git(&c0, &team.home(0), &["commit-tree", tree.trim(), "-m", &old]);
    git(&c0, &team.home(0), &["push", "--quiet", "origin", &format!("{}:refs/phasegate/claims/{f}/T1", commit.trim())]);
    let out = team.ws(1, &["tasks", "start", "T1", "--feature", &f]).ok();
    assert!(out.json()["team"].as_str().unwrap().starts_with("took T1 over from gone <gone@example.com> on old-box"));
    let claims = team.remote_refs();
    assert!(claims.iter().any(|(r, v)| r == &format!("claims/{f}/T1") && v.contains("dev1")), "{claims:?}");
}

/// The remote down: `feature new` and `tasks start` go on locally with one
/// line that says so; `team sync` carries both over once it is back.
#[test]
fn with_the_remote_down_work_goes_on_locally_and_sync_carries_it_over() {
    let team = Team::new();
    let f = team.shared_feature(1);
    let bare = team.root().join("remote.git");
    let away = team.root().join("remote.away");
    std::fs::rename(&bare, &away).unwrap();
    let out = team.ws(0, &["feature", "new", "offline"]).ok();
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", out.stdout);
    assert!(lines[0].ends_with("002-offline"), "{}", out.stdout);
    assert!(
        lines[1].starts_with("note: origin could not be reached (")
            && lines[1]
                .ends_with("002 is reserved here only: `workflow-state team sync` carries it over when it is back"),
        "{}",
        out.stdout
    );
    let started = team.ws(0, &["tasks", "start", "T1", "--feature", &f]).ok().json();
    assert!(started["team"].as_str().unwrap().contains("T1 is claimed here only"), "{started}");
    team.ws(0, &["team", "sync"]).ok().stdout_has("origin could not be reached");
    std::fs::rename(&away, &bare).unwrap();
    let synced = team.ws(0, &["team", "sync", "--json"]).ok().json();
    assert_eq!(synced["reached"], true);
    assert_eq!(synced["reserved"], serde_json::json!(["002-offline"]));
    assert_eq!(synced["claimed"], serde_json::json!([format!("{f} T1")]));
    let refs: Vec<String> = team.remote_refs().into_iter().map(|(r, _)| r).collect();
    assert!(refs.contains(&"ids/002".to_owned()) && refs.contains(&format!("claims/{f}/T1")), "{refs:?}");
    assert!(!team.clone(0).join(".git/phasegate/team/pending.json").exists(), "nothing waits");
}

/// A push killed with kill -9 half-way leaves the remote's ref as it was
/// or as it was to be, and the next start works.
#[test]
fn a_push_killed_half_way_leaves_the_old_or_the_new_ref() {
    let team = Team::new();
    let f = team.shared_feature(2);
    // The remote takes its time: the kill lands during the push.
    let hook = team.root().join("remote.git/hooks/pre-receive");
    std::fs::write(&hook, "#!/bin/sh\ncat >/dev/null\nsleep 2\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    let child = team.spawn(0, &["tasks", "start", "T1", "--feature", &f]);
    std::thread::sleep(Duration::from_millis(700));
    let mut child = child;
    child.kill().unwrap();
    let _ = child.wait();
    std::thread::sleep(Duration::from_secs(3));
    std::fs::remove_file(&hook).unwrap();
    let claims: Vec<(String, String)> =
        team.remote_refs().into_iter().filter(|(r, _)| r.starts_with("claims/")).collect();
    // Old (no claim) or new (dev0's claim), never anything else.
    assert!(claims.is_empty() || (claims.len() == 1 && claims[0].1.contains("dev0")), "{claims:?}");
    let bare = team.root().join("remote.git");
    git(&bare, &team.home(0), &["fsck", "--no-dangling"]);
    // The remote's ref is not locked: the teammate's start is decided.
    let out = team.ws(1, &["tasks", "start", "T1", "--feature", &f]).output();
    match claims.is_empty() {
        true => assert_eq!(out.code, Some(0), "{}", out.report()),
        false => assert_eq!(out.code, Some(1), "{}", out.report()),
    }
}

/// B's session is refused A's task and takes the next one: `tasks next`
/// leaves out a task a teammate claims (as the last sync saw it), and says
/// who holds it when nothing else is ready.
#[test]
fn tasks_next_leaves_out_a_task_a_teammate_claims() {
    let team = Team::new();
    let parallel = "# Tasks\n\n## Phase 1 (parallel)\n\n- [ ] T1: parser [`files: src/a.rs`]\n- [ ] T2: docs [`files: docs/b.md`]\n\n## Phase 2\n\n- [ ] T3: release\n";
    let f = team.shared_feature_with(2, parallel);
    team.ws(0, &["tasks", "start", "T1", "--feature", &f]).ok();
    team.ws(1, &["tasks", "start", "T1", "--feature", &f]).code(1);
    let next = team.ws(1, &["tasks", "next", "--json", "--feature", &f]).ok().json();
    assert_eq!(next["tasks"], serde_json::json!(["T2"]), "{next}");
    team.ws(1, &["tasks", "start", "T2", "--feature", &f]).ok();
    let next = team.ws(1, &["tasks", "next", "--json", "--feature", &f]).ok().json();
    assert_eq!(next["tasks"], serde_json::json!([]), "{next}");
    let reason = next["reason"].as_str().unwrap();
    assert!(reason.starts_with("T1 is claimed by dev0 <dev0@example.com> on "), "{reason}");
}

/// Hooks never wait for the remote: with `origin` a server that takes the
/// connection and never answers (a push or fetch would wait out its 10 s),
/// every hook of a session whose task is claimed, and `status`, end at once
/// with what the last sync saw.
#[test]
fn hooks_and_status_never_wait_for_a_remote_that_does_not_answer() {
    let team = Team::new();
    let f = team.shared_feature(1);
    team.ws(0, &["tasks", "start", "T1", "--feature", &f]).ok();
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("git://127.0.0.1:{}/remote.git", silent.local_addr().unwrap().port());
    let c0 = team.clone(0);
    git(&c0, &team.home(0), &["remote", "set-url", "origin", &url]);
    let home = team.home(0);
    let home = home.to_str().unwrap();
    let edit = c0.join("src/a.rs");
    let events: [(&str, serde_json::Value); 4] = [
        (
            "session-start",
            serde_json::json!({"session_id": "s-1", "cwd": c0, "hook_event_name": "SessionStart", "source": "startup"}),
        ),
        (
            "user-prompt-submit",
            serde_json::json!({"session_id": "s-1", "cwd": c0, "hook_event_name": "UserPromptSubmit", "prompt": "go on"}),
        ),
        (
            "pre-tool-use",
            serde_json::json!({"session_id": "s-1", "cwd": c0, "hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": {"file_path": edit, "content": "x"}, "tool_use_id": "toolu_1"}),
        ),
        (
            "stop",
            serde_json::json!({"session_id": "s-1", "cwd": c0, "hook_event_name": "Stop", "stop_hook_active": false}),
        ),
    ];
    for (event, input) in events {
        let start = Instant::now();
        Run::new(crate::util::HOOK, &[event], &c0).env("HOME", home).stdin(input.to_string()).ok();
        assert!(start.elapsed() < Duration::from_secs(3), "{event} took {:?}", start.elapsed());
    }
    let start = Instant::now();
    team.ws(0, &["status"]).ok().stdout_has(&format!("claimed: T1 of {f} by dev0"));
    assert!(start.elapsed() < Duration::from_secs(3), "status took {:?}", start.elapsed());
    // The server is silent indeed: a sync waits for it, and gives up at
    // its deadline with one line.
    let start = Instant::now();
    team.ws(0, &["team", "sync"])
        .env("PHASEGATE_REMOTE_TIMEOUT_MS", "700")
        .ok()
        .stdout_has("origin could not be reached (no answer within 0.7s); nothing was synced");
    assert!(start.elapsed() >= Duration::from_millis(700));
    drop(silent);
}

/// Issue 34: claims expire 30 minutes after their heartbeat, and nothing
/// renewed them while the task went on: a teammate could take over a task
/// still being built. The plugin's monitor (`monitor watch`) renews this
/// clone's claims once a third of that time has passed.
#[test]
fn the_monitor_renews_this_clones_claims_before_they_expire() {
    let team = Team::new();
    let f = team.shared_feature(1);
    team.ws(0, &["tasks", "start", "T1", "--feature", &f]).ok();
    let c0 = team.clone(0);
    let home = team.home(0);
    // The claim as if its heartbeat were 25 minutes old.
    let clone = std::fs::read_to_string(c0.join(".git/phasegate/team/clone")).unwrap();
    let beat = chrono::Utc::now() - chrono::TimeDelta::minutes(25);
    let old = serde_json::json!({
        "feature": f, "task": "T1",
        "holder": {"user": "dev0 <dev0@example.com>", "machine": "m", "clone": clone.trim()},
        "heartbeat": beat, "expires": beat + chrono::TimeDelta::minutes(30),
    });
    let tree = git(&c0, &home, &["hash-object", "-t", "tree", "/dev/null"]);
    let commit = git(&c0, &home, &["commit-tree", tree.trim(), "-m", &old.to_string()]);
    let target = format!("refs/phasegate/claims/{f}/T1");
    git(&c0, &home, &["push", "--quiet", "--force", "origin", &format!("{}:{target}", commit.trim())]);
    git(&c0, &home, &["update-ref", &format!("refs/phasegate-seen/origin/claims/{f}/T1"), commit.trim()]);
    team.ws(0, &["monitor", "watch", "--once"]).ok();
    let (_, value) = team.remote_refs().into_iter().find(|(r, _)| r == &format!("claims/{f}/T1")).unwrap();
    let claim: serde_json::Value = serde_json::from_str(value.trim()).unwrap();
    let expires: chrono::DateTime<chrono::Utc> = serde_json::from_value(claim["expires"].clone()).unwrap();
    assert!(expires > chrono::Utc::now() + chrono::TimeDelta::minutes(29), "renewed: {claim}");
}
