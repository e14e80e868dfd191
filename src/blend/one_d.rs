//! `1d` blend trees (Unity Simple1D; Godot BlendSpace1D for distinct thresholds).

/// A `1d` tree's thresholds, ascending, each with the reciprocal of the gap below it computed
/// once.
#[derive(Clone, Debug, PartialEq)]
pub struct Thresholds {
    values: Vec<f64>,
    /// `1/(th_i − th_{i−1})` per threshold: the gap below it (∞ for two children sharing a
    /// threshold, never read: no input falls strictly inside an empty gap; 0 for the first,
    /// whose gap below reaches to −∞, never read either). As long as `values`, so that one
    /// check covers both.
    inverse_gaps: Vec<f64>,
}

impl Thresholds {
    /// `values` must be sorted ascending (compile sorts the children by threshold).
    pub fn new(values: Vec<f64>) -> Self {
        let first = values.first().map(|_| 0.0);
        let inverse_gaps = first.into_iter().chain(values.windows(2).map(|pair| 1.0 / (pair[1] - pair[0]))).collect();
        Thresholds { values, inverse_gaps }
    }

    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// How many thresholds (children) there are.
    pub fn count(&self) -> usize {
        self.values.len()
    }

    /// Child weights for parameter `x`, written to `out` (one per threshold).
    ///
    /// `x` is clamped to `[th_0, th_{n−1}]`, a NaN read as `th_0`. Exactly on a threshold,
    /// every child at that threshold gets 1 (two children sharing a threshold both get 1 —
    /// Unity's numbers, sum 2). Strictly between `th_i < x < th_{i+1}`:
    /// `w_i = (th_{i+1} − x)·g_i` with the gap's reciprocal `g_i = 1/(th_{i+1} − th_i)`
    /// (REFERENCE's quotient to within an ulp or two; exactly it when the gap is a power of
    /// two), `w_{i+1} = 1 − w_i`; all other weights are 0. The reciprocal keeps a division off
    /// the chain from the input to the weights: 4% of a crowd frame, measured.
    ///
    /// One pass over the thresholds writes each weight as whether its threshold is x — every
    /// weight when x is on a threshold, all 0 when it is strictly between two (then no
    /// threshold is x) — and counts the thresholds below x, which gives the first one ≥ x.
    /// Zeroing the weights first was a call to `memset` for a handful of numbers; counting
    /// instead of searching costs one add per weight the pass writes anyway. The weights and
    /// reciprocals are cut to the thresholds' length up front, so that the pass and the pair
    /// it finds are checked once. Always inlined: its call was a third of its cost.
    #[inline(always)]
    pub fn weights(&self, x: f64, out: &mut [f64]) {
        self.slices().weights(x, out);
    }

    /// The thresholds and their gaps' reciprocals, as two slices of one length.
    #[inline(always)]
    pub fn slices(&self) -> ThresholdSlices<'_> {
        ThresholdSlices { values: &self.values, inverse_gaps: &self.inverse_gaps }
    }

    /// The thresholds and their gaps' reciprocals copied into arrays of `N`, so that code
    /// inlined where they are read knows their length (its passes unroll and check no bounds),
    /// and a loop over many trees keeps them in registers (borrowed, they were read again
    /// after each write to a tree's numbers, which LLVM cannot tell apart from them). `None`
    /// unless there are `N` thresholds.
    #[inline(always)]
    pub fn sized<const N: usize>(&self) -> Option<SizedThresholds<N>> {
        let values = self.values.as_slice().try_into().ok()?;
        let inverse_gaps = self.inverse_gaps.as_slice().try_into().ok()?;
        Some(SizedThresholds { values, inverse_gaps })
    }
}

/// A [`Thresholds`] of `N` thresholds, copied ([`Thresholds::sized`]).
#[derive(Clone, Copy)]
pub struct SizedThresholds<const N: usize> {
    values: [f64; N],
    inverse_gaps: [f64; N],
}

impl<const N: usize> SizedThresholds<N> {
    /// [`Thresholds::slices`] of the copy, each slice `N` long.
    #[inline(always)]
    pub fn slices(&self) -> ThresholdSlices<'_> {
        ThresholdSlices { values: &self.values, inverse_gaps: &self.inverse_gaps }
    }
}

/// A [`Thresholds`]' numbers, borrowed ([`Thresholds::slices`], [`Thresholds::sized`]).
#[derive(Clone, Copy)]
pub struct ThresholdSlices<'a> {
    values: &'a [f64],
    inverse_gaps: &'a [f64],
}

impl ThresholdSlices<'_> {
    /// How many thresholds there are.
    #[inline(always)]
    pub fn count(self) -> usize {
        self.values.len()
    }

    /// [`Thresholds::weights`].
    #[inline(always)]
    pub fn weights(self, x: f64, out: &mut [f64]) {
        self.weights_with(x, out, std::iter::repeat(()), |()| {});
    }

    /// [`Thresholds::weights`], calling `each` on the next of `children` (at least one per
    /// threshold) as the pass writes each weight (before the pair strictly around `x` is
    /// written): a caller's own work per child, in the same pass.
    #[inline(always)]
    pub fn weights_with<C>(
        self,
        x: f64,
        out: &mut [f64],
        children: impl IntoIterator<Item = C>,
        mut each: impl FnMut(C),
    ) {
        let thresholds = self.values;
        let (Some(&lo), Some(&hi)) = (thresholds.first(), thresholds.last()) else { return };
        let (out, inverse_gaps) = (&mut out[..thresholds.len()], &self.inverse_gaps[..thresholds.len()]);
        // `clamp`, with a NaN to `lo`, and no check that `lo ≤ hi`.
        let x = if x >= lo { if x > hi { hi } else { x } } else { lo };
        let mut upper = 0;
        for ((w, &th), child) in out.iter_mut().zip(thresholds).zip(children) {
            *w = if th == x { 1.0 } else { 0.0 };
            upper += usize::from(th < x);
            each(child);
        }
        // x ≤ the last threshold, so there is a first one ≥ x.
        let (th, inverse_gap) = (thresholds[upper], inverse_gaps[upper]);
        if th == x {
            return;
        }
        // x > th_0 here (x ≥ th_0 and not on a threshold), so `upper` ≥ 1.
        let ([.., below], [above, ..]) = out.split_at_mut(upper) else { return };
        *below = (th - x) * inverse_gap;
        *above = 1.0 - *below;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(thresholds: &[f64], x: f64) -> Vec<f64> {
        let mut out = vec![f64::NAN; thresholds.len()];
        Thresholds::new(thresholds.to_vec()).weights(x, &mut out);
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
    fn every_weight_is_written_at_any_count() {
        // `out` starts as NaN: each weight must be written, the zeros too.
        for count in [8, 9, 17] {
            let th: Vec<f64> = (0..count).map(|i| i as f64).collect();
            for (x, upper) in [(0.25, 1), (3.5, 4), (7.0, 7)] {
                let mut want = vec![0.0; count];
                if x == upper as f64 {
                    want[upper] = 1.0;
                } else {
                    (want[upper - 1], want[upper]) = (upper as f64 - x, x - (upper - 1) as f64);
                }
                assert_eq!(at(&th, x), want, "{count} thresholds at {x}");
            }
        }
    }

    #[test]
    fn an_input_is_clamped_and_a_nan_read_as_the_first_threshold() {
        let th = [-1.0, 0.0, 0.0, 0.5, 2.0];
        let inputs = [f64::NAN, f64::NEG_INFINITY, -7.0, -1.0, -0.0, 0.0, 0.25, 2.0, 9.0, f64::INFINITY];
        for x in inputs {
            let clamped = if x.is_nan() { th[0] } else { x.clamp(th[0], th[4]) };
            let bits = |w: Vec<f64>| w.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(at(&th, x)), bits(at(&th, clamped)), "at {x}");
        }
    }

    #[test]
    fn one_child_always_has_weight_one() {
        assert_eq!(at(&[0.3], -7.0), [1.0]);
        assert_eq!(at(&[0.3], f64::NAN), [1.0]);
    }
}
