//! `direct` blend trees (Unity's Direct): each child's weight is a parameter of its own, for
//! layering facial shapes, additive poses or hand-driven mixes.

/// Child weights from the children's parameter values, written to `out`: `w_i = value_i`;
/// with `normalize`, divided by `Σ value` when that sum is > 0 (REFERENCE §2.6). All zero
/// stays all zero: the tree then covers nothing and the default pose shows (§2.7).
pub fn weights(values: &[f64], normalize: bool, out: &mut [f64]) {
    out.copy_from_slice(values);
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
    fn all_zero_stays_zero_and_never_nan() {
        assert_eq!(at(&[0.0, 0.0], true), [0.0, 0.0]);
        assert_eq!(at(&[0.0, 0.0], false), [0.0, 0.0]);
    }
}
