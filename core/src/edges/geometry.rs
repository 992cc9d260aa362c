//! The torus: cell and edge ids, the edges of a cell, the cells of an edge, and the six edges a
//! move may reach. All in the original's code order, which the resolution depends on.
//!
//! Ids for side `n` (x = column, y = row, both mod n): cell `B(x,y)` is `n*y + x`; horizontal edge
//! `H(x,y)` (top of `B(x,y)`) is `n*y + x`; vertical edge `V(x,y)` (left of `B(x,y)`) is `n² + n*y + x`.

/// Board geometry for one side length (3..=12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Torus {
    n: usize,
}

impl Torus {
    pub fn new(n: usize) -> Torus {
        Torus { n }
    }

    pub fn side(self) -> usize {
        self.n
    }

    pub fn cell_count(self) -> usize {
        self.n * self.n
    }

    pub fn edge_count(self) -> usize {
        2 * self.n * self.n
    }

    fn wrap(self, v: usize, delta: isize) -> usize {
        (v as isize + delta).rem_euclid(self.n as isize) as usize
    }

    fn id(self, x: usize, y: usize) -> usize {
        self.n * y + x
    }

    fn h(self, x: usize, y: usize) -> usize {
        self.id(x, y)
    }

    fn v(self, x: usize, y: usize) -> usize {
        self.cell_count() + self.id(x, y)
    }

    /// (is vertical, x, y) of an edge id.
    fn edge_coords(self, edge: usize) -> (bool, usize, usize) {
        let vertical = edge >= self.cell_count();
        let local = edge % self.cell_count();
        (vertical, local % self.n, local / self.n)
    }

    /// Top, bottom, left, right.
    pub fn cell_edges(self, cell: usize) -> [usize; 4] {
        let (x, y) = (cell % self.n, cell / self.n);
        [self.h(x, y), self.h(x, self.wrap(y, 1)), self.v(x, y), self.v(self.wrap(x, 1), y)]
    }

    /// Slot 1, slot 2: below then above a horizontal edge; right then left of a vertical one.
    pub fn edge_cells(self, edge: usize) -> [usize; 2] {
        let (vertical, x, y) = self.edge_coords(edge);
        if vertical {
            [self.id(x, y), self.id(self.wrap(x, -1), y)]
        } else {
            [self.id(x, y), self.id(x, self.wrap(y, -1))]
        }
    }

    /// The cell across `edge` from `cell`.
    pub fn across(self, edge: usize, cell: usize) -> usize {
        let [one, two] = self.edge_cells(edge);
        if one == cell {
            two
        } else {
            one
        }
    }

    /// The six edges sharing a lattice point with `edge`: the two collinear ones, then the four
    /// perpendicular ones at its ends.
    pub fn adjacent(self, edge: usize) -> [usize; 6] {
        let (vertical, x, y) = self.edge_coords(edge);
        let (xl, xr) = (self.wrap(x, -1), self.wrap(x, 1));
        let (yu, yd) = (self.wrap(y, -1), self.wrap(y, 1));
        if vertical {
            [self.v(x, yu), self.v(x, yd), self.h(x, y), self.h(xl, y), self.h(x, yd), self.h(xl, yd)]
        } else {
            [self.h(xl, y), self.h(xr, y), self.v(x, y), self.v(xr, y), self.v(x, yu), self.v(xr, yu)]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjacency_is_symmetric_and_has_six_distinct_edges() {
        for n in 3..=12 {
            let torus = Torus::new(n);
            for edge in 0..torus.edge_count() {
                let near = torus.adjacent(edge);
                let mut sorted = near.to_vec();
                sorted.sort_unstable();
                sorted.dedup();
                assert_eq!(sorted.len(), 6, "n={n} edge={edge}: {near:?}");
                assert!(!near.contains(&edge));
                for other in near {
                    assert!(torus.adjacent(other).contains(&edge), "n={n}: {edge} -> {other} not mutual");
                }
            }
        }
    }

    #[test]
    fn every_edge_borders_the_two_cells_that_list_it() {
        for n in 3..=12 {
            let torus = Torus::new(n);
            let mut seen = vec![0; torus.edge_count()];
            for cell in 0..torus.cell_count() {
                for edge in torus.cell_edges(cell) {
                    seen[edge] += 1;
                    assert!(torus.edge_cells(edge).contains(&cell), "n={n}: cell {cell} edge {edge}");
                }
            }
            assert!(seen.iter().all(|&count| count == 2), "n={n}: each edge belongs to exactly two cells");
        }
    }

    #[test]
    fn the_torus_wraps_at_the_borders() {
        let torus = Torus::new(8);
        // H(3,0) is the top of row 0 and the bottom of row 7.
        assert_eq!(torus.edge_cells(3), [3, 8 * 7 + 3]);
        // V(0,2) is the left border of row 2 and the right border of its last cell.
        assert_eq!(torus.edge_cells(64 + 16), [16, 23]);
    }
}
