//! A finished run of one of the binaries, for the test binaries that run
//! them (`tests/it` natively, `tests/windows` under Wine), included with
//! `#[path]`.

use serde_json::Value;

/// A finished run.
#[derive(Debug)]
pub struct Done {
    pub desc: String,
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Done {
    pub fn json(&self) -> Value {
        serde_json::from_str(self.stdout.trim())
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", self.report()))
    }

    pub fn report(&self) -> String {
        format!("$ {}\nexit: {:?}\n--- stdout\n{}--- stderr\n{}", self.desc, self.code, self.stdout, self.stderr)
    }

    pub fn stderr_has(&self, needle: &str) -> &Self {
        assert!(self.stderr.contains(needle), "stderr lacks {needle:?}\n{}", self.report());
        self
    }

    pub fn stdout_has(&self, needle: &str) -> &Self {
        assert!(self.stdout.contains(needle), "stdout lacks {needle:?}\n{}", self.report());
        self
    }
}
