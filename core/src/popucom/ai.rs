//! POPUCOM for the search: a cell is the same move wherever it is played. Playouts run to the 50th
//! move: for the levels, each side's last move makes the line that gains it most; before that one
//! move in ten makes a line when the side to move can, one in five takes a cell where the opponent
//! would make one, and the rest are uniform (among those at random). The plain-UCT yardstick's are
//! all uniform.

use rand::RngCore;

use crate::ai::{reward, AiRng, Searchable};
use crate::game::Game;
use crate::popucom::{Cell, Popucom, CELL_COUNT, MOVE_LIMIT};

/// The chance (out of 2^32) that a level's playout move makes a line when it can. Measured
/// (docs/AI.md): every chance from 0.05 to 0.25 beat uniform playouts by a wide margin (a tenth
/// scored best, within the noise of the others); always making a line was far worse than uniform
/// (greedy lines remove the mover's own stones and misjudge positions).
const LINE_CHANCE: u32 = u32::MAX / 10;

/// The chance (out of 2^32) that a playout move takes a cell where the opponent would complete a
/// line, when there is one (docs/AI.md: with it Red, the weak seat, won far more often).
const BLOCK_CHANCE: u32 = u32::MAX / 5;

/// From this many moves before the end, a playout move is the line that gains its side most: no
/// reply of the opponent's can undo the last move, and only one can answer the one before it.
const GREEDY_MOVES: u8 = 2;

impl Searchable for Popucom {
    const TOP_PLAYOUTS: u32 = 220_000;
    /// Measured head to head (docs/AI.md): stronger than trying every cell once first, for about
    /// a tenth more memory, where every edge from the second visit took nearly three times as much.
    const ALL_EDGES_AT_VISITS: Option<u32> = Some(8);

    fn key_space(&self) -> usize {
        CELL_COUNT
    }

    fn move_key(&self, cell: &Cell) -> Option<usize> {
        cell.is_on_board().then(|| cell.index())
    }

    fn playout(&self, rng: &mut AiRng, uniform: bool, played: &mut dyn FnMut(crate::Seat, usize)) -> f32 {
        let mut game = self.clone();
        while let Some(cell) = if uniform { game.random_move(rng) } else { policy_move(&game, rng) } {
            played(game.turn(), cell.index());
            game.play_unchecked(&cell);
        }
        reward(&game.status()).expect("a playout ends the game")
    }
}

/// The levels' playout move: the best line near the end; before it sometimes a line or a block
/// if there is one, else a uniform random move.
fn policy_move(game: &Popucom, rng: &mut AiRng) -> Option<Cell> {
    if game.moves_played() + GREEDY_MOVES >= MOVE_LIMIT {
        if let Some(cell) = best_line(game) {
            return Some(cell);
        }
    }
    let roll = rng.next_u32();
    if roll < LINE_CHANCE {
        let lines = game.line_making_cells();
        if !lines.is_empty() {
            return lines.random(rng);
        }
    } else if roll - LINE_CHANCE < BLOCK_CHANCE {
        let blocks = game.opponent_line_cells();
        if !blocks.is_empty() {
            return blocks.random(rng);
        }
    }
    game.random_move(rng)
}

/// The line-making cell after which the side to move leads by most, if any gains on not making one.
fn best_line(game: &Popucom) -> Option<Cell> {
    let mover = game.turn();
    let lead = |position: &Popucom| position.score(mover) as i32 - position.score(mover.other()) as i32;
    let mut best = None;
    let mut best_lead = lead(game);
    for cell in game.line_making_cells().iter() {
        let mut after = game.clone();
        after.play_unchecked(&cell);
        let after_lead = lead(&after);
        if after_lead > best_lead {
            (best, best_lead) = (Some(cell), after_lead);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::popucom::{Cells, PopucomConfig};

    fn position(red: &[(u8, u8)], blue: &[(u8, u8)], moves_played: u8) -> Popucom {
        let stones = [Cells::of(red), Cells::of(blue)];
        Popucom { stones, territory: [Cells::EMPTY; 2], moves_played, config: PopucomConfig::default() }
    }

    /// Red's pair on row 0 paints the whole row; its pair on row 4 only up to Blue's stone.
    fn two_lines(moves_played: u8) -> Popucom {
        position(&[(0, 0), (0, 1), (4, 0), (4, 1)], &[(4, 3), (8, 8)], moves_played)
    }

    #[test]
    fn a_sides_last_move_in_a_playout_makes_the_line_that_gains_most() {
        let game = two_lines(MOVE_LIMIT - 2);
        assert_eq!(game.line_making_cells().len(), 2);
        for seed in 0..200 {
            let mut rng = AiRng::seed_from_u64(seed);
            assert_eq!(policy_move(&game, &mut rng), Some(Cell::new(0, 2)), "seed {seed}");
        }
    }

    #[test]
    fn earlier_playout_moves_stay_mostly_random() {
        let game = two_lines(10);
        let best =
            (0..200).filter(|&seed| policy_move(&game, &mut AiRng::seed_from_u64(seed)) == Some(Cell::new(0, 2)));
        assert!(best.count() < 40, "the best line is not forced before the last moves");
    }

    #[test]
    fn playouts_often_take_the_cell_that_would_give_the_opponent_a_line() {
        // Blue would make a line at (2, 2) or (2, 5); Red has none to make. Uniform moves would take
        // one of the two 2 times in 75.
        let game = position(&[(7, 7)], &[(2, 3), (2, 4), (6, 0), (8, 8)], 10);
        assert_eq!(game.opponent_line_cells(), Cells::of(&[(2, 2), (2, 5)]));
        let draws = 2_000;
        let blocks = (0..draws)
            .filter(|&seed| {
                let cell = policy_move(&game, &mut AiRng::seed_from_u64(seed)).unwrap();
                game.opponent_line_cells().contains(cell)
            })
            .count();
        assert!(blocks > draws as usize / 8, "{blocks} of {draws} playout moves block");
    }
}
