//! Who sits where, and what it lets a player do: the role line ("Your turn", "Spectating"), the
//! takeback policy with the watchers, the name field and the seats to take, the notice that the
//! opponent is away (with the claims it allows), and the bar to answer a takeback request.

use leptos::prelude::*;
use tabula_core::{Game, Seat};

use super::super::GameUi;
use super::requests::Request;
use super::session::RoomState;
use crate::i18n::{tr, I18n};
use crate::storage;

/// The line that says what this page is in the room, by the seat it holds.
pub(super) fn role_line<U: GameUi>(
    i18n: I18n,
    state: RoomState<U>,
    shown: Memo<U::G>,
) -> impl Fn() -> Option<String> + Copy + Send + Sync + 'static {
    move || {
        let view = state.room.get()?;
        Some(match (state.my_seat(), state.my_colour.get()) {
            (None, _) => i18n.t("spectating"),
            (Some(_), _) if view.seats.iter().any(|s| !s.taken) => i18n.t("waiting-opponent"),
            (Some(_), colour) if state.over() => {
                let winner = view.result().map(|(w, _)| w).unwrap_or(0);
                match (winner, colour) {
                    (0, _) => i18n.t("role-draw"),
                    (w, Some(c)) if w == c.number() => i18n.t("role-won"),
                    _ => i18n.t("role-lost"),
                }
            }
            (Some(me), _) if state.takeback_by().is_some() => {
                let asked = state.takeback_by() == Some(me);
                match (asked, state.takeback_count()) {
                    (true, 1) => i18n.t("takeback-asked"),
                    (false, 1) => i18n.t("takeback-offered"),
                    (true, n) => i18n.t_with("takeback-asked-both", &[("count", n.into())]),
                    (false, n) => i18n.t_with("takeback-offered-both", &[("count", n.into())]),
                }
            }
            (Some(_), Some(colour)) if shown.with(|g| g.status().to_move()) == Some(colour) => i18n.t("your-turn"),
            (Some(_), _) => i18n.t("their-turn"),
        })
    }
}

/// The room's takeback policy, and how many watch.
pub(super) fn policy_line<U: GameUi>(i18n: I18n, state: RoomState<U>) -> impl IntoView {
    view! {
        <p class="room-policy" id="takeback-policy">
            {move || i18n.t_with("takebacks-line", &[("policy", i18n.t(super::super::takeback_policy_id(&state.policy())).into())])}
            // The server's count, or the open pages less the seated players still there
            // (as the server counts).
            {move || state.room.with(|r| {
                let r = r.as_ref()?;
                let seated = r.seats.iter().filter(|s| s.taken && !s.away).count();
                let counted = state.open_pages.get().map(|n| n.saturating_sub(seated) as u32);
                r.watching.or(counted).filter(|n| *n > 0)
            }).map(|n| {
                format!(" · {}", i18n.t_with("lobby-watching", &[("count", (n as usize).into())]))
            })}
        </p>
    }
}

/// The other seat's player stopped polling long ago: this player may end the game.
pub(super) fn away_notice<U: GameUi>(state: RoomState<U>, send: Callback<Request>) -> impl IntoView {
    let opponent_away = move || {
        let me = state.my_seat()?;
        Some(!state.over() && state.room.with(|r| r.as_ref()?.seats.iter().find(|s| s.seat != me).map(|s| s.away))?)
    };
    let busy = move || state.acting_now.get();
    view! {
        <Show when=move || opponent_away() == Some(true)>
            <div class="away" role="status" id="opponent-away">
                <p>{tr("opponent-away")}</p>
                <div class="actions">
                    <button class="button primary" id="claim-win" disabled=busy
                        on:click=move |_| send.run(Request::Action("claim_win"))>{tr("claim-win")}</button>
                    <button class="button" id="claim-draw" disabled=busy
                        on:click=move |_| send.run(Request::Action("claim_draw"))>{tr("claim-draw")}</button>
                </div>
            </div>
        </Show>
    }
}

/// For a page without a seat while one is free: the name to sit down under, each free seat, and
/// "watch" (which hides them).
pub(super) fn seat_picker<U: GameUi>(
    i18n: I18n,
    state: RoomState<U>,
    watching: RwSignal<bool>,
    take_seat: Callback<u8>,
) -> impl IntoView {
    let seat_buttons = move || {
        let view = state.room.get()?;
        if state.seated() || watching.get() || view.seats.iter().all(|s| s.taken) {
            return None;
        }
        let buttons = view
            .seats
            .iter()
            .filter(|s| !s.taken)
            .map(|s| {
                let (seat, colour) = (s.seat, Seat::from_number(s.colour).unwrap_or(Seat::One));
                view! {
                    <button class=format!("button seat-{}", colour.number()) id=format!("take-seat-{seat}") on:click=move |_| take_seat.run(seat)>
                        {move || i18n.t_with("take-seat", &[("player", i18n.t(U::colour_id(colour)).into())])}
                    </button>
                }
            })
            .collect_view();
        Some(view! {
            {buttons}
            <button class="button" id="watch" on:click=move |_| watching.set(true)>{tr("watch")}</button>
        })
    };
    view! {
        <Show when=move || !state.seated() && !watching.get() && state.room.with(|r| r.as_ref().is_some_and(|r| r.seats.iter().any(|s| !s.taken)))>
            <label class="name">
                <span>{tr("your-name")}</span>
                <input id="player-name" maxlength="24" prop:value=storage::player_name()
                    on:change=move |event| storage::set_player_name(&event_target_value(&event)) />
            </label>
        </Show>
        <div class="actions seats">{seat_buttons}</div>
    }
}

/// The other player asked to take moves back: accept or decline.
pub(super) fn takeback_offer<U: GameUi>(state: RoomState<U>, send: Callback<Request>) -> impl IntoView {
    let busy = move || state.acting_now.get();
    view! {
        <Show when=move || state.seated() && state.takeback_by().is_some_and(|by| Some(by) != state.my_seat())>
            <div class="actions takeback-offer">
                <button class="button primary" id="accept-takeback" disabled=busy
                    on:click=move |_| send.run(Request::Action("accept_takeback"))>{tr("takeback-accept")}</button>
                <button class="button" id="decline-takeback" disabled=busy
                    on:click=move |_| send.run(Request::Action("decline_takeback"))>{tr("takeback-decline")}</button>
            </div>
        </Show>
    }
}
