//! What the pieces are worth, for the computer player: the definition's `value` where it gives one,
//! else an estimate from how many squares the piece attacks on the empty board, averaged over every
//! square it could stand on (a knight 5.25 on 8 x 8, a rook 14, a queen 22.75).

use super::reach::CAPTURE;
use super::{Move, Position, Special, Variant};

/// A pawn's worth: the unit of every value.
pub const PAWN: i32 = 100;

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
        let attacked: usize = (0..squares)
            .map(|origin| self.marks_from(piece, origin).iter().filter(|&&m| m & CAPTURE != 0).count())
            .sum();
        let mobility = attacked as f64 / squares as f64;
        // 90 * mobility^0.75 (a knight about 312, a rook 651, a queen 936), with square roots only:
        // IEEE 754 rounds them alike on every platform, so a search replays the same everywhere.
        (90.0 * mobility.sqrt() * mobility.sqrt().sqrt()).round() as i32
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
