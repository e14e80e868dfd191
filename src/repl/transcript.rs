//! `:record FILE`: the session so far as a Lua script that `blendlab run` replays to the same
//! weights and event log — a REPL experiment becomes a regression script without retyping.
//!
//! Lua typed at the prompt is written verbatim but runs as the prompt ran it: a chunk of its
//! own, so its locals end with it, an expression is evaluated, and relative paths resolve
//! against the folder the session ran in — found from the script's own place (`arg[0]`) and
//! the way from its folder to the session's, so the replay runs from any working folder, and
//! in its own folder as a golden run does. Its errors name the script and the line the chunk
//! is written on, so a failing replay says which of many chunks failed. `:step` and `:frames` become
//! the `bl` calls they are sugar for. A chunk that raised an error is replayed under `pcall`,
//! since what it did before the error (a parameter set, frames run, a `reload_failed`
//! logged) is part of the session. A Lua file the REPL started with runs from the session's
//! folder too. What the replay cannot or need not redo is a comment: display commands,
//! reloads (the replay reads every file as it is when it runs), a chunk that did not parse
//! (it did nothing). A chunk that was interrupted did what its timing allowed, which no replay
//! can redo; the frames it ran are replayed (an interrupted `:step` is the common case), and
//! `:record` says the replay may differ. When Ctrl-C stopped a `bl.at` callback or a `bl.on`
//! listener inside a frame, the replay cannot run that frame again (the Lua might spin for
//! ever, with no Ctrl-C to stop it): it stops with an error after the frame before, and says
//! why. Pure text, so it is unit-tested.

use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

/// One thing the session did, in order.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Entry {
    /// Lua that ran; `error` is the message it stopped with, if it did.
    Lua { code: Code, error: Option<String> },
    /// Lua that Ctrl-C stopped after it had run `frames` logic frames; the last of them, if
    /// Ctrl-C stopped the Lua it ran (a `bl.at` callback, a `bl.on` listener) part way.
    Interrupted { code: Code, frames: i64, stopped_inside_frame: Option<i64> },
    /// Something the replay does not redo, kept as comment lines.
    Note(String),
}

/// A piece of Lua the session ran, by how the replay runs it again.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Code {
    /// Typed at the prompt, or a start-up config's `bl.load`: run as the prompt ran it.
    Chunk(String),
    /// The `bl` call of a `:command`, written as it is.
    Call(String),
    /// A Lua file the REPL started with, by the path it was given (a relative one from the
    /// session's folder).
    File(String),
}

impl Code {
    /// The Lua that replays it, written on line `line` of the script.
    fn replay(&self, line: usize) -> String {
        match self {
            Code::Chunk(code) => format!("chunk({line}, {})", long_string(code)),
            Code::Call(code) => code.clone(),
            Code::File(path) => format!("run_file({path:?})"),
        }
    }

    /// The Lua that replays it for what it did before its error, written on line `line`.
    fn replay_failed(&self, line: usize) -> String {
        match self {
            Code::Chunk(code) | Code::Call(code) => format!("failed({line}, {})", long_string(code)),
            Code::File(path) => format!("pcall(run_file, {path:?})"),
        }
    }

    /// What the session ran, for a comment.
    fn text(&self) -> String {
        match self {
            Code::Chunk(code) | Code::Call(code) => code.clone(),
            Code::File(path) => format!("the file {path}"),
        }
    }
}

/// The helpers of a replay whose session ran in `session` (the way there from the script's
/// folder): `chunk` runs Lua as the prompt does (`Host::eval`: an expression is not a tail
/// call, so `bl` sees the chunk as its caller), written on a given line of the script: the
/// chunk is named after the script in the session's folder, where `bl` resolves its relative
/// paths, and padded to start on that line, so its errors (and those of the functions it
/// defines) name the script and the line they came from — said from the script's own place
/// when the session's folder is another; `failed` replays a chunk that failed in the session
/// for what it did before its error; `run_file` runs a start-up Lua file as `Host::run_file`
/// did (`arg[0]` its path), a relative path from the session's folder. `session` is the way
/// to that folder with its `/` (nothing for the script's own folder).
fn helpers(session: &str) -> String {
    let session = if session == "." { String::new() } else { format!("{session}/") };
    format!(
        r#"local script = arg and arg[0] or "recording.lua"
local here = script:match("^(.*/)") or ""
local session = here .. {session:?}
local source = session .. script:match("[^/]*$")

local function chunk(line, code)
  local padding = string.rep("\n", line - 1)
  local expression = padding .. "return (function(...) return ... end)(" .. code .. "\n)"
  local run = load(expression, "@" .. source) or assert(load(padding .. code, "@" .. source))
  local ok, message = pcall(run)
  if not ok then
    if type(message) == "string" and message:sub(1, #source + 1) == source .. ":" then
      message = script .. message:sub(#source + 1)
    end
    error(message, 0)
  end
end

local function failed(line, code)
  pcall(chunk, line, code)
end

local function run_file(path)
  local file = path:match("^/") and path or session .. path
  arg = {{ [0] = file }}
  dofile(file)
end
"#
    )
}

/// The way from folder `from` to folder `to`, both absolute and free of `.` and `..`: `.`
/// for the same folder, else `..` up to what they share, then down.
pub(super) fn relative_path(from: &Path, to: &Path) -> PathBuf {
    let (from, to): (Vec<_>, Vec<_>) = (from.components().collect(), to.components().collect());
    let shared = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut way: PathBuf = std::iter::repeat_n(Component::ParentDir, from.len() - shared).collect();
    way.extend(&to[shared..]);
    if way.as_os_str().is_empty() { PathBuf::from(".") } else { way }
}

/// The script of `entries`: a header saying how it was made and how to run it (`file` as the
/// user named it; `folder`, the working folder of the session, is `session` from the file's
/// folder), the helpers, then each entry in order.
pub(super) fn replay_script(entries: &[Entry], file: &str, folder: &str, session: &str) -> String {
    let mut script = comment(&format!(
        "A blendlab REPL session, written by `:record {file}`.\n\
         The files the REPL started with, then everything typed at the prompt, in order.\n\
         `blendlab run {file}` replays it from any folder: the paths typed at the prompt resolve\n\
         against the folder the session ran in, {folder}, which is `{session}` from this file's\n\
         folder (keep the two where they are).\n\
         \n\
         `chunk` runs Lua as the prompt did (a chunk of its own: its locals end with it, an\n\
         expression is evaluated; its errors name this file and line); `failed` replays a chunk\n\
         that raised an error for what it did before the error; `run_file` runs a file the REPL started with. Display\n\
         commands, reloads (the replay reads every file as it is when it runs) and chunks that\n\
         did not parse are comments; of a chunk Ctrl-C interrupted, only the frames it ran are\n\
         replayed, and where Ctrl-C stopped a callback or a listener inside a frame, the replay\n\
         stops with an error after the frame before."
    ));
    script.push('\n');
    script.push_str(&helpers(session));
    script.push('\n');
    let mut written = script.matches('\n').count();
    for entry in entries {
        let text = line(entry, written + 1);
        written += text.matches('\n').count();
        script.push_str(&text);
    }
    script
}

/// One entry as Lua, written from line `at` of the script on.
fn line(entry: &Entry, at: usize) -> String {
    match entry {
        Entry::Lua { code, error: None } => format!("{}\n", code.replay(at)),
        Entry::Lua { code, error: Some(message) } => {
            let first = message.lines().next().unwrap_or("");
            let said = comment(&format!("failed in the session: {first}"));
            let code_at = at + said.matches('\n').count();
            format!("{said}{}\n", code.replay_failed(code_at))
        }
        Entry::Interrupted { code, frames, stopped_inside_frame } => {
            let stopped = comment(&format!("interrupted (Ctrl-C) in the session, not replayed:\n{}", code.text()));
            let whole = frames - i64::from(stopped_inside_frame.is_some());
            let ran = match whole {
                0 => String::new(),
                _ => format!("{}bl.frames({whole})\n", comment("the frames it ran before Ctrl-C:")),
            };
            let stop = stopped_inside_frame.map_or(String::new(), stop_inside);
            format!("{stopped}{ran}{stop}")
        }
        Entry::Note(text) => comment(text),
    }
}

/// Where a replay stops: Ctrl-C stopped a `bl.at` callback or a `bl.on` listener part way
/// through `frame`, which finished without the rest of it. Run again, that Lua could spin as
/// it did in the session (a replay has no Ctrl-C), and whatever it would do, it would not
/// stop where the session's did; what the session did next built on where it stopped. So the
/// replay raises the session's error there, after the frame before, and says why.
fn stop_inside(frame: i64) -> String {
    let why = comment(&format!(
        "Ctrl-C stopped a `bl.at` callback or a `bl.on` listener part way through frame {frame}, and that\n\
         frame finished without the rest of it. Run again, it might never end, and it would not stop\n\
         where it stopped in the session, on which all that follows built: the replay stops here,\n\
         with the session's error. What follows is what the session did next, not replayed."
    ));
    let message =
        format!("interrupted (Ctrl-C) in the session inside frame {frame}: the replay stops after frame {}", frame - 1);
    format!("{why}error({message:?})\n")
}

/// How many entries are chunks Ctrl-C interrupted (their replay may differ).
pub(super) fn interrupted(entries: &[Entry]) -> usize {
    entries.iter().filter(|e| matches!(e, Entry::Interrupted { .. })).count()
}

/// The first frame whose callback or listener Ctrl-C stopped part way, where the replay stops.
pub(super) fn replay_stops_inside(entries: &[Entry]) -> Option<i64> {
    entries.iter().find_map(|e| match e {
        Entry::Interrupted { stopped_inside_frame, .. } => *stopped_inside_frame,
        _ => None,
    })
}

/// Every line of `text` as a Lua comment.
fn comment(text: &str) -> String {
    text.lines().fold(String::new(), |mut out, line| {
        let _ = writeln!(out, "{}", format!("-- {line}").trim_end());
        out
    })
}

/// `code` as a Lua long string with the fewest `=` that `code` does not close. The spaces
/// inside the brackets keep a newline at its start and a `]` at its end in the string.
fn long_string(code: &str) -> String {
    let level = (0..).find(|&n| !code.contains(&format!("]{}]", "=".repeat(n)))).unwrap_or_default();
    let equals = "=".repeat(level);
    format!("[{equals}[ {code} ]{equals}]")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lua(code: Code, error: Option<&str>) -> Entry {
        Entry::Lua { code, error: error.map(str::to_string) }
    }

    fn chunk(code: &str) -> Code {
        Code::Chunk(code.into())
    }

    fn call(code: &str) -> Code {
        Code::Call(code.into())
    }

    #[test]
    fn long_strings_are_never_closed_by_the_code() {
        assert_eq!(long_string("x = 1"), "[[ x = 1 ]]");
        assert_eq!(long_string("t[a[1]] = 2"), "[=[ t[a[1]] = 2 ]=]");
        assert_eq!(long_string("s = [==[ ]] ]=] ]==]"), "[===[ s = [==[ ]] ]=] ]==] ]===]");
        assert_eq!(long_string("t[1]"), "[[ t[1] ]]");
    }

    #[test]
    fn entries_become_calls_chunks_replays_and_comments() {
        let entries = [
            lua(Code::File("setup.lua".into()), None),
            lua(Code::File("/abs/broken.lua".into()), Some("/abs/broken.lua:2: boom")),
            lua(chunk("bl.load(\"samples/locomotion.toml\")"), None),
            lua(call("bl.step(0.5)"), None),
            lua(chunk("function f()\n  return 1\nend"), None),
            lua(chunk("hero:set(\"speed\", 1) error(\"boom\")"), Some("stdin:1: boom\nmore")),
            lua(call("bl.frames(-1)"), Some("bl.frames: takes a whole number of frames ≥ 0, got -1")),
            Entry::Note(":weights hero".into()),
            Entry::Interrupted { code: chunk("while true do\n\nend"), frames: 0, stopped_inside_frame: None },
            Entry::Interrupted { code: call("bl.step(50000)"), frames: 2374706, stopped_inside_frame: None },
        ];
        let script = replay_script(&entries, "s.lua", "/work", "..");
        let body = script.split_once(&helpers("..")).unwrap().1;
        assert_eq!(
            body,
            "\nrun_file(\"setup.lua\")\n\
             -- failed in the session: /abs/broken.lua:2: boom\n\
             pcall(run_file, \"/abs/broken.lua\")\n\
             chunk(46, [[ bl.load(\"samples/locomotion.toml\") ]])\n\
             bl.step(0.5)\n\
             chunk(48, [[ function f()\n  return 1\nend ]])\n\
             -- failed in the session: stdin:1: boom\n\
             failed(52, [[ hero:set(\"speed\", 1) error(\"boom\") ]])\n\
             -- failed in the session: bl.frames: takes a whole number of frames ≥ 0, got -1\n\
             failed(54, [[ bl.frames(-1) ]])\n\
             -- :weights hero\n\
             -- interrupted (Ctrl-C) in the session, not replayed:\n-- while true do\n--\n-- end\n\
             -- interrupted (Ctrl-C) in the session, not replayed:\n-- bl.step(50000)\n\
             -- the frames it ran before Ctrl-C:\nbl.frames(2374706)\n"
        );
        // Each chunk is written on the line it says, where its errors point.
        let lines: Vec<&str> = script.lines().collect();
        for number in [46, 48, 52, 54] {
            let written = lines[number - 1];
            assert!(
                written.starts_with(&format!("chunk({number}, ")) || written.starts_with(&format!("failed({number}, "))
            );
        }
        assert_eq!(interrupted(&entries), 2);
        assert!(script.starts_with("-- A blendlab REPL session, written by `:record s.lua`.\n"), "{script}");
        assert!(script.contains("the folder the session ran in, /work, which is `..` from"), "{script}");
        assert!(script.contains("local session = here .. \"../\"\n"), "{script}");
        let beside = replay_script(&entries, "s.lua", "/work", ".");
        assert!(beside.contains("local session = here .. \"\"\n"), "{beside}");
    }

    #[test]
    fn a_callback_stopped_inside_a_frame_stops_the_replay_after_the_frame_before() {
        let spin = "bl.at(0.5, function() hero:set(\"speed\", 1) while true do end end)";
        let entries = [
            lua(chunk(spin), None),
            Entry::Interrupted { code: call("bl.step(1)"), frames: 30, stopped_inside_frame: Some(30) },
            lua(call("bl.frames(2)"), None),
        ];
        let script = replay_script(&entries, "s.lua", "/work", ".");
        let body = script.split_once(&helpers(".")).unwrap().1;
        let stop = body.split_once("-- interrupted (Ctrl-C) in the session, not replayed:\n-- bl.step(1)\n").unwrap().1;
        assert!(
            stop.starts_with(
                "-- the frames it ran before Ctrl-C:\nbl.frames(29)\n-- Ctrl-C stopped a `bl.at` callback"
            )
        );
        assert!(
            stop.ends_with(
                "error(\"interrupted (Ctrl-C) in the session inside frame 30: the replay stops after frame 29\")\n\
                 bl.frames(2)\n"
            ),
            "{stop}"
        );
        assert_eq!(replay_stops_inside(&entries), Some(30));
        // Stopped inside the first frame it ran: no frame to run before the stop.
        let first = [Entry::Interrupted { code: call("bl.frames(5)"), frames: 1, stopped_inside_frame: Some(1) }];
        let script = replay_script(&first, "s.lua", "/work", ".");
        assert!(!script.contains("bl.frames(0)") && script.contains("the replay stops after frame 0\")"), "{script}");
        assert_eq!(replay_stops_inside(&entries[..1]), None);
    }

    #[test]
    fn the_way_between_two_folders() {
        for (from, to, way) in [
            ("/work/main", "/work/main", "."),
            ("/work/main/tests/scripts", "/work/main", "../.."),
            ("/tmp/rec", "/work/main", "../../work/main"),
            ("/work", "/work/main/samples", "main/samples"),
            ("/", "/work", "work"),
        ] {
            assert_eq!(relative_path(Path::new(from), Path::new(to)), PathBuf::from(way), "{from} → {to}");
        }
    }
}
