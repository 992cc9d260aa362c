//! An online room: seats, share link, live play, takebacks and spectating. The server's room is the
//! truth: a move shows at once (checked locally with the engine), is sent with the room's version,
//! and is replaced by the server's answer; on a refusal the board returns to the server's state.
//! `session.rs` holds the room's state and its requests, `keep_up.rs` the poll and push,
//! `requests.rs` what requests mean; this file is the screen.

mod keep_up;
mod requests;
mod seats;
mod session;

use std::marker::PhantomData;

use leptos::prelude::*;
use serde_json::Value;
use tabula_core::{Game, Seat};

use super::input::{carry_out, judge};
use super::parts::{move_list, scoreboard, ConfirmBar};
use super::picture::save_button;
use super::{BoardProps, Confirm, GameUi, History, Record};
use crate::api::RoomView;
use crate::i18n::{tr, use_i18n};
use crate::route::Link;
use crate::{browser, Route};
use requests::{Request, Said};
use session::{RoomSession, RoomState};

#[component]
pub fn RoomScreen<U: GameUi>(code: String, #[prop(optional)] ui: PhantomData<U>) -> impl IntoView {
    let _ = ui;
    let i18n = use_i18n();
    let session = RoomSession::<U>::new(code);
    let state = session.state;
    let RoomState {
        code,
        room,
        server,
        pending,
        notice,
        offline,
        missing,
        broken,
        acting_now,
        visible,
        confirm_resign,
        my_colour,
        live,
        ..
    } = state;
    let room_id = move || code.get_value();
    let ghost = RwSignal::new(None::<<U::G as Game>::Move>);
    let step = RwSignal::new(None::<usize>);
    let watching = RwSignal::new(false);
    let confirm = Confirm::detect();
    session.open();

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
    let over = Signal::derive(move || state.over());
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

    keep_up::keep_up(session.clone());

    let send = Callback::new({
        let session = session.clone();
        move |request: Request| session.send(request)
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
    let seated = move || state.seated();
    let (my_seat, takeback_by) = (move || state.my_seat(), move || state.takeback_by());
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
            && state.policy() != "never"
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
                <p class="role" id="role">{seats::role_line::<U>(i18n, state, shown)}</p>
                {seats::policy_line::<U>(i18n, state)}
                {seats::away_notice::<U>(state, send)}
                {seats::seat_picker::<U>(i18n, state, watching, take_seat)}
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
                {seats::takeback_offer::<U>(state, send)}
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
