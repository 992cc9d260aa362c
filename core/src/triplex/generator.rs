//! The level generator. A broken-profile dynamic programme over the rectangle (cut into columns of
//! the short side) counts, for every multiset of oriented shapes, its tilings capped at 2; the
//! multisets with exactly one are the unique puzzles. One multiset of each symmetry class is then
//! solved for its tiling; tilings with a straight cut or fewer than 3 pieces are dropped, and each
//! class is kept as its smallest image.

use std::collections::HashMap;
use std::rc::Rc;

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

/// The unique tilings of `board` (w >= h) that are levels, one per symmetry class, sorted.
pub fn generate(board: Board) -> Vec<Tiling> {
    assert!(board.w >= board.h && board.h >= 1, "levels are generated for w >= h");
    // The programme runs on the transposed board, whose rows are as short as possible.
    let portrait = Board { w: board.h, h: board.w };
    let unique = unique_multisets(portrait);
    let placements = Placements::new(portrait);
    // The images of a unique tiling are the unique tilings of the images of its multiset: one
    // multiset of each class is solved, and its tiling's smallest image kept.
    let symmetries = shape_symmetries(portrait);
    let mut levels: Vec<Tiling> = unique
        .into_iter()
        .filter(|counts| counts.iter().map(|&n| n as usize).sum::<usize>() >= 3)
        .filter(|counts| symmetries.iter().all(|turn| *counts <= std::array::from_fn(|shape| counts[turn[shape]])))
        .filter_map(|counts| {
            let search = placements.search(counts, 1);
            let pieces = search.first.expect("a multiset counted once has a tiling");
            let tiling = transposed_tiling(portrait, &pieces);
            (!has_straight_cut(&tiling)).then(|| smallest_image(&tiling))
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
    // States wait at their first empty cell (cells already covered are skipped, not stepped
    // through), grouped by the profile of the cells from there on. A group's states are the
    // multisets so far, sorted, each with `TWICE` once two tilings or more reach it. Placing a
    // piece adds the same count to every multiset of a group, which keeps them sorted: a group
    // arrives as sorted runs (shared with the group they came from, plus the piece), merged when
    // its cell comes. No sort and no hashing per state.
    let mut waiting: Vec<HashMap<u64, Vec<Run>>> = vec![HashMap::new(); board.area() + 1];
    waiting[0].insert(0, vec![Run { states: Rc::new(vec![0]), added: 0 }]);
    for cell in 0..board.area() {
        let (row, col) = ((cell / width), (cell % width) as isize);
        let fitting: Vec<(u64, u64)> = shapes
            .iter()
            .filter(|&&(_, _, min_c, max_c, rows)| {
                col + min_c >= 0 && col + max_c < width as isize && row + rows < board.h
            })
            .map(|&(id, mask, ..)| (mask, 1u64 << (BITS_PER_SHAPE * id as u32)))
            .collect();
        for (profile, runs) in std::mem::take(&mut waiting[cell]) {
            let group = merged(runs);
            for &(mask, one) in &fitting {
                if profile & mask == 0 {
                    let covered = profile | mask;
                    let skip = covered.trailing_ones();
                    let run = Run { states: Rc::clone(&group.states), added: group.added + one };
                    waiting[cell + skip as usize].entry(covered >> skip).or_default().push(run);
                }
            }
        }
    }
    let mut done = std::mem::take(&mut waiting[board.area()]);
    let group = merged(done.remove(&0).unwrap_or_default());
    group
        .states
        .iter()
        .map(|&state| state + group.added)
        .filter(|&state| state & TWICE == 0)
        .map(|key| std::array::from_fn(|shape| ((key >> (BITS_PER_SHAPE * shape as u32)) & 31) as u8))
        .collect()
}

/// A state's flag: two tilings or more reach it. A multiset takes 40 bits, far below it.
const TWICE: u64 = 1 << 63;

/// Sorted multisets (with their flags), each plus `added` (the pieces placed since they were
/// stored).
#[derive(Clone, Default)]
struct Run {
    states: Rc<Vec<u64>>,
    added: u64,
}

/// One sorted run of a group's runs, each multiset once: one that came in two runs or more is
/// reached twice or more. The runs are merged in pairs, as in a merge sort.
fn merged(mut runs: Vec<Run>) -> Run {
    while runs.len() > 1 {
        let mut pairs = Vec::with_capacity(runs.len().div_ceil(2));
        let mut rest = runs.into_iter();
        while let Some(first) = rest.next() {
            pairs.push(match rest.next() {
                Some(second) => merged_pair(&first, &second),
                None => first,
            });
        }
        runs = pairs;
    }
    runs.pop().unwrap_or_default()
}

fn merged_pair(first: &Run, second: &Run) -> Run {
    let (a, b) = (&first.states[..], &second.states[..]);
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i] + first.added, b[j] + second.added);
        let (kx, ky) = (x & !TWICE, y & !TWICE);
        if kx < ky {
            out.push(x);
            i += 1;
        } else if ky < kx {
            out.push(y);
            j += 1;
        } else {
            out.push(kx | TWICE);
            i += 1;
            j += 1;
        }
    }
    out.extend(a[i..].iter().map(|&state| state + first.added));
    out.extend(b[j..].iter().map(|&state| state + second.added));
    Run { states: Rc::new(out), added: 0 }
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

/// The images of a tiling under the rectangle's symmetries, normalised.
pub fn images(tiling: &Tiling) -> Vec<Tiling> {
    let Board { w, h } = tiling.board;
    (0..symmetry_count(tiling.board))
        .map(|symmetry| {
            let image: Vec<Vec<u8>> = (0..h)
                .map(|r| {
                    (0..w)
                        .map(|c| {
                            let (sr, sc) = symmetric_cell(symmetry, (r, c), (h - 1, w - 1));
                            tiling.solution[sr][sc]
                        })
                        .collect()
                })
                .collect();
            normalise(tiling.board, &image)
        })
        .collect()
}

/// A rectangle's symmetries: 4, or 8 for a square.
fn symmetry_count(board: Board) -> usize {
    if board.w == board.h {
        8
    } else {
        4
    }
}

/// Symmetry `symmetry` of a box whose last row and column are `last_row` and `last_col` (the last
/// four only for squares): for an image, the source cell that its cell `(r, c)` shows.
fn symmetric_cell(symmetry: usize, (r, c): (usize, usize), (last_row, last_col): (usize, usize)) -> (usize, usize) {
    match symmetry {
        0 => (r, c),
        1 => (r, last_col - c),
        2 => (last_row - r, c),
        3 => (last_row - r, last_col - c),
        4 => (c, r),
        5 => (last_col - c, r),
        6 => (c, last_row - r),
        _ => (last_col - c, last_row - r),
    }
}

fn smallest_image(tiling: &Tiling) -> Tiling {
    images(tiling).into_iter().min_by(|a, b| a.solution.cmp(&b.solution)).expect("the identity is an image")
}

/// The rectangle's symmetries (as in [`images`]) as maps of shape ids: `turn[shape]` is the shape
/// turned into `shape`.
fn shape_symmetries(board: Board) -> Vec<[usize; SHAPE_COUNT]> {
    (0..symmetry_count(board))
        .map(|symmetry| {
            // Within a 3 x 3 box, which every shape fits; `shape_of` takes the offset off.
            let mut from = [0; SHAPE_COUNT];
            for (shape, cells) in SHAPES.iter().enumerate() {
                let turned: Vec<(usize, usize)> =
                    cells.iter().map(|&cell| symmetric_cell(symmetry, cell, (2, 2))).collect();
                from[shape_of(&turned).expect("a turned shape is a shape") as usize] = shape;
            }
            from
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::level::counts_of;
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
    fn the_shape_maps_turn_a_multiset_as_the_board_turns_its_tiling() {
        // Every shape in each tiling, so a wrong map of any shape shows.
        let square = [
            [0, 0, 1, 2, 2, 2],
            [3, 4, 1, 5, 5, 6],
            [3, 4, 4, 5, 6, 6],
            [3, 7, 7, 8, 9, 9],
            [10, 10, 7, 8, 11, 9],
            [12, 12, 12, 8, 11, 11],
        ];
        let wide =
            [[0, 0, 1, 2, 2, 2], [3, 4, 1, 5, 5, 6], [3, 4, 4, 5, 6, 6], [3, 7, 7, 8, 9, 9], [10, 10, 7, 8, 11, 11]];
        for grid in [&square[..], &wide[..]] {
            let board = Board { w: 6, h: grid.len() };
            let tiling = normalise(board, &grid.iter().map(|row| row.to_vec()).collect::<Vec<_>>());
            assert_eq!(counts_of(&tiling.pieces).iter().filter(|&&n| n > 0).count(), SHAPE_COUNT);
            let mut by_images: Vec<[u8; SHAPE_COUNT]> =
                images(&tiling).iter().map(|image| counts_of(&image.pieces)).collect();
            let own = counts_of(&tiling.pieces);
            let mut by_maps: Vec<[u8; SHAPE_COUNT]> =
                shape_symmetries(board).iter().map(|turn| std::array::from_fn(|shape| own[turn[shape]])).collect();
            by_images.sort();
            by_maps.sort();
            assert_eq!(by_maps, by_images, "{board:?}");
        }
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
