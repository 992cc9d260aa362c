//! One module per screen.

pub mod home;
pub mod local;
pub mod online;

use leptos::prelude::*;
use tabula_core::popucom::{Cell, Popucom};
use tabula_core::Game;

use crate::logic::{changes, Changes};

/// The position after the first `count` of `moves` (moves come from our own history or the server,
/// which only stores legal ones; anything else shows the start position).
pub fn position(moves: &[Cell], count: usize) -> Popucom {
    Popucom::replay(Default::default(), &moves[..count.min(moves.len())]).unwrap_or_default()
}

/// The engine's result as `(winner number, reason)`, the shape the server sends.
pub fn engine_result(game: &Popucom) -> Option<(u8, String)> {
    game.status().outcome().map(|o| (o.winner.map_or(0, |w| w.number()), o.reason.to_owned()))
}

/// What the board shows of a move list: the position after `step` moves (all of them while `step`
/// is `None`), what the last shown move changed, and that move.
pub struct Shown {
    pub game: Memo<Popucom>,
    pub changes: Memo<Changes>,
    pub last_move: Signal<Option<Cell>>,
}

pub fn shown(moves: impl Fn() -> Vec<Cell> + Copy + Send + Sync + 'static, step: RwSignal<Option<usize>>) -> Shown {
    let count = Memo::new(move |_| step.get().unwrap_or(usize::MAX).min(moves().len()));
    let game = Memo::new(move |_| position(&moves(), count.get()));
    let changed = Memo::new(move |_| match count.get() {
        0 => Changes::default(),
        n => changes(&position(&moves(), n - 1), &game.get()),
    });
    let last_move = Signal::derive(move || moves()[..count.get()].last().copied());
    Shown { game, changes: changed, last_move }
}
