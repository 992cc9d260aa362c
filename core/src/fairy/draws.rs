//! Endings chess players expect besides checkmate, stalemate and the fifty-move rule: insufficient
//! material where the pieces left make it unambiguous (only kings, knights and bishops that move
//! exactly as in chess), the key that threefold repetition compares, and shatranj's bare king.

use super::model::{Hop, Mode, Node};
use super::{colour_of, piece_of, Position, Variant};

/// What a piece is, as far as the material draw cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(super) enum Shape {
    King,
    Knight,
    Bishop,
    Other,
}

/// The sorted directions of `nodes` if every one is a plain move-or-capture step (no children,
/// conditions, hops or bounces), each a leap (`rider` false) or each an unlimited ride.
fn plain_directions(nodes: &[Node], rider: bool) -> Option<Vec<(i32, i32)>> {
    let plain = nodes.iter().all(|n| {
        n.mode == Mode::Both
            && n.children.is_empty()
            && n.when.is_none()
            && n.hop == Hop::None
            && n.reflections == 0
            && if rider { n.rider && n.length == 0 } else { !n.rider || n.length == 1 }
    });
    let mut directions: Vec<(i32, i32)> = nodes.iter().map(|n| (n.dx, n.dy)).collect();
    crate::small_sort::sort_small_by(&mut directions, |a, b| a < b);
    plain.then_some(directions)
}

pub(super) fn shape(nodes: &[Node], royal: bool) -> Shape {
    let all = |pairs: &[(i32, i32)]| {
        let mut directions: Vec<(i32, i32)> = pairs
            .iter()
            .flat_map(|&(a, b)| [(a, b), (-a, b), (a, -b), (-a, -b), (b, a), (-b, a), (b, -a), (-b, -a)])
            .collect();
        crate::small_sort::sort_small_by(&mut directions, |a, b| a < b);
        directions.dedup();
        directions
    };
    let leaps = plain_directions(nodes, false);
    let rides = plain_directions(nodes, true);
    if royal && leaps == Some(all(&[(1, 0), (1, 1)])) {
        Shape::King
    } else if !royal && leaps == Some(all(&[(1, 2)])) {
        Shape::Knight
    } else if !royal && rides == Some(all(&[(1, 1)])) {
        Shape::Bishop
    } else {
        Shape::Other
    }
}

impl Position {
    /// Neither side can ever mate: bare kings, a lone knight or bishop against a bare king, or only
    /// bishops all on squares of one colour. Only when every piece on the board moves as in chess.
    pub fn insufficient_material(&self, variant: &Variant) -> bool {
        // With the bare-king rule a lone knight still wins, and bare kings play on.
        if variant.bare_king_loses {
            return false;
        }
        let (mut knights, mut bishop_colours, mut kings) = ([0; 2], [[0; 2]; 2], [0; 2]);
        for (sq, &cell) in self.squares[..variant.files * variant.ranks].iter().enumerate() {
            if cell == 0 {
                continue;
            }
            let side = colour_of(cell) as usize;
            let (file, rank) = variant.coords[sq];
            match variant.pieces[piece_of(cell)].shape {
                Shape::King => kings[side] += 1,
                Shape::Knight => knights[side] += 1,
                Shape::Bishop => bishop_colours[side][((file + rank) % 2) as usize] += 1,
                Shape::Other => return false,
            }
        }
        if kings != [1, 1] {
            return false;
        }
        let bishops = |side: usize| bishop_colours[side][0] + bishop_colours[side][1];
        let minors = |side: usize| knights[side] + bishops(side);
        match (minors(0), minors(1)) {
            (0, 0) => true,
            (1, 0) | (0, 1) => true,
            // Bishops only, all on one colour of square: no mate can ever be built.
            _ if knights == [0, 0] => {
                let light = bishop_colours[0][0] + bishop_colours[1][0];
                let dark = bishop_colours[0][1] + bishop_colours[1][1];
                light == 0 || dark == 0
            }
            _ => false,
        }
    }

    /// Each side's pieces besides its royal one.
    pub fn non_royal_pieces(&self, variant: &Variant) -> [usize; 2] {
        let mut count = [0; 2];
        for &cell in &self.squares[..variant.files * variant.ranks] {
            if cell != 0 && !variant.pieces[piece_of(cell)].royal {
                count[colour_of(cell) as usize] += 1;
            }
        }
        count
    }

    /// The position as repetition compares it: placement, side to move, castling rights and the en
    /// passant square (the FEN without its clocks).
    pub fn repetition_key(&self, variant: &Variant) -> String {
        let fen = self.fen(variant);
        fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
    }
}
