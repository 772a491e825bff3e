//! Crash points for tests: with the `failpoints` feature, [`hit`] kills the
//! process with SIGKILL (as `kill -9` would: no destructor, no unwinding, no
//! buffered write) when [`FAILPOINT`] names the point. The integration tests
//! turn the feature on (a dev-dependency of the root package), so the
//! binaries they run have the points; a release build has none: [`hit`] is
//! an empty function there.

/// The environment variable naming the crash point to die at (tests only).
pub const FAILPOINT: &str = "PHASEGATE_FAILPOINT";

/// Dies here, as if killed, when [`FAILPOINT`] is `name`.
#[cfg(feature = "failpoints")]
pub fn hit(name: &str) {
    if std::env::var_os(FAILPOINT).is_some_and(|v| v == name) {
        #[cfg(unix)]
        {
            let _ = nix::sys::signal::raise(nix::sys::signal::Signal::SIGKILL);
        }
        std::process::abort();
    }
}

/// Panics here when [`FAILPOINT`] is `name` (a bug, as the tests make one).
#[cfg(feature = "failpoints")]
pub fn panic_at(name: &str) {
    if std::env::var_os(FAILPOINT).is_some_and(|v| v == name) {
        panic!("failpoint {name}");
    }
}

/// Does nothing: panic points exist only with the `failpoints` feature.
#[cfg(not(feature = "failpoints"))]
#[inline(always)]
pub fn panic_at(_name: &str) {}

/// Does nothing: crash points exist only with the `failpoints` feature.
#[cfg(not(feature = "failpoints"))]
#[inline(always)]
pub fn hit(_name: &str) {}

/// The environment variable that tells a test build to take itself for a
/// command run outside Claude Code even when a Claude Code process is
/// above it (a developer runs the suite inside Claude Code). Tests only:
/// a release build never reads it.
pub const OUTSIDE_CLAUDE_CODE: &str = "PHASEGATE_TEST_OUTSIDE_CLAUDE_CODE";

/// Whether a test asked to ignore the Claude Code processes above it.
pub fn outside_claude_code() -> bool {
    cfg!(feature = "failpoints") && std::env::var_os(OUTSIDE_CLAUDE_CODE).is_some_and(|v| v == "1")
}
