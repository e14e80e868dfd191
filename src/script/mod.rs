//! Lua bindings over the [`Session`]: the global table `bl` and actor handles (DESIGN.md
//! "Interfaces that outside scripts rely on"). This is a front end: it reads files, owns the
//! Lua state and writes what scripts print; the core never sees Lua.
//!
//! The session lives in an `Rc<RefCell<…>>` shared by every binding. No borrow is held while
//! Lua code runs, so callbacks (`bl.at`, `bl.on`) may call back into `bl`.

mod actor;
mod api;
mod sweep;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

use mlua::{Function, Lua};

use crate::compile::compile;
use crate::config::{Diagnostic, SourceFile};
use crate::report::Style;
use crate::session::Session;

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
    output: Output,
    /// `bl.at` callbacks by id.
    callbacks: BTreeMap<u64, Function>,
    next_callback: u64,
    /// `bl.on` listeners: (event kind, function), in registration order.
    listeners: Vec<(String, Function)>,
    /// Events already handed to listeners.
    dispatched: usize,
}

type Shared = Rc<RefCell<HostState>>;

/// A Lua state with `bl` installed over a fresh session.
pub struct Host {
    lua: Lua,
    state: Shared,
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

/// A message without the `stack traceback:` Lua appends to errors that cross a call.
pub(crate) fn strip_traceback(message: &str) -> String {
    message.split("\nstack traceback:").next().unwrap_or(message).to_string()
}

impl Host {
    pub fn new(output: Output) -> Result<Host, ScriptError> {
        let lua = Lua::new();
        let state = Rc::new(RefCell::new(HostState {
            session: Session::default(),
            sources: Vec::new(),
            output,
            callbacks: BTreeMap::new(),
            next_callback: 0,
            listeners: Vec::new(),
            dispatched: 0,
        }));
        api::install(&lua, &state)?;
        Ok(Host { lua, state })
    }

    /// Runs a script file as `blendlab run` does: `arg[0]` is the path, `arg[1..]` and `...`
    /// are `args`.
    pub fn run_file(&self, path: &Path, args: &[String]) -> Result<(), ScriptError> {
        let source = std::fs::read_to_string(path)
            .map_err(|e| ScriptError { message: format!("cannot read {}: {e}", path.display()) })?;
        let arg = self.lua.create_table()?;
        arg.set(0, path.display().to_string())?;
        for (i, a) in args.iter().enumerate() {
            arg.set(i + 1, a.as_str())?;
        }
        self.lua.globals().set("arg", arg)?;
        let chunk = self.lua.load(source).set_name(format!("@{}", path.display()));
        chunk.call::<()>(mlua::Variadic::from_iter(args.iter().cloned()))?;
        Ok(())
    }

    /// Runs a chunk of Lua (a REPL line or `-e` text) named `name`.
    pub fn exec(&self, code: &str, name: &str) -> Result<(), ScriptError> {
        self.lua.load(code).set_name(format!("={name}")).exec()?;
        Ok(())
    }

    /// Loads a config file as `bl.load` does (a relative path against the working directory).
    pub fn load_config(&self, path: &Path) -> Result<Vec<String>, ScriptError> {
        load_config(&self.state, path).map_err(|message| ScriptError { message })
    }

    /// Read access to the session.
    pub fn with_session<R>(&self, f: impl FnOnce(&Session) -> R) -> R {
        f(&self.state.borrow().session)
    }
}

/// Resolves `..` and `.` lexically so printed paths stay short and stable.
fn normalize(path: &Path) -> PathBuf {
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

/// Reads `path`, rebuilds the library with it (replacing an earlier load of the same file),
/// and makes the result live. On any error the live library is unchanged, the failure is
/// logged as `reload_failed`, and the message holds every diagnostic.
fn load_config(state: &Shared, path: &Path) -> Result<Vec<String>, String> {
    let path = normalize(path).display().to_string();
    let text = std::fs::read_to_string(&path).map_err(|e| {
        state.borrow_mut().session.reload_failed(1);
        format!("{path}: error: cannot read file: {e}")
    })?;
    let mut host = state.borrow_mut();
    let mut sources = host.sources.clone();
    match sources.iter_mut().find(|s| s.path == path) {
        Some(existing) => existing.text = text,
        None => sources.push(SourceFile { path: path.clone(), text }),
    }
    let compiled = compile(&sources);
    let rendered = |d: &Diagnostic| {
        let text = sources.iter().find(|s| s.path == d.file).map_or("", |s| s.text.as_str());
        d.render(text)
    };
    let Some(snapshot) = compiled.snapshot else {
        let errors: Vec<String> = compiled.diagnostics.iter().filter(|d| d.is_error()).map(rendered).collect();
        host.session.reload_failed(errors.len());
        let count = errors.len();
        return Err(format!(
            "{path}: {count} error{} in the library, nothing changed\n{}",
            if count == 1 { "" } else { "s" },
            errors.join("")
        ));
    };
    for warning in compiled.diagnostics.iter().filter(|d| !d.is_error()) {
        let text = rendered(warning);
        let _ = write!(host.output.err, "{text}");
        host.session.warn(warning.headline(sources.iter().find(|s| s.path == warning.file).map_or("", |s| &s.text)));
    }
    let names = snapshot.files.iter().find(|(p, _)| *p == path).map(|(_, n)| n.clone()).unwrap_or_default();
    host.sources = sources;
    host.session.apply_snapshot(snapshot);
    Ok(names)
}
