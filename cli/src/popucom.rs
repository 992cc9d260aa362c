//! POPUCOM's part of the command line: its `tabula bench` playout.

use rand::rngs::SmallRng;
use tabula_core::popucom::Popucom;
use tabula_core::Game;

use crate::bench::Tally;

/// Uniform random legal placements from the start to the end.
pub fn bench_playout(rng: &mut SmallRng, tally: &mut Tally) {
    let mut game = Popucom::default();
    while let Some(cell) = game.random_move(rng) {
        game.play_unchecked(&cell);
    }
    tally.record(game.status());
}
