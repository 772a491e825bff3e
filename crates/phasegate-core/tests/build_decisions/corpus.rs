//! The corpora of validation outputs, read from the data files beside this
//! module (the format is in `README.md`): `<corpus>/<family>/<case>.txt`, a
//! header of `key: value` lines, a line `---`, then the output verbatim.

use std::path::{Path, PathBuf};

use phasegate_core::tasks::ErrorType;

/// One validation output and the class it must get.
pub struct Case {
    /// The file, relative to the corpora's folder (`development/go/go-syntax-1.txt`).
    pub file: String,
    /// The family of the folder the case sits in.
    pub family: String,
    /// The tool that printed it, its toolchain first (`go test`).
    pub tool: String,
    /// The validation command, when the case is about what the command says.
    pub command: Option<String>,
    pub want: ErrorType,
    /// `real` (the tool ran and its output was captured) or `written` (from
    /// the tool's documented format); unsaid in the corpora written before
    /// the distinction was made.
    pub source: Option<String>,
    pub output: String,
}

impl Case {
    /// The toolchain: the tool's first word (`go test` → `go`).
    pub fn toolchain(&self) -> &str {
        self.tool.split_whitespace().next().unwrap_or(&self.tool)
    }
}

/// The folder holding the corpora.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/build_decisions")
}

/// Every case of one corpus (`development`, `held_out`, `unseen`), by family
/// and file name.
pub fn read(corpus: &str) -> Vec<Case> {
    let dir = root().join(corpus);
    let mut cases = Vec::new();
    for family in sorted_entries(&dir) {
        assert!(family.is_dir(), "{} holds only family folders: {}", dir.display(), family.display());
        let family_name = file_name(&family);
        for file in sorted_entries(&family) {
            assert!(file.extension().is_some_and(|e| e == "txt"), "a case is a .txt file: {}", file.display());
            let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let name = format!("{corpus}/{family_name}/{}", file_name(&file));
            cases.push(parse(&name, &family_name, &text).unwrap_or_else(|e| panic!("{name}: {e}")));
        }
    }
    cases
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    entries
}

fn file_name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// A case file: `key: value` lines (`tool`, `want`, `package`, `command`,
/// `source`, `produced`, `note`), a line `---`, the output.
fn parse(file: &str, family: &str, text: &str) -> Result<Case, String> {
    let (header, output) = text.split_once("\n---\n").ok_or("no line `---` after the header")?;
    let (mut tool, mut want, mut package, mut command, mut source) = (None, None, None, None, None);
    for line in header.lines() {
        let (key, value) = line.split_once(": ").ok_or_else(|| format!("not `key: value`: {line:?}"))?;
        let value = value.trim().to_owned();
        match key {
            "tool" => tool = Some(value),
            "want" => want = Some(value),
            "package" => package = Some(value),
            "command" => command = Some(value),
            "source" if value == "real" || value == "written" => source = Some(value),
            "source" => return Err(format!("source is `real` or `written`, not {value:?}")),
            "produced" | "note" => {}
            _ => return Err(format!("unknown key {key:?}")),
        }
    }
    let want = match want.as_deref().ok_or("no `want`")? {
        "SYNTAX_ERROR" => ErrorType::SyntaxError,
        "MISSING_DEPENDENCY" => ErrorType::MissingDependency { package: package.take() },
        "CONFLICT" => ErrorType::Conflict,
        "VALIDATION_FAILED" => ErrorType::ValidationFailed,
        "NETWORK" => ErrorType::Network,
        "TIMEOUT" => ErrorType::Timeout,
        "RESOURCE" => ErrorType::Resource,
        "OTHER" => ErrorType::Other,
        other => return Err(format!("unknown class {other:?}")),
    };
    if package.is_some() {
        return Err("a `package` belongs to a MISSING_DEPENDENCY only".into());
    }
    Ok(Case {
        file: file.to_owned(),
        family: family.to_owned(),
        tool: tool.ok_or("no `tool`")?,
        command,
        want,
        source,
        output: output.to_owned(),
    })
}
