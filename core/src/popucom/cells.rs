//! Cells of the 9x9 board: a cell address, and sets of cells as 81-bit boards.

use serde::{Deserialize, Serialize};

pub const SIZE: u8 = 9;
pub const CELL_COUNT: usize = 81;

/// A cell `(row, col)`, row 0 at the top. Coordinates are not range-checked here: a move off the
/// board is the rules' business (`off_board`), not a parse error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "CellRepr")]
pub struct Cell {
    pub row: u8,
    pub col: u8,
}

/// Accepted move shapes: the API's `{"row": r, "col": c}` and the vectors' `[r, c]`.
#[derive(Deserialize)]
#[serde(untagged, expecting = "a cell as {\"row\": r, \"col\": c} or [r, c] with integers 0..8")]
enum CellRepr {
    Object { row: u8, col: u8 },
    Pair(u8, u8),
}

impl From<CellRepr> for Cell {
    fn from(repr: CellRepr) -> Cell {
        match repr {
            CellRepr::Object { row, col } | CellRepr::Pair(row, col) => Cell { row, col },
        }
    }
}

impl Cell {
    pub fn new(row: u8, col: u8) -> Cell {
        Cell { row, col }
    }

    pub fn is_on_board(self) -> bool {
        self.row < SIZE && self.col < SIZE
    }

    /// Bit index `row * 9 + col`; only meaningful on the board.
    pub(crate) fn index(self) -> usize {
        self.row as usize * SIZE as usize + self.col as usize
    }

    pub(crate) fn from_index(index: usize) -> Cell {
        Cell { row: (index / SIZE as usize) as u8, col: (index % SIZE as usize) as u8 }
    }
}

/// A set of cells, one bit per cell (bit `row * 9 + col`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cells(pub(crate) u128);

impl Cells {
    pub const EMPTY: Cells = Cells(0);
    pub const ALL: Cells = Cells((1u128 << CELL_COUNT) - 1);

    pub(crate) fn single(index: usize) -> Cells {
        Cells(1u128 << index)
    }

    pub fn contains(self, cell: Cell) -> bool {
        cell.is_on_board() && self.has(cell.index())
    }

    pub(crate) fn has(self, index: usize) -> bool {
        self.0 >> index & 1 != 0
    }

    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn union(self, other: Cells) -> Cells {
        Cells(self.0 | other.0)
    }

    pub fn minus(self, other: Cells) -> Cells {
        Cells(self.0 & !other.0)
    }

    pub fn complement(self) -> Cells {
        Cells(!self.0 & Cells::ALL.0)
    }

    /// The `n`-th cell in index order (0-based), if the set has that many.
    pub fn nth(self, n: u32) -> Option<Cell> {
        let low = self.0 as u64;
        let low_count = low.count_ones();
        if n < low_count {
            Some(Cell::from_index(select64(low, n)))
        } else {
            let high = (self.0 >> 64) as u64;
            (n - low_count < high.count_ones()).then(|| Cell::from_index(64 + select64(high, n - low_count)))
        }
    }

    pub fn iter(self) -> impl Iterator<Item = Cell> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let index = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Cell::from_index(index)
            })
        })
    }
}

/// Index of the `n`-th set bit of `word` (which has more than `n` set bits): skip whole bytes by
/// their popcount, then clear low bits inside the byte. A random playout calls this every move.
fn select64(word: u64, mut n: u32) -> usize {
    let mut shift = 0;
    loop {
        let byte_count = (word >> shift & 0xff).count_ones();
        if n < byte_count {
            break;
        }
        n -= byte_count;
        shift += 8;
    }
    let mut byte = word >> shift & 0xff;
    for _ in 0..n {
        byte &= byte - 1;
    }
    shift + byte.trailing_zeros() as usize
}

/// Neighbour of each cell in each of the 8 directions (`NO_CELL` off the board). Direction `d` and
/// `d + 4` are opposite, so directions 0..4 are the four lines: row, column, `\` and `/`.
pub(crate) const NO_CELL: u8 = u8::MAX;
pub(crate) const NEIGHBOUR: [[u8; CELL_COUNT]; 8] = neighbours();

const fn neighbours() -> [[u8; CELL_COUNT]; 8] {
    const STEPS: [(i8, i8); 8] = [(0, 1), (1, 0), (1, 1), (1, -1), (0, -1), (-1, 0), (-1, -1), (-1, 1)];
    let mut table = [[NO_CELL; CELL_COUNT]; 8];
    let mut dir = 0;
    while dir < 8 {
        let mut index = 0;
        while index < CELL_COUNT {
            let row = (index / 9) as i8 + STEPS[dir].0;
            let col = (index % 9) as i8 + STEPS[dir].1;
            if row >= 0 && row < 9 && col >= 0 && col < 9 {
                table[dir][index] = (row * 9 + col) as u8;
            }
            index += 1;
        }
        dir += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_walks_the_set_in_index_order() {
        let cells = Cells(0b1011 | 1u128 << 63 | 1u128 << 64 | 1u128 << 80);
        let listed: Vec<Cell> = (0..cells.len()).map(|n| cells.nth(n).unwrap()).collect();
        assert_eq!(listed, cells.iter().collect::<Vec<_>>());
        assert_eq!(listed.len(), 6);
        assert_eq!(listed[5], Cell::new(8, 8));
        assert_eq!(cells.nth(6), None);
    }

    #[test]
    fn neighbours_stay_on_the_board() {
        assert_eq!(NEIGHBOUR[0][8], NO_CELL); // right of (0,8)
        assert_eq!(NEIGHBOUR[2][0], 10); // (0,0) down-right is (1,1)
        assert_eq!(NEIGHBOUR[3][0], NO_CELL); // down-left of (0,0)
        assert_eq!(NEIGHBOUR[7][72], 64); // (8,0) up-right is (7,1)
    }

    #[test]
    fn both_move_shapes_parse() {
        let object: Cell = serde_json::from_str(r#"{"row": 3, "col": 4}"#).unwrap();
        let pair: Cell = serde_json::from_str("[3, 4]").unwrap();
        assert_eq!(object, pair);
        assert_eq!(serde_json::to_string(&object).unwrap(), r#"{"row":3,"col":4}"#);
        assert!(serde_json::from_str::<Cell>("[-1, 4]").is_err());
        assert!(serde_json::from_str::<Cell>(r#"{"row": "3", "col": 4}"#).is_err());
    }
}
