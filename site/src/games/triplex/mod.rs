//! Triplex, the one-player puzzle: the level select at `/triplex` (levels by size, locked, open or
//! solved; codes; progress export and import) and each level's play at `/triplex/<n>`
//! (`play.rs`). A bundle each (`triplex-page`, `triplex`: the select does not carry the play, nor
//! the play the select); no rooms, and both play offline once visited (the service worker `xtask`
//! writes). Solves made offline wait in the browser until the records take them.

pub mod levels;
mod placement;
#[cfg(feature = "triplex-play")]
mod play;
pub mod progress;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use leptos::prelude::*;
use leptos::task::spawn_local;

#[cfg(feature = "triplex-play")]
pub use play::TriplexLevel;
use progress::{LevelState, Progress};

use crate::api::{self, ApiError};
use crate::catalogue::Slug;
use crate::i18n::{tr, use_i18n};
use crate::route::{use_router, Route};
use crate::{browser, storage};

/// The board's and pieces' stylesheet, inlined into the Triplex pages.
pub const CSS: &str = include_str!(concat!(env!("OUT_DIR"), "/triplex.css"));

/// `m:ss` (or `h:mm:ss`) from milliseconds, in whole numbers (the bundles format no floats).
pub fn clock(ms: u64) -> String {
    let seconds = ms / 1000;
    match seconds / 3600 {
        0 => format!("{}:{:02}", seconds / 60, seconds % 60),
        hours => format!("{hours}:{:02}:{:02}", seconds / 60 % 60, seconds % 60),
    }
}

/// Draws `level` with its first `placed` pieces of the solution in place (the home's picture).
#[cfg(not(target_arch = "wasm32"))]
pub fn draw(pen: &impl crate::play::Pen, level: &tabula_core::triplex::Level, placed: usize) {
    // The families' colours, as `board.css` has them (`.tx-piece.family-<n>`).
    const FAMILY_COLOURS: [&str; 3] = ["#3da9fc", "#ff8fa3", "#7bd88f"];
    let cell = pen.size() / level.w.max(level.h) as f64;
    let (left, top) = ((pen.size() - cell * level.w as f64) / 2.0, (pen.size() - cell * level.h as f64) / 2.0);
    pen.rect(left, top, cell * level.w as f64, cell * level.h as f64, "#0c0f1a");
    for (row, pieces) in level.solution.iter().enumerate() {
        for (column, &piece) in pieces.iter().enumerate() {
            let (x, y) = (left + column as f64 * cell, top + row as f64 * cell);
            pen.rect(x + 0.5, y + 0.5, cell - 1.0, cell - 1.0, "#2a3150");
            let colour = if usize::from(piece) < placed {
                FAMILY_COLOURS[usize::from(level.pieces[usize::from(piece)] / 2 % 3)]
            } else {
                "#0c0f1a"
            };
            pen.rect(x + 2.0, y + 2.0, cell - 4.0, cell - 4.0, colour);
        }
    }
}

/// Sends the solves that wait in the browser, oldest first; stops at the first that finds no
/// network or is told to wait (429, 408: it is tried again later). A solve the server refuses for
/// good is dropped: it would never pass.
pub async fn send_pending() {
    loop {
        let waiting = progress::pending();
        let Some(solve) = waiting.first().cloned() else { return };
        match api::triplex_solve(solve.level, &solve.name, solve.ms, &solve.solution).await {
            Err(ApiError::Network(_)) | Err(ApiError::Refused { status: 408 | 429, .. }) => return,
            Ok(_) | Err(ApiError::Refused { .. }) => {
                // Re-read: another tab may have sent or added solves meanwhile.
                let rest: Vec<_> = progress::pending().into_iter().filter(|s| *s != solve).collect();
                progress::save_pending(&rest);
            }
        }
    }
}

/// Sends waiting solves now, whenever the browser says it is back online, and every half minute
/// while this screen shows.
fn keep_sending_pending() {
    if browser::window().is_none() {
        return;
    }
    let alive = Arc::new(AtomicBool::new(true));
    let handle = window_event_listener_untyped("online", |_| spawn_local(send_pending()));
    let running = alive.clone();
    spawn_local(async move {
        while running.load(Ordering::Relaxed) {
            send_pending().await;
            gloo_timers::future::sleep(std::time::Duration::from_secs(30)).await;
        }
    });
    on_cleanup(move || {
        alive.store(false, Ordering::Relaxed);
        handle.remove();
    });
}

#[cfg(feature = "triplex-select")]
fn level_link(number: usize, state: LevelState) -> AnyView {
    let router = use_router();
    let i18n = use_i18n();
    let (class, label) = match state {
        LevelState::Locked => ("tx-level locked", i18n.t_with("triplex-level-locked", &[("level", number.into())])),
        LevelState::Open => ("tx-level open", i18n.t_with("triplex-level-open", &[("level", number.into())])),
        LevelState::Solved(ms) => (
            "tx-level solved",
            i18n.t_with("triplex-level-solved", &[("level", number.into()), ("time", clock(ms).into())]),
        ),
    };
    let time = match state {
        LevelState::Solved(ms) => Some(view! { <small>{clock(ms)}</small> }),
        _ => None,
    };
    if state == LevelState::Locked {
        return view! { <button class=class id=format!("level-{number}") aria-label=label disabled>{number}</button> }
            .into_any();
    }
    let route = Route::TriplexLevel(number);
    view! {
        <a class=class id=format!("level-{number}") href=route.path() aria-label=label on:click=move |event| {
            event.prevent_default();
            router.go(route.clone());
        }>{number}{time}</a>
    }
    .into_any()
}

/// The level select: every size, each level locked, open or solved; codes; progress in and out.
#[cfg(feature = "triplex-select")]
#[component]
pub fn TriplexPage() -> impl IntoView {
    let i18n = use_i18n();
    let router = use_router();
    let progress = RwSignal::new(Progress::load());
    keep_sending_pending();
    let name = RwSignal::new(storage::player_name());
    let code = RwSignal::new(String::new());
    let notice = RwSignal::new(None::<String>);
    let exported = RwSignal::new(None::<String>);
    let imported = RwSignal::new(String::new());
    let enter_code = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        // From storage, not the page's copy: another tab may have saved since.
        let mut next = Progress::load();
        match next.enter_code(&code.get_untracked()) {
            Some(number) => {
                next.save();
                progress.set(next);
                router.go(Route::TriplexLevel(number));
            }
            None => notice.set(Some(i18n.t("triplex-code-wrong"))),
        }
    };
    let import = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        match Progress::import(&imported.get_untracked()) {
            Some(other) => {
                let mut merged = Progress::load();
                merged.merge(other);
                merged.save();
                progress.set(merged);
                notice.set(Some(i18n.t("triplex-import-done")));
            }
            None => notice.set(Some(i18n.t("triplex-import-wrong"))),
        }
    };
    let sizes = move || {
        let progress = progress.get();
        levels::groups()
            .iter()
            .map(|(board, numbers)| {
                let solved = numbers.iter().filter(|&&n| matches!(progress.state(n), LevelState::Solved(_))).count();
                let heading = format!("{} × {}", board.w, board.h);
                let count =
                    i18n.t_with("triplex-size-count", &[("solved", solved.into()), ("total", numbers.len().into())]);
                let links = numbers.iter().map(|&n| level_link(n, progress.state(n))).collect_view();
                view! {
                    <section class="tx-size">
                        <h3>{heading}<small>{count}</small></h3>
                        <div class="tx-levels">{links}</div>
                    </section>
                }
            })
            .collect_view()
    };
    let rules = Slug::Triplex.rules_ids().iter().map(|id| view! { <li>{tr(id)}</li> }).collect_view();
    view! {
        <section class="game-page triplex">
            <h1 class="page-title">{tr("game-triplex")}</h1>
            <p class="tagline">{tr("game-triplex-about")}</p>
            <ul class="rules">{rules}</ul>
            <div class="tx-forms">
                <label class="field">
                    <span>{tr("triplex-name")}</span>
                    <input id="triplex-name" maxlength="24" autocomplete="nickname" prop:value=move || name.get()
                        on:change=move |event| {
                            let typed = event_target_value(&event);
                            storage::set_player_name(typed.trim());
                            name.set(typed);
                        } />
                </label>
                <form class="field" on:submit=enter_code>
                    <label for="triplex-code">{tr("triplex-code")}</label>
                    <span class="row">
                        <input id="triplex-code" autocomplete="off" autocapitalize="characters" spellcheck="false"
                            prop:value=move || code.get() on:input=move |event| code.set(event_target_value(&event)) />
                        <button class="button" id="triplex-code-open" type="submit">{tr("triplex-code-open")}</button>
                    </span>
                </form>
            </div>
            <p class="notice" id="triplex-notice" role="status">{move || notice.get()}</p>
            <h2>{tr("triplex-levels")}</h2>
            <div id="triplex-levels">{sizes}</div>
            <h2>{tr("triplex-progress")}</h2>
            <div class="tx-forms">
                <div class="field">
                    <button class="button" id="triplex-export" on:click=move |_| exported.set(Some(progress.get_untracked().export()))>
                        {tr("triplex-export")}
                    </button>
                    {move || exported.get().map(|text| view! {
                        <input id="triplex-exported" readonly aria-label=tr("triplex-export") prop:value=text />
                    })}
                </div>
                <form class="field" on:submit=import>
                    <label for="triplex-import">{tr("triplex-import")}</label>
                    <span class="row">
                        <input id="triplex-import" autocomplete="off" spellcheck="false"
                            prop:value=move || imported.get() on:input=move |event| imported.set(event_target_value(&event)) />
                        <button class="button" id="triplex-import-go" type="submit">{tr("triplex-import-go")}</button>
                    </span>
                </form>
            </div>
        </section>
    }
}
