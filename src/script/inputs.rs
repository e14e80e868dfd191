//! `bl.inputs(actor, NAME)`: plays `[inputs.NAME]` on an actor from now. At every logic frame
//! (step 1 of the frame order, before `bl.at` callbacks) each parameter track sets its
//! parameter to its value at the time since `bl.inputs`, and every trigger whose time has come
//! fires in time order — a timeline played or a transition begun. Once the last key and
//! trigger have passed, the inputs are done.

use mlua::{Lua, Table, Value};

use super::Shared;
use super::api::{actor_of, located, warn_located};
use crate::config::suggestion;
use crate::graph::Source;
use crate::input::{InputDef, TriggerAction};
use crate::session::{ActorId, Session};
use crate::time::Ticks;

/// Inputs playing on an actor.
#[derive(Clone, Debug)]
pub(crate) struct ActiveInputs {
    actor: ActorId,
    name: String,
    start: Ticks,
    /// Triggers already fired (they fire in order).
    fired: usize,
}

fn def<'a>(session: &'a Session, name: &str) -> Option<&'a InputDef> {
    session.snapshot().inputs.iter().find(|i| i.name == name)
}

/// Sets every track's parameter to its value `t` seconds in.
fn set_tracks(session: &mut Session, actor: ActorId, name: &str, t: f64) {
    let Some(def) = def(session, name) else { return };
    let values: Vec<(String, f64)> = def
        .tracks
        .iter()
        .map(|track| (session.snapshot().parameters[track.parameter].name.clone(), track.value_at(t)))
        .collect();
    for (parameter, value) in values {
        // Names and values come from a compiled snapshot: the set cannot fail.
        let _ = session.set_param(actor, &parameter, value);
    }
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
        set_tracks(&mut host.session, active.actor, &active.name, t);
        let Some(def) = def(&host.session, &active.name) else { continue };
        let due: Vec<(f64, TriggerAction)> = def.triggers[active.fired..]
            .iter()
            .take_while(|trigger| Ticks::from_secs(trigger.time).is_ok_and(|at| active.start + at <= now))
            .map(|trigger| (trigger.time, trigger.action.clone()))
            .collect();
        active.fired += due.len();
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
    host.inputs.retain(|a| {
        def(session, &a.name).is_some_and(|d| a.fired < d.triggers.len() || (now - a.start).secs() <= d.end())
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
    let changing = |source: &Source| matches!(source, Source::Timeline(_) | Source::Transitions(_));
    if a.graph().layers().iter().any(|layer| changing(&layer.source)) {
        return Ok(Vec::new());
    }
    let reads = a.graph().parameters();
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

/// Adds `inputs` to the raw table.
pub(crate) fn add_raw_functions(lua: &Lua, raw: &Table, state: &Shared) -> mlua::Result<()> {
    let s = state.clone();
    raw.set(
        "inputs",
        lua.create_function(move |lua, (actor, name): (Value, String)| {
            let actor = actor_of(lua, "bl.inputs", &s.borrow().session, actor)?;
            let warnings = unread_inputs(lua, &s.borrow().session, actor, &name)?;
            refuse_triggers_that_cannot_run(lua, &s.borrow().session, actor, &name)?;
            for message in warnings {
                warn_located(lua, &s, message)?;
            }
            let mut host = s.borrow_mut();
            set_tracks(&mut host.session, actor, &name, 0.0);
            let start = host.session.clock().time();
            host.inputs.push(ActiveInputs { actor, name, start, fired: 0 });
            Ok(())
        })?,
    )?;
    Ok(())
}
