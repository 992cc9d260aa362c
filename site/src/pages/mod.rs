//! One module per screen.

pub mod home;
pub mod local;
pub mod online;

use tabula_core::popucom::{Cell, Popucom};
use tabula_core::Game;

/// The position after the first `count` of `moves` (moves come from our own history or the server,
/// which only stores legal ones; anything else shows the start position).
pub fn position(moves: &[Cell], count: usize) -> Popucom {
    Popucom::replay(Default::default(), &moves[..count.min(moves.len())]).unwrap_or_default()
}

/// The engine's result as `(winner number, reason)`, the shape the server sends.
pub fn engine_result(game: &Popucom) -> Option<(u8, String)> {
    game.status().outcome().map(|o| (o.winner.map_or(0, |w| w.number()), o.reason.to_owned()))
}
