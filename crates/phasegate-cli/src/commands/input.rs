//! Reading a text argument from a file or stdin (`-`), as every command that
//! takes a model's reply or a JSON document does.

use std::io::Read;
use std::path::Path;

use phasegate_ops::feature::review;
use phasegate_ops::{Invalid, OpError};

/// Text read, with where it came from (for messages).
pub struct Text {
    pub source: String,
    pub text: String,
}

/// Reads `path` (relative to the working directory; `-` for stdin): a
/// regular file of at most the state-file cap.
pub fn read(path: &Path, what: &str, cwd: &Path) -> Result<Text, OpError> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .take(review::MAX_REPLY_BYTES)
            .read_to_string(&mut text)
            .map_err(|source| Invalid::Stdin { what: what.to_owned(), source })?;
        return Ok(Text { source: format!("the {what} on stdin"), text });
    }
    let full = cwd.join(path);
    let text = phasegate_store_read(&full, what)?;
    Ok(Text { source: format!("the {what} in {}", full.display()), text })
}

fn phasegate_store_read(path: &Path, what: &str) -> Result<String, OpError> {
    review::read_file(path)?.ok_or_else(|| Invalid::NoInputFile { what: what.to_owned(), path: path.to_owned() }.into())
}
