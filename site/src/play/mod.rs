//! The game screen every two-player game shares: a local game on one device and an online room
//! (seats, watching, polling, optimistic moves, takebacks, resign, rematch), with the move list and
//! replay slider, the status line, move confirmation and the PNG export. A game plugs in only what is
//! its own, through [`GameUi`]: its board and move input, move notation, score figures, picture,
//! and rules diagrams.

mod history;
mod input;
// Each screen only in the bundles that show it: a change to it rebuilds only those (`bundle_cache.rs`).
#[cfg(feature = "local-screen")]
mod computer;
#[cfg(feature = "local-screen")]
mod local;
mod pacing;
mod parts;
mod picture;
mod push;
#[cfg(feature = "local-screen")]
mod review;
#[cfg(feature = "room-screen")]
mod room;
#[cfg(not(target_arch = "wasm32"))]
pub mod svg;

use leptos::prelude::*;
use tabula_core::{Game, Seat};

pub use history::History;
pub use input::{BoardProps, Confirm};
pub use parts::{room_header, Diagram};
pub use picture::{piece_disc, Pen};

use crate::catalogue::Slug;
use crate::i18n::I18n;

/// What a game brings to the shared screen. Every method is about one game only; none of them
/// talks to the server or keeps state between calls.
pub trait GameUi: Copy + Send + Sync + 'static {
    type G: Game + PartialEq;
    /// The game, as the engine names it.
    const SLUG: Slug = Slug::Played(<Self::G as Game>::KIND);
    /// The game's stylesheet (its `board.css`): inlined into its pre-rendered pages by the build,
    /// added by its bundle where a page did not have it (rooms).
    const CSS: &'static str;

    /// The message id naming a colour ("Red", "Black").
    fn colour_id(seat: Seat) -> &'static str;

    /// The board with its input. Taps become moves through `props.play`, which checks them.
    fn board(props: BoardProps<Self::G>) -> AnyView;

    /// Move buttons besides the board (Go: pass, and accept or resume while scoring).
    fn move_buttons(_props: BoardProps<Self::G>) -> AnyView {
        ().into_any()
    }

    /// Each colour's figure next to its name (POPUCOM: cells painted; Go: captures or area).
    fn score(i18n: I18n, game: &Self::G, seat: Seat) -> String;

    /// A line about the position in play (moves left, the scoring phase), if any.
    fn detail(_i18n: I18n, _game: &Self::G) -> Option<String> {
        None
    }

    /// Why the game ended, in words ("after 50 moves", "by 3.5 points").
    fn reason(i18n: I18n, _game: &Self::G, reason: &str) -> String {
        i18n.t(&format!("reason-{reason}"))
    }

    /// How the move list writes `mv`, played in `before`.
    fn notation(before: &Self::G, mv: &<Self::G as Game>::Move) -> String;

    /// The move in words, for screen readers: "Black plays D4, captures 2".
    fn describe(i18n: I18n, before: &Self::G, mv: &<Self::G as Game>::Move, _after: &Self::G) -> String {
        let player = before.mover(mv).map(|seat| i18n.t(Self::colour_id(seat))).unwrap_or_default();
        i18n.t_with("move-said", &[("player", player.into()), ("move", Self::notation(before, mv).into())])
    }

    /// A move typed in the game's notation ("D4", "pass", "5-5"), for `acting`, if it reads as one.
    fn parse(game: &Self::G, text: &str, acting: Option<Seat>) -> Option<<Self::G as Game>::Move>;

    /// Draws the position: for the PNG export, and at build time the home's picture of the game.
    fn draw(pen: &impl Pen, game: &Self::G);

    /// Record buttons of the game (Go: SGF download and open).
    fn records(_record: Record<Self::G>) -> AnyView {
        ().into_any()
    }

    /// The config the engine takes for the options chosen on the page or in the address: what they
    /// leave out filled in (a custom chess variant's definition, written on the page), or why
    /// that cannot be done.
    fn complete_config(config: serde_json::Value) -> Result<serde_json::Value, String> {
        Ok(config)
    }

    /// What the chosen options mean, under them on the game's page (the chess variant explained).
    fn option_help(_config: Signal<serde_json::Value>) -> AnyView {
        ().into_any()
    }

    /// Pictures for the rules on the game's page.
    fn diagrams() -> Vec<Diagram<Self::G>> {
        Vec::new()
    }

    /// Whether this board's points are too small on this screen to tap without a confirmation.
    fn small_points(_game: &Self::G) -> bool {
        false
    }

    /// The home's picture of the game (`site/src/pictures.rs`): the options of the game drawn, and how
    /// many moves into it.
    fn picture_config() -> serde_json::Value {
        serde_json::json!({})
    }

    fn picture_moves() -> usize {
        30
    }
}

/// A finished or unfinished game as the record buttons see it, and a way to load one (local only).
pub struct Record<G: Game> {
    pub history: Signal<History<G>>,
    pub names: Signal<[Option<String>; 2]>,
    pub result: Signal<Option<(u8, String)>>,
    /// Replaces the local game (None online, where the server owns the game).
    pub load: Option<Callback<History<G>>>,
    /// The room's code online: the server writes its records.
    pub room: Option<&'static str>,
    /// Shows a message under the board (a message id and its arguments as text).
    pub notice: Callback<String>,
}

/// A game's record file (PGN, SGF) written from a local game, its players' names, its result and
/// the notes of its review with the computer (`notes[i]` on move `i + 1`; none if not reviewed):
/// what a game's records module loaded on demand hands back.
pub type RecordWriter<G> =
    fn(&History<G>, &[Option<String>; 2], Option<&(u8, String)>, &[tabula_core::annotation::Annotation]) -> String;

/// A game's record buttons: in a room, a link to the server's record file in `format` (rooms'
/// bundles carry no writer), labelled `label`; in a local game, what `local` makes with the game's
/// loader (its writer and readers, loaded on demand).
pub fn record_buttons<G: Game, V: IntoView + 'static>(
    record: Record<G>,
    format: &'static str,
    label: &'static str,
    local: impl FnOnce(Callback<History<G>>) -> V,
) -> impl IntoView {
    let online = record.room.map(|code| {
        let href = crate::api::record_url(code, format);
        view! { <a class="button" id=format!("download-{format}") href=href download="">{crate::i18n::tr(label)}</a> }
    });
    #[cfg(not(feature = "local-screen"))]
    let local: Option<()> = {
        drop(local);
        None
    };
    #[cfg(feature = "local-screen")]
    let local = record.load.map(local);
    view! { {online} {local} }
}

/// Downloads the local game as `file` once `writer` (code loaded on demand) arrives; says so under
/// the board if it does not.
#[cfg(feature = "local-screen")]
pub fn download_record<G: Game>(
    record: Record<G>,
    i18n: I18n,
    writer: impl std::future::Future<Output = Option<RecordWriter<G>>> + 'static,
    file: &'static str,
    mime: &'static str,
) {
    let (history, names, result) =
        (record.history.get_untracked(), record.names.get_untracked(), record.result.get_untracked());
    leptos::task::spawn_local(async move {
        match writer.await {
            Some(write) => {
                let notes = review::notes(history.len());
                crate::browser::download(file, mime, &write(&history, &names, result.as_ref(), &notes));
            }
            None => record.notice.run(i18n.t("code-unavailable")),
        }
    });
}

impl<G: Game> Clone for Record<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for Record<G> {}

/// A game's screens as the router asks for them (object-safe, so the registry can list them).
pub trait Screens: Sync {
    fn slug(&self) -> Slug;
    /// The message id naming a colour ([`GameUi::colour_id`]).
    fn colour_id(&self, seat: Seat) -> &'static str;
    /// The game's stylesheet.
    fn css(&self) -> &'static str;
    /// The config for the chosen options ([`GameUi::complete_config`]).
    fn complete_config(&self, config: serde_json::Value) -> Result<serde_json::Value, String>;
    /// Whether the engine accepts the chosen options, and if not why (in the engine's words).
    fn check_config(&self, config: &serde_json::Value) -> Result<(), String>;
    /// What the chosen options mean ([`GameUi::option_help`]).
    fn option_help(&self, config: Signal<serde_json::Value>) -> AnyView;
    fn local(&self) -> AnyView;
    fn room(&self, code: String) -> AnyView;
    /// The home's picture of the game, as SVG (built at build time).
    #[cfg(not(target_arch = "wasm32"))]
    fn picture(&self) -> String;
}

/// The screens of a [`GameUi`].
pub struct ScreensOf<U: GameUi>(pub U);

impl<U: GameUi> Screens for ScreensOf<U> {
    fn slug(&self) -> Slug {
        U::SLUG
    }

    fn colour_id(&self, seat: Seat) -> &'static str {
        U::colour_id(seat)
    }

    fn css(&self) -> &'static str {
        U::CSS
    }

    fn complete_config(&self, config: serde_json::Value) -> Result<serde_json::Value, String> {
        U::complete_config(config)
    }

    fn check_config(&self, config: &serde_json::Value) -> Result<(), String> {
        History::<U::G>::new(U::complete_config(config.clone())?).map(|_| ())
    }

    fn option_help(&self, config: Signal<serde_json::Value>) -> AnyView {
        U::option_help(config)
    }

    fn local(&self) -> AnyView {
        crate::browser::ensure_style(U::SLUG.name(), U::CSS);
        #[cfg(feature = "local-screen")]
        return view! { <local::LocalScreen<U> /> }.into_any();
        #[cfg(not(feature = "local-screen"))]
        ().into_any()
    }

    fn room(&self, code: String) -> AnyView {
        crate::browser::ensure_style(U::SLUG.name(), U::CSS);
        #[cfg(feature = "room-screen")]
        return view! { <room::RoomScreen<U> code=code /> }.into_any();
        #[cfg(not(feature = "room-screen"))]
        {
            let _ = code;
            ().into_any()
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn picture(&self) -> String {
        svg::picture::<U>()
    }
}

/// The rules pictures of a game's page (the games' registration loads them on demand).
#[cfg(feature = "game-page")]
pub fn diagrams<U: GameUi>() -> AnyView {
    crate::browser::ensure_style(U::SLUG.name(), U::CSS);
    parts::diagrams::<U>().into_any()
}

/// The message id for a game's refusal `code` (its own wording if it has one).
pub fn refusal_message(slug: Slug, code: &str) -> String {
    input::refusal_id(slug, &format!("illegal-{code}"), crate::i18n::has)
}

/// A colour's name, with the player's name when known: "Black (Ann)".
pub fn colour_name<U: GameUi>(i18n: I18n, seat: Seat, names: &[Option<String>; 2]) -> String {
    let colour = i18n.t(U::colour_id(seat));
    match &names[seat.index()] {
        Some(name) => format!("{colour} ({name})"),
        None => colour,
    }
}

/// The message id naming a room's takeback policy (`never`, `ask`, `always`).
pub fn takeback_policy_id(policy: &str) -> &'static str {
    match policy {
        "never" => "takebacks-never",
        "always" => "takebacks-always",
        _ => "takebacks-ask",
    }
}
