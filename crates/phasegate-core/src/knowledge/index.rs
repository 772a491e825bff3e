//! The derived index: a cache that answers the §10.1 queries from a few
//! small files instead of reading every item, never the truth. It is built
//! from all items and can be thrown away and rebuilt at any time; the
//! items are what a team reviews and merges.
//!
//! Gotcha shards are keyed by file pattern, plus one for items without a
//! pattern. A shard holds, for each (pattern, action or none) in it, only
//! what the query could return: the items not superseded, at or above 0.6,
//! the top 5 by the query's order (within one pattern the "own pattern
//! first" key is the same for all, so the top 5 of the union of groups is
//! the top 5 of all). A gotcha query reads the shards of [`candidates`]
//! of the path and the no-pattern shard (at most four files) and gives
//! what the query over every item gives; a test proves it on 10,000
//! random items. Topic shards, one per topic, hold every pattern and
//! decision the topic query could return (it has no limit). Each entry
//! keeps its id, type, pattern, action, topic, confidence, occurrences and
//! the lesson cut to 600 bytes, enough for a brief; the full text is in the
//! item's file. A shard's file name is a 64-bit FNV-1a hash of its key in
//! hex (`g-….json`, `t-….json`), so any pattern or topic is a safe file
//! name; each entry carries its own pattern, and a query checks it, so two
//! keys that shared a file would still be answered right. Every shard
//! carries [`INDEX_VERSION`]: a store that reads another version rebuilds.
//!
//! **Verified, not trusted.** Each entry carries the fingerprint of the
//! item file it was made from ([`fingerprint`], FNV-1a of its bytes), and
//! each shard the id of the build it belongs to ([`build_id`]: the
//! fingerprints of every item and the names of the files that could not
//! be read). The store adds a checksum to each file it writes. What a
//! reader injects is the lesson read again from the item file whose
//! fingerprint the entry names ([`lesson_of`]), never the shard's copy: a
//! shard edited by hand, or corrupt, can hide an item until it is rebuilt
//! but cannot put words in a brief.
//!
//! [`candidates`]: super::candidates

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::item::{KnowledgeItem, KnowledgeType};
use super::pattern::{PathError, candidates_of, matches_normal, normalise, pattern_of};
use super::query::{GOTCHA_MIN_CONFIDENCE, MAX_GOTCHAS, PATTERN_MIN_CONFIDENCE, Rank, action_passes, by_topic, order};
use crate::hash::fnv1a64;

/// The shard format; a store rebuilds shards of another version.
pub const INDEX_VERSION: u32 = 2;
/// The most bytes of a lesson an index entry keeps.
pub const MAX_INDEXED_CONTENT: usize = 600;

/// What the index keeps of an item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndexEntry {
    pub id: String,
    #[serde(rename = "type")]
    pub item_type: KnowledgeType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_pattern: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic: Option<String>,
    pub confidence: f64,
    pub occurrences: u32,
    /// The lesson, cut to [`MAX_INDEXED_CONTENT`] bytes at a character.
    pub content: String,
    /// The [`fingerprint`] of the item file it was made from, in hex.
    pub fingerprint: String,
}

/// One index file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shard {
    pub version: u32,
    /// The [`build_id`] of the build it belongs to, in hex.
    pub build: String,
    pub entries: Vec<IndexEntry>,
}

/// Every shard, by file name.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct KnowledgeIndex {
    /// The [`build_id`] of the items it was built from, in hex.
    pub build: String,
    pub gotchas: BTreeMap<String, Shard>,
    pub topics: BTreeMap<String, Shard>,
}

/// An item and the fingerprint of the file it was read from.
#[derive(Debug, Clone, Copy)]
pub struct Indexed<'a> {
    pub item: &'a KnowledgeItem,
    pub fingerprint: u64,
}

/// What identifies an item file's contents: FNV-1a (64 bits) of its bytes.
pub fn fingerprint(bytes: &[u8]) -> u64 {
    fnv1a64(bytes)
}

/// A fingerprint as the index writes it.
pub fn hex(value: u64) -> String {
    format!("{value:016x}")
}

/// What identifies a build: the id and fingerprint of every item, and the
/// names of the files that could not be read, in a fixed order.
pub fn build_id(items: &[Indexed<'_>], unreadable: &[String]) -> String {
    let mut lines: Vec<String> = items.iter().map(|i| format!("{} {:016x}", i.item.id, i.fingerprint)).collect();
    lines.sort();
    let mut bad = unreadable.to_vec();
    bad.sort();
    hex(fnv1a64(format!("v{INDEX_VERSION}\n{}\n--\n{}", lines.join("\n"), bad.join("\n")).as_bytes()))
}

/// The lesson an index entry gives, from the item file's text: its body
/// after the front matter, cut to [`MAX_INDEXED_CONTENT`] bytes. The front
/// matter is not parsed (the file was, when the index was built; its
/// fingerprint says it is that file still).
pub fn lesson_of(file_text: &str) -> Option<String> {
    super::item::lesson_in(file_text).map(|l| cut(&l))
}

/// The file of the gotcha shard for a pattern (None: items without one).
pub fn gotcha_shard_name(pattern: Option<&str>) -> String {
    format!("g-{:016x}.json", fnv1a64(pattern.unwrap_or("").as_bytes()))
}

/// The file of a topic's shard.
pub fn topic_shard_name(topic: &str) -> String {
    format!("t-{:016x}.json", fnv1a64(topic.as_bytes()))
}

/// The gotcha shards a query for `path` reads.
pub fn gotcha_shards_for(path: &str) -> Result<Vec<String>, PathError> {
    let n = normalise(path)?;
    let mut names: Vec<String> = candidates_of(&n).iter().map(|p| gotcha_shard_name(Some(p))).collect();
    names.push(gotcha_shard_name(None));
    Ok(names)
}

fn cut(content: &str) -> String {
    if content.len() <= MAX_INDEXED_CONTENT {
        return content.to_owned();
    }
    let mut end = MAX_INDEXED_CONTENT - '…'.len_utf8();
    while !content.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &content[..end])
}

fn entry(indexed: &Indexed<'_>) -> IndexEntry {
    let i = indexed.item;
    IndexEntry {
        id: i.id.clone(),
        item_type: i.item_type,
        file_pattern: i.file_pattern.clone(),
        action: i.action.clone(),
        topic: i.topic.clone(),
        confidence: i.confidence,
        occurrences: i.occurrences,
        content: cut(&i.content),
        fingerprint: hex(indexed.fingerprint),
    }
}

fn rank<'a>(e: &'a IndexEntry, own: Option<&str>) -> Rank<'a> {
    Rank {
        own: own.is_some() && e.file_pattern.as_deref() == own,
        confidence: e.confidence,
        occurrences: e.occurrences,
        id: &e.id,
    }
}

/// Builds every shard from all items (and the names of the files that
/// could not be read, which the build's id covers).
pub fn build_index(items: &[Indexed<'_>], unreadable: &[String]) -> KnowledgeIndex {
    let build = build_id(items, unreadable);
    let empty = || Shard { version: INDEX_VERSION, build: build.clone(), entries: Vec::new() };
    let mut groups: BTreeMap<(Option<&str>, Option<&str>), Vec<IndexEntry>> = BTreeMap::new();
    let mut topics: BTreeMap<String, Shard> = BTreeMap::new();
    for indexed in items.iter().filter(|i| !i.item.is_superseded()) {
        let i = indexed.item;
        match i.item_type {
            KnowledgeType::Gotcha if i.confidence >= GOTCHA_MIN_CONFIDENCE => {
                groups.entry((i.file_pattern.as_deref(), i.action.as_deref())).or_default().push(entry(indexed));
            }
            KnowledgeType::Gotcha => {}
            KnowledgeType::Pattern | KnowledgeType::Decision => {
                if let Some(topic) = i.topic.as_deref().filter(|_| i.confidence >= PATTERN_MIN_CONFIDENCE) {
                    let shard = topics.entry(topic_shard_name(topic)).or_insert_with(empty);
                    shard.entries.push(entry(indexed));
                }
            }
        }
    }
    let mut gotchas: BTreeMap<String, Shard> = BTreeMap::new();
    for ((pattern, _), mut group) in groups {
        group.sort_by(|a, b| order(&rank(a, None), &rank(b, None)));
        group.truncate(MAX_GOTCHAS);
        gotchas.entry(gotcha_shard_name(pattern)).or_insert_with(empty).entries.extend(group);
    }
    for shard in topics.values_mut() {
        shard.entries.sort_by(|a, b| a.topic.cmp(&b.topic).then_with(|| order(&rank(a, None), &rank(b, None))));
    }
    KnowledgeIndex { build, gotchas, topics }
}

/// The §10.1 gotcha query answered from the shards of
/// [`gotcha_shards_for`] (extra shards do no harm; a missing one means no
/// item has that pattern).
pub fn gotchas_from_shards<'a>(
    shards: &[&'a Shard],
    path: &str,
    action: Option<&str>,
) -> Result<Vec<&'a IndexEntry>, PathError> {
    let n = normalise(path)?;
    let own = pattern_of(&n);
    let mut found: Vec<&IndexEntry> = Vec::new();
    for e in shards.iter().flat_map(|s| &s.entries) {
        let fits = e.item_type == KnowledgeType::Gotcha
            && e.file_pattern.as_deref().is_none_or(|p| matches_normal(p, &n))
            && action_passes(e.action.as_deref(), action)
            && e.confidence >= GOTCHA_MIN_CONFIDENCE;
        if fits && !found.iter().any(|f| f.id == e.id) {
            found.push(e);
        }
    }
    found.sort_by(|a, b| order(&rank(a, Some(&own)), &rank(b, Some(&own))));
    found.truncate(MAX_GOTCHAS);
    Ok(found)
}

/// The §10.1 topic query answered from the shards of these topics.
pub fn patterns_from_shards<'a>(shards: &[&'a Shard], topics: &[&str]) -> Vec<&'a IndexEntry> {
    let mut found: Vec<&IndexEntry> = Vec::new();
    for e in shards.iter().flat_map(|s| &s.entries) {
        let fits = by_topic(e.item_type)
            && e.topic.as_deref().is_some_and(|t| topics.contains(&t))
            && e.confidence >= PATTERN_MIN_CONFIDENCE;
        if fits && !found.iter().any(|f| f.id == e.id) {
            found.push(e);
        }
    }
    found.sort_by(|a, b| order(&rank(a, None), &rank(b, None)));
    found
}

#[cfg(test)]
mod tests {
    use super::super::item::tests::at;
    use super::super::pattern::{candidates, pattern_for};
    use super::super::query::tests::item;
    use super::super::query::{gotchas_for, patterns_for};
    use super::*;

    /// SplitMix64: a small deterministic generator for the property tests.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
        fn pick<'a, T>(&mut self, from: &'a [T]) -> &'a T {
            &from[self.below(from.len())]
        }
    }

    const DIRS: &[&str] = &[
        "",
        "src",
        "src/api",
        "server/routes",
        "server/routes/admin",
        "database/migrations",
        "web/app/[id]",
        "config",
    ];
    const NAMES: &[&str] = &[
        "index.ts",
        "x.ts",
        "001.sql",
        "main.rs",
        "App.scss",
        "Dockerfile",
        "Makefile",
        ".env",
        "README.md",
        "deploy",
    ];
    const ITEM_ACTIONS: &[Option<&str>] = &[None, None, Some("CREATE"), Some("UPDATE"), Some("DELETE"), Some("TEST")];
    const QUERY_ACTIONS: &[Option<&str>] = &[None, Some("CREATE"), Some("UPDATE"), Some("MIGRATE")];
    const CONFIDENCES: &[f64] = &[0.3, 0.5, 0.59, 0.6, 0.6, 0.7, 0.75, 0.85, 0.85, 0.9, 0.95, 1.0];
    const TOPICS: &[&str] = &["auth", "db", "ui", "api", "search"];

    fn paths() -> Vec<String> {
        DIRS.iter()
            .flat_map(|d| NAMES.iter().map(move |n| if d.is_empty() { (*n).to_owned() } else { format!("{d}/{n}") }))
            .collect()
    }

    fn random_items(n: usize, seed: u64) -> Vec<KnowledgeItem> {
        let mut rng = Rng(seed);
        let paths = paths();
        (0..n)
            .map(|k| {
                let path = rng.pick(&paths).clone();
                let pattern = match rng.below(20) {
                    0..=2 => None,
                    3..=12 => Some(pattern_for(&path).unwrap()),
                    _ => Some(rng.pick(&candidates(&path).unwrap()).clone()),
                };
                let mut i = item(pattern.as_deref(), *rng.pick(ITEM_ACTIONS), *rng.pick(CONFIDENCES), "");
                i.item_type = match rng.below(10) {
                    0..=6 => KnowledgeType::Gotcha,
                    7 | 8 => KnowledgeType::Pattern,
                    _ => KnowledgeType::Decision,
                };
                i.id = format!("{}-{k}", i.item_type);
                i.content = format!("lesson {k} {}", "é".repeat(rng.below(400)));
                i.occurrences = 1 + rng.below(3) as u32;
                i.topic = (rng.below(4) > 0).then(|| (*rng.pick(TOPICS)).to_owned());
                match rng.below(20) {
                    0 => i.superseded_by = Some("gotcha-0".into()),
                    1 => i.superseded_reason = Some("obsolete".into()),
                    _ => {}
                }
                i
            })
            .collect()
    }

    fn indexed(items: &[KnowledgeItem]) -> Vec<Indexed<'_>> {
        items.iter().map(|item| Indexed { item, fingerprint: 7 }).collect()
    }

    fn shards<'a>(map: &'a BTreeMap<String, Shard>, names: &[String]) -> Vec<&'a Shard> {
        names.iter().filter_map(|n| map.get(n)).collect()
    }

    /// The index is only a faster way to the same answer: over 10,000
    /// random items, every path and action gets from the shards exactly
    /// what the query over every item gives.
    #[test]
    fn the_index_answers_as_the_full_query() {
        let items = random_items(10_000, 42);
        let index = build_index(&indexed(&items), &[]);
        let mut answered = 0;
        for path in paths() {
            let names = gotcha_shards_for(&path).unwrap();
            assert!(names.len() <= 4, "{path}: {names:?}");
            let read = shards(&index.gotchas, &names);
            for action in QUERY_ACTIONS {
                let full: Vec<&str> = gotchas_for(&items, &path, *action).unwrap().iter().map(|i| &*i.id).collect();
                let fast: Vec<&str> =
                    gotchas_from_shards(&read, &path, *action).unwrap().iter().map(|e| &*e.id).collect();
                assert_eq!(fast, full, "{path} {action:?}");
                answered += usize::from(!full.is_empty());
            }
        }
        assert!(answered > 250, "the test is not vacuous: {answered} queries had answers");
        for topics in [&["auth"][..], &["db", "ui"], &["search", "api", "auth"], &["none"]] {
            let names: Vec<String> = topics.iter().map(|t| topic_shard_name(t)).collect();
            let read = shards(&index.topics, &names);
            let full: Vec<&str> = patterns_for(&items, topics).iter().map(|i| &*i.id).collect();
            let fast: Vec<&str> = patterns_from_shards(&read, topics).iter().map(|e| &*e.id).collect();
            assert_eq!(fast, full, "{topics:?}");
        }
        // A shard keeps at most 5 entries per pattern and action.
        for shard in index.gotchas.values() {
            let mut per: BTreeMap<(Option<&str>, Option<&str>), usize> = BTreeMap::new();
            for e in &shard.entries {
                *per.entry((e.file_pattern.as_deref(), e.action.as_deref())).or_default() += 1;
                assert!(e.content.len() <= MAX_INDEXED_CONTENT);
            }
            assert!(per.values().all(|n| *n <= MAX_GOTCHAS));
        }
    }

    #[test]
    fn shard_files_are_safe_names_and_entries_are_short() {
        for name in [
            gotcha_shard_name(Some("../../etc/*")),
            gotcha_shard_name(Some("app/[id]/*")),
            gotcha_shard_name(None),
            topic_shard_name("auth"),
        ] {
            assert!(name.len() == 23 && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.'));
        }
        assert_ne!(gotcha_shard_name(None), gotcha_shard_name(Some("*.sql")));
        assert_eq!(
            gotcha_shards_for("./database/migrations/001.sql").unwrap(),
            [
                gotcha_shard_name(Some("*.sql")),
                gotcha_shard_name(Some("database/migrations/*")),
                gotcha_shard_name(Some("database/migrations/001.sql")),
                gotcha_shard_name(None),
            ]
        );
        let mut long = item(Some("*.sql"), None, 0.9, &"é".repeat(400));
        long.created_at = at(1);
        let index = build_index(&indexed(std::slice::from_ref(&long)), &[]);
        let shard = &index.gotchas[&gotcha_shard_name(Some("*.sql"))];
        let text = &shard.entries[0].content;
        assert!(text.len() <= MAX_INDEXED_CONTENT && text.ends_with('…') && long.content.starts_with(&text[..500]));
        // A shard reads back as written.
        let json = serde_json::to_string(shard).unwrap();
        assert_eq!(&serde_json::from_str::<Shard>(&json).unwrap(), shard);
        assert_eq!(shard.version, INDEX_VERSION);
    }

    #[test]
    fn a_build_is_named_by_its_items_files_and_lessons_come_from_the_file() {
        let file = super::super::item::tests::FILE;
        let item = KnowledgeItem::parse(file).unwrap();
        let one = |fingerprint| [Indexed { item: &item, fingerprint }];
        let a = build_id(&one(fingerprint(file.as_bytes())), &[]);
        assert_eq!(a, build_id(&one(fingerprint(file.as_bytes())), &[]), "the same files, the same build");
        assert_ne!(a, build_id(&one(fingerprint(b"edited")), &[]));
        assert_ne!(a, build_id(&one(fingerprint(file.as_bytes())), &["x.md: broken".into()]));
        let index = build_index(&one(fingerprint(file.as_bytes())), &[]);
        let entry = &index.gotchas[&gotcha_shard_name(Some("*.sql"))].entries[0];
        assert_eq!(entry.fingerprint, hex(fingerprint(file.as_bytes())));
        assert!(index.gotchas.values().all(|s| s.build == index.build));
        // The lesson an entry gives is the file's body, as the index cuts it.
        assert_eq!(lesson_of(file).as_deref(), Some(entry.content.as_str()));
        assert_eq!(lesson_of("no front matter"), None);
        assert_eq!(lesson_of("---\nid: x\n---\n\n"), None);
    }

    #[test]
    fn a_hash_collision_is_still_answered_right() {
        // Two patterns forced into one file: entries carry their pattern.
        let a = item(Some("*.sql"), None, 0.9, "sql");
        let b = item(Some("server/routes/*"), None, 0.9, "routes");
        let both = [a.clone(), b.clone()];
        let index = build_index(&indexed(&both), &[]);
        let mut merged = Shard { version: INDEX_VERSION, build: index.build.clone(), entries: Vec::new() };
        for s in index.gotchas.values() {
            merged.entries.extend(s.entries.clone());
        }
        let found = gotchas_from_shards(&[&merged, &merged], "db/1.sql", None).unwrap();
        assert_eq!(found.iter().map(|e| &*e.id).collect::<Vec<_>>(), [a.id.as_str()]);
    }
}
