//! Tabula's web app: a Leptos client-side app compiled to WASM. It shares `tabula-core` with the
//! server to show legal moves and play local games; online, the server's answer always wins.

mod api;
mod board;
mod i18n;
pub mod logic;
mod pages;
mod route;
mod screenshot;
mod storage;

use leptos::prelude::*;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::i18n::{use_i18n, I18n, Lang};
use crate::route::{Link, Route, Router};

#[component]
fn LanguageSwitch() -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <label class="language">
            <span class="visually-hidden">{move || i18n.t("language")}</span>
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

#[component]
fn App() -> impl IntoView {
    let i18n = I18n::detect();
    provide_context(i18n);
    Effect::new(move |_| {
        if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
            let _ = root.set_attribute("lang", i18n.lang.get().tag());
        }
    });
    let router = Router::install();
    provide_context(router);
    let screen = move || match router.route.get() {
        Route::Home => view! { <pages::home::Home /> }.into_any(),
        Route::Local => view! { <pages::local::LocalGame /> }.into_any(),
        Route::Room(code) => view! { <pages::online::OnlineRoom code=code /> }.into_any(),
    };
    view! {
        <header>
            <Link route=Route::Home><span class="logo">{move || i18n.t("app-title")}</span></Link>
            <LanguageSwitch />
        </header>
        <main>{screen}</main>
    }
}

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
    mount_to_body(App);
}
