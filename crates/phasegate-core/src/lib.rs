//! phasegate's domain, free of I/O: phases and their order, the transition
//! rules, modes and their iteration caps, the `.meta.json` model, reviewer
//! verdicts and briefs, the review-cycle engine, the review-history format,
//! pipeline mode's state machine, and the schemas of every file phasegate
//! owns. Callers pass in the clock and the file contents.

pub mod agents;
pub mod build;
pub mod change;
pub mod cycle;
pub mod history;
pub mod implement_config;
pub mod meta;
pub mod mode;
pub mod names;
pub mod next_step;
pub mod phase;
pub mod pipeline;
pub mod question;
pub mod questions_config;
pub mod reply;
pub mod reviewer;
pub mod rounds;
pub mod schema;
pub mod session;
pub mod slug;
pub mod task_review;
pub mod tasks;
pub mod time;
pub mod transition;
pub mod verdict;

pub use meta::{Meta, PhaseRecord, PhaseState, Status};
pub use mode::Mode;
pub use names::Named;
pub use phase::{Artifact, ArtifactSet, Phase};
