//! Line differences between an expected and an actual text, for golden files: the first
//! differing line and a unified diff (`diff -u` format, three lines of context).

use std::fmt::Write as _;

/// Lines of context around each change.
const CONTEXT: usize = 3;
/// Above this many cells (changed lines × changed lines) the middle of the texts is shown as
/// replaced wholesale rather than aligned line by line.
const MAX_CELLS: usize = 16_000_000;

/// The first line (1-based) where `a` and `b` differ, with that line of each as it is, its
/// line break included when it has one (`None` past the end); `None` when the texts are
/// equal. A missing final line break counts as a difference on the last line.
pub fn first_difference<'a>(a: &'a str, b: &'a str) -> Option<(usize, Option<&'a str>, Option<&'a str>)> {
    if a == b {
        return None;
    }
    let (mut la, mut lb) = (a.split_inclusive('\n'), b.split_inclusive('\n'));
    for n in 1.. {
        let (x, y) = (la.next(), lb.next());
        if x != y {
            return Some((n, x, y));
        }
    }
    unreachable!("unequal texts differ on some line")
}

/// A line as [`first_difference`] gives it, for a message: quoted without its line break,
/// then `(no newline at end)` when it has none, so two lines that differ only there read
/// differently.
pub fn show_line(line: &str) -> String {
    match line.strip_suffix('\n') {
        Some(text) => format!("{text:?}"),
        None => format!("{line:?} (no newline at end)"),
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Op {
    Same,
    Removed,
    Added,
}

/// `diff -u` from `expected` (named `from`) to `actual` (named `to`); empty when equal.
pub fn unified_diff(expected: &str, actual: &str, from: &str, to: &str) -> String {
    if expected == actual {
        return String::new();
    }
    let a: Vec<&str> = expected.split_inclusive('\n').collect();
    let b: Vec<&str> = actual.split_inclusive('\n').collect();
    let ops = align(&a, &b);
    let mut out = format!("--- {from}\n+++ {to}\n");
    for hunk in hunks(&ops) {
        let lines = line_numbers(&ops, hunk.start);
        write_hunk(&mut out, &ops[hunk], &a, &b, lines);
    }
    out
}

/// The edit script from `a` to `b`: common prefix and suffix, and a longest common
/// subsequence of the lines between them (everything between replaced when that is too big).
fn align(a: &[&str], b: &[&str]) -> Vec<Op> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..].iter().rev().zip(b[prefix..].iter().rev()).take_while(|(x, y)| x == y).count();
    let (ma, mb) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let mut ops = vec![Op::Same; prefix];
    if ma.len().saturating_mul(mb.len()) > MAX_CELLS {
        ops.extend(std::iter::repeat_n(Op::Removed, ma.len()));
        ops.extend(std::iter::repeat_n(Op::Added, mb.len()));
    } else {
        ops.extend(lcs_ops(ma, mb));
    }
    ops.extend(std::iter::repeat_n(Op::Same, suffix));
    ops
}

/// The edit script of a longest common subsequence (dynamic programming, removals first).
fn lcs_ops(a: &[&str], b: &[&str]) -> Vec<Op> {
    let width = b.len() + 1;
    // `table[i * width + j]`: the LCS length of `a[i..]` and `b[j..]`.
    let mut table = vec![0u32; (a.len() + 1) * width];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            table[i * width + j] = if a[i] == b[j] {
                table[(i + 1) * width + j + 1] + 1
            } else {
                table[(i + 1) * width + j].max(table[i * width + j + 1])
            };
        }
    }
    let (mut i, mut j, mut ops) = (0, 0, Vec::with_capacity(a.len() + b.len()));
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            ops.push(Op::Same);
            (i, j) = (i + 1, j + 1);
        } else if j == b.len() || (i < a.len() && table[(i + 1) * width + j] >= table[i * width + j + 1]) {
            ops.push(Op::Removed);
            i += 1;
        } else {
            ops.push(Op::Added);
            j += 1;
        }
    }
    ops
}

/// Ranges of `ops` to print: each change with up to three lines of context, hunks whose
/// context would touch merged.
fn hunks(ops: &[Op]) -> Vec<std::ops::Range<usize>> {
    let mut hunks: Vec<std::ops::Range<usize>> = Vec::new();
    for (k, op) in ops.iter().enumerate() {
        if *op == Op::Same {
            continue;
        }
        let (start, end) = (k.saturating_sub(CONTEXT), (k + 1 + CONTEXT).min(ops.len()));
        match hunks.last_mut() {
            Some(last) if start <= last.end => last.end = end,
            _ => hunks.push(start..end),
        }
    }
    hunks
}

/// The 0-based line indices in `a` and `b` where op `k` starts.
fn line_numbers(ops: &[Op], k: usize) -> (usize, usize) {
    let removed_or_same = ops[..k].iter().filter(|&&op| op != Op::Added).count();
    let added_or_same = ops[..k].iter().filter(|&&op| op != Op::Removed).count();
    (removed_or_same, added_or_same)
}

/// `@@ -a,n +b,m @@` (GNU: `,1` left out, an empty side starts at the line before) and the lines.
fn write_hunk(out: &mut String, ops: &[Op], a: &[&str], b: &[&str], (mut i, mut j): (usize, usize)) {
    let count_a = ops.iter().filter(|&&op| op != Op::Added).count();
    let count_b = ops.iter().filter(|&&op| op != Op::Removed).count();
    let range = |start: usize, count: usize| match count {
        0 => format!("{start},0"),
        1 => format!("{}", start + 1),
        n => format!("{},{n}", start + 1),
    };
    let _ = writeln!(out, "@@ -{} +{} @@", range(i, count_a), range(j, count_b));
    for op in ops {
        let (mark, line) = match op {
            Op::Same => (' ', a[i]),
            Op::Removed => ('-', a[i]),
            Op::Added => ('+', b[j]),
        };
        match op {
            Op::Same => (i, j) = (i + 1, j + 1),
            Op::Removed => i += 1,
            Op::Added => j += 1,
        }
        out.push(mark);
        out.push_str(line);
        if !line.ends_with('\n') {
            out.push_str("\n\\ No newline at end of file\n");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_texts_have_no_diff() {
        assert_eq!(unified_diff("a\nb\n", "a\nb\n", "x", "y"), "");
        assert_eq!(first_difference("a\n", "a\n"), None);
    }

    #[test]
    fn a_changed_line_with_context() {
        let expected = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
        let actual = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
        assert_eq!(
            unified_diff(expected, actual, "golden", "actual"),
            "--- golden\n+++ actual\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"
        );
        assert_eq!(first_difference(expected, actual), Some((5, Some("5\n"), Some("five\n"))));
    }

    #[test]
    fn insertions_deletions_and_far_apart_hunks() {
        let expected = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n";
        let actual = "a\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n";
        assert_eq!(
            unified_diff(expected, actual, "g", "a"),
            "--- g\n+++ a\n@@ -1,5 +1,4 @@\n a\n-b\n c\n d\n e\n@@ -9,3 +8,4 @@\n i\n j\n k\n+l\n"
        );
    }

    #[test]
    fn empty_sides_and_missing_final_newline() {
        assert_eq!(unified_diff("", "x\n", "g", "a"), "--- g\n+++ a\n@@ -0,0 +1 @@\n+x\n");
        assert_eq!(
            unified_diff("x\n", "x", "g", "a"),
            "--- g\n+++ a\n@@ -1 +1 @@\n-x\n+x\n\\ No newline at end of file\n"
        );
        assert_eq!(first_difference("x\n", "x\ny\n"), Some((2, None, Some("y\n"))));
        // Lines that differ only in the final line break say so.
        let (_, a, b) = first_difference("end\n", "end").unwrap();
        assert_eq!(
            (show_line(a.unwrap()), show_line(b.unwrap())),
            ("\"end\"".into(), "\"end\" (no newline at end)".into())
        );
    }

    #[test]
    fn trailing_whitespace_of_a_last_line_without_newline_is_kept() {
        assert_eq!(
            unified_diff("x\t", "x\t\n", "g", "a"),
            "--- g\n+++ a\n@@ -1 +1 @@\n-x\t\n\\ No newline at end of file\n+x\t\n"
        );
    }
}
