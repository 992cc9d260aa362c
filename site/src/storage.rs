//! What the browser remembers (localStorage): the language, the player's name, and the seat token
//! of each room the player sits in, so reloading or reopening a share link resumes the seat.

use serde::{Deserialize, Serialize};

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

fn get(key: &str) -> Option<String> {
    local_storage()?.get_item(key).ok()?
}

fn set(key: &str, value: &str) {
    if let Some(storage) = local_storage() {
        // Storage can be full or disabled (private mode): the app still works, it just forgets.
        let _ = storage.set_item(key, value);
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

/// A seat held in a room: which seat and the secret token that proves it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldSeat {
    pub seat: u8,
    pub token: String,
}

fn seat_key(room: &str) -> String {
    format!("tabula.seat.{room}")
}

pub fn held_seat(room: &str) -> Option<HeldSeat> {
    serde_json::from_str(&get(&seat_key(room))?).ok()
}

pub fn hold_seat(room: &str, seat: &HeldSeat) {
    if let Ok(json) = serde_json::to_string(seat) {
        set(&seat_key(room), &json);
    }
}

pub fn forget_seat(room: &str) {
    if let Some(storage) = local_storage() {
        let _ = storage.remove_item(&seat_key(room));
    }
}
