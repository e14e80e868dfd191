//! Compile: locally valid definitions from every loaded file → one read-only [`Snapshot`].
//!
//! Here live the checks that need the whole library (unique names across files, references
//! to clips, trees and parameters, reference cycles) and the derived fields (children sorted
//! by threshold, names resolved to indices). A snapshot is built only when there is no
//! error, so a bad edit can never replace a good library.

use std::collections::{BTreeMap, BTreeSet};
use std::f64::consts::PI;
use std::sync::Arc;

mod inputs;
mod timeline;
pub(crate) use timeline::mask_hint;

use toml::Spanned;

use crate::blend::TreeShape;
use crate::blend::freeform_cartesian::FreeformCartesian;
use crate::blend::freeform_directional::FreeformDirectional;
use crate::blend::geometry::{ORIGIN, Point};
use crate::blend::one_d;
use crate::blend::simple_directional::{self, SimpleDirectional};
use crate::blend::triangulated::Triangulated;
use crate::config::raw::{BlendKind, RawBlendTree, RawChild, SyncMode};
use crate::config::{
    Diagnostic, Named, Namespace, ParsedFile, SourceFile, differ_in_one_short_word, parse_file, suggestion,
};
use crate::input::InputDef;
use crate::timeline::{Timeline, TimelineId};

/// The most leaves a blend tree may have once its nested trees are multiplied out: every
/// child that plays a clip is a leaf, and every child that plays a tree adds all of that
/// tree's leaves (a tree played by two children, twice). Each instance keeps numbers per leaf.
pub const MAX_TREE_LEAVES: u64 = 4096;

/// How deep blend trees, and timelines, may nest: a tree that plays only clips (a timeline
/// that plays no timeline) is 0 deep, one that plays it 1 deep, and so on.
pub const MAX_NESTING_DEPTH: u64 = 32;

pub type ClipId = usize;
pub type TreeId = usize;
pub type ParamId = usize;
pub type GraphId = usize;

/// A motion of the catalog.
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    pub name: String,
    /// Seconds, > 0.
    pub length: f64,
    pub looping: bool,
}

impl Clip {
    /// See [`Placement::place`].
    pub fn place(&self, t: f64) -> f64 {
        self.placement().place(t)
    }

    pub fn placement(&self) -> Placement {
        Placement { length: self.length, looping: self.looping }
    }
}

/// What placing a local time on a clip needs, small enough to keep next to the numbers a
/// frame reads.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Placement {
    pub length: f64,
    pub looping: bool,
}

/// Half a tick (REFERENCE §1), in seconds: a local time this close below a clip's end is at
/// its end. Local times in blend trees and clip layers are sums of frame lengths (`1/30` is
/// not a binary fraction), so after a whole loop they fall a few ulps short of the length:
/// without this a looping clip read `0.99999999999999944` (printed `1.000000`) where it
/// should read 0, and the error grew from loop to loop. Times closer than half a tick are one
/// tick time, so this moves no time a tick could tell apart.
pub const AT_END: f64 = 0.5e-12;

impl Placement {
    /// Local time `t` placed on the clip: a looping clip wraps it into `[0, length)`
    /// (`t mod length`), a one-shot clamps it to `[0, length]`; a time within [`AT_END`] of
    /// the end (below it, or of a whole number of lengths) is at the end: 0 for a loop, the
    /// length for a one-shot. A time that passed the end once (the usual step) wraps by one
    /// subtraction, which is exact there and equal to the remainder.
    pub fn place(self, t: f64) -> f64 {
        let length = self.length;
        let end = length - AT_END;
        if !self.looping {
            if t >= end { length } else { t.clamp(0.0, length) }
        } else if (0.0..end).contains(&t) {
            t
        } else if t >= end && t < 2.0 * length - AT_END {
            (t - length).max(0.0)
        } else {
            let r = t.rem_euclid(length);
            if r >= end { 0.0 } else { r }
        }
    }
}

/// A parameter with its settings (REFERENCE §2.7).
#[derive(Clone, Debug, PartialEq)]
pub struct Parameter {
    pub name: String,
    pub default: f64,
    /// SmoothDamp time in seconds, as written; `None` (no `smooth_time` written) = no
    /// smoothing: the parameter is at its value once set. Any written time smooths, 0 too:
    /// SmoothDamp takes `max(1e-4, smooth_time)` (REFERENCE §2.7).
    pub smooth_time: Option<f64>,
    /// SmoothDamp maximum speed; ∞ when not set.
    pub max_speed: f64,
    pub dead_zone: f64,
    /// Piecewise-linear remap points with strictly increasing inputs; empty = identity.
    pub curve: Vec<(f64, f64)>,
}

/// What a blend-tree child plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Motion {
    Clip(ClipId),
    Tree(TreeId),
}

/// Where a tree's children sit in parameter space, by tree type, with what the weight math
/// needs precomputed (normalized directions, band vectors, triangles).
#[derive(Clone, Debug, PartialEq)]
pub enum Layout {
    /// `1d`: thresholds ascending; children are sorted by threshold (stable).
    OneD { thresholds: one_d::Thresholds },
    /// `2d_simple_directional`: children in file order.
    SimpleDirectional(SimpleDirectional),
    /// `2d_freeform_cartesian`: children in file order.
    FreeformCartesian(FreeformCartesian),
    /// `2d_freeform_directional`: children in file order.
    FreeformDirectional(FreeformDirectional),
    /// `2d_triangulated`: children in file order; the triangles given or computed here.
    Triangulated(Triangulated),
    /// `direct`: children in file order, each reading the parameter at its index.
    Direct { normalize: bool },
}

/// A compiled blend tree.
#[derive(Clone, Debug, PartialEq)]
pub struct BlendTree {
    pub name: String,
    pub kind: BlendKind,
    /// The parameters it reads, in order: `[x]` for 1d, `[x, y]` for the 2D types, one per
    /// child for direct.
    pub parameters: Vec<ParamId>,
    /// What each child plays, in layout order.
    pub children: Vec<Motion>,
    pub layout: Layout,
    pub sync: SyncMode,
}

/// Any named asset of the library.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Asset {
    Clip(ClipId),
    BlendTree(TreeId),
    Timeline(TimelineId),
    Graph(GraphId),
}

/// What a graph layer plays.
#[derive(Clone, Debug, PartialEq)]
pub enum LayerSource {
    BlendTree(TreeId),
    Clip(ClipId),
    /// A timeline slot; with `autoplay` it starts playing at spawn.
    Timeline {
        timeline: TimelineId,
        autoplay: bool,
    },
    /// A transition layer resting in state `initial` (a clip or blend tree name); fades report
    /// completion `completion_delay` frames after they reach 1.
    Transitions {
        initial: String,
        completion_delay: u64,
    },
}

/// A compiled graph layer.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerDef {
    pub name: String,
    pub source: LayerSource,
    pub weight: f64,
    /// Channel indices; `None` = all channels.
    pub mask: Option<Vec<usize>>,
    pub additive: bool,
}

/// A compiled `[graphs.NAME]`: layers (bottom first) over named channels.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphDef {
    pub name: String,
    pub channels: Vec<String>,
    pub layers: Vec<LayerDef>,
}

/// The read-only library every actor runs from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    pub clips: Vec<Clip>,
    pub parameters: Vec<Parameter>,
    pub blend_trees: Vec<BlendTree>,
    pub timelines: Vec<Timeline>,
    pub graphs: Vec<GraphDef>,
    /// The `[audio]` and `[hit_profiles]` catalogs (names only: tasks refer to them).
    pub audio: BTreeSet<String>,
    pub hit_profiles: BTreeSet<String>,
    /// Every asset by name (clips, blend trees, timelines and graphs share one namespace).
    pub assets: BTreeMap<String, Asset>,
    /// The files it was built from, in load order, with the assets each defines.
    pub files: Vec<(String, Vec<String>)>,
    /// The instance shape of each blend tree, by tree id, shared by every actor.
    pub tree_shapes: Vec<Arc<TreeShape>>,
    /// `[inputs.NAME]` (their own namespace), in load order.
    pub inputs: Vec<InputDef>,
    /// The parameters with a `smooth_time`, by id: the only ones a logic frame smooths (the
    /// others' smoothed value is their raw value from the moment it is set).
    pub smoothed_parameters: Vec<ParamId>,
}

impl Asset {
    /// What messages call this kind of asset.
    pub fn kind_name(self) -> &'static str {
        match self {
            Asset::Clip(_) => "clip",
            Asset::BlendTree(_) => "blend tree",
            Asset::Timeline(_) => "timeline",
            Asset::Graph(_) => "graph",
        }
    }
}

impl Snapshot {
    pub fn parameter_id(&self, name: &str) -> Option<ParamId> {
        self.parameters.iter().position(|p| p.name == name)
    }

    pub fn blend_tree_id(&self, name: &str) -> Option<TreeId> {
        match self.assets.get(name) {
            Some(Asset::BlendTree(id)) => Some(*id),
            _ => None,
        }
    }

    pub fn timeline_id(&self, name: &str) -> Option<TimelineId> {
        match self.assets.get(name) {
            Some(Asset::Timeline(id)) => Some(*id),
            _ => None,
        }
    }

    pub fn graph_id(&self, name: &str) -> Option<GraphId> {
        match self.assets.get(name) {
            Some(Asset::Graph(id)) => Some(*id),
            _ => None,
        }
    }

    /// Names of the assets of one kind, for did-you-mean hints.
    pub fn names_of(&self, kind: fn(&Asset) -> bool) -> impl Iterator<Item = &str> {
        self.assets.iter().filter(move |(_, a)| kind(a)).map(|(n, _)| n.as_str())
    }
}

/// The outcome of a build: a snapshot when there is no error, and every diagnostic.
#[derive(Debug)]
pub struct Compiled {
    pub snapshot: Option<Snapshot>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses, validates and compiles the files as one library.
pub fn compile(sources: &[SourceFile]) -> Compiled {
    let mut diagnostics = Vec::new();
    let parsed: Vec<ParsedFile> = sources
        .iter()
        .map(|source| {
            let (file, mut problems) = parse_file(source);
            problems.sort_by_key(|d| d.span.start);
            diagnostics.append(&mut problems);
            file
        })
        .collect();
    let unparsed = parsed.iter().filter(|f| f.unparsed).map(|f| f.path.clone()).collect();
    let unread = parsed.iter().flat_map(|f| f.unread.iter().cloned()).collect();
    let parameters_unknown = parsed.iter().any(|f| f.parameters_unknown);
    let mut builder = Builder {
        sources,
        unparsed,
        unread,
        parameters_unknown,
        entry_valid: true,
        entry_reported: Vec::new(),
        diagnostics,
        snapshot: Snapshot::default(),
        declared: 0,
        defined_at: BTreeMap::new(),
        pending_mask_checks: Vec::new(),
        tree_children: Vec::new(),
        unknown_motions: Vec::new(),
    };
    builder.build(&parsed);
    let Builder { mut diagnostics, snapshot, .. } = builder;
    let order: BTreeMap<&str, usize> = sources.iter().enumerate().map(|(i, s)| (s.path.as_str(), i)).collect();
    diagnostics.sort_by_key(|d| (order.get(d.file.as_str()).copied(), d.span.start));
    // A half-written file can make the TOML parser report one problem twice.
    diagnostics.dedup();
    let ok = !diagnostics.iter().any(Diagnostic::is_error);
    let snapshot = ok.then(|| {
        let tree_shapes = (0..snapshot.blend_trees.len()).map(|t| Arc::new(TreeShape::new(&snapshot, t))).collect();
        let smoothed_parameters =
            (0..snapshot.parameters.len()).filter(|&p| snapshot.parameters[p].smooth_time.is_some()).collect();
        Snapshot { tree_shapes, smoothed_parameters, ..snapshot }
    });
    Compiled { snapshot, diagnostics }
}

struct Builder<'a> {
    sources: &'a [SourceFile],
    /// Files that are not valid TOML: every name they would define is unknown.
    unparsed: Vec<String>,
    /// Names of entries that could not be read at all: they have their error, so references
    /// to them are not reported as unknown names too.
    unread: BTreeSet<(Namespace, String)>,
    /// Whether an entry that declares or reads parameters could not be read or is invalid
    /// ([`ParsedFile::parameters_unknown`]): then an unknown parameter is not reported.
    parameters_unknown: bool,
    /// Of the timeline being compiled: whether it is locally valid (warnings are only given
    /// for valid ones — an invalid one has errors to fix first) and its reported keys.
    entry_valid: bool,
    entry_reported: Vec<crate::config::ReportedKey>,
    diagnostics: Vec<Diagnostic>,
    snapshot: Snapshot,
    /// How many parameters `[parameters]` declares; implicit ones are appended after them.
    declared: usize,
    /// Where each asset name was first defined: (file index, span start, the kind of asset).
    defined_at: BTreeMap<String, (usize, usize, &'static str)>,
    /// Timeline layers of graphs whose masks are checked once all timelines are compiled.
    pending_mask_checks: Vec<MaskCheck>,
    /// What each blend tree's children play, by tree id — also for locally invalid trees,
    /// which never reach the snapshot but still take part in the cycle check.
    tree_children: Vec<Vec<Motion>>,
    /// Motions no asset has, reported once every tree and timeline is resolved
    /// ([`Builder::report_unknown_motions`]).
    unknown_motions: Vec<UnknownMotion>,
}

/// A motion name no asset has, in a blend tree's child or a timeline's clip: `within`, the
/// tree or the timeline that names it.
struct UnknownMotion {
    file: usize,
    name: Spanned<String>,
    within: Asset,
}

/// A graph's timeline layer whose masks must name channels the graph has.
struct MaskCheck {
    file: usize,
    span: std::ops::Range<usize>,
    timeline: TimelineId,
    channels: Vec<String>,
    graph: String,
}

impl Builder<'_> {
    fn error(&mut self, file: usize, span: std::ops::Range<usize>, message: String, hint: Option<String>) {
        let mut d = Diagnostic::error(&self.sources[file].path, span, message);
        d.hint = hint;
        self.diagnostics.push(d);
    }

    fn warning(&mut self, file: usize, span: std::ops::Range<usize>, message: String, hint: Option<String>) {
        let mut d = Diagnostic::warning(&self.sources[file].path, span, message);
        d.hint = hint;
        self.diagnostics.push(d);
    }

    fn build(&mut self, files: &[ParsedFile]) {
        for (f, file) in files.iter().enumerate() {
            let mut names = Vec::new();
            // Locally invalid entries are registered too, so references to them resolve; the
            // library has an error then, so no snapshot is made from them.
            for clip in &file.clips {
                if self.claim(f, clip, "clip") {
                    let id = self.snapshot.clips.len();
                    self.snapshot.assets.insert(clip.name.clone(), Asset::Clip(id));
                    self.snapshot.clips.push(Clip {
                        name: clip.name.clone(),
                        length: *clip.value.length.get_ref(),
                        looping: clip.value.looping,
                    });
                    names.push(clip.name.clone());
                }
            }
            for tree in &file.blend_trees {
                if self.claim(f, tree, "blend tree") {
                    names.push(tree.name.clone());
                }
            }
            for timeline in &file.timelines {
                if self.claim(f, timeline, "timeline") {
                    names.push(timeline.name.clone());
                }
            }
            for graph in &file.graphs {
                if self.claim(f, graph, "graph") {
                    names.push(graph.name.clone());
                }
            }
            self.snapshot.files.push((file.path.clone(), names));
        }
        self.declare_parameters(files);
        self.declared = self.snapshot.parameters.len();
        self.declare_catalogs(files);
        // Every asset gets its id before any reference is resolved.
        let trees = self.claimed(files, |f| &f.blend_trees);
        let timelines = self.claimed(files, |f| &f.timelines);
        let graphs = self.claimed(files, |f| &f.graphs);
        for (id, (_, tree)) in trees.iter().enumerate() {
            self.snapshot.assets.insert(tree.name.clone(), Asset::BlendTree(id));
        }
        for (id, (_, timeline)) in timelines.iter().enumerate() {
            self.snapshot.assets.insert(timeline.name.clone(), Asset::Timeline(id));
        }
        for (id, (_, graph)) in graphs.iter().enumerate() {
            self.snapshot.assets.insert(graph.name.clone(), Asset::Graph(id));
        }
        for (id, (f, tree)) in trees.iter().enumerate() {
            let children = tree.value.children().iter().map(|c| self.motion(*f, &c.motion, id)).collect();
            self.tree_children.push(children);
        }
        self.check_cycles(&trees);
        let within_limits = self.check_tree_sizes(&trees);
        for (id, (f, tree)) in trees.iter().enumerate() {
            if let Some(compiled) = self.blend_tree(*f, id, tree, within_limits[id]) {
                self.snapshot.blend_trees.push(compiled);
            }
        }
        for (f, timeline) in &timelines {
            let compiled = self.timeline(*f, timeline);
            self.snapshot.timelines.push(compiled);
        }
        let spans: Vec<(usize, std::ops::Range<usize>)> = timelines.iter().map(|(f, t)| (*f, t.span.clone())).collect();
        self.check_timeline_cycles(&spans);
        self.report_unknown_motions();
        self.check_timeline_sizes(&spans);
        for (f, graph) in &graphs {
            let compiled = self.graph(*f, graph);
            self.snapshot.graphs.push(compiled);
        }
        self.check_timeline_masks();
        self.inputs(files);
    }

    /// The entries of one kind that won their name (duplicates were reported by `claim`).
    fn claimed<'f, T>(
        &self,
        files: &'f [ParsedFile],
        of: fn(&ParsedFile) -> &Vec<Named<T>>,
    ) -> Vec<(usize, &'f Named<T>)> {
        files
            .iter()
            .enumerate()
            .flat_map(|(f, file)| of(file).iter().map(move |t| (f, t)))
            .filter(|(f, t)| self.defined_at.get(&t.name).is_some_and(|(df, ds, _)| df == f && *ds == t.span.start))
            .collect()
    }

    /// Records a new asset name, `what` kind of asset it is; reports a duplicate (across all
    /// files), with the kind of the asset that has the name already, and returns false.
    fn claim<T>(&mut self, file: usize, named: &Named<T>, what: &'static str) -> bool {
        if let Some((other_file, other_start, other_what)) = self.defined_at.get(&named.name) {
            let other = &self.sources[*other_file];
            let at = Diagnostic::error(&other.path, *other_start..*other_start, "").location(&other.text);
            self.error(
                file,
                named.span.clone(),
                format!(
                    "duplicate name `{}` for a {what}; it is already defined as a {other_what} at {at}",
                    named.name
                ),
                Some("names must be unique across all loaded files".into()),
            );
            return false;
        }
        self.defined_at.insert(named.name.clone(), (file, named.span.start, what));
        true
    }

    /// The first declaration of each name in a catalog-like section (parameters, audio, hit
    /// profiles), reporting later duplicates across all files.
    fn declared_once<'f, T>(
        &mut self,
        files: &'f [ParsedFile],
        of: fn(&ParsedFile) -> &Vec<Named<T>>,
        what: &str,
    ) -> Vec<(usize, &'f Named<T>)> {
        let mut seen: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        let mut first = Vec::new();
        for (f, file) in files.iter().enumerate() {
            for entry in of(file) {
                if let Some((other_file, other_start)) = seen.get(entry.name.as_str()) {
                    let other = &self.sources[*other_file];
                    let at = Diagnostic::error(&other.path, *other_start..*other_start, "").location(&other.text);
                    let message = format!("duplicate {what} `{}`; it is already declared at {at}", entry.name);
                    self.error(f, entry.span.clone(), message, None);
                    continue;
                }
                seen.insert(&entry.name, (f, entry.span.start));
                first.push((f, entry));
            }
        }
        first
    }

    fn declare_catalogs(&mut self, files: &[ParsedFile]) {
        self.snapshot.audio =
            self.declared_once(files, |f| &f.audio, "audio").into_iter().map(|(_, a)| a.name.clone()).collect();
        self.snapshot.hit_profiles = self
            .declared_once(files, |f| &f.hit_profiles, "hit profile")
            .into_iter()
            .map(|(_, h)| h.name.clone())
            .collect();
    }

    fn declare_parameters(&mut self, files: &[ParsedFile]) {
        for (_, p) in self.declared_once(files, |f| &f.parameters, "parameter") {
            let v = &p.value;
            self.snapshot.parameters.push(Parameter {
                name: p.name.clone(),
                default: v.default.as_ref().map_or(0.0, |d| *d.get_ref()),
                smooth_time: v.smooth_time.as_ref().map(|d| *d.get_ref()),
                max_speed: v.max_speed.as_ref().map_or(f64::INFINITY, |d| *d.get_ref()),
                dead_zone: v.dead_zone.as_ref().map_or(0.0, |d| *d.get_ref()),
                curve: v
                    .curve
                    .as_ref()
                    .map_or(Vec::new(), |c| c.get_ref().iter().map(|p| (p.get_ref()[0], p.get_ref()[1])).collect()),
            });
        }
    }

    /// Resolves a parameter a tree reads. Undeclared parameters are declared implicitly
    /// (default 0, no smoothing) — unless the name is a near miss of a declared one (one the
    /// did-you-mean rule, [`crate::config::did_you_mean`], would suggest), which is almost
    /// always a typo and so an error. Names that differ in one short word are not near misses
    /// ([`differ_in_one_short_word`]: `y` beside `x`, `move_y` beside `move_x`).
    fn parameter(&mut self, file: usize, name: &toml::Spanned<String>, declared: usize) -> Option<ParamId> {
        let wanted = name.get_ref();
        if let Some(id) = self.snapshot.parameter_id(wanted) {
            return Some(id);
        }
        let declared_names: Vec<String> = self.snapshot.parameters[..declared]
            .iter()
            .map(|p| p.name.clone())
            .filter(|name| !differ_in_one_short_word(wanted, name))
            .collect();
        if let Some(hint) = suggestion(wanted, declared_names.iter().map(String::as_str)) {
            let hint = format!("{hint} If `{wanted}` is a new parameter, declare it under [parameters]");
            self.error(file, name.span(), format!("unknown parameter `{wanted}`"), Some(hint));
            return None;
        }
        self.snapshot.parameters.push(Parameter {
            name: wanted.clone(),
            default: 0.0,
            smooth_time: None,
            max_speed: f64::INFINITY,
            dead_zone: 0.0,
            curve: Vec::new(),
        });
        Some(self.snapshot.parameters.len() - 1)
    }

    /// Resolves a tree's parameters (reporting unknown names) and, for a locally valid tree
    /// within the size limits, builds its layout; its children were resolved before, into
    /// `tree_children[id]`.
    fn blend_tree(
        &mut self,
        file: usize,
        id: TreeId,
        tree: &Named<RawBlendTree>,
        within_limits: bool,
    ) -> Option<BlendTree> {
        let raw = &tree.value;
        let kind = raw.kind.as_ref().map(|k| *k.get_ref());
        let declared = self.declared;
        let child_parameters = || raw.children().iter().filter_map(|c| c.parameter.as_ref());
        let names: Vec<&Spanned<String>> = match kind {
            Some(BlendKind::OneD) => raw.parameter.iter().collect(),
            Some(BlendKind::Direct) => child_parameters().collect(),
            Some(_) => raw.parameters.iter().flat_map(|ps| ps.get_ref()).collect(),
            // Without a type (reported), every parameter it names may be one it reads.
            None => raw
                .parameter
                .iter()
                .chain(raw.parameters.iter().flat_map(|ps| ps.get_ref()))
                .chain(child_parameters())
                .collect(),
        };
        let parameters: Vec<ParamId> = names.into_iter().filter_map(|p| self.parameter(file, p, declared)).collect();
        // A locally valid tree has its type and children: their absence is an error.
        let (true, true, Some(kind), Some(raw_children)) = (tree.valid, within_limits, kind, &raw.children) else {
            return None;
        };
        let children = self.tree_children[id].clone();
        let (layout, children) = self.layout(file, tree, kind, raw_children, children);
        if let (Layout::OneD { thresholds }, Some(&parameter), Some(name)) =
            (&layout, parameters.first(), &raw.parameter)
        {
            self.check_dead_zone(file, tree, name, parameter, thresholds.values());
        }
        Some(BlendTree { name: tree.name.clone(), kind, parameters, children, layout, sync: raw.sync })
    }

    /// The layout of a locally valid tree, with its children in layout order; reports what
    /// only the geometry shows (warnings, and a position the triangulation cannot take).
    fn layout(
        &mut self,
        file: usize,
        tree: &Named<RawBlendTree>,
        kind: BlendKind,
        children_table: &Spanned<Vec<RawChild>>,
        children: Vec<Motion>,
    ) -> (Layout, Vec<Motion>) {
        let raw = &tree.value;
        let raw_children = children_table.get_ref();
        let positions: Vec<Point> =
            raw_children.iter().map(|c| c.position.as_ref().map_or(ORIGIN, |p| p.get_ref().0)).collect();
        let layout = match kind {
            BlendKind::OneD => {
                let mut sorted: Vec<(f64, Motion)> = raw_children
                    .iter()
                    .map(|c| c.threshold.as_ref().map_or(0.0, |t| *t.get_ref()))
                    .zip(children)
                    .collect();
                sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
                let layout = Layout::OneD { thresholds: one_d::Thresholds::new(sorted.iter().map(|c| c.0).collect()) };
                return (layout, sorted.into_iter().map(|c| c.1).collect());
            }
            BlendKind::SimpleDirectional => {
                self.check_directions(file, raw_children, &positions);
                Layout::SimpleDirectional(SimpleDirectional::new(positions))
            }
            BlendKind::FreeformCartesian => Layout::FreeformCartesian(FreeformCartesian::new(positions)),
            BlendKind::FreeformDirectional => {
                if !positions.contains(&ORIGIN) {
                    self.warning(
                        file,
                        children_table.span(),
                        format!("2d_freeform_directional tree `{}` has no child at (0, 0)", tree.name),
                        Some(
                            "Unity expects one (an idle): without it the weights near (0, 0) swing with the input's \
                             direction and jump as the input passes through the centre"
                                .into(),
                        ),
                    );
                }
                Layout::FreeformDirectional(FreeformDirectional::new(positions))
            }
            BlendKind::Triangulated => Layout::Triangulated(self.triangulate(file, tree, children_table, positions)),
            BlendKind::Direct => Layout::Direct { normalize: raw.normalize.as_ref().is_some_and(|n| *n.get_ref()) },
        };
        (layout, children)
    }

    /// A 1D tree whose parameter's dead zone is wider than every threshold is away from 0:
    /// every input that would blend between the thresholds reads 0, so the tree only ever sits
    /// at 0 or at an end. Not with a `curve`, which remaps the value after the dead zone.
    fn check_dead_zone(
        &mut self,
        file: usize,
        tree: &Named<RawBlendTree>,
        name: &Spanned<String>,
        parameter: ParamId,
        thresholds: &[f64],
    ) {
        let p = &self.snapshot.parameters[parameter];
        let (dead_zone, widest) = (p.dead_zone, thresholds.iter().fold(0.0_f64, |m, t| m.max(t.abs())));
        if dead_zone > 0.0 && p.curve.is_empty() && widest < dead_zone && thresholds.len() > 1 {
            let message = format!(
                "the dead zone of `{}` ({dead_zone}) is wider than every threshold of 1d tree `{}` (the farthest \
                 from 0 is {widest}): every input that would blend between them reads 0",
                p.name, tree.name
            );
            let hint = format!("`|{}| < dead_zone` reads as 0: make the dead zone smaller than the thresholds", p.name);
            self.warning(file, name.span(), message, Some(hint));
        }
    }

    /// Simple directional warnings: two children in the same direction, and neighbouring
    /// directions 180° or more apart (the sector between them has no proper blend).
    fn check_directions(&mut self, file: usize, children: &[RawChild], positions: &[Point]) {
        let name = |i: usize| children[i].motion.get_ref().clone();
        let span = |i: usize| children[i].position.as_ref().map_or(children[i].motion.span(), Spanned::span);
        for gap in simple_directional::gaps(positions) {
            let degrees = gap.radians.to_degrees();
            if gap.radians < 1e-9 {
                self.warning(
                    file,
                    span(gap.to),
                    format!(
                        "`{}` points the same way as `{}`: only one of them ever gets weight",
                        name(gap.to),
                        name(gap.from)
                    ),
                    Some("use 2d_freeform_directional for several speeds in one direction".into()),
                );
            } else if gap.from == gap.to {
                self.warning(
                    file,
                    span(gap.from),
                    format!(
                        "`{}` is the only direction: no input has a direction on both sides, so every input gives \
                         the centre everything (Unity's numbers)",
                        name(gap.from)
                    ),
                    Some("add directions around it, or use a freeform type".into()),
                );
            } else if gap.radians >= PI - 1e-9 {
                self.warning(
                    file,
                    span(gap.from),
                    format!(
                        "going counter-clockwise from `{}` the next direction, `{}`, is {degrees:.0}° away (180° or \
                         more): inputs in that sector get the centre only or negative weights (Unity's numbers)",
                        name(gap.from),
                        name(gap.to)
                    ),
                    Some("add a child in between, or use a freeform type".into()),
                );
            }
        }
    }

    /// The triangulation of a valid `2d_triangulated` tree: its explicit triangles, or the
    /// Delaunay triangulation — with a warning naming the triangles chosen when some
    /// children lie on one circle, where that choice is not unique.
    fn triangulate(
        &mut self,
        file: usize,
        tree: &Named<RawBlendTree>,
        children_table: &Spanned<Vec<RawChild>>,
        positions: Vec<Point>,
    ) -> Triangulated {
        let raw = &tree.value;
        let children = children_table.get_ref();
        if let Some(triangles) = &raw.triangles {
            let corners = triangles.get_ref().iter().map(|t| t.get_ref().0.map(|i| i as usize)).collect();
            return Triangulated::with_triangles(positions, corners);
        }
        let layout = match Triangulated::delaunay(positions.clone()) {
            Ok(layout) => layout,
            Err(e) => {
                let span = children[e.child].position.as_ref().map_or(children_table.span(), Spanned::span);
                self.error(file, span, e.to_string(), None);
                // The library has an error, so this stand-in never reaches a snapshot.
                return Triangulated::with_triangles(positions, Vec::new());
            }
        };
        if children.len() >= 3 && layout.triangles().next().is_none() {
            self.warning(
                file,
                children_table.span(),
                format!(
                    "the children of 2d_triangulated tree `{}` all lie on one line: there is no triangle, so it \
                     blends along that line only, as a 1d tree would",
                    tree.name
                ),
                Some("move a child off the line, or use a 1d tree".into()),
            );
        }
        let groups = layout.cocircular();
        if !groups.is_empty() {
            let name = |i: usize| children[i].motion.get_ref().as_str();
            let circles: Vec<String> = groups.iter().map(|g| format!("`{}`", g.map(name).join("`, `"))).collect();
            let chosen: Vec<String> = layout.triangles().map(|t| format!("({})", t.map(name).join(", "))).collect();
            let indices: Vec<String> = layout.triangles().map(|t| format!("[{}, {}, {}]", t[0], t[1], t[2])).collect();
            self.warning(
                file,
                children_table.span(),
                format!(
                    "children on one circle ({}) have no unique Delaunay triangulation; blendlab chose {}",
                    circles.join("; "),
                    chosen.join(", ")
                ),
                Some(format!("to fix the choice, add `triangles = [{}]` (child indices)", indices.join(", "))),
            );
        }
        layout
    }

    /// Reports `message` at `name`, a name `namespace` does not know, with the hint `hint`
    /// gives (see [`Builder::unknown_hint`]) — unless an entry of that name could not be
    /// read: it has its error already, and a second one here would only echo it.
    fn unknown_name(
        &mut self,
        file: usize,
        name: &toml::Spanned<String>,
        namespace: Namespace,
        message: String,
        hint: impl FnOnce(&Self) -> Option<String>,
    ) {
        if !self.unread.contains(&(namespace, name.get_ref().clone())) {
            let hint = hint(self);
            self.error(file, name.span(), message, hint);
        }
    }

    /// A did-you-mean for an unknown `name` among `candidates`, or, when some file could not be
    /// parsed, a reminder that its names are unknown.
    fn unknown_hint<'c>(&self, name: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<String> {
        suggestion(name, candidates).or_else(|| {
            (!self.unparsed.is_empty()).then(|| {
                format!(
                    "{} could not be parsed, so the names it defines are unknown until it is fixed",
                    self.unparsed.join(", ")
                )
            })
        })
    }

    /// What a child of blend tree `tree` plays; a name no asset has is kept for
    /// [`Builder::report_unknown_motions`].
    fn motion(&mut self, file: usize, name: &toml::Spanned<String>, tree: TreeId) -> Motion {
        let found = self.snapshot.assets.get(name.get_ref()).copied();
        match found.map(timeline::is_blend_motion) {
            Some(Some(motion)) => motion,
            Some(None) => {
                self.error(
                    file,
                    name.span(),
                    format!(
                        "`{}` is not a clip or blend tree; blend-tree children play clips or trees",
                        name.get_ref()
                    ),
                    None,
                );
                Motion::Clip(0)
            }
            None => {
                self.unknown_motions.push(UnknownMotion { file, name: name.clone(), within: Asset::BlendTree(tree) });
                Motion::Clip(0)
            }
        }
    }

    /// Reports each motion no asset has ([`UnknownMotion`]), once the trees and the timelines
    /// know what they play: its did-you-mean names only an asset that may be played there —
    /// a clip or a blend tree, or in a timeline a timeline too — and never the tree or
    /// timeline that names it, nor one that plays that one, directly or through others:
    /// following the hint would make a cycle.
    fn report_unknown_motions(&mut self) {
        let (trees, timelines) = (self.nested_trees(), self.nested_timelines());
        for UnknownMotion { file, name, within } in std::mem::take(&mut self.unknown_motions) {
            let (what, cycle) = match within {
                Asset::BlendTree(tree) => ("clip or blend tree", playing(&trees, tree)),
                Asset::Timeline(timeline) => ("clip, blend tree or timeline", playing(&timelines, timeline)),
                Asset::Clip(_) | Asset::Graph(_) => unreachable!("only trees and timelines play motions"),
            };
            let fits = |asset: &Asset| match (within, *asset) {
                (_, Asset::Clip(_)) | (Asset::Timeline(_), Asset::BlendTree(_)) => true,
                (Asset::BlendTree(_), Asset::BlendTree(id)) | (Asset::Timeline(_), Asset::Timeline(id)) => !cycle[id],
                _ => false,
            };
            let message = format!("unknown motion `{}`: no {what} has that name", name.get_ref());
            self.unknown_name(file, &name, Namespace::Asset, message, |b| {
                let names = b.snapshot.assets.iter().filter(|(_, a)| fits(a)).map(|(n, _)| n.as_str());
                b.unknown_hint(name.get_ref(), names)
            });
        }
    }

    /// The trees each tree's children play, by tree id, once per child.
    fn nested_trees(&self) -> Vec<Vec<TreeId>> {
        let nested = |children: &Vec<Motion>| {
            children.iter().filter_map(|c| if let Motion::Tree(next) = c { Some(*next) } else { None }).collect()
        };
        self.tree_children.iter().map(nested).collect()
    }

    /// Reports one blend-tree cycle per group of trees that contain each other (a strongly
    /// connected component, see [`find_cycles`]), at its first tree in load order, naming it.
    fn check_cycles(&mut self, trees: &[(usize, &Named<RawBlendTree>)]) {
        for cycle in find_cycles(&self.nested_trees()) {
            let names: Vec<&str> = cycle.iter().map(|&t| trees[t].1.name.as_str()).collect();
            let (file, tree) = trees[cycle[0]];
            let message = format!("blend tree cycle: {} → {}", names.join(" → "), names[0]);
            self.error(
                file,
                tree.span.clone(),
                message,
                Some("a tree cannot contain itself, directly or through other trees".into()),
            );
        }
    }

    /// Which trees are within [`MAX_TREE_LEAVES`] and [`MAX_NESTING_DEPTH`], by tree id,
    /// counted over the tree graph without building anything. A tree over a limit is reported
    /// where the excess begins (see [`excess_roots`]); every tree over one is rejected.
    fn check_tree_sizes(&mut self, trees: &[(usize, &Named<RawBlendTree>)]) -> Vec<bool> {
        let own: Vec<u64> = self
            .tree_children
            .iter()
            .map(|c| c.iter().filter(|m| matches!(m, Motion::Clip(_))).count() as u64)
            .collect();
        let nested = self.nested_trees();
        let sizes = nesting(&own, &nested);
        for tree in excess_roots(&sizes, &nested, |n| n.total > MAX_TREE_LEAVES) {
            let (file, named) = trees[tree];
            let message = format!(
                "blend tree `{}` has {} leaves once its nested trees are multiplied out, over the limit of \
                 {MAX_TREE_LEAVES}",
                named.name, sizes[tree].total
            );
            let hint = "each child that plays a tree adds all of that tree's leaves, once per child that plays it; \
                        any tree that contains this one is over the limit too";
            self.error(file, named.span.clone(), message, Some(hint.into()));
        }
        for tree in excess_roots(&sizes, &nested, |n| n.depth > MAX_NESTING_DEPTH) {
            let (file, named) = trees[tree];
            let message = format!(
                "blend tree `{}` nests blend trees {} deep, over the limit of {MAX_NESTING_DEPTH}",
                named.name, sizes[tree].depth
            );
            let hint = "a tree whose children are clips is 0 deep, one that plays it 1 deep, and so on; any tree \
                        that contains this one is over the limit too";
            self.error(file, named.span.clone(), message, Some(hint.into()));
        }
        sizes.iter().map(|n| n.total <= MAX_TREE_LEAVES && n.depth <= MAX_NESTING_DEPTH).collect()
    }
}

/// What nesting multiplies out in one asset of a graph of assets that contain others (trees
/// in trees, timelines in timelines).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Nesting {
    /// The asset's own count plus the totals of the assets nested in it, each as many times
    /// as it is nested (saturating at `u64::MAX`).
    total: u64,
    /// 0 for an asset that nests nothing, else 1 + the greatest depth of those nested in it.
    depth: u64,
}

/// Each node's [`Nesting`], given each node's own count (`own[n]`) and the nodes it nests
/// (`nested[n]`, with repeats): memoized over the graph, so it takes time in proportion to
/// nodes and edges and expands nothing. A node met again while its own total is being added
/// up closes a cycle (reported apart) and counts as nothing there.
fn nesting(own: &[u64], nested: &[Vec<usize>]) -> Vec<Nesting> {
    #[derive(Copy, Clone)]
    enum Mark {
        Unvisited,
        Open,
        Done(Nesting),
    }
    let mut marks = vec![Mark::Unvisited; own.len()];
    for root in 0..own.len() {
        if !matches!(marks[root], Mark::Unvisited) {
            continue;
        }
        marks[root] = Mark::Open;
        // Each open node with the index of the next of its nested nodes to visit.
        let mut stack = vec![(root, 0)];
        while let Some((node, next)) = stack.last_mut() {
            let node = *node;
            if let Some(&child) = nested[node].get(*next) {
                *next += 1;
                if matches!(marks[child], Mark::Unvisited) {
                    marks[child] = Mark::Open;
                    stack.push((child, 0));
                }
                continue;
            }
            let mut done = Nesting { total: own[node], depth: 0 };
            for &child in &nested[node] {
                if let Mark::Done(inner) = marks[child] {
                    done.total = done.total.saturating_add(inner.total);
                    done.depth = done.depth.max(inner.depth + 1);
                }
            }
            marks[node] = Mark::Done(done);
            stack.pop();
        }
    }
    marks.into_iter().map(|m| if let Mark::Done(n) = m { n } else { unreachable!("every node is done") }).collect()
}

/// The nodes over a limit (`over`) where the excess begins: none of the nodes nested in them
/// is over it. The nodes that contain one of them are over it too, and need no report of
/// their own.
fn excess_roots(nesting: &[Nesting], nested: &[Vec<usize>], over: impl Fn(&Nesting) -> bool) -> Vec<usize> {
    (0..nesting.len()).filter(|&n| over(&nesting[n]) && !nested[n].iter().any(|&c| over(&nesting[c]))).collect()
}

/// Which nodes of `graph` (each node's successors) reach `target`, `target` itself included.
fn playing(graph: &[Vec<usize>], target: usize) -> Vec<bool> {
    let mut players: Vec<Vec<usize>> = vec![Vec::new(); graph.len()];
    for (node, nexts) in graph.iter().enumerate() {
        for &next in nexts {
            players[next].push(node);
        }
    }
    let mut reaching = vec![false; graph.len()];
    reaching[target] = true;
    let mut pending = vec![target];
    while let Some(node) = pending.pop() {
        for &player in &players[node] {
            if !std::mem::replace(&mut reaching[player], true) {
                pending.push(player);
            }
        }
    }
    reaching
}

/// One cycle of each strongly connected component of a directed graph given as adjacency
/// lists that has one (two nodes or more, or one node with an edge to itself), in order of
/// their smallest nodes: the shortest cycle through the component's smallest node, which
/// comes first (of cycles as short, the one a breadth-first search meets first, taking each
/// node's edges in order). A component holds every cycle through its nodes, so each is
/// named once however many cycles it holds: the components (Tarjan's algorithm) and the
/// searches cost time in proportion to the nodes and edges.
fn find_cycles(graph: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let component = strongly_connected(graph);
    let mut named = vec![false; graph.len()];
    // The node each node was first reached from; `NONE` for nodes not reached yet. Each
    // search stays in its component, so no node is reached by two.
    let mut reached_from = vec![NONE; graph.len()];
    let mut cycles = Vec::new();
    for first in 0..graph.len() {
        if std::mem::replace(&mut named[component[first]], true) {
            continue;
        }
        let mut queue = std::collections::VecDeque::from([first]);
        let closing = 'search: loop {
            let Some(node) = queue.pop_front() else { break None };
            for &next in graph[node].iter().filter(|&&n| component[n] == component[first]) {
                if next == first {
                    break 'search Some(node);
                }
                if reached_from[next] == NONE {
                    reached_from[next] = node;
                    queue.push_back(next);
                }
            }
        };
        if let Some(mut node) = closing {
            let mut cycle = vec![node];
            while node != first {
                node = reached_from[node];
                cycle.push(node);
            }
            cycle.reverse();
            cycles.push(cycle);
        }
    }
    cycles
}

/// No node: a mark in per-node tables.
const NONE: usize = usize::MAX;

/// The strongly connected component of each node, numbered from 0 (Tarjan's algorithm,
/// iterative: a deep graph cannot overflow the stack).
fn strongly_connected(graph: &[Vec<usize>]) -> Vec<usize> {
    let mut index = vec![NONE; graph.len()];
    let mut low = vec![0; graph.len()];
    let mut component = vec![NONE; graph.len()];
    // The nodes visited whose component is still open, and which of them are.
    let (mut open, mut is_open) = (Vec::new(), vec![false; graph.len()]);
    let (mut visited, mut components) = (0, 0);
    for root in 0..graph.len() {
        if index[root] != NONE {
            continue;
        }
        // Each node being visited with the index of its next edge.
        let mut calls = vec![(root, 0)];
        while let Some((node, edge)) = calls.last_mut() {
            let node = *node;
            if *edge == 0 {
                // The first time here.
                (index[node], low[node]) = (visited, visited);
                visited += 1;
                open.push(node);
                is_open[node] = true;
            }
            if let Some(&next) = graph[node].get(*edge) {
                *edge += 1;
                if index[next] == NONE {
                    calls.push((next, 0));
                } else if is_open[next] {
                    low[node] = low[node].min(index[next]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(caller, _)) = calls.last() {
                low[caller] = low[caller].min(low[node]);
            }
            if low[node] == index[node] {
                while let Some(member) = open.pop() {
                    is_open[member] = false;
                    component[member] = components;
                    if member == node {
                        break;
                    }
                }
                components += 1;
            }
        }
    }
    component
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_multiplies_repeats_without_expanding() {
        // (own counts, nested lists) → (total, depth) per node.
        type Case = (&'static [u64], &'static [&'static [usize]], &'static [(u64, u64)]);
        let cases: &[Case] = &[
            // A node alone.
            (&[3], &[&[]], &[(3, 0)]),
            // A diamond: 0 nests 1 and 2, both nest 3; 3 counts twice in 0.
            (&[0, 0, 0, 2], &[&[1, 2], &[3], &[3], &[]], &[(4, 2), (2, 1), (2, 1), (2, 0)]),
            // A node nested twice by one parent counts twice.
            (&[1, 5], &[&[1, 1], &[]], &[(11, 1), (5, 0)]),
            // A cycle 0 → 1 → 0: the edge that closes it counts as nothing.
            (&[1, 1], &[&[1], &[0]], &[(2, 1), (1, 0)]),
        ];
        for (own, nested, want) in cases {
            let nested: Vec<Vec<usize>> = nested.iter().map(|n| n.to_vec()).collect();
            let got: Vec<(u64, u64)> = nesting(own, &nested).iter().map(|n| (n.total, n.depth)).collect();
            assert_eq!(&got, want, "{own:?} {nested:?}");
        }
    }

    #[test]
    fn nesting_saturates_and_takes_no_time_on_doubling_chains() {
        // Node i nests node i + 1 twice: 2^100 leaves at the top, counted in 100 steps.
        let n = 100;
        let nested: Vec<Vec<usize>> = (0..n).map(|i| if i + 1 < n { vec![i + 1, i + 1] } else { vec![] }).collect();
        let mut own = vec![0; n];
        own[n - 1] = 1;
        let sizes = nesting(&own, &nested);
        assert_eq!(sizes[0], Nesting { total: u64::MAX, depth: 99 });
        assert_eq!(sizes[n - 11], Nesting { total: 1024, depth: 10 });
        assert_eq!(excess_roots(&sizes, &nested, |s| s.total > 1000), vec![n - 11]);
        assert!(find_cycles(&nested).is_empty());
    }

    #[test]
    fn one_cycle_is_named_per_strongly_connected_component() {
        // Adjacency lists → the cycles named.
        type Case = (&'static [&'static [usize]], &'static [&'static [usize]]);
        let cases: &[Case] = &[
            // No edge, and a chain: no cycle.
            (&[&[]], &[]),
            (&[&[1], &[2], &[]], &[]),
            // A node that plays itself.
            (&[&[0]], &[&[0]]),
            // 0 → 1 ⇉ 2 → 3 → 2 (a cycle after a doubled edge), 3 → 4 (a dead end), 5 → 5.
            (&[&[1], &[2, 2], &[3], &[2, 4], &[], &[5]], &[&[2, 3], &[5]]),
            // Two cycles through 0 are one component: the first found of the shortest is named.
            (&[&[1, 2], &[0], &[0]], &[&[0, 1]]),
            (&[&[2, 1], &[0], &[0]], &[&[0, 2]]),
            // The shortest cycle through the smallest node, not the first path found.
            (&[&[1, 3], &[2], &[0], &[0]], &[&[0, 3]]),
            // Named from the smallest node, whichever node the cycle is entered from.
            (&[&[3], &[2], &[3], &[1]], &[&[1, 2, 3]]),
            // Two components, ordered by their smallest nodes; a self-edge inside a longer
            // cycle is the shortest.
            (&[&[4], &[1, 3], &[], &[1], &[0]], &[&[0, 4], &[1]]),
        ];
        for (graph, want) in cases {
            let graph: Vec<Vec<usize>> = graph.iter().map(|n| n.to_vec()).collect();
            let want: Vec<Vec<usize>> = want.iter().map(|c| c.to_vec()).collect();
            assert_eq!(find_cycles(&graph), want, "{graph:?}");
        }
    }

    #[test]
    fn dense_cycles_are_named_once_without_walking_every_path() {
        // 30 nodes each playing every other (a walk over every path would never end), and a
        // long ring (deep, for a recursive search): one cycle each.
        let n = 30;
        let dense: Vec<Vec<usize>> = (0..n).map(|i| (0..n).filter(|&j| j != i).collect()).collect();
        assert_eq!(find_cycles(&dense), vec![vec![0, 1]]);
        let ring: Vec<Vec<usize>> = (0..100_000).map(|i| vec![(i + 1) % 100_000]).collect();
        let cycles = find_cycles(&ring);
        assert_eq!(cycles.len(), 1);
        assert_eq!(cycles[0], (0..100_000).collect::<Vec<_>>());
    }
}
