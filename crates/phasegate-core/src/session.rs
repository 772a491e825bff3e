//! Claude Code session ids, checked before anything is changed on their
//! behalf. Ownership records are files named after the id, so the mapping
//! from id to file name must be injective (two ids never share a record) and
//! always a valid file name.

use std::fmt;

/// The longest id accepted; with every byte escaped (3 characters each) the
/// record's file name stays below the usual 255-byte limit.
pub(crate) const MAX_LEN: usize = 80;

/// How many characters of a long id messages show.
pub const SHORT_LEN: usize = 8;

/// A session id as messages name it: the whole id when it is at most 12
/// characters, else its first [`SHORT_LEN`] (Claude Code's ids are
/// 36-character UUIDs, unique in their first 8 in practice; every command
/// that takes a session id takes such a prefix too, and refuses one that
/// two sessions share).
pub fn short_str(id: &str) -> &str {
    match id.char_indices().nth(12) {
        None => id,
        Some(_) => id.char_indices().nth(SHORT_LEN).map_or(id, |(i, _)| &id[..i]),
    }
}

/// A validated session id: 1 to 80 bytes, no control characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SessionId(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionIdError {
    #[error("the session id is empty")]
    Empty,
    #[error("the session id is {0} bytes long; at most {MAX_LEN} are accepted")]
    TooLong(usize),
    #[error("the session id contains a control character")]
    Control,
    #[error("the session id starts or ends with white space; give it exactly as Claude Code sets it")]
    Padded,
}

impl SessionId {
    /// Taken exactly as given: ` sess-A` is not `sess-A` (refused, so that
    /// one session is never taken for another).
    pub fn parse(id: &str) -> Result<SessionId, SessionIdError> {
        if id.trim().is_empty() {
            return Err(SessionIdError::Empty);
        }
        if id.trim() != id {
            return Err(SessionIdError::Padded);
        }
        if id.len() > MAX_LEN {
            return Err(SessionIdError::TooLong(id.len()));
        }
        if id.chars().any(char::is_control) {
            return Err(SessionIdError::Control);
        }
        Ok(SessionId(id.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// How messages name the session: see [`short_str`].
    pub fn short(&self) -> &str {
        short_str(&self.0)
    }

    /// Whether `prefix` could name this session: the whole id, or a
    /// beginning of it at least [`SHORT_LEN`] characters long.
    pub fn answers_to(&self, prefix: &str) -> bool {
        self.0 == prefix || (prefix.chars().count() >= SHORT_LEN && self.0.starts_with(prefix))
    }

    /// The id a [`SessionId::file_stem`] was made from (None for a name no
    /// id makes).
    pub fn from_file_stem(stem: &str) -> Option<SessionId> {
        let mut bytes = Vec::with_capacity(stem.len());
        let mut rest = stem.as_bytes();
        while let Some((&b, tail)) = rest.split_first() {
            if b == b'_' {
                let hex = std::str::from_utf8(tail.get(..2)?).ok()?;
                bytes.push(u8::from_str_radix(hex, 16).ok()?);
                rest = &tail[2..];
            } else if b.is_ascii_alphanumeric() || b == b'-' {
                bytes.push(b);
                rest = tail;
            } else {
                return None;
            }
        }
        let id = SessionId::parse(&String::from_utf8(bytes).ok()?).ok()?;
        (id.file_stem() == stem).then_some(id)
    }

    /// A file-name-safe, injective encoding: ASCII letters, digits and `-`
    /// stay; every other byte becomes `_XX` (hex), `_` included.
    pub fn file_stem(&self) -> String {
        let mut out = String::with_capacity(self.0.len());
        for b in self.0.bytes() {
            if b.is_ascii_alphanumeric() || b == b'-' {
                out.push(b as char);
            } else {
                out.push_str(&format!("_{b:02X}"));
            }
        }
        out
    }
}

impl fmt::Display for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Written as the id's text.
impl serde::Serialize for SessionId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

/// Read through [`SessionId::parse`]: a record never holds an id the CLI
/// would refuse.
impl<'de> serde::Deserialize<'de> for SessionId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        SessionId::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_ids_are_named_by_their_first_eight_characters() {
        let uuid = SessionId::parse("3f2a1b9c-5d4e-4f00-8a7b-0123456789ab").unwrap();
        assert_eq!(uuid.short(), "3f2a1b9c");
        assert!(uuid.answers_to("3f2a1b9c") && uuid.answers_to(uuid.as_str()));
        assert!(!uuid.answers_to("3f2a") && !uuid.answers_to("3f2a1b9d"));
        assert_eq!(short_str("sess-A"), "sess-A");
        assert_eq!(short_str("exactly-12ch"), "exactly-12ch");
        assert_eq!(short_str("ééééééééééééé"), "éééééééé", "cut at a character");
    }

    #[test]
    fn a_file_stem_gives_its_id_back() {
        for id in ["sess-A", "a_b", "0f2c7e1a-5b3d-4c8e-9f10-2a3b4c5d6e7f", "x y/z"] {
            let s = SessionId::parse(id).unwrap();
            assert_eq!(SessionId::from_file_stem(&s.file_stem()), Some(s), "{id}");
        }
        assert_eq!(SessionId::from_file_stem("a_2"), None);
        assert_eq!(SessionId::from_file_stem("a_5f"), None, "not the canonical spelling of `a_`");
    }

    #[test]
    fn ids_that_differ_only_in_punctuation_get_different_records() {
        let a = SessionId::parse("abc.def").unwrap().file_stem();
        let b = SessionId::parse("abc_def").unwrap().file_stem();
        let c = SessionId::parse("abc/def").unwrap().file_stem();
        assert_ne!(a, b);
        assert_ne!(b, c);
        assert_ne!(a, c);
        assert_eq!(SessionId::parse("8f14e45f-ceea-467a").unwrap().file_stem(), "8f14e45f-ceea-467a");
    }

    #[test]
    fn over_long_empty_and_control_ids_are_refused() {
        assert_eq!(SessionId::parse(&"x".repeat(81)), Err(SessionIdError::TooLong(81)));
        assert_eq!(SessionId::parse("  "), Err(SessionIdError::Empty));
        assert_eq!(SessionId::parse("a\nb"), Err(SessionIdError::Control));
        let worst = SessionId::parse(&"é".repeat(40)).unwrap();
        assert!(worst.file_stem().len() + ".json".len() <= 255);
    }

    #[test]
    fn ids_read_and_write_as_their_text_and_bad_ids_are_refused_when_read() {
        let id = SessionId::parse("8f14e45f").unwrap();
        assert_eq!(serde_json::to_string(&id).unwrap(), r#""8f14e45f""#);
        assert_eq!(serde_json::from_str::<SessionId>(r#""8f14e45f""#).unwrap(), id);
        let err = serde_json::from_str::<SessionId>(r#""""#).unwrap_err().to_string();
        assert!(err.contains("the session id is empty"), "{err}");
    }
}
