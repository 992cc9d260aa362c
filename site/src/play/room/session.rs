//! A room's session: the room as the server last sent it, the seat this page holds, the move in
//! flight, and the network tasks that keep them: opening the room (and re-attaching a remembered
//! seat), the poll and push loop, sending moves and actions, taking a seat. The screen (`mod.rs`)
//! reads its signals and calls its callbacks.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::Value;
use tabula_core::Game;

use super::requests::{adds_moves, landed, notice_for, rebase, Request, Said};
use crate::api::{self, ApiError, Fetched, RoomView};
use crate::browser;
use crate::catalogue::Slug;
use crate::play::pacing::{poll_delay_ms, retry_delay_ms, REOPEN_PUSH_MS, TICK_MS};
use crate::play::push::{self, Heard};
use crate::play::{GameUi, History};
use crate::storage::{self, HeldSeat};

type Move<U> = <<U as GameUi>::G as Game>::Move;

/// The room's state, as signals: `Copy`, so every closure of the screen takes it whole.
pub struct RoomState<U: GameUi> {
    pub code: StoredValue<String>,
    pub room: RwSignal<Option<RoomView>>,
    /// The room's moves replayed by the engine.
    pub server: RwSignal<Option<History<U::G>>>,
    etag: StoredValue<Option<String>>,
    pub held: RwSignal<Option<HeldSeat>>,
    /// This page's move, sent and not answered yet.
    pub pending: RwSignal<Option<Move<U>>>,
    /// A message id, already chosen; shown under the board.
    pub notice: RwSignal<Option<Said>>,
    pub offline: RwSignal<bool>,
    pub missing: RwSignal<bool>,
    pub broken: RwSignal<bool>,
    /// Bumped to make the poll run now.
    pub wake: RwSignal<u32>,
    /// Pages with the room open, where the push counts them (Realtime's presence). `usize` as the
    /// screen's step: a signal of a type of its own costs the bundle 2 KB of the reactive system.
    pub open_pages: RwSignal<Option<usize>>,
    /// A move or action is on its way.
    pub acting_now: RwSignal<bool>,
    pub visible: RwSignal<bool>,
    ui: PhantomData<U>,
}

impl<U: GameUi> Clone for RoomState<U> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<U: GameUi> Copy for RoomState<U> {}

/// The state and what the tasks share outside the reactive system. Tasks outlive the page (leaving
/// the room does not cancel them): `alive` lets them see that the page is gone instead of reading
/// disposed signals, and `generation` that the room changed while a poll was in flight.
#[derive(Clone)]
pub struct RoomSession<U: GameUi> {
    pub state: RoomState<U>,
    alive: Arc<AtomicBool>,
    generation: Arc<AtomicU64>,
}

impl<U: GameUi> RoomSession<U> {
    /// Opens room `code` and starts polling it; the tasks end when the page is left.
    pub fn start(code: String) -> Self {
        let state = RoomState {
            code: StoredValue::new(code),
            room: RwSignal::new(None),
            server: RwSignal::new(None),
            etag: StoredValue::new(None),
            held: RwSignal::new(None),
            pending: RwSignal::new(None),
            notice: RwSignal::new(None),
            offline: RwSignal::new(false),
            missing: RwSignal::new(false),
            broken: RwSignal::new(false),
            wake: RwSignal::new(0),
            open_pages: RwSignal::new(None),
            acting_now: RwSignal::new(false),
            visible: RwSignal::new(browser::page_visible()),
            ui: PhantomData,
        };
        let session = RoomSession { state, alive: Arc::new(AtomicBool::new(true)), generation: Arc::default() };
        let alive = session.alive.clone();
        on_cleanup(move || alive.store(false, Ordering::Relaxed));
        session.open();
        session.poll();
        session
    }

    /// The room's moves replayed by the engine from what the page shows; `None` when they cannot be.
    fn replay(&self, view: &RoomView) -> Option<History<U::G>> {
        let moves: Vec<Move<U>> =
            view.moves.iter().map(|m| serde_json::from_value(m.clone())).collect::<Result<_, _>>().ok()?;
        let mut history =
            self.state.server.get_untracked().map_or_else(|| History::new(view.config.clone()), Ok).ok()?;
        history.sync(&view.config, &moves).ok()?;
        Some(history)
    }

    /// Takes the server's room: a room of another game is another bundle's (reload, and the page's
    /// loader picks it); moves the engine cannot replay mean this site is out of date.
    fn sync(&self, view: &RoomView) -> bool {
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

    /// The room a move, an action or a join answered with: newer than any poll in flight.
    fn accept(&self, view: RoomView) {
        self.generation.fetch_add(1, Ordering::Relaxed);
        self.state.etag.set_value(None);
        self.sync(&view);
    }

    /// Open the room and re-attach a remembered seat. The seat is shown as held at once; only the
    /// server saying the token is not a player's drops it. A failed open is retried until it works
    /// or the page is left.
    fn open(&self) {
        let (session, state) = (self.clone(), self.state);
        let id = state.code.get_value();
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

    /// What a push says: the room itself when it only adds moves to the game shown (shown at once),
    /// the channel opening or failing (the poll's pace), the pages open. True when a poll should
    /// fetch the room now.
    fn heard(&self, heard: Heard, poll_ms: u32, push_pace: &AtomicU32) -> bool {
        let state = self.state;
        match heard {
            Heard::Changed(version, pushed) => {
                let shown = state.room.try_get_untracked().flatten();
                let newer = version > shown.as_ref().map_or(-1, |r| r.version);
                // Shown at once when no move of ours is in flight (its answer decides). Anyone may
                // broadcast on the room's public channel, so its ETag is not taken: the next poll
                // brings the room in full.
                let idle = state.pending.try_with_untracked(Option::is_none).unwrap_or(false);
                let pushed = pushed.filter(|view| newer && idle && shown.is_some_and(|r| adds_moves(&r, view)));
                match pushed.filter(|view| self.replay(view).is_some()) {
                    Some(view) => {
                        self.accept(*view);
                        false
                    }
                    None => newer,
                }
            }
            Heard::Open => {
                push_pace.store(poll_ms, Ordering::Relaxed);
                push::show_state("live");
                true
            }
            Heard::Present(pages) => {
                let _ = state.open_pages.try_set(Some(pages as usize));
                false
            }
            Heard::Failed => {
                let _ = state.open_pages.try_set(None);
                push_pace.store(0, Ordering::Relaxed);
                push::show_state("off");
                false
            }
        }
    }

    /// Poll: about once a second while waiting and visible, slower otherwise, at once when the tab
    /// comes back; a failed poll shows "connection lost" and retries with back-off. Reads use `try_`
    /// so that a poll finishing after the page is gone ends quietly. Push, where the server has it:
    /// a change (or the channel opening, to catch up) ends the wait at once, and polls slow down to
    /// the server's pace; when the channel fails, polling goes back to its own pace until the
    /// browser reopens it. The channel closes with this task.
    fn poll(&self) {
        let (session, state) = (self.clone(), self.state);
        let id = state.code.get_value();
        spawn_local(async move {
            let nudge = push::Nudge::default();
            let push_pace = Arc::new(AtomicU32::new(0));
            let mode = api::push_mode().await.unwrap_or(api::PushMode::Poll);
            let heard = {
                let (nudge, push_pace, session) = (nudge.clone(), push_pace.clone(), session.clone());
                let poll_ms = match &mode {
                    api::PushMode::Sse { poll_ms, .. } | api::PushMode::Realtime { poll_ms, .. } => *poll_ms,
                    api::PushMode::Poll => 0,
                };
                move |heard| {
                    if session.heard(heard, poll_ms, &push_pace) {
                        nudge.nudge();
                    }
                }
            };
            let open = match mode {
                api::PushMode::Poll => None,
                _ => push::open_code().await.ok(),
            };
            // A channel the browser gave up on (it does after a refusal) is opened anew now and then.
            let (mut channel, mut reopen_in) = (None::<push::PushChannel>, 0u32);
            let mut failures = 0u32;
            // Clock time since the last poll: a hidden tab's timers may wake only once a second (or
            // once a minute), so counting ticks would stretch its polls past the abandonment time.
            let mut last_poll = js_sys::Date::now();
            let mut news = false;
            let mut seen_wake = state.wake.try_get_untracked().unwrap_or(0);
            let mut was_visible = browser::page_visible();
            while session.alive.load(Ordering::Relaxed) {
                // A push stays news until a poll has fetched it (not while a move is in flight).
                news |= nudge.sleep(TICK_MS).await;
                reopen_in = reopen_in.saturating_sub(TICK_MS);
                if channel.as_ref().is_some_and(push::PushChannel::closed) {
                    channel = None;
                }
                if let (None, 0, Some(open)) = (&channel, reopen_in, open) {
                    channel = open(&mode, &id, Box::new(heard.clone()));
                    reopen_in = REOPEN_PUSH_MS;
                }
                let (Some(wake_now), Some(busy), Some(seat), Some(game)) = (
                    state.wake.try_get_untracked(),
                    state.pending.try_with_untracked(Option::is_some),
                    state.held.try_get_untracked(),
                    state.server.try_with_untracked(|h| h.as_ref().map(|h| h.current().status())),
                ) else {
                    break;
                };
                let visible = browser::page_visible();
                if visible != was_visible {
                    let _ = state.visible.try_set(visible);
                }
                // Hidden too: the server then knows at once to push this player's moves to them.
                let woken = news || wake_now != seen_wake || visible != was_visible;
                was_visible = visible;
                let colour = seat
                    .as_ref()
                    .and_then(|s| state.room.try_with_untracked(|r| r.as_ref()?.colour_of(s.seat)).flatten());
                let my_turn = colour.is_some() && game.and_then(|s| s.to_move()).map(|s| s.number()) == colour;
                let pace = Some(push_pace.load(Ordering::Relaxed)).filter(|&ms| ms > 0);
                let due =
                    if failures > 0 { retry_delay_ms(failures - 1) } else { poll_delay_ms(visible, my_turn, pace) };
                let waited = (js_sys::Date::now() - last_poll).max(0.0) as u32;
                if !woken && waited < due || busy {
                    continue;
                }
                (seen_wake, last_poll, news) = (wake_now, js_sys::Date::now(), false);
                let before = session.generation.load(Ordering::Relaxed);
                let Some(tag) = state.etag.try_get_value() else { break };
                let token = seat.map(|s| s.token);
                // A seated page tells the room how many pages it has open, where only they count.
                let pages = token.as_ref().and(state.open_pages.try_get_untracked().flatten()).map(|n| n as u32);
                match api::fetch_room(&id, tag.as_deref(), token.as_deref(), visible, pages).await {
                    Ok(Fetched::Unchanged) => {
                        failures = 0;
                        state.offline.set(false);
                    }
                    Ok(Fetched::Room { room: view, etag: tag }) => {
                        failures = 0;
                        state.offline.set(false);
                        // A move or action answered while this poll was in flight: its room is newer.
                        let unchanged = session.generation.load(Ordering::Relaxed) == before;
                        if unchanged
                            && state.pending.try_with_untracked(Option::is_none).unwrap_or(false)
                            && session.sync(view.as_ref())
                        {
                            state.etag.set_value(tag);
                        }
                    }
                    Err(ApiError::Network(_)) => {
                        failures += 1;
                        state.offline.set(true);
                    }
                    Err(_) => failures += 1,
                }
            }
        });
    }

    /// Sends a move or action at the version shown. A network failure is retried at the same
    /// version, so it lands at most once. A conflict caused by something other than the game (a
    /// seat taken, say) is rebased: the same request again at the new version.
    pub fn send(&self, request: Request) {
        let (session, state) = (self.clone(), self.state);
        let (Some(seat), Some(mut view)) = (state.held.get_untracked(), state.room.get_untracked()) else { return };
        if state.acting_now.get_untracked() {
            return;
        }
        state.acting_now.set(true);
        let id = state.code.get_value();
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
            state.wake.update(|w| *w += 1);
        });
    }

    /// Sends this page's move (already shown as pending).
    pub fn send_move(&self, mv: Move<U>) {
        self.state.notice.set(None);
        self.state.pending.set(Some(mv.clone()));
        self.send(Request::Move(serde_json::to_value(&mv).unwrap_or(Value::Null)));
    }

    /// Takes an empty seat (`seat`: the server's seat number) under the player's name.
    pub fn take_seat(&self, seat: u8) {
        let (session, state) = (self.clone(), self.state);
        let id = state.code.get_value();
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
