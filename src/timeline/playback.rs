//! One playback of a timeline (REFERENCE §3.5–3.8): its own time, active clips, weights,
//! markers and wrap state. The compiled [`Timeline`] is shared and read-only; everything that
//! changes lives here, so two actors playing one timeline share nothing mutable.
//!
//! Each logic frame: the playback's raw time is `clock − anchor + anchor_time`; markers in the
//! window since the last frame fire (first window `[start, t]`, later `(prev, t]`, loops
//! unrolled); the interval tree gives the active clips at the wrapped time; clips that left
//! are disabled (weight 0, time frozen at `local(min(t, ext_end))`); active clips get their
//! weight (§3.3) and local time (§3.4); then NormalizeMixer runs children first (§3.6) and the
//! per-channel shares of §6 are written.

use std::collections::BTreeMap;

use crate::blend::TreeRuntime;
use crate::blend::params::ParamState;
use crate::compile::Snapshot;
use crate::config::timeline::WrapMode;
use crate::event::{EventKind, SeekPolicy};
use crate::time::{FrameTime, Ticks};

use smallvec::{SmallVec, smallvec};

use super::lifecycle::{Advanced, Disposal, Lifecycle};
use super::{ClipMotion, Timeline, TimelineId};

/// Clip or leaf indices, and flags by clip or leaf: a playback of a few clips keeps them
/// inside itself, next to the numbers a frame reads with them.
type Indices = SmallVec<[u32; 4]>;
type Flags = SmallVec<[bool; 8]>;

/// An empty span: the next evaluation asks the interval tree.
const NOT_STEADY: std::ops::Range<Ticks> = Ticks::ZERO..Ticks::ZERO;

/// Where a playback is in its life.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PlaybackState {
    Playing,
    Complete,
    Interrupted,
}

impl PlaybackState {
    pub fn name(self) -> &'static str {
        match self {
            PlaybackState::Playing => "playing",
            PlaybackState::Complete => "complete",
            PlaybackState::Interrupted => "interrupted",
        }
    }
}

/// What a leaf of a playback is.
#[derive(Clone, Debug)]
enum LeafKind {
    /// An animation clip's motion clip.
    Clip { clip: usize },
    /// Leaf `index` of the blend tree a clip plays.
    Tree { clip: usize, index: usize },
    /// Leaf `index` of the nested timeline a clip plays.
    Nested { clip: usize, index: usize },
}

/// A leaf of the playback: what the graph shows as a row.
#[derive(Clone, Debug)]
pub struct PlaybackLeaf {
    pub name: String,
    kind: LeafKind,
}

/// What an evaluation does with the timelines its clips play nested. A nested timeline's
/// raw time is its clip's local time; like a sub-timeline under Unity's control track, it
/// plays while its clip is active: its markers fire as that time passes them and its task
/// clips run their lifecycles (REFERENCE §4) on its own frames, with source ids
/// `PARENT#SERIAL/CLIP/NESTED/TASK_CLIP`. Each time its clip becomes active it starts over
/// there (first marker window `[local, local]`, tasks from the frame containing `local`);
/// when its clip stops being active (or the parent stops) its running tasks are
/// interrupted and its flow-scoped tasks disposed — with the parent's, when the parent stops
/// ([`Playback::end_tasks`]). Where the local time jumps back during play (an extrapolation that loops or
/// ping-pongs) it starts a new pass: running tasks are interrupted, the lifecycle starts
/// over at the new time, and markers re-sync without firing for the jump. A seek moves it as
/// it moves the parent ([`Playback::fire_window`]): markers as its policy says, the tasks of
/// passes it leaves behind at once, the others at the next frame.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum NestedFollow {
    /// Logic frame `clock_frame`: markers fire, tasks run.
    Play { clock_frame: i64 },
    /// An evaluation between frames (play, reload): nothing fires and nothing runs.
    Hold,
    /// A seek: what it skips runs as the parent's window does ([`Playback::fire_window`]).
    Seek(SeekWindow),
}

/// What the window a seek jumps over runs besides markers ([`Playback::fire_window`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct SeekWindow {
    /// Whether its markers fire (`fire_skipped`) or not (`suppress`).
    fire: bool,
    /// The clock frame the seek comes after, in which the tasks it runs begin.
    clock_frame: i64,
}

/// Per-clip runtime of a clip whose motion has state of its own.
#[derive(Clone, Debug)]
enum Inner {
    None,
    Tree(TreeRuntime),
    Nested(Box<Playback>),
}

/// A playing instance of a timeline.
///
/// What a frame reads comes first (`repr(C)`, up to `enabled`: see
/// [`Playback::prefetch_frame`]); what a `play`, a reload or a task reads, after it.
#[derive(Clone, Debug)]
#[repr(C)]
pub struct Playback {
    state: PlaybackState,
    /// How [`Playback::compose`] runs the track mixers, by the timeline's structure.
    mixing: Mixing,
    /// As a nested timeline: whether its clip is active, so that it has started there.
    activated: bool,
    pub timeline: TimelineId,
    /// The clock frame at which the raw timeline time was `anchor_time`.
    anchor: FrameTime,
    anchor_time: Ticks,
    /// Wrapped time of the last evaluation.
    time: Ticks,
    /// Raw (unwrapped) timeline time of the last evaluation that fired markers; `None`
    /// before the first frame.
    last: Option<Ticks>,
    /// Where `active` stays what the interval tree answers: the
    /// [`steady_span`](super::interval_tree::IntervalTree::steady_span) of the last query;
    /// empty when `active` was changed otherwise.
    steady: std::ops::Range<Ticks>,
    /// Where no active clip's weight changes: the intersection of their
    /// steady spans ([`weigh`](super::TimelineClip::weigh)) at the last
    /// evaluation that weighed them; emptied with each query of the interval tree.
    settled: std::ops::Range<Ticks>,
    // Active-set bookkeeping, reused every frame (no allocation on the hot path).
    active: Indices,
    /// Where each kind of mixer number sits in `numbers`.
    layout: Layout,
    /// Every mixer number in one block of memory, so that a frame touches one place
    /// ([`Layout`] says what each part holds).
    numbers: SmallVec<[f64; 16]>,
    /// Per clip: its leaves (empty for clips without an animation motion).
    clip_leaves: SmallVec<[std::ops::Range<usize>; 2]>,
    /// Leaves written or cleared since the graph last read them.
    live: LiveLeaves,
    enabled: Flags,
    query: Indices,
    /// Where the playback started (the first window is `[start, t]`).
    start: Ticks,
    emitted_once: Flags,
    /// Per layer: the channel indices it affects (`None` = all).
    layer_channels: SmallVec<[Option<Vec<usize>>; 2]>,
    inner: Vec<Inner>,
    leaves: Vec<PlaybackLeaf>,
    /// Task lifecycles (REFERENCE §4).
    lifecycle: Lifecycle,
}

/// The quiet frames ahead of a playback right after a logic frame
/// ([`Playback::quiet_frames`]).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct QuietFrames {
    /// The first clock frame that is not quiet.
    pub until: i64,
    /// `None` when every weight holds: a quiet frame writes nothing and returns what the
    /// frame before it did. Otherwise the one active clip mixing, whose frames
    /// [`ClipMixing::write`] gives.
    pub mixing: Option<ClipMixing>,
}

/// The one active clip of a one-layer timeline, plain and on that layer, whose weight follows
/// its mixes through quiet frames ([`Playback::quiet_frames`]). Its clock (`anchor`,
/// `anchor_time`) is the playback's.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ClipMixing {
    timeline: TimelineId,
    clip: u32,
    /// Its leaf, if it has one.
    leaf: Option<u32>,
    anchor: FrameTime,
    anchor_time: Ticks,
}

impl ClipMixing {
    /// The quiet frame at clock time `now` as the graph's timeline slot writes its channel 0
    /// at `scale` ([`TimelineSlot::write`](crate::graph::TimelineSlot)): the leaf's effective
    /// weight `scale × share` into `column`, then the coverage and output weight returned;
    /// with the first clock frame whose weight may differ (`now`'s own on a mix). The
    /// playback's frame would compute them with the same functions: the clip's weight at the
    /// raw time ([`TimelineClip::weigh`](super::TimelineClip::weigh); in a quiet span it is the
    /// timeline time), its layer's mix (`OneClipMix`) and its leaf's share
    /// (`write_clip_leaf_shares`). The frames after it whose weight is the same would
    /// write the same and return the same.
    #[inline(always)]
    pub fn write(&self, snapshot: &Snapshot, now: FrameTime, column: &mut [f64], scale: f64) -> ((f64, f64), i64) {
        let clip = &snapshot.timelines[self.timeline].clips[self.clip as usize];
        let t = self.anchor_time + now.since(self.anchor);
        let super::Weighing { weight, steady } = clip.weigh(t);
        let mix = OneClipMix::of(Some(weight));
        let mut share = [0.0];
        let leaves = 0..usize::from(self.leaf.is_some());
        let coverage = write_clip_leaf_shares(0.0, mix.clip_share(), (leaves, false), |_| 1.0, &mut share);
        if let Some(leaf) = self.leaf {
            column[leaf as usize] = scale * share[0];
        }
        let held_until = if steady.is_empty() {
            now.frame
        } else {
            first_frame_reaching((self.anchor, self.anchor_time), steady.end, now.rate)
        };
        ((coverage, mix.layer.output), held_until)
    }
}

/// How a playback runs its track mixers (REFERENCE §3.6, §6), chosen once by the structure of
/// its timeline: both give the same numbers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Mixing {
    /// Every track and layer, each channel through the layers whose masks let it in
    /// ([`Playback::compose_general`]).
    General,
    /// One track of one unmuted layer without a mask: a timeline of one plain track
    /// ([`Playback::compose_one_layer`]).
    OneLayer,
}

impl Mixing {
    fn of(def: &Timeline) -> Mixing {
        match (&def.tracks[..], &def.layers[..]) {
            ([_], [layer]) if layer.mask.is_none() && !layer.muted => Mixing::OneLayer,
            _ => Mixing::General,
        }
    }
}

/// The parts of a playback's numbers, in order: per clip its raw weight (§3.3), local time and
/// share within its layer after NormalizeMixer; per layer the sum of its clips' weights (then
/// at most 1), its normalized input in its track's layer mixer and what one unit of clip share
/// is worth in the channel being composed; per track its output weight;
/// `shares[channel × leaves + leaf]`; per channel the coverage and the output weight. Part `k`
/// is `starts[k]..starts[k + 1]`, fixed once per playback, so a frame indexes a part without
/// cutting the block again.
#[derive(Copy, Clone, Debug, PartialEq)]
struct Layout {
    starts: [usize; PARTS + 1],
    leaves: usize,
    channels: usize,
}

/// How many parts [`Layout`] cuts the numbers into, and which is which.
const PARTS: usize = 10;
const CLIP_WEIGHTS: usize = 0;
const CLIP_TIMES: usize = 1;
const CLIP_SHARES: usize = 2;
const LAYER_RAW: usize = 3;
const LAYER_INPUTS: usize = 4;
const LAYER_FACTORS: usize = 5;
const TRACK_OUTPUTS: usize = 6;
const SHARES: usize = 7;
const COVERAGE: usize = 8;
const OUTPUT: usize = 9;
/// The layer parts and the track outputs are consecutive, and then come the shares:
/// [`Playback::compose_one_clip`] writes the one layer's and the one track's numbers at once.
const _: () = assert!(
    LAYER_INPUTS == LAYER_RAW + 1
        && LAYER_FACTORS == LAYER_INPUTS + 1
        && TRACK_OUTPUTS == LAYER_FACTORS + 1
        && SHARES == TRACK_OUTPUTS + 1
);

/// The mixer numbers of a playback, by part ([`Layout`]).
struct Mixer<'a> {
    clip_weights: &'a mut [f64],
    clip_shares: &'a mut [f64],
    layer_raw: &'a mut [f64],
    layer_inputs: &'a mut [f64],
    layer_factors: &'a mut [f64],
    track_outputs: &'a mut [f64],
    shares: &'a mut [f64],
    coverage: &'a mut [f64],
    output: &'a mut [f64],
}

impl Layout {
    fn new(def: &Timeline, channels: usize, leaves: usize) -> Self {
        let (c, l, t) = (def.clips.len(), def.layers.len(), def.tracks.len());
        let lengths: [usize; PARTS] = [c, c, c, l, l, l, t, channels * leaves, channels, channels];
        let mut starts = [0; PARTS + 1];
        for (k, length) in lengths.into_iter().enumerate() {
            starts[k + 1] = starts[k] + length;
        }
        Layout { starts, leaves, channels }
    }

    fn total(self) -> usize {
        self.starts[PARTS]
    }

    /// Where part `k` starts.
    fn start(self, k: usize) -> usize {
        self.starts[k]
    }

    /// The length of part `k`.
    fn length(self, k: usize) -> usize {
        self.starts[k + 1] - self.starts[k]
    }

    /// The parts a composition writes (all but the local times).
    fn mixer(self, numbers: &mut [f64]) -> Mixer<'_> {
        let lengths: [usize; PARTS] = std::array::from_fn(|k| self.length(k));
        let [clip_weights, _, clip_shares, layers @ .., track_outputs, shares, coverage, output] =
            crate::parts::split(numbers, lengths);
        let [layer_raw, layer_inputs, layer_factors] = layers;
        Mixer {
            clip_weights,
            clip_shares,
            layer_raw,
            layer_inputs,
            layer_factors,
            track_outputs,
            shares,
            coverage,
            output,
        }
    }
}

impl Playback {
    /// A playback of `timeline` starting at timeline time `start` at clock time `now`, over the
    /// actor's `channels` (mask names not among them affect nothing).
    pub fn new(snapshot: &Snapshot, timeline: TimelineId, channels: &[String], now: FrameTime, start: Ticks) -> Self {
        let def = &snapshot.timelines[timeline];
        let clips = def.clips.len();
        let mut leaves = Vec::new();
        let mut inner = Vec::with_capacity(clips);
        let mut clip_leaves = SmallVec::with_capacity(clips);
        for (c, clip) in def.clips.iter().enumerate() {
            let first = leaves.len();
            match clip.motion.filter(|_| clip.layer.is_some()) {
                Some(ClipMotion::Clip(_)) => {
                    leaves.push(PlaybackLeaf { name: clip.name.to_string(), kind: LeafKind::Clip { clip: c } });
                    inner.push(Inner::None);
                }
                Some(ClipMotion::Tree(tree)) => {
                    let runtime = TreeRuntime::new(snapshot, tree);
                    for (index, leaf) in runtime.leaves().iter().enumerate() {
                        leaves.push(PlaybackLeaf {
                            name: format!("{}/{}", clip.name, leaf.name),
                            kind: LeafKind::Tree { clip: c, index },
                        });
                    }
                    inner.push(Inner::Tree(runtime));
                }
                Some(ClipMotion::Timeline(nested)) => {
                    let playback = Playback::new(snapshot, nested, channels, now, Ticks::ZERO);
                    for (index, leaf) in playback.leaves.iter().enumerate() {
                        leaves.push(PlaybackLeaf {
                            name: format!("{}/{}", clip.name, leaf.name),
                            kind: LeafKind::Nested { clip: c, index },
                        });
                    }
                    inner.push(Inner::Nested(Box::new(playback)));
                }
                None => inner.push(Inner::None),
            }
            clip_leaves.push(first..leaves.len());
        }
        let layer_channels = def
            .layers
            .iter()
            .map(|l| {
                l.mask.as_ref().map(|m| m.iter().filter_map(|name| channels.iter().position(|c| c == name)).collect())
            })
            .collect();
        let lifecycle = Lifecycle::new(def, start, format_args!("{}#0", def.name));
        let layout = Layout::new(def, channels.len(), leaves.len());
        Playback {
            timeline,
            anchor: now,
            anchor_time: start,
            state: PlaybackState::Playing,
            last: None,
            start,
            activated: false,
            time: start,
            emitted_once: smallvec![false; def.markers.len()],
            active: Indices::new(),
            query: Indices::new(),
            steady: NOT_STEADY,
            settled: NOT_STEADY,
            enabled: smallvec![false; clips],
            numbers: smallvec![0.0; layout.total()],
            layout,
            mixing: Mixing::of(def),
            layer_channels,
            clip_leaves,
            live: LiveLeaves { list: Indices::new(), marked: smallvec![false; leaves.len()] },
            inner,
            lifecycle,
            leaves,
        }
    }

    /// This playback moved onto `timeline` of a new snapshot after a reload, its tasks' source
    /// ids prefixed `source` (`timeline#serial`, as before): its time, state, markers already
    /// fired, task lifecycle (by task clip name: [`Lifecycle::carry_over`], whose events at
    /// the reload go to `events`) and, by clip identity ([`super::TimelineClip::identity`]: its name
    /// when written, else its track, motion and place there), each clip's activity, local time and
    /// inner state (see [`Playback::carry_clip`]) carry over. A timeline played nested by a
    /// clip that is gone (or now plays another timeline) leaves, as when its clip stops
    /// being active: its running tasks are interrupted.
    pub fn carry_over(
        &self,
        (snapshot, old_snapshot): (&Snapshot, &Snapshot),
        timeline: TimelineId,
        channels: &[String],
        source: std::fmt::Arguments,
        events: &mut Vec<EventKind>,
    ) -> Playback {
        let mut new = Playback::new(snapshot, timeline, channels, self.anchor, self.anchor_time);
        let (old_def, new_def) = (&old_snapshot.timelines[self.timeline], &snapshot.timelines[timeline]);
        new.state = self.state;
        new.last = self.last;
        new.carry_pass(self, (old_def, new_def));
        new.lifecycle = self.lifecycle.carry_over((old_def, new_def), (self.start, new.last), source, events);
        new.start = self.start;
        new.activated = self.activated;
        new.time = self.time;
        for (m, marker) in new_def.markers.iter().enumerate() {
            new.emitted_once[m] =
                old_def.markers.iter().zip(&self.emitted_once).any(|(o, &done)| done && o.name == marker.name);
        }
        let mut old_clips: BTreeMap<&str, usize> =
            old_def.clips.iter().enumerate().map(|(o, clip)| (clip.identity.as_ref(), o)).collect();
        // In new clip order, so `active` comes out sorted.
        for (n, clip) in new_def.clips.iter().enumerate() {
            if let Some(o) = old_clips.remove(clip.identity.as_ref()) {
                new.carry_clip(n, self, o, (snapshot, old_snapshot), channels, events);
            }
        }
        for o in old_clips.into_values() {
            leave_behind(&self.inner[o], old_snapshot, events);
        }
        new
    }

    /// On a looping timeline that still loops, keeps the pass `old` was in and its time in it
    /// (REFERENCE §3.8; README, Hot reload) where the reload changes how long a pass lasts (a
    /// new `frame_rate` for clips in frames, a longer clip, a new loop region): the raw time,
    /// which counts the passes, moves to where the new passes put that pass and time, so the
    /// next `timeline_looped` counts on by one. A time past the new end stays at the pass's
    /// last instant (the next frame crosses the end), one before a later pass's new start
    /// `L` goes to `L`. A nested timeline's time is its clip's local time: it moves with its
    /// parent.
    fn carry_pass(&mut self, old: &Playback, (old_def, def): (&Timeline, &Timeline)) {
        let looping = |d: &Timeline| d.wrap == WrapMode::Loop && d.duration > Ticks::ZERO;
        let Some(last) = old.last.filter(|_| !old.activated && looping(old_def) && looping(def)) else { return };
        let (pass, t) = old_def.pass_at(last);
        let raw = def.raw_at(pass, t.min(def.duration - Ticks(1)).max(def.pass_start(pass)));
        self.anchor_time = old.anchor_time + (raw - last);
        self.last = Some(raw);
    }

    /// Takes over clip `o` of `old` as its clip `n` of the same identity. Whether it is active
    /// carries over, and so does its local time: an active clip's is computed again at the
    /// next evaluation, but an inactive one's stays frozen where it left the active set
    /// (REFERENCE §3.5), which nothing recomputes — at most the latest local time the clip
    /// now reaches, should it have got shorter. A blend tree keeps its leaf times by leaf name
    /// (they run on the tree's own clock); a nested timeline, while the clip still plays the
    /// timeline of that name, carries over whole: its markers, tasks, activation and clips;
    /// otherwise it leaves.
    fn carry_clip(
        &mut self,
        n: usize,
        old: &Playback,
        o: usize,
        (snapshot, old_snapshot): (&Snapshot, &Snapshot),
        channels: &[String],
        events: &mut Vec<EventKind>,
    ) {
        if old.enabled[o] {
            self.enabled[n] = true;
            self.active.push(n as u32);
        }
        let clip = &snapshot.timelines[self.timeline].clips[n];
        let old_time = old.numbers[old.layout.start(CLIP_TIMES) + o];
        self.numbers[self.layout.start(CLIP_TIMES) + n] = old_time.min(clip.latest_local_time());
        match (&mut self.inner[n], &old.inner[o]) {
            (Inner::Tree(fresh), Inner::Tree(old)) => fresh.carry_time_from(old),
            (Inner::Nested(fresh), Inner::Nested(old))
                if old_snapshot.timelines[old.timeline].name == snapshot.timelines[fresh.timeline].name =>
            {
                let name = &snapshot.timelines[fresh.timeline].name;
                let source = format!("{}/{}/{name}", self.lifecycle.source(), clip.name);
                let both = (snapshot, old_snapshot);
                **fresh = old.carry_over(both, fresh.timeline, channels, format_args!("{source}"), events);
            }
            (_, old) => leave_behind(old, old_snapshot, events),
        }
    }

    /// Starts this playback over from timeline time `start` at clock time `now`, named
    /// `serial` — exactly what [`Playback::new`] with the same timeline and channels, then
    /// [`Playback::with_serial`], would give — but in its own memory: a replay (a hit played
    /// again) allocates nothing for the mixer. Every field that changes while playing is set
    /// here; the structure (leaves, clip leaves, layer channels) stays. The leaves of the
    /// clips that were active are live, so that the graph copies their shares, now 0.
    pub fn restart(&mut self, snapshot: &Snapshot, now: FrameTime, start: Ticks, serial: u64) {
        let def = &snapshot.timelines[self.timeline];
        self.reset(snapshot, now, start, format_args!("{}#{serial}", def.name));
    }

    fn reset(&mut self, snapshot: &Snapshot, now: FrameTime, start: Ticks, source: std::fmt::Arguments) {
        let def = &snapshot.timelines[self.timeline];
        (self.anchor, self.anchor_time, self.start, self.time) = (now, start, start, start);
        self.state = PlaybackState::Playing;
        self.last = None;
        self.activated = false;
        self.emitted_once.fill(false);
        self.mark_active_leaves_live();
        self.active.clear();
        self.steady = NOT_STEADY;
        self.enabled.fill(false);
        self.numbers.fill(0.0);
        for inner in &mut self.inner {
            match inner {
                Inner::None => {}
                Inner::Tree(tree) => *tree = TreeRuntime::new(snapshot, tree.root()),
                Inner::Nested(nested) => {
                    let name = &snapshot.timelines[nested.timeline].name;
                    nested.reset(snapshot, now, Ticks::ZERO, format_args!("{name}#0"));
                }
            }
        }
        self.lifecycle.restart(def, start, source);
    }

    /// Names this playback `serial` in its tasks' source ids (`timeline#serial/clip`).
    pub fn with_serial(mut self, snapshot: &Snapshot, serial: u64) -> Self {
        let def = &snapshot.timelines[self.timeline];
        self.lifecycle.restart(def, self.start, format_args!("{}#{serial}", def.name));
        self
    }

    /// The timelines its clips play nested that are playing now (their clip is active), with
    /// the index of that clip.
    pub fn playing_nested(&self) -> impl Iterator<Item = (usize, &Playback)> {
        self.inner.iter().enumerate().filter_map(|(c, inner)| match inner {
            Inner::Nested(nested) if nested.activated => Some((c, &**nested)),
            _ => None,
        })
    }

    /// The blend trees its active clips play, for `actor:explain()`: each with its clip's
    /// index and the clip's share in `channel` ([`Playback::clip_share`]).
    pub fn playing_trees(&self, snapshot: &Snapshot, channel: usize) -> Vec<(usize, &TreeRuntime, f64)> {
        self.active
            .iter()
            .filter_map(|&c| match &self.inner[c as usize] {
                Inner::Tree(tree) => Some((c as usize, tree, self.clip_share(snapshot, channel, c as usize))),
                _ => None,
            })
            .collect()
    }

    /// What one unit of clip `c`'s motion is worth in the playback's pose in `channel`: its
    /// layer's factor × its share in the layer, as the last composition left them (what
    /// multiplies a tree's weights, or a nested timeline's shares, into leaf shares); 0 for a
    /// clip that is not active.
    pub fn clip_share(&self, snapshot: &Snapshot, channel: usize, c: usize) -> f64 {
        let def = &snapshot.timelines[self.timeline];
        let Some(l) = def.clips[c].layer.filter(|_| self.active.contains(&(c as u32))) else { return 0.0 };
        let view = self.mixer_view();
        let mut factors = vec![0.0; def.layers.len()];
        let inputs = (view.track_outputs, view.layer_inputs);
        channel_layer_factors(def, channel, &self.layer_channels, inputs, &mut factors);
        factors[l] * view.clip_shares[c]
    }

    /// Every parameter the blend trees of its clips read, nested timelines' too, in order of
    /// first use, added to `out` (those it has already left as they are).
    pub fn tree_parameters(&self, out: &mut Vec<crate::compile::ParamId>) {
        for inner in &self.inner {
            match inner {
                Inner::None => {}
                Inner::Tree(tree) => {
                    for &p in tree.parameters() {
                        if !out.contains(&p) {
                            out.push(p);
                        }
                    }
                }
                Inner::Nested(nested) => nested.tree_parameters(out),
            }
        }
    }

    /// Its local frame: for a timeline with task clips, the last frame its task lifecycle
    /// processed (REFERENCE §4; −1 before the first); for one without, the frame containing its
    /// time at the timeline's frame rate; `None` for a timeline without a frame rate.
    pub fn local_frame(&self, snapshot: &Snapshot) -> Option<i64> {
        let def = &snapshot.timelines[self.timeline];
        let rate = def.frame_rate?;
        Some(if def.lifetime.is_some() { self.lifecycle.frame() } else { self.time.last_frame_at(rate) })
    }

    /// The state of task clip `c` ([`Lifecycle::clip_state`]), for traces.
    pub fn task_state(&self, snapshot: &Snapshot, c: usize) -> &'static str {
        let ended = self.state != PlaybackState::Playing;
        self.lifecycle.clip_state(&snapshot.timelines[self.timeline], c, ended)
    }

    pub fn state(&self) -> PlaybackState {
        self.state
    }

    /// The wrapped timeline time of the last evaluation.
    pub fn time(&self) -> Ticks {
        self.time
    }

    pub fn leaves(&self) -> &[PlaybackLeaf] {
        &self.leaves
    }

    /// Each leaf's share of `channel` (REFERENCE §6, before graph layers).
    pub fn shares(&self, channel: usize) -> &[f64] {
        let start = self.layout.start(SHARES) + channel * self.layout.leaves;
        &self.numbers[start..start + self.layout.leaves]
    }

    /// `Σ shares`: how much of `channel` the playback's leaves fill.
    pub fn coverage(&self, channel: usize) -> f64 {
        self.numbers[self.layout.start(COVERAGE) + channel]
    }

    /// The output weight: `1 − Π(1 − track output)` over tracks touching `channel` (one
    /// track: its root mixer's NormalizeMixer value).
    pub fn output_weight(&self, channel: usize) -> f64 {
        self.numbers[self.layout.start(OUTPUT) + channel]
    }

    /// A leaf's local time in seconds.
    pub fn leaf_time(&self, leaf: usize) -> f64 {
        match &self.leaves[leaf].kind {
            LeafKind::Clip { clip } => self.numbers[self.layout.start(CLIP_TIMES) + clip],
            LeafKind::Tree { clip, index } => match &self.inner[*clip] {
                Inner::Tree(tree) => tree.leaf_times()[*index],
                _ => 0.0,
            },
            LeafKind::Nested { clip, index } => match &self.inner[*clip] {
                Inner::Nested(nested) => nested.leaf_time(*index),
                _ => 0.0,
            },
        }
    }

    /// Raw clip weights, normalized clip shares within their layers, layer-mixer inputs
    /// (raw and normalized) and track outputs, for the graph view.
    pub fn mixer_view(&self) -> MixerView<'_> {
        let part = |k: usize| &self.numbers[self.layout.start(k)..self.layout.start(k + 1)];
        MixerView {
            clip_weights: part(CLIP_WEIGHTS),
            clip_times: part(CLIP_TIMES),
            clip_shares: part(CLIP_SHARES),
            layer_raw: part(LAYER_RAW),
            layer_inputs: part(LAYER_INPUTS),
            track_outputs: part(TRACK_OUTPUTS),
        }
    }

    /// Asks for what a frame of this playback reads: its fields before `enabled`, laid out
    /// first (`repr(C)`), 7 of its 12 lines. Measured on the crowd against asking for all of
    /// it: 55.3 against 56.4 ns per character-frame at 10 000 actors (lower quartiles of 21
    /// interleaved runs), 45.5 against 46.3 in cache (fastest of 11).
    pub fn prefetch_frame(&self) {
        crate::prefetch::soon_first(self, std::mem::offset_of!(Playback, enabled));
    }

    /// The pass its timeline is in at clock time `now` ([`Timeline::pass_at`]).
    pub fn pass(&self, def: &Timeline, now: FrameTime) -> i64 {
        def.pass_at(self.raw_time(now)).0
    }

    /// The raw timeline time at clock time `now`.
    fn raw_time(&self, now: FrameTime) -> Ticks {
        self.anchor_time + now.since(self.anchor)
    }

    /// One logic frame at clock time `now`: markers, wrap, weights.
    pub fn advance(&mut self, snapshot: &Snapshot, params: &[ParamState], now: FrameTime, events: &mut Vec<EventKind>) {
        if self.state != PlaybackState::Playing {
            return;
        }
        let def = &snapshot.timelines[self.timeline];
        let raw = self.raw_time(now);
        let lifecycle_done = def.lifetime.is_some() && self.run_tasks(snapshot, raw, now.frame, events);
        if def.fires_in_windows() {
            self.fire_window(snapshot, self.last, raw, None, events);
        }
        self.last = Some(raw);
        let done = lifecycle_done || (def.wrap == WrapMode::None && raw >= def.duration);
        let play = NestedFollow::Play { clock_frame: now.frame };
        self.evaluate((snapshot, def), params, wrap(def, raw), play, events);
        if done {
            self.stop(snapshot, PlaybackState::Complete, events);
        }
    }

    /// Right after a logic frame at clock time `now` ([`Playback::advance`]): the quiet frames
    /// ahead, those before clock frame [`QuietFrames::until`], or `None` when the next frame
    /// may do more than the quiet ones do. A quiet frame moves the active clips' local times
    /// and, where one clip is mixing in or out, that clip's weight and what it composes to; it
    /// fires nothing, runs no task, does not complete and leaves the active set as it is. Each
    /// leaves the playback as the last of them alone would (its time, `last`, the active
    /// clips' local times and weights and what they compose to are functions of its clock
    /// time), so a caller may skip them and run the last one late ([`Playback::catch_up`]).
    ///
    /// Quiet frames need a playback that plays a timeline without markers, loops and task
    /// clips, whose active clips have no runtime of their own (a tree, a nested timeline), at
    /// a time inside the span where the active set holds (`steady`). Before `D`, where the
    /// timeline time is the raw time, they are the frames whose raw time is below the end of
    /// that span and `D` (a `none` timeline completes at `D`), and:
    /// - where no active clip's weight changes (`settled` holds the time), below the end of
    ///   `settled` too: each writes nothing and returns what the frame before it did
    ///   ([`QuietFrames::mixing`] is `None`);
    /// - else where the one active clip of a one-layer timeline (`Mixing::OneLayer`) is
    ///   on that layer: its weight follows its mixes, and each frame's share, coverage and
    ///   output weight are those [`ClipMixing::write`] gives.
    ///
    /// At `D` on a `hold` timeline whose weights hold, every later frame is quiet (the time
    /// stays `D`).
    pub fn quiet_frames(&self, def: &Timeline, now: FrameTime) -> Option<QuietFrames> {
        let t = self.time;
        let plain = self.active.iter().all(|&c| !def.clips[c as usize].has_inner_runtime());
        if self.state != PlaybackState::Playing || def.fires_in_windows() || def.lifetime.is_some() || !plain {
            return None;
        }
        let raw = self.raw_time(now);
        let (steady, settled) = (self.steady.contains(&t), self.settled.contains(&t));
        if def.wrap == WrapMode::Hold && t == def.duration && raw >= t {
            return (steady && settled).then_some(QuietFrames { until: i64::MAX, mixing: None });
        }
        if raw != t || !steady {
            return None;
        }
        let (end, mixing) = if settled {
            (self.steady.end.min(self.settled.end), None)
        } else {
            (self.steady.end, Some(self.clip_mixing(def)?))
        };
        let until = first_frame_reaching((self.anchor, self.anchor_time), end.min(def.duration), now.rate);
        Some(QuietFrames { until, mixing })
    }

    /// The one active clip of a one-layer timeline, on that layer and plain (one leaf or
    /// none), as its quiet frames move its weight ([`Playback::quiet_frames`]).
    fn clip_mixing(&self, def: &Timeline) -> Option<ClipMixing> {
        let (Mixing::OneLayer, &[clip]) = (self.mixing, &self.active[..]) else { return None };
        let leaves = self.clip_leaves[clip as usize].clone();
        if def.clips[clip as usize].layer.is_none() || leaves.len() > 1 {
            return None;
        }
        let leaf = (!leaves.is_empty()).then_some(leaves.start as u32);
        let (anchor, anchor_time) = (self.anchor, self.anchor_time);
        Some(ClipMixing { timeline: self.timeline, clip, leaf, anchor, anchor_time })
    }

    /// Runs late the last of the quiet frames ([`Playback::quiet_frames`]) a caller skipped,
    /// the one at clock time `now`: the playback is then where running each of them would
    /// have left it.
    pub fn catch_up(&mut self, snapshot: &Snapshot, now: FrameTime) {
        let mut events = Vec::new();
        // A quiet frame reads no parameter (no active clip plays a tree) and logs nothing.
        self.advance(snapshot, &[], now, &mut events);
        debug_assert!(events.is_empty(), "a quiet frame logs nothing");
    }

    /// Evaluates weights at the current time without firing markers (at play and after a
    /// reload), so weights are visible before the first frame.
    pub fn evaluate_now(
        &mut self,
        snapshot: &Snapshot,
        params: &[ParamState],
        now: FrameTime,
        events: &mut Vec<EventKind>,
    ) {
        self.evaluate_between_frames(snapshot, params, now, NestedFollow::Hold, events);
    }

    /// [`Playback::evaluate_now`], with `nested` saying what the timelines its clips play
    /// nested do (see [`NestedFollow`]).
    fn evaluate_between_frames(
        &mut self,
        snapshot: &Snapshot,
        params: &[ParamState],
        now: FrameTime,
        nested: NestedFollow,
        events: &mut Vec<EventKind>,
    ) {
        if self.state == PlaybackState::Playing {
            let def = &snapshot.timelines[self.timeline];
            let t = wrap(def, self.raw_time(now));
            self.evaluate((snapshot, def), params, t, nested, events);
        }
    }

    /// Moves the playback to timeline time `to` at clock time `now`. On a looping timeline `to`
    /// is a time of the current pass (one beyond `D` crosses the end into the passes after
    /// it; a pass after the first holds only `[L, D)`, so the caller refuses a `to` before
    /// `L` there): the raw time becomes the one where this pass is at `to`
    /// ([`Timeline::raw_at`]), so loops keep counting. A forward
    /// seek (a later raw time) with `fire_skipped` fires the markers of the window from the
    /// time now to there (REFERENCE §3.7: loops unrolled, each `timeline_looped` with its
    /// count), nested timelines' too; a backward one — on a looping timeline, back within
    /// the current pass — fires none, and the loop count stays. With `suppress`, no marker
    /// fires. Either way a forward seek across the end of a looping timeline logs its
    /// `timeline_looped` events and runs the tasks of the passes it leaves behind, in time
    /// order ([`Playback::fire_window`]); tasks of the pass it lands in catch up at the next
    /// frame.
    pub fn seek(
        &mut self,
        snapshot: &Snapshot,
        params: &[ParamState],
        now: FrameTime,
        to: Ticks,
        policy: SeekPolicy,
        events: &mut Vec<EventKind>,
    ) {
        let def = &snapshot.timelines[self.timeline];
        let from = self.raw_time(now);
        let (pass, pass_time) = def.pass_at(from);
        events.push(EventKind::Seek { timeline: def.name.clone(), from: pass_time, to, policy });
        let to = def.raw_at(pass, to);
        let seek = SeekWindow { fire: policy == SeekPolicy::FireSkipped, clock_frame: now.frame };
        if to > from && self.last.is_some() {
            self.fire_window(snapshot, Some(from), to, Some(seek), events);
        }
        self.anchor = now;
        self.anchor_time = to;
        if self.last.is_some() {
            self.last = Some(to);
        } else {
            // Before its first frame a seek moves where it starts, as `play` from `to` would:
            // its tasks start there too, with none of the passes before it to run.
            self.start = to;
            let source = self.lifecycle.source().to_owned();
            self.lifecycle.restart(def, to, format_args!("{source}"));
        }
        self.evaluate_between_frames(snapshot, params, now, NestedFollow::Seek(seek), events);
    }

    /// As a nested timeline whose raw time is now `local` (its clip's local time), fires its
    /// markers and runs its tasks as `nested` says (see [`NestedFollow`]); `source` names
    /// this nested instance in its tasks' source ids.
    fn follow(
        &mut self,
        snapshot: &Snapshot,
        local: Ticks,
        nested: NestedFollow,
        source: std::fmt::Arguments,
        events: &mut Vec<EventKind>,
    ) {
        let def = &snapshot.timelines[self.timeline];
        if !self.activated {
            // Its clip has just become active (whatever the evaluation): it starts here.
            self.activate(def, local, source);
        }
        let (clock_frame, window) = match (nested, self.last) {
            (NestedFollow::Hold, _) => return,
            (NestedFollow::Seek(seek), previous) => {
                if previous.is_none_or(|previous| previous <= local) {
                    self.fire_window(snapshot, previous, local, Some(seek), events);
                }
                self.last = Some(local);
                return;
            }
            (NestedFollow::Play { clock_frame }, Some(previous)) if local < previous => {
                // A new pass: its tasks end with its nested timelines', as at a pass end;
                // markers re-sync without firing for the jump.
                self.end_tasks(snapshot, events);
                self.leave_nested(snapshot, events);
                self.lifecycle.restart(def, local, source);
                (clock_frame, None)
            }
            (NestedFollow::Play { clock_frame }, previous) => (clock_frame, Some(previous)),
        };
        // As a top-level frame: the task lifecycle first, then the markers.
        let done = self.run_tasks(snapshot, local, clock_frame, events);
        if let Some(previous) = window {
            self.fire_window(snapshot, previous, local, None, events);
        }
        self.last = Some(local);
        if done {
            // Its lifetime is over: flow-scoped tasks are released (once).
            self.lifecycle.end(def, false, events);
        }
    }

    /// As a nested timeline whose clip has become active at its local time `local`: it starts
    /// there, its tasks named `source`.
    fn activate(&mut self, def: &Timeline, local: Ticks, source: std::fmt::Arguments) {
        self.activated = true;
        (self.start, self.last) = (local, None);
        self.lifecycle.restart(def, local, source);
    }

    /// Runs the task lifecycle up to raw time `raw` in clock frame `clock_frame`
    /// ([`Lifecycle::advance`]), ending each pass it leaves behind ([`Playback::end_pass`]).
    /// Returns whether its lifetime is over.
    fn run_tasks(&mut self, snapshot: &Snapshot, raw: Ticks, clock_frame: i64, events: &mut Vec<EventKind>) -> bool {
        let def = &snapshot.timelines[self.timeline];
        loop {
            match self.lifecycle.advance(def, raw, clock_frame, events) {
                Advanced::Running => return false,
                Advanced::Done => return true,
                Advanced::PassEnds(next) => self.end_pass(snapshot, next, events),
            }
        }
    }

    /// The end of a pass of this looping timeline, where its time wraps: its tasks end as a
    /// playback's do, with those of the timelines it plays nested ([`Playback::end_tasks`]:
    /// every Interrupt, then every Dispose in reverse order of Begin), those timelines leave,
    /// and pass `next` begins, every clip pending. A timeline whose clip is active where pass
    /// `next` begins starts over there, at the clip's local time then: its tasks run from
    /// there at the next frame, so that after a seek that lands later in the pass they catch
    /// up as the pass's own do; the others start where their clips become active.
    fn end_pass(&mut self, snapshot: &Snapshot, next: i64, events: &mut Vec<EventKind>) {
        self.end_tasks(snapshot, events);
        self.leave_nested(snapshot, events);
        let def = &snapshot.timelines[self.timeline];
        self.lifecycle.begin_pass(def, next);
        let start = def.pass_start(next);
        for (c, clip) in def.clips.iter().enumerate() {
            if let Inner::Nested(nested) = &mut self.inner[c]
                && clip.ext_start <= start
                && start < clip.ext_end
            {
                let nested_def = &snapshot.timelines[nested.timeline];
                let local = Ticks::from_secs(clip.local_time_at(start)).unwrap_or(Ticks::ZERO).max(Ticks::ZERO);
                let source = format_args!("{}/{}/{}", self.lifecycle.source(), clip.name, nested_def.name);
                nested.activate(nested_def, local, source);
            }
        }
    }

    /// The timelines its clips play nested leave ([`Playback::leave`]).
    fn leave_nested(&mut self, snapshot: &Snapshot, events: &mut Vec<EventKind>) {
        for inner in &mut self.inner {
            if let Inner::Nested(nested) = inner {
                nested.leave(snapshot, events);
            }
        }
    }

    /// As a nested timeline whose clip stopped being active: its tasks end with those of the
    /// timelines it plays nested ([`Playback::end_tasks`], running ones interrupted), and its
    /// next activation starts it over.
    fn leave(&mut self, snapshot: &Snapshot, events: &mut Vec<EventKind>) {
        if std::mem::take(&mut self.activated) {
            self.last = None;
            self.end_tasks(snapshot, events);
            self.leave_nested(snapshot, events);
        }
    }

    /// Ends the playback as `state`: its tasks end ([`Playback::end_tasks`]), then every
    /// enabled clip is disabled, with its event.
    pub fn stop(&mut self, snapshot: &Snapshot, state: PlaybackState, events: &mut Vec<EventKind>) {
        if self.state != PlaybackState::Playing {
            return;
        }
        self.end_tasks(snapshot, events);
        let def = &snapshot.timelines[self.timeline];
        for i in 0..self.active.len() {
            self.disable(snapshot, self.active[i] as usize, events);
        }
        self.active.clear();
        self.steady = NOT_STEADY;
        self.state = state;
        self.compose(def);
        events.push(match state {
            PlaybackState::Complete => EventKind::TimelineComplete { timeline: def.name.clone() },
            _ => EventKind::TimelineInterrupted { timeline: def.name.clone() },
        });
    }

    /// Ends the tasks of this playback and of the timelines it plays nested now as one
    /// (REFERENCE §4; **ours** for nesting, where a nested timeline plays inside its clip):
    /// first every Interrupt, in clip order, a nested timeline's where its clip stands in that
    /// order (after the clip's own task) and so on down: every task still running, this
    /// playback's too (at a completion by its lifetime every one of its own has finished; one
    /// that completes at a `fixed` end before a task clip's end cuts that task) — then the
    /// Dispose of every flow-scoped task of them all that began, in reverse order of Begin
    /// across them ([`Disposal`]).
    fn end_tasks(&mut self, snapshot: &Snapshot, events: &mut Vec<EventKind>) {
        let mut disposals = Vec::new();
        self.interrupt_tasks(snapshot, &mut Vec::new(), events, &mut disposals);
        events.extend(Disposal::in_reverse_order_of_begin(disposals));
    }

    /// The Interrupts of [`Playback::end_tasks`] for this playback, at `path` below the one
    /// that ends, and those of the timelines it plays nested now; their Disposes go to
    /// `disposals`. A timeline without task clips has only nested timelines to end, and they
    /// play in active clips: it looks at no other clip.
    fn interrupt_tasks(
        &mut self,
        snapshot: &Snapshot,
        path: &mut Vec<usize>,
        events: &mut Vec<EventKind>,
        disposals: &mut Vec<Disposal>,
    ) {
        let def = &snapshot.timelines[self.timeline];
        if def.lifetime.is_some() {
            for c in 0..def.clips.len() {
                self.lifecycle.interrupt(def, c, events);
                self.interrupt_nested_tasks(snapshot, c, path, events, disposals);
            }
        } else {
            for i in 0..self.active.len() {
                self.interrupt_nested_tasks(snapshot, self.active[i] as usize, path, events, disposals);
            }
        }
        self.lifecycle.dispose_into(def, path, disposals);
    }

    /// [`Playback::interrupt_tasks`] of the timeline clip `c` plays nested, if it plays now.
    fn interrupt_nested_tasks(
        &mut self,
        snapshot: &Snapshot,
        c: usize,
        path: &mut Vec<usize>,
        events: &mut Vec<EventKind>,
        disposals: &mut Vec<Disposal>,
    ) {
        if let Inner::Nested(nested) = &mut self.inner[c]
            && nested.activated
        {
            path.push(c);
            nested.interrupt_tasks(snapshot, path, events, disposals);
            path.pop();
        }
    }

    /// Takes clip `c` out of the mixers as it leaves the active set: weight and share 0, and
    /// its leaves' shares 0 in every channel, live for the graph to copy (a composition
    /// writes only the active clips' leaves); the timeline it plays nested, if any, leaves.
    fn disable(&mut self, snapshot: &Snapshot, c: usize, events: &mut Vec<EventKind>) {
        let def = &snapshot.timelines[self.timeline];
        self.enabled[c] = false;
        let count = self.layout.leaves;
        let mixer = self.layout.mixer(&mut self.numbers);
        mixer.clip_weights[c] = 0.0;
        mixer.clip_shares[c] = 0.0;
        for leaf in self.clip_leaves[c].clone() {
            mixer.shares.chunks_exact_mut(count).for_each(|channel| channel[leaf] = 0.0);
        }
        self.mark_clip_leaves_live(c);
        if let Inner::Nested(nested) = &mut self.inner[c] {
            nested.leave(snapshot, events);
        }
        events.push(EventKind::ClipDisable { clip: def.clips[c].name.clone() });
    }

    /// Fires the markers of the window from `from` (exclusive; `None`: the first window,
    /// from `start` inclusive, plus retroactive markers before it) to `to` (inclusive), in
    /// raw time, unrolling loops: the loop it starts in, at most [`MAX_UNROLLED_LOOPS`] whole
    /// loops (each a `timeline_looped` event and its markers), a `warning` naming how many
    /// more were folded, and the loop it ends in (its `timeline_looped` with the exact count).
    ///
    /// The window of a frame (`seek` is `None`) only fires: the frame's task lifecycle ran
    /// first. The window a seek jumps over (`seek`) fires its markers only with
    /// `fire_skipped`, but always logs `timeline_looped` (the count of passes goes on), and
    /// runs the tasks of each pass it leaves behind in time order: the frames of the pass that
    /// have not run, its markers, the end of the pass (its tasks' Interrupts and Disposes),
    /// then the next pass's `timeline_looped`; folded passes run no task. The tasks of the pass
    /// it lands in catch up at the next frame.
    fn fire_window(
        &mut self,
        snapshot: &Snapshot,
        from: Option<Ticks>,
        to: Ticks,
        seek: Option<SeekWindow>,
        events: &mut Vec<EventKind>,
    ) {
        let def = &snapshot.timelines[self.timeline];
        let markers = seek.is_none_or(|seek| seek.fire);
        let first = from.is_none();
        if first && markers {
            for (m, marker) in def.markers.iter().enumerate() {
                if marker.retroactive && marker.time < wrap(def, self.start) {
                    self.fire(def, m, events);
                }
            }
        }
        let from = from.unwrap_or(self.start);
        let d = def.duration;
        if def.wrap != WrapMode::Loop || d <= Ticks::ZERO {
            if markers {
                self.fire_range(def, from.min(d), to.min(d), first, events);
            }
            return;
        }
        let ((from_loop, from_pos), (to_loop, to_pos)) = (def.pass_at(from), def.pass_at(to));
        if from_loop == to_loop {
            if markers {
                self.fire_range(def, from_pos, to_pos, first, events);
            }
            return;
        }
        // The passes left behind that are unrolled end before this one; the last of them is
        // followed by the pass the window ends in.
        let unrolled_end = to_loop.min(from_loop + 1 + MAX_UNROLLED_LOOPS);
        let next = |pass: i64| if pass + 1 == unrolled_end { to_loop } else { pass + 1 };
        self.run_out_pass(snapshot, (from_loop, from_pos, first), next(from_loop), seek, events);
        for passed in from_loop + 1..unrolled_end {
            events.push(EventKind::TimelineLooped { timeline: def.name.clone(), count: passed as u64 });
            self.run_out_pass(snapshot, (passed, def.pass_start(passed), true), next(passed), seek, events);
        }
        let whole_loops = to_loop - from_loop - 1;
        if whole_loops > MAX_UNROLLED_LOOPS {
            let tasks = if seek.is_some() && def.lifetime.is_some() { ", marker or task" } else { " or marker" };
            let message = format!(
                "timeline `{}` looped {whole_loops} whole times in one frame or seek; the first {MAX_UNROLLED_LOOPS} were \
                 unrolled, the other {} folded (no timeline_looped{tasks} events for them)",
                def.name,
                whole_loops - MAX_UNROLLED_LOOPS
            );
            events.push(EventKind::Warning { message });
        }
        events.push(EventKind::TimelineLooped { timeline: def.name.clone(), count: to_loop as u64 });
        if markers {
            self.fire_range(def, def.pass_start(to_loop), to_pos, true, events);
        }
    }

    /// The part of a window ([`Playback::fire_window`]) in pass `pass` from time `from`
    /// (inclusive when `closed`) to its end, which `next` follows: a seek's runs the pass's
    /// frames that have not run first, and ends the pass after its markers.
    fn run_out_pass(
        &mut self,
        snapshot: &Snapshot,
        (pass, from, closed): (i64, Ticks, bool),
        next: i64,
        seek: Option<SeekWindow>,
        events: &mut Vec<EventKind>,
    ) {
        let def = &snapshot.timelines[self.timeline];
        if let Some(seek) = seek {
            let end = def.raw_at(pass, def.duration - Ticks(1));
            self.run_tasks(snapshot, end, seek.clock_frame, events);
        }
        if seek.is_none_or(|seek| seek.fire) {
            self.fire_range(def, from, def.duration, closed, events);
        }
        if seek.is_some() {
            self.end_pass(snapshot, next, events);
        }
    }

    /// Markers with `from < time ≤ to` (or `from ≤ time` when `closed`).
    fn fire_range(&mut self, def: &Timeline, from: Ticks, to: Ticks, closed: bool, events: &mut Vec<EventKind>) {
        let lo = def.markers.partition_point(|m| if closed { m.time < from } else { m.time <= from });
        let hi = def.markers.partition_point(|m| m.time <= to);
        for m in lo..hi.max(lo) {
            self.fire(def, m, events);
        }
    }

    fn fire(&mut self, def: &Timeline, m: usize, events: &mut Vec<EventKind>) {
        let marker = &def.markers[m];
        if marker.emit_once && self.emitted_once[m] {
            return;
        }
        self.emitted_once[m] = true;
        events.push(EventKind::Signal { name: marker.name.clone(), timeline: def.name.clone() });
    }

    /// Weights and local times at wrapped time `t` (REFERENCE §3.5). The mixers are composed
    /// again only when something they read changed — the active clips, a clip weight, or a
    /// clip with a runtime of its own (a tree, a nested timeline) — as trees cache their
    /// weights on their inputs (§2.7); the weights are computed again only outside the span
    /// where none of them changes (`settled`): on a plateau a playback only moves its local
    /// times. `def` is the playback's timeline in `snapshot`, which every caller has looked up.
    ///
    /// Always inlined, into [`Playback::advance`] above all: as a call, every awake frame saved
    /// and restored its registers twice (with the compositions' dispatch made small, the
    /// crowd's timeline slots ran 3.9% fewer instructions; taking `def` from the caller, 2.8%).
    #[inline(always)]
    fn evaluate(
        &mut self,
        (snapshot, def): (&Snapshot, &Timeline),
        params: &[ParamState],
        t: Ticks,
        nested_follow: NestedFollow,
        events: &mut Vec<EventKind>,
    ) {
        self.time = t;
        // The active clips change only at a clip's start or end: inside the steady span of the
        // last query there is nothing to ask the interval tree.
        let mut changed = !self.steady.contains(&t) && self.update_active((snapshot, params), t, events);
        // Inside the settled span every active clip keeps the weight it has.
        if !self.settled.contains(&t) {
            changed |= self.weigh(def, t);
        }
        if self.move_plain_times(def, t) {
            changed = true;
            self.move_inner_runtimes(t, (snapshot, params), nested_follow, events);
        }
        if changed {
            self.compose(def);
        }
    }

    /// Moves each active clip without a runtime of its own to its local time at `t`; returns
    /// whether an active clip has one (a tree, a nested timeline), left to
    /// [`Playback::move_inner_runtimes`]. A clip's local time is its own: the order in which
    /// clips move changes nothing, and a plain clip reads nothing of `inner`.
    ///
    /// Always inlined, with the local times indexed where the layout puts them: as a call that
    /// cut out the part first, the crowd ran 0.6% more instructions.
    #[inline(always)]
    fn move_plain_times(&mut self, def: &Timeline, t: Ticks) -> bool {
        let (times, numbers): (usize, &mut [f64]) = (self.layout.start(CLIP_TIMES), &mut self.numbers);
        let mut inner_runtimes = false;
        for &c in &self.active {
            let clip = &def.clips[c as usize];
            if clip.has_inner_runtime() {
                inner_runtimes = true;
            } else {
                numbers[times + c as usize] = clip.local_time_at(t);
            }
        }
        inner_runtimes
    }

    /// Moves each active clip with a runtime of its own to its local time at `t`, in active
    /// order, and its tree or nested timeline follows (the events in that order). Out of
    /// line: a plain clip has no runtime of its own.
    #[inline(never)]
    fn move_inner_runtimes(
        &mut self,
        t: Ticks,
        (snapshot, params): (&Snapshot, &[ParamState]),
        nested_follow: NestedFollow,
        events: &mut Vec<EventKind>,
    ) {
        let def = &snapshot.timelines[self.timeline];
        let times = self.layout.start(CLIP_TIMES);
        for i in 0..self.active.len() {
            let c = self.active[i] as usize;
            let clip = &def.clips[c];
            if clip.has_inner_runtime() {
                let time = clip.local_time_at(t);
                let previous = std::mem::replace(&mut self.numbers[times + c], time);
                self.follow_inner(snapshot, params, c, (previous, time), nested_follow, events);
            }
        }
    }

    /// Asks the interval tree for the active clips at `t`: clips that left are disabled, their
    /// time frozen where they left (`local(min(t, ext_end))`; a blend tree or nested timeline
    /// they play moves there first, as between frames: nothing fires, nothing runs), and clips
    /// that came are enabled; the steady span is that of the query and the settled span
    /// empty. Returns whether the active set changed. Out of line: most frames stay inside
    /// the steady span.
    #[inline(never)]
    fn update_active(
        &mut self,
        (snapshot, params): (&Snapshot, &[ParamState]),
        t: Ticks,
        events: &mut Vec<EventKind>,
    ) -> bool {
        let def = &snapshot.timelines[self.timeline];
        let mut changed = false;
        self.query.clear();
        def.tree.query(t, &mut self.query);
        self.query.sort_unstable();
        for i in 0..self.active.len() {
            let c = self.active[i] as usize;
            if self.query.binary_search(&(c as u32)).is_err() {
                changed = true;
                let clip = &def.clips[c];
                let time = clip.local_time_at(t.min(clip.ext_end));
                let previous = std::mem::replace(&mut self.numbers[self.layout.start(CLIP_TIMES) + c], time);
                if clip.has_inner_runtime() {
                    self.follow_inner(snapshot, params, c, (previous, time), NestedFollow::Hold, events);
                }
                self.disable(snapshot, c, events);
            }
        }
        for &c in &self.query {
            let c = c as usize;
            if !self.enabled[c] {
                self.enabled[c] = true;
                changed = true;
                events.push(EventKind::ClipEnable { clip: def.clips[c].name.clone() });
            }
        }
        std::mem::swap(&mut self.active, &mut self.query);
        self.steady = def.tree.steady_span(t);
        self.settled = NOT_STEADY;
        changed
    }

    /// Each active clip's weight at `t` (REFERENCE §3.3); the settled span becomes the
    /// intersection of their steady weight spans. Returns whether a weight changed.
    ///
    /// Always inlined, into [`Playback::evaluate`]: once that was inlined in turn, LLVM kept it
    /// a call on every frame that weighs.
    #[inline(always)]
    fn weigh(&mut self, def: &Timeline, t: Ticks) -> bool {
        let mut changed = false;
        let mut settled = Ticks(i64::MIN)..Ticks(i64::MAX);
        let (weights, numbers): (usize, &mut [f64]) = (self.layout.start(CLIP_WEIGHTS), &mut self.numbers);
        for &c in &self.active {
            let clip = &def.clips[c as usize];
            let super::Weighing { weight, steady } = clip.weigh(t);
            let previous = std::mem::replace(&mut numbers[weights + c as usize], weight);
            changed |= weight != previous;
            settled = settled.start.max(steady.start)..settled.end.min(steady.end);
        }
        self.settled = settled;
        changed
    }

    /// Clip `c`'s blend tree or nested timeline follows its local time from `previous` to
    /// `time`.
    fn follow_inner(
        &mut self,
        snapshot: &Snapshot,
        params: &[ParamState],
        c: usize,
        (previous, time): (f64, f64),
        nested_follow: NestedFollow,
        events: &mut Vec<EventKind>,
    ) {
        match &mut self.inner[c] {
            Inner::None => {}
            Inner::Tree(tree) => tree.follow(params, previous, time),
            Inner::Nested(nested) => {
                let clip = &snapshot.timelines[self.timeline].clips[c];
                let nested_def = &snapshot.timelines[nested.timeline];
                let local = Ticks::from_secs(time).unwrap_or(Ticks::ZERO).max(Ticks::ZERO);
                let source = format_args!("{}/{}/{}", self.lifecycle.source(), clip.name, nested_def.name);
                nested.follow(snapshot, local, nested_follow, source, events);
                // Of what the nested evaluation reports (its own nested timelines' markers and
                // tasks), all is the parent's to log but its clips' activity, which is its own
                // bookkeeping.
                let mut nested_events = Vec::new();
                let time = wrap(nested_def, local);
                nested.evaluate((snapshot, nested_def), params, time, nested_follow, &mut nested_events);
                events.extend(
                    nested_events
                        .into_iter()
                        .filter(|e| !matches!(e, EventKind::ClipEnable { .. } | EventKind::ClipDisable { .. })),
                );
            }
        }
    }

    /// NormalizeMixer children first (REFERENCE §3.6), then per-channel shares (§6), as
    /// [`Mixing`] says. Only active clips have weight, so the work is proportional to them (and
    /// to the number of layers), never to the number of clips.
    fn compose(&mut self, def: &Timeline) {
        match (self.mixing, &self.active[..]) {
            (Mixing::OneLayer, []) => self.compose_one_clip(def, None),
            (Mixing::OneLayer, &[c]) => self.compose_one_clip(def, Some(c as usize)),
            (Mixing::OneLayer, _) => self.compose_one_layer(def),
            (Mixing::General, _) => self.compose_general(def),
        }
    }

    /// [`Playback::compose`] for any timeline. Out of line, as
    /// [`Playback::compose_one_layer`]: inlined, their registers made the dispatch save six and
    /// reserve a large frame on every composition, also those of one clip.
    #[inline(never)]
    fn compose_general(&mut self, def: &Timeline) {
        let m = self.layout.mixer(&mut self.numbers);
        m.layer_raw.fill(0.0);
        let unmuted = |c: u32| def.clips[c as usize].layer.filter(|&l| !def.layers[l].muted);
        for &c in &self.active {
            if let Some(l) = unmuted(c) {
                m.layer_raw[l] += m.clip_weights[c as usize];
            }
        }
        for &c in &self.active {
            m.clip_shares[c as usize] =
                unmuted(c).map_or(0.0, |l| normalized(m.clip_weights[c as usize], m.layer_raw[l]));
        }
        mix_tracks(def, m.layer_raw, m.layer_inputs, m.track_outputs);
        // The active clips' leaves are written (those of clips that left were cleared by
        // `disable`); the graph rewrites them.
        let count = self.layout.leaves;
        for channel in 0..m.coverage.len() {
            let inputs = (&*m.track_outputs, &*m.layer_inputs);
            m.output[channel] = channel_layer_factors(def, channel, &self.layer_channels, inputs, m.layer_factors);
            let inner = |leaf: usize| inner_share(&self.leaves, &self.inner, leaf, channel);
            let shares = &mut m.shares[channel * count..][..count];
            let factors = (&*m.layer_factors, &*m.clip_shares);
            m.coverage[channel] = write_leaf_shares(def, &self.active, &self.clip_leaves, factors, inner, shares);
        }
        self.mark_active_leaves_live();
    }

    /// [`Playback::compose_general`] for a timeline of one track of one unmuted layer without a
    /// mask ([`Mixing::OneLayer`]): the same numbers, without the loops over tracks and layers
    /// and without masks to look up; the layer factor and the output weight are the same in
    /// every channel ([`OneLayerMix`]). Every active clip with a layer is on the one layer.
    /// Out of line (see [`Playback::compose_general`]).
    #[inline(never)]
    fn compose_one_layer(&mut self, def: &Timeline) {
        let m = self.layout.mixer(&mut self.numbers);
        let active: &[u32] = &self.active;
        let on_layer = |c: u32| def.clips[c as usize].layer.is_some();
        let mut sum = 0.0;
        for &c in active.iter().filter(|&&c| on_layer(c)) {
            sum += m.clip_weights[c as usize];
        }
        for &c in active {
            m.clip_shares[c as usize] = if on_layer(c) { normalized(m.clip_weights[c as usize], sum) } else { 0.0 };
        }
        let layer = OneLayerMix::of(sum);
        (m.layer_raw[0], m.layer_inputs[0], m.track_outputs[0], m.layer_factors[0]) =
            (layer.sum, layer.input, layer.sum, layer.factor);
        let count = self.layout.leaves;
        for channel in 0..m.coverage.len() {
            let inner = |leaf: usize| inner_share(&self.leaves, &self.inner, leaf, channel);
            let shares = &mut m.shares[channel * count..][..count];
            let factors = (&*m.layer_factors, &*m.clip_shares);
            m.coverage[channel] = write_leaf_shares(def, active, &self.clip_leaves, factors, inner, shares);
            m.output[channel] = layer.output;
        }
        self.mark_active_leaves_live();
    }

    /// [`Playback::compose_one_layer`] where at most one clip, `clip`, is active (a plain
    /// timeline whose clips do not overlap in time, on every frame): the same operations on that
    /// one clip — the layer's sum `0 + w` (+0 without a clip on the layer, and `0 + w` is not
    /// `w` for `w = −0`), its share `normalized(w, sum)`, and each channel's coverage `0 + Σ`
    /// of its leaves' shares in leaf order — with every part indexed where the layout puts it,
    /// without cutting the block or looping over the active set.
    ///
    /// Always inlined, into the frame that composes: as a call, it saved and restored six
    /// registers on each of the crowd hit's fourteen compositions (inlined, the crowd's
    /// timeline slots ran 2.6% fewer instructions).
    #[inline(always)]
    fn compose_one_clip(&mut self, def: &Timeline, clip: Option<usize>) {
        let (at, count) = (self.layout.starts, self.layout.leaves);
        let numbers: &mut [f64] = &mut self.numbers;
        let on_layer = clip.filter(|&c| def.clips[c].layer.is_some());
        let mix = OneClipMix::of(on_layer.map(|c| numbers[at[CLIP_WEIGHTS] + c]));
        if let Some(c) = clip {
            numbers[at[CLIP_SHARES] + c] = mix.share;
        }
        let layer = mix.layer;
        // The one layer's sum, input and factor and the one track's output follow each other
        // (asserted where the parts are numbered): one slice, one bounds check.
        let [raw, input, factor, track] = &mut numbers[at[LAYER_RAW]..at[SHARES]] else {
            unreachable!("one layer and one track have four mixer numbers")
        };
        (*raw, *input, *factor, *track) = (layer.sum, layer.input, layer.factor, layer.sum);
        // The clip's leaves, read once (they are live below); what every channel reads of the
        // clip: its share in the layer, its leaves and whether their inner shares are read.
        let clip_leaves = clip.map(|c| self.clip_leaves[c].clone());
        let placed = on_layer
            .zip(clip_leaves.clone())
            .map(|(c, leaves)| (mix.clip_share(), leaves, def.clips[c].has_inner_runtime()));
        for channel in 0..self.layout.channels {
            let coverage = match &placed {
                Some((clip_share, leaves, inner_runtime)) => {
                    let inner = |leaf: usize| inner_share(&self.leaves, &self.inner, leaf, channel);
                    let shares = &mut numbers[at[SHARES] + channel * count..][..count];
                    write_clip_leaf_shares(0.0, *clip_share, (leaves.clone(), *inner_runtime), inner, shares)
                }
                None => 0.0,
            };
            (numbers[at[COVERAGE] + channel], numbers[at[OUTPUT] + channel]) = (coverage, layer.output);
        }
        if let Some(leaves) = clip_leaves {
            self.live.mark_all(leaves);
        }
    }

    /// The active clips' leaves are live: their shares were just written (or zeroed). Always
    /// inlined: every composition ends with it (as a call, the crowd ran 0.2% more
    /// instructions).
    #[inline(always)]
    fn mark_active_leaves_live(&mut self) {
        for i in 0..self.active.len() {
            self.mark_clip_leaves_live(self.active[i] as usize);
        }
    }

    /// Clip `c`'s leaves are live: their shares were just written (or zeroed).
    #[inline(always)]
    fn mark_clip_leaves_live(&mut self, c: usize) {
        self.live.mark_all(self.clip_leaves[c].clone());
    }

    /// Forgets the live leaves once the graph has copied them.
    pub fn clear_live(&mut self) {
        self.live.clear();
    }

    /// The leaves of the active clips.
    pub fn active_leaves(&self) -> impl Iterator<Item = usize> + '_ {
        self.active.iter().flat_map(|&c| self.clip_leaves[c as usize].clone())
    }

    /// Leaves whose share may have changed since [`Playback::clear_live`] (active now, or
    /// active before); every other leaf's share is 0.
    pub fn live_leaves(&self) -> &[u32] {
        &self.live.list
    }
}

/// Leaves whose shares changed since the graph last copied them, each listed once.
#[derive(Clone, Debug)]
struct LiveLeaves {
    list: Indices,
    /// By leaf: whether it is in `list`.
    marked: Flags,
}

impl LiveLeaves {
    /// Marks `leaves` (a clip's), with their flags cut out once.
    #[inline(always)]
    fn mark_all(&mut self, leaves: std::ops::Range<usize>) {
        let LiveLeaves { list, marked } = self;
        for (leaf, marked) in leaves.clone().zip(&mut marked[leaves]) {
            if !std::mem::replace(marked, true) {
                list.push(leaf as u32);
            }
        }
    }

    fn clear(&mut self) {
        for &leaf in &self.list {
            self.marked[leaf as usize] = false;
        }
        self.list.clear();
    }
}

/// The track mixers (REFERENCE §3.6): per track, each layer's sum of clip weights clamped to
/// 1 (`layer_raw`), normalized among the track's layers (`layer_inputs`), and the track's
/// output weight `min(Σ layer sums, 1)`.
fn mix_tracks(def: &Timeline, layer_raw: &mut [f64], layer_inputs: &mut [f64], track_outputs: &mut [f64]) {
    for (t, track) in def.tracks.iter().enumerate() {
        // Every layer is in one track: each layer's sum is clamped to 1 here, once.
        let mut sum = 0.0;
        for &l in &track.layers {
            layer_raw[l] = layer_raw[l].min(1.0);
            sum += layer_raw[l];
        }
        for &l in &track.layers {
            layer_inputs[l] = normalized(layer_raw[l], sum);
        }
        track_outputs[t] = sum.min(1.0);
    }
}

/// [`mix_tracks`] and [`channel_layer_factors`] at once for a timeline of one track of one
/// unmuted layer without a mask ([`Mixing::OneLayer`]), with their operations on the one
/// layer and track but those that change nothing. The layer's sum `r` starts at +0.0, so it is
/// never −0.0, and `r' = min(r, 1)` is not NaN: the track's sum `0 + r'` is `r'`, its output
/// `min(r', 1)` is `r'`, the layer factor `1 · r' · 1 · input` is `r' · input` and the output
/// weight `1 − 1 · (1 − r')` is `1 − (1 − r')`, exactly.
#[derive(Copy, Clone)]
struct OneLayerMix {
    /// `r'`: the layer's sum clamped to 1, and the track's output.
    sum: f64,
    /// The layer's normalized input.
    input: f64,
    /// The layer factor, the same in every channel.
    factor: f64,
    /// The output weight of every channel.
    output: f64,
}

/// What the one layer of a one-layer timeline mixes when at most one clip is active on it
/// ([`Playback::compose_one_clip`]).
#[derive(Copy, Clone)]
struct OneClipMix {
    /// The clip's share in the layer, `normalized(w, sum)` (0 without a clip on the layer).
    share: f64,
    layer: OneLayerMix,
}

impl OneClipMix {
    /// The mix of the layer whose one active clip has mixer weight `weight` (`None`: no active
    /// clip on the layer): its sum is `0 + w` (+0 without one; `0 + w` is not `w` for
    /// `w = −0`).
    #[inline(always)]
    fn of(weight: Option<f64>) -> Self {
        let sum = weight.map_or(0.0, |w| 0.0 + w);
        OneClipMix { share: weight.map_or(0.0, |w| normalized(w, sum)), layer: OneLayerMix::of(sum) }
    }

    /// What one unit of the clip's motion is worth in every channel: `factor × share`.
    #[inline(always)]
    fn clip_share(self) -> f64 {
        self.layer.factor * self.share
    }
}

impl OneLayerMix {
    /// The mix of the one layer whose clips' weights add up to `raw`.
    fn of(raw: f64) -> Self {
        let sum = raw.min(1.0);
        let input = normalized(sum, sum);
        OneLayerMix { sum, input, factor: sum * input, output: 1.0 - (1.0 - sum) }
    }
}

/// One channel's layer factors (written to `layer_factors`: what one unit of clip share on
/// the layer is worth) and output weight. Later tracks override earlier ones; inside a track,
/// override layers take their normalized input weight of what is left below them, the base
/// layer sits on the default pose, and the track's output weight multiplies it all:
/// `factor(layer) = R_track × output_track × remaining_layer × input_layer`; a layer whose mask
/// leaves the channel out has factor 0. `mixer` is (track outputs, layer inputs).
fn channel_layer_factors(
    def: &Timeline,
    channel: usize,
    layer_channels: &[Option<Vec<usize>>],
    (track_outputs, layer_inputs): (&[f64], &[f64]),
    layer_factors: &mut [f64],
) -> f64 {
    let mut remaining_tracks = 1.0;
    let mut untouched_output = 1.0;
    for (t, track) in def.tracks.iter().enumerate().rev() {
        let mut remaining = 1.0;
        let mut touched = false;
        for &l in track.layers.iter().rev() {
            if layer_channels[l].as_ref().is_some_and(|m| !m.contains(&channel)) {
                layer_factors[l] = 0.0;
                continue;
            }
            touched = true;
            layer_factors[l] = remaining_tracks * track_outputs[t] * remaining * layer_inputs[l];
            remaining *= 1.0 - layer_inputs[l];
        }
        if touched {
            remaining_tracks *= 1.0 - track_outputs[t] * (1.0 - remaining);
            untouched_output *= 1.0 - track_outputs[t];
        }
    }
    1.0 - untouched_output
}

/// One channel's shares of the active clips' leaves (written to `shares`):
/// `share(leaf) = factor_layer × share_clip × inner_share`; returns their sum, the channel's
/// coverage. `mixer` is (layer factors, clip shares).
fn write_leaf_shares(
    def: &Timeline,
    active: &[u32],
    clip_leaves: &[std::ops::Range<usize>],
    (layer_factors, clip_shares): (&[f64], &[f64]),
    inner_share: impl Fn(usize) -> f64,
    shares: &mut [f64],
) -> f64 {
    let mut coverage = 0.0;
    for &c in active {
        let c = c as usize;
        let clip = &def.clips[c];
        let Some(l) = clip.layer else { continue };
        let clip_share = layer_factors[l] * clip_shares[c];
        let leaves = (clip_leaves[c].clone(), clip.has_inner_runtime());
        coverage = write_clip_leaf_shares(coverage, clip_share, leaves, &inner_share, shares);
    }
    coverage
}

/// The shares of one clip's leaves (written to `shares`): `clip_share × inner_share`;
/// returns `coverage` plus each of them in leaf order. `leaves` is the clip's leaves and
/// whether it has a runtime of its own ([`super::TimelineClip::has_inner_runtime`]).
fn write_clip_leaf_shares(
    mut coverage: f64,
    clip_share: f64,
    (leaves, inner_runtime): (std::ops::Range<usize>, bool),
    inner_share: impl Fn(usize) -> f64,
    shares: &mut [f64],
) -> f64 {
    for leaf in leaves {
        // A plain clip's one leaf has inner share 1 (its runtime data is not read).
        let share = if inner_runtime { clip_share * inner_share(leaf) } else { clip_share };
        shares[leaf] = share;
        coverage += share;
    }
    coverage
}

/// A leaf's share within its clip's motion: 1 for a clip, the tree weight, or the nested
/// timeline's share.
fn inner_share(leaves: &[PlaybackLeaf], inner: &[Inner], leaf: usize, channel: usize) -> f64 {
    match &leaves[leaf].kind {
        LeafKind::Clip { .. } => 1.0,
        LeafKind::Tree { clip, index } => match &inner[*clip] {
            Inner::Tree(tree) => tree.leaf_weights()[*index],
            _ => 0.0,
        },
        LeafKind::Nested { clip, index } => match &inner[*clip] {
            Inner::Nested(nested) => nested.shares(channel)[*index],
            _ => 0.0,
        },
    }
}

/// Borrowed mixer state of a playback, for printing the graph.
pub struct MixerView<'a> {
    pub clip_weights: &'a [f64],
    pub clip_shares: &'a [f64],
    pub clip_times: &'a [f64],
    pub layer_raw: &'a [f64],
    pub layer_inputs: &'a [f64],
    pub track_outputs: &'a [f64],
}

/// What a reload does with the runtime `inner` of a clip of `old_snapshot` that nothing takes
/// over: a nested timeline leaves ([`Playback::leave`]: its running tasks are interrupted).
fn leave_behind(inner: &Inner, old_snapshot: &Snapshot, events: &mut Vec<EventKind>) {
    if let Inner::Nested(nested) = inner {
        nested.clone().leave(old_snapshot, events);
    }
}

/// NormalizeMixer on one input: `w / sum` when `0 < sum < 1`, else `w`. A lone input (its
/// weight is the sum) is exactly 1 without the division.
fn normalized(weight: f64, sum: f64) -> f64 {
    if !(sum > 0.0 && sum < 1.0) {
        weight
    } else if weight == sum {
        1.0
    } else {
        weight / sum
    }
}

/// The most whole loops one marker window unrolls; the rest are folded into one `warning`.
/// A logic frame lasts at most 1 s (clock rates are 1 to 100 000 Hz) and a looping timeline
/// at least [`crate::timeline::MIN_LOOP_LENGTH`], so playing at the clock's pace never
/// folds: only a seek, or a nested timeline whose clip's local time runs faster than the
/// clock (a `time_scale` above 1) or jumps ahead, can.
pub const MAX_UNROLLED_LOOPS: i64 = 1000;

/// The first clock frame (at `rate` Hz) whose raw playback time, `anchor_time +
/// of_frame(frame − anchor)` for a playback anchored at `(anchor, anchor_time)`, reaches `t`.
fn first_frame_reaching((anchor, anchor_time): (FrameTime, Ticks), t: Ticks, rate: u32) -> i64 {
    anchor.frame.saturating_add((t - anchor_time).first_frame_from(rate))
}

/// Raw playback time → timeline time by the wrap mode: hold and none clamp at `D`; loop
/// wraps into the pass ([`Timeline::pass_at`]).
pub fn wrap(def: &Timeline, raw: Ticks) -> Ticks {
    def.pass_at(raw).1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::compile;
    use crate::config::SourceFile;

    /// `plain` is one track of one layer: clips that blend where they overlap, with linear,
    /// smoothstep and keyed mixes, a blend tree, and a nested timeline whose
    /// override layer is masked to `arms` (its shares differ by channel); it completes at its end.
    const LIBRARY: &str = r#"
[clips]
a = { length = 1.0, loop = true }
b = { length = 0.7 }
idle = { length = 2.0, loop = true }
walk = { length = 1.0, loop = true }

[parameters]
speed = { default = 0.3 }

[blend_trees.loco]
type = "1d"
parameter = "speed"
children = [{ motion = "idle", threshold = 0.0 }, { motion = "walk", threshold = 1.0 }]

[timelines.inner]
[[timelines.inner.tracks]]
name = "body"
clips = [{ start = 0.0, duration = 1.0, motion = "a" }]
[[timelines.inner.tracks.overrides]]
name = "arms"
mask = ["arms"]
clips = [{ start = 0.2, duration = 0.5, motion = "b", ease_in = 0.1, ease_out = 0.1 }]

[timelines.plain]
wrap = "none"
[[timelines.plain.tracks]]
name = "main"
clips = [
  { start = 0.0, duration = 1.0, motion = "a", ease_in = 0.2, mix_in_curve = "linear" },
  { start = 0.8, duration = 0.7, motion = "loco", ease_out = 0.3, mix_out_curve = [[0.0, 0.0], [0.5, 0.9], [1.0, 1.0]] },
  { start = 1.2, duration = 1.0, motion = "inner", post_extrapolation = "hold" },
]
"#;

    fn library() -> Snapshot {
        let compiled = compile(&[SourceFile { path: "p.toml".into(), text: LIBRARY.into() }]);
        compiled.snapshot.unwrap_or_else(|| panic!("{:?}", compiled.diagnostics))
    }

    fn bits(numbers: &[f64]) -> Vec<u64> {
        numbers.iter().map(|n| n.to_bits()).collect()
    }

    #[test]
    fn one_layer_mixing_gives_exactly_what_the_general_mixing_gives() {
        let snapshot = library();
        let timeline = snapshot.timeline_id("plain").unwrap();
        let params: Vec<ParamState> = snapshot.parameters.iter().map(ParamState::at_default).collect();
        let channels = ["body".to_string(), "arms".to_string()];
        let start = FrameTime { frame: 0, rate: 60 };
        let mut one_layer = Playback::new(&snapshot, timeline, &channels, start, Ticks::ZERO);
        assert_eq!(one_layer.mixing, Mixing::OneLayer);
        let mut general = one_layer.clone();
        general.mixing = Mixing::General;
        let (mut one_layer_events, mut general_events) = (Vec::new(), Vec::new());
        let (mut one_clip, mut blends, mut channels_differ) = (false, false, false);
        for frame in 1..=160 {
            let now = FrameTime { frame, rate: 60 };
            one_layer.advance(&snapshot, &params, now, &mut one_layer_events);
            general.advance(&snapshot, &params, now, &mut general_events);
            assert_eq!(bits(&one_layer.numbers), bits(&general.numbers), "frame {frame}");
            assert_eq!(one_layer.live_leaves(), general.live_leaves(), "frame {frame}");
            // At most one active clip composes through `compose_one_clip`, more through
            // `compose_one_layer`: both against the general path.
            one_clip |= one_layer.active.len() == 1;
            blends |= one_layer.active.len() > 1;
            channels_differ |= one_layer.shares(0) != one_layer.shares(1);
            one_layer.clear_live();
            general.clear_live();
        }
        assert_eq!(format!("{one_layer_events:?}"), format!("{general_events:?}"));
        assert!(one_clip && blends && channels_differ, "one clip, clips blending, channels told apart by a mask");
        assert_eq!(one_layer.state(), PlaybackState::Complete);
    }

    #[test]
    fn a_timeline_of_more_layers_mixes_in_general() {
        let snapshot = library();
        let inner = &snapshot.timelines[snapshot.timeline_id("inner").unwrap()];
        assert_eq!(Mixing::of(inner), Mixing::General);
    }
}
