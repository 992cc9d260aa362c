//! The 3x3 shapes the playouts answer near the last move: the hane, cut and edge patterns of
//! MoGo (Gelly, Wang, Munos and Teytaud, "Modification of UCT with patterns in Monte-Carlo Go",
//! 2006) as Pachi plays them (with its knight's-move cut, and without MoGo's few shapes that hold
//! only for one side to move), each in its eight orientations and for either colour, looked up by
//! [`Board::pattern_key`](crate::go::Board::pattern_key) in a table of every key.

use std::sync::OnceLock;

use crate::go::{BLACK, EMPTY, WHITE};

const EDGE: u8 = 3;

/// Rows top to bottom around the empty centre. `X` and `O` are the two colours (either way round),
/// `x` anything but X (empty, O or the edge), `o` anything but O, `.` empty, `#` the edge, `?` any.
const SHAPES: [[&str; 3]; 13] = [
    ["XOX", "...", "???"], // hane enclosing a stone
    ["XO.", "...", "?.?"], // hane that leaves no cut
    ["XO?", "X..", "x.?"], // hane bending round (magari)
    [".O.", "X..", "..."], // diagonal attachment
    ["XO?", "O.o", "?o?"], // cut where the cutting stone is safe
    ["XO?", "O.X", "???"], // cut after a peep
    ["?X?", "O.O", "ooo"], // pushing between two stones
    ["OX?", "o.O", "???"], // cutting a knight's move
    ["X.?", "O.?", "###"], // chasing along the edge
    ["OX?", "X.O", "###"], // blocking a cut on the edge
    ["?X?", "x.O", "###"], // blocking a connection on the edge
    ["?XO", "x.x", "###"], // descending to the edge (sagari)
    ["?OX", "X.O", "###"], // cutting on the edge
];

/// Whether the neighbourhood with this key matches a shape.
pub fn matches(key: u16) -> bool {
    static TABLE: OnceLock<Box<[u64; 1024]>> = OnceLock::new();
    let table = TABLE.get_or_init(table);
    table[key as usize / 64] >> (key % 64) & 1 == 1
}

/// Every key a shape matches, found by expanding each shape's cells into the colours they allow.
fn table() -> Box<[u64; 1024]> {
    let mut table = Box::new([0u64; 1024]);
    for shape in SHAPES {
        let mut cells = [0u8; 9];
        for (row, text) in shape.iter().enumerate() {
            cells[row * 3..row * 3 + 3].copy_from_slice(text.as_bytes());
        }
        debug_assert_eq!(cells[4], b'.');
        for turn in 0..4 {
            for mirrored in [false, true] {
                let oriented: [u8; 9] = std::array::from_fn(|i| {
                    // Where cell i (row, col) comes from: mirror, then turn a quarter `turn` times.
                    let (mut row, mut col) = (i / 3, i % 3);
                    for _ in 0..turn {
                        (row, col) = (col, 2 - row);
                    }
                    if mirrored {
                        col = 2 - col;
                    }
                    cells[row * 3 + col]
                });
                for x in [BLACK, WHITE] {
                    expand(&oriented, x, 0, 0, &mut table);
                }
            }
        }
    }
    table
}

/// The grid cells in key order (the centre, 4, left out).
const KEY_CELLS: [usize; 8] = [0, 1, 2, 3, 5, 6, 7, 8];

fn expand(cells: &[u8; 9], x: u8, index: usize, key: u16, table: &mut [u64; 1024]) {
    if index == 8 {
        table[key as usize / 64] |= 1 << (key % 64);
        return;
    }
    let o = 3 - x;
    let allowed: &[u8] = match cells[KEY_CELLS[index]] {
        b'X' => &[x],
        b'O' => &[o],
        b'.' => &[EMPTY],
        b'#' => &[EDGE],
        b'x' => &[EMPTY, o, EDGE],
        b'o' => &[EMPTY, x, EDGE],
        _ => &[EMPTY, BLACK, WHITE, EDGE],
    };
    for &colour in allowed {
        expand(cells, x, index + 1, key | (colour as u16) << (2 * index), table);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::ai::tests::after as board_after;
    use crate::go::{Board, Go, GoConfig};
    use crate::Game;

    fn matches_at(game: &Go, vertex: &str) -> bool {
        let board: &Board = game.board();
        matches(board.pattern_key(game.point_of(vertex.parse().unwrap()).unwrap()))
    }

    #[test]
    fn a_hane_matches_turned_mirrored_and_for_both_colours() {
        // Black E5 and White E6 (above it): the hane points D6/F6 are "X O ." with X below-left.
        // Written around the centre F6: row above (E7 F7 G7) any, F6's row E6=O . G6,
        // row below E5=X F5 G5. That is shape 2 turned a quarter.
        let game = board_after(&["E5", "E6"]);
        assert!(matches_at(&game, "F6"));
        assert!(matches_at(&game, "D6"));
        // The same shape with the colours swapped and mirrored: White E5, Black E4, hane at D4.
        let game = board_after(&["A1", "E5", "E4"]);
        assert!(matches_at(&game, "D4") && matches_at(&game, "F4"));
    }

    #[test]
    fn empty_and_far_points_match_nothing() {
        let game = board_after(&["E5", "E6"]);
        // Points whose 3x3 neighbourhood holds no stone.
        assert!(!matches_at(&game, "B2") && !matches_at(&game, "H8"));
        let empty = Go::new(GoConfig::default()).unwrap();
        let matched = empty.board().points().filter(|&p| matches(empty.board().pattern_key(p))).count();
        assert_eq!(matched, 0, "an empty board has no shapes");
    }

    #[test]
    fn the_table_holds_each_orientation_of_a_shape() {
        // Hane enclosing (XOX over three empties, anything below), X black: its key in the upright
        // orientation, a quarter turn, and a half turn with the colours swapped must all be in the table.
        let key = |grid: [u8; 9]| KEY_CELLS.iter().enumerate().fold(0u16, |k, (i, &c)| k | (grid[c] as u16) << (2 * i));
        let upright = [BLACK, WHITE, BLACK, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY];
        let left = [BLACK, EMPTY, EMPTY, WHITE, EMPTY, EMPTY, BLACK, EMPTY, EMPTY];
        let flipped = [EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, WHITE, BLACK, WHITE];
        for grid in [upright, left, flipped] {
            assert!(matches(key(grid)), "{grid:?}");
        }
        // A lone stone diagonal to the centre is not a shape.
        assert!(!matches(key([BLACK, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY])));
    }
}
