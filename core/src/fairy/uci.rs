//! Moves in UCI notation, and perft: the count of move paths to a depth, which the reference
//! counts check.

use super::{file_char, Move, Position, Special, Variant};

impl Position {
    pub fn perft(&self, variant: &Variant, depth: u32) -> u64 {
        let moves = self.legal_moves(variant);
        if depth <= 1 {
            return if depth == 0 { 1 } else { moves.len() as u64 };
        }
        moves.iter().map(|&mv| self.after(variant, mv).perft(variant, depth - 1)).sum()
    }

    /// UCI: from and to squares, a lowercase promotion letter; castling as the king's move, or in
    /// Chess960 as king-takes-rook.
    pub fn uci(&self, variant: &Variant, mv: Move) -> String {
        let name = |sq: usize| format!("{}{}", file_char(sq % variant.files), sq / variant.files + 1);
        let to = match mv.special {
            Special::Castle(rook, _) if self.chess960 => rook as usize,
            _ => mv.to as usize,
        };
        let mut text = format!("{}{}", name(mv.from as usize), name(to));
        if mv.promotion > 0 {
            text.push(variant.pieces[mv.promotion as usize - 1].letter.to_ascii_lowercase());
        }
        text
    }
}
