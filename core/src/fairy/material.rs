//! What the pieces are worth, for the computer player: the definition's `value` where it gives one,
//! else an estimate from the squares the piece attacks, averaged over every square it could stand
//! on, with each square of the board taken as occupied about one time in three ([`CROWD`]): a
//! ride's k-th square counts 0.68^(k-1), the chance the way there is clear, so riders count for
//! less than leapers, as they do in play. The worth grows a little faster than those squares
//! (their power 19/16), as pieces that combine two moves (the queen, the archbishop) are worth more
//! than the sum of their parts. Chess then comes to a knight 310, a bishop 349, a rook 499 and a
//! queen 963, capablanca's archbishop and chancellor to 804 and 974 (its knight 328):
//! Fairy-Stockfish's proportions within 9%.
use super::model::{Hop, Mode, Node};
use super::movegen::{step, Ray};
use super::{Move, Position, Special, Variant};

/// A pawn's worth: the unit of every value.
pub const PAWN: i32 = 100;

/// How crowded the board is taken to be for the estimate: the chance a square holds a piece.
/// Chosen (with the power 19/16) so the orthodox pieces and capablanca's two come out in
/// Fairy-Stockfish's proportions (within 9%); with the empty board (the estimate before
/// 2026-12-03) a bishop was worth 1.5 knights and an archbishop less than a rook.
const CROWD: f64 = 0.32;

impl Variant {
    /// Each piece type's worth in centipawns, in the variant's piece order; royal pieces are worth
    /// nothing (they are never captured: losing one is the end of the game).
    pub fn piece_values(&self) -> Vec<i32> {
        (0..self.pieces.len()).map(|piece| self.piece_value(piece)).collect()
    }

    fn piece_value(&self, piece: usize) -> i32 {
        let kind = &self.pieces[piece];
        if kind.royal {
            return 0;
        }
        if let Some(value) = kind.value {
            return value;
        }
        if kind.pawn {
            return PAWN;
        }
        let squares = self.files * self.ranks;
        let (mut total, mut chances) = (0.0, vec![0.0; squares]);
        for origin in 0..squares {
            chances.fill(0.0);
            for node in &kind.nodes[0] {
                self.attack_chances(origin, origin, node, 1.0, &mut chances);
            }
            total += chances.iter().sum::<f64>();
        }
        let mobility = total / squares as f64;
        // 43.3 * mobility^(1 + 1/8 + 1/16), with square roots only: IEEE 754 rounds them alike on
        // every platform, so a search replays the same everywhere.
        let eighth = mobility.sqrt().sqrt().sqrt();
        (43.3 * mobility * eighth * eighth.sqrt()).round() as i32
    }

    /// Marks in `chances` how likely the piece on `origin` attacks each square by `node`, walked
    /// from `at`, where `clear` is the chance the way to `at` is free: a square counts with the
    /// best chance any way reaches it. Move trees as `reach.rs` walks them; hoppers need their
    /// screen (the grasshopper just before the square, the cannon anywhere on the way).
    fn attack_chances(&self, origin: usize, at: usize, node: &Node, clear: f64, chances: &mut [f64]) {
        let captures = node.mode != Mode::MoveOnly;
        if node.hop != Hop::None {
            // The line's k-th square (k >= 2): a screen among the k - 1 before it (just before it,
            // for the grasshopper) and the others empty.
            let (mut sq, mut k, mut others_empty) = (at, 0, 1.0);
            while let Some(next) = step(self, sq, node.dx, node.dy) {
                k += 1;
                if k >= 2 {
                    let screens = if node.hop == Hop::Grasshopper { 1.0 } else { (k - 1) as f64 };
                    if captures && next != origin {
                        chances[next] = chances[next].max(clear * screens * CROWD * others_empty);
                    }
                    others_empty *= 1.0 - CROWD;
                }
                sq = next;
            }
            return;
        }
        let mut chance = clear;
        for next in Ray::new(self, node, at) {
            if captures && next != origin {
                chances[next] = chances[next].max(chance);
            }
            for child in &node.children {
                self.attack_chances(origin, next, child, chance * (1.0 - CROWD), chances);
            }
            if next == origin {
                return;
            }
            chance *= 1.0 - CROWD;
        }
    }

    pub(crate) fn is_pawn(&self, piece: usize) -> bool {
        self.pieces[piece].pawn
    }

    /// Whether a side with no move loses (shatranj) rather than draws.
    pub(crate) fn stalemate_loses(&self) -> bool {
        self.stalemate_loses
    }
}

impl Position {
    /// The piece type `mv` captures, if it captures.
    pub(crate) fn captured(&self, mv: Move) -> Option<usize> {
        match mv.special {
            Special::EnPassant(sq) => self.piece_at(sq as usize).map(|(piece, _)| piece),
            Special::Castle(..) => None,
            Special::None => {
                self.piece_at(mv.to as usize).filter(|&(_, colour)| colour != self.side).map(|(piece, _)| piece)
            }
        }
    }

    /// The piece type a pawn becomes by `mv`, if it promotes.
    pub(crate) fn promotes_to(mv: Move) -> Option<usize> {
        (mv.promotion != 0).then(|| mv.promotion as usize - 1)
    }

    /// The square `mv` leaves and the square it reaches.
    pub(crate) fn squares_of(mv: Move) -> (usize, usize) {
        (mv.from as usize, mv.to as usize)
    }

    /// How many squares the board has.
    pub(crate) fn square_count(variant: &Variant) -> usize {
        variant.files * variant.ranks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orthodox_pieces_are_worth_what_players_expect_in_order() {
        let chess = Variant::named("chess").unwrap();
        let value = |letter: char| chess.piece_values()[chess.piece_of(letter).unwrap() as usize];
        assert_eq!(value('P'), PAWN);
        assert_eq!(value('K'), 0);
        // A knight near three pawns, a bishop at least a knight, a rook about five, a queen about
        // nine, and a queen less than two rooks.
        assert!((250..=400).contains(&value('N')), "{}", value('N'));
        assert!(value('B') >= value('N'));
        assert!((450..=700).contains(&value('R')), "{}", value('R'));
        assert!((800..=1100).contains(&value('Q')), "{}", value('Q'));
        assert!(value('Q') < 2 * value('R'));
    }

    /// Fairy-Stockfish's values (`src/types.h`, the middle game's and the endgame's averaged), the
    /// reference for the estimate's proportions: each piece's worth in knights within 10% of its.
    #[test]
    fn capablanca_s_pieces_stand_to_the_knight_as_in_fairy_stockfish() {
        let reference = [('B', 870.0), ('R', 1328.0), ('Q', 2610.0), ('A', 2200.0), ('C', 2450.0)];
        let knight = 817.5;
        for name in ["chess", "capablanca"] {
            let variant = Variant::named(name).unwrap();
            let value = |letter: char| variant.piece_values()[variant.piece_of(letter).unwrap() as usize] as f64;
            for (letter, theirs) in reference.into_iter().filter(|&(l, _)| variant.piece_of(l).is_some()) {
                let (ours, theirs) = (value(letter) / value('N'), theirs / knight);
                assert!((ours / theirs - 1.0).abs() < 0.1, "{name} {letter}: {ours:.2} knights, theirs {theirs:.2}");
            }
        }
        // The archbishop was worth less than a rook when the board was taken as empty.
        let capablanca = Variant::named("capablanca").unwrap();
        let value = |letter: char| capablanca.piece_values()[capablanca.piece_of(letter).unwrap() as usize];
        assert!(value('A') > value('R') + PAWN, "{} against {}", value('A'), value('R'));
    }

    #[test]
    fn hoppers_are_worth_something_but_less_than_the_rider_on_their_lines() {
        let variant = Variant::named("grasshopper").unwrap();
        let value = |letter: char| variant.piece_values()[variant.piece_of(letter).unwrap() as usize];
        assert!((50..value('Q')).contains(&value('G')), "grasshopper {}, queen {}", value('G'), value('Q'));
    }

    #[cfg(all(feature = "definitions", not(compiled_variants)))]
    #[test]
    fn a_definition_s_value_wins_over_the_estimate() {
        let mut definition: serde_json::Value =
            serde_json::from_str(&serde_json::to_string(Variant::builtin_definition("chess").unwrap()).unwrap())
                .unwrap();
        definition["pieces"]["N"]["value"] = serde_json::json!(2.5);
        let variant = Variant::from_definition("valued", &definition).unwrap();
        let knight = variant.piece_of('N').unwrap() as usize;
        assert_eq!(variant.piece_values()[knight], 250);
        // And it survives compiling, as rooms send it.
        let again = Variant::from_compiled_text(&variant.compiled_text()).unwrap();
        assert_eq!(again.piece_values()[knight], 250);
    }
}
