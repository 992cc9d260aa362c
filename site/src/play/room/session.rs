//! A room's state on this page and the requests that change it: the server's room and its game
//! replayed by the engine, the seat this page holds, the move in flight, and the tasks that open
//! the room (`open`), send a move or action (`send`) and claim a seat (`take_seat`). The screen
//! only reads it; `keep_up.rs` keeps it current.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::Value;
use tabula_core::{Game, Seat};

use super::super::pacing::retry_delay_ms;
use super::super::{GameUi, History};
use super::requests::{landed, notice_for, rebase, Request, Said};
use crate::api::{self, ApiError, RoomView};
use crate::browser;
use crate::catalogue::Slug;
use crate::storage::{self, HeldSeat};

type Move<U> = <<U as GameUi>::G as Game>::Move;

/// The room's state as reactive values (all `Copy`), for the screen to read.
pub(super) struct RoomState<U: GameUi> {
    pub code: StoredValue<String>,
    /// The server's room, as last taken.
    pub room: RwSignal<Option<RoomView>>,
    /// Its game replayed by the engine.
    pub server: RwSignal<Option<History<U::G>>>,
    pub etag: StoredValue<Option<String>>,
    pub held: RwSignal<Option<HeldSeat>>,
    /// A move shown on the board and sent, not answered yet.
    pub pending: RwSignal<Option<Move<U>>>,
    /// What the line under the board says.
    pub notice: RwSignal<Option<Said>>,
    pub offline: RwSignal<bool>,
    pub missing: RwSignal<bool>,
    pub broken: RwSignal<bool>,
    /// Pages with the room open, where the push counts them (Realtime's presence). `usize` as the
    /// screen's replay step: a signal of a type of its own costs the bundle 2 KB of the reactive
    /// system's code.
    pub open_pages: RwSignal<Option<usize>>,
    /// A request in flight: the buttons wait.
    pub acting_now: RwSignal<bool>,
    pub visible: RwSignal<bool>,
    pub confirm_resign: RwSignal<bool>,
    /// The colour of the seat this page holds.
    pub my_colour: Memo<Option<Seat>>,
    /// The server's game with the move in flight on top of it.
    pub live: Memo<Option<History<U::G>>>,
}

impl<U: GameUi> Clone for RoomState<U> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<U: GameUi> Copy for RoomState<U> {}

/// The state, and what the tasks share outside the reactive system: tasks outlive the page
/// (leaving the room does not cancel them), so they see that the page is gone through `alive`
/// instead of reading disposed signals, and tell through `generation` that the room changed while
/// a poll was in flight; `wake` is bumped to make the poll look now (after a request was answered).
pub(super) struct RoomSession<U: GameUi> {
    pub state: RoomState<U>,
    pub alive: Arc<AtomicBool>,
    pub generation: Arc<AtomicU64>,
    pub wake: Arc<AtomicU32>,
}

impl<U: GameUi> Clone for RoomSession<U> {
    fn clone(&self) -> Self {
        RoomSession {
            state: self.state,
            alive: self.alive.clone(),
            generation: self.generation.clone(),
            wake: self.wake.clone(),
        }
    }
}

impl<U: GameUi> RoomSession<U> {
    pub fn new(code: String) -> RoomSession<U> {
        let room = RwSignal::new(None::<RoomView>);
        let server = RwSignal::new(None::<History<U::G>>);
        let held = RwSignal::new(None::<HeldSeat>);
        let pending = RwSignal::new(None::<Move<U>>);
        let my_colour = Memo::new(move |_| {
            let seat = held.get()?.seat;
            room.with(|r| r.as_ref()?.colour_of(seat)).and_then(Seat::from_number)
        });
        let live = Memo::new(move |_| {
            let mut history = server.get()?;
            if let Some(mv) = pending.get() {
                let _ = history.push(mv);
            }
            Some(history)
        });
        let state = RoomState {
            code: StoredValue::new(code),
            room,
            server,
            etag: StoredValue::new(None),
            held,
            pending,
            notice: RwSignal::new(None),
            offline: RwSignal::new(false),
            missing: RwSignal::new(false),
            broken: RwSignal::new(false),
            open_pages: RwSignal::new(None),
            acting_now: RwSignal::new(false),
            visible: RwSignal::new(browser::page_visible()),
            confirm_resign: RwSignal::new(false),
            my_colour,
            live,
        };
        let session = RoomSession {
            state,
            alive: Arc::new(AtomicBool::new(true)),
            generation: Arc::default(),
            wake: Arc::default(),
        };
        let alive = session.alive.clone();
        on_cleanup(move || alive.store(false, Ordering::Relaxed));
        session
    }

    pub fn id(&self) -> String {
        self.state.code.get_value()
    }

    /// The room's moves replayed by the engine from what the page shows; `None` when they cannot be.
    pub fn replay(&self, view: &RoomView) -> Option<History<U::G>> {
        let moves: Vec<Move<U>> =
            view.moves.iter().map(|m| serde_json::from_value(m.clone())).collect::<Result<_, _>>().ok()?;
        let mut history =
            self.state.server.get_untracked().map_or_else(|| History::new(view.config.clone()), Ok).ok()?;
        history.sync(&view.config, &moves).ok()?;
        Some(history)
    }

    /// Takes the server's room: a room of another game is another bundle's (reload, and the page's
    /// loader picks it); moves the engine cannot replay mean this site is out of date.
    pub fn sync(&self, view: &RoomView) -> bool {
        let state = self.state;
        if view.game != U::SLUG.name() {
            match Slug::from_name(&view.game).filter(|s| s.has_rooms()) {
                Some(_) => {
                    // The page's start script chose this bundle from a remembered seat: that seat
                    // is from another room of the same name. Forget it, and let the page load the
                    // right bundle.
                    storage::forget_seat(&view.room_id);
                    let _ = browser::window().map(|w| w.location().reload());
                }
                None => state.broken.set(true),
            }
            return false;
        }
        // The same room again (a seat re-attached, a poll answered in full): nothing to redraw.
        if state.room.with_untracked(|r| r.as_ref() == Some(view)) {
            return true;
        }
        match self.replay(view) {
            Some(history) => {
                state.server.set(Some(history));
                state.room.set(Some(view.clone()));
                true
            }
            None => {
                state.broken.set(true);
                false
            }
        }
    }

    /// Takes the room an answer brought: newer than any poll in flight.
    pub fn accept(&self, view: RoomView) {
        self.generation.fetch_add(1, Ordering::Relaxed);
        self.state.etag.set_value(None);
        self.sync(&view);
    }

    /// Opens the room and re-attaches a remembered seat. The seat is shown as held at once; only
    /// the server saying the token is not a player's drops it. A failed open is retried until it
    /// works or the page is left.
    pub fn open(&self) {
        let (session, state) = (self.clone(), self.state);
        let id = self.id();
        let remembered = storage::held_seat(&id);
        state.held.set(remembered.clone());
        spawn_local(async move {
            let mut token = remembered.map(|h| h.token);
            let mut failures = 0;
            // Show the room the page already read; a spectator needs nothing more. The room is
            // drawn in a task of its own, after the page's frame: two short tasks keep a slow
            // phone responsive where one long one would not.
            if let Some(view) = api::prefetched(&id).await {
                TimeoutFuture::new(0).await;
                session.accept(view);
                if token.is_none() {
                    return;
                }
            }
            while session.alive.load(Ordering::Relaxed) {
                match api::join(&id, None, None, token.as_deref(), "").await {
                    Ok(joined) => {
                        state.offline.set(false);
                        session.accept(joined.room);
                        break;
                    }
                    Err(ApiError::Refused { code, .. }) if code == "not_a_player" && token.is_some() => {
                        storage::forget_seat(&id);
                        state.held.set(None);
                        token = None;
                    }
                    Err(ApiError::Refused { .. }) => {
                        storage::forget_seat(&id);
                        state.held.set(None);
                        state.missing.set(true);
                        break;
                    }
                    Err(ApiError::Network(_)) => {
                        state.offline.set(true);
                        TimeoutFuture::new(retry_delay_ms(failures)).await;
                        failures += 1;
                    }
                }
            }
        });
    }

    /// Sends a move or action at the version shown. A network failure is retried at the same
    /// version, so it lands at most once. A conflict caused by something other than the game (a
    /// seat taken, say) is rebased: the same request again at the new version.
    pub fn send(&self, request: Request) {
        let state = self.state;
        let (Some(seat), Some(mut view)) = (state.held.get_untracked(), state.room.get_untracked()) else { return };
        if state.acting_now.get_untracked() {
            return;
        }
        state.acting_now.set(true);
        state.confirm_resign.set(false);
        let (session, id) = (self.clone(), self.id());
        spawn_local(async move {
            let (mv, action) = match &request {
                Request::Move(mv) => (Some(mv.clone()), None),
                Request::Action(action) => (None, Some(*action)),
            };
            let mut attempt = 0;
            loop {
                match api::act(&id, &seat.token, view.version, mv.clone(), action).await {
                    Ok(next) => {
                        state.offline.set(false);
                        state.notice.set(None);
                        session.accept(next);
                        break;
                    }
                    Err(ApiError::Network(_)) if attempt < 6 => {
                        state.offline.set(true);
                        TimeoutFuture::new(retry_delay_ms(attempt)).await;
                        attempt += 1;
                    }
                    Err(ApiError::Refused { code, room: current, reason, .. }) => {
                        state.offline.set(false);
                        if let Some(current) =
                            current.as_ref().filter(|c| code == "version_conflict" && rebase(&view, c))
                        {
                            view = (**current).clone();
                            continue;
                        }
                        let done =
                            attempt > 0 && current.as_ref().is_some_and(|c| landed(&request, &view, c, seat.seat));
                        if let Some(current) = current {
                            session.accept(*current);
                        }
                        if !done {
                            state.notice.set(Some(Said::Id(notice_for(U::SLUG, &code, reason.as_deref()))));
                        }
                        break;
                    }
                    Err(ApiError::Network(_)) => break,
                }
            }
            state.pending.set(None);
            state.acting_now.set(false);
            session.wake.fetch_add(1, Ordering::Relaxed);
        });
    }

    /// Claims an empty seat under the player's name, and remembers its token.
    pub fn take_seat(&self, seat: u8) {
        let (session, state, id) = (self.clone(), self.state, self.id());
        let config = state.room.with_untracked(|r| r.as_ref().map(|r| r.config.clone())).unwrap_or(Value::Null);
        spawn_local(async move {
            let game = Some(api::NewRoom { game: U::SLUG.name(), config: &config, takebacks: None });
            match api::join(&id, game, Some(seat), None, &storage::player_name()).await {
                Ok(joined) => {
                    if let (Some(seat), Some(token)) = (joined.seat, joined.token) {
                        let claimed = HeldSeat { seat, token, game: Some(U::SLUG.name().to_owned()) };
                        storage::hold_seat(&id, &claimed);
                        state.held.set(Some(claimed));
                    }
                    session.accept(joined.room);
                }
                Err(ApiError::Refused { code, reason, .. }) => {
                    state.notice.set(Some(Said::Id(notice_for(U::SLUG, &code, reason.as_deref()))))
                }
                Err(_) => state.offline.set(true),
            }
        });
    }
}

/// What the screen asks of the room most, read reactively.
impl<U: GameUi> RoomState<U> {
    /// The seat this page holds.
    pub fn my_seat(&self) -> Option<u8> {
        self.held.with(|h| h.as_ref().map(|h| h.seat))
    }

    pub fn seated(&self) -> bool {
        self.held.with(Option::is_some)
    }

    /// The seat that asked for a takeback, if one is asked.
    pub fn takeback_by(&self) -> Option<u8> {
        self.room.with(|r| r.as_ref().and_then(|r| r.takeback))
    }

    /// How many moves the takeback asked for would take back.
    pub fn takeback_count(&self) -> u32 {
        self.room.with(|r| r.as_ref().and_then(|r| r.takeback_moves)).unwrap_or(1)
    }

    /// The room's takeback policy (`never`, `ask`, `always`).
    pub fn policy(&self) -> String {
        self.room.with(|r| r.as_ref().map(|r| r.takebacks.clone())).unwrap_or_default()
    }

    /// Whether the game shown has a result.
    pub fn over(&self) -> bool {
        self.room.with(|r| r.as_ref().and_then(RoomView::result).is_some())
    }
}
