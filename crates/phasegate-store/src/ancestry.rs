//! The processes above this one, as the system names them: how a command
//! knows it was started by Claude Code's tools (the model's Bash tool, a
//! command file's `!` injection) even when the environment variables Claude
//! Code sets were unset on the way. Linux reads `/proc`; other Unix systems
//! ask `ps` once; elsewhere nothing is known.

/// A process above this one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ancestor {
    pub pid: u32,
    /// What it is called: its command name, and the file names of its
    /// executable and of its first two arguments (a script's interpreter
    /// runs the script as its first argument).
    pub names: Vec<String>,
}

/// The most ancestors looked at.
const MAX_DEPTH: usize = 64;

/// This process's ancestors, nearest first; None where the system cannot
/// tell.
pub fn ancestors() -> Option<Vec<Ancestor>> {
    imp::ancestors()
}

/// The terminal this process reads from (`/dev/pts/3`, or `a terminal`
/// where the system does not name it); None when its input is not one.
pub fn stdin_terminal() -> Option<String> {
    use std::io::IsTerminal;
    if !std::io::stdin().is_terminal() {
        return None;
    }
    Some(
        std::fs::read_link("/proc/self/fd/0")
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_else(|_| "a terminal".to_owned()),
    )
}

fn file_name(s: &str) -> String {
    s.rsplit(['/', '\\']).next().unwrap_or(s).to_owned()
}

#[cfg(target_os = "linux")]
mod imp {
    use super::{Ancestor, MAX_DEPTH, file_name};
    use std::path::Path;

    /// `(ppid, comm)` of `pid` from `/proc/<pid>/stat` (the command name
    /// is in parentheses and may hold spaces or parentheses itself).
    fn stat(pid: u32) -> Option<(u32, String)> {
        let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let open = text.find('(')?;
        let close = text.rfind(')')?;
        let comm = text.get(open + 1..close)?.to_owned();
        let ppid = text.get(close + 2..)?.split_whitespace().nth(1)?.parse().ok()?;
        Some((ppid, comm))
    }

    fn names(pid: u32, comm: String) -> Vec<String> {
        let mut names = vec![comm];
        if let Ok(exe) = std::fs::read_link(format!("/proc/{pid}/exe")) {
            names.push(file_name(&exe.to_string_lossy()));
        }
        if let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) {
            names.extend(cmdline.split(|b| *b == 0).take(2).map(|a| file_name(&String::from_utf8_lossy(a))));
        }
        names.retain(|n| !n.is_empty());
        names
    }

    pub fn ancestors() -> Option<Vec<Ancestor>> {
        if !Path::new("/proc/self/stat").exists() {
            return None;
        }
        let (mut pid, _) = stat(std::process::id())?;
        let mut out = Vec::new();
        while pid > 1 && out.len() < MAX_DEPTH {
            let Some((ppid, comm)) = stat(pid) else { break };
            out.push(Ancestor { pid, names: names(pid, comm) });
            pid = ppid;
        }
        Some(out)
    }
}

#[cfg(all(unix, not(target_os = "linux")))]
mod imp {
    use super::{Ancestor, MAX_DEPTH, file_name};
    use std::collections::HashMap;

    pub fn ancestors() -> Option<Vec<Ancestor>> {
        let out = std::process::Command::new("ps").args(["-A", "-o", "pid=,ppid=,comm="]).output().ok()?;
        let text = String::from_utf8_lossy(&out.stdout);
        let mut table: HashMap<u32, (u32, String)> = HashMap::new();
        for line in text.lines() {
            let mut parts = line.split_whitespace();
            let (Some(pid), Some(ppid)) = (parts.next(), parts.next()) else { continue };
            let comm = parts.collect::<Vec<_>>().join(" ");
            if let (Ok(pid), Ok(ppid)) = (pid.parse(), ppid.parse()) {
                table.insert(pid, (ppid, comm));
            }
        }
        let mut pid = table.get(&std::process::id())?.0;
        let mut out = Vec::new();
        while pid > 1 && out.len() < MAX_DEPTH {
            let Some((ppid, comm)) = table.get(&pid) else { break };
            out.push(Ancestor { pid, names: vec![file_name(comm)] });
            pid = *ppid;
        }
        Some(out)
    }
}

#[cfg(not(unix))]
mod imp {
    use super::Ancestor;

    pub fn ancestors() -> Option<Vec<Ancestor>> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn the_nearest_ancestor_is_the_parent() {
        let found = ancestors().expect("a Unix system tells");
        assert_eq!(found.first().map(|a| a.pid), Some(std::os::unix::process::parent_id()), "{found:?}");
        assert!(found.iter().all(|a| a.pid != std::process::id()), "a process is not its own ancestor");
        assert!(found.iter().all(|a| !a.names.is_empty()), "{found:?}");
    }
}
