//! Fairy chess from data: variants and pieces in the seed's JSON model (`shared/rules/fairy.md`),
//! compiled into move trees; positions in FEN (up to 12 x 12), moves in UCI notation as
//! Fairy-Stockfish writes them, perft. Copy-make positions on a mailbox board.
//!
//! This file holds the types; `variant.rs` compiles a variant, `position.rs` makes moves,
//! `movegen.rs` finds them (its ray walker also draws `reach.rs`'s pictures), `fen.rs` reads and
//! writes positions, `uci.rs` names moves and counts them (perft).

mod compiled;
#[cfg(feature = "definitions")]
mod definition;
#[cfg(test)]
mod differential;
#[cfg(feature = "definitions")]
pub use definition::MAX_DEFINITION_BYTES;

/// The built-in variants in the seed's JSON model, by name: what rooms store, and starting points
/// for a custom variant.
pub const BUILTIN_DEFINITIONS: &str = include_str!("../../data/fairy-variants.json");
mod draws;
mod fen;
mod figures;
mod game;
mod material;
mod model;
mod movegen;
pub mod pgn;
mod position;
pub mod reach;
mod san;
// The computer player's side of this game (`crate::ai`): only in builds with every game.
#[cfg(feature = "all-games")]
pub(crate) mod search;
mod uci;
mod variant;

use serde::{Deserialize, Serialize};

pub use fen::FenError;
pub use game::{Chess, ChessConfig, ChessError, UciMove};
use model::Node;
pub use model::VariantDef;

pub const MAX_FILES: usize = 12;
pub const MAX_SQUARES: usize = MAX_FILES * MAX_FILES;
const NONE: u8 = u8::MAX;

/// A piece type of a variant, with its moves for White and for Black (dy turned over).
#[derive(Clone, Debug, Serialize, Deserialize)]
struct PieceType {
    letter: char,
    royal: bool,
    pawn: bool,
    /// Compiled, only White's are written: Black's are theirs turned over.
    #[serde(serialize_with = "variant::write_white", deserialize_with = "variant::read_white")]
    nodes: [Vec<Node>; 2],
    /// Whether attacks can be found by walking back from the target (no capturing move with
    /// children, bounces or conditions); otherwise the pieces of this type are asked forward.
    simple: bool,
    /// Two of its moves can reach one square (same direction twice, children, bounces).
    needs_dedup: bool,
    /// A chess king, knight or bishop, for the material draw.
    shape: draws::Shape,
    /// The drawing that shows it, if one does (`figures.rs`).
    figure: Option<String>,
    /// Its worth in centipawns, if the definition gives one (`material.rs` estimates the others).
    value: Option<i32>,
}

/// Simple attacks along one direction (as the attacker moves): which piece types leap it, which
/// ride it without limit, which ride it a limited distance.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct AttackLine {
    dx: i32,
    dy: i32,
    leapers: u64,
    riders: u64,
    limited: Vec<(usize, u32)>,
}

impl AttackLine {
    /// Whether `piece` rides this line as far as `steps` (leaps aside).
    #[inline]
    fn rides(&self, piece: usize, steps: u32) -> bool {
        self.riders & (1 << piece) != 0 || self.limited.iter().any(|&(p, n)| p == piece && steps <= n)
    }
}

/// A compiled variant.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Variant {
    pub name: String,
    files: usize,
    ranks: usize,
    castling: bool,
    /// Queenside then kingside: the files castling puts the king and the rook on.
    castling_files: [[usize; 2]; 2],
    stalemate_loses: bool,
    bare_king_loses: bool,
    promotion: Vec<u8>,
    /// Per colour, the ranks (absolute) where a pawn counts as unmoved.
    double_step: [Vec<usize>; 2],
    /// Promotion is optional on this many last ranks, mandatory on the last.
    promotion_ranks: usize,
    /// Per piece type: at most this many on the board after a promotion. (Not `usize::MAX` for "no
    /// limit": compiled natively, that would not read back on wasm32.)
    promotion_limits: Vec<Option<usize>>,
    pub description: String,
    /// The start position, if the data gives one.
    pub start: Option<String>,
    /// Fairy-Stockfish's name for the same game, if it has one.
    pub fairy_stockfish: Option<String>,
    pieces: Vec<PieceType>,
    /// Some piece needs forward generation to find its attacks.
    has_complex: bool,
    /// By attacking colour (compiled: computed again when read).
    #[serde(skip)]
    lines: [Vec<AttackLine>; 2],
    /// File and rank of each square (no division in the move loops).
    #[serde(skip, default = "variant::no_coords")]
    coords: [(i32, i32); MAX_SQUARES],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Special {
    None,
    EnPassant(u8),
    /// Rook from, rook to.
    Castle(u8, u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    from: u8,
    to: u8,
    /// Piece index + 1 of the promotion, or 0.
    promotion: u8,
    special: Special,
}

/// A position: mailbox squares (`rank * files + file`, rank 0 is White's first), each 0 for empty or
/// `1 + piece index + 64 * colour`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    squares: [u8; MAX_SQUARES],
    /// 0 White, 1 Black.
    side: u8,
    /// Squares of the rooks that may still castle (NONE when unused).
    castle_rooks: [u8; 4],
    ep: u8,
    chess960: bool,
    /// Each side's royal piece square (NONE without one).
    royal: [u8; 2],
    /// Plies since the last capture or pawn move, and the move number.
    halfmove: u16,
    fullmove: u16,
    /// How many moves the piece on each square has made (0 for pieces read from a FEN).
    moved: [u16; MAX_SQUARES],
}

fn colour_of(cell: u8) -> u8 {
    (cell - 1) / 64
}

fn piece_of(cell: u8) -> usize {
    ((cell - 1) % 64) as usize
}

fn file_char(file: usize) -> char {
    (b'a' + file as u8) as char
}
