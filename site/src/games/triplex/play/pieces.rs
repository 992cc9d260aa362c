//! How a Triplex level looks: the rectangle's cells (with the ghost of a piece about to land) and
//! each piece as its cells in a grid of its own size, on the board or in the tray.

use leptos::prelude::*;
use tabula_core::triplex::{Level, SHAPES};

use super::super::placement::Placement;
use super::state::LevelState;
use crate::i18n::I18n;

/// The rectangle's cells, with the ghost of where the picked or dragged piece would land. A tap on
/// a cell puts the picked piece there (its first cell on the tapped one).
pub(super) fn grid(state: LevelState) -> impl IntoView {
    let i18n = state.i18n;
    let (w, h) = state.level.with_value(|l| (l.w, l.h));
    let tap_cell = move |row: usize, col: usize| {
        let Some(piece) = state.selected.get_untracked() else { return };
        let shape = state.level.with_value(|l| state.placement.get_untracked().shape(l, piece));
        let (r0, c0) = SHAPES[shape as usize][0];
        state.place(piece, (row as i32 - r0 as i32, col as i32 - c0 as i32));
    };
    move || {
        let current = state.placement.get();
        let cells = state.level.with_value(|l| current.grid(l));
        let shown = state.preview.get();
        let ghost: Vec<(usize, usize)> = shown
            .and_then(|(piece, corner)| state.level.with_value(|l| current.cells(l, piece, corner)))
            .unwrap_or_default();
        let fits = shown.is_some_and(|(piece, corner)| state.level.with_value(|l| current.fits(l, piece, corner)));
        (0..h)
            .map(|r| {
                let row = (0..w)
                    .map(|c| {
                        let piece = cells[r][c];
                        let label = match piece {
                            Some(p) => i18n.t_with(
                                "triplex-cell-piece",
                                &[
                                    ("row", (r + 1).into()),
                                    ("col", (c + 1).into()),
                                    ("number", (p as usize + 1).into()),
                                ],
                            ),
                            None => {
                                i18n.t_with("triplex-cell-empty", &[("row", (r + 1).into()), ("col", (c + 1).into())])
                            }
                        };
                        let mut class = String::from("tx-cell");
                        if ghost.contains(&(r, c)) {
                            class.push_str(if fits { " ghost fits" } else { " ghost" });
                        }
                        view! {
                            <div role="gridcell" class=class id=format!("tx-cell-{r}-{c}") aria-label=label
                                on:click=move |_| tap_cell(r, c)></div>
                        }
                    })
                    .collect_view();
                view! { <div role="row" class="tx-row">{row}</div> }
            })
            .collect_view()
    }
}

/// The pieces on the board (`on_board`) or in the tray.
pub(super) fn pieces(
    state: LevelState,
    on_board: bool,
    on_key: impl Fn(web_sys::KeyboardEvent) + Copy + 'static,
) -> impl IntoView {
    let (i18n, selected) = (state.i18n, state.selected);
    let current = state.placement.get();
    (0..current.at.len())
        .filter(|&p| current.at[p].is_some() == on_board)
        .map(|p| state.level.with_value(|l| piece_view(i18n, l, &current, p, selected, on_key)))
        .collect_view()
}

fn shape_name(i18n: I18n, shape: u8) -> String {
    i18n.t(match shape {
        0 | 1 => "triplex-piece-domino",
        2 | 3 => "triplex-piece-line",
        _ => "triplex-piece-corner",
    })
}

/// A piece drawn as its cells in a grid of its own size; its element is the drag handle.
fn piece_view(
    i18n: I18n,
    level: &Level,
    placement: &Placement,
    piece: usize,
    selected: RwSignal<Option<usize>>,
    on_key: impl Fn(web_sys::KeyboardEvent) + Clone + 'static,
) -> AnyView {
    let shape = placement.shape(level, piece);
    let cells = SHAPES[shape as usize];
    let (height, width) = cells.iter().fold((0, 0), |(h, w), &(r, c)| (h.max(r + 1), w.max(c + 1)));
    let rotatable = level.rotatable == Some(piece);
    let position = match placement.at[piece] {
        Some((r, c)) => format!("--r:{r};--c:{c};--pw:{width};--ph:{height}"),
        None => format!("--pw:{width};--ph:{height}"),
    };
    let place = match placement.at[piece] {
        Some((r, c)) => i18n.t_with("triplex-piece-at", &[("row", (r + 1).into()), ("col", (c + 1).into())]),
        None => i18n.t("triplex-piece-in-tray"),
    };
    let mut label = i18n.t_with(
        "triplex-piece",
        &[("number", (piece + 1).into()), ("shape", shape_name(i18n, shape).into()), ("place", place.into())],
    );
    if rotatable {
        label = format!("{label} {}", i18n.t("triplex-piece-turns"));
    }
    let class = format!(
        "tx-piece family-{}{}{}",
        shape / 2 % 3,
        if rotatable { " rotatable" } else { "" },
        if placement.at[piece].is_some() { " placed" } else { "" },
    );
    // Only the selection follows a signal here: picking a piece must not redraw the pieces (the
    // keyboard's focus would go with the old button).
    let chosen = move || selected.get() == Some(piece);
    let squares = cells
        .iter()
        .map(|&(r, c)| {
            let style = format!("grid-row:{};grid-column:{}", r + 1, c + 1);
            view! { <span class="tx-sq" style=style data-dr=r data-dc=c></span> }
        })
        .collect_view();
    let mark = rotatable.then(|| {
        let (r, c) = cells[0];
        view! { <span class="tx-mark" style=format!("grid-row:{};grid-column:{}", r + 1, c + 1)></span> }
    });
    view! {
        <button class=class class:selected=chosen id=format!("piece-{piece}") data-piece=piece style=position
            aria-label=label aria-pressed=move || if chosen() { "true" } else { "false" } on:keydown=on_key>
            {squares}{mark}
        </button>
    }
    .into_any()
}
