//! Inputs as data (`[inputs.NAME]`, compiled): parameter tracks of keyframes and timed
//! triggers, and the value of a track at a time. A front end plays them on an actor.

use crate::compile::ParamId;
pub use crate::config::inputs::Interpolation;

/// One parameter's keyframes: `(time_s, value)` with strictly increasing times.
#[derive(Clone, Debug, PartialEq)]
pub struct InputTrack {
    pub parameter: ParamId,
    pub keys: Vec<(f64, f64)>,
    pub interpolation: Interpolation,
}

impl InputTrack {
    /// The value at `t` seconds: the first key's value before it, the last key's after it;
    /// between keys `(t0, v0)` and `(t1, v1)` with `u = (t − t0)/(t1 − t0)`: `linear`
    /// `v0 + (v1 − v0)·u`, `step` `v0`, `smooth` `v0 + (v1 − v0)·(3u² − 2u³)`.
    pub fn value_at(&self, t: f64) -> f64 {
        let next = self.keys.partition_point(|&(time, _)| time <= t);
        if next == 0 {
            return self.keys.first().map_or(0.0, |k| k.1);
        }
        let (t0, v0) = self.keys[next - 1];
        let Some(&(t1, v1)) = self.keys.get(next) else { return v0 };
        let u = (t - t0) / (t1 - t0);
        match self.interpolation {
            Interpolation::Linear => v0 + (v1 - v0) * u,
            Interpolation::Step => v0,
            Interpolation::Smooth => v0 + (v1 - v0) * u * u * (3.0 - 2.0 * u),
        }
    }

    /// The time of the last key: after it the value no longer changes.
    pub fn end(&self) -> f64 {
        self.keys.last().map_or(0.0, |k| k.0)
    }
}

/// What a trigger does.
#[derive(Clone, Debug, PartialEq)]
pub enum TriggerAction {
    /// Play a timeline on a layer (default: the actor's default timeline layer).
    Play { timeline: String, layer: Option<String> },
    /// Begin a transition to a state on a layer.
    Transition { target: String, layer: String, duration: f64 },
}

/// A trigger at `time` seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct Trigger {
    pub time: f64,
    pub action: TriggerAction,
    /// Where the trigger names its layer (or, without one, where it is written), as
    /// `file:line:col`: the layer is checked against an actor's graph when the inputs are
    /// played on it, and an error there points back at the config.
    pub at: String,
}

/// A compiled `[inputs.NAME]`: triggers sorted by time (ties keep file order).
#[derive(Clone, Debug, PartialEq)]
pub struct InputDef {
    pub name: String,
    pub tracks: Vec<InputTrack>,
    pub triggers: Vec<Trigger>,
}

impl InputDef {
    /// When nothing more happens: the last key or trigger.
    pub fn end(&self) -> f64 {
        self.tracks.iter().map(InputTrack::end).chain(self.triggers.iter().map(|t| t.time)).fold(0.0, f64::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn track(interpolation: Interpolation) -> InputTrack {
        InputTrack { parameter: 0, keys: vec![(1.0, 0.0), (3.0, 2.0), (4.0, 1.0)], interpolation }
    }

    #[test]
    fn values_between_and_outside_keys() {
        let linear = track(Interpolation::Linear);
        assert_eq!(
            [linear.value_at(0.0), linear.value_at(2.0), linear.value_at(3.5), linear.value_at(9.0)],
            [0.0, 1.0, 1.5, 1.0]
        );
        let step = track(Interpolation::Step);
        assert_eq!([step.value_at(2.9), step.value_at(3.0), step.value_at(3.99)], [0.0, 2.0, 2.0]);
        let smooth = track(Interpolation::Smooth);
        assert_eq!([smooth.value_at(1.5), smooth.value_at(2.0), smooth.value_at(3.0)], [0.3125, 1.0, 2.0]);
        assert_eq!(linear.end(), 4.0);
    }
}
