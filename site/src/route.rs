//! The site's URLs and the address bar (History API), so share links, reloads and the back button
//! work. Each page is served by a bundle: the home bundle (every page that needs no game engine)
//! or a game's bundle (its page, local game and rooms). Moving to a page this bundle cannot show is a
//! full page load; anything else switches screens in place.

use leptos::prelude::*;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::JsCast;

use crate::browser;
use crate::catalogue::Slug;
use tabula_core::GameKind;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    Home,
    /// A game's page: rules, options, new local game, rooms.
    Game(Slug),
    /// A local game on this device; its options are in the query string.
    Local(Slug),
    Room(String),
    /// Public rooms waiting for a player, and public games to watch.
    Lobby,
    /// A Triplex level by its number (0: the pre-rendered page every level starts from). Only the
    /// bundle that shows it knows it (elsewhere its address is "not found", which loads the page).
    #[cfg(feature = "triplex")]
    TriplexLevel(usize),
    NotFound,
}

impl Route {
    pub fn parse(path: &str) -> Route {
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        match parts.as_slice() {
            [] => Route::Home,
            // The first version's local game.
            ["local"] => Route::Local(Slug::Played(GameKind::Popucom)),
            ["lobby"] => Route::Lobby,
            ["room", code] if valid_room_code(code) => Route::Room((*code).to_owned()),
            #[cfg(feature = "triplex")]
            ["triplex", "level"] => Route::TriplexLevel(0),
            #[cfg(feature = "triplex")]
            // Any digits (as the servers route them): a number past the list says "no such level".
            ["triplex", number] if number.bytes().all(|b| b.is_ascii_digit()) => {
                Route::TriplexLevel(number.parse().unwrap_or(usize::MAX))
            }
            [game] => Slug::from_name(game).map_or(Route::NotFound, Route::Game),
            [game, "local"] => match Slug::from_name(game) {
                Some(slug) if slug.has_rooms() => Route::Local(slug),
                Some(slug) => Route::Game(slug),
                None => Route::NotFound,
            },
            _ => Route::NotFound,
        }
    }

    pub fn path(&self) -> String {
        match self {
            Route::Home => "/".to_owned(),
            Route::Game(slug) => format!("/{}", slug.name()),
            Route::Local(slug) => format!("/{}/local", slug.name()),
            Route::Room(code) => format!("/room/{code}"),
            Route::Lobby => "/lobby".to_owned(),
            #[cfg(feature = "triplex")]
            Route::TriplexLevel(0) => "/triplex/level".to_owned(),
            #[cfg(feature = "triplex")]
            Route::TriplexLevel(number) => format!("/triplex/{number}"),
            Route::NotFound => "/404".to_owned(),
        }
    }
}

/// A room code as the API takes it: 1 to 20 letters, digits, `-` or `_`.
pub fn valid_room_code(code: &str) -> bool {
    !code.is_empty() && code.len() <= 20 && code.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The current screen, shared through context.
#[derive(Clone, Copy)]
pub struct Router {
    pub route: RwSignal<Route>,
}

impl Router {
    /// Starts at `route` and follows the back and forward buttons.
    pub fn install(route: Route) -> Router {
        let router = Router { route: RwSignal::new(route) };
        if let Some(window) = browser::window() {
            let on_pop = Closure::<dyn Fn()>::new(move || {
                let route = Route::parse(&browser::path());
                if router.shows_here(&route, None) {
                    router.route.set(route);
                } else {
                    // Back to a page of another bundle: load it.
                    let _ = browser::window().map(|w| w.location().reload());
                }
            });
            let _ = window.add_event_listener_with_callback("popstate", on_pop.as_ref().unchecked_ref());
            // The app lives as long as the page: the listener is never removed.
            on_pop.forget();
        }
        router
    }

    /// Whether this bundle shows `route` (`room_game`: the game of a room, when the caller knows it).
    fn shows_here(&self, route: &Route, room_game: Option<Slug>) -> bool {
        // A room's game is only known once the room is read, so rooms are opened by a page load
        // unless the caller knows the game.
        match *route {
            Route::Home | Route::NotFound => cfg!(feature = "home-pages"),
            Route::Lobby => cfg!(feature = "lobby-page"),
            Route::Game(Slug::Triplex) => cfg!(feature = "triplex-select"),
            #[cfg(feature = "triplex")]
            Route::TriplexLevel(_) => cfg!(feature = "triplex-play"),
            Route::Game(slug) => cfg!(feature = "game-page") && slug.screens_built(),
            Route::Local(slug) => cfg!(feature = "local-screen") && slug.screens_built(),
            Route::Room(_) => cfg!(feature = "room-screen") && room_game.is_some_and(|slug| slug.screens_built()),
        }
    }

    pub fn go(&self, route: Route) {
        self.go_to(route, "", None);
    }

    /// Opens a room whose game the caller knows (it just created it): in place when this bundle
    /// plays that game.
    pub fn open_room(&self, code: String, game: Slug) {
        self.go_to(Route::Room(code), "", Some(game));
    }

    /// Goes to `route` with a query string (`size=19&komi=6.5`, or empty).
    pub fn go_to(&self, route: Route, query: &str, room_game: Option<Slug>) {
        let url = if query.is_empty() { route.path() } else { format!("{}?{query}", route.path()) };
        if !self.shows_here(&route, room_game) {
            browser::load_page(&url);
            return;
        }
        if let Some(history) = browser::window().and_then(|w| w.history().ok()) {
            let _ = history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
        }
        self.route.set(route);
        if let Some(window) = browser::window() {
            window.scroll_to_with_x_and_y(0.0, 0.0);
        }
    }
}

pub fn use_router() -> Router {
    expect_context::<Router>()
}

/// A link: switches screens in place when this bundle shows the page, else a plain page load.
#[component]
pub fn Link(
    route: Route,
    #[prop(optional)] id: Option<&'static str>,
    #[prop(optional)] class: Option<&'static str>,
    children: Children,
) -> impl IntoView {
    let router = use_router();
    let href = route.path();
    view! {
        <a href=href id=id class=class on:click=move |event| {
            if router.shows_here(&route, None) {
                event.prevent_default();
                router.go(route.clone());
            }
        }>{children()}</a>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_round_trip() {
        let routes = [
            Route::Home,
            Route::Game(Slug::Played(GameKind::Go)),
            Route::Game(Slug::Triplex),
            Route::Local(Slug::Played(GameKind::Popucom)),
            Route::Local(Slug::Played(GameKind::Go)),
            Route::Room("abc123".into()),
            Route::Lobby,
            Route::TriplexLevel(37),
            Route::TriplexLevel(0),
        ];
        for route in routes {
            assert_eq!(Route::parse(&route.path()), route);
        }
    }

    #[test]
    fn odd_paths() {
        assert_eq!(Route::parse("/local"), Route::Local(Slug::Played(GameKind::Popucom)), "the first version's URL");
        assert_eq!(Route::parse("/go/"), Route::Game(Slug::Played(GameKind::Go)));
        assert_eq!(Route::parse("/triplex/local"), Route::Game(Slug::Triplex), "a puzzle has no local game");
        assert_eq!(Route::parse("/triplex/724"), Route::TriplexLevel(724));
        assert_eq!(Route::parse("/triplex/12345"), Route::TriplexLevel(12345));
        assert_eq!(Route::parse("/triplex/99999999999999999999999"), Route::TriplexLevel(usize::MAX));
        assert_eq!(Route::parse("/triplex/-1"), Route::NotFound);
        assert_eq!(Route::parse("/room/"), Route::NotFound);
        assert_eq!(Route::parse("/room/a%20b"), Route::NotFound);
        assert_eq!(Route::parse("/nowhere"), Route::NotFound);
        assert_eq!(Route::parse("/go/local/x"), Route::NotFound);
    }
}
