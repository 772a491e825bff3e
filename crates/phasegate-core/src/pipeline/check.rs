//! What a valid pipeline file is: the one check `pipeline check` makes,
//! which every loader agrees with. It reads each kind as the module that
//! owns its type does (`files`, `config`, `impl_loop`, `run`), so it sits
//! above them all.

use super::config::Config;
use super::files::{FileError, FileKind, PlanRefined, Review, WorkerSignal, check_schema, parse, read_owned};
use super::impl_loop::LoopState;
use super::run::PipelineRun;

/// The one definition of a valid file of `kind`: its schema, then the
/// reading every loader does. `pipeline check` and every loader agree.
pub fn validate(kind: FileKind, text: &str) -> Result<(), FileError> {
    match kind {
        FileKind::WorkerSignal => parse::<WorkerSignal>(kind, text).map(drop),
        FileKind::UserStory | FileKind::ImplResult => check_schema(kind, text).map(drop),
        FileKind::PlanRefined => parse::<PlanRefined>(kind, text).map(drop),
        FileKind::Review => parse::<Review>(kind, text).map(drop),
        FileKind::LoopState => read_owned::<LoopState>(text).map(drop),
        FileKind::Config => parse::<Config>(kind, text).map(drop),
        FileKind::State => read_owned::<PipelineRun>(text).map(drop),
    }
}
