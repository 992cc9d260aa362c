//! Making a move (copy-make: the position after it), and what a position says about itself.

use super::{colour_of, piece_of, Move, Position, Special, Variant, NONE};

impl Position {
    /// The piece on `sq` and its colour.
    pub(crate) fn piece_at(&self, sq: usize) -> Option<(usize, u8)> {
        let cell = self.squares[sq];
        (cell != 0).then(|| (piece_of(cell), colour_of(cell)))
    }

    pub(super) fn royal_square(&self, _variant: &Variant, colour: u8) -> Option<usize> {
        let sq = self.royal[colour as usize];
        (sq != NONE).then_some(sq as usize)
    }

    /// Whether `colour` (0 White, 1 Black) has a royal piece on the board.
    pub fn has_royal(&self, colour: u8) -> bool {
        self.royal[colour as usize] != NONE
    }

    /// 0 for White to move, 1 for Black.
    pub fn side_to_move(&self) -> u8 {
        self.side
    }

    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// The same position with the other side to move (a null move: the search asks whether a
    /// position is so good that even passing keeps it). Only for a side not in check.
    pub(crate) fn passed(&self) -> Position {
        Position { side: 1 - self.side, ep: NONE, ..*self }
    }

    /// The position after `mv` (which must come from this position's moves).
    pub fn after(&self, variant: &Variant, mv: Move) -> Position {
        let mut next = *self;
        let (from, to) = (mv.from as usize, mv.to as usize);
        let moving = self.squares[from];
        next.ep = NONE;
        let count = self.moved[from].saturating_add(1);
        next.moved[from] = 0;
        next.moved[to] = count;
        match mv.special {
            Special::Castle(rook_from, rook_to) => {
                let rook = self.squares[rook_from as usize];
                let rook_count = self.moved[rook_from as usize].saturating_add(1);
                next.squares[from] = 0;
                next.squares[rook_from as usize] = 0;
                next.moved[rook_from as usize] = 0;
                next.squares[to] = moving;
                next.moved[to] = count;
                next.squares[rook_to as usize] = rook;
                next.moved[rook_to as usize] = rook_count;
            }
            Special::EnPassant(captured) => {
                next.squares[captured as usize] = 0;
                next.moved[captured as usize] = 0;
                next.squares[from] = 0;
                next.squares[to] = moving;
            }
            Special::None => {
                next.squares[from] = 0;
                next.squares[to] = if mv.promotion > 0 { mv.promotion + 64 * self.side } else { moving };
                let piece = &variant.pieces[piece_of(moving)];
                let (df, dr) = (
                    (to % variant.files) as i32 - (from % variant.files) as i32,
                    (to / variant.files) as i32 - (from / variant.files) as i32,
                );
                if piece.pawn && df == 0 && dr.abs() == 2 {
                    next.ep = ((from + to) / 2) as u8;
                }
            }
        }
        // Castling rights go with a moved king or a moved or captured rook.
        let king_moved = variant.pieces[piece_of(moving)].royal;
        if king_moved {
            next.royal[self.side as usize] = to as u8;
        }
        // A position with a side in check can be given; taking its royal piece leaves it without one.
        if next.royal[1 - self.side as usize] == to as u8 {
            next.royal[1 - self.side as usize] = NONE;
        }
        for rook in next.castle_rooks.iter_mut() {
            if *rook == NONE {
                continue;
            }
            let r = *rook as usize;
            let rook_colour = if r / variant.files == 0 { 0 } else { 1 };
            if r == from || r == to || (king_moved && rook_colour == self.side) {
                *rook = NONE;
            }
        }
        let capture = self.squares[to] != 0 || matches!(mv.special, Special::EnPassant(_));
        next.halfmove =
            if capture || variant.pieces[piece_of(moving)].pawn { 0 } else { self.halfmove.saturating_add(1) };
        if self.side == 1 {
            next.fullmove = self.fullmove.saturating_add(1);
        }
        next.side = 1 - self.side;
        next
    }
}
