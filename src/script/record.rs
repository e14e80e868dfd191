//! Exports from Lua: `bl.record(actor, { every = n })` → a recording with `:csv(path)`,
//! `:svg(path)`, `:stop()` and `:samples()`; `bl.events_jsonl(path, filter)`; and
//! `actor:dot(path)`. Every file goes through a temporary file and a rename (nothing
//! half-written); a relative path resolves against the calling script's folder; an
//! unwritable path is a located error. Each returns the path it wrote.
//!
//! The REPL's `:plot` history of each actor is a recording here too, so the one hook that
//! samples recordings after every frame serves both.

use mlua::{AnyUserData, Lua, Table, UserData, UserDataFields, UserDataMethods, UserDataRef, Value};

use super::actor::{Handle, METHODS_KEY};
use super::api::{INDEXES_KEY, Options, actor_of, event_filter, located};
use super::files::write_for_script;
use super::{Host, Shared};
use crate::report::jsonl::events_jsonl;
use crate::report::recording::Recording;
use crate::report::{graph_dot, weight_chart};
use crate::session::ActorId;

/// What Lua holds for a recording: its index in the host's recordings.
#[derive(Copy, Clone)]
pub(crate) struct RecordingRef(usize);

impl UserData for RecordingRef {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        // The prelude's, so that a misspelt method is a plain error message with a did-you-mean.
        fields.add_meta_field_with("__index", |lua| {
            lua.named_registry_value::<Table>(INDEXES_KEY)?.get::<mlua::Function>("recording")
        });
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_function("__tostring", |lua, this: AnyUserData| {
            let methods = lua.named_registry_value::<Table>(METHODS_KEY)?.get::<Table>("recording")?;
            methods.get::<mlua::Function>("__tostring")?.call::<String>(this)
        });
    }
}

/// Samples every recording that is due at the frame that just ran.
pub(crate) fn sample(state: &Shared) {
    let mut host = state.borrow_mut();
    let host = &mut *host;
    for recording in &mut host.recordings {
        // Read from the graph itself: a copy of a big graph every frame cost more than the
        // frame.
        host.session.refresh_graph(recording.actor);
        recording.sample(&host.session);
    }
}

impl Host {
    /// Starts the REPL's history of `actor` ([`Recording::history`]: every frame from the
    /// next on, the latest `keep` kept); returns its index for [`Host::with_recording`].
    pub fn keep_history(&self, actor: ActorId, keep: usize) -> usize {
        let mut host = self.state.borrow_mut();
        host.session.refresh_graph(actor);
        let history = Recording::history(&host.session, actor, keep);
        host.recordings.push(history);
        host.recordings.len() - 1
    }

    /// Reads recording `index`.
    pub fn with_recording<R>(&self, index: usize, f: impl FnOnce(&Recording) -> R) -> R {
        f(&self.state.borrow().recordings[index])
    }
}

fn with_recording<R>(state: &Shared, this: &UserDataRef<RecordingRef>, f: impl FnOnce(&mut Recording) -> R) -> R {
    f(&mut state.borrow_mut().recordings[this.0])
}

/// `{ every = n }` → n (a whole number ≥ 1; 1 by default).
fn every(lua: &Lua, options: Option<Table>) -> mlua::Result<u64> {
    let every: Option<f64> = Options::new(lua, "bl.record", options, &["every"])?.get("every")?;
    match every {
        None => Ok(1),
        Some(n) if n >= 1.0 && n.fract() == 0.0 && n <= u32::MAX as f64 => Ok(n as u64),
        Some(n) => {
            let most = u32::MAX;
            Err(located(lua, format!("bl.record: `every` takes a whole number of frames from 1 to {most}, got {n}")))
        }
    }
}

/// Adds `record`, `events_jsonl`, `actor_dot` and the `recording_*` methods to the raw table.
pub(crate) fn add_raw_functions(lua: &Lua, raw: &Table, state: &Shared) -> mlua::Result<()> {
    let s = state.clone();
    raw.set(
        "record",
        lua.create_function(move |lua, (actor, options): (Value, Option<Table>)| {
            let id = actor_of(lua, "bl.record", &s.borrow().session, actor)?;
            let every = every(lua, options)?;
            let mut host = s.borrow_mut();
            let recording = Recording::new(&host.session, id, every);
            host.recordings.push(recording);
            Ok(RecordingRef(host.recordings.len() - 1))
        })?,
    )?;
    let s = state.clone();
    raw.set(
        "recording_csv",
        lua.create_function(move |lua, (this, path): (UserDataRef<RecordingRef>, String)| {
            let text = with_recording(&s, &this, |r| r.csv());
            write_for_script(lua, &s, "recording:csv", &path, &text)
        })?,
    )?;
    let s = state.clone();
    raw.set(
        "recording_svg",
        lua.create_function(move |lua, (this, path): (UserDataRef<RecordingRef>, String)| {
            let text = with_recording(&s, &this, |r| weight_chart(r));
            write_for_script(lua, &s, "recording:svg", &path, &text)
        })?,
    )?;
    let s = state.clone();
    raw.set(
        "recording_stop",
        lua.create_function(move |_, this: UserDataRef<RecordingRef>| {
            with_recording(&s, &this, |r| r.stopped = true);
            Ok(())
        })?,
    )?;
    let s = state.clone();
    raw.set(
        "recording_samples",
        lua.create_function(move |_, this: UserDataRef<RecordingRef>| Ok(with_recording(&s, &this, |r| r.rows.len())))?,
    )?;
    let s = state.clone();
    raw.set(
        "recording___tostring",
        lua.create_function(move |_, this: UserDataRef<RecordingRef>| {
            Ok(with_recording(&s, &this, |r| {
                let state = if r.stopped { ", stopped" } else { "" };
                format!("recording of {} ({}{state})", r.actor_name, r.summary())
            }))
        })?,
    )?;
    let s = state.clone();
    raw.set(
        "events_jsonl",
        lua.create_function(move |lua, (path, filter): (String, Option<Table>)| {
            let text = {
                let host = s.borrow();
                let filter = event_filter(lua, &host.session, "bl.events_jsonl", filter)?;
                events_jsonl(host.session.events(), |e| filter.matches(e))
            };
            write_for_script(lua, &s, "bl.events_jsonl", &path, &text)
        })?,
    )?;
    let s = state.clone();
    raw.set(
        "actor_dot",
        lua.create_function(move |lua, (this, path): (UserDataRef<Handle>, String)| {
            let Handle::Actor(id) = *this else { return Err(located(lua, "actor:dot: expected an actor")) };
            s.borrow_mut().session.refresh_graph(id);
            let text = graph_dot(&s.borrow().session, id);
            write_for_script(lua, &s, "actor:dot", &path, &text)
        })?,
    )?;
    Ok(())
}
