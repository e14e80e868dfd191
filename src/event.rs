//! Everything observable is an [`Event`] appended to the session's log, in the order of
//! REFERENCE §1 (inputs, smoothing, actors in spawn order, commands). Printers, counters, Lua
//! listeners and assertions all read the log; nothing in the core prints.

use crate::time::Ticks;

/// Every event kind name of the public contract (DESIGN.md), for validating filters.
pub const KIND_NAMES: &[&str] = &[
    "clip_enable",
    "clip_disable",
    "clip_begin",
    "clip_tick",
    "clip_finish",
    "clip_interrupt",
    "task_dispose",
    "signal",
    "command",
    "movement_locked",
    "movement_unlocked",
    "transition_begin",
    "transition_committed",
    "stale_completion_rejected",
    "duplicate_completion_rejected",
    "timeline_looped",
    "timeline_complete",
    "timeline_interrupted",
    "timeline_missing",
    "seek",
    "reload_applied",
    "reload_failed",
    "warning",
];

/// One field value of an event, for generic printing and conversion to Lua.
#[derive(Clone, Debug, PartialEq)]
pub enum FieldValue {
    Text(String),
    Int(i64),
    Number(f64),
}

/// What happened. The snake_case names returned by [`EventKind::name`] are a public contract.
#[derive(Clone, Debug, PartialEq)]
pub enum EventKind {
    /// A timeline clip entered the active set (its interval contains the time).
    ClipEnable { clip: String },
    /// A timeline clip left the active set: weight 0, time frozen.
    ClipDisable { clip: String },
    /// A marker fired.
    Signal { name: String, timeline: String },
    /// A looping playback wrapped; `count` loops have completed.
    TimelineLooped { timeline: String, count: u64 },
    /// A playback with wrap `none` reached its duration.
    TimelineComplete { timeline: String },
    /// A playback was interrupted (or replaced).
    TimelineInterrupted { timeline: String },
    /// `play` named a timeline that does not exist.
    TimelineMissing { timeline: String },
    /// A playback jumped in time; `policy` says whether skipped markers fired.
    Seek { timeline: String, from: Ticks, to: Ticks, policy: &'static str },
    /// A config reload succeeded; `generation` counts successful library builds.
    ReloadApplied { generation: u64, files: Vec<String> },
    /// A config reload failed; the last good library stays live.
    ReloadFailed { generation: u64, errors: usize },
    /// Something worth a look that did not stop the session.
    Warning { message: String },
}

impl EventKind {
    /// The event kind's contract name (`clip_begin`, `reload_applied`, …).
    pub fn name(&self) -> &'static str {
        match self {
            EventKind::ClipEnable { .. } => "clip_enable",
            EventKind::ClipDisable { .. } => "clip_disable",
            EventKind::Signal { .. } => "signal",
            EventKind::TimelineLooped { .. } => "timeline_looped",
            EventKind::TimelineComplete { .. } => "timeline_complete",
            EventKind::TimelineInterrupted { .. } => "timeline_interrupted",
            EventKind::TimelineMissing { .. } => "timeline_missing",
            EventKind::Seek { .. } => "seek",
            EventKind::ReloadApplied { .. } => "reload_applied",
            EventKind::ReloadFailed { .. } => "reload_failed",
            EventKind::Warning { .. } => "warning",
        }
    }

    /// The kind-specific fields, in a fixed order.
    pub fn fields(&self) -> Vec<(&'static str, FieldValue)> {
        use FieldValue::*;
        let text = |s: &String| Text(s.clone());
        match self {
            EventKind::ClipEnable { clip } | EventKind::ClipDisable { clip } => vec![("clip", text(clip))],
            EventKind::Signal { name, timeline } => vec![("name", text(name)), ("timeline", text(timeline))],
            EventKind::TimelineLooped { timeline, count } => {
                vec![("timeline", text(timeline)), ("count", Int(*count as i64))]
            }
            EventKind::TimelineComplete { timeline }
            | EventKind::TimelineInterrupted { timeline }
            | EventKind::TimelineMissing { timeline } => vec![("timeline", text(timeline))],
            EventKind::Seek { timeline, from, to, policy } => vec![
                ("timeline", text(timeline)),
                ("from", Number(from.secs())),
                ("to", Number(to.secs())),
                ("policy", Text(policy.to_string())),
            ],
            EventKind::ReloadApplied { generation, files } => {
                vec![("generation", Int(*generation as i64)), ("files", Text(files.join(",")))]
            }
            EventKind::ReloadFailed { generation, errors } => {
                vec![("generation", Int(*generation as i64)), ("errors", Int(*errors as i64))]
            }
            EventKind::Warning { message } => vec![("message", Text(message.clone()))],
        }
    }
}

/// An event with where and when it happened.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// The logic frame during which it happened.
    pub frame: i64,
    /// That frame's time.
    pub time: Ticks,
    /// The actor it concerns, if any.
    pub actor: Option<String>,
    pub kind: EventKind,
}

/// Which events to select: by kind name and/or actor name.
#[derive(Clone, Debug, Default)]
pub struct EventFilter {
    pub kind: Option<String>,
    pub actor: Option<String>,
}

impl EventFilter {
    pub fn matches(&self, event: &Event) -> bool {
        self.kind.as_deref().is_none_or(|k| k == event.kind.name())
            && self.actor.as_deref().is_none_or(|a| event.actor.as_deref() == Some(a))
    }
}
