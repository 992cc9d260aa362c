//! A sort for short lists (a piece's targets, a position's legal moves, a group's liberties), by
//! hand: the standard sorts' code, one copy for each element type, weighed about 1 KB of the web
//! app's first load per type. An insertion sort: stable, and quadratic, so only for lists of at
//! most a few hundred items.

/// Sorts `items` so that none comes after one it is `less` than; equal items keep their order.
pub(crate) fn sort_small_by<T>(items: &mut [T], less: impl Fn(&T, &T) -> bool) {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && less(&items[j], &items[j - 1]) {
            items.swap(j - 1, j);
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_as_the_standard_stable_sort() {
        let mut state: u64 = 7;
        for len in 0..80 {
            let items: Vec<(u8, usize)> = (0..len)
                .map(|i| {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    ((state >> 33) as u8 % 12, i)
                })
                .collect();
            let mut expected = items.clone();
            expected.sort_by_key(|item| item.0);
            let mut sorted = items;
            sort_small_by(&mut sorted, |a, b| a.0 < b.0);
            assert_eq!(sorted, expected, "stable: equal keys keep their order");
        }
    }
}
