//! A code change as reviewers see it: the files touched since a base commit
//! (committed or not), and the patch, bounded so that a brief stays small.
//! The store computes it with git; this module only shapes and renders it.

use serde::Serialize;

/// How a file changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, strum::IntoStaticStr, strum::VariantArray)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum FileStatus {
    Added,
    Modified,
    Deleted,
    Renamed,
    Other,
}

crate::named!(FileStatus, "file status");

/// One file of a change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileChange {
    pub path: String,
    pub status: FileStatus,
    pub insertions: usize,
    pub deletions: usize,
}

/// Everything that changed in a working tree since `base`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CodeChange {
    /// The base commit (full id).
    pub base: String,
    pub files: Vec<FileChange>,
    /// The unified diff, whole.
    #[serde(skip)]
    pub patch: String,
}

/// How much of a patch goes into a brief; the rest is read from a file.
pub const BRIEF_PATCH_BYTES: usize = 12_000;

impl CodeChange {
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The part of the patch that fits in `limit` bytes, cut at a line end,
    /// and whether anything was left out.
    pub fn excerpt(&self, limit: usize) -> (&str, bool) {
        if self.patch.len() <= limit {
            return (&self.patch, false);
        }
        let mut end = limit;
        while !self.patch.is_char_boundary(end) {
            end -= 1;
        }
        let end = self.patch[..end].rfind('\n').map_or(end, |n| n + 1);
        (&self.patch[..end], true)
    }

    /// The section of a reviewer brief that shows the change: the files, the
    /// patch up to [`BRIEF_PATCH_BYTES`], and where the whole diff is.
    pub fn render(&self, full_diff: Option<&str>) -> String {
        let short = &self.base[..self.base.len().min(12)];
        if self.is_empty() {
            return format!("Change since {short}: none (no file differs from that commit).\n");
        }
        let (ins, del) = self.files.iter().fold((0, 0), |(i, d), f| (i + f.insertions, d + f.deletions));
        let mut out =
            format!("Change since {short} (committed and uncommitted): {} file(s), +{ins} -{del}\n", self.files.len());
        for f in &self.files {
            out.push_str(&format!("  {} {} (+{} -{})\n", f.status, f.path, f.insertions, f.deletions));
        }
        let (excerpt, cut) = self.excerpt(BRIEF_PATCH_BYTES);
        out.push_str("```diff\n");
        out.push_str(excerpt);
        if !excerpt.ends_with('\n') && !excerpt.is_empty() {
            out.push('\n');
        }
        out.push_str("```\n");
        match (cut, full_diff) {
            (true, Some(path)) => out.push_str(&format!(
                "The diff above is cut at {BRIEF_PATCH_BYTES} bytes of {}; read the whole diff with the Read tool: {path}\n",
                self.patch.len()
            )),
            (true, None) => out.push_str(&format!("The diff above is cut at {BRIEF_PATCH_BYTES} bytes.\n")),
            (false, Some(path)) => out.push_str(&format!("(The same diff is in {path}.)\n")),
            (false, None) => {}
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(patch: &str) -> CodeChange {
        CodeChange {
            base: "0123456789abcdef0123".into(),
            files: vec![FileChange {
                path: "src/a.rs".into(),
                status: FileStatus::Modified,
                insertions: 2,
                deletions: 1,
            }],
            patch: patch.into(),
        }
    }

    #[test]
    fn excerpts_end_at_a_line_and_say_where_the_rest_is() {
        let long = "+line\n".repeat(BRIEF_PATCH_BYTES / 6 + 10);
        let c = change(&long);
        let (ex, cut) = c.excerpt(BRIEF_PATCH_BYTES);
        assert!(cut && ex.ends_with('\n') && ex.len() <= BRIEF_PATCH_BYTES);
        let text = c.render(Some("/r/.git/phasegate/review/001-a/implement.diff"));
        assert!(text.starts_with(
            "Change since 0123456789ab (committed and uncommitted): 1 file(s), +2 -1\n  modified src/a.rs"
        ));
        assert!(text.contains("read the whole diff with the Read tool: /r/.git/phasegate/review/001-a/implement.diff"));
        let short = change("+x\n").render(None);
        assert!(short.ends_with("```diff\n+x\n```\n"), "{short}");
        let none = CodeChange { files: vec![], ..change("") }.render(None);
        assert!(none.contains("none (no file differs"), "{none}");
    }
}
