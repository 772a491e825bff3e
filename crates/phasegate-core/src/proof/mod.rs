//! Done means proven: a feature is done when every requirement of its spec
//! has a check that ran and passed on the code as it is now, recorded by
//! the binary. This capability holds the grammars (spec.md's numbered
//! requirements, tasks.md's `## Checks`), the evidence ledger
//! (`evidence.json`) and the judgement every gate makes from it, JUnit
//! reports, and what of a check's output the ledger keeps.

mod config;
mod grammar;
mod junit;
mod ledger;
mod output;
mod said;
mod scope;

pub use config::{DEFAULT_TIMEOUT_SECONDS, VERIFY_CONFIG_PATH, VerifyConfig};
pub use grammar::{
    CheckDecl, GrammarError, LineError, Requirement, checks, checks_and_errors, checks_section, requirements,
    unknown_ids,
};
pub use junit::{Report, test_cases};
pub use ledger::{
    CheckRun, Declared, EARLIER_RUNS, EVIDENCE_FILE, EarlierRun, FailedCheck, Judgement, LEDGER_VERSION, Ledger, Open,
    ProofStatus, RequirementProof, RequirementStatus, TestCase, TestStatus, Waiver, judge, status_of,
};
pub use output::{HELD_BYTES, scrub, secret_name, tail};
pub use said::{RanNext, TamperSaid, TamperStands, WaiveSaid, Waiving};
pub use scope::{PIPELINE_SOURCES, counts};
