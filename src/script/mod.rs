//! Lua bindings over the [`Session`]: the global table `bl` and actor handles (DESIGN.md
//! "Interfaces that outside scripts rely on"). This is a front end: it reads files, owns the
//! Lua state and writes what scripts print; the core never sees Lua.
//!
//! The session lives in an `Rc<RefCell<…>>` shared by every binding. No borrow is held while
//! Lua code runs, so callbacks (`bl.at`, `bl.on`) may call back into `bl`.
//!
//! Besides running scripts, a host serves the REPL: expression-first evaluation with one
//! pretty-printer, Ctrl-C interrupts, live event lines, hot reloads with a report of what
//! changed, and the names that completion offers.

mod actor;
mod api;
mod assert;
pub mod files;
pub mod headless;
mod inputs;
mod limits;
pub mod partition;
mod pretty;
mod record;
mod sandbox;
mod sweep;

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use mlua::{Function, HookTriggers, IntoLuaMulti, Lua, MultiValue, Table, Value, VmState};

use crate::compile::compile;
use crate::config::{Diagnostic, SourceFile};
use crate::event::KIND_NAMES;
use crate::reload;
use crate::report::Style;
use crate::session::Session;
use crate::time::Ticks;

pub use limits::{Confinement, Limits, parse_memory, parse_timeout};
pub use pretty::pretty;

/// Where a host writes: `print` output, and diagnostics/warnings.
pub struct Output {
    pub out: Box<dyn Write>,
    pub err: Box<dyn Write>,
    pub style: Style,
}

/// Everything the bindings share.
pub(crate) struct HostState {
    session: Session,
    /// Loaded config files in load order (the live library's sources).
    sources: Vec<SourceFile>,
    /// Configs a load failed for (errors in them, or not there yet) in a folder that exists:
    /// a hot reload follows them too and loads each once a save fixes it.
    unloaded: Vec<String>,
    output: Output,
    /// `bl.at` callbacks not yet run, by id.
    callbacks: BTreeMap<u64, Callback>,
    next_callback: u64,
    /// `bl.on` listeners in registration order.
    listeners: Vec<Listener>,
    /// The number of the last `bl.on` listener registered (they count from 1).
    last_listener: u64,
    /// Events already handed to listeners (and printed, when live).
    dispatched: usize,
    /// Events already looked at for live printing: [`api::print_live`] prints the events a
    /// call logs outside a step at once, in order with what the chunk prints, before they are
    /// dispatched.
    printed: usize,
    /// Ctrl-C and `--timeout`: the Lua hook and the frame loop stop when it trips.
    watchdog: limits::Watchdog,
    /// Under `--sandbox`, the folder (canonical) every path a script names must lie in.
    sandbox: Option<PathBuf>,
    /// Event kinds printed as they happen (the REPL's live output); none for `run`.
    live: BTreeSet<String>,
    /// Lua files run with [`Host::run_file`] and the text they ran, for `:reload`.
    scripts: Vec<SourceFile>,
    /// The chunk name (`@path`) of the Lua file `:reload` is re-running, if any.
    rerunning: Option<String>,
    /// Whether the last library build failed, so that restoring the old text still rebuilds.
    last_build_failed: bool,
    /// The warnings of the live library, rendered: a hot reload prints only new ones.
    warned: Vec<String>,
    /// Indices in the event log of `warning` events already written where diagnostics go
    /// (rendered, with their source line): the live printer does not print them again.
    written_warnings: BTreeSet<usize>,
    /// The loaded files of the last hot reload that failed: the next reload reads them again
    /// with its own, so the live library becomes what is on disk as a whole, or stays as it was
    /// (a good save of one file while another is broken fails again, naming the broken one).
    /// A config that never loaded is not among them: it holds back no other file's reload.
    retry: Vec<String>,
    /// How `bl.step` plans its frames (`run --partition-check`).
    steps: partition::Steps,
    /// `bl.record` recordings, sampled after every frame.
    recordings: Vec<crate::report::recording::Recording>,
    /// `bl.inputs` in play, applied at the start of every frame (in the order applied).
    inputs: Vec<inputs::ActiveInputs>,
    /// The number of the latest `bl.inputs` (its handle's `id`).
    last_inputs: u64,
    /// Whether logic frames are running: a `bl.at` callback or a `bl.on` listener called from
    /// a frame cannot step the clock (the frames planned around it would run twice).
    in_frames: bool,
    /// The frame whose Lua (a `bl.at` callback, a `bl.on` listener) the watchdog stopped part
    /// way, since the last [`Host::take_stopped_inside_frame`].
    stopped_inside_frame: Option<i64>,
    /// The first `bl.pause` or `bl.speed` call from inside a frame that changed the clock, in
    /// words (`bl.pause(true) in frame 30, t=0.500000 s`): it counts from the next `bl.step`
    /// only, so `run --partition-check` names it as the cause of a difference.
    clock_changed_inside_frame: Option<String>,
}

/// A `bl.on` listener and the chunk that registered it (re-running that file replaces it).
pub(crate) struct Listener {
    /// Its number, for its handle (`:off()`) and for errors it raises.
    id: u64,
    kind: String,
    function: Function,
    origin: Option<String>,
}

/// A `bl.at` callback and the chunk that scheduled it (re-running that file before it ran
/// drops it: the re-run schedules its own).
pub(crate) struct Callback {
    function: Function,
    origin: Option<String>,
    /// The time `bl.at` was given, in seconds, and where it was called (`file:line: `), for
    /// the warning when the script ends before it runs ([`Host::finish_script`]).
    time: f64,
    location: String,
}

/// Chunk name of REPL input, so errors read `stdin:1: …` as in the standalone `lua`.
const REPL_CHUNK: &str = "=stdin";

/// What a hot reload of config files did.
#[derive(Debug, Clone, PartialEq)]
pub enum Reload {
    /// The files read the same as the live library: nothing to do.
    Unchanged,
    /// A new library is live; what each actor kept, lost and now weighs
    /// ([`crate::report::reload_report`] says it).
    Applied { changes: Vec<crate::reload::ActorChange> },
    /// The live library, generation `generation` (0: none has loaded yet), did not change:
    /// `errors` errors, every diagnostic rendered ([`crate::report::reload_failure`] says so).
    Failed { errors: usize, generation: u64, diagnostics: String },
}

/// An event kind name of the contract, or an error with a did-you-mean.
pub fn check_kind(kind: &str) -> Result<(), String> {
    if KIND_NAMES.contains(&kind) {
        return Ok(());
    }
    let hint = crate::config::suggestion(kind, KIND_NAMES.iter().copied()).map_or(String::new(), |h| format!("; {h}"));
    Err(format!("unknown event kind `{kind}`{hint}"))
}

/// Whether `code` is a Lua chunk cut short (an open `function`, table or long string), so a
/// REPL should read more lines: the standalone `lua` rule, where `return code` must not
/// compile and `code` must fail only by reaching the end of input — here with the newline
/// that the next line would come after. That newline turns a short string left open
/// (`hero:get("spe`), which no next line can close, into an `unfinished string` error at
/// once (`lua` asks for another line first), while a long string (`[[`) or a string whose
/// line ends in `\` or `\z` (both carry it on to the next line) still reads on.
pub fn is_incomplete(lua: &Lua, code: &str) -> bool {
    let compiles = |text: &str| lua.load(text).into_function();
    compiles(&format!("return {code}")).is_err()
        && matches!(compiles(&format!("{code}\n")), Err(mlua::Error::SyntaxError { incomplete_input: true, .. }))
}

type Shared = Rc<RefCell<HostState>>;

/// A Lua state with `bl` installed over a fresh session.
pub struct Host {
    lua: Lua,
    state: Shared,
    /// Calls a chunk (a script or REPL input), turning an error object without a message
    /// (`error({})`) into the words the standalone `lua` prints instead of an address.
    protect: Function,
    /// The `--max-memory` limit, if any, for the message when a script reaches it.
    memory_limit: std::cell::Cell<Option<usize>>,
}

/// Makes the function that calls a chunk (a script, or REPL input) with its arguments, with
/// [`error_message`] as its message handler.
const PROTECT: &str = r#"
local message = ...
return function(chunk, ...)
  local results = table.pack(xpcall(chunk, message, ...))
  if results[1] then return table.unpack(results, 2, results.n) end
  error(results[2], 0)
end
"#;

/// The message handler of [`PROTECT`]: an error object that is not a message becomes the
/// words the standalone `lua` prints, located where it was raised —
/// `x.lua:2: (error object is a table value)` for `error({})`, never an address, and
/// `error(nil)` no longer reads `nil`. Messages, numbers and blendlab's own errors pass
/// unchanged; a table with `__tostring` is its string.
fn error_message(lua: &Lua, error: Value) -> mlua::Result<Value> {
    if let Value::Table(table) = &error
        && table.metatable().is_some_and(|mt| mt.contains_key("__tostring").unwrap_or(false))
    {
        return lua.globals().get::<Function>("tostring")?.call(error);
    }
    if matches!(error, Value::String(_) | Value::Integer(_) | Value::Number(_) | Value::UserData(_) | Value::Error(_)) {
        return Ok(error);
    }
    let message = format!("{}(error object is a {} value)", api::caller_location(lua), error.type_name());
    Ok(Value::String(lua.create_string(message)?))
}

/// A script that failed: the message, already located as `file:line: …` where Lua knows.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct ScriptError {
    pub message: String,
}

impl From<mlua::Error> for ScriptError {
    fn from(error: mlua::Error) -> Self {
        ScriptError { message: root_message(&error) }
    }
}

/// The message a person needs from a Lua error: the innermost cause, without tracebacks.
pub fn root_message(error: &mlua::Error) -> String {
    match error {
        mlua::Error::CallbackError { cause, .. } => root_message(cause),
        mlua::Error::WithContext { cause, .. } => root_message(cause),
        mlua::Error::RuntimeError(message) => strip_traceback(message),
        mlua::Error::SyntaxError { message, .. } => strip_traceback(message),
        mlua::Error::ExternalError(e) => e.to_string(),
        other => strip_traceback(&other.to_string()),
    }
}

/// Why `path` is no script to run, judged by its extension (a TOML config, or a golden file
/// `NAME.out`), in words that follow its name.
pub fn not_a_script(path: &Path) -> Option<String> {
    let shown = path.display();
    match path.extension().and_then(|e| e.to_str()) {
        Some("toml") => Some(format!(
            "a TOML config, not a Lua script: load it with bl.load, or at the prompt (`blendlab {shown}`)"
        )),
        Some("out") => Some(format!(
            "a golden file, not a Lua script: `blendlab run --golden {shown} SCRIPT.lua` compares with it"
        )),
        _ => None,
    }
}

/// Starts `math.random` from the same seed in every run, as the string hashes are (the build
/// fixes Lua's `luai_makeseed`, `.cargo/config.toml`): a script prints the same numbers and
/// walks a table with `pairs` in the same order every time, so its output can be a golden.
/// `math.randomseed()` without arguments still asks for a random seed.
fn seed_random(lua: &Lua) -> mlua::Result<()> {
    let math: mlua::Table = lua.globals().get("math")?;
    math.get::<mlua::Function>("randomseed")?.call::<()>(0)
}

/// The functions of Lua's `debug` library a script gets, Lua's own: enough for
/// `xpcall(f, debug.traceback)` and for helpers that ask where they were called from. The
/// others are left out: `sethook` would take the hook the watchdog stops code with
/// (`--timeout`, Ctrl-C), and `setmetatable`, `getregistry`, `getuservalue`/`setuservalue`,
/// `setupvalue`, `upvaluejoin` and `setlocal` reach into the bindings' own values, which is
/// why mlua calls a state with the whole library unsafe. `getupvalue` too: the wrappers of
/// `bl` functions hold Lua's own `pcall` as an upvalue, and with it a script could catch the
/// error the watchdog stops it with and run on past `--timeout`.
const DEBUG_FUNCTIONS: &[&str] = &["traceback", "getinfo", "getlocal"];

/// A Lua state with the standard libraries, as the standalone `lua` has them (C modules
/// too), but only [`DEBUG_FUNCTIONS`] of `debug`. `run --sandbox` takes away more.
fn new_lua() -> Result<Lua, ScriptError> {
    // SAFETY: what makes `debug` unsafe for mlua is the functions that change metatables,
    // user values, upvalues and the registry behind the bindings' back; they are dropped
    // below, before any script runs, and only the read-only ones stay.
    let lua = unsafe { Lua::unsafe_new_with(mlua::StdLib::ALL_SAFE | mlua::StdLib::DEBUG, Default::default()) };
    let keep = lua.load(
        r#"
local keep, hide = ...
local full, debug = debug, {}
for _, name in ipairs(keep) do debug[name] = full[name] end
_G.debug, package.loaded.debug = debug, debug
-- Lua's traceback less blendlab's own frames (`hide`), its level counting the frames it shows:
-- Lua's from this function's caller on, less the first `level - 1` shown. Arguments are
-- checked as Lua's are, and reported at the caller's line.
local traceback, getinfo, type, tonumber, tointeger, select, error =
  full.traceback, full.getinfo, type, tonumber, math.tointeger, select, error
function debug.traceback(...)
  local thread = type((...)) == "thread"
  local at = thread and 3 or 2
  local message, level = select(at - 1, ...)
  if message ~= nil and type(message) ~= "string" and type(message) ~= "number" then return message end
  local number = tonumber(level)
  local n = level == nil and 1 or number and tointeger(number)
  if not n then
    local why = number and "number has no integer representation" or "number expected, got " .. type(level)
    error(("bad argument #%d to 'traceback' (%s)"):format(at, why), 2)
  end
  if thread then return hide(traceback(...), 0) end
  if n < 1 then return hide(traceback(message, n < 0 and n or 1), 0) end
  -- Called as `return debug.traceback(…)`, this function took its caller's frame, as Lua
  -- functions do (a C function would not): Lua shows it as `(...tail calls...)`, after this
  -- one's, which is dropped.
  if getinfo(1, "t").istailcall then return hide(traceback(message, 1), n) end
  return hide(traceback(message, 2), n - 1)
end
"#,
    );
    let hide = lua.create_function(|lua, (trace, skip): (Value, usize)| match &trace {
        Value::String(text) => Ok(Value::String(lua.create_string(hide_internal_frames(&text.as_bytes(), skip))?)),
        _ => Ok(trace),
    })?;
    keep.set_name(api::PRELUDE_NAME).call::<()>((DEBUG_FUNCTIONS.to_vec(), hide))?;
    Ok(lua)
}

/// Lua's `debug.traceback` text less the frames of blendlab's own Lua
/// ([`api::INTERNAL_CHUNKS`]: the prelude's wrappers, the uncatchable `pcall`), which stand
/// for the C functions they wrap and so read as Lua shows one: `[C]: in method 'set'`
/// (`[C]: in ?` without a name), without the C functions a wrapper calls itself (`error`, its
/// locals such as Lua's own `pcall`, and the raw function it runs, which has no name) or a
/// wrapper that it calls straight away. The first `skip` frames left are dropped too. Bytes
/// that are not UTF-8 (in a message) are kept as they are.
fn hide_internal_frames(traceback: &[u8], skip: usize) -> Vec<u8> {
    fn wrapper(line: &[u8]) -> Option<&str> {
        let frame = std::str::from_utf8(line).ok()?.strip_prefix('\t')?;
        api::INTERNAL_CHUNKS.iter().find_map(|chunk| {
            let (_, name) = frame.strip_prefix(&chunk[1..])?.strip_prefix(':')?.split_once(": in ")?;
            Some(if name.contains('<') { "?" } else { name })
        })
    }
    let called_by_wrapper = |line: &[u8]| {
        line.strip_prefix(b"\t[C]: in ")
            .is_some_and(|name| name == b"?" || name == b"function 'error'" || name.starts_with(b"upvalue '"))
    };
    // Innermost first; each line with whether it stands for a wrapper.
    let mut lines: Vec<(Vec<u8>, bool)> = Vec::new();
    for line in traceback.split(|&b| b == b'\n') {
        let Some(name) = wrapper(line) else {
            lines.push((line.to_vec(), false));
            continue;
        };
        if lines.last().is_some_and(|(_, stands_for_wrapper)| *stands_for_wrapper) {
            lines.pop();
        }
        while lines.last().is_some_and(|(above, stands_for_wrapper)| !stands_for_wrapper && called_by_wrapper(above)) {
            lines.pop();
        }
        lines.push((format!("\t[C]: in {name}").into_bytes(), true));
    }
    let frames =
        lines.iter().rposition(|(line, _)| line == b"stack traceback:").map_or(lines.len(), |header| header + 1);
    let skipped = lines[frames..].iter().take(skip).take_while(|(line, _)| line.starts_with(b"\t")).count();
    lines.drain(frames..frames + skipped);
    lines.into_iter().map(|(line, _)| line).collect::<Vec<_>>().join(&b'\n')
}

/// A message without the `stack traceback:` Lua appends to errors that cross a call.
pub(crate) fn strip_traceback(message: &str) -> String {
    message.split("\nstack traceback:").next().unwrap_or(message).to_string()
}

impl Host {
    pub fn new(output: Output) -> Result<Host, ScriptError> {
        let lua = new_lua()?;
        let state = Rc::new(RefCell::new(HostState {
            session: Session::default(),
            sources: Vec::new(),
            unloaded: Vec::new(),
            output,
            callbacks: BTreeMap::new(),
            next_callback: 0,
            listeners: Vec::new(),
            last_listener: 0,
            dispatched: 0,
            printed: 0,
            watchdog: limits::Watchdog::default(),
            sandbox: None,
            live: BTreeSet::new(),
            scripts: Vec::new(),
            rerunning: None,
            in_frames: false,
            stopped_inside_frame: None,
            clock_changed_inside_frame: None,
            last_build_failed: false,
            warned: Vec::new(),
            written_warnings: BTreeSet::new(),
            retry: Vec::new(),
            steps: Default::default(),
            recordings: Vec::new(),
            inputs: Vec::new(),
            last_inputs: 0,
        }));
        api::install(&lua, &state)?;
        seed_random(&lua)?;
        limits::make_uncatchable(&lua, &state.borrow().watchdog)?;
        let message = lua.create_function(error_message)?;
        let protect = lua.load(PROTECT).set_name(api::PRELUDE_NAME).call(message)?;
        Ok(Host { lua, state, protect, memory_limit: Default::default() })
    }

    /// Runs a script file as `blendlab run` does: `arg[0]` is the path, `arg[1..]` and `...`
    /// are `args`.
    pub fn run_file(&self, path: &Path, args: &[String]) -> Result<(), ScriptError> {
        if let Some(why) = not_a_script(path) {
            return Err(ScriptError { message: format!("{}: {why}", path.display()) });
        }
        self.run_source(path, read_script(path)?, args)
    }

    /// Runs `source`, the text of the script file `path`, as [`Host::run_file`] does.
    fn run_source(&self, path: &Path, source: String, args: &[String]) -> Result<(), ScriptError> {
        let name = path.display().to_string();
        let mut host = self.state.borrow_mut();
        match host.scripts.iter_mut().find(|s| s.path == name) {
            Some(script) => script.text = source.clone(),
            None => host.scripts.push(SourceFile { path: name.clone(), text: source.clone() }),
        }
        drop(host);
        // Setting `arg` allocates too: a memory limit reached there is the script's as well.
        let run = || {
            let arg = self.lua.create_table()?;
            arg.set(0, name.as_str())?;
            for (i, a) in args.iter().enumerate() {
                arg.set(i + 1, a.as_str())?;
            }
            self.lua.globals().set("arg", arg)?;
            let chunk = self.lua.load(source).set_name(format!("@{name}")).into_function()?;
            self.protect.call::<()>((chunk, mlua::Variadic::from_iter(args.iter().cloned())))
        };
        run().map_err(|e| self.script_error(&name, &e))
    }

    /// A script's error as a person reads it; reaching the memory limit says so, naming the
    /// limit (Lua reports no line for it: it raises memory errors without a position).
    fn script_error(&self, script: &str, error: &mlua::Error) -> ScriptError {
        let message = root_message(error);
        match self.memory_limit.get() {
            Some(limit) if message.contains("not enough memory") => ScriptError {
                message: format!(
                    "{script}: not enough memory: the script reached its memory limit (--max-memory {})",
                    limits::show_memory(limit)
                ),
            },
            _ => ScriptError { message },
        }
    }

    /// Evaluates REPL input as the standalone `lua` does: as an expression (`return …`) when
    /// that compiles, else as statements. Returns each result pretty-printed.
    pub fn eval(&self, code: &str) -> Result<Vec<String>, ScriptError> {
        // `(function(...) return ... end)(code)` rather than `return code`: the same values,
        // but calls in `code` are not tail calls, so errors they raise name `stdin:LINE`.
        let expression = format!("return (function(...) return ... end)({code}\n)");
        let chunk = match self.lua.load(expression).set_name(REPL_CHUNK).into_function() {
            Ok(expression) => expression,
            Err(_) => self.lua.load(code).set_name(REPL_CHUNK).into_function()?,
        };
        let values: MultiValue = self.protect.call(chunk)?;
        Ok(values.iter().map(pretty).collect::<mlua::Result<_>>()?)
    }

    /// [`is_incomplete`] with this host's Lua state.
    pub fn is_incomplete(&self, code: &str) -> bool {
        is_incomplete(&self.lua, code)
    }

    /// Whether `code` compiles as the prompt runs it: as an expression, or as statements.
    pub fn compiles(&self, code: &str) -> bool {
        let compiles = |text: &str| self.lua.load(text).into_function().is_ok();
        compiles(&format!("return {code}")) || compiles(code)
    }

    /// Calls `bl.NAME(args…)` as a script would (the REPL's `:step`, `:frames`).
    pub fn call_bl(&self, name: &str, args: impl IntoLuaMulti) -> Result<(), ScriptError> {
        let bl: Table = self.lua.globals().get("bl")?;
        bl.get::<Function>(name)?.call::<()>(args)?;
        Ok(())
    }

    /// Makes Ctrl-C possible: returns the flag that, once set (from any thread), stops running
    /// Lua at its next instruction check and a step at its next frame boundary. Whoever sets
    /// it clears it before the next chunk.
    pub fn enable_interrupts(&self) -> Result<Arc<AtomicBool>, ScriptError> {
        self.watch_instructions()?;
        Ok(self.state.borrow().watchdog.interrupt.clone())
    }

    /// The frame whose Lua (a `bl.at` callback, a `bl.on` listener) Ctrl-C or the timeout
    /// stopped part way since the last call, if one did: that frame finished without the rest
    /// of that Lua, which a replay cannot redo.
    pub fn take_stopped_inside_frame(&self) -> Option<i64> {
        self.state.borrow_mut().stopped_inside_frame.take()
    }

    /// Limits what the scripts this host runs from now on may spend: a timeout counted from
    /// this call (a located `timed out` error at the line running when it passes, checked
    /// every few Lua instructions and before every logic frame; past it by
    /// [`limits::BACKSTOP_GRACE`], code that cannot be stopped ends the process, named after
    /// `script`, unless a test runner watches the thread) and a memory ceiling for the Lua state (a `not enough memory` error past it).
    pub fn set_limits(&self, script: &Path, limits: Limits) -> Result<(), ScriptError> {
        if let Some(bytes) = limits.max_memory {
            self.lua.set_memory_limit(bytes)?;
            self.memory_limit.set(Some(bytes));
        }
        if let Some(timeout) = limits.timeout {
            self.state.borrow().watchdog.arm(timeout, script.display().to_string());
            self.watch_instructions()?;
        }
        Ok(())
    }

    /// Sandboxes this host (`run --sandbox`) to the folder `root`: no `os`, `io`, `debug`,
    /// `dofile`, `loadfile`, `package.loadlib`; `require` of Lua modules inside `root` only;
    /// `bl.load` and `sweep:csv` paths inside `root` only.
    pub fn sandbox(&self, root: &Path) -> Result<(), ScriptError> {
        let root = root
            .canonicalize()
            .map_err(|e| ScriptError { message: format!("--sandbox: cannot resolve {}: {e}", root.display()) })?;
        sandbox::restrict(&self.lua, &root)?;
        self.state.borrow_mut().sandbox = Some(root);
        Ok(())
    }

    /// Holds the script this host is about to run, `script`, to `confinement`: the sandbox
    /// (rooted at the script's folder) first, then the limits, whose clock starts now.
    pub fn confine(&self, script: &Path, confinement: Confinement) -> Result<(), ScriptError> {
        if confinement.sandbox {
            self.sandbox(script.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")))?;
        }
        self.set_limits(script, confinement.limits)
    }

    /// What a headless run (`blendlab run`, `test`, `--golden`, `--partition-check`) does
    /// once its script ended with `ran`. When it did not fail (it returned, or called
    /// `os.exit(0)`), the steps a giant plan still holds run, as the script as written ran
    /// them, then each `bl.at` callback still scheduled is a warning at its `bl.at` call, in
    /// scheduling order: the clock never reached its time, or no frame ran after it was
    /// scheduled. The REPL and `run --watch` never call it: their session goes on. Returns
    /// `ran`, or the error of a held step.
    pub fn finish_script(&self, ran: Result<(), ScriptError>) -> Result<(), ScriptError> {
        if ran.is_err() && self.exit_code() != Some(0) {
            return ran;
        }
        self.flush_steps()?;
        let (now, never_ran): (Ticks, Vec<(f64, String)>) = {
            let host = self.state.borrow();
            (host.session.clock().time(), host.callbacks.values().map(|c| (c.time, c.location.clone())).collect())
        };
        let ended = format!("the script ended at {:.6} s", now.secs());
        for (time, location) in never_ran {
            let why = if Ticks::from_secs(time).is_ok_and(|due| due > now) {
                ended.clone()
            } else {
                format!("no frame ran after it was scheduled ({ended})")
            };
            api::warn_at(&self.state, &location, format!("bl.at({time}) never ran: {why}"))?;
        }
        ran
    }

    /// Makes `os.exit` end this host's script rather than the process (every headless run):
    /// see [`Host::exit_code`].
    pub fn end_script_on_exit(&self) -> Result<(), ScriptError> {
        Ok(limits::end_script_on_exit(&self.lua, &self.state.borrow().watchdog)?)
    }

    /// The code of the `os.exit` that ended this host's script, if one did: its error is then
    /// `file:line: os.exit(CODE)`, no failure when the code is 0.
    pub fn exit_code(&self) -> Option<i32> {
        self.state.borrow().watchdog.exited()
    }

    /// Gives this host's scripts an empty standard input (`blendlab test`, `--golden`,
    /// `--partition-check`): `io.stdin` and the default input become an empty file, so
    /// `io.read()` returns nil at once rather than waiting on the terminal, and every run of a
    /// check reads the same. Nothing to do without `io` (`--sandbox`).
    pub fn empty_stdin(&self) -> Result<(), ScriptError> {
        const EMPTY: &str = "if io then io.stdin = assert(io.tmpfile()); io.input(io.stdin) end";
        Ok(self.lua.load(EMPTY).set_name("=[stdin]").exec()?)
    }

    /// Whether `--timeout` stopped a script of this host (its error says where).
    pub fn timed_out(&self) -> bool {
        self.state.borrow().watchdog.timed_out()
    }

    /// The Lua hook that stops running code once the watchdog trips.
    fn watch_instructions(&self) -> Result<(), ScriptError> {
        let watchdog = self.state.borrow().watchdog.clone();
        self.lua.set_global_hook(
            HookTriggers::new().every_nth_instruction(limits::CHECK_INTERVAL),
            move |lua, _| match watchdog.tripped() {
                Some(reason) => Err(api::located(lua, reason)),
                None => Ok(VmState::Continue),
            },
        )?;
        Ok(())
    }

    /// Prints events of `kind` as they happen (`on`) or stops (`off`).
    pub fn set_live(&self, kind: &str, on: bool) -> Result<(), String> {
        check_kind(kind)?;
        let mut host = self.state.borrow_mut();
        if on {
            host.live.insert(kind.into())
        } else {
            host.live.remove(kind)
        };
        Ok(())
    }

    /// The event kinds printed as they happen, sorted.
    pub fn live_kinds(&self) -> Vec<String> {
        self.state.borrow().live.iter().cloned().collect()
    }

    /// Hands events logged since the last look to listeners and the live printer (a REPL
    /// calls it after every input, so a failed `bl.load` shows its `reload_failed` at once).
    pub fn flush_events(&self) -> Result<(), ScriptError> {
        Ok(api::dispatch(&self.lua, &self.state)?)
    }

    /// How this host colours what it prints.
    pub fn style(&self) -> Style {
        self.state.borrow().output.style
    }

    /// Every file a hot reload should follow: loaded configs, then Lua files run.
    pub fn watched_files(&self) -> Vec<String> {
        let host = self.state.borrow();
        host.sources.iter().chain(&host.scripts).map(|s| s.path.clone()).collect()
    }

    /// Configs a load failed for that a hot reload should follow, to load each once a save
    /// fixes it (see [`Host::load_config`]).
    pub fn unloaded_configs(&self) -> Vec<String> {
        self.state.borrow().unloaded.clone()
    }

    /// Whether `path` is a Lua file this host ran (re-run by `:reload`, not by a save).
    pub fn is_script(&self, path: &str) -> bool {
        self.state.borrow().scripts.iter().any(|s| s.path == path)
    }

    /// Re-reads loaded config files and rebuilds the library: on success every actor moves
    /// onto it by name, and the changes say what was removed or reset, with each leaf's weight
    /// before and after at the current frame; on failure nothing changes. A deleted file
    /// fails the reload until it is back.
    pub fn reload_configs(&self, paths: &[String]) -> Reload {
        let mut updates = Vec::new();
        let mut unreadable = Vec::new();
        let mut host = self.state.borrow_mut();
        let mut batch = paths.to_vec();
        for path in std::mem::take(&mut host.retry) {
            if !batch.contains(&path) {
                batch.push(path);
            }
        }
        for path in &batch {
            // An editor that truncates before it writes shows an empty file for a moment:
            // applying it would drop every asset the file defines, and the actors' state.
            let had_text = host.sources.iter().any(|s| s.path == *path && !s.text.trim().is_empty());
            match read_config(path) {
                Ok(text) if had_text && text.trim().is_empty() => unreadable.push(format!(
                    "{path}: error: the file is empty (a save in progress?); its last good text stays live\n"
                )),
                Ok(text) => updates.push(SourceFile { path: path.clone(), text }),
                Err(Unreadable::Io(e)) => unreadable.push(format!("{path}: error: cannot read file: {e}\n")),
                Err(Unreadable::NotText(diagnostic)) => unreadable.push(diagnostic),
            }
        }
        if !unreadable.is_empty() {
            host.session.reload_failed(unreadable.len());
            host.last_build_failed = true;
            host.retry = loaded_only(&host.sources, batch);
            let generation = host.session.generation();
            return Reload::Failed { errors: unreadable.len(), generation, diagnostics: unreadable.concat() };
        }
        let same = |u: &SourceFile| host.sources.iter().any(|s| s.path == u.path && s.text == u.text);
        if !host.last_build_failed && updates.iter().all(same) {
            return Reload::Unchanged;
        }
        let before = reload::capture(&host.session);
        drop(host);
        if let Err(BuildFailure { errors, message }) = rebuild(&self.state, updates, Warnings::New) {
            let mut host = self.state.borrow_mut();
            host.retry = loaded_only(&host.sources, batch);
            return Reload::Failed { errors, generation: host.session.generation(), diagnostics: message };
        }
        Reload::Applied { changes: reload::diff(&before, &reload::capture(&self.state.borrow().session)) }
    }

    /// The Lua files run earlier whose text on disk is not the text they ran (or that cannot
    /// be read now), in the order they first ran: what `:reload` re-runs. The REPL asks
    /// before it reloads configs, to say what happens next truthfully.
    pub fn changed_scripts(&self) -> Vec<String> {
        let host = self.state.borrow();
        let changed = |s: &&SourceFile| std::fs::read_to_string(&s.path).map_or(true, |text| text != s.text);
        host.scripts.iter().filter(changed).map(|s| s.path.clone()).collect()
    }

    /// `:reload` for one Lua file run earlier: re-runs it in the same globals. While it
    /// re-runs, its `bl.spawn` of an actor that already exists with the same spec returns
    /// that actor, and the listeners and the `bl.at` callbacks (those not run yet) of its
    /// previous run are replaced.
    /// A file that cannot be read now keeps what its previous run registered.
    pub fn rerun_script(&self, name: &str) -> Result<(), ScriptError> {
        let source = read_script(Path::new(name))?;
        let origin = format!("@{name}");
        {
            let mut host = self.state.borrow_mut();
            host.listeners.retain(|l| l.origin.as_deref() != Some(origin.as_str()));
            host.callbacks.retain(|_, c| c.origin.as_deref() != Some(origin.as_str()));
            host.rerunning = Some(origin);
        }
        let outcome = self.run_source(Path::new(name), source, &[]);
        self.state.borrow_mut().rerunning = None;
        outcome
    }

    /// Completion candidates after `a.b.` (`methods`: after `a:b:`): the string keys of the
    /// value that path names among the globals, or an actor's methods. Nothing runs: only
    /// raw table reads.
    pub fn completions(&self, path: &[&str], methods: bool) -> Vec<String> {
        let mut value = Value::Table(self.lua.globals());
        for segment in path {
            value = match value {
                Value::Table(table) => table.raw_get(*segment).unwrap_or(Value::Nil),
                _ => return Vec::new(),
            };
        }
        let table = match value {
            Value::Table(table) => table,
            Value::UserData(data) => {
                let Ok(kind) = data.borrow::<actor::Handle>().map(|h| h.kind()) else { return Vec::new() };
                match self.lua.named_registry_value::<Table>(actor::METHODS_KEY).and_then(|t| t.get::<Table>(kind)) {
                    Ok(table) => table,
                    Err(_) => return Vec::new(),
                }
            }
            _ => return Vec::new(),
        };
        let mut keys: Vec<String> = table
            .pairs::<Value, Value>()
            .filter_map(Result::ok)
            .filter(|(_, v)| !methods || matches!(v, Value::Function(_)))
            .filter_map(|(k, _)| match k {
                Value::String(s) => Some(s.to_string_lossy()),
                _ => None,
            })
            .filter(|k| !k.starts_with("__"))
            .collect();
        keys.sort();
        keys
    }

    /// Names a string argument may hold: actors, parameters, assets and event kinds, sorted.
    pub fn names(&self) -> Vec<String> {
        let host = self.state.borrow();
        let session = &host.session;
        let snapshot = session.snapshot();
        let mut names: BTreeSet<String> = session.actors().iter().map(|a| a.name().to_string()).collect();
        names.extend(snapshot.parameters.iter().map(|p| p.name.clone()));
        names.extend(snapshot.assets.keys().cloned());
        names.extend(KIND_NAMES.iter().map(|k| k.to_string()));
        names.into_iter().collect()
    }

    /// Runs a chunk of Lua (a REPL line or `-e` text) named `name`.
    pub fn exec(&self, code: &str, name: &str) -> Result<(), ScriptError> {
        self.lua.load(code).set_name(format!("={name}")).exec()?;
        Ok(())
    }

    /// Loads a config file as `bl.load` does (a relative path against the working directory).
    pub fn load_config(&self, path: &Path) -> Result<Vec<String>, ScriptError> {
        self.load_configs(&[path.to_path_buf()])
    }

    /// Loads config files that make one library together (files that refer to each other),
    /// in one build, as `bl.load{ … }` does.
    pub fn load_configs(&self, paths: &[PathBuf]) -> Result<Vec<String>, ScriptError> {
        load_configs(&self.state, paths).map_err(|message| ScriptError { message })
    }

    /// Whether config files `paths` would load together (see [`Host::load_configs`]); nothing
    /// changes.
    pub fn loads_together(&self, paths: &[PathBuf]) -> bool {
        loads_together(&self.state, paths)
    }

    /// Whether config file `path` reads without an error of its own (its TOML and each entry's
    /// local checks; names it refers to may live in other files); nothing changes.
    pub fn reads_cleanly(path: &Path) -> bool {
        read_configs(&shown_paths(&[path.to_path_buf()]))
            .is_ok_and(|files| files.iter().all(|f| crate::config::parse_file(f).1.iter().all(|d| !d.is_error())))
    }

    /// Read access to the session.
    pub fn with_session<R>(&self, f: impl FnOnce(&Session) -> R) -> R {
        f(&self.state.borrow().session)
    }
}

/// The text of the Lua file `path`, or an error naming it.
fn read_script(path: &Path) -> Result<String, ScriptError> {
    std::fs::read_to_string(path).map_err(|e| ScriptError { message: format!("cannot read {}: {e}", path.display()) })
}

/// Resolves `..` and `.` lexically so printed paths stay short and stable.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.components().next_back(), Some(Component::Normal(_))) => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// A config's path as it is shown and known (in diagnostics, events, reloads): `.` and `..`
/// resolved, and relative to the working folder when it lies inside it, so a file reached
/// by an absolute path or from a replay elsewhere reads as it does when loaded from here.
fn shown_path(path: &Path) -> PathBuf {
    let path = normalize(path);
    if path.as_os_str().is_empty() {
        // `.` (the REPL's `bl.load(".")`, `./`): the working folder.
        return PathBuf::from(".");
    }
    let inside = std::env::current_dir().ok().and_then(|folder| path.strip_prefix(folder).ok().map(Path::to_path_buf));
    inside.filter(|relative| !relative.as_os_str().is_empty()).unwrap_or(path)
}

/// `paths` (shown, [`shown_paths`]) with each file the library knows already — loaded, or
/// followed after a failed load — under the name it is known by, however it is spelt now
/// (`../sub/a.toml` and `a.toml`, a symbolic link and its file): one file is one file. A
/// file named twice is kept once.
fn known_spellings(state: &Shared, paths: Vec<String>) -> Vec<String> {
    let host = state.borrow();
    let known: Vec<(PathBuf, &String)> = host
        .sources
        .iter()
        .map(|s| &s.path)
        .chain(&host.unloaded)
        .filter_map(|p| Some((Path::new(p).canonicalize().ok()?, p)))
        .collect();
    let mut out: Vec<String> = Vec::with_capacity(paths.len());
    for path in paths {
        let found = Path::new(&path).canonicalize().ok();
        let named = found.and_then(|f| known.iter().find(|(k, _)| *k == f).map(|(_, p)| (*p).clone()));
        let name = named.unwrap_or(path);
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// The files of `batch` that are part of the live library (`sources`).
fn loaded_only(sources: &[SourceFile], batch: Vec<String>) -> Vec<String> {
    batch.into_iter().filter(|path| sources.iter().any(|s| s.path == *path)).collect()
}

/// Reads `paths`, rebuilds the library with them in one build (replacing earlier loads of the
/// same files; files that refer to each other load together in any order), and makes the
/// result live. On any error the live library is unchanged, the failure is logged as
/// `reload_failed`, and the message holds every diagnostic.
///
/// A file that is not loaded after a failure, in a folder that exists, is remembered as
/// unloaded (a hot reload follows it) until a load of it succeeds.
fn load_configs(state: &Shared, paths: &[PathBuf]) -> Result<Vec<String>, String> {
    let paths = known_spellings(state, shown_paths(&config_files(paths)?));
    if let Some(path) = paths.iter().find(|p| p.ends_with(".lua")) {
        // `dofile` reads from the working folder, which `path` is shown from.
        return Err(format!("{path}: a Lua script, not a TOML config: run it with dofile({path:?})"));
    }
    if let Some(path) = paths.iter().find(|p| !p.ends_with(".toml")) {
        // Read as TOML, a README or a JSON file would be an error per line.
        let with_extension = format!("{path}.toml");
        let hint = if Path::new(&with_extension).is_file() {
            format!("; did you mean {with_extension}?")
        } else if !Path::new(path).exists() {
            // `nope`, a name mistyped: it is not there, whatever its name ends in.
            return Err(format!("{path}: no such file or folder"));
        } else {
            String::new()
        };
        return Err(format!("{path}: not a TOML config (a config file's name ends in .toml){hint}"));
    }
    let loaded = read_configs(&paths)
        .inspect_err(|_| {
            let mut host = state.borrow_mut();
            host.session.reload_failed(1);
            host.last_build_failed = true;
        })
        .and_then(|files| rebuild(state, files, Warnings::All).map_err(|failure| failure.message));
    let mut host = state.borrow_mut();
    host.unloaded.retain(|p| !paths.contains(p));
    if let Err(message) = loaded {
        for path in paths {
            let folder = Path::new(&path).parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
            if !host.sources.iter().any(|s| s.path == path) && folder.is_dir() {
                host.unloaded.push(path);
            }
        }
        return Err(message);
    }
    let files = &host.session.snapshot().files;
    Ok(paths
        .iter()
        .flat_map(|path| files.iter().filter(move |(p, _)| p == path).flat_map(|(_, n)| n.clone()))
        .collect())
}

/// The config files `paths` name: a file as it is, a folder as every `*.toml` directly in it
/// (sorted), as `blendlab check` and the prompt take folders.
fn config_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::with_capacity(paths.len());
    for path in paths {
        // `x.toml/`, which the system refuses (ENOTDIR), and `nope/`: the shown path drops the `/`.
        match std::fs::metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => {
                return Err(format!("{}: not a folder (a part of it before a `/` is a file)", path.display()));
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && path.as_os_str().to_string_lossy().ends_with('/') => {
                return Err(format!("{}/: no such folder", shown_path(path).display()));
            }
            _ => {}
        }
        match path.is_dir() {
            true => files.extend(headless::find_files(&[shown_path(path)], "toml")?),
            false => files.push(path.clone()),
        }
    }
    Ok(files)
}

/// What `bl.load` adds to its error when a relative path it was given names nothing: what
/// the path was resolved against — the folder of the calling script (`script`: the caller is
/// a Lua file; `folder` is that file's folder, empty for the working folder), or the working
/// folder (a prompt line) — and, when the path leads out of the working folder, both
/// absolute, so that `../samples/x.toml` from a script saved one folder too high shows where
/// it was looked for. `given` and `full` pair each path as written with it resolved.
pub(crate) fn unresolved_hint(given: &[String], full: &[PathBuf], folder: &Path, script: bool) -> String {
    // Not there (a file named as a folder, `x.toml/`, is there: its error says so).
    let absent = |f: &PathBuf| std::fs::metadata(f).is_err_and(|e| e.kind() != std::io::ErrorKind::NotADirectory);
    let missing = given.iter().zip(full).find(|(g, f)| Path::new(g).is_relative() && absent(f));
    let Some((_, path)) = missing else { return String::new() };
    let against = match (script, folder.as_os_str().is_empty()) {
        (true, true) => "the calling script's folder, which is the working folder".to_string(),
        (true, false) => format!("the calling script's folder {}", folder.display()),
        (false, _) => "the working folder".to_string(),
    };
    let shown = shown_path(path);
    let absolute = |p: &Path| std::path::absolute(p).ok().map(|p| normalize(&p));
    let mut hint = format!(" (a relative path is resolved against {against}");
    if shown.is_absolute() || shown.starts_with("..") {
        if let Some(base) = absolute(&folder.join(".")).filter(|_| !folder.is_absolute()) {
            let _ = write!(hint, ", {}", base.display());
        }
        if let Some(file) = absolute(path) {
            let _ = write!(hint, ": that is {}", file.display());
        }
    }
    hint.push(')');
    hint
}

/// Config paths as loaded files are named ([`shown_path`]), each once (the first time given).
fn shown_paths(paths: &[PathBuf]) -> Vec<String> {
    let mut shown: Vec<String> = Vec::with_capacity(paths.len());
    for path in paths.iter().map(|p| shown_path(p).display().to_string()) {
        if !shown.contains(&path) {
            shown.push(path);
        }
    }
    shown
}

/// The texts of config files `paths`, or the message of the first that cannot be read.
fn read_configs(paths: &[String]) -> Result<Vec<SourceFile>, String> {
    let read = |path: &String| {
        read_config(path).map(|text| SourceFile { path: path.clone(), text }).map_err(|why| match why {
            // A message, not a diagnostic line: whoever shows it labels it `error:` already.
            Unreadable::Io(e) => format!("{path}: cannot read file: {e}"),
            Unreadable::NotText(diagnostic) => format!("{path}: not UTF-8 text, nothing changed\n{diagnostic}"),
        })
    };
    paths.iter().map(read).collect()
}

/// Whether config files `paths` would build a library with the live one's other files, in one
/// build: nothing is loaded, logged or printed.
fn loads_together(state: &Shared, paths: &[PathBuf]) -> bool {
    let paths = known_spellings(state, shown_paths(paths));
    let Ok(files) = read_configs(&paths) else { return false };
    let mut sources = state.borrow().sources.clone();
    sources.retain(|s| !paths.contains(&s.path));
    sources.extend(files);
    compile(&sources).snapshot.is_some()
}

/// Why a config file could not be read.
enum Unreadable {
    Io(std::io::Error),
    /// Its bytes are not UTF-8 text: the diagnostic of the first invalid one, rendered
    /// (`file:line:col`, as `blendlab check` shows it).
    NotText(String),
}

/// The text of config file `path`.
fn read_config(path: &str) -> Result<String, Unreadable> {
    let bytes = std::fs::read(path).map_err(Unreadable::Io)?;
    SourceFile::from_bytes(path, bytes)
        .map(|source| source.text)
        .map_err(|(d, text)| Unreadable::NotText(d.render(&text)))
}

/// Which warnings of a new library a build writes (and logs as `warning` events).
#[derive(Clone, Copy, PartialEq)]
enum Warnings {
    /// Every one: a `bl.load` asks for the files, warnings and all.
    All,
    /// Those the live library did not have: a hot reload after a save of one file does not
    /// repeat every other file's warnings.
    New,
}

/// A library build that failed: how many errors, and the message holding every diagnostic.
struct BuildFailure {
    errors: usize,
    message: String,
}

/// Rebuilds the library with `updates` (new texts of loaded files, or new files) and makes it
/// live, moving every actor onto it. On any error the live library is unchanged, the failure
/// is logged as `reload_failed`, and the message holds every diagnostic.
fn rebuild(state: &Shared, updates: Vec<SourceFile>, warnings: Warnings) -> Result<(), BuildFailure> {
    let mut host = state.borrow_mut();
    let label = updates.iter().map(|u| u.path.as_str()).collect::<Vec<_>>().join(", ");
    let mut sources = host.sources.clone();
    for update in updates {
        match sources.iter_mut().find(|s| s.path == update.path) {
            Some(existing) => existing.text = update.text,
            None => sources.push(update),
        }
    }
    let compiled = compile(&sources);
    let rendered = |d: &Diagnostic| {
        let text = sources.iter().find(|s| s.path == d.file).map_or("", |s| s.text.as_str());
        d.render(text)
    };
    let Some(snapshot) = compiled.snapshot else {
        let errors: Vec<String> = compiled.diagnostics.iter().filter(|d| d.is_error()).map(rendered).collect();
        host.session.reload_failed(errors.len());
        host.last_build_failed = true;
        let count = errors.len();
        let message = format!(
            "{label}: {count} error{} in the library, nothing changed\n{}",
            if count == 1 { "" } else { "s" },
            errors.join("")
        );
        return Err(BuildFailure { errors: count, message });
    };
    let mut warned = Vec::new();
    for warning in compiled.diagnostics.iter().filter(|d| !d.is_error()) {
        let text = rendered(warning);
        if warnings == Warnings::All || !host.warned.contains(&text) {
            let _ = write!(host.output.err, "{text}");
            let index = host.session.events().len();
            host.written_warnings.insert(index);
            host.session
                .warn(warning.headline(sources.iter().find(|s| s.path == warning.file).map_or("", |s| &s.text)));
        }
        warned.push(text);
    }
    host.warned = warned;
    host.sources = sources;
    host.last_build_failed = false;
    host.session.apply_snapshot(snapshot);
    let host = &mut *host;
    for message in inputs::stop_removed(&mut host.inputs, &host.session) {
        let _ = writeln!(host.output.err, "warning: {message}");
        let index = host.session.events().len();
        host.written_warnings.insert(index);
        host.session.warn(message);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracebacks_show_blendlabs_own_lua_as_the_c_functions_it_wraps() {
        let trace = "boom\nstack traceback:\n\t[C]: in function 'error'\n\t[bl]:16: in method 'set'\n\
                     \tstdin:1: in function <stdin:1>\n\t[C]: in upvalue 'xpcall'\n\t[limits]:9: in function 'xpcall'\n\
                     \tstdin:1: in main chunk\n\t[C]: in upvalue 'xpcall'\n\t[limits]:9: in function 'xpcall'\n\
                     \t[bl]:4: in function <[bl]:3>";
        let shown = "boom\nstack traceback:\n\t[C]: in method 'set'\n\tstdin:1: in function <stdin:1>\n\
                     \t[C]: in function 'xpcall'\n\tstdin:1: in main chunk\n\t[C]: in ?";
        assert_eq!(String::from_utf8(hide_internal_frames(trace.as_bytes(), 0)).unwrap(), shown);
        // A C function a script hands to a wrapper stays; levels count the frames shown.
        let trace = b"\xff\nstack traceback:\n\t[C]: in function 'string.rep'\n\t[C]: in upvalue 'xpcall'\n\
                     \t[limits]:9: in function 'xpcall'\n\tx.lua:1: in main chunk";
        let shown = b"\xff\nstack traceback:\n\t[C]: in function 'xpcall'\n\tx.lua:1: in main chunk";
        assert_eq!(hide_internal_frames(trace, 1), shown);
    }
}
