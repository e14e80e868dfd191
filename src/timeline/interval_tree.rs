//! Unity Timeline's interval tree (seed 000, `IntervalTree.cs`): which clips are active at a
//! tick, in O(log n + k), over half-open intervals `[start, end)` in ticks.
//!
//! Built once per compiled timeline by in-place partitioning: each node keeps the entries
//! that straddle its `center` (`start ≤ center ≤ end`), entries entirely left of it go to
//! the left child and entirely right to the right child; fewer than [`MIN_NODE_SIZE`]
//! entries make a leaf that is scanned linearly.

use crate::time::Ticks;

/// Entries below this count are a leaf (Unity's `kMinNodeSize`).
pub const MIN_NODE_SIZE: usize = 10;

/// One interval and the item (an index) it stands for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub start: Ticks,
    pub end: Ticks,
    pub item: u32,
}

#[derive(Copy, Clone, Debug)]
struct Node {
    /// `None` for a leaf.
    center: Option<Ticks>,
    /// The entries `first..=last` (may be empty: `first > last`) belong to this node.
    first: usize,
    last: isize,
    left: Option<usize>,
    right: Option<usize>,
}

/// A static interval tree.
#[derive(Clone, Debug, Default)]
pub struct IntervalTree {
    entries: Vec<Entry>,
    nodes: Vec<Node>,
}

impl IntervalTree {
    /// Builds the tree in O(n log n).
    pub fn new(entries: Vec<Entry>) -> Self {
        let mut tree = IntervalTree { entries, nodes: Vec::new() };
        if !tree.entries.is_empty() {
            tree.rebuild(0, tree.entries.len() - 1);
        }
        tree
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn rebuild(&mut self, start: usize, end: usize) -> usize {
        if end + 1 - start < MIN_NODE_SIZE {
            self.nodes.push(Node { center: None, first: start, last: end as isize, left: None, right: None });
            return self.nodes.len() - 1;
        }
        let slice = &self.entries[start..=end];
        let min = slice.iter().map(|e| e.start.0).min().unwrap_or(0);
        let max = slice.iter().map(|e| e.end.0).max().unwrap_or(0);
        let center = Ticks(((min as i128 + max as i128) / 2) as i64);
        // Pass 1: entries ending before the center go left.
        let first = start + partition(&mut self.entries[start..=end], |e| e.end < center);
        // Pass 2: of the rest, entries starting after the center go right.
        let last = first + partition(&mut self.entries[first..=end], |e| e.start <= center);
        let index = self.nodes.len();
        self.nodes.push(Node { center: Some(center), first, last: last as isize - 1, left: None, right: None });
        let left = (start < first).then(|| self.rebuild(start, first - 1));
        let right = (last <= end).then(|| self.rebuild(last, end));
        self.nodes[index].left = left;
        self.nodes[index].right = right;
        index
    }

    /// Appends to `out` the items whose interval contains `t` (`start ≤ t < end`), in tree
    /// order (callers that need a fixed order sort the result).
    pub fn query(&self, t: Ticks, out: &mut Vec<u32>) {
        if !self.nodes.is_empty() {
            self.query_node(0, t, out);
        }
    }

    fn query_node(&self, index: usize, t: Ticks, out: &mut Vec<u32>) {
        let node = self.nodes[index];
        if node.last >= node.first as isize {
            for entry in &self.entries[node.first..=node.last as usize] {
                if entry.start <= t && t < entry.end {
                    out.push(entry.item);
                }
            }
        }
        let Some(center) = node.center else { return };
        if let Some(left) = node.left
            && t < center
        {
            self.query_node(left, t, out);
        }
        if let Some(right) = node.right
            && t > center
        {
            self.query_node(right, t, out);
        }
    }
}

/// Moves the entries satisfying `left` to the front; returns how many there are.
fn partition(entries: &mut [Entry], left: impl Fn(&Entry) -> bool) -> usize {
    let mut boundary = 0;
    for i in 0..entries.len() {
        if left(&entries[i]) {
            entries.swap(boundary, i);
            boundary += 1;
        }
    }
    boundary
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(start: i64, end: i64, item: u32) -> Entry {
        Entry { start: Ticks(start), end: Ticks(end), item }
    }

    fn active(tree: &IntervalTree, t: i64) -> Vec<u32> {
        let mut out = Vec::new();
        tree.query(Ticks(t), &mut out);
        out.sort();
        out
    }

    #[test]
    fn the_seeds_five_clips() {
        // A [10,30) B [20,60) C [40,70) D [55,80) E [60,90); padded with far intervals so
        // the root is an inner node.
        let mut entries =
            vec![entry(10, 30, 0), entry(20, 60, 1), entry(40, 70, 2), entry(55, 80, 3), entry(60, 90, 4)];
        entries.extend((5..12).map(|i| entry(1000 + i as i64, 1001 + i as i64, i)));
        let tree = IntervalTree::new(entries);
        assert_eq!(active(&tree, 45), [1, 2]);
        assert_eq!(active(&tree, 65), [2, 3, 4]);
        assert_eq!(active(&tree, 30), [1]);
        assert_eq!(active(&tree, 9), Vec::<u32>::new());
    }

    #[test]
    fn adjacent_intervals_meet_without_overlap() {
        let tree = IntervalTree::new(vec![entry(0, 3, 0), entry(3, 6, 1)]);
        assert_eq!(active(&tree, 2), [0]);
        assert_eq!(active(&tree, 3), [1]);
        assert_eq!(active(&tree, 6), Vec::<u32>::new());
    }
}
