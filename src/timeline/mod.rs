//! Timelines (seed 000, REFERENCE §3): the compiled, read-only timeline and the per-clip
//! math — mix curves, the weight of a clip at a time, extrapolation and local time.
//!
//! A compiled [`Timeline`] is shared by every playback; per-playback state lives in
//! [`playback::Playback`].

pub mod interval_tree;
pub mod lifecycle;
pub mod playback;

use crate::compile::{ClipId, TreeId};
use crate::config::timeline::{Extrapolation, WrapMode};
use crate::event::TaskName;
use crate::time::{TICKS_PER_SECOND, Ticks};
use interval_tree::IntervalTree;

/// The shortest a looping timeline may be as written (its fixed `duration`, or where its last
/// clip ends), 1 ms: a shorter one is a compile error. Its loop then lasts at least 1 ms less
/// one tick (a derived duration ends one tick before the last clip), so a logic frame, at most
/// 1 s long, passes at most 1 000 whole loops, each unrolled into its `timeline_looped` event
/// and markers.
pub const MIN_LOOP_LENGTH: Ticks = Ticks(TICKS_PER_SECOND / 1000);

pub type TimelineId = usize;

/// A mix curve over p ∈ [0, 1]. An explicit tag (`repr(u8)`), as `graph::Source`: a weighed
/// clip matches two curves, and a tag byte is read directly where the niche in the keys'
/// capacity had to be decoded first.
#[derive(Clone, Debug, PartialEq)]
#[repr(u8)]
pub enum Curve {
    /// `3p² − 2p³` (Unity's default ease).
    Smoothstep,
    Linear,
    /// Piecewise-linear keys `(p, value)` with increasing p, clamped outside.
    Keys(Vec<(f64, f64)>),
}

impl Curve {
    /// The curve at `p`, with `p` clamped to [0, 1] first and the value clamped to [0, 1]
    /// after (REFERENCE §3.3: keys may overshoot; a mix weight never leaves [0, 1]).
    ///
    /// Always inlined where a frame weighs its clips (LLVM kept it a call, twice per weighed
    /// clip): smoothstep and linear are a few operations; keys stay out of line.
    #[inline(always)]
    pub fn at(&self, p: f64) -> f64 {
        let p = p.clamp(0.0, 1.0);
        match self {
            Curve::Smoothstep => p * p * (3.0 - 2.0 * p),
            Curve::Linear => p,
            Curve::Keys(keys) => keyed(keys, p),
        }
    }
}

/// A keyed curve at `p` in [0, 1], clamped to [0, 1] ([`Curve::at`]).
#[inline(never)]
fn keyed(keys: &[(f64, f64)], p: f64) -> f64 {
    crate::blend::params::apply_curve(keys, p).clamp(0.0, 1.0)
}

/// What a task does (REFERENCE §7); tasks only submit commands, entities act on them.
#[derive(Clone, Debug, PartialEq)]
pub enum TaskKind {
    /// Begin: start a transition to `animation` on the target's transition layer.
    PlayAnimation { animation: String, fade: f64 },
    /// Begin: play a sound of the `[audio]` catalog.
    PlayAudio { audio: String },
    /// Begin: apply a hit profile of the `[hit_profiles]` catalog.
    ApplyHit { hit_profile: String },
    /// Begin acquires the target's movement lock; Finish and Interrupt release it.
    MovementLock,
    /// Begin: a command named `name` for Lua to act on (`bl.on("command")`), with the
    /// payload table as the config gave it, if it gave one.
    Emit { name: String, payload: Option<toml::Table> },
}

impl TaskKind {
    pub const NAMES: &[&str] = &TaskName::NAMES;

    /// The optional task fields (besides `type` and `scope`) that a task type takes, and of
    /// them the one it needs, by the type's name; `None` for a name that is no task type.
    /// Every other field on a task of that type is an error (`compile`), and the JSON Schema
    /// says the same (`config::schema`).
    pub fn fields(name: &str) -> Option<(&'static [&'static str], Option<&'static str>)> {
        Some(match name {
            "PlayAnimation" => (&["animation", "fade"], Some("animation")),
            "PlayAudio" => (&["audio"], Some("audio")),
            "ApplyHit" => (&["hit_profile"], Some("hit_profile")),
            "MovementLock" => (&[], None),
            "Emit" => (&["name", "payload"], Some("name")),
            _ => return None,
        })
    }

    pub fn name(&self) -> &'static str {
        self.task_name().as_str()
    }

    /// What a task event says of this task: its kind, in one byte.
    pub fn task_name(&self) -> TaskName {
        match self {
            TaskKind::PlayAnimation { .. } => TaskName::PlayAnimation,
            TaskKind::PlayAudio { .. } => TaskName::PlayAudio,
            TaskKind::ApplyHit { .. } => TaskName::ApplyHit,
            TaskKind::MovementLock => TaskName::MovementLock,
            TaskKind::Emit { .. } => TaskName::Emit,
        }
    }
}

/// A clip's task: what it does, and whether it is flow-scoped (Disposed when the playback
/// ends, after every Finish and Interrupt, in reverse order of Begin).
#[derive(Clone, Debug, PartialEq)]
pub struct Task {
    pub kind: TaskKind,
    pub flow: bool,
}

/// What a timeline clip plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ClipMotion {
    Clip(ClipId),
    Tree(TreeId),
    /// A nested timeline (Unity's control track): its time is this clip's local time.
    Timeline(TimelineId),
}

/// A clip's weight at a time, and the span of times around it where the weight stays the same
/// ([`TimelineClip::weigh`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Weighing {
    pub weight: f64,
    /// Half-open; empty where the next tick may weigh differently.
    pub steady: std::ops::Range<Ticks>,
}

/// Where a time is for a clip's weight ([`TimelineClip::weigh`]).
enum Place {
    /// Before `start`: the weight is `mix_in(start)`.
    Before,
    /// After `end`: the weight is `mix_out(end)`.
    After,
    /// In `[start, end]`, short of a mix's end ([`progress_over`]).
    OnAMix,
    /// In `[start, end]`, past both mixes' ends (the plateau, or a tick of it whose
    /// bounds [`TimelineClip::plateau_around`] finds).
    BetweenMixes,
}

/// A compiled timeline clip. Times are ticks on the timeline; durations of mixes are seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineClip {
    /// Leaf name: `name`, or the motion's name with `#2`, `#3`… for repeats in track order;
    /// shared with the events that name it.
    pub name: crate::event::Name,
    /// Who it is across a reload: its `name` when written; else its layer, motion and place
    /// among that layer's clips of the motion (`b/nod#1`), so that a clip of the same motion
    /// added on another track, which renumbers the names, takes no playing clip's place.
    pub identity: crate::event::Name,
    /// Where it sits: index into [`Timeline::layers`]; `None` for task-only clips.
    pub layer: Option<usize>,
    pub motion: Option<ClipMotion>,
    /// Content interval `[start, end)`.
    pub start: Ticks,
    pub end: Ticks,
    pub clip_in: f64,
    pub time_scale: f64,
    /// Seconds of the mix in and out: the blend with a neighbour when there is one, else the ease.
    pub mix_in: f64,
    pub mix_out: f64,
    pub mix_in_curve: Curve,
    pub mix_out_curve: Curve,
    pub pre: Extrapolation,
    pub post: Extrapolation,
    /// Active interval `[ext_start, ext_end)` including extrapolation.
    pub ext_start: Ticks,
    pub ext_end: Ticks,
    /// Inclusive logic frames at the timeline's frame rate (for task lifecycles).
    pub frames: Option<(i64, i64)>,
    pub task: Option<Task>,
}

/// How far a span in ticks is into a length in seconds, `min(ticks / (seconds · 1e12), 1)`, and
/// whether it falls short of it (`ticks as f64 < seconds · 1e12`: on a mix of that length). A
/// span at or past the length is 1 without a division (a clip between its mixes, every frame
/// of a plateau); a curve clamps its input to [0, 1] anyway. The quotient alone does not tell
/// the two apart: a span just short of the length may divide to exactly 1.
fn progress_over(ticks: i64, seconds: f64) -> (f64, bool) {
    let (span, length) = (ticks as f64, seconds * TICKS_PER_SECOND as f64);
    if span >= length { (1.0, false) } else { (span / length, span < length) }
}

/// The fewest ticks from which [`progress_over`] is 1 for a length of `seconds`:
/// `⌈seconds · 1e12⌉` (the truncation, plus one where it falls short: `f64::ceil` is a call
/// of the math library here); `None` where no tick reaches it. Ticks as `f64` grow with
/// ticks, so every longer span is 1 too.
fn ticks_reaching(seconds: f64) -> Option<i64> {
    let length = seconds * TICKS_PER_SECOND as f64;
    let truncated = length as i64;
    let ticks = if (truncated as f64) < length { truncated.saturating_add(1) } else { truncated };
    (ticks as f64 >= length).then_some(ticks)
}

impl TimelineClip {
    fn duration(&self) -> f64 {
        (self.end - self.start).secs()
    }

    /// `mix_in(t) = curve((t − start)/mix_in)` (1 when there is no mix in), as one division
    /// of the ticks since `start` by the mix's length in ticks: a frame's weight waits on a
    /// single division (measured: 2% of a crowd frame against seconds divided twice); with
    /// whether `t` is on the mix in ([`progress_over`]; never without one).
    fn mix_in_at(&self, t: Ticks) -> (f64, bool) {
        if self.mix_in <= 0.0 {
            (1.0, false)
        } else {
            let (p, short) = progress_over((t - self.start).0, self.mix_in);
            (self.mix_in_curve.at(p), short)
        }
    }

    /// `mix_out(t) = 1 − curve((t − (end − mix_out))/mix_out) = 1 − curve(1 − (end − t)/mix_out)`
    /// (1 when there is no mix out); the quotient as in [`TimelineClip::mix_in_at`], so the
    /// weight at `end` is exactly 0; with whether `t` is on the mix out.
    fn mix_out_at(&self, t: Ticks) -> (f64, bool) {
        if self.mix_out <= 0.0 {
            (1.0, false)
        } else {
            let (p, short) = progress_over((self.end - t).0, self.mix_out);
            (1.0 - self.mix_out_curve.at(1.0 - p), short)
        }
    }

    /// Whether a playback keeps state of its own for this clip: a blend tree or a nested
    /// timeline on an animation layer. Every other clip shows its motion clip whole (inner
    /// share 1) or nothing.
    pub fn has_inner_runtime(&self) -> bool {
        self.layer.is_some() && matches!(self.motion, Some(ClipMotion::Tree(_) | ClipMotion::Timeline(_)))
    }

    /// The latest local time the clip reaches, active or frozen where it left: at its end, or
    /// later where it continues past it (local times grow with `t` but where they wrap).
    pub fn latest_local_time(&self) -> f64 {
        self.local_time_at(self.end).max(self.local_time_at(self.ext_end))
    }

    /// The clip's mixer input weight at timeline time `t` (REFERENCE §3.3): in the content
    /// interval `[start, end]` `mix_in(t)·mix_out(t)`; before it (pre-extrapolation)
    /// `mix_in(start)`; after it `mix_out(end)`.
    pub fn weight_at(&self, t: Ticks) -> f64 {
        self.weight_and_place(t).0
    }

    /// [`TimelineClip::weight_at`] and the span around `t`, half-open, over which it stays
    /// that: before `start` and after `end` (extrapolated: constant), and between the mixes,
    /// where both are at their plateau — from `start + ⌈mix_in·1e12⌉` to `end − ⌈mix_out·1e12⌉`
    /// ticks both quotients are 1 (a mix of length 0 is 1 throughout). Empty on a mix, told by
    /// the comparisons that give the quotients (a frame on a mix asks every time): one
    /// evaluation of each mix gives both.
    ///
    /// Always inlined where a playback weighs its active clips: as a call, it saved six
    /// registers and returned its span through memory on every frame of a mix (inlined, the
    /// crowd's timeline slots ran 2.9% fewer instructions).
    #[inline(always)]
    pub fn weigh(&self, t: Ticks) -> Weighing {
        let (weight, place) = self.weight_and_place(t);
        let steady = match place {
            Place::Before => Ticks(i64::MIN)..self.start,
            Place::After => Ticks(self.end.0 + 1)..Ticks(i64::MAX),
            Place::OnAMix => t..t,
            Place::BetweenMixes => self.plateau_around(t),
        };
        Weighing { weight, steady }
    }

    /// [`TimelineClip::weight_at`], and where `t` is for it.
    #[inline(always)]
    fn weight_and_place(&self, t: Ticks) -> (f64, Place) {
        if t < self.start {
            (self.mix_in_at(self.start).0, Place::Before)
        } else if t > self.end {
            (self.mix_out_at(self.end).0, Place::After)
        } else {
            let ((mix_in, short_in), (mix_out, short_out)) = (self.mix_in_at(t), self.mix_out_at(t));
            (mix_in * mix_out, if short_in || short_out { Place::OnAMix } else { Place::BetweenMixes })
        }
    }

    /// The plateau `[start + ⌈mix_in·1e12⌉, end − ⌈mix_out·1e12⌉ + 1)` where `t` is in it, else
    /// the empty `t..t`. Out of line: a playback asks once per plateau.
    #[inline(never)]
    fn plateau_around(&self, t: Ticks) -> std::ops::Range<Ticks> {
        let plateau_after = |seconds: f64| if seconds <= 0.0 { Some(0) } else { ticks_reaching(seconds) };
        let (Some(after_in), Some(before_out)) = (plateau_after(self.mix_in), plateau_after(self.mix_out)) else {
            return t..t;
        };
        let (first, last) = (self.start + Ticks(after_in), self.end - Ticks(before_out));
        if first <= t && t <= last { first..last + Ticks(1) } else { t..t }
    }

    /// The clip's local time at timeline time `t` (REFERENCE §3.4): `u = t − start`, mapped
    /// by the pre/post extrapolation mode outside `[start, end]` with the unscaled duration
    /// `d` (hold: clamp to [0, d]; loop: `u mod d`, where `u = d` at the first end stays `d`;
    /// ping_pong: `d − |(u mod 2d) − d|`; none/continue: unchanged), then
    /// `local = u·time_scale + clip_in`.
    ///
    /// Always inlined where a frame evaluates its clips (LLVM kept it a call): inside
    /// `[start, end]` it is a multiply-add, and the comparisons with `start` and `end` are
    /// those of [`TimelineClip::weight_at`]; the extrapolations stay out of line.
    #[inline(always)]
    pub fn local_time_at(&self, t: Ticks) -> f64 {
        let u = (t - self.start).secs();
        let mapped = if t < self.start {
            self.extrapolated(self.pre, u)
        } else if t > self.end {
            self.extrapolated(self.post, u)
        } else {
            u
        };
        mapped * self.time_scale + self.clip_in
    }

    /// `u` (time since `start`, seconds) outside the content interval, mapped by `mode`.
    fn extrapolated(&self, mode: Extrapolation, u: f64) -> f64 {
        let d = self.duration();
        match mode {
            Extrapolation::None | Extrapolation::Continue => u,
            Extrapolation::Hold => u.clamp(0.0, d),
            Extrapolation::Loop => {
                if u == d {
                    d
                } else {
                    u.rem_euclid(d)
                }
            }
            Extrapolation::PingPong => d - (u.rem_euclid(2.0 * d) - d).abs(),
        }
    }
}

/// One mixer of a timeline: a track's own clips (a base layer) or an override sub-track.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineLayer {
    pub name: String,
    /// The animation track this layer belongs to (index into [`Timeline::tracks`]).
    pub track: usize,
    /// Channels this layer affects; `None` = all (base layers, unmasked overrides).
    pub mask: Option<Vec<String>>,
    /// Muted layers give their clips weight 0.
    pub muted: bool,
    /// Its animation clips, sorted by start.
    pub clips: Vec<usize>,
}

/// An animation track: its base layer and override sub-tracks, in layer-mixer input order.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineTrack {
    pub name: String,
    pub layers: Vec<usize>,
}

/// A marker, in timeline ticks.
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    /// Shared with the `signal` events it fires.
    pub name: crate::event::Name,
    pub time: Ticks,
    pub retroactive: bool,
    pub emit_once: bool,
}

/// A compiled timeline: read-only, shared by all playbacks.
#[derive(Clone, Debug)]
pub struct Timeline {
    /// Shared with the events that name it.
    pub name: crate::event::Name,
    pub frame_rate: Option<u32>,
    pub wrap: WrapMode,
    /// `D`: fixed, or the latest clip end minus one tick.
    pub duration: Ticks,
    /// Every clip, animation and task-only, in track order then start order.
    pub clips: Vec<TimelineClip>,
    pub layers: Vec<TimelineLayer>,
    pub tracks: Vec<TimelineTrack>,
    /// Sorted by time (ties keep declaration order); markers of muted tracks are left out.
    pub markers: Vec<Marker>,
    /// Over the animation clips' active intervals.
    pub tree: IntervalTree,
    /// The largest end frame of any clip, when the timeline has task clips (derived, never
    /// written): the playback's lifecycle completes after processing it. `None` without tasks.
    pub lifetime: Option<i64>,
    /// `L`, where each pass of a looping timeline after the first begins: the earliest start
    /// of a clip marked `loop = true`, else 0 (see [`Timeline::pass_at`]).
    pub loop_start: Ticks,
}

impl PartialEq for Timeline {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && self.clips == other.clips && self.markers == other.markers
    }
}

impl Timeline {
    /// A timeline of duration 0 without clips, tracks or markers: what compilation fills in.
    pub fn empty(name: crate::event::Name, frame_rate: Option<u32>, wrap: WrapMode) -> Timeline {
        Timeline {
            name,
            frame_rate,
            wrap,
            duration: Ticks::ZERO,
            clips: Vec::new(),
            layers: Vec::new(),
            tracks: Vec::new(),
            markers: Vec::new(),
            tree: IntervalTree::default(),
            lifetime: None,
            loop_start: Ticks::ZERO,
        }
    }

    /// Whether a window of its time can fire anything: a marker, or the `timeline_looped` of
    /// a loop (a playback of a timeline with neither skips its windows).
    pub fn fires_in_windows(&self) -> bool {
        !self.markers.is_empty() || self.wrap == WrapMode::Loop
    }

    /// Where raw playback time `raw` falls: its pass (0 the first) and the timeline time in it.
    /// A looping timeline's first pass is `[0, D)` and every later pass replays the loop
    /// region `[L, D)`: raw `D + k·(D − L) + x` (`0 ≤ x < D − L`) is pass `k + 1` at `L + x`.
    /// With `L = 0` this is `raw mod D`, pass `raw div D`; a negative raw time (a nested
    /// timeline before its clip's start) wraps by `D`. Hold and none have one pass, clamped
    /// to `[0, D]`.
    pub fn pass_at(&self, raw: Ticks) -> (i64, Ticks) {
        let d = self.duration;
        if self.wrap != WrapMode::Loop || d <= Ticks::ZERO {
            return (0, raw.min(d).max(Ticks::ZERO));
        }
        if raw < Ticks::ZERO || self.loop_start == Ticks::ZERO {
            return (raw.0.div_euclid(d.0), Ticks(raw.0.rem_euclid(d.0)));
        }
        if raw < d {
            return (0, raw);
        }
        let (since, region) = ((raw - self.loop_start).0, (d - self.loop_start).0);
        (since / region, self.loop_start + Ticks(since % region))
    }

    /// The raw playback time at which pass `pass` is at timeline time `t` (the inverse of
    /// [`Timeline::pass_at`] on a looping timeline; `t` itself otherwise).
    pub fn raw_at(&self, pass: i64, t: Ticks) -> Ticks {
        let d = self.duration;
        if self.wrap != WrapMode::Loop || d <= Ticks::ZERO {
            t
        } else if pass <= 0 || self.loop_start == Ticks::ZERO {
            Ticks(pass * d.0) + t
        } else {
            d + Ticks((pass - 1) * (d - self.loop_start).0) + (t - self.loop_start)
        }
    }

    /// Where pass `pass` begins in timeline time: 0 for the first, `L` for the others.
    pub fn pass_start(&self, pass: i64) -> Ticks {
        if pass >= 1 { self.loop_start } else { Ticks::ZERO }
    }

    /// Whether anything reads its playbacks' task source ids: its task clips' commands, or
    /// the timelines its clips play nested, whose source ids begin with it.
    pub fn names_task_sources(&self) -> bool {
        self.lifetime.is_some() || self.clips.iter().any(|c| matches!(c.motion, Some(ClipMotion::Timeline(_))))
    }

    /// The channels the timeline's masks name, in order of first appearance.
    pub fn mask_channels(&self) -> Vec<String> {
        let mut channels: Vec<String> = Vec::new();
        for layer in &self.layers {
            for channel in layer.mask.iter().flatten() {
                if !channels.contains(channel) {
                    channels.push(channel.clone());
                }
            }
        }
        channels
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clip(start: f64, duration: f64) -> TimelineClip {
        let start_t = Ticks::from_secs(start).unwrap();
        let end = Ticks::from_secs(start + duration).unwrap();
        TimelineClip {
            name: "c".into(),
            identity: "c".into(),
            layer: Some(0),
            motion: None,
            start: start_t,
            end,
            clip_in: 0.0,
            time_scale: 1.0,
            mix_in: 0.0,
            mix_out: 0.0,
            mix_in_curve: Curve::Smoothstep,
            mix_out_curve: Curve::Smoothstep,
            pre: Extrapolation::Hold,
            post: Extrapolation::Hold,
            ext_start: start_t,
            ext_end: end,
            frames: None,
            task: None,
        }
    }

    fn at(c: &TimelineClip, t: f64) -> f64 {
        c.weight_at(Ticks::from_secs(t).unwrap())
    }

    #[test]
    fn reference_ease_weights() {
        // REFERENCE §3.3: clip [1, 5), ease_in 1, ease_out 0.5.
        let c = TimelineClip { mix_in: 1.0, mix_out: 0.5, ..clip(1.0, 4.0) };
        assert!((at(&c, 1.25) - 0.15625).abs() < 1e-12);
        assert!((at(&c, 1.5) - 0.5).abs() < 1e-12);
        assert!((at(&c, 4.75) - 0.5).abs() < 1e-12);
        assert_eq!(at(&c, 5.0), 0.0);
        // Extrapolated: mix_in(start) = 0 before, mix_out(end) = 0 after.
        assert_eq!(at(&c, 0.5), 0.0);
        assert_eq!(at(&c, 6.0), 0.0);
    }

    #[test]
    fn reference_overlap_weights() {
        // A [0,4), B [3,7): blend of 1 s each side.
        let a = TimelineClip { mix_out: 1.0, ..clip(0.0, 4.0) };
        let b = TimelineClip { mix_in: 1.0, ..clip(3.0, 4.0) };
        assert!((at(&b, 3.25) - 0.15625).abs() < 1e-12);
        assert!((at(&a, 3.25) - 0.84375).abs() < 1e-12);
    }

    #[test]
    fn reference_local_times() {
        // REFERENCE §3.4: start 2, duration 3, clip_in 0.5, time_scale 2.
        let base = TimelineClip { clip_in: 0.5, time_scale: 2.0, ..clip(2.0, 3.0) };
        let expected = [
            (Extrapolation::Hold, 0.5, 6.5),
            (Extrapolation::Loop, 2.5, 2.5),
            (Extrapolation::PingPong, 4.5, 4.5),
            (Extrapolation::Continue, -3.5, 8.5),
        ];
        for (mode, before, after) in expected {
            let c = TimelineClip { pre: mode, post: mode, ..base.clone() };
            let t0 = c.local_time_at(Ticks::ZERO);
            let t6 = c.local_time_at(Ticks::from_secs(6.0).unwrap());
            assert!((t0 - before).abs() < 1e-12, "{mode:?} t=0: {t0}");
            assert!((t6 - after).abs() < 1e-12, "{mode:?} t=6: {t6}");
        }
        let looped = TimelineClip { post: Extrapolation::Loop, ..base };
        assert_eq!(looped.local_time_at(Ticks::from_secs(5.0).unwrap()), 6.5, "u = d stays d");
    }

    #[test]
    fn the_latest_local_time_is_at_the_end_unless_the_clip_continues_past_it() {
        // Start 2, duration 3, clip_in 0.5, time_scale 2, extrapolated for 1 s after its end
        // (but `none`, which ends there).
        let base = TimelineClip { clip_in: 0.5, time_scale: 2.0, ..clip(2.0, 3.0) };
        for (mode, latest) in [
            (Extrapolation::None, 6.5),
            (Extrapolation::Hold, 6.5),
            (Extrapolation::Loop, 6.5),
            (Extrapolation::PingPong, 6.5),
            (Extrapolation::Continue, 8.5),
        ] {
            let ext_end = if mode == Extrapolation::None { base.end } else { Ticks::from_secs(6.0).unwrap() };
            let c = TimelineClip { post: mode, ext_end, ..base.clone() };
            assert!((c.latest_local_time() - latest).abs() < 1e-12, "{mode:?}: {}", c.latest_local_time());
        }
    }

    #[test]
    fn the_steady_weight_span_is_where_the_weight_stays() {
        // [0, 0.6) with linear mixes of 0.1 s: the plateau is [0.1, 0.5] s.
        let c = TimelineClip {
            mix_in: 0.1,
            mix_out: 0.1,
            mix_in_curve: Curve::Linear,
            mix_out_curve: Curve::Linear,
            ..clip(0.0, 0.6)
        };
        let s = |secs: f64| Ticks::from_secs(secs).unwrap();
        let steady = |t: Ticks| c.weigh(t).steady;
        let weight = |t: Ticks| c.weigh(t).weight;
        let plateau = steady(s(0.3));
        assert_eq!(plateau, s(0.1)..s(0.5) + Ticks(1));
        for t in [plateau.start, s(0.3), s(0.5)] {
            assert_eq!(weight(t), 1.0);
        }
        for t in [plateau.start - Ticks(1), plateau.end] {
            assert!(weight(t) < 1.0);
        }
        assert!(steady(s(0.05)).is_empty(), "on a mix");
        assert_eq!(steady(s(-1.0)), Ticks(i64::MIN)..s(0.0));
        assert_eq!(steady(s(0.7)), s(0.6) + Ticks(1)..Ticks(i64::MAX));
    }

    #[test]
    fn a_mix_is_where_its_plateau_is_not() {
        // On a mix exactly where `t` is outside `[start + ⌈mix_in·1e12⌉, end − ⌈mix_out·1e12⌉]`.
        for (mix_in, mix_out) in [(0.1, 0.1), (1.0 / 3.0, 0.05), (0.0, 0.7), (1e-12, 0.0), (0.3, 0.0)] {
            let c = TimelineClip { mix_in, mix_out, ..clip(1.0, 2.0) };
            let plateau = |seconds: f64| if seconds <= 0.0 { 0 } else { ticks_reaching(seconds).unwrap() };
            let (first, last) = (c.start + Ticks(plateau(mix_in)), c.end - Ticks(plateau(mix_out)));
            let near = |b: Ticks| (-3..=3).map(move |d| b + Ticks(d));
            for t in [c.start, first, last, c.end].into_iter().flat_map(near) {
                if (c.start..=c.end).contains(&t) {
                    assert_eq!(c.weigh(t).weight.to_bits(), c.weight_at(t).to_bits());
                    let on_a_mix = c.weigh(t).steady.is_empty();
                    assert_eq!(on_a_mix, !(first <= t && t <= last), "{mix_in} {mix_out} at {t:?}");
                }
            }
        }
    }

    #[test]
    fn curves() {
        assert_eq!(Curve::Smoothstep.at(0.5), 0.5);
        assert_eq!(Curve::Smoothstep.at(0.25), 0.15625);
        assert_eq!(Curve::Linear.at(2.0), 1.0);
        assert_eq!(Curve::Keys(vec![(0.0, 0.0), (0.5, 0.9), (1.0, 1.0)]).at(0.25), 0.45);
    }

    /// `pass_at` and `raw_at` invert each other on looping timelines with and without a loop
    /// region, and passes after the first hold only `[L, D)`: checked tick by tick over small
    /// durations (`D` 5–9 ticks, `L` 0 to `D − 1`).
    #[test]
    fn passes_of_a_loop_region_invert() {
        for d in 5..10 {
            for l in 0..d {
                let def = Timeline {
                    duration: Ticks(d),
                    loop_start: Ticks(l),
                    ..Timeline::empty("t".into(), None, WrapMode::Loop)
                };
                let mut expected = (0, Ticks::ZERO);
                for raw in 0..200 {
                    let (pass, t) = def.pass_at(Ticks(raw));
                    assert_eq!((pass, t), expected, "D {d} L {l} raw {raw}");
                    assert_eq!(def.raw_at(pass, t), Ticks(raw), "D {d} L {l} raw {raw}");
                    // The next tick: on in the pass, or the next pass from its start.
                    expected = if t + Ticks(1) < Ticks(d) { (pass, t + Ticks(1)) } else { (pass + 1, Ticks(l)) };
                }
            }
        }
    }
}
