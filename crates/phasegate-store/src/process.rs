//! Running external commands with a time limit: the plan's tests and the
//! final gate's reviewer.
//!
//! The deadline holds whatever the command does: at the deadline its whole
//! process group is killed (a job object on Windows: see [`Tree`]), and
//! output is collected only until then. A test that leaves a background
//! child holding stdout (a dev server, say) would otherwise keep the
//! reader, and the Stop hook, waiting until Claude Code's own hook timeout.
//! After the command exits normally its group is killed too (leftover
//! background children of a test run are not wanted) and reading stops
//! after a short grace period.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// How long output is still collected after the command itself exited.
const DRAIN_GRACE: Duration = Duration::from_millis(300);

/// What a bounded run produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// None when killed (timeout or signal).
    pub exit: Option<i32>,
    pub timed_out: bool,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `program args…` in `dir`, feeding `stdin`, killing its process group
/// after `timeout`.
pub fn run(
    program: &str,
    args: &[String],
    dir: &Path,
    stdin: Option<&str>,
    timeout: Duration,
) -> std::io::Result<Finished> {
    run_with(program, args, &[], dir, stdin, timeout)
}

/// [`run`] with these environment variables set for the command.
pub fn run_with(
    program: &str,
    args: &[String],
    vars: &[(&str, &str)],
    dir: &Path,
    stdin: Option<&str>,
    timeout: Duration,
) -> std::io::Result<Finished> {
    let start = Instant::now();
    let deadline = start + timeout;
    let mut cmd = Command::new(program);
    cmd.envs(vars.iter().copied());
    cmd.args(args)
        .current_dir(dir)
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = Tree::spawn(cmd)?;
    if let (Some(text), Some(mut pipe)) = (stdin.map(str::to_owned), child.stdin()) {
        thread::spawn(move || {
            let _ = pipe.write_all(text.as_bytes());
        });
    }
    let mut out = [Vec::new(), Vec::new()];
    let (status, timed_out) = supervise(child, deadline, |i, bytes| out[i].extend_from_slice(&bytes))?;
    let [stdout, stderr] = out.map(|b| String::from_utf8_lossy(&b).into_owned());
    Ok(Finished { exit: if timed_out { None } else { status.and_then(|s| s.code()) }, timed_out, stdout, stderr })
}

/// What a run with bounded output produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tail {
    /// None when killed (timeout or signal).
    pub exit: Option<i32>,
    pub timed_out: bool,
    /// The last `keep` bytes of stdout and stderr, in the order they came.
    pub output: String,
    /// How many bytes it printed in all.
    pub total_bytes: u64,
    pub duration: Duration,
}

/// Runs a shell command line in `dir` with `env` added, killing its
/// process group after `timeout`, and keeping only the last `keep` bytes of
/// its output (a command that prints 100 MB costs `keep` bytes of memory).
/// stdin is empty.
pub fn run_shell_tail(
    line: &str,
    dir: &Path,
    env: &[(&str, &str)],
    timeout: Duration,
    keep: usize,
) -> std::io::Result<Tail> {
    let start = Instant::now();
    let deadline = start + timeout;
    let mut cmd = if cfg!(windows) {
        let mut c = Command::new("cmd");
        c.args(["/C", line]);
        c
    } else {
        let mut c = Command::new("sh");
        c.args(["-c", line]);
        c
    };
    cmd.current_dir(dir).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let child = Tree::spawn(cmd)?;
    let mut held: std::collections::VecDeque<u8> = std::collections::VecDeque::new();
    let mut total: u64 = 0;
    let (status, timed_out) = supervise(child, deadline, |_, bytes| {
        total += bytes.len() as u64;
        held.extend(bytes);
        let over = held.len().saturating_sub(keep);
        held.drain(..over);
    })?;
    let bytes: Vec<u8> = held.into_iter().collect();
    Ok(Tail {
        exit: if timed_out { None } else { status.and_then(|s| s.code()) },
        timed_out,
        output: String::from_utf8_lossy(&bytes).into_owned(),
        total_bytes: total,
        duration: start.elapsed(),
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

/// A command started so that everything it starts ends with it: it leads
/// a process group of its own on Unix (killed with `killpg`), and runs in a
/// job object on Windows (ended with TerminateJobObject; process-wrap
/// starts it suspended, so nothing it starts escapes the job). Windows has
/// no process groups, and there a process left behind also holds this
/// process's own stdout and stderr (a child gets every inheritable handle
/// of its parent, whatever stdio it is given): the caller reading this
/// process's output would wait for it.
struct Tree {
    #[cfg(not(windows))]
    child: std::process::Child,
    #[cfg(windows)]
    child: Box<dyn process_wrap::std::ChildWrapper>,
}

impl Tree {
    fn spawn(cmd: Command) -> std::io::Result<Tree> {
        #[cfg(windows)]
        let child = process_wrap::std::CommandWrap::from(cmd).wrap(process_wrap::std::JobObject).spawn()?;
        #[cfg(not(windows))]
        let child = {
            let mut cmd = cmd;
            #[cfg(unix)]
            {
                use std::os::unix::process::CommandExt;
                // The group can be killed without touching us.
                cmd.process_group(0);
            }
            cmd.spawn()?
        };
        Ok(Tree { child })
    }

    fn stdin(&mut self) -> Option<std::process::ChildStdin> {
        #[cfg(windows)]
        return self.child.stdin().take();
        #[cfg(not(windows))]
        self.child.stdin.take()
    }

    /// Its stdout and stderr.
    fn pipes(&mut self) -> [Option<Box<dyn Read + Send>>; 2] {
        #[cfg(windows)]
        let (out, err) = (self.child.stdout().take(), self.child.stderr().take());
        #[cfg(not(windows))]
        let (out, err) = (self.child.stdout.take(), self.child.stderr.take());
        [out.map(|p| Box::new(p) as Box<dyn Read + Send>), err.map(|p| Box::new(p) as Box<dyn Read + Send>)]
    }

    fn try_wait(&mut self) -> std::io::Result<Option<std::process::ExitStatus>> {
        self.child.try_wait()
    }

    /// Ends every process of the tree that still runs.
    fn kill_all(&mut self) {
        #[cfg(unix)]
        {
            use nix::sys::signal::{Signal, killpg};
            use nix::unistd::Pid;
            if let Ok(raw) = i32::try_from(self.child.id()) {
                let _ = killpg(Pid::from_raw(raw), Signal::SIGKILL);
            }
        }
        #[cfg(windows)]
        {
            let _ = self.child.start_kill();
        }
    }

    /// Asks every process of the tree to end (SIGTERM to the group; on
    /// Windows the job is ended, there is no asking).
    fn terminate(&mut self) {
        #[cfg(unix)]
        {
            use nix::sys::signal::{Signal, killpg};
            use nix::unistd::Pid;
            if let Ok(raw) = i32::try_from(self.child.id()) {
                let _ = killpg(Pid::from_raw(raw), Signal::SIGTERM);
            }
        }
        #[cfg(windows)]
        {
            let _ = self.child.start_kill();
        }
    }

    /// Ends the command itself, and its status once it has ended.
    fn kill_and_wait(&mut self) -> Option<std::process::ExitStatus> {
        let _ = self.child.kill();
        self.child.wait().ok()
    }
}

/// Reads `child`'s stdout (0) and stderr (1) into `sink` as they come, until
/// it exits and its pipes are drained (or a short grace after its exit), or
/// until `deadline`, when its process group is killed. Its status (None
/// when killed) and whether the deadline struck.
fn supervise(
    mut child: Tree,
    deadline: Instant,
    mut sink: impl FnMut(usize, Vec<u8>),
) -> std::io::Result<(Option<std::process::ExitStatus>, bool)> {
    let (tx, rx) = mpsc::channel::<(usize, Vec<u8>)>();
    for (i, pipe) in child.pipes().into_iter().enumerate() {
        let Some(mut pipe) = pipe else { continue };
        let tx = tx.clone();
        thread::spawn(move || {
            let mut buf = [0u8; 64 * 1024];
            loop {
                match pipe.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        if tx.send((i, buf[..n].to_vec())).is_err() {
                            break;
                        }
                    }
                }
            }
        });
    }
    drop(tx);
    let mut timed_out = false;
    let mut status = None;
    let mut drain_until: Option<Instant> = None;
    loop {
        if status.is_none() {
            if let Some(s) = child.try_wait()? {
                status = Some(s);
                child.kill_all();
                drain_until = Some(Instant::now() + DRAIN_GRACE);
            } else if Instant::now() >= deadline {
                timed_out = true;
                child.kill_all();
                status = child.kill_and_wait();
                drain_until = Some(Instant::now() + DRAIN_GRACE);
            }
        }
        let until = drain_until.unwrap_or(deadline).min(Instant::now() + Duration::from_millis(20));
        match rx.recv_timeout(until.saturating_duration_since(Instant::now())) {
            Ok((i, bytes)) => sink(i, bytes),
            Err(mpsc::RecvTimeoutError::Disconnected) if status.is_some() => break,
            // Its pipes closed: it is exiting (or left them to a child).
            Err(mpsc::RecvTimeoutError::Disconnected) => thread::sleep(Duration::from_micros(200)),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        if drain_until.is_some_and(|d| Instant::now() >= d) {
            // Readers still blocked belong to children that escaped the
            // group (a new session); they are abandoned, not waited for.
            while let Ok((i, bytes)) = rx.try_recv() {
                sink(i, bytes);
            }
            break;
        }
    }
    Ok((status, timed_out))
}

/// How a command run in the foreground ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ran {
    /// Its exit code; None when a signal ended it.
    pub exit: Option<i32>,
    /// The signal that ended it (Unix).
    pub signal: Option<i32>,
    pub stdout: String,
    /// `stop` was set, and it was ended for it.
    pub stopped: bool,
}

/// Runs `program args…` in `dir` as long as it takes (a Claude Code
/// session): its stdout collected, its stderr the user's, its stdin empty,
/// in a process group of its own. When `stop` is set, it is asked to end
/// (SIGTERM to its group; Windows ends its job) and, after `grace`, killed.
pub fn run_until_stopped(
    program: &Path,
    args: &[String],
    dir: &Path,
    envs: &[(String, String)],
    stop: &std::sync::atomic::AtomicBool,
    grace: Duration,
) -> std::io::Result<Ran> {
    use std::sync::atomic::Ordering;
    let mut cmd = Command::new(program);
    cmd.args(args).current_dir(dir).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::inherit());
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let mut child = Tree::spawn(cmd)?;
    let [out, _] = child.pipes();
    let reader = out.map(|mut pipe| {
        thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    });
    let mut stopped = false;
    let mut asked_at: Option<Instant> = None;
    let status = loop {
        if let Some(s) = child.try_wait()? {
            break s;
        }
        if stop.load(Ordering::SeqCst) {
            stopped = true;
            match asked_at {
                None => {
                    child.terminate();
                    asked_at = Some(Instant::now());
                }
                Some(at) if at.elapsed() >= grace => {
                    child.kill_all();
                    if let Some(s) = child.kill_and_wait() {
                        break s;
                    }
                }
                Some(_) => {}
            }
        }
        thread::sleep(Duration::from_millis(50));
    };
    // What it left running in its group ends with it.
    child.kill_all();
    let stdout =
        reader.and_then(|r| r.join().ok()).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
    #[cfg(unix)]
    let signal = std::os::unix::process::ExitStatusExt::signal(&status);
    #[cfg(not(unix))]
    let signal = None;
    Ok(Ran { exit: status.code(), signal, stdout, stopped })
}

/// Whether the process `pid` has ended: Windows is asked (OpenProcess,
/// then GetExitCodeProcess); elsewhere the system's list of processes in
/// `/proc`, or without one (macOS, the BSDs) `kill(pid, 0)`. None where
/// none can tell (the caller asks otherwise).
pub fn is_gone(pid: u32) -> Option<bool> {
    #[cfg(windows)]
    {
        windows_gone(pid)
    }
    #[cfg(not(windows))]
    {
        let proc = Path::new("/proc");
        match proc.is_dir() {
            true => Some(!proc.join(pid.to_string()).exists()),
            false => signal_gone(pid),
        }
    }
}

/// `kill(pid, 0)`: no such process, or one that is there (perhaps not
/// ours to signal). Ids 0 and above `i32::MAX` name groups, not a process.
#[cfg(unix)]
fn signal_gone(pid: u32) -> Option<bool> {
    use nix::errno::Errno;
    use nix::sys::signal::kill;
    use nix::unistd::Pid;
    let raw = i32::try_from(pid).ok().filter(|p| *p > 0)?;
    match kill(Pid::from_raw(raw), None) {
        Ok(()) | Err(Errno::EPERM) => Some(false),
        Err(Errno::ESRCH) => Some(true),
        Err(_) => None,
    }
}

#[cfg(all(not(unix), not(windows)))]
fn signal_gone(_pid: u32) -> Option<bool> {
    None
}

/// The process that started this one: for a hook, Claude Code itself (it
/// runs hooks without a shell, and `bin/phasegate-hook` execs the binary).
/// None where the standard library does not tell (Windows).
pub fn parent_id() -> Option<u32> {
    #[cfg(unix)]
    {
        Some(std::os::unix::process::parent_id())
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Windows' answer. A process that ended while someone still holds a
/// handle to it has an exit code; one whose last handle closed has no id
/// any more, and OpenProcess fails with ERROR_INVALID_PARAMETER: gone too.
/// Access denied (a process of another user, or a protected one) means it
/// is there; any other failure tells nothing. (Under Wine, `/proc` is the
/// Linux one: its ids are not Windows process ids, and it must not be
/// asked.)
#[cfg(windows)]
fn windows_gone(pid: u32) -> Option<bool> {
    /// What OpenProcess fails with when no process has the id.
    const ERROR_INVALID_PARAMETER: i32 = 87;
    /// What it fails with when the process is not ours to ask about.
    const ERROR_ACCESS_DENIED: i32 = 5;
    match process_alive::state(pid.into()) {
        process_alive::State::Alive => Some(false),
        process_alive::State::Dead => Some(true),
        // `state` returns as soon as OpenProcess fails, so the thread's
        // last error is still OpenProcess's (the crate's version is pinned
        // and tests/windows holds this under Wine).
        process_alive::State::Unknown => match std::io::Error::last_os_error().raw_os_error() {
            Some(ERROR_INVALID_PARAMETER) => Some(true),
            Some(ERROR_ACCESS_DENIED) => Some(false),
            _ => None,
        },
    }
}

/// Keeps this process's own stdin, stdout and stderr from every process it
/// starts, on Windows; nothing to do elsewhere (a Unix child given other
/// stdio does not keep them). A Windows child gets every inheritable handle
/// of its parent whatever stdio it is given, and the handles a process is
/// started with are inheritable: the background Slack poller a hook starts,
/// meant to outlive it, kept the hook's stdout open, so Claude Code, reading
/// the hook's answer to its end, waited for the poller. Each standard
/// handle is replaced by a duplicate that is not inheritable, and the
/// original closed (wezterm's `filedescriptor`: DuplicateHandle,
/// SetStdHandle); a child told to inherit one still gets it, as std
/// duplicates it for that child. Called first thing by both binaries; best
/// effort (a handle that cannot be duplicated is left as it is).
pub fn keep_own_stdio() {
    #[cfg(windows)]
    {
        use filedescriptor::{FileDescriptor, StdioDescriptor};
        let _ = FileDescriptor::redirect_stdio(&std::io::stdin(), StdioDescriptor::Stdin);
        let _ = FileDescriptor::redirect_stdio(&std::io::stdout(), StdioDescriptor::Stdout);
        let _ = FileDescriptor::redirect_stdio(&std::io::stderr(), StdioDescriptor::Stderr);
    }
}

/// Finds `program` on PATH (or as a path).
pub fn find_program(program: &str) -> Option<PathBuf> {
    which::which(program).ok()
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
        assert!(start.elapsed() < Duration::from_secs(3), "the background child kept the pipes open");
    }

    /// Regression: a 2 s limit took 25 s when the command left a background
    /// child holding stdout that escaped the process group.
    #[test]
    fn the_deadline_holds_when_a_child_escapes_the_group() {
        let dir = tempfile::tempdir().unwrap();
        let start = Instant::now();
        let f = run_shell("setsid sleep 20 & echo started; sleep 30", dir.path(), Duration::from_millis(500)).unwrap();
        assert!(f.timed_out && f.stdout.contains("started"), "{f:?}");
        assert!(start.elapsed() < Duration::from_secs(3), "waited {:?}", start.elapsed());
        // A command that exits at once but leaves a holder of stdout behind.
        let start = Instant::now();
        let f = run_shell("setsid sleep 20 & echo done", dir.path(), Duration::from_secs(10)).unwrap();
        assert_eq!((f.exit, f.stdout.as_str()), (Some(0), "done\n"));
        assert!(start.elapsed() < Duration::from_secs(3), "waited {:?}", start.elapsed());
    }

    #[test]
    fn a_run_keeps_only_the_tail_of_a_huge_output() {
        let dir = tempfile::tempdir().unwrap();
        let line = "yes 0123456789 | head -c 100000000; echo; echo the end; exit 4";
        let t = run_shell_tail(line, dir.path(), &[("PHASEGATE_X", "1")], Duration::from_secs(60), 4096).unwrap();
        assert_eq!((t.exit, t.timed_out), (Some(4), false));
        assert!(t.output.len() <= 4096 && t.output.ends_with("the end\n"), "{}", t.output.len());
        assert!(t.total_bytes > 100_000_000, "{}", t.total_bytes);
        let t = run_shell_tail(
            "echo $PHASEGATE_X; sleep 30",
            dir.path(),
            &[("PHASEGATE_X", "seen")],
            Duration::from_millis(300),
            100,
        )
        .unwrap();
        assert!(t.timed_out && t.exit.is_none() && t.output == "seen\n", "{t:?}");
    }

    #[test]
    fn programs_on_path() {
        assert!(find_program("sh").is_some());
        assert!(find_program("phasegate-no-such-program").is_none());
    }
}
