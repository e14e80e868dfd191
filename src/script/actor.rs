//! Actor handles in Lua: `actor:set`, `:get`, `:weights`, `:output_weight`, `:time`,
//! `:table`, `:name`.

use mlua::{Lua, UserData, UserDataMethods};

use super::Shared;
use super::api::located;
use crate::config::suggestion;
use crate::graph::Graph;
use crate::report::weight_table;
use crate::session::ActorId;

/// What Lua holds for an actor: its id and the shared host state.
pub(crate) struct ActorRef {
    pub id: ActorId,
    pub state: Shared,
}

/// Channel index from an optional name (the first channel by default).
fn channel(lua: &Lua, graph: &Graph, name: Option<String>) -> mlua::Result<usize> {
    let Some(name) = name else { return Ok(0) };
    graph.channels().iter().position(|c| *c == name).ok_or_else(|| {
        let hint =
            suggestion(&name, graph.channels().iter().map(String::as_str)).map_or(String::new(), |h| format!("; {h}"));
        located(lua, format!("no channel `{name}` (channels: {}){hint}", graph.channels().join(", ")))
    })
}

/// Share of the default pose under which `<default>` is left out of `weights()`.
const DEFAULT_EPSILON: f64 = 1e-12;

impl UserData for ActorRef {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("name", |_, this, ()| Ok(this.state.borrow().session.actor(this.id).name.clone()));

        methods.add_method("set", |lua, this, (param, value): (String, f64)| {
            this.state
                .borrow_mut()
                .session
                .set_param(this.id, &param, value)
                .map_err(|e| located(lua, format!("set: {e}")))
        });

        methods.add_method("get", |lua, this, param: String| {
            let state =
                this.state.borrow().session.param(this.id, &param).map_err(|e| located(lua, format!("get: {e}")))?;
            Ok((state.raw, state.smoothed))
        });

        methods.add_method("weights", |lua, this, name: Option<String>| {
            let host = this.state.borrow();
            let graph = host.session.actor(this.id).graph();
            let c = channel(lua, graph, name)?;
            let table = lua.create_table()?;
            for (leaf, weight) in graph.leaves().iter().zip(graph.weights(c)) {
                table.set(leaf.name.as_str(), *weight)?;
            }
            if graph.default_share(c) > DEFAULT_EPSILON {
                table.set("<default>", graph.default_share(c))?;
            }
            Ok(table)
        });

        methods.add_method("output_weight", |lua, this, name: Option<String>| {
            let host = this.state.borrow();
            let graph = host.session.actor(this.id).graph();
            Ok(graph.output_weight(channel(lua, graph, name)?))
        });

        methods.add_method("time", |lua, this, leaf: String| {
            let host = this.state.borrow();
            let graph = host.session.actor(this.id).graph();
            let index = graph.leaf_index(&leaf).ok_or_else(|| {
                let hint = suggestion(&leaf, graph.leaves().iter().map(|l| l.name.as_str()))
                    .map_or(String::new(), |h| format!("; {h}"));
                located(lua, format!("time: no leaf `{leaf}`{hint}"))
            })?;
            Ok(graph.local_time(index))
        });

        methods.add_method("table", |_, this, ()| {
            let host = this.state.borrow();
            Ok(weight_table(&host.session, this.id, Default::default()).trim_end().to_string())
        });

        methods.add_meta_method("__tostring", |_, this, ()| {
            let host = this.state.borrow();
            let actor = host.session.actor(this.id);
            Ok(format!("actor {} ({})", actor.name, actor.spec.describe()))
        });
    }
}
