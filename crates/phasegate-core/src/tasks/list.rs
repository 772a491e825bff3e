//! The task list as data: tasks.md as the tasks phase writes it
//! (`- [ ] T1 (step 1): …` with `Done when:` / `Depends on:` sub-bullets)
//! and seed 003's PLAN.md form (`- [ ] **Task** [`agent: x`] [`review: true`]
//! [`review_focus: a, b`]`, under phase headings marked parallel or
//! sequential, with validation checkpoints). The checkboxes are the state:
//! `[ ]` pending, `[~]` in progress, `[x]` done, `[-]` skipped, `[!]` failed.
//! Pure: text in, a [`TaskList`] or line-numbered errors out.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Serialize;

use crate::brief::{Brief, SectionKind};

/// A task's checkbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mark {
    Pending,
    InProgress,
    Done,
    Skipped,
    Failed,
}

impl Mark {
    fn parse(c: char) -> Option<Mark> {
        match c {
            ' ' => Some(Mark::Pending),
            '~' => Some(Mark::InProgress),
            'x' | 'X' => Some(Mark::Done),
            '-' => Some(Mark::Skipped),
            '!' => Some(Mark::Failed),
            _ => None,
        }
    }

    /// The character between the brackets.
    pub fn char(self) -> char {
        match self {
            Mark::Pending => ' ',
            Mark::InProgress => '~',
            Mark::Done => 'x',
            Mark::Skipped => '-',
            Mark::Failed => '!',
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Mark::Pending => "pending",
            Mark::InProgress => "in-progress",
            Mark::Done => "done",
            Mark::Skipped => "skipped",
            Mark::Failed => "failed",
        }
    }

    /// No more work: done or skipped.
    pub fn settled(self) -> bool {
        match self {
            Mark::Done | Mark::Skipped => true,
            Mark::Pending | Mark::InProgress | Mark::Failed => false,
        }
    }
}

/// How a phase's tasks run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Execution {
    Sequential,
    Parallel,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskPhase {
    pub title: String,
    /// 1-based line of its heading (0: the implicit phase before any heading).
    pub line: usize,
    pub execution: Execution,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Task {
    pub id: String,
    /// 1-based line of its checkbox.
    pub line: usize,
    pub mark: Mark,
    /// The task's text without its id and metadata.
    pub title: String,
    /// Index into [`TaskList::phases`].
    pub phase: usize,
    pub agent: Option<String>,
    pub review: Option<bool>,
    pub review_focus: Vec<String>,
    pub depends_on: Vec<String>,
    pub files: Vec<String>,
    pub done_when: Option<String>,
    /// The layer the author declared (`layer: database`), if any.
    pub layer: Option<Layer>,
    /// Whose work goes first when two sessions want one of its files
    /// (`priority: high`; low, normal, high, critical). None: the session's.
    pub priority: Option<crate::priority::Priority>,
    /// A validation checkpoint: runs after every earlier task of its phase.
    pub checkpoint: bool,
    /// Other sub-bullets, as written.
    pub details: Vec<String>,
}

/// Something in the file that is not understood, reported, not dropped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TaskWarning {
    pub line: usize,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskList {
    pub phases: Vec<TaskPhase>,
    pub tasks: Vec<Task>,
    pub warnings: Vec<TaskWarning>,
}

/// Why the list cannot be used; every item has its line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.iter().map(|w| format!("line {}: {}", w.line, w.message)).collect::<Vec<_>>().join("; "))]
pub struct TasksError(pub Vec<TaskWarning>);

const KNOWN_KEYS: [&str; 9] =
    ["agent", "review", "review_focus", "depends_on", "depends", "files", "layer", "parallel", "priority"];

impl TaskList {
    pub fn parse(text: &str) -> Result<TaskList, TasksError> {
        let mut phases = vec![TaskPhase { title: String::new(), line: 0, execution: Execution::Sequential }];
        let mut tasks: Vec<Task> = Vec::new();
        let mut warnings = Vec::new();
        let mut errors = Vec::new();
        let mut fence = false;
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let trimmed = raw.trim_start();
            if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
                fence = !fence;
                continue;
            }
            if fence {
                continue;
            }
            if let Some(h) = heading(raw) {
                let lower = h.to_lowercase();
                let execution = if lower.contains("parallel") && !lower.contains("sequential") {
                    Execution::Parallel
                } else {
                    Execution::Sequential
                };
                phases.push(TaskPhase { title: h.to_owned(), line: n, execution });
                continue;
            }
            let indent = raw.len() - trimmed.len();
            let Some(item) = trimmed.strip_prefix("- ").or_else(|| trimmed.strip_prefix("* ")) else { continue };
            if indent == 0 && item.starts_with('[') {
                match checkbox(item) {
                    Some((mark, rest)) => {
                        let phase = phases.len() - 1;
                        match task_line(rest, n, tasks.len() + 1, phase, mark, &mut warnings) {
                            Ok(parsed) => {
                                if parsed.parallel_hint == Some(true) {
                                    phases[phase].execution = Execution::Parallel;
                                }
                                tasks.push(parsed.task);
                            }
                            Err(e) => errors.push(e),
                        }
                    }
                    None => errors.push(TaskWarning {
                        line: n,
                        message: format!(
                            "`{}` is not a task checkbox: use `- [ ]`, `- [~]`, `- [x]`, `- [-]` or `- [!]`",
                            clip(trimmed)
                        ),
                    }),
                }
                continue;
            }
            if indent > 0
                && let Some(task) = tasks.last_mut()
            {
                sub_bullet(task, item.trim(), n, &mut warnings);
            }
        }
        check(&tasks, &mut errors);
        if !errors.is_empty() {
            return Err(TasksError(errors));
        }
        // Only headings with tasks under them are phases (`# Tasks` is a title).
        let mut kept = Vec::new();
        let mut index = vec![usize::MAX; phases.len()];
        for (i, p) in phases.into_iter().enumerate() {
            if tasks.iter().any(|t| t.phase == i) {
                index[i] = kept.len();
                kept.push(p);
            }
        }
        for t in &mut tasks {
            t.phase = index[t.phase];
        }
        Ok(TaskList { phases: kept, tasks, warnings })
    }

    pub fn get(&self, id: &str) -> Option<&Task> {
        self.tasks.iter().find(|t| t.id.eq_ignore_ascii_case(id))
    }
}

struct Parsed {
    task: Task,
    parallel_hint: Option<bool>,
}

fn heading(line: &str) -> Option<&str> {
    let t = line.trim_end();
    let hashes = t.chars().take_while(|&c| c == '#').count();
    if (1..=6).contains(&hashes) && t[hashes..].starts_with(' ') { Some(t[hashes..].trim()) } else { None }
}

/// `[ ] rest` → the mark and the rest.
fn checkbox(item: &str) -> Option<(Mark, &str)> {
    let mut chars = item.chars();
    chars.next()?; // '['
    let c = chars.next()?;
    let rest = chars.as_str().strip_prefix(']')?;
    let mark = Mark::parse(c)?;
    Some((mark, rest.strip_prefix(' ').unwrap_or(rest)))
}

fn clip(s: &str) -> String {
    let cut: String = s.chars().take(60).collect();
    if cut.len() < s.len() { format!("{cut}…") } else { cut }
}

/// A task line's text without its metadata, and the metadata: the
/// [`key: value`] groups anywhere after the title (keys lowercased).
fn metadata(
    rest: &str,
    n: usize,
    warnings: &mut Vec<TaskWarning>,
) -> Result<(String, Vec<(String, String)>), TaskWarning> {
    let mut text = String::new();
    let mut meta: Vec<(String, String)> = Vec::new();
    let mut s = rest;
    while let Some(start) = s.find("[`") {
        text.push_str(&s[..start]);
        let after = &s[start + 2..];
        let Some(end) = after.find("`]") else {
            return Err(TaskWarning {
                line: n,
                message: format!("metadata `[`` without its closing ``]`: {}", clip(rest)),
            });
        };
        let body = &after[..end];
        match body.split_once(':') {
            Some((k, v)) => meta.push((k.trim().to_lowercase(), v.trim().to_owned())),
            None => warnings
                .push(TaskWarning { line: n, message: format!("metadata `{body}` is not `key: value`; ignored") }),
        }
        s = &after[end + 2..];
    }
    text.push_str(s);
    Ok((text, meta))
}

fn task_line(
    rest: &str,
    n: usize,
    ordinal: usize,
    phase: usize,
    mark: Mark,
    warnings: &mut Vec<TaskWarning>,
) -> Result<Parsed, TaskWarning> {
    let (text, meta) = metadata(rest, n, warnings)?;
    let text = text.trim();
    // An id: `T1`, `T1.2`, `T-3` at the start, before `:`, ` ` or `(`.
    let (id, title) = explicit_id(text).unwrap_or_else(|| (format!("T{ordinal}"), text.to_owned()));
    let plain = title.trim_matches('*').trim();
    let title = strip_bold(&title);
    let lower = plain.to_lowercase();
    let checkpoint =
        lower.starts_with("validation") || lower.starts_with("validate") || lower.starts_with("checkpoint");
    let mut task = Task {
        id,
        line: n,
        mark,
        title,
        phase,
        agent: None,
        review: None,
        review_focus: Vec::new(),
        depends_on: Vec::new(),
        files: Vec::new(),
        done_when: None,
        layer: None,
        priority: None,
        checkpoint,
        details: Vec::new(),
    };
    let mut parallel_hint = None;
    for (k, v) in meta {
        match k.as_str() {
            "agent" => task.agent = Some(v),
            "review" => match v.to_lowercase().as_str() {
                "true" | "yes" => task.review = Some(true),
                "false" | "no" => task.review = Some(false),
                _ => return Err(TaskWarning { line: n, message: format!("`review: {v}` must be true or false") }),
            },
            "review_focus" => task.review_focus = list(&v),
            "depends_on" | "depends" => task.depends_on.extend(ids(&v)),
            "files" => task.files.extend(list(&v)),
            "layer" => task.layer = Some(parse_layer(&v, n)?),
            "priority" => {
                task.priority = Some(
                    v.trim()
                        .to_lowercase()
                        .parse()
                        .map_err(|e: crate::names::UnknownName| TaskWarning { line: n, message: e.to_string() })?,
                )
            }
            "parallel" => parallel_hint = Some(v.eq_ignore_ascii_case("true")),
            _ => warnings.push(TaskWarning {
                line: n,
                message: format!("unknown metadata `{k}` (known: {}); kept out of the task", KNOWN_KEYS.join(", ")),
            }),
        }
    }
    Ok(Parsed { task, parallel_hint })
}

fn strip_bold(s: &str) -> String {
    let t = s.trim();
    if let Some(inner) = t.strip_prefix("**")
        && let Some(end) = inner.find("**")
    {
        let rest = inner[end + 2..].trim();
        return if rest.is_empty() { inner[..end].to_owned() } else { format!("{}{}", &inner[..end], rest_sep(rest)) };
    }
    t.to_owned()
}

fn rest_sep(rest: &str) -> String {
    if rest.starts_with(':') { rest.to_owned() } else { format!(" {rest}") }
}

fn explicit_id(text: &str) -> Option<(String, String)> {
    let t = text.trim_start_matches('*');
    let mut chars = t.char_indices();
    let (_, first) = chars.next()?;
    if first != 'T' {
        return None;
    }
    let end = t.find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-')).unwrap_or(t.len());
    let id = &t[..end];
    if id.len() < 2 || !id[1..].starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let rest = t[end..].trim_start_matches('*').trim_start();
    // `T1 (step 1): text`, `T1: text`, `T1 text`.
    let rest = match rest.strip_prefix('(') {
        Some(r) => r.split_once(')').map(|(_, after)| after).unwrap_or(r),
        None => rest,
    };
    let rest = rest.trim_start().strip_prefix(':').unwrap_or(rest).trim();
    Some((id.to_owned(), rest.to_owned()))
}

fn list(v: &str) -> Vec<String> {
    v.split(',').map(|s| s.trim().trim_matches('`').to_owned()).filter(|s| !s.is_empty()).collect()
}

fn ids(v: &str) -> Vec<String> {
    let lower = v.trim().to_lowercase();
    if lower == "none" || lower == "-" || lower.is_empty() {
        return Vec::new();
    }
    list(v).into_iter().map(|s| s.trim_end_matches('.').to_owned()).collect()
}

fn sub_bullet(task: &mut Task, item: &str, n: usize, warnings: &mut Vec<TaskWarning>) {
    let (key, value) = match item.split_once(':') {
        Some((k, v)) => (k.trim().to_lowercase(), v.trim()),
        None => (String::new(), item),
    };
    match key.as_str() {
        "done when" | "success" | "success criteria" => task.done_when = Some(value.to_owned()),
        "depends on" | "depends" | "dependencies" => task.depends_on.extend(ids(value)),
        "files" | "file" => task.files.extend(list(value)),
        "agent" => task.agent = Some(value.to_owned()),
        "layer" => match parse_layer(value, n) {
            Ok(l) => task.layer = Some(l),
            Err(w) => warnings.push(w),
        },
        _ => {
            if item.starts_with('[') && checkbox(item).is_some() {
                warnings.push(TaskWarning {
                    line: n,
                    message: "a nested checkbox is a detail of the task above, not a task of its own".into(),
                });
            }
            task.details.push(item.to_owned());
        }
    }
}

/// Ids unique, dependencies known and acyclic.
fn check(tasks: &[Task], errors: &mut Vec<TaskWarning>) {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for t in tasks {
        if let Some(first) = seen.insert(t.id.to_uppercase(), t.line) {
            errors.push(TaskWarning { line: t.line, message: format!("{} is already the id of line {first}", t.id) });
        }
    }
    for t in tasks {
        for d in &t.depends_on {
            if !seen.contains_key(&d.to_uppercase()) {
                errors.push(TaskWarning {
                    line: t.line,
                    message: format!("{} depends on {d}, which is not a task here", t.id),
                });
            } else if d.eq_ignore_ascii_case(&t.id) {
                errors.push(TaskWarning { line: t.line, message: format!("{} depends on itself", t.id) });
            }
        }
    }
    if !errors.is_empty() {
        return;
    }
    // Cycles: an iterative depth-first walk (a chain of any depth, no
    // recursion to overflow the stack).
    let index: BTreeMap<String, usize> = tasks.iter().enumerate().map(|(i, t)| (t.id.to_uppercase(), i)).collect();
    let deps: Vec<Vec<usize>> = tasks
        .iter()
        .map(|t| t.depends_on.iter().filter_map(|d| index.get(&d.to_uppercase()).copied()).collect())
        .collect();
    // 0 unvisited, 1 on the current path, 2 done.
    let mut state = vec![0u8; tasks.len()];
    for root in 0..tasks.len() {
        if state[root] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        state[root] = 1;
        while let Some((node, next)) = stack.last_mut() {
            let node = *node;
            if let Some(&dep) = deps[node].get(*next) {
                *next += 1;
                match state[dep] {
                    0 => {
                        state[dep] = 1;
                        stack.push((dep, 0));
                    }
                    1 => {
                        errors.push(TaskWarning {
                            line: tasks[dep].line,
                            message: format!("{} is part of a dependency cycle", tasks[dep].id),
                        });
                        return;
                    }
                    _ => {}
                }
            } else {
                state[node] = 2;
                stack.pop();
            }
        }
    }
}

/// A task's layer, in seed 004 §4.3's order: "Phase order priority:
/// database, types, queries, api, ui, tests".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, strum::IntoStaticStr, strum::VariantArray)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Layer {
    Database,
    Types,
    Queries,
    Api,
    Ui,
    Tests,
}

crate::named!(Layer, "layer");

fn parse_layer(v: &str, n: usize) -> Result<Layer, TaskWarning> {
    v.trim()
        .to_lowercase()
        .parse()
        .map_err(|e: crate::names::UnknownName| TaskWarning { line: n, message: e.to_string() })
}

/// A task's layer for the rules that depend on it (a failed database task
/// stops the build; a database task is stuck sooner): the declared one, else
/// what its files show beyond doubt (SQL and migrations are database, test
/// files are tests). Never guessed from the title's words. It never orders
/// tasks: only a declared layer does (see [`TaskList::next`]).
pub fn layer(task: &Task) -> Option<Layer> {
    if task.layer.is_some() {
        return task.layer;
    }
    let is_db = |f: &str| {
        let f = f.to_lowercase();
        f.ends_with(".sql") || f.split('/').any(|part| part == "migrations")
    };
    let is_test = |f: &str| {
        let f = f.to_lowercase();
        let name = f.rsplit('/').next().unwrap_or(&f);
        f.split('/').any(|part| part == "tests" || part == "test" || part == "__tests__")
            || name.contains(".test.")
            || name.contains(".spec.")
            || name.starts_with("test_")
            || name.contains("_test.")
    };
    if !task.files.is_empty() && task.files.iter().all(|f| is_db(f)) {
        Some(Layer::Database)
    } else if !task.files.is_empty() && task.files.iter().all(|f| is_test(f)) {
        Some(Layer::Tests)
    } else {
        None
    }
}

/// What `tasks next` hands out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Ready {
    /// Ready tasks: one, or with `parallel` a batch that may run at once.
    pub tasks: Vec<String>,
    /// Why nothing is ready, when nothing is.
    pub reason: Option<String>,
}

impl TaskList {
    /// The next task(s) to run: in phase order (a phase starts once every
    /// task of the earlier phases is done or skipped); dependencies done; no
    /// task past a checkpoint before the checkpoint, and a checkpoint after
    /// every earlier task of its phase; in the order the author wrote, except
    /// that tasks with a declared layer take the places of declared tasks in
    /// seed 004 §4.3's layer order (database, types, queries, api, ui, tests;
    /// undeclared tasks never move, and nothing is guessed from titles);
    /// in a sequential phase one task when none is in progress; with `max`
    /// above 1, up to `max` ready tasks of a parallel phase that share no
    /// file with a task in progress or with each other.
    pub fn next(&self, max: usize) -> Ready {
        let parallel = max > 1;
        let none = |reason: String| Ready { tasks: Vec::new(), reason: Some(reason) };
        let Some(phase) =
            (0..self.phases.len()).find(|&p| self.tasks.iter().any(|t| t.phase == p && !t.mark.settled()))
        else {
            return none("every task is done or skipped".into());
        };
        let in_phase: Vec<&Task> = self.tasks.iter().filter(|t| t.phase == phase).collect();
        let running: Vec<&&Task> = in_phase.iter().filter(|t| t.mark == Mark::InProgress).collect();
        let execution = self.phases[phase].execution;
        let mut batch = Vec::new();
        if execution == Execution::Parallel || running.is_empty() {
            // Eligible: a checkpoint once every earlier task is settled and
            // nothing runs; another task once its dependencies and every
            // checkpoint before it are settled. Then seed 004 §4.3's layer
            // order, file order within a layer.
            let marks: HashMap<String, Mark> = self.tasks.iter().map(|t| (t.id.to_uppercase(), t.mark)).collect();
            let settled = |id: &str| marks.get(&id.to_uppercase()).is_some_and(|m| m.settled());
            let mut eligible: Vec<(usize, &Task)> = Vec::new();
            // Whether every earlier task, and every earlier checkpoint, is settled.
            let (mut all_before, mut checkpoints_before) = (true, true);
            for (pos, t) in in_phase.iter().enumerate() {
                let ok = t.mark == Mark::Pending
                    && if t.checkpoint {
                        running.is_empty() && all_before
                    } else {
                        checkpoints_before && t.depends_on.iter().all(|d| settled(d))
                    };
                if ok {
                    eligible.push((pos, *t));
                }
                all_before &= t.mark.settled();
                checkpoints_before &= !t.checkpoint || t.mark.settled();
            }
            let eligible = declared_order(eligible);
            let mut busy: BTreeSet<String> = running.iter().flat_map(|t| t.files.iter().cloned()).collect();
            for t in eligible {
                if t.files.iter().any(|f| busy.contains(f)) {
                    continue;
                }
                busy.extend(t.files.iter().cloned());
                batch.push(t.id.clone());
                if !parallel || execution == Execution::Sequential || t.checkpoint || batch.len() >= max {
                    break;
                }
            }
        }
        if batch.is_empty() {
            // A failed task holds what depends on it, its phase's
            // checkpoints and the next phase, not the rest of its phase.
            let failed = in_phase.iter().find(|t| t.mark == Mark::Failed);
            let why = if let (Some(f), true) = (failed, running.is_empty()) {
                format!("{} failed: retry it (`tasks start {}`), skip it or stop", f.id, f.id)
            } else if running.is_empty() {
                "no pending task has its dependencies done".to_owned()
            } else {
                format!(
                    "waiting for {} in progress",
                    running.iter().map(|t| t.id.as_str()).collect::<Vec<_>>().join(", ")
                )
            };
            return none(why);
        }
        Ready { tasks: batch, reason: None }
    }
}

/// The eligible tasks (with their positions) in the order they run: the
/// written order, with the tasks that declare a layer sorted by it among the
/// places they occupy.
fn declared_order(eligible: Vec<(usize, &Task)>) -> Vec<&Task> {
    let mut declared: Vec<(Layer, usize, &Task)> =
        eligible.iter().filter_map(|(pos, t)| t.layer.filter(|_| !t.checkpoint).map(|l| (l, *pos, *t))).collect();
    declared.sort_by_key(|(l, pos, _)| (*l, *pos));
    let mut declared = declared.into_iter().map(|(_, _, t)| t);
    eligible
        .into_iter()
        .map(|(_, t)| if t.layer.is_some() && !t.checkpoint { declared.next().expect("one per slot") } else { t })
        .collect()
}

/// The most a context package's CONTEXT section holds, in bytes.
pub const CONTEXT_BUDGET: usize = 6_000;

/// Seed 003's bounded prompt for a delegate (CONTEXT / TASK / SUCCESS /
/// EXCLUDE) for a task of `feature` (its folder `feature_dir`): excerpts of
/// the feature's documents (`docs`: name and text) within
/// [`CONTEXT_BUDGET`], the task with its details and the tasks it builds on,
/// its success criterion, and the other open tasks as out of scope. Every
/// delegate gets the same shape.
pub fn context_package(
    list: &TaskList,
    task: &Task,
    docs: &[(&str, &str)],
    feature: &str,
    feature_dir: &str,
    code_dir: &str,
) -> Brief {
    let mut brief = Brief::of(crate::brief::BriefKind::TaskContext);
    brief.push("feature", SectionKind::Task, format!("FEATURE: {feature} ({feature_dir}); work in {code_dir}\n"));
    let mut out = String::from("CONTEXT:\n");
    let share = CONTEXT_BUDGET / docs.len().max(1);
    for (name, text) in docs {
        let text = text.trim();
        let cut = if text.len() <= share {
            text
        } else {
            let mut end = share;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            &text[..text[..end].rfind('\n').unwrap_or(end)]
        };
        out.push_str(&format!(
            "--- {name}{} ---\n{cut}\n",
            if cut.len() < text.len() { " (excerpt; read the file for the rest)" } else { "" }
        ));
    }
    let done: Vec<String> = task
        .depends_on
        .iter()
        .filter_map(|d| list.get(d))
        .map(|d| format!("- {}: {} ({})", d.id, d.title, d.mark.name()))
        .collect();
    if !done.is_empty() {
        out.push_str(&format!("Builds on:\n{}\n", done.join("\n")));
    }
    brief.push_from("context", SectionKind::Template, out, Some(feature_dir));
    let mut out = format!("\nTASK: {}: {}\n", task.id, task.title);
    if !task.files.is_empty() {
        out.push_str(&format!("Files: {}\n", task.files.join(", ")));
    }
    for d in &task.details {
        out.push_str(&format!("- {d}\n"));
    }
    brief.push("task", SectionKind::Task, out);
    let success = task.done_when.clone().unwrap_or_else(|| "its tests and the project's tests pass".to_owned());
    brief.push("success", SectionKind::Task, format!("\nSUCCESS: Task complete when {success}\n"));
    // Seed 004 §5.5: the gotchas come right after the requirements.
    brief.slot_here();
    let others: Vec<String> = list
        .tasks
        .iter()
        .filter(|t| t.id != task.id && !t.mark.settled())
        .take(20)
        .map(|t| format!("- {}: {}", t.id, t.title))
        .collect();
    let mut out = String::from("\nEXCLUDE: anything outside this task; in particular the other open tasks");
    if others.is_empty() {
        out.push_str(".\n");
    } else {
        out.push_str(&format!(":\n{}\n", others.join("\n")));
    }
    brief.push("exclude", SectionKind::Task, out);
    brief
}

/// `text` with the checkbox of the task on `line` set to `mark`; None when
/// that line is no longer a task checkbox.
pub fn set_mark(text: &str, line: usize, mark: Mark) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut found = false;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            let trimmed = l.trim_start();
            let indent = l.len() - trimmed.len();
            let body = trimmed.strip_prefix("- ").or_else(|| trimmed.strip_prefix("* "))?;
            checkbox(body)?;
            // `- [c]`: the mark is the fourth character after the indent.
            let at = indent + 3;
            out.push_str(&l[..at]);
            out.push(mark.char());
            out.push_str(&l[at + l[at..].chars().next()?.len_utf8()..]);
            found = true;
        } else {
            out.push_str(l);
        }
    }
    found.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TODAY: &str = "# Tasks\n\n- [x] T1 (step 1): Add the model in src/model.rs\n  - Done when: model_test passes\n  - Depends on: none\n- [ ] T2 (step 1): Add the API\n  - Done when: api_test passes\n  - Depends on: T1\n- [ ] T3 (step 2): Add the page\n  - Depends on: T1, T2\n";

    const PLAN: &str = "## Phase 1: Foundation (sequential)\n\n- [ ] **Create the schema** [`agent: the-developer`] [`review: true`] [`review_focus: security, patterns`]\n  - Subtask details\n  - Files: db/schema.sql\n- [ ] **Validation**: run the migrations\n\n## Phase 2: Features (parallel)\n\n- [ ] **Search endpoint** [`files: src/search.rs`]\n- [ ] **Export endpoint** [`files: src/export.rs`] [`depends_on: T1`]\n- [ ] **Report endpoint** [`files: src/search.rs`]\n- [ ] **Checkpoint**: all endpoint tests pass\n";

    #[test]
    fn todays_tasks_md_parses_with_ids_criteria_and_dependencies() {
        let l = TaskList::parse(TODAY).unwrap();
        let ids: Vec<&str> = l.tasks.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["T1", "T2", "T3"]);
        let t1 = &l.tasks[0];
        assert_eq!((t1.mark, t1.line, t1.title.as_str()), (Mark::Done, 3, "Add the model in src/model.rs"));
        assert_eq!(t1.done_when.as_deref(), Some("model_test passes"));
        assert!(t1.depends_on.is_empty());
        assert_eq!(l.tasks[2].depends_on, ["T1", "T2"]);
        assert!(l.warnings.is_empty(), "{:?}", l.warnings);
        assert_eq!(l.next(1).tasks, ["T2"]);
    }

    #[test]
    fn the_seeds_plan_md_parses_metadata_phases_and_checkpoints() {
        let l = TaskList::parse(PLAN).unwrap();
        assert_eq!(l.phases.len(), 2);
        assert_eq!((l.phases[0].execution, l.phases[1].execution), (Execution::Sequential, Execution::Parallel));
        let t1 = &l.tasks[0];
        assert_eq!((t1.id.as_str(), t1.title.as_str()), ("T1", "Create the schema"));
        assert_eq!((t1.agent.as_deref(), t1.review), (Some("the-developer"), Some(true)));
        assert_eq!(t1.review_focus, ["security", "patterns"]);
        assert_eq!(t1.files, ["db/schema.sql"]);
        assert_eq!(t1.details, ["Subtask details"]);
        assert!(l.tasks[1].checkpoint && l.tasks[6 - 1].checkpoint);
        assert_eq!(l.tasks[1].title, "Validation: run the migrations");
        assert_eq!(l.tasks[3].depends_on, ["T1"]);
    }

    #[test]
    fn a_tasks_priority_is_read_and_a_wrong_one_named() {
        let l = TaskList::parse("- [ ] **Fix the login** [`priority: high`] [`files: src/login.rs`]\n- [ ] **Docs**\n")
            .unwrap();
        assert_eq!(l.tasks[0].priority, Some(crate::priority::Priority::High));
        assert_eq!(l.tasks[1].priority, None);
        let e = TaskList::parse("- [ ] **Fix** [`priority: urgent`]\n").unwrap_err().to_string();
        assert!(e.contains("line 1") && e.contains("critical"), "{e}");
    }

    #[test]
    fn next_follows_phases_order_dependencies_files_and_checkpoints() {
        let mut l = TaskList::parse(PLAN).unwrap();
        assert_eq!(l.next(usize::MAX).tasks, ["T1"], "a sequential phase hands out one task");
        l.tasks[0].mark = Mark::InProgress;
        assert!(l.next(usize::MAX).reason.unwrap().contains("waiting for T1"));
        l.tasks[0].mark = Mark::Done;
        assert_eq!(l.next(usize::MAX).tasks, ["T2"], "the checkpoint comes after every earlier task");
        l.tasks[1].mark = Mark::Done;
        // Phase 2: T3 and T4 at once; T5 shares src/search.rs with T3.
        assert_eq!(l.next(usize::MAX).tasks, ["T3", "T4"]);
        assert_eq!(l.next(1).tasks, ["T3"]);
        l.tasks[2].mark = Mark::InProgress;
        assert_eq!(l.next(usize::MAX).tasks, ["T4"], "T5 waits for the file T3 is writing");
        l.tasks[2].mark = Mark::Done;
        l.tasks[3].mark = Mark::Done;
        assert_eq!(l.next(usize::MAX).tasks, ["T5"], "the checkpoint waits for T5");
        l.tasks[4].mark = Mark::Skipped;
        assert_eq!(l.next(usize::MAX).tasks, ["T6"]);
        l.tasks[5].mark = Mark::Done;
        assert_eq!(l.next(usize::MAX).reason.as_deref(), Some("every task is done or skipped"));
    }

    #[test]
    fn declared_layers_run_in_the_seeds_order_and_checkpoints_wait() {
        let text = "- [ ] **Add the settings page** [`layer: ui`]\n- [ ] **Add the settings endpoint** [`layer: api`]\n- [ ] **Add the settings migration** [`files: db/002.sql`] [`layer: database`]\n- [ ] **Checkpoint**: the app starts\n- [ ] **Add the settings tests** [`layer: tests`]\n";
        let mut l = TaskList::parse(text).unwrap();
        let layers: Vec<Option<Layer>> = l.tasks.iter().map(layer).collect();
        assert_eq!(layers, [Some(Layer::Ui), Some(Layer::Api), Some(Layer::Database), None, Some(Layer::Tests)]);
        assert_eq!(l.next(1).tasks, ["T3"], "database before api before ui");
        l.tasks[2].mark = Mark::Done;
        assert_eq!(l.next(1).tasks, ["T2"]);
        l.tasks[1].mark = Mark::Done;
        assert_eq!(l.next(1).tasks, ["T1"]);
        l.tasks[0].mark = Mark::Done;
        assert_eq!(l.next(1).tasks, ["T4"], "the tests wait for the checkpoint before them");
        l.tasks[3].mark = Mark::Done;
        assert_eq!(l.next(1).tasks, ["T5"]);
        let e = TaskList::parse("- [ ] **x** [`layer: backend`]\n").unwrap_err().to_string();
        assert!(e.contains("unknown layer `backend`") && e.contains("database, types, queries, api, ui, tests"), "{e}");
    }

    /// Regression: `tasks next` reordered a sequential phase by words in the
    /// titles ("api" in "Document the API" put T3 before T2, "suite" and
    /// "guide" contain "ui", "prototype" contains "type").
    #[test]
    fn tasks_next_reorders_a_sequential_phase_by_keyword_guesses() {
        let text = "## Phase 1 (sequential)\n\n- [x] T1: Set up the project\n- [ ] T2: Implement JWT authentication\n- [ ] T3: Document the API\n- [ ] T4: Build the suite\n- [ ] T5: Require a guide for the prototype\n";
        let mut l = TaskList::parse(text).unwrap();
        for t in &l.tasks {
            assert_eq!(layer(t), None, "{} is guessed from its title", t.title);
        }
        for want in ["T2", "T3", "T4", "T5"] {
            assert_eq!(l.next(1).tasks, [want], "the author's order");
            let i = l.tasks.iter().position(|t| t.id == want).unwrap();
            l.tasks[i].mark = Mark::Done;
        }
        // Declared layers move only declared tasks, among their own places.
        let text = "- [ ] T1: Write the docs\n- [ ] T2: The page [`layer: ui`]\n- [ ] T3: Notes\n- [ ] T4: The table [`layer: database`]\n";
        let mut l = TaskList::parse(text).unwrap();
        let mut order = Vec::new();
        while let Some(id) = l.next(1).tasks.first().cloned() {
            let i = l.tasks.iter().position(|t| t.id == id).unwrap();
            l.tasks[i].mark = Mark::Done;
            order.push(id);
        }
        assert_eq!(order, ["T1", "T4", "T2", "T3"]);
        // File evidence, not words, marks a database task for the build rules.
        let l = TaskList::parse(
            "- [ ] T1: Add users\n  - Files: db/migrations/001_users.sql\n- [ ] T2: Add the schema types\n",
        )
        .unwrap();
        assert_eq!((layer(&l.tasks[0]), layer(&l.tasks[1])), (Some(Layer::Database), None));
    }

    /// Regression: a dependency chain 50,000 tasks deep overflowed the stack
    /// of every `tasks` command.
    #[test]
    fn a_deep_dependency_chain_crashes_every_tasks_command() {
        let mut text = String::from("- [ ] T1: start\n");
        for i in 2..=50_000 {
            text.push_str(&format!("- [ ] T{i}: step\n  - Depends on: T{}\n", i - 1));
        }
        let l = TaskList::parse(&text).unwrap();
        assert_eq!(l.next(1).tasks, ["T1"]);
        let cyclic = text.replacen("- [ ] T1: start\n", "- [ ] T1: start\n  - Depends on: T50000\n", 1);
        assert!(TaskList::parse(&cyclic).unwrap_err().to_string().contains("dependency cycle"));
    }

    #[test]
    fn a_context_package_has_the_seeds_four_parts_within_its_budget() {
        let l = TaskList::parse(TODAY).unwrap();
        let spec = "# Spec\n".to_owned() + &"R1 the model.\n".repeat(1000);
        let p = context_package(
            &l,
            &l.tasks[1],
            &[("spec.md", &spec), ("plan.md", "# Plan\nStep 1.\n")],
            "001-a",
            "/r/docs/features/001-a",
            "/r",
        )
        .pack()
        .text;
        assert!(p.starts_with("FEATURE: 001-a (/r/docs/features/001-a); work in /r\nCONTEXT:\n--- spec.md (excerpt; read the file for the rest) ---\n# Spec\n"), "{p}");
        assert!(p.contains("--- plan.md ---\n# Plan\nStep 1.\n"));
        assert!(p.contains("Builds on:\n- T1: Add the model in src/model.rs (done)\n"));
        assert!(p.contains("\nTASK: T2: Add the API\n"));
        assert!(p.contains("\nSUCCESS: Task complete when api_test passes\n"));
        assert!(p.contains(
            "\nEXCLUDE: anything outside this task; in particular the other open tasks:\n- T3: Add the page\n"
        ));
        assert!(p.len() < CONTEXT_BUDGET + 1_000, "{}", p.len());
        // The cost knows a delegate's task from the package it was given.
        assert_eq!(crate::cost::task_of_prompt(&p), Some(("001-a".into(), "T2".into())));
    }

    #[test]
    fn a_failed_task_holds_only_what_depends_on_it() {
        let mut l = TaskList::parse(TODAY).unwrap();
        l.tasks[1].mark = Mark::Failed;
        let r = l.next(1);
        assert!(r.tasks.is_empty() && r.reason.unwrap().contains("T2 failed"));
    }

    #[test]
    fn malformed_lines_are_errors_with_their_line_numbers() {
        for (text, line, needle) in [
            ("- [y] T1: x\n", 1, "not a task checkbox"),
            ("- [ ] T1: x\n- [ ] T1: y\n", 2, "already the id of line 1"),
            ("- [ ] T1: x\n  - Depends on: T9\n", 1, "T9, which is not a task"),
            ("- [ ] T1: x\n  - Depends on: T2\n- [ ] T2: y\n  - Depends on: T1\n", 1, "dependency cycle"),
            ("- [ ] **x** [`review: maybe`]\n", 1, "true or false"),
            ("- [ ] **x** [`agent: a\n", 1, "closing"),
        ] {
            let e = TaskList::parse(text).unwrap_err();
            assert_eq!(e.0[0].line, line, "{text:?}: {e}");
            assert!(e.to_string().contains(needle), "{text:?}: {e}");
        }
    }

    #[test]
    fn unknown_metadata_is_reported_not_dropped_silently() {
        let l = TaskList::parse("- [ ] **x** [`owner: bob`] [`agent: a`]\n").unwrap();
        assert_eq!(l.tasks[0].agent.as_deref(), Some("a"));
        assert_eq!(l.warnings.len(), 1);
        assert!(l.warnings[0].message.contains("unknown metadata `owner`"));
    }

    #[test]
    fn fenced_examples_are_not_tasks() {
        let l = TaskList::parse("```markdown\n- [ ] T1: example\n```\n- [ ] T1: real\n").unwrap();
        assert_eq!(l.tasks.len(), 1);
        assert_eq!(l.tasks[0].line, 4);
    }

    #[test]
    fn set_mark_changes_only_that_checkbox() {
        let out = set_mark(TODAY, 6, Mark::Done).unwrap();
        assert_eq!(out, TODAY.replacen("- [ ] T2", "- [x] T2", 1));
        assert_eq!(TaskList::parse(&out).unwrap().tasks[1].mark, Mark::Done);
        assert!(set_mark(TODAY, 4, Mark::Done).is_none(), "line 4 is a sub-bullet");
        let crlf = "- [ ] T1: a\r\n- [ ] T2: b\r\n";
        assert_eq!(set_mark(crlf, 2, Mark::Skipped).unwrap(), "- [ ] T1: a\r\n- [-] T2: b\r\n");
    }
}
