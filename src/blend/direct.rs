//! `direct` blend trees (Unity's Direct): each child's weight is a parameter of its own, for
//! layering facial shapes, additive poses or hand-driven mixes.

/// Child weights from the children's parameter values, written to `out`:
/// `w_i = max(value_i, 0)` (a negative value counts as 0: a share is never negative, and
/// `normalize` never divides by a sum that negative values shrank or cancelled); with
/// `normalize`, divided by `Σ w` when that sum is > 0 (REFERENCE §2.6). All zero stays all
/// zero: the tree then covers nothing and the default pose shows (§2.7).
pub fn weights(values: &[f64], normalize: bool, out: &mut [f64]) {
    for (w, &value) in out.iter_mut().zip(values) {
        *w = value.max(0.0);
    }
    if normalize {
        super::normalize(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(values: &[f64], normalize: bool) -> Vec<f64> {
        let mut out = vec![f64::NAN; values.len()];
        weights(values, normalize, &mut out);
        out
    }

    #[test]
    fn reference_rules() {
        // REFERENCE §2.6: each weight is its parameter; normalize divides by the sum.
        assert_eq!(at(&[0.2, 0.6, 0.0], false), [0.2, 0.6, 0.0]);
        for (got, want) in at(&[0.2, 0.6, 0.0], true).iter().zip([0.25, 0.75, 0.0]) {
            assert!((got - want).abs() < 1e-12, "{got} vs {want}");
        }
        assert_eq!(at(&[1.5, 0.5], true), [0.75, 0.25]);
    }

    #[test]
    fn negative_values_count_as_zero() {
        assert_eq!(at(&[5.0, -2.0], false), [5.0, 0.0]);
        assert_eq!(at(&[1.0, -1.0], true), [1.0, 0.0]);
        assert_eq!(at(&[-1.0, 0.5], true), [0.0, 1.0]);
        assert_eq!(at(&[-1.0, -0.5], true), [0.0, 0.0]);
    }

    #[test]
    fn all_zero_stays_zero_and_never_nan() {
        assert_eq!(at(&[0.0, 0.0], true), [0.0, 0.0]);
        assert_eq!(at(&[0.0, 0.0], false), [0.0, 0.0]);
    }
}
