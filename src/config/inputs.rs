//! `[inputs.NAME]`: inputs as data — per-parameter keyframes and timed triggers that
//! `bl.inputs(actor, NAME)` plays on an actor, so a tuning experiment's input is a file
//! rather than a script. Times are seconds from the moment the inputs are applied.
//!
//! ```toml
//! [inputs.run_then_hit]
//! parameters.speed = { keys = [[0.0, 0.0], [1.0, 1.0], [2.0, 0.5]], interpolation = "smooth" }
//! triggers = [{ time = 1.5, play = "hit_reaction", layer = "hit" },
//!             { time = 2.0, transition = "run", layer = "action", duration = 0.2 }]
//! ```
//! Names are checked in `compile` (parameters with a did-you-mean, timelines, states).

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use super::raw::Exact;
use super::{Named, Problems};

/// How a parameter moves between two keys.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Interpolation {
    /// Straight lines between keys.
    #[default]
    Linear,
    /// Each key's value holds until the next key.
    Step,
    /// Smoothstep `3u² − 2u³` between keys (flat at every key).
    Smooth,
}

/// One parameter's keyframes.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a parameter track like { keys = [[0.0, 0.0], [1.0, 1.0]] }")]
pub struct RawTrack {
    /// `[time_s, value]` pairs, times strictly increasing; exactly two numbers each (serde's
    /// `[f64; 2]` would ignore a third).
    pub keys: Spanned<Vec<Spanned<Exact<f64, 2>>>>,
    #[serde(default)]
    pub interpolation: Interpolation,
}

/// Something that happens at a time: a timeline played or a transition begun.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a trigger like { time = 0.5, play = \"attack\" }")]
pub struct RawTrigger {
    pub time: Spanned<f64>,
    /// A timeline to play (on `layer`, or the actor's default timeline layer).
    pub play: Option<Spanned<String>>,
    /// A state (clip or blend tree) to transition to on `layer`.
    pub transition: Option<Spanned<String>>,
    pub layer: Option<Spanned<String>>,
    /// Seconds of the transition (default 0.25).
    pub duration: Option<Spanned<f64>>,
}

/// `[inputs.NAME]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "an inputs table with `parameters` and/or `triggers`")]
pub struct RawInputs {
    #[serde(default)]
    pub parameters: BTreeMap<Spanned<String>, Spanned<RawTrack>>,
    #[serde(default)]
    pub triggers: Vec<Spanned<RawTrigger>>,
}

pub(super) fn validate_inputs(p: &mut Problems, inputs: &Named<RawInputs>) {
    for track in inputs.value.parameters.values() {
        let keys = track.get_ref().keys.get_ref();
        // A track whose keys were all unreadable (reported) is not also reported as empty.
        if keys.is_empty() {
            p.missing(
                &["keys"],
                track.get_ref().keys.span(),
                "a parameter track needs at least one key `[time_s, value]`",
            );
        }
        let mut previous: Option<f64> = None;
        for key in keys {
            let [time, value] = key.get_ref().0;
            if !(p.finite_at(key.span(), time, "key time") && p.finite_at(key.span(), value, "key value")) {
                continue;
            }
            if time < 0.0 {
                p.error(key.span(), format!("key times must be ≥ 0 seconds, got {time}"));
            }
            if previous.is_some_and(|prev| time <= prev) {
                p.error(
                    key.span(),
                    format!("key times must be strictly increasing; {time} does not follow {}", previous.unwrap()),
                );
            }
            previous = Some(time);
        }
    }
    for trigger in &inputs.value.triggers {
        let t = trigger.get_ref();
        p.non_negative(&t.time, "trigger time");
        match (&t.play, &t.transition) {
            (Some(_), Some(_)) | (None, None) => {
                p.error(trigger.span(), "a trigger does one thing: `play = \"timeline\"` or `transition = \"state\"`")
            }
            (None, Some(_)) if t.layer.is_none() => {
                p.error(trigger.span(), "a transition trigger needs the `layer` it runs on")
            }
            (Some(_), None) if t.duration.is_some() => {
                p.error(trigger.span(), "`duration` applies to transition triggers only")
            }
            _ => {}
        }
        if let Some(duration) = &t.duration {
            p.non_negative(duration, "duration");
        }
    }
}
