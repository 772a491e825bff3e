//! What the model is told, built in one place: a brief is a list of
//! sections, each with a kind that carries its priority, packed under a
//! budget and rendered once. Every brief phasegate prints (a phase's, a
//! reviewer's, a task's context package, the pipeline's next step) is a
//! [`Brief`]; another capability adds its section (the knowledge base's
//! gotchas) without touching the builder that made the rest.
//!
//! Packing follows seed 004 §9.2 ("When context exceeds budget, what to
//! keep?"): sections are taken by priority, highest first; one that fits is
//! kept whole; one that does not fit is truncated to the room left when its
//! priority is above 0.8, and nothing after it is kept; a lower one that
//! does not fit is left out and the next is tried. Kept sections render in
//! the order they were added, so a brief reads the same whatever was cut.
//! Every pack says what it kept and what it cut.
//!
//! Sizes are estimated in tokens as bytes / 4, rounded up: English prose
//! and code average about four bytes a token for Claude's tokenizer, and an
//! estimate that errs on the high side for non-ASCII text keeps a brief
//! under its budget rather than over it.

use serde::{Deserialize, Serialize};

mod budgets;
mod config;
mod loading;

pub use budgets::BriefKind;
pub use config::{CONTEXT_CONFIG_PATH, ContextConfig, JUST_IN_TIME_MAX_BYTES, JustInTime};
pub use loading::Loading;

/// Bytes per estimated token.
pub(crate) const BYTES_PER_TOKEN: usize = 4;

/// The estimated tokens of `text` (bytes / 4, rounded up).
pub(crate) fn estimate_tokens(text: &str) -> usize {
    text.len().div_ceil(BYTES_PER_TOKEN)
}

/// What a section holds, in seed 004 §9.2's priority list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantArray)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum SectionKind {
    /// The current task (or phase, or review) itself: always included.
    Task,
    /// Gotchas that apply to it.
    Gotchas,
    /// A template or starting point.
    Template,
    /// The project's conventions (from CLAUDE.md).
    Conventions,
    /// Recent memory: the last answers, the previous review's issues.
    RecentMemory,
    /// The idea summary: the feature's spec or the project's README.
    Readme,
    /// Older memory.
    FullMemory,
    /// Research documents.
    Research,
}

crate::named!(SectionKind, "section kind");

impl SectionKind {
    /// The seed's priorities: task 1.0, gotchas 0.95, template 0.90,
    /// conventions 0.85, recent memory 0.80, README 0.70, full memory 0.50,
    /// research 0.30.
    pub fn priority(self) -> f64 {
        match self {
            SectionKind::Task => 1.0,
            SectionKind::Gotchas => 0.95,
            SectionKind::Template => 0.90,
            SectionKind::Conventions => 0.85,
            SectionKind::RecentMemory => 0.80,
            SectionKind::Readme => 0.70,
            SectionKind::FullMemory => 0.50,
            SectionKind::Research => 0.30,
        }
    }

    /// Above 0.8 a section that does not fit is truncated rather than left
    /// out (the seed's `elif priority > 0.8`).
    pub(crate) fn truncates(self) -> bool {
        self.priority() > 0.8
    }
}

/// One section of a brief: its name (for the pack report), its kind, the
/// text as it is rendered (ending with a newline), and where the reader
/// finds the rest if it is cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    pub name: String,
    pub kind: SectionKind,
    pub text: String,
    pub source: Option<String>,
}

/// A brief being built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Brief {
    /// Which brief this is (`review`, `task-context`, …): budgets are
    /// configured per brief.
    pub name: &'static str,
    /// The budget in estimated tokens.
    pub budget: usize,
    sections: Vec<Section>,
    /// Where other capabilities' sections go (None: at the end).
    slot: Option<usize>,
}

/// A section the pack kept, whole or cut.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Kept {
    pub name: String,
    pub kind: SectionKind,
    pub tokens: usize,
    /// The section was truncated to fit.
    pub truncated: bool,
}

/// A section the pack left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cut {
    pub name: String,
    pub kind: SectionKind,
    pub tokens: usize,
}

/// A packed brief: the text and what went into it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Packed {
    pub brief: &'static str,
    pub budget: usize,
    /// Estimated tokens of the text.
    pub tokens: usize,
    pub kept: Vec<Kept>,
    pub cut: Vec<Cut>,
    #[serde(skip)]
    pub text: String,
    /// The kept sections' names and texts, in order.
    #[serde(skip)]
    pub sections: Vec<(String, String)>,
}

impl Brief {
    pub fn new(name: &'static str, budget: usize) -> Brief {
        Brief { name, budget, sections: Vec::new(), slot: None }
    }

    /// A brief of `kind`, with its default budget (the configuration may
    /// change it when the brief is finished).
    pub fn of(kind: BriefKind) -> Brief {
        Brief::new(kind.name(), kind.default_budget())
    }

    /// Marks where sections that other capabilities contribute go: here,
    /// after the sections pushed so far (seed 004 §5.5 puts the gotchas
    /// right after the task's requirements).
    pub fn slot_here(&mut self) -> &mut Brief {
        self.slot = Some(self.sections.len());
        self
    }

    /// Adds another capability's section at the slot (at the end without
    /// one), after the contributions already there.
    pub fn contribute(&mut self, name: impl Into<String>, kind: SectionKind, text: impl Into<String>) -> &mut Brief {
        let at = self.slot.unwrap_or(self.sections.len());
        let before = self.sections.len();
        self.push(name, kind, text);
        if self.sections.len() > before {
            let s = self.sections.pop().expect("just pushed");
            self.sections.insert(at, s);
            if let Some(slot) = self.slot.as_mut() {
                *slot += 1;
            }
        }
        self
    }

    /// Adds a section; an empty one is not added (the seed's `if value is
    /// None: continue`).
    pub fn push(&mut self, name: impl Into<String>, kind: SectionKind, text: impl Into<String>) -> &mut Brief {
        self.push_from(name, kind, text, None::<String>)
    }

    /// Adds a section whose whole text lives in `source` (a file the reader
    /// can open when the section is cut).
    pub fn push_from(
        &mut self,
        name: impl Into<String>,
        kind: SectionKind,
        text: impl Into<String>,
        source: Option<impl Into<String>>,
    ) -> &mut Brief {
        let mut text = text.into();
        if text.trim().is_empty() {
            return self;
        }
        if !text.ends_with('\n') {
            text.push('\n');
        }
        self.sections.push(Section { name: name.into(), kind, text, source: source.map(Into::into) });
        self
    }

    pub fn sections(&self) -> &[Section] {
        &self.sections
    }

    /// Whether a section of this name is in the brief.
    pub fn has(&self, name: &str) -> bool {
        self.sections.iter().any(|s| s.name == name)
    }

    /// Packs the sections under the budget (module docs) and renders them.
    pub fn pack(&self) -> Packed {
        let mut order: Vec<usize> = (0..self.sections.len()).collect();
        // Highest priority first; a stable sort keeps the order of equals.
        order.sort_by(|a, b| self.sections[*b].kind.priority().total_cmp(&self.sections[*a].kind.priority()));
        let mut texts: Vec<Option<(String, bool)>> = vec![None; self.sections.len()];
        let mut used = 0usize;
        let mut stopped = false;
        for i in order {
            let s = &self.sections[i];
            if stopped {
                continue;
            }
            let size = estimate_tokens(&s.text);
            if used + size <= self.budget {
                texts[i] = Some((s.text.clone(), false));
                used += size;
            } else if s.kind.truncates() {
                let room = self.budget.saturating_sub(used);
                let cut = truncate(&s.text, room, s.source.as_deref());
                if !cut.is_empty() {
                    used += estimate_tokens(&cut);
                    texts[i] = Some((cut, true));
                }
                stopped = true;
            }
        }
        let mut text = String::new();
        let mut kept = Vec::new();
        let mut cut = Vec::new();
        let mut sections = Vec::new();
        for (s, t) in self.sections.iter().zip(texts) {
            match t {
                Some((t, truncated)) => {
                    kept.push(Kept { name: s.name.clone(), kind: s.kind, tokens: estimate_tokens(&t), truncated });
                    text.push_str(&t);
                    sections.push((s.name.clone(), t));
                }
                None => cut.push(Cut { name: s.name.clone(), kind: s.kind, tokens: estimate_tokens(&s.text) }),
            }
        }
        Packed { brief: self.name, budget: self.budget, tokens: estimate_tokens(&text), kept, cut, text, sections }
    }
}

impl Packed {
    /// One line saying what the pack cut or truncated to fit its budget
    /// (None when everything was kept whole).
    pub fn report(&self) -> Option<String> {
        let truncated: Vec<&str> = self.kept.iter().filter(|k| k.truncated).map(|k| k.name.as_str()).collect();
        if self.cut.is_empty() && truncated.is_empty() {
            return None;
        }
        let mut parts = Vec::new();
        if !truncated.is_empty() {
            parts.push(format!("truncated {}", truncated.join(", ")));
        }
        if !self.cut.is_empty() {
            let cut: Vec<String> = self.cut.iter().map(|c| format!("{} (~{} tokens)", c.name, c.tokens)).collect();
            parts.push(format!("left out {}", cut.join(", ")));
        }
        Some(format!("[{} packed to ~{} of {} tokens: {}]", self.brief, self.tokens, self.budget, parts.join("; ")))
    }
}

/// `text` cut at a line boundary to fit `tokens` (with the note that says
/// where the rest is); empty when not even the note fits.
fn truncate(text: &str, tokens: usize, source: Option<&str>) -> String {
    let note = match source {
        Some(src) => format!("[cut to fit the brief; the rest is in {src}]\n"),
        None => "[cut to fit the brief]\n".to_owned(),
    };
    let room = (tokens * BYTES_PER_TOKEN).saturating_sub(note.len());
    if room == 0 {
        return String::new();
    }
    let mut end = room.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let end = text[..end].rfind('\n').map_or(end, |n| n + 1);
    if end == 0 {
        return String::new();
    }
    format!("{}{note}", &text[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: usize) -> String {
        (0..lines).map(|i| format!("line {i:03} of a section\n")).collect()
    }

    #[test]
    fn the_seeds_priorities_and_token_estimate() {
        let p: Vec<f64> = <SectionKind as strum::VariantArray>::VARIANTS.iter().map(|k| k.priority()).collect();
        assert_eq!(p, [1.0, 0.95, 0.90, 0.85, 0.80, 0.70, 0.50, 0.30]);
        assert!(SectionKind::Conventions.truncates() && !SectionKind::RecentMemory.truncates(), "above 0.8 only");
        assert_eq!((estimate_tokens(""), estimate_tokens("abcd"), estimate_tokens("abcde")), (0, 1, 2));
        crate::names::assert_serde_names::<SectionKind>();
    }

    #[test]
    fn everything_that_fits_is_kept_in_the_order_it_was_added() {
        let mut b = Brief::new("t", 1_000);
        b.push("readme", SectionKind::Readme, "R\n").push("task", SectionKind::Task, "T\n").push(
            "empty",
            SectionKind::Research,
            " ",
        );
        let p = b.pack();
        assert_eq!(p.text, "R\nT\n");
        assert_eq!(p.kept.iter().map(|k| k.name.as_str()).collect::<Vec<_>>(), ["readme", "task"]);
        assert!(p.cut.is_empty());
    }

    #[test]
    fn greedy_fill_truncates_a_high_priority_section_and_skips_a_low_one() {
        // 25 bytes a line: about 6.25 tokens.
        let mut b = Brief::new("t", 100);
        b.push("task", SectionKind::Task, text(4)) // 25 tokens
            .push("research", SectionKind::Research, text(2)) // 13: fits after the others? no room left
            .push("memory", SectionKind::FullMemory, text(30)) // 188: never fits, left out
            .push("gotchas", SectionKind::Gotchas, text(4)) // 25
            .push("conventions", SectionKind::Conventions, text(40)); // 250: truncated, then stop
        let p = b.pack();
        assert!(p.tokens <= 100, "{}", p.tokens);
        let kept: Vec<(&str, bool)> = p.kept.iter().map(|k| (k.name.as_str(), k.truncated)).collect();
        assert_eq!(kept, [("task", false), ("gotchas", false), ("conventions", true)]);
        let cut: Vec<&str> = p.cut.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(cut, ["research", "memory"], "after a truncation nothing more is kept");
        assert!(p.text.contains("[cut to fit the brief]\n"));
        assert!(p.text.starts_with(&text(4)), "the task first, as added");
    }

    #[test]
    fn a_low_priority_section_that_does_not_fit_is_skipped_and_the_next_tried() {
        let mut b = Brief::new("t", 40);
        b.push("task", SectionKind::Task, text(2)) // 13
            .push("readme", SectionKind::Readme, text(8)) // 50: skipped
            .push("memory", SectionKind::FullMemory, text(2)); // 13: fits
        let p = b.pack();
        assert_eq!(p.kept.iter().map(|k| k.name.as_str()).collect::<Vec<_>>(), ["task", "memory"]);
        assert_eq!(p.cut[0].name, "readme");
    }

    #[test]
    fn a_cut_section_says_where_the_rest_is() {
        let mut b = Brief::new("t", 20);
        b.push_from("spec", SectionKind::Task, text(10), Some("docs/features/001-a/spec.md"));
        let p = b.pack();
        assert!(p.text.ends_with("[cut to fit the brief; the rest is in docs/features/001-a/spec.md]\n"), "{}", p.text);
        assert!(p.tokens <= 20 && p.kept[0].truncated);
    }
}
