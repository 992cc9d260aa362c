//! A local game: two players on one device, with replay.

use leptos::prelude::*;
use tabula_core::popucom::{Cell, Popucom};
use tabula_core::Game;

use super::{engine_result, shown, Shown};
use crate::board::{Board, Replay, Status};
use crate::i18n::use_i18n;
use crate::logic::refusal;
use crate::screenshot::SaveButton;

#[component]
pub fn LocalGame() -> impl IntoView {
    let i18n = use_i18n();
    let moves = RwSignal::new(Vec::<Cell>::new());
    let step = RwSignal::new(None::<usize>);
    let message = RwSignal::new(None::<&'static str>);
    let Shown { game: shown, changes: shown_changes, last_move } = shown(move || moves.get(), step);
    let on_tap = Callback::new(move |cell: Cell| {
        if step.get_untracked().is_some() {
            step.set(None);
            return;
        }
        let game: Popucom = shown.get_untracked();
        match refusal(&game, cell, game.status().to_move()) {
            Some(reason) => message.set(Some(reason)),
            None => {
                message.set(None);
                moves.update(|m| m.push(cell));
            }
        }
    });
    let result = Signal::derive(move || engine_result(&shown.get()));
    view! {
        <section class="game">
            <Status game=shown result=result />
            <Board game=shown last_move=last_move changes=shown_changes show_legal=Signal::derive(move || step.get().is_none()) on_tap=on_tap />
            <p class="message" role="alert">{move || message.get().map(|id| i18n.t(id))}</p>
            <Replay moves=moves step=step />
            <div class="actions">
                <button class="button" id="new-game" on:click=move |_| {
                    moves.set(Vec::new());
                    step.set(None);
                    message.set(None);
                }>{move || i18n.t("new-game")}</button>
                <SaveButton game=shown names=Signal::derive(|| [None, None]) />
            </div>
        </section>
    }
}
