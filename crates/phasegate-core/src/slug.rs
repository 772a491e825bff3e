//! Feature slugs: the short names that become folder and branch names, and
//! how a description ("add search to the docs") becomes one.

/// The longest slug.
pub(crate) const MAX_SLUG: usize = 64;
/// How long a slug made from a description may get (whole words only).
const MADE_SLUG: usize = 40;

/// Why a slug is not acceptable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "invalid slug `{0}`: use 1-64 letters, digits, '-', '_' or '.', starting with a letter or digit, without '..' or path separators (for example `user-auth`)"
)]
pub struct InvalidSlug(pub String);

/// A slug names a folder and a branch: letters, digits, `.`, `_`, `-`;
/// starting with a letter or digit; no `..`; at most 64 characters.
pub fn validate(slug: &str) -> Result<(), InvalidSlug> {
    match safe_name(slug, MAX_SLUG) {
        true => Ok(()),
        false => Err(InvalidSlug(slug.to_owned())),
    }
}

/// Whether `name` is safe as one file or branch name: 1 to `max` letters,
/// digits, `.`, `_` and `-`, starting with a letter or digit, with no `..`
/// and not ending in `.lock`. Slugs and question ids are both such names.
pub(crate) fn safe_name(name: &str, max: usize) -> bool {
    !name.is_empty()
        && name.len() <= max
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        && name.bytes().next().is_some_and(|b| b.is_ascii_alphanumeric())
        && !name.contains("..")
        && !name.ends_with(".lock")
}

/// A feature folder's name, `NNN-slug`, as its number and slug (at least
/// three digits, then `-`, then a slug); None for any other name.
pub fn split_feature_name(name: &str) -> Option<(u32, &str)> {
    let (num, slug) = name.split_once('-')?;
    if num.len() < 3 || !num.bytes().all(|b| b.is_ascii_digit()) || slug.is_empty() {
        return None;
    }
    Some((num.parse().ok()?, slug))
}

/// The order of features: by number, then by name (009-foo before 010-bar).
pub fn feature_order(name: &str) -> (u32, String) {
    (split_feature_name(name).map_or(u32::MAX, |(n, _)| n), name.to_owned())
}

/// The slug itself when `given` is one; otherwise a slug made from it as a
/// description: lowercase ASCII words joined by `-`, at most 40 characters,
/// cut at a word. None when nothing usable is left.
pub fn from_words(given: &str) -> Option<String> {
    let given = given.trim();
    if validate(given).is_ok() {
        return Some(given.to_owned());
    }
    let mut slug = String::new();
    let words = given.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty());
    for word in words {
        let word = word.to_ascii_lowercase();
        let extra = if slug.is_empty() { word.len() } else { word.len() + 1 };
        if slug.len() + extra > MADE_SLUG {
            if slug.is_empty() {
                slug.push_str(&word[..MADE_SLUG]);
            }
            break;
        }
        if !slug.is_empty() {
            slug.push('-');
        }
        slug.push_str(&word);
    }
    validate(&slug).is_ok().then_some(slug)
}

/// Case-, space- and end-punctuation-insensitive form for comparisons.
pub fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").trim_end_matches(['.', '?', '!']).to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs() {
        for ok in ["auth", "user-auth", "v2.api", "a_b", "X1"] {
            validate(ok).unwrap();
        }
        for bad in ["", "../x", "a/b", "a\\b", "..", "-x", ".hidden", "a..b", "x.lock", &"a".repeat(65), "é", "a\nb"] {
            assert!(validate(bad).is_err(), "{bad:?} should be refused");
        }
    }

    /// Regression: a `[feature]` argument that was a description ("add
    /// search") instead of a feature name was not handled.
    #[test]
    fn descriptions_become_slugs() {
        assert_eq!(from_words("add search").as_deref(), Some("add-search"));
        assert_eq!(
            from_words("  Add full-text Search to the docs!  ").as_deref(),
            Some("add-full-text-search-to-the-docs")
        );
        assert_eq!(from_words("user-auth").as_deref(), Some("user-auth"));
        let long = from_words("a very long description of a feature that goes on and on and on").unwrap();
        assert!(long.len() <= 40 && !long.ends_with('-'), "{long}");
        assert_eq!(from_words("ééé !!!"), None);
    }
}
