//! Edges & Blocks for the search: placing on an edge and moving onto it are two moves of their own
//! (both keyed by the edge), and playouts are uniform random actions, cut short and judged by cells.

use rand::Rng;

use super::{reward, AiRng, Searchable};
use crate::edges::{Edges, EdgesMove};
use crate::game::{Game, Seat};

/// Actions in a playout before the position is judged: games need not end (edges can move forever).
const PLAYOUT_ACTIONS: usize = 60;

impl Searchable for Edges {
    fn key_space(&self) -> usize {
        2 * self.torus().edge_count()
    }

    fn move_key(&self, mv: &EdgesMove) -> Option<usize> {
        match *mv {
            EdgesMove::Place { edge, .. } => Some(edge),
            EdgesMove::Move { to, .. } => Some(self.torus().edge_count() + to),
            EdgesMove::Pass { .. } => None,
        }
    }

    fn playout(&self, rng: &mut AiRng, played: &mut dyn FnMut(Seat, usize)) -> f32 {
        let mut game = self.clone();
        for _ in 0..PLAYOUT_ACTIONS {
            let Some(seat) = game.status().to_move() else { break };
            let legal = game.legal_moves();
            let mv = &legal[rng.random_range(0..legal.len())];
            if let Some(key) = game.move_key(mv) {
                played(seat, key);
            }
            game.play_unchecked(mv);
        }
        reward(&game.status()).unwrap_or_else(|| {
            let (one, two) = (game.cells_of(Seat::One), game.cells_of(Seat::Two));
            match one.cmp(&two) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Less => 0.0,
                std::cmp::Ordering::Equal => 0.5,
            }
        })
    }
}
