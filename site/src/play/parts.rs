//! The pieces of the game screen around the board: the scoreboard and status line, the move list
//! with its replay slider, the confirm bar, and the rules diagrams.

use leptos::prelude::*;
use tabula_core::{Game, Seat};

use super::{colour_name, BoardProps, GameUi, History};
use crate::browser;
use crate::i18n::{tr, use_i18n, I18n};
use crate::storage::ConfirmMoves;

/// "Black (Ann) wins · by 3.5 points", or "Draw · after 50 moves".
pub fn result_line<U: GameUi>(
    i18n: I18n,
    game: &U::G,
    (winner, reason): &(u8, String),
    names: &[Option<String>; 2],
) -> String {
    // No one played: no winner, no draw.
    if reason == "aborted" {
        return i18n.t("result-aborted");
    }
    let headline = match Seat::from_number(*winner) {
        Some(seat) => i18n.t_with("result-win", &[("player", colour_name::<U>(i18n, seat, names).into())]),
        None => i18n.t("result-draw"),
    };
    format!("{headline} · {}", U::reason(i18n, game, reason))
}

/// Each colour with its figure, then whose turn it is or how the game ended. `result` counts
/// what the moves do not show (a resignation).
pub fn scoreboard<U: GameUi>(
    game: Signal<U::G>,
    result: Signal<Option<(u8, String)>>,
    names: Signal<[Option<String>; 2]>,
) -> impl IntoView {
    let i18n = use_i18n();
    // Both scores as one piece of HTML (fewer bytes than a reactive text each).
    let scores = move || {
        let names = names.get();
        let score = |seat: Seat| {
            let text = game.with(|g| format!("{} {}", colour_name::<U>(i18n, seat, &names), U::score(i18n, g, seat)));
            format!("<span class=\"score score-{}\">{}</span>", seat.number(), browser::escape_html(&text))
        };
        score(Seat::One) + &score(Seat::Two)
    };
    let line = move || {
        let names = names.get();
        game.with(|g| match result.get() {
            Some(result) => result_line::<U>(i18n, g, &result, &names),
            None => {
                let turn = g
                    .status()
                    .to_move()
                    .map(|seat| i18n.t_with("to-move", &[("player", colour_name::<U>(i18n, seat, &names).into())]));
                [turn, U::detail(i18n, g)].into_iter().flatten().collect::<Vec<_>>().join(" · ")
            }
        })
    };
    view! {
        <div class="status">
            <div class="scores" inner_html=scores></div>
            <p class="turn" class:result=move || result.get().is_some() role="status" aria-live="polite">{line}</p>
        </div>
    }
}

/// The moves in the game's notation with a slider: step through any game, finished or in
/// progress. `step` is `None` while following the live game.
pub fn move_list<U: GameUi>(history: Signal<History<U::G>>, step: RwSignal<Option<usize>>) -> impl IntoView {
    let i18n = use_i18n();
    let total = Memo::new(move |_| history.with(History::len));
    let shown = move || step.get().unwrap_or(total.get()).min(total.get());
    let notations = Memo::new(move |_| {
        history.with(|h| {
            h.moves()
                .iter()
                .enumerate()
                .map(|(n, mv)| {
                    let before = h.position(n);
                    let colour = before.mover(mv).map_or(0, Seat::number);
                    (colour, U::notation(before, mv))
                })
                .collect::<Vec<_>>()
        })
    });
    let go_to = move |count: usize| step.set(if count >= total.get_untracked() { None } else { Some(count) });
    // How many moves arrived since this player stepped back (a takeback can lower the total).
    let left_live_at = RwSignal::new(None::<usize>);
    Effect::new(move |_| match step.get() {
        None => left_live_at.set(None),
        Some(_) if left_live_at.get_untracked().is_none() => left_live_at.set(Some(total.get_untracked())),
        Some(_) => {}
    });
    let arrived = Memo::new(move |_| left_live_at.get().map_or(0, |then| total.get().saturating_sub(then)));
    // One piece of HTML (fewer bytes than a view per move); a click is read from its move's id.
    let list = move || {
        let current = shown();
        browser::keep_focus("move-", None);
        notations.with(|notations| {
            let item = |(n, (colour, text)): (usize, &(u8, String))| {
                let (step, mark) = (n + 1, if current == n + 1 { " current" } else { "" });
                format!(
                    "<li><button class=\"move move-{colour}{mark}\" id=\"move-{step}\">{step}. {}</button></li>",
                    browser::escape_html(text)
                )
            };
            notations.iter().enumerate().map(item).collect::<String>()
        })
    };
    let on_click = move |event: web_sys::MouseEvent| {
        let element = browser::event_element(&event);
        let id = element.and_then(|e| e.closest(".move").ok().flatten()).map(|b| b.id());
        if let Some(count) = id.and_then(|id| id.strip_prefix("move-")?.parse().ok()) {
            go_to(count);
        }
    };
    view! {
        <h2 class="moves-title">{tr("moves-title")}</h2>
        <ol class="moves" inner_html=list on:click=on_click></ol>
        <div class="replay">
            <input
                type="range"
                min="0"
                max=move || total.get().to_string()
                prop:value=move || shown().to_string()
                aria-label=tr("moves-title")
                on:input=move |event| go_to(event_target_value(&event).parse().unwrap_or(0))
            />
            <span class="replay-step">
                {move || i18n.t_with("replay-step", &[("step", shown().into()), ("total", total.get().into())])}
            </span>
            // Stepping back stays put when moves arrive; this counts them and goes back to live.
            <button class="small" id="replay-live" on:click=move |_| step.set(None) disabled=move || step.get().is_none()>
                {move || match arrived.get() {
                    0 => i18n.t("replay-live"),
                    count => i18n.t_with("replay-live-new", &[("count", count.into())]),
                }}
            </button>
        </div>
    }
}

/// Shown while a move waits for confirmation: confirm it, or take it back. Placed right under the
/// board, away from pass and resign.
#[component]
pub fn ConfirmBar(
    #[prop(into)] needed: Signal<bool>,
    #[prop(into)] waiting: Signal<bool>,
    confirm: Callback<()>,
    cancel: Callback<()>,
) -> impl IntoView {
    view! {
        // Its room is kept while moves need confirming, so the page does not jump when it shows.
        // Hidden, its buttons can be neither clicked nor focused.
        <div class="confirm-bar" class:hidden=move || !waiting.get() class:off=move || !needed.get()>
            <button class="button primary" id="confirm-move" on:click=move |_| confirm.run(())>{tr("confirm-move")}</button>
            <button class="button" id="cancel-move" on:click=move |_| cancel.run(())>{tr("cancel-move")}</button>
        </div>
    }
}

/// A rules picture: a position reached by `moves` from the default start, with a caption.
pub struct Diagram<G: Game> {
    pub caption: &'static str,
    pub moves: Vec<G::Move>,
    pub config: serde_json::Value,
}

pub fn diagrams<U: GameUi>() -> impl IntoView {
    U::diagrams()
        .into_iter()
        .filter_map(|diagram| {
            let history = History::<U::G>::replay(diagram.config, &diagram.moves).ok()?;
            let before = history.len().checked_sub(1).map(|n| history.position(n).clone());
            let board = still_board::<U>(history.current().clone(), before, history.moves().last().cloned());
            let caption = diagram.caption;
            Some(view! {
                <figure class="diagram">
                    // A picture to a screen reader: the caption says what it shows.
                    <div role="img" aria-label=tr(caption)>{board}</div>
                    <figcaption aria-hidden="true">{tr(caption)}</figcaption>
                </figure>
            })
        })
        .collect_view()
}

/// A game's board as a picture: no input, `last` (played from `before`) marked.
fn still_board<U: GameUi>(game: U::G, before: Option<U::G>, last: Option<<U::G as Game>::Move>) -> AnyView {
    U::board(BoardProps {
        game: Signal::stored(game),
        before: Signal::stored(before),
        last: Signal::stored(last),
        acting: Signal::stored(None),
        own_side: Signal::stored(None),
        ghost: Signal::stored(None),
        play: Callback::new(|_| {}),
        act: Callback::new(|_| {}),
        local: false,
        diagram: true,
    })
}

/// A room's heading: its code, the copy-link button and the link itself. The same on every room
/// page, also the pre-rendered one, whose start script writes the code and link in before the app
/// arrives (so the page's biggest text is painted at once and the app's copy does not move it).
pub fn room_header(code: String) -> impl IntoView {
    let i18n = use_i18n();
    let url = if code.is_empty() { String::new() } else { format!("{}/room/{code}", browser::origin()) };
    let copy = {
        let url = url.clone();
        move |_| {
            browser::copy_text(&url);
            if let Some(notice) = browser::element_by_id::<web_sys::HtmlElement>("link-notice") {
                notice.set_text_content(Some(&i18n.t("link-copied")));
            }
        }
    };
    view! {
        <h1 class="page-title room-title">
            <span class="room-name">{move || i18n.t_with("room-title", &[("code", code.clone().into())])}</span>
            <button class="small" id="share-link" on:click=copy>{tr("share-link")}</button>
        </h1>
        <p class="share-url"><code>{url}</code> <span id="link-notice" role="status"></span></p>
        // Pre-rendered with the header, so a visitor from a shared link reads what the room is at the
        // first paint, before the app has loaded.
        <p class="room-intro">{tr("room-intro")}</p>
    }
}

/// This device's settings, at the foot of every game screen: their heading at first, the settings
/// themselves loaded when it is opened (their code a split module, `browser::OnDemand`). Only in
/// the game screens' bundles: a split function is kept by every bundle that compiles it.
#[cfg(any(feature = "local-screen", feature = "room-screen"))]
pub fn settings_panel() -> impl IntoView {
    let code = RwSignal::new(None::<fn() -> AnyView>);
    let load = move |_| {
        if code.get_untracked().is_none() {
            leptos::task::spawn_local(async move {
                if let Ok(settings) = settings_code().await {
                    code.set(Some(settings));
                }
            });
        }
    };
    view! {
        <details class="settings" on:toggle=load>
            <summary>{tr("settings-title")}</summary>
            {move || code.get().map(|settings| settings())}
        </details>
    }
}

#[cfg(any(feature = "local-screen", feature = "room-screen"))]
#[leptos::wasm_split::wasm_split(game_settings, wasm_split_path = ::leptos::wasm_split, fallible)]
fn settings_code() -> Result<fn() -> AnyView, leptos::wasm_split::SplitLoaderError> {
    Ok(|| settings().into_any())
}

/// The settings themselves: move confirmation, the sound and the notification when it becomes your
/// move, colour-blind shapes.
#[cfg(any(feature = "local-screen", feature = "room-screen"))]
fn settings() -> impl IntoView {
    let settings = crate::storage::use_settings();
    let confirm = move || settings.with(|s| s.confirm);
    let choose = move |event: leptos::ev::Event| {
        let value = match event_target_value(&event).as_str() {
            "always" => ConfirmMoves::Always,
            "never" => ConfirmMoves::Never,
            _ => ConfirmMoves::Auto,
        };
        settings.update(|s| s.confirm = value);
    };
    let option = move |value: &'static str, setting: ConfirmMoves, label: &'static str| {
        view! { <option value=value selected=move || confirm() == setting>{tr(label)}</option> }
    };
    let notify = move |event: leptos::ev::Event| {
        if event_target_checked(&event) {
            browser::ask_to_notify(move |granted| settings.update(|s| s.notify = granted));
        } else {
            settings.update(|s| s.notify = false);
        }
    };
    view! {
            <label class="setting" for="setting-confirm">{tr("settings-confirm")}</label>
            <select id="setting-confirm" on:change=choose>
                {option("auto", ConfirmMoves::Auto, "settings-confirm-auto")}
                {option("always", ConfirmMoves::Always, "settings-confirm-always")}
                {option("never", ConfirmMoves::Never, "settings-confirm-never")}
            </select>
            <label class="setting check">
                <input type="checkbox" id="setting-sound" prop:checked=move || settings.with(|s| s.sound)
                    on:change=move |event| settings.update(|s| s.sound = event_target_checked(&event)) />
                {tr("settings-sound")}
            </label>
            <label class="setting check">
                <input type="checkbox" id="setting-notify" prop:checked=move || settings.with(|s| s.notify) on:change=notify />
                {tr("settings-notify")}
            </label>
            <label class="setting check">
                <input type="checkbox" id="setting-colour-blind" prop:checked=move || settings.with(|s| s.colour_blind)
                    on:change=move |event| settings.update(|s| s.colour_blind = event_target_checked(&event)) />
                {tr("settings-colour-blind")}
            </label>
    }
}

/// For screen readers, each new move said in words (a polite live region); for anyone, a move typed
/// in the game's notation instead of tapped. `act` plays it (checked as a tap is, never held for
/// confirmation); `say` shows a line under the board.
pub fn spoken_and_typed<U: GameUi>(
    history: Signal<History<U::G>>,
    step: RwSignal<Option<usize>>,
    acting: Signal<Option<Seat>>,
    act: Callback<<U::G as Game>::Move>,
    say: Callback<String>,
) -> impl IntoView {
    let i18n = use_i18n();
    let spoken = move || {
        if step.get().is_some() {
            return String::new();
        }
        history.with(|h| match h.len() {
            0 => String::new(),
            n => U::describe(i18n, h.position(n - 1), &h.moves()[n - 1], h.current()),
        })
    };
    // The field is read when the move is sent (no signal per keystroke).
    let submit = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        let Some(field) = browser::element_by_id::<web_sys::HtmlInputElement>("type-move") else { return };
        let text = field.value();
        let parsed = history.with_untracked(|h| U::parse(h.current(), &text, acting.get_untracked()));
        match parsed {
            Some(mv) => {
                field.set_value("");
                act.run(mv);
            }
            None => say.run(i18n.t(&format!("{}-type-hint", U::SLUG.name()))),
        }
    };
    view! {
        <p class="visually-hidden" aria-live="polite" id="move-said">{spoken}</p>
        <form class="type-move" on:submit=submit>
            <label for="type-move">{tr("type-move")}</label>
            <input id="type-move" autocomplete="off" autocapitalize="off" maxlength="12" />
            <button class="button" type="submit" id="type-move-play">{tr("type-move-play")}</button>
        </form>
    }
}
