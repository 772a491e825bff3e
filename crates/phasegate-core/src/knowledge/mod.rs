//! The knowledge base (seed 004 §10): gotchas, patterns and decisions.

mod hash;
mod item;
mod pattern;

pub use item::{
    Evidence, InvalidId, Item, ItemError, ItemType, MAX_EXCERPT_CHARS, MAX_ID, excerpt, file_name, new_id, validate_id,
};
pub use pattern::{
    KINDS_BY_EXTENSION, MAX_PATTERN, PathError, PatternError, candidates, matches, pattern_for, validate_pattern,
};
