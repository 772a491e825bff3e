//! Seals: a keyed digest (HMAC-SHA-256) over what phasegate's binaries
//! wrote, so a record they did not write is known for what it is.
//!
//! The key is the user's (kept outside the repository by the store); a
//! record carries `s1:<hex>` over its kind and its canonical bytes. A
//! record edited by hand, written by another tool, or copied from another
//! machine does not verify: every gate reads it as "not written here".
//! A process that reads the key can forge a seal; seals make a shortcut
//! visible, they do not stop a determined forger (docs/design.md, "What a
//! gate believes").

use hmac::{Hmac, KeyInit, Mac};
use serde::Serialize;
use sha2::{Digest, Sha256};

/// The length of a key, in bytes.
pub const KEY_BYTES: usize = 32;

/// The prefix of this format's seals.
const PREFIX: &str = "s1:";

/// What a seal is over: the same bytes sealed as two kinds differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum SealKind {
    /// One run of one check, in a feature's ledger.
    Check,
    /// A person's waiver of a requirement, in a feature's ledger.
    Waiver,
    /// A person's answer to a question.
    Answer,
    /// A reviewer's brief: the prompt the reviewer must be given.
    Brief,
    /// The table of the state files the binaries wrote last.
    Written,
    /// A record of tampering, or of a person clearing it.
    Tamper,
}

/// A user's sealing key.
#[derive(Clone, PartialEq, Eq)]
pub struct SealKey([u8; KEY_BYTES]);

impl std::fmt::Debug for SealKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never printed.
        f.write_str("SealKey(..)")
    }
}

impl SealKey {
    /// The key from its bytes; None unless there are exactly [`KEY_BYTES`].
    pub fn from_bytes(bytes: &[u8]) -> Option<SealKey> {
        <[u8; KEY_BYTES]>::try_from(bytes).ok().map(SealKey)
    }

    fn mac(&self, kind: SealKind, payload: &[u8]) -> Hmac<Sha256> {
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&self.0).expect("HMAC takes a key of any length");
        let kind: &'static str = kind.into();
        mac.update(kind.as_bytes());
        mac.update(&[0]);
        mac.update(payload);
        mac
    }

    /// The seal of `payload` as `kind`.
    pub fn seal(&self, kind: SealKind, payload: &[u8]) -> String {
        format!("{PREFIX}{}", hex(&self.mac(kind, payload).finalize().into_bytes()))
    }

    /// Whether `seal` is this key's seal of `payload` as `kind` (compared
    /// in constant time).
    pub fn verify(&self, kind: SealKind, payload: &[u8], seal: &str) -> bool {
        let Some(bytes) = seal.strip_prefix(PREFIX).and_then(unhex) else { return false };
        self.mac(kind, payload).verify_slice(&bytes).is_ok()
    }

    /// The seal of a value's canonical JSON (its fields in declaration
    /// order, as serde writes a struct).
    pub fn seal_json<T: Serialize>(&self, kind: SealKind, value: &T) -> String {
        self.seal(kind, &canonical(value))
    }

    pub fn verify_json<T: Serialize>(&self, kind: SealKind, value: &T, seal: &str) -> bool {
        self.verify(kind, &canonical(value), seal)
    }
}

/// The bytes a value is sealed over.
pub fn canonical<T: Serialize>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).expect("a sealed value serialises")
}

/// The SHA-256 of `bytes`, in hex: how the table of written files names a
/// file's content.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) || !s.is_ascii() {
        return None;
    }
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(b: u8) -> SealKey {
        SealKey::from_bytes(&[b; KEY_BYTES]).unwrap()
    }

    #[test]
    fn a_seal_verifies_only_with_its_key_kind_and_bytes() {
        let k = key(1);
        let s = k.seal(SealKind::Check, b"exit 0");
        assert!(s.starts_with("s1:") && s.len() == 3 + 64, "{s}");
        assert!(k.verify(SealKind::Check, b"exit 0", &s));
        assert!(!k.verify(SealKind::Check, b"exit 1", &s), "other bytes");
        assert!(!k.verify(SealKind::Waiver, b"exit 0", &s), "another kind");
        assert!(!key(2).verify(SealKind::Check, b"exit 0", &s), "another key (another machine)");
        for bad in ["", "s1:", "s1:zz", "s0:00", &s[..s.len() - 1]] {
            assert!(!k.verify(SealKind::Check, b"exit 0", bad), "{bad:?}");
        }
        assert_eq!(SealKey::from_bytes(&[0; 31]), None);
        assert_eq!(format!("{k:?}"), "SealKey(..)", "a key is never printed");
    }

    #[test]
    fn sha256_is_the_standard_one() {
        assert_eq!(sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
