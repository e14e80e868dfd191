//! Timeline and graph sections as written: `[timelines.NAME]` (tracks, group tracks,
//! override sub-tracks, timeline clips, markers) and `[graphs.NAME]` (layers over channels),
//! with their local checks. References between assets are checked in `compile`.

use std::fmt;

use serde::Deserialize;
use serde::de::value::SeqAccessDeserializer;
use serde::de::{self, Deserializer, IntoDeserializer, SeqAccess, Visitor};
use toml::Spanned;

use super::raw::Exact;
use super::{Named, Problems, number};
use crate::time::MAX_SECONDS;

/// How a playback treats time past the timeline's duration (REFERENCE §3.8).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WrapMode {
    /// Time clamps at the duration (Unity's default).
    #[default]
    Hold,
    /// Time wraps to 0, with a `timeline_looped` event.
    Loop,
    /// The playback completes at the duration.
    None,
}

/// How a timeline's duration is found (REFERENCE §3.1).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DurationMode {
    /// The latest clip end, minus one tick.
    #[default]
    BasedOnClips,
    /// The `duration` given.
    Fixed,
}

/// What a clip shows outside its content interval (REFERENCE §3.4).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Extrapolation {
    None,
    Hold,
    Loop,
    PingPong,
    Continue,
}

/// A mix curve by name: smoothstep (the default) or linear.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CurveName {
    Smoothstep,
    Linear,
}

/// `mix_in_curve` / `mix_out_curve`: a named curve or keys `[[p, value], …]` over p ∈ [0, 1].
#[derive(Clone, Debug, PartialEq)]
pub enum RawCurve {
    Named(CurveName),
    Keys(Vec<CurveKey>),
}

/// One key `[p, value]` of a mix curve, with the span a check of it points at; it reads as
/// the pair itself (`key[0]`, `key[1]`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(transparent)]
pub struct CurveKey(pub Spanned<Exact<f64, 2>>);

impl std::ops::Deref for CurveKey {
    type Target = [f64; 2];
    fn deref(&self) -> &[f64; 2] {
        self.0.get_ref()
    }
}

/// Read by what was written rather than `#[serde(untagged)]`, which tries each form and keeps
/// only its own "expected …" message: a string is read as a [`CurveName`], so a misspelt name
/// gets serde's "unknown variant" and with it a did-you-mean, as every other name does.
impl<'de> Deserialize<'de> for RawCurve {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Curve;
        impl<'de> Visitor<'de> for Curve {
            type Value = RawCurve;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a curve name (\"smoothstep\", \"linear\") or keys [[p, value], …]")
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<RawCurve, E> {
                CurveName::deserialize(name.into_deserializer()).map(RawCurve::Named)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, keys: A) -> Result<RawCurve, A::Error> {
                Vec::deserialize(SeqAccessDeserializer::new(keys)).map(RawCurve::Keys)
            }
        }
        deserializer.deserialize_any(Curve)
    }
}

/// A marker (signal) on a timeline or a track. `name` is required, but optional here: a marker
/// without one is still read, so its time is checked too; local validation reports it missing.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a marker table like { time = 0.2, name = \"whoosh\" }")]
pub struct RawMarker {
    pub name: Option<Spanned<String>>,
    /// Seconds from the timeline start.
    pub time: Option<Spanned<f64>>,
    /// Or a frame at the timeline's `frame_rate`.
    pub frame: Option<Spanned<i64>>,
    /// Fire once at the first evaluation when the playback starts after it.
    #[serde(default)]
    pub retroactive: bool,
    /// Fire only the first time ever, not again after a loop.
    #[serde(default)]
    pub emit_once: bool,
}

/// A task attached to a timeline clip (REFERENCE §4, §7); checked in full by `compile`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a task table like { type = \"PlayAnimation\", animation = \"…\" }")]
pub struct RawTask {
    #[serde(rename = "type")]
    pub kind: Spanned<String>,
    /// `"flow"`: also Disposed when the playback ends (on a looping timeline, when its pass
    /// ends).
    pub scope: Option<Spanned<String>>,
    pub animation: Option<Spanned<String>>,
    pub audio: Option<Spanned<String>>,
    pub hit_profile: Option<Spanned<String>>,
    /// `Emit`: the name passed to Lua.
    pub name: Option<Spanned<String>>,
    /// Any payload passed through to Lua with an `Emit` command.
    pub payload: Option<Spanned<toml::Table>>,
    /// `PlayAnimation`: seconds of the crossfade it starts (default 0.1).
    pub fade: Option<Spanned<f64>>,
}

/// `[audio.NAME]`: a sound of the catalog.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "an audio table like { length = 0.4 }")]
pub struct RawAudio {
    pub length: Option<Spanned<f64>>,
}

pub(super) fn validate_audio(p: &mut Problems, audio: &Named<RawAudio>) {
    if let Some(length) = &audio.value.length
        && p.finite(length, "audio length")
        && *length.get_ref() <= 0.0
    {
        p.error(length.span(), format!("audio length must be > 0 seconds, got {}", number(*length.get_ref())));
    }
}

/// A clip on a timeline track.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a timeline clip table with start/duration or start_frame/end_frame")]
pub struct RawTimelineClip {
    pub name: Option<Spanned<String>>,
    pub start: Option<Spanned<f64>>,
    pub duration: Option<Spanned<f64>>,
    pub start_frame: Option<Spanned<i64>>,
    /// Inclusive.
    pub end_frame: Option<Spanned<i64>>,
    /// A clip, blend tree or timeline of the library.
    pub motion: Option<Spanned<String>>,
    pub clip_in: Option<Spanned<f64>>,
    pub time_scale: Option<Spanned<f64>>,
    pub ease_in: Option<Spanned<f64>>,
    pub ease_out: Option<Spanned<f64>>,
    pub mix_in_curve: Option<Spanned<RawCurve>>,
    pub mix_out_curve: Option<Spanned<RawCurve>>,
    pub pre_extrapolation: Option<Spanned<Extrapolation>>,
    pub post_extrapolation: Option<Spanned<Extrapolation>>,
    /// Marks the clip where a looping playback replays from.
    #[serde(default, rename = "loop")]
    pub loop_start: bool,
    pub task: Option<Spanned<RawTask>>,
}

/// The kind of a track.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TrackKind {
    #[default]
    Animation,
    Group,
}

impl RawTrack {
    pub fn kind(&self) -> TrackKind {
        self.kind.as_ref().map_or(TrackKind::Animation, |k| *k.get_ref())
    }

    /// Its name; empty when it has none (reported, so the timeline never reaches a snapshot).
    pub fn name(&self) -> &str {
        self.name.as_ref().map_or("", |n| n.get_ref())
    }
}

/// A track: animation (clips, override sub-tracks) or group (nested tracks). `name` is
/// required, but optional here: a track without one is still read, so its clips are checked
/// too; local validation reports it missing.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a track table like { name = \"action\", clips = [...] }")]
pub struct RawTrack {
    pub name: Option<Spanned<String>>,
    pub kind: Option<Spanned<TrackKind>>,
    #[serde(default)]
    pub muted: bool,
    #[serde(default)]
    pub clips: Vec<Spanned<RawTimelineClip>>,
    /// Group tracks: the tracks inside.
    #[serde(default)]
    pub tracks: Vec<Spanned<RawTrack>>,
    /// Animation tracks: override sub-tracks (layers above the track's own clips).
    #[serde(default)]
    pub overrides: Vec<Spanned<RawTrack>>,
    /// Override sub-tracks: the channels they affect.
    pub mask: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    pub markers: Vec<Spanned<RawMarker>>,
}

/// `[timelines.NAME]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a timeline table with `tracks`")]
pub struct RawTimeline {
    /// Frames per second for `start_frame`/`end_frame`, markers by frame, and task lifecycles.
    pub frame_rate: Option<Spanned<i64>>,
    #[serde(default)]
    pub wrap: WrapMode,
    #[serde(default)]
    pub duration_mode: DurationMode,
    pub duration: Option<Spanned<f64>>,
    #[serde(default)]
    pub markers: Vec<Spanned<RawMarker>>,
    #[serde(default)]
    pub tracks: Vec<Spanned<RawTrack>>,
}

/// One layer of a graph: a source, a weight, a mask, additive or not. `name` is required, but
/// optional here: a layer without one is still read, so the rest of it is checked too; local
/// validation reports it missing.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a layer table like { name = \"base\", blend_tree = \"locomotion\" }")]
pub struct RawLayer {
    pub name: Option<Spanned<String>>,
    pub blend_tree: Option<Spanned<String>>,
    pub timeline: Option<Spanned<String>>,
    pub clip: Option<Spanned<String>>,
    /// A transition layer starting in this state (a clip or blend tree).
    pub transitions: Option<Spanned<String>>,
    pub weight: Option<Spanned<f64>>,
    pub mask: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    pub additive: bool,
    /// Timeline layers: start playing at spawn (default true).
    pub autoplay: Option<bool>,
    /// Transition layers: frames between a fade reaching 1 and its completion (default 0).
    pub completion_delay: Option<Spanned<i64>>,
}

impl RawLayer {
    /// Its name; empty when it has none (reported, so the graph never reaches a snapshot).
    pub fn name(&self) -> &str {
        self.name.as_ref().map_or("", |n| n.get_ref())
    }
}

/// `[graphs.NAME]`. `layers` is required, but optional here: a graph without it is still read,
/// so its channels are checked too; local validation reports it missing.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a graph table with `layers`")]
pub struct RawGraph {
    pub channels: Option<Spanned<Vec<Spanned<String>>>>,
    pub layers: Option<Spanned<Vec<Spanned<RawLayer>>>>,
}

impl RawGraph {
    /// Its layers (none when `layers` is missing, which is reported).
    pub fn layers(&self) -> &[Spanned<RawLayer>] {
        self.layers.as_ref().map_or(&[], |l| l.get_ref())
    }
}

/// The largest frame rate accepted.
pub const MAX_FRAME_RATE: i64 = 100_000;

pub(super) fn validate_timeline(p: &mut Problems, timeline: &Named<RawTimeline>) {
    let t = &timeline.value;
    let rate = match &t.frame_rate {
        Some(rate) if (1..=MAX_FRAME_RATE).contains(rate.get_ref()) => Rate::Hz(*rate.get_ref()),
        Some(rate) => {
            p.error(rate.span(), format!("frame_rate must be from 1 to {MAX_FRAME_RATE}, got {}", rate.get_ref()));
            Rate::Invalid
        }
        None if p.was_reported("frame_rate") => Rate::Invalid,
        None => Rate::Missing,
    };
    // An unreadable duration_mode (reported) stands at its default, so a `duration` is not
    // judged against the mode — only as a duration, as the mode that takes one would.
    let mode = (!p.was_reported("duration_mode")).then_some(t.duration_mode);
    match (mode, &t.duration) {
        (Some(DurationMode::Fixed), None) => {
            p.missing(&["duration"], timeline.span.clone(), "duration_mode = \"fixed\" needs a `duration`")
        }
        (Some(DurationMode::BasedOnClips), Some(d)) => {
            p.error(d.span(), "`duration` is only used with duration_mode = \"fixed\"".to_string())
        }
        (Some(DurationMode::Fixed) | None, Some(d)) => {
            p.positive_seconds(d, "duration");
        }
        (Some(DurationMode::BasedOnClips) | None, None) => {}
    }
    for marker in &t.markers {
        validate_marker(p, marker, rate);
    }
    for track in &t.tracks {
        validate_track(p, track, rate, TrackPlace::Root);
    }
}

/// A timeline's `frame_rate` as its frames are checked against it.
#[derive(Copy, Clone)]
enum Rate {
    /// None written: frames need one.
    Missing,
    /// Written, but out of range or unreadable (reported at the rate): frames are judged by no
    /// rate, and not reported as lacking one either.
    Invalid,
    /// Frames per second.
    Hz(i64),
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum TrackPlace {
    Root,
    Override,
}

fn validate_track(p: &mut Problems, track: &Spanned<RawTrack>, rate: Rate, place: TrackPlace) {
    let t = track.get_ref();
    // Problems of the track as a whole point at its name, or at the track when it has none.
    let at = t.name.as_ref().map_or(track.span(), Spanned::span);
    match &t.name {
        Some(name) => p.name(name.span(), name.get_ref()),
        None => p.missing(&["name"], track.span(), "missing key `name`"),
    }
    let kind_span = t.kind.as_ref().map_or(at.clone(), |k| k.span());
    if t.kind() == TrackKind::Group {
        if !t.clips.is_empty() {
            p.error(kind_span.clone(), "a group track holds `tracks`, not `clips`");
        }
        if !t.overrides.is_empty() {
            p.error(kind_span.clone(), "a group track cannot have override sub-tracks");
        }
        if place == TrackPlace::Override {
            p.error(kind_span, "an override sub-track cannot be a group");
        }
    } else if !t.tracks.is_empty() {
        p.error(at.clone(), "only group tracks (kind = \"group\") hold `tracks`");
    }
    if place == TrackPlace::Override && !t.overrides.is_empty() {
        p.error(at, "override sub-tracks cannot have overrides of their own");
    }
    if let Some(mask) = &t.mask {
        if place == TrackPlace::Root {
            p.error(mask.span(), "`mask` belongs on override sub-tracks (or graph layers)");
        } else {
            validate_mask(p, mask, "override sub-track");
            for channel in mask.get_ref() {
                channel_name(p, channel);
            }
        }
    }
    for clip in &t.clips {
        validate_timeline_clip(p, clip, rate);
    }
    for marker in &t.markers {
        validate_marker(p, marker, rate);
    }
    for child in &t.tracks {
        validate_track(p, child, rate, place);
    }
    for child in &t.overrides {
        validate_track(p, child, rate, TrackPlace::Override);
    }
}

/// Reports a frame number whose time at the timeline's (valid) rate is beyond ±1e6 s.
fn frame_in_range(p: &mut Problems, frame: &Spanned<i64>, rate: Rate, what: &str) {
    let Rate::Hz(hz) = rate else { return };
    let seconds = *frame.get_ref() as f64 / hz as f64;
    if seconds.abs() > MAX_SECONDS {
        p.error(
            frame.span(),
            format!(
                "{what} {} is {seconds:.3e} s at {hz} fps, beyond the ±1e6 s that blendlab accepts",
                frame.get_ref()
            ),
        );
    }
}

fn validate_marker(p: &mut Problems, marker: &Spanned<RawMarker>, rate: Rate) {
    let m = marker.get_ref();
    if m.name.is_none() {
        p.missing(&["name"], marker.span(), "a marker needs a `name` (the signal it sends)");
    }
    match (&m.time, &m.frame) {
        (Some(_), Some(_)) => p.error(marker.span(), "a marker takes `time` or `frame`, not both"),
        (None, None) => p.missing(&["time", "frame"], marker.span(), "a marker needs a `time` (seconds) or a `frame`"),
        (Some(time), None) => p.non_negative(time, "marker time"),
        (None, Some(frame)) => {
            frame_in_range(p, frame, rate, "marker frame");
            if matches!(rate, Rate::Missing) {
                p.error(frame.span(), "markers by frame need the timeline's `frame_rate`");
            }
            if *frame.get_ref() < 0 {
                p.error(frame.span(), format!("marker frame must be ≥ 0, got {}", frame.get_ref()));
            }
        }
    }
}

fn validate_timeline_clip(p: &mut Problems, clip: &Spanned<RawTimelineClip>, rate: Rate) {
    let c = clip.get_ref();
    if let Some(name) = &c.name {
        p.name(name.span(), name.get_ref());
    }
    if let Some(task) = &c.task
        && matches!(rate, Rate::Missing)
    {
        p.error(task.span(), "clips with tasks need the timeline's `frame_rate` (tasks run on logic frames)");
    }
    let seconds = c.start.is_some() || c.duration.is_some();
    let frames = c.start_frame.is_some() || c.end_frame.is_some();
    match (seconds, frames) {
        (true, true) => {
            p.error(clip.span(), "a clip takes `start`/`duration` (seconds) or `start_frame`/`end_frame`, not both")
        }
        (false, false) => p.missing(
            &["start", "duration", "start_frame", "end_frame"],
            clip.span(),
            "a clip needs `start` and `duration`, or `start_frame` and `end_frame`",
        ),
        (true, false) => match (&c.start, &c.duration) {
            (Some(start), Some(duration)) => {
                p.non_negative(start, "start");
                p.positive_seconds(duration, "duration");
                let end = start.get_ref() + duration.get_ref();
                if end > MAX_SECONDS && start.get_ref().abs() <= MAX_SECONDS && duration.get_ref().abs() <= MAX_SECONDS
                {
                    p.error(
                        duration.span(),
                        format!("the clip ends at {end:e} s, beyond the ±1e6 s that blendlab accepts"),
                    );
                }
            }
            // An unknown `end`, already reported, was the attempt at a duration.
            _ => p.missing(
                &["start", "duration", "end"],
                clip.span(),
                "a clip in seconds needs both `start` and `duration`",
            ),
        },
        (false, true) => match (&c.start_frame, &c.end_frame) {
            (Some(start), Some(end)) => {
                frame_in_range(p, start, rate, "start_frame");
                frame_in_range(p, end, rate, "end_frame");
                if matches!(rate, Rate::Missing) {
                    p.error(start.span(), "clips in frames need the timeline's `frame_rate`");
                }
                if *start.get_ref() < 0 {
                    p.error(start.span(), format!("start_frame must be ≥ 0, got {}", start.get_ref()));
                }
                if end.get_ref() < start.get_ref() {
                    p.error(
                        end.span(),
                        format!("end_frame {} is before start_frame {}", end.get_ref(), start.get_ref()),
                    );
                }
            }
            _ => p.missing(
                &["start_frame", "end_frame"],
                clip.span(),
                "a clip in frames needs both `start_frame` and `end_frame` (inclusive)",
            ),
        },
    }
    if let Some(clip_in) = &c.clip_in {
        p.non_negative(clip_in, "clip_in");
    }
    if let Some(scale) = &c.time_scale
        && p.finite(scale, "time_scale")
        && !(0.001..=1000.0).contains(scale.get_ref())
    {
        p.error(scale.span(), format!("time_scale must be from 0.001 to 1000, got {}", number(*scale.get_ref())));
    }
    for (ease, what) in [(&c.ease_in, "ease_in"), (&c.ease_out, "ease_out")] {
        if let Some(ease) = ease {
            p.non_negative(ease, what);
        }
    }
    for (curve, key) in [(&c.mix_in_curve, "mix_in_curve"), (&c.mix_out_curve, "mix_out_curve")] {
        if let Some(curve) = curve
            && let RawCurve::Keys(keys) = curve.get_ref()
        {
            validate_curve_keys(p, curve.span(), keys, key);
            warn_of_falling_mix_out(p, curve.span(), keys, key);
        }
    }
}

/// A mix-out curve rises as the mix-in's does: the weight is `1 − curve(p)` (REFERENCE §3.3).
/// Unity's `mixOutCurve` falls from 1 to 0 instead, so one written that way would fade the
/// clip in at its end: a warning, with the curve to write.
fn warn_of_falling_mix_out(p: &mut Problems, span: std::ops::Range<usize>, keys: &[CurveKey], key: &str) {
    let (Some(first), Some(last)) = (keys.first(), keys.last()) else { return };
    if key != "mix_out_curve" || first[1] <= last[1] {
        return;
    }
    let reversed: Vec<String> = keys.iter().map(|k| format!("[{}, {}]", number(k[0]), number(1.0 - k[1]))).collect();
    p.warning(
        span,
        format!(
            "mix_out_curve falls from {} to {}: like mix_in_curve it rises from 0 to 1, and the clip's weight on \
             its mix-out is 1 − curve(p) (REFERENCE §3.3), so this clip would fade back in at its end; Unity's \
             mixOutCurve falls where this one rises: write [{}]",
            number(first[1]),
            number(last[1]),
            reversed.join(", ")
        ),
    );
}

/// A mix curve maps the mix's progress p ∈ [0, 1] to the clip's share of it, a weight: a key
/// outside [0, 1] in p is never reached, and one outside it in value would be clamped at run
/// time, so both are reported at the key. Too few keys are not reported when the others
/// could not be read (`key`, the curve's own key, was reported).
fn validate_curve_keys(p: &mut Problems, span: std::ops::Range<usize>, keys: &[CurveKey], key: &str) {
    const SHAPE: &str = "curve keys must be at least two finite [p, value] pairs with strictly increasing p";
    let increasing = keys.windows(2).all(|w| w[0][0] < w[1][0]);
    let finite = keys.iter().all(|k| k[0].is_finite() && k[1].is_finite());
    if !increasing || !finite {
        p.error(span, SHAPE);
    } else if keys.len() < 2 {
        p.missing(&[key], span, SHAPE);
    }
    for point in keys.iter().filter(|k| k[0].is_finite() && k[1].is_finite()) {
        let [at, value] = **point;
        if !(0.0..=1.0).contains(&at) {
            p.error(
                point.0.span(),
                format!("curve key p {} is outside [0, 1]: p runs over the mix, so it is never reached", number(at)),
            );
        }
        if !(0.0..=1.0).contains(&value) {
            p.error(
                point.0.span(),
                format!("curve key value {} is outside [0, 1]: a mix curve gives a weight", number(value)),
            );
        }
    }
}

/// The keys that name a layer's source.
const SOURCE_KEYS: [&str; 4] = ["blend_tree", "timeline", "clip", "transitions"];

pub(super) fn validate_graph(p: &mut Problems, graph: &Named<RawGraph>) {
    let g = &graph.value;
    match &g.layers {
        Some(layers) if layers.get_ref().is_empty() => {
            p.missing(&["layers"], layers.span(), format!("graph `{}` has no layers", graph.name))
        }
        Some(_) => {}
        None => p.missing(&["layers"], graph.span.clone(), format!("graph `{}` needs `layers = [...]`", graph.name)),
    }
    let mut names: Vec<&str> = Vec::new();
    for layer in g.layers() {
        let l = layer.get_ref();
        match &l.name {
            Some(name) => {
                p.name(name.span(), name.get_ref());
                if names.contains(&name.get_ref().as_str()) {
                    p.error(name.span(), format!("two layers are named `{}`", name.get_ref()));
                }
                names.push(name.get_ref());
            }
            None => p.missing(&["name"], layer.span(), "missing key `name`"),
        }
        let sources = [&l.blend_tree, &l.timeline, &l.clip, &l.transitions].iter().filter(|s| s.is_some()).count();
        if sources > 1 {
            p.error(
                layer.span(),
                "a layer needs exactly one source, not several: `blend_tree`, `timeline`, `clip` or `transitions`",
            );
        } else if sources == 0 {
            p.missing(
                &SOURCE_KEYS,
                layer.span(),
                "a layer needs exactly one source: `blend_tree`, `timeline`, `clip` or `transitions`",
            );
        }
        if let Some(weight) = &l.weight
            && p.finite(weight, "weight")
            && !(0.0..=1.0).contains(weight.get_ref())
        {
            p.error(weight.span(), format!("layer weight must be from 0 to 1, got {}", number(*weight.get_ref())));
        }
        if let Some(delay) = &l.completion_delay {
            if *delay.get_ref() < 0 {
                p.error(delay.span(), format!("completion_delay must be ≥ 0 frames, got {}", delay.get_ref()));
            }
            if l.transitions.is_none() {
                p.error(delay.span(), "`completion_delay` applies to transition layers only");
            }
        }
        if l.autoplay.is_some() && l.timeline.is_none() {
            p.error(layer.span(), "`autoplay` applies to timeline layers only");
        }
        // An empty channel name in it is one the graph cannot have: `compile` says so.
        if let Some(mask) = &l.mask {
            validate_mask(p, mask, "layer");
        }
    }
    if let Some(channels) = &g.channels {
        let mut seen: Vec<&str> = Vec::new();
        for channel in channels.get_ref() {
            channel_name(p, channel);
            if seen.contains(&channel.get_ref().as_str()) {
                p.error(channel.span(), format!("channel `{}` is listed twice", channel.get_ref()));
            }
            seen.push(channel.get_ref());
        }
        if seen.is_empty() {
            p.missing(&["channels"], channels.span(), "a graph needs at least one channel");
        }
    }
}

/// A mask lists the channels a layer (or an override sub-track) affects, each once; left out,
/// it affects them all. An empty one affects none, so whatever it plays is never seen.
fn validate_mask(p: &mut Problems, mask: &Spanned<Vec<Spanned<String>>>, what: &str) {
    if mask.get_ref().is_empty() {
        p.error(
            mask.span(),
            format!("an empty mask affects no channel, so this {what} does nothing: list its channels, or leave `mask` out for all"),
        );
    }
    let mut seen: Vec<&str> = Vec::new();
    for channel in mask.get_ref() {
        if seen.contains(&channel.get_ref().as_str()) {
            p.error(channel.span(), format!("channel `{}` is listed twice in the mask", channel.get_ref()));
        }
        seen.push(channel.get_ref());
    }
}

/// A channel is shown by name (a column of the weight table, `mask [upper]` in a graph's
/// description): an empty one could not be read there.
fn channel_name(p: &mut Problems, channel: &Spanned<String>) {
    if channel.get_ref().is_empty() {
        p.error(channel.span(), "a channel name may not be empty");
    } else if channel.get_ref().trim().is_empty() {
        p.error(channel.span(), "a channel name may not be only whitespace");
    }
}
