//! The level generator. A broken-profile dynamic programme over the rectangle (cut into columns of
//! the short side) counts, for every multiset of oriented shapes, its tilings capped at 2; the
//! multisets with exactly one are the unique puzzles. Each is then solved for its tiling, and
//! tilings with a straight cut, fewer than 3 pieces, or that are not the smallest image of their
//! symmetry class are dropped.

use super::{shape_of, Board, Placements, SHAPES, SHAPE_COUNT};

/// A level: the rectangle, its pieces (numbered in reading order of their first cell) and the
/// solution as the piece index of every cell, row by row.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tiling {
    pub board: Board,
    pub pieces: Vec<u8>,
    pub solution: Vec<Vec<u8>>,
}

const BITS_PER_SHAPE: u32 = 5;
const PROFILE_SHIFT: u32 = BITS_PER_SHAPE * SHAPE_COUNT as u32;

/// The unique tilings of `board` (w >= h) that are levels, one per symmetry class, sorted.
pub fn generate(board: Board) -> Vec<Tiling> {
    assert!(board.w >= board.h && board.h >= 1, "levels are generated for w >= h");
    // The programme runs on the transposed board, whose rows are as short as possible.
    let portrait = Board { w: board.h, h: board.w };
    let unique = unique_multisets(portrait);
    let placements = Placements::new(portrait);
    let mut levels: Vec<Tiling> = unique
        .into_iter()
        .filter(|counts| counts.iter().map(|&n| n as usize).sum::<usize>() >= 3)
        .filter_map(|counts| {
            let search = placements.search(counts, 1);
            let pieces = search.first.expect("a multiset counted once has a tiling");
            let tiling = transposed_tiling(portrait, &pieces);
            (!has_straight_cut(&tiling) && is_smallest_image(&tiling)).then_some(tiling)
        })
        .collect();
    levels.sort();
    levels
}

/// Multisets (as counts per shape) that tile `board` in exactly one way.
fn unique_multisets(board: Board) -> Vec<[u8; SHAPE_COUNT]> {
    let width = board.w;
    // Relative masks of each shape anchored at a cell, and whether it fits from that column.
    let shapes: Vec<(usize, u64, isize, isize, usize)> = SHAPES
        .iter()
        .enumerate()
        .map(|(id, cells)| {
            let (ar, ac) = cells[0];
            let offsets: Vec<(usize, isize)> = cells.iter().map(|&(r, c)| (r - ar, c as isize - ac as isize)).collect();
            let mask = offsets.iter().fold(0u64, |m, &(r, c)| m | 1 << (r as isize * width as isize + c));
            let min_c = offsets.iter().map(|o| o.1).min().unwrap();
            let max_c = offsets.iter().map(|o| o.1).max().unwrap();
            let rows = offsets.iter().map(|o| o.0).max().unwrap();
            (id, mask, min_c, max_c, rows)
        })
        .collect();
    // States wait in the bucket of their first empty cell (cells already covered are skipped, not
    // stepped through). A state is a key: the profile of the cells from there on, then the multiset
    // so far, and `TWICE` once it is reached by two tilings or more. A bucket is sorted and its
    // equal keys merged when its cell comes: faster than a hash map of the same states.
    let mut buckets: Vec<Vec<u64>> = vec![Vec::new(); board.area() + 1];
    buckets[0].push(0);
    for cell in 0..board.area() {
        let (row, col) = ((cell / width), (cell % width) as isize);
        let fitting: Vec<(u64, u64)> = shapes
            .iter()
            .filter(|&&(_, _, min_c, max_c, rows)| {
                col + min_c >= 0 && col + max_c < width as isize && row + rows < board.h
            })
            .map(|&(id, mask, ..)| (mask, 1u64 << (BITS_PER_SHAPE * id as u32)))
            .collect();
        for state in merged(std::mem::take(&mut buckets[cell])) {
            let (key, twice) = (state & !TWICE, state & TWICE);
            let profile = key >> PROFILE_SHIFT;
            let multiset = key & ((1 << PROFILE_SHIFT) - 1);
            for &(mask, one) in &fitting {
                if profile & mask == 0 {
                    let covered = profile | mask;
                    let skip = covered.trailing_ones();
                    let next = (covered >> skip) << PROFILE_SHIFT | (multiset + one);
                    debug_assert!(next & TWICE == 0, "a key reached the flag's bit");
                    buckets[cell + skip as usize].push(next | twice);
                }
            }
        }
    }
    merged(std::mem::take(&mut buckets[board.area()]))
        .into_iter()
        .filter(|&state| state & TWICE == 0 && state >> PROFILE_SHIFT == 0)
        .map(|key| std::array::from_fn(|shape| ((key >> (BITS_PER_SHAPE * shape as u32)) & 31) as u8))
        .collect()
}

/// A state's flag: two tilings or more reach it. Keys stay below it: a profile reaches at most two
/// rows and two cells past its first cell (under 2^19 on the widest board, 8), above the
/// multiset's 40 bits.
const TWICE: u64 = 1 << 63;

/// The states sorted, each key once: a key that came more than once is reached twice or more.
fn merged(mut states: Vec<u64>) -> Vec<u64> {
    states.sort_unstable_by_key(|&state| state & !TWICE);
    states.dedup_by(|next, kept| {
        let same = (*next ^ *kept) & !TWICE == 0;
        if same {
            *kept |= TWICE;
        }
        same
    });
    states
}

/// The tiling found on the portrait board, turned back to the level's own orientation.
fn transposed_tiling(portrait: Board, pieces: &[(u8, u64)]) -> Tiling {
    let turned: Vec<(u8, u64)> = pieces.iter().map(|&(_, mask)| (0, transpose_mask(portrait, mask))).collect();
    tiling_of(Board { w: portrait.h, h: portrait.w }, &turned)
}

/// A tiling from placed pieces (cell masks on `board`), normalised (shapes are worked out again).
pub fn tiling_of(board: Board, pieces: &[(u8, u64)]) -> Tiling {
    let mut grid = vec![vec![u8::MAX; board.w]; board.h];
    for (index, &(_, mask)) in pieces.iter().enumerate() {
        for cell in (0..64).filter(|bit| mask >> bit & 1 == 1) {
            grid[cell / board.w][cell % board.w] = index as u8;
        }
    }
    normalise(board, &grid)
}

/// A cell mask of `board` as a mask of the transposed board (cell (r, c) goes to (c, r)).
pub(super) fn transpose_mask(board: Board, mask: u64) -> u64 {
    (0..board.area())
        .filter(|cell| mask >> cell & 1 == 1)
        .fold(0, |turned, cell| turned | 1 << ((cell % board.w) * board.h + cell / board.w))
}

/// Renumbers the pieces in reading order of their first cell and works out their shapes.
fn normalise(board: Board, grid: &[Vec<u8>]) -> Tiling {
    let mut order: Vec<u8> = Vec::new();
    let mut cells: Vec<Vec<(usize, usize)>> = Vec::new();
    let mut solution = vec![vec![0u8; board.w]; board.h];
    for r in 0..board.h {
        for c in 0..board.w {
            let label = grid[r][c];
            let index = order.iter().position(|&l| l == label).unwrap_or_else(|| {
                order.push(label);
                cells.push(Vec::new());
                order.len() - 1
            });
            cells[index].push((r, c));
            solution[r][c] = index as u8;
        }
    }
    let pieces = cells.iter().map(|cells| shape_of(cells).expect("pieces are one of the 8 shapes")).collect();
    Tiling { board, pieces, solution }
}

/// A line across the whole rectangle that cuts no piece.
pub fn has_straight_cut(tiling: &Tiling) -> bool {
    let grid = &tiling.solution;
    let (w, h) = (tiling.board.w, tiling.board.h);
    let vertical = (1..w).any(|c| (0..h).all(|r| grid[r][c - 1] != grid[r][c]));
    let horizontal = (1..h).any(|r| (0..w).all(|c| grid[r - 1][c] != grid[r][c]));
    vertical || horizontal
}

/// The images of a tiling under the rectangle's symmetries (4, or 8 for a square), normalised.
pub fn images(tiling: &Tiling) -> Vec<Tiling> {
    let Board { w, h } = tiling.board;
    let symmetries = if w == h { 8 } else { 4 };
    (0..symmetries)
        .map(|symmetry| {
            // Cell (r, c) of the image shows this source cell (the last four only for squares).
            let source = |r: usize, c: usize| match symmetry {
                0 => (r, c),
                1 => (r, w - 1 - c),
                2 => (h - 1 - r, c),
                3 => (h - 1 - r, w - 1 - c),
                4 => (c, r),
                5 => (w - 1 - c, r),
                6 => (c, h - 1 - r),
                _ => (w - 1 - c, h - 1 - r),
            };
            let image: Vec<Vec<u8>> = (0..h)
                .map(|r| {
                    (0..w)
                        .map(|c| {
                            let (sr, sc) = source(r, c);
                            tiling.solution[sr][sc]
                        })
                        .collect()
                })
                .collect();
            normalise(tiling.board, &image)
        })
        .collect()
}

fn is_smallest_image(tiling: &Tiling) -> bool {
    images(tiling).iter().all(|image| tiling.solution <= image.solution)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every multiset of the right area, counted one by one with the solver.
    fn unique_by_brute_force(board: Board) -> Vec<[u8; SHAPE_COUNT]> {
        let placements = Placements::new(board);
        let mut found = Vec::new();
        let max = board.area() / 2;
        let mut counts = [0u8; SHAPE_COUNT];
        loop {
            let area: usize = counts.iter().zip(SHAPES).map(|(&n, cells)| n as usize * cells.len()).sum();
            if area == board.area() && placements.search(counts, 2).tilings == 1 {
                found.push(counts);
            }
            // Next count vector (odometer), each digit 0..=max.
            let Some(digit) = counts.iter().position(|&n| (n as usize) < max) else { break };
            counts[digit] += 1;
            counts[..digit].fill(0);
        }
        found.sort();
        found
    }

    #[test]
    fn the_programme_finds_exactly_the_multisets_the_solver_finds_unique() {
        for board in [Board { w: 2, h: 4 }, Board { w: 3, h: 3 }, Board { w: 3, h: 4 }, Board { w: 2, h: 5 }] {
            let mut ours = unique_multisets(board);
            ours.sort();
            assert_eq!(ours, unique_by_brute_force(board), "{board:?}");
            assert!(!ours.is_empty());
        }
    }
}
