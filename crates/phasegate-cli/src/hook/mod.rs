//! `phasegate-hook <event>`: Claude Code hooks. A hook never breaks a
//! session: every problem, even a panic, becomes a short message and exit 0;
//! only a deliberate block uses the blocking protocol.

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use serde::Deserialize;

use crate::env;

mod session_start;
mod stop;

/// The fields of Claude Code's hook input that phasegate reads.
#[derive(Debug, Default, Deserialize)]
pub struct HookInput {
    #[serde(default)]
    pub session_id: Option<String>,
    #[serde(default)]
    pub cwd: Option<PathBuf>,
    #[serde(default)]
    pub stop_hook_active: bool,
    #[serde(default)]
    pub last_assistant_message: Option<String>,
}

impl HookInput {
    /// Reads stdin (not when it is a terminal, so a manual run does not hang).
    /// Unreadable input yields an empty input and a note.
    fn read() -> (HookInput, Option<String>) {
        let mut stdin = std::io::stdin();
        if stdin.is_terminal() {
            return (HookInput::default(), None);
        }
        let mut text = String::new();
        if let Err(e) = stdin.read_to_string(&mut text) {
            return (HookInput::default(), Some(format!("could not read the hook input: {e}")));
        }
        if text.trim().is_empty() {
            return (HookInput::default(), None);
        }
        match serde_json::from_str(&text) {
            Ok(input) => (input, None),
            Err(e) => (HookInput::default(), Some(format!("the hook input is not JSON ({e})"))),
        }
    }

    /// The directory the session works in.
    fn dir(&self) -> PathBuf {
        self.cwd
            .clone()
            .or_else(|| std::env::var_os(env::PROJECT_DIR).map(PathBuf::from))
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("."))
    }
}

pub fn main() -> ExitCode {
    let event = std::env::args().nth(1).unwrap_or_default();
    match event.as_str() {
        "session-start" => run_guarded(session_start::run),
        "stop" => run_guarded(stop::run),
        _ => {
            let _ = writeln!(
                std::io::stderr(),
                "usage: phasegate-hook session-start|stop\n(reads Claude Code's hook input JSON on stdin; register it in hooks/hooks.json)"
            );
            ExitCode::from(2)
        }
    }
}

/// Runs a hook with panics turned into a message on stdout; always exit 0.
fn run_guarded(hook: fn(HookInput, Option<String>) -> String) -> ExitCode {
    std::panic::set_hook(Box::new(|_| {}));
    let (input, note) = HookInput::read();
    let output = std::panic::catch_unwind(move || hook(input, note)).unwrap_or_else(|_| {
        "phasegate: the hook failed unexpectedly; run `workflow-state status` to check the features".to_owned()
    });
    if !output.is_empty() {
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(output.as_bytes());
        let _ = out.write_all(b"\n");
        let _ = out.flush();
    }
    ExitCode::SUCCESS
}
