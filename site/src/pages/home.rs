//! Home: pick a game, play locally or online (create a room or join by code), the rules.

use leptos::prelude::*;

use crate::i18n::use_i18n;
use crate::logic::room_code;
use crate::route::{use_router, Link, Route};

fn valid_code(code: &str) -> bool {
    let code = code.trim();
    !code.is_empty() && code.len() <= 20 && code.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

#[component]
pub fn Home() -> impl IntoView {
    let i18n = use_i18n();
    let code = RwSignal::new(String::new());
    let invalid = RwSignal::new(false);
    let router = use_router();
    let create = move |_| {
        let random = (js_sys::Math::random() * 2f64.powi(53)) as u64;
        router.go(Route::Room(room_code(random)));
    };
    let join = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let value = code.get_untracked();
        if valid_code(&value) {
            // Codes we make are lower case; a code read aloud or typed on a phone may not be.
            router.go(Route::Room(value.trim().to_ascii_lowercase()));
        } else {
            invalid.set(true);
        }
    };
    view! {
        <section class="home">
            <p class="tagline">{move || i18n.t("tagline")}</p>
            <h2>{move || i18n.t("pick-game")}</h2>
            <div class="game-card selected" aria-current="true">
                <h3>{move || i18n.t("game-popucom")}</h3>
                <p>{move || i18n.t("game-popucom-about")}</p>
                <div class="actions">
                    <Link route=Route::Local id="play-local" class="button primary">{move || i18n.t("play-local")}</Link>
                    <button class="button" id="create-room" on:click=create>{move || i18n.t("create-room")}</button>
                </div>
                <form class="join" on:submit=join>
                    <label>
                        <span>{move || i18n.t("room-code")}</span>
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
                    <button class="button" type="submit" id="join-room">{move || i18n.t("join-room")}</button>
                </form>
                <Show when=move || invalid.get()>
                    <p class="message" role="alert">{move || i18n.t("room-code-invalid")}</p>
                </Show>
            </div>
            <h2>{move || i18n.t("rules-title")}</h2>
            <ul class="rules">
                <li>{move || i18n.t("rules-place")}</li>
                <li>{move || i18n.t("rules-line")}</li>
                <li>{move || i18n.t("rules-paint")}</li>
                <li>{move || i18n.t("rules-end")}</li>
            </ul>
        </section>
    }
}
