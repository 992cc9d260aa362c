//! Triplex: pack pieces of 2 or 3 squares into a rectangle. Pieces keep their orientation (except at
//! most one rotatable piece) and every level has exactly one solution. Definition, shapes and the
//! article's counts: `shared/rules/triplex.md`.

pub mod catalog;
mod generator;
mod level;
mod solver;

pub use generator::{generate, has_straight_cut, images, tiling_of, Tiling};

pub use level::{
    canonical, code_key, levels_of, normalize_code, sort_easiest_first, unlock_code, Level, Sizes, SolutionError,
};
pub use solver::{Placements, Search};

/// The 8 oriented shapes, by id, as (row, col) cells with the first cell in reading order first.
pub const SHAPES: [&[(usize, usize)]; SHAPE_COUNT] = [
    &[(0, 0), (0, 1)],
    &[(0, 0), (1, 0)],
    &[(0, 0), (0, 1), (0, 2)],
    &[(0, 0), (1, 0), (2, 0)],
    &[(0, 0), (0, 1), (1, 0)],
    &[(0, 0), (0, 1), (1, 1)],
    &[(0, 0), (1, 0), (1, 1)],
    &[(0, 1), (1, 0), (1, 1)],
];
pub const SHAPE_COUNT: usize = 8;

/// The orientations of the same free piece: dominoes, straight trominoes, L trominoes.
pub fn family(shape: u8) -> &'static [u8] {
    match shape {
        0 | 1 => &[0, 1],
        2 | 3 => &[2, 3],
        _ => &[4, 5, 6, 7],
    }
}

/// The shape turned a quarter clockwise: dominoes and straight trominoes swap, the L's go round
/// `XX/X.` -> `XX/.X` -> `.X/XX` -> `X./XX`.
pub fn rotated(shape: u8) -> u8 {
    match shape {
        0 => 1,
        1 => 0,
        2 => 3,
        3 => 2,
        4 => 5,
        5 => 7,
        7 => 6,
        _ => 4,
    }
}

/// A `w` x `h` rectangle (w columns, h rows); cell `r * w + c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    pub w: usize,
    pub h: usize,
}

impl Board {
    pub fn area(self) -> usize {
        self.w * self.h
    }
}

/// The shape id of a set of cells given as (row, col), if it is one of the 8.
pub fn shape_of(cells: &[(usize, usize)]) -> Option<u8> {
    let top = cells.iter().map(|c| c.0).min()?;
    let left = cells.iter().map(|c| c.1).min()?;
    let mut normal: Vec<(usize, usize)> = cells.iter().map(|&(r, c)| (r - top, c - left)).collect();
    normal.sort_unstable();
    SHAPES
        .iter()
        .position(|shape| {
            let mut sorted = shape.to_vec();
            sorted.sort_unstable();
            sorted == normal
        })
        .map(|id| id as u8)
}

/// Each shape's id after swapping rows and columns.
const TRANSPOSED: [u8; SHAPE_COUNT] = [1, 0, 3, 2, 4, 6, 5, 7];

/// A puzzle: a rectangle, a multiset of shapes, and at most one rotatable piece (given by its shape).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub board: Board,
    pub counts: [u8; SHAPE_COUNT],
    pub rotatable: Option<u8>,
}

impl Puzzle {
    /// Searches run on the board turned so its rows are the short side: filling the first empty
    /// cell in reading order then leaves the fewest open fronts, and dead ends show early.
    fn turned(&self) -> Puzzle {
        if self.board.w <= self.board.h {
            return *self;
        }
        let mut counts = [0u8; SHAPE_COUNT];
        for (shape, &n) in self.counts.iter().enumerate() {
            counts[TRANSPOSED[shape] as usize] = n;
        }
        Puzzle {
            board: Board { w: self.board.h, h: self.board.w },
            counts,
            rotatable: self.rotatable.map(|s| TRANSPOSED[s as usize]),
        }
    }

    /// The placements [`Puzzle::solve`] needs for puzzles of this size (build once per size).
    pub fn placements(&self) -> Placements {
        Placements::new(self.turned().board)
    }

    /// Counts the solutions up to `limit` and measures the effort. A rotatable piece is tried in
    /// each orientation of its family in turn (its own first); the effort is the sum over them.
    pub fn solve(&self, placements: &Placements, limit: u32) -> Search {
        let puzzle = self.turned();
        assert_eq!(placements.board, puzzle.board, "placements for another size");
        let mut search = puzzle.solve_as_is(placements, limit);
        if puzzle.board != self.board {
            let turn_back = |&(shape, mask): &(u8, u64)| {
                (TRANSPOSED[shape as usize], generator::transpose_mask(puzzle.board, mask))
            };
            search.first = search.first.map(|pieces| pieces.iter().map(turn_back).collect());
        }
        search
    }

    /// The solution as a grid of piece indexes (pieces in reading order of their first cell), if any.
    pub fn solution(&self) -> Option<Vec<Vec<u8>>> {
        let first = self.solve(&self.placements(), 1).first?;
        Some(tiling_of(self.board, &first).solution)
    }

    fn solve_as_is(&self, placements: &Placements, limit: u32) -> Search {
        let puzzle = self;
        let Some(rotatable) = puzzle.rotatable else { return placements.search(puzzle.counts, limit) };
        let mut total = Search { tilings: 0, first: None, nodes: 0 };
        let orientations =
            std::iter::once(rotatable).chain(family(rotatable).iter().copied().filter(|&o| o != rotatable));
        for orientation in orientations {
            if total.tilings >= limit {
                break;
            }
            let mut counts = puzzle.counts;
            counts[rotatable as usize] -= 1;
            counts[orientation as usize] += 1;
            let search = placements.search(counts, limit - total.tilings);
            total.tilings += search.tilings;
            total.nodes += search.nodes;
            total.first = total.first.or(search.first);
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quarter_turn_turns_the_cells() {
        for shape in 0..SHAPE_COUNT as u8 {
            let height = SHAPES[shape as usize].iter().map(|c| c.0).max().unwrap();
            // Clockwise: row r, column c goes to row c, column (height - r).
            let turned: Vec<(usize, usize)> = SHAPES[shape as usize].iter().map(|&(r, c)| (c, height - r)).collect();
            assert_eq!(shape_of(&turned), Some(rotated(shape)), "shape {shape}");
            assert!(family(shape).contains(&rotated(shape)));
            let mut round = shape;
            for _ in 0..4 {
                round = rotated(round);
            }
            assert_eq!(round, shape, "four turns are none");
        }
    }

    #[test]
    fn transposing_swaps_each_shapes_rows_and_columns() {
        for shape in 0..SHAPE_COUNT {
            let transposed: Vec<(usize, usize)> = SHAPES[shape].iter().map(|&(r, c)| (c, r)).collect();
            assert_eq!(shape_of(&transposed), Some(TRANSPOSED[shape]), "shape {shape}");
        }
    }
}
