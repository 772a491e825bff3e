//! A reader of one transcript line that reads only what the cost needs
//! (the line's type, time and request id; its message's id, model and
//! usage) and steps over everything else: a message's content (thinking,
//! text, a tool's input of many kilobytes) is passed by searching for the
//! end of each string (memchr), never decoded. It checks the structure it
//! walks (the line is one object, every key has a value, commas and
//! braces are where they belong, nothing follows the object) and every
//! value it keeps as serde would (a string, a count that is a whole
//! number in range, `null` for what may be absent); a value it steps over
//! is only delimited.

use std::borrow::Cow;

/// Why a line could not be read, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct SkimError {
    pub what: &'static str,
    pub at: usize,
}

impl std::fmt::Display for SkimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at byte {}", self.what, self.at)
    }
}

/// What a line says that the cost reads.
#[derive(Debug, Default)]
pub(super) struct Fields<'a> {
    pub kind: Option<Cow<'a, str>>,
    pub timestamp: Option<Cow<'a, str>>,
    pub request_id: Option<Cow<'a, str>>,
    pub message: Option<MessageFields<'a>>,
}

#[derive(Debug, Default)]
pub(super) struct MessageFields<'a> {
    pub id: Option<Cow<'a, str>>,
    pub model: Option<Cow<'a, str>>,
    pub usage: Option<UsageFields>,
}

/// The API's usage counts as the line writes them.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct UsageFields {
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cache_creation_input_tokens: u64,
    pub cache_read_input_tokens: u64,
    /// `cache_creation.ephemeral_1h_input_tokens`.
    pub ephemeral_1h_input_tokens: u64,
}

type Result<T> = std::result::Result<T, SkimError>;

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

/// Reads one line (an object).
pub(super) fn skim(line: &[u8]) -> Result<Fields<'_>> {
    let mut r = Reader { bytes: line, at: 0 };
    let mut f = Fields::default();
    r.object(|r, key| {
        match &*key {
            b"type" => f.kind = r.optional_string()?,
            b"timestamp" => f.timestamp = r.optional_string()?,
            b"requestId" => f.request_id = r.optional_string()?,
            b"message" => f.message = r.optional(Reader::message)?,
            _ => r.skip()?,
        }
        Ok(())
    })?;
    r.space();
    if r.at != line.len() {
        return Err(r.error("something after the object"));
    }
    Ok(f)
}

impl<'a> Reader<'a> {
    fn error(&self, what: &'static str) -> SkimError {
        SkimError { what, at: self.at }
    }

    fn space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.space();
        self.bytes.get(self.at).copied()
    }

    fn expect(&mut self, c: u8, what: &'static str) -> Result<()> {
        if self.peek() != Some(c) {
            return Err(self.error(what));
        }
        self.at += 1;
        Ok(())
    }

    /// A string's bytes between its quotes, and whether it holds an escape.
    /// Its end is searched for (SIMD, a line being long enough to hold a
    /// vector's width after most strings), never walked byte by byte.
    fn raw_string(&mut self) -> Result<(usize, usize, bool)> {
        self.expect(b'"', "a string expected")?;
        let start = self.at;
        let mut escaped = false;
        loop {
            let Some(k) = memchr::memchr2(b'"', b'\\', &self.bytes[self.at..]) else {
                return Err(self.error("a string without its end"));
            };
            self.at += k;
            if self.bytes[self.at] == b'\\' {
                // The escaped character is never the string's end.
                escaped = true;
                self.at += 2;
                if self.at > self.bytes.len() {
                    return Err(self.error("a string without its end"));
                }
                continue;
            }
            self.at += 1;
            return Ok((start, self.at - 1, escaped));
        }
    }

    fn string(&mut self) -> Result<Cow<'a, str>> {
        let (start, end, escaped) = self.raw_string()?;
        let bytes: &'a [u8] = self.bytes;
        if escaped {
            // With its quotes: decoded as JSON says.
            return serde_json::from_slice::<String>(&bytes[start - 1..=end])
                .map(Cow::Owned)
                .map_err(|_| SkimError { what: "a string with a bad escape", at: start });
        }
        std::str::from_utf8(&bytes[start..end])
            .map(Cow::Borrowed)
            .map_err(|_| SkimError { what: "a string that is not UTF-8", at: start })
    }

    /// `null`, or what `read` reads.
    fn optional<T>(&mut self, read: impl FnOnce(&mut Self) -> Result<T>) -> Result<Option<T>> {
        if self.peek() == Some(b'n') {
            return self.literal(b"null").map(|()| None);
        }
        read(self).map(Some)
    }

    fn optional_string(&mut self) -> Result<Option<Cow<'a, str>>> {
        self.optional(Reader::string)
    }

    fn literal(&mut self, word: &[u8]) -> Result<()> {
        self.space();
        if !self.bytes[self.at..].starts_with(word) {
            return Err(self.error("an unknown word"));
        }
        self.at += word.len();
        Ok(())
    }

    /// A count: a whole number from 0 to `u64::MAX`, written as JSON
    /// writes one (no sign, fraction, exponent nor leading zero).
    fn count(&mut self) -> Result<u64> {
        self.space();
        let start = self.at;
        let mut n: u64 = 0;
        while let Some(&d @ b'0'..=b'9') = self.bytes.get(self.at) {
            n = n
                .checked_mul(10)
                .and_then(|n| n.checked_add(u64::from(d - b'0')))
                .ok_or(SkimError { what: "a count past 2^64", at: start })?;
            self.at += 1;
        }
        let digits = self.at - start;
        let leading_zero = digits > 1 && self.bytes[start] == b'0';
        let more = matches!(self.bytes.get(self.at), Some(b'.' | b'e' | b'E' | b'-' | b'+'));
        if digits == 0 || leading_zero || more {
            return Err(SkimError { what: "a count that is not a whole number", at: start });
        }
        Ok(n)
    }

    /// Steps over one value, checking only where it ends.
    fn skip(&mut self) -> Result<()> {
        match self.peek() {
            Some(b'"') => self.raw_string().map(drop),
            Some(b'{' | b'[') => {
                let mut depth = 0usize;
                loop {
                    match self.bytes.get(self.at) {
                        None => return Err(self.error("an object or array without its end")),
                        Some(b'"') => {
                            self.raw_string()?;
                        }
                        Some(b'{' | b'[') => {
                            depth += 1;
                            self.at += 1;
                        }
                        Some(b'}' | b']') => {
                            depth -= 1;
                            self.at += 1;
                            if depth == 0 {
                                return Ok(());
                            }
                        }
                        Some(_) => self.at += 1,
                    }
                }
            }
            Some(b't' | b'f' | b'n' | b'-' | b'0'..=b'9') => {
                while !matches!(self.bytes.get(self.at), None | Some(b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))
                {
                    self.at += 1;
                }
                Ok(())
            }
            _ => Err(self.error("a value expected")),
        }
    }

    /// A key, as bytes (never decoded as text: it is only compared).
    fn key(&mut self) -> Result<Cow<'a, [u8]>> {
        let (start, end, escaped) = self.raw_string()?;
        let bytes: &'a [u8] = self.bytes;
        if escaped {
            return serde_json::from_slice::<String>(&bytes[start - 1..=end])
                .map(|k| Cow::Owned(k.into_bytes()))
                .map_err(|_| SkimError { what: "a key with a bad escape", at: start });
        }
        Ok(Cow::Borrowed(&bytes[start..end]))
    }

    /// An object: `each` reads the value of every key.
    fn object(&mut self, mut each: impl FnMut(&mut Self, Cow<'a, [u8]>) -> Result<()>) -> Result<()> {
        self.expect(b'{', "an object expected")?;
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(());
        }
        loop {
            let key = self.key()?;
            self.expect(b':', "a ':' after a key expected")?;
            each(self, key)?;
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(());
                }
                _ => return Err(self.error("a ',' or '}' expected")),
            }
        }
    }

    fn message(&mut self) -> Result<MessageFields<'a>> {
        let mut m = MessageFields::default();
        self.object(|r, key| {
            match &*key {
                b"id" => m.id = r.optional_string()?,
                b"model" => m.model = r.optional_string()?,
                b"usage" => m.usage = r.optional(Reader::usage)?,
                _ => r.skip()?,
            }
            Ok(())
        })?;
        Ok(m)
    }

    fn usage(&mut self) -> Result<UsageFields> {
        let mut u = UsageFields::default();
        self.object(|r, key| {
            match &*key {
                b"input_tokens" => u.input_tokens = r.count()?,
                b"output_tokens" => u.output_tokens = r.count()?,
                b"cache_creation_input_tokens" => u.cache_creation_input_tokens = r.count()?,
                b"cache_read_input_tokens" => u.cache_read_input_tokens = r.count()?,
                b"cache_creation" => {
                    r.optional(|r| {
                        r.object(|r, key| match &*key {
                            b"ephemeral_1h_input_tokens" => {
                                u.ephemeral_1h_input_tokens = r.count()?;
                                Ok(())
                            }
                            _ => r.skip(),
                        })
                    })?;
                }
                _ => r.skip()?,
            }
            Ok(())
        })?;
        Ok(u)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_kept_is_read_as_json_says_and_the_rest_is_stepped_over() {
        let line = br#" {"type" : "assistant","content":[{"t":"a \"}] quoted","n":[1,{"x":null}]}], "timestamp":"2026-11-26T10:00:00Z",
            "requestId":null,"message":{"id":"m\u0031","model":"claude","usage":{"input_tokens":0,"output_tokens":18446744073709551615,
            "cache_creation":{"ephemeral_1h_input_tokens":3,"x":[]},"server_tool_use":{"web_search_requests":0}}}} "#;
        let f = skim(line).unwrap();
        assert_eq!(f.kind.as_deref(), Some("assistant"));
        assert_eq!(f.request_id, None);
        let m = f.message.unwrap();
        assert_eq!((m.id.as_deref(), m.model.as_deref()), (Some("m1"), Some("claude")));
        let u = m.usage.unwrap();
        assert_eq!((u.input_tokens, u.output_tokens, u.ephemeral_1h_input_tokens), (0, u64::MAX, 3));
    }

    #[test]
    fn a_line_that_is_not_json_or_a_count_that_is_not_one_is_refused() {
        for bad in [
            &br#"{"type":"assistant","usage": this is not json"#[..],
            br#"{"type":"assistant""#,
            br#"{"type":"assistant",}"#,
            br#"{"type":"assistant"} trailing"#,
            br#"{"type":"assis"#,
            br#"{"content":[{"a":"b"}"#,
            br#"["type","assistant"]"#,
            br#"{"type":1}"#,
            br#"{"message":{"usage":{"input_tokens":1.5}}}"#,
            br#"{"message":{"usage":{"input_tokens":-1}}}"#,
            br#"{"message":{"usage":{"input_tokens":18446744073709551616}}}"#,
            br#"{"message":{"usage":{"input_tokens":01}}}"#,
            br#"{"message":{"usage":{"input_tokens":null}}}"#,
            br#"{"message":{"id":"\x"}}"#,
            b"{\"type\":\"\xff\"}",
        ] {
            assert!(skim(bad).is_err(), "{}", String::from_utf8_lossy(bad));
        }
        // Absent, as serde reads an Option.
        let f = skim(br#"{"message":{"usage":null,"id":null}}"#).unwrap();
        assert!(f.message.unwrap().usage.is_none());
    }
}
