//! The interactive front end: a Lua prompt over one session, with `:commands`, live event
//! lines, Ctrl-C interrupts and hot reload. This is where tech artists spend their day, so
//! no error ever leaves it: a bad line, a broken config or a runaway loop print and return to
//! the prompt with the session intact.
//!
//! Threads: the session (and its Lua state, which is not `Send`) lives on the calling thread
//! and reacts to [`Message`]s. The line editor (rustyline on a terminal, plain lines
//! otherwise) and the file watcher are other threads that send them. On a terminal,
//! everything the session prints goes through rustyline's external printer, so a reload
//! report appears above the prompt without garbling the line being typed.
//!
//! The session side also remembers what it did: each actor's recent weights (for `:plot`)
//! and every input in order (for `:record`).

mod commands;
mod editor;
mod transcript;

use std::cell::RefCell;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime};

use owo_colors::OwoColorize;
use rustyline::ExternalPrinter;
use rustyline::completion::Pair;

use crate::event::KIND_NAMES;
use crate::report::{Reader, Style, event_line, graph_view, reload_failure, reload_report, sparklines, weight_table};
use crate::script::files::write_atomically;
use crate::script::{Host, Output, Reload, ScriptError, check_kind};
use crate::session::Session;
use crate::watch::Watcher;

pub use commands::{COMMANDS, Command, Target, completion_target, help, parse_command};
use commands::{HISTORY_FRAMES, KEYWORDS, argument_candidates, quote};
use editor::compiles;
pub use editor::strip_continuation;
use transcript::{Code, Entry, interrupted, relative_path, replay_script, replay_stops_inside};

/// Event kinds not printed live by default: one line per actor per frame is noise.
const QUIET_KINDS: &[&str] = &["clip_tick"];
/// Said when `clip_tick` goes live while ticks are not traced. `:watch` does not turn tracing
/// on itself: it only chooses what prints, and tracing changes the event log, which a
/// `:record` replay (where `:watch` is a comment) must end with as the session did.
const TICKS_UNTRACED: &str = "clip_tick events are logged only while tick tracing is on: bl.trace_ticks(true)";
/// Said after a `:step` that ran no frame because the clock is paused.
const PAUSED: &str = "the clock is paused, so :step ran no frame; bl.pause(false) resumes it (:frames N runs frames)";
/// How wide `:plot`'s lines may be off a terminal (piped, in goldens): a fixed width keeps its
/// output the same everywhere.
const PLOT_COLUMNS: usize = 80;
/// `:events` prints at most this many of the latest matching events.
const EVENTS_SHOWN: usize = 200;

/// What the session thread hears.
pub enum Message {
    /// A line (or, from the terminal editor, a whole multi-line chunk) to evaluate.
    Line(String),
    /// A chunk Ctrl-D ended on an empty continuation line: evaluated as it is, so its error
    /// is reported, as the standalone `lua` does.
    Unfinished(String),
    /// Tab completion for `line` at byte `pos`: the start of the word and the candidates.
    Complete { line: String, pos: usize, reply: Sender<(usize, Vec<Pair>)> },
    /// Watched files changed (debounced), by loaded name.
    Changed(Vec<String>),
    /// Ctrl-C's signal came with plain input (where Ctrl-C is always a signal).
    Interrupted,
    /// End of input: Ctrl-D, Ctrl-C twice, or the end of piped input.
    Quit,
}

/// How the REPL starts.
pub struct Options {
    /// TOML configs and Lua scripts to load first.
    pub files: Vec<PathBuf>,
    /// Colour of standard output and of standard error.
    pub style: Style,
    pub err_style: Style,
    /// Whether standard input is a terminal (rustyline) or lines to read plainly.
    pub terminal: bool,
    /// Where history is kept; `None` keeps it in memory only.
    pub history: Option<PathBuf>,
    /// Print timings (start → prompt, save → live) on standard error.
    pub measure: bool,
    /// When the process started, for `measure`.
    pub started: Instant,
}

/// A `Write` that hands complete lines to where the REPL prints: standard output or error,
/// or (on a terminal) rustyline's external printer. Clones share the line not yet ended, so
/// the host's console and the REPL's own are one stream: what a chunk writes and the result
/// printed after it stay in order, and the REPL can end the line a chunk left open.
#[derive(Clone)]
struct Console {
    sink: Sink,
    pending: Rc<RefCell<Vec<u8>>>,
}

pub(crate) type Printer = Arc<Mutex<Box<dyn ExternalPrinter + Send>>>;

#[derive(Clone)]
pub(crate) enum Sink {
    Stdout,
    Stderr,
    Printer(Printer),
}

impl Console {
    fn new(sink: Sink) -> Self {
        Console { sink, pending: Rc::default() }
    }

    fn emit(&mut self, bytes: Vec<u8>) -> std::io::Result<()> {
        match &self.sink {
            Sink::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(&bytes)?;
                out.flush()
            }
            Sink::Stderr => std::io::stderr().write_all(&bytes),
            Sink::Printer(printer) => {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                printer.lock().expect("the printer is never poisoned").print(text).map_err(std::io::Error::other)
            }
        }
    }

    /// Prints the line a chunk left open (`io.write("zzz")`), ended: a chunk's output shows
    /// when the chunk ends, as the standalone `lua` shows it, and what comes next (the
    /// chunk's result, the prompt) starts a line of its own instead of being glued to it.
    fn end_line(&mut self) -> std::io::Result<()> {
        if self.pending.borrow().is_empty() {
            return Ok(());
        }
        self.write_all(b"\n")
    }
}

impl Write for Console {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let lines = {
            let mut pending = self.pending.borrow_mut();
            pending.extend_from_slice(buf);
            match pending.iter().rposition(|&b| b == b'\n') {
                Some(end) => pending.drain(..=end).collect(),
                None => Vec::new(),
            }
        };
        if !lines.is_empty() {
            self.emit(lines)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let rest = std::mem::take(&mut *self.pending.borrow_mut());
        if !rest.is_empty() {
            self.emit(rest)?;
        }
        Ok(())
    }
}

/// Why a unit of work did not finish: its error (already reported), whether Ctrl-C stopped
/// it, and the frame whose Lua (a callback, a listener) it stopped part way, if it did.
struct Failure {
    message: String,
    interrupted: bool,
    stopped_inside_frame: Option<i64>,
}

/// Whether the REPL goes on after an input.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// The session side of the REPL.
pub(crate) struct Repl {
    host: Host,
    out: Console,
    err: Console,
    err_style: Style,
    pub(crate) interrupt: Arc<AtomicBool>,
    watcher: Option<Watcher>,
    /// Lines of an incomplete chunk read so far (plain input).
    pending: String,
    measure: bool,
    /// Each actor's `:plot` history, by actor id: an index for `Host::with_recording`.
    histories: Vec<usize>,
    /// What the session did, in order, for `:record`.
    transcript: Vec<Entry>,
    /// Whether a person types at a prompt (`false`: `run --watch`, which only follows files).
    prompt: bool,
    /// The files `:record` wrote (by [`identity`]): the only existing files it overwrites.
    recorded: Vec<PathBuf>,
}

impl Repl {
    pub(crate) fn new(out: Sink, err: Sink, options: &Options, messages: &Sender<Message>) -> Result<Repl, String> {
        let (out, err) = (Console::new(out), Console::new(err));
        let host = Host::new(Output { out: Box::new(out.clone()), err: Box::new(err.clone()), style: options.style })
            .map_err(|e| e.message)?;
        let interrupt = host.enable_interrupts().map_err(|e| e.message)?;
        for kind in KIND_NAMES.iter().filter(|k| !QUIET_KINDS.contains(k)) {
            host.set_live(kind, true)?;
        }
        let changes = messages.clone();
        let mut repl = Repl {
            host,
            out,
            err,
            err_style: options.err_style,
            interrupt,
            watcher: None,
            pending: String::new(),
            measure: options.measure,
            histories: Vec::new(),
            transcript: Vec::new(),
            prompt: true,
            recorded: Vec::new(),
        };
        match Watcher::start(move |files| {
            let _ = changes.send(Message::Changed(files));
        }) {
            Ok(watcher) => repl.watcher = Some(watcher),
            Err(e) => repl.error(&format!("{e}; hot reload is off")),
        }
        Ok(repl)
    }

    /// Prints `text` as one message, so on a terminal it lands above the prompt in one piece.
    fn say(&mut self, text: &str) {
        let _ = self.out.write_all(format!("{}\n", text.trim_end_matches('\n')).as_bytes());
    }

    fn error(&mut self, message: &str) {
        let label = if self.err_style.color { "error:".red().bold().to_string() } else { "error:".to_string() };
        let _ = self.err.write_all(format!("{label} {}\n", message.trim_end_matches('\n')).as_bytes());
    }

    fn note(&mut self, message: &str) {
        let text = if self.host.style().color { message.dimmed().to_string() } else { message.to_string() };
        self.say(&text);
    }

    /// Loads config files in one build, as `bl.load{ … }` does (and the transcript says).
    fn load_together(&mut self, files: &[PathBuf]) {
        let list = files.iter().map(|f| format!("{:?}", f.display().to_string())).collect::<Vec<_>>().join(", ");
        self.logged(Code::Chunk(format!("bl.load({{ {list} }})")), |host| host.load_configs(files));
    }

    /// Loads the files given on the command line — a folder's `*.toml` files, as `check` takes
    /// them; TOML files given one after the other load in one build when they make a library
    /// together (they may refer to each other, in any order), else one by one, so that a broken
    /// one holds no other back. A failure is reported, not fatal (a config that fails is watched
    /// and loaded once a save fixes it). The transcript gets the Lua that loads them the same
    /// way.
    pub(crate) fn load(&mut self, files: &[PathBuf]) {
        let mut listed = Vec::new();
        for file in files {
            if !file.is_dir() {
                listed.push(file.clone());
                continue;
            }
            match crate::script::headless::find_files(std::slice::from_ref(file), "toml") {
                Ok(found) => listed.extend(found),
                Err(message) => self.error(&message),
            }
        }
        let is_lua = |file: &PathBuf| file.extension().is_some_and(|e| e == "lua");
        for group in listed.chunk_by(|a, b| is_lua(a) == is_lua(b)) {
            if is_lua(&group[0]) {
                for file in group {
                    self.logged(Code::File(file.display().to_string()), |host| host.run_file(file, &[]));
                }
            } else if group.len() > 1 && self.host.loads_together(group) {
                self.load_together(group);
            } else {
                // The files without errors of their own may still make a library together.
                let (sound, broken): (Vec<PathBuf>, Vec<PathBuf>) =
                    group.iter().cloned().partition(|file| Host::reads_cleanly(file));
                let together = sound.len() > 1 && !broken.is_empty() && self.host.loads_together(&sound);
                if together {
                    self.load_together(&sound);
                }
                for file in if together { &broken } else { group } {
                    let load = format!("bl.load({:?})", file.display().to_string());
                    self.logged(Code::Chunk(load), |host| host.load_config(file));
                }
            }
        }
    }

    /// Runs one unit of work with interrupts armed; ends the lines it left open and reports
    /// its error, then prints pending events and follows newly loaded files and new actors.
    fn job<T>(&mut self, work: impl FnOnce(&Host) -> Result<T, ScriptError>) -> Result<T, Failure> {
        self.interrupt.store(false, Ordering::Relaxed);
        let result = work(&self.host);
        // A Ctrl-C that came too late to stop the work (it ended well) stays pending: it is a
        // Ctrl-C at the idle prompt, which `interrupted` answers once its message arrives.
        let interrupted = result.is_err() && self.interrupt.swap(false, Ordering::Relaxed);
        let stopped_inside_frame = self.host.take_stopped_inside_frame();
        self.end_lines();
        let result = result.map_err(|e| {
            // The events logged before the error (those of a frame whose callback failed,
            // which finished without it) print before the error does.
            self.flush_events();
            self.error(&e.message);
            Failure { message: e.message, interrupted, stopped_inside_frame }
        });
        self.after_job();
        result
    }

    /// A [`Repl::job`] that runs Lua `code` and adds it to the transcript. A chunk that did
    /// not parse is only a comment there (it did nothing); of one that was interrupted, the
    /// transcript keeps the frames it ran.
    fn logged<T>(&mut self, code: Code, work: impl FnOnce(&Host) -> Result<T, ScriptError>) -> Option<T> {
        let frame = self.frame();
        let result = self.job(work);
        let entry = match (&result, code) {
            (Ok(_), code) => Entry::Lua { code, error: None },
            (Err(f), code) if f.interrupted => {
                Entry::Interrupted { code, frames: self.frame() - frame, stopped_inside_frame: f.stopped_inside_frame }
            }
            (Err(f), Code::Chunk(text)) if !compiles(&text) => {
                Entry::Note(format!("did not parse ({}), not run:\n{text}", f.message))
            }
            (Err(f), code) => Entry::Lua { code, error: Some(f.message.clone()) },
        };
        self.transcript.push(entry);
        result.ok()
    }

    /// The session's logic frame.
    fn frame(&self) -> i64 {
        self.host.with_session(|session| session.clock().frame())
    }

    /// Prints the events not printed yet (and hands them to the listeners), then ends the
    /// lines that left open.
    fn flush_events(&mut self) {
        if let Err(e) = self.host.flush_events() {
            self.error(&e.message);
        }
        self.end_lines();
    }

    fn after_job(&mut self) {
        self.flush_events();
        self.follow_actors();
        if let Some(watcher) = &mut self.watcher {
            let mut files = self.host.watched_files();
            files.extend(self.host.unloaded_configs());
            for problem in watcher.follow(&files) {
                self.error(&problem);
            }
        }
    }

    /// Ends the lines the last unit of work left open (see [`Console::end_line`]), before
    /// its error or the events it logged print.
    fn end_lines(&mut self) {
        let _ = self.out.end_line();
        let _ = self.err.end_line();
    }

    /// Starts a `:plot` history for every actor that has none yet (actors are never removed,
    /// so the histories line up with actor ids).
    fn follow_actors(&mut self) {
        let actors = self.host.with_session(|session| session.actors().len());
        for id in self.histories.len()..actors {
            let history = self.host.keep_history(id, HISTORY_FRAMES);
            self.histories.push(history);
        }
    }

    /// One line of input: a `:command`, or Lua (read on while the chunk is incomplete).
    fn line(&mut self, line: &str) -> Flow {
        let code = strip_continuation(line);
        if self.pending.is_empty() && code.trim_start().starts_with(':') {
            return match parse_command(code.trim()) {
                Ok(command) => self.command(command, code.trim()),
                Err(message) => {
                    self.error(&message);
                    self.transcript.push(Entry::Note(format!("{} (not run: {message})", code.trim())));
                    Flow::Continue
                }
            };
        }
        let chunk = if self.pending.is_empty() { code } else { format!("{}\n{code}", self.pending) };
        // A `:command` on the line after an unfinished chunk (which it cannot finish): the
        // chunk ends there, with its error, and the command runs as on a line of its own.
        if let Some((unfinished, command)) = chunk.rsplit_once('\n')
            && command.trim_start().starts_with(':')
            && self.host.is_incomplete(unfinished)
            && !self.host.is_incomplete(&chunk)
            && !self.host.compiles(&chunk)
        {
            let (unfinished, command) = (unfinished.to_string(), command.to_string());
            self.pending.clear();
            self.eval(&unfinished);
            return self.line(&command);
        }
        if self.host.is_incomplete(&chunk) {
            self.pending = chunk;
            return Flow::Continue;
        }
        self.pending.clear();
        self.eval(&chunk);
        Flow::Continue
    }

    /// End of input: an incomplete chunk left over is evaluated to report its error.
    fn finish(&mut self) {
        if !self.pending.is_empty() {
            let chunk = std::mem::take(&mut self.pending);
            self.eval(&chunk);
        }
    }

    fn eval(&mut self, code: &str) {
        if code.trim().is_empty() {
            return;
        }
        if let Some(values) = self.logged(Code::Chunk(code.to_string()), |host| host.eval(code))
            && !values.is_empty()
        {
            self.say(&values.join("\t"));
        }
    }

    /// Runs a `:command` (`text` as typed); the transcript gets `:step` and `:frames` as
    /// their `bl` calls and every other command as a comment.
    fn command(&mut self, command: Command, text: &str) -> Flow {
        let note = match &command {
            Command::Step(_) | Command::Frames(_) => None,
            Command::Reload => Some(format!("{text}: configs re-read, changed Lua files re-run here (not replayed)")),
            _ => Some(text.to_string()),
        };
        match command {
            Command::Step(seconds) => {
                self.call_bl("step", seconds);
                if seconds > 0.0 && self.host.with_session(|session| session.clock().paused()) {
                    self.note(PAUSED);
                }
            }
            Command::Frames(n) => self.call_bl("frames", n),
            Command::Weights(actor) => self.view(actor.as_deref(), weight_table),
            Command::Graph(actor) => self.view(Some(&actor), graph_view),
            Command::Events(kinds) => self.events(&kinds),
            Command::Watch(switch) => self.watch(switch),
            Command::Plot { actor, frames } => self.plot(&actor, frames),
            Command::Record(path) => self.record(&path),
            Command::Reload => self.reload_all(),
            Command::Help => self.say(&help()),
            Command::Quit => return Flow::Quit,
        }
        if let Some(note) = note {
            self.transcript.push(Entry::Note(note));
        }
        Flow::Continue
    }

    /// `:step` and `:frames`: the `bl` call they are sugar for, logged as that call.
    fn call_bl(&mut self, name: &str, argument: f64) {
        self.logged(Code::Call(format!("bl.{name}({argument})")), |host| host.call_bl(name, argument));
    }

    /// Prints `view` (the weight table, the graph) of one actor, or of every actor.
    fn view(&mut self, actor: Option<&str>, view: fn(&Session, usize, Style) -> String) {
        let style = self.host.style();
        let tables = self.host.with_session(|session| -> Result<String, String> {
            let ids = match actor {
                Some(name) => vec![session.find_actor(name).map_err(|e| e.to_string())?],
                None => (0..session.actors().len()).collect(),
            };
            Ok(ids.into_iter().map(|id| view(session, id, style)).collect::<Vec<_>>().join("\n"))
        });
        match tables {
            Ok(text) if text.is_empty() => self.note("no actors yet: bl.spawn(name, { blend_tree = … }) makes one"),
            Ok(text) => self.say(&text),
            Err(message) => self.error(&message),
        }
    }

    /// `:plot`: sparklines of the actor's latest `frames` frames (at most the history's).
    fn plot(&mut self, actor: &str, frames: usize) {
        self.follow_actors();
        let found = self.host.with_session(|session| session.find_actor(actor).map_err(|e| e.to_string()));
        let history = match found {
            Ok(id) => self.histories[id],
            Err(message) => return self.error(&message),
        };
        let style = self.host.style();
        let columns = terminal_columns().unwrap_or(PLOT_COLUMNS);
        match self.host.with_recording(history, |h| sparklines(h, frames.min(HISTORY_FRAMES), columns, style)) {
            Some(text) => self.say(&text),
            None => self.note(&format!(
                "no frames of {actor} yet: its history starts after the chunk that spawned it; try :step 1"
            )),
        }
    }

    /// `:record`: the transcript as a Lua script, written whole or not at all, at `path` (a
    /// leading `~/` is the home folder).
    fn record(&mut self, path: &str) {
        let path = match home_expanded(path) {
            Ok(path) => path,
            Err(message) => return self.error(&format!(":record: {message}")),
        };
        let folder = match std::env::current_dir() {
            Ok(folder) => folder,
            Err(e) => return self.error(&format!(":record: cannot tell the working folder: {e}")),
        };
        if let Some(why) = self.refuse_to_record(Path::new(&path)) {
            return self.error(&format!(":record: {why}"));
        }
        let file = crate::script::normalize(&folder.join(&path));
        let session = relative_path(file.parent().unwrap_or(Path::new("/")), &folder);
        // As a shell (and a `:command`) reads it back.
        let quoted = quote(&path);
        let script =
            replay_script(&self.transcript, &quoted, &folder.display().to_string(), &session.display().to_string());
        match write_atomically(Path::new(&path), &script) {
            Ok(()) => {
                self.recorded.push(identity(Path::new(&path)));
                self.note(&format!("wrote {path}; `blendlab run {quoted}` replays the session from any folder"));
                match interrupted(&self.transcript) {
                    0 => {}
                    n => self.note(&format!(
                        "{n} chunk(s) were interrupted (Ctrl-C): the replay runs the frames they ran, not the \
                         rest of what they did, so its weights and events may differ from the session's"
                    )),
                }
                if let Some(frame) = replay_stops_inside(&self.transcript) {
                    self.note(&format!(
                        "the replay stops with an error after frame {}: Ctrl-C stopped a callback or a listener \
                         inside frame {frame}, which might never end if run again",
                        frame - 1
                    ));
                }
            }
            Err(e) => self.error(&format!(":record: cannot write {path}: {e}")),
        }
    }

    /// Why `:record` must not write `path`, if it must not: a recording is a Lua script, so
    /// not a `.toml` config or an `.out` golden (`blendlab run` refuses both); and it never
    /// overwrites a file it did not write itself in this session — a config the session
    /// loaded, the Lua file it ran (its replay would run itself for ever), anything else.
    /// Devices and pipes (`/dev/stdout`) are written to as ever.
    fn refuse_to_record(&self, path: &Path) -> Option<String> {
        let shown = path.display();
        let target = identity(path);
        let mut known = self.host.watched_files();
        known.extend(self.host.unloaded_configs());
        if let Some(file) = known.iter().find(|f| identity(Path::new(f)) == target) {
            let what =
                if self.host.is_script(file) { "a Lua file this session ran" } else { "a config this session loaded" };
            return Some(format!("{shown} is {what} ({file}): :record never overwrites it; name a new file"));
        }
        if let Some(kind @ ("toml" | "out")) = path.extension().and_then(|e| e.to_str()) {
            let what = if kind == "toml" { "a TOML config" } else { "a golden file" };
            return Some(format!(
                "{shown} would be {what} by its name, and `blendlab run` refuses one; a recording is a Lua \
                 script: name it NAME.lua"
            ));
        }
        let existing = std::fs::metadata(path).is_ok_and(|m| m.is_file());
        if existing && !self.recorded.contains(&target) {
            return Some(format!(
                "{shown} exists and this session did not write it: :record writes a new file (or one an \
                 earlier :record of this session wrote), so nothing was overwritten"
            ));
        }
        None
    }

    fn events(&mut self, kinds: &[String]) {
        if let Err(message) = kinds.iter().try_for_each(|k| check_kind(k)) {
            return self.error(&message);
        }
        let style = self.host.style();
        let lines = self.host.with_session(|session: &Session| {
            let matching: Vec<_> = session
                .events()
                .iter()
                .filter(|e| kinds.is_empty() || kinds.iter().any(|k| k == e.kind.name()))
                .collect();
            let skipped = matching.len().saturating_sub(EVENTS_SHOWN);
            let mut lines: Vec<String> =
                matching[skipped..].iter().map(|e| event_line(e, session.events().actor_name(e), style)).collect();
            if skipped > 0 {
                lines.insert(0, format!("… {skipped} earlier events (bl.events() has them all)"));
            }
            lines
        });
        match (lines.is_empty(), kinds) {
            (false, _) => self.say(&lines.join("\n")),
            (true, []) => self.note("no events yet"),
            (true, kinds) => self.note(&format!("no {} events yet", kinds.join(" or "))),
        }
    }

    fn watch(&mut self, switch: Option<(String, bool)>) {
        match switch {
            None => {
                let live = self.host.live_kinds();
                let text = if live.is_empty() { "(none)".to_string() } else { live.join(" ") };
                self.say(&format!("live: {text}"));
            }
            Some((kind, on)) => {
                let kinds: Vec<&str> = if kind == "all" { KIND_NAMES.to_vec() } else { vec![kind.as_str()] };
                for kind in &kinds {
                    if let Err(message) = self.host.set_live(kind, on) {
                        return self.error(&message);
                    }
                }
                if on && kinds.contains(&"clip_tick") && !self.host.with_session(Session::traces_ticks) {
                    self.note(TICKS_UNTRACED);
                }
            }
        }
    }

    /// `:reload`: configs a load failed for, every loaded config now, then the Lua files
    /// whose text changed. The library stays only when no Lua file re-runs: a re-run may load
    /// configs itself, so then the note says no more than that the configs are unchanged.
    fn reload_all(&mut self) {
        let unloaded = self.host.unloaded_configs();
        self.load_unloaded(&unloaded);
        let configs: Vec<String> = self.host.watched_files().into_iter().filter(|f| !self.host.is_script(f)).collect();
        let scripts = self.host.changed_scripts();
        if !configs.is_empty() && !self.reload_configs(&configs, true) {
            self.note(if scripts.is_empty() {
                "configs unchanged on disk: the live library stays"
            } else {
                "configs unchanged on disk"
            });
        }
        if unloaded.is_empty() && configs.is_empty() && scripts.is_empty() {
            self.note("nothing to reload: no config loaded and no Lua file changed");
        }
        for path in scripts {
            if self.job(|host| host.rerun_script(&path)).is_ok() {
                self.note(&format!("re-ran {path}"));
            }
        }
    }

    /// Loads each of `files`, configs a load failed for; the transcript notes each that loads.
    fn load_unloaded(&mut self, files: &[String]) {
        for file in files {
            if self.job(|host| host.load_config(Path::new(file))).is_ok() {
                self.transcript.push(Entry::Note(format!("{file} loaded here, once a save fixed it (not replayed)")));
            }
        }
    }

    /// Watched files changed on disk: configs reload now (configs a load failed for load);
    /// Lua files wait for `:reload`.
    fn files_changed(&mut self, files: Vec<String>) {
        let unloaded = self.host.unloaded_configs();
        let (unloaded, files): (Vec<String>, Vec<String>) = files.into_iter().partition(|f| unloaded.contains(f));
        self.load_unloaded(&unloaded);
        let (scripts, configs): (Vec<String>, Vec<String>) = files.into_iter().partition(|f| self.host.is_script(f));
        if !configs.is_empty() {
            let saved = latest_modification(&configs);
            self.reload_configs(&configs, false);
            if self.measure
                && let Some(saved) = saved
            {
                let live = SystemTime::now().duration_since(saved).unwrap_or_default();
                let _ = writeln!(std::io::stderr(), "measure: saved → live in {} ms", live.as_millis());
            }
        }
        for script in scripts {
            let again =
                if self.prompt { ":reload re-runs it" } else { "run `blendlab run --watch` again to re-run it" };
            self.note(&format!("{script} changed; {again}"));
        }
    }

    /// Reloads `configs` and prints what it did; returns whether they differed from the live
    /// library (false: they read the same, and nothing happened).
    fn reload_configs(&mut self, configs: &[String], forced: bool) -> bool {
        let differed = match self.host.reload_configs(configs) {
            Reload::Unchanged => false,
            Reload::Applied { changes } => {
                let _ = self.host.flush_events();
                let reader = if self.prompt { Reader::Prompt } else { Reader::Watch };
                self.say(&reload_report(&changes, self.host.style(), reader));
                self.note_save(configs, forced);
                true
            }
            Reload::Failed { errors, generation, diagnostics } => {
                let _ = self.host.flush_events();
                self.error(&format!("{}\n{diagnostics}", reload_failure(errors, generation)));
                self.note_save(configs, forced);
                true
            }
        };
        self.after_job();
        differed
    }

    /// A reload after a save, for the transcript (`:reload` notes itself).
    fn note_save(&mut self, configs: &[String], forced: bool) {
        if !forced {
            self.transcript
                .push(Entry::Note(format!("reloaded here after a save: {} (not replayed)", configs.join(", "))));
        }
    }

    /// Ctrl-C's signal with plain input: if it found the session idle (the flag is still set:
    /// no chunk has run since to take it), the next one leaves, so say so. One that stopped a
    /// chunk was taken by it, and the chunk's error said so.
    fn interrupted(&mut self) {
        if self.interrupt.load(Ordering::Relaxed) {
            let _ = self.err.write_all(b"(Ctrl-C again or :quit to leave)\n");
        }
    }

    /// Tab completion: the start of the word being completed and the candidates.
    fn complete(&self, line: &str, pos: usize) -> (usize, Vec<Pair>) {
        let before = line.get(..pos).unwrap_or(line);
        let target = completion_target(before);
        let (prefix, candidates): (&str, Vec<String>) = match &target {
            Target::Command { prefix } => (prefix, COMMANDS.iter().map(|c| c.0.to_string()).collect()),
            Target::Argument { command, prefix } => {
                return (before.len() - prefix.len(), argument_candidates(prefix, &self.argument_names(command)));
            }
            Target::Name { prefix } => (prefix, self.host.names()),
            Target::Field { path, method, prefix } => {
                let path: Vec<&str> = path.iter().map(String::as_str).collect();
                let mut names = self.host.completions(&path, *method);
                if path.is_empty() {
                    names.extend(KEYWORDS.iter().map(|k| k.to_string()));
                    names.sort();
                }
                (prefix, names)
            }
        };
        let mut matching: Vec<String> = candidates.into_iter().filter(|c| c.starts_with(prefix)).collect();
        matching.dedup();
        let matching = matching.into_iter().map(|c| Pair { display: c.clone(), replacement: c }).collect();
        (before.len() - prefix.len(), matching)
    }

    /// The names a `:command`'s arguments take, unquoted.
    fn argument_names(&self, command: &str) -> Vec<String> {
        match command {
            ":weights" | ":graph" | ":plot" => {
                self.host.with_session(|s| s.actors().iter().map(|a| a.name().to_string()).collect())
            }
            ":events" | ":watch" => {
                let mut kinds: Vec<String> = KIND_NAMES.iter().map(|k| k.to_string()).collect();
                kinds.extend(["all", "on", "off"].map(String::from));
                kinds.sort();
                kinds
            }
            _ => Vec::new(),
        }
    }
}

/// `path` with a leading `~/` (or a bare `~`) made the home folder, as a shell would.
fn home_expanded(path: &str) -> Result<String, String> {
    let Some(rest) = path.strip_prefix('~').filter(|rest| rest.is_empty() || rest.starts_with('/')) else {
        return Ok(path.to_string());
    };
    match std::env::var("HOME") {
        Ok(home) if !home.is_empty() => Ok(format!("{}{rest}", home.trim_end_matches('/'))),
        _ => Err(format!("cannot expand `~` in {path}: $HOME is not set")),
    }
}

/// What `path` names, however it is spelt (`./a.lua`, `sub/../a.lua`, an absolute path, a
/// symbolic link): its canonical path, or for a file not there yet its folder's canonical
/// path joined with its name.
fn identity(path: &Path) -> PathBuf {
    if let Ok(found) = path.canonicalize() {
        return found;
    }
    let absolute = std::env::current_dir().map_or_else(|_| path.to_path_buf(), |folder| folder.join(path));
    let absolute = crate::script::normalize(&absolute);
    match (absolute.parent().and_then(|p| p.canonicalize().ok()), absolute.file_name()) {
        (Some(folder), Some(name)) => folder.join(name),
        _ => absolute,
    }
}

/// The width of the terminal standard output is, if it is one (asked at each `:plot`, so a
/// resized window counts).
fn terminal_columns() -> Option<usize> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        return None;
    }
    let mut size = libc::winsize { ws_row: 0, ws_col: 0, ws_xpixel: 0, ws_ypixel: 0 };
    // SAFETY: TIOCGWINSZ writes one `winsize` into the one we own, and nothing else.
    let asked = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) };
    (asked == 0 && size.ws_col > 0).then_some(usize::from(size.ws_col))
}

/// The newest modification time among `files`, for measuring save → live.
fn latest_modification(files: &[String]) -> Option<SystemTime> {
    files.iter().filter_map(|f| std::fs::metadata(f).and_then(|m| m.modified()).ok()).max()
}

/// Bare `blendlab`: loads `options.files`, then serves a prompt (or plain lines) until the
/// end of input or `:quit`.
pub fn run(options: Options) -> Result<(), String> {
    let (messages, inbox) = mpsc::channel();
    if options.terminal {
        return editor::run(options, messages, inbox);
    }
    let mut repl = Repl::new(Sink::Stdout, Sink::Stderr, &options, &messages)?;
    install_ctrl_c(&repl.interrupt, Some(messages.clone()))?;
    repl.load(&options.files);
    std::thread::Builder::new()
        .name("blendlab-input".into())
        .spawn(move || read_plain_lines(&messages))
        .map_err(|e| e.to_string())?;
    serve(&mut repl, &inbox, None);
    Ok(())
}

/// `blendlab run --watch`: runs the script exactly as `run` does, then keeps the session and
/// applies hot reloads, with their reports, until interrupted. A script that fails is an
/// error (exit 1), as under `run`: a session it left half made is not worth watching, and a
/// CI job must see the failure. One that loads no config leaves nothing to watch (a save of a
/// Lua file never re-runs it): it says so and ends as the script did.
pub fn watch_after_script(options: Options, script: &Path, args: &[String]) -> Result<(), String> {
    let (messages, inbox) = mpsc::channel();
    let mut repl = Repl::new(Sink::Stdout, Sink::Stderr, &options, &messages)?;
    repl.prompt = false;
    for kind in KIND_NAMES {
        repl.host.set_live(kind, false)?;
    }
    if repl.job(|host| host.run_file(script, args)).is_err() {
        return Err("the script failed, so nothing is watched: fix it, then run `blendlab run --watch` again".into());
    }
    let configs = repl.host.watched_files().into_iter().filter(|f| !repl.host.is_script(f)).count();
    if configs == 0 && repl.host.unloaded_configs().is_empty() {
        repl.note("nothing to watch: the script loaded no config (a save of a Lua file never re-runs it)");
        return Ok(());
    }
    for kind in ["reload_applied", "reload_failed"] {
        repl.host.set_live(kind, true)?;
    }
    repl.note("watching the loaded files for changes (Ctrl-C to stop)");
    drop(messages);
    serve(&mut repl, &inbox, None);
    Ok(())
}

/// The session loop: handles messages until `Quit` or until every sender is gone.
pub(crate) fn serve(repl: &mut Repl, inbox: &Receiver<Message>, ready: Option<&Sender<()>>) {
    let answered = || {
        if let Some(ready) = ready {
            let _ = ready.send(());
        }
    };
    for message in inbox {
        match message {
            Message::Line(line) => {
                if repl.line(&line) == Flow::Quit {
                    return;
                }
                answered();
            }
            Message::Unfinished(chunk) => {
                repl.eval(&strip_continuation(&chunk));
                answered();
            }
            Message::Complete { line, pos, reply } => {
                let _ = reply.send(repl.complete(&line, pos));
            }
            Message::Changed(files) => repl.files_changed(files),
            Message::Interrupted => repl.interrupted(),
            Message::Quit => {
                repl.finish();
                return;
            }
        }
    }
}

fn read_plain_lines(messages: &Sender<Message>) {
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if messages.send(Message::Line(line)).is_err() {
            return;
        }
    }
    let _ = messages.send(Message::Quit);
}

/// Ctrl-C while Lua or a step runs sets the interrupt flag. With plain input, Ctrl-C twice
/// while idle leaves, and the first tells `hints` so the session can say so (on a terminal
/// the editor reads Ctrl-C as a key instead, and gives its own hint).
pub(crate) fn install_ctrl_c(interrupt: &Arc<AtomicBool>, hints: Option<Sender<Message>>) -> Result<(), String> {
    let flag = interrupt.clone();
    ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::Relaxed) {
            let _ = writeln!(std::io::stderr(), "\ninterrupted twice: leaving");
            std::process::exit(130);
        }
        if let Some(hints) = &hints {
            let _ = hints.send(Message::Interrupted);
        }
    })
    .map_err(|e| format!("cannot handle Ctrl-C: {e}"))
}
