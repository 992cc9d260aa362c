//! The app's frame: header, language switch, and the screen for the current address.

use leptos::prelude::*;

use crate::catalogue::Slug;
use crate::games::screens;
use crate::i18n::{tr, use_i18n, I18n, Lang};
use crate::pages::game::GamePage;
#[cfg(feature = "home-pages")]
#[cfg(feature = "home-pages")]
use crate::pages::home::Home;
#[cfg(feature = "home-pages")]
use crate::pages::missing::NotFound;
#[cfg(feature = "home-pages")]
use crate::pages::missing::RoomElsewhere;
use crate::route::{Link, Route, Router};
use crate::storage;
use crate::{browser, pages};

#[component]
fn LanguageSwitch() -> impl IntoView {
    let i18n = use_i18n();
    let options = move || {
        let chosen = i18n.lang.get();
        let option = |lang: Lang| {
            let selected = if lang == chosen { " selected" } else { "" };
            format!("<option value=\"{}\"{selected}>{}</option>", lang.tag(), lang.native_name())
        };
        Lang::ALL.into_iter().map(option).collect::<String>()
    };
    view! {
        <label class="language">
            <span class="visually-hidden">{tr("language")}</span>
            // The options as one piece of HTML (fewer bytes in every bundle than a view each).
            <select id="language" inner_html=options on:change=move |event| {
                if let Some(lang) = Lang::from_tag(&event_target_value(&event)) {
                    i18n.set(lang);
                }
            }></select>
        </label>
    }
}

/// The app at `route`, in a bundle carrying the screens of `bundle` (`None`: the home bundle).
#[component]
pub fn App(route: Route, bundle: Option<Slug>) -> impl IntoView {
    let i18n = I18n::detect();
    provide_context(i18n);
    let router = Router::install(route);
    provide_context(router);
    let settings = RwSignal::new(storage::settings());
    provide_context(settings);
    Effect::new(move |_| {
        let current = settings.get();
        storage::save_settings(&current);
        // Colour-blind shapes and patterns are CSS, keyed on the root's class.
        if let Some(root) = browser::document().and_then(|d| d.document_element()) {
            let _ = root.class_list().toggle_with_force("colour-blind", current.colour_blind);
        }
    });
    Effect::new(move |_| {
        if let Some(root) = browser::document().and_then(|d| d.document_element()) {
            let _ = root.set_attribute("lang", i18n.lang.get().tag());
        }
        let (title, description) = pages::head(i18n, &router.route.get());
        browser::set_head(&title, &description);
    });
    // Each bundle draws only its own pages (`route.rs` loads the others); in the browser the page's
    // HTML always starts the bundle that draws it.
    let screen = move || match router.route.get() {
        #[cfg(feature = "home-pages")]
        Route::Home => view! { <Home /> }.into_any(),
        #[cfg(feature = "home-pages")]
        Route::NotFound => view! { <NotFound /> }.into_any(),
        #[cfg(feature = "lobby-page")]
        Route::Lobby => view! { <crate::pages::lobby::LobbyPage /> }.into_any(),
        #[cfg(feature = "triplex-select")]
        Route::Game(Slug::Triplex) => view! { <crate::games::triplex::TriplexPage /> }.into_any(),
        #[cfg(feature = "triplex-play")]
        Route::TriplexLevel(number) => view! { <crate::games::triplex::TriplexLevel number=number /> }.into_any(),
        Route::Game(slug) if cfg!(feature = "game-page") && screens(slug).is_some() => {
            view! { <GamePage slug=slug /> }.into_any()
        }
        Route::Local(slug) => screens(slug).map(|s| s.local()).unwrap_or_else(|| ().into_any()),
        Route::Room(code) => match bundle.and_then(screens) {
            Some(screens) if cfg!(feature = "room-screen") => screens.room(code),
            #[cfg(feature = "home-pages")]
            _ => view! { <RoomElsewhere code=code /> }.into_any(),
            #[cfg(not(feature = "home-pages"))]
            _ => ().into_any(),
        },
        _ => ().into_any(),
    };
    view! {
        <header>
            <Link route=Route::Home><span class="logo">{tr("app-title")}</span></Link>
            <LanguageSwitch />
        </header>
        <main>{screen}</main>
    }
}
