//! Where the player has put the pieces of a level: each piece on the board (its top-left corner's
//! cell) or in the tray, and the current shape of the rotatable piece. Pure, so the rules of
//! dropping (inside the rectangle, no overlap) are tested natively.

use serde::{Deserialize, Serialize};
use tabula_core::triplex::{family, rotated, Level, SHAPES};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    /// Each piece's top-left cell (row, column) on the board, or `None` in the tray.
    pub at: Vec<Option<(u8, u8)>>,
    /// The rotatable piece's shape now (the level's `pieces` give the others').
    pub turned: Option<u8>,
}

impl Placement {
    /// Every piece in the tray; the rotatable piece a quarter turn away from the level's own
    /// orientation, so finding its turn is part of the puzzle.
    pub fn start(level: &Level) -> Placement {
        Placement { at: vec![None; level.pieces.len()], turned: level.rotatable.map(|r| rotated(level.pieces[r])) }
    }

    /// Whether a saved placement belongs to `level` (a stale or edited save is not used).
    pub fn fits_level(&self, level: &Level) -> bool {
        let turned_ok = match (level.rotatable, self.turned) {
            (Some(r), Some(shape)) => family(level.pieces[r]).contains(&shape),
            (None, None) => true,
            _ => false,
        };
        turned_ok && self.at.len() == level.pieces.len() && self.well_placed(level)
    }

    pub fn shape(&self, level: &Level, piece: usize) -> u8 {
        match (level.rotatable, self.turned) {
            (Some(r), Some(shape)) if r == piece => shape,
            _ => level.pieces[piece],
        }
    }

    /// The cells `piece` would cover with its corner at `corner`, or `None` if any is outside.
    pub fn cells(&self, level: &Level, piece: usize, corner: (i32, i32)) -> Option<Vec<(usize, usize)>> {
        SHAPES[self.shape(level, piece) as usize]
            .iter()
            .map(|&(r, c)| {
                let (row, col) = (corner.0 + r as i32, corner.1 + c as i32);
                let inside = (0..level.h as i32).contains(&row) && (0..level.w as i32).contains(&col);
                inside.then_some((row as usize, col as usize))
            })
            .collect()
    }

    /// The piece covering each cell (row by row), pieces on the board only.
    pub fn grid(&self, level: &Level) -> Vec<Vec<Option<u8>>> {
        let mut grid = vec![vec![None; level.w]; level.h];
        for (piece, corner) in self.at.iter().enumerate() {
            let Some((r, c)) = *corner else { continue };
            for (row, col) in self.cells(level, piece, (r as i32, c as i32)).unwrap_or_default() {
                grid[row][col] = Some(piece as u8);
            }
        }
        grid
    }

    /// Whether every piece on the board is inside it and no cell is claimed twice (always, for
    /// placements made through `drop_at`).
    fn well_placed(&self, level: &Level) -> bool {
        let mut seen = vec![vec![false; level.w]; level.h];
        self.at.iter().enumerate().all(|(piece, corner)| {
            let Some((r, c)) = *corner else { return true };
            let Some(cells) = self.cells(level, piece, (r as i32, c as i32)) else { return false };
            cells.into_iter().all(|(row, col)| !std::mem::replace(&mut seen[row][col], true))
        })
    }

    /// Whether `piece` can go with its corner at `corner`: inside the rectangle, over no other piece.
    pub fn fits(&self, level: &Level, piece: usize, corner: (i32, i32)) -> bool {
        let Some(cells) = self.cells(level, piece, corner) else { return false };
        let grid = self.grid(level);
        cells.iter().all(|&(r, c)| grid[r][c].is_none_or(|other| other as usize == piece))
    }

    /// The placement with `piece` put at `corner`, or `None` where it does not fit.
    pub fn drop_at(&self, level: &Level, piece: usize, corner: (i32, i32)) -> Option<Placement> {
        if !self.fits(level, piece, corner) {
            return None;
        }
        let mut next = self.clone();
        next.at[piece] = Some((corner.0 as u8, corner.1 as u8));
        Some(next)
    }

    pub fn to_tray(&self, piece: usize) -> Placement {
        let mut next = self.clone();
        next.at[piece] = None;
        next
    }

    /// The rotatable piece turned a quarter; on the board it stays where it is if it still fits
    /// there, else it goes back to the tray.
    pub fn rotate(&self, level: &Level) -> Option<Placement> {
        let piece = level.rotatable?;
        let mut next = self.clone();
        next.turned = Some(rotated(self.shape(level, piece)));
        if let Some((r, c)) = next.at[piece] {
            if !next.fits(level, piece, (r as i32, c as i32)) {
                next.at[piece] = None;
            }
        }
        Some(next)
    }

    /// The full board as the engine takes it (piece index per cell), once every cell is covered.
    pub fn solution(&self, level: &Level) -> Option<Vec<Vec<u8>>> {
        self.grid(level).into_iter().map(|row| row.into_iter().collect::<Option<Vec<u8>>>()).collect()
    }
}

#[cfg(test)]
mod tests {
    use tabula_core::triplex::{catalog, shape_of};

    use super::*;

    /// Each piece's top-left corner in the level's solution, and its shape there.
    fn solved(level: &Level) -> Placement {
        let mut placement = Placement::start(level);
        for piece in 0..level.pieces.len() {
            let cells: Vec<(usize, usize)> = (0..level.h)
                .flat_map(|r| (0..level.w).map(move |c| (r, c)))
                .filter(|&(r, c)| level.solution[r][c] as usize == piece)
                .collect();
            let top = cells.iter().map(|c| c.0).min().unwrap();
            let left = cells.iter().map(|c| c.1).min().unwrap();
            if level.rotatable == Some(piece) {
                placement.turned = shape_of(&cells);
            }
            placement = placement.drop_at(level, piece, (top as i32, left as i32)).expect("the solution fits");
        }
        placement
    }

    #[test]
    fn placing_every_level_s_solution_solves_it() {
        for level in catalog::shipped() {
            let placement = solved(level);
            let solution = placement.solution(level).expect("every cell covered");
            assert_eq!(level.check_solution(&solution), Ok(()));
            assert!(placement.fits_level(level));
        }
    }

    #[test]
    fn pieces_stay_inside_and_never_overlap() {
        let level = catalog::level(1).unwrap();
        let start = Placement::start(level);
        assert_ne!(start.turned, level.rotatable.map(|r| level.pieces[r]), "the rotatable piece starts turned");
        assert_eq!(start.solution(level), None);
        let first = start.drop_at(level, 0, (0, 0)).unwrap();
        assert!(first.drop_at(level, 1, (0, 0)).is_none(), "over piece 0");
        assert!(first.drop_at(level, 1, (-1, 0)).is_none(), "above the board");
        assert!(first.drop_at(level, 1, (0, level.w as i32 - 1)).is_none(), "past the right edge");
        assert!(first.drop_at(level, 0, (1, 0)).is_some(), "a piece may move over its own cells");
        assert_eq!(first.to_tray(0), start);
    }

    #[test]
    fn the_rotatable_piece_turns_through_its_family_and_leaves_the_board_when_it_no_longer_fits() {
        let level = catalog::shipped().iter().find(|l| l.rotatable.is_some_and(|r| l.pieces[r] == 0)).unwrap();
        let piece = level.rotatable.unwrap();
        let start = Placement::start(level);
        assert_eq!(start.shape(level, piece), 1, "a horizontal domino starts upright");
        // Upright in the bottom row does not fit; lying there does.
        let bottom = (level.h as i32 - 1, 0);
        assert!(!start.fits(level, piece, bottom));
        let lying = start.rotate(level).unwrap();
        let placed = lying.drop_at(level, piece, bottom).unwrap();
        let upright = placed.rotate(level).unwrap();
        assert_eq!(upright.at[piece], None, "turned upright in the bottom row, it goes back to the tray");
        let fixed = catalog::shipped().iter().find(|l| l.rotatable.is_none()).unwrap();
        assert_eq!(Placement::start(fixed).rotate(fixed), None, "no piece of this level turns");
    }

    #[test]
    fn a_save_for_another_level_or_with_a_foreign_shape_is_not_used() {
        let level = catalog::level(1).unwrap();
        let mut save = Placement::start(level);
        assert!(save.fits_level(level));
        save.turned = Some(2);
        assert!(!save.fits_level(level), "a domino cannot turn into a tromino");
        let other = catalog::shipped().iter().find(|l| l.pieces.len() != level.pieces.len()).unwrap();
        assert!(!Placement::start(level).fits_level(other));
        let mut off = Placement::start(level);
        off.at[0] = Some((0, 255));
        assert!(!off.fits_level(level), "a piece off the board");
        let mut overlapping = Placement::start(level).drop_at(level, 0, (0, 0)).unwrap();
        overlapping.at[1] = Some((0, 0));
        assert!(!overlapping.fits_level(level), "two pieces on one cell");
    }
}
