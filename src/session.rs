//! The one façade over the core: the live snapshot, the clock, the actors, the scheduled
//! inputs and the event log. Front ends drive it; it never prints, reads files or looks at a
//! wall clock.
//!
//! A logic frame runs in the order of REFERENCE §1: (1) scheduled inputs due at or before
//! the frame's time, in scheduling order ([`Session::begin_frame`] hands them to the
//! caller); (2) parameter smoothing; (3) each actor in spawn order; (4) events, appended in
//! exactly that order ([`Session::finish_frame`]).

use std::borrow::Cow;
use std::ops::RangeInclusive;

use crate::blend::params::{ParamState, ParamTable};
use crate::clock::{Clock, ClockError};
use crate::compile::{Asset, ParamId, Parameter, Snapshot};
use crate::config::suggestion;
use crate::entity::Entity;
use crate::event::{Command, Event, EventKind, EventLog, FieldValue, SeekPolicy};
use crate::graph::rows::{Frame, Graphs, Rows};
use crate::graph::{FrameStep, Graph};
use crate::graph::{Source, TransitionSet, completion_event, transition_change};
use crate::input::TriggerAction;
use crate::time::{FrameTime, Ticks, TimeError};
use crate::timeline::TimelineId;
use crate::timeline::playback::{Playback, PlaybackState};
use crate::transition::{Completion, Token};

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

/// Names one playback: the actor it plays on and its serial number there.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlaybackHandle {
    pub actor: ActorId,
    pub serial: u64,
}

/// A thing in the world with a graph; its parameters are the session's ([`ParamTable`]),
/// and while its graph runs in a row, so are its frame's numbers ([`Rows`]).
#[derive(Clone, Debug)]
pub struct Actor {
    graph: Graph,
    about: Box<ActorAbout>,
}

/// What no frame reads of an actor (see [`Actor`]).
#[derive(Clone, Debug)]
struct ActorAbout {
    /// Heads the actor's table titles; the event log keeps the same name for its events.
    name: crate::event::Name,
    spec: ActorSpec,
    entity: Entity,
    /// The commands routed to this actor in its last frame with commands, and what the
    /// entity made of each (for traces).
    last_commands: Vec<RoutedCommand>,
    /// Why the actor rests in the default pose, while it does.
    resting: Option<Resting>,
    /// The last playback serial handed out on this actor: its playbacks are numbered 1, 2,
    /// 3… (`demo_attack#2` in task sources), whatever the other actors play, so that a
    /// script's output for one actor does not change when another actor is added before it.
    serial: u64,
    /// Final states of its playbacks that left their layer (replaced by a new `play`, or
    /// taken away by a reload).
    ended: EndedPlaybacks,
}

/// An actor whose asset a reload removed: it rests on an empty graph, in the default pose,
/// until a reload brings the asset back.
#[derive(Clone, Debug, PartialEq)]
pub struct Resting {
    /// The generation of the reload that removed the asset.
    pub since_generation: u64,
    /// What is missing (`no blend tree named `locomotion``).
    pub missing: String,
    /// The parameters its graph read, by name: their values are kept while it rests.
    pub parameters: Vec<String>,
    /// The values of its parameters that the live library no longer declares (a reload took
    /// them away with the asset, or while it rested), by name: a reload that declares one
    /// again gives it back its value.
    pub kept: Vec<(String, ParamState)>,
}

/// A command and its arbitration result.
#[derive(Clone, Debug, PartialEq)]
pub struct RoutedCommand {
    pub frame: i64,
    pub kind: String,
    pub source: String,
    pub result: String,
}

impl Actor {
    pub fn name(&self) -> &str {
        &self.about.name
    }
    pub fn spec(&self) -> &ActorSpec {
        &self.about.spec
    }
    pub fn entity(&self) -> &Entity {
        &self.about.entity
    }
    pub fn last_commands(&self) -> &[RoutedCommand] {
        &self.about.last_commands
    }
    /// Why the actor rests in the default pose, if it does.
    pub fn resting(&self) -> Option<&Resting> {
        self.about.resting.as_ref()
    }
}

/// Why the session refused a request. The session is unchanged after any of these.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SessionError {
    #[error("no {kind} named `{name}`{}", hint_suffix(.hint))]
    UnknownAsset { kind: &'static str, name: String, hint: Option<String> },
    #[error("an actor named `{0}` already exists")]
    DuplicateActor(String),
    #[error(
        "an actor needs a name that prints on one line, as it reads (not empty, no control or invisible characters), got {0:?}"
    )]
    BadActorName(String),
    #[error("no actor named `{name}`{}", hint_suffix(.hint))]
    UnknownActor { name: String, hint: Option<String> },
    #[error("actor `{actor}` has no parameter `{name}`{}", hint_suffix(.hint))]
    UnknownParameter { actor: String, name: String, hint: Option<String> },
    #[error("parameter `{name}` takes a number within ±1e6, got {}", crate::config::number(*.value))]
    BadValue { name: String, value: f64 },
    #[error("actor `{actor}` has no layer `{name}`{}", hint_suffix(.hint))]
    UnknownLayer { actor: String, name: String, hint: Option<String> },
    #[error("actor `{actor}` has no leaf `{name}`{}", hint_suffix(.hint))]
    UnknownLeaf { actor: String, name: String, hint: Option<String> },
    #[error(
        "the local time of leaf `{leaf}` of actor `{actor}` follows its timeline playback; seek the playback instead"
    )]
    PlaybackLeafTime { actor: String, leaf: String },
    #[error("layer `{layer}` of actor `{actor}` does not play timelines")]
    NotATimelineLayer { actor: String, layer: String },
    #[error(
        "timeline `{timeline}` masks channel(s) {} that actor `{actor}` does not have (channels: {}){}",
        .missing.join(", "), .channels.join(", "), hint_suffix(.hint)
    )]
    MaskedChannelsMissing {
        timeline: String,
        actor: String,
        missing: Vec<String>,
        channels: Vec<String>,
        hint: Option<String>,
    },
    #[error("this playback is no longer on its actor (it was replaced or the actor reloaded without it)")]
    PlaybackGone,
    #[error(
        "playback #{serial} of `{timeline}` on actor `{actor}` {}, and an ended playback stays where it ended; \
         play `{timeline}` again to start a new one",
        if *.state == PlaybackState::Interrupted { "was interrupted" } else { "has completed" }
    )]
    PlaybackEnded { serial: u64, timeline: String, actor: String, state: PlaybackState },
    #[error(
        "timeline `{timeline}` is in loop pass {pass}, which replays from {loop_start} s: a seek within it \
         goes to a time from {loop_start} s on, got {to} s"
    )]
    SeekBeforeLoopStart { timeline: String, pass: i64, loop_start: f64, to: f64 },
    #[error("layer `{layer}` of actor `{actor}` is not a transition layer")]
    NotATransitionLayer { actor: String, layer: String },
    #[error("a transition takes a duration in seconds from 0 to 1e6, got {0}")]
    BadDuration(f64),
    #[error("a timeline's local frames start at 0, got from_frame {0}")]
    NegativeFromFrame(i64),
    #[error("from_frame {frame} is at {seconds:e} s, beyond the ±1e6 s that blendlab accepts")]
    FromFrameBeyond { frame: i64, seconds: f64 },
    #[error("from_frame needs a timeline with a `frame_rate`")]
    FromFrameWithoutRate,
    #[error("a timeline's time starts at 0 s, got {0} s")]
    NegativeTimelineTime(f64),
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
    /// Every actor's parameters.
    params: ParamTable,
    /// Where each actor's frame runs, and the rows of the actors whose graphs run in rows.
    rows: Rows,
    /// Actor ids by name.
    actor_ids: std::collections::BTreeMap<String, ActorId>,
    /// In scheduling order.
    schedule: Vec<Scheduled>,
    log: EventLog,
    /// Whether `clip_tick` events are recorded.
    trace_ticks: bool,
    /// What a `play`, or an actor's graph in a frame, writes its events into before they are
    /// logged; kept between calls, empty, so that neither allocates a list.
    scratch_events: Vec<EventKind>,
    /// A frame's events, actor after actor, logged once every actor has run; kept between
    /// frames, empty. (With a list per actor with events, allocated and freed in every frame,
    /// the crowd at 10 000 actors ran ~1.5 ns per character-frame slower with 64-byte events
    /// than with 120-byte ones, and padding the events back undid it: the allocator's
    /// handling of the smaller lists, as far as we can tell.)
    frame_events: Vec<(ActorId, EventKind)>,
}

impl Default for Session {
    fn default() -> Self {
        Session::new(Snapshot::default())
    }
}

impl Session {
    pub fn new(snapshot: Snapshot) -> Self {
        Session {
            params: ParamTable::new(snapshot.parameters.len()),
            snapshot,
            generation: 0,
            clock: Clock::default(),
            actors: Vec::new(),
            rows: Rows::default(),
            actor_ids: Default::default(),
            schedule: Vec::new(),
            log: EventLog::default(),
            trace_ticks: false,
            scratch_events: Vec::new(),
            frame_events: Vec::new(),
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
    /// Actor `id`'s graph with its latest numbers: a copy while they are newer in its row
    /// than in the graph, unless [`Session::refresh_graph`] brought them over since the last
    /// frame.
    pub fn graph(&self, id: ActorId) -> Cow<'_, Graph> {
        self.rows.graph(id, &self.actors[id].graph, &self.snapshot)
    }
    /// Brings actor `id`'s numbers from its row into its graph (nothing for an actor that
    /// runs its own graph): [`Session::graph`] then lends the graph without copying it, until
    /// the next frame. For readers that can take the session mutably, before reading.
    pub fn refresh_graph(&mut self, id: ActorId) {
        self.rows.refresh(id, &mut self.actors[id].graph, &self.snapshot);
    }
    /// Takes actor `id`'s numbers out of its row into its graph, before the graph changes.
    fn detach(&mut self, id: ActorId) {
        self.rows.detach(id, &mut self.actors[id].graph, &self.snapshot);
    }
    /// Actor `id`'s parameter states, by parameter id.
    pub fn params(&self, id: ActorId) -> &[ParamState] {
        self.params.of(id)
    }
    pub fn events(&self) -> &EventLog {
        &self.log
    }
    /// How many library builds were applied.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    pub fn find_actor(&self, name: &str) -> Result<ActorId, SessionError> {
        self.actor_ids.get(name).copied().ok_or_else(|| SessionError::UnknownActor {
            name: name.into(),
            hint: suggestion(name, self.actors.iter().map(|a| a.name())),
        })
    }

    fn log(&mut self, actor: Option<ActorId>, kind: EventKind) {
        self.log.push(Event::new(self.clock.frame(), self.clock.time(), actor, kind));
    }

    /// Logs `events` for actor `id`, in order.
    /// Tick events are kept only while tick tracing is on.
    fn log_actor(&mut self, id: ActorId, events: impl IntoIterator<Item = EventKind>) {
        let (frame, time) = (self.clock.frame(), self.clock.time());
        let traced = |kind: &EventKind| self.trace_ticks || !matches!(kind, EventKind::ClipTick { .. });
        let events = events.into_iter().filter(traced);
        self.log.extend(events.map(|kind| Event::new(frame, time, Some(id), kind)));
    }

    /// Whether `clip_tick` events are recorded (off by default: they are many).
    pub fn set_trace_ticks(&mut self, on: bool) {
        self.trace_ticks = on;
    }

    /// Whether `clip_tick` events are recorded now.
    pub fn traces_ticks(&self) -> bool {
        self.trace_ticks
    }

    /// Logs `events` for actor `id`, then hands the commands among them to its entity
    /// (REFERENCE §7), logging what that causes.
    fn log_and_route(&mut self, id: ActorId, events: &mut Vec<EventKind>) {
        let commands: Vec<EventKind> = events.iter().filter(|e| matches!(e, EventKind::Command(_))).cloned().collect();
        self.log_actor(id, events.drain(..));
        self.route(id, commands);
    }

    /// Step (4) of a frame: each command reaches its entity in submission order.
    fn route(&mut self, id: ActorId, commands: Vec<EventKind>) {
        if commands.is_empty() {
            return;
        }
        let frame = self.clock.frame();
        self.actors[id].about.last_commands.retain(|c| c.frame == frame);
        for command in commands {
            let EventKind::Command(command) = command else { continue };
            let Command { kind, source, args } = *command;
            let arg = |key: &str| args.iter().find(|(k, _)| k == key).map(|(_, v)| v);
            let (event, result) = match kind.as_str() {
                "AcquireMovementLock" => {
                    let a = self.actors[id].about.entity.acquire(&source);
                    (a.event, a.result)
                }
                "ReleaseMovementLock" => {
                    let a = self.actors[id].about.entity.release(&source);
                    (a.event, a.result)
                }
                "PlayAnimation" => {
                    let animation = match arg("animation") {
                        Some(FieldValue::Text(animation)) => animation.clone(),
                        _ => String::new(),
                    };
                    let fade = match arg("fade") {
                        Some(FieldValue::Given(fade)) => *fade,
                        _ => 0.0,
                    };
                    match self.actors[id].graph.first_transition_layer() {
                        Some(layer) => {
                            let layer = self.actors[id].graph.layers()[layer].name().to_string();
                            match self.transition(id, &layer, &animation, fade) {
                                Ok(token) => (None, format!("transition gen {} on layer {layer}", token.generation)),
                                Err(e) => (None, format!("refused: {e}")),
                            }
                        }
                        None => {
                            let message =
                                format!("{kind} from {source}: actor has no transition layer to play `{animation}` on");
                            (Some(EventKind::Warning { message }), "no transition layer".to_string())
                        }
                    }
                }
                _ => (None, "delivered".to_string()),
            };
            self.actors[id].about.last_commands.push(RoutedCommand { frame, kind, source, result });
            if let Some(event) = event {
                self.log_actor(id, vec![event]);
            }
        }
    }

    /// Starts a transition on `layer` of `actor` to state `target` (a clip or blend tree)
    /// over `duration` seconds (REFERENCE §5); logs `transition_begin`.
    pub fn transition(
        &mut self,
        actor: ActorId,
        layer: &str,
        target: &str,
        duration: f64,
    ) -> Result<Token, SessionError> {
        let index = self.transition_layer_index(actor, layer)?;
        if !matches!(self.snapshot.assets.get(target), Some(Asset::Clip(_) | Asset::BlendTree(_))) {
            return Err(SessionError::UnknownAsset {
                kind: "transition state (clip or blend tree)",
                name: target.into(),
                hint: suggestion(target, self.snapshot.names_of(|a| matches!(a, Asset::Clip(_) | Asset::BlendTree(_)))),
            });
        }
        let length = match Ticks::from_secs(duration) {
            Ok(length) if length >= Ticks::ZERO => length,
            _ => return Err(SessionError::BadDuration(duration)),
        };
        let now = self.clock.now();
        self.detach(actor);
        let a = &mut self.actors[actor];
        let token = a
            .graph
            .begin_transition(&self.snapshot, index, target, (length, now))
            .ok_or_else(|| SessionError::NotATransitionLayer { actor: a.name().into(), layer: layer.into() })?;
        let mut events = Vec::new();
        a.graph.update(&self.snapshot, self.params.of(actor), 0.0, now, &mut events);
        let mut change = transition_change(layer, &token);
        change.duration = Some(duration);
        events.push(EventKind::TransitionBegin(change));
        self.log_actor(actor, events);
        Ok(token)
    }

    /// Delivers a completion for `token` on `layer` by hand: it commits only if it is the
    /// pending token; otherwise it is rejected and counted.
    pub fn complete(&mut self, actor: ActorId, layer: &str, token: &Token) -> Result<Completion, SessionError> {
        let index = self.transition_layer_index(actor, layer)?;
        self.detach(actor);
        let a = &mut self.actors[actor];
        let set = a.graph.transition_set_mut(index).ok_or_else(|| SessionError::NotATransitionLayer {
            actor: a.about.name.to_string(),
            layer: layer.into(),
        })?;
        let outcome = set.complete(token);
        let event = completion_event(layer, token, outcome, set.arbiter.rejected());
        self.log_actor(actor, vec![event]);
        Ok(outcome)
    }

    /// The transition layer named `layer` of `actor`.
    pub fn transition_set(&self, actor: ActorId, layer: &str) -> Result<&TransitionSet, SessionError> {
        let index = self.transition_layer_index(actor, layer)?;
        match &self.actors[actor].graph.layers()[index].source {
            Source::Transitions(set) => Ok(set),
            _ => {
                Err(SessionError::NotATransitionLayer { actor: self.actors[actor].name().into(), layer: layer.into() })
            }
        }
    }

    /// The index of layer `name` of `actor`, or the error naming the layers it has.
    fn layer_index(&self, actor: ActorId, name: &str) -> Result<usize, SessionError> {
        let a = &self.actors[actor];
        a.graph.layer_index(name).ok_or_else(|| SessionError::UnknownLayer {
            actor: a.name().into(),
            name: name.into(),
            hint: suggestion(name, a.graph.layers().iter().map(|l| l.name())),
        })
    }

    fn transition_layer_index(&self, actor: ActorId, layer: &str) -> Result<usize, SessionError> {
        let a = &self.actors[actor];
        let index = self.layer_index(actor, layer)?;
        match a.graph.layers()[index].source {
            Source::Transitions(_) => Ok(index),
            _ => Err(SessionError::NotATransitionLayer { actor: a.name().into(), layer: layer.into() }),
        }
    }

    /// Appends a `warning` event.
    pub fn warn(&mut self, message: impl Into<String>) {
        self.log(None, EventKind::Warning { message: message.into() });
    }

    /// Makes `snapshot` live (a successful reload) and moves every actor onto it by stable
    /// names: parameter values and smoothing state carry over by parameter name, local times
    /// by leaf name. An actor whose asset is gone rests on an empty graph (the default pose),
    /// with a warning, and is rebuilt when a later snapshot has the asset again.
    pub fn apply_snapshot(&mut self, snapshot: Snapshot) {
        self.generation += 1;
        let old = std::mem::replace(&mut self.snapshot, snapshot);
        let files = self.snapshot.files.iter().map(|(path, _)| path.clone()).collect();
        self.log(None, EventKind::ReloadApplied { generation: self.generation, files });
        // Every graph is rebuilt, from graphs holding their numbers.
        self.rows.release_all(&mut self.actors[..], &old);
        let old_params = std::mem::replace(&mut self.params, ParamTable::new(self.snapshot.parameters.len()));
        for id in 0..self.actors.len() {
            let actor = &self.actors[id];
            let kept = actor.about.resting.as_ref().map_or(&[][..], |resting| &resting.kept[..]);
            let (params, kept) = carry_params(&self.snapshot, &old, old_params.of(id), kept);
            self.params.push(params);
            let now = self.clock.now();
            // Parameters always move onto the new snapshot's ids, so they stay in step with it.
            let mut serial = actor.about.serial;
            let rebuilt = build_graph(&self.snapshot, actor.spec(), now, &mut serial);
            self.actors[id].about.serial = serial;
            match rebuilt {
                Ok(mut graph) => {
                    let actor = &mut self.actors[id];
                    let mut events = Vec::new();
                    graph.carry_state_from(&self.snapshot, &old, &actor.graph, &mut events);
                    let mut previous = std::mem::replace(&mut actor.graph, graph);
                    let ended = previous.interrupt_playbacks_left_behind(&actor.graph, &old, &mut events);
                    actor.about.resting = None;
                    actor.graph.update(&self.snapshot, self.params.of(id), 0.0, now, &mut events);
                    for (serial, state) in ended {
                        actor.about.ended.record(serial, state);
                    }
                    // Tasks the reload interrupted release what they held (REFERENCE §7).
                    self.log_and_route(id, &mut events);
                }
                Err(error) => {
                    // The old graph names assets by ids of the old snapshot; evaluated or carried
                    // over against the new one it would read the wrong assets (or past the end).
                    // The actor rests in the default pose until its asset is back.
                    let actor = &mut self.actors[id];
                    // Resting already, it keeps the reload it rests since and what it read.
                    let (since_generation, parameters) = match actor.about.resting.take() {
                        Some(resting) => (resting.since_generation, resting.parameters),
                        None => (
                            self.generation,
                            actor.graph.parameters().iter().map(|&p| old.parameters[p].name.clone()).collect(),
                        ),
                    };
                    let missing = error.to_string();
                    actor.about.resting = Some(Resting { since_generation, missing, parameters, kept });
                    let resting = Graph::new(actor.graph.channels().to_vec(), Vec::new());
                    let mut previous = std::mem::replace(&mut actor.graph, resting);
                    let mut events = Vec::new();
                    for (serial, state) in previous.interrupt_playbacks_left_behind(&actor.graph, &old, &mut events) {
                        actor.about.ended.record(serial, state);
                    }
                    let message = format!("{error}; the actor rests in the default pose until it is back");
                    events.push(EventKind::Warning { message });
                    self.log_and_route(id, &mut events);
                }
            }
        }
        for (id, actor) in self.actors.iter().enumerate() {
            self.rows.place(id, &actor.graph);
        }
    }

    /// Records a failed reload with the generation that stays live: the live snapshot does
    /// not change, and the next good reload is the next generation.
    pub fn reload_failed(&mut self, errors: usize) {
        self.log(None, EventKind::ReloadFailed { generation: self.generation, errors });
    }

    /// Creates an actor driven by `spec`, evaluated at once at the current time. Its name
    /// heads its event lines and table titles, so it must print on one line.
    pub fn spawn(&mut self, name: &str, spec: ActorSpec) -> Result<ActorId, SessionError> {
        if name.is_empty() || name.chars().any(crate::config::is_hidden_character) {
            return Err(SessionError::BadActorName(name.into()));
        }
        if self.actor_ids.contains_key(name) {
            return Err(SessionError::DuplicateActor(name.into()));
        }
        let now = self.clock.now();
        let mut serial = 0;
        let graph = build_graph(&self.snapshot, &spec, now, &mut serial)?;
        let name: crate::event::Name = name.into();
        let logged_as = self.log.add_actor(name.clone());
        debug_assert_eq!(logged_as, self.actors.len(), "the log names actors by their ids");
        let about = ActorAbout {
            name,
            spec,
            entity: Entity::default(),
            last_commands: Vec::new(),
            resting: None,
            serial,
            ended: EndedPlaybacks::default(),
        };
        let mut actor = Actor { graph, about: Box::new(about) };
        let id = self.actors.len();
        self.params.push(self.snapshot.parameters.iter().map(ParamState::at_default));
        let mut events = Vec::new();
        actor.graph.update(&self.snapshot, self.params.of(id), 0.0, now, &mut events);
        self.rows.place(id, &actor.graph);
        self.actors.push(actor);
        self.actor_ids.insert(self.actors[id].name().into(), id);
        self.log_actor(id, events);
        Ok(id)
    }

    /// Starts `timeline` on `actor` at timeline time `start` (≥ 0), on layer `layer` (default:
    /// the top-most timeline layer, or a new layer named after the timeline on top). A missing
    /// timeline logs `timeline_missing` and is an error — never an empty success.
    pub fn play(
        &mut self,
        actor: ActorId,
        timeline: &str,
        layer: Option<&str>,
        start: Ticks,
    ) -> Result<PlaybackHandle, SessionError> {
        let Some(id) = self.snapshot.timeline_id(timeline) else {
            self.log(Some(actor), EventKind::TimelineMissing { timeline: timeline.into() });
            return Err(SessionError::UnknownAsset {
                kind: "timeline",
                name: timeline.into(),
                hint: suggestion(timeline, self.snapshot.names_of(|a| matches!(a, Asset::Timeline(_)))),
            });
        };
        if start < Ticks::ZERO {
            return Err(SessionError::NegativeTimelineTime(start.secs()));
        }
        let a = &self.actors[actor];
        let index = match layer {
            Some(name) => self.layer_index(actor, name)?,
            None => match a.graph.default_timeline_layer() {
                Some(index) => index,
                None => {
                    self.check_masks(actor, id)?;
                    self.detach(actor);
                    self.actors[actor].graph.push_timeline_layer(timeline, id)
                }
            },
        };
        self.play_by_id(actor, id, index, start)
    }

    /// Whether `action` (an `[inputs]` trigger) can run on `actor` as its graph stands: the
    /// layer it names exists and is of the right kind (a timeline layer to play on, a
    /// transition layer to transition on), and a timeline played on a new layer masks only
    /// channels the actor has. The error is the one the trigger would meet when it fires.
    pub fn check_trigger(&self, actor: ActorId, action: &TriggerAction) -> Result<(), SessionError> {
        match action {
            TriggerAction::Play { timeline, layer } => {
                let a = &self.actors[actor];
                let Some(id) = self.snapshot.timeline_id(timeline) else {
                    return Err(SessionError::UnknownAsset {
                        kind: "timeline",
                        name: timeline.clone(),
                        hint: suggestion(timeline, self.snapshot.names_of(|a| matches!(a, Asset::Timeline(_)))),
                    });
                };
                match layer {
                    Some(name) => {
                        let index = self.layer_index(actor, name)?;
                        match a.graph.layers()[index].source {
                            Source::Timeline(_) => self.check_masks(actor, id),
                            _ => Err(SessionError::NotATimelineLayer { actor: a.name().into(), layer: name.clone() }),
                        }
                    }
                    None => self.check_masks(actor, id),
                }
            }
            TriggerAction::Transition { layer, .. } => self.transition_layer_index(actor, layer).map(|_| ()),
        }
    }

    /// Whether every channel the masks of `timeline` name is one of the actor's channels, as
    /// compile checks for the timelines a graph's layers name: a mask on a channel the actor
    /// does not have would make its clips weigh 0 everywhere, without a word.
    fn check_masks(&self, actor: ActorId, timeline: TimelineId) -> Result<(), SessionError> {
        let a = &self.actors[actor];
        let def = &self.snapshot.timelines[timeline];
        let masked = def.mask_channels();
        if masked.is_empty() {
            // Nothing to look up: the actor's channels sit in a block no frame reads, out of
            // cache in a crowd (measured: 1% of the crowd's time at 10 000 actors).
            return Ok(());
        }
        let channels = a.graph.channels();
        let missing: Vec<String> = masked.into_iter().filter(|c| !channels.contains(c)).collect();
        if missing.is_empty() {
            return Ok(());
        }
        Err(SessionError::MaskedChannelsMissing {
            timeline: def.name.to_string(),
            actor: a.name().into(),
            hint: crate::compile::mask_hint(&missing, channels),
            missing,
            channels: channels.to_vec(),
        })
    }

    /// [`Session::play`] by timeline id ([`Snapshot::timeline_id`], valid until the next
    /// reload) on layer `layer` (an index of the actor's [`Graph::layers`]), as Unity's
    /// `Animator.Play(int stateNameHash, int layer)` skips the name lookups (on the crowd,
    /// finding the two names cost ~210 of a `play`'s ~2 760 instructions).
    pub fn play_by_id(
        &mut self,
        actor: ActorId,
        timeline: TimelineId,
        layer: usize,
        start: Ticks,
    ) -> Result<PlaybackHandle, SessionError> {
        if start < Ticks::ZERO {
            return Err(SessionError::NegativeTimelineTime(start.secs()));
        }
        self.check_masks(actor, timeline)?;
        self.actors[actor].graph.prefetch_for_play();
        let now = self.clock.now();
        self.actors[actor].about.serial += 1;
        let serial = self.actors[actor].about.serial;
        let mut events = std::mem::take(&mut self.scratch_events);
        let mut logged = std::mem::take(&mut self.frame_events);
        let snapshot = &self.snapshot;
        let play = |graph: &mut Graph, events: &mut Vec<EventKind>| {
            graph.play(snapshot, layer, timeline, now, start, serial, events)
        };
        // In a row, the row evaluates it; otherwise its graph does, out of its row.
        let step = FrameStep { snapshot, dt: 0.0, now };
        let frame = Frame {
            step: &step,
            params: &self.params,
            graphs: &mut self.actors[..],
            events: &mut events,
            logged: &mut logged,
        };
        let played = self.rows.restart_in_row(actor, (layer, timeline), frame, play);
        let replaced = match played {
            Some(replaced) => {
                events.extend(logged.drain(..).map(|(_, kind)| kind));
                replaced
            }
            None => {
                self.rows.detach(actor, &mut self.actors[actor].graph, snapshot);
                let a = &mut self.actors[actor];
                let replaced = play(&mut a.graph, &mut events);
                if replaced.is_some() {
                    a.graph.update(snapshot, self.params.of(actor), 0.0, now, &mut events);
                }
                replaced
            }
        };
        self.frame_events = logged;
        let a = &mut self.actors[actor];
        let Some(replaced) = replaced else {
            self.scratch_events = events;
            let layer = a.graph.layers()[layer].name().into();
            return Err(SessionError::NotATimelineLayer { actor: a.name().into(), layer });
        };
        if let Some((old, state)) = replaced {
            a.about.ended.record(old, state);
        }
        self.log_and_route(actor, &mut events);
        self.scratch_events = events;
        Ok(PlaybackHandle { actor, serial })
    }

    /// The timeline time where local frame `frame` of `timeline` starts, for
    /// `play(…, { from_frame })`: the timeline needs a frame rate, and the frame may not be
    /// negative or beyond the times blendlab accepts. A frame past the end is a start past the
    /// end, as `from` in seconds would give (the playback completes, or holds its end, at
    /// once).
    pub fn start_of_frame(&self, timeline: &str, frame: i64) -> Result<Ticks, SessionError> {
        let Some(id) = self.snapshot.timeline_id(timeline) else { return Ok(Ticks::ZERO) };
        let rate = self.snapshot.timelines[id].frame_rate.ok_or(SessionError::FromFrameWithoutRate)?;
        if frame < 0 {
            return Err(SessionError::NegativeFromFrame(frame));
        }
        let start = Ticks::of_frame(frame, rate);
        if start > Ticks::MAX {
            return Err(SessionError::FromFrameBeyond { frame, seconds: frame as f64 / f64::from(rate) });
        }
        Ok(start)
    }

    /// The playback now on `layer` (default: the top-most timeline layer), if any.
    pub fn current_playback(
        &self,
        actor: ActorId,
        layer: Option<&str>,
    ) -> Result<Option<PlaybackHandle>, SessionError> {
        let graph = &self.actors[actor].graph;
        let index = match layer {
            Some(name) => Some(self.layer_index(actor, name)?),
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
            None => self.actors[handle.actor].about.ended.state(handle.serial).ok_or(SessionError::PlaybackGone),
        }
    }

    /// The names of a playback's timeline and of its layer, while it is on that layer (a
    /// replaced one has left it).
    pub fn playback_place(&self, handle: PlaybackHandle) -> Result<(&str, &str), SessionError> {
        let on_layer = self.actors[handle.actor].graph.playback_on_layer(handle.serial);
        let (layer, playback) = on_layer.ok_or(SessionError::PlaybackGone)?;
        Ok((&self.snapshot.timelines[playback.timeline].name, layer.name()))
    }

    /// A playback's current timeline time (its graph brought up to date first: a row may have
    /// skipped its quiet frames, [`Session::refresh_graph`]). Its state needs no such care: a
    /// playback's quiet frames end before anything but its time would change.
    pub fn playback_time(&mut self, handle: PlaybackHandle) -> Result<Ticks, SessionError> {
        self.refresh_graph(handle.actor);
        self.actors[handle.actor].graph.playback(handle.serial).map(Playback::time).ok_or(SessionError::PlaybackGone)
    }

    /// Interrupts a playing playback. Interrupting one that already ended (completed or
    /// interrupted, on its layer or replaced) does nothing (REFERENCE §4: interrupting twice
    /// does nothing the second time): it is stopped already, as Unity's `Stop` on a stopped
    /// director.
    pub fn interrupt(&mut self, handle: PlaybackHandle) -> Result<(), SessionError> {
        let mut events = Vec::new();
        self.detach(handle.actor);
        let a = &mut self.actors[handle.actor];
        match a.graph.playback_mut(handle.serial) {
            Some(playback) => playback.stop(&self.snapshot, PlaybackState::Interrupted, &mut events),
            None if a.about.ended.state(handle.serial).is_some() => return Ok(()),
            None => return Err(SessionError::PlaybackGone),
        }
        let now = self.clock.now();
        a.graph.update(&self.snapshot, self.params.of(handle.actor), 0.0, now, &mut events);
        self.log_and_route(handle.actor, &mut events);
        Ok(())
    }

    /// Moves a playing playback to timeline time `to` (≥ 0; REFERENCE §3.7), recorded as a
    /// `seek` event. A playback that has completed or was interrupted is refused, and nothing
    /// is logged: it no longer runs, and a seek does not start it again (as setting the time
    /// of a stopped `PlayableDirector` does not play it) — playing its timeline again does.
    pub fn seek(&mut self, handle: PlaybackHandle, to: f64, policy: SeekPolicy) -> Result<(), SessionError> {
        let to = Ticks::from_secs(to)?;
        if to < Ticks::ZERO {
            return Err(SessionError::NegativeTimelineTime(to.secs()));
        }
        let now = self.clock.now();
        let mut events = Vec::new();
        let a = &self.actors[handle.actor];
        // Read first: handing a playback out for changes wakes its slot, and a refused seek
        // changes nothing.
        let playback = a.graph.playback(handle.serial).ok_or(SessionError::PlaybackGone)?;
        if playback.state() != PlaybackState::Playing {
            let (timeline, state) = (playback.timeline, playback.state());
            return Err(SessionError::PlaybackEnded {
                serial: handle.serial,
                timeline: self.snapshot.timelines[timeline].name.to_string(),
                actor: a.name().into(),
                state,
            });
        }
        let def = &self.snapshot.timelines[playback.timeline];
        let pass = playback.pass(def, now);
        if to < def.pass_start(pass) {
            let (timeline, loop_start) = (def.name.to_string(), def.loop_start.secs());
            return Err(SessionError::SeekBeforeLoopStart { timeline, pass, loop_start, to: to.secs() });
        }
        self.detach(handle.actor);
        let a = &mut self.actors[handle.actor];
        let params = self.params.of(handle.actor);
        let playback = a.graph.playback_mut(handle.serial).ok_or(SessionError::PlaybackGone)?;
        playback.seek(&self.snapshot, params, now, to, policy, &mut events);
        a.graph.update(&self.snapshot, params, 0.0, now, &mut events);
        self.log_and_route(handle.actor, &mut events);
        Ok(())
    }

    fn parameter_of(&self, actor: ActorId, name: &str) -> Result<usize, SessionError> {
        self.snapshot.parameter_id(name).ok_or_else(|| SessionError::UnknownParameter {
            actor: self.actors[actor].name().into(),
            name: name.into(),
            hint: suggestion(name, self.snapshot.parameters.iter().map(|p| p.name.as_str())),
        })
    }

    /// Sets a parameter's raw value; smoothing moves toward it from the next logic frame.
    pub fn set_param(&mut self, actor: ActorId, name: &str, value: f64) -> Result<(), SessionError> {
        let id = self.parameter_of(actor, name)?;
        self.set_param_by_id(actor, id, value)
    }

    /// [`Session::set_param`] by parameter id ([`Snapshot::parameter_id`], valid until the
    /// next reload), as Unity's `Animator.SetFloat(int id, …)` skips the name lookup. Inlined
    /// where it is called, its error built out of line: a crowd sets a parameter per actor and
    /// frame, and the call with the error's registers saved cost 48 instructions of the
    /// crowd's ~600 per character-frame.
    #[inline]
    pub fn set_param_by_id(&mut self, actor: ActorId, param: ParamId, value: f64) -> Result<(), SessionError> {
        let parameter = &self.snapshot.parameters[param];
        // Within ±MAX_NUMBER, as a config's values (false for NaN).
        if value.abs() <= crate::config::MAX_NUMBER {
            set_raw(&mut self.params.of_mut(actor)[param], parameter, value);
            return Ok(());
        }
        Err(bad_value(parameter, value))
    }

    /// Sets the local time of leaf `leaf` (a blend-tree or clip leaf) to `seconds`, as
    /// Unity's `Animator.Play(state, layer, normalizedTime)` places a state: looping clips
    /// wrap into `[0, D)`, one-shots clamp to `[0, D]`; in a `sync = "normalized"` tree the
    /// shared phase moves and every leaf follows. Weights are unchanged until the next frame.
    pub fn set_local_time(&mut self, actor: ActorId, leaf: &str, seconds: f64) -> Result<(), SessionError> {
        Ticks::from_secs(seconds)?;
        let index = self.leaf_index(actor, leaf)?;
        self.detach(actor);
        let a = &mut self.actors[actor];
        if !a.graph.set_local_time(&self.snapshot, index, seconds) {
            return Err(SessionError::PlaybackLeafTime { actor: a.name().into(), leaf: leaf.into() });
        }
        Ok(())
    }

    /// The index of leaf `leaf` in the graph of `actor`.
    pub fn leaf_index(&self, actor: ActorId, leaf: &str) -> Result<usize, SessionError> {
        let a = &self.actors[actor];
        a.graph.leaf_index(leaf).ok_or_else(|| SessionError::UnknownLeaf {
            actor: a.name().into(),
            name: leaf.into(),
            hint: suggestion(leaf, a.graph.leaves().iter().map(|l| l.name.as_str())),
        })
    }

    /// A parameter's state (raw and smoothed).
    pub fn param(&self, actor: ActorId, name: &str) -> Result<ParamState, SessionError> {
        Ok(self.params.of(actor)[self.parameter_of(actor, name)?])
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
        let due_time = self.clock.time();
        let (due, later): (Vec<Scheduled>, Vec<Scheduled>) =
            std::mem::take(&mut self.schedule).into_iter().partition(|s| s.due <= due_time);
        self.schedule = later;
        due.into_iter().map(|s| s.callback).collect()
    }

    /// Steps (2)–(4) of the current frame: smoothing (of the parameters with a `smooth_time`;
    /// the others are at their raw value since it was set), then every actor: those in rows
    /// stage by stage ([`Rows::run_frame`], after the rows detached since the last frame take
    /// their numbers back), the others each through its graph. An actor's frame reads only its
    /// own parameters and graph, so the order they run in changes no number; their events are
    /// logged in spawn order once every actor has run, and their commands routed after that.
    pub fn finish_frame(&mut self) {
        let step = FrameStep { snapshot: &self.snapshot, dt: self.clock.frame_seconds(), now: self.clock.now() };
        if !step.snapshot.smoothed_parameters.is_empty() {
            for states in self.params.all_mut() {
                for &p in &step.snapshot.smoothed_parameters {
                    states[p].smooth(&step.snapshot.parameters[p], step.dt);
                }
            }
        }
        let mut events = std::mem::take(&mut self.scratch_events);
        let mut logged = std::mem::take(&mut self.frame_events);
        self.rows.rejoin(&mut self.actors[..]);
        let graphs = &mut self.actors[..];
        let frame = Frame { step: &step, params: &self.params, graphs, events: &mut events, logged: &mut logged };
        self.rows.run_frame(frame);
        for &id in self.rows.own() {
            self.actors[id].graph.step(&step, self.params.of(id), &mut events);
            logged.extend(events.drain(..).map(|kind| (id, kind)));
        }
        // Stable: each actor's events keep their order. Rows run in spawn order, mostly.
        if !logged.is_sorted_by_key(|&(id, _)| id) {
            logged.sort_by_key(|&(id, _)| id);
        }
        let commands: Vec<(ActorId, EventKind)> =
            logged.iter().filter(|(_, e)| matches!(e, EventKind::Command(_))).cloned().collect();
        for (id, kind) in logged.drain(..) {
            self.log_actor(id, [kind]);
        }
        (self.scratch_events, self.frame_events) = (events, logged);
        for (id, command) in commands {
            self.route(id, vec![command]);
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

impl Graphs for [Actor] {
    fn graph(&self, actor: ActorId) -> &Graph {
        &self[actor].graph
    }
    fn graph_mut(&mut self, actor: ActorId) -> &mut Graph {
        &mut self[actor].graph
    }
}

/// How each playback of an actor that left its layer ended, by serial. An actor's serials are
/// handed out 1, 2, 3…, so one byte per serial, found by indexing (a `BTreeMap` spent ~120 instructions of each
/// `play` on the crowd finding where to insert, more as it grew).
#[derive(Clone, Debug, Default)]
struct EndedPlaybacks(Vec<Option<PlaybackState>>);

impl EndedPlaybacks {
    fn record(&mut self, serial: u64, state: PlaybackState) {
        let index = serial as usize;
        if self.0.len() <= index {
            self.0.resize(index + 1, None);
        }
        self.0[index] = Some(state);
    }

    fn state(&self, serial: u64) -> Option<PlaybackState> {
        self.0.get(serial as usize).copied().flatten()
    }
}

/// The error of a value that is not a finite number given to `parameter`.
#[cold]
#[inline(never)]
fn bad_value(parameter: &Parameter, value: f64) -> SessionError {
    SessionError::BadValue { name: parameter.name.clone(), value }
}

/// An actor's parameters on snapshot `new`, by name: from its states on `old` (`states`), else
/// from the values it kept while resting (`kept`), else the default; a parameter whose
/// smoothing the reload took away is at its raw value. Also the values of the parameters `new`
/// no longer declares, for an actor that rests after the reload (README: a resting actor's
/// parameters keep their values).
fn carry_params(
    new: &Snapshot,
    old: &Snapshot,
    states: &[ParamState],
    kept: &[(String, ParamState)],
) -> (Vec<ParamState>, Vec<(String, ParamState)>) {
    let previous = |name: &str| {
        let declared = old.parameter_id(name).map(|o| states[o]);
        declared.or_else(|| kept.iter().find(|(n, _)| n == name).map(|&(_, state)| state))
    };
    let carried = new
        .parameters
        .iter()
        .map(|p| {
            let mut state = previous(&p.name).unwrap_or_else(|| ParamState::at_default(p));
            let raw = state.raw;
            set_raw(&mut state, p, raw);
            state
        })
        .collect();
    let before = old.parameters.iter().zip(states).map(|(p, &state)| (p.name.to_string(), state));
    let gone = before.chain(kept.iter().cloned()).filter(|(name, _)| new.parameter_id(name).is_none()).collect();
    (carried, gone)
}

/// Sets a parameter's raw value; a parameter without smoothing is at it at once (its smoothed
/// value is the raw one, at rest), one with smoothing moves toward it frame by frame.
fn set_raw(state: &mut ParamState, param: &Parameter, value: f64) {
    state.raw = value;
    if param.smooth_time.is_none() {
        (state.smoothed, state.velocity) = (value, 0.0);
    }
}

/// The graph an actor spec asks for, from `snapshot`, starting timelines at `now`.
fn build_graph(snapshot: &Snapshot, spec: &ActorSpec, now: FrameTime, serial: &mut u64) -> Result<Graph, SessionError> {
    // The hint: nothing loaded yet, the name of an asset of another kind (the spec's key is
    // wrong), or a near spelling among the assets of the kind asked for.
    let unknown = |kind: &'static str, name: &str, of: fn(&Asset) -> bool| {
        let hint = if snapshot.assets.is_empty() {
            Some("nothing is loaded yet: bl.load a config before spawning".to_string())
        } else {
            match snapshot.assets.get(name) {
                Some(Asset::Graph(_)) => Some(format!("`{name}` is a graph: spawn it with {{ graph = \"{name}\" }}")),
                Some(Asset::BlendTree(_)) => {
                    Some(format!("`{name}` is a blend tree: spawn it with {{ blend_tree = \"{name}\" }}"))
                }
                Some(Asset::Timeline(_)) => {
                    Some(format!("`{name}` is a timeline: spawn it with {{ timeline = \"{name}\" }}"))
                }
                Some(Asset::Clip(_)) => Some(format!(
                    "`{name}` is a clip: an actor plays it through a blend tree, a timeline or a graph's clip layer"
                )),
                None => suggestion(name, snapshot.names_of(of)),
            }
        };
        SessionError::UnknownAsset { kind, name: name.into(), hint }
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
