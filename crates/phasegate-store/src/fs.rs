//! File primitives: reads that take only regular files of bounded size and
//! name the file in every error, and atomic writes.
//!
//! A state file that is a FIFO would hang a reader (and a hook) forever; one
//! linked to `/dev/zero` would be read without end; a directory or a dangling
//! link in its place must be reported, not mistaken for "no file". So every
//! read looks at the entry first (without following links), refuses anything
//! but a regular file, and reads at most [`MAX_STATE_BYTES`].

use std::fs;
use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};

use crate::error::{IoContext, StoreError};

/// The largest state file phasegate reads (review histories grow; nothing
/// it writes comes close).
pub const MAX_STATE_BYTES: u64 = 8 * 1024 * 1024;

/// What is at a path, seen without following a link.
fn describe(ft: fs::FileType) -> &'static str {
    if ft.is_dir() {
        "a directory"
    } else if ft.is_symlink() {
        "a symbolic link"
    } else {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if ft.is_fifo() {
                return "a FIFO (named pipe)";
            }
            if ft.is_socket() {
                return "a socket";
            }
            if ft.is_block_device() || ft.is_char_device() {
                return "a device";
            }
        }
        "not a regular file"
    }
}

/// Reads a UTF-8 state file that may not exist. Only a regular file of at
/// most [`MAX_STATE_BYTES`] is read; anything else at the path (a link, a
/// directory, a FIFO, a device) is an error naming it.
pub fn read_optional(path: &Path) -> Result<Option<String>, StoreError> {
    read_optional_up_to(path, MAX_STATE_BYTES)
}

/// [`read_optional`] with another size limit (a journal holds several
/// state files).
pub fn read_optional_up_to(path: &Path, max: u64) -> Result<Option<String>, StoreError> {
    let Some(bytes) = read_regular_bytes(path, max)? else { return Ok(None) };
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|e| StoreError::Corrupt { path: path.to_owned(), detail: format!("not UTF-8 text ({e})") })
}

/// The bytes of the regular file at `path` of at most `max` bytes; None
/// when nothing is there. Anything else at the path (a link, a directory,
/// a FIFO, a device) is an error naming it, and is never opened.
pub fn read_regular_bytes(path: &Path, max: u64) -> Result<Option<Vec<u8>>, StoreError> {
    let meta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).at("inspect", path),
    };
    if !meta.file_type().is_file() {
        let what = describe(meta.file_type());
        let target = fs::read_link(path).ok().map(|t| format!(" (to {})", t.display())).unwrap_or_default();
        return Err(StoreError::NotRegular { path: path.to_owned(), what: format!("{what}{target}") });
    }
    if meta.len() > max {
        return Err(StoreError::TooLarge { path: path.to_owned(), size: meta.len(), max });
    }
    let file = fs::File::open(path).at("open", path)?;
    // The entry could have been swapped between the look and the open.
    let opened = file.metadata().at("inspect", path)?;
    if !opened.file_type().is_file() {
        return Err(StoreError::NotRegular { path: path.to_owned(), what: describe(opened.file_type()).into() });
    }
    let mut bytes = Vec::with_capacity(opened.len() as usize);
    file.take(max + 1).read_to_end(&mut bytes).at("read", path)?;
    if bytes.len() as u64 > max {
        return Err(StoreError::TooLarge { path: path.to_owned(), size: bytes.len() as u64, max });
    }
    Ok(Some(bytes))
}

/// Reads a UTF-8 state file that must exist.
pub fn read_to_string(path: &Path) -> Result<String, StoreError> {
    read_optional(path)?.ok_or_else(|| StoreError::Io {
        op: "read",
        path: path.to_owned(),
        source: std::io::ErrorKind::NotFound.into(),
    })
}

/// Whether a regular file is at `path` (a link is not one).
pub fn is_regular_file(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file())
}

/// Whether anything is at `path`, a dangling link included.
pub fn exists_entry(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok()
}

/// Replaces `path` with `contents` atomically: a temporary file in the same
/// directory is written, flushed to disk and renamed over the target. An
/// existing file keeps its permission bits; a new one gets 0666 less the
/// umask, like any file a program creates. A crash leaves the old file or the
/// new one, never a mix.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<(), StoreError> {
    write_atomic_as(path, contents, false)
}

/// [`write_atomic`] of a file only its owner may read or write (0600 on
/// Unix, whatever the umask): a secret, such as the sealing key.
pub fn write_atomic_private(path: &Path, contents: &[u8]) -> Result<(), StoreError> {
    write_atomic_as(path, contents, true)
}

fn write_atomic_as(path: &Path, contents: &[u8], private: bool) -> Result<(), StoreError> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut builder = tempfile::Builder::new();
    builder.prefix(TMP_PREFIX).suffix(TMP_SUFFIX);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = match fs::symlink_metadata(path) {
            _ if private => 0o600,
            Ok(m) if m.file_type().is_file() => m.permissions().mode() & 0o7777,
            // tempfile applies the umask to the mode it creates with.
            _ => 0o666,
        };
        builder.permissions(fs::Permissions::from_mode(mode));
    }
    #[cfg(not(unix))]
    let _ = private;
    let mut tmp = builder.tempfile_in(dir).at("create a temporary file in", dir)?;
    tmp.write_all(contents).at("write", tmp.path().to_owned())?;
    #[cfg(unix)]
    if let Ok(m) = fs::symlink_metadata(path) {
        // An existing file's exact bits (the umask must not narrow them).
        if m.file_type().is_file() && !private {
            fs::set_permissions(tmp.path(), m.permissions()).at("set permissions of", tmp.path().to_owned())?;
        }
    }
    tmp.as_file().sync_data().at("flush", tmp.path().to_owned())?;
    replace(tmp, path).at("replace", path)?;
    sync_dir(dir);
    Ok(())
}

/// Replaces a cache or runtime file (an index, a session's log, a lease):
/// atomic like [`write_atomic`], a reader sees the old file or the new one,
/// but not flushed to disk: a machine crash may lose it, never tear it. A
/// missing folder is created.
pub fn write_cache(path: &Path, contents: &[u8]) -> Result<(), StoreError> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let temp = || tempfile::Builder::new().prefix(TMP_PREFIX).suffix(TMP_SUFFIX).tempfile_in(dir);
    let mut tmp = match temp() {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            fs::create_dir_all(dir).at("create", dir)?;
            temp().at("create a temporary file in", dir)?
        }
        Err(e) => return Err(e).at("create a temporary file in", dir),
    };
    tmp.write_all(contents).at("write", tmp.path().to_owned())?;
    replace(tmp, path).at("replace", path)?;
    Ok(())
}

/// How long a replace waits for the readers of the file it replaces, on a
/// Windows disk where it cannot replace a file someone has open.
#[cfg(windows)]
const REPLACE_PATIENCE: std::time::Duration = std::time::Duration::from_secs(3);

/// Renames the finished temporary file `tmp` over `path`. On Windows a
/// reader that has `path` open at that moment (a hook reading `.meta.json`
/// while a command writes it) makes the classic replace (MoveFileEx, what
/// tempfile's `persist` calls) fail with access denied: std's `rename`
/// then replaces with POSIX semantics (Windows 10 1607 and later, on NTFS:
/// the reader keeps the old file), and where the file system cannot (Wine,
/// FAT, some network shares) the rename is tried again until the readers
/// let go, at most `REPLACE_PATIENCE` (every read of a state file is one
/// bounded read). A temporary file not renamed is removed.
fn replace(tmp: tempfile::NamedTempFile, path: &Path) -> std::io::Result<()> {
    #[cfg(not(windows))]
    {
        tmp.persist(path).map(drop).map_err(|e| e.error)
    }
    #[cfg(windows)]
    {
        let temp = tmp.into_temp_path();
        let start = std::time::Instant::now();
        let mut pause = std::time::Duration::from_millis(1);
        loop {
            match fs::rename(&temp, path) {
                Ok(()) => {
                    // Renamed: nothing is left to remove.
                    let _ = temp.keep();
                    return Ok(());
                }
                Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied && start.elapsed() < REPLACE_PATIENCE => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(std::time::Duration::from_millis(50));
                }
                Err(e) => return Err(e),
            }
        }
    }
}

/// Creates a directory and its parents, failing on a non-directory in the way.
pub fn create_dir_all(dir: &Path) -> Result<(), StoreError> {
    fs::create_dir_all(dir).at("create", dir)
}

/// Flushes a directory entry change (the rename) to disk where the platform
/// allows it; best effort.
pub fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

const TMP_PREFIX: &str = ".phasegate-";
const TMP_SUFFIX: &str = ".tmp";
/// The names of [`write_atomic`]'s temporary files as a git pattern: a
/// writer killed before its rename leaves one, and git must not offer it
/// to commit (see `Project::exclude_scratch`).
pub const TEMPORARY_PATTERN: &str = ".phasegate-*.tmp";

/// Removes temporary files that `write_atomic` left in `dir` when its process
/// was killed. Only call this while holding the lock of every writer of `dir`.
pub fn remove_temporaries(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(TMP_PREFIX) && name.ends_with(TMP_SUFFIX) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Removes a file; a file that is already gone is fine. A directory in its
/// place is an error, never removed.
pub fn remove_if_exists(path: &Path) -> Result<bool, StoreError> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e).at("inspect", path),
        Ok(m) if m.file_type().is_dir() => {
            return Err(StoreError::NotRegular { path: path.to_owned(), what: "a directory".into() });
        }
        Ok(_) => {}
    }
    match fs::remove_file(path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e).at("remove", path),
    }
}

/// The part of `path` below `root`, compared component by component, with
/// `.` dropped; None when `path` is not below `root` or, below it, names
/// `..` or another root. Checked on the path as written, before anything
/// on disk is looked at: `<root>/../victim` starts with the root's
/// components and still points out of it.
pub fn below(root: &Path, path: &Path) -> Option<PathBuf> {
    let rel = path.strip_prefix(root).ok()?;
    let mut out = PathBuf::new();
    for part in rel.components() {
        match part {
            Component::Normal(p) => out.push(p),
            Component::CurDir => {}
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

/// Checks that `path` (which may not exist yet) stays inside `root` once
/// links are resolved: git commits symbolic links, and a link in place of a
/// feature folder, `docs/features` or `.task` must never let phasegate read,
/// write or delete outside the repository. A path that names `..` below the
/// root is refused as written, whatever is on disk. The error names the
/// link.
pub fn confine(root: &Path, path: &Path) -> Result<(), StoreError> {
    let Some(rel) = below(root, path) else {
        return Err(StoreError::Outside { path: path.to_owned(), root: root.to_owned(), link: None });
    };
    let canonical_root = canonical_or_same(root);
    let mut at = root.to_path_buf();
    for part in rel.components() {
        at.push(part);
        let Ok(meta) = fs::symlink_metadata(&at) else { return Ok(()) };
        if meta.file_type().is_symlink() {
            let resolved = canonical(&at);
            let inside = resolved.as_ref().is_some_and(|r| r.starts_with(&canonical_root));
            if !inside {
                return Err(StoreError::Outside {
                    path: path.to_owned(),
                    root: root.to_owned(),
                    link: Some((at.clone(), resolved.or_else(|| fs::read_link(&at).ok()).unwrap_or_default())),
                });
            }
        }
    }
    Ok(())
}

/// Checks phasegate's own folders in git's directory (the runtime folder,
/// its journal and index folders): every part of `path` below `base` that
/// exists is a real folder or file, never a link, and `path` names no `..`.
/// Nothing belongs there but what phasegate made, so a link is someone
/// sending its writes elsewhere; the error names the link.
pub fn own_path(base: &Path, path: &Path) -> Result<(), StoreError> {
    let Some(rel) = below(base, path) else {
        return Err(StoreError::Outside { path: path.to_owned(), root: base.to_owned(), link: None });
    };
    let mut at = base.to_path_buf();
    for part in rel.components() {
        at.push(part);
        match fs::symlink_metadata(&at) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(e).at("inspect", at),
            Ok(m) if m.file_type().is_symlink() => {
                let target = fs::read_link(&at).unwrap_or_default();
                return Err(StoreError::LinkedRuntime { link: at, target });
            }
            Ok(_) => {}
        }
    }
    Ok(())
}

/// `base` joined with `rel`, a `/`-separated relative path, one segment at
/// a time: a path shown to a person then has the platform's separator
/// throughout (`C:\x\docs\features` on Windows, not `C:\x\docs/features`).
pub fn join_slashed(base: &Path, rel: &str) -> PathBuf {
    rel.split('/').filter(|s| !s.is_empty()).fold(base.to_path_buf(), |p, s| p.join(s))
}

/// `path` relative to `base` when below it (for messages).
pub fn relative(path: &Path, base: &Path) -> PathBuf {
    path.strip_prefix(base).map_or_else(|_| path.to_owned(), Path::to_path_buf)
}

/// The regular files directly in `dir`, each with its name (none when the
/// folder does not exist).
pub fn regular_files(dir: &Path) -> Result<Vec<(String, PathBuf)>, StoreError> {
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).at("list", dir),
    };
    let mut out = Vec::new();
    for entry in entries.flatten() {
        if entry.file_type().is_ok_and(|t| t.is_file()) {
            out.push((entry.file_name().to_string_lossy().into_owned(), entry.path()));
        }
    }
    out.sort();
    Ok(out)
}

/// What is at a path, without following a link there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    File,
    Dir,
    Link,
    Other,
}

/// The entry at `path`, not followed; None when nothing is there.
pub fn entry_kind(path: &Path) -> Option<EntryKind> {
    let t = fs::symlink_metadata(path).ok()?.file_type();
    Some(if t.is_symlink() {
        EntryKind::Link
    } else if t.is_dir() {
        EntryKind::Dir
    } else if t.is_file() {
        EntryKind::File
    } else {
        EntryKind::Other
    })
}

/// Whether a directory is at `path`, links followed (`Path::is_dir`).
pub fn is_dir(path: &Path) -> bool {
    path.is_dir()
}

/// Whether a file is at `path`, links followed (`Path::is_file`); a link
/// to a file counts, unlike [`is_regular_file`].
pub fn is_file(path: &Path) -> bool {
    path.is_file()
}

/// Whether something is at `path`, links followed (`Path::exists`): a
/// dangling link is nothing here, unlike [`exists_entry`].
pub fn exists(path: &Path) -> bool {
    path.exists()
}

/// `path` absolute, with `..` and every link resolved; None when it does
/// not exist or cannot be resolved. On Windows the plain form (`C:\x`),
/// not the verbatim one `canonicalize` gives (`\\?\C:\x`) unless only
/// the verbatim form can name it (a path past 260 characters, a reserved
/// name): every path phasegate prints, stores or compares is resolved
/// here, so all of them take one form.
pub fn canonical(path: &Path) -> Option<PathBuf> {
    dunce::canonicalize(path).ok()
}

/// `path` resolved as [`canonical`] does, or as given when it cannot be.
pub fn canonical_or_same(path: &Path) -> PathBuf {
    canonical(path).unwrap_or_else(|| path.to_owned())
}

/// This process's executable, links resolved (where the plugin's other
/// files are found from).
pub fn current_exe() -> Option<PathBuf> {
    canonical(&std::env::current_exe().ok()?)
}

/// Whether `path` is a regular file someone may run.
pub fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// When the file at `path` last changed (links followed).
pub fn modified(path: &Path) -> Option<std::time::SystemTime> {
    fs::metadata(path).ok()?.modified().ok()
}

/// A log file opened for appending (its folder made): what a background
/// process writes its output to.
pub fn open_log(path: &Path) -> Result<fs::File, StoreError> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).at("create", dir)?;
    }
    fs::OpenOptions::new().create(true).append(true).open(path).at("append to", path)
}

/// The first `n` bytes of a file and its metadata (what kind of program a
/// binary is).
pub fn head(path: &Path, n: usize) -> std::io::Result<(fs::Metadata, Vec<u8>)> {
    use std::io::Read;
    let mut f = fs::File::open(path)?;
    let meta = f.metadata()?;
    let mut buf = vec![0u8; n];
    f.read_exact(&mut buf)?;
    Ok((meta, buf))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_and_keeps_mode() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f.json");
        write_atomic(&p, b"one").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&p, fs::Permissions::from_mode(0o640)).unwrap();
        }
        write_atomic(&p, b"two").unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "two");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(fs::metadata(&p).unwrap().permissions().mode() & 0o777, 0o640);
        }
        // No temporary files are left behind.
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn errors_name_the_file() {
        let err = read_to_string(Path::new("/nonexistent/x.json")).unwrap_err().to_string();
        assert!(err.contains("/nonexistent/x.json"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn only_regular_files_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("sub");
        fs::create_dir(&d).unwrap();
        let err = read_optional(&d).unwrap_err().to_string();
        assert!(err.contains("is a directory"), "{err}");
        let link = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let err = read_optional(&link).unwrap_err().to_string();
        assert!(err.contains("symbolic link (to /dev/zero)"), "{err}");
        let dangling = dir.path().join("gone");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).unwrap();
        assert!(read_optional(&dangling).unwrap_err().to_string().contains("symbolic link"));
        assert!(remove_if_exists(&d).is_err() && d.is_dir());
    }

    #[cfg(unix)]
    #[test]
    fn links_out_of_the_root_are_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        let outside = dir.path().join("outside");
        fs::create_dir_all(root.join("docs")).unwrap();
        fs::create_dir_all(&outside).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("docs/features")).unwrap();
        let err = confine(&root, &root.join("docs/features/001-a/.meta.json")).unwrap_err().to_string();
        assert!(err.contains("docs/features") && err.contains("outside"), "{err}");
        std::os::unix::fs::symlink(root.join("docs"), root.join("docs2")).unwrap();
        confine(&root, &root.join("docs2/x")).unwrap();
    }

    #[test]
    fn slashed_paths_join_one_segment_at_a_time() {
        let base = Path::new("/repo");
        assert_eq!(join_slashed(base, "docs/features"), base.join("docs").join("features"));
        assert_eq!(join_slashed(base, "/a//b/"), base.join("a").join("b"));
        assert_eq!(join_slashed(base, ""), base);
    }

    // A path naming `..` below the root passed the check (it compared the
    // path's first components only) and let a journal write outside.
    #[test]
    fn a_dot_dot_path_escaped_the_repository() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        fs::create_dir_all(root.join("docs")).unwrap();
        for escaping in ["../victim.txt", "docs/../../victim.txt", "missing/../../victim.txt", "docs/../.."] {
            let err = confine(&root, &root.join(escaping)).unwrap_err().to_string();
            assert!(err.contains("outside the repository"), "{escaping}: {err}");
            assert!(own_path(&root, &root.join(escaping)).is_err(), "{escaping}");
        }
        confine(&root, &root.join("./docs/x")).unwrap();
        assert_eq!(below(&root, &root.join("a/./b")), Some(PathBuf::from("a/b")));
        assert_eq!(below(&root, Path::new("/elsewhere")), None);
    }

    // A runtime folder that is a link (even one inside the repository) is
    // refused by name: phasegate made every folder there.
    #[cfg(unix)]
    #[test]
    fn a_linked_runtime_folder_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let git = dir.path().join(".git");
        fs::create_dir_all(git.join("phasegate")).unwrap();
        fs::create_dir_all(dir.path().join("outside")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("outside"), git.join("phasegate/journal")).unwrap();
        let err = own_path(&git, &git.join("phasegate/journal/knowledge.json")).unwrap_err().to_string();
        assert!(err.contains("phasegate/journal is a symbolic link"), "{err}");
        own_path(&git, &git.join("phasegate/knowledge-index/abc")).unwrap();
    }
}
