//! The knowledge base (seed 004 §10): gotchas, patterns and decisions.

mod admission;
mod claude_md;
mod hash;
mod index;
mod item;
mod lifecycle;
mod pattern;
mod query;
mod record;
mod words;

pub use admission::{Admitted, Lesson, MIN_CONTENT_WORDS, PLATITUDES, Refusal, Source, admit};
pub use claude_md::{
    BLOCK_END, BLOCK_START, BlockError, PROMOTE_MIN_CONFIDENCE, PROMOTE_MIN_OCCURRENCES, UNIVERSAL_FEATURES, Unmet,
    demote, is_universal, promote, promoted_ids, should_update_claude_md, unmet,
};
pub use index::{
    INDEX_VERSION, Index, IndexEntry, MAX_INDEXED_CONTENT, Shard, build_index, gotcha_shard_name, gotcha_shards_for,
    gotchas_from_shards, patterns_from_shards, topic_shard_name,
};
pub use item::{
    Evidence, InvalidId, Item, ItemError, ItemType, MAX_EXCERPT_CHARS, MAX_ID, excerpt, file_name, new_id, validate_id,
};
pub use lifecycle::{
    DISCOVERY, LifecycleError, MAX_EVIDENCE, NOT_HELPED_STEP, Outcome, PREVENTED, Retirement, SEEN_TWICE, adjust,
    injected, outcome, retire, seen_again,
};
pub use pattern::{
    KINDS_BY_EXTENSION, MAX_PATTERN, PathError, PatternError, candidates, matches, pattern_for, validate_pattern,
};
pub use query::{GOTCHA_MIN_CONFIDENCE, MAX_GOTCHAS, PATTERN_MIN_CONFIDENCE, gotchas_for, patterns_for};
pub use record::{Change, RecordDecision, Recorded, SIMILARITY, record, similar};
