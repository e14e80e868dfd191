//! Tuning experiments without an actor: evaluate a tree at chosen parameter values
//! ([`Probe`]) and over a 1D range or a 2D grid of them ([`sweep`]), as `bl.sweep` does.
//!
//! Swept values are taken as settled: each is both the raw and the smoothed value, so no
//! smoothing happens, while the dead zone and the curve apply exactly as for an actor. Every
//! parameter not swept stays at its default.

use super::TreeRuntime;
use super::params::ParamState;
use crate::compile::{ParamId, Snapshot, TreeId};
use crate::config::suggestion;

/// The most rows one sweep may produce.
pub const MAX_ROWS: u64 = 100_000;

/// A tree evaluated at chosen parameter values.
#[derive(Clone, Debug)]
pub struct Probe {
    runtime: TreeRuntime,
    params: Vec<ParamState>,
}

impl Probe {
    /// Tree `tree` with every parameter at its default.
    pub fn new(snapshot: &Snapshot, tree: TreeId) -> Self {
        Probe {
            runtime: TreeRuntime::new(snapshot, tree),
            params: snapshot.parameters.iter().map(ParamState::at_default).collect(),
        }
    }

    /// Sets a parameter as settled: raw and smoothed both `value`.
    pub fn set(&mut self, param: ParamId, value: f64) {
        self.params[param] = ParamState { raw: value, smoothed: value, velocity: 0.0 };
    }

    /// The leaf weights at the values set so far (recomputed only when they changed).
    pub fn evaluate(&mut self) -> &[f64] {
        self.runtime.update(&self.params, 0.0);
        self.runtime.leaf_weights()
    }

    /// The tree's coverage at the last evaluation.
    pub fn coverage(&self) -> f64 {
        self.runtime.coverage()
    }

    pub fn runtime(&self) -> &TreeRuntime {
        &self.runtime
    }
}

/// One swept parameter: `steps + 1` values from `from` to `to`, both included (a single
/// value, `from`, when `steps` is 0).
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    pub parameter: String,
    pub from: f64,
    pub to: f64,
    pub steps: u64,
}

impl Axis {
    /// Value `k` of `0..=steps`: `from` and `to` at the ends, and between them
    /// `(from·(steps − k) + to·k) / steps` — one rounding where the sum is exact, so a value
    /// that two sweeps share comes out the same (0.05 of `-1..0.5` in 10 steps and of `0..0.5`
    /// in 10), and a round value is round (`-1..5` in 24 steps passes 0, 1 and 3 exactly).
    /// Near the largest numbers, where that sum overflows, `from·(1 − t) + to·t` with
    /// `t = k/steps`, which does not.
    pub fn value(&self, k: u64) -> f64 {
        if k == 0 {
            return self.from;
        }
        if k >= self.steps {
            return self.to;
        }
        let (n, k) = (self.steps as f64, k as f64);
        let exact = (self.from * (n - k) + self.to * k) / n;
        if exact.is_finite() {
            return exact;
        }
        let t = k / n;
        self.from * (1.0 - t) + self.to * t
    }
}

/// The result of a sweep: one row per combination of values, the first axis varying slowest.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    pub tree: String,
    /// The swept parameters, in axis order.
    pub parameters: Vec<String>,
    /// The tree's leaves, in tree order.
    pub leaves: Vec<String>,
    pub rows: Vec<SweepRow>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SweepRow {
    /// One value per swept parameter.
    pub inputs: Vec<f64>,
    /// One weight per leaf.
    pub weights: Vec<f64>,
    /// The tree's coverage; `1 − coverage` is the default pose's share.
    pub coverage: f64,
}

/// Why a sweep was refused; nothing was evaluated.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SweepError {
    #[error("no blend tree named `{name}`{}", hint_suffix(.hint))]
    UnknownTree { name: String, hint: Option<String> },
    #[error("blend tree `{tree}` does not read parameter `{name}` (it reads: {reads}){}", hint_suffix(.hint))]
    NotRead { tree: String, name: String, reads: String, hint: Option<String> },
    #[error("parameter `{0}` is swept twice")]
    Repeated(String),
    #[error(
        "`{parameter}`: from and to must be numbers within ±1e6, as a parameter's value is, got {} and {}",
        crate::config::number(*.from),
        crate::config::number(*.to)
    )]
    OutOfRange { parameter: String, from: f64, to: f64 },
    #[error("{rows} rows is more than a sweep may produce ({MAX_ROWS}); use fewer steps")]
    TooManyRows { rows: u128 },
}

fn hint_suffix(hint: &Option<String>) -> String {
    hint.as_ref().map_or(String::new(), |h| format!("; {h}"))
}

/// Evaluates tree `tree` of `snapshot` at every combination of the axes' values (settled
/// values; see the module doc). Refused before any work for an unknown tree, a parameter the
/// tree does not read, a repeated axis or one beyond ±1e6 (or NaN), or more than [`MAX_ROWS`] rows.
pub fn sweep(snapshot: &Snapshot, tree: &str, axes: &[Axis]) -> Result<Sweep, SweepError> {
    let id = snapshot.blend_tree_id(tree).ok_or_else(|| SweepError::UnknownTree {
        name: tree.into(),
        hint: suggestion(tree, snapshot.blend_trees.iter().map(|t| t.name.as_str())),
    })?;
    let mut probe = Probe::new(snapshot, id);
    let params = resolve_axes(snapshot, tree, probe.runtime().parameters(), axes)?;
    let rows: u128 = axes.iter().map(|a| u128::from(a.steps) + 1).product();
    if rows > u128::from(MAX_ROWS) {
        return Err(SweepError::TooManyRows { rows });
    }
    let mut sweep = Sweep {
        tree: tree.into(),
        parameters: axes.iter().map(|a| a.parameter.clone()).collect(),
        leaves: probe.runtime().leaves().iter().map(|l| l.name.clone()).collect(),
        rows: Vec::with_capacity(rows as usize),
    };
    let mut ks = vec![0u64; axes.len()];
    loop {
        let inputs: Vec<f64> = axes.iter().zip(&ks).map(|(axis, &k)| axis.value(k)).collect();
        for (&param, &value) in params.iter().zip(&inputs) {
            probe.set(param, value);
        }
        let weights = probe.evaluate().to_vec();
        sweep.rows.push(SweepRow { inputs, weights, coverage: probe.coverage() });
        // Odometer: the last axis turns fastest.
        let Some(turn) = (0..axes.len()).rev().find(|&i| ks[i] < axes[i].steps) else { break };
        ks[turn] += 1;
        ks[turn + 1..].fill(0);
    }
    Ok(sweep)
}

/// The parameter id of every axis, checked against what the tree reads.
fn resolve_axes(snapshot: &Snapshot, tree: &str, reads: &[ParamId], axes: &[Axis]) -> Result<Vec<ParamId>, SweepError> {
    let read_names: Vec<&str> = reads.iter().map(|&p| snapshot.parameters[p].name.as_str()).collect();
    let mut ids = Vec::with_capacity(axes.len());
    for axis in axes {
        let name = &axis.parameter;
        let Some(id) = reads.iter().copied().find(|&p| snapshot.parameters[p].name == *name) else {
            return Err(SweepError::NotRead {
                tree: tree.into(),
                name: name.clone(),
                reads: read_names.join(", "),
                hint: suggestion(name, read_names.iter().copied()),
            });
        };
        if ids.contains(&id) {
            return Err(SweepError::Repeated(name.clone()));
        }
        // The values an actor can be given (`actor:set`): within ±MAX_NUMBER (false for NaN).
        if !(axis.from.abs() <= crate::config::MAX_NUMBER && axis.to.abs() <= crate::config::MAX_NUMBER) {
            return Err(SweepError::OutOfRange { parameter: name.clone(), from: axis.from, to: axis.to });
        }
        ids.push(id);
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_values_are_exact_at_both_ends() {
        let axis = Axis { parameter: "x".into(), from: 0.1, to: 0.3, steps: 3 };
        assert_eq!(axis.value(0), 0.1);
        assert_eq!(axis.value(3), 0.3);
        let single = Axis { steps: 0, ..axis };
        assert_eq!(single.value(0), 0.1);
    }

    #[test]
    fn a_value_two_sweeps_share_is_the_same_number() {
        let axis = |from: f64, to: f64, steps: u64| Axis { parameter: "x".into(), from, to, steps };
        assert_eq!(axis(-1.0, 0.5, 10).value(7), 0.05);
        assert_eq!(axis(0.0, 0.5, 10).value(1), 0.05);
        let wide = axis(-1.0, 5.0, 24);
        assert_eq!([wide.value(4), wide.value(8), wide.value(16)], [0.0, 1.0, 3.0]);
        // Near the largest numbers the values stay finite.
        let huge = axis(-1e308, 1e308, 4);
        assert_eq!([huge.value(1), huge.value(2), huge.value(3)], [-5e307, 0.0, 5e307]);
    }
}
