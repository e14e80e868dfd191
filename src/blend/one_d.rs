//! `1d` blend trees (Unity Simple1D; Godot BlendSpace1D for distinct thresholds).

/// Child weights for parameter `x` over `thresholds` sorted ascending, written to `out`.
///
/// `x` is clamped to `[th_0, th_{n−1}]`. Exactly on a threshold, every child at that
/// threshold gets 1 (two children sharing a threshold both get 1 — Unity's numbers, sum 2).
/// Strictly between `th_i < x < th_{i+1}`: `w_i = (th_{i+1} − x)/(th_{i+1} − th_i)`,
/// `w_{i+1} = 1 − w_i`; all other weights are 0.
pub fn weights(thresholds: &[f64], x: f64, out: &mut [f64]) {
    out.fill(0.0);
    let (Some(&lo), Some(&hi)) = (thresholds.first(), thresholds.last()) else { return };
    let x = if x.is_nan() { lo } else { x.clamp(lo, hi) };
    // The first threshold ≥ x (there is one: x ≤ the last); thresholds equal to x follow it.
    let upper = thresholds.partition_point(|&th| th < x);
    if thresholds[upper] == x {
        for (w, _) in out[upper..].iter_mut().zip(&thresholds[upper..]).take_while(|&(_, &th)| th == x) {
            *w = 1.0;
        }
        return;
    }
    let (a, b) = (thresholds[upper - 1], thresholds[upper]);
    out[upper - 1] = (b - x) / (b - a);
    out[upper] = 1.0 - out[upper - 1];
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(thresholds: &[f64], x: f64) -> Vec<f64> {
        let mut out = vec![f64::NAN; thresholds.len()];
        weights(thresholds, x, &mut out);
        out
    }

    #[test]
    fn reference_numbers() {
        // REFERENCE §2.1, thresholds [0, 1, 3].
        let th = [0.0, 1.0, 3.0];
        assert_eq!(at(&th, -1.0), [1.0, 0.0, 0.0]);
        assert_eq!(at(&th, 0.25), [0.75, 0.25, 0.0]);
        assert_eq!(at(&th, 2.0), [0.0, 0.5, 0.5]);
        assert_eq!(at(&th, 5.0), [0.0, 0.0, 1.0]);
    }

    #[test]
    fn shared_thresholds_keep_unitys_numbers() {
        let th = [0.0, 1.0, 1.0, 2.0];
        assert_eq!(at(&th, 1.0), [0.0, 1.0, 1.0, 0.0]);
        assert_eq!(at(&th, 1.5), [0.0, 0.0, 0.5, 0.5]);
        assert_eq!(at(&th, 0.5), [0.5, 0.5, 0.0, 0.0]);
    }

    #[test]
    fn one_child_always_has_weight_one() {
        assert_eq!(at(&[0.3], -7.0), [1.0]);
        assert_eq!(at(&[0.3], f64::NAN), [1.0]);
    }
}
