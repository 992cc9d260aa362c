//! Pages for what is not here: an unknown address, and a room this bundle cannot show (no such
//! room, a game not playable yet, or a room of a game whose bundle the page loader could not pick).

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::api::{self, ApiError};
use crate::browser;
use crate::catalogue::Slug;
use crate::i18n::{tr, use_i18n};
use crate::route::{Link, Route};

#[component]
pub fn NotFound() -> impl IntoView {
    view! {
        <section class="not-found">
            <h1 class="page-title">{tr("not-found-title")}</h1>
            <p>{tr("not-found-text")}</p>
            <p><Link route=Route::Home class="button primary">{tr("home")}</Link></p>
        </section>
    }
}

/// What the room's game is, as far as this page could find out.
#[derive(Clone, Debug, PartialEq)]
enum Found {
    Looking,
    NoRoom,
    Soon(Slug),
    /// A playable game the loader still did not pick, or a game this site does not know.
    Stuck,
}

/// A room opened in a bundle without its game: read the room, then either reload (the page loader
/// now finds its game's bundle), or say there is no such room or that its game is coming.
#[cfg(feature = "home-pages")]
#[component]
pub fn RoomElsewhere(code: String) -> impl IntoView {
    let i18n = use_i18n();
    let found = RwSignal::new(Found::Looking);
    let offline = RwSignal::new(false);
    {
        let code = code.clone();
        spawn_local(async move {
            let mut failures = 0u32;
            loop {
                match api::room_turn(code.clone()).await {
                    Ok(room) => {
                        match Slug::from_name(&room.game) {
                            Some(slug) if slug.has_rooms() => {
                                if !reload_once(&code) {
                                    found.set(Found::Stuck);
                                }
                            }
                            Some(slug) => found.set(Found::Soon(slug)),
                            None => found.set(Found::Stuck),
                        }
                        break;
                    }
                    Err(ApiError::Refused { .. }) => {
                        found.set(Found::NoRoom);
                        break;
                    }
                    Err(ApiError::Network(_)) => {
                        offline.set(true);
                        TimeoutFuture::new(1_000 * (1 << failures.min(4))).await;
                        failures += 1;
                    }
                }
            }
        });
    }
    let title = code.clone();
    view! {
        <section class="game online">
            {crate::play::room_header(title.clone())}
            <Show when=move || offline.get() && found.get() == Found::Looking>
                <p class="offline" role="status" id="connection-lost">{tr("connection-lost")}</p>
            </Show>
            {move || match found.get() {
                Found::Looking => view! { <p class="loading">{tr("loading")}</p> }.into_any(),
                Found::NoRoom => view! {
                    <p class="message" role="alert" id="room-missing">{
                        let code = code.clone();
                        move || i18n.t_with("room-not-found", &[("code", code.clone().into())])
                    }</p>
                    <p><Link route=Route::Home class="button primary">{tr("home")}</Link></p>
                }.into_any(),
                Found::Soon(slug) => view! {
                    <p class="message" role="alert" id="other-game">
                        {move || i18n.t_with("room-other-game", &[("game", i18n.t(slug.title_id()).into())])}
                    </p>
                    <p><Link route=Route::Game(slug) class="button">{tr(slug.title_id())}</Link></p>
                }.into_any(),
                Found::Stuck => view! {
                    <p class="message" role="alert" id="room-broken">{tr("room-unreadable")}</p>
                }.into_any(),
            }}
        </section>
    }
}

/// Reloads the page unless this room was reloaded for the same reason a moment ago (a loader that
/// cannot reach the API would otherwise reload forever).
fn reload_once(code: &str) -> bool {
    let Some(window) = browser::window() else { return false };
    let Ok(Some(session)) = window.session_storage() else { return false };
    let key = format!("tabula.reloaded.{code}");
    if session.get_item(&key).ok().flatten().is_some() {
        let _ = session.remove_item(&key);
        return false;
    }
    let _ = session.set_item(&key, "1");
    window.location().reload().is_ok()
}
