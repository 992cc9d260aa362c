//! Where a piece goes, for the picture of its moves: the piece alone near the middle of its
//! variant's board, each square marked by what the piece's move tree can do there. Walked with the
//! ray walker that finds moves (`movegen::Ray`: rides, limits, bounces off the edges), children
//! too, on a board with nothing else, so every square is both free to move to and a capture if a
//! piece stood there.

use super::model::{Hop, Mode, Node};
use super::movegen::{step, Ray};
use super::Variant;

/// The piece can move to the square.
pub const MOVE: u8 = 1;
/// The piece can capture on the square.
pub const CAPTURE: u8 = 2;
/// Only by jumping over a piece on the way (grasshoppers and cannons).
pub const HOP: u8 = 4;
/// Only on some of its moves (a pawn's first move, the imitator's turns): no unconditional move of
/// the piece reaches the square.
pub const SOMETIMES: u8 = 8;

/// The squares of a piece's picture: where it stands, and a mark per square (0: not reached).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    pub origin: usize,
    pub marks: Vec<u8>,
}

impl Variant {
    /// The picture of the moves of White's piece written `letter`, standing on the middle square
    /// (towards White's side and the a-file on even boards); `None` for no such piece.
    pub fn reach(&self, letter: char) -> Option<Reach> {
        let piece = self.piece_of(letter)? as usize;
        let origin = (self.ranks - 1) / 2 * self.files + (self.files - 1) / 2;
        Some(Reach { origin, marks: self.marks_from(piece, origin) })
    }

    /// The marks of White's piece `piece` standing alone on `origin`.
    pub(crate) fn marks_from(&self, piece: usize, origin: usize) -> Vec<u8> {
        // What unconditional moves reach, and what the others do.
        let mut layers = [vec![0u8; self.files * self.ranks], vec![0u8; self.files * self.ranks]];
        for node in &self.pieces[piece].nodes[0] {
            self.mark(origin, origin, node, false, &mut layers);
        }
        let [always, sometimes] = layers;
        always.iter().zip(&sometimes).map(|(&a, &s)| a | s | if a == 0 && s != 0 { SOMETIMES } else { 0 }).collect()
    }

    fn mark(&self, origin: usize, at: usize, node: &Node, conditional: bool, layers: &mut [Vec<u8>; 2]) {
        let conditional = conditional || node.when.is_some();
        let marks = &mut layers[usize::from(conditional)];
        let what = match node.mode {
            Mode::MoveOnly => MOVE,
            Mode::CaptureOnly => CAPTURE,
            Mode::Both => MOVE | CAPTURE,
        };
        if node.hop != Hop::None {
            // Past the first square: a screen must stand somewhere before (for the grasshopper,
            // just before).
            let mut sq = origin;
            let mut steps = 0;
            while let Some(next) = step(self, sq, node.dx, node.dy) {
                steps += 1;
                if steps >= 2 {
                    marks[next] |= what | HOP;
                }
                sq = next;
            }
            return;
        }
        for next in Ray::new(self, node, at) {
            if next != origin {
                layers[usize::from(conditional)][next] |= what;
            }
            for child in &node.children {
                self.mark(origin, next, child, conditional, layers);
            }
            if next == origin {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fairy::Position;

    /// The FEN of `variant`'s board holding White's `letter` on `origin` and, if given, a black
    /// piece `other` on `target`.
    fn fen(variant: &Variant, letter: char, origin: usize, target: Option<(usize, char)>) -> String {
        let mut rows = Vec::new();
        for rank in (0..variant.ranks).rev() {
            let (mut row, mut empty) = (String::new(), 0);
            for file in 0..variant.files {
                let sq = rank * variant.files + file;
                let piece = if sq == origin { Some(letter) } else { target.filter(|t| t.0 == sq).map(|t| t.1) };
                match piece {
                    Some(c) => {
                        if empty > 0 {
                            row += &std::mem::take(&mut empty).to_string();
                        }
                        row.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row += &empty.to_string();
            }
            rows.push(row);
        }
        format!("{} w - - 0 1", rows.join("/"))
    }

    fn targets(variant: &Variant, fen: &str, origin: usize) -> Vec<(usize, bool)> {
        let position = Position::from_fen(variant, fen, false).unwrap();
        let mut out = Vec::new();
        position.targets(variant, origin, &mut out);
        out
    }

    /// For every piece of every built-in variant without hops or conditions: the engine's quiet
    /// moves on the empty board are the squares marked MOVE, and it captures a lone black piece on
    /// a square exactly where the square is marked CAPTURE.
    #[test]
    fn the_picture_agrees_with_the_engine_s_moves() {
        let mut checked = 0;
        for (name, variant) in Variant::builtin() {
            for piece in &variant.pieces {
                let plain = |n: &Node| n.hop == Hop::None && n.when.is_none();
                fn all(nodes: &[Node], ok: &dyn Fn(&Node) -> bool) -> bool {
                    nodes.iter().all(|n| ok(n) && all(&n.children, ok))
                }
                if !all(&piece.nodes[0], &plain) {
                    continue;
                }
                let reach = variant.reach(piece.letter).unwrap();
                let origin = reach.origin;
                let quiet: Vec<usize> = {
                    let mut q: Vec<usize> = targets(variant, &fen(variant, piece.letter, origin, None), origin)
                        .into_iter()
                        .map(|(sq, _)| sq)
                        .collect();
                    q.sort_unstable();
                    q.dedup();
                    q
                };
                let marked: Vec<usize> = (0..reach.marks.len()).filter(|&sq| reach.marks[sq] & MOVE != 0).collect();
                assert_eq!(quiet, marked, "{name} {}: moves", piece.letter);
                // A black non-royal piece to capture.
                let victim = variant.pieces.iter().find(|p| !p.royal).map_or('P', |p| p.letter).to_ascii_lowercase();
                for sq in (0..reach.marks.len()).filter(|&sq| sq != origin) {
                    let captures = targets(variant, &fen(variant, piece.letter, origin, Some((sq, victim))), origin)
                        .contains(&(sq, true));
                    assert_eq!(captures, reach.marks[sq] & CAPTURE != 0, "{name} {}: capture on {sq}", piece.letter);
                }
                checked += 1;
            }
        }
        assert!(checked > 100, "{checked}");
    }

    #[test]
    fn hops_and_conditions_are_marked() {
        let hoppers = &Variant::builtin()["hoppers"];
        let cannon = hoppers.reach('C').unwrap();
        let north = |n: usize| cannon.origin + n * hoppers.files;
        assert_eq!(cannon.marks[north(1)], MOVE, "the next square: a quiet move only");
        assert_eq!(cannon.marks[north(2)], MOVE | CAPTURE | HOP, "further: a capture over a screen too");
        let grasshopper = hoppers.reach('G').unwrap();
        assert_eq!(grasshopper.marks[grasshopper.origin + 1], 0, "never the next square");
        assert_eq!(grasshopper.marks[grasshopper.origin + 2], MOVE | CAPTURE | HOP);
        let chess = &Variant::builtin()["chess"];
        let pawn = chess.reach('P').unwrap();
        assert_eq!(pawn.marks[pawn.origin + 8], MOVE);
        assert_eq!(pawn.marks[pawn.origin + 16], MOVE | SOMETIMES, "the double step");
        assert_eq!(pawn.marks[pawn.origin + 9], CAPTURE);
        assert_eq!(pawn.marks.iter().filter(|&&m| m != 0).count(), 4);
        let griffin = &Variant::builtin()["griffin-seed"];
        let reach = griffin.reach('G').unwrap();
        assert_eq!(reach.marks[reach.origin + griffin.files + 1], MOVE, "the move-only first step");
        assert_eq!(reach.marks[reach.origin + 2 * griffin.files + 1], MOVE | CAPTURE, "then the rook ride");
    }
}
