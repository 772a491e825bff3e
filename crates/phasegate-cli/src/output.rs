//! Where commands print: stdout through one sink, JSON or lines. A closed
//! stdout (the reader went away) ends the command quietly, like ripgrep.

use std::io::{self, Write};

use serde::Serialize;

/// Writing to stdout failed.
#[derive(Debug)]
pub enum OutputError {
    /// The reader went away: exit quietly.
    BrokenPipe,
    Other(io::Error),
}

pub struct Printer<'a> {
    out: &'a mut dyn Write,
}

impl<'a> Printer<'a> {
    pub fn new(out: &'a mut dyn Write) -> Self {
        Printer { out }
    }

    /// One line.
    pub fn line(&mut self, text: impl AsRef<str>) -> Result<(), OutputError> {
        writeln!(self.out, "{}", text.as_ref()).map_err(|e| match e.kind() {
            io::ErrorKind::BrokenPipe => OutputError::BrokenPipe,
            _ => OutputError::Other(e),
        })
    }

    /// A value as one line of JSON.
    pub fn json(&mut self, value: &impl Serialize) -> Result<(), OutputError> {
        let text = serde_json::to_string(value).expect("outputs always serialise");
        self.line(text)
    }

    /// A value as indented JSON.
    pub fn json_pretty(&mut self, value: &impl Serialize) -> Result<(), OutputError> {
        let text = serde_json::to_string_pretty(value).expect("outputs always serialise");
        self.line(text)
    }
}
