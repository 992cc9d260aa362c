//! An online room: seats, share link, live play, takebacks and spectating. The server's room is the
//! truth: a move shows at once (checked locally with the engine), is sent with the room's version,
//! and is replaced by the server's answer; on a refusal the board returns to the server's state.
//! `requests.rs` holds what requests mean (the pure decisions); this file the room's state, its
//! network tasks and the screen, in one component: split further (a session type, the poll in a
//! function, the seats in functions of their own), the room bundle grew by 500 to 700 bytes of
//! gzip, which its first-load budget did not have.

mod requests;

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;

use gloo_timers::future::TimeoutFuture;
use std::marker::PhantomData;

use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::Value;
use tabula_core::{Game, Seat};

use super::input::{carry_out, judge};
use super::pacing::{poll_delay_ms, retry_delay_ms, REOPEN_PUSH_MS, TICK_MS};
use super::parts::{move_list, scoreboard, ConfirmBar};
use super::picture::save_button;
use super::push::Heard;
use super::{BoardProps, Confirm, GameUi, History, Record};
use crate::api::{self, ApiError, Fetched, RoomView};
use crate::catalogue::Slug;
use crate::i18n::{tr, use_i18n};
use crate::route::Link;
use crate::storage::{self, HeldSeat};
use crate::{browser, Route};
use requests::{adds_moves, landed, notice_for, rebase, Request, Said};

#[component]
pub fn RoomScreen<U: GameUi>(code: String, #[prop(optional)] ui: PhantomData<U>) -> impl IntoView {
    let _ = ui;
    let i18n = use_i18n();
    let code = StoredValue::new(code);
    let room_id = move || code.get_value();
    let room = RwSignal::new(None::<RoomView>);
    let server = RwSignal::new(None::<History<U::G>>);
    let etag = StoredValue::new(None::<String>);
    let held = RwSignal::new(None::<HeldSeat>);
    let pending = RwSignal::new(None::<<U::G as Game>::Move>);
    let ghost = RwSignal::new(None::<<U::G as Game>::Move>);
    // A message id, already chosen; shown under the board.
    let notice = RwSignal::new(None::<Said>);
    let offline = RwSignal::new(false);
    let missing = RwSignal::new(false);
    let broken = RwSignal::new(false);
    let step = RwSignal::new(None::<usize>);
    let wake = RwSignal::new(0u32);
    let watching = RwSignal::new(false);
    // Pages with the room open, where the push counts them (Realtime's presence). `usize` as
    // `step`'s: a signal of a type of its own costs the bundle 2 KB of the reactive system's code.
    let open_pages = RwSignal::new(None::<usize>);
    let acting_now = RwSignal::new(false);
    let visible = RwSignal::new(browser::page_visible());
    let confirm_resign = RwSignal::new(false);
    let confirm = Confirm::detect();
    // Tasks outlive the page (leaving the room does not cancel them); these two live outside the
    // reactive system, so the tasks can see that the page is gone instead of reading disposed
    // signals, and can tell that the room changed while a poll was in flight.
    let alive = Arc::new(AtomicBool::new(true));
    let generation = Arc::new(AtomicU64::new(0));
    {
        let alive = alive.clone();
        on_cleanup(move || alive.store(false, Ordering::Relaxed));
    }

    // The room's moves replayed by the engine from what the page shows; `None` when they cannot be.
    let replay = move |view: &RoomView| -> Option<History<U::G>> {
        let moves: Vec<<U::G as Game>::Move> =
            view.moves.iter().map(|m| serde_json::from_value(m.clone())).collect::<Result<_, _>>().ok()?;
        let mut history = server.get_untracked().map_or_else(|| History::new(view.config.clone()), Ok).ok()?;
        history.sync(&view.config, &moves).ok()?;
        Some(history)
    };
    // Takes the server's room: a room of another game is another bundle's (reload, and the page's
    // loader picks it); moves the engine cannot replay mean this site is out of date.
    let sync = move |view: &RoomView| -> bool {
        if view.game != U::SLUG.name() {
            match Slug::from_name(&view.game).filter(|s| s.has_rooms()) {
                Some(_) => {
                    // The page's start script chose this bundle from a remembered seat: that seat
                    // is from another room of the same name. Forget it, and let the page load the
                    // right bundle.
                    storage::forget_seat(&view.room_id);
                    let _ = browser::window().map(|w| w.location().reload());
                }
                None => broken.set(true),
            }
            return false;
        }
        // The same room again (a seat re-attached, a poll answered in full): nothing to redraw.
        if room.with_untracked(|r| r.as_ref() == Some(view)) {
            return true;
        }
        match replay(view) {
            Some(history) => {
                server.set(Some(history));
                room.set(Some(view.clone()));
                true
            }
            None => {
                broken.set(true);
                false
            }
        }
    };
    let accept = {
        let generation = generation.clone();
        move |view: RoomView| {
            generation.fetch_add(1, Ordering::Relaxed);
            etag.set_value(None);
            sync(&view);
        }
    };

    // Open the room and re-attach a remembered seat. The seat is shown as held at once; only the
    // server saying the token is not a player's drops it. A failed open is retried until it works or
    // the page is left.
    {
        let (alive, accept) = (alive.clone(), accept.clone());
        let id = room_id();
        let remembered = storage::held_seat(&id);
        held.set(remembered.clone());
        spawn_local(async move {
            let mut token = remembered.map(|h| h.token);
            let mut failures = 0;
            // Show the room the page already read; a spectator needs nothing more. The room is
            // drawn in a task of its own, after the page's frame: two short tasks keep a slow
            // phone responsive where one long one would not.
            if let Some(view) = api::prefetched(&id).await {
                TimeoutFuture::new(0).await;
                accept(view);
                if token.is_none() {
                    return;
                }
            }
            while alive.load(Ordering::Relaxed) {
                match api::join(&id, None, None, token.as_deref(), "").await {
                    Ok(joined) => {
                        offline.set(false);
                        accept(joined.room);
                        break;
                    }
                    Err(ApiError::Refused { code, .. }) if code == "not_a_player" && token.is_some() => {
                        storage::forget_seat(&id);
                        held.set(None);
                        token = None;
                    }
                    Err(ApiError::Refused { .. }) => {
                        storage::forget_seat(&id);
                        held.set(None);
                        missing.set(true);
                        break;
                    }
                    Err(ApiError::Network(_)) => {
                        offline.set(true);
                        TimeoutFuture::new(retry_delay_ms(failures)).await;
                        failures += 1;
                    }
                }
            }
        });
    }

    let my_colour = Memo::new(move |_| {
        let seat = held.get()?.seat;
        room.with(|r| r.as_ref()?.colour_of(seat)).and_then(Seat::from_number)
    });
    // The server's game with the move in flight on top of it.
    let live = Memo::new(move |_| {
        let mut history = server.get()?;
        if let Some(mv) = pending.get() {
            let _ = history.push(mv);
        }
        Some(history)
    });
    let history = Signal::derive(move || {
        live.get().unwrap_or_else(|| History::new(serde_json::json!({})).expect("the default config is valid"))
    });
    let count = Memo::new(move |_| step.get().unwrap_or(usize::MAX).min(history.with(History::len)));
    let shown = Memo::new(move |_| history.with(|h| h.position(count.get()).clone()));
    let before = Memo::new(move |_| count.get().checked_sub(1).map(|n| history.with(|h| h.position(n).clone())));
    let last = Memo::new(move |_| count.get().checked_sub(1).and_then(|n| history.with(|h| h.moves().get(n).cloned())));
    let result = Signal::derive(move || {
        if step.get().is_some() {
            return shown
                .with(|g| g.status().outcome().map(|o| (o.winner.map_or(0, Seat::number), o.reason.to_owned())));
        }
        room.with(|r| r.as_ref().and_then(RoomView::result))
    });
    let over = Signal::derive(move || room.with(|r| r.as_ref().and_then(RoomView::result).is_some()));
    let acting = Signal::derive(move || if step.get().is_none() && !over.get() { my_colour.get() } else { None });

    // "Your move": when it becomes this player's move, a chime and a notification (each if the
    // player asked for it), and while the page is in the background, the tab's title and icon say so.
    let settings = crate::storage::use_settings();
    let my_move = Memo::new(move |_| {
        let colour = my_colour.get();
        !over.get()
            && colour.is_some()
            && server.with(|h| h.as_ref().map(|h| h.current().status().to_move())) == Some(colour)
    });
    Effect::new(move |before: Option<bool>| {
        let now = my_move.get();
        if now && before == Some(false) {
            let settings = settings.get_untracked();
            if settings.sound {
                browser::chime();
            }
            if settings.notify && !browser::page_visible() {
                browser::notify(&i18n.t("title-your-move"), &i18n.t_with("room-title", &[("code", room_id().into())]));
            }
        }
        now
    });
    Effect::new(move |_| {
        let waiting = my_move.get() && !visible.get();
        browser::set_attention(waiting.then(|| i18n.t("title-your-move")));
    });
    on_cleanup(|| browser::set_attention(None));

    // Poll: about once a second while waiting and visible, slower otherwise, at once when the tab
    // comes back; a failed poll shows "connection lost" and retries with back-off. Reads use `try_`
    // so that a poll finishing after the page is gone ends quietly.
    // Push, where the server has it: a change (or the channel opening, to catch up) ends the wait
    // at once, and polls slow down to the server's pace; when the channel fails, polling goes back
    // to its own pace until the browser reopens it. The channel closes with this task.
    {
        let (alive, generation, accept) = (alive.clone(), generation.clone(), accept.clone());
        let id = room_id();
        let visible_signal = visible;
        spawn_local(async move {
            let nudge = super::push::Nudge::default();
            let push_pace = Arc::new(AtomicU32::new(0));
            let push = api::push_mode().await.unwrap_or(api::PushMode::Poll);
            let heard = {
                let (nudge, push_pace) = (nudge.clone(), push_pace.clone());
                let poll_ms = match &push {
                    api::PushMode::Sse { poll_ms, .. } | api::PushMode::Realtime { poll_ms, .. } => *poll_ms,
                    api::PushMode::Poll => 0,
                };
                move |heard| {
                    let news = match heard {
                        Heard::Changed(version, pushed) => {
                            let shown = room.try_get_untracked().flatten();
                            let newer = version > shown.as_ref().map_or(-1, |r| r.version);
                            // The room came with the push: shown at once when it only adds moves the
                            // engine can replay to the game shown and no move of ours is in flight
                            // (its answer decides). Anyone may broadcast on the room's public channel,
                            // so its ETag is not taken: the next poll brings the room in full.
                            let idle = pending.try_with_untracked(Option::is_none).unwrap_or(false);
                            let pushed =
                                pushed.filter(|view| newer && idle && shown.is_some_and(|r| adds_moves(&r, view)));
                            match pushed.filter(|view| replay(view).is_some()) {
                                Some(view) => {
                                    accept(*view);
                                    false
                                }
                                None => newer,
                            }
                        }
                        Heard::Open => {
                            push_pace.store(poll_ms, Ordering::Relaxed);
                            super::push::show_state("live");
                            true
                        }
                        Heard::Present(pages) => {
                            let _ = open_pages.try_set(Some(pages as usize));
                            false
                        }
                        Heard::Failed => {
                            let _ = open_pages.try_set(None);
                            push_pace.store(0, Ordering::Relaxed);
                            super::push::show_state("off");
                            false
                        }
                    };
                    if news {
                        nudge.nudge();
                    }
                }
            };
            // A channel the browser gave up on (it does after a refusal) is opened anew now and then.
            let (mut channel, mut reopen_in) = (None::<super::push::PushChannel>, 0u32);
            let mut failures = 0u32;
            // Clock time since the last poll: a hidden tab's timers may wake only once a second (or once
            // a minute), so counting ticks would stretch its polls past the abandonment time.
            let mut last_poll = js_sys::Date::now();
            let mut news = false;
            let mut seen_wake = wake.try_get_untracked().unwrap_or(0);
            let mut was_visible = browser::page_visible();
            while alive.load(Ordering::Relaxed) {
                // A push stays news until a poll has fetched it (not while a move is in flight).
                news |= nudge.sleep(TICK_MS).await;
                reopen_in = reopen_in.saturating_sub(TICK_MS);
                if channel.as_ref().is_some_and(super::push::PushChannel::closed) {
                    channel = None;
                }
                if channel.is_none() && reopen_in == 0 && !matches!(push, api::PushMode::Poll) {
                    channel = super::push::open(&push, &id, heard.clone());
                    reopen_in = REOPEN_PUSH_MS;
                }
                let (Some(wake_now), Some(busy), Some(colour), Some(game)) = (
                    wake.try_get_untracked(),
                    pending.try_with_untracked(Option::is_some),
                    my_colour.try_get_untracked(),
                    live.try_with_untracked(|h| h.as_ref().map(|h| h.current().status())),
                ) else {
                    break;
                };
                let visible = browser::page_visible();
                if visible != was_visible {
                    let _ = visible_signal.try_set(visible);
                }
                let woken = news || wake_now != seen_wake || (visible && !was_visible);
                was_visible = visible;
                let my_turn = colour.is_some() && game.and_then(|s| s.to_move()) == colour;
                let pace = Some(push_pace.load(Ordering::Relaxed)).filter(|&ms| ms > 0);
                let due =
                    if failures > 0 { retry_delay_ms(failures - 1) } else { poll_delay_ms(visible, my_turn, pace) };
                let waited = (js_sys::Date::now() - last_poll).max(0.0) as u32;
                if !woken && waited < due || busy {
                    continue;
                }
                (seen_wake, last_poll, news) = (wake_now, js_sys::Date::now(), false);
                let before = generation.load(Ordering::Relaxed);
                let (Some(tag), Some(seat)) = (etag.try_get_value(), held.try_get_untracked()) else { break };
                let token = seat.map(|s| s.token);
                // A seated page tells the room how many pages it has open, where only they count.
                let pages = token.as_ref().and(open_pages.try_get_untracked().flatten()).map(|n| n as u32);
                match api::fetch_room(&id, tag.as_deref(), token.as_deref(), pages).await {
                    Ok(Fetched::Unchanged) => {
                        failures = 0;
                        offline.set(false);
                    }
                    Ok(Fetched::Room { room: view, etag: tag }) => {
                        failures = 0;
                        offline.set(false);
                        // A move or action answered while this poll was in flight: its room is newer.
                        let unchanged = generation.load(Ordering::Relaxed) == before;
                        if unchanged
                            && pending.try_with_untracked(Option::is_none).unwrap_or(false)
                            && sync(view.as_ref())
                        {
                            etag.set_value(tag);
                        }
                    }
                    Err(ApiError::Network(_)) => {
                        failures += 1;
                        offline.set(true);
                    }
                    Err(_) => failures += 1,
                }
            }
        });
    }

    // Sends a move or action at the version shown. A network failure is retried at the same
    // version, so it lands at most once. A conflict caused by something other than the game (a
    // seat taken, say) is rebased: the same request again at the new version.
    let send = Callback::new({
        let accept = accept.clone();
        move |request: Request| {
            let (Some(seat), Some(mut view)) = (held.get_untracked(), room.get_untracked()) else { return };
            if acting_now.get_untracked() {
                return;
            }
            acting_now.set(true);
            confirm_resign.set(false);
            let id = room_id();
            let accept = accept.clone();
            spawn_local(async move {
                let (mv, action) = match &request {
                    Request::Move(mv) => (Some(mv.clone()), None),
                    Request::Action(action) => (None, Some(*action)),
                };
                let mut attempt = 0;
                loop {
                    match api::act(&id, &seat.token, view.version, mv.clone(), action).await {
                        Ok(next) => {
                            offline.set(false);
                            notice.set(None);
                            accept(next);
                            break;
                        }
                        Err(ApiError::Network(_)) if attempt < 6 => {
                            offline.set(true);
                            TimeoutFuture::new(retry_delay_ms(attempt)).await;
                            attempt += 1;
                        }
                        Err(ApiError::Refused { code, room: current, reason, .. }) => {
                            offline.set(false);
                            if let Some(current) =
                                current.as_ref().filter(|c| code == "version_conflict" && rebase(&view, c))
                            {
                                view = (**current).clone();
                                continue;
                            }
                            let done =
                                attempt > 0 && current.as_ref().is_some_and(|c| landed(&request, &view, c, seat.seat));
                            if let Some(current) = current {
                                accept(*current);
                            }
                            if !done {
                                notice.set(Some(Said::Id(notice_for(U::SLUG, &code, reason.as_deref()))));
                            }
                            break;
                        }
                        Err(ApiError::Network(_)) => break,
                    }
                }
                pending.set(None);
                acting_now.set(false);
                wake.update(|w| *w += 1);
            });
        }
    });

    let needs_confirm = move || shown.with(|g| confirm.needed(U::small_points(g)));
    let commit = move |mv: <U::G as Game>::Move| {
        ghost.set(None);
        notice.set(None);
        pending.set(Some(mv.clone()));
        send.run(Request::Move(serde_json::to_value(&mv).unwrap_or(Value::Null)));
    };
    let offer = move |mv: <U::G as Game>::Move, confirming: bool| {
        if step.get_untracked().is_some() {
            step.set(None);
            return;
        }
        if pending.with_untracked(Option::is_some) || room.with_untracked(Option::is_none) {
            return;
        }
        let acting_as = if over.get_untracked() { None } else { my_colour.get_untracked() };
        let offer =
            shown.with_untracked(|g| judge(g, &mv, acting_as, false, confirming, ghost.get_untracked().as_ref()));
        carry_out::<U::G>(offer, mv, U::SLUG, ghost, |id: Option<String>| notice.set(id.map(Said::Id)), commit);
    };
    let play = Callback::new(move |mv| offer(mv, needs_confirm()));
    let act = Callback::new(move |mv| offer(mv, false));
    // A move waiting for confirmation is dropped when the position changes under it.
    Effect::new(move |_| {
        history.with(History::len);
        ghost.set(None);
    });

    let take_seat = Callback::new({
        let accept = accept.clone();
        move |seat: u8| {
            let id = room_id();
            let accept = accept.clone();
            let config = room.with_untracked(|r| r.as_ref().map(|r| r.config.clone())).unwrap_or(Value::Null);
            spawn_local(async move {
                let game = Some(api::NewRoom { game: U::SLUG.name(), config: &config, takebacks: None });
                match api::join(&id, game, Some(seat), None, &storage::player_name()).await {
                    Ok(joined) => {
                        if let (Some(seat), Some(token)) = (joined.seat, joined.token) {
                            let claimed = HeldSeat { seat, token, game: Some(U::SLUG.name().to_owned()) };
                            storage::hold_seat(&id, &claimed);
                            held.set(Some(claimed));
                        }
                        accept(joined.room);
                    }
                    Err(ApiError::Refused { code, reason, .. }) => {
                        notice.set(Some(Said::Id(notice_for(U::SLUG, &code, reason.as_deref()))))
                    }
                    Err(_) => offline.set(true),
                }
            });
        }
    });

    let names = Signal::derive(move || {
        let mut names = [None, None];
        if let Some(view) = room.get() {
            for seat in &view.seats {
                if let Some(colour) = Seat::from_number(seat.colour) {
                    names[colour.index()] = seat.name.clone();
                }
            }
        }
        names
    });
    let my_seat = move || held.get().map(|h| h.seat);
    let takeback_by = move || room.with(|r| r.as_ref().and_then(|r| r.takeback));
    let takeback_count = move || room.with(|r| r.as_ref().and_then(|r| r.takeback_moves)).unwrap_or(1);
    let policy = move || room.with(|r| r.as_ref().map(|r| r.takebacks.clone())).unwrap_or_default();
    // The other seat's player stopped polling long ago: this player may end the game.
    let opponent_away = move || {
        let me = my_seat()?;
        Some(!over.get() && room.with(|r| r.as_ref()?.seats.iter().find(|s| s.seat != me).map(|s| s.away))?)
    };
    let role_line = move || {
        let view = room.get()?;
        let seat = my_seat();
        Some(match (seat, my_colour.get()) {
            (None, _) => i18n.t("spectating"),
            (Some(_), _) if view.seats.iter().any(|s| !s.taken) => i18n.t("waiting-opponent"),
            (Some(_), colour) if over.get() => {
                let winner = view.result().map(|(w, _)| w).unwrap_or(0);
                match (winner, colour) {
                    (0, _) => i18n.t("role-draw"),
                    (w, Some(c)) if w == c.number() => i18n.t("role-won"),
                    _ => i18n.t("role-lost"),
                }
            }
            (Some(me), _) if takeback_by().is_some() => {
                let asked = takeback_by() == Some(me);
                match (asked, takeback_count()) {
                    (true, 1) => i18n.t("takeback-asked"),
                    (false, 1) => i18n.t("takeback-offered"),
                    (true, n) => i18n.t_with("takeback-asked-both", &[("count", n.into())]),
                    (false, n) => i18n.t_with("takeback-offered-both", &[("count", n.into())]),
                }
            }
            (Some(_), Some(colour)) if shown.with(|g| g.status().to_move()) == Some(colour) => i18n.t("your-turn"),
            (Some(_), _) => i18n.t("their-turn"),
        })
    };
    let seat_buttons = move || {
        let view = room.get()?;
        if held.get().is_some() || watching.get() || view.seats.iter().all(|s| s.taken) {
            return None;
        }
        let buttons = view
            .seats
            .iter()
            .filter(|s| !s.taken)
            .map(|s| {
                let (seat, colour) = (s.seat, Seat::from_number(s.colour).unwrap_or(Seat::One));
                view! {
                    <button class=format!("button seat-{}", colour.number()) id=format!("take-seat-{seat}") on:click=move |_| take_seat.run(seat)>
                        {move || i18n.t_with("take-seat", &[("player", i18n.t(U::colour_id(colour)).into())])}
                    </button>
                }
            })
            .collect_view();
        Some(view! {
            {buttons}
            <button class="button" id="watch" on:click=move |_| watching.set(true)>{tr("watch")}</button>
        })
    };
    let props = BoardProps {
        game: shown.into(),
        before: before.into(),
        last: last.into(),
        acting,
        own_side: my_colour.into(),
        ghost: ghost.into(),
        play,
        act,
        local: false,
        diagram: false,
    };
    let record = Record {
        history,
        names,
        result,
        load: None,
        // A room page shows one room: its code lives as long as the page.
        room: Some(code.get_value().leak()),
        notice: Callback::new(move |text: String| notice.set(Some(Said::Text(text)))),
    };
    let seated = move || held.get().is_some();
    let ended_by_a_player = move || {
        room.with(|r| {
            r.as_ref()
                .and_then(RoomView::result)
                .is_some_and(|(_, reason)| reason == "resigned" || reason == "abandoned")
        })
    };
    let may_ask_takeback = move || {
        seated()
            && takeback_by().is_none()
            && !ended_by_a_player()
            && policy() != "never"
            && history.with(|h| h.len() >= 1)
    };
    let action = move |name: &'static str| move |_| send.run(Request::Action(name));

    view! {
        <section class=format!("game online {}", U::SLUG.name())>
            {super::parts::room_header(room_id())}
            <Show when=move || offline.get()>
                <p class="offline" role="status" id="connection-lost">{tr("connection-lost")}</p>
            </Show>
            <Show when=move || missing.get()>
                <p class="message" role="alert" id="room-missing">{move || i18n.t_with("room-not-found", &[("code", room_id().into())])}</p>
                <p><Link route=Route::Game(U::SLUG) class="button primary">{tr(U::SLUG.title_id())}</Link></p>
            </Show>
            <Show when=move || broken.get()>
                <p class="message" role="alert" id="room-broken">{tr("room-unreadable")}</p>
            </Show>
            <Show when=move || room.with(Option::is_some)
                fallback=move || view! { <p class="loading">{move || if missing.get() || broken.get() { String::new() } else { i18n.t("loading") }}</p> }>
                <p class="role" id="role">{role_line}</p>
                <p class="room-policy" id="takeback-policy">
                    {move || i18n.t_with("takebacks-line", &[("policy", i18n.t(super::takeback_policy_id(&policy())).into())])}
                    // The server's count, or the open pages less the seated players still there
                    // (as the server counts).
                    {move || room.with(|r| {
                        let r = r.as_ref()?;
                        let seated = r.seats.iter().filter(|s| s.taken && !s.away).count();
                        let counted = open_pages.get().map(|n| n.saturating_sub(seated) as u32);
                        r.watching.or(counted).filter(|n| *n > 0)
                    }).map(|n| {
                        format!(" · {}", i18n.t_with("lobby-watching", &[("count", (n as usize).into())]))
                    })}
                </p>
                <Show when=move || opponent_away() == Some(true)>
                    <div class="away" role="status" id="opponent-away">
                        <p>{tr("opponent-away")}</p>
                        <div class="actions">
                            <button class="button primary" id="claim-win" disabled=move || acting_now.get()
                                on:click=action("claim_win")>{tr("claim-win")}</button>
                            <button class="button" id="claim-draw" disabled=move || acting_now.get()
                                on:click=action("claim_draw")>{tr("claim-draw")}</button>
                        </div>
                    </div>
                </Show>
                <Show when=move || !seated() && !watching.get() && room.with(|r| r.as_ref().is_some_and(|r| r.seats.iter().any(|s| !s.taken)))>
                    <label class="name">
                        <span>{tr("your-name")}</span>
                        <input id="player-name" maxlength="24" prop:value=storage::player_name()
                            on:change=move |event| storage::set_player_name(&event_target_value(&event)) />
                    </label>
                </Show>
                <div class="actions seats">{seat_buttons}</div>
                {scoreboard::<U>(shown.into(), result, names)}
                {U::board(props)}
                <ConfirmBar
                    needed=Signal::derive(needs_confirm)
                    waiting=Signal::derive(move || ghost.with(Option::is_some))
                    confirm=Callback::new(move |_| if let Some(mv) = ghost.get_untracked() { commit(mv) })
                    cancel=Callback::new(move |_| ghost.set(None))
                />
                <p class="message" role="alert" id="notice">
                    {move || notice.get().map(|said| match said {
                        Said::Text(text) => text,
                        Said::Id(id) => {
                            let text = i18n.t(&id);
                            // A refusal this version of the site has no words for yet.
                            if text == id { i18n.t("server-error") } else { text }
                        }
                    })}
                </p>
                <div class="actions moves-bar">{move || seated().then(|| U::move_buttons(props))}</div>
                {super::parts::spoken_and_typed::<U>(history, step, acting, act, Callback::new(move |text: String| notice.set(Some(Said::Text(text)))))}
                <Show when=move || seated() && takeback_by().is_some_and(|by| Some(by) != my_seat())>
                    <div class="actions takeback-offer">
                        <button class="button primary" id="accept-takeback" disabled=move || acting_now.get()
                            on:click=action("accept_takeback")>{tr("takeback-accept")}</button>
                        <button class="button" id="decline-takeback" disabled=move || acting_now.get()
                            on:click=action("decline_takeback")>{tr("takeback-decline")}</button>
                    </div>
                </Show>
                {move_list::<U>(history, step)}
                <div class="actions">
                    <Show when=move || may_ask_takeback() && !over.get()>
                        <button class="button" id="takeback" disabled=move || acting_now.get()
                            on:click=action("takeback")>{tr("takeback-ask")}</button>
                    </Show>
                    <Show when=move || seated() && takeback_by() == my_seat() && takeback_by().is_some()>
                        <button class="button" id="withdraw-takeback" disabled=move || acting_now.get()
                            on:click=action("decline_takeback")>{tr("takeback-withdraw")}</button>
                    </Show>
                    <Show when=move || seated() && !over.get()>
                        <button class="button" id="resign" disabled=move || acting_now.get()
                            on:click=move |_| if confirm_resign.get_untracked() { send.run(Request::Action("resign")) } else { confirm_resign.set(true) }>
                            {move || if confirm_resign.get() { i18n.t("resign-confirm") } else { i18n.t("resign") }}
                        </button>
                    </Show>
                    <Show when=move || seated() && over.get()>
                        <button class="button primary" id="rematch" disabled=move || acting_now.get() on:click=action("rematch")>{tr("rematch")}</button>
                    </Show>
                    {save_button::<U>(shown.into(), names)}
                    {U::records(record)}
                </div>
                {super::parts::settings_panel()}
            </Show>
        </section>
    }
}
