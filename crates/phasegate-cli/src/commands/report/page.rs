//! The report as one self-contained HTML page: inline CSS and inline SVG
//! charts, no script, nothing fetched. Every text from the repository is
//! escaped.

use std::fmt::Write as _;

use phasegate_core::cost::{FeatureCost, Tally};
use phasegate_ops::feature::status::Row;
use phasegate_ops::oversight::report::{Card, Column, HEAD, Report};
use phasegate_ops::oversight::view::{Overview, SessionView};

use super::charts::{self, Bar};

const STYLE: &str = r#"
:root { --ink: #1f2937; --muted: #6b7280; --line: #e5e7eb; --bg: #f9fafb; --blue: #2563eb;
  --green: #15803d; --red: #b91c1c; --amber: #b45309; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
header, main { max-width: 1200px; margin: 0 auto; padding: 0 24px; }
header { padding-top: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 32px 0 12px; }
h3 { font-size: 15px; margin: 0 0 6px; }
.sub, .muted { color: var(--muted); }
.board { display: grid; grid-auto-flow: column; grid-auto-columns: minmax(170px, 1fr); gap: 10px; overflow-x: auto; padding-bottom: 6px; }
.column { background: #eef2f7; border-radius: 8px; padding: 8px; min-height: 80px; }
.column h3 { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 2px 2px 8px; }
.card { display: block; background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 8px; margin-bottom: 8px; color: inherit; text-decoration: none; }
.card .name { font-weight: 600; word-break: break-word; }
.badges { margin-top: 4px; display: flex; flex-wrap: wrap; gap: 4px; }
.badge { font-size: 11px; border-radius: 10px; padding: 1px 7px; background: #f3f4f6; }
.badge.proven { background: #dcfce7; color: var(--green); }
.badge.open { background: #fee2e2; color: var(--red); }
.badge.stale, .badge.suspended { background: #fef3c7; color: var(--amber); }
.badge.tampered { background: #fee2e2; color: #b91c1c; font-weight: 600; }
.feature { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 14px 16px; margin-bottom: 14px; }
.feature .cols { display: flex; flex-wrap: wrap; gap: 18px; align-items: flex-start; }
figure { margin: 0; }
figure svg { max-width: 100%; height: auto; display: block; }
figcaption { font-size: 12px; color: var(--muted); margin-top: 2px; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 12px; color: var(--muted); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.status-proven { color: var(--green); } .status-failed { color: var(--red); }
.status-unchecked { color: var(--amber); } .status-waived { color: var(--muted); }
.trends { display: flex; flex-wrap: wrap; gap: 14px; }
.trends figure { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 8px; }
code { font-size: 12px; background: #f3f4f6; padding: 1px 4px; border-radius: 4px; }
footer { max-width: 1200px; margin: 32px auto; padding: 0 24px; color: var(--muted); font-size: 12px; }
"#;

/// Escapes text for HTML content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn usd(v: f64) -> String {
    format!("${v:.2}")
}

/// The whole page.
pub fn render(r: &Report) -> String {
    let mut h = String::with_capacity(64 << 10);
    let stamp = r.now.format("%Y-%m-%d %H:%M UTC").to_string();
    let active = r.cards.iter().filter(|c| c.column != Column::Done).count();
    let _ = write!(
        h,
        "{HEAD}<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>phasegate · {} · {stamp}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        esc(&r.project)
    );
    let _ = write!(
        h,
        "<header><h1>{}</h1><div class=\"sub\">phasegate report · {stamp} · {active} active feature{} · \
         repository cost {} · prices as of {}</div></header>\n<main>\n",
        esc(&r.project),
        if active == 1 { "" } else { "s" },
        usd(r.costs.total.usd),
        esc(r.costs.prices_as_of)
    );
    board(&mut h, r);
    features(&mut h, r);
    trends(&mut h, r);
    now(&mut h, r);
    problems(&mut h, r);
    let _ = write!(
        h,
        "</main>\n<footer>Written by <code>workflow-state report</code>; run it again for a fresh page. \
         Costs come from Claude Code's transcripts (<code>workflow-state cost</code>), proof from each \
         feature's evidence ledger (<code>workflow-state verify status --feature &lt;feature&gt;</code>).</footer>\n</body>\n</html>\n"
    );
    h
}

fn board(h: &mut String, r: &Report) {
    h.push_str("<section id=\"board\"><h2>Features</h2>\n");
    if r.cards.is_empty() {
        h.push_str("<p class=\"muted\">No features yet: <code>workflow-state feature new &lt;slug or description&gt;</code> creates one.</p>");
    } else {
        h.push_str("<div class=\"board\">\n");
        for column in Column::all() {
            let cards: Vec<&Card> = r.cards.iter().filter(|c| c.column == column).collect();
            if cards.is_empty() {
                continue;
            }
            let _ = writeln!(
                h,
                "<div class=\"column\" data-column=\"{0}\"><h3>{0} · {1}</h3>",
                esc(&column.title()),
                cards.len()
            );
            for c in cards {
                card(h, &c.row, column);
            }
            h.push_str("</div>\n");
        }
        h.push_str("</div>\n");
    }
    let mut notes = Vec::new();
    if r.finished_hidden > 0 {
        notes.push(format!("{} earlier finished feature(s) not shown", r.finished_hidden));
    }
    if r.abandoned > 0 {
        notes.push(format!("{} abandoned", r.abandoned));
    }
    if !notes.is_empty() {
        let _ = write!(h, "<p class=\"muted\">{}</p>", esc(&notes.join("; ")));
    }
    h.push_str("</section>\n");
}

fn card(h: &mut String, row: &Row, column: Column) {
    let mode = row.meta.as_ref().map(|m| m.mode.to_string()).unwrap_or_default();
    let stage = match column {
        Column::Done => {
            row.meta.as_ref().and_then(|m| m.completed).map(|t| format!("finished {}", t.format("%Y-%m-%d")))
        }
        Column::Pipeline | Column::Phase(_) => Some(row.phase_text()),
    };
    let _ = write!(
        h,
        "<a class=\"card\" href=\"#f-{0}\" data-feature=\"{0}\"><div class=\"name\">{0}</div><div class=\"muted\">{1}{2}</div><div class=\"badges\">",
        esc(&row.name),
        esc(&mode),
        stage.map(|s| format!(" · {}", esc(&s))).unwrap_or_default()
    );
    if let Some(q) = &row.suspended {
        let _ = write!(h, "<span class=\"badge suspended\">waits on {}</span>", esc(q));
    }
    if let Some(t) = &row.tampered {
        let _ = write!(h, "<span class=\"badge tampered\" title=\"{}\">tampered</span>", esc(t));
    }
    if let Some(p) = &row.proof {
        let class = match (p.proven, p.stale) {
            (_, true) => "stale",
            (true, false) => "proven",
            (false, false) => "open",
        };
        let _ = write!(h, "<span class=\"badge {class}\" title=\"{}\">proof {}</span>", esc(&p.summary), esc(&p.short));
    }
    if let Some(c) = row.cost_usd {
        let _ = write!(h, "<span class=\"badge\">{}</span>", usd(c));
    }
    if !row.open_concerns.is_empty() {
        let _ = write!(h, "<span class=\"badge open\">{} open concern(s)</span>", row.open_concerns.len());
    }
    h.push_str("</div></a>\n");
}

/// Per feature: its cost by phase as bars, its agents and tasks, its proof.
fn features(h: &mut String, r: &Report) {
    h.push_str("<section id=\"features\"><h2>Cost and proof by feature</h2>\n");
    let mut shown = 0;
    for c in &r.cards {
        let cost = r.costs.feature(&c.row.name).filter(|f| f.total.usage.tokens() > 0);
        if cost.is_none() && c.row.proof.is_none() {
            continue;
        }
        shown += 1;
        let _ = writeln!(h, "<div class=\"feature\" id=\"f-{0}\"><h3>{0}</h3>", esc(&c.row.name));
        match cost {
            Some(f) => feature_cost(h, f),
            None => h.push_str("<p class=\"muted\">No usage recorded for it yet.</p>\n"),
        }
        if let Some(p) = &c.row.proof {
            proof(h, &c.row.name, p);
        }
        h.push_str("</div>\n");
    }
    if shown == 0 {
        h.push_str(
            "<p class=\"muted\">No feature has a cost or a proof yet: costs appear once a session works on a feature, proof after <code>workflow-state verify run</code>.</p>\n",
        );
    }
    if !r.costs.unpriced.is_empty() {
        let _ = writeln!(
            h,
            "<p class=\"muted\">Unpriced models, counted in tokens only (price them in <code>.phasegate/cost.config.json</code>): {}</p>",
            esc(&r.costs.unpriced.join(", "))
        );
    }
    h.push_str("</section>\n");
}

fn tokens(t: &Tally) -> String {
    let u = &t.usage;
    format!(
        "in {} · out {} · cache read {} · cache write {}",
        thousands(u.input),
        thousands(u.output),
        thousands(u.cache_read),
        thousands(u.cache_write)
    )
}

/// `1234567` as `1,234,567`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn feature_cost(h: &mut String, f: &FeatureCost) {
    let _ = write!(
        h,
        "<div class=\"muted\">{} · {} tokens · {} session(s)</div>\n<div class=\"cols\">",
        usd(f.total.usd),
        esc(&tokens(&f.total)),
        f.sessions.len()
    );
    // Priced: USD; a feature whose models are all unpriced: tokens.
    let priced = f.total.usd > 0.0;
    let value = |t: &Tally| if priced { t.usd } else { t.usage.tokens() as f64 };
    let mut bars: Vec<Bar> =
        f.phases.0.iter().map(|(name, t)| Bar { label: name.clone(), value: value(t), outside: false }).collect();
    if f.outside.usage.tokens() > 0 {
        bars.push(Bar { label: "outside".into(), value: value(&f.outside), outside: true });
    }
    if !bars.is_empty() {
        figure(
            h,
            "cost-by-phase",
            &f.feature,
            charts::bars(&bars, if priced { "$" } else { "tokens" }),
            if priced { "cost by phase (USD); grey: outside every phase" } else { "tokens by phase (unpriced)" },
        );
    }
    h.push_str("<div>");
    keyed_table(h, "agent", &f.agents.0);
    if !f.tasks.0.is_empty() {
        keyed_table(h, "task", &f.tasks.0);
    }
    h.push_str("</div></div>\n");
}

fn keyed_table(h: &mut String, what: &str, rows: &[(String, Tally)]) {
    let _ = write!(h, "<table class=\"{what}s\"><tr><th>{what}</th><th>USD</th><th>output tokens</th></tr>");
    for (name, t) in rows {
        let _ = write!(
            h,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            esc(name),
            usd(t.usd),
            thousands(t.usage.output)
        );
    }
    h.push_str("</table>\n");
}

fn figure(h: &mut String, kind: &str, subject: &str, svg: Result<String, String>, caption: &str) {
    match svg {
        Ok(svg) => {
            let _ = writeln!(
                h,
                "<figure class=\"chart\" data-chart=\"{kind}\" data-subject=\"{}\">{svg}<figcaption>{}</figcaption></figure>",
                esc(subject),
                esc(caption)
            );
        }
        Err(e) => {
            let _ = writeln!(h, "<p class=\"muted\">The chart could not be drawn: {}</p>", esc(&e));
        }
    }
}

fn proof(h: &mut String, feature: &str, p: &phasegate_ops::feature::status::ProofRow) {
    let _ = writeln!(h, "<h3 style=\"margin-top:12px\">Proof: {}</h3>", esc(&p.summary));
    if p.requirements.is_empty() {
        let _ = writeln!(
            h,
            "<p class=\"muted\">Nothing recorded: <code>workflow-state verify run --feature {}</code>.</p>",
            esc(feature)
        );
        return;
    }
    h.push_str("<table class=\"proof\"><tr><th>requirement</th><th></th><th>at the last run</th></tr>");
    for req in &p.requirements {
        let status: &str = req.status.name();
        let _ = write!(
            h,
            "<tr><td>{}</td><td>{}</td><td class=\"status-{status}\">{status}</td></tr>",
            esc(&req.id),
            esc(&req.text)
        );
    }
    h.push_str("</table>\n");
    if p.stale {
        h.push_str(
            "<p class=\"muted\">The tree changed since the checks ran: nothing above proves the code as it is.</p>\n",
        );
    }
}

fn trends(h: &mut String, r: &Report) {
    h.push_str("<section id=\"trends\"><h2>Trends of the last features</h2>\n");
    if r.trend.is_empty() {
        h.push_str("<p class=\"muted\">No retrospective recorded yet: each finished feature's <code>/phasegate:retro</code> adds a point.</p></section>\n");
        return;
    }
    h.push_str("<div class=\"trends\">");
    let cost: Vec<(String, f64)> = r.trend.iter().filter_map(|(f, m)| m.cost_usd.map(|c| (f.clone(), c))).collect();
    if !cost.is_empty() {
        figure(h, "trend", "cost_usd", charts::line(&cost, "$", false), "cost per feature (USD)");
    }
    let fps: Vec<(String, f64)> = r.trend.iter().map(|(f, m)| (f.clone(), m.first_pass_success)).collect();
    figure(
        h,
        "trend",
        "first_pass_success",
        charts::line(&fps, "", true),
        "first-pass success (tasks right the first time)",
    );
    let ge: Vec<(String, f64)> = r.trend.iter().map(|(f, m)| (f.clone(), m.gotcha_effectiveness)).collect();
    figure(
        h,
        "trend",
        "gotcha_effectiveness",
        charts::line(&ge, "", true),
        "gotcha effectiveness (known gotchas not hit again)",
    );
    h.push_str("</div></section>\n");
}

fn now(h: &mut String, r: &Report) {
    let o = &r.overview;
    h.push_str("<section id=\"now\"><h2>Right now</h2>\n");
    if !o.interrupted.is_empty() || o.runner.is_some() {
        let _ = writeln!(h, "<h3>Interrupted ({})</h3><ul class=\"interrupted\">", o.interrupted.len());
        for line in o.interrupted.iter().chain(&o.runner) {
            let _ = writeln!(h, "<li>{}</li>", esc(line));
        }
        h.push_str("</ul>\n");
    }
    // Right now is the sessions at work; `watch` also shows those that
    // ended or went silent in the last hour.
    let live: Vec<&SessionView> = o.sessions.iter().filter(|s| s.presence.is_live()).collect();
    let _ = writeln!(h, "<h3>Sessions at work ({})</h3>", live.len());
    if live.is_empty() {
        h.push_str("<p class=\"muted\">No session is at work.</p>\n");
    } else {
        h.push_str("<table class=\"sessions\"><tr><th>session</th><th>state</th><th>presence</th><th>feature · task</th><th>leases</th></tr>");
        for s in &live {
            session_row(h, s);
        }
        h.push_str("</table>\n");
    }
    let others = o.sessions.len() - live.len();
    if others > 0 {
        let _ = writeln!(
            h,
            "<p class=\"muted\">{others} more ended or went silent in the last hour: <code>workflow-state watch --once</code> lists them.</p>"
        );
    }
    if !o.teammates.is_empty() {
        let _ = writeln!(
            h,
            "<h3 style=\"margin-top:14px\">Teammates ({} claim(s), as the last team sync saw them)</h3><ul class=\"teammates\">",
            o.teammates.len()
        );
        for c in &o.teammates {
            let _ = writeln!(h, "<li>{}</li>", esc(&crate::commands::status::claim_line(c)));
        }
        h.push_str("</ul>\n");
    }
    leases_table(h, o);
    questions_table(h, o);
    h.push_str("</section>\n");
}

fn leases_table(h: &mut String, o: &Overview) {
    let _ = writeln!(h, "<h3 style=\"margin-top:14px\">Leases ({})</h3>", o.leases.len());
    if o.leases.is_empty() {
        h.push_str("<p class=\"muted\">No file is leased.</p>\n");
    } else {
        h.push_str(
            "<table class=\"leases\"><tr><th>file</th><th>held by</th><th>feature · task</th><th>since</th></tr>",
        );
        for l in &o.leases {
            let work = [l.feature.clone(), l.task.clone()].into_iter().flatten().collect::<Vec<_>>().join(" · ");
            let _ = write!(
                h,
                "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(l.path.as_str()),
                esc(&l.holder.to_string()),
                esc(&work),
                l.acquired_at.format("%H:%M UTC")
            );
        }
        h.push_str("</table>\n");
    }
}

fn questions_table(h: &mut String, o: &Overview) {
    let _ = writeln!(h, "<h3 style=\"margin-top:14px\">Questions waiting for a person ({})</h3>", o.suspended.len());
    if o.suspended.is_empty() {
        h.push_str("<p class=\"muted\">None.</p>\n");
    } else {
        h.push_str("<table class=\"questions\"><tr><th>question</th><th>feature</th><th>state</th><th></th><th>answer with</th></tr>");
        for q in &o.suspended {
            let _ = write!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><code>/phasegate:answer {} &lt;answer&gt;</code></td></tr>",
                esc(&q.id),
                esc(&q.feature),
                esc(q.state.name()),
                esc(&q.question),
                esc(&q.id)
            );
        }
        h.push_str("</table>\n");
    }
}

fn session_row(h: &mut String, s: &SessionView) {
    let work = [s.feature.clone(), s.task.clone()].into_iter().flatten().collect::<Vec<_>>().join(" · ");
    let _ = write!(
        h,
        "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td></tr>",
        esc(&s.id),
        esc(s.state.name()),
        esc(&crate::commands::watch::presence_text(s)),
        esc(&work),
        s.leases
    );
}

fn problems(h: &mut String, r: &Report) {
    let mut all: Vec<String> = r
        .unreadable
        .iter()
        .map(|row| format!("{}: {}", row.name, row.error.as_deref().unwrap_or("unreadable")))
        .collect();
    all.extend(r.costs.problems.iter().cloned());
    // The overview names an unreadable feature too: once is enough.
    all.extend(
        r.overview
            .problems
            .iter()
            .filter(|p| !r.unreadable.iter().any(|row| p.starts_with(&format!("{}: ", row.name))))
            .cloned(),
    );
    if all.is_empty() {
        return;
    }
    h.push_str("<section id=\"problems\"><h2>Could not be read</h2><ul>");
    for p in all {
        let _ = write!(h, "<li>{}</li>", esc(&p));
    }
    h.push_str("</ul></section>\n");
}

#[cfg(test)]
mod tests {
    use super::{esc, thousands};

    #[test]
    fn token_counts_are_grouped_by_thousands() {
        assert_eq!(
            [0, 999, 1000, 470_000, 1_234_567].map(thousands),
            ["0", "999", "1,000", "470,000", "1,234,567"].map(String::from)
        );
    }

    #[test]
    fn text_from_the_repository_cannot_open_a_tag() {
        assert_eq!(
            esc(r#"<script>alert("x")</script> & 'y'"#),
            "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;"
        );
    }
}
