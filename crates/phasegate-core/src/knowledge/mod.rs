//! The knowledge base (seed 004 §6.3 and §10): what the agents learn, kept
//! as gotchas (mistakes to avoid, injected into the briefs of tasks on
//! matching files), patterns (approaches that worked, looked up by topic)
//! and decisions (choices made on purpose, looked up with the patterns).
//! Pure: callers pass file contents, paths as strings and the clock; the
//! store reads and writes the files, atomically and under its lock.
//!
//! - `bounds`: what reading an item file may cost (its size, its front
//!   matter's nesting), checked before the YAML parser sees it;
//! - `item`: one Markdown file per item, `<id>.md`, YAML front matter with a
//!   schema, stable rendering for small diffs, ids;
//! - `pattern`: path → pattern (`*.sql`, `server/routes/*`, exact paths),
//!   matching and the candidate patterns of a path;
//! - `query`: the §10.1 queries over all items;
//! - `index`: shards that answer the same queries from a few files (a
//!   cache, never the truth);
//! - `admission`: what may be recorded (evidence, not readable off the
//!   source, not a platitude);
//! - `record`: similar items, and reinforce, supersede or create;
//! - `lifecycle`: the §10.2 confidences, feedback counters, retirement;
//! - `claude_md`: promotion into a block of CLAUDE.md that phasegate owns;
//! - `retro`: the retrospective's rules and metrics (§6.3);
//! - `retro_files`: the agent's reply and the feature's record.
//!
//! The knowledge base depends on the kernel only (names, schema, time),
//! never on the pipeline or tasks capabilities.

mod admission;
mod bounds;
mod claude_md;
mod index;
mod item;
mod lifecycle;
mod pattern;
mod query;
mod record;
mod retro;
mod retro_files;
mod said;
mod words;

pub use admission::{Lesson, Refusal, SourceText, admit};
pub use bounds::{MAX_FLOW_NESTING, MAX_ITEM_BYTES};
pub use claude_md::{Unmet, promote, promoted_ids, should_update_claude_md, unmet};
pub use index::{
    INDEX_VERSION, IndexEntry, Indexed, KnowledgeIndex, Shard, build_id, build_index, fingerprint, gotcha_shard_name,
    gotcha_shards_for, gotchas_from_shards, hex, lesson_of, patterns_from_shards, topic_shard_name,
};
pub use item::{
    Evidence, KnowledgeItem, KnowledgeItemError, KnowledgeType, excerpt, file_name, valid_confidence, validate_id,
};
pub use lifecycle::{
    DISCOVERY, InjectionOutcome, Retirement, injected, outcome, retire, seen_again, supersede_cycle, supersede_cycles,
};
pub use pattern::{pattern_for, validate_pattern};
pub use query::MAX_GOTCHAS;
pub use record::{RecordDecision, record, similar};
pub use retro::{
    DivergenceFacts, DivergenceKind, ENVIRONMENTAL, Metric, Metrics, TaskFailure, TaskRun, classify_divergence,
    is_gotcha_candidate, metrics, should_record_gotcha, trend,
};
pub use retro_files::{
    ClassifiedDivergence, Judged, LessonOutcome, ProposedGotcha, ProposedPattern, RETRO_FILE, RetroCost, RetroRecord,
    RetroReply, TemplateChange, template_path,
};
pub use said::{LessonKept, LessonRecorded, PromoteSaid, RetroRecorded};
