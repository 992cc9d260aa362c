//! A Triplex level's state and every change to it: the placement with undo and redo, the piece
//! picked for the keyboard or a tap, the ghost of where it would land, the clock, the check of a
//! full board, and the level's records. All of it `Copy` signals, so the screen and its input
//! handlers share one value.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use leptos::prelude::*;
use leptos::task::spawn_local;
use tabula_core::triplex::{canonical, unlock_code, Level};

use super::super::placement::Placement;
use super::super::progress::{self, PendingSolve, Progress, Unfinished};
use super::super::{levels, send_pending};
use crate::api::{self, TriplexRecords};
use crate::browser;
use crate::i18n::I18n;
use crate::storage;

/// A solved level: the time, and the code and number of the level it opens.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Solved {
    pub ms: u64,
    pub next: Option<(usize, String)>,
}

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Records {
    Loading,
    Unavailable,
    Shown(TriplexRecords),
}

#[derive(Clone, Copy)]
pub(super) struct LevelState {
    pub i18n: I18n,
    pub number: usize,
    pub level: StoredValue<Level>,
    pub placement: RwSignal<Placement>,
    /// Milliseconds played, saved with the placement.
    pub elapsed: RwSignal<u64>,
    pub past: RwSignal<Vec<Placement>>,
    pub future: RwSignal<Vec<Placement>>,
    /// The piece picked for the keyboard or a tap on a cell.
    pub selected: RwSignal<Option<usize>>,
    /// Where the keyboard would put the picked piece's corner.
    pub cursor: RwSignal<(i32, i32)>,
    /// A piece drawn as a ghost where it would land.
    pub preview: RwSignal<Option<(usize, (i32, i32))>>,
    pub solved: RwSignal<Option<Solved>>,
    pub notice: RwSignal<Option<String>>,
    pub records: RwSignal<Records>,
}

impl LevelState {
    /// Level `number`, resumed where a reload left it if its saved placement still fits.
    pub fn new(i18n: I18n, number: usize, level: Level) -> LevelState {
        let saved = progress::unfinished(number).filter(|u| u.placement.fits_level(&level));
        let start = Placement::start(&level);
        let state = LevelState {
            i18n,
            number,
            placement: RwSignal::new(saved.as_ref().map_or(start, |u| u.placement.clone())),
            elapsed: RwSignal::new(saved.map_or(0, |u| u.ms)),
            level: StoredValue::new(level),
            past: RwSignal::new(Vec::new()),
            future: RwSignal::new(Vec::new()),
            selected: RwSignal::new(None),
            cursor: RwSignal::new((0, 0)),
            preview: RwSignal::new(None),
            solved: RwSignal::new(None),
            notice: RwSignal::new(None),
            records: RwSignal::new(Records::Loading),
        };
        state.load_records();
        state.run_clock();
        state
    }

    pub fn is_solved(&self) -> bool {
        self.solved.with_untracked(Option::is_some)
    }

    fn load_records(self) {
        spawn_local(async move {
            // The level may have been left meanwhile: then there is nothing to show it on.
            self.records.try_set(match api::triplex_records(self.number).await {
                Ok(shown) => Records::Shown(shown),
                Err(_) => Records::Unavailable,
            });
        })
    }

    /// The clock runs while the level is unsolved and the page is in view; it is saved with the
    /// placement, so a reload goes on where it was.
    fn run_clock(self) {
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
                    if self.solved.try_get_untracked().is_some_and(|s| s.is_none()) && browser::page_visible() {
                        self.elapsed.try_update(|ms| *ms += (now - last).max(0.0) as u64);
                    }
                    last = now;
                }
            });
        }
        on_cleanup(move || alive.store(false, Ordering::Relaxed));
    }

    fn on_solved(self, solution: Vec<Vec<u8>>) {
        let (number, ms) = (self.number, self.elapsed.get_untracked().max(1));
        let board = self.level.with_value(Level::board);
        let next = levels::next_of(number).map(|next| (next, unlock_code(board, &canonical(&solution))));
        let mut progress = Progress::load();
        progress.solve(number, ms);
        progress.save();
        progress::forget_unfinished(number);
        let name = storage::player_name();
        let name = if name.trim().is_empty() { self.i18n.t("triplex-anonymous") } else { name };
        let mut waiting = progress::pending();
        waiting.push(PendingSolve { level: number, name, ms, solution });
        progress::save_pending(&waiting);
        self.solved.set(Some(Solved { ms, next }));
        spawn_local(async move {
            send_pending().await;
            self.load_records();
        });
    }

    /// Shows `next` and saves it with the time so far, so a reload resumes the level.
    fn set_placement(self, next: Placement) {
        let unfinished = Unfinished { placement: next.clone(), ms: self.elapsed.get_untracked() };
        progress::save_unfinished(self.number, &unfinished);
        self.placement.set(next);
    }

    /// Every change of the placement: remembered for undo, saved, and checked once the board is full.
    pub fn change(self, next: Placement) {
        let placement = self.placement;
        if self.is_solved() || next == placement.get_untracked() {
            return;
        }
        self.past.update(|p| p.push(placement.get_untracked()));
        self.future.update(Vec::clear);
        self.set_placement(next);
        self.notice.set(None);
        if let Some(solution) = self.level.with_value(|l| placement.with_untracked(|p| p.solution(l))) {
            match self.level.with_value(|l| l.check_solution(&solution)) {
                Ok(()) => self.on_solved(solution),
                Err(_) => self.notice.set(Some(self.i18n.t("triplex-not-solved"))),
            }
        }
    }

    /// Undo and redo: the last placement of one list comes back, the current one goes on the other.
    /// A solved level is done: nothing changes it any more (a new try starts from the level select).
    fn step(self, from: RwSignal<Vec<Placement>>, to: RwSignal<Vec<Placement>>) {
        if self.is_solved() {
            return;
        }
        if let Some(back) = from.try_update(Vec::pop).flatten() {
            to.update(|list| list.push(self.placement.get_untracked()));
            self.set_placement(back);
        }
    }

    pub fn undo(self) {
        self.step(self.past, self.future)
    }

    pub fn redo(self) {
        self.step(self.future, self.past)
    }

    /// Turns the level's turning piece, and picks it.
    pub fn rotate(self) {
        if let Some(next) = self.level.with_value(|l| self.placement.get_untracked().rotate(l)) {
            self.change(next);
            if let Some(piece) = self.level.with_value(|l| l.rotatable) {
                self.selected.set(Some(piece));
            }
        }
    }

    /// Puts `piece` with its corner at `corner`, or says it does not fit there.
    pub fn place(self, piece: usize, corner: (i32, i32)) {
        match self.level.with_value(|l| self.placement.get_untracked().drop_at(l, piece, corner)) {
            Some(next) => {
                self.selected.set(None);
                self.preview.set(None);
                self.change(next);
            }
            None => self.notice.set(Some(self.i18n.t("triplex-does-not-fit"))),
        }
    }

    /// Picks a piece for the keyboard (or a tap on a cell): the cursor starts where it lies, or at
    /// the first place it fits.
    pub fn select(self, piece: usize) {
        let current = self.placement.get_untracked();
        let corner = current.at[piece].map(|(r, c)| (r as i32, c as i32)).unwrap_or_else(|| {
            self.level.with_value(|l| {
                (0..l.h as i32)
                    .flat_map(|r| (0..l.w as i32).map(move |c| (r, c)))
                    .find(|&corner| current.fits(l, piece, corner))
                    .unwrap_or((0, 0))
            })
        });
        self.selected.set(Some(piece));
        self.cursor.set(corner);
        self.preview.set(Some((piece, corner)));
    }

    /// Puts the picked piece down: no ghost, nothing picked.
    pub fn drop_pick(self) {
        self.selected.set(None);
        self.preview.set(None);
    }
}
