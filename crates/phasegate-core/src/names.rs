//! Names of enum values on the command line and in files, derived from the
//! enums themselves (strum) instead of hand-written tables, and one parse
//! error that lists every valid name, so a user or a model can correct itself.

use std::fmt;

/// An enum whose values have one name each, used in files, flags and output.
/// The name comes from strum's `IntoStaticStr`; the list from `VariantArray`.
pub trait Named: Copy + Into<&'static str> + strum::VariantArray + 'static {
    /// What one value is called in messages ("phase", "mode", ...).
    const KIND: &'static str;

    fn name(self) -> &'static str {
        self.into()
    }

    /// Every name, comma-separated, in declaration order.
    fn names() -> String {
        Self::VARIANTS.iter().map(|v| v.name()).collect::<Vec<_>>().join(", ")
    }

    /// Parses a name; the error lists every valid one.
    fn parse_name(given: &str) -> Result<Self, UnknownName> {
        Self::VARIANTS.iter().copied().find(|v| v.name() == given).ok_or_else(|| UnknownName {
            kind: Self::KIND,
            given: given.to_owned(),
            expected: Self::names(),
        })
    }
}

/// A word that names no value of an enum.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct UnknownName {
    pub kind: &'static str,
    pub given: String,
    pub expected: String,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown {} `{}`; expected one of: {}", self.kind, self.given, self.expected)
    }
}

/// Implements [`Named`], an inherent `name()`, `Display` and (unless the
/// first token is `@custom_from_str`) `FromStr` for an enum that derives
/// `strum::IntoStaticStr` and `strum::VariantArray`.
#[macro_export]
macro_rules! named {
    (@custom_from_str $ty:ty, $kind:literal) => {
        impl $crate::names::Named for $ty {
            const KIND: &'static str = $kind;
        }
        impl $ty {
            /// The name used in files, flags and output.
            pub fn name(self) -> &'static str {
                self.into()
            }
        }
        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
    ($ty:ty, $kind:literal) => {
        $crate::named!(@custom_from_str $ty, $kind);
        impl ::std::str::FromStr for $ty {
            type Err = $crate::names::UnknownName;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                <$ty as $crate::names::Named>::parse_name(s)
            }
        }
    };
}

/// Checks that every value's name is also its serde name, in tests of each
/// enum: files and flags must agree.
#[cfg(test)]
pub(crate) fn assert_serde_names<T: Named + serde::Serialize + serde::de::DeserializeOwned + PartialEq + fmt::Debug>() {
    for v in T::VARIANTS {
        let json = serde_json::to_string(v).unwrap();
        assert_eq!(json, format!("\"{}\"", v.name()), "{} {v:?}", T::KIND);
        assert_eq!(serde_json::from_str::<T>(&json).unwrap(), *v);
        assert_eq!(T::parse_name(v.name()).unwrap(), *v);
    }
    let err = T::parse_name("no-such-name").unwrap_err().to_string();
    assert!(err.contains(&T::names()), "{err}");
}
