//! The REPL's words: `:commands` (sugar over the Lua API, each with one line of help) and
//! where Tab completion applies in a line. Pure text in, values out, so both are unit-tested.

use rustyline::completion::Pair;

use crate::config::suggestion;

/// One of the REPL's `:commands`: sugar over the Lua API.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Step(f64),
    Frames(f64),
    Weights(Option<String>),
    Events(Vec<String>),
    Graph(String),
    /// `:watch` lists the live kinds; `:watch kind on|off` (or `all`) switches.
    Watch(Option<(String, bool)>),
    /// Sparklines of an actor's weights over its last `frames` frames.
    Plot {
        actor: String,
        frames: usize,
    },
    /// Write the session so far as a Lua script (the path as given: one word, maybe quoted).
    Record(String),
    Reload,
    Help,
    Quit,
}

/// How many frames `:plot` shows unless told.
pub const PLOT_FRAMES: usize = 60;
/// How many of each actor's latest frames the REPL keeps for `:plot`.
pub const HISTORY_FRAMES: usize = 240;

/// Every command: name, arguments, one line of help.
pub const COMMANDS: &[(&str, &str, &str)] = &[
    (":step", "S", "advance the clock S seconds, over whole logic frames (bl.step)"),
    (":frames", "N", "run exactly N logic frames (bl.frames)"),
    (":weights", "[actor]", "weight tables with bars: one actor, or every actor"),
    (":events", "[kind…]", "the event log, or only events of the given kinds"),
    (":graph", "actor", "the actor's live graph: layers, mixers, inputs raw → normalized, local times"),
    (
        ":watch",
        "[kind|all on|off]",
        "print events of a kind as they happen, or list the live kinds (clip_tick needs bl.trace_ticks(true))",
    ),
    (":plot", "actor [N]", "each leaf's weight over the last N frames (60, at most 240): blank 0, ▁ > 0 … █ 1"),
    (":record", "FILE", "write the session so far as a Lua script that `blendlab run FILE` replays"),
    (":reload", "", "re-read every loaded config now and re-run the Lua files that changed"),
    (":help", "", "this list"),
    (":quit", "", "leave (also Ctrl-D, or Ctrl-C twice on an empty line)"),
];

/// Splits a `:command` line into words as a shell does: blanks separate them; inside `"…"`
/// blanks are part of the word and `\"` and `\\` stand for `"` and `\`; inside `'…'` every
/// character stands for itself. Quoted and bare parts next to each other make one word
/// (`"my "hero` is `my hero`); `""` is an empty word.
pub fn split_words(line: &str) -> Result<Vec<String>, String> {
    match scan_words(line) {
        (_, Some(c)) => Err(format!("a `{c}` is not closed: end the quoted word with `{c}`")),
        (words, None) => Ok(words.into_iter().map(|(_, word)| word).collect()),
    }
}

/// The words of `line` as [`split_words`] reads them, each with the byte it starts at, and
/// the quote still open at the end of the line, if any (its word then runs to the end).
fn scan_words(line: &str) -> (Vec<(usize, String)>, Option<char>) {
    let mut words = Vec::new();
    let mut word: Option<(usize, String)> = None;
    let mut open = None;
    let mut at = line.char_indices();
    while let Some((start, c)) = at.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '"' | '\'' => {
                let text = &mut word.get_or_insert_with(|| (start, String::new())).1;
                loop {
                    match at.next().map(|(_, inner)| inner) {
                        None => break open = Some(c),
                        Some(end) if end == c => break,
                        Some('\\') if c == '"' => match at.next().map(|(_, escaped)| escaped) {
                            Some(escaped @ ('"' | '\\')) => text.push(escaped),
                            Some(other) => text.extend(['\\', other]),
                            None => text.push('\\'),
                        },
                        Some(inner) => text.push(inner),
                    }
                }
            }
            c => word.get_or_insert_with(|| (start, String::new())).1.push(c),
        }
    }
    words.extend(word);
    (words, open)
}

/// Whether `c` is a character no shell treats specially (a word of them needs no quotes).
fn plain(c: char) -> bool {
    c.is_alphanumeric() || "_-./+,:@%=".contains(c)
}

/// `word` as a shell (and [`split_words`]) reads it back: as it is when it holds only
/// characters no shell treats specially, else in single quotes.
pub fn quote(word: &str) -> String {
    quote_with(word, '\'')
}

/// `word` as it is when it holds only characters no shell treats specially, else between two
/// `quote`s (`'` or `"`).
fn quote_with(word: &str, quote: char) -> String {
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("{}{quote}", opened(word, quote))
    }
}

/// `text` after an opening `quote` (`'` or `"`), written so [`split_words`] reads it back,
/// the quote left open.
fn opened(text: &str, quote: char) -> String {
    if quote == '"' {
        format!("\"{}", text.replace('\\', "\\\\").replace('"', "\\\""))
    } else {
        format!("'{}", text.replace('\'', r#"'"'"'"#))
    }
}

/// Tab's candidates for a `:command` argument typed so far as `typed` (maybe quoted, as
/// [`split_words`] reads it): the `names` it begins, each shown as it would be typed, quoted
/// only if it needs it (with the quote `typed` uses, else `'`). One replaces the word with
/// itself, closed; several replace it with the beginning they share, in a quote left open if
/// `typed` opened one or the beginning needs one, so Tab extends the word that far and a
/// second Tab lists them.
pub fn argument_candidates(typed: &str, names: &[String]) -> Vec<Pair> {
    let (words, open) = scan_words(typed);
    let value = words.into_iter().next_back().map_or(String::new(), |(_, word)| word);
    let quote = open.or_else(|| typed.chars().find(|c| matches!(c, '"' | '\''))).unwrap_or('\'');
    let matching: Vec<&str> = names.iter().map(String::as_str).filter(|n| n.starts_with(&value)).collect();
    let shared = match matching.as_slice() {
        [] => return Vec::new(),
        [one] => return vec![Pair { display: quote_with(one, quote), replacement: quote_with(one, quote) }],
        [first, rest @ ..] => rest.iter().fold(*first, |shared, name| {
            let end = shared
                .char_indices()
                .zip(name.chars())
                .find(|((_, a), b)| a != b)
                .map_or(shared.len().min(name.len()), |((i, _), _)| i);
            &shared[..end]
        }),
    };
    let replacement =
        if open.is_some() || !shared.chars().all(plain) { opened(shared, quote) } else { shared.to_string() };
    matching.iter().map(|name| Pair { display: quote_with(name, quote), replacement: replacement.clone() }).collect()
}

/// Parses a `:command` line; its arguments are [`split_words`]'s words.
pub fn parse_command(line: &str) -> Result<Command, String> {
    let words = split_words(line).map_err(|e| format!("{}: {e}", line.split_whitespace().next().unwrap_or(":")))?;
    let name = words.first().map_or(":", String::as_str);
    let args: Vec<&str> = words.iter().skip(1).map(String::as_str).collect();
    let number = |what: &str| -> Result<f64, String> {
        match args.as_slice() {
            [n] => n.parse::<f64>().map_err(|_| format!("{name}: `{n}` is not a number")),
            _ => Err(format!("{name} takes one argument: {what}")),
        }
    };
    let at_most_one = || match args.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(one.to_string())),
        _ => Err(format!("{name} takes at most one actor name{QUOTE_HINT}")),
    };
    match name {
        ":step" => number("a duration in seconds").map(Command::Step),
        ":frames" => number("a number of frames").map(Command::Frames),
        ":weights" => at_most_one().map(Command::Weights),
        ":events" => Ok(Command::Events(args.iter().map(|a| a.to_string()).collect())),
        ":graph" => match at_most_one()? {
            Some(actor) => Ok(Command::Graph(actor)),
            None => Err(":graph takes an actor name".into()),
        },
        ":plot" => match args.as_slice() {
            [actor] => Ok(Command::Plot { actor: actor.to_string(), frames: PLOT_FRAMES }),
            [actor, n] => match n.parse::<usize>() {
                Ok(frames) if frames >= 1 => Ok(Command::Plot { actor: actor.to_string(), frames }),
                _ => {
                    // `:plot my hero`: a word that is no number at all is more likely a name's.
                    let hint = if n.parse::<f64>().is_err() { QUOTE_HINT } else { "" };
                    Err(format!(":plot: `{n}` is not a whole number of frames ≥ 1{hint}"))
                }
            },
            [] => Err(":plot takes an actor name and, optionally, a number of frames".into()),
            _ => Err(format!(":plot takes an actor name and, optionally, a number of frames{QUOTE_HINT}")),
        },
        ":record" => match args.as_slice() {
            [path] if !path.is_empty() => Ok(Command::Record(path.to_string())),
            [] => Err(":record takes a file to write: :record session.lua".into()),
            _ => Err(":record takes one file to write: quote a path with spaces, :record \"my session.lua\"".into()),
        },
        ":watch" => match args.as_slice() {
            [] => Ok(Command::Watch(None)),
            [kind, "on"] => Ok(Command::Watch(Some((kind.to_string(), true)))),
            [kind, "off"] => Ok(Command::Watch(Some((kind.to_string(), false)))),
            _ => Err(":watch takes an event kind (or `all`) and `on` or `off`".into()),
        },
        ":reload" | ":help" | ":quit" if !args.is_empty() => Err(format!("{name} takes no arguments")),
        ":reload" => Ok(Command::Reload),
        ":help" | ":h" | ":?" => Ok(Command::Help),
        ":quit" | ":q" | ":exit" => Ok(Command::Quit),
        other => {
            let hint = suggestion(other, COMMANDS.iter().map(|c| c.0)).map_or(String::new(), |h| format!("; {h}"));
            Err(format!("unknown command `{other}`{hint} (:help lists them)"))
        }
    }
}

/// Said when a command got more words than it takes: a name with spaces is one word quoted.
const QUOTE_HINT: &str = " (quote a name with spaces: \"my hero\")";

/// The `:help` text.
pub fn help() -> String {
    let width = COMMANDS.iter().map(|(n, a, _)| n.len() + a.len() + 1).max().unwrap_or(0);
    let mut text = String::from("Lua is evaluated as you type it; an expression prints its value.\n");
    for (name, args, what) in COMMANDS {
        text.push_str(&format!("  {:width$}  {what}\n", format!("{name} {args}").trim_end()));
    }
    text.push_str("Quote a name or path with spaces: :weights \"my hero\". Tab completes names;\n");
    text.push_str("Ctrl-C stops a running chunk or step.\n");
    text
}

/// Where completion applies in `line` before the cursor.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// A `:command` name.
    Command { prefix: String },
    /// An argument of a `:command`; `prefix` is its word as typed so far, quotes and all.
    Argument { command: String, prefix: String },
    /// Inside a string literal: names of actors, parameters, assets, event kinds.
    Name { prefix: String },
    /// A Lua name after `a.b.` (or `a:` for methods); `path` empty for globals.
    Field { path: Vec<String>, method: bool, prefix: String },
}

/// What to complete at the end of `before` (the line up to the cursor); the completed word
/// starts at `before.len() - prefix.len()`.
pub fn completion_target(before: &str) -> Target {
    if let Some(rest) = before.strip_prefix(':') {
        return match rest.split_once(char::is_whitespace) {
            None => Target::Command { prefix: before.to_string() },
            Some((command, args)) => {
                // The last word, from its start (a quoted one may hold blanks).
                let start = match scan_words(args) {
                    (words, open) if open.is_some() || !args.ends_with(char::is_whitespace) => {
                        words.last().map_or(args.len(), |(start, _)| *start)
                    }
                    _ => args.len(),
                };
                Target::Argument { command: format!(":{command}"), prefix: args[start..].to_string() }
            }
        };
    }
    if let Some(open) = open_string(before) {
        return Target::Name { prefix: before[open..].to_string() };
    }
    let start = before
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == ':'))
        .map_or(0, |i| i + before[i..].chars().next().map_or(1, char::len_utf8));
    let word = &before[start..];
    match word.rfind(['.', ':']) {
        None => Target::Field { path: Vec::new(), method: false, prefix: word.to_string() },
        Some(split) => Target::Field {
            path: word[..split].split(['.', ':']).map(str::to_string).collect(),
            method: word[split..].starts_with(':'),
            prefix: word[split + 1..].to_string(),
        },
    }
}

/// The byte just after the opening quote of a string literal still open at the end of
/// `code`, if any.
fn open_string(code: &str) -> Option<usize> {
    let mut open: Option<(char, usize)> = None;
    let mut escaped = false;
    for (i, c) in code.char_indices() {
        match open {
            Some(_) if escaped => escaped = false,
            Some(_) if c == '\\' => escaped = true,
            Some((quote, _)) if c == quote => open = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => open = Some((c, i + 1)),
            None => {}
        }
    }
    open.map(|(_, start)| start)
}

/// Lua keywords, offered with global names.
pub(super) const KEYWORDS: &[&str] = &[
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in", "local", "nil",
    "not", "or", "repeat", "return", "then", "true", "until", "while",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn field(path: &[&str], method: bool, prefix: &str) -> Target {
        Target::Field { path: path.iter().map(|p| p.to_string()).collect(), method, prefix: prefix.into() }
    }

    #[test]
    fn completion_targets() {
        assert_eq!(completion_target("pri"), field(&[], false, "pri"));
        assert_eq!(completion_target("bl.st"), field(&["bl"], false, "st"));
        assert_eq!(completion_target("x = hero:we"), field(&["hero"], true, "we"));
        assert_eq!(completion_target("a.b.c"), field(&["a", "b"], false, "c"));
        assert_eq!(completion_target("hero:set(\"sp"), Target::Name { prefix: "sp".into() });
        assert_eq!(completion_target("print('it''s"), Target::Name { prefix: "s".into() });
        assert_eq!(completion_target("print(\"done\") + x"), field(&[], false, "x"));
        assert_eq!(completion_target(":we"), Target::Command { prefix: ":we".into() });
        assert_eq!(
            completion_target(":weights he"),
            Target::Argument { command: ":weights".into(), prefix: "he".into() }
        );
        assert_eq!(
            completion_target(":plot \"my h"),
            Target::Argument { command: ":plot".into(), prefix: "\"my h".into() }
        );
        assert_eq!(completion_target(":plot 'a b' "), Target::Argument { command: ":plot".into(), prefix: "".into() });
    }

    #[test]
    fn argument_completion_quotes_only_names_that_need_it() {
        let names: Vec<String> = ["my hero", "myth", "hero", "it's", "a \"b\""].map(String::from).into();
        let complete = |typed: &str| -> Vec<(String, String)> {
            argument_candidates(typed, &names).into_iter().map(|p| (p.display, p.replacement)).collect()
        };
        let listed = |displays: &[&str], replacement: &str| -> Vec<(String, String)> {
            displays.iter().map(|d| (d.to_string(), replacement.to_string())).collect()
        };
        // Several: the word grows to the beginning they share and the list shows each.
        assert_eq!(complete("m"), listed(&["'my hero'", "myth"], "my"));
        assert_eq!(complete("\"m"), listed(&["\"my hero\"", "myth"], "\"my"));
        assert_eq!(complete("'m"), listed(&["'my hero'", "myth"], "'my"));
        // One: the whole name, quoted only if it needs it.
        assert_eq!(complete("\"my "), listed(&["\"my hero\""], "\"my hero\""));
        assert_eq!(complete("my' "), listed(&["'my hero'"], "'my hero'"));
        assert_eq!(complete("\"myt"), listed(&["myth"], "myth"));
        assert_eq!(complete("h"), listed(&["hero"], "hero"));
        assert_eq!(complete("i"), listed(&["'it'\"'\"'s'"], "'it'\"'\"'s'"));
        assert_eq!(complete("\"a"), listed(&[r#""a \"b\"""#], r#""a \"b\"""#));
        assert!(complete("x").is_empty());
        // Whatever it completes reads back as the name.
        for (_, word) in complete("\"a").into_iter().chain(complete("i")) {
            assert!(names.contains(&split_words(&word).unwrap()[0]), "{word}");
        }
    }

    #[test]
    fn commands_parse_with_helpful_errors() {
        assert_eq!(parse_command(":step 0.5"), Ok(Command::Step(0.5)));
        assert_eq!(parse_command(":frames 3"), Ok(Command::Frames(3.0)));
        assert_eq!(parse_command(":weights"), Ok(Command::Weights(None)));
        assert_eq!(
            parse_command(":events clip_begin signal"),
            Ok(Command::Events(vec!["clip_begin".into(), "signal".into()]))
        );
        assert_eq!(parse_command(":watch warning off"), Ok(Command::Watch(Some(("warning".into(), false)))));
        assert_eq!(parse_command(":q"), Ok(Command::Quit));
        assert_eq!(parse_command(":plot hero"), Ok(Command::Plot { actor: "hero".into(), frames: PLOT_FRAMES }));
        assert_eq!(parse_command(":plot hero 30"), Ok(Command::Plot { actor: "hero".into(), frames: 30 }));
        assert_eq!(parse_command(":plot hero 0"), Err(":plot: `0` is not a whole number of frames ≥ 1".into()));
        assert!(parse_command(":plot").unwrap_err().starts_with(":plot takes an actor name"));
        assert_eq!(parse_command(":record  \"my session.lua\" "), Ok(Command::Record("my session.lua".into())));
        assert!(parse_command(":record a b").unwrap_err().contains("takes one file"));
        assert_eq!(parse_command(":weights 'my hero'"), Ok(Command::Weights(Some("my hero".into()))));
        assert!(parse_command(":weights my hero").unwrap_err().contains("quote a name with spaces"));
        assert!(parse_command(":plot my hero").unwrap_err().contains("quote a name with spaces"));
        assert_eq!(parse_command(":plot \"my hero\" 5"), Ok(Command::Plot { actor: "my hero".into(), frames: 5 }));
        assert_eq!(
            parse_command(":graph \"my hero"),
            Err(":graph: a `\"` is not closed: end the quoted word with `\"`".into())
        );
        assert!(parse_command(":record").unwrap_err().starts_with(":record takes a file"));
        assert_eq!(parse_command(":step"), Err(":step takes one argument: a duration in seconds".into()));
        assert_eq!(parse_command(":step x"), Err(":step: `x` is not a number".into()));
        assert_eq!(parse_command(":graph"), Err(":graph takes an actor name".into()));
        assert!(parse_command(":stp 1").unwrap_err().contains("did you mean `:step`"));
    }

    #[test]
    fn words_split_as_a_shell_splits_them() {
        let words = |line: &str| split_words(line).unwrap();
        assert_eq!(words("  a  b "), ["a", "b"]);
        assert_eq!(words(r#""my hero" 'it''s' x"y z"w"#), ["my hero", "its", "xy zw"]);
        assert_eq!(words(r#""a \"b\" \\ \n" '\n'"#), [r#"a "b" \ \n"#, r"\n"]);
        assert_eq!(words(r#""" x"#), ["", "x"]);
        assert!(split_words("'open").unwrap_err().contains("`'` is not closed"));
    }

    #[test]
    fn quoted_words_read_back_as_they_were() {
        for word in ["session.lua", "~/a b.lua", "it's", "", "$HOME", "a\"b", "-- x"] {
            assert_eq!(split_words(&quote(word)).unwrap(), [word], "{word}");
        }
        assert_eq!(quote("dir/session-1.lua"), "dir/session-1.lua");
        assert_eq!(quote("my session.lua"), "'my session.lua'");
        assert_eq!(quote("it's"), r#"'it'"'"'s'"#);
    }

    #[test]
    fn help_lists_every_command_on_one_line_each() {
        let text = help();
        for (name, _, what) in COMMANDS {
            let lines: Vec<&str> = text.lines().filter(|l| l.trim_start().split(' ').next() == Some(name)).collect();
            assert_eq!(lines.len(), 1, "{name}");
            assert!(lines[0].ends_with(what), "{name}");
        }
    }
}
