//! Edges & Blocks' part of the command line: its `tabula bench` playout.

use rand::rngs::SmallRng;
use tabula_core::edges::{Edges, EdgesConfig};
use tabula_core::Game;

use crate::bench::{legal_playout, Tally};

/// Edges & Blocks games need not end: like the reference vectors, a playout stops after 200 actions.
pub fn bench_playout(rng: &mut SmallRng, tally: &mut Tally) {
    legal_playout(Edges::new(EdgesConfig::default()).expect("the default config is valid"), 200, rng, tally);
}
