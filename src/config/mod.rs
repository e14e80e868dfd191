//! Config files: TOML text → typed, locally validated definitions with byte spans.
//!
//! Each file is parsed once; every entry of every section is deserialized on its own, so one
//! bad entry never hides the problems of another, and all problems come back together as
//! [`Diagnostic`]s. Checks that need more than one entry (unique names across files,
//! references, cycles) live in `compile`. The text comes from the caller: no I/O here.

mod blend_tree;
pub mod diagnostic;
pub mod inputs;
pub mod raw;
pub mod schema;
pub mod timeline;

use std::ops::Range;

use serde::de::DeserializeOwned;
use toml::Spanned;
use toml::de::{DeArray, DeTable, DeValue, ValueDeserializer};

pub use diagnostic::{Diagnostic, Severity, did_you_mean, differ_in_one_short_word, number, suggestion};
use raw::{RawBlendTree, RawClip, RawParameter};

use crate::time::Ticks;

/// The largest magnitude of any number blendlab accepts, in a config or from a script (a
/// parameter's value): beyond it the blend math loses the precision its results promise.
pub const MAX_NUMBER: f64 = 1e6;

/// A config file's path (as given) and text.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceFile {
    pub path: String,
    pub text: String,
}

impl SourceFile {
    /// A config file from its bytes. TOML is UTF-8 text, so bytes that are not are an error at
    /// the first invalid one (`Utf8Error::valid_up_to`), located by line and column like every
    /// other; it comes with the text to render it against, each invalid sequence shown as
    /// U+FFFD (the caret points at the first).
    pub fn from_bytes(path: &str, bytes: Vec<u8>) -> Result<SourceFile, (Diagnostic, String)> {
        match String::from_utf8(bytes) {
            Ok(text) => Ok(SourceFile { path: path.to_string(), text }),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let byte = e.as_bytes()[at];
                let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                let message = format!(
                    "cannot read file: byte 0x{byte:02x} is not UTF-8 text (a config is read as UTF-8: save it so)"
                );
                Err((Diagnostic::error(path, at..at + char::REPLACEMENT_CHARACTER.len_utf8(), message), text))
            }
        }
    }
}

/// A definition with its name and the span of that name.
#[derive(Clone, Debug)]
pub struct Named<T> {
    pub name: String,
    pub span: Range<usize>,
    pub value: T,
    /// False when local validation reported an error for it: it is kept so that its name
    /// is known and its references are still checked, but it never reaches a snapshot.
    pub valid: bool,
    /// Keys whose problems were already reported while reading it (a bad value, a
    /// misspelling of the key): later checks do not report them again as missing.
    pub reported: Vec<ReportedKey>,
}

/// A key of an entry whose problem was reported while reading it, and the span of the table
/// it was written in (the entry's, or one of its inline tables: a layer, a clip, a marker).
#[derive(Clone, Debug, PartialEq)]
pub struct ReportedKey {
    pub key: String,
    pub table: Range<usize>,
}

/// What one file defines: every entry that has the right TOML shape, flagged `valid` when
/// local validation found nothing wrong with it.
#[derive(Clone, Debug, Default)]
pub struct ParsedFile {
    pub path: String,
    pub clips: Vec<Named<RawClip>>,
    pub parameters: Vec<Named<RawParameter>>,
    pub blend_trees: Vec<Named<RawBlendTree>>,
    pub timelines: Vec<Named<timeline::RawTimeline>>,
    pub graphs: Vec<Named<timeline::RawGraph>>,
    pub audio: Vec<Named<timeline::RawAudio>>,
    /// Hit profiles are free-form tables passed through with `ApplyHit` commands.
    pub hit_profiles: Vec<Named<toml::Table>>,
    pub inputs: Vec<Named<inputs::RawInputs>>,
    /// Entries that could not be read at all (reported), by the names they define: references
    /// to them are not reported again as unknown names.
    pub unread: Vec<(Namespace, String)>,
    /// Some `[parameters]` entry could not be read, or some blend tree could not be read or is
    /// locally invalid (its parameters may be misnamed or missing). Parameters are known
    /// through the entries that declare or read them, so then the library's parameters are not
    /// all known, and a parameter named elsewhere (in `[inputs]`) that matches none is not
    /// reported: it may be the one that entry meant, and the entry has its error already.
    pub parameters_unknown: bool,
    /// The file is not valid TOML, so it defines nothing.
    pub unparsed: bool,
}

/// Where a name must be unique and is looked up: assets (clips, blend trees, timelines,
/// graphs share one namespace), or one of the two catalogs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Namespace {
    Asset,
    Audio,
    HitProfile,
}

/// The top-level tables this version understands.
pub const SECTIONS: &[&str] =
    &["clips", "parameters", "blend_trees", "timelines", "graphs", "audio", "hit_profiles", "inputs"];

/// Parses and locally validates one file. Entries of the wrong TOML shape are left out and
/// reported; the others are returned (flagged when invalid) so later checks still run on
/// them and nothing cascades into "unknown name" errors.
pub fn parse_file(source: &SourceFile) -> (ParsedFile, Vec<Diagnostic>) {
    let mut parsed = ParsedFile { path: source.path.clone(), ..ParsedFile::default() };
    let mut problems =
        Problems { file: &source.path, text: &source.text, list: Vec::new(), reported: Vec::new(), entry: 0..0 };
    let (root, syntax_errors) = DeTable::parse_recoverable(&source.text);
    if !syntax_errors.is_empty() {
        problems.syntax_errors(syntax_errors);
        parsed.unparsed = true;
        return (parsed, problems.list);
    }
    for (key, value) in root.into_inner() {
        let section = key.get_ref().as_ref();
        let Some(entries) = value.get_ref().as_table() else {
            problems.type_error(value.span(), section, "a table", &value);
            parsed.parameters_unknown |= matches!(section, "parameters" | "blend_trees");
            continue;
        };
        let unread = &mut parsed.unread;
        let asset = Some((Namespace::Asset, &mut *unread));
        match section {
            "clips" => parsed.clips = problems.entries(entries, validate_clip, asset),
            "parameters" => {
                parsed.parameters = problems.entries(entries, validate_parameter, None);
                parsed.parameters_unknown |= parsed.parameters.len() < entries.len();
            }
            "blend_trees" => {
                parsed.blend_trees = problems.entries(entries, blend_tree::validate_blend_tree, asset);
                parsed.parameters_unknown |=
                    parsed.blend_trees.len() < entries.len() || parsed.blend_trees.iter().any(|t| !t.valid);
            }
            "timelines" => parsed.timelines = problems.entries(entries, timeline::validate_timeline, asset),
            "graphs" => parsed.graphs = problems.entries(entries, timeline::validate_graph, asset),
            "audio" => {
                parsed.audio = problems.entries(entries, timeline::validate_audio, Some((Namespace::Audio, unread)))
            }
            "hit_profiles" => {
                parsed.hit_profiles = problems.entries(entries, |_, _| {}, Some((Namespace::HitProfile, unread)))
            }
            "inputs" => parsed.inputs = problems.entries(entries, inputs::validate_inputs, None),
            other => {
                let mut d = Diagnostic::error(
                    &source.path,
                    key.span(),
                    format!("unknown table `[{other}]` (known: {})", SECTIONS.join(", ")),
                );
                if let Some(hint) = suggestion(other, SECTIONS.iter().copied()) {
                    d = d.with_hint(hint);
                }
                problems.list.push(d);
            }
        }
    }
    (parsed, problems.list)
}

/// How a name breaks the rule for every name written that becomes an asset, leaf or layer
/// name (entry keys of every section; the `name` of a timeline clip, a track, a graph layer):
/// blendlab makes names of its own from them — `layer/leaf`, `clip/leaf`, `walk#2` — and shows
/// the default pose's row as `<default>`, so a name holding `/` or `#`, or starting with `<`,
/// would read as one of those, and an empty one as nothing at all.
fn name_problems(name: &str) -> Vec<&'static str> {
    if name.is_empty() {
        return vec!["a name may not be empty"];
    }
    if name.trim().is_empty() {
        return vec!["a name may not be only whitespace"];
    }
    let mut problems = Vec::new();
    if name.contains('/') {
        problems.push("a name may not contain `/`: blendlab uses it in the leaf names it makes (`layer/leaf`)");
    }
    if name.contains('#') {
        problems.push("a name may not contain `#`: blendlab uses it in the leaf names it makes (`walk#2`)");
    }
    if name.starts_with('<') {
        problems.push("a name may not start with `<`: blendlab keeps that for its own rows (`<default>`)");
    }
    if name.chars().any(is_hidden_character) {
        problems.push(HIDDEN_CHARACTER_PROBLEM);
    }
    problems
}

/// Why a name may not hold a [hidden character](is_hidden_character).
const HIDDEN_CHARACTER_PROBLEM: &str = "a name may not contain control or invisible characters (a tab, a newline, a \
     zero-width space, a direction mark): it prints on one line, as it reads";

/// Whether `c` does not print as what it is: a control character (a tab, a newline), or an
/// invisible format character — a soft hyphen, a zero-width space or joiner, a direction
/// mark, embedding, override or isolate, a line or paragraph separator, a byte order mark.
/// Such a character makes two names that print alike differ, or reorders the line a name
/// prints on.
pub fn is_hidden_character(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{206f}' | '\u{feff}')
}

/// Collects the diagnostics of one file.
struct Problems<'a> {
    file: &'a str,
    text: &'a str,
    list: Vec<Diagnostic>,
    /// The keys already reported for the entry being validated (see [`Named::reported`]).
    reported: Vec<ReportedKey>,
    /// The span of that entry's name.
    entry: Range<usize>,
}

impl Problems<'_> {
    fn error(&mut self, span: Range<usize>, message: impl Into<String>) {
        self.list.push(Diagnostic::error(self.file, span, message));
    }

    /// Reports that one of `keys` is missing, at `span` — unless a problem with one of them was
    /// reported already in the same table, in which case the absence is only the consequence
    /// of that problem. `span` is the table the key is missing from, or something inside it
    /// (a child's motion), or the entry's name (the entry as a whole): a misspelt `name` in one
    /// layer does not hide another layer's missing `name`.
    fn missing(&mut self, keys: &[&str], span: Range<usize>, message: impl Into<String>) {
        let within = |inner: &Range<usize>, outer: &Range<usize>| outer.start <= inner.start && inner.end <= outer.end;
        let same_table = |table: &Range<usize>| span == self.entry || within(&span, table) || within(table, &span);
        if !self.reported.iter().any(|r| keys.contains(&r.key.as_str()) && same_table(&r.table)) {
            self.error(span, message);
        }
    }

    /// Whether a problem with `key` was reported while reading the entry being validated: a
    /// check that depends on that key's value would judge the default that stands in for it.
    fn was_reported(&self, key: &str) -> bool {
        self.reported.iter().any(|r| r.key == key)
    }

    /// Reports every way `name`, written at `span`, breaks the name rule ([`name_problems`]).
    /// When `_` in place of each `/` and `#` makes a name that keeps the rule (so those were
    /// its only problems), that name is the hint.
    fn name(&mut self, span: Range<usize>, name: &str) {
        let mended = name.replace(['/', '#'], "_");
        let hint = (mended != name && name_problems(&mended).is_empty()).then(|| format!("try `{mended}`"));
        for problem in name_problems(name) {
            let mut d = Diagnostic::error(self.file, span.clone(), problem);
            d.hint = hint.clone();
            self.list.push(d);
        }
    }

    fn warning(&mut self, span: Range<usize>, message: impl Into<String>) {
        self.list.push(Diagnostic::warning(self.file, span, message));
    }

    fn type_error(&mut self, span: Range<usize>, what: &str, expected: &str, found: &Spanned<DeValue>) {
        self.error(span, format!("`{what}` must be {expected}, found {}", found.get_ref().type_str()));
    }

    /// Deserializes and validates every entry of a section, flagging the invalid ones; the
    /// names of entries that cannot be read at all go to `unread` (with their namespace).
    fn entries<T: DeserializeOwned>(
        &mut self,
        table: &DeTable,
        validate: fn(&mut Self, &Named<T>),
        mut unread: Option<(Namespace, &mut Vec<(Namespace, String)>)>,
    ) -> Vec<Named<T>> {
        let mut entries = Vec::new();
        for (key, value) in table {
            let fallback = value.span();
            let before = self.errors();
            self.name(key.span(), key.get_ref());
            let (entry, errors, reported) = deserialize_all::<T>(value.clone());
            for error in &errors {
                self.toml_error(error, fallback.clone());
            }
            // What remains after pruning is validated too, so its problems show at once.
            let Some(entry) = entry else {
                if let Some((namespace, unread)) = &mut unread {
                    unread.push((*namespace, key.get_ref().to_string()));
                }
                continue;
            };
            let name = key.get_ref().to_string();
            let mut named = Named { name, span: key.span(), value: entry, valid: true, reported };
            (self.reported, self.entry) = (named.reported.clone(), named.span.clone());
            validate(self, &named);
            self.reported.clear();
            named.valid = self.errors() == before;
            entries.push(named);
        }
        entries
    }

    fn errors(&self) -> usize {
        self.list.iter().filter(|d| d.is_error()).count()
    }

    /// Reports the parser's complaints, one per slip. A slip makes the parser complain again as
    /// it recovers, further along the line (a missing `,` in an inline table: up to eight
    /// complaints, not in line order): the first complaint on a line is the one to read, and
    /// the rest of the line is read again once it is fixed. An inline table left open takes in
    /// everything after it (the parser finds no `}` up to the end): complaints inside a table
    /// opened on an earlier line are one slip, reported once, saying where the table opened
    /// when the complaint starts a line that the line before did not continue with a `,`.
    fn syntax_errors(&mut self, mut errors: Vec<toml::de::Error>) {
        errors.sort_by_key(|e| e.span().map_or(0, |s| s.start));
        let mut seen: Vec<(bool, usize)> = Vec::new();
        for error in errors {
            let at = error.span().map_or(0, |s| s.start).min(self.text.len());
            let line_start = self.text[..at].rfind('\n').map_or(0, |n| n + 1);
            let brace = open_inline_table(self.text, at).filter(|&brace| brace < line_start);
            let slip = brace.map_or((false, line_start), |brace| (true, brace));
            if seen.contains(&slip) {
                continue;
            }
            seen.push(slip);
            self.toml_error(&error, 0..0);
            let starts_line = self.text[line_start..at].trim().is_empty();
            let continued = self.text[..line_start].trim_end().ends_with([',', '{']);
            if let Some(brace) = brace.filter(|_| starts_line && !continued) {
                let (line, col) = diagnostic::line_col(self.text, brace);
                let hint = format!("the `{{` at line {line}, column {col} is still open: is its `}}` missing?");
                if let Some(reported) = self.list.last_mut() {
                    reported.hint = Some(hint);
                }
            }
        }
    }

    /// Turns a toml/serde error into a diagnostic, rewording serde's "unknown field" and
    /// "unknown variant" messages and adding a did-you-mean. A date or time where another
    /// type belongs is called one (serde sees TOML's date-times as tables).
    fn toml_error(&mut self, error: &toml::de::Error, fallback: Range<usize>) {
        let span = error.span().unwrap_or(fallback);
        let message = reworded(error.message().trim());
        let written = self.text.get(span.clone()).unwrap_or("");
        let message = match message.as_str() {
            "duplicate key" => {
                let key = written.trim_matches(['"', '\'']);
                format!("duplicate key `{key}`: a key may appear only once in a table")
            }
            _ if message.starts_with("invalid type: table") && written.parse::<toml::value::Datetime>().is_ok() => {
                message.replacen("invalid type: table", "invalid type: date-time", 1)
            }
            // A date-time where an entry's table belongs reaches serde as a table with one
            // private key.
            _ if message.contains("$__toml_private_datetime") => "invalid type: date-time, expected a table".into(),
            _ => message,
        };
        let d = match unknown_name(&message) {
            Some((what, word, expected)) => {
                let known = expected.join(", ");
                let d =
                    Diagnostic::error(self.file, span, format!("unknown {what} `{word}` (expected one of: {known})"));
                // A timeline clip's `end` is a guess at its length, in seconds or in frames.
                let hint = if word == "end" && expected.iter().any(|e| e == "duration") {
                    Some(
                        "a clip in seconds takes `start` and `duration`; in frames, `start_frame` and `end_frame`"
                            .into(),
                    )
                } else {
                    meant(&word, &expected).map(|key| format!("did you mean `{key}`?"))
                };
                match hint {
                    Some(hint) => d.with_hint(hint),
                    None => d,
                }
            }
            // The parser's complaint about a bare word depends on its first letter (`tree`: an
            // invalid boolean, `idle`: an invalid float).
            None if ["string values must be quoted", "invalid boolean", "invalid float"]
                .iter()
                .any(|start| message.starts_with(start)) =>
            {
                let d = Diagnostic::error(self.file, span, message);
                match unquoted_hint(written) {
                    Some(hint) => d.with_hint(hint),
                    None => d,
                }
            }
            // `parameter = ["x", "y"]`: the singular key with a 2D tree's list.
            None if message.starts_with("invalid type: array, expected a string")
                && key_before(self.text, span.start) == Some("parameter") =>
            {
                Diagnostic::error(self.file, span, "`parameter` takes one name, not a list")
                    .with_hint("did you mean `parameters`? A 2D tree takes two: `parameters = [\"x\", \"y\"]`")
            }
            None => {
                let d = Diagnostic::error(self.file, span, message.as_str());
                match whole_number_hint(&message, written) {
                    Some(hint) => d.with_hint(hint),
                    None => d,
                }
            }
        };
        self.list.push(d);
    }

    fn finite(&mut self, value: &Spanned<f64>, what: &str) -> bool {
        self.finite_at(value.span(), *value.get_ref(), what)
    }

    /// Reports `v` at `span` unless it is finite and within ±[`MAX_NUMBER`].
    fn finite_at(&mut self, span: Range<usize>, v: f64, what: &str) -> bool {
        if !v.is_finite() {
            self.error(span, format!("{what} must be a finite number, got {v}"));
            return false;
        }
        if v.abs() > MAX_NUMBER {
            self.error(span, format!("{what} is {v:e}, beyond the ±1e6 that blendlab accepts"));
            return false;
        }
        true
    }

    /// Reports `value` unless it is a finite number of seconds that is at least one tick once
    /// rounded to ticks, as every time is: a shorter one would become 0, which is refused when
    /// written as 0.
    fn positive_seconds(&mut self, value: &Spanned<f64>, what: &str) {
        let seconds = *value.get_ref();
        if !self.finite(value, what) {
            return;
        }
        if seconds <= 0.0 {
            self.error(value.span(), format!("{what} must be > 0 seconds, got {}", number(seconds)));
        } else if Ticks::from_secs(seconds).is_ok_and(|t| t < Ticks(1)) {
            let tick = number(Ticks(1).secs());
            self.error(value.span(), format!("{what} {} s is shorter than one tick ({tick} s)", number(seconds)));
        }
    }

    fn non_negative(&mut self, value: &Spanned<f64>, what: &str) {
        if self.finite(value, what) && *value.get_ref() < 0.0 {
            self.error(value.span(), format!("{what} must be ≥ 0, got {}", number(*value.get_ref())));
        }
    }
}

/// What one entry deserialized to after pruning (if anything), its errors, and the keys
/// those errors explain (see [`Named::reported`]).
type Deserialized<T> = (Option<T>, Vec<toml::de::Error>, Vec<ReportedKey>);

/// Deserializes one entry, collecting every type-level problem rather than the first: after
/// each error the offending key (or array element, or the table a field is missing from) is
/// pruned from a copy and deserialization is retried. A problem that only follows from an
/// error already reported is not reported again: a "missing field" after a bad value, a
/// misspelling or a synonym ([`SYNONYMS`]) of that field, or an array of the wrong length
/// after one of its elements was pruned.
fn deserialize_all<T: DeserializeOwned>(mut value: Spanned<DeValue>) -> Deserialized<T> {
    const MAX_PROBLEMS: usize = 64;
    let mut errors: Vec<toml::de::Error> = Vec::new();
    let mut explained: Vec<ReportedKey> = Vec::new();
    let mut shortened: Vec<Range<usize>> = Vec::new();
    for _ in 0..MAX_PROBLEMS {
        let error = match T::deserialize(ValueDeserializer::from(value.clone())) {
            Ok(entry) => return (Some(entry), errors, explained),
            Err(error) => error,
        };
        let message = error.message();
        let missing = message.strip_prefix("missing field `").and_then(|m| m.split('`').next());
        let within = |inner: &Range<usize>, outer: &Range<usize>| outer.start <= inner.start && inner.end <= outer.end;
        // In the same table: a misspelt `motion` in one child explains only that child's.
        let same_table = |e: &ReportedKey| error.span().is_none_or(|s| within(&s, &e.table) || within(&e.table, &s));
        let consequence = missing.is_some_and(|field| explained.iter().any(|e| e.key == field && same_table(e)))
            || (message.starts_with("invalid length")
                && error.span().is_some_and(|e| shortened.iter().any(|s| e.start <= s.start && s.end <= e.end)));
        if !consequence {
            errors.push(error.clone());
        }
        let meant_key =
            unknown_name(message).and_then(|(_, word, expected)| meant(&word, &expected).map(str::to_string));
        let Some(span) = error.span() else { break };
        let Some(pruned) = prune(&mut value, &span, None) else {
            explained.extend(meant_key.map(|key| ReportedKey { key, table: span }));
            break;
        };
        for key in meant_key.into_iter().chain(pruned.key) {
            explained.push(ReportedKey { key, table: pruned.from.clone() });
        }
        shortened.push(pruned.from);
    }
    (None, errors, explained)
}

/// What [`prune`] removed: the key (of the entry, or of the array the element was in) and the
/// span of the table or array it was removed from.
struct Pruned {
    key: Option<String>,
    from: Range<usize>,
}

/// Removes the innermost table entry or array element at `span` from below `value` (whose
/// key is `key`), searching every child, since the span of an array of tables need not cover
/// its elements; `None` when nothing below `value` holds the span.
fn prune(value: &mut Spanned<DeValue>, span: &Range<usize>, key: Option<&str>) -> Option<Pruned> {
    let holds = |outer: Range<usize>| outer.start <= span.start && span.end <= outer.end;
    let from = value.span();
    match value.get_mut() {
        DeValue::Table(table) => {
            for (k, child) in table.iter_mut() {
                if let Some(removed) = prune(child, span, Some(k.get_ref())) {
                    return Some(removed);
                }
            }
            let found = table.iter().find(|(k, c)| holds(k.span()) || holds(c.span()))?.0.clone();
            table.remove(&found);
            Some(Pruned { key: Some(found.get_ref().to_string()), from })
        }
        DeValue::Array(array) => {
            for child in array.iter_mut() {
                if let Some(removed) = prune(child, span, key) {
                    return Some(removed);
                }
            }
            let index = array.iter().position(|child| holds(child.span()))?;
            let mut kept = DeArray::new();
            for (i, child) in array.iter().enumerate() {
                if i != index {
                    kept.push(child.clone());
                }
            }
            *array = kept;
            Some(Pruned { key: key.map(str::to_string), from })
        }
        _ => None,
    }
}

/// Words written for a key under another name, with the key meant: a blend-tree child and a
/// timeline clip play a `motion` (a clip is one), a marker and a trigger are at a `time`. A
/// known mistake, so it wins over a near spelling (`clip` is not `clip_in`).
/// The bare key written right before `= value` when the value starts at `start`.
fn key_before(text: &str, start: usize) -> Option<&str> {
    let before = text.get(..start)?.trim_end().strip_suffix('=')?.trim_end();
    let key_start = before.rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-')).map_or(0, |i| i + 1);
    Some(&before[key_start..])
}

const SYNONYMS: &[(&str, &str)] = &[("clip", "motion"), ("t", "time")];

/// The key (or name) among `expected` that an unknown `word` most likely meant: its synonym
/// there ([`SYNONYMS`]), else a close spelling ([`did_you_mean`]).
fn meant<'e>(word: &str, expected: &'e [String]) -> Option<&'e str> {
    let synonym = SYNONYMS.iter().filter(|(w, _)| *w == word).find_map(|(_, key)| expected.iter().find(|e| e == key));
    synonym.map(String::as_str).or_else(|| did_you_mean(word, expected.iter().map(String::as_str)))
}

/// The hint for a whole number written with a fraction that is zero (`30.0`, `3e1`): the same
/// number without it.
fn whole_number_hint(message: &str, written: &str) -> Option<String> {
    if !(message.starts_with("invalid type: floating point") && message.ends_with("expected a whole number")) {
        return None;
    }
    let value = written.replace('_', "").parse::<f64>().ok()?;
    let whole = value.fract() == 0.0 && value.abs() < 1e15;
    whole.then(|| format!("write `{}`: a whole number has no decimal point", value as i64))
}

/// serde's words for TOML's: tables and arrays, numbers and names.
fn reworded(message: &str) -> String {
    const WORDS: &[(&str, &str)] = &[
        ("expected f64", "expected a number"),
        ("expected i64", "expected a whole number"),
        ("expected a sequence", "expected an array"),
        ("expected a map", "expected a table"),
        ("invalid type: sequence", "invalid type: array"),
        ("invalid type: map", "invalid type: table"),
        ("missing field", "missing key"),
        ("wanted string or table", "expected a name in quotes"),
    ];
    WORDS.iter().fold(message.to_string(), |m, (from, to)| m.replace(from, to))
}

/// Whether `word` could be a TOML bare key: letters, digits, `_` and `-`, at least one.
fn is_bare_word(word: &str) -> bool {
    !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// The offset of the innermost inline table `{` still open at `offset` in TOML `text`, if any
/// (brackets inside strings and comments do not count).
fn open_inline_table(text: &str, offset: usize) -> Option<usize> {
    let mut open: Vec<(char, usize)> = Vec::new();
    let mut chars = text[..offset].char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '#' => {
                chars.by_ref().find(|&(_, c)| c == '\n');
            }
            '"' | '\'' => {
                let rest = &text[i..offset];
                let triple = if c == '"' { "\"\"\"" } else { "'''" };
                let (quote, escapes) = (if rest.starts_with(triple) { triple } else { &rest[..1] }, c == '"');
                let mut end = quote.len();
                loop {
                    let found = rest[end..].find(quote)?; // `offset` is inside a string
                    let backslashes = rest[..end + found].chars().rev().take_while(|&b| b == '\\').count();
                    end += found + quote.len();
                    if !escapes || backslashes % 2 == 0 {
                        break;
                    }
                }
                while chars.peek().is_some_and(|&(j, _)| j < i + end) {
                    chars.next();
                }
            }
            '{' | '[' => open.push((c, i)),
            // A bracket that does not close the innermost one is the parser's complaint, not
            // a close.
            '}' | ']' if open.last().is_some_and(|&(o, _)| (o, c) == ('{', '}') || (o, c) == ('[', ']')) => {
                open.pop();
            }
            _ => {}
        }
    }
    open.into_iter().rev().find(|&(c, _)| c == '{').map(|(_, i)| i)
}

/// What an unquoted run of text the parser took for a string most likely is: a value followed
/// by the next key with no `,` between them (`length = 1.0 loop = true`), a value ended by a
/// `;`, or a name that needs quotes (`motion = walk`). `written` is what the parser underlined.
fn unquoted_hint(written: &str) -> Option<String> {
    let is_value = |word: &str| format!("v = {word}").parse::<toml::Table>().is_ok();
    let word = written.split(char::is_whitespace).next().unwrap_or("");
    match word.strip_suffix(';') {
        Some(value) if is_value(value) => Some(format!("TOML separates values with `,`, not `;`: `{value},`")),
        _ if word.len() < written.trim_end().len() && is_value(word) => {
            Some(format!("is a `,` missing after `{word}`?"))
        }
        _ if word.len() == written.trim_end().len() && is_bare_word(word) => {
            let quoted = format!("a name goes in quotes: \"{word}\"");
            Some(match did_you_mean(word, ["true", "false", "inf", "nan"]) {
                Some(keyword) => format!("did you mean `{keyword}`? ({quoted})"),
                None => quoted,
            })
        }
        _ => None,
    }
}

/// Parses serde's "unknown field `x`, expected `a` or `b`" (or "one of `a`, `b`", or
/// "there are no fields") into (what, word, expected words).
fn unknown_name(message: &str) -> Option<(&'static str, String, Vec<String>)> {
    let (what, rest) = if let Some(rest) = message.strip_prefix("unknown field `") {
        ("key", rest)
    } else if let Some(rest) = message.strip_prefix("unknown variant `") {
        ("name", rest)
    } else {
        return None;
    };
    let (word, tail) = rest.split_once('`')?;
    let expected = tail.split('`').skip(1).step_by(2).map(str::to_string).collect();
    Some((what, word.to_string(), expected))
}

fn validate_clip(p: &mut Problems, clip: &Named<RawClip>) {
    p.positive_seconds(&clip.value.length, "clip length");
}

fn validate_parameter(p: &mut Problems, param: &Named<RawParameter>) {
    let v = &param.value;
    if let Some(default) = &v.default {
        p.finite(default, "default");
    }
    if let Some(t) = &v.smooth_time {
        p.non_negative(t, "smooth_time");
    }
    if let Some(s) = &v.max_speed
        && p.finite(s, "max_speed")
    {
        if *s.get_ref() <= 0.0 {
            p.error(s.span(), format!("max_speed must be > 0, got {}", number(*s.get_ref())));
        } else if v.smooth_time.is_none() {
            p.warning(
                s.span(),
                "max_speed limits smoothing, and this parameter has no smooth_time, so it does not smooth: \
                 max_speed does nothing here (add smooth_time, 0 for the shortest)",
            );
        }
    }
    if let Some(z) = &v.dead_zone {
        p.non_negative(z, "dead_zone");
    }
    if let Some(curve) = &v.curve {
        validate_curve(p, curve);
    }
}

fn validate_curve(p: &mut Problems, curve: &Spanned<Vec<Spanned<raw::Exact<f64, 2>>>>) {
    if curve.get_ref().len() < 2 {
        p.missing(&["curve"], curve.span(), "a curve needs at least two points `[[in, out], …]`");
    }
    let mut previous: Option<f64> = None;
    for point in curve.get_ref() {
        let [x, y] = point.get_ref().0;
        if !(x.is_finite() && y.is_finite()) {
            p.error(point.span(), "curve points must be finite numbers");
            continue;
        }
        if previous.is_some_and(|prev| x <= prev) {
            p.error(
                point.span(),
                format!("curve inputs must be strictly increasing; {x} does not follow {}", previous.unwrap()),
            );
        }
        previous = Some(x);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_inline_table_still_open_skips_strings_comments_and_stray_closers() {
        // (text, `^` marks where to ask; the offset of the open `{` expected)
        let table: &[(&str, Option<usize>)] = &[
            ("a = { b = 1\n^", Some(4)),
            ("a = { b = 1 }\n^", None),
            ("a = [{ b = 1 }, { c = [2, 3]\n^", Some(16)),
            ("a = { b = \"}\" ^", Some(4)),
            ("a = { b = \"\\\"}\" ^", Some(4)),
            ("a = { b = '}\\' ^", Some(4)),
            ("a = { b = \"\"\"}\n}\"\"\" ^", Some(4)),
            ("a = { # }\n^", Some(4)),
            ("a = { b = [1 } ^", Some(4)),
            ("a = { b = ] ^", Some(4)),
            ("a = \"{ ^", None),
        ];
        for &(text, open) in table {
            let at = text.find('^').unwrap();
            assert_eq!(open_inline_table(text, at), open, "{text:?}");
        }
    }

    #[test]
    fn bytes_that_are_not_utf8_are_located_at_the_first_invalid_one() {
        let latin1 = b"[clips.walk]\nlength = 1.0 # caf\xe9 \xe9\n".to_vec();
        let (d, text) = SourceFile::from_bytes("f.toml", latin1).unwrap_err();
        assert_eq!(
            d.render(&text),
            "f.toml:2:19: error: cannot read file: byte 0xe9 is not UTF-8 text (a config is read as UTF-8: save it \
             so)\n  |\n2 | length = 1.0 # caf\u{fffd} \u{fffd}\n  |                   ^\n"
        );
        let source = SourceFile::from_bytes("f.toml", "é = 1".into()).unwrap();
        assert_eq!(source.text, "é = 1");
    }

    #[test]
    fn serde_unknown_names_are_parsed() {
        let (what, word, expected) = unknown_name("unknown field `lenght`, expected `length` or `loop`").unwrap();
        assert_eq!((what, word.as_str()), ("key", "lenght"));
        assert_eq!(expected, ["length", "loop"]);
        let (what, word, expected) = unknown_name("unknown variant `1D`, expected one of `1d`, `direct`").unwrap();
        assert_eq!((what, word.as_str()), ("name", "1D"));
        assert_eq!(expected, ["1d", "direct"]);
    }
}
