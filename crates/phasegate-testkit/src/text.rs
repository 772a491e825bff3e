//! Small string helpers that keep reports readable.

/// The first `max` characters of `s`, with "…" when something was cut.
pub(crate) fn head(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &s[..cut]),
        None => s.to_owned(),
    }
}

/// The last `max` characters of `s`, with "…" in front when something was cut.
pub(crate) fn tail(s: &str, max: usize) -> String {
    let count = s.chars().count();
    if count <= max {
        return s.to_owned();
    }
    let skip = count - max;
    let (cut, _) = s.char_indices().nth(skip).expect("skip is smaller than the character count");
    format!("…{}", &s[cut..])
}

/// `s` on one line: newlines shown as `⏎`, then cut to `max` characters.
pub(crate) fn one_line(s: &str, max: usize) -> String {
    head(&s.trim().replace('\n', "⏎"), max)
}

/// The end of `s` on one line: newlines shown as `⏎`, keeping the last `max` characters.
pub(crate) fn one_line_tail(s: &str, max: usize) -> String {
    tail(&s.trim().replace('\n', "⏎"), max)
}

/// Every line of `s` prefixed with `indent`.
pub(crate) fn indent(s: &str, indent: &str) -> String {
    s.lines().map(|line| format!("{indent}{line}")).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_and_tail_cut_on_char_boundaries() {
        assert_eq!(head("héllo", 2), "hé…");
        assert_eq!(head("hé", 2), "hé");
        assert_eq!(tail("héllo", 3), "…llo");
        assert_eq!(tail("hé", 5), "hé");
        assert_eq!(one_line(" a\nb ", 10), "a⏎b");
        assert_eq!(one_line_tail("a\nbcd", 3), "…bcd");
    }
}
