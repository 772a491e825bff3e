//! What a path names, however it is spelled: the one lexical normalisation
//! that the state-file guard and the file leases share.
//!
//! Lexical means the text alone decides: `.` segments and repeated
//! separators go, and `..` takes the segment before it away
//! (`/repo/docs/../a.txt` names `/repo/a.txt`; `/tmp/../repo/a.txt` names
//! `/repo/a.txt`). Where symbolic links lead is the store's business (it
//! resolves them on disk before asking the core); a `..` above the root
//! stays at the root, as the kernel does.

use std::path::{Component, Path, PathBuf};

/// The normal segments of a `/`- or `\`-separated path, `..` applied.
/// `C:` and the leading `/` are not segments: callers decide what is
/// absolute with [`is_absolute`].
pub fn segments(path: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for s in path.split(['/', '\\']) {
        match s {
            "" | "." => {}
            ".." => {
                out.pop();
            }
            s => out.push(s),
        }
    }
    out
}

/// [`segments`] for a [`Path`]: its root (and drive) kept, `.` dropped,
/// `..` taking the segment before it away, never the root.
pub fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::Prefix(_) | Component::RootDir | Component::Normal(_) => out.push(c.as_os_str()),
            Component::CurDir => {}
            Component::ParentDir => {
                if out.file_name().is_some() {
                    out.pop();
                }
            }
        }
    }
    out
}

/// `/x`, `\x`, `//server/share`, `C:/x`, `C:\x` or `C:x` (drive-relative,
/// still not relative to anything of ours).
pub fn is_absolute(path: &str) -> bool {
    let b = path.as_bytes();
    path.starts_with(['/', '\\']) || (b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':')
}

/// A word as a POSIX shell reads it back unchanged: as it is when it holds
/// only characters no shell treats specially, else in single quotes.
pub fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'/' | b'.' | b'-' | b'_' | b'+' | b'=' | b':' | b','));
    match plain {
        true => word.to_owned(),
        false => format!("'{}'", word.replace('\'', "'\\''")),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn shell_words_read_back_unchanged() {
        assert_eq!(super::shell_word("docs/features/001-a"), "docs/features/001-a");
        assert_eq!(super::shell_word("my file.py"), "'my file.py'");
        assert_eq!(super::shell_word("it's"), "'it'\\''s'");
        assert_eq!(super::shell_word(""), "''");
    }

    use super::*;

    #[test]
    fn every_spelling_of_one_file_has_the_same_segments() {
        let want = ["repo", "a.txt"];
        for spelled in [
            "/repo/a.txt",
            "/repo/docs/../a.txt",
            "/repo/nope/../a.txt",
            "/tmp/../repo/a.txt",
            "/repo/./a.txt",
            "//repo//a.txt",
            "\\repo\\x\\..\\a.txt",
            "/../../repo/a.txt",
        ] {
            assert_eq!(segments(spelled), want, "{spelled}");
        }
        assert_eq!(segments("a/b/../../.."), Vec::<&str>::new());
        assert_eq!(lexical(Path::new("/tmp/../repo/./x/../a.txt")), Path::new("/repo/a.txt"));
        assert_eq!(lexical(Path::new("/../a")), Path::new("/a"));
    }

    #[test]
    fn absolute_paths_on_every_platform() {
        for p in ["/a", "\\a", "//server/share", "C:/a", "c:\\a", "C:a"] {
            assert!(is_absolute(p), "{p}");
        }
        for p in ["a", "./a", "a/b", "1:"] {
            assert!(!is_absolute(p), "{p}");
        }
    }
}
