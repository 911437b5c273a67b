//! Threads of an archive: which message answers which, and the order to show them in.
//!
//! # Algorithm
//!
//! A message's thread is the first Message-ID of its References, else its In-Reply-To,
//! else its own Message-ID (else its page): the root that every reply names, so a thread
//! whose root is missing from the archive still holds together. A message's parent is the
//! first of its In-Reply-To, then its References from the last (the nearest) back, that is
//! the Message-ID of an *earlier* message of the archive; a message with a parent is in
//! its parent's thread (so a reply whose References lost the root still joins it), one
//! without is in the thread of its root, of which it is a root. Threads are in the
//! order of their first message; a thread's messages are in pre-order (each message, then
//! its replies in archive order), walked with an explicit stack.
//!
//! # Invariants
//!
//! * A parent always comes before its child in the archive, so the replies form a forest
//!   whatever the headers say: a message that answers itself, References in a cycle, or
//!   two messages that answer each other cannot make a loop.
//! * Linear in the messages (hash maps, one walk), and no recursion: a thread 100,000
//!   deep costs what 100,000 short ones cost.

use std::collections::HashMap;

/// What the tree needs of a message (Message-IDs as the archive keeps them: hashes).
pub(crate) struct Keys<'a> {
    /// The thread root's key.
    pub(crate) thread: u64,
    /// Its own Message-ID, when it has one.
    pub(crate) own: Option<u64>,
    /// The Message-IDs it may answer, nearest first.
    pub(crate) parents: &'a [u64],
}

/// The threads of the messages `0..n` (in archive order).
pub(crate) struct Tree {
    /// Each message's parent, if any.
    pub(crate) parent: Vec<Option<usize>>,
    /// Each message's depth in its thread (0 for a root).
    pub(crate) depth: Vec<usize>,
    /// Each message's thread (an index of `threads`).
    pub(crate) thread: Vec<usize>,
    /// Each message's place in its thread's pre-order.
    pub(crate) place: Vec<usize>,
    /// The threads in order of their first message, each its messages in pre-order.
    pub(crate) threads: Vec<Vec<usize>>,
    /// Each message's replies, in archive order.
    pub(crate) replies: Vec<Vec<usize>>,
}

impl Tree {
    pub(crate) fn new(keys: &[Keys<'_>]) -> Tree {
        let n = keys.len();
        let mut by_id: HashMap<u64, usize> = HashMap::with_capacity(n);
        let mut thread_at: HashMap<u64, usize> = HashMap::new();
        let mut thread = Vec::with_capacity(n);
        let mut members: Vec<Vec<usize>> = Vec::new();
        let mut parent = vec![None; n];
        let mut depth = vec![0; n];
        let mut replies: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, k) in keys.iter().enumerate() {
            // Only earlier messages are known here: a parent comes first.
            let p = k.parents.iter().find_map(|id| by_id.get(id).copied());
            let t = match p {
                Some(p) => {
                    let t = thread[p];
                    thread_at.entry(k.thread).or_insert(t);
                    t
                }
                None => *thread_at.entry(k.thread).or_insert_with(|| {
                    members.push(Vec::new());
                    members.len() - 1
                }),
            };
            thread.push(t);
            members[t].push(i);
            if let Some(p) = p {
                parent[i] = Some(p);
                depth[i] = depth[p] + 1;
                replies[p].push(i);
            }
            if let Some(id) = k.own {
                by_id.entry(id).or_insert(i);
            }
        }
        let mut place = vec![0; n];
        let mut threads = Vec::with_capacity(members.len());
        let mut stack = Vec::new();
        for roots in members {
            let mut order = Vec::with_capacity(roots.len());
            for &root in roots.iter().filter(|&&m| parent[m].is_none()) {
                stack.push(root);
                while let Some(m) = stack.pop() {
                    place[m] = order.len();
                    order.push(m);
                    stack.extend(replies[m].iter().rev());
                }
            }
            threads.push(order);
        }
        Tree {
            parent,
            depth,
            thread,
            place,
            threads,
            replies,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(s: &str) -> u64 {
        super::super::text::id_hash(s)
    }

    fn tree(messages: &[(&str, Option<&str>, &[&str])]) -> Tree {
        let parents: Vec<Vec<u64>> = messages
            .iter()
            .map(|m| m.2.iter().map(|s| key(s)).collect())
            .collect();
        let keys: Vec<Keys> = messages
            .iter()
            .zip(&parents)
            .map(|(m, p)| Keys {
                thread: key(m.0),
                own: m.1.map(key),
                parents: p,
            })
            .collect();
        Tree::new(&keys)
    }

    /// A reply whose References name only its parent joins its parent's thread.
    #[test]
    fn a_reply_joins_its_parents_thread() {
        let t = tree(&[
            ("root", Some("root"), &[]),
            ("root", Some("r1"), &["root"]),
            ("r1", Some("r11"), &["r1"]),
            ("r1", Some("r12"), &["gone"]),
        ]);
        assert_eq!(t.threads, [vec![0, 1, 2, 3]]);
        assert_eq!(t.depth, [0, 1, 2, 0]);
    }

    #[test]
    fn replies_nest_under_their_parents_in_pre_order() {
        let t = tree(&[
            ("a", Some("a"), &[]),
            ("b", Some("b"), &[]),
            ("a", Some("a1"), &["a"]),
            ("a", Some("a2"), &["a"]),
            ("a", Some("a11"), &["a1", "a"]),
            ("b", Some("b1"), &["b"]),
        ]);
        assert_eq!(t.threads, [vec![0, 2, 4, 3], vec![1, 5]]);
        assert_eq!(t.depth, [0, 0, 1, 1, 2, 1]);
        assert_eq!(t.parent[4], Some(2));
        assert_eq!(t.replies[0], [2, 3]);
        assert_eq!(t.place[3], 3);
    }

    /// A message that answers itself, References in a cycle, and an answer to a later
    /// message: no loop, every message shown once.
    #[test]
    fn cycles_cannot_loop() {
        let t = tree(&[
            ("x", Some("x"), &["x"]),
            ("x", Some("y"), &["z", "y"]),
            ("x", Some("z"), &["y", "z"]),
        ]);
        assert_eq!(t.parent, [None, None, Some(1)]);
        assert_eq!(t.thread, [0, 0, 0]);
        assert_eq!(t.threads, [vec![0, 1, 2]]);
    }

    /// A chain 100,000 deep is walked without recursion.
    #[test]
    fn a_deep_chain() {
        let n = 100_000;
        let ids: Vec<u64> = (0..n).map(|i| key(&format!("m{i}"))).collect();
        let parents: Vec<Vec<u64>> = (0..n)
            .map(|i| if i == 0 { vec![] } else { vec![ids[i - 1]] })
            .collect();
        let keys: Vec<Keys> = (0..n)
            .map(|i| Keys {
                thread: ids[0],
                own: Some(ids[i]),
                parents: &parents[i],
            })
            .collect();
        let t = Tree::new(&keys);
        assert_eq!(t.depth[n - 1], n - 1);
        assert_eq!(t.threads[0].len(), n);
    }
}
