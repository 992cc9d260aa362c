//! A game's page: what it is, how to play (with pictures where words are not enough), and, for
//! the games the site plays, its options, a new local game, a new room, and joining by code.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::home::JoinByCode;
use crate::api::{self, ApiError, Clock};
use crate::catalogue::{
    config_of, half_text, option_query, option_values, Choice, GameOption, Label, OptionKind, Slug,
};
use crate::games::screens;
use crate::i18n::{tr, use_i18n, I18n};
use crate::route::{use_router, Route};
use crate::{browser, storage};
use tabula_core::Seat;

pub fn label_text(i18n: I18n, label: Label) -> String {
    match label {
        Label::Id(id) => i18n.t(id),
        Label::Text(text) => text.to_owned(),
    }
}

/// One option's field; `values` holds every option's current value.
fn option_field(i18n: I18n, option: &'static GameOption, values: RwSignal<Vec<(&'static str, String)>>) -> AnyView {
    let id = format!("option-{}", option.key);
    let current =
        move || values.with(|v| v.iter().find(|(k, _)| *k == option.key).map(|(_, v)| v.clone()).unwrap_or_default());
    let set = move |value: String| {
        values.update(|v| {
            if let Some(entry) = v.iter_mut().find(|(k, _)| *k == option.key) {
                entry.1 = value;
            }
        })
    };
    let field = match option.kind {
        OptionKind::Choice(choices) => {
            let item = move |choice: &'static Choice| {
                view! { <option value=choice.value selected=move || current() == choice.value>{move || label_text(i18n, choice.label)}</option> }
            };
            let common = choices.iter().filter(|c| !c.more).map(item).collect_view();
            let more: Vec<&'static Choice> = choices.iter().filter(|c| c.more).collect();
            let more = (!more.is_empty()).then(|| {
                let items = more.into_iter().map(item).collect_view();
                view! { <optgroup label=tr("option-more")>{items}</optgroup> }
            });
            view! {
                <select id=id.clone() on:change=move |event| set(event_target_value(&event))>{common}{more}</select>
            }
            .into_any()
        }
        OptionKind::Halves { min, max } => view! {
            <input id=id.clone() type="number" inputmode="decimal" min=half_text(min) max=half_text(max) step="0.5"
                prop:value=current on:change=move |event| set(event_target_value(&event)) />
        }
        .into_any(),
        OptionKind::Whole { min, max } => view! {
            <input id=id.clone() type="number" inputmode="numeric" min=min.to_string() max=max.to_string() step="1"
                prop:value=current on:change=move |event| set(event_target_value(&event)) />
        }
        .into_any(),
    };
    view! {
        <label class="option" for=id>
            <span>{tr(option.label)}</span>
        </label>
        {field}
    }
    .into_any()
}

/// The time controls a new room or quick play offers: none, live clocks (minutes + seconds of
/// increment) and correspondence (days per move).
#[cfg(feature = "game-page")]
const CLOCK_CHOICES: [Option<Clock>; 11] = [
    None,
    Some(Clock::Live { seconds: 180, increment: 2 }),
    Some(Clock::Live { seconds: 300, increment: 3 }),
    Some(Clock::Live { seconds: 600, increment: 5 }),
    Some(Clock::Live { seconds: 1800, increment: 0 }),
    Some(Clock::Days(1)),
    Some(Clock::Days(2)),
    Some(Clock::Days(3)),
    Some(Clock::Days(5)),
    Some(Clock::Days(7)),
    Some(Clock::Days(14)),
];

/// A time control as players read it: `5 min + 3 s a move`, `Correspondence: 3-day moves`.
pub fn time_control_text(i18n: I18n, clock: Option<Clock>) -> String {
    match clock {
        None => i18n.t("clock-none"),
        Some(Clock::Live { seconds, increment }) => {
            let minutes = match seconds % 60 {
                0 => (seconds / 60).to_string(),
                rest => format!("{}:{rest:02}", seconds / 60),
            };
            i18n.t_with("clock-live", &[("minutes", minutes.into()), ("increment", increment.into())])
        }
        Some(Clock::Days(days)) => i18n.t_with("clock-days", &[("days", days.into())]),
    }
}

/// The seats to send with quick play: this game's, quick-play rooms (`q...`) first, at most the 8
/// the server reads.
#[cfg(feature = "game-page")]
fn quick_play_seats(game: &str) -> Vec<(String, String)> {
    let mut seats: Vec<(String, String)> = storage::held_rooms()
        .into_iter()
        .filter(|(_, held)| held.game.as_deref() == Some(game))
        .map(|(room, held)| (room, held.token))
        .collect();
    seats.sort_by_key(|(room, _)| !room.starts_with('q'));
    seats.truncate(8);
    seats
}

/// A new room as the page's "Create a room" sends it.
#[cfg(feature = "game-page")]
struct NewRoomRequest {
    code: String,
    game: &'static str,
    config: serde_json::Value,
    takebacks: String,
    public: bool,
    clock: serde_json::Value,
}

/// Quick play as the page sends it (with the seats this browser holds, read when it is sent).
#[cfg(feature = "game-page")]
struct QuickPlayRequest {
    game: &'static str,
    config: serde_json::Value,
    clock: serde_json::Value,
    name: String,
}

/// What the page's room buttons send, as the module loaded on their first press hands it back.
#[cfg(feature = "game-page")]
struct Requests {
    create: browser::OnDemand<NewRoomRequest, Result<(), ApiError>>,
    quick_play: browser::OnDemand<QuickPlayRequest, Result<api::Joined, ApiError>>,
}

/// The room buttons' requests, loaded on the first press (see `browser::OnDemand`): with them goes
/// the reader of a room's JSON, which nothing the page shows first needs.
#[cfg(feature = "game-page")]
#[leptos::wasm_split::wasm_split(game_page_requests, wasm_split_path = ::leptos::wasm_split, fallible)]
fn requests_code() -> Result<Requests, leptos::wasm_split::SplitLoaderError> {
    Ok(Requests {
        create: |request| {
            Box::pin(async move {
                let new =
                    api::NewRoom { game: request.game, config: &request.config, takebacks: Some(&request.takebacks) };
                api::create_room(&request.code, new, request.public, &request.clock).await
            })
        },
        quick_play: |request| {
            Box::pin(async move {
                let QuickPlayRequest { game, config, clock, name } = request;
                api::quick_play(game, &config, &clock, &name, &quick_play_seats(game)).await
            })
        },
    })
}

/// Options, a local game, a new room: for a game this bundle plays.
#[cfg(feature = "game-page")]
#[component]
fn PlayPanel(slug: Slug) -> impl IntoView {
    let i18n = use_i18n();
    let router = use_router();
    let values = RwSignal::new(option_values(slug, &browser::query()));
    let message = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    // The engine judges the options as they are chosen (a handicap too large for the board, say).
    let refused = Memo::new(move |_| {
        let config = config_of(&values.get());
        screens(slug).and_then(|s| s.check_config(&config).err())
    });
    let saved = storage::has_saved_moves(slug.name());
    let play_local = move |_| {
        storage::forget_game(slug.name());
        router.go_to(Route::Local(slug), &option_query(&values.get_untracked()), None);
    };
    // Against the computer: its level, and which colour the player takes.
    let level = RwSignal::new(2u8);
    let side = RwSignal::new(1u8);
    let play_computer = move |_| {
        storage::forget_game(slug.name());
        let options = option_query(&values.get_untracked());
        let computer = crate::storage::Opponent::query(level.get_untracked(), side.get_untracked());
        let query = if options.is_empty() { computer } else { format!("{options}&{computer}") };
        router.go_to(Route::Local(slug), &query, None);
    };
    let colour = move |seat: Seat| screens(slug).map(|s| i18n.t(s.colour_id(seat))).unwrap_or_default();
    let takebacks = RwSignal::new("ask".to_owned());
    // An index into `CLOCK_CHOICES`.
    let clock = RwSignal::new(0usize);
    let clock_json = move || {
        CLOCK_CHOICES.get(clock.get_untracked()).copied().flatten().map_or(serde_json::Value::Null, Clock::json)
    };
    let public = RwSignal::new(false);
    // The options as a room is created with them, or why not (said on the page).
    let room_config = move || {
        let chosen = config_of(&values.get_untracked());
        let mut config = match screens(slug).map_or(Ok(chosen.clone()), |s| s.complete_config(chosen)) {
            Ok(config) => config,
            Err(reason) => {
                message.set(Some(i18n.t_with("options-refused", &[("reason", reason.into())])));
                return None;
            }
        };
        // What the server compiled for the page (a custom chess variant) it compiles again from
        // the definition it stores: not sent back.
        if let Some(fields) = config.as_object_mut() {
            fields.remove("compiled");
        }
        Some(config)
    };
    let refusal = move |error: ApiError| match error {
        ApiError::Refused { message: text, .. } => {
            message.set(Some(i18n.t_with("options-refused", &[("reason", text.into())])))
        }
        ApiError::Network(_) => message.set(Some(i18n.t("connection-lost"))),
    };
    let create_room = move |_| {
        let code = crate::room_code(browser::random_u64());
        let Some(config) = room_config() else { return };
        let takebacks = takebacks.get_untracked();
        busy.set(true);
        let request = NewRoomRequest {
            code: code.clone(),
            game: slug.name(),
            config,
            takebacks,
            public: public.get_untracked(),
            clock: clock_json(),
        };
        spawn_local(async move {
            let sent = match requests_code().await {
                Ok(requests) => (requests.create)(request).await,
                Err(_) => Err(ApiError::code_not_loaded()),
            };
            match sent {
                Ok(()) => router.open_room(code, slug),
                Err(error) => refusal(error),
            }
            busy.set(false);
        });
    };
    // A seat beside a player waiting with the same options, or a public room to wait in.
    let quick_play = move || {
        let Some(config) = room_config() else { return };
        busy.set(true);
        let request = QuickPlayRequest { game: slug.name(), config, clock: clock_json(), name: storage::player_name() };
        spawn_local(async move {
            let sent = match requests_code().await {
                Ok(requests) => (requests.quick_play)(request).await,
                Err(_) => Err(ApiError::code_not_loaded()),
            };
            match sent {
                Ok(joined) => {
                    let code = joined.room.room_id;
                    if let (Some(seat), Some(token)) = (joined.seat, joined.token) {
                        let held = storage::HeldSeat { seat, token, game: Some(slug.name().to_owned()) };
                        storage::hold_seat(&code, &held);
                    }
                    router.open_room(code, slug);
                }
                Err(error) => refusal(error),
            }
            busy.set(false);
        });
    };
    // `/<game>?quick` (a home card's "Quick play"): straight into quick play. The address drops
    // `quick` first, so coming back from the room does not start another.
    if browser::query().split('&').any(|part| part == "quick") {
        browser::replace_address(&Route::Game(slug).path());
        quick_play();
    }
    let fields = slug.options().iter().map(|option| option_field(i18n, option, values)).collect_view();
    view! {
        <div class="play-panel">
            {(!slug.options().is_empty()).then(|| view! {
                <h2>{tr("options-title")}</h2>
                <div class="options">{fields}</div>
            })}
            {screens(slug).map(|s| s.option_help(Signal::derive(move || config_of(&values.get()))))}
            <p class="message" role="alert" id="options-message">
                {move || refused.get().map(|r| i18n.t_with("options-refused", &[("reason", r.into())])).or(message.get())}
            </p>
            <label class="takebacks">
                <span>{tr("takebacks-label")}</span>
                <select id="takebacks" on:change=move |event| takebacks.set(event_target_value(&event))>
                    {["ask", "never", "always"].map(|policy| view! {
                        <option value=policy>{tr(crate::play::takeback_policy_id(policy))}</option>
                    })}
                </select>
            </label>
            <label class="takebacks">
                <span>{tr("clock-label")}</span>
                <select id="clock" on:change=move |event| clock.set(event_target_value(&event).parse().unwrap_or(0))>
                    {CLOCK_CHOICES.iter().enumerate().map(|(index, choice)| view! {
                        <option value=index.to_string()>{move || time_control_text(i18n, *choice)}</option>
                    }).collect_view()}
                </select>
            </label>
            <label class="public-room">
                <input type="checkbox" id="public-room" on:change=move |event| public.set(event_target_checked(&event)) />
                <span>{tr("public-room")}</span>
            </label>
            <div class="actions">
                <button class="button primary" id="play-local" disabled=move || refused.get().is_some() on:click=play_local>
                    {tr("play-local")}
                </button>
                <button class="button" id="create-room" disabled=move || refused.get().is_some() || busy.get() on:click=create_room>
                    {tr("create-room")}
                </button>
                <button class="button" id="quick-play" aria-describedby="quick-play-help"
                    disabled=move || refused.get().is_some() || busy.get() on:click=move |_| quick_play()>
                    {tr("quick-play")}
                </button>
                {saved.then(|| view! {
                    <a class="button" id="continue-local" href=Route::Local(slug).path() on:click=move |event| {
                        event.prevent_default();
                        router.go(Route::Local(slug));
                    }>{tr("continue-local")}</a>
                })}
            </div>
            <p class="quick-play-help" id="quick-play-help">{tr("quick-play-help")}</p>
            <h2>{tr("computer-title")}</h2>
            <div class="options computer-options">
                <label class="option" for="computer-level"><span>{tr("computer-level")}</span></label>
                <select id="computer-level" on:change=move |event| level.set(event_target_value(&event).parse().unwrap_or(2))>
                    {(1..=5u8).map(|n| view! {
                        <option value=n.to_string() selected=move || level.get() == n>
                            {move || i18n.t(&format!("computer-level-{n}"))}
                        </option>
                    }).collect_view()}
                </select>
                <label class="option" for="computer-side"><span>{tr("computer-side")}</span></label>
                <select id="computer-side" on:change=move |event| side.set(event_target_value(&event).parse().unwrap_or(1))>
                    <option value="1">{move || colour(Seat::One)}</option>
                    <option value="2">{move || colour(Seat::Two)}</option>
                </select>
            </div>
            <div class="actions">
                <button class="button primary" id="play-computer" disabled=move || refused.get().is_some() on:click=play_computer>
                    {tr("play-computer")}
                </button>
            </div>
            <h2>{tr("join-title")}</h2>
            <JoinByCode />
            <crate::pages::lobby::LobbyList game=slug />
        </div>
    }
}

/// The rules pictures: in the pre-rendered page at once, in the live one when their module
/// arrives (they sit below all that the first screen shows). A game without screens has none.
fn diagrams(slug: Slug) -> impl IntoView {
    let code = RwSignal::new(None::<fn(Slug) -> AnyView>);
    #[cfg(all(feature = "game-page", not(target_arch = "wasm32")))]
    code.set(browser::ready_now(crate::games::diagrams_code()).and_then(Result::ok));
    #[cfg(all(feature = "game-page", target_arch = "wasm32"))]
    spawn_local(async move {
        if let Ok(loaded) = crate::games::diagrams_code().await {
            // The page may be gone by then.
            let _ = code.try_set(Some(loaded));
        }
    });
    view! { <div class="diagrams">{move || code.get().map(|draw| draw(slug))}</div> }
}

#[component]
pub fn GamePage(slug: Slug) -> impl IntoView {
    let rules = slug.rules_ids().iter().map(|id| view! { <li>{tr(id)}</li> }).collect_view();
    let playable = screens(slug).is_some();
    view! {
        <section class=format!("game-page {}", slug.name())>
            <h1 class="page-title">{tr(slug.title_id())}</h1>
            <p class="tagline">{tr(slug.pitch_id())}</p>
            {match playable {
                #[cfg(feature = "game-page")]
                true => view! { <PlayPanel slug=slug /> }.into_any(),
                _ => view! { <p class="soon" id="coming-soon">{tr("coming-soon-long")}</p> }.into_any(),
            }}
            <h2>{tr("rules-title")}</h2>
            <ul class="rules">{rules}</ul>
            {diagrams(slug)}
        </section>
    }
}
