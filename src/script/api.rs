//! The global table `bl`: loading, spawning, inputs, the clock, events and expectations.

use std::path::{Path, PathBuf};

use mlua::{FromLua, Function, Lua, MultiValue, Table, Value, Variadic};

use super::actor::Handle;
use super::{HostState, Listener, Shared, load_configs};
use crate::config::{number, suggestion};
use crate::event::{Event, EventFilter, FieldValue};
use crate::report::event_line;
use crate::session::{ActorId, ActorSpec, Session};

/// Chunk name of the prelude.
pub(crate) const PRELUDE_NAME: &str = "=[bl]";
/// Chunk names of blendlab's own Lua (the prelude, the uncatchable `pcall` of `limits`),
/// whose frames are skipped when locating errors and read as C functions in tracebacks.
pub(crate) const INTERNAL_CHUNKS: &[&str] = &[PRELUDE_NAME, super::limits::CHUNK_NAME];

/// The innermost stack frame of user Lua code: (source, current line).
fn user_frame(lua: &Lua) -> Option<(String, usize)> {
    (0..64).find_map(|level| {
        lua.inspect_stack(level, |frame| {
            let source = frame.source();
            let name = source.source.as_deref().unwrap_or("");
            let line = frame.current_line()?;
            (source.what != "C" && !INTERNAL_CHUNKS.contains(&name)).then(|| (name.to_string(), line))
        })
        .flatten()
    })
}

/// `file:line: ` of the user code that called into `bl` (nothing when there is none).
pub(crate) fn caller_location(lua: &Lua) -> String {
    user_frame(lua).map_or(String::new(), |(source, line)| {
        let short = source.strip_prefix(['@', '=']).unwrap_or(&source).to_string();
        format!("{short}:{line}: ")
    })
}

/// A Lua runtime error located at the user code that called into `bl`, as `file:line: msg`.
pub(crate) fn located(lua: &Lua, message: impl std::fmt::Display) -> mlua::Error {
    mlua::Error::RuntimeError(format!("{}{message}", caller_location(lua)))
}

/// Registry key of the prelude's `__index` functions: `handle` (actors and playbacks),
/// `recording`, and `strict`, which makes one for a handle table.
pub(crate) const INDEXES_KEY: &str = "blendlab.indexes";

/// The message for reading `key`, which names nothing there, from one of the API's tables:
/// located at the script's line, with the closest name the `tables` have (``bl.spwn: no such
/// function; did you mean `spawn`?``). `label` and `separator` name the table as a script
/// writes it (`bl` `.`, `actor` `:`); `what` says what its names are.
fn no_such_name(
    lua: &Lua,
    (label, separator, what): (&str, char, &str),
    key: &Value,
    tables: &[Table],
) -> (String, bool) {
    let (shown, hint) = match key {
        Value::String(name) => {
            let name = name.to_string_lossy();
            let known: Vec<String> = tables
                .iter()
                .flat_map(|table| table.pairs::<Value, Value>())
                .filter_map(|pair| match pair {
                    Ok((Value::String(known), _)) => Some(known.to_string_lossy()),
                    _ => None,
                })
                .filter(|known| !known.starts_with("__"))
                .collect();
            (format!("{label}{separator}{name}"), suggestion(&name, known.iter().map(String::as_str)))
        }
        other => (format!("{label}{}", key_label(other)), None),
    };
    let hinted = hint.is_some();
    (
        format!("{}{shown}: no such {what}{}", caller_location(lua), hint.map_or(String::new(), |h| format!("; {h}"))),
        hinted,
    )
}

/// A table key as a message shows it: a name as it is, other keys in brackets (`[0]`,
/// `[boolean]`).
fn key_label(key: &Value) -> String {
    match key {
        Value::String(name) => name.to_string_lossy(),
        Value::Integer(i) => format!("[{i}]"),
        other => format!("[{}]", other.type_name()),
    }
}

/// The paths of `bl.load`'s list form: one path at each position 1..n, nothing else — a
/// hole or another key would be a file silently left out.
fn listed_paths(list: &Table) -> Result<Vec<String>, String> {
    let mut paths = Vec::new();
    for pair in list.pairs::<Value, Value>() {
        let (key, value) = pair.map_err(|e| e.to_string())?;
        let position = match key {
            Value::Integer(k) if k >= 1 => k as usize,
            other => return Err(format!("a list of paths has paths at 1, 2, …, not at key `{}`", key_label(&other))),
        };
        let Value::String(path) = value else {
            return Err(format!("entry {position} of the list must be a path, got {}", value.type_name()));
        };
        paths.push((position, path.to_str().map_err(|e| e.to_string())?.to_string()));
    }
    paths.sort_by_key(|&(position, _)| position);
    if let Some(hole) = paths.iter().enumerate().find_map(|(i, &(position, _))| (position != i + 1).then_some(i + 1)) {
        return Err(format!("the list of paths has no entry {hole} (a nil in the list?)"));
    }
    if paths.is_empty() {
        return Err("the list of paths is empty".into());
    }
    Ok(paths.into_iter().map(|(_, path)| path).collect())
}

/// A warning about a `bl` call: `warning: file:line: msg` where diagnostics go, and a
/// `warning` event.
pub(crate) fn warn_located(lua: &Lua, state: &Shared, message: String) -> mlua::Result<()> {
    warn_at(state, &caller_location(lua), message)
}

/// A warning about the `bl` call at `location` (`file:line: `, as [`caller_location`] gives
/// it, or empty): `warning: file:line: msg` where diagnostics go, and a `warning` event.
pub(crate) fn warn_at(state: &Shared, location: &str, message: String) -> mlua::Result<()> {
    let mut host = state.borrow_mut();
    writeln!(host.output.err, "warning: {location}{message}").map_err(mlua::Error::external)?;
    let index = host.session.events().len();
    host.written_warnings.insert(index);
    host.session.warn(message);
    Ok(())
}

/// The folder of the Lua file that called into `bl` (the working directory for REPL lines).
pub(crate) fn caller_dir(lua: &Lua) -> PathBuf {
    user_frame(lua)
        .and_then(|(source, _)| {
            source.strip_prefix('@').map(|p| Path::new(p).parent().unwrap_or(Path::new("")).to_path_buf())
        })
        .unwrap_or_default()
}

/// A path a script names, against the folder of the calling script; under `--sandbox` it
/// must lie inside the sandbox folder (`what` names the function for the error).
pub(crate) fn script_path(lua: &Lua, state: &Shared, path: &str, what: &str) -> mlua::Result<PathBuf> {
    if path.is_empty() {
        // Joined to the script's folder it would name the folder itself.
        return Err(located(lua, format!("{what}: an empty path names no file")));
    }
    let full = caller_dir(lua).join(path);
    match &state.borrow().sandbox {
        Some(root) if !super::sandbox::inside(root, &full) => {
            Err(located(lua, format!("{what}: `{path}` is outside the script's folder {} (--sandbox)", root.display())))
        }
        _ => Ok(full),
    }
}

/// Installs `bl` and the actor methods: raw Rust functions, wrapped by the prelude so that
/// errors reach Lua as plain located strings.
pub(crate) fn install(lua: &Lua, state: &Shared) -> mlua::Result<()> {
    let bl = lua.create_table()?;
    super::actor::add_raw_methods(lua, &bl, state)?;
    super::actor::add_raw_playback_methods(lua, &bl, state)?;
    super::sweep::add_raw_functions(lua, &bl, state)?;
    super::assert::add_raw_functions(lua, &bl, state)?;
    super::record::add_raw_functions(lua, &bl, state)?;
    super::inputs::add_raw_functions(lua, &bl, state)?;

    let s = state.clone();
    bl.set(
        "load",
        lua.create_function(move |lua, paths: Value| {
            // One path, or a list of paths loaded together (files that refer to each other).
            let paths: Vec<String> = match paths {
                Value::Table(list) => listed_paths(&list).map_err(|why| located(lua, format!("bl.load: {why}")))?,
                Value::String(path) => vec![path.to_str()?.to_string()],
                other => {
                    let got = other.type_name();
                    return Err(located(
                        lua,
                        format!("bl.load: argument 1 must be a path or a list of paths, got {got}"),
                    ));
                }
            };
            let full =
                paths.iter().map(|path| script_path(lua, &s, path, "bl.load")).collect::<mlua::Result<Vec<_>>>()?;
            let names = load_configs(&s, &full).map_err(|m| {
                let script = user_frame(lua).is_some_and(|(source, _)| source.starts_with('@'));
                let hint = super::unresolved_hint(&paths, &full, &caller_dir(lua), script);
                located(lua, format!("bl.load: {m}{hint}"))
            })?;
            dispatch(lua, &s)?;
            lua.create_sequence_from(names)
        })?,
    )?;

    let s = state.clone();
    bl.set(
        "spawn",
        lua.create_function(move |lua, (name, spec): (String, Table)| {
            let spec = actor_spec(lua, &spec)?;
            if let Some(id) = respawn(&s, &name, &spec) {
                return Ok(Handle::Actor(id));
            }
            let id = s.borrow_mut().session.spawn(&name, spec).map_err(|e| located(lua, format!("bl.spawn: {e}")))?;
            print_live(&s)?;
            Ok(Handle::Actor(id))
        })?,
    )?;

    let s = state.clone();
    bl.set(
        "at",
        lua.create_function(move |lua, (time, callback): (f64, Function)| {
            let passed = {
                let mut host = s.borrow_mut();
                let id = host.next_callback;
                host.session.schedule(time, id).map_err(|e| located(lua, format!("bl.at: {e}")))?;
                host.next_callback += 1;
                let origin = user_frame(lua).map(|(source, _)| source);
                let location = caller_location(lua);
                host.callbacks.insert(id, super::Callback { function: callback, origin, time, location });
                let now = host.session.clock().time();
                // Scheduled: the time is a number of ticks. One before now has passed.
                crate::time::Ticks::from_secs(time).is_ok_and(|at| at < now).then_some(now)
            };
            if let Some(now) = passed {
                let message = format!(
                    "bl.at: {time} s has passed (the clock is at {:.6} s): the callback runs at the next frame; \
                     bl.at takes a time since the start, not a delay (bl.at(bl.time() + delay, …))",
                    now.secs()
                );
                warn_located(lua, &s, message)?;
            }
            Ok(())
        })?,
    )?;

    let s = state.clone();
    bl.set("step", lua.create_function(move |lua, dt: f64| super::partition::step(lua, &s, dt))?)?;

    let s = state.clone();
    bl.set(
        "frames",
        lua.create_function(move |lua, n: Value| {
            // An integer is taken as it is: through a float, `math.maxinteger` would become
            // one more frame than asked for.
            let count = match n.clone() {
                Value::Integer(n) => u64::try_from(n).ok(),
                other => {
                    let n = f64::from_lua(other, lua)?;
                    (n.fract() == 0.0 && n >= 0.0).then_some(n as u64)
                }
            };
            let Some(count) = count else {
                let shown = match n {
                    Value::Integer(n) => n.to_string(),
                    other => f64::from_lua(other, lua)?.to_string(),
                };
                return Err(located(lua, format!("bl.frames: takes a whole number of frames ≥ 0, got {shown}")));
            };
            refuse_inside_frames(lua, &s, "bl.frames")?;
            let frames =
                s.borrow_mut().session.plan_frames(count).map_err(|e| located(lua, format!("bl.frames: {e}")))?;
            run_frames(lua, &s, frames)
        })?,
    )?;

    let s = state.clone();
    bl.set("time", lua.create_function(move |_, ()| Ok(s.borrow().session.clock().time().secs()))?)?;
    let s = state.clone();
    bl.set("frame", lua.create_function(move |_, ()| Ok(s.borrow().session.clock().frame()))?)?;

    let s = state.clone();
    bl.set(
        "trace_ticks",
        lua.create_function(move |_, on: Option<bool>| {
            s.borrow_mut().session.set_trace_ticks(on.unwrap_or(true));
            Ok(())
        })?,
    )?;

    let s = state.clone();
    bl.set(
        "rate",
        lua.create_function(move |lua, hz: Option<f64>| {
            let mut host = s.borrow_mut();
            if let Some(hz) = hz {
                host.session.clock_mut().set_rate(hz).map_err(|e| located(lua, format!("bl.rate: {e}")))?;
            }
            Ok(host.session.clock().rate())
        })?,
    )?;

    let s = state.clone();
    bl.set(
        "speed",
        lua.create_function(move |lua, speed: Option<f64>| {
            let mut host = s.borrow_mut();
            if let Some(speed) = speed {
                let before = host.session.clock().speed();
                host.session.clock_mut().set_speed(speed).map_err(|e| located(lua, format!("bl.speed: {e}")))?;
                if speed != before {
                    note_clock_change_inside_frame(&mut host, format!("bl.speed({speed})"));
                }
            }
            Ok(host.session.clock().speed())
        })?,
    )?;

    let s = state.clone();
    bl.set(
        "pause",
        lua.create_function(move |lua, paused: Value| {
            // `true` (or nothing) pauses, `false` resumes; `"no"` or `0` would pause, as any
            // value but false and nil is true in Lua: a mistake to point out.
            let paused = match paused {
                Value::Nil => true,
                Value::Boolean(paused) => paused,
                other => {
                    let got = other.type_name();
                    let message =
                        format!("bl.pause: argument 1 must be a boolean (true pauses, false resumes), got {got}");
                    return Err(located(lua, message));
                }
            };
            let mut host = s.borrow_mut();
            if paused != host.session.clock().paused() {
                note_clock_change_inside_frame(&mut host, format!("bl.pause({paused})"));
            }
            host.session.clock_mut().set_paused(paused);
            Ok(())
        })?,
    )?;

    let s = state.clone();
    bl.set(
        "catch_up_budget",
        lua.create_function(move |lua, budget: Option<f64>| {
            let mut host = s.borrow_mut();
            if let Some(budget) = budget {
                host.session
                    .clock_mut()
                    .set_catch_up_budget(budget)
                    .map_err(|e| located(lua, format!("bl.catch_up_budget: {e}")))?;
            }
            Ok(host.session.clock().catch_up_budget())
        })?,
    )?;

    let s = state.clone();
    bl.set(
        "events",
        lua.create_function(move |lua, filter: Option<Table>| {
            let host = s.borrow();
            let filter = event_filter(lua, &host.session, "bl.events", filter)?;
            let list = lua.create_table()?;
            for event in host.session.events().iter().filter(|e| filter.matches(e)) {
                list.push(event_table(lua, event, host.session.events().actor_name(event))?)?;
            }
            Ok(list)
        })?,
    )?;

    let s = state.clone();
    bl.set(
        "on",
        lua.create_function(move |lua, (kind, callback): (String, Function)| {
            super::check_kind(&kind).map_err(|m| located(lua, format!("bl.on: {m}")))?;
            let origin = user_frame(lua).map(|(source, _)| source);
            let id = {
                let mut host = s.borrow_mut();
                host.last_listener += 1;
                let id = host.last_listener;
                host.listeners.push(Listener { id, kind: kind.clone(), function: callback, origin });
                id
            };
            listener_handle(lua, &s, id, &kind)
        })?,
    )?;

    let s = state.clone();
    bl.set(
        "off",
        lua.create_function(move |lua, (kind, callback): (String, Option<Function>)| {
            super::check_kind(&kind).map_err(|m| located(lua, format!("bl.off: {m}")))?;
            let mut host = s.borrow_mut();
            let before = host.listeners.len();
            host.listeners.retain(|l| l.kind != kind || callback.as_ref().is_some_and(|f| *f != l.function));
            Ok(before - host.listeners.len())
        })?,
    )?;

    bl.set(
        "expect",
        lua.create_function(|lua, (cond, message): (Value, Option<String>)| {
            if matches!(cond, Value::Nil | Value::Boolean(false)) {
                return Err(located(
                    lua,
                    format!("expectation failed: {}", message.unwrap_or_else(|| "condition is false".into())),
                ));
            }
            Ok(())
        })?,
    )?;

    bl.set(
        "near",
        lua.create_function(|lua, (actual, expected, tol, message): (f64, f64, Option<f64>, Option<String>)| {
            let tol = super::assert::tolerance(lua, "bl.near", tol)?;
            // Equal infinities are equal (their difference is NaN); NaN is near nothing.
            let within = actual == expected || (actual - expected).abs() <= tol;
            if !within {
                let what = message.map_or(String::new(), |m| format!(" ({m})"));
                return Err(located(
                    lua,
                    format!(
                        "expectation failed{what}: expected {} ± {}, got {} (off by {})",
                        number(expected),
                        number(tol),
                        number(actual),
                        number((actual - expected).abs())
                    ),
                ));
            }
            Ok(())
        })?,
    )?;

    // `print` shows a table, a function or a userdata as the prompt shows a result (keys
    // sorted, nested tables indented, a function by where it was defined, a file as `file`),
    // never by its address: what a script prints is the same bytes on every run.
    // Everything else prints as Lua's `tostring` has it, byte for byte as the standalone
    // `lua` does: a string need not be UTF-8 (a Latin-1 name, `string.pack` output).
    let s = state.clone();
    let print = lua.create_function(move |lua, values: Variadic<Value>| {
        let tostring: Function = lua.globals().get("tostring")?;
        let mut line = Vec::new();
        for (i, value) in values.into_iter().enumerate() {
            if i > 0 {
                line.push(b'\t');
            }
            match value {
                Value::Table(_) | Value::Function(_) | Value::UserData(_) => {
                    line.extend_from_slice(super::pretty(&value)?.as_bytes())
                }
                other => line.extend_from_slice(&tostring.call::<mlua::LuaString>(other)?.as_bytes()),
            }
        }
        line.push(b'\n');
        s.borrow_mut().output.out.write_all(&line).map_err(mlua::Error::external)
    })?;
    lua.globals().set("print", print)?;

    install_write(lua, state)?;
    lua.load(TEXT_CHUNKS_ONLY).set_name(PRELUDE_NAME).exec()?;

    let message_of = lua.create_function(|lua, (error, label): (Value, String)| {
        Ok(match error {
            Value::Error(e) => match argument_problem(&e, &label) {
                Some(problem) => super::root_message(&located(lua, problem)),
                None => super::root_message(&e),
            },
            other => super::strip_traceback(&lua.globals().get::<Function>("tostring")?.call::<String>(other)?),
        })
    })?;
    let prelude = lua.load(include_str!("prelude.lua")).set_name(PRELUDE_NAME);
    let no_such = lua.create_function(
        |lua, (label, separator, what, key, lenient, tables): (String, char, String, Value, bool, Variadic<Value>)| {
            let tables: Vec<Table> = tables.into_iter().filter_map(|t| t.as_table().cloned()).collect();
            let (message, hinted) = no_such_name(lua, (&label, separator, &what), &key, &tables);
            Ok((hinted || !lenient).then_some(message))
        },
    )?;
    let kind_of = lua.create_function(|_, handle: mlua::UserDataRef<Handle>| Ok(handle.kind()))?;
    let (public, methods, indexes): (Table, Table, Table) = prelude.call((bl, message_of, no_such, kind_of))?;
    lua.set_named_registry_value(super::actor::METHODS_KEY, methods)?;
    lua.set_named_registry_value(INDEXES_KEY, indexes)?;
    lua.globals().set("bl", public)?;
    Ok(())
}

use std::io::Write as _;

/// `load`, `loadfile` and `dofile` take Lua source only: a binary chunk (bytecode from
/// `string.dump`, changed by a byte) can crash the Lua VM, and scripts from colleagues must
/// never crash blendlab. A binary chunk gets Lua's own error (`attempt to load a binary chunk
/// (mode is 't')`); a mode without `t` refuses a text chunk as Lua does (`attempt to load a
/// text chunk (mode is 'b')`), found out by loading it as text, which never runs it. Argument
/// errors are Lua's, located at the script's call, not in this prelude; everything else, an
/// `env` argument given or not included, works as Lua's.
const TEXT_CHUNKS_ONLY: &str = r#"
local load, loadfile, type, error = load, loadfile, type, error
local function optional_string(value, n, name)
  local kind = type(value)
  if kind ~= "nil" and kind ~= "string" and kind ~= "number" then
    error(("bad argument #%d to '%s' (string expected, got %s)"):format(n, name, kind), 3)
  end
end
local function text_only(mode, chunk, message)
  mode = mode and tostring(mode)
  if mode == nil or mode:find("t", 1, true) or (message or ""):find("^attempt to load a binary chunk") then
    return chunk, message
  end
  return nil, ("attempt to load a text chunk (mode is '%s')"):format(mode)
end
_G.load = function(chunk, name, mode, ...)
  local kind = type(chunk)
  if kind ~= "string" and kind ~= "number" and kind ~= "function" then
    error(("bad argument #1 to 'load' (function expected, got %s)"):format(kind), 2)
  end
  optional_string(name, 2, "load")
  optional_string(mode, 3, "load")
  return text_only(mode, load(chunk, name, "t", ...))
end
_G.loadfile = function(path, mode, ...)
  optional_string(path, 1, "loadfile")
  optional_string(mode, 2, "loadfile")
  return text_only(mode, loadfile(path, "t", ...))
end
_G.dofile = function(path)
  optional_string(path, 1, "dofile")
  local chunk, message = loadfile(path, "t")
  if not chunk then error(message, 0) end
  return chunk()
end
"#;

/// Which of the host's outputs a standard file writes to.
#[derive(Copy, Clone)]
enum Stream {
    /// `io.stdout`: where `print` writes.
    Out,
    /// `io.stderr`: where diagnostics go.
    Err,
}

/// `io.stdout:write` (and `io.write` while the default output is `io.stdout`) writes where
/// `print` does (the host's output), and `io.stderr:write` where diagnostics do, so that a
/// headless run captures everything a script writes (once per check, however many runs it
/// makes) and the REPL prints it with the rest. As Lua's, they take strings and numbers and
/// return the file written, so calls chain (`io.write(a):write(b)`). Files a script opens
/// write as Lua's do: the standard files' `write` is found through an `__index` function in
/// front of the methods every file shares, so other files' calls, and their errors, stay
/// Lua's own.
fn install_write(lua: &Lua, state: &Shared) -> mlua::Result<()> {
    let io: Table = lua.globals().get("io")?;
    let stdout: Value = io.get("stdout")?;
    let meta: Table = lua.globals().get::<Function>("getmetatable")?.call(&stdout)?;
    let methods: Table = meta.get("__index")?;
    let file_write: Function = methods.get("write")?;
    let standard = vec![(stdout.clone(), Stream::Out), (io.get::<Value>("stderr")?, Stream::Err)];
    let (s, files) = (state.clone(), standard.clone());
    let standard_write = lua.create_function(move |lua, (target, values): (Value, Variadic<Value>)| {
        let Some(&(_, stream)) = files.iter().find(|(file, _)| *file == target) else {
            return file_write.call::<MultiValue>((target, values)); // `io.stdout.write(other, …)`
        };
        write_text(lua, &s, stream, values)?;
        Ok(MultiValue::from_iter([target]))
    })?;
    // `io.write` writes to the default output file, as Lua's: the host's output until
    // `io.output` changes it (to `io.stderr`, or a file of the script's).
    let (default_output, write) = (io.get::<Function>("output")?, standard_write.clone());
    let io_write = lua.create_function(move |_, values: Variadic<Value>| {
        write.call::<MultiValue>((default_output.call::<Value>(())?, values))
    })?;
    io.set("write", io_write)?;
    let index = lua.create_function(move |_, (target, key): (Value, Value)| {
        let write = matches!(&key, Value::String(k) if k == "write");
        if write && standard.iter().any(|(file, _)| *file == target) {
            return Ok(Value::Function(standard_write.clone()));
        }
        methods.raw_get::<Value>(key)
    })?;
    meta.set("__index", index)
}

/// Writes `values` (strings and numbers, as `io.write` takes them) to the host's output
/// `stream`, strings byte for byte (UTF-8 or not), as Lua's `io.write` does.
fn write_text(lua: &Lua, state: &Shared, stream: Stream, values: Variadic<Value>) -> mlua::Result<()> {
    let tostring: Function = lua.globals().get("tostring")?;
    let mut text = Vec::new();
    for (i, value) in values.into_iter().enumerate() {
        match value {
            Value::String(_) | Value::Integer(_) | Value::Number(_) => {
                text.extend_from_slice(&tostring.call::<mlua::LuaString>(value)?.as_bytes())
            }
            other => {
                let got = other.type_name();
                return Err(located(lua, format!("bad argument #{} to 'write' (string expected, got {got})", i + 1)));
            }
        }
    }
    let output = &mut state.borrow_mut().output;
    let writer = match stream {
        Stream::Out => &mut output.out,
        Stream::Err => &mut output.err,
    };
    writer.write_all(&text).map_err(mlua::Error::external)
}

/// An argument of the wrong type given to `label` (`bl.at`, `actor:set`, …), in words:
/// `bl.at: argument 2 must be a function, got nil`. Arguments count as the caller wrote
/// them (a method's object is not one); a method called with `.` instead of `:` says so.
fn argument_problem(error: &mlua::Error, label: &str) -> Option<String> {
    let (pos, cause) = match error {
        mlua::Error::CallbackError { cause, .. } | mlua::Error::WithContext { cause, .. } => {
            return argument_problem(cause, label);
        }
        mlua::Error::BadArgument { pos, cause, .. } => (*pos, cause),
        _ => return None,
    };
    let mlua::Error::FromLuaConversionError { from, to, .. } = &**cause else { return None };
    // A Lua string is bytes; where text is wanted they must be UTF-8.
    let text_wanted = *from == "string" && matches!(to.as_str(), "String" | "string");
    let wanted = if text_wanted { "UTF-8 text" } else { type_in_words(to) };
    let from = if text_wanted { "a string with bytes that are not UTF-8" } else { from };
    let method = label.split_once(':').map(|(_, m)| m);
    let pos = if method.is_some() { pos - 1 } else { pos };
    Some(match method {
        Some(method) if pos == 0 => format!("{label}: call it with a colon (`x:{method}(…)`); the object was a {from}"),
        _ => format!("{label}: argument {pos} must be {wanted}, got {from}"),
    })
}

/// What a Rust type of a conversion is to a script writer: `f64` → `a number`.
fn type_in_words(rust_type: &str) -> &str {
    match rust_type {
        "f64" | "f32" => "a number",
        "i64" | "i32" | "u64" | "u32" | "u16" | "usize" => "a whole number",
        "String" | "string" => "a string",
        "function" | "Function" => "a function",
        "table" | "Table" => "a table",
        "bool" | "boolean" => "a boolean",
        other => other,
    }
}

/// An options table given to `label` (`actor:play`, `actor:trace`, `bl.record`), read key by
/// key: an unknown key is an error with a did-you-mean (a typo must not be ignored), and a
/// value of the wrong type names its key.
pub(crate) struct Options<'a> {
    lua: &'a Lua,
    label: &'a str,
    table: Option<Table>,
}

impl<'a> Options<'a> {
    /// Checks that every key of `table` is one of `known`.
    pub(crate) fn new(lua: &'a Lua, label: &'a str, table: Option<Table>, known: &[&str]) -> mlua::Result<Self> {
        for key in table.iter().flat_map(|t| t.pairs::<Value, Value>()) {
            let (key, _) = key?;
            let name = key_label(&key);
            if !known.contains(&name.as_str()) {
                let hint = suggestion(&name, known.iter().copied()).map_or(String::new(), |h| format!("; {h}"));
                let message = format!("{label}: unknown option `{name}` (known: {}){hint}", known.join(", "));
                return Err(located(lua, message));
            }
        }
        Ok(Options { lua, label, table })
    }

    /// The value of option `key`, if given.
    pub(crate) fn get<T: mlua::FromLua>(&self, key: &str) -> mlua::Result<Option<T>> {
        let Some(table) = &self.table else { return Ok(None) };
        let value: Value = table.get(key)?;
        // A number that is not whole shows itself (`got 2.5`); other values their type.
        let given = match &value {
            Value::Number(n) => crate::config::number(*n),
            other => other.type_name().to_string(),
        };
        <Option<T> as mlua::FromLua>::from_lua(value, self.lua).map_err(|e| match e {
            mlua::Error::FromLuaConversionError { to, .. } => {
                located(self.lua, format!("{}: option `{key}` must be {}, got {given}", self.label, type_in_words(&to)))
            }
            other => other,
        })
    }
}

/// `{ blend_tree = "…" }` (and, as they arrive, `graph`, `timeline`) → an actor spec.
fn actor_spec(lua: &Lua, spec: &Table) -> mlua::Result<ActorSpec> {
    const KEYS: &[&str] = &["blend_tree", "timeline", "graph"];
    let mut found = None;
    for pair in spec.pairs::<String, Value>() {
        let (key, value) = pair?;
        let Value::String(name) = value else {
            return Err(located(lua, format!("bl.spawn: `{key}` must name an asset (a string)")));
        };
        let name = name.to_string_lossy();
        let spec = match key.as_str() {
            "blend_tree" => ActorSpec::BlendTree(name),
            "timeline" => ActorSpec::Timeline(name),
            "graph" => ActorSpec::Graph(name),
            other => {
                let hint = suggestion(other, KEYS.iter().copied()).map_or(String::new(), |h| format!("; {h}"));
                return Err(located(
                    lua,
                    format!("bl.spawn: unknown spec key `{other}` (known: {}){hint}", KEYS.join(", ")),
                ));
            }
        };
        if found.replace(spec).is_some() {
            return Err(located(
                lua,
                "bl.spawn: the spec names more than one driver; give exactly one of blend_tree, timeline, graph",
            ));
        }
    }
    found.ok_or_else(|| {
        located(lua, "bl.spawn: the spec must name what drives the actor, e.g. { blend_tree = \"locomotion\" }")
    })
}

/// The event filter `{ kind = "…", actor = name or handle }` given to `label` (`bl.events`,
/// `bl.events_jsonl`, `bl.no_duplicate_events`). An unknown key, kind or actor is an error
/// with a did-you-mean: a typo must never become a filter that matches nothing or everything.
pub(crate) fn event_filter(
    lua: &Lua,
    session: &Session,
    label: &str,
    filter: Option<Table>,
) -> mlua::Result<EventFilter> {
    const KEYS: &[&str] = &["kind", "actor"];
    let mut out = EventFilter::default();
    let Some(filter) = filter else { return Ok(out) };
    for pair in filter.pairs::<Value, Value>() {
        let (key, value) = pair?;
        let key = match key {
            Value::String(key) => key.to_string_lossy(),
            other => {
                return Err(located(
                    lua,
                    format!("{label}: filter keys are kind and actor, got a {}", other.type_name()),
                ));
            }
        };
        match (key.as_str(), value) {
            ("kind", Value::String(kind)) => {
                let kind = kind.to_string_lossy();
                super::check_kind(&kind).map_err(|m| located(lua, format!("{label}: {m}")))?;
                out.kind = Some(kind);
            }
            ("kind", other) => {
                return Err(located(
                    lua,
                    format!("{label}: `kind` takes an event kind name, got {}", other.type_name()),
                ));
            }
            ("actor", value) => out.actor = Some(actor_of(lua, label, session, value)?),
            (other, _) => {
                let hint = suggestion(other, KEYS.iter().copied()).map_or(String::new(), |h| format!("; {h}"));
                return Err(located(lua, format!("{label}: unknown filter key `{other}` (known: kind, actor){hint}")));
            }
        }
    }
    Ok(out)
}

/// An actor from a handle or a name, given to `label`.
pub(crate) fn actor_of(lua: &Lua, label: &str, session: &Session, value: Value) -> mlua::Result<ActorId> {
    let found = match value {
        Value::UserData(ud) => match *ud.borrow::<Handle>()? {
            Handle::Actor(id) => Ok(id),
            _ => Err("expected an actor, got a playback handle".to_string()),
        },
        Value::String(name) => session.find_actor(&name.to_string_lossy()).map_err(|e| e.to_string()),
        other => Err(format!("expected an actor or its name, got {}", other.type_name())),
    };
    found.map_err(|message| located(lua, format!("{label}: {message}")))
}

/// `{ frame, time, kind, actor, …fields }` for one event; `actor` is the name of the actor it
/// concerns.
pub(crate) fn event_table(lua: &Lua, event: &Event, actor: Option<&str>) -> mlua::Result<Table> {
    let table = lua.create_table()?;
    table.set("frame", event.frame)?;
    table.set("time", event.time.secs())?;
    table.set("kind", event.kind.name())?;
    table.set("actor", actor)?;
    for (key, value) in event.kind.fields() {
        match value {
            FieldValue::Text(text) => table.set(key, text)?,
            FieldValue::Int(n) => table.set(key, n)?,
            FieldValue::Number(x) | FieldValue::Given(x) => table.set(key, x)?,
            FieldValue::List(items) => table.set(key, lua.create_sequence_from(items)?)?,
            FieldValue::Table(fields) => table.set(key, lua_table(lua, &fields)?)?,
        }
    }
    Ok(table)
}

/// A TOML table (an `Emit`'s payload) as a Lua table with the same types: strings,
/// integers, floats and booleans as themselves, arrays as sequences, tables as tables, and a
/// datetime as its TOML text.
fn lua_table(lua: &Lua, fields: &toml::Table) -> mlua::Result<Table> {
    let table = lua.create_table_with_capacity(0, fields.len())?;
    for (key, value) in fields {
        table.set(key.as_str(), lua_value(lua, value)?)?;
    }
    Ok(table)
}

fn lua_value(lua: &Lua, value: &toml::Value) -> mlua::Result<Value> {
    Ok(match value {
        toml::Value::String(text) => Value::String(lua.create_string(text)?),
        toml::Value::Integer(n) => Value::Integer(*n),
        toml::Value::Float(x) => Value::Number(*x),
        toml::Value::Boolean(b) => Value::Boolean(*b),
        toml::Value::Datetime(when) => Value::String(lua.create_string(when.to_string())?),
        toml::Value::Array(items) => {
            let items = items.iter().map(|item| lua_value(lua, item)).collect::<mlua::Result<Vec<_>>>()?;
            Value::Table(lua.create_sequence_from(items)?)
        }
        toml::Value::Table(fields) => Value::Table(lua_table(lua, fields)?),
    })
}

/// What `bl.on` returns: a handle whose `:off()` removes listener `id` (true if it was still
/// there) and that prints as what it is (`bl.on listener #2 for signal`).
fn listener_handle(lua: &Lua, state: &Shared, id: u64, kind: &str) -> mlua::Result<Table> {
    let off = move |host: &mut HostState| {
        let before = host.listeners.len();
        host.listeners.retain(|l| l.id != id);
        host.listeners.len() < before
    };
    let shown = format!("bl.on listener #{id} for {kind} (:off() removes it)");
    let handle = handle(lua, state, "listener", ("off", off), shown, id)?;
    handle.set("kind", kind)?;
    Ok(handle)
}

/// A handle table for Lua (`bl.on`'s, `bl.inputs`'): field `id`, one method, and `shown` as
/// what it prints as; reading a name it lacks is an error that names it `label` (the
/// prelude's `strict`). The caller adds its other fields. The method first runs the steps a
/// giant step plan holds, as every `bl` function does: the script as written ran them
/// before it.
pub(crate) fn handle(
    lua: &Lua,
    state: &Shared,
    label: &str,
    (name, method): (&str, impl Fn(&mut HostState) -> bool + 'static),
    shown: String,
    id: u64,
) -> mlua::Result<Table> {
    let s = state.clone();
    let method = lua.create_function(move |lua, _: MultiValue| {
        super::partition::run_held_steps(lua, &s)?;
        Ok(method(&mut s.borrow_mut()))
    })?;
    let strict: Function = lua.named_registry_value::<Table>(INDEXES_KEY)?.get("strict")?;
    let index: Function = strict.call((label, ".", "field or method", lua.create_table_from([(name, method)])?))?;
    let meta = lua.create_table()?;
    meta.set("__index", index)?;
    meta.set("__tostring", lua.create_function(move |_, _: Value| Ok(shown.clone()))?)?;
    let handle = lua.create_table_from([("id", Value::Integer(id as i64))])?;
    handle.set_metatable(Some(meta))?;
    Ok(handle)
}

/// Where a callback or a listener was written: `file:line` of its `function`.
fn defined_at(function: &Function) -> String {
    let info = function.info();
    let source = info.source.unwrap_or_default();
    let file = source.strip_prefix(['@', '=']).unwrap_or(&source);
    match info.line_defined {
        Some(line) => format!("{file}:{line}"),
        None => file.to_string(),
    }
}

/// The error `error` of Lua a frame or a dispatch ran (`what`: which callback or listener),
/// with what it was and when: `… (in the bl.at callback of stdin:1, at frame 522; the step
/// stopped after that frame …)`. One the watchdog raised (Ctrl-C, the timeout, `os.exit`)
/// passes unchanged: its own words say where it stopped.
fn in_context(state: &Shared, error: mlua::Error, what: &str, frame: i64, hint: &str) -> mlua::Error {
    let host = state.borrow();
    if host.watchdog.tripped().is_some() {
        return error;
    }
    let stopped = if host.in_frames { "; the step stopped after that frame" } else { "" };
    let message = super::root_message(&error);
    mlua::Error::RuntimeError(format!("{message} (in {what}, at frame {frame}{stopped}{hint})"))
}

/// During `:reload`'s re-run of a file, `bl.spawn` of an actor that already exists with the
/// same spec returns it, so re-running a setup script keeps the actors it made.
fn respawn(state: &Shared, name: &str, spec: &ActorSpec) -> Option<usize> {
    let host = state.borrow();
    host.rerunning.as_ref()?;
    host.session.find_actor(name).ok().filter(|&id| host.session.actor(id).spec() == spec)
}

/// Keeps `call` (`bl.pause(true)`, `bl.speed(0.5)`), a change of the clock's pause or
/// speed, when a frame is running: the step that runs the frame scaled its seconds when it
/// was called (REFERENCE §1), so the change counts from the next `bl.step`, and where the
/// steps are cut decides when that is. The first such call is kept, for
/// `run --partition-check` to name.
fn note_clock_change_inside_frame(host: &mut super::HostState, call: String) {
    if host.in_frames && host.clock_changed_inside_frame.is_none() {
        let clock = host.session.clock();
        let at = format!("{call} in frame {}, t={:.6} s", clock.frame(), clock.time().secs());
        host.clock_changed_inside_frame = Some(at);
    }
}

/// Refuses to step the clock (`what`: `bl.step`, `bl.frames`) from inside a frame: from a
/// `bl.at` callback or a `bl.on` listener that frames are running.
pub(crate) fn refuse_inside_frames(lua: &Lua, state: &Shared, what: &str) -> mlua::Result<()> {
    if state.borrow().in_frames {
        let message = format!(
            "{what}: cannot step the clock from inside a frame (a `bl.at` callback or a `bl.on` listener); \
             schedule what comes later with `bl.at`"
        );
        return Err(located(lua, message));
    }
    Ok(())
}

/// Runs planned frames. An interrupt (Ctrl-C) stops between frames, or inside the Lua a
/// frame runs (a callback, a listener), whose frame still finishes — then the host keeps that
/// frame ([`Host::take_stopped_inside_frame`]). An error a frame raises (a `bl.at` callback,
/// a `bl.on` listener, an `[inputs]` trigger) stops the step after that frame too. Whatever
/// stopped it, the clock then stands at the last frame that ran: the rest of the step is
/// dropped, never owed to the next step.
pub(crate) fn run_frames(lua: &Lua, state: &Shared, frames: std::ops::RangeInclusive<i64>) -> mlua::Result<()> {
    state.borrow_mut().in_frames = true;
    let result = frames.into_iter().try_for_each(|frame| {
        let tripped = state.borrow().watchdog.tripped();
        if let Some(reason) = tripped {
            return Err(located(lua, format!("{reason}; the step stopped after frame {}", frame - 1)));
        }
        let ran = run_frame(lua, state, frame);
        if ran.is_err() && state.borrow().watchdog.tripped().is_some() {
            state.borrow_mut().stopped_inside_frame = Some(frame);
        }
        ran
    });
    state.borrow_mut().in_frames = false;
    if result.is_err() {
        state.borrow_mut().session.clock_mut().stop_at_current_frame();
    }
    result
}

/// One frame: scheduled callbacks first, then the rest of the frame, then listeners for the
/// new events. A failing callback still lets its frame finish, so the session stays at a
/// frame boundary.
fn run_frame(lua: &Lua, state: &Shared, frame: i64) -> mlua::Result<()> {
    let due = state.borrow_mut().session.begin_frame(frame);
    let mut failure = super::inputs::apply(lua, state).err();
    for id in due {
        let callback = state.borrow_mut().callbacks.remove(&id);
        if let (Some(callback), None) = (callback, &failure) {
            failure = callback.function.call::<()>(()).err().map(|e| {
                let what = format!("the bl.at callback of {}", defined_at(&callback.function));
                in_context(state, e, &what, frame, "")
            });
        }
    }
    state.borrow_mut().session.finish_frame();
    super::record::sample(state);
    if let Some(error) = failure {
        return Err(error);
    }
    dispatch(lua, state)
}

/// Prints the events of a live kind logged since the last look, without handing them to the
/// listeners yet (that waits for the next dispatch, as ever): a call that logs events outside
/// a step (`actor:play`, `playback:interrupt`, …) shows them at once, in order with what the
/// chunk prints after it. Nothing is live in a headless run, so there it does nothing.
pub(crate) fn print_live(state: &Shared) -> mlua::Result<()> {
    let mut host = state.borrow_mut();
    let host = &mut *host;
    if host.live.is_empty() {
        return Ok(());
    }
    let log = host.session.events();
    for index in host.printed.max(host.dispatched)..log.len() {
        let Some(event) = log.get(index) else { break };
        if host.live.contains(event.kind.name()) && !host.written_warnings.contains(&index) {
            let line = event_line(event, log.actor_name(event), host.output.style);
            writeln!(host.output.out, "{line}").map_err(mlua::Error::external)?;
        }
    }
    host.printed = log.len();
    Ok(())
}

/// Hands events not yet seen to the `bl.on` listeners, in log order, and prints those of a
/// live kind.
pub(crate) fn dispatch(lua: &Lua, state: &Shared) -> mlua::Result<()> {
    loop {
        let next = {
            let mut host = state.borrow_mut();
            let log = host.session.events();
            let Some(event) = log.get(host.dispatched).cloned() else { return Ok(()) };
            let actor = log.actor_name(&event).map(str::to_string);
            host.dispatched += 1;
            // A warning written with its source line already is not printed twice, nor one
            // `print_live` printed.
            let index = host.dispatched - 1;
            let written = host.written_warnings.remove(&index) || index < host.printed;
            host.printed = host.printed.max(index + 1);
            if host.live.contains(event.kind.name()) && !written {
                let line = event_line(&event, actor.as_deref(), host.output.style);
                writeln!(host.output.out, "{line}").map_err(mlua::Error::external)?;
            }
            let listeners: Vec<(u64, Function)> = host
                .listeners
                .iter()
                .filter(|l| l.kind == event.kind.name())
                .map(|l| (l.id, l.function.clone()))
                .collect();
            (event, actor, listeners)
        };
        let (event, actor, listeners) = next;
        for (id, listener) in listeners {
            // One an earlier listener removed (`:off()`) hears no more.
            if !state.borrow().listeners.iter().any(|l| l.id == id) {
                continue;
            }
            listener.call::<()>(event_table(lua, &event, actor.as_deref())?).map_err(|e| {
                let kind = event.kind.name();
                let what = format!("bl.on listener #{id} for {kind} of {}", defined_at(&listener));
                let hint = format!("; bl.off(\"{kind}\"), or :off() on what bl.on returned, removes it");
                in_context(state, e, &what, event.frame, &hint)
            })?;
        }
    }
}
