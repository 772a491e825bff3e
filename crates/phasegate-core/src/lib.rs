//! phasegate's domain, free of I/O: phases and their order, the transition
//! rules, modes and their iteration caps, the `.meta.json` model, reviewer
//! verdicts, the review-history format, and the schemas of every file
//! phasegate owns. Callers pass in the clock and the file contents.

pub mod guide;
pub mod history;
pub mod meta;
pub mod mode;
pub mod phase;
pub mod pipeline;
pub mod review;
pub mod schema;
pub mod transition;
pub mod verdict;

pub use meta::{Meta, PhaseRecord, PhaseState, Status};
pub use mode::Mode;
pub use phase::{Artifact, ArtifactSet, Phase};
