//! Every page's first HTML, rendered at build time from the same components the browser runs (in
//! English, the pre-rendered language), so the first paint shows the page before any WASM arrives,
//! laid out exactly as the app will draw it.

use any_spawner::{CustomExecutor, Executor, PinnedFuture, PinnedLocalFuture};
use leptos::prelude::*;
use serde::Serialize;

use crate::app::App;
use crate::catalogue::Slug;
use crate::i18n::{I18n, Lang};
use crate::route::Route;

/// One HTML file of the built site.
#[derive(Clone, Debug, Serialize)]
pub struct Page {
    /// The address it answers (`/go/local`; rooms: `/room/`).
    pub path: String,
    /// Where it goes in the built site (`go/local.html`).
    pub file: String,
    /// The bundle its script loads: `home` or a game's name; `loader` for rooms, whose bundle
    /// depends on the room's game.
    pub bundle: String,
    pub title: String,
    pub description: String,
    /// Search engines should not index it (rooms are private games).
    pub noindex: bool,
    /// Listed in the sitemap.
    pub public: bool,
    /// The game whose stylesheet the page inlines (its board is pre-rendered).
    pub game: Option<String>,
    pub body: String,
}

/// Effects and tasks do not run at build time: the page is what the components draw first.
struct NoTasks;

impl CustomExecutor for NoTasks {
    fn spawn(&self, _: PinnedFuture<()>) {}
    fn spawn_local(&self, _: PinnedLocalFuture<()>) {}
    fn poll_local(&self) {}
}

fn render(route: Route, bundle: Option<Slug>) -> String {
    let owner = Owner::new();
    owner.with(|| view! { <App route=route bundle=bundle /> }.to_html())
}

/// The site's stylesheet (`static/style.css`), minified: every page inlines it.
pub fn site_style() -> &'static str {
    include_str!(concat!(env!("OUT_DIR"), "/site.css"))
}

/// What every page but a room's adds to the site's stylesheet (`static/pages.css`), minified.
pub fn pages_style() -> &'static str {
    include_str!(concat!(env!("OUT_DIR"), "/pages.css"))
}

/// Each game's stylesheet, by game name.
pub fn styles() -> Vec<(&'static str, &'static str)> {
    let games = Slug::ALL.into_iter().filter_map(|slug| Some((slug.name(), crate::games::screens(slug)?.css())));
    games.chain([("triplex", crate::games::triplex::CSS)]).collect()
}

/// Each game's picture on the home, by game name: SVG files the build writes to `/pictures/`.
pub fn pictures() -> Vec<(&'static str, String)> {
    crate::pictures::all()
}

/// The languages the browser fetches (all but English): tag and messages.
pub fn locales() -> Vec<(&'static str, &'static [(&'static str, &'static str)])> {
    Lang::ALL.into_iter().filter(|l| *l != Lang::En).filter_map(|l| Some((l.tag(), crate::i18n::table(l)?))).collect()
}

/// The bundle of the computer player (`worker.rs`).
pub const AI_BUNDLE: &str = "ai";

/// A WASM bundle the build makes, and the site's Cargo features it is built with.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bundle {
    pub name: String,
    pub features: Vec<&'static str>,
}

/// The bundles: `home` (the home, "not found", a room of a game it cannot tell), `lobby`, then for
/// each game with rooms its page (`go-page`: options, rules pictures, a new room), its local game
/// (`go`) and its rooms (`go-room`, which the room page's loader picks), and the puzzle's
/// `triplex-page` (the level select) and `triplex` (a level). Moving between them is a page load.
pub fn bundles() -> Vec<Bundle> {
    let mut bundles = vec![
        Bundle { name: "home".into(), features: vec!["home-pages"] },
        Bundle { name: "lobby".into(), features: vec!["lobby-page"] },
    ];
    for slug in Slug::ALL.into_iter().filter(|s| s.has_rooms()) {
        let game = slug.name();
        bundles.push(Bundle { name: format!("{game}-page"), features: vec![game, "game-page"] });
        bundles.push(Bundle { name: game.into(), features: vec![game, "local-screen"] });
        bundles.push(Bundle { name: format!("{game}-room"), features: vec![game, "room-screen"] });
    }
    bundles.push(Bundle { name: "triplex-page".into(), features: vec!["triplex-select"] });
    bundles.push(Bundle { name: "triplex".into(), features: vec!["triplex-play"] });
    // The computer player, run by local games in a Web Worker; no page starts it.
    bundles.push(Bundle { name: AI_BUNDLE.into(), features: vec!["ai-worker"] });
    bundles
}

pub fn pages() -> Vec<Page> {
    let _ = Executor::init_custom_executor(NoTasks);
    let owner = Owner::new();
    let i18n = owner.with(|| I18n { lang: RwSignal::new(Lang::En) });
    let page = |route: Route, file: &str, bundle: Option<Slug>, public: bool| {
        let (title, description) = owner.with(|| crate::pages::head(i18n, &route));
        let noindex = matches!(route, Route::Room(_));
        let bundle_name = match (&route, bundle) {
            (Route::Room(_), _) => "loader".to_owned(),
            (Route::Lobby, _) => "lobby".to_owned(),
            (Route::Game(Slug::Triplex), _) => "triplex-page".to_owned(),
            (Route::TriplexLevel(_), _) => "triplex".to_owned(),
            (Route::Game(_), Some(slug)) => format!("{}-page", slug.name()),
            (_, Some(slug)) => slug.name().to_owned(),
            (_, None) => "home".to_owned(),
        };
        let path = if noindex { "/room/".to_owned() } else { route.path() };
        let game = match &route {
            Route::Game(slug) | Route::Local(slug) => Some(slug.name().to_owned()),
            Route::TriplexLevel(_) => Some("triplex".to_owned()),
            _ => None,
        };
        Page {
            path,
            file: file.to_owned(),
            bundle: bundle_name,
            title,
            description,
            noindex,
            public,
            game,
            body: render(route, bundle),
        }
    };
    let mut pages = vec![page(Route::Home, "index.html", None, true), page(Route::Lobby, "lobby.html", None, true)];
    for slug in Slug::ALL {
        pages.push(page(Route::Game(slug), &format!("{}.html", slug.name()), Some(slug), true));
        if slug.has_rooms() {
            pages.push(page(Route::Local(slug), &format!("{}/local.html", slug.name()), Some(slug), true));
        }
    }
    // Every `/triplex/<n>` is this page; the app reads the level from the address.
    pages.push(page(Route::TriplexLevel(0), "triplex/level.html", Some(Slug::Triplex), false));
    pages.push(page(Route::Room(String::new()), "room.html", None, false));
    pages.push(page(Route::NotFound, "404.html", None, false));
    pages
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_renders_its_own_content() {
        let pages = pages();
        let find = |file: &str| pages.iter().find(|p| p.file == file).unwrap_or_else(|| panic!("no {file}"));
        assert!(find("index.html").body.contains("POPUCOM three-match chess"));
        assert!(find("go.html").body.contains("id=\"play-local\""), "Go's page offers a local game");
        assert!(find("triplex.html").body.contains("id=\"level-1\""), "Triplex's page lists its levels");
        assert_eq!(
            (find("triplex.html").bundle.as_str(), find("triplex/level.html").bundle.as_str()),
            ("triplex-page", "triplex")
        );
        assert_eq!((find("index.html").bundle.as_str(), find("lobby.html").bundle.as_str()), ("home", "lobby"));
        assert!(find("edges/local.html").body.contains("id=\"edge-127\""), "the local game shows its board");
        assert!(find("popucom/local.html").body.contains("id=\"cell-40\""), "the local game shows its board");
        assert_eq!(find("go/local.html").bundle, "go");
        assert_eq!(find("go.html").bundle, "go-page");
        assert_eq!(find("room.html").bundle, "loader");
        assert!(find("room.html").noindex && !find("room.html").public);
        let titles: std::collections::BTreeSet<_> = pages.iter().map(|p| p.title.clone()).collect();
        assert_eq!(titles.len(), pages.len(), "every page has its own title");
        let names: Vec<String> = bundles().into_iter().map(|b| b.name).collect();
        assert_eq!(
            names,
            ["home", "lobby", "popucom-page", "popucom", "popucom-room", "go-page", "go", "go-room"]
                .into_iter()
                .chain(["edges-page", "edges", "edges-room", "chess-page", "chess", "chess-room"])
                .chain(["triplex-page", "triplex", "ai"])
                .collect::<Vec<_>>()
        );
    }
}
