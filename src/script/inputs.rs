//! `bl.inputs(actor, NAME)`: plays `[inputs.NAME]` on an actor from now. At every logic frame
//! (step 1 of the frame order, before `bl.at` callbacks) each parameter track sets its
//! parameter to its value at the time since `bl.inputs`, and every trigger whose time has come
//! fires in time order — a timeline played or a transition begun. Once the last key and
//! trigger have passed (or every track was taken over, below), the inputs are done; `:stop()` on the handle `bl.inputs` returns ends
//! them before.
//!
//! One parameter has one driver: the latest applied (as the last write wins in Unity). A
//! later `bl.inputs` that drives a parameter takes it over from the inputs that drove it, and
//! an `actor:set` of a driven parameter takes it over from them too; the inputs drive the
//! rest of their parameters as before. Each take-over is a `warning` event, so that a set an
//! input would otherwise have overwritten at the next frame never goes silently.

use mlua::{Lua, Table, Value};

use super::api::{actor_of, located, warn_located};
use super::{HostState, Shared};
use crate::config::suggestion;
use crate::graph::Source;
use crate::input::{InputDef, TriggerAction};
use crate::session::{ActorId, Session};
use crate::time::Ticks;

/// Inputs playing on an actor.
#[derive(Clone, Debug)]
pub(crate) struct ActiveInputs {
    /// Its number (`bl.inputs `NAME` #id`), for its handle and its warnings.
    id: u64,
    actor: ActorId,
    name: String,
    start: Ticks,
    /// The clock time up to which its triggers have fired (`None` before its first frame): a
    /// trigger fires at the first frame whose time reaches its own, so a reload that inserts
    /// or moves triggers refires none that fired, and never fires one it moved behind the
    /// clock (as a timeline's markers behind the playhead).
    fired_until: Option<Ticks>,
    /// The parameters it no longer drives: a later `bl.inputs` or an `actor:set` took them.
    released: Vec<String>,
}

impl ActiveInputs {
    /// Whether the trigger `time` seconds in falls due by clock time `now`: it is not behind
    /// what already fired, and `now` reaches it.
    fn due(&self, time: f64, now: Ticks) -> bool {
        self.ahead(time) && self.at(time).is_some_and(|at| at <= now)
    }

    /// Whether the trigger `time` seconds in has not fired yet (nor passed: see
    /// [`ActiveInputs::fired_until`]).
    fn ahead(&self, time: f64) -> bool {
        self.at(time).is_some_and(|at| self.fired_until.is_none_or(|until| at > until))
    }

    /// The clock time of the trigger `time` seconds in.
    fn at(&self, time: f64) -> Option<Ticks> {
        Ticks::from_secs(time).ok().map(|at| self.start + at)
    }

    fn label(&self) -> String {
        format!("bl.inputs `{}` #{} (applied at {:.6} s)", self.name, self.id, self.start.secs())
    }
}

/// Every inputs in play on `actor` that drives `parameter` stops driving it (it was taken
/// over by a later `bl.inputs` or an `actor:set`); what they were, in words, in the order
/// they were applied.
fn take_over(inputs: &mut [ActiveInputs], session: &Session, actor: ActorId, parameter: &str) -> Vec<String> {
    let mut taken = Vec::new();
    for active in inputs.iter_mut().filter(|a| a.actor == actor) {
        let Some(def) = def(session, &active.name) else { continue };
        let drives = def.tracks.iter().any(|t| session.snapshot().parameters[t.parameter].name == parameter);
        if drives && !active.released.iter().any(|r| r == parameter) {
            active.released.push(parameter.to_string());
            taken.push(active.label());
        }
    }
    taken
}

/// After `actor:set(parameter, …)`: inputs that drove the parameter drive it no more, each
/// with a warning at the call.
pub(crate) fn set_by_hand(lua: &Lua, state: &Shared, actor: ActorId, parameter: &str) -> mlua::Result<()> {
    let (taken, actor_name) = {
        let mut host = state.borrow_mut();
        let host = &mut *host;
        if host.inputs.is_empty() {
            return Ok(());
        }
        let taken = take_over(&mut host.inputs, &host.session, actor, parameter);
        (taken, host.session.actor(actor).name().to_string())
    };
    for inputs in taken {
        let message = format!(
            "actor:set: `{parameter}` of actor `{actor_name}` was driven by {inputs}, which drives it no more: \
             the latest applied wins"
        );
        warn_located(lua, state, message)?;
    }
    Ok(())
}

fn def<'a>(session: &'a Session, name: &str) -> Option<&'a InputDef> {
    session.snapshot().inputs.iter().find(|i| i.name == name)
}

/// Sets every track's parameter it still drives to its value `t` seconds in.
fn set_tracks(session: &mut Session, active: &ActiveInputs, t: f64) {
    let Some(def) = def(session, &active.name) else { return };
    let values: Vec<(String, f64)> = def
        .tracks
        .iter()
        .map(|track| (session.snapshot().parameters[track.parameter].name.clone(), track.value_at(t)))
        .filter(|(parameter, _)| !active.released.contains(parameter))
        .collect();
    let actor = active.actor;
    for (parameter, value) in values {
        // Names and values come from a compiled snapshot: the set cannot fail.
        let _ = session.set_param(actor, &parameter, value);
    }
}

/// After a reload: inputs in play whose `[inputs.NAME]` the new library lacks stop (their
/// parameters keep the values they were given last), each with what to say of it; the others
/// play on from their new data at the next frame, with a word for each trigger still to fire
/// that cannot run on the actor (a layer it lacks, or of the wrong kind: the check
/// `bl.inputs` makes at its call), which will be an error at the step where it falls due.
pub(crate) fn stop_removed(inputs: &mut Vec<ActiveInputs>, session: &Session) -> Vec<String> {
    let mut messages = Vec::new();
    inputs.retain(|active| {
        let actor = session.actor(active.actor).name();
        let Some(def) = def(session, &active.name) else {
            messages.push(format!(
                "{} on actor `{actor}` stops: the reload took [inputs.{}] away (its parameters keep their last \
                 values)",
                active.label(),
                active.name
            ));
            return false;
        };
        for trigger in def.triggers.iter().filter(|trigger| active.ahead(trigger.time)) {
            if let Err(e) = session.check_trigger(active.actor, &trigger.action) {
                messages.push(format!(
                    "{} on actor `{actor}`: {}: the trigger at {} s will fail when it falls due: {e}",
                    active.label(),
                    trigger.at,
                    trigger.time
                ));
            }
        }
        true
    });
    messages
}

/// Step (1) of a frame for every inputs in play: parameter values, then due triggers.
/// Inputs whose last key and trigger have passed are dropped.
pub(crate) fn apply(lua: &Lua, state: &Shared) -> mlua::Result<()> {
    let mut host = state.borrow_mut();
    let host = &mut *host;
    let now = host.session.clock().time();
    let mut result = Ok(());
    for active in &mut host.inputs {
        let t = (now - active.start).secs();
        set_tracks(&mut host.session, active, t);
        let Some(def) = def(&host.session, &active.name) else { continue };
        let due: Vec<(f64, TriggerAction)> = def
            .triggers
            .iter()
            .filter(|trigger| active.due(trigger.time, now))
            .map(|trigger| (trigger.time, trigger.action.clone()))
            .collect();
        active.fired_until = Some(now);
        for (time, action) in due {
            let fired = match &action {
                TriggerAction::Play { timeline, layer } => {
                    host.session.play(active.actor, timeline, layer.as_deref(), Ticks::ZERO).map(|_| ())
                }
                TriggerAction::Transition { target, layer, duration } => {
                    host.session.transition(active.actor, layer, target, *duration).map(|_| ())
                }
            };
            if let (Err(e), Ok(())) = (fired, &result) {
                result = Err(located(lua, format!("bl.inputs `{}`: the trigger at {time} s: {e}", active.name)));
            }
        }
    }
    let session = &host.session;
    // Done: every trigger fired, and the last key passed or every track taken over.
    host.inputs.retain(|a| {
        def(session, &a.name).is_some_and(|d| {
            let drives = d.tracks.len() > a.released.len();
            d.triggers.iter().any(|trigger| a.ahead(trigger.time)) || (drives && (now - a.start).secs() <= d.end())
        })
    });
    result
}

/// What is wrong with playing `[inputs.NAME]` on `actor`: an error when there is no such
/// inputs, a warning per parameter it drives that nothing of the actor reads (it would move
/// nothing). An actor with a timeline or transition layer may come to read any parameter (a
/// tree in a clip, a state a task starts): it gets no warning.
fn unread_inputs(lua: &Lua, session: &Session, actor: ActorId, name: &str) -> mlua::Result<Vec<String>> {
    let Some(def) = def(session, name) else {
        let names = session.snapshot().inputs.iter().map(|i| i.name.as_str());
        let hint = suggestion(name, names).map_or(String::new(), |h| format!("; {h}"));
        return Err(located(lua, format!("bl.inputs: no [inputs.{name}] in the loaded configs{hint}")));
    };
    let a = session.actor(actor);
    let graph = session.graph(actor);
    let changing = |source: &Source| matches!(source, Source::Timeline(_) | Source::Transitions(_));
    if graph.layers().iter().any(|layer| changing(&layer.source)) {
        return Ok(Vec::new());
    }
    let reads = graph.parameters();
    let unread = def.tracks.iter().filter(|track| !reads.contains(&track.parameter));
    Ok(unread
        .map(|track| {
            let parameter = &session.snapshot().parameters[track.parameter].name;
            format!("bl.inputs: [inputs.{name}] drives `{parameter}`, which nothing of actor `{}` reads", a.name())
        })
        .collect())
}

/// An error at the `bl.inputs` call when a trigger of `[inputs.NAME]` could not run on
/// `actor` (a layer it lacks, or of the wrong kind), naming where the trigger is written —
/// rather than an error out of the middle of a later step, when the trigger fires.
fn refuse_triggers_that_cannot_run(lua: &Lua, session: &Session, actor: ActorId, name: &str) -> mlua::Result<()> {
    let Some(def) = def(session, name) else { return Ok(()) };
    for trigger in &def.triggers {
        if let Err(e) = session.check_trigger(actor, &trigger.action) {
            let message = format!("bl.inputs `{name}`: {}: the trigger at {} s: {e}", trigger.at, trigger.time);
            return Err(located(lua, message));
        }
    }
    Ok(())
}

/// What `bl.inputs` returns: a handle whose `:stop()` ends inputs `id` (true if they were
/// still playing; the parameters keep the values they were given last) and that prints as
/// what it is.
fn inputs_handle(lua: &Lua, state: &Shared, id: u64, name: &str, actor: &str) -> mlua::Result<Table> {
    let stop = move |host: &mut HostState| {
        let before = host.inputs.len();
        host.inputs.retain(|a| a.id != id);
        host.inputs.len() < before
    };
    let shown = format!("bl.inputs `{name}` #{id} on actor `{actor}` (:stop() ends it)");
    let handle = super::api::handle(lua, state, "inputs", ("stop", stop), shown, id)?;
    handle.set("name", name)?;
    handle.set("actor", actor)?;
    Ok(handle)
}

/// Adds `inputs` to the raw table.
pub(crate) fn add_raw_functions(lua: &Lua, raw: &Table, state: &Shared) -> mlua::Result<()> {
    let s = state.clone();
    raw.set(
        "inputs",
        lua.create_function(move |lua, (actor, name): (Value, String)| {
            let actor = actor_of(lua, "bl.inputs", &s.borrow().session, actor)?;
            s.borrow_mut().session.refresh_graph(actor);
            let warnings = unread_inputs(lua, &s.borrow().session, actor, &name)?;
            refuse_triggers_that_cannot_run(lua, &s.borrow().session, actor, &name)?;
            for message in warnings {
                warn_located(lua, &s, message)?;
            }
            let (id, actor_name, taken) = {
                let mut host = s.borrow_mut();
                let host = &mut *host;
                host.last_inputs += 1;
                let id = host.last_inputs;
                let parameters: Vec<String> = def(&host.session, &name).map_or(Vec::new(), |d| {
                    d.tracks.iter().map(|t| host.session.snapshot().parameters[t.parameter].name.clone()).collect()
                });
                let mut taken = Vec::new();
                for parameter in parameters {
                    for earlier in take_over(&mut host.inputs, &host.session, actor, &parameter) {
                        taken.push((parameter.clone(), earlier));
                    }
                }
                let start = host.session.clock().time();
                let active =
                    ActiveInputs { id, actor, name: name.clone(), start, fired_until: None, released: Vec::new() };
                set_tracks(&mut host.session, &active, 0.0);
                host.inputs.push(active);
                (id, host.session.actor(actor).name().to_string(), taken)
            };
            for (parameter, earlier) in taken {
                let message = format!(
                    "bl.inputs `{name}` #{id}: takes `{parameter}` of actor `{actor_name}` over from {earlier}: \
                     the latest applied wins"
                );
                warn_located(lua, &s, message)?;
            }
            inputs_handle(lua, &s, id, &name, &actor_name)
        })?,
    )?;
    Ok(())
}
