//! Positions in FEN, read and written as Fairy-Stockfish does (castling rights as KQkq, or as
//! rook files in Chess960).

use std::fmt;

use super::{colour_of, file_char, piece_of, Position, Special, Variant, MAX_SQUARES, NONE};

/// Why a FEN does not read (ranks are counted from 1, as FEN's own).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    Empty,
    RankCount {
        found: usize,
        board: usize,
    },
    /// A run of empty squares written with more digits than a number holds.
    EmptyRun,
    UnknownPiece(char),
    RankTooLong(usize),
    RankWidth {
        rank: usize,
        files: usize,
        board: usize,
    },
    SideToMove(String),
    TwoRoyals,
    CastlingWithoutKing(char),
    CastlingWithoutRook(char),
    EnPassant(String),
    HalfmoveClock,
    MoveNumber,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::RankCount { found, board } => write!(f, "{found} ranks in the FEN, the board has {board}"),
            FenError::EmptyRun => write!(f, "a run of empty squares too long"),
            FenError::UnknownPiece(c) => write!(f, "unknown piece {c:?}"),
            FenError::RankTooLong(rank) => write!(f, "rank {rank} is too long"),
            FenError::RankWidth { rank, files, board } => write!(f, "rank {rank} has {files} files, not {board}"),
            FenError::SideToMove(side) => write!(f, "side to move {side:?}"),
            FenError::TwoRoyals => write!(f, "more than one royal piece of a colour"),
            FenError::CastlingWithoutKing(c) => write!(f, "castling right {c} without a king on the back rank"),
            FenError::CastlingWithoutRook(c) => write!(f, "castling right {c} without its rook"),
            FenError::EnPassant(square) => write!(f, "bad en passant square {square:?}"),
            FenError::HalfmoveClock => write!(f, "bad halfmove clock"),
            FenError::MoveNumber => write!(f, "bad move number"),
        }
    }
}

impl std::error::Error for FenError {}

impl Position {
    pub fn from_fen(variant: &Variant, fen: &str, chess960: bool) -> Result<Position, FenError> {
        let mut fields = fen.split_whitespace();
        let placement = fields.next().ok_or(FenError::Empty)?;
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != variant.ranks {
            return Err(FenError::RankCount { found: rows.len(), board: variant.ranks });
        }
        let mut squares = [0u8; MAX_SQUARES];
        for (i, row) in rows.iter().enumerate() {
            let rank = variant.ranks - 1 - i;
            let (mut file, mut digits) = (0usize, String::new());
            let mut chars = row.chars().peekable();
            while let Some(c) = chars.next() {
                if c.is_ascii_digit() {
                    digits.push(c);
                    if chars.peek().is_some_and(|n| n.is_ascii_digit()) {
                        continue;
                    }
                    file = file.saturating_add(digits.parse::<usize>().map_err(|_| FenError::EmptyRun)?);
                    digits.clear();
                    continue;
                }
                let piece = variant.piece_of(c).ok_or(FenError::UnknownPiece(c))?;
                if file >= variant.files {
                    return Err(FenError::RankTooLong(rank + 1));
                }
                let colour = if c.is_ascii_uppercase() { 0 } else { 1 };
                squares[rank * variant.files + file] = 1 + piece + 64 * colour;
                file += 1;
            }
            if file != variant.files {
                return Err(FenError::RankWidth { rank: rank + 1, files: file, board: variant.files });
            }
        }
        let side = match fields.next().unwrap_or("w") {
            "w" => 0,
            "b" => 1,
            other => return Err(FenError::SideToMove(other.to_owned())),
        };
        let mut position = Position {
            squares,
            side,
            castle_rooks: [NONE; 4],
            ep: NONE,
            chess960,
            royal: [NONE; 2],
            halfmove: 0,
            fullmove: 1,
            moved: [0; MAX_SQUARES],
        };
        for colour in 0..2u8 {
            let royal = (0..variant.files * variant.ranks).filter(|&sq| {
                let cell = squares[sq];
                cell != 0 && colour_of(cell) == colour && variant.pieces[piece_of(cell)].royal
            });
            let royal: Vec<usize> = royal.collect();
            if royal.len() > 1 {
                return Err(FenError::TwoRoyals);
            }
            position.royal[colour as usize] = royal.first().map_or(NONE, |&sq| sq as u8);
        }
        let rights = fields.next().unwrap_or("-");
        let mut slot = 0;
        // A variant without castling has no castling rights, whatever a FEN from elsewhere says.
        for c in rights.chars().filter(|&c| c != '-' && variant.castling) {
            let colour = if c.is_ascii_uppercase() { 0 } else { 1 };
            let rank = if colour == 0 { 0 } else { variant.ranks - 1 };
            let king = (0..variant.files)
                .find(|&f| {
                    position
                        .piece_at(rank * variant.files + f)
                        .is_some_and(|(p, col)| col == colour && variant.pieces[p].royal)
                })
                .ok_or(FenError::CastlingWithoutKing(c))?;
            let is_rook = |f: usize| {
                let cell = position.squares[rank * variant.files + f];
                cell != 0
                    && colour_of(cell) == colour
                    && !variant.pieces[piece_of(cell)].royal
                    && !variant.pieces[piece_of(cell)].pawn
            };
            let file = match c.to_ascii_lowercase() {
                'k' => (king + 1..variant.files).rev().find(|&f| is_rook(f)),
                'q' => (0..king).find(|&f| is_rook(f)),
                letter => Some((letter as u8).wrapping_sub(b'a') as usize).filter(|&f| f < variant.files && is_rook(f)),
            }
            .ok_or(FenError::CastlingWithoutRook(c))?;
            if slot < 4 {
                position.castle_rooks[slot] = (rank * variant.files + file) as u8;
                slot += 1;
            }
        }
        if let Some(ep) = fields.next().filter(|&e| e != "-") {
            position.ep = parse_square(variant, ep).ok_or_else(|| FenError::EnPassant(ep.to_owned()))? as u8;
        }
        position.halfmove = fields.next().map_or(Ok(0), str::parse).map_err(|_| FenError::HalfmoveClock)?;
        position.fullmove = fields.next().map_or(Ok(1), str::parse).map_err(|_| FenError::MoveNumber)?;
        Ok(position)
    }

    /// The position in FEN (castling rights as KQkq, or as rook files in Chess960; the en passant
    /// square only when a pawn could capture there, as Fairy-Stockfish writes it).
    pub fn fen(&self, variant: &Variant) -> String {
        let mut rows = Vec::new();
        for rank in (0..variant.ranks).rev() {
            let (mut row, mut empty) = (String::new(), 0);
            for file in 0..variant.files {
                let cell = self.squares[rank * variant.files + file];
                if cell == 0 {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    row += &empty.to_string();
                    empty = 0;
                }
                let letter = variant.pieces[piece_of(cell)].letter;
                row.push(if colour_of(cell) == 0 { letter } else { letter.to_ascii_lowercase() });
            }
            if empty > 0 {
                row += &empty.to_string();
            }
            rows.push(row);
        }
        let mut rights: Vec<char> = self
            .castle_rooks
            .iter()
            .filter(|&&r| r != NONE)
            .map(|&r| {
                let (r, white) = (r as usize, (r as usize) < variant.files);
                let king = self.royal[if white { 0 } else { 1 }] as usize % variant.files;
                let letter = if self.chess960 {
                    file_char(r % variant.files).to_ascii_uppercase()
                } else if r % variant.files > king {
                    'K'
                } else {
                    'Q'
                };
                if white {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                }
            })
            .collect();
        let order = |c: &char| (c.is_ascii_lowercase(), *c == 'Q' || *c == 'q');
        crate::small_sort::sort_small_by(&mut rights, |a, b| order(a) < order(b));
        let rights: String = if rights.is_empty() { "-".into() } else { rights.into_iter().collect() };
        // As Fairy-Stockfish writes it: only where a pawn of the side to move could capture en
        // passant (even if that capture would expose its king).
        let capturable = self.ep != NONE && {
            let mut moves = Vec::new();
            self.pseudo_moves(variant, &mut moves, false);
            moves.iter().any(|mv| matches!(mv.special, Special::EnPassant(_)))
        };
        let ep = if !capturable {
            "-".into()
        } else {
            format!("{}{}", file_char(self.ep as usize % variant.files), self.ep as usize / variant.files + 1)
        };
        let side = if self.side == 0 { "w" } else { "b" };
        format!("{} {side} {rights} {ep} {} {}", rows.join("/"), self.halfmove, self.fullmove)
    }
}

fn parse_square(variant: &Variant, text: &str) -> Option<usize> {
    let mut chars = text.chars();
    let file = (chars.next()? as u8).checked_sub(b'a')? as usize;
    let rank: usize = chars.as_str().parse().ok()?;
    (file < variant.files && (1..=variant.ranks).contains(&rank)).then(|| (rank - 1) * variant.files + file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fen_that_does_not_read_says_why() {
        let chess = &Variant::builtin()["chess"];
        let cases = [
            ("", FenError::Empty),
            ("8/8 w - - 0 1", FenError::RankCount { found: 2, board: 8 }),
            ("8/8/8/8/8/8/8/99999999999999999999999 w - - 0 1", FenError::EmptyRun),
            ("8/8/8/8/8/8/8/7X w - - 0 1", FenError::UnknownPiece('X')),
            ("8/8/8/8/8/8/8/8k w - - 0 1", FenError::RankTooLong(1)),
            ("8/8/8/8/8/8/8/7 w - - 0 1", FenError::RankWidth { rank: 1, files: 7, board: 8 }),
            ("8/8/8/8/8/8/8/8 x - - 0 1", FenError::SideToMove("x".into())),
            ("8/8/8/8/8/8/8/KK6 w - - 0 1", FenError::TwoRoyals),
            ("8/8/8/8/8/8/8/R7 w K - 0 1", FenError::CastlingWithoutKing('K')),
            ("8/8/8/8/8/8/8/4K3 w K - 0 1", FenError::CastlingWithoutRook('K')),
            ("8/8/8/8/8/8/8/8 w - z9 0 1", FenError::EnPassant("z9".into())),
            ("8/8/8/8/8/8/8/8 w - - x 1", FenError::HalfmoveClock),
            ("8/8/8/8/8/8/8/8 w - - 0 x", FenError::MoveNumber),
        ];
        for (fen, error) in cases {
            assert_eq!(Position::from_fen(chess, fen, false), Err(error), "{fen:?}");
        }
        let message = Position::from_fen(chess, "8/8 w - - 0 1", false).unwrap_err().to_string();
        assert_eq!(message, "2 ranks in the FEN, the board has 8");
    }
}
