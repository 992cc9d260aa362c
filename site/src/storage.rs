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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ConfirmMoves {
    #[default]
    Auto,
    Always,
    Never,
}

/// This device's settings for every game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    pub confirm: ConfirmMoves,
    /// A short sound when it becomes your move in a room.
    pub sound: bool,
    /// A browser notification when it becomes your move while the page is in the background.
    pub notify: bool,
    /// Shapes and patterns besides colours.
    pub colour_blind: bool,
}

pub fn settings() -> Settings {
    get("tabula.settings").and_then(|json| serde_json::from_str(&json).ok()).unwrap_or_default()
}

pub fn save_settings(settings: &Settings) {
    if let Ok(json) = serde_json::to_string(settings) {
        set("tabula.settings", &json);
    }
}

/// A seat held in a room: which seat, the secret token that proves it, and the room's game (for
/// the home's "continue" list; absent in seats saved by the first version).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldSeat {
    pub seat: u8,
    pub token: String,
    #[serde(default)]
    pub game: Option<String>,
}

const SEAT_PREFIX: &str = "tabula.seat.";

pub fn held_seat(room: &str) -> Option<HeldSeat> {
    serde_json::from_str(&get(&format!("{SEAT_PREFIX}{room}"))?).ok()
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
    rooms.sort_by(|a, b| a.0.cmp(&b.0));
    rooms
}

/// A local game in progress: its config and moves (JSON), so a reload resumes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedGame {
    pub config: Value,
    pub moves: Vec<Value>,
    /// The computer opponent, in a game against it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computer: Option<crate::play::Opponent>,
}

pub fn saved_game(game: &str) -> Option<SavedGame> {
    serde_json::from_str(&get(&format!("tabula.local.{game}"))?).ok()
}

pub fn save_game(game: &str, saved: &SavedGame) {
    if let Ok(json) = serde_json::to_string(saved) {
        set(&format!("tabula.local.{game}"), &json);
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
