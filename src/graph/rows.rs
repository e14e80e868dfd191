//! Rows: a frame over many actors whose graphs have one shape, run stage by stage over their
//! numbers laid side by side, instead of actor by actor through each actor's graph.
//!
//! Why: a crowd of thousands of actors no longer fits in cache, and a frame that walks each
//! actor's graph touches a dozen lines of it in six blocks (the actor, its parameters, its
//! layers, its tree's numbers, its graph's numbers, each playback) and decides the same
//! things (which layer is what, how many leaves) once per actor. Here the numbers a frame
//! changes of every actor of one `Layout` sit in one block, a row per actor, and a frame is
//! a few stages, each one loop over the rows with its decisions taken once: each tree
//! layer's frame, then each layer's composition, top layer first (`Stage`). An actor's own
//! graph is visited only while one of its timeline slots is awake (a playback plays).
//! Measured on the crowd: docs/crowd.md, "Rows".
//!
//! **Which graphs:** those of `Plan::OverridesInOnePass` (one channel, override layers
//! without masks, at most one layer that logs events) whose every layer plays a blend tree, a
//! clip or a timeline. Others (transition layers, masks, additive layers, several channels)
//! run actor by actor ([`Graph::step`]). Graphs of one layout share a `Group`.
//!
//! **Where the numbers are:** an actor in a row keeps there its layers' weights, its trees'
//! numbers and state ([`TreeState`]), its clips' times and its effective weights,
//! `<default>` and output weight; its graph keeps everything else (playbacks, names, what
//! it was built from), and its own copies of those numbers are stale. A reader gets the
//! graph with the row's numbers in it ([`Rows::graph`]); whatever changes a graph detaches
//! its row first ([`Rows::detach`]: the numbers go back into the graph, which holds them
//! until the next frame takes them back, [`Rows::rejoin`]).
//!
//! **Quiet frames:** an awake timeline slot whose next frames would only move its playback's
//! local times (no marker, loop or task; inside the span where its active clips hold), and
//! its weights only where its one active plain clip mixes in or out
//! ([`Playback::quiet_frames`](crate::timeline::playback::Playback::quiet_frames)), is not
//! visited during them (`Quiet`): where the weights hold, the row returns what the slot's
//! write returned at the visit that found them; where the clip mixes, the row computes the
//! clip's share, coverage and output weight with the playback's own functions
//! ([`ClipMixing::write`]) and holds them where the clip's weight holds. The graph's playback
//! runs the last skipped frame late (`TimelineSlot::catch_up`) before anything reads or
//! changes it and before a frame visits it again. On the crowd a hit is visited twice: the
//! frame of 0 s of its play and the frame that completes it; of the 35 frames between, the
//! row computes those of its mixes (11) and holds those of its plateau (24).
//!
//! **Plays in a row:** a play that restarts the playback of a row's timeline layer (the same
//! timeline, so the same layout) leaves the actor in its row: the slot restarts in the graph
//! and the row alone runs a frame of 0 s ([`Rows::restart_in_row`]), as the graph's own
//! evaluation would.
//!
//! **The same numbers and events:** a row runs the arithmetic of `Plan::OverridesInOnePass`
//! exactly: each tree's frame ([`step_trees`]), then top layer first each layer's write
//! scaled by `remaining × weight` (`write_tree`, `write_clip`, `TimelineSlot::write`),
//! `remaining ×= 1 − weight·min(coverage, 1)` and `untouched ×= 1 − weight·min(output, 1)`.
//! Trees log no events, so running every tree first changes no order; the one layer that
//! logs events runs where it runs in a graph's own frame. The caller logs each actor's
//! events in actor order ([`crate::session::Session::finish_frame`]).

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use super::{FrameStep, Graph, Plan, Source, TimelineSlot, clip_time_after, write_clip, write_tree};
use crate::blend::params::ParamTable;
use crate::blend::{TreeShape, TreeState, step_trees};
use crate::compile::{ClipId, Snapshot};
use crate::event::EventKind;
use crate::session::ActorId;
use crate::time::FrameTime;
use crate::timeline::TimelineId;
use crate::timeline::playback::{ClipMixing, QuietFrames};

/// Where a frame finds an actor's graph (the session's actors).
pub trait Graphs {
    fn graph(&self, actor: ActorId) -> &Graph;
    fn graph_mut(&mut self, actor: ActorId) -> &mut Graph;
}

/// What a frame of the rows reads and writes besides them.
pub struct Frame<'a, G: Graphs + ?Sized> {
    pub step: &'a FrameStep<'a>,
    /// Every actor's parameters.
    pub params: &'a ParamTable,
    /// Every actor's graph: an awake timeline slot's playback is there.
    pub graphs: &'a mut G,
    /// Where a playback's frame writes its events (kept empty between actors).
    pub events: &'a mut Vec<EventKind>,
    /// Each actor's events with its id, in its frame's order, the actors in no particular
    /// order.
    pub logged: &'a mut Vec<(ActorId, EventKind)>,
}

/// Every actor's place, and the rows of each layout.
#[derive(Clone, Debug, Default)]
pub struct Rows {
    /// By actor id.
    places: Vec<Place>,
    groups: Vec<Group>,
    /// Actors whose graphs changed since the last frame, their rows detached.
    detached: Vec<ActorId>,
    /// Actors whose graphs run on their own, in id order.
    own: Vec<ActorId>,
    /// How many frames the rows ran.
    frames: u64,
    /// By actor id, the frame count at which its graph last got its row's numbers: while it
    /// is the current one, the graph is up to date and lent as it is ([`Rows::graph`]).
    refreshed: Vec<u64>,
}

/// A `refreshed` frame count no frame reaches: the row's numbers changed since the graph last
/// got them, between frames ([`Rows::restart_in_row`]).
const STALE: u64 = u64::MAX;

/// Where an actor's frame runs.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Place {
    /// Its graph's own frame ([`Graph::step`]).
    Own,
    /// Row `row` of group `group`, which holds its numbers.
    Row { group: usize, row: usize },
    /// As `Row`, but its graph changed since the last frame and holds its numbers: the row
    /// takes them back at the next frame ([`Rows::rejoin`]).
    Detached { group: usize, row: usize },
}

/// The rows of the actors of one layout, each kind of number in a block of its own.
#[derive(Clone, Debug)]
struct Group {
    layout: Layout,
    /// Row by row, the actor it belongs to.
    actors: Vec<ActorId>,
    /// [`Layout::stride`] numbers per row: layer weights, each source's numbers, effective
    /// weights, `<default>` and output weight.
    numbers: Vec<f64>,
    /// Per tree layer, each row's tree state (clock and evaluation count).
    trees: Vec<Vec<TreeState>>,
    /// Per timeline layer, whether each row's timeline slot is awake (its graph's slot
    /// says so too; a frame reads this one and visits the graph only when it is set).
    awake: Vec<Vec<bool>>,
    /// Per timeline layer, each row's quiet frames: those an awake slot spends without a
    /// visit.
    quiet: Vec<Vec<Quiet>>,
    /// The actors of a timeline layer's awake rows, in order, while its stage runs; kept
    /// between frames, so that listing them allocates nothing.
    visits: Vec<ActorId>,
}

/// The quiet frames of a row's awake timeline slot ([`TimelineSlot::quiet_frames`]): a frame
/// before clock frame `until` whose scale is `scale` would only move the playback's local
/// times, or its one mixing clip's weight too. The row writes and returns what the frame would
/// without visiting the graph (`held`, `mixing`); the graph's playback runs the last frame it
/// skipped late (`skipped`) before anything reads or changes it ([`Group::load`]) or a frame
/// visits it again. (The frame of 0 s a row runs alone after a restart of its playback,
/// [`Rows::restart_in_row`], needs none: the restart makes the skipped frames moot.)
#[derive(Copy, Clone, Debug)]
struct Quiet {
    until: i64,
    scale: f64,
    /// Until which frame the weights hold: a frame before it writes nothing and returns what
    /// the frame that found them did.
    held: Held,
    /// The one clip whose weight follows its mixes: a frame from `held.until` on writes and
    /// returns what [`ClipMixing::write`] gives, and the weights hold from there on as long as
    /// it says. `None`: they hold until `until`.
    mixing: Option<ClipMixing>,
    /// The last frame the row skipped since the graph's playback last ran.
    skipped: Option<FrameTime>,
}

/// Weights that hold until clock frame `until`, and the coverage and output weight they give.
#[derive(Copy, Clone, Debug)]
struct Held {
    until: i64,
    coverage: f64,
    output: f64,
}

impl Quiet {
    /// Every frame visits.
    const NONE: Quiet = Quiet {
        until: i64::MIN,
        scale: f64::NAN,
        held: Held { until: i64::MIN, coverage: 0.0, output: 0.0 },
        mixing: None,
        skipped: None,
    };

    /// The quiet frames a visit at scale `scale` found, whose write returned `written`.
    fn found(frames: Option<QuietFrames>, scale: f64, written: Option<(f64, f64)>) -> Quiet {
        let (Some(QuietFrames { until, mixing }), Some((coverage, output))) = (frames, written) else {
            return Quiet::NONE;
        };
        let held = Held { until: if mixing.is_some() { i64::MIN } else { until }, coverage, output };
        Quiet { until, scale, held, mixing, skipped: None }
    }

    /// Whether the frame of `step` is quiet, at the scale it was found at (a frame of 0 s,
    /// which only evaluates, never is).
    fn holds(&self, step: &FrameStep) -> bool {
        step.dt > 0.0 && step.now.frame < self.until
    }

    /// Skips the quiet frame of `step`: writes into `column` (at the scale it was found at)
    /// and returns what its visit would.
    #[inline(always)]
    fn skip(&mut self, step: &FrameStep, column: &mut [f64]) -> (f64, f64) {
        self.skipped = Some(step.now);
        match &self.mixing {
            Some(mixing) if step.now.frame >= self.held.until => {
                let (written, until) = mixing.write(step.snapshot, step.now, column, self.scale);
                self.held = Held { until, coverage: written.0, output: written.1 };
                written
            }
            _ => (self.held.coverage, self.held.output),
        }
    }
}

/// How the numbers of a graph lie in a row. Graphs whose layers play the same kinds of
/// source (trees of one [`TreeShape`], the same clip) over the same leaves have one layout
/// ([`Layout::fits`]).
#[derive(Clone, Debug)]
struct Layout {
    /// Bottom layer first; layer `l`'s weight is the row's number `l`.
    layers: Vec<RowLayer>,
    /// Where the effective weights start (after the sources' numbers); `<default>` and the
    /// output weight follow them.
    effective: usize,
    /// How many leaves the graph has.
    leaves: usize,
    stride: usize,
    /// How many tree layers and timeline layers it has.
    trees: usize,
    timelines: usize,
}

#[derive(Clone, Debug)]
struct RowLayer {
    source: RowSource,
    /// The layer's leaves among the graph's.
    leaves: Range<usize>,
}

/// A layer's source as a row keeps it.
#[derive(Clone, Debug)]
enum RowSource {
    /// The tree's numbers at `numbers` in the row (its leaf weights first, at `weights`), its
    /// state in the group's tree states `state`.
    Tree { shape: Arc<TreeShape>, numbers: Range<usize>, weights: Range<usize>, state: usize },
    /// The clip's local time at `time` in the row.
    Clip { clip: ClipId, time: usize },
    /// The slot's awake flag in the group's awake flags `awake`; its playback stays in the
    /// graph.
    Timeline { awake: usize },
}

impl Layout {
    /// Whether `graph` runs in a row (see the module's documentation).
    fn takes(graph: &Graph) -> bool {
        graph.plan == Plan::OverridesInOnePass
            && graph.layers.iter().all(|layer| !matches!(layer.source, Source::Transitions(_)))
    }

    /// The layout of the numbers of `graph`, which runs in a row ([`Layout::takes`]).
    fn of(graph: &Graph) -> Layout {
        let mut at = graph.layers.len();
        let (mut trees, mut timelines) = (0, 0);
        let mut layers = Vec::with_capacity(graph.layers.len());
        for layer in &graph.layers {
            let source = match &layer.source {
                Source::BlendTree(tree) => {
                    let (count, leaves) = (tree.frame_state().0.len(), tree.shape().leaf_count());
                    trees += 1;
                    let (numbers, weights) = (at..at + count, at..at + leaves);
                    RowSource::Tree { shape: tree.shape().clone(), numbers, weights, state: trees - 1 }
                }
                Source::Clip(clip) => RowSource::Clip { clip: clip.clip, time: at },
                Source::Timeline(_) => {
                    timelines += 1;
                    RowSource::Timeline { awake: timelines - 1 }
                }
                Source::Transitions(_) => unreachable!("a graph that runs in a row"),
            };
            at += match &source {
                RowSource::Tree { numbers, .. } => numbers.len(),
                RowSource::Clip { .. } => 1,
                RowSource::Timeline { .. } => 0,
            };
            layers.push(RowLayer { source, leaves: layer.leaves.range() });
        }
        let leaves = leaf_count(graph);
        Layout { layers, effective: at, leaves, stride: at + leaves + 2, trees, timelines }
    }

    /// Whether `graph` runs in a row of this layout: what [`Layout::of`] would give, without
    /// building it (the sources' kinds and shapes decide where every number lies).
    fn fits(&self, graph: &Graph) -> bool {
        let same_source = |kept: &RowSource, source: &Source| match (kept, source) {
            (RowSource::Tree { shape, .. }, Source::BlendTree(tree)) => Arc::ptr_eq(shape, tree.shape()),
            (RowSource::Clip { clip, .. }, Source::Clip(c)) => *clip == c.clip,
            (RowSource::Timeline { .. }, Source::Timeline(_)) => true,
            _ => false,
        };
        graph.plan == Plan::OverridesInOnePass
            && leaf_count(graph) == self.leaves
            && graph.layers.len() == self.layers.len()
            && self
                .layers
                .iter()
                .zip(&graph.layers)
                .all(|(kept, layer)| kept.leaves == layer.leaves.range() && same_source(&kept.source, &layer.source))
    }

    /// Where the graph's `<default>` and output weight are in its numbers (after the effective
    /// and additive weights; the additive ones stay 0 in a graph of overrides only).
    fn graph_totals(&self) -> Range<usize> {
        2 * self.leaves..2 * self.leaves + 2
    }

    fn row_totals(&self) -> Range<usize> {
        self.effective + self.leaves..self.stride
    }
}

/// How many leaves `graph` has. They are listed layer by layer, so the top layer's last is
/// the graph's last: read from the layers, a play's check of its layout never reads the list
/// (it sits in a block no frame reads).
fn leaf_count(graph: &Graph) -> usize {
    graph.layers.last().map_or(0, |layer| layer.leaves.end as usize)
}

impl Group {
    /// A group of `layout` with room for `rows` rows.
    fn new(layout: Layout, rows: usize) -> Group {
        let trees = vec![Vec::with_capacity(rows); layout.trees];
        let (awake, quiet) =
            (vec![Vec::with_capacity(rows); layout.timelines], vec![Vec::with_capacity(rows); layout.timelines]);
        let (actors, numbers, visits) =
            (Vec::with_capacity(rows), Vec::with_capacity(rows * layout.stride), Vec::new());
        Group { layout, actors, numbers, trees, awake, quiet, visits }
    }

    /// Adds a row for `actor` with `graph`'s numbers; returns its index.
    fn push(&mut self, actor: ActorId, graph: &Graph) -> usize {
        self.actors.push(actor);
        self.numbers.resize(self.numbers.len() + self.layout.stride, 0.0);
        self.trees.iter_mut().for_each(|states| states.push(TreeState::default()));
        self.awake.iter_mut().for_each(|flags| flags.push(false));
        self.quiet.iter_mut().for_each(|quiet| quiet.push(Quiet::NONE));
        let row = self.actors.len() - 1;
        self.store(row, graph);
        row
    }

    /// Removes row `row`, the last row taking its place; returns the actor of the row that
    /// moved there, if one did.
    fn swap_remove(&mut self, row: usize) -> Option<ActorId> {
        let last = self.actors.len() - 1;
        let stride = self.layout.stride;
        if row != last {
            self.numbers.copy_within(last * stride..(last + 1) * stride, row * stride);
        }
        self.numbers.truncate(last * stride);
        self.trees.iter_mut().for_each(|states| _ = states.swap_remove(row));
        self.awake.iter_mut().for_each(|flags| _ = flags.swap_remove(row));
        self.quiet.iter_mut().for_each(|quiet| _ = quiet.swap_remove(row));
        self.actors.swap_remove(row);
        (row != last).then(|| self.actors[row])
    }

    /// Copies `graph`'s frame numbers into row `row`.
    fn store(&mut self, row: usize, graph: &Graph) {
        let layout = &self.layout;
        let numbers = &mut self.numbers[row * layout.stride..][..layout.stride];
        for (l, (kept, layer)) in layout.layers.iter().zip(&graph.layers).enumerate() {
            numbers[l] = layer.weight;
            match (&kept.source, &layer.source) {
                (RowSource::Tree { numbers: at, state, .. }, Source::BlendTree(tree)) => {
                    let (tree_numbers, tree_state) = tree.frame_state();
                    numbers[at.clone()].copy_from_slice(tree_numbers);
                    self.trees[*state][row] = tree_state;
                }
                (RowSource::Clip { time, .. }, Source::Clip(clip)) => numbers[*time] = clip.time,
                (RowSource::Timeline { awake }, Source::Timeline(slot)) => {
                    self.awake[*awake][row] = slot.awake;
                    self.quiet[*awake][row] = Quiet::NONE;
                }
                _ => unreachable!("a graph of the group's layout"),
            }
        }
        let effective = layout.effective..layout.effective + layout.leaves;
        numbers[effective].copy_from_slice(&graph.numbers[..layout.leaves]);
        numbers[layout.row_totals()].copy_from_slice(&graph.numbers[layout.graph_totals()]);
    }

    /// Copies row `row`'s numbers into `graph`, whose layout is the group's (the awake flags
    /// stay: the graph's slots keep them too), and runs late the quiet frame each of its slots
    /// skipped last, on `snapshot` (the one the playbacks play on: [`Group::run_skipped`]).
    fn load(&self, row: usize, graph: &mut Graph, snapshot: &Snapshot) {
        let layout = &self.layout;
        let numbers = &self.numbers[row * layout.stride..][..layout.stride];
        for (l, (kept, layer)) in layout.layers.iter().zip(&mut graph.layers).enumerate() {
            layer.weight = numbers[l];
            match (&kept.source, &mut layer.source) {
                (RowSource::Tree { numbers: at, state, .. }, Source::BlendTree(tree)) => {
                    tree.set_frame_state(&numbers[at.clone()], self.trees[*state][row]);
                }
                (RowSource::Clip { time, .. }, Source::Clip(clip)) => clip.time = numbers[*time],
                (RowSource::Timeline { .. }, Source::Timeline(_)) => {}
                _ => unreachable!("a graph of the group's layout"),
            }
        }
        let effective = layout.effective..layout.effective + layout.leaves;
        graph.numbers[..layout.leaves].copy_from_slice(&numbers[effective]);
        graph.numbers[layout.graph_totals()].copy_from_slice(&numbers[layout.row_totals()]);
        self.run_skipped(row, graph, snapshot);
    }

    /// Runs late in `graph` the quiet frame each of row `row`'s timeline slots skipped last.
    fn run_skipped(&self, row: usize, graph: &mut Graph, snapshot: &Snapshot) {
        for (kept, layer) in self.layout.layers.iter().zip(&mut graph.layers) {
            if let (RowSource::Timeline { awake }, Source::Timeline(slot)) = (&kept.source, &mut layer.source)
                && let Some(now) = self.quiet[*awake][row].skipped
            {
                slot.catch_up(snapshot, now);
            }
        }
    }

    /// Row `row`'s layer `l` starts over, as [`Graph::play`] restarts its playback: its leaves'
    /// effective weights are 0 until written again, as the graph's, and its slot is awake,
    /// without quiet frames. (The quiet frames it skipped are moot: the playback starts over
    /// too, and the next frame, which only evaluates, visits it.)
    fn restart_layer(&mut self, row: usize, l: usize) {
        let layout = &self.layout;
        let numbers = &mut self.numbers[row * layout.stride..][..layout.stride];
        let leaves = &layout.layers[l].leaves;
        numbers[layout.effective + leaves.start..layout.effective + leaves.end].fill(0.0);
        if let RowSource::Timeline { awake } = layout.layers[l].source {
            self.awake[awake][row] = true;
            self.quiet[awake][row] = Quiet::NONE;
        }
    }

    /// Row `row`'s graph has run the frames it skipped ([`Group::load`]).
    fn caught_up(&mut self, row: usize) {
        self.quiet.iter_mut().for_each(|quiet| quiet[row].skipped = None);
    }

    /// One logic frame of rows `rows`: each tree layer's frame over the rows, then each
    /// layer's composition, top layer first (see the module's documentation).
    fn run_frame<G: Graphs + ?Sized>(&mut self, frame: &mut Frame<G>, rows: Range<usize>) {
        let Frame { step, params, graphs, events, logged } = frame;
        let Group { layout, actors, numbers, trees, awake, quiet, visits } = self;
        let (actors, numbers) =
            (&actors[rows.clone()], &mut numbers[rows.start * layout.stride..rows.end * layout.stride]);
        for layer in &layout.layers {
            let RowSource::Tree { shape, numbers: at, state, .. } = &layer.source else { continue };
            // Moved into the loop's closure by value, where they stay in registers.
            let (at, params) = (at.clone(), params.rows());
            let trees = numbers.chunks_exact_mut(layout.stride).zip(&mut trees[*state][rows.clone()]).zip(actors);
            let trees = trees.map(move |((numbers, tree), &actor)| (&mut numbers[at.clone()], tree, params.of(actor)));
            step_trees(shape, trees, step.dt);
        }
        let count = layout.layers.len();
        for (l, layer) in layout.layers.iter().enumerate().rev() {
            let stage = Stage { layout, layer: l, first: l + 1 == count, last: l == 0, rows: rows.start };
            match &layer.source {
                RowSource::Tree { weights, .. } => {
                    // By value in the closures, where it stays in a register.
                    let weights = weights.clone();
                    let at = weights.start;
                    match weights.len() {
                        2 => stage
                            .run(numbers, move |_, head, column, scale| write_tree_sized::<2>(head, at, column, scale)),
                        3 => stage
                            .run(numbers, move |_, head, column, scale| write_tree_sized::<3>(head, at, column, scale)),
                        4 => stage
                            .run(numbers, move |_, head, column, scale| write_tree_sized::<4>(head, at, column, scale)),
                        _ => stage.run(numbers, move |_, head, column, scale| {
                            Some(write_tree(&head[weights.clone()], column, scale))
                        }),
                    }
                }
                RowSource::Clip { clip, time } => stage.run(numbers, |_, head, column, scale| {
                    head[*time] = clip_time_after(step.snapshot, *clip, head[*time], step.dt);
                    Some(write_clip(column, scale))
                }),
                RowSource::Timeline { awake: at } => {
                    // Slices moved into the closure, where they stay in registers.
                    let (awake, quiet, now) = (&mut awake[*at][..], &mut quiet[*at][..], step.now);
                    visits.clear();
                    let listed = awake[rows.clone()].iter().zip(&quiet[rows.clone()]).zip(actors);
                    let due = listed.filter(|((awake, quiet), _)| **awake && !quiet.holds(step));
                    visits.extend(due.map(|(_, &actor)| actor));
                    let mut upcoming = visits.iter().copied();
                    let (graphs, events, logged) = (&mut **graphs, &mut **events, &mut **logged);
                    let (step, params): (&FrameStep, &ParamTable) = (step, params);
                    stage.run(numbers, move |row, _, column, scale| {
                        let (awake, quiet) = (&mut awake[row], &mut quiet[row]);
                        if !*awake {
                            return None;
                        }
                        let actor = if !quiet.holds(step) {
                            prefetch_visits(&*graphs, upcoming.clone(), l);
                            upcoming.next().expect("an awake row that is not quiet is listed")
                        } else if scale == quiet.scale {
                            return Some(quiet.skip(step, column));
                        } else {
                            // Quiet, but the layers above changed its scale: a visit not listed.
                            actors[row - rows.start]
                        };
                        let Source::Timeline(slot) = &mut graphs.graph_mut(actor).layers[l].source else {
                            unreachable!("a timeline layer")
                        };
                        if let Some(skipped) = quiet.skipped {
                            slot.catch_up(step.snapshot, skipped);
                        }
                        let written = slot.update_and_write(step, params.of(actor), events, column, scale);
                        logged.extend(events.drain(..).map(|kind| (actor, kind)));
                        *awake = slot.awake;
                        *quiet = Quiet::found(slot.quiet_frames(step.snapshot, now), scale, written);
                        written
                    })
                }
            }
        }
    }
}

/// While the timeline stage of layer `l` visits the first of the actors `upcoming` (those of
/// the awake rows from here on, in order), asks for what the visits after it read (a hint:
/// results never depend on it): the graph of the actor 8 visits ahead, its timeline layer 4
/// visits ahead, and the part of its playback a frame reads 2 visits ahead, each asked for
/// once the one before it had time to arrive. The visits' memory is scattered (every actor's
/// own blocks), and waiting for it one level after another cost the crowd at 10 000 actors
/// more than the rows saved (docs/crowd.md, "Rows").
#[inline(always)]
fn prefetch_visits(graphs: &(impl Graphs + ?Sized), mut upcoming: impl Iterator<Item = ActorId>, l: usize) {
    let (Some(soon), Some(later), Some(latest)) = (upcoming.nth(2), upcoming.nth(1), upcoming.nth(3)) else {
        return;
    };
    if let Source::Timeline(TimelineSlot { playback: Some(playback), .. }) = &graphs.graph(soon).layers[l].source {
        playback.prefetch_frame();
    }
    crate::prefetch::soon_all(&graphs.graph(later).layers[l]);
    crate::prefetch::soon(graphs.graph(latest));
}

/// [`write_tree`] of a tree of `N` leaves, whose weights start at `at` in `head`: the pass
/// over the leaves unrolled, without bounds checks.
#[inline(always)]
fn write_tree_sized<const N: usize>(head: &[f64], at: usize, column: &mut [f64], scale: f64) -> Option<(f64, f64)> {
    let (Some(shares), Some(column)) = (head[at..].first_chunk::<N>(), column.first_chunk_mut::<N>()) else {
        unreachable!("a tree of {N} leaves")
    };
    Some(write_tree(shares, column, scale))
}

/// One layer's composition over every row of a group, top layer first (REFERENCE §6): its
/// leaves written at `remaining × weight`, then `remaining ×= 1 − weight·min(coverage, 1)`
/// and `untouched ×= 1 − weight·min(output, 1)`. Between layers a row keeps `remaining` and
/// `untouched` where its `<default>` and output weight go: the top layer starts them at 1,
/// the bottom layer leaves `<default> = remaining` and `output = 1 − untouched`, the order of
/// operations of a graph's own frame, so the same bits.
struct Stage<'a> {
    layout: &'a Layout,
    layer: usize,
    first: bool,
    last: bool,
    /// The group's row the numbers it runs over start at.
    rows: usize,
}

impl Stage<'_> {
    /// Runs the stage; `write(row, head, column, scale)` writes the layer's leaves of row
    /// `row` into `column` (its leaves' effective weights) at `scale`, from `head` (the row's
    /// weights and sources' numbers), and returns its coverage and output weight (`None` for
    /// a source that is asleep).
    #[inline(always)]
    fn run(
        &self,
        numbers: &mut [f64],
        mut write: impl FnMut(usize, &mut [f64], &mut [f64], f64) -> Option<(f64, f64)>,
    ) {
        let Stage { layout, layer, first, last, rows } = *self;
        // Out of the layout, so that the loop keeps them in registers.
        let (leaves, stride, at, count) =
            (layout.layers[layer].leaves.clone(), layout.stride, layout.effective, layout.leaves);
        for (row, numbers) in (rows..).zip(numbers.chunks_exact_mut(stride)) {
            let (head, tail) = numbers.split_at_mut(at);
            let (effective, totals) = tail.split_at_mut(count);
            let Some([remaining, untouched]) = totals.first_chunk_mut::<2>() else { unreachable!("two totals") };
            if first {
                (*remaining, *untouched) = (1.0, 1.0);
            }
            let weight = head[layer];
            if let Some((coverage, output)) = write(row, head, &mut effective[leaves.clone()], *remaining * weight) {
                *remaining *= 1.0 - weight * coverage.min(1.0);
                *untouched *= 1.0 - weight * output.min(1.0);
            }
            if last {
                *untouched = 1.0 - *untouched;
            }
        }
    }
}

impl Rows {
    /// Takes actor `actor` (the next id, or one placed before) with its graph: into a row of
    /// its layout, or to run on its own.
    pub fn place(&mut self, actor: ActorId, graph: &Graph) {
        if actor == self.places.len() {
            self.places.push(Place::Own);
            self.refreshed.push(self.frames);
        }
        // The row starts from the graph's numbers.
        self.refreshed[actor] = self.frames;
        if let Ok(at) = self.own.binary_search(&actor) {
            self.own.remove(at);
        }
        self.places[actor] = if Layout::takes(graph) {
            let group = match self.groups.iter().position(|g| g.layout.fits(graph)) {
                Some(group) => group,
                None => {
                    // Room for as many rows as the largest group has: a new layout is most
                    // often a crowd's, its actors moving over one by one (each one's first
                    // play of a timeline), and rows that never move as the group grows
                    // spare the frames that move them copies into memory not used yet.
                    let rows = self.groups.iter().map(|g| g.actors.len()).max().unwrap_or(0);
                    self.groups.push(Group::new(Layout::of(graph), rows));
                    self.groups.len() - 1
                }
            };
            Place::Row { group, row: self.groups[group].push(actor, graph) }
        } else {
            if let Err(at) = self.own.binary_search(&actor) {
                self.own.insert(at, actor);
            }
            Place::Own
        };
    }

    /// Actor `actor`'s graph as a frame left it: its own, or a copy with its row's numbers
    /// while they are newer than the graph's ([`Rows::refresh`] makes them the graph's).
    pub fn graph<'g>(&self, actor: ActorId, graph: &'g Graph, snapshot: &Snapshot) -> Cow<'g, Graph> {
        match self.places[actor] {
            Place::Row { group, row } if self.refreshed[actor] != self.frames => {
                let mut copy = graph.clone();
                self.groups[group].load(row, &mut copy, snapshot);
                Cow::Owned(copy)
            }
            Place::Own | Place::Row { .. } | Place::Detached { .. } => Cow::Borrowed(graph),
        }
    }

    /// Gives actor `actor`'s graph its row's numbers, so that [`Rows::graph`] lends it until
    /// the next frame instead of copying it (a copy costs what the graph and its playbacks
    /// weigh, a refresh what the row does).
    pub fn refresh(&mut self, actor: ActorId, graph: &mut Graph, snapshot: &Snapshot) {
        if let Place::Row { group, row } = self.places[actor]
            && self.refreshed[actor] != self.frames
        {
            self.groups[group].load(row, graph, snapshot);
            self.groups[group].caught_up(row);
            self.refreshed[actor] = self.frames;
        }
    }

    /// For an actor in a row whose timeline layer `layer` has a playback of `timeline`:
    /// `play` restarts it there ([`Graph::play`]: the same leaves, so the same layout), its
    /// events to `frame.events`, then the row alone runs a frame of `frame.step` (0 s: it
    /// only evaluates), as [`Graph::update`] would run the graph: those events and the frame's
    /// go to `frame.logged` in order, once the slot is visited (an awake slot always is). `None`, and nothing done, for any
    /// other actor, which [`Rows::detach`] first.
    ///
    /// The row keeps its numbers: a play costs what the playback and the row do, where
    /// detaching copied the row into the graph, ran the graph's own frame and copied it back
    /// at the next frame (on the crowd at 10 000 actors, where each of these blocks has left
    /// the cache by the next hit: docs/crowd.md, "Plays in rows").
    pub fn restart_in_row<G: Graphs + ?Sized, R>(
        &mut self,
        actor: ActorId,
        (layer, timeline): (usize, TimelineId),
        mut frame: Frame<G>,
        play: impl FnOnce(&mut Graph, &mut Vec<EventKind>) -> R,
    ) -> Option<R> {
        let Place::Row { group, row } = self.places[actor] else { return None };
        let graph = frame.graphs.graph_mut(actor);
        if !graph.restarts_on_play(layer, timeline) {
            return None;
        }
        let group = &mut self.groups[group];
        let played = play(graph, frame.events);
        group.restart_layer(row, layer);
        group.run_frame(&mut frame, row..row + 1);
        self.refreshed[actor] = STALE;
        Some(played)
    }

    /// Gives actor `actor`'s graph its row's numbers before something changes it: the graph
    /// holds them until the next frame ([`Rows::rejoin`]).
    pub fn detach(&mut self, actor: ActorId, graph: &mut Graph, snapshot: &Snapshot) {
        if let Place::Row { group, row } = self.places[actor] {
            self.groups[group].load(row, graph, snapshot);
            self.groups[group].caught_up(row);
            self.places[actor] = Place::Detached { group, row };
            self.detached.push(actor);
        }
    }

    /// Every detached actor back into its row, or into another group's (or its own frame)
    /// when its graph changed layout.
    pub fn rejoin(&mut self, graphs: &mut (impl Graphs + ?Sized)) {
        for actor in std::mem::take(&mut self.detached) {
            let Place::Detached { group, row } = self.places[actor] else { unreachable!("a detached actor") };
            let graph = graphs.graph_mut(actor);
            if self.groups[group].layout.fits(graph) {
                self.groups[group].store(row, graph);
                self.places[actor] = Place::Row { group, row };
                continue;
            }
            if let Some(moved) = self.groups[group].swap_remove(row) {
                self.places[moved] = match self.places[moved] {
                    Place::Detached { .. } => Place::Detached { group, row },
                    _ => Place::Row { group, row },
                };
            }
            self.place(actor, graph);
        }
    }

    /// Gives every actor in a row its numbers back and empties the rows: every actor runs
    /// on its own until placed again (a reload rebuilds the graphs).
    pub fn release_all(&mut self, graphs: &mut (impl Graphs + ?Sized), snapshot: &Snapshot) {
        let frames = self.frames;
        for actor in 0..self.places.len() {
            if let Place::Row { group, row } = self.places[actor] {
                self.groups[group].load(row, graphs.graph_mut(actor), snapshot);
            }
        }
        *self = Rows { frames, ..Rows::default() };
    }

    /// The actors whose graphs run on their own ([`Graph::step`]), in id order.
    pub fn own(&self) -> &[ActorId] {
        &self.own
    }

    /// One logic frame of every actor in a row (detached ones must have rejoined).
    pub fn run_frame<G: Graphs + ?Sized>(&mut self, mut frame: Frame<G>) {
        debug_assert!(self.detached.is_empty(), "detached rows rejoin before a frame");
        debug_assert!(frame.step.dt > 0.0, "a frame of the rows advances (quiet frames rely on it)");
        self.frames += 1;
        // A group whose actors all left (a play that changed their layout) stays, empty.
        for group in self.groups.iter_mut().filter(|group| !group.actors.is_empty()) {
            let rows = 0..group.actors.len();
            group.run_frame(&mut frame, rows);
        }
    }
}
