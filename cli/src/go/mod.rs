//! Go's part of the command line: the GTP engine (`tabula gtp`, `gtp.rs`) and its `tabula bench`
//! playout.

pub mod gtp;

use rand::rngs::SmallRng;
use tabula_core::go::{Go, GoConfig};
use tabula_core::Game;

use crate::bench::Tally;

/// Light Go playouts on an empty 9x9: random legal points that fill no own eye, simple ko, to two
/// passes; scored by area (Tromp-Taylor) with the default komi.
pub fn bench_playout(rng: &mut SmallRng, tally: &mut Tally) {
    let game = Go::new(GoConfig::default()).expect("the default config is valid");
    let (board, moves) = game.playout(rng);
    tally.moves += moves as u64;
    tally.playouts += 1;
    let score = tabula_core::go::tromp_taylor(&board, game.config().komi);
    tally.wins[if score.black > score.white { 0 } else { 1 }] += 1;
}
