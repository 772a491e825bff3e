//! FNV-1a, the stable hash behind item ids: a few lines, the same result
//! on every platform and in every release, and no dependency. Not for
//! security: nothing here needs to resist a chosen collision.

/// 32-bit FNV-1a.
pub(crate) fn fnv1a32(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in bytes {
        h ^= u32::from(*b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published FNV test vectors.
    #[test]
    fn fnv_test_vectors() {
        assert_eq!(fnv1a32(b""), 0x811c_9dc5);
        assert_eq!(fnv1a32(b"a"), 0xe40c_292c);
        assert_eq!(fnv1a32(b"foobar"), 0xbf9c_f968);
    }
}
