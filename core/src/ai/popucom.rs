//! POPUCOM for the search: a cell is the same move wherever it is played, and playouts are the
//! engine's uniform random bitboard moves to the 50th (for the levels and the yardstick alike).

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

    fn playout(&self, rng: &mut AiRng, _uniform: bool, played: &mut dyn FnMut(crate::Seat, usize)) -> f32 {
        let mut game = self.clone();
        while let Some(cell) = game.random_move(rng) {
            played(game.turn(), cell.index());
            game.play_unchecked(&cell);
        }
        reward(&game.status()).expect("a playout ends the game")
    }
}
