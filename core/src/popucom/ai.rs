//! POPUCOM for the search: a cell is the same move wherever it is played. Playouts run to the 50th
//! move: for the levels, each side's last move makes the line that gains it most; before that one
//! move in ten makes a line when the side to move can, one in five takes a cell where the opponent
//! would make one, and the rest are uniform (among those at random). The plain-UCT yardstick's are
//! all uniform. The tree starts lines that gain territory and blocks of the opponent's lines as
//! good (made-up won playouts in the shared statistics, as Go's priors).

use rand::RngCore;

use crate::ai::{reward, AiRng, Prior, Searchable};
use crate::game::Game;
use crate::popucom::{Cell, Cells, Popucom, CELL_COUNT, MOVE_LIMIT};

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

/// Made-up playouts every cell starts with in the tree's shared statistics, half of them won.
const PRIOR_EVEN: u32 = 10;
/// Made-up won playouts for a good sign: a line that gains its side territory, or a block.
const PRIOR_SIGN: u32 = 10;

impl Searchable for Popucom {
    const TOP_PLAYOUTS: u32 = 220_000;

    fn key_space(&self) -> usize {
        CELL_COUNT
    }

    fn move_key(&self, cell: &Cell) -> Option<usize> {
        cell.is_on_board().then(|| cell.index())
    }

    /// Lines that gain and blocks start as good; every other cell even.
    fn priors(&self, moves: &[Cell]) -> Option<Vec<Prior>> {
        let gaining = gaining_lines(self);
        let blocks = self.opponent_line_cells();
        let prior = |cell: &Cell| {
            let good = gaining.contains(*cell) as u32 + blocks.contains(*cell) as u32;
            Prior { visits: PRIOR_EVEN + PRIOR_SIGN * good, wins: (PRIOR_EVEN / 2 + PRIOR_SIGN * good) as f32 }
        };
        Some(moves.iter().map(prior).collect())
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

/// The line-making cell after which the side to move leads by most (the first such), if any gains on
/// not making one.
fn best_line(game: &Popucom) -> Option<Cell> {
    let now = lead(game, game.turn());
    line_leads(game)
        .filter(|&(_, after)| after > now)
        .min_by_key(|&(_, after)| std::cmp::Reverse(after))
        .map(|(cell, _)| cell)
}

/// The line-making cells after which the side to move leads by more than now.
fn gaining_lines(game: &Popucom) -> Cells {
    let now = lead(game, game.turn());
    line_leads(game)
        .filter(|&(_, after)| after > now)
        .fold(Cells::EMPTY, |cells, (cell, _)| cells.union(Cells::single(cell.index())))
}

/// Each line-making cell with the side to move's lead after it.
fn line_leads(game: &Popucom) -> impl Iterator<Item = (Cell, i32)> + '_ {
    let mover = game.turn();
    game.line_making_cells().iter().map(move |cell| {
        let mut after = game.clone();
        after.play_unchecked(&cell);
        (cell, lead(&after, mover))
    })
}

/// `seat`'s score minus its opponent's.
fn lead(game: &Popucom, seat: crate::Seat) -> i32 {
    game.score(seat) as i32 - game.score(seat.other()) as i32
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

    #[test]
    fn the_tree_starts_lines_that_gain_and_blocks_as_good_and_other_cells_even() {
        let mean = |game: &Popucom, cell: (u8, u8)| {
            let prior = game.priors(&[Cell::new(cell.0, cell.1)]).unwrap()[0];
            prior.wins / prior.visits as f32
        };
        let lines = two_lines(10);
        assert!(mean(&lines, (0, 2)) > 0.5 && mean(&lines, (4, 2)) > 0.5);
        assert_eq!(mean(&lines, (6, 6)), 0.5);
        // Blue's pair on row 2 can be completed at (2, 2) or (2, 5): Red blocks there.
        let blocks = position(&[(7, 7)], &[(2, 3), (2, 4), (6, 0), (8, 8)], 10);
        assert!(mean(&blocks, (2, 2)) > 0.5 && mean(&blocks, (2, 5)) > 0.5);
        assert_eq!(mean(&blocks, (5, 5)), 0.5);
    }
}
