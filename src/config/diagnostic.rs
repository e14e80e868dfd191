//! Located problems in config files. Bad input is data: every problem becomes a
//! [`Diagnostic`] with a byte span, rendered as `file:line:col: error: message` with the
//! source line, a caret line and, where one helps, a hint.

use std::fmt::Write as _;
use std::ops::Range;

use unicode_width::UnicodeWidthChar;

#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    pub fn label(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One problem at one place of one file.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// The file's path as it was given.
    pub file: String,
    /// Byte range in the file's text (may be empty, e.g. for a file that cannot be read).
    pub span: Range<usize>,
    pub message: String,
    pub hint: Option<String>,
}

impl Diagnostic {
    pub fn error(file: &str, span: Range<usize>, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Error, file: file.to_string(), span, message: message.into(), hint: None }
    }

    pub fn warning(file: &str, span: Range<usize>, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(file, span, message) }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `file:line:col` (1-based; the column counts characters).
    pub fn location(&self, text: &str) -> String {
        let (line, col) = line_col(text, self.span.start);
        format!("{}:{line}:{col}", self.file)
    }

    /// The first line of the rendering: `file:line:col: error: message`.
    pub fn headline(&self, text: &str) -> String {
        format!("{}: {}: {}", self.location(text), self.severity.label(), self.message)
    }

    /// Headline, the source line with a caret line under the span, and the hint.
    pub fn render(&self, text: &str) -> String {
        let mut out = self.headline(text);
        out.push('\n');
        let (line, col) = line_col(text, self.span.start);
        if let Some(source_line) = text.lines().nth(line - 1) {
            let gutter = line.to_string();
            let pad = " ".repeat(gutter.len());
            let span_chars =
                text.get(self.span.clone()).map(|s| s.lines().next().unwrap_or("").chars().count()).unwrap_or(0).max(1);
            let (shown, caret) = excerpt(source_line, col - 1, span_chars);
            let _ = writeln!(out, "{pad} |");
            let _ = writeln!(out, "{gutter} | {shown}");
            let _ = writeln!(out, "{pad} | {caret}");
        }
        if let Some(hint) = &self.hint {
            let _ = writeln!(out, "  = hint: {hint}");
        }
        out
    }
}

/// The longest source line a diagnostic shows whole, in characters.
const WHOLE_LINE: usize = 240;
/// Of a longer line: the characters shown before a span, and at most after it (and of it).
const CONTEXT: usize = 80;

/// The part of `line` a diagnostic shows around the span of `span` characters from character
/// `start` (all of it up to [`WHOLE_LINE`] characters; else `…` where it is cut: a line of a
/// minified file can be megabytes), and the caret line under it. The caret line keeps the
/// line's tabs where they are and gives a wide character two columns, so the carets sit under
/// the span in a terminal.
fn excerpt(line: &str, start: usize, span: usize) -> (String, String) {
    let chars: Vec<char> = line.chars().collect();
    let whole = chars.len() <= WHOLE_LINE;
    let from = if whole { 0 } else { start.saturating_sub(CONTEXT) };
    let carets = if whole { span } else { span.min(2 * CONTEXT) };
    let to = if whole { chars.len() } else { chars.len().min(start + carets + CONTEXT) };
    let (cut_before, cut_after) = (from > 0, to < chars.len());
    let mut shown: String = chars[from..to.max(from)].iter().collect();
    let mut caret: String = chars[from..start.min(to).max(from)]
        .iter()
        .map(|&c| if c == '\t' { "\t".to_string() } else { " ".repeat(c.width().unwrap_or(0)) })
        .collect();
    if cut_before {
        shown.insert(0, '…');
        caret.insert(0, ' ');
    }
    if cut_after {
        shown.push('…');
    }
    let under: usize =
        chars[start.min(chars.len())..(start + carets).min(chars.len())].iter().map(|c| c.width().unwrap_or(0)).sum();
    caret.push_str(&"^".repeat(under.max(1)));
    (shown, caret)
}

/// 1-based line and character column of byte `offset` in `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..floor_char_boundary(text, offset)];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// The candidate closest to `word` by edit distance, if it is close enough to be a likely
/// typo (distance ≤ max(1, len/3)) and keeps something of it (one letter is never suggested
/// for another: `x` → `t` replaces the whole name, no typo); failing that, the one candidate
/// that `word` (3 or more characters) begins, as `2d_simple` begins `2d_simple_directional`;
/// failing that, the longest candidate (3 or more characters) that begins `word`, as `loop`
/// begins `looping` — a known word with a suffix is too many edits away to count as a typo.
/// Nothing for `""`.
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    if word.is_empty() {
        return None;
    }
    let limit = (word.chars().count() / 3).max(1);
    let word = word.to_lowercase();
    let candidates: Vec<&str> = candidates.into_iter().collect();
    let closest = candidates
        .iter()
        .map(|c| (edit_distance(&word, &c.to_lowercase()), *c))
        .filter(|(d, c)| *d <= limit && *d < word.chars().count().max(c.chars().count()))
        .min_by_key(|(d, c)| (*d, *c))
        .map(|(_, c)| c);
    let mut extended = candidates.iter().filter(|c| word.chars().count() >= 3 && c.to_lowercase().starts_with(&word));
    let shortened = || {
        candidates
            .iter()
            .filter(|c| c.chars().count() >= 3 && word.starts_with(&c.to_lowercase()))
            .max_by_key(|c| (c.chars().count(), std::cmp::Reverse(**c)))
            .copied()
    };
    closest
        .or_else(|| match (extended.next(), extended.next()) {
            (Some(only), None) => Some(*only),
            _ => None,
        })
        .or_else(shortened)
}

/// A "did you mean `x`?" hint for `word` among `candidates`, if one is close.
pub fn suggestion<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    did_you_mean(word, candidates).map(|c| format!("did you mean `{c}`?"))
}

/// Whether `a` and `b` differ in exactly one word, and that word is at most two characters
/// long in both (compared without case): names of a set, like axes or sides, never typos of
/// each other — `x`/`y`, `lx`/`ly`, `move_x`/`move_y`, `moveX`/`moveY`, `arm_l`/`arm_r`,
/// `blend1`/`blend2`. Words are split at every character that is not a letter or a digit,
/// where a lower-case letter or a digit meets an upper-case letter, and where letters meet
/// digits.
pub fn differ_in_one_short_word(a: &str, b: &str) -> bool {
    let (a, b) = (words(a), words(b));
    let mut differing = a.iter().zip(&b).filter(|(a, b)| a != b);
    a.len() == b.len()
        && match (differing.next(), differing.next()) {
            (Some((a, b)), None) => a.chars().count() <= 2 && b.chars().count() <= 2,
            _ => false,
        }
}

/// The words of a name, lower-cased (see [`differ_in_one_short_word`]).
fn words(name: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut previous: Option<char> = None;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            previous = None;
            continue;
        }
        let starts_word = previous.is_none_or(|p| {
            ((p.is_lowercase() || p.is_numeric()) && c.is_uppercase()) || p.is_numeric() != c.is_numeric()
        });
        if starts_word {
            words.push(String::new());
        }
        words.last_mut().expect("a word was started").extend(c.to_lowercase());
        previous = Some(c);
    }
    words
}

/// Edit distance over characters where swapping two neighbours counts as one edit (optimal
/// string alignment), so `wakl` is one edit from `walk`, as a typist sees it.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // d[i][j]: distance between the first i characters of a and the first j of b.
    let mut d = vec![vec![0; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// A number as messages show it: the shorter of plain and scientific notation (`1e-6`,
/// `1e300`, `-5e-324`: never hundreds of digits), except that a number of magnitude ≥ 1 is
/// plain while that takes at most [`PLAIN_WIDTH`] characters — a round number a person typed
/// (`1000`, `100000`) is not shown as `1e3`.
pub fn number(v: f64) -> String {
    let plain = format!("{v}");
    let scientific = format!("{v:e}");
    let plain_whole = v.abs() >= 1.0 && plain.len() <= PLAIN_WIDTH;
    if !plain_whole && scientific.len() < plain.len() { scientific } else { plain }
}

/// The longest plain number of magnitude ≥ 1 [`number`] shows: room for the 17 significant
/// digits of any `f64`, a sign and a point.
const PLAIN_WIDTH: usize = 19;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caret_sits_under_the_span_in_a_terminal() {
        // (line, span start and length in characters; the caret line expected)
        let table: &[(&str, usize, usize, &str)] = &[
            ("a = 1", 4, 1, "    ^"),
            ("\ta =\t1", 5, 1, "\t   \t^"),
            ("名前 = x", 5, 1, "       ^"),
            ("x = \"走る\"", 4, 4, "    ^^^^^^"),
        ];
        for &(line, start, span, caret) in table {
            assert_eq!(excerpt(line, start, span), (line.to_string(), caret.to_string()), "{line:?}");
        }
        // A line too long to show whole is cut around the span.
        let long = format!("{}BAD{}", "a".repeat(1000), "z".repeat(1000));
        let (shown, caret) = excerpt(&long, 1000, 3);
        assert_eq!(shown, format!("…{}BAD{}…", "a".repeat(CONTEXT), "z".repeat(CONTEXT)));
        assert_eq!(caret, format!("{}^^^", " ".repeat(CONTEXT + 1)));
    }

    #[test]
    fn numbers_are_plain_unless_that_is_long() {
        let table: &[(f64, &str)] = &[
            (1000.0, "1000"),
            (100000.0, "100000"),
            (-0.0001, "-1e-4"),
            (1e-6, "1e-6"),
            (0.25, "0.25"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1e15, "1000000000000000"),
            (1e20, "1e20"),
            (1.5e-12, "1.5e-12"),
            (1e300, "1e300"),
            (-5e-324, "-5e-324"),
            (f64::NAN, "NaN"),
        ];
        for &(value, shown) in table {
            assert_eq!(number(value), shown, "{value:e}");
        }
    }

    #[test]
    fn line_and_column_count_characters() {
        let text = "a = 1\nbé = 2\n";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 6), (2, 1));
        assert_eq!(line_col(text, 9), (2, 3));
    }

    #[test]
    fn suggestions_are_close_words_only() {
        assert_eq!(did_you_mean("lenght", ["length", "loop"]), Some("length"));
        assert_eq!(did_you_mean("sped", ["speed", "direction"]), Some("speed"));
        assert_eq!(did_you_mean("zzz", ["length", "loop"]), None);
        assert_eq!(did_you_mean("wakl", ["walk", "idle"]), Some("walk"));
        assert_eq!(did_you_mean("2d_simple", ["2d_simple_directional", "1d"]), Some("2d_simple_directional"));
        assert_eq!(did_you_mean("", ["t"]), None);
        // One letter for another replaces the whole name; a letter added or dropped keeps one.
        assert_eq!(did_you_mean("x", ["t", "y"]), None);
        assert_eq!(did_you_mean("x", ["xs"]), Some("xs"));
        assert_eq!(did_you_mean("looping", ["length", "loop"]), Some("loop"));
        assert_eq!(did_you_mean("duration_seconds", ["duration", "dur"]), Some("duration"));
        assert_eq!(did_you_mean("type_of", ["ty", "time"]), None);
    }

    #[test]
    fn names_differing_in_one_short_word_are_a_set() {
        let cases = [
            ("x", "y", true),
            ("lx", "ly", true),
            ("move_x", "move_y", true),
            ("moveX", "moveY", true),
            ("arm_l", "arm_r", true),
            ("blend1", "blend2", true),
            ("layer10", "layer11", true),
            ("stick.x", "stick.y", true),
            // Typos: a long word differs, the case differs, a word is missing or added.
            ("sped", "speed", false),
            ("move_x", "mvoe_x", false),
            ("X", "x", false),
            ("x", "x", false),
            ("move_x", "x", false),
            ("speed2", "speed", false),
            ("move_x_y", "move_y_x", false),
            ("abc", "abd", false),
        ];
        for (a, b, set) in cases {
            assert_eq!(differ_in_one_short_word(a, b), set, "{a} / {b}");
            assert_eq!(differ_in_one_short_word(b, a), set, "{b} / {a}");
        }
    }

    #[test]
    fn rendering_points_at_the_span() {
        let text = "[clips]\nidle = { lenght = 2.0 }\n";
        let d = Diagnostic::error("f.toml", 17..23, "unknown key `lenght`").with_hint("did you mean `length`?");
        assert_eq!(
            d.render(text),
            "f.toml:2:10: error: unknown key `lenght`\n  |\n2 | idle = { lenght = 2.0 }\n  |          ^^^^^^\n  = hint: did you mean `length`?\n"
        );
    }
}
