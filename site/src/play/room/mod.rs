//! An online room: seats, share link, live play, takebacks and spectating. The server's room is the
//! truth: a move shows at once (checked locally with the engine), is sent with the room's version,
//! and is replaced by the server's answer; on a refusal the board returns to the server's state.
//! `session.rs` holds the room's state and its network tasks, `requests.rs` what requests mean (the
//! pure decisions), `clocks.rs` the clocks, `notify.rs` the "notify me" switch; this file the screen, from parts: the role line, the
//! seats, the away notice, the board with its record, the takeback offer and the game's actions.

mod clocks;
mod notify;
mod requests;
mod session;

use std::marker::PhantomData;

use leptos::prelude::*;
use tabula_core::{Game, Seat};

use super::input::{carry_out, judge};
use super::parts::{move_list, scoreboard, ConfirmBar};
use super::picture::save_button;
use super::{BoardProps, Confirm, GameUi, History, Record};
use crate::api::RoomView;
use crate::i18n::{tr, use_i18n, I18n};
use crate::route::Link;
use crate::{browser, storage, Route};
use requests::{Request, Said};
use session::{RoomSession, RoomState};

#[component]
pub fn RoomScreen<U: GameUi>(code: String, #[prop(optional)] ui: PhantomData<U>) -> impl IntoView {
    let _ = ui;
    let i18n = use_i18n();
    let session = RoomSession::<U>::start(code);
    let state = session.state;
    let RoomState { room, held, pending, notice, acting_now, .. } = state;
    let ghost = RwSignal::new(None::<<U::G as Game>::Move>);
    let step = RwSignal::new(None::<usize>);
    let watching = RwSignal::new(false);
    let confirm_resign = RwSignal::new(false);
    let confirm = Confirm::detect();

    let my_colour = Memo::new(move |_| {
        let seat = held.get()?.seat;
        room.with(|r| r.as_ref()?.colour_of(seat)).and_then(Seat::from_number)
    });
    // The server's game with the move in flight on top of it.
    let live = Memo::new(move |_| {
        let mut history = state.server.get()?;
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
    announce_your_move(i18n, state, my_colour, over);

    let send = Callback::new({
        let session = session.clone();
        move |request: Request| {
            confirm_resign.set(false);
            session.send(request);
        }
    });
    let needs_confirm = move || shown.with(|g| confirm.needed(U::small_points(g)));
    let commit = Callback::new({
        let session = session.clone();
        move |mv: <U::G as Game>::Move| {
            ghost.set(None);
            confirm_resign.set(false);
            session.send_move(mv);
        }
    });
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
        carry_out::<U::G>(
            offer,
            mv,
            U::SLUG,
            ghost,
            |id: Option<String>| notice.set(id.map(Said::Id)),
            |mv| commit.run(mv),
        );
    };
    let play = Callback::new(move |mv| offer(mv, needs_confirm()));
    let act = Callback::new(move |mv| offer(mv, false));
    // A move waiting for confirmation is dropped when the position changes under it.
    Effect::new(move |_| {
        history.with(History::len);
        ghost.set(None);
    });
    let take_seat = Callback::new(move |seat: u8| session.take_seat(seat));

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
    let policy = move || room.with(|r| r.as_ref().map(|r| r.takebacks.clone())).unwrap_or_default();
    // The other seat's player stopped polling long ago: this player may end the game.
    let opponent_away = move || {
        let me = my_seat()?;
        Some(!over.get() && room.with(|r| r.as_ref()?.seats.iter().find(|s| s.seat != me).map(|s| s.away))?)
    };
    let your_turn = move |colour: Seat| shown.with(|g| g.status().to_move()) == Some(colour);
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
        room: Some(state.code.get_value().leak()),
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
    let room_id = move || state.code.get_value();

    let review = move |_| review_here(U::SLUG.name(), room);
    let seats = move || seat_buttons::<U>(i18n, state, watching);
    let on_seat = move |event: web_sys::MouseEvent| {
        let id = browser::event_element(&event).map(|b| b.id()).unwrap_or_default();
        if id == "watch" {
            watching.set(true);
        } else if let Some(Ok(seat)) = id.strip_prefix("take-seat-").map(str::parse) {
            take_seat.run(seat);
        }
    };
    view! {
        <section class=format!("game online {}", U::SLUG.name())>
            {super::parts::room_header(room_id())}
            <p class="offline" role="status" id="connection-lost" hidden=move || !state.offline.get()>{tr("connection-lost")}</p>
            // Mounted only when the room is missing: a hidden link named "Go" still reads to
            // Lighthouse as a link without descriptive text.
            <Show when=move || state.missing.get()>
                <p class="message" role="alert" id="room-missing">{move || i18n.t_with("room-not-found", &[("code", room_id().into())])}</p>
                <p><Link route=Route::Game(U::SLUG) class="button primary">{tr(U::SLUG.title_id())}</Link></p>
            </Show>
            <p class="message" role="alert" id="room-broken" hidden=move || !state.broken.get()>{tr("room-unreadable")}</p>
            <Show when=move || room.with(Option::is_some)
                fallback=move || view! { <p class="loading">{move || if state.missing.get() || state.broken.get() { String::new() } else { i18n.t("loading") }}</p> }>
                <p class="role" id="role">{move || role_line(i18n, state, my_colour, over, your_turn)}</p>
                <p class="room-policy" id="takeback-policy">
                    {move || i18n.t_with("takebacks-line", &[("policy", i18n.t(super::takeback_policy_id(&policy())).into())])}
                    {move || watchers(state).map(|n| format!(" · {}", i18n.t_with("lobby-watching", &[("count", n.into())])))}
                </p>
                <div class="away" role="status" id="opponent-away" hidden=move || opponent_away() != Some(true)>
                    <p>{tr("opponent-away")}</p>
                    <div class="actions">
                        <button class="button primary" id="claim-win" disabled=move || acting_now.get()
                            on:click=action("claim_win")>{tr("claim-win")}</button>
                        <button class="button" id="claim-draw" disabled=move || acting_now.get()
                            on:click=action("claim_draw")>{tr("claim-draw")}</button>
                    </div>
                </div>
                <label class="name" hidden=move || seated() || watching.get() || room.with(|r| r.as_ref().is_none_or(|r| r.seats.iter().all(|s| s.taken)))>
                    <span>{tr("your-name")}</span>
                    <input id="player-name" maxlength="24" prop:value=storage::player_name()
                        on:change=move |event| storage::set_player_name(&event_target_value(&event)) />
                </label>
                <div class="actions seats" inner_html=seats on:click=on_seat></div>
                // One child for both: a sixteenth child here would compile the views' code for
                // sixteen-tuples, 1.5 KB of the bundle.
                {(clocks::clocks::<U>(i18n, state), scoreboard::<U>(shown.into(), result, names)).into_any()}
                {U::board(props)}
                <ConfirmBar
                    needed=Signal::derive(needs_confirm)
                    waiting=Signal::derive(move || ghost.with(Option::is_some))
                    confirm=Callback::new(move |_| if let Some(mv) = ghost.get_untracked() { commit.run(mv) })
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
                <div class="actions takeback-offer" hidden=move || !(seated() && takeback_by().is_some_and(|by| Some(by) != my_seat()))>
                        <button class="button primary" id="accept-takeback" disabled=move || acting_now.get()
                            on:click=action("accept_takeback")>{tr("takeback-accept")}</button>
                        <button class="button" id="decline-takeback" disabled=move || acting_now.get()
                            on:click=action("decline_takeback")>{tr("takeback-decline")}</button>
                </div>
                {move_list::<U>(history, step)}
                <div class="actions">
                    <button class="button" id="takeback" hidden=move || !may_ask_takeback() || over.get() disabled=move || acting_now.get()
                        on:click=action("takeback")>{tr("takeback-ask")}</button>
                    <button class="button" id="withdraw-takeback" hidden=move || !(seated() && takeback_by() == my_seat() && takeback_by().is_some())
                        disabled=move || acting_now.get() on:click=action("decline_takeback")>{tr("takeback-withdraw")}</button>
                    <button class="button" id="resign" hidden=move || !seated() || over.get() disabled=move || acting_now.get()
                        on:click=move |_| if confirm_resign.get_untracked() { send.run(Request::Action("resign")) } else { confirm_resign.set(true) }>
                        {move || if confirm_resign.get() { i18n.t("resign-confirm") } else { i18n.t("resign") }}
                    </button>
                    <button class="button primary" id="rematch" hidden=move || !seated() || !over.get() disabled=move || acting_now.get()
                        on:click=action("rematch")>{tr("rematch")}</button>
                    <button class="button" id="review" hidden=move || !over.get() && seated() on:click=review>{tr("review")}</button>
                    {save_button::<U>(shown.into(), names)}
                    {U::records(record)}
                </div>
                {(notify::push_slot::<U>(i18n, state), super::parts::settings_panel()).into_any()}
            </Show>
        </section>
    }
}

/// "Review with the computer" (a finished game, or any game to a spectator): the room's game, as
/// the server sent it, handed to this device's local screen of `game`, which reviews it in the
/// computer player's worker (a room's page has no worker of its own: its bytes are the room's
/// budget). The server's JSON is handed on as it came: writing the game's moves again compiled
/// serde's writing for them into every room's bundle (0.8 to 2.3 KB).
fn review_here(game: &str, room: RwSignal<Option<RoomView>>) {
    let saved = room.with_untracked(|room| {
        let room = room.as_ref()?;
        let mut saved = serde_json::Map::new();
        saved.insert("config".into(), room.config.clone());
        saved.insert("moves".into(), serde_json::Value::Array(room.moves.clone()));
        serde_json::to_string(&saved).ok()
    });
    if let Some(saved) = saved {
        storage::save_game_json(&storage::review_slot(game), &saved);
        browser::load_page(&format!("/{game}/local?review"));
    }
}

/// "Your move": when it becomes this player's move, a chime and a notification (each if the
/// player asked for it), and while the page is in the background, the tab's title and icon say so.
fn announce_your_move<U: GameUi>(i18n: I18n, state: RoomState<U>, my_colour: Memo<Option<Seat>>, over: Signal<bool>) {
    let settings = storage::use_settings();
    let my_move = Memo::new(move |_| {
        let colour = my_colour.get();
        !over.get()
            && colour.is_some()
            && state.server.with(|h| h.as_ref().map(|h| h.current().status().to_move())) == Some(colour)
    });
    Effect::new(move |before: Option<bool>| {
        let now = my_move.get();
        if now && before == Some(false) {
            let settings = settings.get_untracked();
            if settings.sound {
                browser::chime();
            }
            if settings.notify && !browser::page_visible() {
                let title = i18n.t_with("room-title", &[("code", state.code.get_value().into())]);
                browser::notify(&i18n.t("title-your-move"), &title);
            }
        }
        now
    });
    Effect::new(move |_| {
        let waiting = my_move.get() && !state.visible.get();
        browser::set_attention(waiting.then(|| i18n.t("title-your-move")));
    });
    on_cleanup(|| browser::set_attention(None));
}

/// Who this page is in the room, and what it waits for.
fn role_line<U: GameUi>(
    i18n: I18n,
    state: RoomState<U>,
    my_colour: Memo<Option<Seat>>,
    over: Signal<bool>,
    your_turn: impl Fn(Seat) -> bool,
) -> Option<String> {
    let view = state.room.get()?;
    let seat = state.held.get().map(|h| h.seat);
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
        (Some(me), _) if view.takeback.is_some() => {
            let asked = view.takeback == Some(me);
            match (asked, view.takeback_moves.unwrap_or(1)) {
                (true, 1) => i18n.t("takeback-asked"),
                (false, 1) => i18n.t("takeback-offered"),
                (true, n) => i18n.t_with("takeback-asked-both", &[("count", n.into())]),
                (false, n) => i18n.t_with("takeback-offered-both", &[("count", n.into())]),
            }
        }
        (Some(_), Some(colour)) if your_turn(colour) => i18n.t("your-turn"),
        (Some(_), _) => i18n.t("their-turn"),
    })
}

/// How many watch: the server's count, or the open pages less the seated players still there (as
/// the server counts).
fn watchers<U: GameUi>(state: RoomState<U>) -> Option<usize> {
    state.room.with(|r| {
        let r = r.as_ref()?;
        let seated = r.seats.iter().filter(|s| s.taken && !s.away).count();
        let counted = state.open_pages.get().map(|n| n.saturating_sub(seated) as u32);
        r.watching.or(counted).filter(|n| *n > 0).map(|n| n as usize)
    })
}

/// A button for each empty seat, and "watch", for a page that holds no seat: one piece of HTML,
/// whose clicks the row reads from the button's id (`take-seat-<n>`, `watch`).
fn seat_buttons<U: GameUi>(i18n: I18n, state: RoomState<U>, watching: RwSignal<bool>) -> String {
    let Some(view) = state.room.get() else { return String::new() };
    if state.held.get().is_some() || watching.get() || view.seats.iter().all(|s| s.taken) {
        return String::new();
    }
    let mut html = String::new();
    for s in view.seats.iter().filter(|s| !s.taken) {
        let colour = Seat::from_number(s.colour).unwrap_or(Seat::One);
        let label = i18n.t_with("take-seat", &[("player", i18n.t(U::colour_id(colour)).into())]);
        html += &format!(
            "<button class=\"button seat-{}\" id=\"take-seat-{}\">{}</button>",
            colour.number(),
            s.seat,
            browser::escape_html(&label)
        );
    }
    html + &format!("<button class=\"button\" id=\"watch\">{}</button>", browser::escape_html(&i18n.t("watch")))
}
