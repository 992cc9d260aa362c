//! A local game: two players on one device, with unlimited takeback, resign, replay, and the game
//! kept in the browser so a reload resumes it. Options come from the address (`/go/local?size=19`).

use std::marker::PhantomData;

use leptos::prelude::*;
use tabula_core::{Game, Seat};

use super::input::{carry_out, judge};
use super::parts::{move_list, scoreboard, ConfirmBar};
use super::picture::save_button;
use super::{BoardProps, Confirm, GameUi, History, Record};
use crate::browser;
use crate::games::{config_of, option_values};
use crate::i18n::{tr, use_i18n};
use crate::storage::{self, SavedGame};

/// The game to start with: the saved one if it has these options (or none were given: "continue"),
/// else a new one.
fn starting_history<U: GameUi>() -> (History<U::G>, Option<String>) {
    let query = browser::query();
    let fresh = U::complete_config(config_of(&option_values(U::SLUG, &query))).and_then(History::<U::G>::new);
    let fresh = match fresh {
        Ok(history) => history,
        // Options the engine refuses (a handicap too large for the board, say): say so, play the defaults.
        Err(error) => {
            let default = History::<U::G>::new(serde_json::json!({})).expect("the default config is valid");
            return (default, Some(error));
        }
    };
    let saved = storage::saved_game(U::SLUG.name()).and_then(|saved| {
        let moves: Vec<_> = saved.moves.into_iter().map(serde_json::from_value).collect::<Result<_, _>>().ok()?;
        History::<U::G>::replay(saved.config, &moves).ok()
    });
    match saved {
        Some(saved) if query.is_empty() || saved.config() == fresh.config() => (saved, None),
        _ => (fresh, None),
    }
}

#[component]
pub fn LocalScreen<U: GameUi>(#[prop(optional)] ui: PhantomData<U>) -> impl IntoView {
    let _ = ui;
    let i18n = use_i18n();
    let (start, config_error) = starting_history::<U>();
    let history = RwSignal::new(start);
    let step = RwSignal::new(None::<usize>);
    let ghost = RwSignal::new(None::<<U::G as Game>::Move>);
    let message = RwSignal::new(config_error.map(|e| i18n.t_with("options-refused", &[("reason", e.into())])));
    let resigned = RwSignal::new(None::<Seat>);
    let confirm_resign = RwSignal::new(false);
    let confirm = Confirm::detect();

    Effect::new(move |_| {
        history.with(|h| {
            let moves = h.moves().iter().filter_map(|m| serde_json::to_value(m).ok()).collect();
            storage::save_game(U::SLUG.name(), &SavedGame { config: h.config().clone(), moves });
        })
    });

    let count = Memo::new(move |_| step.get().unwrap_or(usize::MAX).min(history.with(History::len)));
    let shown = Memo::new(move |_| history.with(|h| h.position(count.get()).clone()));
    let before = Memo::new(move |_| count.get().checked_sub(1).map(|n| history.with(|h| h.position(n).clone())));
    let last = Memo::new(move |_| count.get().checked_sub(1).and_then(|n| history.with(|h| h.moves().get(n).cloned())));
    let result = Signal::derive(move || match resigned.get() {
        Some(seat) => Some((seat.other().number(), "resigned".to_owned())),
        None => shown.with(|g| g.status().outcome().map(|o| (o.winner.map_or(0, Seat::number), o.reason.to_owned()))),
    });
    let live = move || step.get().is_none() && resigned.get().is_none();
    let acting = Signal::derive(move || if live() { shown.with(|g| g.status().to_move()) } else { None });
    let needs_confirm = move || shown.with(|g| confirm.needed(U::small_points(g)));

    let commit = move |mv: <U::G as Game>::Move| {
        let pushed = history.try_update(|h| h.push(mv)).unwrap_or(Ok(()));
        if let Err(error) = pushed {
            message.set(Some(i18n.t(&format!("illegal-{}", tabula_core::Rejection::code(&error)))));
            return;
        }
        ghost.set(None);
        message.set(None);
        confirm_resign.set(false);
    };
    let offer = move |mv: <U::G as Game>::Move, confirming: bool| {
        if step.get_untracked().is_some() {
            step.set(None);
            return;
        }
        let offer = shown.with_untracked(|g| {
            judge(g, &mv, acting.get_untracked(), true, confirming, ghost.get_untracked().as_ref())
        });
        carry_out::<U::G>(
            offer,
            mv,
            U::SLUG,
            ghost,
            |id: Option<String>| message.set(id.map(|id| i18n.t(&id))),
            commit,
        );
    };
    let play = Callback::new(move |mv| offer(mv, needs_confirm()));
    let act = Callback::new(move |mv| offer(mv, false));
    let names = Signal::derive(|| [None, None]);
    let props = BoardProps {
        game: shown.into(),
        before: before.into(),
        last: last.into(),
        acting,
        own_side: Signal::stored(None),
        ghost: ghost.into(),
        play,
        act,
        local: true,
        diagram: false,
    };
    let record = Record {
        history: history.into(),
        names,
        result,
        load: Some(Callback::new(move |loaded: History<U::G>| {
            history.set(loaded);
            resigned.set(None);
            ghost.set(None);
            step.set(None);
        })),
        room: None,
        notice: Callback::new(move |text: String| message.set(Some(text))),
    };
    let can_take_back = move || history.with(|h| h.len() > 0) && step.get().is_none();
    view! {
        <section class=format!("game local {}", U::SLUG.name())>
            <h1 class="page-title">{move || i18n.t_with("local-title", &[("game", i18n.t(U::SLUG.title_id()).into())])}</h1>
            {scoreboard::<U>(shown.into(), result, names)}
            {U::board(props)}
            <ConfirmBar
                needed=Signal::derive(needs_confirm)
                waiting=Signal::derive(move || ghost.with(Option::is_some))
                confirm=Callback::new(move |_| if let Some(mv) = ghost.get_untracked() { commit(mv) })
                cancel=Callback::new(move |_| ghost.set(None))
            />
            <p class="message" role="alert" id="notice">{move || message.get()}</p>
            <div class="actions moves-bar">{U::move_buttons(props)}</div>
            {super::parts::spoken_and_typed::<U>(history.into(), step, acting, act, Callback::new(move |text: String| message.set(Some(text))))}
            {move_list::<U>(history.into(), step)}
            <div class="actions">
                <button class="button" id="takeback" disabled=move || !can_take_back()
                    on:click=move |_| {
                        resigned.set(None);
                        ghost.set(None);
                        history.update(|h| h.truncate(h.len().saturating_sub(1)));
                    }>{tr("take-back-one")}</button>
                <Show when=move || result.get().is_none()>
                    <button class="button" id="resign"
                        on:click=move |_| if confirm_resign.get_untracked() {
                            resigned.set(shown.with_untracked(|g| g.status().to_move()));
                            confirm_resign.set(false);
                        } else {
                            confirm_resign.set(true)
                        }>
                        {move || if confirm_resign.get() { i18n.t("resign-confirm") } else { i18n.t("resign") }}
                    </button>
                </Show>
                <button class="button" id="new-game" on:click=move |_| {
                    history.update(|h| h.truncate(0));
                    step.set(None);
                    ghost.set(None);
                    resigned.set(None);
                    message.set(None);
                }>{tr("new-game")}</button>
                {save_button::<U>(shown.into(), names)}
                {U::records(record)}
            </div>
            {super::parts::settings_panel()}
        </section>
    }
}
