//! `phasegate-hook`: the Claude Code hook entry point (SessionStart, Stop).
fn main() -> std::process::ExitCode {
    phasegate_cli::hook_main()
}
