//! A local game: two players on one device, with unlimited takeback, resign, replay, and the game
//! kept in the browser so a reload resumes it. Options come from the address (`/go/local?size=19`).

use std::marker::PhantomData;

use leptos::prelude::*;
use tabula_core::{Game, Seat};

use super::computer::{self, Reply, HINT_LEVEL};
use super::input::{carry_out, judge};
use super::parts::{move_list, scoreboard, ConfirmBar};
use super::picture::save_button;
use super::review::{self, review_button};
use super::{BoardProps, Confirm, GameUi, History, Record};
use crate::browser;
use crate::catalogue::{config_of, option_values};
use crate::i18n::{tr, use_i18n};
use crate::storage::Opponent;
use crate::storage::{self, SavedGame};

/// The game to start with, and the computer opponent if there is one: the saved game if it has
/// these options and this kind of opponent (or none were given: "continue"), else a new one.
fn starting_history<U: GameUi>(slot: &str, reviewing: bool) -> (History<U::G>, Option<Opponent>, Option<String>) {
    let query = browser::query();
    let asked = Opponent::from_query(&query);
    let fresh = U::complete_config(config_of(&option_values(U::SLUG, &query))).and_then(History::<U::G>::new);
    let fresh = match fresh {
        Ok(history) => history,
        // Options the engine refuses (a handicap too large for the board, say): say so, play the defaults.
        Err(error) => {
            let default = History::<U::G>::new(serde_json::json!({})).expect("the default config is valid");
            return (default, asked, Some(error));
        }
    };
    let saved = storage::saved_game(slot).and_then(|saved| {
        let moves: Vec<_> = saved.moves.into_iter().map(serde_json::from_value).collect::<Result<_, _>>().ok()?;
        Some((History::<U::G>::replay(saved.config, &moves).ok()?, saved.computer))
    });
    let same_opponent = |saved: &Option<Opponent>| match (saved, asked) {
        (Some(saved), Some(asked)) => (saved.level, saved.seat) == (asked.level, asked.seat),
        (saved, asked) => saved.is_none() && asked.is_none(),
    };
    match saved {
        Some((saved, computer)) if query.is_empty() || reviewing => (saved, computer, None),
        Some((saved, computer)) if saved.config() == fresh.config() && same_opponent(&computer) => {
            (saved, computer, None)
        }
        _ => (fresh, asked, None),
    }
}

#[component]
pub fn LocalScreen<U: GameUi>(#[prop(optional)] ui: PhantomData<U>) -> impl IntoView {
    let _ = ui;
    let i18n = use_i18n();
    // A room's game handed over for its review (`?review`) is kept in a slot of its own: the
    // player's own local game stays saved.
    let reviewing = browser::query() == "review";
    let slot = if reviewing { storage::review_slot(U::SLUG.name()) } else { U::SLUG.name().to_owned() };
    let (start, computer, config_error) = starting_history::<U>(&slot, reviewing);
    let history = RwSignal::new(start);
    let step = RwSignal::new(None::<usize>);
    let ghost = RwSignal::new(None::<<U::G as Game>::Move>);
    // The review's better move, drawn while the replay stands before the move it would replace.
    let better = RwSignal::new(None::<<U::G as Game>::Move>);
    let better_at = RwSignal::new(None::<usize>);
    let message = RwSignal::new(config_error.map(|e| i18n.t_with("options-refused", &[("reason", e.into())])));
    let resigned = RwSignal::new(None::<Seat>);
    let confirm_resign = RwSignal::new(false);
    let confirm = Confirm::detect();

    Effect::new(move |_| {
        // A review shows the game as it was: a move or a takeback closes it.
        review::close();
        history.with(|h| {
            let moves = h.moves_json();
            storage::save_game(&slot, &SavedGame { config: h.config().clone(), moves, computer });
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
    let to_move = Signal::derive(move || if live() { shown.with(|g| g.status().to_move()) } else { None });
    // Against the computer the player acts for their own colour only.
    let computer_seat = computer.and_then(|c| Seat::from_number(c.seat));
    let human = computer_seat.map(Seat::other);
    let acting = Signal::derive(move || to_move.get().map(|seat| human.unwrap_or(seat)));
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
            judge(g, &mv, acting.get_untracked(), computer.is_none(), confirming, ghost.get_untracked().as_ref())
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

    // The computer's turn: ask the worker, and play its answer if the game is still where it was
    // asked (a takeback or a new game since cancels the request).
    // The request in flight (0: none); the computer is thinking while there is one.
    let asked = RwSignal::new(0u64);
    let thinking = move || asked.get() != 0;
    // The length at which the computer had nothing to play (Go's scoring, accepted): not asked again.
    let declined = StoredValue::new(None::<usize>);
    if computer.is_some() {
        history.with_untracked(|h| computer::warm_up(U::SLUG.name(), h));
    }
    Effect::new(move |_| {
        let Some(opponent) = computer else { return };
        let len = history.with(History::len);
        if to_move.get().is_none() || to_move.get() != computer_seat || asked.get_untracked() != 0 {
            return;
        }
        if declined.get_value() == Some(len) {
            return;
        }
        let request = browser::random_u64() | 1;
        asked.set(request);
        history.with_untracked(|h| {
            computer::ask(U::SLUG.name(), h, opponent.level, opponent.seed, Some(opponent.seat), move |reply| {
                if asked.get_untracked() != request {
                    return;
                }
                asked.set(0);
                match reply {
                    Reply::Move(mv) => match serde_json::from_value(mv) {
                        Ok(mv) if history.with_untracked(History::len) == len => commit(mv),
                        _ => {}
                    },
                    Reply::Nothing | Reply::Review(_) => declined.set_value(Some(len)),
                    Reply::Failed(reason) => {
                        message.set(Some(i18n.t_with("computer-failed", &[("reason", reason.into())])))
                    }
                }
            })
        });
    });
    let cancel_thinking = move || {
        asked.set(0);
        declined.set_value(None);
    };
    // A hint: the computer's suggestion at a middle level for the player to move, in words.
    let hinting = RwSignal::new(false);
    let hint = move |_| {
        let Some(seat) = acting.get_untracked() else { return };
        let len = history.with_untracked(History::len);
        hinting.set(true);
        let seed = browser::random_u64();
        history.with_untracked(|h| {
            computer::ask(U::SLUG.name(), h, HINT_LEVEL, seed, Some(seat.number()), move |reply| {
                hinting.set(false);
                if history.with_untracked(History::len) != len {
                    return;
                }
                let said = match reply {
                    Reply::Move(mv) => serde_json::from_value::<<U::G as Game>::Move>(mv)
                        .ok()
                        .map(|mv| history.with_untracked(|h| U::notation(h.position(len), &mv)))
                        .map(|text| i18n.t_with("hint-said", &[("move", text.into())])),
                    Reply::Nothing | Reply::Review(_) => None,
                    Reply::Failed(reason) => Some(i18n.t_with("computer-failed", &[("reason", reason.into())])),
                };
                message.set(said);
            })
        });
    };
    let act = Callback::new(move |mv| offer(mv, false));
    let names = Signal::derive(|| [None, None]);
    let props = BoardProps {
        game: shown.into(),
        before: before.into(),
        last: last.into(),
        acting,
        own_side: Signal::stored(human),
        ghost: Signal::derive(move || {
            if step.get().is_some() && step.get() == better_at.get() {
                better.get()
            } else {
                ghost.get()
            }
        }),
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
    // Against the computer a takeback goes back to the player's last turn: there must be one.
    let can_take_back = move || {
        step.get().is_none()
            && history
                .with(|h| (0..h.len()).any(|n| computer_seat.is_none() || h.position(n).status().to_move() == human))
    };
    let opponent_line = computer.map(|opponent| {
        let colour = human.map(|seat| i18n.t(U::colour_id(seat))).unwrap_or_default();
        view! {
            <p class="computer-line" id="computer-line">
                {i18n.t_with("computer-line", &[("colour", colour.into()), ("level", opponent.level.to_string().into())])}
                " "
                <span class="thinking" role="status" id="thinking">
                    {move || thinking().then(|| i18n.t("computer-thinking"))}
                </span>
            </p>
        }
    });
    view! {
        <section class=format!("game local {}", U::SLUG.name())>
            <h1 class="page-title">{move || i18n.t_with("local-title", &[("game", i18n.t(U::SLUG.title_id()).into())])}</h1>
            {scoreboard::<U>(shown.into(), result, names)}
            {opponent_line}
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
                        cancel_thinking();
                        history.update(|h| {
                            let mut count = h.len().saturating_sub(1);
                            while computer_seat.is_some() && count > 0 && h.position(count).status().to_move() == computer_seat {
                                count -= 1;
                            }
                            h.truncate(count)
                        });
                    }>{tr("take-back-one")}</button>
                <button class="button" id="hint" disabled=move || acting.get().is_none() || hinting.get() || thinking()
                    on:click=hint>{tr("hint")}</button>
                <button class="button" id="resign" hidden=move || result.get().is_some()
                    on:click=move |_| if confirm_resign.get_untracked() {
                        resigned.set(human.or_else(|| shown.with_untracked(|g| g.status().to_move())));
                        confirm_resign.set(false);
                    } else {
                        confirm_resign.set(true)
                    }>
                    {move || if confirm_resign.get() { i18n.t("resign-confirm") } else { i18n.t("resign") }}
                </button>
                <button class="button" id="new-game" on:click=move |_| {
                    cancel_thinking();
                    history.update(|h| h.truncate(0));
                    step.set(None);
                    ghost.set(None);
                    resigned.set(None);
                    message.set(None);
                }>{tr("new-game")}</button>
                {(save_button::<U>(shown.into(), names), review_button::<U>(history.into(), step, better, better_at, reviewing))}
                {U::records(record)}
            </div>
            {super::parts::settings_panel()}
        </section>
    }
}
