//! An online room: seats, share link, live play and spectating. The server's room is the truth: a
//! move shows at once (checked locally with the engine), is sent with the room's version, and is
//! replaced by the server's answer; on a refusal the board returns to the server's state.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::Value;
use tabula_core::popucom::{Cell, Popucom};
use tabula_core::{Game, Seat};

use super::{position, shown, Shown};
use crate::api::{self, ApiError, Fetched, RoomView};
use crate::board::{Board, Replay, Status};
use crate::i18n::use_i18n;
use crate::logic::{colour_id, poll_delay_ms, refusal, retry_delay_ms};
use crate::screenshot::SaveButton;
use crate::storage::{self, HeldSeat};

fn cells(room: &RoomView) -> Vec<Cell> {
    room.moves.iter().filter_map(|mv| serde_json::from_value(mv.clone()).ok()).collect()
}

fn page_visible() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .is_none_or(|d| d.visibility_state() == web_sys::VisibilityState::Visible)
}

/// Whether a request made against `seen` still means the same against `current`: only seats or
/// names changed, not the game (same moves, same game number, same result).
fn rebase(seen: &RoomView, current: &RoomView) -> bool {
    current.version > seen.version
        && current.moves == seen.moves
        && current.game_number == seen.game_number
        && current.result() == seen.result()
}

/// The message for a refusal from the server, by its stable code (never the server's English).
fn notice_for(code: &str, reason: Option<String>) -> Notice {
    match (code, reason) {
        ("version_conflict", _) => Notice::Plain("version-conflict"),
        ("illegal_move", Some(reason)) => Notice::Refused(reason),
        ("seat_taken", _) => Notice::Plain("seat-taken"),
        ("not_a_player", _) => Notice::Plain("not-a-player"),
        ("rate_limited", _) => Notice::Plain("rate-limited"),
        _ => Notice::Plain("server-error"),
    }
}

/// A message shown under the board: a message id, with an argument for some.
#[derive(Clone, Debug, PartialEq)]
enum Notice {
    Plain(&'static str),
    Refused(String),
}

#[component]
pub fn OnlineRoom(code: String) -> impl IntoView {
    let i18n = use_i18n();
    let code = StoredValue::new(code);
    let room_id = move || code.get_value();
    let room = RwSignal::new(None::<RoomView>);
    let etag = StoredValue::new(None::<String>);
    let held = RwSignal::new(None::<HeldSeat>);
    let pending = RwSignal::new(None::<Cell>);
    let notice = RwSignal::new(None::<Notice>);
    let offline = RwSignal::new(false);
    let missing = RwSignal::new(false);
    let other_game = RwSignal::new(None::<String>);
    let step = RwSignal::new(None::<usize>);
    let wake = RwSignal::new(0u32);
    let watching = RwSignal::new(false);
    let acting = RwSignal::new(false);
    let confirm_resign = RwSignal::new(false);
    // Tasks outlive the page (leaving the room does not cancel them); these two live outside the
    // reactive system, so the tasks can see that the page is gone instead of reading disposed
    // signals, and can tell that the room changed while a poll was in flight.
    let alive = Arc::new(AtomicBool::new(true));
    let generation = Arc::new(AtomicU64::new(0));
    {
        let alive = alive.clone();
        on_cleanup(move || alive.store(false, Ordering::Relaxed));
    }

    let accept = {
        let generation = generation.clone();
        move |view: RoomView| {
            generation.fetch_add(1, Ordering::Relaxed);
            etag.set_value(None);
            room.set(Some(view));
        }
    };

    // Open the room (creating it if the code is new) and re-attach a remembered seat. The seat is
    // shown as held at once; only the server saying the token is not a player's drops it. A failed
    // join is retried until it works or the page is left.
    {
        let (alive, accept) = (alive.clone(), accept.clone());
        let id = room_id();
        let remembered = storage::held_seat(&id);
        held.set(remembered.clone());
        spawn_local(async move {
            let mut token = remembered.map(|h| h.token);
            let mut failures = 0;
            while alive.load(Ordering::Relaxed) {
                match api::join(&id, None, token.as_deref(), "").await {
                    Ok(joined) if joined.room.game != "popucom" => {
                        // Rooms of the other games are played through the API until their boards
                        // arrive here: say so, and stop (no polling for a board we cannot draw).
                        other_game.set(Some(joined.room.game));
                        alive.store(false, Ordering::Relaxed);
                        break;
                    }
                    Ok(joined) => {
                        offline.set(false);
                        accept(joined.room);
                        break;
                    }
                    Err(ApiError::Refused { code, .. }) if code == "not_a_player" || code == "room_not_found" => {
                        storage::forget_seat(&id);
                        held.set(None);
                        token = None;
                    }
                    Err(ApiError::Refused { .. }) => {
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

    let live_moves = Memo::new(move |_| {
        let mut moves = room.with(|r| r.as_ref().map(cells).unwrap_or_default());
        moves.extend(pending.get());
        moves
    });
    let my_colour = Memo::new(move |_| {
        let seat = held.get()?.seat;
        room.with(|r| r.as_ref()?.colour_of(seat)).and_then(Seat::from_number)
    });
    let live = Memo::new(move |_| live_moves.with(|m| position(m, m.len())));

    // Poll: about once a second while waiting and visible, slower otherwise, at once when the tab
    // comes back; a failed poll shows "connection lost" and retries with back-off. Reads use `try_`
    // so that a poll finishing after the page is gone ends quietly.
    {
        let (alive, generation) = (alive.clone(), generation.clone());
        let id = room_id();
        spawn_local(async move {
            let mut failures = 0u32;
            let mut waited = 0u32;
            let mut seen_wake = wake.try_get_untracked().unwrap_or(0);
            let mut was_visible = page_visible();
            while alive.load(Ordering::Relaxed) {
                TimeoutFuture::new(250).await;
                waited += 250;
                let (Some(wake_now), Some(busy), Some(colour), Some(game)) = (
                    wake.try_get_untracked(),
                    pending.try_with_untracked(Option::is_some),
                    my_colour.try_get_untracked(),
                    live.try_get_untracked(),
                ) else {
                    break;
                };
                let visible = page_visible();
                let woken = wake_now != seen_wake || (visible && !was_visible);
                was_visible = visible;
                let my_turn = colour.is_some() && game.status().to_move() == colour;
                let due = if failures > 0 { retry_delay_ms(failures - 1) } else { poll_delay_ms(visible, my_turn) };
                if !woken && waited < due || busy {
                    continue;
                }
                seen_wake = wake_now;
                waited = 0;
                let before = generation.load(Ordering::Relaxed);
                let Some(tag) = etag.try_get_value() else { break };
                match api::fetch_room(&id, tag.as_deref()).await {
                    Ok(Fetched::Unchanged) => {
                        failures = 0;
                        offline.set(false);
                    }
                    Ok(Fetched::Room { room: view, etag: tag }) => {
                        failures = 0;
                        offline.set(false);
                        // A move or action answered while this poll was in flight: its room is newer.
                        let unchanged = generation.load(Ordering::Relaxed) == before;
                        if unchanged && pending.try_with_untracked(Option::is_none).unwrap_or(false) {
                            room.set(Some(view));
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
    // version, so it lands at most once. A conflict caused by something other than a move (a seat
    // taken, say) is rebased: the same request again at the new version, if it is still legal.
    let send = Callback::new({
        let accept = accept.clone();
        move |(mv, action): (Option<Cell>, Option<&'static str>)| {
            let (Some(seat), Some(mut view)) = (held.get_untracked(), room.get_untracked()) else { return };
            if acting.get_untracked() {
                return;
            }
            acting.set(true);
            confirm_resign.set(false);
            let id = room_id();
            let accept = accept.clone();
            spawn_local(async move {
                let body = mv.map(|cell| serde_json::to_value(cell).unwrap_or(Value::Null));
                let mut attempt = 0;
                loop {
                    match api::act(&id, &seat.token, view.version, body.clone(), action).await {
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
                        Err(ApiError::Refused { code, room: current, reason, message, .. }) => {
                            offline.set(false);
                            if let Some(current) =
                                current.as_ref().filter(|c| code == "version_conflict" && rebase(&view, c))
                            {
                                view = (**current).clone();
                                continue;
                            }
                            // After a lost answer, the first attempt may have landed: then this is no error.
                            let landed = attempt > 0
                                && current.as_ref().is_some_and(|r| {
                                    r.version == view.version + 1
                                        && match action {
                                            None => body.as_ref() == r.moves.last(),
                                            Some("resign") => {
                                                r.result().is_some_and(|(_, reason)| reason == "resigned")
                                            }
                                            Some(_) => r.game_number == view.game_number + 1,
                                        }
                                });
                            if let Some(current) = current {
                                accept(*current);
                            }
                            if !landed {
                                notice.set(Some(notice_for(&code, reason)));
                            }
                            let _ = message;
                            break;
                        }
                        Err(ApiError::Network(_)) => break,
                    }
                }
                pending.set(None);
                acting.set(false);
                wake.update(|w| *w += 1);
            });
        }
    });

    let on_tap = Callback::new(move |cell: Cell| {
        if step.get_untracked().is_some() {
            step.set(None);
            return;
        }
        if pending.get_untracked().is_some() {
            return;
        }
        let game: Popucom = live.get_untracked();
        match refusal(&game, cell, my_colour.get_untracked()) {
            Some(reason) => notice.set(Some(Notice::Plain(reason))),
            None => {
                notice.set(None);
                pending.set(Some(cell));
                send.run((Some(cell), None));
            }
        }
    });

    let take_seat = Callback::new(move |seat: u8| {
        let id = room_id();
        let accept = accept.clone();
        spawn_local(async move {
            match api::join(&id, Some(seat), None, &storage::player_name()).await {
                Ok(joined) => {
                    if let (Some(seat), Some(token)) = (joined.seat, joined.token) {
                        let claimed = HeldSeat { seat, token };
                        storage::hold_seat(&id, &claimed);
                        held.set(Some(claimed));
                    }
                    accept(joined.room);
                }
                Err(ApiError::Refused { code, reason, .. }) => notice.set(Some(notice_for(&code, reason))),
                Err(_) => offline.set(true),
            }
        });
    });

    let Shown { game: shown, changes: shown_changes, last_move } = shown(move || live_moves.get(), step);
    let result = Signal::derive(move || {
        if step.get().is_some() {
            return super::engine_result(&shown.get());
        }
        room.with(|r| r.as_ref().and_then(RoomView::result))
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
    let over = Signal::derive(move || result.get().is_some());
    let share_url = move || {
        let origin = web_sys::window().and_then(|w| w.location().origin().ok()).unwrap_or_default();
        format!("{origin}/room/{}", room_id())
    };
    let copy_link = move |_| {
        if let Some(window) = web_sys::window() {
            let _ = window.navigator().clipboard().write_text(&share_url());
            notice.set(Some(Notice::Plain("link-copied")));
        }
    };
    let role_line = move || {
        let view = room.get()?;
        Some(match (held.get(), my_colour.get()) {
            (None, _) => i18n.t("spectating"),
            (Some(_), _) if view.seats.iter().any(|s| !s.taken) => i18n.t("waiting-opponent"),
            (Some(_), Some(colour)) if live.get().status().to_move() == Some(colour) => i18n.t("your-turn"),
            (Some(_), _) => i18n.t("their-turn"),
        })
    };
    let seat_buttons = move || {
        let view = room.get()?;
        if held.get().is_some() || watching.get() {
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
                        {move || i18n.t_with("take-seat", &[("player", i18n.t(colour_id(colour)).into())])}
                    </button>
                }
            })
            .collect_view();
        Some(view! {
            {buttons}
            <button class="button" id="watch" on:click=move |_| watching.set(true)>{move || i18n.t("watch")}</button>
        })
    };

    view! {
        <section class="game online">
            <h2 class="room-title">
                {move || i18n.t_with("room-title", &[("code", room_id().into())])}
                <button class="small" id="share-link" on:click=copy_link>{move || i18n.t("share-link")}</button>
            </h2>
            <p class="share-url"><code>{share_url}</code></p>
            <Show when=move || offline.get()>
                <p class="offline" role="status" id="connection-lost">{move || i18n.t("connection-lost")}</p>
            </Show>
            <Show when=move || missing.get()>
                <p class="message" role="alert">{move || i18n.t_with("room-not-found", &[("code", room_id().into())])}</p>
            </Show>
            <Show when=move || other_game.get().is_some()>
                <p class="message" role="alert" id="other-game">
                    {move || i18n.t_with("room-other-game", &[("code", room_id().into()), ("game", other_game.get().unwrap_or_default().into())])}
                </p>
            </Show>
            <Show when=move || room.with(Option::is_some)
                fallback=move || view! { <p>{move || if other_game.get().is_none() { i18n.t("loading") } else { String::new() }}</p> }>
                <p class="role" id="role">{role_line}</p>
                <Show when=move || held.get().is_none() && !watching.get() && room.with(|r| r.as_ref().is_some_and(|r| r.seats.iter().any(|s| !s.taken)))>
                    <label class="name">
                        <span>{move || i18n.t("your-name")}</span>
                        <input id="player-name" maxlength="24" prop:value=storage::player_name()
                            on:change=move |event| storage::set_player_name(&event_target_value(&event)) />
                    </label>
                </Show>
                <div class="actions seats">{seat_buttons}</div>
                <Status game=shown result=result names=names />
                <Board
                    game=shown
                    last_move=last_move
                    changes=shown_changes
                    show_legal=Signal::derive(move || step.get().is_none() && my_colour.get().is_some() && my_colour.get() == live.get().status().to_move())
                    on_tap=on_tap
                />
                <p class="message" role="alert" id="notice">
                    {move || notice.get().map(|n| match n {
                        Notice::Plain(id) => i18n.t(id),
                        Notice::Refused(reason) => {
                            let key = format!("illegal-{reason}");
                            let text = crate::i18n::format(i18n.lang.get(), &key, &[]);
                            // A rule reason this version of the site does not know yet.
                            if text == key { i18n.t("server-error") } else { i18n.t_with("move-refused", &[("reason", text.into())]) }
                        }
                    })}
                </p>
                <Replay moves=live_moves step=step />
                <div class="actions">
                    <Show when=move || held.get().is_some() && !over.get()>
                        <button class="button" id="resign" disabled=move || acting.get()
                            on:click=move |_| if confirm_resign.get_untracked() { send.run((None, Some("resign"))) } else { confirm_resign.set(true) }>
                            {move || if confirm_resign.get() { i18n.t("resign-confirm") } else { i18n.t("resign") }}
                        </button>
                    </Show>
                    <Show when=move || held.get().is_some() && over.get()>
                        <button class="button primary" id="rematch" disabled=move || acting.get() on:click=move |_| send.run((None, Some("rematch")))>{move || i18n.t("rematch")}</button>
                    </Show>
                    <SaveButton game=shown names=names />
                </div>
            </Show>
        </section>
    }
}
