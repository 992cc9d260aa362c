//! Triplex: pack pieces of 2 or 3 squares into a rectangle. Pieces keep their orientation (except at
//! most one rotatable piece) and every level has exactly one solution. Definition, shapes and the
//! article's counts: `shared/rules/triplex.md`.

mod generator;
mod solver;

pub use generator::{generate, has_straight_cut, images, SizeCount, Tiling};

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
