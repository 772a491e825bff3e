//! Running external commands with a time limit: the plan's tests and the
//! final gate's reviewer.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// What a bounded run produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// None when killed (timeout or signal).
    pub exit: Option<i32>,
    pub timed_out: bool,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `program args…` in `dir`, feeding `stdin`, killing it (and its
/// process group on Unix) after `timeout`.
pub fn run(
    program: &str,
    args: &[String],
    dir: &Path,
    stdin: Option<&str>,
    timeout: Duration,
) -> std::io::Result<Finished> {
    let mut cmd = Command::new(program);
    cmd.args(args)
        .current_dir(dir)
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let mut child = cmd.spawn()?;
    let feeder = stdin.map(str::to_owned).and_then(|text| {
        child.stdin.take().map(|mut pipe| {
            thread::spawn(move || {
                let _ = pipe.write_all(text.as_bytes());
            })
        })
    });
    let out = child.stdout.take().map(reader);
    let err = child.stderr.take().map(reader);
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if start.elapsed() >= timeout {
            timed_out = true;
            kill_group(&mut child);
            break child.wait().ok();
        }
        thread::sleep(Duration::from_millis(20));
    };
    if let Some(f) = feeder {
        let _ = f.join();
    }
    let collect = |h: Option<thread::JoinHandle<String>>| h.and_then(|h| h.join().ok()).unwrap_or_default();
    Ok(Finished {
        exit: if timed_out { None } else { status.and_then(|s| s.code()) },
        timed_out,
        stdout: collect(out),
        stderr: collect(err),
    })
}

/// Runs a shell command line (`sh -c`, `cmd /C` on Windows).
pub fn run_shell(line: &str, dir: &Path, timeout: Duration) -> std::io::Result<Finished> {
    if cfg!(windows) {
        run("cmd", &["/C".to_owned(), line.to_owned()], dir, None, timeout)
    } else {
        run("sh", &["-c".to_owned(), line.to_owned()], dir, None, timeout)
    }
}

fn reader(mut pipe: impl Read + Send + 'static) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = pipe.read_to_end(&mut buf);
        String::from_utf8_lossy(&buf).into_owned()
    })
}

fn kill_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        // The child leads its own process group: kill the whole group, so a
        // test runner's children do not outlive the timeout.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", child.id())])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    let _ = child.kill();
}

/// Finds `program` on PATH (or as a path).
pub fn find_program(program: &str) -> Option<std::path::PathBuf> {
    let p = Path::new(program);
    if p.components().count() > 1 {
        return p.is_file().then(|| p.to_path_buf());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(program)).find(|c| is_executable(c))
}

fn is_executable(p: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        p.is_file()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_exit_and_stdin() {
        let dir = tempfile::tempdir().unwrap();
        let f = run_shell("echo out; echo err >&2; exit 3", dir.path(), Duration::from_secs(5)).unwrap();
        assert_eq!((f.exit, f.timed_out, f.stdout.as_str(), f.stderr.as_str()), (Some(3), false, "out\n", "err\n"));
        let f = run("cat", &[], dir.path(), Some("hello"), Duration::from_secs(5)).unwrap();
        assert_eq!(f.stdout, "hello");
    }

    #[test]
    fn timeouts_kill_the_whole_group() {
        let dir = tempfile::tempdir().unwrap();
        let start = Instant::now();
        let f = run_shell("sleep 30 & sleep 30; echo never", dir.path(), Duration::from_millis(300)).unwrap();
        assert!(f.timed_out && f.exit.is_none());
        assert!(start.elapsed() < Duration::from_secs(5), "the background child kept the pipes open");
    }

    #[test]
    fn programs_on_path() {
        assert!(find_program("sh").is_some());
        assert!(find_program("phasegate-no-such-program").is_none());
    }
}
