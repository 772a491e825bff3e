//! What reading a knowledge file may cost, checked before the YAML parser
//! sees it: items arrive by `git pull`, and every hook and command reads
//! them.
//!
//! **Size.** An item file is at most [`MAX_ITEM_BYTES`]: a lesson is a few
//! lines and its evidence at most ten excerpts of 2,000 characters, and
//! writes drop the oldest evidence to stay under it.
//!
//! **Nesting.** The YAML scanner (libyaml, under serde_yaml) slows down
//! with every level of flow collection (`[`, `{`) open at once: 200 KB of
//! `[` take it minutes, and serde_yaml refuses anything deeper than 128
//! levels only after that. So the front matter is refused when the flow
//! nesting the scanner could reach is above [`MAX_FLOW_NESTING`] (a real
//! item's is 0, or 2 written as `[{…}]`).
//!
//! The nesting is bounded from above, never guessed: a quote, a comment, a
//! block scalar or a tag hides brackets from the scanner, and a bracket in
//! a plain scalar outside flow collections is text, so counting brackets
//! naively lets `[ "]]]]" [ "]]]]" …` nest without end while the count
//! stays low. The scan follows every way the scanner could read each
//! character (inside a quote or not, a comment or not, a block scalar or
//! not) and keeps, for each of those states, the deepest nesting any
//! reading reaches; openers add one, and closers take one away only where
//! nothing hides them. It commits to one reading where YAML leaves no
//! choice: between two tokens outside flow collections (where a reading
//! that counts no open bracket must be, as libyaml's count is never above
//! it), a quote or block scalar right after `: `, a comment after a blank,
//! a quote's end. That keeps what phasegate writes at its true depth, and
//! since whatever libyaml does is one of the readings followed, its
//! nesting never exceeds the bound. Property tests hold the bound against
//! serde_yaml on generated documents.

/// The largest knowledge item file read, in bytes.
pub const MAX_ITEM_BYTES: usize = 64 * 1024;

/// The deepest flow nesting (`[`, `{`) a front matter may reach.
pub const MAX_FLOW_NESTING: usize = 32;

/// The most block-scalar readings followed at once; beyond it they are
/// counted together, pessimistically.
const MAX_BLOCK_READINGS: usize = 16;

/// A block scalar being read (see YAML's `|`, `>`): its header's
/// indentation indicator, the column its line's structure starts at (the
/// parent collection's is at most that), and what its content lines showed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Block {
    /// The explicit indentation indicator (`|2`), if any.
    explicit: Option<usize>,
    /// The header line's structural column (after its `- `, `? `, `: `).
    parent_at_most: usize,
    /// Still on the header line.
    header: bool,
    /// Spaces counted at the start of the current line; None once past them.
    spaces: Option<usize>,
    /// The first content line's column (indentation detected from it).
    first: Option<usize>,
    /// The most spaces on an empty line before the first content line.
    max_empty: usize,
    /// The least column of a content line so far (explicit indicator).
    min_col: usize,
}

/// A reading's state at one character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Between tokens, or (inside flow collections) structure and plain
    /// text: brackets count.
    Normal,
    /// A plain scalar outside flow collections: brackets are text. After a
    /// line break (`line_start`) it may go on or a new token may start.
    Plain { line_start: bool },
    /// An anchor's or alias's name (`&a`, `*a`).
    Anchor,
    /// The rest of a document marker (`---`, `...`).
    Marker(u8),
    /// Inside `'…'`.
    Single,
    /// A `'` inside `'…'`: an escaped quote if another follows, else the end.
    SingleQuote,
    /// Inside `"…"`.
    Double,
    /// After `\` inside `"…"`.
    DoubleEscape,
    /// A comment or a directive, to the end of the line.
    Comment,
    /// A tag (`!x`, `!<…>`).
    Tag,
    /// A block scalar's header and content.
    Block(Block),
    /// Every reading that was folded: openers count, nothing else.
    Upper,
}

/// The readings alive at one character: each state with its deepest nesting.
#[derive(Debug, Default)]
struct Readings {
    states: Vec<(State, usize)>,
}

impl Readings {
    fn add(&mut self, state: State, depth: usize) {
        match self.states.iter_mut().find(|(s, _)| *s == state) {
            Some((_, d)) => *d = (*d).max(depth),
            None => self.states.push((state, depth)),
        }
    }

    fn deepest(&self) -> usize {
        self.states.iter().map(|(_, d)| *d).max().unwrap_or(0)
    }

    /// Folds the block readings into one pessimistic reading when there are
    /// too many to follow.
    fn fold(&mut self) {
        let blocks = self.states.iter().filter(|(s, _)| matches!(s, State::Block(_))).count();
        if blocks <= MAX_BLOCK_READINGS {
            return;
        }
        let deepest = self.states.iter().filter(|(s, _)| matches!(s, State::Block(_))).map(|(_, d)| *d).max();
        self.states.retain(|(s, _)| !matches!(s, State::Block(_)));
        if let Some(d) = deepest {
            self.add(State::Upper, d);
        }
    }
}

/// Line breaks as libyaml knows them.
fn is_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// Characters a tag may hold (URI characters, handles, `<…>`); `,`, `[`,
/// `]` only outside flow collections, so both ways for those.
fn in_tag(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-_;/?:@&=+$.%!~*'()<>".contains(c)
}

/// The text of one front matter, with what each position needs (computed
/// once: the scan stays linear in the text).
struct Text {
    chars: Vec<char>,
    /// Each character's column.
    col: Vec<usize>,
    /// The structural column of each character's line (see
    /// [`structural_column`]).
    structural: Vec<usize>,
}

impl Text {
    fn new(yaml: &str) -> Text {
        let chars: Vec<char> = yaml.chars().collect();
        let mut col = Vec::with_capacity(chars.len());
        let mut structural = Vec::with_capacity(chars.len());
        let mut start = 0;
        while start < chars.len() {
            let end = chars[start..].iter().position(|c| is_break(*c)).map_or(chars.len(), |p| start + p + 1);
            let s = structural_column(&chars[start..end]);
            col.extend(0..end - start);
            structural.extend(std::iter::repeat_n(s, end - start));
            start = end;
        }
        Text { chars, col, structural }
    }

    /// Whether the character at `i` follows `:` and at least one blank on
    /// its line: the place of a value, where a quote or a block scalar is
    /// what YAML reads.
    fn after_value_indicator(&self, i: usize) -> bool {
        let mut j = i;
        while j > 0 && is_blank(self.chars[j - 1]) {
            j -= 1;
        }
        j < i && j > 0 && self.chars[j - 1] == ':'
    }

    /// Whether `i` starts its line or follows a blank.
    fn after_blank(&self, i: usize) -> bool {
        self.col[i] == 0 || is_blank(self.chars[i - 1])
    }

    /// A block scalar header at `i` (`|` or `>`): its explicit indentation
    /// indicator, if any.
    fn indentation_indicator(&self, i: usize) -> Option<usize> {
        self.chars[i + 1..].iter().take(2).find_map(|c| c.to_digit(10).filter(|d| *d > 0)).map(|d| d as usize)
    }
}

/// The column where the structure of a line starts: past its indentation
/// and any `- `, `? ` or `: ` indicators. A block collection that holds a
/// block scalar begun on the line starts at this column or before it.
fn structural_column(line: &[char]) -> usize {
    let mut j = 0;
    loop {
        while j < line.len() && is_blank(line[j]) {
            j += 1;
        }
        let indicator = j < line.len() && matches!(line[j], '-' | '?' | ':');
        if indicator && line.get(j + 1).is_some_and(|c| is_blank(*c)) {
            j += 1;
        } else {
            return j;
        }
    }
}

/// The block scalar a header at `i` (`|` or `>`) starts.
fn block_at(text: &Text, i: usize) -> State {
    State::Block(Block {
        explicit: text.indentation_indicator(i),
        parent_at_most: text.structural[i],
        header: true,
        spaces: None,
        first: None,
        max_empty: 0,
        min_col: usize::MAX,
    })
}

/// What a reading in Normal does with the character at `i`.
fn normal(text: &Text, i: usize, depth: usize, out: &mut Readings) {
    if depth == 0 {
        return between_tokens(text, i, out);
    }
    // Inside flow collections, as deep as a reading may be: where YAML
    // leaves a choice (a quote or `#` inside plain text), both ways.
    match text.chars[i] {
        '[' | '{' => out.add(State::Normal, depth + 1),
        ']' | '}' => out.add(State::Normal, depth - 1),
        '\'' | '"' => {
            let quote = if text.chars[i] == '\'' { State::Single } else { State::Double };
            out.add(quote, depth);
            if !text.after_value_indicator(i) {
                out.add(State::Normal, depth);
            }
        }
        '#' => {
            out.add(State::Comment, depth);
            if !text.after_blank(i) {
                out.add(State::Normal, depth);
            }
        }
        '!' => {
            out.add(State::Tag, depth);
            out.add(State::Normal, depth);
        }
        '|' | '>' => {
            out.add(block_at(text, i), depth);
            if !text.after_value_indicator(i) {
                out.add(State::Normal, depth);
            }
        }
        _ => out.add(State::Normal, depth),
    }
}

/// Outside flow collections, between two tokens: the character starts
/// the next one, and YAML says which.
fn between_tokens(text: &Text, i: usize, out: &mut Readings) {
    let c = text.chars[i];
    let then_blank = text.chars.get(i + 1).is_none_or(|n| is_blank(*n) || is_break(*n));
    let marker = text.col[i] == 0
        && (c == '-' || c == '.')
        && text.chars.get(i + 1) == Some(&c)
        && text.chars.get(i + 2) == Some(&c)
        && text.chars.get(i + 3).is_none_or(|n| is_blank(*n) || is_break(*n));
    let state = match c {
        _ if is_blank(c) || is_break(c) => State::Normal,
        '[' | '{' => return out.add(State::Normal, 1),
        ']' | '}' | ',' => State::Normal,
        _ if marker => State::Marker(2),
        '-' | '?' | ':' if then_blank => State::Normal,
        '\'' => State::Single,
        '"' => State::Double,
        '#' => State::Comment,
        '%' if text.col[i] == 0 => State::Comment,
        '|' | '>' => block_at(text, i),
        '!' => State::Tag,
        '&' | '*' => State::Anchor,
        _ => State::Plain { line_start: false },
    };
    out.add(state, 0);
}

/// A plain scalar outside flow collections over the character at `i`
/// (not a line break): it ends at `: ` and at ` #`.
fn plain(text: &Text, i: usize, out: &mut Readings) {
    let c = text.chars[i];
    let then_blank = text.chars.get(i + 1).is_none_or(|n| is_blank(*n) || is_break(*n));
    if c == ':' && then_blank {
        out.add(State::Normal, 0);
    } else if c == '#' && text.after_blank(i) {
        out.add(State::Comment, 0);
    } else {
        out.add(State::Plain { line_start: false }, 0);
    }
}

/// A block scalar reading at a content line's first character (column
/// `col`): whether it may end there, must end there, and how it goes on.
fn block_line(b: Block, col: usize) -> (bool, Option<Block>) {
    match (b.explicit, b.first) {
        // Detected indentation: the first content line sets it, unless the
        // parent or a longer empty line makes it deeper, which ends the
        // scalar at once; later lines end it when less indented.
        (None, None) => {
            let may_end = col <= b.parent_at_most || col < b.max_empty;
            (may_end, Some(Block { first: Some(col), ..b }))
        }
        (None, Some(m)) => (col < m, (col >= m).then_some(b)),
        // An explicit indicator N: the indentation is N more than the
        // parent's (0 to `parent_at_most`), so it is in N..=parent+N and
        // ends the scalar at the first line below it.
        (Some(n), _) => {
            if col < n {
                return (true, None);
            }
            let may_end = col < b.min_col && col < b.parent_at_most + n;
            (may_end, Some(Block { min_col: b.min_col.min(col), ..b }))
        }
    }
}

/// One step of every reading over the character at `i`.
fn step(text: &Text, i: usize, readings: &Readings) -> Readings {
    let c = text.chars[i];
    let mut out = Readings::default();
    for &(state, depth) in &readings.states {
        match state {
            State::Normal => normal(text, i, depth, &mut out),
            State::Single => out.add(if c == '\'' { State::SingleQuote } else { State::Single }, depth),
            State::SingleQuote if c == '\'' => out.add(State::Single, depth),
            State::SingleQuote => normal(text, i, depth, &mut out),
            State::Double => out.add(
                match c {
                    '\\' => State::DoubleEscape,
                    '"' => State::Normal,
                    _ => State::Double,
                },
                depth,
            ),
            State::DoubleEscape => out.add(State::Double, depth),
            State::Comment => out.add(if is_break(c) { State::Normal } else { State::Comment }, depth),
            State::Tag => {
                if in_tag(c) {
                    out.add(State::Tag, depth);
                } else if matches!(c, ',' | '[' | ']') {
                    out.add(State::Tag, depth);
                    normal(text, i, depth, &mut out);
                } else {
                    normal(text, i, depth, &mut out);
                }
            }
            State::Block(b) => block(text, i, b, depth, &mut out),
            State::Upper => out.add(State::Upper, if matches!(c, '[' | '{') { depth + 1 } else { depth }),
            State::Plain { line_start } => {
                if is_break(c) {
                    out.add(State::Plain { line_start: true }, depth);
                } else if is_blank(c) {
                    out.add(state, depth);
                } else if line_start {
                    // A continuation line, or a new token.
                    plain(text, i, &mut out);
                    between_tokens(text, i, &mut out);
                } else {
                    plain(text, i, &mut out);
                }
            }
            State::Anchor if c.is_ascii_alphanumeric() || c == '-' || c == '_' => out.add(State::Anchor, depth),
            State::Anchor => normal(text, i, depth, &mut out),
            State::Marker(0) => normal(text, i, depth, &mut out),
            State::Marker(n) => out.add(State::Marker(n - 1), depth),
        }
    }
    out.fold();
    out
}

/// A block scalar reading over the character at `i`.
fn block(text: &Text, i: usize, b: Block, depth: usize, out: &mut Readings) {
    let c = text.chars[i];
    if is_break(c) {
        // An empty line before the first content line counts its spaces.
        let max_empty = match (b.first, b.spaces) {
            (None, Some(s)) if !b.header => b.max_empty.max(s),
            _ => b.max_empty,
        };
        out.add(State::Block(Block { header: false, spaces: Some(0), max_empty, ..b }), depth);
        return;
    }
    match b.spaces {
        Some(s) if c == ' ' => out.add(State::Block(Block { spaces: Some(s + 1), ..b }), depth),
        Some(col) => {
            let (may_end, goes_on) = block_line(b, col);
            if may_end {
                normal(text, i, depth, out);
            }
            if let Some(next) = goes_on {
                out.add(State::Block(Block { spaces: None, ..next }), depth);
            }
        }
        None => out.add(State::Block(b), depth),
    }
}

/// The first line (1-based, in `yaml`) where some reading of `yaml` nests
/// flow collections deeper than `max`, or None when none does.
pub(crate) fn too_deep(yaml: &str, max: usize) -> Option<usize> {
    let text = Text::new(yaml);
    let mut readings = Readings::default();
    readings.add(State::Normal, 0);
    let mut line = 1;
    for i in 0..text.chars.len() {
        readings = step(&text, i, &readings);
        if readings.deepest() > max {
            return Some(line);
        }
        if text.chars[i] == '\n' {
            line += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How deep the value serde_yaml (libyaml) reads from `yaml` nests,
    /// for the documents it reads whole.
    fn parsed_depth(yaml: &str) -> Option<usize> {
        fn depth(v: &serde_yaml::Value) -> usize {
            match v {
                serde_yaml::Value::Sequence(s) => 1 + s.iter().map(depth).max().unwrap_or(0),
                serde_yaml::Value::Mapping(m) => 1 + m.iter().map(|(k, v)| depth(k).max(depth(v))).max().unwrap_or(0),
                serde_yaml::Value::Tagged(t) => depth(&t.value),
                _ => 0,
            }
        }
        serde_yaml::from_str::<serde_yaml::Value>(yaml).ok().map(|v| depth(&v))
    }

    /// Whether `text` holds no block collection indicator (`- `, `? `,
    /// `: `, or one at a line's end): what it nests is flow nesting.
    fn flow_only(text: &str) -> bool {
        let chars: Vec<char> = text.chars().collect();
        !chars
            .iter()
            .enumerate()
            .any(|(i, c)| matches!(c, '-' | '?' | ':') && chars.get(i + 1).is_none_or(|n| is_blank(*n) || is_break(*n)))
    }

    /// The bound: the least `max` that `too_deep` accepts.
    fn bound(yaml: &str) -> usize {
        (0..).find(|m| too_deep(yaml, *m).is_none()).unwrap()
    }

    #[test]
    fn what_phasegate_writes_is_read_at_its_true_depth() {
        let item = super::super::item::tests::FILE;
        let yaml = &item[4..item.rfind("\n---").unwrap()];
        assert_eq!(bound(yaml), 0, "block collections are not flow nesting");
        let tricky = "id: x\nexcerpt: 'error[E0308]: expected `[`, got ''}'' ]]]'\nother: |-\n  [[[[{{{{\n  \"unclosed [\n  # not a comment [[\nlast: \"a \\\" [[[ \\\\\"\ntask: \"]]]\"\n";
        assert_eq!(bound(tricky), 0, "{tricky}");
        assert_eq!(bound("evidence: [{task: a, feature: b}]\n"), 2);
        // Ten failure outputs full of brackets and quotes, as rendered.
        let mut item = super::super::item::KnowledgeItem::parse(item).unwrap();
        let outputs = [
            "error[E0106]: missing lifetime specifier\n --> src/x.rs:3:16\n  |\n3 | fn f<'a>(x: &'a str) -> &'a str {\n  |         ^ expected [",
            "{\"a\": [[[{\"b\": [1, 2, {\"c\": [",
            "expected `[`, found `'}'` ]]] [[[",
            "  indented: [[[ 'it''s' \"q\\\" [[",
            "single line with [[[[ and # and : colons: [[[",
            "# [[[ comment-like\n- [[[ list-like\n? [[[\n: [[[",
            "tab\t[[[\u{85}next [[[\u{2028}more [[[",
            "!tag [[[ &anchor [[[ *alias [[[ | > %",
            "]]]] closers first [[[[",
            "ends with a quote '",
        ];
        for (k, out) in outputs.iter().enumerate() {
            let mut e = item.evidence[0].clone();
            e.task = format!("T{k}");
            e.excerpt = Some((*out).to_owned());
            item.evidence.push(e);
        }
        let rendered = item.render();
        let yaml = &rendered[4..rendered.rfind("\n---").unwrap()];
        assert!(bound(yaml) <= 2, "bound {} for\n{yaml}", bound(yaml));
        assert_eq!(super::super::item::KnowledgeItem::parse(&rendered).unwrap(), item);
    }

    #[test]
    fn brackets_no_reading_can_hide_are_counted() {
        for (yaml, at_least) in [
            ("a: [[[[[[", 6),
            ("a: [ \"]]]]\" , [ \"]]]]\", [ \"]]]]\" , [\n", 4),
            ("a: [ '''']]]]''' , [ 'x' , [\n", 3),
            ("a: [ !<]]]]> [ !<]]]]> [ !x]]]] [\n", 3),
            ("a: [ # ]]]]\n [ # ]]]]\n [\n", 3),
            ("a: |\n  x\nb: [[[[\n", 4),
            ("- |\n  x\n- [[[[\n", 4),
            ("a:\n  - |2\n     x\n  - [[[[\n", 4),
            ("a: [ x 'y\n ]]]]' [[[\n", 1),
            ("a: b 'x\n[[[[\n", 4),
            ("&a [[[[\n", 4),
            ("--- [[[[\n", 4),
            ("k: x # ]]\n[[[\n", 3),
            ("- a\n- [[[\n", 3),
            ("? [[[\n: [[[\n", 3),
            ("k: a\n  [[[[ b\n", 4),
            ("!t [[[\n", 3),
        ] {
            let b = bound(yaml);
            assert!(b >= at_least, "{yaml:?}: bound {b}, want at least {at_least}");
            if let Some(d) = parsed_depth(yaml) {
                assert!(b >= d, "{yaml:?}: bound {b}, parsed {d}");
            }
        }
    }

    /// On many generated documents the bound is never below the flow
    /// nesting serde_yaml reads: quotes, comments, block scalars, tags and
    /// plain text mixed with brackets and line breaks, alone, as a block
    /// mapping's value and as a block sequence's entry (whose one block
    /// level is taken off what the parser reports).
    #[test]
    fn the_bound_is_never_below_what_the_parser_reaches() {
        const PIECES: &[&str] = &[
            "[",
            "[",
            "[",
            "[",
            "]",
            "]",
            "{\"k\":",
            "}",
            ", ",
            ",",
            " ",
            "\n",
            "\n  ",
            "\n    ",
            "'",
            "\"",
            "''",
            "'x]'",
            "\"]\"",
            "\\\"",
            "#",
            " #",
            " # ]\n",
            "|",
            "|-",
            "|2",
            ">",
            "!",
            "!<",
            "!t ",
            "&a ",
            "*a",
            "a",
            "b c",
            "x]",
            "%",
            "\n|\n  ]\n",
            "|\n  ]\n",
            "[a, ",
            "[ ",
            "'a', ",
        ];
        let mut seed = 7u64;
        let mut next = || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize
        };
        let mut checked = 0;
        for n in 0..120_000 {
            let len = 1 + next() % 24;
            let body: String = (0..len).map(|_| PIECES[next() % PIECES.len()]).collect();
            if !flow_only(&body) {
                continue;
            }
            let (yaml, block_levels) = match n % 3 {
                0 => (body, 0),
                1 => (format!("k: {body}"), 1),
                _ => (format!("- {body}"), 1),
            };
            if let Some(d) = parsed_depth(&yaml) {
                let flow = d.saturating_sub(block_levels);
                checked += usize::from(flow > 0);
                assert!(bound(&yaml) >= flow, "{yaml:?}: bound {}, parsed {flow}", bound(&yaml));
            }
        }
        assert!(checked > 100, "the test is not vacuous: {checked} documents nested");
    }

    /// A valid flow collection with scalars that hide brackets (quotes,
    /// comments, tags, block-free plain text), and how deep it nests.
    fn flow(next: &mut impl FnMut() -> usize, left: usize) -> (String, usize) {
        const SCALARS: &[&str] = &[
            "a",
            "b c",
            "'x]]'",
            "\"]}\\\"]\"",
            "'it''s ]]'",
            "!t x",
            "!<t]]> y",
            "&n z",
            "'a\n  ]]'",
            "\"b\n  ]]\"",
            "# ]]]\n  q",
            "x]y",
            "p'q",
            "1",
        ];
        let seq = next().is_multiple_of(2);
        let n = next() % 4;
        let mut deepest = 0;
        let mut parts = Vec::new();
        for _ in 0..n {
            let (value, d) = if left > 0 && !next().is_multiple_of(3) {
                flow(next, left - 1)
            } else {
                (SCALARS[next() % SCALARS.len()].to_owned(), 0)
            };
            deepest = deepest.max(d);
            parts.push(if seq { value } else { format!("k{}: {value}", parts.len()) });
        }
        let sep = [", ", ",\n  ", " ,"][next() % 3];
        let (open, close) = if seq { ("[", "]") } else { ("{", "}") };
        (format!("{open}{}{close}", parts.join(sep)), deepest + 1)
    }

    /// Valid documents built with a known flow nesting, in block contexts
    /// and after block scalars and comments full of brackets: the bound is
    /// never below it.
    #[test]
    fn the_bound_holds_on_documents_of_known_nesting() {
        let mut seed = 11u64;
        let mut next = || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize
        };
        let mut checked = 0;
        for n in 0..6_000 {
            let (doc, depth) = flow(&mut next, 1 + n % 6);
            let yaml = match n % 6 {
                0 => doc,
                1 => format!("k: {doc}"),
                2 => format!("- {doc}"),
                3 => format!("a: |\n  ]]]]}}}}\n  'x\nk: {doc}\n"),
                4 => format!("a: >2-\n   ]]]]\n   #\nb: 'c ]]]' # ]]\nk:\n  {}\n", doc.replace('\n', "\n  ")),
                _ => format!("- !t |\n  ]]]\n- \"]]]\"\n- {}\n", doc.replace('\n', "\n  ")),
            };
            if parsed_depth(&yaml).is_some() {
                checked += 1;
                assert!(bound(&yaml) >= depth, "{yaml:?}: bound {}, nests {depth}", bound(&yaml));
            }
        }
        assert!(checked > 3_000, "the test is not vacuous: {checked} documents parsed");
    }

    /// The scan stays linear on the inputs that make it follow the most
    /// readings at once (64 KiB each).
    #[test]
    fn a_hostile_front_matter_is_scanned_quickly() {
        let started = std::time::Instant::now();
        for unit in ["[", "|\n ", " |", "'[", "\"[", "!,[", "- |\n  ", "# [\n", "&a [", "k: |2\n  [\n", "a 'b\n["] {
            let yaml = unit.repeat(MAX_ITEM_BYTES / unit.len());
            let refused = too_deep(&yaml, MAX_FLOW_NESTING).is_some();
            assert!(refused || unit != "[", "{unit:?}");
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(5), "{:?}", started.elapsed());
    }

    #[test]
    fn the_line_is_named() {
        assert_eq!(too_deep("a: 1\nb: [[[\n", 2), Some(2));
        assert_eq!(too_deep("a: 1\nb: [[\n", 2), None);
    }
}
