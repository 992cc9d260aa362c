//! The pages that need no game engine: the home, a game's page (rules, options, rooms), a room
//! whose game this bundle cannot show, and "not found". Each page has its own title and
//! description, in the reader's language.

pub mod game;
pub mod home;
#[cfg(any(feature = "lobby-page", feature = "game-page"))]
pub mod lobby;
pub mod missing;

use crate::catalogue::Slug;
use crate::i18n::I18n;
use crate::route::Route;

/// The page's `<title>` and meta description.
pub fn head(i18n: I18n, route: &Route) -> (String, String) {
    match route {
        Route::Room(code) => (i18n.t_with("title-room", &[("code", code.clone().into())]), i18n.t("description-room")),
        #[cfg(page_bundle)]
        _ => page_head(i18n, route),
        // A rooms-only bundle shows nothing else (other addresses load their own bundle), so it
        // carries no other page's words (`build.rs`, which sets `page_bundle`).
        #[cfg(not(page_bundle))]
        _ => (i18n.t("app-title"), String::new()),
    }
}

#[cfg(page_bundle)]
fn page_head(i18n: I18n, route: &Route) -> (String, String) {
    let game = |slug: Slug| i18n.t(slug.title_id());
    match route {
        Route::Home => (i18n.t("title-home"), i18n.t("description-home")),
        Route::Lobby => (i18n.t("title-lobby"), i18n.t("description-lobby")),
        Route::Game(slug) => (i18n.t_with("title-game", &[("game", game(*slug).into())]), i18n.t(slug.pitch_id())),
        Route::Local(slug) => (
            i18n.t_with("title-local", &[("game", game(*slug).into())]),
            i18n.t_with("description-local", &[("game", game(*slug).into())]),
        ),
        Route::Room(_) => head(i18n, route),
        #[cfg(feature = "triplex")]
        Route::TriplexLevel(0) => (i18n.t("title-triplex-levels"), i18n.t("game-triplex-about")),
        #[cfg(feature = "triplex")]
        Route::TriplexLevel(number) => {
            (i18n.t_with("title-triplex-level", &[("level", (*number).into())]), i18n.t("game-triplex-about"))
        }
        Route::NotFound => (i18n.t("title-not-found"), i18n.t("description-home")),
    }
}
