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

    /// The cells at `(row, col)` pairs, for tests.
    #[cfg(test)]
    pub(crate) fn of(list: &[(u8, u8)]) -> Cells {
        list.iter().fold(Cells::EMPTY, |set, &(row, col)| set.union(Cells::single(Cell::new(row, col).index())))
    }

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

    /// Cheaper than `len() >= 3` where the CPU lacks a popcount instruction (the x86-64 baseline).
    pub(crate) fn has_three_or_more(self) -> bool {
        let without_lowest = self.0 & self.0.wrapping_sub(1);
        without_lowest & without_lowest.wrapping_sub(1) != 0
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
    #[inline]
    pub fn nth(self, n: u32) -> Option<Cell> {
        if n >= self.len() {
            return None;
        }
        // Pick the 64-bit half without a branch: random playouts make this choice unpredictable.
        let low = self.0 as u64;
        let low_count = low.count_ones();
        let in_high = (n >= low_count) as u32;
        let word = (self.0 >> (64 * in_high)) as u64;
        let index = 64 * in_high as usize + select(word, n - low_count * in_high);
        Some(Cell::from_index(index))
    }

    /// A uniformly random cell of the set, or `None` if it is empty. Lemire's multiply-shift:
    /// uniform enough for playouts (bias below 2^-25 for 81 cells), one draw, no division.
    #[inline]
    pub fn random(self, rng: &mut impl rand::RngCore) -> Option<Cell> {
        self.nth(((u64::from(rng.next_u32()) * u64::from(self.len())) >> 32) as u32)
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

/// Index of the `n`-th set bit of `word`: one `pdep` where the CPU does that fast (asked once, then
/// a predictable branch), else `select64`. The same index either way, so playouts do not change.
#[inline]
fn select(word: u64, n: u32) -> usize {
    #[cfg(target_arch = "x86_64")]
    if fast_pdep() {
        // SAFETY: the CPU has BMI2 (`fast_pdep`).
        return unsafe { select_bmi2(word, n) };
    }
    select64(word, n)
}

/// Whether the CPU has BMI2 and runs `pdep` in hardware: AMD's before Zen 3 (family 0x19) run it
/// in microcode, far slower than the broadword select.
#[cfg(target_arch = "x86_64")]
fn fast_pdep() -> bool {
    static FAST: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FAST.get_or_init(|| {
        if !std::is_x86_feature_detected!("bmi2") {
            return false;
        }
        #[allow(unused_unsafe)]
        // SAFETY: `cpuid` exists on every x86-64 CPU.
        let (vendor, signature) = unsafe { (std::arch::x86_64::__cpuid(0), std::arch::x86_64::__cpuid(1).eax) };
        let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163); // "AuthenticAMD"
        let base = (signature >> 8) & 0xf;
        let family = if base == 0xf { base + ((signature >> 20) & 0xff) } else { base };
        !amd || family >= 0x19
    })
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn select_bmi2(word: u64, n: u32) -> usize {
    std::arch::x86_64::_pdep_u64(1 << n, word).trailing_zeros() as usize
}

/// Index of the `n`-th set bit of `word` (which has more than `n` set bits), without branches: a
/// random playout calls this every move, and a byte-by-byte loop mispredicts on random boards.
/// Broadword select (Vigna, "Broadword implementation of rank/select queries", 2008): per-byte
/// popcounts, their prefix sums by one multiplication, the byte by a parallel compare, then a table.
fn select64(word: u64, n: u32) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut counts = word - ((word >> 1) & 0x5555_5555_5555_5555);
    counts = (counts & 0x3333_3333_3333_3333) + ((counts >> 2) & 0x3333_3333_3333_3333);
    counts = (counts + (counts >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    let prefix = counts.wrapping_mul(ONES); // byte i: set bits in bytes 0..=i
                                            // Byte i's high bit is set where prefix_i <= n: the number of such bytes is the target byte.
    let before = (((n as u64 * ONES) | HIGHS) - prefix) & HIGHS;
    // Count the flagged bytes with a multiplication (no popcount instruction on baseline x86-64).
    let byte = ((before >> 7).wrapping_mul(ONES) >> 56) as u32 * 8;
    let rank_in_byte = n - ((prefix << 8) >> byte & 0xff) as u32;
    byte as usize + SELECT_IN_BYTE[(rank_in_byte as usize) << 8 | (word >> byte & 0xff) as usize] as usize
}

/// `SELECT_IN_BYTE[k << 8 | b]`: position of the `k`-th set bit of byte `b` (8 when there is none).
static SELECT_IN_BYTE: [u8; 2048] = {
    let mut table = [8u8; 2048];
    let mut byte = 0;
    while byte < 256 {
        let mut rank = 0;
        let mut bit = 0;
        while bit < 8 {
            if byte >> bit & 1 == 1 {
                table[rank << 8 | byte] = bit as u8;
                rank += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// The four line directions: along a row, down a column, diagonal `\\` and diagonal `/`.
pub(crate) const AXES: [Axis; 4] = [Axis { shift: 1 }, Axis { shift: 9 }, Axis { shift: 10 }, Axis { shift: 8 }];

/// A line direction as a bit shift: moving one cell forward adds `shift` to the index.
#[derive(Clone, Copy)]
pub(crate) struct Axis {
    shift: u32,
}

const COLUMN_0: u128 = {
    let mut mask = 0;
    let mut row = 0;
    while row < 9 {
        mask |= 1u128 << (row * 9);
        row += 1;
    }
    mask
};
const COLUMN_8: u128 = COLUMN_0 << 8;

impl Axis {
    /// Bits that a shift by one cell would carry across the left or right edge into the next row.
    fn wrap_masks(self) -> (u128, u128) {
        match self.shift {
            1 | 10 => (COLUMN_0, COLUMN_8), // forward moves right: cannot land in column 0
            8 => (COLUMN_8, COLUMN_0),      // forward moves left: cannot land in column 8
            _ => (0, 0),                    // straight down or up never wraps
        }
    }

    /// Whether `cells` holds three in a row along this axis.
    pub(crate) fn has_run_of_three(self, cells: Cells) -> bool {
        let (not_forward, _) = self.wrap_masks();
        let forward = |bits: u128| (bits << self.shift) & !not_forward;
        let second = forward(cells.0) & cells.0; // cells whose backward neighbour is in the set
        forward(second) & cells.0 != 0
    }

    /// The cells where one more stone of `own` would make three in a row along this axis: after or
    /// before a pair (`XX_`, `_XX`) or between two (`X_X`). Occupied cells are not taken out.
    pub(crate) fn completing(self, own: Cells) -> Cells {
        let (not_forward, not_backward) = self.wrap_masks();
        let forward = |bits: u128| (bits << self.shift) & !not_forward;
        let backward = |bits: u128| (bits >> self.shift) & !not_backward;
        // The forward stone of each pair.
        let pair = own.0 & forward(own.0);
        let cells = forward(pair) | backward(backward(pair)) | (forward(own.0) & backward(own.0));
        Cells(cells & Cells::ALL.0)
    }

    /// One step along this axis, both ways, landing only on `within`.
    #[inline]
    fn step(self, cells: u128, within: Cells) -> u128 {
        let (not_forward, not_backward) = self.wrap_masks();
        (cells << self.shift) & within.0 & !not_forward | (cells >> self.shift) & within.0 & !not_backward
    }

    /// The cells of `within` up to two steps from `cell` along this axis, both ways, without gaps.
    /// A run through a newly placed stone has at most two stones on each side, since no run of
    /// three survives a move.
    #[inline]
    pub(crate) fn run_through(self, cell: Cells, within: Cells) -> Cells {
        let near = self.step(cell.0, within);
        Cells(cell.0 | near | self.step(near, within))
    }

    /// `seed` extended along this axis, both ways, through cells of `within`, until nothing changes:
    /// the contiguous segment(s) of `within` on this axis that touch `seed`.
    pub(crate) fn grow(self, seed: Cells, within: Cells) -> Cells {
        let (not_forward, not_backward) = self.wrap_masks();
        let allowed_forward = within.0 & !not_forward;
        let allowed_backward = within.0 & !not_backward;
        let mut cells = seed.0;
        loop {
            let next = cells | (cells << self.shift) & allowed_forward | (cells >> self.shift) & allowed_backward;
            if next == cells {
                return Cells(cells & Cells::ALL.0);
            }
            cells = next;
        }
    }
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
    fn select_finds_every_set_bit_of_awkward_words() {
        let words = [
            1u64,
            u64::MAX,
            0x8000_0000_0000_0000,
            0x00ff_0000_0000_ff00,
            0x1248_1248_1248_1248,
            0xdead_beef_0bad_f00d,
        ];
        for word in words {
            let positions: Vec<usize> = (0..64).filter(|bit| word >> bit & 1 == 1).collect();
            for (n, &position) in positions.iter().enumerate() {
                assert_eq!(select64(word, n as u32), position, "word {word:#x}, n {n}");
                assert_eq!(select(word, n as u32), position, "word {word:#x}, n {n} (BMI2 where the CPU has it)");
            }
        }
    }

    #[test]
    fn growing_along_an_axis_never_wraps_around_the_edges() {
        let full = Cells::ALL;
        let [row, column, down_right, down_left] = AXES;
        assert_eq!(row.grow(Cells::of(&[(3, 8)]), full), Cells::of(&(0..9).map(|c| (3, c)).collect::<Vec<_>>()));
        assert_eq!(column.grow(Cells::of(&[(0, 0)]), full).len(), 9);
        assert_eq!(down_right.grow(Cells::of(&[(0, 7)]), full), Cells::of(&[(0, 7), (1, 8)]));
        assert_eq!(down_left.grow(Cells::of(&[(0, 1)]), full), Cells::of(&[(0, 1), (1, 0)]));
        assert_eq!(down_left.grow(Cells::of(&[(8, 8)]), full), Cells::of(&[(8, 8)]));
        assert!(down_left.has_run_of_three(Cells::of(&[(0, 2), (1, 1), (2, 0)])));
        assert!(!row.has_run_of_three(Cells::of(&[(0, 7), (0, 8), (1, 0)])), "no wrap into the next row");
        assert!(!down_right.has_run_of_three(Cells::of(&[(0, 7), (1, 8), (2, 0)])));
        // A gap stops the growth.
        let within = Cells::of(&[(4, 0), (4, 1), (4, 3)]);
        assert_eq!(row.grow(Cells::of(&[(4, 1)]), within), Cells::of(&[(4, 0), (4, 1)]));
    }

    #[test]
    fn the_cells_completing_a_line_never_wrap_around_the_edges() {
        let [row, column, down_right, down_left] = AXES;
        // A pair at a row's end is completed only inside its row.
        assert_eq!(row.completing(Cells::of(&[(0, 7), (0, 8)])), Cells::of(&[(0, 6)]));
        assert_eq!(row.completing(Cells::of(&[(1, 0), (1, 2)])), Cells::of(&[(1, 1)]));
        assert_eq!(column.completing(Cells::of(&[(7, 4), (8, 4)])), Cells::of(&[(6, 4)]));
        assert_eq!(down_right.completing(Cells::of(&[(0, 7), (1, 8)])), Cells::EMPTY);
        assert_eq!(down_left.completing(Cells::of(&[(0, 1), (1, 0)])), Cells::EMPTY);
        assert_eq!(down_left.completing(Cells::of(&[(1, 1), (2, 0)])), Cells::of(&[(0, 2)]));
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
