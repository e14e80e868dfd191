//! Handles in Lua: actors (`actor:set`, `:get`, `:weights`, `:output_weight`, `:time`,
//! `:table`, `:explain`, `:graph`, `:play`, `:playback`, `:name`) and playbacks (`:state`,
//! `:time`, `:interrupt`, `:seek`). A handle is a userdata naming what it stands for; its
//! methods are raw Rust functions (`actor_*`, `playback_*` in the raw table) wrapped by the
//! prelude and found through the prelude's `__index`, which makes a name they lack an error
//! with a did-you-mean.

use mlua::{AnyUserData, Function, IntoLuaMulti, Lua, Table, UserData, UserDataFields, UserDataMethods, UserDataRef};

use super::Shared;
use super::api::{INDEXES_KEY, Options, located, print_live, warn_located};
use crate::config::suggestion;
use crate::config::timeline::WrapMode;
use crate::event::SeekPolicy;
use crate::graph::{DEFAULT_EPSILON, Graph};
use crate::report::{explain, graph_view, trace_view, weight_table};
use crate::session::{ActorId, PlaybackHandle, Session};
use crate::time::Ticks;
use crate::transition::{Completion, Token};

/// Registry key of the table `{ actor = {…}, playback = {…} }` of wrapped methods.
pub(crate) const METHODS_KEY: &str = "blendlab.methods";

/// What Lua holds for an actor or a playback. Two handles of one actor (or one playback)
/// are equal in Lua (`==`, `__eq`), however each was come by (`bl.spawn`, `actor:play`,
/// `actor:playback()`).
#[derive(Copy, Clone, PartialEq)]
pub(crate) enum Handle {
    Actor(ActorId),
    Playback(PlaybackHandle),
}

impl Handle {
    pub(crate) fn kind(self) -> &'static str {
        match self {
            Handle::Actor(_) => "actor",
            Handle::Playback(_) => "playback",
        }
    }
}

fn methods_of(lua: &Lua, this: &AnyUserData) -> mlua::Result<Table> {
    let kind = this.borrow::<Handle>()?.kind();
    lua.named_registry_value::<Table>(METHODS_KEY)?.get::<Table>(kind)
}

impl UserData for Handle {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        // The prelude's, so that a misspelt method is a plain error message with a did-you-mean.
        fields.add_meta_field_with("__index", |lua| {
            lua.named_registry_value::<Table>(INDEXES_KEY)?.get::<Function>("handle")
        });
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_function("__tostring", |lua, this: AnyUserData| {
            methods_of(lua, &this)?.get::<mlua::Function>("__tostring")?.call::<String>(this)
        });
        methods.add_meta_function("__eq", |_, (a, b): (AnyUserData, AnyUserData)| {
            Ok(matches!((a.borrow::<Handle>(), b.borrow::<Handle>()), (Ok(a), Ok(b)) if *a == *b))
        });
    }
}

/// A playback handle for Lua, made while the playback is on its layer: it prints as `:trace`
/// names it, `playback reload#2 on g, layer arms`, then its state — also once another
/// playback has replaced it on that layer, which is why the names are kept with it.
fn playback_handle(lua: &Lua, session: &Session, handle: PlaybackHandle) -> mlua::Result<AnyUserData> {
    let (timeline, layer) = session.playback_place(handle).map_err(mlua::Error::external)?;
    let actor = session.actor(handle.actor).name();
    let shown = format!("playback {timeline}#{} on {actor}, layer {layer}", handle.serial);
    let data = lua.create_userdata(Handle::Playback(handle))?;
    data.set_user_value(shown)?;
    Ok(data)
}

/// The actor a handle names (an error for other handles).
fn actor_id(this: &UserDataRef<Handle>) -> mlua::Result<ActorId> {
    match **this {
        Handle::Actor(id) => Ok(id),
        Handle::Playback(_) => Err(mlua::Error::RuntimeError("expected an actor, got a playback handle".into())),
    }
}

fn playback(this: &UserDataRef<Handle>) -> mlua::Result<PlaybackHandle> {
    match **this {
        Handle::Playback(handle) => Ok(handle),
        Handle::Actor(_) => Err(mlua::Error::RuntimeError("expected a playback handle, got an actor".into())),
    }
}

/// Channel index from an optional name (the first channel by default), for `label`.
fn channel(lua: &Lua, label: &str, graph: &Graph, name: Option<String>) -> mlua::Result<usize> {
    let Some(name) = name else { return Ok(0) };
    graph.channels().iter().position(|c| *c == name).ok_or_else(|| {
        let hint =
            suggestion(&name, graph.channels().iter().map(String::as_str)).map_or(String::new(), |h| format!("; {h}"));
        located(lua, format!("{label}: no channel `{name}` (channels: {}){hint}", graph.channels().join(", ")))
    })
}

/// A warning when a playback of `timeline` that does not loop starts past its end (`from`
/// in seconds where frames were meant, a `from_frame` past its last, or the wrong timeline):
/// it shows nothing and ends (`none`) or holds its end (`hold`) at once. `from_frame` names
/// the frame the start was given as.
fn past_the_end(
    session: &crate::session::Session,
    timeline: &str,
    start: Ticks,
    from_frame: Option<i64>,
) -> Option<String> {
    let t = &session.snapshot().timelines[session.snapshot().timeline_id(timeline)?];
    // A timeline's duration ends a tick before its last clip does: a start there is at its end.
    if t.wrap == WrapMode::Loop || start.0 <= t.duration.0.saturating_add(1) {
        return None;
    }
    let then = if t.wrap == WrapMode::None { "completes at the next frame" } else { "holds its end" };
    let at = match from_frame {
        Some(frame) => format!("frame {frame} ({:.6} s)", start.secs()),
        None => format!("{:.6} s", start.secs()),
    };
    Some(format!("actor:play: `{timeline}` starts at {at}, past its end ({:.6} s): it {then}", t.duration.secs()))
}

/// `{ [leaf] = weight }`, plus `["<default>"]` when the default pose has a share.
pub(crate) fn weights_table<'a>(
    lua: &Lua,
    leaves: impl Iterator<Item = &'a str>,
    weights: &[f64],
    default_share: f64,
) -> mlua::Result<Table> {
    let table = lua.create_table()?;
    for (leaf, weight) in leaves.zip(weights) {
        table.set(leaf, *weight)?;
    }
    if default_share > DEFAULT_EPSILON {
        table.set("<default>", default_share)?;
    }
    Ok(table)
}

type Actor = UserDataRef<Handle>;

/// Adds `actor_NAME` functions (first argument: the handle) to the raw table.
pub(crate) fn add_raw_methods(lua: &Lua, raw: &Table, state: &Shared) -> mlua::Result<()> {
    let s = state.clone();
    raw.set(
        "actor_name",
        lua.create_function(move |_, this: Actor| Ok(s.borrow().session.actor(actor_id(&this)?).name().to_string()))?,
    )?;

    let s = state.clone();
    raw.set(
        "actor_set",
        lua.create_function(move |lua, (this, param, value): (Actor, String, f64)| {
            let actor = actor_id(&this)?;
            s.borrow_mut()
                .session
                .set_param(actor, &param, value)
                .map_err(|e| located(lua, format!("actor:set: {e}")))?;
            super::inputs::set_by_hand(lua, &s, actor, &param)
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "actor_get",
        lua.create_function(move |lua, (this, param): (Actor, String)| {
            let state = s
                .borrow()
                .session
                .param(actor_id(&this)?, &param)
                .map_err(|e| located(lua, format!("actor:get: {e}")))?;
            Ok((state.raw, state.smoothed))
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "actor_weights",
        lua.create_function(move |lua, (this, name): (Actor, Option<String>)| {
            let id = actor_id(&this)?;
            let host = refreshed(&s, id);
            let graph = host.session.graph(id);
            let c = channel(lua, "actor:weights", &graph, name)?;
            weights_table(lua, graph.leaves().iter().map(|l| l.name.as_str()), graph.weights(c), graph.default_share(c))
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "actor_additive_weights",
        lua.create_function(move |lua, (this, name): (Actor, Option<String>)| {
            let id = actor_id(&this)?;
            let host = refreshed(&s, id);
            let graph = host.session.graph(id);
            let c = channel(lua, "actor:additive_weights", &graph, name)?;
            let table = lua.create_table()?;
            for (leaf, weight) in graph.leaves().iter().zip(graph.additive_weights(c)) {
                if graph.layers()[leaf.layer].additive {
                    table.set(leaf.name.as_str(), *weight)?;
                }
            }
            Ok(table)
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "actor_output_weight",
        lua.create_function(move |lua, (this, name): (Actor, Option<String>)| {
            let id = actor_id(&this)?;
            let host = refreshed(&s, id);
            let graph = host.session.graph(id);
            Ok(graph.output_weight(channel(lua, "actor:output_weight", &graph, name)?))
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "actor_time",
        lua.create_function(move |lua, (this, leaf): (Actor, String)| {
            let id = actor_id(&this)?;
            let host = refreshed(&s, id);
            let index = host.session.leaf_index(id, &leaf).map_err(|e| located(lua, format!("actor:time: {e}")))?;
            Ok(host.session.graph(id).local_time(index))
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "actor_table",
        lua.create_function(move |_, this: Actor| {
            let id = actor_id(&this)?;
            Ok(weight_table(&refreshed(&s, id).session, id, Default::default()).trim_end().to_string())
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "actor_explain",
        lua.create_function(move |_, this: Actor| {
            let id = actor_id(&this)?;
            Ok(explain(&refreshed(&s, id).session, id).trim_end().to_string())
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "actor___tostring",
        lua.create_function(move |_, this: Actor| {
            let host = s.borrow();
            let actor = host.session.actor(actor_id(&this)?);
            Ok(format!("actor {} ({})", actor.name(), actor.spec().describe()))
        })?,
    )?;
    Ok(())
}

/// Adds `actor_play`, `actor_graph` and the `playback_*` functions to the raw table.
pub(crate) fn add_raw_playback_methods(lua: &Lua, raw: &Table, state: &Shared) -> mlua::Result<()> {
    let s = state.clone();
    raw.set(
        "actor_graph",
        lua.create_function(move |_, this: Actor| {
            let id = actor_id(&this)?;
            Ok(graph_view(&refreshed(&s, id).session, id, Default::default()).trim_end().to_string())
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "actor_play",
        lua.create_function(move |lua, (this, timeline, options): (Actor, String, Option<Table>)| {
            let id = actor_id(&this)?;
            let options = Options::new(lua, "actor:play", options, &["layer", "from", "from_frame"])?;
            let layer: Option<String> = options.get("layer")?;
            let from: Option<f64> = options.get("from")?;
            let from_frame: Option<i64> = options.get("from_frame")?;
            let mut host = s.borrow_mut();
            let start = match (from, from_frame) {
                (Some(_), Some(_)) => {
                    return Err(located(lua, "actor:play: give `from` (seconds) or `from_frame`, not both"));
                }
                (_, Some(frame)) => host.session.start_of_frame(&timeline, frame),
                (from, None) => Ticks::from_secs(from.unwrap_or(0.0)).map_err(Into::into),
            }
            .map_err(|e| located(lua, format!("actor:play: {e}")))?;
            // An unknown timeline is data (`nil, message`, and `timeline_missing` logged); a
            // playback is returned alone, so the REPL and `print` show just the handle.
            if host.session.snapshot().timeline_id(&timeline).is_none() {
                let message = host.session.play(id, &timeline, layer.as_deref(), start).err().map(|e| e.to_string());
                return (mlua::Value::Nil, message).into_lua_multi(lua);
            }
            let handle = host
                .session
                .play(id, &timeline, layer.as_deref(), start)
                .map_err(|e| located(lua, format!("actor:play: {e}")))?;
            let past_the_end = past_the_end(&host.session, &timeline, start, from_frame);
            drop(host);
            if let Some(message) = past_the_end {
                warn_located(lua, &s, message)?;
            }
            let handle = playback_handle(lua, &s.borrow().session, handle)?;
            print_live(&s)?;
            handle.into_lua_multi(lua)
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "playback_state",
        lua.create_function(move |lua, this: Actor| {
            let state = s
                .borrow()
                .session
                .playback_state(playback(&this)?)
                .map_err(|e| located(lua, format!("playback:state: {e}")))?;
            Ok(state.name())
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "playback_time",
        lua.create_function(move |lua, this: Actor| {
            let time = s
                .borrow_mut()
                .session
                .playback_time(playback(&this)?)
                .map_err(|e| located(lua, format!("playback:time: {e}")))?;
            Ok(time.secs())
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "playback_interrupt",
        lua.create_function(move |lua, this: Actor| {
            s.borrow_mut()
                .session
                .interrupt(playback(&this)?)
                .map_err(|e| located(lua, format!("playback:interrupt: {e}")))?;
            print_live(&s)
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "playback_seek",
        lua.create_function(move |lua, (this, to, policy): (Actor, f64, Option<String>)| {
            let policy_name = policy.unwrap_or_else(|| "fire_skipped".into());
            let Some(policy) = SeekPolicy::parse(&policy_name) else {
                let hint = suggestion(&policy_name, SeekPolicy::NAMES.iter().copied())
                    .map_or(String::new(), |h| format!("; {h}"));
                return Err(located(
                    lua,
                    format!(
                        "playback:seek: unknown policy `{policy_name}` (known: {}){hint}",
                        SeekPolicy::NAMES.join(", ")
                    ),
                ));
            };
            s.borrow_mut()
                .session
                .seek(playback(&this)?, to, policy)
                .map_err(|e| located(lua, format!("playback:seek: {e}")))?;
            print_live(&s)
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "playback___tostring",
        lua.create_function(move |_, this: AnyUserData| {
            let handle = playback(&this.borrow::<Handle>()?)?;
            let state = s.borrow().session.playback_state(handle).map_or("gone", |s| s.name());
            Ok(format!("{} ({state})", this.user_value::<String>()?))
        })?,
    )?;
    let s = state.clone();
    raw.set(
        "actor_playback",
        lua.create_function(move |lua, (this, layer): (Actor, Option<String>)| {
            let id = actor_id(&this)?;
            let host = s.borrow();
            let handle = host
                .session
                .current_playback(id, layer.as_deref())
                .map_err(|e| located(lua, format!("actor:playback: {e}")))?;
            handle.map(|h| playback_handle(lua, &host.session, h)).transpose()
        })?,
    )?;
    let s = state.clone();
    raw.set(
        "playback_frame",
        lua.create_function(move |lua, this: Actor| {
            let handle = playback(&this)?;
            let host = refreshed(&s, handle.actor);
            let graph = host.session.graph(handle.actor);
            let playback = graph
                .playback(handle.serial)
                .ok_or_else(|| located(lua, "playback:frame: this playback is no longer on its actor"))?;
            Ok(playback.local_frame(host.session.snapshot()))
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "actor_transition",
        lua.create_function(move |lua, (this, layer, target, duration): (Actor, String, String, f64)| {
            let id = actor_id(&this)?;
            let token = s
                .borrow_mut()
                .session
                .transition(id, &layer, &target, duration)
                .map_err(|e| located(lua, format!("actor:transition: {e}")))?;
            print_live(&s)?;
            token_table(lua, &token)
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "actor_complete",
        lua.create_function(move |lua, (this, layer, token): (Actor, String, Table)| {
            let id = actor_id(&this)?;
            let token = token_from(lua, &token)?;
            let outcome = s
                .borrow_mut()
                .session
                .complete(id, &layer, &token)
                .map_err(|e| located(lua, format!("actor:complete: {e}")))?;
            print_live(&s)?;
            Ok(match outcome {
                Completion::Committed => "committed",
                Completion::Stale => "stale",
                Completion::Duplicate => "duplicate",
            })
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "actor_arbiter",
        lua.create_function(move |lua, (this, layer): (Actor, String)| {
            let id = actor_id(&this)?;
            let host = s.borrow();
            let set =
                host.session.transition_set(id, &layer).map_err(|e| located(lua, format!("actor:arbiter: {e}")))?;
            let table = lua.create_table()?;
            table.set("state", set.arbiter.current())?;
            table.set("pending", set.arbiter.pending().map(|t| token_table(lua, t)).transpose()?)?;
            table.set("rejected", set.arbiter.rejected())?;
            Ok(table)
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "actor_locked",
        lua.create_function(move |_, this: Actor| {
            let host = s.borrow();
            let entity = host.session.actor(actor_id(&this)?).entity();
            Ok((entity.locked(), entity.lock_sources().map(str::to_string).collect::<Vec<_>>()))
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "actor_trace",
        lua.create_function(move |lua, (this, options): (Actor, Option<Table>)| {
            let id = actor_id(&this)?;
            let host = refreshed(&s, id);
            let as_table = Options::new(lua, "actor:trace", options, &["table"])?.get("table")?.unwrap_or(false);
            if as_table {
                return Ok(mlua::Value::Table(trace_table(lua, &host.session, id)?));
            }
            let text = trace_view(&host.session, id, Default::default()).trim_end().to_string();
            Ok(mlua::Value::String(lua.create_string(text)?))
        })?,
    )?;
    Ok(())
}

/// `actor:trace{ table = true }`: the trace as data — `{ frame, playbacks = { { timeline,
/// layer, state, frame, clips = { { name, task, first, last, state } } } }, commands = { {
/// type, source, result } }, locked, lock_sources }`.
/// `{ timeline, layer, state, frame, clips = { { name, task, first, last, state }, … } }` for
/// playback `p` on `layer`, appended to `list`, then one for each timeline it plays nested
/// now, whose `nested_in` names the clip that plays it.
fn push_playback(
    lua: &Lua,
    snapshot: &crate::compile::Snapshot,
    p: &crate::timeline::playback::Playback,
    layer: &str,
    nested_in: Option<&str>,
    list: &Table,
) -> mlua::Result<()> {
    let def = &snapshot.timelines[p.timeline];
    let entry = lua.create_table()?;
    entry.set("timeline", &*def.name)?;
    entry.set("layer", layer)?;
    entry.set("nested_in", nested_in)?;
    entry.set("state", p.state().name())?;
    entry.set("time", p.time().secs())?;
    entry.set("frame", p.local_frame(snapshot))?;
    let clips = lua.create_table()?;
    for (c, clip) in def.clips.iter().enumerate() {
        let (Some(task), Some((first, last))) = (&clip.task, clip.frames) else { continue };
        let row = lua.create_table()?;
        row.set("name", &*clip.name)?;
        row.set("task", task.kind.name())?;
        row.set("first", first)?;
        row.set("last", last)?;
        row.set("state", p.task_state(snapshot, c))?;
        clips.push(row)?;
    }
    entry.set("clips", clips)?;
    list.push(entry)?;
    for (c, nested) in p.playing_nested() {
        push_playback(lua, snapshot, nested, layer, Some(&def.clips[c].name), list)?;
    }
    Ok(())
}

/// The host, actor `id`'s graph brought up to date first, so that reading it copies nothing
/// ([`crate::session::Session::refresh_graph`]).
fn refreshed(state: &Shared, id: ActorId) -> std::cell::Ref<'_, super::HostState> {
    state.borrow_mut().session.refresh_graph(id);
    state.borrow()
}

fn trace_table(lua: &Lua, session: &crate::session::Session, id: ActorId) -> mlua::Result<Table> {
    let actor = session.actor(id);
    let snapshot = session.snapshot();
    let trace = lua.create_table()?;
    trace.set("frame", session.clock().frame())?;
    let playbacks = lua.create_table()?;
    for layer in session.graph(id).layers() {
        let crate::graph::Source::Timeline(crate::graph::TimelineSlot { playback: Some(p), .. }) = &layer.source else {
            continue;
        };
        push_playback(lua, snapshot, p, layer.name(), None, &playbacks)?;
    }
    trace.set("playbacks", playbacks)?;
    let commands = lua.create_table()?;
    for command in actor.last_commands().iter().filter(|c| c.frame == session.clock().frame()) {
        let row = lua.create_table()?;
        row.set("type", command.kind.as_str())?;
        row.set("source", command.source.as_str())?;
        row.set("result", command.result.as_str())?;
        commands.push(row)?;
    }
    trace.set("commands", commands)?;
    trace.set("locked", actor.entity().locked())?;
    trace.set("lock_sources", lua.create_sequence_from(actor.entity().lock_sources())?)?;
    Ok(trace)
}

/// A token as Lua sees it: `{ generation, from, to }`.
fn token_table(lua: &Lua, token: &Token) -> mlua::Result<Table> {
    let table = lua.create_table()?;
    table.set("generation", token.generation)?;
    table.set("from", token.from.as_str())?;
    table.set("to", token.to.as_str())?;
    Ok(table)
}

/// A token back from Lua; anything else is an error that says what a token looks like.
fn token_from(lua: &Lua, table: &Table) -> mlua::Result<Token> {
    let generation: Option<u64> = table.get("generation").ok().flatten();
    let from: Option<String> = table.get("from").ok().flatten();
    let to: Option<String> = table.get("to").ok().flatten();
    match (generation, from, to) {
        (Some(generation), Some(from), Some(to)) => Ok(Token { generation, from, to }),
        _ => Err(located(lua, "actor:complete: a token is a table { generation = n, from = \"…\", to = \"…\" }")),
    }
}
