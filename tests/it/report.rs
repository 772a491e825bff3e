//! `workflow-state report`: the page of a repository after a day of mixed
//! use (features at several phases, a pipeline, a finished feature with its
//! retrospective, an abandoned one, one that cannot be read, a lease, a
//! question waiting for a person), read as HTML and rendered in a real
//! headless Chromium, whose screenshot is kept in
//! target/test-artifacts/report.png.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};

use crate::cost::{Costed, S, line};

/// A headless Chromium: `PHASEGATE_CHROMIUM`, else the first on PATH.
/// scripts/test.sh installs one; without it the test fails, never skips.
fn chromium() -> PathBuf {
    if let Some(p) = std::env::var_os("PHASEGATE_CHROMIUM") {
        return p.into();
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in ["chromium-headless-shell", "chromium", "chromium-browser", "google-chrome"] {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return p;
            }
        }
    }
    panic!(
        "the report's test renders it in a headless Chromium: `sh scripts/test.sh` installs one \
         (apt chromium-headless-shell), or set PHASEGATE_CHROMIUM"
    );
}

/// Runs Chromium headless on `page` with `args`; its stdout.
fn render(page: &Path, profile: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(out.status.success(), "chromium: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Where the test keeps what it made: target/test-artifacts.
fn artifacts() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    // target/<profile>/deps/it-<hash>
    let target = exe.ancestors().nth(3).unwrap().to_path_buf();
    let dir = target.join("test-artifacts");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn pause() {
    std::thread::sleep(Duration::from_millis(15));
}

/// A repository after a day: returns (the session's view, the features).
fn a_day() -> (Costed, [String; 4]) {
    let c = Costed::new();
    let env = &c.env;
    let search = c.feature.clone();
    // search: specify and design, each with its usage.
    c.append(&line("s1", "claude-sonnet-4-5", 120_000, 8_000));
    pause();
    c.ws(&["phase", "complete", "specify", "--feature", &search]).ok();
    c.ws(&["phase", "start", "design", "--feature", &search]).ok();
    pause();
    c.append(&line("d1", "claude-opus-4-5", 200_000, 30_000));
    c.append(&line("d2", "claude-opus-4-5", 150_000, 12_000));
    pause();
    // login: a hotfix at implement, one requirement proven, one failing.
    let login = env.feature("login", "hotfix");
    env.write(
        &format!("docs/features/{login}/spec.md"),
        "# Login\n\n## Requirements\n\n- **R1**: a wrong password is refused\n- **R2**: <b>locked</b> after 5 tries\n",
    );
    env.write(&format!("docs/features/{login}/tasks.md"), "# Tasks\n\n## Checks\n\n- R1: `true`\n- R2: `false`\n");
    for p in ["specify", "implement"] {
        c.ws(&["phase", "start", p, "--feature", &login]).ok();
        if p == "specify" {
            c.ws(&["phase", "complete", p, "--feature", &login]).ok();
        }
    }
    pause();
    c.append(&line("i1", "claude-sonnet-4-5", 90_000, 20_000));
    // export: finished, with its retrospective; notes: abandoned.
    let export = env.feature("export", "quick");
    let reply = env.outer().join("retro-reply.json");
    std::fs::write(&reply, r#"{"summary": "fine"}"#).unwrap();
    for (i, f) in [&search, &export].into_iter().enumerate() {
        if i == 1 {
            c.ws(&["phase", "start", "specify", "--feature", f]).ok();
            pause();
            c.append(&line("e1", "claude-sonnet-4-5", 50_000, 5_000));
        }
        c.ws(&["retro", "record", "--feature", f, "--reply-file", reply.to_str().unwrap()]).ok();
    }
    let meta_path = env.path(&format!("docs/features/{export}/.meta.json"));
    let mut meta: Value = serde_json::from_str(&std::fs::read_to_string(&meta_path).unwrap()).unwrap();
    meta["status"] = json!("completed");
    meta["completed"] = json!(phasegate_core::time::stamp(phasegate_core::time::now()));
    std::fs::write(&meta_path, serde_json::to_string_pretty(&meta).unwrap()).unwrap();
    let notes = env.feature("notes", "quick");
    c.ws(&["feature", "abandon", "--feature", &notes]).ok();
    // broken: a .meta.json nobody can read.
    env.write("docs/features/009-broken/.meta.json", "{ not json");
    // A pipeline, a lease, and a question waiting for a person.
    let auth = env.pipeline("session-pipeline");
    c.ws(&["lease", "take", "src/login.rs"]).ok();
    let q = env.write(
        "q.json",
        r#"{"type": "blocking", "text": "Lock for <15> minutes or an hour?", "options": [{"label": "15 minutes"}, {"label": "An hour"}]}"#,
    );
    c.ws(&["question", "ask", "--file", q.to_str().unwrap(), "--headless", "--feature", &login]).ok();
    // Its checks ran last, on the tree as it is now.
    c.ws(&["verify", "run", "--feature", &login]).code(1);
    (c, [search, login, export, auth])
}

#[test]
fn the_report_shows_a_day_and_renders_in_a_real_chromium() {
    let (c, [search, login, export, auth]) = a_day();
    let out = c.env.outer().join("out/report.html");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    let done = c.ws(&["report", "--out", out.to_str().unwrap()]).ok();
    assert!(done.stdout.starts_with(&format!("report: {}", out.display())), "{}", done.report());
    let html = std::fs::read_to_string(&out).unwrap();
    std::fs::copy(&out, artifacts().join("report.html")).unwrap();

    // Self-contained: nothing is fetched, no script runs (the SVG
    // namespace is a name, not an address).
    let bare = html.replace(r#"xmlns="http://www.w3.org/2000/svg""#, "");
    for needle in ["http://", "https://", "<script", "src=", "@import", "url("] {
        assert!(!bare.contains(needle), "{needle} in the page");
    }
    // The board: each feature in its column.
    let column_of = |feature: &str| -> String {
        let at =
            html.find(&format!("data-feature=\"{feature}\"")).unwrap_or_else(|| panic!("{feature} not on the board"));
        let col = html[..at].rfind("data-column=\"").unwrap();
        html[col + 13..].split('"').next().unwrap().to_owned()
    };
    assert_eq!(column_of(&search), "design");
    assert_eq!(column_of(&login), "implement");
    assert_eq!(column_of(&export), "done");
    assert_eq!(column_of(&auth), "pipeline");
    assert!(html.contains("1 abandoned"), "the abandoned feature is counted, not shown");
    assert!(html.contains("009-broken") && html.contains("Could not be read"), "the unreadable feature is named");
    // Cost by phase as a chart, proof per requirement, text escaped.
    assert!(html.contains(&format!("data-chart=\"cost-by-phase\" data-subject=\"{search}\"")));
    assert!(html.contains("proof 1/2") && html.contains("status-failed"), "login's proof");
    assert!(html.contains("&lt;b&gt;locked&lt;/b&gt;") && !html.contains("<b>locked"), "requirement text escaped");
    assert!(html.contains("Lock for &lt;15&gt; minutes"), "the waiting question, escaped");
    // Trends, sessions and leases.
    for m in ["cost_usd", "first_pass_success", "gotcha_effectiveness"] {
        assert!(html.contains(&format!("data-chart=\"trend\" data-subject=\"{m}\"")), "{m} trend");
    }
    assert!(html.contains(&format!("<code>{S}</code>")), "the session");
    assert!(html.contains("<code>src/login.rs</code>"), "the lease");
    // Every command the page tells a person to run runs as printed here,
    // beside four features (templates, with <…>, are filled in by them).
    let commands: Vec<&str> = html
        .split("<code>workflow-state ")
        .skip(1)
        .map(|rest| rest.split("</code>").next().unwrap())
        .filter(|c| !c.contains("&lt;"))
        .collect();
    assert!(commands.len() >= 2, "{commands:?}");
    for command in commands {
        let args: Vec<&str> = command.split_whitespace().collect();
        let done = c.ws(&args).output();
        assert!(matches!(done.code, Some(0 | 1)), "`workflow-state {command}` as printed: {}", done.report());
    }

    // In a real browser: it parses, its charts are SVG with their bars,
    // points and labels, and a screenshot is kept.
    let profile = c.env.outer().join("chromium-profile");
    let dom = render(&out, &profile, &["--dump-dom"]);
    let figures = dom.matches("<figure class=\"chart\"").count();
    assert_eq!(figures, 3 + 3, "three features with a cost, three trends:\n{dom}");
    assert_eq!(dom.matches("<svg").count(), figures, "each chart is an SVG element");
    assert!(dom.contains("<circle"), "the trends' points");
    assert!(dom.contains("\ndesign\n</text>"), "the bar chart names its phases");
    let shot = artifacts().join("report.png");
    let _ = std::fs::remove_file(&shot);
    render(&out, &profile, &[&format!("--screenshot={}", shot.display()), "--window-size=1280,2200"]);
    let png = std::fs::read(&shot).expect("the screenshot is written");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 40_000, "a real screenshot ({} bytes)", png.len());
}

#[test]
fn a_file_at_out_that_is_not_a_report_is_never_replaced() {
    let c = Costed::new();
    let mine = c.env.write("notes.html", "<p>my notes</p>");
    c.ws(&["report", "--out", "notes.html"]).code(1).stderr_has("is not a phasegate report: it is not replaced");
    assert_eq!(std::fs::read_to_string(&mine).unwrap(), "<p>my notes</p>");
    // An earlier report is replaced; a link is not written through.
    c.ws(&["report", "--out", "r.html"]).ok();
    c.ws(&["report", "--out", "r.html"]).ok();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&mine, c.env.path("link.html")).unwrap();
        c.ws(&["report", "--out", "link.html"]).code(2).stderr_has("link.html");
        assert_eq!(std::fs::read_to_string(&mine).unwrap(), "<p>my notes</p>");
    }
    // The default place is out of the working tree; `-` is standard output.
    let done = c.ws(&["report"]).ok();
    assert!(done.stdout.contains(".git/phasegate/report.html"), "{}", done.report());
    let printed = c.ws(&["report", "--out", "-"]).ok().stdout;
    assert!(printed.starts_with("<!doctype html>") && printed.contains(&c.feature), "{printed}");
}
