//! Home: every game with its pitch, the rooms this browser sits in, and joining a room by code.

use leptos::prelude::*;

use crate::api::{self, ApiError};
use crate::catalogue::Slug;
use crate::i18n::{tr, use_i18n};
use crate::route::{use_router, valid_room_code, Link, Route};
use crate::storage;

/// Join any room by its code (the room knows its game).
#[component]
pub fn JoinByCode() -> impl IntoView {
    let router = use_router();
    let code = RwSignal::new(String::new());
    let invalid = RwSignal::new(false);
    let join = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        // Codes we make are lower case; a code read aloud or typed on a phone may not be.
        let value = code.get_untracked().trim().to_ascii_lowercase();
        if valid_room_code(&value) {
            router.go(Route::Room(value));
        } else {
            invalid.set(true);
        }
    };
    view! {
        <form class="join" on:submit=join>
            <label>
                <span>{tr("room-code")}</span>
                <input
                    id="room-code"
                    autocomplete="off"
                    maxlength="20"
                    prop:value=move || code.get()
                    on:input=move |event| {
                        code.set(event_target_value(&event));
                        invalid.set(false);
                    }
                />
            </label>
            <button class="button" type="submit" id="join-room">{tr("join-room")}</button>
        </form>
        <Show when=move || invalid.get()>
            <p class="message" role="alert">{tr("room-code-invalid")}</p>
        </Show>
    }
}

#[component]
pub fn Home() -> impl IntoView {
    let i18n = use_i18n();
    // The rooms this browser sits in, read once (the list is for this visit, and empty when
    // pre-rendered); each room is then asked whose move it is, and those waiting for this player
    // come first.
    let held = storage::held_rooms();
    let turns = RwSignal::new(Vec::<(String, bool)>::new());
    for (code, seat) in held.clone() {
        leptos::task::spawn_local(async move {
            match api::room_turn(&code).await {
                Ok(room) => turns.update(|t| t.push((code, room.moves(seat.seat)))),
                Err(ApiError::Refused { .. }) => storage::forget_seat(&code),
                Err(ApiError::Network(_)) => {}
            }
        });
    }
    let continue_list = (!held.is_empty()).then(|| {
        let items = move || {
            let waiting = |code: &str| turns.with(|t| t.iter().any(|(c, mine)| c == code && *mine));
            let mut rooms = held.clone();
            rooms.sort_by_key(|(code, _)| !waiting(code));
            rooms
                .into_iter()
                .map(|(code, seat)| {
                    let game = seat.game.as_deref().and_then(Slug::from_name);
                    let mine = waiting(&code);
                    let href = format!("/room/{code}");
                    let label = move || {
                        let room = i18n.t_with("room-title", &[("code", code.clone().into())]);
                        match game {
                            Some(slug) => format!("{} · {room}", i18n.t(slug.title_id())),
                            None => room,
                        }
                    };
                    view! {
                        <li>
                            <a class="continue" href=href>{label}</a>
                            {mine.then(|| view! { " " <span class="your-move">{tr("your-move")}</span> })}
                        </li>
                    }
                })
                .collect_view()
        };
        view! {
            <h2>{tr("continue-title")}</h2>
            <ul class="continue-list">{items}</ul>
        }
    });
    let cards = Slug::ALL
        .into_iter()
        .map(|slug| {
            view! {
                // The whole card is the link: a big target, and link text that says what it opens.
                <li class="game-card">
                    <Link route=Route::Game(slug) id=slug.name()>
                        <h3>{tr(slug.title_id())}</h3>
                        <p>{tr(slug.pitch_id())}</p>
                    </Link>
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="home">
            <h1 class="page-title">{tr("home-title")}</h1>
            <p class="tagline">{tr("tagline")}</p>
            {continue_list}
            <h2>{tr("pick-game")}</h2>
            <ul class="game-list">{cards}</ul>
            <p class="lobby-link"><Link route=Route::Lobby id="lobby-link">{tr("lobby-open")}</Link></p>
            <h2>{tr("join-title")}</h2>
            <JoinByCode />
        </section>
    }
}
