//! The transposition table: what an earlier visit of a position found (its best move, a score and
//! whether that score is exact or a bound), kept by a 64-bit key of the position.

use crate::fairy::{Move, Position, Special, Variant, NONE};

use super::MATE;

/// At most 2^17 entries of 24 bytes: 3 MB, new for each search, so a position's answer does not
/// depend on what was searched before it. A smaller budget gets a smaller table (the next power of
/// two above its nodes): a weak level's or a review's search does not allocate 3 MB a move.
const ENTRIES: usize = 1 << 17;

/// A score's kind: exact, at least (the search failed high) or at most (it failed low).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
pub(super) struct Entry {
    key: u64,
    pub mv: Option<Move>,
    score: i32,
    pub depth: i8,
    pub bound: Bound,
}

pub(super) struct Table {
    entries: Vec<Entry>,
}

impl Table {
    /// A table for a search of at most `nodes` nodes.
    pub fn new(nodes: u64) -> Table {
        let empty = Entry { key: 0, mv: None, score: 0, depth: -1, bound: Bound::Upper };
        let len = (nodes.min(ENTRIES as u64) as usize).next_power_of_two().max(1 << 10);
        Table { entries: vec![empty; len] }
    }

    /// The slot of `key` (the table's length is a power of two).
    fn slot(&self, key: u64) -> usize {
        key as usize & (self.entries.len() - 1)
    }

    pub fn get(&self, key: u64) -> Option<&Entry> {
        let entry = &self.entries[self.slot(key)];
        (entry.key == key && entry.depth >= 0).then_some(entry)
    }

    /// Always replaces: the newest result is the likeliest to be asked for again.
    pub fn put(&mut self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound, ply: usize) {
        let depth = depth.clamp(0, i8::MAX.into()) as i8;
        let slot = self.slot(key);
        self.entries[slot] = Entry { key, mv, score: to_table(score, ply), depth, bound };
    }
}

impl Entry {
    /// The score as seen from a node `ply` plies from the root.
    pub fn score(&self, ply: usize) -> i32 {
        let ply = ply as i32;
        match self.score {
            s if s >= MATE - 1000 => s - ply,
            s if s <= -MATE + 1000 => s + ply,
            s => s,
        }
    }
}

/// Mate scores count plies from the root; the table keeps them from the node, so that the same
/// position reached at another depth reads the right distance.
fn to_table(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    match score {
        s if s >= MATE - 1000 => s + ply,
        s if s <= -MATE + 1000 => s - ply,
        s => s,
    }
}

/// SplitMix64's finaliser: a well-spread 64-bit value for each small input.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The position's key: its pieces, whether each has moved (a move's condition may ask), the side to
/// move, the castling rooks and the en-passant square.
pub(super) fn key(variant: &Variant, position: &Position) -> u64 {
    let squares = Position::square_count(variant);
    let pieces = (0..squares).fold(0, |key, sq| key ^ square_key(position, sq));
    pieces ^ state_key(position)
}

/// The key of `after`, the position `mv` leads to from `before` (whose key is `key`): the terms of
/// the squares the move touched and of the state, taken out and put back (a search node needs no
/// pass over the board).
pub(super) fn key_after(before: &Position, key: u64, mv: Move, after: &Position) -> u64 {
    let touched = match mv.special {
        Special::Castle(rook_from, rook_to) => [mv.from, mv.to, rook_from, rook_to],
        Special::EnPassant(captured) => [mv.from, mv.to, captured, NONE],
        Special::None => [mv.from, mv.to, NONE, NONE],
    };
    let mut key = key ^ state_key(before) ^ state_key(after);
    for (i, &sq) in touched.iter().enumerate() {
        // A square named twice (a castling king landing on its rook's square) changes once.
        if sq != NONE && !touched[..i].contains(&sq) {
            key ^= square_key(before, sq as usize) ^ square_key(after, sq as usize);
        }
    }
    key
}

/// The key of `passed`, `before` with the other side to move (a null move).
pub(super) fn key_after_pass(before: &Position, key: u64, passed: &Position) -> u64 {
    key ^ state_key(before) ^ state_key(passed)
}

/// A square's part of the key: its piece and whether that piece has moved; 0 when empty.
fn square_key(position: &Position, sq: usize) -> u64 {
    let cell = position.squares[sq];
    if cell == 0 {
        return 0;
    }
    let moved = u64::from(position.moved[sq].min(1));
    mix((sq as u64) << 16 | moved << 8 | u64::from(cell))
}

/// The part of the key besides the squares: the side to move, en passant, the castling rooks.
fn state_key(position: &Position) -> u64 {
    let mut key = mix(u64::from(position.side) << 40 | u64::from(position.ep) << 32);
    for (i, &rook) in position.castle_rooks.iter().enumerate() {
        if rook != NONE {
            key ^= mix(1 << 48 | (i as u64) << 8 | u64::from(rook));
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fairy::{Chess, ChessConfig, UciMove};
    use crate::game::Game;

    fn after(moves: &[&str]) -> u64 {
        let mut game = Chess::new(ChessConfig::default()).unwrap();
        for mv in moves {
            game.play(&UciMove((*mv).into())).unwrap();
        }
        key(game.variant(), game.position())
    }

    fn of(fen: &str) -> u64 {
        let variant = crate::fairy::Variant::named("chess").unwrap();
        key(variant, &Position::from_fen(variant, fen, false).unwrap())
    }

    #[test]
    fn a_position_has_one_key_however_it_was_reached() {
        assert_eq!(after(&["g1f3", "g8f6", "b1c3"]), after(&["b1c3", "g8f6", "g1f3"]));
        // The en-passant square, the side to move and the castling rights each make another.
        assert_ne!(after(&["e2e4", "g8f6", "e4e5", "d7d5"]), after(&["e2e4", "d7d5", "e4e5", "g8f6"]));
        let rooks = "r3k2r/8/8/8/8/8/8/R3K2R";
        assert_ne!(of(&format!("{rooks} w KQkq - 0 1")), of(&format!("{rooks} b KQkq - 0 1")));
        assert_ne!(of(&format!("{rooks} w KQkq - 0 1")), of(&format!("{rooks} w Qkq - 0 1")));
        assert_ne!(of(&format!("{rooks} w Qkq - 0 1")), of(&format!("{rooks} w Kkq - 0 1")));
    }

    #[test]
    fn a_key_made_from_the_move_equals_the_key_made_afresh_in_random_games_of_every_variant() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let (mut checked, mut specials) = (0, 0);
        for (name, variant) in crate::fairy::Variant::builtin() {
            let start = Position::from_fen(variant, variant.start.as_deref().unwrap(), false).unwrap();
            for game in 0..4 {
                let mut position = start;
                for ply in 0..120 {
                    let moves = position.legal_moves(variant);
                    if moves.is_empty() {
                        break;
                    }
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                    let mv = moves[(seed >> 33) as usize % moves.len()];
                    let next = position.after(variant, mv);
                    let fen = position.fen(variant);
                    assert_eq!(
                        key_after(&position, key(variant, &position), mv, &next),
                        key(variant, &next),
                        "{name} game {game} ply {ply}: {} from {fen}",
                        position.uci(variant, mv)
                    );
                    let passed = position.passed();
                    assert_eq!(key_after_pass(&position, key(variant, &position), &passed), key(variant, &passed));
                    specials += usize::from(mv.special != Special::None || mv.promotion != 0);
                    checked += 1;
                    position = next;
                }
            }
        }
        assert!(checked > 5_000 && specials > 20, "{checked} moves, {specials} castlings, en passants, promotions");
    }

    #[test]
    fn a_mate_read_back_at_another_ply_counts_from_there() {
        let mut table = Table::new(u64::MAX);
        // Mate in 3 plies from a node 2 plies deep: mate in 5 from the root.
        table.put(7, None, MATE - 5, 4, Bound::Exact, 2);
        assert_eq!(table.get(7).unwrap().score(2), MATE - 5);
        // The same position met 4 plies deep: mate in 7 from the root, still 3 from the node.
        assert_eq!(table.get(7).unwrap().score(4), MATE - 7);
        table.put(8, None, -MATE + 6, 4, Bound::Exact, 3);
        assert_eq!(table.get(8).unwrap().score(1), -MATE + 4);
        table.put(9, None, 123, 4, Bound::Lower, 3);
        assert_eq!(table.get(9).unwrap().score(10), 123);
        assert!(table.get(9 + ENTRIES as u64).is_none(), "another key in the same slot");
        assert_eq!(Table::new(u64::MAX).entries.len(), ENTRIES);
        assert_eq!(Table::new(2_000).entries.len(), 2_048, "a small budget's table is small");
    }
}
