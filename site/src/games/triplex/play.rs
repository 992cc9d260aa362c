//! One Triplex level: the rectangle and the tray of pieces; drag and drop by mouse or touch (a drop
//! that overlaps or leaves the rectangle sends the piece to the tray), tap a piece then a cell, or
//! play by keyboard (select, arrows, Enter, R, Delete); the marked piece turns; a timer; undo, redo,
//! reset. A full board is checked by the engine; a solved level shows its time, the code that
//! opens the next one, and the level's records.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use leptos::prelude::*;
use leptos::task::spawn_local;
use tabula_core::triplex::{canonical, unlock_code, Level, SHAPES};
use wasm_bindgen::JsCast;

use super::placement::Placement;
use super::progress::{self, PendingSolve, Progress, Unfinished};
use super::{clock, levels, send_pending};
use crate::api::{self, TriplexRecords};
use crate::browser;
use crate::i18n::{tr, use_i18n, I18n};
use crate::route::{use_router, Route};
use crate::storage;

/// A solved level: the time, and the code and number of the level it opens.
#[derive(Clone, Debug, PartialEq)]
struct Solved {
    ms: u64,
    next: Option<(usize, String)>,
}

#[derive(Clone, Debug, PartialEq)]
enum Records {
    Loading,
    Unavailable,
    Shown(TriplexRecords),
}

/// A piece held by the pointer: which, where the pointer went down, the piece's cell under it,
/// whether it has moved far enough to be a drag, and where it would land now.
#[derive(Clone, Copy, Debug)]
struct Drag {
    piece: usize,
    x: i32,
    y: i32,
    grip: (i32, i32),
    moved: bool,
}

/// The board's cell under a point of the page, if the point is over the board (whole pixels).
fn cell_at(x: i32, y: i32, cell: i32, level: &Level) -> Option<(i32, i32)> {
    let board = browser::element_by_id::<web_sys::Element>("tx-board")?;
    let rect = board.get_bounding_client_rect();
    let (left, top) = (rect.left() as i32, rect.top() as i32);
    let (row, col) = ((y - top).div_euclid(cell), (x - left).div_euclid(cell));
    let inside = (0..level.h as i32).contains(&row) && (0..level.w as i32).contains(&col);
    inside.then_some((row, col))
}

/// Moves the lifted piece's element with the pointer, or puts it back (set directly: it changes at
/// every pointer move).
fn lift(piece: usize, by: Option<(i32, i32)>) {
    let Some(element) = browser::element_by_id::<web_sys::HtmlElement>(&format!("piece-{piece}")) else { return };
    let style = element.style();
    let _ = match by {
        Some((dx, dy)) => style.set_property("transform", &format!("translate({dx}px,{dy}px)")),
        None => style.remove_property("transform").map(drop),
    };
    let _ = element.class_list().toggle_with_force("lifted", by.is_some());
}

/// A cell's size in whole pixels: the widest board fits a 320 px phone, no board grows past 56.
fn cell_size(level: &Level) -> i32 {
    let width = browser::window().and_then(|w| w.inner_width().ok()).and_then(|w| w.as_f64()).unwrap_or(720.0) as i32;
    ((width.min(720) - 40) / level.w as i32).clamp(22, 56)
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
    let level = StoredValue::new(compact.level());
    let cell = cell_size(&compact.level());
    let saved = progress::unfinished(number).filter(|u| level.with_value(|l| u.placement.fits_level(l)));
    let start = level.with_value(Placement::start);
    let placement = RwSignal::new(saved.as_ref().map_or_else(|| start.clone(), |u| u.placement.clone()));
    let elapsed = RwSignal::new(saved.map_or(0, |u| u.ms));
    let past = RwSignal::new(Vec::<Placement>::new());
    let future = RwSignal::new(Vec::<Placement>::new());
    let selected = RwSignal::new(None::<usize>);
    let cursor = RwSignal::new((0i32, 0i32));
    let preview = RwSignal::new(None::<(usize, (i32, i32))>);
    let drag = StoredValue::new(None::<Drag>);
    let solved = RwSignal::new(None::<Solved>);
    let notice = RwSignal::new(None::<String>);
    let records = RwSignal::new(Records::Loading);

    let load_records = move || {
        spawn_local(async move {
            // The level may have been left meanwhile: then there is nothing to show it on.
            records.try_set(match api::triplex_records(number).await {
                Ok(shown) => Records::Shown(shown),
                Err(_) => Records::Unavailable,
            });
        })
    };
    load_records();

    // The clock runs while the level is unsolved and the page is in view; it is saved with the
    // placement, so a reload goes on where it was.
    let alive = Arc::new(AtomicBool::new(true));
    if browser::window().is_some() {
        let running = alive.clone();
        spawn_local(async move {
            let mut last = js_sys::Date::now();
            loop {
                gloo_timers::future::sleep(std::time::Duration::from_millis(250)).await;
                if !running.load(Ordering::Relaxed) {
                    break;
                }
                let now = js_sys::Date::now();
                if solved.try_get_untracked().is_some_and(|s| s.is_none()) && browser::page_visible() {
                    elapsed.try_update(|ms| *ms += (now - last).max(0.0) as u64);
                }
                last = now;
            }
        });
    }
    on_cleanup(move || alive.store(false, Ordering::Relaxed));

    let on_solved = move |solution: Vec<Vec<u8>>| {
        let ms = elapsed.get_untracked().max(1);
        let board = level.with_value(Level::board);
        let next = levels::next_of(number).map(|next| (next, unlock_code(board, &canonical(&solution))));
        let mut progress = Progress::load();
        progress.solve(number, ms);
        progress.save();
        progress::forget_unfinished(number);
        let name = storage::player_name();
        let name = if name.trim().is_empty() { i18n.t("triplex-anonymous") } else { name };
        let mut waiting = progress::pending();
        waiting.push(PendingSolve { level: number, name, ms, solution });
        progress::save_pending(&waiting);
        solved.set(Some(Solved { ms, next }));
        spawn_local(async move {
            send_pending().await;
            load_records();
        });
    };

    // Every change of the placement: remembered for undo, saved, and checked once the board is full.
    let change = move |next: Placement| {
        if solved.get_untracked().is_some() || next == placement.get_untracked() {
            return;
        }
        past.update(|p| p.push(placement.get_untracked()));
        future.update(Vec::clear);
        set_placement(next, placement, elapsed, number);
        notice.set(None);
        if let Some(solution) = level.with_value(|l| placement.with_untracked(|p| p.solution(l))) {
            match level.with_value(|l| l.check_solution(&solution)) {
                Ok(()) => on_solved(solution),
                Err(_) => notice.set(Some(i18n.t("triplex-not-solved"))),
            }
        }
    };
    // Undo and redo: the last placement of one list comes back, the current one goes on the other.
    // A solved level is done: nothing changes it any more (a new try starts from the level select).
    let step = move |from: RwSignal<Vec<Placement>>, to: RwSignal<Vec<Placement>>| {
        if solved.get_untracked().is_some() {
            return;
        }
        if let Some(back) = from.try_update(Vec::pop).flatten() {
            to.update(|list| list.push(placement.get_untracked()));
            set_placement(back, placement, elapsed, number);
        }
    };
    let undo = move || step(past, future);
    let redo = move || step(future, past);
    let rotate = move || {
        if let Some(next) = level.with_value(|l| placement.get_untracked().rotate(l)) {
            change(next);
            if let Some(piece) = level.with_value(|l| l.rotatable) {
                selected.set(Some(piece));
            }
        }
    };
    // Puts `piece` with its corner at `corner`, or says it does not fit there.
    let place = move |piece: usize, corner: (i32, i32)| match level
        .with_value(|l| placement.get_untracked().drop_at(l, piece, corner))
    {
        Some(next) => {
            selected.set(None);
            preview.set(None);
            change(next);
        }
        None => notice.set(Some(i18n.t("triplex-does-not-fit"))),
    };
    // Selecting a piece for the keyboard (or a tap on a cell): the cursor starts where it lies, or
    // at the first place it fits.
    let select = move |piece: usize| {
        let current = placement.get_untracked();
        let corner = current.at[piece].map(|(r, c)| (r as i32, c as i32)).unwrap_or_else(|| {
            level.with_value(|l| {
                (0..l.h as i32)
                    .flat_map(|r| (0..l.w as i32).map(move |c| (r, c)))
                    .find(|&corner| current.fits(l, piece, corner))
                    .unwrap_or((0, 0))
            })
        });
        selected.set(Some(piece));
        cursor.set(corner);
        preview.set(Some((piece, corner)));
    };

    let on_key = move |event: web_sys::KeyboardEvent| {
        let Some(piece) = event
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|e| e.get_attribute("data-piece"))
            .and_then(|p| p.parse::<usize>().ok())
        else {
            return;
        };
        let step = |dr: i32, dc: i32| {
            let (r, c) = cursor.get_untracked();
            let (h, w) = level.with_value(|l| (l.h as i32, l.w as i32));
            let next = ((r + dr).clamp(-2, h - 1), (c + dc).clamp(-2, w - 1));
            cursor.set(next);
            preview.set(Some((piece, next)));
        };
        let carrying = selected.get_untracked() == Some(piece);
        let handled = match event.key().as_str() {
            "Enter" | " " if carrying => {
                place(piece, cursor.get_untracked());
                true
            }
            "Enter" | " " => {
                select(piece);
                true
            }
            "ArrowUp" if carrying => {
                step(-1, 0);
                true
            }
            "ArrowDown" if carrying => {
                step(1, 0);
                true
            }
            "ArrowLeft" if carrying => {
                step(0, -1);
                true
            }
            "ArrowRight" if carrying => {
                step(0, 1);
                true
            }
            "Escape" => {
                selected.set(None);
                preview.set(None);
                true
            }
            "Delete" | "Backspace" => {
                change(placement.get_untracked().to_tray(piece));
                selected.set(None);
                preview.set(None);
                true
            }
            _ => false,
        };
        if handled {
            event.prevent_default();
            event.stop_propagation();
            // A piece that moved between the tray and the board is a new button: keep the keyboard
            // on it, unless the player has already moved on.
            request_animation_frame(move || {
                let lost = browser::document().and_then(|d| d.active_element()).is_none_or(|e| e.tag_name() == "BODY");
                if lost {
                    browser::focus(&format!("piece-{piece}"));
                }
            });
        }
    };
    // R turns the marked piece, Ctrl+Z / Ctrl+Y undo and redo, from anywhere on the page.
    if browser::window().is_some() {
        let handle = window_event_listener(leptos::ev::keydown, move |event| {
            let typing = event
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .is_some_and(|e| matches!(e.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
            if typing || event.alt_key() {
                return;
            }
            let key = event.key().to_lowercase();
            let handled = match key.as_str() {
                "r" if !event.ctrl_key() && !event.meta_key() => {
                    rotate();
                    true
                }
                "z" if event.ctrl_key() || event.meta_key() => {
                    if event.shift_key() {
                        redo()
                    } else {
                        undo()
                    }
                    true
                }
                "y" if event.ctrl_key() || event.meta_key() => {
                    redo();
                    true
                }
                _ => false,
            };
            if handled {
                event.prevent_default();
            }
        });
        on_cleanup(move || handle.remove());
    }

    // Drag and drop: one handler for the four pointer events on the play area.
    let pointer = move |event: web_sys::PointerEvent| {
        if !event.is_primary() || solved.get_untracked().is_some() {
            return;
        }
        let (x, y) = (event.client_x(), event.client_y());
        let kind = event.type_();
        if kind == "pointerdown" {
            if let Some(old) = drag.get_value().filter(|d| d.moved) {
                lift(old.piece, None);
            }
            let square = event.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
            let square = square.filter(|s| s.class_list().contains("tx-sq") && event.button() == 0);
            let grabbed = square.and_then(|square| {
                let piece = square.closest("[data-piece]").ok()??.get_attribute("data-piece")?.parse().ok()?;
                let dr = square.get_attribute("data-dr")?.parse().ok()?;
                let dc = square.get_attribute("data-dc")?.parse().ok()?;
                Some(Drag { piece, x, y, grip: (dr, dc), moved: false })
            });
            drag.set_value(grabbed);
            return;
        }
        let Some(mut d) = drag.get_value() else { return };
        let (dx, dy) = (x - d.x, y - d.y);
        let landing = move || level.with_value(|l| cell_at(x, y, cell, l)).map(|(r, c)| (r - d.grip.0, c - d.grip.1));
        if kind == "pointermove" {
            if event.buttons() & 1 == 0 {
                if d.moved {
                    lift(d.piece, None);
                }
                drag.set_value(None);
                preview.set(None);
                return;
            }
            if !d.moved && dx.abs() + dy.abs() > 6 {
                d.moved = true;
                drag.set_value(Some(d));
                selected.set(None);
                if let Some(area) = event.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
                    let _ = area.set_pointer_capture(event.pointer_id());
                }
            }
            if d.moved {
                lift(d.piece, Some((dx, dy)));
                preview.set(landing().map(|corner| (d.piece, corner)));
            }
            return;
        }
        // Released or cancelled.
        drag.set_value(None);
        preview.set(None);
        if !d.moved {
            if kind == "pointerup" {
                if level.with_value(|l| l.rotatable) == Some(d.piece) {
                    rotate();
                } else if selected.get_untracked() == Some(d.piece) {
                    selected.set(None);
                } else {
                    select(d.piece);
                }
            }
            return;
        }
        lift(d.piece, None);
        let current = placement.get_untracked();
        match landing().filter(|_| kind == "pointerup") {
            Some(corner) if level.with_value(|l| current.fits(l, d.piece, corner)) => place(d.piece, corner),
            // Over another piece, partly off the rectangle, or off the board: back to the tray.
            _ => change(current.to_tray(d.piece)),
        }
    };
    // A tap on a cell puts the selected piece there (its first cell on the tapped one).
    let tap_cell = move |row: usize, col: usize| {
        let Some(piece) = selected.get_untracked() else { return };
        let shape = level.with_value(|l| placement.get_untracked().shape(l, piece));
        let (r0, c0) = SHAPES[shape as usize][0];
        place(piece, (row as i32 - r0 as i32, col as i32 - c0 as i32));
    };

    let (w, h) = level.with_value(|l| (l.w, l.h));
    let grid = move || {
        let current = placement.get();
        let cells = level.with_value(|l| current.grid(l));
        let shown = preview.get();
        let ghost: Vec<(usize, usize)> =
            shown.and_then(|(piece, corner)| level.with_value(|l| current.cells(l, piece, corner))).unwrap_or_default();
        let fits = shown.is_some_and(|(piece, corner)| level.with_value(|l| current.fits(l, piece, corner)));
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
    };
    let pieces = move |on_board: bool| {
        let current = placement.get();
        (0..current.at.len())
            .filter(|&p| current.at[p].is_some() == on_board)
            .map(|p| level.with_value(|l| piece_view(i18n, l, &current, p, selected, on_key)))
            .collect_view()
    };
    let rotatable = level.with_value(|l| l.rotatable.is_some());
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
                <button class="button" id="triplex-undo" disabled=move || past.with(Vec::is_empty) || solved.with(Option::is_some) on:click=move |_| undo()>{tr("triplex-undo")}</button>
                <button class="button" id="triplex-redo" disabled=move || future.with(Vec::is_empty) || solved.with(Option::is_some) on:click=move |_| redo()>{tr("triplex-redo")}</button>
                <button class="button" id="triplex-reset" disabled=move || solved.with(Option::is_some) on:click=move |_| change(start.clone())>{tr("triplex-reset")}</button>
                {rotatable.then(|| view! {
                    <button class="button" id="triplex-rotate" aria-keyshortcuts="R" disabled=move || solved.with(Option::is_some) on:click=move |_| rotate()>{tr("triplex-rotate")}</button>
                })}
            </div>
            <p class="tx-help">{tr("triplex-help")}</p>
            <div class="tx-play" style=format!("--tx:{cell}px") on:pointerdown=pointer on:pointermove=pointer
                on:pointerup=pointer on:pointercancel=pointer>
                <div class="tx-field" style=format!("width:{}px;height:{}px", cell * w as i32, cell * h as i32)>
                    <div role="grid" class="tx-board" id="tx-board" aria-label=tr("triplex-board")>{grid}</div>
                    <div class="tx-layer">{move || pieces(true)}</div>
                </div>
                <div class="tx-tray" id="tx-tray" role="group" aria-label=tr("triplex-tray")>{move || pieces(false)}</div>
            </div>
            <p class="notice" id="triplex-notice" role="status">{move || notice.get()}</p>
            {solved_panel}
            <p class="tx-records" id="triplex-records">{records_line}</p>
        </section>
    }
    .into_any()
}

/// Shows `next` and saves it with the time so far, so a reload resumes the level.
fn set_placement(next: Placement, placement: RwSignal<Placement>, elapsed: RwSignal<u64>, number: usize) {
    progress::save_unfinished(number, &Unfinished { placement: next.clone(), ms: elapsed.get_untracked() });
    placement.set(next);
}
