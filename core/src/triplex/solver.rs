//! Counts the tilings of a rectangle by a multiset of oriented shapes: depth-first, always filling
//! the first empty cell in reading order, on a 64-bit board. Identical pieces are not told apart,
//! so each tiling (a set of placed shapes) is found once.

use super::{Board, SHAPES, SHAPE_COUNT};

/// What a search found: how many tilings (up to the limit asked for), the first one, and the
/// effort (search nodes: placements tried that fit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Search {
    pub tilings: u32,
    /// The first tiling found, as `(shape, cell mask)` per piece in placement order (through
    /// [`super::Puzzle::solve`]: on the puzzle's own board).
    pub first: Option<Vec<(u8, u64)>>,
    pub nodes: u64,
}

/// Every placement of every shape, by anchor cell (the shape's first cell in reading order).
pub struct Placements {
    pub board: Board,
    /// `[cell][shape]`: the mask of the shape anchored at that cell, or 0 if it does not fit.
    masks: Vec<[u64; SHAPE_COUNT]>,
}

impl Placements {
    pub fn new(board: Board) -> Placements {
        assert!(board.area() <= 64, "boards up to 64 cells");
        let mut masks = vec![[0u64; SHAPE_COUNT]; board.area()];
        for row in 0..board.h {
            for col in 0..board.w {
                for (shape, cells) in SHAPES.iter().enumerate() {
                    let (anchor_row, anchor_col) = cells[0];
                    let mut mask = 0u64;
                    let fits = cells.iter().all(|&(r, c)| {
                        let (r, c) = (row + r - anchor_row, (col + c) as isize - anchor_col as isize);
                        let inside = r < board.h && (0..board.w as isize).contains(&c);
                        if inside {
                            mask |= 1 << (r * board.w + c as usize);
                        }
                        inside
                    });
                    if fits {
                        masks[row * board.w + col][shape] = mask;
                    }
                }
            }
        }
        Placements { board, masks }
    }

    /// Counts tilings with `counts[shape]` pieces of each shape, stopping at `limit`.
    pub fn search(&self, counts: [u8; SHAPE_COUNT], limit: u32) -> Search {
        let mut search = Search { tilings: 0, first: None, nodes: 0 };
        let area: usize = counts.iter().zip(SHAPES).map(|(&n, cells)| n as usize * cells.len()).sum();
        if area != self.board.area() {
            return search;
        }
        let full = if self.board.area() == 64 { u64::MAX } else { (1u64 << self.board.area()) - 1 };
        let mut stack = Vec::with_capacity(32);
        let mut counts = counts;
        self.dfs(0, full, &mut counts, limit, &mut stack, &mut search);
        search
    }

    fn dfs(
        &self,
        filled: u64,
        full: u64,
        counts: &mut [u8; SHAPE_COUNT],
        limit: u32,
        stack: &mut Vec<(u8, u64)>,
        search: &mut Search,
    ) {
        if filled == full {
            search.tilings += 1;
            if search.first.is_none() {
                search.first = Some(stack.clone());
            }
            return;
        }
        let cell = (!filled).trailing_zeros() as usize;
        for shape in 0..SHAPE_COUNT {
            let mask = self.masks[cell][shape];
            if counts[shape] == 0 || mask == 0 || mask & filled != 0 {
                continue;
            }
            search.nodes += 1;
            counts[shape] -= 1;
            stack.push((shape as u8, mask));
            self.dfs(filled | mask, full, counts, limit, stack, search);
            stack.pop();
            counts[shape] += 1;
            if search.tilings >= limit {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Domino tilings of `w` x `h`, summed over how many lie horizontally.
    fn domino_tilings(w: usize, h: usize) -> u32 {
        let placements = Placements::new(Board { w, h });
        let pieces = (w * h / 2) as u8;
        (0..=pieces)
            .map(|across| placements.search([across, pieces - across, 0, 0, 0, 0, 0, 0], u32::MAX).tilings)
            .sum()
    }

    #[test]
    fn domino_tilings_match_the_known_counts() {
        // Fibonacci for 2 x n; 36 for 4x4, 6728 for 6x6 (Kasteleyn).
        assert_eq!(domino_tilings(10, 2), 89);
        assert_eq!(domino_tilings(3, 2), 3);
        assert_eq!(domino_tilings(4, 4), 36);
        assert_eq!(domino_tilings(6, 6), 6728);
        assert_eq!(domino_tilings(3, 3), 0);
    }

    #[test]
    fn the_limit_stops_the_count_and_a_wrong_area_has_none() {
        let placements = Placements::new(Board { w: 4, h: 4 });
        assert_eq!(placements.search([4, 4, 0, 0, 0, 0, 0, 0], 2).tilings, 2);
        assert_eq!(placements.search([4, 3, 0, 0, 0, 0, 0, 0], 2), Search { tilings: 0, first: None, nodes: 0 });
        let one = placements.search([8, 0, 0, 0, 0, 0, 0, 0], 5);
        assert_eq!(one.tilings, 1, "horizontal dominoes only: one way");
        assert_eq!(one.first.map(|p| p.len()), Some(8));
    }
}
