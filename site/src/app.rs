//! The app's frame: header, language switch, and the screen for the current address.

use leptos::prelude::*;

use crate::games::{screens, Slug};
use crate::i18n::{I18n, Lang, tr, use_i18n};
use crate::pages::game::GamePage;
use crate::pages::home::Home;
use crate::pages::missing::{NotFound, RoomElsewhere};
use crate::route::{Link, Route, Router};
use crate::{browser, pages};

#[component]
fn LanguageSwitch() -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <label class="language">
            <span class="visually-hidden">{tr("language")}</span>
            <select id="language" on:change=move |event| {
                if let Some(lang) = Lang::from_tag(&event_target_value(&event)) {
                    i18n.set(lang);
                }
            }>
                {Lang::ALL.into_iter().map(|lang| view! {
                    <option value=lang.tag() selected=move || i18n.lang.get() == lang>{lang.native_name()}</option>
                }).collect_view()}
            </select>
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
    Effect::new(move |_| {
        if let Some(root) = browser::document().and_then(|d| d.document_element()) {
            let _ = root.set_attribute("lang", i18n.lang.get().tag());
        }
        let (title, description) = pages::head(i18n, &router.route.get());
        browser::set_head(&title, &description);
    });
    let screen = move || match router.route.get() {
        Route::Home => view! { <Home /> }.into_any(),
        Route::Game(slug) => view! { <GamePage slug=slug /> }.into_any(),
        Route::Local(slug) => match screens(slug) {
            Some(screens) => screens.local(),
            None => view! { <GamePage slug=slug /> }.into_any(),
        },
        Route::Room(code) => match bundle.and_then(screens) {
            Some(screens) => screens.room(code),
            None => view! { <RoomElsewhere code=code /> }.into_any(),
        },
        Route::NotFound => view! { <NotFound /> }.into_any(),
    };
    view! {
        <header>
            <Link route=Route::Home><span class="logo">{tr("app-title")}</span></Link>
            <LanguageSwitch />
        </header>
        <main>{screen}</main>
    }
}
