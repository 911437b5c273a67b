//! Counts in words for messages to people: "1 message", "2 messages", "0 links".
//!
//! Invariant: every count that reaches a person goes through [`count`], so singular and
//! plural agree with the number everywhere. The nouns used are regular (plural = noun + s).

/// `n` and the noun, in the singular for 1 and the plural otherwise.
#[cfg(feature = "mail")]
pub(crate) fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(all(test, feature = "mail"))]
mod tests {
    use super::count;

    #[test]
    fn singular_only_for_one() {
        assert_eq!(count(0, "message"), "0 messages");
        assert_eq!(count(1, "message"), "1 message");
        assert_eq!(count(2, "link"), "2 links");
    }
}
