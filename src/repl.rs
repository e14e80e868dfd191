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

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use owo_colors::OwoColorize;
use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::{Hinter, HistoryHinter};
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{
    Cmd, ConditionalEventHandler, Config, Editor, Event, EventContext, EventHandler, ExternalPrinter, Helper, KeyCode,
    KeyEvent, Modifiers, RepeatCount,
};

use crate::event::KIND_NAMES;
use crate::report::{Style, event_line, weight_table};
use crate::script::{Host, Output, Reload, is_incomplete};
use crate::session::Session;
use crate::watch::Watcher;

/// The first prompt and the one that continues an incomplete chunk.
pub const PROMPT: &str = "> ";
pub const CONTINUATION: &str = ">> ";
/// How a continuation line starts inside the editor's buffer (stripped before evaluation).
const CONTINUATION_MARK: &str = "\n>> ";
/// Event kinds not printed live by default: one line per actor per frame is noise.
const QUIET_KINDS: &[&str] = &["clip_tick"];
/// `:events` prints at most this many of the latest matching events.
const EVENTS_SHOWN: usize = 200;

/// What the session thread hears.
pub enum Message {
    /// A line (or, from the terminal editor, a whole multi-line chunk) to evaluate.
    Line(String),
    /// Tab completion for `line` at byte `pos`: the start of the word and the candidates.
    Complete { line: String, pos: usize, reply: Sender<(usize, Vec<String>)> },
    /// Watched files changed (debounced), by loaded name.
    Changed(Vec<String>),
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
    Reload,
    Help,
    Quit,
}

/// Every command: name, arguments, one line of help.
pub const COMMANDS: &[(&str, &str, &str)] = &[
    (":step", "S", "advance the clock S seconds, over whole logic frames (bl.step)"),
    (":frames", "N", "run exactly N logic frames (bl.frames)"),
    (":weights", "[actor]", "weight tables with bars: one actor, or every actor"),
    (":events", "[kind…]", "the event log, or only events of the given kinds"),
    (":graph", "actor", "the actor's graph (for now its weight table: the graph view comes later)"),
    (":watch", "[kind|all on|off]", "print events of a kind as they happen, or list the live kinds"),
    (":reload", "", "re-read every loaded config now and re-run the Lua files that changed"),
    (":help", "", "this list"),
    (":quit", "", "leave (also Ctrl-D, or Ctrl-C twice on an empty line)"),
];

/// Parses a `:command` line.
pub fn parse_command(line: &str) -> Result<Command, String> {
    let mut words = line.split_whitespace();
    let name = words.next().unwrap_or(":");
    let args: Vec<&str> = words.collect();
    let number = |what: &str| -> Result<f64, String> {
        match args.as_slice() {
            [n] => n.parse::<f64>().map_err(|_| format!("{name}: `{n}` is not a number")),
            _ => Err(format!("{name} takes one argument: {what}")),
        }
    };
    let at_most_one = || match args.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(one.to_string())),
        _ => Err(format!("{name} takes at most one actor name")),
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
            let hint = crate::config::suggestion(other, COMMANDS.iter().map(|c| c.0))
                .map_or(String::new(), |h| format!("; {h}"));
            Err(format!("unknown command `{other}`{hint} (:help lists them)"))
        }
    }
}

/// The `:help` text.
pub fn help() -> String {
    let width = COMMANDS.iter().map(|(n, a, _)| n.len() + a.len() + 1).max().unwrap_or(0);
    let mut text = String::from("Lua is evaluated as you type it; an expression prints its value.\n");
    for (name, args, what) in COMMANDS {
        text.push_str(&format!("  {:width$}  {what}\n", format!("{name} {args}").trim_end()));
    }
    text.push_str("Tab completes names; Ctrl-C stops a running chunk or step.\n");
    text
}

/// Removes the continuation marks the terminal editor puts at the start of each extra line.
pub fn strip_continuation(input: &str) -> String {
    input.replace(CONTINUATION_MARK, "\n")
}

/// Where completion applies in `line` before the cursor.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// A `:command` name.
    Command { prefix: String },
    /// An argument of a `:command`.
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
                let prefix = args.rsplit(char::is_whitespace).next().unwrap_or("").to_string();
                Target::Argument { command: format!(":{command}"), prefix }
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
const KEYWORDS: &[&str] = &[
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in", "local", "nil",
    "not", "or", "repeat", "return", "then", "true", "until", "while",
];

/// A `Write` that hands complete lines to where the REPL prints: standard output or error,
/// or (on a terminal) rustyline's external printer.
#[derive(Clone)]
struct Console {
    sink: Sink,
    pending: Vec<u8>,
}

type Printer = Arc<Mutex<Box<dyn ExternalPrinter + Send>>>;

#[derive(Clone)]
enum Sink {
    Stdout,
    Stderr,
    Printer(Printer),
}

impl Console {
    fn new(sink: Sink) -> Self {
        Console { sink, pending: Vec::new() }
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
}

impl Write for Console {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        if let Some(end) = self.pending.iter().rposition(|&b| b == b'\n') {
            let lines: Vec<u8> = self.pending.drain(..=end).collect();
            self.emit(lines)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.pending.is_empty() {
            let rest = std::mem::take(&mut self.pending);
            self.emit(rest)?;
        }
        Ok(())
    }
}

/// Whether the REPL goes on after an input.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// The session side of the REPL.
struct Repl {
    host: Host,
    out: Console,
    err: Console,
    err_style: Style,
    interrupt: Arc<AtomicBool>,
    watcher: Option<Watcher>,
    /// Lines of an incomplete chunk read so far (plain input).
    pending: String,
    /// Configs named on the command line that failed to load: watched, and loaded once fixed.
    unloaded: Vec<String>,
    measure: bool,
}

impl Repl {
    fn new(out: Sink, err: Sink, options: &Options, messages: &Sender<Message>) -> Result<Repl, String> {
        let host = Host::new(Output {
            out: Box::new(Console::new(out.clone())),
            err: Box::new(Console::new(err.clone())),
            style: options.style,
        })
        .map_err(|e| e.message)?;
        let interrupt = host.enable_interrupts().map_err(|e| e.message)?;
        for kind in KIND_NAMES.iter().filter(|k| !QUIET_KINDS.contains(k)) {
            host.set_live(kind, true)?;
        }
        let changes = messages.clone();
        let mut repl = Repl {
            host,
            out: Console::new(out),
            err: Console::new(err),
            err_style: options.err_style,
            interrupt,
            watcher: None,
            pending: String::new(),
            unloaded: Vec::new(),
            measure: options.measure,
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

    /// Loads the files given on the command line; a failure is reported, not fatal (a config
    /// that fails is watched and loaded once a save fixes it).
    fn load(&mut self, files: &[PathBuf]) {
        for file in files {
            if file.extension().is_some_and(|e| e == "lua") {
                self.job(|host| host.run_file(file, &[]));
            } else if self.job(|host| host.load_config(file)).is_none() {
                self.unloaded.push(file.display().to_string());
                self.after_job();
            }
        }
    }

    /// Runs one unit of work with interrupts armed; reports its error, then prints pending
    /// events and follows newly loaded files.
    fn job<T>(&mut self, work: impl FnOnce(&Host) -> Result<T, crate::script::ScriptError>) -> Option<T> {
        self.interrupt.store(false, Ordering::Relaxed);
        let result = work(&self.host);
        self.interrupt.store(false, Ordering::Relaxed);
        let value = result.map_err(|e| self.error(&e.message)).ok();
        self.after_job();
        value
    }

    fn after_job(&mut self) {
        if let Err(e) = self.host.flush_events() {
            self.error(&e.message);
        }
        let _ = self.out.flush();
        let _ = self.err.flush();
        if let Some(watcher) = &mut self.watcher {
            let mut files = self.host.watched_files();
            files.extend(self.unloaded.iter().cloned());
            for problem in watcher.follow(&files) {
                self.error(&problem);
            }
        }
    }

    /// One line of input: a `:command`, or Lua (read on while the chunk is incomplete).
    fn line(&mut self, line: &str) -> Flow {
        let code = strip_continuation(line);
        if self.pending.is_empty() && code.trim_start().starts_with(':') {
            return match parse_command(code.trim()) {
                Ok(command) => self.command(command),
                Err(message) => {
                    self.error(&message);
                    Flow::Continue
                }
            };
        }
        let chunk = if self.pending.is_empty() { code } else { format!("{}\n{code}", self.pending) };
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
        if let Some(values) = self.job(|host| host.eval(code))
            && !values.is_empty()
        {
            self.say(&values.join("\t"));
        }
    }

    fn command(&mut self, command: Command) -> Flow {
        match command {
            Command::Step(seconds) => drop(self.job(|host| host.call_bl("step", seconds))),
            Command::Frames(n) => drop(self.job(|host| host.call_bl("frames", n))),
            Command::Weights(actor) => self.weights(actor.as_deref()),
            Command::Graph(actor) => {
                self.note("(the graph view is not built yet: here is the weight table)");
                self.weights(Some(&actor));
            }
            Command::Events(kinds) => self.events(&kinds),
            Command::Watch(switch) => self.watch(switch),
            Command::Reload => self.reload_all(),
            Command::Help => self.say(&help()),
            Command::Quit => return Flow::Quit,
        }
        Flow::Continue
    }

    fn weights(&mut self, actor: Option<&str>) {
        let style = self.host.style();
        let tables = self.host.with_session(|session| -> Result<String, String> {
            let ids = match actor {
                Some(name) => vec![session.find_actor(name).map_err(|e| e.to_string())?],
                None => (0..session.actors().len()).collect(),
            };
            Ok(ids.into_iter().map(|id| weight_table(session, id, style)).collect::<Vec<_>>().join("\n"))
        });
        match tables {
            Ok(text) if text.is_empty() => self.note("no actors yet: bl.spawn(name, { blend_tree = … }) makes one"),
            Ok(text) => self.say(&text),
            Err(message) => self.error(&message),
        }
    }

    fn events(&mut self, kinds: &[String]) {
        if let Some(bad) = kinds.iter().find(|k| !KIND_NAMES.contains(&k.as_str())) {
            let hint =
                crate::config::suggestion(bad, KIND_NAMES.iter().copied()).map_or(String::new(), |h| format!("; {h}"));
            return self.error(&format!("unknown event kind `{bad}`{hint}"));
        }
        let style = self.host.style();
        let lines = self.host.with_session(|session: &Session| {
            let matching: Vec<_> = session
                .events()
                .iter()
                .filter(|e| kinds.is_empty() || kinds.iter().any(|k| k == e.kind.name()))
                .collect();
            let skipped = matching.len().saturating_sub(EVENTS_SHOWN);
            let mut lines: Vec<String> = matching[skipped..].iter().map(|e| event_line(e, style)).collect();
            if skipped > 0 {
                lines.insert(0, format!("… {skipped} earlier events (bl.events() has them all)"));
            }
            lines
        });
        if lines.is_empty() { self.note("no events yet") } else { self.say(&lines.join("\n")) }
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
                for kind in kinds {
                    if let Err(message) = self.host.set_live(kind, on) {
                        return self.error(&message);
                    }
                }
            }
        }
    }

    /// `:reload`: every loaded config now, then the Lua files whose text changed.
    fn reload_all(&mut self) {
        let configs: Vec<String> = self.host.watched_files().into_iter().filter(|f| !self.host.is_script(f)).collect();
        if !configs.is_empty() {
            self.reload_configs(&configs, true);
        }
        let reruns = self.host.rerun_changed_scripts();
        if configs.is_empty() && reruns.is_empty() {
            self.note("nothing to reload: no config loaded and no Lua file changed");
        }
        for (path, outcome) in reruns {
            match outcome {
                Ok(()) => self.note(&format!("re-ran {path}")),
                Err(e) => self.error(&e.message),
            }
        }
        self.after_job();
    }

    /// Watched files changed on disk: configs reload now; Lua files wait for `:reload`.
    fn files_changed(&mut self, files: Vec<String>) {
        let (unloaded, files): (Vec<String>, Vec<String>) = files.into_iter().partition(|f| self.unloaded.contains(f));
        for file in unloaded {
            if self.job(|host| host.load_config(Path::new(&file))).is_some() {
                self.unloaded.retain(|f| *f != file);
            }
        }
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
            self.note(&format!("{script} changed; :reload re-runs it"));
        }
    }

    fn reload_configs(&mut self, configs: &[String], forced: bool) {
        match self.host.reload_configs(configs) {
            Reload::Unchanged if forced => self.note("configs unchanged on disk: the live library stays"),
            Reload::Unchanged => {}
            Reload::Applied { report } => {
                let _ = self.host.flush_events();
                self.say(&report);
            }
            Reload::Failed { diagnostics } => {
                let _ = self.host.flush_events();
                self.error(&format!("reload failed; the last good library stays live\n{diagnostics}"));
            }
        }
        self.after_job();
    }

    /// Tab completion: the start of the word being completed and the candidates.
    fn complete(&self, line: &str, pos: usize) -> (usize, Vec<String>) {
        let before = line.get(..pos).unwrap_or(line);
        let target = completion_target(before);
        let (prefix, candidates): (&str, Vec<String>) = match &target {
            Target::Command { prefix } => (prefix, COMMANDS.iter().map(|c| c.0.to_string()).collect()),
            Target::Argument { command, prefix } => (prefix, self.argument_names(command)),
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
        (before.len() - prefix.len(), matching)
    }

    fn argument_names(&self, command: &str) -> Vec<String> {
        match command {
            ":weights" | ":graph" => self.host.with_session(|s| s.actors().iter().map(|a| a.name.clone()).collect()),
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

/// The newest modification time among `files`, for measuring save → live.
fn latest_modification(files: &[String]) -> Option<SystemTime> {
    files.iter().filter_map(|f| std::fs::metadata(f).and_then(|m| m.modified()).ok()).max()
}

/// Bare `blendlab`: loads `options.files`, then serves a prompt (or plain lines) until the
/// end of input or `:quit`.
pub fn run(options: Options) -> Result<(), String> {
    let (messages, inbox) = mpsc::channel();
    if options.terminal {
        return run_terminal(options, messages, inbox);
    }
    let mut repl = Repl::new(Sink::Stdout, Sink::Stderr, &options, &messages)?;
    install_ctrl_c(&repl.interrupt)?;
    repl.load(&options.files);
    std::thread::Builder::new()
        .name("blendlab-input".into())
        .spawn(move || read_plain_lines(&messages))
        .map_err(|e| e.to_string())?;
    serve(&mut repl, &inbox, None);
    Ok(())
}

/// `blendlab run --watch`: runs the script exactly as `run` does (a failure is reported, not
/// fatal), then keeps the session and applies hot reloads, with their reports, until
/// interrupted.
pub fn watch_after_script(options: Options, script: &Path, args: &[String]) -> Result<(), String> {
    let (messages, inbox) = mpsc::channel();
    let mut repl = Repl::new(Sink::Stdout, Sink::Stderr, &options, &messages)?;
    for kind in KIND_NAMES {
        repl.host.set_live(kind, false)?;
    }
    repl.job(|host| host.run_file(script, args));
    for kind in ["reload_applied", "reload_failed"] {
        repl.host.set_live(kind, true)?;
    }
    repl.note("watching the loaded files for changes (Ctrl-C to stop)");
    drop(messages);
    serve(&mut repl, &inbox, None);
    Ok(())
}

/// The session loop: handles messages until `Quit` or until every sender is gone.
fn serve(repl: &mut Repl, inbox: &Receiver<Message>, ready: Option<&Sender<()>>) {
    for message in inbox {
        match message {
            Message::Line(line) => {
                if repl.line(&line) == Flow::Quit {
                    return;
                }
                if let Some(ready) = ready {
                    let _ = ready.send(());
                }
            }
            Message::Complete { line, pos, reply } => {
                let _ = reply.send(repl.complete(&line, pos));
            }
            Message::Changed(files) => repl.files_changed(files),
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
/// while idle leaves (on a terminal the editor reads Ctrl-C as a key instead).
fn install_ctrl_c(interrupt: &Arc<AtomicBool>) -> Result<(), String> {
    let flag = interrupt.clone();
    ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::Relaxed) {
            let _ = writeln!(std::io::stderr(), "\ninterrupted twice: leaving");
            std::process::exit(130);
        }
    })
    .map_err(|e| format!("cannot handle Ctrl-C: {e}"))
}

fn run_terminal(options: Options, messages: Sender<Message>, inbox: Receiver<Message>) -> Result<(), String> {
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
    install_ctrl_c(&repl.interrupt)?;
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
    /// The editor thread's own Lua state, only for syntax checks (the session's Lua state
    /// lives on the session thread).
    static SYNTAX: mlua::Lua = mlua::Lua::new();
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
    type Candidate = String;

    fn complete(&self, line: &str, pos: usize, _: &rustyline::Context<'_>) -> rustyline::Result<(usize, Vec<String>)> {
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

/// Remembers whether Ctrl-C came on an empty line (twice in a row leaves).
struct CtrlC(Arc<AtomicBool>);

impl ConditionalEventHandler for CtrlC {
    fn handle(&self, _: &Event, _: RepeatCount, _: bool, ctx: &EventContext) -> Option<Cmd> {
        self.0.store(ctx.line().is_empty(), Ordering::Relaxed);
        None
    }
}

type Startup = Result<Box<dyn ExternalPrinter + Send>, String>;

/// The editor thread: reads a chunk, sends it, waits until the session is ready again.
fn edit_lines(
    messages: &Sender<Message>,
    ready: &Receiver<()>,
    startup: &Sender<Startup>,
    history: Option<&Path>,
    color: bool,
) {
    let config = Config::builder()
        .auto_add_history(false)
        .completion_type(rustyline::CompletionType::List)
        .color_mode(if color { rustyline::ColorMode::Enabled } else { rustyline::ColorMode::Disabled })
        .build();
    let mut editor = match Editor::with_config(config) {
        Ok(editor) => editor,
        Err(e) => return drop(startup.send(Err(format!("cannot start the line editor: {e}")))),
    };
    let helper = ReplHelper { requests: messages.clone(), hinter: HistoryHinter::new(), color };
    editor.set_helper(Some(helper));
    let empty_line = Arc::new(AtomicBool::new(false));
    editor.bind_sequence(KeyEvent(KeyCode::Enter, Modifiers::NONE), EventHandler::Conditional(Box::new(ContinueChunk)));
    editor.bind_sequence(KeyEvent::ctrl('C'), EventHandler::Conditional(Box::new(CtrlC(empty_line.clone()))));
    let (printer, mut own_printer) = match (editor.create_external_printer(), editor.create_external_printer()) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => return drop(startup.send(Err(format!("cannot print above the prompt: {e}")))),
    };
    if startup.send(Ok(Box::new(printer))).is_err() || ready.recv().is_err() {
        return;
    }
    let mut history = History::open(&mut editor, history);
    let mut interrupts_on_empty = 0;
    loop {
        match editor.readline(PROMPT) {
            Ok(chunk) => {
                interrupts_on_empty = 0;
                if let Some(warning) = history.add(&mut editor, &chunk) {
                    let _ = own_printer.print(warning);
                }
                if messages.send(Message::Line(chunk)).is_err() || ready.recv().is_err() {
                    return;
                }
            }
            Err(ReadlineError::Interrupted) if empty_line.load(Ordering::Relaxed) => {
                interrupts_on_empty += 1;
                if interrupts_on_empty >= 2 {
                    break;
                }
                let _ = own_printer.print("(Ctrl-C again or Ctrl-D to leave)".into());
            }
            Err(ReadlineError::Interrupted) => interrupts_on_empty = 0,
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                let _ = own_printer.print(format!("error: the line editor stopped: {e}"));
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
    fn open(editor: &mut Editor<ReplHelper, rustyline::history::DefaultHistory>, path: Option<&'p Path>) -> Self {
        if let Some(path) = path {
            let _ = editor.load_history(path); // a missing file is a first session
        }
        History { path, warned: false }
    }

    /// Records `chunk`; returns a warning the first time the file cannot be written.
    fn add(
        &mut self,
        editor: &mut Editor<ReplHelper, rustyline::history::DefaultHistory>,
        chunk: &str,
    ) -> Option<String> {
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
        assert_eq!(parse_command(":step"), Err(":step takes one argument: a duration in seconds".into()));
        assert_eq!(parse_command(":step x"), Err(":step: `x` is not a number".into()));
        assert_eq!(parse_command(":graph"), Err(":graph takes an actor name".into()));
        assert!(parse_command(":stp 1").unwrap_err().contains("did you mean `:step`"));
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

    #[test]
    fn continuation_marks_are_stripped() {
        assert_eq!(strip_continuation("for i = 1, 2 do\n>> print(i)\n>> end"), "for i = 1, 2 do\nprint(i)\nend");
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
}
