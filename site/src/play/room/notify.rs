//! "Notify me when it is my move" in a room, for a seated player: Web Push, all in the site's
//! `/web-push.js` (loaded once a seat is held, after the first paint), which draws its switch here
//! where the server sends pushes and the browser takes them, and a field for a Discord or Slack
//! webhook instead. The room gives it the seat's token, its words, and the device's default (the
//! settings' notification switch).

use leptos::prelude::*;

use super::session::RoomState;
use crate::i18n::I18n;
use crate::play::GameUi;
use crate::{browser, storage};

pub fn push_slot<U: GameUi>(i18n: I18n, state: RoomState<U>) -> impl IntoView {
    Effect::new(move |_| {
        let Some(token) = state.held.with(|held| held.as_ref().map(|h| h.token.clone())) else { return };
        let default = if storage::settings().notify { "1" } else { "0" };
        browser::start_web_push(&[
            ("room", &state.code.get_value()),
            ("token", &token),
            ("default", default),
            ("label", &i18n.t("push-room")),
            // The script writes in why (a word: `denied`, `unsupported`, ...).
            ("failed", &i18n.t_with("push-failed", &[("reason", "REASON".into())])),
            ("webhook", &i18n.t("push-webhook")),
            ("webhook-save", &i18n.t("push-webhook-save")),
            ("webhook-stop", &i18n.t("push-webhook-stop")),
            ("webhook-done", &i18n.t("push-webhook-done")),
            ("webhook-failed", &i18n.t_with("push-webhook-failed", &[("reason", "REASON".into())])),
        ]);
    });
    view! { <div id="push-room"></div> }
}
