//! The lobby: public rooms waiting for a player and public games being played, of every game
//! (`/lobby`) or of one (a panel on its page), newest first. It asks the API again every few
//! seconds while the page is shown.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use gloo_timers::future::TimeoutFuture;
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::game::{label_text, time_control_text};
use leptos::wasm_split::SplitLoaderError;

use crate::api::{self, ApiError, Lobby, LobbyRoom};
use crate::browser;
use crate::catalogue::{OptionKind, Slug};
use crate::i18n::{tr, use_i18n, I18n};
use crate::route::{Link, Route};

/// How often the lists are read again while the page is shown.
const REFRESH_MS: u32 = 4_000;

/// A room's options as its game's page names them (`Board size 13 × 13`, `Komi 6.5`).
fn options_text(i18n: I18n, slug: Slug, options: &[(String, String)]) -> Vec<String> {
    let known = slug.options().iter().filter_map(|option| {
        let (_, value) = options.iter().find(|(key, _)| key == option.key)?;
        let value = match option.kind {
            OptionKind::Choice(choices) => {
                choices.iter().find(|c| c.value == value).map_or(value.clone(), |c| label_text(i18n, c.label))
            }
            _ => value.clone(),
        };
        Some(format!("{} {value}", i18n.t(option.label)))
    });
    known.collect()
}

/// "3 min ago" from an RFC 3339 time.
fn since_text(i18n: I18n, since: &str) -> String {
    let minutes = ((js_sys::Date::now() - js_sys::Date::parse(since)) / 60_000.0).max(0.0);
    if minutes.is_nan() {
        return String::new();
    }
    i18n.t_with("lobby-since", &[("minutes", (minutes as usize).into())])
}

fn room_row(i18n: I18n, room: LobbyRoom, waiting: bool) -> AnyView {
    let slug = Slug::from_name(&room.game);
    let game = slug.map(|s| i18n.t(s.title_id())).unwrap_or_else(|| room.game.clone());
    let mut details: Vec<String> = Vec::new();
    if let Some(slug) = slug {
        details.extend(options_text(i18n, slug, &room.options));
    }
    if room.clock.is_some() {
        details.push(time_control_text(i18n, room.clock));
    }
    if waiting {
        details.push(room.name.clone().unwrap_or_else(|| i18n.t("lobby-someone")));
        details.push(since_text(i18n, &room.since));
    } else {
        let names: Vec<String> =
            room.players.iter().map(|p| p.clone().unwrap_or_else(|| i18n.t("lobby-someone"))).collect();
        details.push(names.join(&format!(" {} ", i18n.t("lobby-versus"))));
        details.push(i18n.t_with("lobby-moves", &[("moves", (room.moves as usize).into())]));
        if let Some(n) = room.watching.filter(|n| *n > 0) {
            details.push(i18n.t_with("lobby-watching", &[("count", (n as usize).into())]));
        }
    }
    let action = i18n.t(if waiting { "lobby-join" } else { "lobby-watch" });
    view! {
        <li class="lobby-room">
            <span class="lobby-game">{game}</span>
            <span class="lobby-who">{details.join(" · ")}</span>
            <a class="button" href=format!("/room/{}", room.room_id)>{action}</a>
        </li>
    }
    .into_any()
}

/// The lists' request and its reader, loaded after the page's first paint (see
/// `browser::OnDemand`): the lists say "reading" until they answer anyway.
#[leptos::wasm_split::wasm_split(lobby_read, wasm_split_path = ::leptos::wasm_split, fallible)]
fn lobby_code() -> Result<browser::OnDemand<Option<&'static str>, Result<Lobby, ApiError>>, SplitLoaderError> {
    Ok(|game| Box::pin(api::lobby(game)))
}

/// The two lists, of `game` or of every game.
#[component]
pub fn LobbyList(#[prop(optional)] game: Option<Slug>) -> impl IntoView {
    let i18n = use_i18n();
    let lobby = RwSignal::new(None::<Lobby>);
    let failed = RwSignal::new(false);
    // The loop ends when the page goes (tasks outlive it; see the room page).
    let alive = Arc::new(AtomicBool::new(true));
    {
        let alive = alive.clone();
        on_cleanup(move || alive.store(false, Ordering::Relaxed));
    }
    spawn_local(async move {
        while alive.load(Ordering::Relaxed) {
            if browser::page_visible() {
                let read = match lobby_code().await {
                    Ok(read) => read(game.map(Slug::name)).await,
                    Err(_) => Err(ApiError::code_not_loaded()),
                };
                match read {
                    Ok(read) if alive.load(Ordering::Relaxed) => {
                        lobby.set(Some(read));
                        failed.set(false);
                    }
                    Ok(_) => break,
                    Err(_) if alive.load(Ordering::Relaxed) => failed.set(true),
                    Err(_) => break,
                }
            }
            TimeoutFuture::new(REFRESH_MS).await;
        }
    });
    let list = move |waiting: bool| {
        move || {
            let rooms = lobby.with(|l| l.as_ref().map(|l| if waiting { l.waiting.clone() } else { l.playing.clone() }));
            match rooms {
                None => view! { <p class="lobby-empty">{tr("lobby-reading")}</p> }.into_any(),
                Some(rooms) if rooms.is_empty() => {
                    let empty = if waiting { "lobby-none-waiting" } else { "lobby-none-playing" };
                    view! { <p class="lobby-empty">{tr(empty)}</p> }.into_any()
                }
                Some(rooms) => {
                    let rows = rooms.into_iter().map(|room| room_row(i18n, room, waiting)).collect_view();
                    let id = if waiting { "lobby-waiting" } else { "lobby-playing" };
                    view! { <ul class="lobby-list" id=id>{rows}</ul> }.into_any()
                }
            }
        }
    };
    view! {
        <div class="lobby" aria-live="polite">
            <h2>{tr("lobby-waiting")}</h2>
            {list(true)}
            <h2>{tr("lobby-playing")}</h2>
            {list(false)}
            {move || failed.get().then(|| view! { <p class="message" role="alert">{tr("connection-lost")}</p> })}
        </div>
    }
}

/// `/lobby`: every game's public rooms.
#[component]
pub fn LobbyPage() -> impl IntoView {
    let i18n = use_i18n();
    // Link text that says where it goes ("Go" alone reads as a verb to a search engine).
    let games = Slug::ALL
        .into_iter()
        .filter(|slug| slug.has_rooms())
        .map(|slug| {
            let text = move || i18n.t_with("lobby-start-game", &[("game", i18n.t(slug.title_id()).into())]);
            view! { <li><Link route=Route::Game(slug)>{text}</Link></li> }
        })
        .collect_view();
    view! {
        <section class="lobby-page">
            <h1 class="page-title">{tr("lobby-title")}</h1>
            <p class="tagline">{tr("lobby-tagline")}</p>
            <LobbyList />
            <h2>{tr("lobby-start")}</h2>
            <ul class="lobby-games">{games}</ul>
        </section>
    }
}
