//! `phasegate-hook`: the Claude Code hook entry point (SessionStart, Stop,
//! PreToolUse). Links phasegate-hook only: no network or TLS code.
fn main() -> std::process::ExitCode {
    phasegate_hook::main()
}
