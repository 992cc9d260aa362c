//! The POPUCOM board and what surrounds it: 81 cell buttons (accessible labels, arrow-key focus,
//! Enter to play), the status line, scores, and the result banner.

use fluent_bundle::FluentValue;
use leptos::prelude::*;
use tabula_core::popucom::{Cell, Popucom};
use tabula_core::{Game, Seat};

use crate::i18n::{use_i18n, I18n};
use crate::logic::{self, cell_views, colour_id, CellView, Changes};

fn cell_label(i18n: I18n, view: &CellView) -> String {
    let name = |seat: Seat| i18n.t(colour_id(seat));
    let mut content = match (view.stone, view.territory) {
        (None, None) => i18n.t("cell-empty"),
        (Some(stone), None) => i18n.t_with("cell-stone", &[("player", name(stone).into())]),
        (None, Some(owner)) => i18n.t_with("cell-territory", &[("player", name(owner).into())]),
        (Some(stone), Some(owner)) => {
            i18n.t_with("cell-stone-on-territory", &[("player", name(stone).into()), ("owner", name(owner).into())])
        }
    };
    if view.playable {
        content = format!("{content}, {}", i18n.t("cell-playable"));
    }
    if view.last {
        content = format!("{content}, {}", i18n.t("last-move"));
    }
    let (row, col) = (FluentValue::from(view.cell.row + 1), FluentValue::from(view.cell.col + 1));
    i18n.t_with("cell-label", &[("row", row), ("col", col), ("content", content.into())])
}

fn focus_cell(index: usize) {
    let element =
        web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(&format!("cell-{index}")));
    if let Some(element) = element {
        use wasm_bindgen::JsCast;
        if let Ok(element) = element.dyn_into::<web_sys::HtmlElement>() {
            let _ = element.focus();
        }
    }
}

/// The board. Taps go to `on_tap`, which decides (and explains) whether they are moves; `show_legal`
/// highlights the playable cells (off for spectators and replays).
#[component]
pub fn Board(
    #[prop(into)] game: Signal<Popucom>,
    #[prop(into)] last_move: Signal<Option<Cell>>,
    #[prop(into)] changes: Signal<Changes>,
    #[prop(into)] show_legal: Signal<bool>,
    on_tap: Callback<Cell>,
) -> impl IntoView {
    let i18n = use_i18n();
    let focus = RwSignal::new(40usize);
    let views = Memo::new(move |_| cell_views(&game.get(), last_move.get()));
    // The 81 buttons are made once and only their attributes follow the game, so keyboard focus
    // stays on its cell while moves arrive.
    let cells = (0..81usize)
        .map(|index| {
            let view_at = move || views.with(|views| views[index]);
            let class = move || {
                let view = view_at();
                let changed = changes.get();
                format!(
                    "cell{}{}{}{}{}",
                    view.stone.map_or("", |s| if s == Seat::One { " stone-1" } else { " stone-2" }),
                    view.territory.map_or("", |s| if s == Seat::One { " land-1" } else { " land-2" }),
                    if view.playable && show_legal.get() { " playable" } else { "" },
                    if view.last { " last" } else { "" },
                    if changed.popped.contains(view.cell) {
                        " popped"
                    } else if changed.painted.contains(view.cell) {
                        " painted"
                    } else {
                        ""
                    },
                )
            };
            let cell = Cell::new((index / 9) as u8, (index % 9) as u8);
            view! {
                <button
                    id=format!("cell-{index}")
                    class=class
                    aria-label=move || cell_label(i18n, &view_at())
                    tabindex=move || if focus.get() == index { "0" } else { "-1" }
                    on:click=move |_| {
                        focus.set(index);
                        on_tap.run(cell);
                    }
                    on:keydown=move |event: web_sys::KeyboardEvent| {
                        let next = logic::move_focus(index, &event.key());
                        if next != index {
                            event.prevent_default();
                            focus.set(next);
                            focus_cell(next);
                        }
                    }
                ></button>
            }
        })
        .collect_view();
    view! { <div class="board" role="grid">{cells}</div> }
}

/// Scores, moves left and whose turn, or the result banner. `result` overrides the engine's result
/// (an online resignation); `names` are shown next to the colours when known.
#[component]
pub fn Status(
    #[prop(into)] game: Signal<Popucom>,
    #[prop(into)] result: Signal<Option<(u8, String)>>,
    #[prop(into, optional)] names: Signal<[Option<String>; 2]>,
) -> impl IntoView {
    let i18n = use_i18n();
    let colour = move |seat: Seat| {
        let name = names.get()[seat.index()].clone();
        match name {
            Some(name) => format!("{} ({name})", i18n.t(colour_id(seat))),
            None => i18n.t(colour_id(seat)),
        }
    };
    let score = move |seat: Seat| {
        i18n.t_with("score", &[("player", colour(seat).into()), ("score", game.get().score(seat).into())])
    };
    let line = move || match result.get() {
        Some((winner, reason)) => {
            let headline = match Seat::from_number(winner) {
                Some(seat) => i18n.t_with("result-win", &[("player", colour(seat).into())]),
                None => i18n.t("result-draw"),
            };
            format!("{headline} · {}", i18n.t(&format!("reason-{reason}")))
        }
        None => {
            let game = game.get();
            let turn = game.status().to_move().map(|seat| i18n.t_with("to-move", &[("player", colour(seat).into())]));
            let left = i18n.t_with("moves-left", &[("count", logic::moves_left(&game).into())]);
            format!("{} · {left}", turn.unwrap_or_default())
        }
    };
    view! {
        <div class="status">
            <div class="scores">
                <span class="score score-1">{move || score(Seat::One)}</span>
                <span class="score score-2">{move || score(Seat::Two)}</span>
            </div>
            <p class="turn" class:result=move || result.get().is_some() role="status" aria-live="polite">{line}</p>
        </div>
    }
}

/// The move list with a slider: step through any game, finished or in progress. `step` is `None`
/// while following the live game.
#[component]
pub fn Replay(#[prop(into)] moves: Signal<Vec<Cell>>, step: RwSignal<Option<usize>>) -> impl IntoView {
    let i18n = use_i18n();
    let total = Signal::derive(move || moves.with(Vec::len));
    let shown = move || step.get().unwrap_or(total.get()).min(total.get());
    let list = move || {
        moves
            .get()
            .into_iter()
            .enumerate()
            .map(|(n, cell)| {
                // Colours alternate from red; the list shows the row and column players see.
                let class = if n % 2 == 0 { "move move-1" } else { "move move-2" };
                view! {
                    <li>
                        <button class=class class:current=move || shown() == n + 1
                            on:click=move |_| step.set(if n + 1 >= total.get_untracked() { None } else { Some(n + 1) })>
                            {format!("{}. {}-{}", n + 1, cell.row + 1, cell.col + 1)}
                        </button>
                    </li>
                }
            })
            .collect_view()
    };
    view! {
        <h3 class="moves-title">{move || i18n.t("moves-title")}</h3>
        <ol class="moves">{list}</ol>
        <div class="replay">
            <input
                type="range"
                min="0"
                max=move || total.get().to_string()
                prop:value=move || shown().to_string()
                aria-label=move || i18n.t("moves-title")
                on:input=move |event| {
                    let value: usize = event_target_value(&event).parse().unwrap_or(0);
                    step.set(if value >= total.get() { None } else { Some(value) });
                }
            />
            <span class="replay-step">
                {move || i18n.t_with("replay-step", &[("step", shown().into()), ("total", total.get().into())])}
            </span>
            <button class="small" on:click=move |_| step.set(None) disabled=move || step.get().is_none()>
                {move || i18n.t("replay-live")}
            </button>
        </div>
    }
}
