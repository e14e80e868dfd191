//! Unity Timeline's interval tree (seed 000, `IntervalTree.cs`): which clips are active at a
//! tick, in O(log n + k), over half-open intervals `[start, end)` in ticks.
//!
//! Built once per compiled timeline by in-place partitioning: each node keeps the entries
//! that straddle its `center` (`start ≤ center ≤ end`), entries entirely left of it go to
//! the left child and entirely right to the right child; fewer than [`MIN_NODE_SIZE`]
//! entries make a leaf that is scanned linearly.
//!
//! Unity scans every straddling entry of each node on the path. Here a node keeps them twice
//! (Edelsbrunner's centered interval tree), sorted by start and by end, latest first, so the
//! scan stops at the first entry that misses: for `t < center` every straddler with
//! `start ≤ t` contains `t` (its end is ≥ center > t); for `t ≥ center` every straddler
//! with `end > t` does (its start is ≤ center ≤ t). The same set as Unity's scan, and the
//! query walks one root-to-leaf path without recursion.

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

/// No child.
const NONE: u32 = u32::MAX;

#[derive(Copy, Clone, Debug)]
struct Node {
    center: Ticks,
    /// The node's entries are `first..end` of both entry lists.
    first: u32,
    end: u32,
    /// Child node indices ([`NONE`] = no child); a leaf has neither and is scanned whole.
    left: u32,
    right: u32,
    leaf: bool,
}

/// A static interval tree.
#[derive(Clone, Debug, Default)]
pub struct IntervalTree {
    /// Node by node: the straddling entries sorted by start (a leaf's in any order).
    by_start: Vec<Entry>,
    /// The same ranges sorted by end, latest first.
    by_end: Vec<Entry>,
    nodes: Vec<Node>,
    /// Every start and end, ascending, without repeats: between two of them every query
    /// answers the same ([`IntervalTree::steady_span`]).
    boundaries: Vec<Ticks>,
}

impl IntervalTree {
    /// Builds the tree in O(n log n).
    pub fn new(entries: Vec<Entry>) -> Self {
        let mut boundaries: Vec<Ticks> = entries.iter().flat_map(|e| [e.start, e.end]).collect();
        boundaries.sort_unstable();
        boundaries.dedup();
        let mut tree = IntervalTree { by_start: entries, by_end: Vec::new(), nodes: Vec::new(), boundaries };
        if !tree.by_start.is_empty() {
            tree.rebuild(0, tree.by_start.len());
        }
        tree.by_end = tree.by_start.clone();
        for node in &tree.nodes {
            let range = node.first as usize..node.end as usize;
            tree.by_start[range.clone()].sort_by_key(|e| e.start);
            tree.by_end[range].sort_by_key(|e| std::cmp::Reverse(e.end));
        }
        tree
    }

    pub fn len(&self) -> usize {
        self.by_start.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_start.is_empty()
    }

    /// Partitions `by_start[start..end]` into this node's entries and its children's.
    fn rebuild(&mut self, start: usize, end: usize) -> u32 {
        let index = self.nodes.len() as u32;
        if end - start < MIN_NODE_SIZE {
            let (first, end) = (start as u32, end as u32);
            self.nodes.push(Node { center: Ticks::ZERO, first, end, left: NONE, right: NONE, leaf: true });
            return index;
        }
        let slice = &self.by_start[start..end];
        let min = slice.iter().map(|e| e.start.0).min().unwrap_or(0);
        let max = slice.iter().map(|e| e.end.0).max().unwrap_or(0);
        let center = Ticks(((min as i128 + max as i128) / 2) as i64);
        // Pass 1: entries ending before the center go left.
        let first = start + partition(&mut self.by_start[start..end], |e| e.end < center);
        // Pass 2: of the rest, entries starting after the center go right.
        let last = first + partition(&mut self.by_start[first..end], |e| e.start <= center);
        let (node_first, node_end) = (first as u32, last as u32);
        self.nodes.push(Node { center, first: node_first, end: node_end, left: NONE, right: NONE, leaf: false });
        let left = if start < first { self.rebuild(start, first) } else { NONE };
        let right = if last < end { self.rebuild(last, end) } else { NONE };
        let node = &mut self.nodes[index as usize];
        (node.left, node.right) = (left, right);
        index
    }

    /// Appends to `out` the items whose interval contains `t` (`start ≤ t < end`), in tree
    /// order (callers that need a fixed order sort the result).
    pub fn query(&self, t: Ticks, out: &mut impl Extend<u32>) {
        let mut index = if self.nodes.is_empty() { NONE } else { 0 };
        while index != NONE {
            let node = self.nodes[index as usize];
            let range = node.first as usize..node.end as usize;
            if node.leaf {
                let hits = self.by_start[range].iter().filter(|e| e.start <= t && t < e.end);
                out.extend(hits.map(|e| e.item));
                return;
            }
            if t < node.center {
                out.extend(self.by_start[range].iter().take_while(|e| e.start <= t).map(|e| e.item));
                index = node.left;
            } else {
                out.extend(self.by_end[range].iter().take_while(|e| t < e.end).map(|e| e.item));
                index = if t > node.center { node.right } else { NONE };
            }
        }
    }

    /// The span around `t`, half-open, in which every query answers as at `t`: from the
    /// latest start or end ≤ `t` (or the beginning of time) to the earliest one after `t`
    /// (or the end of time). An entry's membership changes only at its own start and end.
    pub fn steady_span(&self, t: Ticks) -> std::ops::Range<Ticks> {
        let after = self.boundaries.partition_point(|&b| b <= t);
        let from = if after == 0 { Ticks(i64::MIN) } else { self.boundaries[after - 1] };
        from..self.boundaries.get(after).copied().unwrap_or(Ticks(i64::MAX))
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
