//! POPUCOM for the search: a cell is the same move wherever it is played. Playouts run to the 50th
//! move: uniform random for the plain-UCT yardstick; for the levels, a line whenever the side to
//! move can make one (among those at random), else a uniform random move.

use rand::RngCore;

use super::{reward, AiRng, Searchable};
use crate::game::Game;
use crate::popucom::{Cell, Popucom, CELL_COUNT};

impl Searchable for Popucom {
    fn key_space(&self) -> usize {
        CELL_COUNT
    }

    fn move_key(&self, cell: &Cell) -> Option<usize> {
        cell.is_on_board().then(|| cell.index())
    }

    fn playout(&self, rng: &mut AiRng, played: &mut dyn FnMut(crate::Seat, usize)) -> f32 {
        let mut game = self.clone();
        while let Some(cell) = game.random_move(rng) {
            played(game.turn(), cell.index());
            game.play_unchecked(&cell);
        }
        reward(&game.status()).expect("a playout ends the game")
    }

    fn guided_playout(&self, rng: &mut AiRng, played: &mut dyn FnMut(crate::Seat, usize)) -> f32 {
        let mut game = self.clone();
        loop {
            let lines = game.line_making_cells();
            let cell = if lines.is_empty() {
                match game.random_move(rng) {
                    Some(cell) => cell,
                    None => break,
                }
            } else {
                let pick = ((rng.next_u32() as u64 * lines.len() as u64) >> 32) as u32;
                lines.nth(pick).expect("a pick below the count")
            };
            played(game.turn(), cell.index());
            game.play_unchecked(&cell);
        }
        reward(&game.status()).expect("a playout ends the game")
    }
}
