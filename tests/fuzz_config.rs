//! Fuzzing the config loader: the samples and good configs, mutated the way half-edited files
//! look (byte flips, truncations, swapped keys, deleted and repeated lines, numbers replaced
//! by edge cases), must compile without a panic, every diagnostic located inside its file,
//! and a snapshot exactly when there is no error.
//!
//! `cargo test` runs a modest number of cases; `PROPTEST_CASES=N cargo test --test
//! fuzz_config` runs more (the long runs recorded in README "Reliability"). Inputs that once
//! failed are kept in `tests/fuzz/config/` and replayed by `kept_crash_inputs_compile`.

mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};

use blendlab::compile::compile;
use blendlab::config::SourceFile;
use proptest::prelude::*;

/// Numbers that break naive code: non-finite, huge, tiny, negative zero, integer limits.
const EDGE_NUMBERS: &[&str] = &[
    "nan",
    "inf",
    "-inf",
    "1e308",
    "-1e308",
    "5e-324",
    "-0.0",
    "0",
    "-1",
    "1e6",
    "1000000.000001",
    "9223372036854775807",
    "-9223372036854775808",
    "2147483648",
    "4294967296",
    "100000",
];

/// The texts mutations start from: every sample and good config, and the broken corpus.
fn seeds() -> Vec<String> {
    let mut files = common::files_in("samples", "toml");
    files.extend(common::files_in("tests/config/ok", "toml"));
    files.extend(common::files_in("tests/scripts", "toml"));
    files.iter().map(|f| std::fs::read_to_string(f).unwrap()).collect()
}

/// One edit of a config text.
#[derive(Clone, Debug)]
enum Mutation {
    /// Replace the byte at (fraction of the length) with this byte.
    Flip(f64, u8),
    /// Cut the text at (fraction of the length).
    Truncate(f64),
    /// Swap the keys of two `key =` lines (by fraction of their count).
    SwapKeys(f64, f64),
    /// Replace a number (by fraction of their count) with an edge case.
    Number(f64, usize),
    /// Delete a line.
    DeleteLine(f64),
    /// Repeat a line.
    RepeatLine(f64),
}

fn at(fraction: f64, len: usize) -> usize {
    ((fraction * len as f64) as usize).min(len.saturating_sub(1))
}

/// Byte ranges of the numbers in `text` (runs of digits, with sign, dot and exponent).
fn numbers(text: &str) -> Vec<std::ops::Range<usize>> {
    let bytes = text.as_bytes();
    let mut ranges = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric() && bytes[i - 1] != b'_') {
            let start = if i > 0 && bytes[i - 1] == b'-' { i - 1 } else { i };
            let mut end = i;
            while end < bytes.len() && (bytes[end].is_ascii_digit() || b".eE+-_".contains(&bytes[end])) {
                end += 1;
            }
            ranges.push(start..end);
            i = end;
        } else {
            i += 1;
        }
    }
    ranges
}

fn apply(text: &str, mutation: &Mutation) -> String {
    let lines: Vec<&str> = text.lines().collect();
    match *mutation {
        Mutation::Flip(f, byte) => {
            let mut bytes = text.as_bytes().to_vec();
            if !bytes.is_empty() {
                let i = at(f, bytes.len());
                bytes[i] = byte;
            }
            String::from_utf8_lossy(&bytes).into_owned()
        }
        Mutation::Truncate(f) => {
            let mut cut = at(f, text.len());
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            text[..cut].to_string()
        }
        Mutation::SwapKeys(a, b) => {
            let keyed: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].contains(" = ")).collect();
            if keyed.len() < 2 {
                return text.to_string();
            }
            let (i, j) = (keyed[at(a, keyed.len())], keyed[at(b, keyed.len())]);
            let split = |l: &str| l.split_once(" = ").map(|(k, v)| (k.to_string(), v.to_string())).unwrap();
            let ((ki, vi), (kj, vj)) = (split(lines[i]), split(lines[j]));
            let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            out[i] = format!("{kj} = {vi}");
            out[j] = format!("{ki} = {vj}");
            out.join("\n")
        }
        Mutation::Number(f, edge) => {
            let found = numbers(text);
            if found.is_empty() {
                return text.to_string();
            }
            let range = found[at(f, found.len())].clone();
            format!("{}{}{}", &text[..range.start], EDGE_NUMBERS[edge % EDGE_NUMBERS.len()], &text[range.end..])
        }
        Mutation::DeleteLine(f) | Mutation::RepeatLine(f) if lines.is_empty() => {
            let _ = f;
            text.to_string()
        }
        Mutation::DeleteLine(f) => {
            let i = at(f, lines.len());
            lines.iter().enumerate().filter(|(k, _)| *k != i).map(|(_, l)| *l).collect::<Vec<_>>().join("\n")
        }
        Mutation::RepeatLine(f) => {
            let i = at(f, lines.len());
            let mut out: Vec<&str> = lines.clone();
            out.insert(i, lines[i]);
            out.join("\n")
        }
    }
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let unit = 0.0..1.0f64;
    prop_oneof![
        (unit.clone(), any::<u8>()).prop_map(|(f, b)| Mutation::Flip(f, b)),
        (unit.clone(), prop::sample::select(b"{}[]=\",.#\n'-".to_vec())).prop_map(|(f, b)| Mutation::Flip(f, b)),
        unit.clone().prop_map(Mutation::Truncate),
        (unit.clone(), unit.clone()).prop_map(|(a, b)| Mutation::SwapKeys(a, b)),
        (unit.clone(), any::<usize>()).prop_map(|(f, e)| Mutation::Number(f, e)),
        (unit.clone(), any::<usize>()).prop_map(|(f, e)| Mutation::Number(f, e)),
        unit.clone().prop_map(Mutation::DeleteLine),
        unit.prop_map(Mutation::RepeatLine),
    ]
}

/// Compiles `texts` as one library and checks the loader's promises; `Err` says which broke.
fn check(texts: &[String]) -> Result<(), String> {
    let sources: Vec<SourceFile> =
        texts.iter().enumerate().map(|(i, t)| SourceFile { path: format!("f{i}.toml"), text: t.clone() }).collect();
    let compiled = catch_unwind(AssertUnwindSafe(|| compile(&sources))).map_err(|_| "compile panicked".to_string())?;
    let has_error = compiled.diagnostics.iter().any(|d| d.is_error());
    if has_error == compiled.snapshot.is_some() {
        return Err(format!("snapshot present: {}, errors: {has_error}", compiled.snapshot.is_some()));
    }
    for d in &compiled.diagnostics {
        let source = sources.iter().find(|s| s.path == d.file).ok_or(format!("unknown file {}", d.file))?;
        if d.span.start > source.text.len() || d.span.end > source.text.len() || d.span.start > d.span.end {
            return Err(format!("span {:?} outside {} ({} bytes): {}", d.span, d.file, source.text.len(), d.message));
        }
        let rendered = catch_unwind(|| d.render(&source.text)).map_err(|_| "render panicked".to_string())?;
        let head: Vec<&str> = rendered.splitn(4, ':').collect();
        if head.len() < 4 || head[1].parse::<usize>().is_err() || head[2].parse::<usize>().is_err() {
            return Err(format!("not located as file:line:col: {rendered}"));
        }
    }
    Ok(())
}

proptest! {
    #[test]
    fn mutated_configs_never_panic_and_every_error_is_located(
        seed in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        let seeds = seeds();
        let mut text = seeds[seed.index(seeds.len())].clone();
        for m in &mutations {
            text = apply(&text, m);
        }
        prop_assert!(check(std::slice::from_ref(&text)).is_ok(), "{:?}\n---\n{text}", check(&[text.clone()]));
    }

    #[test]
    fn mutated_libraries_of_two_files_never_panic(
        first in any::<prop::sample::Index>(),
        second in any::<prop::sample::Index>(),
        mutation in mutation(),
    ) {
        let seeds = seeds();
        let texts = [apply(&seeds[first.index(seeds.len())], &mutation), seeds[second.index(seeds.len())].clone()];
        prop_assert!(check(&texts).is_ok(), "{:?}", check(&texts));
    }
}

/// Inputs that once made the loader misbehave, kept as regression tests.
#[test]
fn kept_crash_inputs_compile() {
    let kept = common::files_in("tests/fuzz/config", "toml");
    assert!(!kept.is_empty());
    for file in kept {
        let text = std::fs::read_to_string(&file).unwrap();
        if let Err(problem) = check(&[text]) {
            panic!("{}: {problem}", file.display());
        }
    }
}

#[test]
fn mutations_change_the_text_as_described() {
    let text = "a = 1\nb = 2.5\n";
    assert_eq!(apply(text, &Mutation::SwapKeys(0.0, 0.9)), "b = 1\na = 2.5");
    assert_eq!(apply(text, &Mutation::Number(0.9, 0)), "a = 1\nb = nan\n");
    assert_eq!(apply(text, &Mutation::Truncate(0.5)), "a = 1\nb");
    assert_eq!(apply(text, &Mutation::DeleteLine(0.0)), "b = 2.5");
    assert_eq!(numbers("x = -1e6, y_2 = 3"), vec![4..8, 16..17]);
}
