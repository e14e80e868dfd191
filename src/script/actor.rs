//! Actor handles in Lua: `actor:set`, `:get`, `:weights`, `:output_weight`, `:time`,
//! `:table`, `:explain`, `:name`. A handle is a userdata holding the actor id; its methods are raw Rust
//! functions (`actor_*` in the raw table) wrapped by the prelude and found through `__index`.

use mlua::{AnyUserData, Lua, Table, UserData, UserDataMethods, UserDataRef};

use super::Shared;
use super::api::located;
use crate::config::suggestion;
use crate::graph::Graph;
use crate::report::{explain, weight_table};
use crate::session::ActorId;

/// Registry key of the table of wrapped actor methods.
pub(crate) const METHODS_KEY: &str = "blendlab.actor_methods";

/// What Lua holds for an actor.
pub(crate) struct ActorRef {
    pub id: ActorId,
}

impl UserData for ActorRef {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_function("__index", |lua, (_, key): (AnyUserData, String)| {
            lua.named_registry_value::<Table>(METHODS_KEY)?.get::<mlua::Value>(key)
        });
        methods.add_meta_function("__tostring", |lua, this: AnyUserData| {
            lua.named_registry_value::<Table>(METHODS_KEY)?.get::<mlua::Function>("__tostring")?.call::<String>(this)
        });
    }
}

/// Channel index from an optional name (the first channel by default).
fn channel(lua: &Lua, graph: &Graph, name: Option<String>) -> mlua::Result<usize> {
    let Some(name) = name else { return Ok(0) };
    graph.channels().iter().position(|c| *c == name).ok_or_else(|| {
        let hint =
            suggestion(&name, graph.channels().iter().map(String::as_str)).map_or(String::new(), |h| format!("; {h}"));
        located(lua, format!("actor: no channel `{name}` (channels: {}){hint}", graph.channels().join(", ")))
    })
}

/// Share of the default pose under which `<default>` is left out of `weights()`.
const DEFAULT_EPSILON: f64 = 1e-12;

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

type Actor<'a> = UserDataRef<ActorRef>;

/// Adds `actor_NAME` functions (first argument: the handle) to the raw table.
pub(crate) fn add_raw_methods(lua: &Lua, raw: &Table, state: &Shared) -> mlua::Result<()> {
    let s = state.clone();
    raw.set(
        "actor_name",
        lua.create_function(move |_, this: Actor| Ok(s.borrow().session.actor(this.id).name.clone()))?,
    )?;

    let s = state.clone();
    raw.set(
        "actor_set",
        lua.create_function(move |lua, (this, param, value): (Actor, String, f64)| {
            s.borrow_mut()
                .session
                .set_param(this.id, &param, value)
                .map_err(|e| located(lua, format!("actor:set: {e}")))
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "actor_get",
        lua.create_function(move |lua, (this, param): (Actor, String)| {
            let state =
                s.borrow().session.param(this.id, &param).map_err(|e| located(lua, format!("actor:get: {e}")))?;
            Ok((state.raw, state.smoothed))
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "actor_weights",
        lua.create_function(move |lua, (this, name): (Actor, Option<String>)| {
            let host = s.borrow();
            let graph = host.session.actor(this.id).graph();
            let c = channel(lua, graph, name)?;
            weights_table(lua, graph.leaves().iter().map(|l| l.name.as_str()), graph.weights(c), graph.default_share(c))
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "actor_output_weight",
        lua.create_function(move |lua, (this, name): (Actor, Option<String>)| {
            let host = s.borrow();
            let graph = host.session.actor(this.id).graph();
            Ok(graph.output_weight(channel(lua, graph, name)?))
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "actor_time",
        lua.create_function(move |lua, (this, leaf): (Actor, String)| {
            let host = s.borrow();
            let graph = host.session.actor(this.id).graph();
            let index = graph.leaf_index(&leaf).ok_or_else(|| {
                let hint = suggestion(&leaf, graph.leaves().iter().map(|l| l.name.as_str()))
                    .map_or(String::new(), |h| format!("; {h}"));
                located(lua, format!("actor:time: no leaf `{leaf}`{hint}"))
            })?;
            Ok(graph.local_time(index))
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "actor_table",
        lua.create_function(move |_, this: Actor| {
            let host = s.borrow();
            Ok(weight_table(&host.session, this.id, Default::default()).trim_end().to_string())
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "actor_explain",
        lua.create_function(move |_, this: Actor| {
            let host = s.borrow();
            Ok(explain(&host.session, this.id).trim_end().to_string())
        })?,
    )?;

    let s = state.clone();
    raw.set(
        "actor___tostring",
        lua.create_function(move |_, this: Actor| {
            let host = s.borrow();
            let actor = host.session.actor(this.id);
            Ok(format!("actor {} ({})", actor.name, actor.spec.describe()))
        })?,
    )?;
    Ok(())
}
