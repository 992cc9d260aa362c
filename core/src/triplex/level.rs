//! A level as players get it: the pieces, the rotatable one, the difficulty, and the unlock code;
//! plus the check of a submitted solution, which does not use the solver.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{family, generate, shape_of, Board, Placements, Puzzle, Tiling, SHAPE_COUNT};

/// One level of the shipped list. JSON: `{"w", "h", "pieces", "solution", "rotatable", "difficulty", "code"}`.
/// Reading one back checks that it is well formed (sizes, shapes, indexes), not that it is unique.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "LevelFields")]
pub struct Level {
    pub w: usize,
    pub h: usize,
    /// The shape id of each piece, pieces numbered in reading order of their first cell.
    pub pieces: Vec<u8>,
    /// The piece index of every cell, row by row.
    pub solution: Vec<Vec<u8>>,
    /// The piece that may be turned (any orientation of its shape), if one qualifies.
    pub rotatable: Option<usize>,
    /// The solver's effort to prove the solution unique (search nodes): the level order.
    pub difficulty: u64,
    /// The code that unlocks the next level: a checksum of this level's solution.
    pub code: String,
}

/// A level as read, before it is checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LevelFields {
    w: usize,
    h: usize,
    pieces: Vec<u8>,
    solution: Vec<Vec<u8>>,
    rotatable: Option<usize>,
    difficulty: u64,
    code: String,
}

impl TryFrom<LevelFields> for Level {
    type Error = String;

    fn try_from(f: LevelFields) -> Result<Level, String> {
        if f.h < 1 || f.w < f.h || f.w.checked_mul(f.h).is_none_or(|area| area > 64) {
            return Err(format!("{}x{} is not a level size", f.w, f.h));
        }
        if f.pieces.iter().any(|&shape| shape as usize >= SHAPE_COUNT) {
            return Err("a piece shape is not one of the 8".into());
        }
        if f.rotatable.is_some_and(|index| index >= f.pieces.len()) {
            return Err("the rotatable piece is not one of the pieces".into());
        }
        let level = Level {
            w: f.w,
            h: f.h,
            pieces: f.pieces,
            solution: f.solution,
            rotatable: f.rotatable,
            difficulty: f.difficulty,
            code: f.code,
        };
        level.check_solution(&level.solution).map_err(|e| format!("the solution does not hold: {e}"))?;
        Ok(level)
    }
}

impl Level {
    pub fn board(&self) -> Board {
        Board { w: self.w, h: self.h }
    }

    pub fn counts(&self) -> [u8; SHAPE_COUNT] {
        counts_of(&self.pieces)
    }

    /// The puzzle a player solves (with the rotatable piece free to turn).
    pub fn puzzle(&self) -> Puzzle {
        Puzzle { board: self.board(), counts: self.counts(), rotatable: self.rotatable.map(|i| self.pieces[i]) }
    }

    /// Finishes a generated tiling: picks the rotatable piece and measures the difficulty.
    pub fn from_tiling(tiling: Tiling, placements: &Placements) -> Level {
        let fixed = Puzzle { board: tiling.board, counts: counts_of(&tiling.pieces), rotatable: None };
        // A shape qualifies when no other orientation of it gives a solution; pieces of one shape
        // are interchangeable, so the first piece of the shape stands for them.
        let mut best: Option<(u64, usize)> = None;
        for (index, &shape) in tiling.pieces.iter().enumerate() {
            if tiling.pieces[..index].contains(&shape) {
                continue;
            }
            let puzzle = Puzzle { rotatable: Some(shape), ..fixed };
            let search = puzzle.solve(placements, 2);
            if search.tilings == 1 && best.is_none_or(|(nodes, _)| search.nodes > nodes) {
                best = Some((search.nodes, index));
            }
        }
        let difficulty = match best {
            Some((nodes, _)) => nodes,
            None => fixed.solve(placements, 2).nodes,
        };
        let code = unlock_code(tiling.board, &tiling.solution);
        Level {
            w: tiling.board.w,
            h: tiling.board.h,
            pieces: tiling.pieces,
            solution: tiling.solution,
            rotatable: best.map(|(_, index)| index),
            difficulty,
            code,
        }
    }

    /// Checks a submitted solution without the solver: every cell holds a piece index, each piece
    /// covers cells forming its own shape (the rotatable piece: any orientation of it), and every
    /// piece is used.
    pub fn check_solution(&self, submitted: &[Vec<u8>]) -> Result<(), SolutionError> {
        if submitted.len() != self.h || submitted.iter().any(|row| row.len() != self.w) {
            return Err(SolutionError::WrongSize);
        }
        let mut cells: Vec<Vec<(usize, usize)>> = vec![Vec::new(); self.pieces.len()];
        for (r, row) in submitted.iter().enumerate() {
            for (c, &piece) in row.iter().enumerate() {
                cells.get_mut(piece as usize).ok_or(SolutionError::UnknownPiece(piece))?.push((r, c));
            }
        }
        for (index, cells) in cells.iter().enumerate() {
            let shape = shape_of(cells).ok_or(SolutionError::WrongShape(index))?;
            let allowed =
                if self.rotatable == Some(index) { family(self.pieces[index]) } else { &self.pieces[index..=index] };
            if !allowed.contains(&shape) {
                return Err(SolutionError::WrongShape(index));
            }
        }
        Ok(())
    }

    /// Whether `code` unlocks the level after this one. Case, spaces and dashes do not matter, and
    /// Crockford's look-alikes are read as meant (O as 0, I and L as 1).
    pub fn accepts_code(&self, code: &str) -> bool {
        normalize_code(code) == self.code
    }
}

/// A code as typed, in the form the levels hold: spaces and dashes dropped, upper case, and
/// Crockford's look-alikes read as meant (O as 0, I and L as 1).
pub fn normalize_code(typed: &str) -> String {
    typed
        .chars()
        .filter(|c| !matches!(c, ' ' | '-'))
        .map(|c| match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            other => other,
        })
        .collect()
}

/// A 32-bit digest of a (normalized) code: the web app ships these instead of the codes, so the
/// level list it carries does not give every code away, and still opens a level from a typed code.
pub fn code_key(code: &str) -> u32 {
    let digest = Sha256::digest(format!("triplex code {code}"));
    u32::from_be_bytes([digest[0], digest[1], digest[2], digest[3]])
}

/// The solution with pieces renumbered in reading order of their first cell, as the level list
/// numbers them: a player's placement of interchangeable pieces becomes the one solution grid, so
/// it gives the level's code.
pub fn canonical(solution: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut renumbered: Vec<Option<u8>> = Vec::new();
    let mut next = 0u8;
    solution
        .iter()
        .map(|row| {
            row.iter()
                .map(|&piece| {
                    let index = piece as usize;
                    if renumbered.len() <= index {
                        renumbered.resize(index + 1, None);
                    }
                    *renumbered[index].get_or_insert_with(|| {
                        next += 1;
                        next - 1
                    })
                })
                .collect()
        })
        .collect()
}

/// How many pieces of each shape.
pub(super) fn counts_of(pieces: &[u8]) -> [u8; SHAPE_COUNT] {
    let mut counts = [0u8; SHAPE_COUNT];
    for &shape in pieces {
        counts[shape as usize] += 1;
    }
    counts
}

/// Why a submitted solution is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolutionError {
    #[error("the solution is not the level's size")]
    WrongSize,
    #[error("piece {0} is not one of the level's pieces")]
    UnknownPiece(u8),
    #[error("piece {0}'s cells do not form its shape")]
    WrongShape(usize),
}

const CODE_ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// 8 characters (40 bits) of SHA-256 over the size and the solution, in Crockford's base 32.
pub fn unlock_code(board: Board, solution: &[Vec<u8>]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(format!("triplex {}x{}:", board.w, board.h));
    for row in solution {
        hasher.update(row);
        hasher.update(b"/");
    }
    let digest = hasher.finalize();
    let bits = digest[..5].iter().fold(0u64, |acc, &b| acc << 8 | b as u64);
    (0..8).rev().map(|i| CODE_ALPHABET[(bits >> (5 * i) & 31) as usize] as char).collect()
}

/// What to generate: every size with `min_area <= w*h <= max_area` (w >= h >= 2), or one size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sizes {
    Areas { min: usize, max: usize },
    One(Board),
}

impl Sizes {
    /// The sizes in the article's order: by area, then the squarer first.
    pub fn boards(self) -> Vec<Board> {
        let mut boards: Vec<Board> = match self {
            Sizes::One(board) => vec![board],
            Sizes::Areas { min, max } => (2..=max.isqrt())
                .flat_map(|h| (h..=max / h).map(move |w| Board { w, h }))
                .filter(|b| b.area() >= min)
                .collect(),
        };
        boards.sort_by_key(|b| (b.area(), b.w));
        boards
    }
}

/// All levels of one size, finished, easiest first.
pub fn levels_of(board: Board) -> Vec<Level> {
    let board = Board { w: board.w.max(board.h), h: board.w.min(board.h) };
    let placements = Puzzle { board, counts: [0; SHAPE_COUNT], rotatable: None }.placements();
    let mut levels: Vec<Level> =
        generate(board).into_iter().map(|tiling| Level::from_tiling(tiling, &placements)).collect();
    sort_easiest_first(&mut levels);
    levels
}

/// Easiest first; ties by size, then by solution, so the order is total and stable.
pub fn sort_easiest_first(levels: &mut [Level]) {
    levels
        .sort_by(|a, b| (a.difficulty, a.w * a.h, a.w, &a.solution).cmp(&(b.difficulty, b.w * b.h, b.w, &b.solution)));
}
