//! The level list the web app carries: compiled from core's shipped list by `build.rs` (sizes,
//! pieces, the rotatable piece, and a key of each level's code: no solutions, no codes), grouped by
//! size as the level select shows it.

use std::sync::OnceLock;

use tabula_core::triplex::{catalog, code_key, normalize_code, Board, Level};

/// One shipped level, as compiled into the app.
pub struct CompactLevel {
    pub w: u8,
    pub h: u8,
    pub pieces: &'static [u8],
    pub rotatable: Option<u8>,
    /// `code_key` of the code this level's solution gives.
    pub code_key: u32,
}

include!(concat!(env!("OUT_DIR"), "/triplex_levels.rs"));

impl CompactLevel {
    pub fn board(&self) -> Board {
        Board { w: self.w as usize, h: self.h as usize }
    }

    /// The engine's level, for checking a placement (`Level::check_solution` reads only the size,
    /// the pieces and the rotatable one).
    pub fn level(&self) -> Level {
        Level {
            w: self.w as usize,
            h: self.h as usize,
            pieces: self.pieces.to_vec(),
            solution: Vec::new(),
            rotatable: self.rotatable.map(usize::from),
            difficulty: 0,
            code: String::new(),
        }
    }
}

/// Level `number` (from 1).
pub fn get(number: usize) -> Option<&'static CompactLevel> {
    number.checked_sub(1).and_then(|index| LEVELS.get(index))
}

/// The sizes, smallest first, each with its levels in the shipped order (easiest first).
pub fn groups() -> &'static [(Board, Vec<usize>)] {
    static GROUPS: OnceLock<Vec<(Board, Vec<usize>)>> = OnceLock::new();
    GROUPS.get_or_init(|| catalog::by_size(LEVELS.iter().map(CompactLevel::board)))
}

/// The level that solving `number` opens.
pub fn next_of(number: usize) -> Option<usize> {
    catalog::next_of(groups(), number)
}

/// The level whose solve opens `number`.
pub fn previous_of(number: usize) -> Option<usize> {
    catalog::previous_of(groups(), number)
}

pub fn opens_its_size(number: usize) -> bool {
    catalog::opens_its_size(groups(), number)
}

/// The level whose solution gives the typed code (case, spaces and dashes ignored).
pub fn solved_by_code(typed: &str) -> Option<usize> {
    let key = code_key(&normalize_code(typed));
    LEVELS.iter().position(|level| level.code_key == key).map(|index| index + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_app_carries_every_shipped_level_and_finds_each_by_its_code() {
        assert_eq!(LEVELS.len(), catalog::shipped().len());
        for (index, shipped) in catalog::shipped().iter().enumerate() {
            let compact = get(index + 1).unwrap();
            assert_eq!(compact.level().check_solution(&shipped.solution), Ok(()));
            assert_eq!(solved_by_code(&shipped.code.to_lowercase()), Some(index + 1));
        }
        assert_eq!(solved_by_code("0000-0000"), None);
        for number in 1..=LEVELS.len() {
            assert_eq!(previous_of(number).and_then(next_of), previous_of(number).map(|_| number));
            assert_eq!(previous_of(number).is_none(), opens_its_size(number), "level {number}");
        }
        assert_eq!(groups().iter().map(|(_, n)| n.len()).sum::<usize>(), LEVELS.len());
    }
}
