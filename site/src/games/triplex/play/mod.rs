//! One Triplex level: the rectangle and the tray of pieces; drag and drop by mouse or touch, tap a
//! piece then a cell, or play by keyboard (select, arrows, Enter, R, Delete); the marked piece
//! turns; a timer; undo, redo, reset. A full board is checked by the engine; a solved level shows
//! its time, the code that opens the next one, and the level's records. `state.rs` holds the
//! level's state and its changes, `input.rs` the keys and the pointer, `pieces.rs` the drawing.

mod input;
mod pieces;
mod state;

use leptos::prelude::*;
use tabula_core::triplex::Level;

use super::placement::Placement;
use super::{clock, levels};
use crate::browser;
use crate::i18n::{tr, use_i18n};
use crate::route::{use_router, Route};
use state::{LevelState, Records};

/// A cell's size in whole pixels: the widest board fits a 320 px phone, no board grows past 56.
fn cell_size(level: &Level) -> i32 {
    let width = browser::window().and_then(|w| w.inner_width().ok()).and_then(|w| w.as_f64()).unwrap_or(720.0) as i32;
    ((width.min(720) - 40) / level.w as i32).clamp(22, 56)
}

#[component]
pub fn TriplexLevel(number: usize) -> impl IntoView {
    let i18n = use_i18n();
    let router = use_router();
    // The pre-rendered page every level starts from shows where the level will be, not a refusal.
    if number == 0 && browser::window().is_none() {
        return view! {
            <section class="triplex-level">
                <h1 class="page-title">{tr("game-triplex")}</h1>
                <p class="loading">{tr("loading")}</p>
            </section>
        }
        .into_any();
    }
    let Some(compact) = levels::get(number) else {
        return view! {
            <section class="game-page triplex">
                <h1 class="page-title">{tr("game-triplex")}</h1>
                <p class="notice" id="triplex-missing">{tr("triplex-no-level")}</p>
                <a class="button" href="/triplex" on:click=move |event| {
                    event.prevent_default();
                    router.go(crate::route::Route::Game(crate::catalogue::Slug::Triplex));
                }>{tr("triplex-all-levels")}</a>
            </section>
        }
        .into_any();
    };
    super::keep_sending_pending();
    let level = compact.level();
    let cell = cell_size(&level);
    let state = LevelState::new(i18n, number, level);
    let LevelState { elapsed, past, future, solved, notice, records, .. } = state;
    let (w, h) = state.level.with_value(|l| (l.w, l.h));
    let rotatable = state.level.with_value(|l| l.rotatable.is_some());
    let on_key = input::piece_key(state);
    let pointer = input::pointer(state, cell);
    input::page_keys(state);
    let solved_panel = move || {
        solved.get().map(|done| {
            let next = done.next.map(|(next, code)| {
                let route = Route::TriplexLevel(next);
                view! {
                    <p>{tr("triplex-next-code")}" "<code id="triplex-next-code">{format!("{}-{}", &code[..4], &code[4..])}</code></p>
                    <a class="button primary" id="triplex-next" href=route.path() on:click=move |event| {
                        event.prevent_default();
                        router.go(route.clone());
                    }>{tr("triplex-next")}</a>
                }
            });
            view! {
                <div class="tx-solved" id="triplex-solved" role="status">
                    <h2>{move || i18n.t_with("triplex-solved", &[("time", clock(done.ms).into())])}</h2>
                    {next}
                </div>
            }
        })
    };
    let records_line = move || match records.get() {
        Records::Loading => i18n.t("loading"),
        Records::Unavailable => i18n.t("triplex-records-offline"),
        Records::Shown(shown) => match (shown.first, shown.best_ms, shown.median_ms) {
            (Some(first), Some(best), Some(median)) => i18n.t_with(
                "triplex-records",
                &[
                    ("name", first.name.into()),
                    ("time", clock(first.ms).into()),
                    ("solvers", shown.solvers.into()),
                    ("best", clock(best).into()),
                    ("median", clock(median).into()),
                ],
            ),
            _ => i18n.t("triplex-records-none"),
        },
    };
    let all_levels = move |event: leptos::ev::MouseEvent| {
        event.prevent_default();
        router.go(Route::Game(crate::catalogue::Slug::Triplex));
    };
    view! {
        <section class="triplex-level">
            <p class="crumbs"><a href="/triplex" id="triplex-all" on:click=all_levels>{tr("triplex-all-levels")}</a></p>
            <h1 class="page-title">{move || i18n.t_with("triplex-level-title", &[("level", number.into()), ("w", w.into()), ("h", h.into())])}</h1>
            <div class="tx-bar">
                <span class="tx-clock" id="triplex-clock" role="timer" aria-live="off">{move || clock(elapsed.get())}</span>
                <button class="button" id="triplex-undo" disabled=move || past.with(Vec::is_empty) || solved.with(Option::is_some) on:click=move |_| state.undo()>{tr("triplex-undo")}</button>
                <button class="button" id="triplex-redo" disabled=move || future.with(Vec::is_empty) || solved.with(Option::is_some) on:click=move |_| state.redo()>{tr("triplex-redo")}</button>
                <button class="button" id="triplex-reset" disabled=move || solved.with(Option::is_some) on:click=move |_| state.change(state.level.with_value(Placement::start))>{tr("triplex-reset")}</button>
                {rotatable.then(|| view! {
                    <button class="button" id="triplex-rotate" aria-keyshortcuts="R" disabled=move || solved.with(Option::is_some) on:click=move |_| state.rotate()>{tr("triplex-rotate")}</button>
                })}
            </div>
            <p class="tx-help">{tr("triplex-help")}</p>
            <div class="tx-play" style=format!("--tx:{cell}px") on:pointerdown=pointer on:pointermove=pointer
                on:pointerup=pointer on:pointercancel=pointer>
                <div class="tx-field" style=format!("width:{}px;height:{}px", cell * w as i32, cell * h as i32)>
                    <div role="grid" class="tx-board" id="tx-board" aria-label=tr("triplex-board")>{pieces::grid(state)}</div>
                    <div class="tx-layer">{move || pieces::pieces(state, true, on_key)}</div>
                </div>
                <div class="tx-tray" id="tx-tray" role="group" aria-label=tr("triplex-tray")>{move || pieces::pieces(state, false, on_key)}</div>
            </div>
            <p class="notice" id="triplex-notice" role="status">{move || notice.get()}</p>
            {solved_panel}
            <p class="tx-records" id="triplex-records">{records_line}</p>
        </section>
    }
    .into_any()
}
