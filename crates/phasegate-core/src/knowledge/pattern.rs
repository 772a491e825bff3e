//! Which files a lesson is about: the path → pattern mapping (seed 004
//! §10.1 `get_file_pattern`: `database/migrations/001.sql` → `*.sql`,
//! `server/routes/x.ts` → `server/routes/*`), the three pattern forms, and
//! every pattern that can match a path, so an index is looked up without a
//! scan.
//!
//! **Paths.** A path is relative to the repository root, with `/` between
//! folders; callers make absolute paths relative. Backslashes are read as
//! `/`; `./` prefixes, `.` segments and doubled slashes are dropped. Refused,
//! each with what to do: an empty path, an absolute one (`/x`, `C:\x`,
//! `\\server\share`), one with a `..` segment, one ending in `/` (a folder)
//! and one with `*` or a control character in it.
//!
//! **Kinds.** A file's kind is its extension, lowercased (`App.SCSS` is
//! `scss`, `archive.tar.gz` is `gz`); a leading dot does not start an
//! extension (`.env` has none). A file named `Dockerfile` or `Containerfile`
//! (any case, alone or followed by `.<anything>`) has the kind
//! `dockerfile`, the same as `api.dockerfile`.
//!
//! **Mapping**, first rule that applies:
//! 1. a dotfile maps to its own path, at the root or in a folder (`.env`,
//!    `config/.env`): it configures one thing in one place and has nothing
//!    in common with the source files beside it;
//! 2. a file whose kind is one of [`KINDS_BY_EXTENSION`] maps to
//!    `*.<kind>` wherever it is (`database/migrations/001.sql` → `*.sql`,
//!    `services/api/Dockerfile` → `*.dockerfile`): a language with one job
//!    (queries, schemas, styles, infrastructure, shell, container builds)
//!    makes the same mistakes in every folder;
//! 3. any other file in a folder maps to `<its folder>/*`
//!    (`server/routes/x.ts` → `server/routes/*`, nested folders alike,
//!    `bin/deploy` → `bin/*`): a general-purpose language (ts, rs, py,
//!    json, yml, md) does different jobs in different folders, so the
//!    folder says more than the extension;
//! 4. a file at the root maps to `*.<kind>` (`build.rs` → `*.rs`), or to
//!    its own name when it has no extension (`Makefile`, `LICENSE`): `*`
//!    alone would match every file.
//!
//! **Patterns** take three forms and no other: `*.<ext>` (a lowercase
//! extension; matches a file of that kind at any depth), `<dir>/*` (matches
//! the files directly in that folder, dotfiles included, not those in its
//! subfolders) and an exact path (matches that file). Paths and patterns
//! compare case-sensitively, except the extension. Because `<dir>/*` only
//! matches a folder's own files, the patterns that can match a path are at
//! most three (see [`candidates`]), and a test holds [`candidates`] and
//! [`matches`] together.

/// Kinds that map to `*.<kind>` wherever the file is (rule 2).
pub const KINDS_BY_EXTENSION: &[&str] = &[
    "sql",
    "psql",
    "graphql",
    "gql",
    "proto",
    "prisma",
    "css",
    "scss",
    "sass",
    "less",
    "tf",
    "tfvars",
    "hcl",
    "sh",
    "bash",
    "zsh",
    "ps1",
    "bat",
    "dockerfile",
];

/// The longest pattern, in characters.
pub(crate) const MAX_PATTERN: usize = 512;

/// The pattern forms as one regular expression: the JSON Schema of a
/// knowledge item states `file_pattern` with exactly this text (a test
/// compares them), and a test holds it and [`validate_pattern`] together.
#[cfg(test)]
pub(crate) fn pattern_regex() -> String {
    // A character of a name: not `/`, `*`, `\` or a control character.
    let c = r"[^/*\\\x00-\x1f\x7f-\x9f";
    // A folder or file name other than `.` and `..`.
    let segment = format!(r"(?:{c}.]{c}]*|\.{c}.]{c}]*|\.\.{c}]+)");
    format!(r"^(?:\*\.[a-z0-9][a-z0-9_+-]*|(?:{segment}/)*{segment}(?:/\*)?)$")
}

/// A file kind as patterns spell it: `[a-z0-9][a-z0-9_+-]*`. Checked by
/// hand, not by a regex: this runs in the PreToolUse hook, and building a
/// regex reads the cgroup files under /proc (about a millisecond).
fn is_extension(ext: &str) -> bool {
    let mut bytes = ext.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && bytes.all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'_' | b'+' | b'-'))
}

const FORMS: &str = "use `*.<ext>` (a file kind at any depth, e.g. `*.sql`), `<dir>/*` (the files directly in a folder, e.g. `server/routes/*`) or an exact relative path (e.g. `config/.env`)";

/// Why a path cannot be mapped or matched.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    #[error("the path is empty: pass the file's path relative to the repository root")]
    Empty,
    #[error("`{0}` is absolute: pass it relative to the repository root (for example `src/main.rs`)")]
    Absolute(String),
    #[error("`{0}` has a `..` segment: pass the path inside the repository, relative to its root")]
    Parent(String),
    #[error("`{0}` names a folder: pass a file's path")]
    Folder(String),
    #[error("`{0}` contains `*` or a control character: pass one file's path")]
    Character(String),
}

/// Why a pattern is not one of the three forms.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{pattern}` is not a file pattern ({why}); {FORMS}")]
pub struct PatternError {
    pub pattern: String,
    pub why: &'static str,
}

/// A path in normal form, split into its folder and name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Normal {
    /// `a/b/c.ts`
    pub path: String,
    /// `a/b`, empty at the root.
    pub dir: String,
    /// `c.ts`
    pub name: String,
}

/// The normal form of a path (see the module doc).
pub(crate) fn normalise(path: &str) -> Result<Normal, PathError> {
    let slashed = path.replace('\\', "/");
    if slashed.is_empty() {
        return Err(PathError::Empty);
    }
    let drive = slashed.as_bytes().get(1) == Some(&b':') && slashed.as_bytes()[0].is_ascii_alphabetic();
    if slashed.starts_with('/') || drive {
        return Err(PathError::Absolute(path.to_owned()));
    }
    if slashed.chars().any(|c| c == '*' || c.is_control()) {
        return Err(PathError::Character(path.to_owned()));
    }
    let mut segments = Vec::new();
    for segment in slashed.split('/') {
        match segment {
            "" | "." => {}
            ".." => return Err(PathError::Parent(path.to_owned())),
            s => segments.push(s),
        }
    }
    if slashed.ends_with('/') || slashed.ends_with("/.") || segments.is_empty() {
        return Err(if segments.is_empty() { PathError::Empty } else { PathError::Folder(path.to_owned()) });
    }
    let name = segments.pop().expect("not empty").to_owned();
    let dir = segments.join("/");
    let path = if dir.is_empty() { name.clone() } else { format!("{dir}/{name}") };
    Ok(Normal { path, dir, name })
}

/// A file name's kind: its lowercase extension, or `dockerfile`.
pub(crate) fn kind(name: &str) -> Option<String> {
    let lower = name.to_lowercase();
    for stem in ["dockerfile", "containerfile"] {
        if lower == stem || lower.strip_prefix(stem).is_some_and(|rest| rest.starts_with('.')) {
            return Some("dockerfile".to_owned());
        }
    }
    let bare = lower.strip_prefix('.').unwrap_or(&lower);
    let (_, ext) = bare.rsplit_once('.')?;
    is_extension(ext).then(|| ext.to_owned())
}

/// The seed's `get_file_pattern`: the pattern a lesson learned on `path`
/// is filed under (rules in the module doc).
pub fn pattern_for(path: &str) -> Result<String, PathError> {
    let n = normalise(path)?;
    Ok(pattern_of(&n))
}

pub(crate) fn pattern_of(n: &Normal) -> String {
    if n.name.starts_with('.') {
        return n.path.clone();
    }
    let kind = kind(&n.name);
    match kind {
        Some(k) if KINDS_BY_EXTENSION.contains(&k.as_str()) => format!("*.{k}"),
        Some(_) | None if !n.dir.is_empty() => format!("{}/*", n.dir),
        Some(k) => format!("*.{k}"),
        None => n.name.clone(),
    }
}

/// Every pattern that matches `path`, the most specific last: `*.<kind>`
/// (when it has a kind), `<folder>/*` (when it is in a folder), the path
/// itself. Looking these up in an index finds every item whose pattern
/// matches, without a scan.
#[cfg(test)]
pub fn candidates(path: &str) -> Result<Vec<String>, PathError> {
    Ok(candidates_of(&normalise(path)?))
}

pub(crate) fn candidates_of(n: &Normal) -> Vec<String> {
    let mut out = Vec::with_capacity(3);
    if let Some(k) = kind(&n.name) {
        out.push(format!("*.{k}"));
    }
    if !n.dir.is_empty() {
        out.push(format!("{}/*", n.dir));
    }
    out.push(n.path.clone());
    out
}

/// Whether `pattern` matches `path`. An invalid path or pattern matches
/// nothing.
#[cfg(test)]
pub fn matches(pattern: &str, path: &str) -> bool {
    match normalise(path) {
        Ok(n) => matches_normal(pattern, &n),
        Err(_) => false,
    }
}

pub(crate) fn matches_normal(pattern: &str, n: &Normal) -> bool {
    if validate_pattern(pattern).is_err() {
        return false;
    }
    if let Some(ext) = pattern.strip_prefix("*.") {
        return kind(&n.name).as_deref() == Some(ext);
    }
    if let Some(dir) = pattern.strip_suffix("/*") {
        return n.dir == dir;
    }
    n.path == pattern
}

/// Accepts the three pattern forms only (see the module doc); the error
/// lists them.
pub fn validate_pattern(pattern: &str) -> Result<(), PatternError> {
    let bad = |why| Err(PatternError { pattern: pattern.to_owned(), why });
    if pattern.is_empty() {
        return bad("it is empty");
    }
    if pattern.chars().count() > MAX_PATTERN {
        return bad("it is longer than 512 characters");
    }
    if let Some(ext) = pattern.strip_prefix("*.") {
        return if is_extension(ext) {
            Ok(())
        } else {
            bad("an extension is lowercase letters, digits, `_`, `+` or `-`, after one `*.`")
        };
    }
    let path = pattern.strip_suffix("/*").unwrap_or(pattern);
    if pattern.contains('\\') {
        return bad("folders are separated by `/`");
    }
    if path.contains('*') {
        return bad("`*` stands only at the start of `*.<ext>` or at the end of `<dir>/*`");
    }
    if path.chars().any(char::is_control) {
        return bad("it contains a control character");
    }
    if path.starts_with('/') {
        return bad("it is absolute; patterns are relative to the repository root");
    }
    for segment in path.split('/') {
        match segment {
            "" => return bad("it has an empty folder name (`//`, or a `/` at an end)"),
            "." | ".." => return bad("it has a `.` or `..` segment"),
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex::Regex;

    #[test]
    fn the_hand_written_extension_check_is_the_regex() {
        let re = Regex::new("^[a-z0-9][a-z0-9_+-]*$").unwrap();
        for ext in
            ["sql", "ts", "c++", "d_ts", "mp4", "0x", "", "Sql", "-x", "_x", "a.b", "a b", "é", "a/", "tar-gz", "+"]
        {
            assert_eq!(is_extension(ext), re.is_match(ext), "{ext:?}");
        }
    }

    #[test]
    fn paths_map_to_patterns() {
        for (path, want) in [
            // The seed's two examples.
            ("database/migrations/001.sql", "*.sql"),
            ("server/routes/x.ts", "server/routes/*"),
            // Kinds defined by their extension, at any depth, any case.
            ("001.sql", "*.sql"),
            ("api/schema.graphql", "*.graphql"),
            ("web/styles/App.SCSS", "*.scss"),
            ("infra/prod/main.tf", "*.tf"),
            ("scripts/release.sh", "*.sh"),
            ("prisma/schema.prisma", "*.prisma"),
            ("services/api/Dockerfile", "*.dockerfile"),
            ("Dockerfile", "*.dockerfile"),
            ("docker/Dockerfile.dev", "*.dockerfile"),
            ("build/api.dockerfile", "*.dockerfile"),
            ("Containerfile", "*.dockerfile"),
            // Other files in a folder: the folder; nested folders alike.
            ("src/lib.rs", "src/*"),
            ("a/b/c/d.ts", "a/b/c/*"),
            ("app/users/[id]/page.tsx", "app/users/[id]/*"),
            ("bin/deploy", "bin/*"),
            ("lib/Makefile", "lib/*"),
            ("vendor/x.tar.gz", "vendor/*"),
            (".github/workflows/ci.yml", ".github/workflows/*"),
            ("docs/my notes.md", "docs/*"),
            // At the root: the kind, or the name itself.
            ("build.rs", "*.rs"),
            ("package.json", "*.json"),
            ("archive.tar.gz", "*.gz"),
            ("Makefile", "Makefile"),
            ("LICENSE", "LICENSE"),
            ("file.", "file."),
            // Dotfiles: their own path, at the root and in a folder.
            (".env", ".env"),
            (".gitignore", ".gitignore"),
            (".eslintrc.json", ".eslintrc.json"),
            ("config/.env", "config/.env"),
            ("web/.env.local", "web/.env.local"),
            // Spellings of the same path.
            ("./src/lib.rs", "src/*"),
            ("././src/./lib.rs", "src/*"),
            ("src//lib.rs", "src/*"),
            ("src\\main.rs", "src/*"),
            (".\\db\\001.SQL", "*.sql"),
        ] {
            assert_eq!(pattern_for(path).as_deref(), Ok(want), "{path}");
        }
    }

    #[test]
    fn bad_paths_are_refused_with_what_to_do() {
        for (path, want) in [
            ("", PathError::Empty),
            (".", PathError::Empty),
            ("./", PathError::Empty),
            ("/etc/passwd", PathError::Absolute("/etc/passwd".into())),
            ("C:\\repo\\x.rs", PathError::Absolute("C:\\repo\\x.rs".into())),
            ("\\\\server\\share\\x", PathError::Absolute("\\\\server\\share\\x".into())),
            ("../x.rs", PathError::Parent("../x.rs".into())),
            ("a/../b.rs", PathError::Parent("a/../b.rs".into())),
            ("src/", PathError::Folder("src/".into())),
            ("src/.", PathError::Folder("src/.".into())),
            ("src/*.rs", PathError::Character("src/*.rs".into())),
            ("a\nb", PathError::Character("a\nb".into())),
        ] {
            let got = pattern_for(path);
            assert_eq!(got, Err(want), "{path:?}");
            let text = got.unwrap_err().to_string();
            assert!(text.contains("pass"), "{text}");
            assert!(candidates(path).is_err() && !matches("*.rs", path));
        }
    }

    #[test]
    fn the_three_pattern_forms_match() {
        for (pattern, path, want) in [
            ("*.sql", "database/migrations/001.sql", true),
            ("*.sql", "001.sql", true),
            ("*.sql", "db/001.SQL", true),
            ("*.sql", "db/001.sql.bak", false),
            ("*.sql", "db/sql", false),
            ("*.dockerfile", "services/api/Dockerfile", true),
            ("*.gz", "archive.tar.gz", true),
            ("*.json", ".eslintrc.json", true),
            ("*.env", ".env", false),
            ("server/routes/*", "server/routes/x.ts", true),
            ("server/routes/*", "./server/routes/x.ts", true),
            ("server/routes/*", "server\\routes\\x.ts", true),
            ("server/routes/*", "server/routes/.env", true),
            ("server/routes/*", "server/routes/admin/y.ts", false),
            ("server/routes/*", "server/x.ts", false),
            ("server/*", "server/routes/x.ts", false),
            ("server/routes/*", "Server/routes/x.ts", false),
            ("config/.env", "config/.env", true),
            ("config/.env", "./config//.env", true),
            ("config/.env", "config/.env.local", false),
            ("Makefile", "Makefile", true),
            ("Makefile", "lib/Makefile", false),
            // Invalid patterns match nothing.
            ("*", "x.ts", false),
            ("src/**/*.rs", "src/a/b.rs", false),
            ("../x.ts", "x.ts", false),
        ] {
            assert_eq!(matches(pattern, path), want, "{pattern} ~ {path}");
        }
    }

    #[test]
    fn candidates_are_exactly_the_matching_patterns() {
        assert_eq!(candidates("server/routes/x.ts").unwrap(), ["*.ts", "server/routes/*", "server/routes/x.ts"]);
        assert_eq!(candidates("Makefile").unwrap(), ["Makefile"]);
        assert_eq!(candidates("build.rs").unwrap(), ["*.rs", "build.rs"]);
        assert_eq!(candidates("config/.env").unwrap(), ["config/*", "config/.env"]);
        let paths = [
            "database/migrations/001.sql",
            "server/routes/x.ts",
            "server/routes/admin/y.ts",
            "server/x.ts",
            "build.rs",
            "Makefile",
            ".env",
            "config/.env",
            "config/.env.local",
            "services/api/Dockerfile",
            "archive.tar.gz",
            "lib/Makefile",
        ];
        // Every pattern any of these paths can give or match.
        let mut patterns: Vec<String> = Vec::new();
        for p in paths {
            patterns.extend(candidates(p).unwrap());
            patterns.push(pattern_for(p).unwrap());
        }
        patterns.extend(["*.sql", "server/*", "*.txt", "lib/*", "*"].map(String::from));
        for path in paths {
            let c = candidates(path).unwrap();
            assert!(c.contains(&pattern_for(path).unwrap()), "{path}: its own pattern is a candidate");
            for pattern in &patterns {
                assert_eq!(matches(pattern, path), c.contains(pattern), "{pattern} ~ {path}");
            }
            for pattern in &c {
                validate_pattern(pattern).unwrap();
            }
        }
    }

    #[test]
    fn patterns_outside_the_three_forms_are_refused() {
        for ok in ["*.sql", "*.c++", "server/routes/*", "app/[id]/*", "config/.env", "Makefile", ".env", "a/..b/c"] {
            validate_pattern(ok).unwrap();
        }
        for bad in [
            "", "*", "*.", "*.SQL", "*.d.ts", "**/*.rs", "src/*.rs", "src/**", "/etc/*", "a//b", "a/", "./a", "a/../b",
            "..", "a\\b", "*/x", "a\nb",
        ] {
            let e = validate_pattern(bad).unwrap_err().to_string();
            assert!(e.contains("use `*.<ext>`"), "{bad:?}: {e}");
        }
        assert!(validate_pattern(&"a".repeat(513)).is_err());
    }

    /// The schema's expression and [`validate_pattern`] accept the same
    /// patterns.
    #[test]
    fn the_schema_expression_agrees() {
        let re = Regex::new(&pattern_regex()).unwrap();
        for p in [
            "*.sql",
            "*.c++",
            "*.",
            "*.SQL",
            "*.d.ts",
            "*",
            "**/*.rs",
            "src/*.rs",
            "server/routes/*",
            "app/[id]/*",
            "config/.env",
            "Makefile",
            ".env",
            "..",
            ".",
            "a/.",
            "a/..b/c",
            "a/.../c",
            "./a",
            "a//b",
            "a/",
            "/a",
            "a\\b",
            "*/x",
            "a\tb",
            "a\u{7f}b",
            "a\u{85}b",
            "src/**",
            "a b/c",
            "é/ü.rs",
        ] {
            assert_eq!(re.is_match(p), validate_pattern(p).is_ok(), "{p:?}");
        }
    }
}
