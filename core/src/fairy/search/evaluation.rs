//! What a position is worth to the side to move, in centipawns, in any variant: material at the
//! pieces' values, central pieces, pawns (advanced, passed, doubled, isolated), the royal piece's
//! shelter while the board is full and its activity once it empties, undeveloped minor pieces.
//! Each term is weighed between a middle game and an endgame value by the material left.

use crate::fairy::{Position, Variant, MAX_FILES};

/// The phase's scale: the full board's material is `PHASE`, a board of pawns and royals 0.
const PHASE: i32 = 64;
/// Pieces worth less than this count as minor (developed early, off the back rank).
const MINOR: i32 = 600;

pub(super) struct Evaluation<'a> {
    variant: &'a Variant,
    pub values: Vec<i32>,
    /// Per square, how central it is (0 at the rim, more towards the middle).
    centre: Vec<i32>,
    /// The pieces' material (pawns and royals aside) of the variant's start, both sides.
    full_material: i32,
}

/// Per colour and file: how many pawns, and the advance (ranks from its own first) of the rearmost
/// and the frontmost.
struct Pawns {
    count: [[i32; MAX_FILES]; 2],
    rearmost: [[i32; MAX_FILES]; 2],
    frontmost: [[i32; MAX_FILES]; 2],
}

/// A middle game and an endgame value, weighed by the phase at the end.
#[derive(Clone, Copy, Default)]
struct Score {
    middle: i32,
    end: i32,
}

impl Score {
    fn add(&mut self, middle: i32, end: i32, sign: i32) {
        self.middle += sign * middle;
        self.end += sign * end;
    }
}

impl<'a> Evaluation<'a> {
    pub fn new(variant: &'a Variant, root: &Position) -> Evaluation<'a> {
        let (files, ranks) = (variant.files() as i32, variant.ranks() as i32);
        let centre = (0..Position::square_count(variant) as i32)
            .map(|sq| {
                let (f, r) = (sq % files, sq / files);
                (f.min(files - 1 - f)).min(r.min(ranks - 1 - r))
            })
            .collect();
        let mut evaluation = Evaluation { variant, values: variant.piece_values(), centre, full_material: 1 };
        let start = variant.start.as_deref().and_then(|fen| Position::from_fen(variant, fen, false).ok());
        let material = evaluation.material(start.as_ref().unwrap_or(root));
        evaluation.full_material = (material[0] + material[1]).max(1);
        evaluation
    }

    /// Each side's material in pieces (pawns and royals aside).
    fn material(&self, position: &Position) -> [i32; 2] {
        let mut material = [0; 2];
        for sq in 0..Position::square_count(self.variant) {
            if let Some((piece, colour)) = position.piece_at(sq) {
                if !self.variant.is_pawn(piece) {
                    material[colour as usize] += self.values[piece];
                }
            }
        }
        material
    }

    /// Whether `colour` has a piece besides pawns and royals: without one, passing may be its best
    /// move (zugzwang), and a null move would lie.
    pub fn has_pieces(&self, position: &Position, colour: u8) -> bool {
        self.material(position)[colour as usize] > 0
    }

    pub fn evaluate(&self, position: &Position) -> i32 {
        let variant = self.variant;
        let (files, ranks) = (variant.files(), variant.ranks());
        let mut score = Score::default();
        let mut material = 0;
        let mut pawns =
            Pawns { count: [[0; MAX_FILES]; 2], rearmost: [[0; MAX_FILES]; 2], frontmost: [[0; MAX_FILES]; 2] };
        let mut royal = [None; 2];
        for sq in 0..Position::square_count(variant) {
            let Some((piece, colour)) = position.piece_at(sq) else { continue };
            let sign = if colour == 0 { 1 } else { -1 };
            let (file, rank) = (sq % files, sq / files);
            let advance = if colour == 0 { rank } else { ranks - 1 - rank } as i32;
            let worth = self.values[piece];
            score.add(worth, worth, sign);
            if variant.is_pawn(piece) {
                score.add(4 * advance, 4 * advance, sign);
                let c = colour as usize;
                if pawns.count[c][file] == 0 || advance < pawns.rearmost[c][file] {
                    pawns.rearmost[c][file] = advance;
                }
                pawns.frontmost[c][file] = pawns.frontmost[c][file].max(advance);
                pawns.count[c][file] += 1;
            } else if worth > 0 {
                material += worth;
                score.add(6 * self.centre[sq], 6 * self.centre[sq], sign);
                if worth < MINOR && advance == 0 {
                    score.add(-12, 0, sign);
                }
            } else {
                royal[colour as usize] = Some(sq);
            }
        }
        for (colour, royal) in royal.into_iter().enumerate() {
            let sign = if colour == 0 { 1 } else { -1 };
            self.pawn_structure(colour, &pawns, &mut score, sign);
            if let Some(sq) = royal {
                self.royal_safety(position, colour as u8, sq, &mut score, sign);
            }
        }
        let phase = (PHASE * material / self.full_material).min(PHASE);
        let white = (score.middle * phase + score.end * (PHASE - phase)) / PHASE;
        // The side to move is a tempo ahead.
        10 + if position.side_to_move() == 0 { white } else { -white }
    }

    /// Passed pawns (no enemy pawn ahead on its file or the next) grow with the square of their
    /// advance, more so in the endgame; a second pawn on a file and a pawn with no neighbour cost.
    fn pawn_structure(&self, colour: usize, pawns: &Pawns, score: &mut Score, sign: i32) {
        let (files, ranks) = (self.variant.files(), self.variant.ranks() as i32);
        let (count, enemy) = (&pawns.count[colour], 1 - colour);
        for file in 0..files {
            if count[file] == 0 {
                continue;
            }
            let near = file.saturating_sub(1)..=(file + 1).min(files - 1);
            if near.clone().all(|f| f == file || count[f] == 0) {
                score.add(-10 * count[file], -15 * count[file], sign);
            }
            score.add(-10 * (count[file] - 1), -20 * (count[file] - 1), sign);
            // Passed: every enemy pawn on this file and the next, counted from our side, behind
            // the file's most advanced pawn of ours.
            let advance = pawns.frontmost[colour][file];
            if near.clone().all(|f| pawns.count[enemy][f] == 0 || ranks - 1 - pawns.rearmost[enemy][f] <= advance) {
                let a = advance * 6 / (ranks - 2).max(1);
                score.add(2 * a * a, 5 * a * a + 10, sign);
            }
        }
    }

    /// The royal piece: in the middle game near a corner of its first rank behind its pawns; in
    /// the endgame towards the centre.
    fn royal_safety(&self, position: &Position, colour: u8, sq: usize, score: &mut Score, sign: i32) {
        let variant = self.variant;
        let (files, ranks) = (variant.files() as i32, variant.ranks() as i32);
        let (file, rank) = (sq as i32 % files, sq as i32 / files);
        let forward = if colour == 0 { 1 } else { -1 };
        let advance = if colour == 0 { rank } else { ranks - 1 - rank };
        let mut shelter = 0;
        for df in -1..=1 {
            for dr in 1..=2 {
                let (f, r) = (file + df, rank + forward * dr);
                if (0..files).contains(&f) && (0..ranks).contains(&r) {
                    let own_pawn = position
                        .piece_at((r * files + f) as usize)
                        .is_some_and(|(p, c)| c == colour && variant.is_pawn(p));
                    shelter += i32::from(own_pawn);
                }
            }
        }
        let file_centre = file.min(files - 1 - file);
        score.add(8 * shelter - 12 * file_centre - 20 * advance, 10 * self.centre[sq], sign);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn evaluate(fen: &str) -> i32 {
        let variant = Variant::named("chess").unwrap();
        let position = Position::from_fen(variant, fen, false).unwrap();
        Evaluation::new(variant, &position).evaluate(&position)
    }

    /// The same position with the colours swapped and the board turned (White's pieces where
    /// Black's stood, rank for rank).
    fn mirrored(fen: &str) -> String {
        let fields: Vec<&str> = fen.split(' ').collect();
        let swap = |text: &str| -> String {
            text.chars()
                .map(|c| if c.is_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
                .collect()
        };
        let placement: Vec<String> = fields[0].split('/').rev().map(swap).collect();
        let side = if fields[1] == "w" { "b" } else { "w" };
        let ep = match fields[3].as_bytes() {
            [file, rank] => format!("{}{}", *file as char, (b'1' + b'8' - rank) as char),
            _ => "-".into(),
        };
        format!("{} {side} {} {ep} {} {}", placement.join("/"), swap(fields[2]), fields[4], fields[5])
    }

    #[test]
    fn both_colours_are_judged_alike() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R b KQ - 3 9",
            "8/5pk1/6p1/1P6/8/6P1/5PK1/8 w - - 0 40",
        ] {
            assert_eq!(evaluate(fen), evaluate(&mirrored(fen)), "{fen} against {}", mirrored(fen));
        }
    }

    #[test]
    fn a_passed_pawn_is_worth_more_the_further_it_is() {
        let blocked = evaluate("6k1/8/3p4/8/3P4/8/8/6K1 w - - 0 40");
        let passed = evaluate("6k1/8/8/3p4/4P3/8/8/6K1 w - - 0 40");
        let far = evaluate("6k1/8/4P3/3p4/8/8/8/6K1 w - - 0 40");
        assert!(far > passed, "{far} not above {passed}");
        // Each side has one passed pawn in `passed`, and neither in `blocked`: equal sides.
        assert!((passed - blocked).abs() < 20, "{passed} against {blocked}");
        assert!(far - passed > 50, "a pawn on the sixth rank is {far} against {passed}");
    }

    #[test]
    fn a_sheltered_king_is_safer_while_the_queens_are_on() {
        let castled = evaluate("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 6");
        let exposed = evaluate("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPPKPPP/R1BQ3R w - - 0 6");
        assert!(castled > exposed + 30, "castled {castled}, king on e2 {exposed}");
    }
}
