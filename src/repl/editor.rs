//! The line-editor thread on a terminal: rustyline with completion (asked of the session
//! thread), hints from history, multi-line chunks through a `Validator` that uses Lua's
//! incomplete-input signal (continuation lines marked `>> `), Ctrl-C on an empty line, Ctrl-D
//! on an empty continuation line, and a history file per user that warns once if it cannot be
//! written.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use owo_colors::OwoColorize;
use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::{Hinter, HistoryHinter};
use rustyline::history::DefaultHistory;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{
    Cmd, ConditionalEventHandler, Config, Editor, Event, EventContext, EventHandler, ExternalPrinter, Helper, KeyCode,
    KeyEvent, Modifiers, RepeatCount,
};

use super::{Message, Options, Repl, Sink, install_ctrl_c, serve};
use crate::script::is_incomplete;

/// The prompt; continuation lines start with `>> ` (see [`CONTINUATION_MARK`]).
pub const PROMPT: &str = "> ";
/// How a continuation line starts inside the editor's buffer (stripped before evaluation).
const CONTINUATION_MARK: &str = "\n>> ";

/// Removes the continuation marks the terminal editor puts at the start of each extra line.
pub fn strip_continuation(input: &str) -> String {
    input.replace(CONTINUATION_MARK, "\n")
}

/// Bare `blendlab` on a terminal: the editor on its own thread, the session on this one.
pub(super) fn run(options: Options, messages: Sender<Message>, inbox: Receiver<Message>) -> Result<(), String> {
    let (printer_tx, printer_rx) = mpsc::channel();
    let (ready_tx, ready_rx) = mpsc::channel();
    let editor_messages = messages.clone();
    let history = options.history.clone();
    let color = options.style.color;
    let editor = std::thread::Builder::new()
        .name("blendlab-editor".into())
        .spawn(move || edit_lines(&editor_messages, &ready_rx, &printer_tx, history.as_deref(), color))
        .map_err(|e| e.to_string())?;
    let sink = match printer_rx.recv() {
        Ok(Ok(printer)) => Sink::Printer(Arc::new(Mutex::new(printer))),
        Ok(Err(message)) => return Err(message),
        Err(_) => return Err("the line editor did not start".into()),
    };
    let mut repl = Repl::new(sink.clone(), sink, &options, &messages)?;
    install_ctrl_c(&repl.interrupt, None)?;
    repl.load(&options.files);
    drop(messages);
    if options.measure {
        let _ = writeln!(std::io::stderr(), "measure: start → prompt in {} µs", options.started.elapsed().as_micros());
    }
    let _ = ready_tx.send(());
    serve(&mut repl, &inbox, Some(&ready_tx));
    drop(ready_tx);
    let _ = editor.join();
    Ok(())
}

thread_local! {
    /// A Lua state of the thread's own, only for syntax checks: the editor's, and the session
    /// thread's for `:record` (the session's Lua state runs code; it is not asked).
    static SYNTAX: mlua::Lua = mlua::Lua::new();
}

/// Whether `code` compiles as the prompt runs it: as an expression, or as statements.
pub(super) fn compiles(code: &str) -> bool {
    SYNTAX.with(|lua| {
        [format!("return {code}"), code.to_string()].iter().any(|text| lua.load(text).into_function().is_ok())
    })
}

/// Whether the editor should read more lines before submitting `buffer`.
fn needs_more(buffer: &str) -> bool {
    let code = strip_continuation(buffer);
    !code.trim_start().starts_with(':') && SYNTAX.with(|lua| is_incomplete(lua, &code))
}

/// Rustyline's helper: completion (asked of the session thread), hints from history,
/// multi-line validation with Lua's incomplete-input signal, dimmed hints.
struct ReplHelper {
    requests: Sender<Message>,
    hinter: HistoryHinter,
    color: bool,
}

/// How long completion waits for the session (busy only while a reload runs).
const COMPLETION_WAIT: Duration = Duration::from_millis(500);

impl Completer for ReplHelper {
    type Candidate = Pair;

    fn complete(&self, line: &str, pos: usize, _: &rustyline::Context<'_>) -> rustyline::Result<(usize, Vec<Pair>)> {
        let (reply, answer) = mpsc::channel();
        let line = strip_continuation(line);
        let pos = pos.min(line.len());
        if self.requests.send(Message::Complete { line, pos, reply }).is_err() {
            return Ok((pos, Vec::new()));
        }
        Ok(answer.recv_timeout(COMPLETION_WAIT).unwrap_or((pos, Vec::new())))
    }
}

impl Hinter for ReplHelper {
    type Hint = String;

    fn hint(&self, line: &str, pos: usize, ctx: &rustyline::Context<'_>) -> Option<String> {
        self.hinter.hint(line, pos, ctx)
    }
}

impl Highlighter for ReplHelper {
    fn highlight_hint<'h>(&self, hint: &'h str) -> std::borrow::Cow<'h, str> {
        if self.color { hint.dimmed().to_string().into() } else { hint.into() }
    }
}

impl Validator for ReplHelper {
    fn validate(&self, ctx: &mut ValidationContext) -> rustyline::Result<ValidationResult> {
        Ok(if needs_more(ctx.input()) { ValidationResult::Incomplete } else { ValidationResult::Valid(None) })
    }
}

impl Helper for ReplHelper {}

/// Enter at the end of an incomplete chunk starts a continuation line marked `>> `.
struct ContinueChunk;

impl ConditionalEventHandler for ContinueChunk {
    fn handle(&self, _: &Event, _: RepeatCount, _: bool, ctx: &EventContext) -> Option<Cmd> {
        (ctx.pos() == ctx.line().len() && needs_more(ctx.line())).then(|| Cmd::Insert(1, CONTINUATION_MARK.into()))
    }
}

/// Ctrl-D on an empty continuation line (the cursor after its `>> `) ends the chunk there,
/// unfinished, as the standalone `lua` does: the chunk is submitted with the flag set, and
/// the session reports its error (`'end' expected near <eof>`) and prompts again. Elsewhere
/// Ctrl-D keeps its meaning: leave on an empty first line, delete a character otherwise.
struct CtrlD(Arc<AtomicBool>);

impl ConditionalEventHandler for CtrlD {
    fn handle(&self, _: &Event, _: RepeatCount, _: bool, ctx: &EventContext) -> Option<Cmd> {
        let ends = ctx.pos() == ctx.line().len() && ctx.line().ends_with(CONTINUATION_MARK);
        self.0.store(ends, Ordering::Relaxed);
        ends.then_some(Cmd::AcceptLine)
    }
}

/// Remembers whether Ctrl-C came on an empty line (twice in a row leaves).
struct CtrlC(Arc<AtomicBool>);

impl ConditionalEventHandler for CtrlC {
    fn handle(&self, _: &Event, _: RepeatCount, _: bool, ctx: &EventContext) -> Option<Cmd> {
        self.0.store(ctx.line().is_empty(), Ordering::Relaxed);
        None
    }
}

type Startup = Result<Box<dyn ExternalPrinter + Send>, String>;
type LineEditor = Editor<ReplHelper, DefaultHistory>;

/// What the editor's key bindings tell its loop: Ctrl-C came on an empty line; Ctrl-D ended
/// an unfinished chunk.
struct Keys {
    empty_line: Arc<AtomicBool>,
    unfinished: Arc<AtomicBool>,
}

/// A configured editor and the flags its Ctrl-C and Ctrl-D bindings set.
fn new_editor(messages: &Sender<Message>, color: bool) -> rustyline::Result<(LineEditor, Keys)> {
    let config = Config::builder()
        .auto_add_history(false)
        .completion_type(rustyline::CompletionType::List)
        .color_mode(if color { rustyline::ColorMode::Enabled } else { rustyline::ColorMode::Disabled })
        .build();
    let mut editor = Editor::with_config(config)?;
    editor.set_helper(Some(ReplHelper { requests: messages.clone(), hinter: HistoryHinter::new(), color }));
    let keys = Keys { empty_line: Arc::default(), unfinished: Arc::default() };
    editor.bind_sequence(KeyEvent(KeyCode::Enter, Modifiers::NONE), EventHandler::Conditional(Box::new(ContinueChunk)));
    editor.bind_sequence(KeyEvent::ctrl('C'), EventHandler::Conditional(Box::new(CtrlC(keys.empty_line.clone()))));
    editor.bind_sequence(KeyEvent::ctrl('D'), EventHandler::Conditional(Box::new(CtrlD(keys.unfinished.clone()))));
    Ok((editor, keys))
}

/// The editor thread: hands the session a printer, then reads a chunk, sends it, and waits
/// until the session is ready again, until Ctrl-D, Ctrl-C twice on an empty line or `:quit`.
fn edit_lines(
    messages: &Sender<Message>,
    ready: &Receiver<()>,
    startup: &Sender<Startup>,
    history: Option<&Path>,
    color: bool,
) {
    let started = new_editor(messages, color).and_then(|(mut editor, keys)| {
        let printers = (editor.create_external_printer()?, editor.create_external_printer()?);
        Ok((editor, keys, printers))
    });
    let (mut editor, keys, (printer, mut own_printer)) = match started {
        Ok(started) => started,
        Err(e) => return drop(startup.send(Err(format!("cannot start the line editor: {e}")))),
    };
    if startup.send(Ok(Box::new(printer))).is_err() || ready.recv().is_err() {
        return;
    }
    let mut history = History::open(&mut editor, history);
    // The editor's own notes, each a line of its own: the next prompt clears the line it
    // starts on.
    let mut note = |text: String| drop(own_printer.print(format!("{text}\n")));
    let mut interrupts_on_empty = 0;
    loop {
        match editor.readline(PROMPT) {
            Ok(chunk) => {
                interrupts_on_empty = 0;
                let unfinished = keys.unfinished.swap(false, Ordering::Relaxed);
                let chunk = if unfinished { chunk.trim_end_matches(CONTINUATION_MARK).to_string() } else { chunk };
                if let Some(warning) = history.add(&mut editor, &chunk) {
                    note(warning);
                }
                let message = if unfinished { Message::Unfinished(chunk) } else { Message::Line(chunk) };
                if messages.send(message).is_err() || ready.recv().is_err() {
                    return;
                }
            }
            Err(ReadlineError::Interrupted) if keys.empty_line.load(Ordering::Relaxed) => {
                interrupts_on_empty += 1;
                if interrupts_on_empty >= 2 {
                    break;
                }
                note("(Ctrl-C again or Ctrl-D to leave)".into());
            }
            Err(ReadlineError::Interrupted) => interrupts_on_empty = 0,
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                note(format!("error: the line editor stopped: {e}"));
                break;
            }
        }
    }
    let _ = messages.send(Message::Quit);
}

/// History kept in a file per user; a file that cannot be written warns once.
struct History<'p> {
    path: Option<&'p Path>,
    warned: bool,
}

impl<'p> History<'p> {
    fn open(editor: &mut LineEditor, path: Option<&'p Path>) -> Self {
        if let Some(path) = path {
            let _ = editor.load_history(path); // a missing file is a first session
        }
        History { path, warned: false }
    }

    /// Records `chunk`; returns a warning the first time the file cannot be written.
    fn add(&mut self, editor: &mut LineEditor, chunk: &str) -> Option<String> {
        if chunk.trim().is_empty() || editor.add_history_entry(chunk).is_err() {
            return None;
        }
        let path = self.path?;
        match editor.append_history(path) {
            Err(e) if !self.warned => {
                self.warned = true;
                Some(format!("warning: cannot save history to {}: {e} (history stays in memory)", path.display()))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuation_marks_are_stripped() {
        assert_eq!(strip_continuation("for i = 1, 2 do\n>> print(i)\n>> end"), "for i = 1, 2 do\nprint(i)\nend");
    }

    #[test]
    fn chunks_compile_as_expressions_or_statements() {
        for code in ["1 + 1", "x = 1", "hero:weights().walk", "bl.step(1) -- a second"] {
            assert!(compiles(code), "{code}");
        }
        for code in ["x = = 1", "function f(", "1 +"] {
            assert!(!compiles(code), "{code}");
        }
    }

    #[test]
    fn incomplete_chunks_read_on_like_lua() {
        for code in ["function f()", "x = {", "if true then", "s = [[", "for i = 1, 2 do\n>> print(i)"] {
            assert!(needs_more(code), "{code}");
        }
        for code in ["1 +", "x = 1", "print(", ":step 1", "end", "x = }"] {
            assert_eq!(needs_more(code), code == "print(", "{code}");
        }
    }

    #[test]
    fn a_short_string_left_open_is_an_error_at_once_unless_its_line_carries_on() {
        for code in [r#"hero:get("spe"#, "x = 'a", r#"print("a\\"#] {
            assert!(!needs_more(code), "{code}");
        }
        for code in [r#"s = "one\"#, r#"s = "one\z"#, "s = [==[ a", "--[[ a comment", "s = [[\n>> a"] {
            assert!(needs_more(code), "{code}");
        }
    }
}
