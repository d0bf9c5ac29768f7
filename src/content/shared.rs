//! The strings of the content model. The shipped deck is decoded from bytes built into the
//! binary, so its strings can point into them instead of being copied out one allocation
//! at a time: that copy was a third of the decode (`shipped/decode_prebuilt` 155 -> 97 us)
//! and, before the first frame, 750 KB of fresh heap touched (about 170 page faults).
//! Content read from files at run time owns its strings.

use std::borrow::{Borrow, Cow};
use std::fmt;
use std::ops::Deref;

use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::{Serialize, Serializer};

/// A string of content: borrowed from the binary, or owned. Reads as a `&str` wherever one
/// is wanted, prints and compares as its text, and hashes as a `str` does (so a
/// `HashMap<Str, _>` is looked up by `&str`).
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Str(Cow<'static, str>);

impl Str {
    /// A string that lives as long as the program: nothing is copied.
    pub const fn from_static(s: &'static str) -> Str {
        Str(Cow::Borrowed(s))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Deref for Str {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Str {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Str {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl From<String> for Str {
    fn from(s: String) -> Str {
        Str(Cow::Owned(s))
    }
}

/// Copies: a `&str` of unknown lifetime cannot be kept. [`Str::from_static`] borrows.
impl From<&str> for Str {
    fn from(s: &str) -> Str {
        Str(Cow::Owned(s.to_owned()))
    }
}

/// What ratatui's spans and lines hold: text from the binary goes on screen uncopied.
impl<'a> From<Str> for Cow<'a, str> {
    fn from(s: Str) -> Cow<'a, str> {
        s.0
    }
}

impl From<Str> for String {
    fn from(s: Str) -> String {
        s.0.into_owned()
    }
}

impl fmt::Debug for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq<str> for Str {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&str> for Str {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<String> for Str {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<Str> for str {
    fn eq(&self, other: &Str) -> bool {
        *self == *other.0
    }
}

impl PartialEq<Str> for &str {
    fn eq(&self, other: &Str) -> bool {
        **self == *other.0
    }
}

impl PartialEq<Str> for String {
    fn eq(&self, other: &Str) -> bool {
        **self == *other.0
    }
}

impl Serialize for Str {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

/// Only from input that lives as long as the program (the deck built into the binary),
/// which the strings then borrow. Types holding a `Str` say so with
/// `#[serde(bound(deserialize = "'de: 'static"))]`; none of them is `DeserializeOwned`, so
/// none is read from a file at run time this way (content files go through the walker,
/// and progress exports hold no `Str`).
impl<'de: 'static> Deserialize<'de> for Str {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Str, D::Error> {
        struct StrVisitor;

        impl<'de: 'static> Visitor<'de> for StrVisitor {
            type Value = Str;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }

            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Str, E> {
                Ok(Str::from_static(v))
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Str, E> {
                Ok(Str::from(v))
            }

            fn visit_string<E: de::Error>(self, v: String) -> Result<Str, E> {
                Ok(Str::from(v))
            }
        }

        deserializer.deserialize_str(StrVisitor)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::Str;

    #[test]
    fn reads_compares_and_prints_as_its_text() {
        let owned = Str::from(String::from("pod-a"));
        let borrowed = Str::from_static("pod-a");
        assert_eq!(owned, borrowed);
        assert_eq!(owned, "pod-a");
        assert_eq!("pod-a", borrowed);
        assert_eq!(format!("{borrowed} {borrowed:?}"), "pod-a \"pod-a\"");
        let (a, b): (Str, Str) = ("a".into(), Str::from_static("b"));
        assert!(a < b);
        let map: HashMap<Str, u8> = [(borrowed, 1)].into_iter().collect();
        assert_eq!(map.get("pod-a"), Some(&1));
    }

    #[test]
    fn decoding_from_static_bytes_borrows_them() {
        static PACKED: &[u8] = b"\x05hello";
        let s: Str = postcard::from_bytes(PACKED).expect("a packed string decodes");
        assert_eq!(s, "hello");
        assert!(
            std::ptr::eq(s.as_ptr(), PACKED[1..].as_ptr()),
            "copied, not borrowed"
        );
    }
}
