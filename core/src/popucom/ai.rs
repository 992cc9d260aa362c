//! POPUCOM for the search: a cell is the same move wherever it is played. Playouts run to the 50th
//! move: for the levels, one move in ten makes a line when the side to move can (among those at
//! random), the others are uniform; the plain-UCT yardstick's are all uniform.

use rand::RngCore;

use crate::ai::{reward, AiRng, Searchable};
use crate::game::Game;
use crate::popucom::{Cell, Popucom, CELL_COUNT};

/// The chance (out of 2^32) that a level's playout move makes a line when it can. Measured
/// (docs/AI.md): every chance from 0.05 to 0.25 beat uniform playouts by a wide margin (a tenth
/// scored best, within the noise of the others); always making a line was far worse than uniform
/// (greedy lines remove the mover's own stones and misjudge positions).
const LINE_CHANCE: u32 = u32::MAX / 10;

impl Searchable for Popucom {
    const TOP_PLAYOUTS: u32 = 220_000;

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

/// The levels' playout move: sometimes a line if there is one, else a uniform random move.
fn policy_move(game: &Popucom, rng: &mut AiRng) -> Option<Cell> {
    if rng.next_u32() < LINE_CHANCE {
        let lines = game.line_making_cells();
        if !lines.is_empty() {
            return lines.random(rng);
        }
    }
    game.random_move(rng)
}
