//! Standard algebraic notation as chess players write it (`Nf3`, `exd5`, `O-O`, `e8=Q+`, `Rd8#`),
//! extended to fairy pieces by their letters. A pawn is a pawn-flagged piece written `P`; any other
//! piece, pawn-like or not, is written with its letter, so every move reads back to one move.

use super::{file_char, piece_of, Move, Position, Special, Variant};

impl Position {
    /// A legal move (`mv` in `legal`, the position's legal moves) in SAN: the piece letter (none for a
    /// pawn), the fewest origin coordinates that tell it from its rivals, `x` for a capture, the
    /// destination, `=` and the promotion's letter; castling as `O-O` (towards the h side) or `O-O-O`;
    /// `+` for check, `#` for checkmate.
    pub fn san(&self, variant: &Variant, mv: Move, legal: &[Move]) -> String {
        let mut text = self.san_unmarked(variant, mv, legal);
        let next = self.after(variant, mv);
        if next.in_check(variant) {
            text.push(if next.legal_moves(variant).is_empty() { '#' } else { '+' });
        }
        text
    }

    /// SAN without the check and mate marks (all that tells moves apart).
    pub(super) fn san_unmarked(&self, variant: &Variant, mv: Move, legal: &[Move]) -> String {
        match mv.special {
            Special::Castle(rook, _) => {
                let kingside = rook as usize % variant.files > mv.from as usize % variant.files;
                (if kingside { "O-O" } else { "O-O-O" }).to_owned()
            }
            _ => self.san_body(variant, mv, legal),
        }
    }

    fn san_body(&self, variant: &Variant, mv: Move, legal: &[Move]) -> String {
        let files = variant.files;
        let (from, to) = (mv.from as usize, mv.to as usize);
        let piece = piece_of(self.squares[from]);
        let letter = variant.pieces[piece].letter;
        let pawn = variant.pieces[piece].pawn && letter == 'P';
        let capture = self.squares[to] != 0 || matches!(mv.special, Special::EnPassant(_));
        // Rivals: the same kind of piece elsewhere making the same move.
        let rivals: Vec<usize> = legal
            .iter()
            .filter(|o| o.to == mv.to && o.from != mv.from && o.promotion == mv.promotion)
            .filter(|o| !matches!(o.special, Special::Castle(..)))
            .filter(|o| piece_of(self.squares[o.from as usize]) == piece)
            .map(|o| o.from as usize)
            .collect();
        let (file, rank) = (from % files, from / files);
        // A pawn's capture always names its file, as in chess.
        let with_file = pawn && capture;
        let (name_file, name_rank) = if rivals.is_empty() {
            (with_file, false)
        } else if rivals.iter().all(|&r| r % files != file) {
            (true, false)
        } else if !with_file && rivals.iter().all(|&r| r / files != rank) {
            (false, true)
        } else {
            (true, true)
        };
        let mut text = String::new();
        if !pawn {
            text.push(letter);
        }
        if name_file {
            text.push(file_char(file));
        }
        if name_rank {
            text += &(rank + 1).to_string();
        }
        if capture {
            text.push('x');
        }
        text.push(file_char(to % files));
        text += &(to / files + 1).to_string();
        if mv.promotion > 0 {
            text.push('=');
            text.push(variant.pieces[mv.promotion as usize - 1].letter);
        }
        text
    }
}

/// A move in SAN reduced to what identifies it: no check, mate or annotation marks, no `=` before a
/// promotion, castling with the letter O (typed `0-0` too).
pub fn plain(text: &str) -> String {
    let text = text.trim();
    let castling = text.starts_with('0');
    text.chars()
        .filter(|c| !matches!(c, '+' | '#' | '!' | '?' | '='))
        .map(|c| if castling && c == '0' { 'O' } else { c })
        .collect()
}
