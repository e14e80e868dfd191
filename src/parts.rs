//! One block of numbers cut into named parts. A runtime instance (a blend tree's, a
//! playback's) keeps every number a frame changes in one allocation, so a frame touches one
//! place in memory, and borrows all its parts at once with [`split`].

/// `numbers` cut into consecutive parts of `lengths` (which must add up to at most its length).
pub fn split<const N: usize>(numbers: &mut [f64], lengths: [usize; N]) -> [&mut [f64]; N] {
    let mut rest = numbers;
    lengths.map(|n| {
        let (part, tail) = std::mem::take(&mut rest).split_at_mut(n);
        rest = tail;
        part
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn parts_follow_each_other() {
        let mut numbers = [0.0, 1.0, 2.0, 3.0, 4.0];
        let [a, b, c] = super::split(&mut numbers, [2, 0, 3]);
        assert_eq!((&*a, &*b, &*c), (&[0.0, 1.0][..], &[][..], &[2.0, 3.0, 4.0][..]));
    }
}
