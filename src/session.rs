//! The one façade over the core: the live snapshot, the clock, the actors, the scheduled
//! inputs and the event log. Front ends drive it; it never prints, reads files or looks at a
//! wall clock.
//!
//! A logic frame runs in the order of REFERENCE §1: (1) scheduled inputs due at or before
//! the frame's time, in scheduling order ([`Session::begin_frame`] hands them to the
//! caller); (2) parameter smoothing; (3) each actor in spawn order; (4) events, appended in
//! exactly that order ([`Session::finish_frame`]).

use std::ops::RangeInclusive;

use crate::blend::params::ParamState;
use crate::clock::{Clock, ClockError};
use crate::compile::{Asset, Snapshot};
use crate::config::suggestion;
use crate::event::{Event, EventKind};
use crate::graph::Graph;
use crate::time::{Ticks, TimeError};
use crate::timeline::playback::{Playback, PlaybackState, SeekPolicy};

pub type ActorId = usize;

/// What drives an actor, by asset name.
#[derive(Clone, Debug, PartialEq)]
pub enum ActorSpec {
    BlendTree(String),
    Timeline(String),
    Graph(String),
}

impl ActorSpec {
    pub fn describe(&self) -> String {
        match self {
            ActorSpec::BlendTree(name) => format!("blend_tree {name}"),
            ActorSpec::Timeline(name) => format!("timeline {name}"),
            ActorSpec::Graph(name) => format!("graph {name}"),
        }
    }
}

/// Names one playback: the actor it plays on and its serial number.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlaybackHandle {
    pub actor: ActorId,
    pub serial: u64,
}

/// A thing in the world with parameters and a graph.
#[derive(Clone, Debug)]
pub struct Actor {
    pub name: String,
    pub spec: ActorSpec,
    /// One state per parameter of the snapshot, by parameter id.
    params: Vec<ParamState>,
    graph: Graph,
}

impl Actor {
    pub fn graph(&self) -> &Graph {
        &self.graph
    }
    pub fn params(&self) -> &[ParamState] {
        &self.params
    }
}

/// Why the session refused a request. The session is unchanged after any of these.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SessionError {
    #[error("no {kind} named `{name}`{}", hint_suffix(.hint))]
    UnknownAsset { kind: &'static str, name: String, hint: Option<String> },
    #[error("an actor named `{0}` already exists")]
    DuplicateActor(String),
    #[error("no actor named `{name}`{}", hint_suffix(.hint))]
    UnknownActor { name: String, hint: Option<String> },
    #[error("actor `{actor}` has no parameter `{name}`{}", hint_suffix(.hint))]
    UnknownParameter { actor: String, name: String, hint: Option<String> },
    #[error("parameter `{name}` must be a finite number, got {value}")]
    BadValue { name: String, value: f64 },
    #[error("actor `{actor}` has no layer `{name}`{}", hint_suffix(.hint))]
    UnknownLayer { actor: String, name: String, hint: Option<String> },
    #[error("layer `{layer}` of actor `{actor}` does not play timelines")]
    NotATimelineLayer { actor: String, layer: String },
    #[error("this playback is no longer on its actor (it was replaced or the actor reloaded without it)")]
    PlaybackGone,
    #[error("{0}")]
    Clock(#[from] ClockError),
    #[error("time {0}")]
    Time(#[from] TimeError),
}

fn hint_suffix(hint: &Option<String>) -> String {
    hint.as_ref().map_or(String::new(), |h| format!("; {h}"))
}

struct Scheduled {
    due: Ticks,
    callback: u64,
}

/// Snapshot + clock + actors + scheduled inputs + event log.
pub struct Session {
    snapshot: Snapshot,
    generation: u64,
    clock: Clock,
    actors: Vec<Actor>,
    /// In scheduling order.
    schedule: Vec<Scheduled>,
    log: Vec<Event>,
    /// The last playback serial handed out.
    serial: u64,
    /// Final states of playbacks that left their layer (replaced by a new `play`).
    ended: std::collections::BTreeMap<u64, PlaybackState>,
}

impl Default for Session {
    fn default() -> Self {
        Session::new(Snapshot::default())
    }
}

impl Session {
    pub fn new(snapshot: Snapshot) -> Self {
        Session {
            snapshot,
            generation: 0,
            clock: Clock::default(),
            actors: Vec::new(),
            schedule: Vec::new(),
            log: Vec::new(),
            serial: 0,
            ended: Default::default(),
        }
    }

    pub fn snapshot(&self) -> &Snapshot {
        &self.snapshot
    }
    pub fn clock(&self) -> &Clock {
        &self.clock
    }
    pub fn clock_mut(&mut self) -> &mut Clock {
        &mut self.clock
    }
    pub fn actors(&self) -> &[Actor] {
        &self.actors
    }
    pub fn actor(&self, id: ActorId) -> &Actor {
        &self.actors[id]
    }
    pub fn events(&self) -> &[Event] {
        &self.log
    }
    /// How many library builds were applied.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    pub fn find_actor(&self, name: &str) -> Result<ActorId, SessionError> {
        self.actors.iter().position(|a| a.name == name).ok_or_else(|| SessionError::UnknownActor {
            name: name.into(),
            hint: suggestion(name, self.actors.iter().map(|a| a.name.as_str())),
        })
    }

    fn log(&mut self, actor: Option<&str>, kind: EventKind) {
        self.log.push(Event {
            frame: self.clock.frame(),
            time: self.clock.time(),
            actor: actor.map(str::to_string),
            kind,
        });
    }

    /// Logs `events` for actor `id`, in order.
    fn log_actor(&mut self, id: ActorId, events: Vec<EventKind>) {
        let (frame, time) = (self.clock.frame(), self.clock.time());
        let actor = &self.actors[id].name;
        self.log.extend(events.into_iter().map(|kind| Event { frame, time, actor: Some(actor.clone()), kind }));
    }

    /// Appends a `warning` event.
    pub fn warn(&mut self, message: impl Into<String>) {
        self.log(None, EventKind::Warning { message: message.into() });
    }

    /// Makes `snapshot` live (a successful reload) and moves every actor onto it by stable
    /// names: parameter values and smoothing state carry over by parameter name, local times
    /// by leaf name. An actor whose asset is gone keeps its old graph frozen, with a warning.
    pub fn apply_snapshot(&mut self, snapshot: Snapshot) {
        self.generation += 1;
        let old = std::mem::replace(&mut self.snapshot, snapshot);
        let files = self.snapshot.files.iter().map(|(path, _)| path.clone()).collect();
        self.log(None, EventKind::ReloadApplied { generation: self.generation, files });
        for id in 0..self.actors.len() {
            let actor = &self.actors[id];
            let params = self
                .snapshot
                .parameters
                .iter()
                .map(|p| old.parameter_id(&p.name).map_or_else(|| ParamState::at_default(p), |o| actor.params[o]))
                .collect();
            let now = self.clock.time();
            match build_graph(&self.snapshot, &actor.spec, now, &mut self.serial) {
                Ok(mut graph) => {
                    let actor = &mut self.actors[id];
                    graph.carry_state_from(&self.snapshot, &old, &actor.graph);
                    actor.params = params;
                    actor.graph = graph;
                    let mut events = Vec::new();
                    actor.graph.update(&self.snapshot, &actor.params, 0.0, now, &mut events);
                    self.log_actor(id, events);
                }
                Err(error) => {
                    let name = actor.name.clone();
                    self.log(
                        Some(&name),
                        EventKind::Warning { message: format!("{error}; the actor keeps its last graph") },
                    );
                }
            }
        }
    }

    /// Records a failed reload; the live snapshot does not change.
    pub fn reload_failed(&mut self, errors: usize) {
        self.log(None, EventKind::ReloadFailed { generation: self.generation + 1, errors });
    }

    /// Creates an actor driven by `spec`, evaluated at once at the current time.
    pub fn spawn(&mut self, name: &str, spec: ActorSpec) -> Result<ActorId, SessionError> {
        if self.actors.iter().any(|a| a.name == name) {
            return Err(SessionError::DuplicateActor(name.into()));
        }
        let now = self.clock.time();
        let graph = build_graph(&self.snapshot, &spec, now, &mut self.serial)?;
        let params = self.snapshot.parameters.iter().map(ParamState::at_default).collect();
        let mut actor = Actor { name: name.into(), spec, params, graph };
        let mut events = Vec::new();
        actor.graph.update(&self.snapshot, &actor.params, 0.0, now, &mut events);
        self.actors.push(actor);
        let id = self.actors.len() - 1;
        self.log_actor(id, events);
        Ok(id)
    }

    /// Starts `timeline` on `actor` at timeline time `start`, on layer `layer` (default: the
    /// top-most timeline layer, or a new layer named after the timeline on top). A missing
    /// timeline logs `timeline_missing` and is an error — never an empty success.
    pub fn play(
        &mut self,
        actor: ActorId,
        timeline: &str,
        layer: Option<&str>,
        start: Ticks,
    ) -> Result<PlaybackHandle, SessionError> {
        let Some(id) = self.snapshot.timeline_id(timeline) else {
            let name = self.actors[actor].name.clone();
            self.log(Some(&name), EventKind::TimelineMissing { timeline: timeline.into() });
            return Err(SessionError::UnknownAsset {
                kind: "timeline",
                name: timeline.into(),
                hint: suggestion(timeline, self.snapshot.names_of(|a| matches!(a, Asset::Timeline(_)))),
            });
        };
        let a = &self.actors[actor];
        let index = match layer {
            Some(name) => a.graph.layer_index(name).ok_or_else(|| SessionError::UnknownLayer {
                actor: a.name.clone(),
                name: name.into(),
                hint: suggestion(name, a.graph.layers().iter().map(|l| l.name.as_str())),
            })?,
            None => match a.graph.default_timeline_layer() {
                Some(index) => index,
                None => self.actors[actor].graph.push_timeline_layer(timeline, id),
            },
        };
        let now = self.clock.time();
        self.serial += 1;
        let serial = self.serial;
        let a = &mut self.actors[actor];
        let playback = Playback::new(&self.snapshot, id, a.graph.channels(), now, start);
        let mut events = Vec::new();
        let replaced = a.graph.play(&self.snapshot, index, playback, serial, &mut events).ok_or_else(|| {
            SessionError::NotATimelineLayer { actor: a.name.clone(), layer: a.graph.layers()[index].name.clone() }
        })?;
        a.graph.update(&self.snapshot, &a.params, 0.0, now, &mut events);
        if let Some((old, state)) = replaced {
            self.ended.insert(old, state);
        }
        self.log_actor(actor, events);
        Ok(PlaybackHandle { actor, serial })
    }

    /// The playback now on `layer` (default: the top-most timeline layer), if any.
    pub fn current_playback(
        &self,
        actor: ActorId,
        layer: Option<&str>,
    ) -> Result<Option<PlaybackHandle>, SessionError> {
        let graph = &self.actors[actor].graph;
        let index = match layer {
            Some(name) => Some(graph.layer_index(name).ok_or_else(|| SessionError::UnknownLayer {
                actor: self.actors[actor].name.clone(),
                name: name.into(),
                hint: suggestion(name, graph.layers().iter().map(|l| l.name.as_str())),
            })?),
            None => graph.default_timeline_layer(),
        };
        Ok(index.and_then(|i| match &graph.layers()[i].source {
            crate::graph::Source::Timeline(slot) if slot.playback.is_some() => {
                Some(PlaybackHandle { actor, serial: slot.serial })
            }
            _ => None,
        }))
    }

    /// The state of a playback: on its layer, or how it ended when it was replaced.
    pub fn playback_state(&self, handle: PlaybackHandle) -> Result<PlaybackState, SessionError> {
        match self.actors[handle.actor].graph.playback(handle.serial) {
            Some(playback) => Ok(playback.state()),
            None => self.ended.get(&handle.serial).copied().ok_or(SessionError::PlaybackGone),
        }
    }

    /// A playback's current timeline time.
    pub fn playback_time(&self, handle: PlaybackHandle) -> Result<Ticks, SessionError> {
        self.actors[handle.actor].graph.playback(handle.serial).map(Playback::time).ok_or(SessionError::PlaybackGone)
    }

    /// Interrupts a playing playback (nothing happens to one that already ended).
    pub fn interrupt(&mut self, handle: PlaybackHandle) -> Result<(), SessionError> {
        let mut events = Vec::new();
        let a = &mut self.actors[handle.actor];
        match a.graph.playback_mut(handle.serial) {
            Some(playback) => playback.stop(&self.snapshot, PlaybackState::Interrupted, &mut events),
            None if self.ended.contains_key(&handle.serial) => return Ok(()),
            None => return Err(SessionError::PlaybackGone),
        }
        let now = self.clock.time();
        a.graph.update(&self.snapshot, &a.params, 0.0, now, &mut events);
        self.log_actor(handle.actor, events);
        Ok(())
    }

    /// Moves a playback to timeline time `to` (REFERENCE §3.7), recorded as a `seek` event.
    pub fn seek(&mut self, handle: PlaybackHandle, to: f64, policy: SeekPolicy) -> Result<(), SessionError> {
        let to = Ticks::from_secs(to)?;
        let now = self.clock.time();
        let mut events = Vec::new();
        let a = &mut self.actors[handle.actor];
        let playback = a.graph.playback_mut(handle.serial).ok_or(SessionError::PlaybackGone)?;
        playback.seek(&self.snapshot, &a.params, now, to, policy, &mut events);
        a.graph.update(&self.snapshot, &a.params, 0.0, now, &mut events);
        self.log_actor(handle.actor, events);
        Ok(())
    }

    fn parameter_of(&self, actor: ActorId, name: &str) -> Result<usize, SessionError> {
        self.snapshot.parameter_id(name).ok_or_else(|| SessionError::UnknownParameter {
            actor: self.actors[actor].name.clone(),
            name: name.into(),
            hint: suggestion(name, self.snapshot.parameters.iter().map(|p| p.name.as_str())),
        })
    }

    /// Sets a parameter's raw value; smoothing moves toward it from the next logic frame.
    pub fn set_param(&mut self, actor: ActorId, name: &str, value: f64) -> Result<(), SessionError> {
        let id = self.parameter_of(actor, name)?;
        if !value.is_finite() {
            return Err(SessionError::BadValue { name: name.into(), value });
        }
        self.actors[actor].params[id].raw = value;
        Ok(())
    }

    /// A parameter's state (raw and smoothed).
    pub fn param(&self, actor: ActorId, name: &str) -> Result<ParamState, SessionError> {
        Ok(self.actors[actor].params[self.parameter_of(actor, name)?])
    }

    /// Schedules front-end callback `callback` for the first logic frame whose time ≥
    /// `time_s` (the next frame if that time has passed).
    pub fn schedule(&mut self, time_s: f64, callback: u64) -> Result<(), SessionError> {
        let due = Ticks::from_secs(time_s)?;
        self.schedule.push(Scheduled { due, callback });
        Ok(())
    }

    /// Plans `step(dt)` (see [`Clock::plan_step`]); run the frames with `begin_frame` and
    /// `finish_frame`.
    pub fn plan_step(&mut self, dt: f64) -> Result<RangeInclusive<i64>, SessionError> {
        Ok(self.clock.plan_step(dt)?)
    }

    /// Plans exactly `n` frames.
    pub fn plan_frames(&mut self, n: u64) -> Result<RangeInclusive<i64>, SessionError> {
        Ok(self.clock.plan_frames(n)?)
    }

    /// Enters `frame` and returns the callbacks due now, in scheduling order; the caller runs
    /// them, then calls [`Session::finish_frame`].
    pub fn begin_frame(&mut self, frame: i64) -> Vec<u64> {
        self.clock.enter(frame);
        let now = self.clock.time();
        let (due, later): (Vec<Scheduled>, Vec<Scheduled>) =
            std::mem::take(&mut self.schedule).into_iter().partition(|s| s.due <= now);
        self.schedule = later;
        due.into_iter().map(|s| s.callback).collect()
    }

    /// Steps (2)–(4) of the current frame: smoothing, then every actor in spawn order.
    pub fn finish_frame(&mut self) {
        let dt = self.clock.frame_seconds();
        let now = self.clock.time();
        for actor in &mut self.actors {
            for (state, param) in actor.params.iter_mut().zip(&self.snapshot.parameters) {
                state.smooth(param, dt);
            }
        }
        let mut events = Vec::new();
        for id in 0..self.actors.len() {
            let actor = &mut self.actors[id];
            actor.graph.update(&self.snapshot, &actor.params, dt, now, &mut events);
            if !events.is_empty() {
                self.log_actor(id, std::mem::take(&mut events));
            }
        }
    }

    /// Runs planned frames for callers without scheduled callbacks of their own; due
    /// callbacks are handed to `on_input` with the session.
    pub fn run_frames(&mut self, frames: RangeInclusive<i64>, mut on_input: impl FnMut(&mut Session, u64)) {
        for frame in frames {
            for callback in self.begin_frame(frame) {
                on_input(self, callback);
            }
            self.finish_frame();
        }
    }
}

/// The graph an actor spec asks for, from `snapshot`, starting timelines at `now`.
fn build_graph(snapshot: &Snapshot, spec: &ActorSpec, now: Ticks, serial: &mut u64) -> Result<Graph, SessionError> {
    let unknown = |kind: &'static str, name: &str, of: fn(&Asset) -> bool| SessionError::UnknownAsset {
        kind,
        name: name.into(),
        hint: suggestion(name, snapshot.names_of(of)),
    };
    match spec {
        ActorSpec::BlendTree(name) => {
            let tree = snapshot
                .blend_tree_id(name)
                .ok_or_else(|| unknown("blend tree", name, |a| matches!(a, Asset::BlendTree(_))))?;
            Ok(Graph::for_blend_tree(snapshot, tree))
        }
        ActorSpec::Timeline(name) => {
            let timeline = snapshot
                .timeline_id(name)
                .ok_or_else(|| unknown("timeline", name, |a| matches!(a, Asset::Timeline(_))))?;
            *serial += 1;
            Ok(Graph::for_timeline(snapshot, timeline, now, *serial))
        }
        ActorSpec::Graph(name) => {
            let graph =
                snapshot.graph_id(name).ok_or_else(|| unknown("graph", name, |a| matches!(a, Asset::Graph(_))))?;
            Ok(Graph::from_def(snapshot, &snapshot.graphs[graph], now, serial))
        }
    }
}
