//! A Triplex level's input: keys on a piece's button, the page's shortcuts, and drag and drop by
//! mouse or touch (a drop that overlaps or leaves the rectangle sends the piece to the tray).

use leptos::prelude::*;
use tabula_core::triplex::Level;

use super::state::LevelState;
use crate::browser;

/// A piece held by the pointer: which, where the pointer went down, the piece's cell under it,
/// and whether it has moved far enough to be a drag.
#[derive(Clone, Copy, Debug)]
struct Drag {
    piece: usize,
    x: i32,
    y: i32,
    grip: (i32, i32),
    moved: bool,
}

/// A key on a piece's button: Enter or Space picks it (or puts the picked one down at the cursor),
/// the arrows move the cursor, Escape lets go, Delete sends it to the tray.
pub(super) fn piece_key(state: LevelState) -> impl Fn(web_sys::KeyboardEvent) + Copy + 'static {
    move |event: web_sys::KeyboardEvent| {
        let Some(piece) = browser::handler_element(&event)
            .and_then(|e| e.get_attribute("data-piece"))
            .and_then(|p| p.parse::<usize>().ok())
        else {
            return;
        };
        let step = |dr: i32, dc: i32| {
            let (r, c) = state.cursor.get_untracked();
            let (h, w) = state.level.with_value(|l| (l.h as i32, l.w as i32));
            let next = ((r + dr).clamp(-2, h - 1), (c + dc).clamp(-2, w - 1));
            state.cursor.set(next);
            state.preview.set(Some((piece, next)));
        };
        let carrying = state.selected.get_untracked() == Some(piece);
        let handled = match event.key().as_str() {
            "Enter" | " " if carrying => {
                state.place(piece, state.cursor.get_untracked());
                true
            }
            "Enter" | " " => {
                state.select(piece);
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
                state.drop_pick();
                true
            }
            "Delete" | "Backspace" => {
                state.change(state.placement.get_untracked().to_tray(piece));
                state.drop_pick();
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
    }
}

/// R turns the marked piece, Ctrl+Z / Ctrl+Y undo and redo, from anywhere on the page.
pub(super) fn page_keys(state: LevelState) {
    if browser::window().is_some() {
        let handle = window_event_listener(leptos::ev::keydown, move |event| {
            let typing = browser::event_element(&event)
                .is_some_and(|e| matches!(e.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
            if typing || event.alt_key() {
                return;
            }
            let key = event.key().to_lowercase();
            let handled = match key.as_str() {
                "r" if !event.ctrl_key() && !event.meta_key() => {
                    state.rotate();
                    true
                }
                "z" if event.ctrl_key() || event.meta_key() => {
                    if event.shift_key() {
                        state.redo()
                    } else {
                        state.undo()
                    }
                    true
                }
                "y" if event.ctrl_key() || event.meta_key() => {
                    state.redo();
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
}

/// Drag and drop: one handler for the four pointer events on the play area.
pub(super) fn pointer(state: LevelState, cell: i32) -> impl Fn(web_sys::PointerEvent) + Copy + 'static {
    let drag = StoredValue::new(None::<Drag>);
    move |event: web_sys::PointerEvent| {
        if !event.is_primary() || state.is_solved() {
            return;
        }
        let (x, y) = (event.client_x(), event.client_y());
        let kind = event.type_();
        if kind == "pointerdown" {
            if let Some(old) = drag.get_value().filter(|d| d.moved) {
                lift(old.piece, None);
            }
            let square = browser::event_element(&event);
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
        let landing =
            move || state.level.with_value(|l| cell_at(x, y, cell, l)).map(|(r, c)| (r - d.grip.0, c - d.grip.1));
        if kind == "pointermove" {
            if event.buttons() & 1 == 0 {
                if d.moved {
                    lift(d.piece, None);
                }
                drag.set_value(None);
                state.preview.set(None);
                return;
            }
            if !d.moved && dx.abs() + dy.abs() > 6 {
                d.moved = true;
                drag.set_value(Some(d));
                state.selected.set(None);
                if let Some(area) = browser::handler_element(&event) {
                    let _ = area.set_pointer_capture(event.pointer_id());
                }
            }
            if d.moved {
                lift(d.piece, Some((dx, dy)));
                state.preview.set(landing().map(|corner| (d.piece, corner)));
            }
            return;
        }
        // Released or cancelled.
        drag.set_value(None);
        state.preview.set(None);
        if !d.moved {
            if kind == "pointerup" {
                if state.level.with_value(|l| l.rotatable) == Some(d.piece) {
                    state.rotate();
                } else if state.selected.get_untracked() == Some(d.piece) {
                    state.selected.set(None);
                } else {
                    state.select(d.piece);
                }
            }
            return;
        }
        lift(d.piece, None);
        let current = state.placement.get_untracked();
        match landing().filter(|_| kind == "pointerup") {
            Some(corner) if state.level.with_value(|l| current.fits(l, d.piece, corner)) => {
                state.place(d.piece, corner)
            }
            // Over another piece, partly off the rectangle, or off the board: back to the tray.
            _ => state.change(current.to_tray(d.piece)),
        }
    }
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
