//! Compiling timelines and graphs (REFERENCE §3.1–3.4, §6): clip times in ticks, leaf names,
//! blends from overlaps, ease clamping, extrapolation gap times, the derived duration,
//! markers, the interval tree; graph layers with channels and masks.

use std::ops::Range;

use toml::Spanned;

use super::{
    Asset, Builder, GraphDef, LayerDef, LayerSource, MAX_NESTING_DEPTH, MaskCheck, Motion, Named, excess_roots, nesting,
};
use crate::config::timeline::{
    CurveName, DurationMode, Extrapolation, RawCurve, RawGraph, RawMarker, RawTask, RawTimeline, RawTimelineClip,
    RawTrack, TrackKind, WrapMode,
};
use crate::config::{Namespace, did_you_mean, number, suggestion};
use crate::graph::DEFAULT_CHANNEL;
use crate::time::{MAX_SECONDS, Ticks};
use crate::timeline::interval_tree::{Entry, IntervalTree};
use crate::timeline::{
    ClipMotion, Curve, MIN_LOOP_LENGTH, Marker, Task, TaskKind, Timeline, TimelineClip, TimelineId, TimelineLayer,
    TimelineTrack,
};

/// The most playbacks one playback of a timeline may need: one for itself and, for each clip
/// that plays a timeline, the playbacks of that timeline (each nested instance has its own).
pub const MAX_NESTED_PLAYBACKS: u64 = 1024;

/// Seconds of the crossfade a `PlayAnimation` task starts when it names none.
const DEFAULT_FADE: f64 = 0.1;

/// Gaps this short (1e-11 s) count as no gap.
const GAP_EPSILON: Ticks = Ticks(10);
/// Post-extrapolation of a track's last clip reaches this far (1e6 s).
const MAX_EXTRAPOLATION: Ticks = Ticks::MAX;

/// A clip on its way through compilation.
struct Pending<'a> {
    raw: &'a Spanned<RawTimelineClip>,
    clip: TimelineClip,
    ease_in: f64,
    ease_out: f64,
}

impl Builder<'_> {
    pub(super) fn timeline(&mut self, file: usize, named: &Named<RawTimeline>) -> Timeline {
        let raw = &named.value;
        self.entry_valid = named.valid;
        self.entry_reported = named.reported.clone();
        // A locally invalid rate (0, negative, huge) was reported; compile as if there were none.
        let frame_rate = raw
            .frame_rate
            .as_ref()
            .and_then(|r| u32::try_from(*r.get_ref()).ok())
            .filter(|r| (1..=crate::config::timeline::MAX_FRAME_RATE).contains(&i64::from(*r)));
        let mut timeline = Timeline::empty(named.name.as_str().into(), frame_rate, raw.wrap);
        let mut pending: Vec<Pending> = Vec::new();
        let mut markers: Vec<&Spanned<RawMarker>> = raw.markers.iter().collect();
        for track in &raw.tracks {
            self.track(file, track, false, frame_rate, &mut timeline, &mut pending, &mut markers);
        }
        self.name_clips(file, &mut pending, &timeline);
        for layer in 0..timeline.layers.len() {
            self.layer_mixes(file, &mut timeline, &mut pending, layer);
        }
        let latest_end = pending.iter().map(|p| p.clip.end).max().unwrap_or(Ticks::ZERO);
        // Its length as written: the fixed duration, or where its last clip ends.
        let (length, duration) = match (raw.duration_mode, &raw.duration) {
            (DurationMode::Fixed, Some(d)) => {
                let fixed = Ticks::from_secs(*d.get_ref()).unwrap_or(Ticks::ZERO);
                (fixed, fixed)
            }
            _ => (latest_end, Ticks(latest_end.0.saturating_sub(1).max(0))),
        };
        timeline.duration = duration;
        if raw.wrap == WrapMode::Loop && Ticks::ZERO < timeline.duration && length < MIN_LOOP_LENGTH {
            self.error(
                file,
                named.span.clone(),
                format!(
                    "looping timeline `{}` lasts {} s, shorter than the 1 ms a looping timeline must last",
                    named.name,
                    number(length.secs())
                ),
                Some(
                    "each loop is unrolled into a `timeline_looped` event and its markers, so a shorter loop \
                     would repeat more than a thousand times in a 1 Hz frame; lengthen its clips, or give it `duration_mode = \"fixed\"` and a longer `duration`"
                        .into(),
                ),
            );
        }
        timeline.loop_start = self.loop_start(file, named, &pending, timeline.duration, length);
        timeline.clips = pending.into_iter().map(|p| p.clip).collect();
        for layer in &mut timeline.layers {
            layer.clips.sort_by_key(|&c| (timeline.clips[c].start, timeline.clips[c].end));
        }
        timeline.markers = self.markers(file, &markers, frame_rate, timeline.duration);
        timeline.lifetime = lifetime(&timeline.clips, frame_rate);
        if let (DurationMode::Fixed, Some(d)) = (raw.duration_mode, &raw.duration) {
            self.cut_tasks(file, d.span(), &timeline);
        }
        let entries = timeline
            .clips
            .iter()
            .enumerate()
            .filter(|(_, c)| c.layer.is_some_and(|l| !timeline.layers[l].muted))
            .map(|(i, c)| Entry { start: c.ext_start, end: c.ext_end, item: i as u32 })
            .collect();
        timeline.tree = IntervalTree::new(entries);
        timeline
    }

    /// `L`, where each pass of a looping timeline after the first begins (REFERENCE §3.8 as
    /// blendlab extends it): the earliest start of a clip marked `loop = true`, else 0. A mark
    /// on a timeline that does not loop is a warning (it changes nothing); a loop region
    /// `[L, D)` shorter than [`MIN_LOOP_LENGTH`], or a mark at or after the end `D`, an error.
    fn loop_start(
        &mut self,
        file: usize,
        named: &Named<RawTimeline>,
        pending: &[Pending],
        duration: Ticks,
        length: Ticks,
    ) -> Ticks {
        let Some(first) = pending.iter().filter(|p| p.raw.get_ref().loop_start).min_by_key(|p| p.clip.start) else {
            return Ticks::ZERO;
        };
        let (start, span) = (first.clip.start, first.raw.span());
        if named.value.wrap != WrapMode::Loop {
            self.warning(
                file,
                span,
                format!(
                    "clip `{}` is marked `loop = true`, but timeline `{}` does not loop",
                    first.clip.name, named.name
                ),
                Some("give the timeline `wrap = \"loop\"`, or remove the mark: it changes nothing here".into()),
            );
            return Ticks::ZERO;
        }
        let region = length - start;
        let problem = if start >= duration {
            format!("at or after the end of `{}` ({} s)", named.name, number(length.secs()))
        } else if region < MIN_LOOP_LENGTH {
            format!(
                "so each later pass of `{}` would last {} s, less than the 1 ms a loop must last",
                named.name,
                number(region.secs())
            )
        } else {
            return start;
        };
        let message = format!("clip `{}` starts the loop at {} s, {problem}", first.clip.name, number(start.secs()));
        self.error(
            file,
            span,
            message,
            Some("mark an earlier clip with `loop = true`, or lengthen the timeline".into()),
        );
        Ticks::ZERO
    }

    /// Adds an animation track (its base layer and override sub-tracks) or, for a group, the
    /// tracks inside. Muting a group mutes everything inside; muting an animation track mutes
    /// only its own clips (its overrides still play, as in Unity).
    #[allow(clippy::too_many_arguments)]
    fn track<'a>(
        &mut self,
        file: usize,
        track: &'a Spanned<RawTrack>,
        muted_by_group: bool,
        rate: Option<u32>,
        timeline: &mut Timeline,
        pending: &mut Vec<Pending<'a>>,
        markers: &mut Vec<&'a Spanned<RawMarker>>,
    ) {
        let t = track.get_ref();
        let muted = muted_by_group || t.muted;
        if t.kind() == TrackKind::Group {
            for child in &t.tracks {
                self.track(file, child, muted, rate, timeline, pending, markers);
            }
            return;
        }
        let track_index = timeline.tracks.len();
        timeline.tracks.push(TimelineTrack { name: t.name().to_string(), layers: Vec::new() });
        let layers = std::iter::once((t, muted, false))
            .chain(t.overrides.iter().map(|o| (o.get_ref(), muted_by_group || o.get_ref().muted, true)));
        for (layer_track, layer_muted, is_override) in layers {
            let layer = timeline.layers.len();
            timeline.tracks[track_index].layers.push(layer);
            timeline.layers.push(TimelineLayer {
                name: layer_track.name().to_string(),
                track: track_index,
                mask: layer_track.mask.as_ref().map(|m| m.get_ref().iter().map(|c| c.get_ref().clone()).collect()),
                muted: layer_muted,
                clips: Vec::new(),
            });
            if !layer_muted {
                markers.extend(&layer_track.markers);
            }
            let default_mode = if is_override { Extrapolation::None } else { Extrapolation::Hold };
            for raw in &layer_track.clips {
                let clip = self.timeline_clip(file, raw, rate, default_mode);
                let layer = clip.motion.is_some().then_some(layer);
                if let Some(layer) = layer {
                    timeline.layers[layer].clips.push(pending.len());
                }
                let clip = TimelineClip { layer, ..clip };
                let ease_in = raw.get_ref().ease_in.as_ref().map_or(0.0, |e| *e.get_ref());
                let ease_out = raw.get_ref().ease_out.as_ref().map_or(0.0, |e| *e.get_ref());
                pending.push(Pending { raw, clip, ease_in, ease_out });
            }
        }
    }

    fn timeline_clip(
        &mut self,
        file: usize,
        raw: &Spanned<RawTimelineClip>,
        rate: Option<u32>,
        default_mode: Extrapolation,
    ) -> TimelineClip {
        let c = raw.get_ref();
        let secs = |v: &Option<Spanned<f64>>| v.as_ref().map_or(0.0, |v| *v.get_ref());
        let (start, end, frames) = match (&c.start_frame, &c.end_frame, rate) {
            (Some(sf), Some(ef), Some(rate)) => {
                let (sf, ef) = (*sf.get_ref(), *ef.get_ref());
                (Ticks::of_frame(sf, rate), Ticks::of_frame(ef.saturating_add(1), rate), Some((sf, ef)))
            }
            _ => {
                let start = Ticks::from_secs(secs(&c.start)).unwrap_or(Ticks::ZERO);
                (start, start + Ticks::from_secs(secs(&c.duration)).unwrap_or(Ticks::ZERO), None)
            }
        };
        let motion = c.motion.as_ref().and_then(|m| self.clip_motion(file, m));
        let curve = |raw: &Option<Spanned<RawCurve>>| match raw.as_ref().map(|c| c.get_ref()) {
            None | Some(RawCurve::Named(CurveName::Smoothstep)) => Curve::Smoothstep,
            Some(RawCurve::Named(CurveName::Linear)) => Curve::Linear,
            Some(RawCurve::Keys(keys)) => Curve::Keys(keys.iter().map(|k| (k[0], k[1])).collect()),
        };
        TimelineClip {
            name: "".into(),
            identity: "".into(),
            layer: None,
            motion,
            start,
            end,
            clip_in: secs(&c.clip_in),
            time_scale: c.time_scale.as_ref().map_or(1.0, |s| *s.get_ref()),
            mix_in: 0.0,
            mix_out: 0.0,
            mix_in_curve: curve(&c.mix_in_curve),
            mix_out_curve: curve(&c.mix_out_curve),
            pre: c.pre_extrapolation.as_ref().map_or(default_mode, |m| *m.get_ref()),
            post: c.post_extrapolation.as_ref().map_or(default_mode, |m| *m.get_ref()),
            ext_start: start,
            ext_end: end,
            frames: frames.or_else(|| {
                // Task clips given in seconds live on the frames they cover.
                let rate = rate.filter(|_| c.task.is_some())?;
                let first = (start.secs() * rate as f64).round() as i64;
                Some((first, ((end.secs() * rate as f64).round() as i64 - 1).max(first)))
            }),
            task: c.task.as_ref().and_then(|t| self.task(file, t)),
        }
    }

    /// Checks a task against the task types and the catalogs (REFERENCE §7).
    fn task(&mut self, file: usize, raw: &Spanned<RawTask>) -> Option<Task> {
        let t = raw.get_ref();
        let flow = match t.scope.as_ref().map(|s| s.get_ref().as_str()) {
            None | Some("clip") => false,
            Some("flow") => true,
            Some(other) => {
                let span = t.scope.as_ref().map_or(raw.span(), |s| s.span());
                let hint = suggestion(other, ["clip", "flow"]);
                self.error(file, span, format!("unknown task scope `{other}` (known: clip, flow)"), hint);
                false
            }
        };
        let kind_name = t.kind.get_ref().as_str();
        let fields = [
            ("animation", t.animation.as_ref().map(Spanned::span)),
            ("audio", t.audio.as_ref().map(Spanned::span)),
            ("hit_profile", t.hit_profile.as_ref().map(Spanned::span)),
            ("name", t.name.as_ref().map(Spanned::span)),
            ("payload", t.payload.as_ref().map(Spanned::span)),
            ("fade", t.fade.as_ref().map(Spanned::span)),
        ];
        let Some((wanted, _)) = TaskKind::fields(kind_name) else {
            let hint = suggestion(kind_name, TaskKind::NAMES.iter().copied());
            let message = format!("unknown task type `{kind_name}` (known: {})", TaskKind::NAMES.join(", "));
            self.error(file, t.kind.span(), message, hint);
            return None;
        };
        for (field, value) in fields {
            if let Some(value) = value
                && !wanted.contains(&field)
            {
                self.error(
                    file,
                    key_span(&self.sources[file].text, value),
                    format!(
                        "`{field}` does not apply to task type {kind_name} (it takes: {})",
                        if wanted.is_empty() { "nothing".to_string() } else { wanted.join(", ") }
                    ),
                    None,
                );
            }
        }
        let kind = match kind_name {
            "PlayAnimation" => {
                let animation = self.required(file, raw, &t.animation, "animation", kind_name)?;
                let is_state =
                    matches!(self.snapshot.assets.get(animation.get_ref()), Some(Asset::Clip(_) | Asset::BlendTree(_)));
                if let Some(other) = self.snapshot.assets.get(animation.get_ref()).filter(|_| !is_state) {
                    let message = format!(
                        "`{}` is a {}; PlayAnimation plays a clip or blend tree",
                        animation.get_ref(),
                        other.kind_name()
                    );
                    self.error(file, animation.span(), message, None);
                } else if !is_state {
                    let message =
                        format!("unknown animation `{}`: no clip or blend tree has that name", animation.get_ref());
                    self.unknown_name(file, animation, Namespace::Asset, message, |b| {
                        let names = b.snapshot.names_of(|a| matches!(a, Asset::Clip(_) | Asset::BlendTree(_)));
                        b.unknown_hint(animation.get_ref(), names)
                    });
                }
                let fade = t.fade.as_ref().map_or(DEFAULT_FADE, |f| *f.get_ref());
                if !(fade.is_finite() && (0.0..=MAX_SECONDS).contains(&fade)) {
                    self.error(
                        file,
                        t.fade.as_ref().map_or(raw.span(), |f| f.span()),
                        format!("fade must be from 0 to 1e6 seconds, got {}", number(fade)),
                        None,
                    );
                }
                TaskKind::PlayAnimation { animation: animation.get_ref().clone(), fade }
            }
            "PlayAudio" => {
                let audio = self.required(file, raw, &t.audio, "audio", kind_name)?;
                self.catalog_reference(file, audio, "audio", |s| &s.audio);
                TaskKind::PlayAudio { audio: audio.get_ref().clone() }
            }
            "ApplyHit" => {
                let profile = self.required(file, raw, &t.hit_profile, "hit_profile", kind_name)?;
                self.catalog_reference(file, profile, "hit profile", |s| &s.hit_profiles);
                TaskKind::ApplyHit { hit_profile: profile.get_ref().clone() }
            }
            "MovementLock" => TaskKind::MovementLock,
            _ => {
                let name = self.required(file, raw, &t.name, "name", kind_name)?;
                if let Some(payload) = &t.payload
                    && let Some(key) = non_finite(payload.get_ref())
                {
                    let message = format!(
                        "payload `{key}` is not a finite number: a payload goes to Lua and to JSON Lines, which \
                         has no inf or nan"
                    );
                    self.error(file, payload.span(), message, None);
                }
                let payload = t.payload.as_ref().map(|p| p.get_ref().clone());
                TaskKind::Emit { name: name.get_ref().clone(), payload }
            }
        };
        Some(Task { kind, flow })
    }

    fn required<'t>(
        &mut self,
        file: usize,
        raw: &Spanned<RawTask>,
        field: &'t Option<Spanned<String>>,
        key: &str,
        kind: &str,
    ) -> Option<&'t Spanned<String>> {
        let task = raw.span();
        let reported =
            |r: &crate::config::ReportedKey| r.key == key && task.start <= r.table.start && r.table.end <= task.end;
        if field.is_none() && !self.entry_reported.iter().any(reported) {
            self.error(file, raw.span(), format!("task type {kind} needs `{key}`"), None);
        }
        field.as_ref()
    }

    /// A name that must be in one of the snapshot's catalogs.
    fn catalog_reference(
        &mut self,
        file: usize,
        name: &Spanned<String>,
        what: &str,
        catalog: fn(&crate::compile::Snapshot) -> &std::collections::BTreeSet<String>,
    ) {
        if !catalog(&self.snapshot).contains(name.get_ref()) {
            let (namespace, table) =
                if what == "audio" { (Namespace::Audio, "audio") } else { (Namespace::HitProfile, "hit_profiles") };
            let message = format!("unknown {what} `{}`: it is not in the [{table}] catalog", name.get_ref());
            self.unknown_name(file, name, namespace, message, |b| {
                b.unknown_hint(name.get_ref(), catalog(&b.snapshot).iter().map(String::as_str))
            });
        }
    }

    fn clip_motion(&mut self, file: usize, name: &Spanned<String>) -> Option<ClipMotion> {
        match self.snapshot.assets.get(name.get_ref()) {
            Some(Asset::Clip(id)) => Some(ClipMotion::Clip(*id)),
            Some(Asset::BlendTree(id)) => Some(ClipMotion::Tree(*id)),
            Some(Asset::Timeline(id)) => Some(ClipMotion::Timeline(*id)),
            Some(Asset::Graph(_)) => {
                self.error(
                    file,
                    name.span(),
                    format!("`{}` is a graph; a timeline clip plays a clip, blend tree or timeline", name.get_ref()),
                    None,
                );
                None
            }
            None => {
                // The timeline being compiled joins the snapshot once compiled: its id is the
                // number of timelines there so far.
                let within = Asset::Timeline(self.snapshot.timelines.len());
                self.unknown_motions.push(super::UnknownMotion { file, name: name.clone(), within });
                None
            }
        }
    }

    /// Blends from overlaps, ease clamping and extrapolation times of one layer (REFERENCE
    /// §3.2, §3.4). Clips are taken in start order (equal starts: shorter first). A clip that
    /// ends before an earlier clip ends lies inside it (see [`Builder::clip_inside`]); a clip
    /// that starts before the end of both of the two clips before it, and lies inside
    /// neither, is warned of as a third overlapping clip.
    fn layer_mixes(&mut self, file: usize, timeline: &mut Timeline, pending: &mut [Pending], layer: usize) {
        let mut order = timeline.layers[layer].clips.clone();
        order.sort_by_key(|&i| (pending[i].clip.start, pending[i].clip.end));
        let mut blend_in = vec![0.0; order.len()];
        let mut blend_out = vec![0.0; order.len()];
        // Each clip inside an earlier one, with the earliest of the clips before it that end
        // last (`outer`, in `order`).
        let mut inside = Vec::new();
        let mut outer = 0;
        for k in 1..order.len() {
            let (prev, cur) = (&pending[order[k - 1]].clip, &pending[order[k]].clip);
            if cur.start < prev.end && cur.end >= prev.end {
                let d = (prev.end - cur.start).secs();
                blend_out[k - 1] = d;
                blend_in[k] = d;
            }
            let outer_end = pending[order[outer]].clip.end;
            if cur.end < outer_end {
                inside.push((order[k], order[outer]));
                continue;
            }
            if k >= 2 && cur.start < pending[order[k - 2]].clip.end && cur.start < prev.end {
                let span = pending[order[k]].raw.span();
                self.warn(
                    file,
                    span,
                    "three clips overlap here; Unity blends only neighbours, so the earliest is cut off".into(),
                    None,
                );
            }
            if outer_end < cur.end {
                outer = k;
            }
        }
        for (k, &i) in order.iter().enumerate() {
            let p = &mut pending[i];
            let duration = (p.clip.end - p.clip.start).secs();
            let ease_in = p.ease_in.min(duration - blend_out[k]).max(0.0);
            let ease_out = p.ease_out.min(duration - blend_in[k]).max(0.0);
            if ease_in < p.ease_in || ease_out < p.ease_out {
                let span = p.raw.span();
                self.warn(
                    file,
                    span,
                    format!("ease in/out clamped to {ease_in} s / {ease_out} s to fit the clip and its blends"),
                    None,
                );
            }
            p.clip.mix_in = if blend_in[k] > 0.0 { blend_in[k] } else { ease_in };
            p.clip.mix_out = if blend_out[k] > 0.0 { blend_out[k] } else { ease_out };
        }
        // Extrapolation: post time is the gap to the next clip (∞ for the last); pre time is
        // the gap back to the previous clip's end (to 0 for the first), but 0 when the
        // previous clip extrapolates after itself — the gap belongs to the left clip.
        for k in 0..order.len() {
            let clip = &pending[order[k]].clip;
            let post_time = match order.get(k + 1) {
                Some(&next) => gap(clip.end, pending[next].clip.start),
                None => MAX_EXTRAPOLATION,
            };
            let pre_time = match k.checked_sub(1).map(|j| &pending[order[j]].clip) {
                None => gap(Ticks::ZERO, clip.start),
                Some(prev) if prev.post != Extrapolation::None => Ticks::ZERO,
                Some(prev) => gap(prev.end, clip.start),
            };
            let clip = &mut pending[order[k]].clip;
            if clip.pre != Extrapolation::None {
                clip.ext_start = clip.start - pre_time;
            }
            if clip.post != Extrapolation::None {
                clip.ext_end = clip.end + post_time;
            }
        }
        for (inner, outer) in inside {
            self.clip_inside(file, &pending[inner], &pending[outer]);
        }
    }

    /// Warns of clip `inner` lying inside clip `outer` (`outer` starts first and ends later)
    /// on one track: only a clip and the one before it by start blend, and a clip inside the
    /// one before it gets no blend (REFERENCE §3.2), so `inner` does not blend with `outer`:
    /// the two weigh what their eases give, adding up while `inner` plays. And if `inner`
    /// extrapolates after its end to where the next clip starts (to the end of the timeline
    /// for the last clip, §3.4) at a weight above 0 (`mix_out(end)`: no ease-out), it weighs
    /// that over the rest of `outer` as well.
    fn clip_inside(&mut self, file: usize, inner: &Pending, outer: &Pending) {
        let (a, b) = (&outer.clip, &inner.clip);
        let secs = |t: Ticks| number(t.secs());
        let mut message = format!(
            "clip `{}` lies inside clip `{}` ({} s–{} s within {} s–{} s): Unity blends only neighbours and gives a \
             clip inside another no blend, so their weights add up while `{}` plays",
            b.name,
            a.name,
            secs(b.start),
            secs(b.end),
            secs(a.start),
            secs(a.end),
            b.name
        );
        let mut hint = format!(
            "split `{}` around `{}` so that the clips follow each other (overlapping where they should blend), or \
             move `{}` to another track or to an override track",
            a.name, b.name, b.name
        );
        let after = b.weight_at(b.end + Ticks(1));
        if b.ext_end > b.end && after > 0.0 {
            let until = if b.ext_end - b.end == MAX_EXTRAPOLATION {
                "to the end of the timeline".to_string()
            } else {
                format!("until {} s, where the next clip starts", secs(b.ext_end))
            };
            message += &format!(
                "; then `{}`'s post-extrapolation keeps it at weight {} from {} s {until}, over the rest of `{}`",
                b.name,
                number(after),
                secs(b.end),
                a.name
            );
            hint += &format!("; `post_extrapolation = \"none\"` ends `{}` at its end", b.name);
        }
        self.warn(file, inner.raw.span(), message, Some(hint));
    }

    /// Leaf names: `name`, or the motion's name (task-only clips: the task type) with `#2`,
    /// `#3`… for repeats in track order, skipping any name a clip was given explicitly (names
    /// cannot contain `#`, so only a bare motion name can meet one). Explicit duplicates are
    /// errors.
    fn name_clips(&mut self, file: usize, pending: &mut [Pending], timeline: &Timeline) {
        let mut used: std::collections::BTreeSet<String> = Default::default();
        for p in pending.iter_mut() {
            let Some(name) = &p.raw.get_ref().name else { continue };
            if !used.insert(name.get_ref().clone()) {
                self.error(
                    file,
                    name.span(),
                    format!("two clips of this timeline are named `{}`", name.get_ref()),
                    None,
                );
            }
            p.clip.name = name.get_ref().as_str().into();
            p.clip.identity = p.clip.name.clone();
        }
        let mut repeats: std::collections::BTreeMap<String, usize> = Default::default();
        let mut in_layer: std::collections::BTreeMap<(Option<usize>, String), usize> = Default::default();
        for p in pending.iter_mut() {
            let raw = p.raw.get_ref();
            if raw.name.is_none() {
                let base = raw
                    .motion
                    .as_ref()
                    .map(|m| m.get_ref().clone())
                    .or_else(|| raw.task.as_ref().map(|t| t.get_ref().kind.get_ref().clone()))
                    .unwrap_or_else(|| "clip".into());
                let place = in_layer.entry((p.clip.layer, base.clone())).or_insert(0);
                *place += 1;
                let layer = p.clip.layer.map(|l| &timeline.layers[l]);
                let path = layer.map_or(String::new(), |l| format!("{}/{}", timeline.tracks[l.track].name, l.name));
                p.clip.identity = format!("{path}/{base}#{place}").into();
                let seen = repeats.entry(base.clone()).or_insert(0);
                p.clip.name = loop {
                    *seen += 1;
                    let name = if *seen == 1 { base.clone() } else { format!("{base}#{seen}") };
                    if used.insert(name.clone()) {
                        break name.into();
                    }
                };
            }
            if raw.motion.is_none() && raw.task.is_none() {
                let span = p.raw.span();
                self.warn(
                    file,
                    span,
                    format!("clip `{}` has neither a motion nor a task; it does nothing", p.clip.name),
                    None,
                );
            }
        }
    }

    /// Markers in ticks, sorted by time. A marker at or just past the end moves to one tick
    /// before the duration `D`, so every pass of time can reach it; later ones are errors.
    fn markers(&mut self, file: usize, raw: &[&Spanned<RawMarker>], rate: Option<u32>, duration: Ticks) -> Vec<Marker> {
        let mut markers = Vec::new();
        for marker in raw {
            let m = marker.get_ref();
            // A marker without a name was reported where it was read.
            let Some(name) = &m.name else { continue };
            let time = match (&m.time, &m.frame, rate) {
                (Some(t), _, _) => Ticks::from_secs(*t.get_ref()).ok(),
                (None, Some(f), Some(rate)) => Some(Ticks::of_frame(*f.get_ref(), rate)).filter(|t| *t <= Ticks::MAX),
                _ => None,
            };
            // A time beyond ±1e6 s was reported where it was read.
            let Some(time) = time else { continue };
            if time > duration + Ticks(1) {
                let span = marker.span();
                self.error(
                    file,
                    span,
                    format!(
                        "marker `{}` at {} s is outside the timeline (duration {} s)",
                        name.get_ref(),
                        time,
                        duration
                    ),
                    None,
                );
                continue;
            }
            let time = if time >= duration { Ticks((duration.0 - 1).max(0)) } else { time };
            markers.push(Marker {
                name: name.get_ref().as_str().into(),
                time,
                retroactive: m.retroactive,
                emit_once: m.emit_once,
            });
        }
        markers.sort_by_key(|m| m.time);
        markers
    }

    pub(super) fn graph(&mut self, file: usize, named: &Named<RawGraph>) -> GraphDef {
        let raw = &named.value;
        let channels: Vec<String> = raw.channels.as_ref().map_or_else(
            || vec![DEFAULT_CHANNEL.to_string()],
            |c| c.get_ref().iter().map(|c| c.get_ref().clone()).collect(),
        );
        // Without `channels` the graph has one, `body`: the channels its masks name, for a hint.
        let mut masked: Vec<&str> = Vec::new();
        if raw.channels.is_none() {
            let names = raw.layers().iter().filter_map(|l| l.get_ref().mask.as_ref()).flat_map(|m| m.get_ref());
            for name in names {
                if !masked.contains(&name.get_ref().as_str()) {
                    masked.push(name.get_ref());
                }
            }
        }
        let undeclared = raw.channels.is_none().then_some(&masked[..]);
        let mut layers = Vec::new();
        for layer in raw.layers() {
            let l = layer.get_ref();
            let mask =
                l.mask.as_ref().map(|m| self.channel_indices(file, m.get_ref(), &channels, &named.name, undeclared));
            let Some(source) = self.layer_source(file, layer, &channels, &named.name) else { continue };
            layers.push(LayerDef {
                name: l.name().to_string(),
                source,
                weight: l.weight.as_ref().map_or(1.0, |w| *w.get_ref()),
                mask,
                additive: l.additive,
            });
        }
        GraphDef { name: named.name.clone(), channels, layers }
    }

    /// The indices of the channels a mask names; each unknown one is an error. `undeclared`:
    /// the graph declares no `channels` (it has one, `body`), and these are the channels its
    /// masks name, for the hint to declare them.
    fn channel_indices(
        &mut self,
        file: usize,
        names: &[Spanned<String>],
        channels: &[String],
        graph: &str,
        undeclared: Option<&[&str]>,
    ) -> Vec<usize> {
        names
            .iter()
            .filter_map(|name| {
                let found = channels.iter().position(|c| c == name.get_ref());
                if found.is_none() {
                    let (message, hint) = match undeclared {
                        Some(masked) => {
                            let quoted: Vec<String> = masked.iter().map(|m| format!("{m:?}")).collect();
                            let message = format!(
                                "graph `{graph}` has no channel `{}`: a graph that declares no `channels` has one, \
                                 `{DEFAULT_CHANNEL}`",
                                name.get_ref()
                            );
                            let hint = format!(
                                "declare the parts of the pose its masks name, and the rest, on the graph: \
                                 `channels = [{}, …]` under [graphs.{graph}]",
                                quoted.join(", ")
                            );
                            (message, Some(hint))
                        }
                        None => {
                            let hint = suggestion(name.get_ref(), channels.iter().map(String::as_str));
                            let channels = channels.join(", ");
                            (
                                format!("graph `{graph}` has no channel `{}` (channels: {channels})", name.get_ref()),
                                hint,
                            )
                        }
                    };
                    self.error(file, name.span(), message, hint);
                }
                found
            })
            .collect()
    }

    fn layer_source(
        &mut self,
        file: usize,
        layer: &Spanned<crate::config::timeline::RawLayer>,
        channels: &[String],
        graph: &str,
    ) -> Option<LayerSource> {
        let l = layer.get_ref();
        let (name, want): (&Spanned<String>, &str) = match (&l.blend_tree, &l.timeline, &l.clip, &l.transitions) {
            (Some(n), _, _, _) => (n, "blend tree"),
            (_, Some(n), _, _) => (n, "timeline"),
            (_, _, Some(n), _) => (n, "clip"),
            (_, _, _, Some(n)) => (n, "state"),
            _ => return None,
        };
        let found = self.snapshot.assets.get(name.get_ref()).copied();
        let source = match (want, found) {
            ("blend tree", Some(Asset::BlendTree(id))) => LayerSource::BlendTree(id),
            ("clip", Some(Asset::Clip(id))) => LayerSource::Clip(id),
            ("timeline", Some(Asset::Timeline(id))) => {
                LayerSource::Timeline { timeline: id, autoplay: l.autoplay.unwrap_or(true) }
            }
            ("state", Some(Asset::Clip(_) | Asset::BlendTree(_))) => LayerSource::Transitions {
                initial: name.get_ref().clone(),
                completion_delay: l.completion_delay.as_ref().map_or(0, |d| (*d.get_ref()).max(0) as u64),
            },
            _ => {
                let kinds: fn(&Asset) -> bool = match want {
                    "blend tree" => |a| matches!(a, Asset::BlendTree(_)),
                    "clip" => |a| matches!(a, Asset::Clip(_)),
                    "state" => |a| matches!(a, Asset::Clip(_) | Asset::BlendTree(_)),
                    _ => |a| matches!(a, Asset::Timeline(_)),
                };
                let want = if want == "state" { "clip or blend tree (transition state)" } else { want };
                match found {
                    Some(other) => {
                        let message = format!("`{}` is a {}, not a {want}", name.get_ref(), other.kind_name());
                        self.error(file, name.span(), message, None);
                    }
                    None => {
                        let message = format!("no {want} named `{}`", name.get_ref());
                        self.unknown_name(file, name, Namespace::Asset, message, |b| {
                            b.unknown_hint(name.get_ref(), b.snapshot.names_of(kinds))
                        });
                    }
                }
                return None;
            }
        };
        if let LayerSource::Timeline { timeline, .. } = source {
            self.pending_mask_checks.push(MaskCheck {
                file,
                span: name.span(),
                timeline,
                channels: channels.to_vec(),
                graph: graph.to_string(),
            });
        }
        Some(source)
    }

    /// Every channel a graph's timeline layers mask must exist in the graph (checked once all
    /// timelines are compiled).
    /// Masks a graph's timeline layers play against its channels. The problem is reported at
    /// the layer, not at the timeline's mask: a timeline may be played by several graphs, and
    /// the mask is wrong only for those without the channel.
    pub(super) fn check_timeline_masks(&mut self) {
        for MaskCheck { file, span, timeline, channels, graph } in std::mem::take(&mut self.pending_mask_checks) {
            let missing: Vec<String> = self.snapshot.timelines[timeline]
                .mask_channels()
                .into_iter()
                .filter(|c| !channels.contains(c))
                .collect();
            if !missing.is_empty() {
                let name = self.snapshot.timelines[timeline].name.clone();
                let message = format!(
                    "timeline `{name}` masks channel(s) {} that graph `{graph}` does not have (channels: {})",
                    missing.join(", "),
                    channels.join(", ")
                );
                self.error(file, span.clone(), message, mask_hint(&missing, &channels));
            }
        }
    }

    /// The timelines each timeline's clips play, by timeline id, once per clip.
    pub(super) fn nested_timelines(&self) -> Vec<Vec<TimelineId>> {
        let nested = |timeline: &Timeline| -> Vec<TimelineId> {
            timeline
                .clips
                .iter()
                .filter_map(|c| match c.motion {
                    Some(ClipMotion::Timeline(t)) => Some(t),
                    _ => None,
                })
                .collect()
        };
        self.snapshot.timelines.iter().map(nested).collect()
    }

    /// Reports nested timelines that (indirectly) contain themselves: one cycle per group of
    /// timelines that play each other (see [`super::find_cycles`]), at its first timeline in
    /// load order, naming it.
    pub(super) fn check_timeline_cycles(&mut self, spans: &[(usize, Range<usize>)]) {
        let graph = self.nested_timelines();
        for cycle in super::find_cycles(&graph) {
            let names: Vec<&str> = cycle.iter().map(|&t| &*self.snapshot.timelines[t].name).collect();
            let message = format!("timeline cycle: {} → {}", names.join(" → "), names[0]);
            let (file, span) = spans[cycle[0]].clone();
            self.error(
                file,
                span,
                message,
                Some("a timeline clip cannot play its own timeline, directly or through others".into()),
            );
        }
    }

    /// Reports timelines over [`MAX_NESTED_PLAYBACKS`] or [`MAX_NESTING_DEPTH`], counted over
    /// the timeline graph without building anything, where the excess begins (see
    /// [`excess_roots`]). A playback of a timeline is one playback for itself and, for each
    /// clip that plays a timeline, the playbacks of that timeline.
    pub(super) fn check_timeline_sizes(&mut self, spans: &[(usize, Range<usize>)]) {
        let nested = self.nested_timelines();
        let sizes = nesting(&vec![1; nested.len()], &nested);
        for timeline in excess_roots(&sizes, &nested, |n| n.total > MAX_NESTED_PLAYBACKS) {
            let (file, span) = spans[timeline].clone();
            let message = format!(
                "timeline `{}` needs {} playbacks, itself and its nested timelines, over the limit of \
                 {MAX_NESTED_PLAYBACKS}",
                self.snapshot.timelines[timeline].name, sizes[timeline].total
            );
            let hint = "each clip that plays a timeline has a playback of it, with the playbacks of every timeline \
                        nested in that one; any timeline that contains this one is over the limit too";
            self.error(file, span, message, Some(hint.into()));
        }
        for timeline in excess_roots(&sizes, &nested, |n| n.depth > MAX_NESTING_DEPTH) {
            let (file, span) = spans[timeline].clone();
            let message = format!(
                "timeline `{}` nests timelines {} deep, over the limit of {MAX_NESTING_DEPTH}",
                self.snapshot.timelines[timeline].name, sizes[timeline].depth
            );
            let hint = "a timeline that plays no timeline is 0 deep, one that plays it 1 deep, and so on; any \
                        timeline that contains this one is over the limit too";
            self.error(file, span, message, Some(hint.into()));
        }
    }

    /// Warns of each task clip of `timeline` that its `fixed` duration (written at `span`)
    /// cuts: with `wrap = "none"` the playback completes at the frame of its end, with
    /// `loop` each pass ends before it, and a task still running there gets Interrupt, not
    /// Finish (with `hold` the frames run on to the lifetime).
    fn cut_tasks(&mut self, file: usize, span: Range<usize>, timeline: &Timeline) {
        let Some(rate) = timeline.frame_rate else { return };
        let (last, cut) = match timeline.wrap {
            WrapMode::None => (timeline.duration.last_frame_at(rate), "the playback completes there"),
            WrapMode::Loop => ((timeline.duration - Ticks(1)).last_frame_at(rate), "each pass ends there"),
            WrapMode::Hold => return,
        };
        for clip in &timeline.clips {
            let (Some(task), Some((_, end))) = (&clip.task, clip.frames) else { continue };
            if end > last {
                let message = format!(
                    "task clip `{}` ends at frame {end}, after the last frame of `{}`'s fixed duration ({} s, frame \
                     {last}): {cut}, and its {} task gets Interrupt, not Finish",
                    clip.name,
                    timeline.name,
                    number(timeline.duration.secs()),
                    task.kind.task_name().as_str()
                );
                let hint = format!("lengthen `duration`, or end the clip by frame {last}");
                self.warn(file, span.clone(), message, Some(hint));
            }
        }
    }

    /// A warning about the timeline being compiled, if it is locally valid.
    fn warn(&mut self, file: usize, span: Range<usize>, message: String, hint: Option<String>) {
        if self.entry_valid {
            self.warning(file, span, message, hint);
        }
    }
}

/// The gap from `end` to `start`, 0 when they overlap or the gap is within 1e-11 s.
fn gap(end: Ticks, start: Ticks) -> Ticks {
    let gap = start - end;
    if gap <= GAP_EPSILON { Ticks::ZERO } else { gap }
}

/// Unused by motion resolution in blend trees: timelines cannot be blend-tree children.
pub(super) fn is_blend_motion(asset: Asset) -> Option<Motion> {
    match asset {
        Asset::Clip(id) => Some(Motion::Clip(id)),
        Asset::BlendTree(id) => Some(Motion::Tree(id)),
        Asset::Timeline(_) | Asset::Graph(_) => None,
    }
}

/// The channels of a graph that the unknown channels of a timeline's masks most likely meant:
/// "did you mean `upper`?", or for several, "did you mean `upper` for `uper`, …?".
pub(crate) fn mask_hint(missing: &[String], channels: &[String]) -> Option<String> {
    let meant: Vec<(&String, &str)> =
        missing.iter().filter_map(|m| did_you_mean(m, channels.iter().map(String::as_str)).map(|c| (m, c))).collect();
    match meant.as_slice() {
        [] => None,
        [(_, channel)] if missing.len() == 1 => Some(format!("did you mean `{channel}`?")),
        _ => {
            let pairs: Vec<String> = meant.iter().map(|(m, c)| format!("`{c}` for `{m}`")).collect();
            Some(format!("did you mean {}?", pairs.join(", ")))
        }
    }
}

/// The span of the key written before a value (`key = value`, the key bare or quoted): what a
/// problem with the key itself (it does not belong there) points at. The value's own span
/// when the text before it is not `key =` (a table given by a header).
fn key_span(text: &str, value: Range<usize>) -> Range<usize> {
    let Some(before) = text.get(..value.start).and_then(|b| b.trim_end().strip_suffix('=')) else { return value };
    let before = before.trim_end();
    let start = match before.chars().last() {
        Some(quote @ ('"' | '\'')) => before[..before.len() - 1].rfind(quote),
        _ => {
            let bare = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
            Some(before.char_indices().rev().find(|(_, c)| !bare(*c)).map_or(0, |(i, c)| i + c.len_utf8()))
        }
    };
    match start {
        Some(start) if start < before.len() => start..before.len(),
        _ => value,
    }
}

/// The playback's lifetime (REFERENCE §4) when the timeline has task clips: the largest end
/// frame of any of its clips, a clip in seconds ending on the last frame before its end (the
/// frame `end_frame` names when written in frames). `None` without task clips.
fn lifetime(clips: &[TimelineClip], frame_rate: Option<u32>) -> Option<i64> {
    let rate = frame_rate.filter(|_| clips.iter().any(|c| c.task.is_some()))?;
    clips.iter().map(|c| (c.end - Ticks(1)).last_frame_at(rate)).max()
}

/// The dotted key of the first number in `table` that is not finite (`inf`, `nan`), if any.
fn non_finite(table: &toml::Table) -> Option<String> {
    fn find(value: &toml::Value) -> Option<String> {
        match value {
            toml::Value::Float(x) if !x.is_finite() => Some(String::new()),
            toml::Value::Array(items) => {
                items.iter().enumerate().find_map(|(i, v)| find(v).map(|k| format!("[{i}]{k}")))
            }
            toml::Value::Table(table) => non_finite(table).map(|k| format!(".{k}")),
            _ => None,
        }
    }
    table.iter().find_map(|(key, value)| find(value).map(|rest| format!("{key}{rest}")))
}
