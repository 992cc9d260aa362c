//! Home: every game with its pitch, the rooms this browser sits in, and joining a room by code.

use leptos::prelude::*;

use crate::api::{self, ApiError};
use crate::browser::escape_html;
use crate::catalogue::Slug;
use crate::i18n::{tr, use_i18n, I18n};
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

/// The shortest ways into a game from its card, as (id, address, message, class): straight to a
/// board (the local screen continues a saved game with the same opponent), quick play with the
/// default options (the game's page starts it), or Triplex's first level.
fn ways_in(slug: Slug) -> Vec<(String, String, &'static str, &'static str)> {
    let id = |way: &str| format!("{}-{way}", slug.name());
    // Every game's own address; `/triplex/<n>` is a level (its route is in the Triplex bundle only).
    let page = Route::Game(slug).path();
    if !slug.has_rooms() {
        return vec![(id("first"), format!("{page}/1"), "card-first-level", "button primary")];
    }
    let local = Route::Local(slug).path();
    let computer = format!("{local}?{}", storage::Opponent::query(2, 1));
    vec![
        (id("computer"), computer, "play-computer", "button primary"),
        (id("quick"), format!("{page}?quick"), "quick-play", "button"),
        (id("local"), local, "play-local", "button"),
    ]
}

/// The game cards, as HTML: the picture (lazy, sized, with its text alternative), title and pitch
/// are one link to the game's page (options, rooms, quick play), a big target whose text says what
/// it opens; the ways in follow. Written as a string: static but for the language, and as
/// components they cost the home's bundle about 2.3 KB more. Every link leaves the home's bundle (a page
/// load), so none needs the router.
fn cards_html(i18n: I18n) -> String {
    let t = |id: &str| escape_html(&i18n.t(id));
    let mut html = String::new();
    for slug in Slug::ALL {
        let (name, title) = (slug.name(), i18n.t(slug.title_id()));
        let alt = escape_html(&i18n.t_with("card-picture", &[("game", title.clone().into())]));
        html += &format!(
            "<li class=\"game-card\"><a class=\"card-link\" id=\"{name}\" href=\"{}\">\
             <img src=\"/pictures/{name}.svg\" alt=\"{alt}\" width=\"240\" height=\"240\" loading=\"lazy\" \
             decoding=\"async\"><span><h3>{}</h3><p>{}</p></span></a><p class=\"card-ways\">",
            Route::Game(slug).path(),
            escape_html(&title),
            t(slug.pitch_id()),
        );
        for (id, href, message, class) in ways_in(slug) {
            html += &format!("<a class=\"{class}\" id=\"{id}\" href=\"{}\">{}</a>", escape_html(&href), t(message));
        }
        html += "</p></li>";
    }
    html
}

// Only in the home's bundle: it asks for `api::room_turn`, which only that bundle carries.
#[cfg(feature = "home-pages")]
#[component]
pub fn Home() -> impl IntoView {
    let i18n = use_i18n();
    // The rooms this browser sits in, read once (the list is for this visit, and empty when
    // pre-rendered); each room is then asked whose move it is, and those waiting for this player
    // come first, the least time left first (a room without a clock after those with one).
    let held = storage::held_rooms();
    // Per room: `None` when it is not this player's move, else the time left (`i64::MAX` untimed).
    let turns = RwSignal::new(Vec::<(String, Option<i64>)>::new());
    for (code, seat) in held.clone() {
        leptos::task::spawn_local(async move {
            match api::room_turn(code.clone()).await {
                Ok(room) => {
                    let left = room.moves(seat.seat).then(|| room.time_left(seat.seat).unwrap_or(i64::MAX));
                    turns.update(|t| t.push((code, left)));
                }
                Err(ApiError::Refused { .. }) => storage::forget_seat(&code),
                Err(ApiError::Network(_)) => {}
            }
        });
    }
    let continue_list = (!held.is_empty()).then(|| {
        let items = move || {
            let left = |code: &str| turns.with(|t| t.iter().find(|(c, _)| c == code).and_then(|(_, left)| *left));
            let waiting = |code: &str| left(code).is_some();
            let mut rooms = held.clone();
            rooms.sort_by_key(|(code, _)| (!waiting(code), left(code).unwrap_or(i64::MAX)));
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
    view! {
        <section class="home">
            <h1 class="page-title">{tr("home-title")}</h1>
            <p class="tagline">{tr("tagline")}</p>
            {continue_list}
            <h2>{tr("pick-game")}</h2>
            <ul class="game-list" inner_html=move || cards_html(i18n)></ul>
            <p class="lobby-link"><Link route=Route::Lobby id="lobby-link">{tr("lobby-open")}</Link></p>
            <h2>{tr("join-title")}</h2>
            <JoinByCode />
        </section>
    }
}
