//! What the browser remembers (localStorage): the language, the player's name, the seat token of
//! each room the player sits in (so reloading or reopening a share link resumes the seat, and the
//! home can offer to continue), and each game's local game in progress.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::browser;

fn local_storage() -> Option<web_sys::Storage> {
    browser::window()?.local_storage().ok()?
}

pub(crate) fn get(key: &str) -> Option<String> {
    local_storage()?.get_item(key).ok()?
}

pub(crate) fn set(key: &str, value: &str) {
    if let Some(storage) = local_storage() {
        // Storage can be full or disabled (private mode): the app still works, it just forgets.
        let _ = storage.set_item(key, value);
    }
}

pub(crate) fn remove(key: &str) {
    if let Some(storage) = local_storage() {
        let _ = storage.remove_item(key);
    }
}

pub fn language() -> Option<String> {
    get("tabula.language")
}

pub fn set_language(tag: &str) {
    set("tabula.language", tag);
}

pub fn player_name() -> String {
    get("tabula.name").unwrap_or_default()
}

pub fn set_player_name(name: &str) {
    set("tabula.name", name);
}

/// Whether moves wait for a confirmation: on touch screens and small boards (`Auto`), always, or
/// never.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ConfirmMoves {
    #[default]
    Auto,
    Always,
    Never,
}

/// This device's settings for every game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Settings {
    pub confirm: ConfirmMoves,
    /// A short sound when it becomes your move in a room.
    pub sound: bool,
    /// A browser notification when it becomes your move while the page is in the background.
    pub notify: bool,
    /// Shapes and patterns besides colours.
    pub colour_blind: bool,
}

// Settings and seats are written with serde and read back by hand from a `Value`: every bundle
// reads them, and serde's derived readers cost each about 1.5 KB of WASM (tests keep the two alike).
impl Settings {
    /// What was saved; a missing or unreadable field keeps its default.
    fn from_json(saved: &Value) -> Settings {
        let flag = |name: &str| saved[name].as_bool().unwrap_or_default();
        let confirm = match saved["confirm"].as_str() {
            Some("always") => ConfirmMoves::Always,
            Some("never") => ConfirmMoves::Never,
            _ => ConfirmMoves::Auto,
        };
        Settings { confirm, sound: flag("sound"), notify: flag("notify"), colour_blind: flag("colour_blind") }
    }
}

pub fn settings() -> Settings {
    get("tabula.settings")
        .and_then(|json| serde_json::from_str(&json).ok())
        .map_or_else(Settings::default, |saved| Settings::from_json(&saved))
}

pub fn save_settings(settings: &Settings) {
    if let Ok(json) = serde_json::to_string(settings) {
        set("tabula.settings", &json);
    }
}

/// This device's settings, shared through context (`app.rs` provides them and saves each change).
pub fn use_settings() -> leptos::prelude::RwSignal<Settings> {
    leptos::prelude::expect_context::<leptos::prelude::RwSignal<Settings>>()
}

/// A seat held in a room: which seat, the secret token that proves it, and the room's game (for
/// the home's "continue" list; absent in seats saved by the first version).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HeldSeat {
    pub seat: u8,
    pub token: String,
    pub game: Option<String>,
}

impl HeldSeat {
    fn from_json(saved: &Value) -> Option<HeldSeat> {
        Some(HeldSeat {
            seat: u8::try_from(saved["seat"].as_u64()?).ok()?,
            token: saved["token"].as_str()?.to_owned(),
            game: saved["game"].as_str().map(str::to_owned),
        })
    }
}

const SEAT_PREFIX: &str = "tabula.seat.";

pub fn held_seat(room: &str) -> Option<HeldSeat> {
    HeldSeat::from_json(&serde_json::from_str(&get(&format!("{SEAT_PREFIX}{room}"))?).ok()?)
}

pub fn hold_seat(room: &str, seat: &HeldSeat) {
    if let Ok(json) = serde_json::to_string(seat) {
        set(&format!("{SEAT_PREFIX}{room}"), &json);
    }
}

pub fn forget_seat(room: &str) {
    remove(&format!("{SEAT_PREFIX}{room}"));
}

/// Every room this browser holds a seat in, by room code.
pub fn held_rooms() -> Vec<(String, HeldSeat)> {
    let Some(storage) = local_storage() else { return Vec::new() };
    let count = storage.length().unwrap_or(0);
    let mut rooms: Vec<(String, HeldSeat)> = (0..count)
        .filter_map(|i| storage.key(i).ok().flatten())
        .filter_map(|key| {
            let room = key.strip_prefix(SEAT_PREFIX)?.to_owned();
            let seat = held_seat(&room)?;
            Some((room, seat))
        })
        .collect();
    rooms.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    rooms
}

/// A local game in progress: its config and moves (JSON), so a reload resumes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedGame {
    pub config: Value,
    pub moves: Vec<Value>,
    /// The computer opponent, in a game against it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computer: Option<Opponent>,
}

pub fn saved_game(game: &str) -> Option<SavedGame> {
    serde_json::from_str(&get(&format!("tabula.local.{game}"))?).ok()
}

/// Whether a local game of `game` is saved with a move played: read without the saved game's
/// reader, which the game's page (its "Continue" button) has no other use for.
pub fn has_saved_moves(game: &str) -> bool {
    get(&format!("tabula.local.{game}")).is_some_and(|json| saved_with_moves(&json))
}

fn saved_with_moves(json: &str) -> bool {
    #[derive(Deserialize)]
    struct Moves {
        moves: Vec<serde::de::IgnoredAny>,
    }
    serde_json::from_str::<Moves>(json).is_ok_and(|saved| !saved.moves.is_empty())
}

/// Where a room's game handed to the local screen for its review is kept (`?review`): beside, not
/// over, the player's own local game of `game`.
pub fn review_slot(game: &str) -> String {
    format!("{game}-review")
}

/// Keeps a game already written as a [`SavedGame`]'s JSON (a room's, as the server sent it).
pub fn save_game_json(slot: &str, json: &str) {
    set(&format!("tabula.local.{slot}"), json);
}

pub fn save_game(game: &str, saved: &SavedGame) {
    if let Ok(json) = serde_json::to_string(saved) {
        save_game_json(game, &json);
    }
}

pub fn forget_game(game: &str) {
    remove(&format!("tabula.local.{game}"));
}

/// The custom chess variant being written on the chess page (its JSON text, as typed).
pub fn custom_variant() -> Option<String> {
    get("tabula.chess.custom")
}

pub fn save_custom_variant(text: &str) {
    set("tabula.chess.custom", text);
}

/// The custom chess variant as the server last accepted it on the chess page (a config with the
/// variant compiled): what the local game plays.
#[cfg(all(feature = "local-screen", not(feature = "game-page")))]
pub fn custom_variant_checked() -> Option<Value> {
    serde_json::from_str(&get("tabula.chess.custom.checked")?).ok()
}

pub fn save_custom_variant_checked(config: &Value) {
    set("tabula.chess.custom.checked", &config.to_string());
}

/// A computer opponent in a local game: its level (1 to 5), the seat it plays, and the seed of its
/// random choices, so that a game against it replays the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opponent {
    pub level: u8,
    pub seat: u8,
    pub seed: u64,
}

impl Opponent {
    /// The opponent the address asks for (`computer=3&side=2`: level 3, the player takes the second
    /// seat), if it asks for one.
    pub fn from_query(query: &str) -> Option<Opponent> {
        let value = |key: &str| {
            query.split('&').filter_map(|pair| pair.split_once('=')).find(|(k, _)| *k == key).map(|(_, v)| v)
        };
        let level = value("computer")?.parse::<u8>().ok().filter(|l| (1..=5).contains(l))?;
        let side = value("side").and_then(|s| s.parse::<u8>().ok()).filter(|s| *s == 2).unwrap_or(1);
        Some(Opponent { level, seat: 3 - side, seed: crate::browser::random_u64() })
    }

    /// The address's part for this opponent, with the player on seat `side`.
    pub fn query(level: u8, side: u8) -> String {
        format!("computer={level}&side={side}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_address_names_the_level_and_the_player_s_side() {
        let opponent = Opponent::from_query("size=9&computer=4&side=2").unwrap();
        assert_eq!((opponent.level, opponent.seat), (4, 1));
        let opponent = Opponent::from_query(&Opponent::query(2, 1)).unwrap();
        assert_eq!((opponent.level, opponent.seat), (2, 2));
        assert_eq!(Opponent::from_query("computer=9"), None);
        assert_eq!(Opponent::from_query("size=9"), None);
    }
    use serde_json::json;

    #[test]
    fn a_saved_game_counts_for_continuing_once_it_has_a_move() {
        let saved = |moves: Vec<Value>| {
            serde_json::to_string(&SavedGame { config: json!({"size": 9}), moves, computer: None }).unwrap()
        };
        assert!(saved_with_moves(&saved(vec![json!({"type": "pass"})])));
        assert!(!saved_with_moves(&saved(Vec::new())));
        assert!(!saved_with_moves("garbage"));
    }

    #[test]
    fn settings_and_seats_read_back_what_was_written() {
        for confirm in [ConfirmMoves::Auto, ConfirmMoves::Always, ConfirmMoves::Never] {
            for (sound, notify, colour_blind) in [(true, false, true), (false, true, false)] {
                let settings = Settings { confirm, sound, notify, colour_blind };
                assert_eq!(Settings::from_json(&serde_json::to_value(settings).unwrap()), settings);
            }
        }
        assert_eq!(Settings::from_json(&json!({"sound": true})), Settings { sound: true, ..Settings::default() });
        assert_eq!(Settings::from_json(&json!("garbage")), Settings::default());

        for game in [Some("go".to_owned()), None] {
            let seat = HeldSeat { seat: 2, token: "t0k".into(), game };
            assert_eq!(HeldSeat::from_json(&serde_json::to_value(&seat).unwrap()), Some(seat));
        }
        // Seats saved by the first version had no game.
        let first = HeldSeat::from_json(&json!({"seat": 1, "token": "a"}));
        assert_eq!(first, Some(HeldSeat { seat: 1, token: "a".into(), game: None }));
        assert_eq!(HeldSeat::from_json(&json!({"seat": 300, "token": "a"})), None);
        assert_eq!(HeldSeat::from_json(&json!({"seat": 1})), None);
    }
}
