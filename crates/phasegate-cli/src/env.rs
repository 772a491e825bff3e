//! Environment variables phasegate reads, in one module (like uv's EnvVars).

/// Milliseconds a writer waits for a feature's lock (default 10000).
pub const LOCK_TIMEOUT_MS: &str = "PHASEGATE_LOCK_TIMEOUT_MS";
/// The Claude Code session running a command; set by Claude Code for hooks
/// and for the Bash tool.
pub const SESSION_ID: &str = "CLAUDE_CODE_SESSION_ID";
/// The project directory of the Claude Code session (set for hooks).
pub const PROJECT_DIR: &str = "CLAUDE_PROJECT_DIR";
