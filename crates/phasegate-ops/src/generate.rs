//! Writing a generated file (`workflow-state generate`), atomically.

use std::path::Path;

use crate::error::OpResult;

pub fn write(path: &Path, text: &str) -> OpResult<()> {
    Ok(phasegate_store::files::write_whole(path, text)?)
}
