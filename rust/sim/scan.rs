//! Scans of a column that most often find nothing: whether any item of a
//! run matches, tested at once, before a loop walks the run.

use std::ops::Range;

/// How many flags (a byte each: `dead`, `special`) a loop over a pool tests
/// at once with `any_where` before it walks them: a cache line of them, and
/// most runs hold none.
pub const FLAG_RUN: usize = 64;

/// Whether `matches` holds for any of `items`: an OR over all of them, with
/// no early exit, so the compares vectorise (a short-circuit `any` or
/// `position` compiled to an item-at-a-time loop).
#[inline(always)]
pub fn any_where<T>(items: impl IntoIterator<Item = T>, matches: impl Fn(T) -> bool) -> bool {
    items.into_iter().fold(false, |any, item| any | matches(item))
}

/// `0..n` in runs of `len` (the last one shorter), for a loop that tests a
/// run with `any_where` before it walks it.
pub fn runs(n: usize, len: usize) -> impl Iterator<Item = Range<usize>> {
    (0..n).step_by(len).map(move |first| first..(first + len).min(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_cover_every_index_once_in_order() {
        for n in [0, 1, 63, 64, 65, 150] {
            let covered: Vec<usize> = runs(n, 64).flatten().collect();
            assert_eq!(covered, (0..n).collect::<Vec<_>>(), "n = {n}");
            assert!(runs(n, 64).all(|r| !r.is_empty() && r.len() <= 64));
        }
    }

    #[test]
    fn any_where_is_any() {
        let xs = [1.0f32, 2.0, 3.0, f32::NAN];
        assert!(any_where(&xs, |&x| x > 2.5));
        assert!(!any_where(&xs, |&x| x > 3.5));
        assert!(!any_where(&[] as &[bool], |&b| b));
    }
}
