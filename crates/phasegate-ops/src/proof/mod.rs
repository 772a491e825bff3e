//! Done means proven: every requirement of a feature has a check that ran
//! and passed on the code as it is now, recorded by the binary in the
//! evidence ledger (`docs/features/<feature>/evidence.json`).
//!
//! - `sources`: what a feature must prove (spec.md's numbered requirements,
//!   a pipeline's acceptance criteria) and what proves it (tasks.md's
//!   `## Checks`, a pipeline plan's `test_plan.checks`);
//! - `run`: `verify run`, the checks run and the ledger written;
//! - `state`: the ledger judged at the tree as it is now, which `finish`,
//!   the verify phase's approval, the pipeline's completion, `status` and
//!   the reviewer's brief read;
//! - `waive`: a person's waiver, through a question only a person answers;
//! - `tamper`: state files changed outside phasegate's commands, shown
//!   until a person clears the marks.

mod run;
mod sources;
mod state;
pub mod tamper;
mod waive;

pub use run::{CHECK_ENV, Ran, run, run_feature};
pub use sources::{Listed, Listing, Sources, list, sources};
pub use state::{Proof, at_finish, proof, status};
pub(crate) use tamper::TAMPER;
pub use waive::{Waived, WaiverState, answered_waivers, waive};
