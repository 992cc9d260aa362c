//! The computer player's side of the Web Worker (the `ai` bundle): one request in, one answer out,
//! as JSON text. The page posts `{"id", "game", "level", "seed", "config", "moves", "seat"?}`;
//! the answer is `tabula ai`'s (`{"move", "ms", ...}` or `{"error": {"code", "message"}}`) with
//! the request's `id`. The player of the last request is kept while game, level and seed stay the
//! same, so its search tree carries over from move to move.

use std::cell::RefCell;

use serde_json::{json, Value};
use tabula_core::ai::{AnyPlayer, JsonChoice};
use tabula_core::{GameKind, Seat};
use wasm_bindgen::prelude::wasm_bindgen;

#[derive(serde::Deserialize)]
struct Request {
    id: u64,
    game: String,
    level: u8,
    seed: u64,
    #[serde(default)]
    config: Value,
    #[serde(default)]
    moves: Vec<Value>,
    #[serde(default)]
    seat: Option<u8>,
}

thread_local! {
    static PLAYER: RefCell<Option<((GameKind, u8, u64), AnyPlayer)>> = const { RefCell::new(None) };
}

/// Answers one request (JSON text), timing it with the worker's clock.
#[wasm_bindgen]
pub fn answer(request: &str) -> String {
    let start = js_sys::Date::now();
    let request: Request = match serde_json::from_str(request) {
        Ok(request) => request,
        Err(error) => return error_reply(Value::Null, "bad_request", &error.to_string()),
    };
    let Ok(kind) = request.game.parse::<GameKind>() else {
        return error_reply(json!(request.id), "bad_request", &format!("no game {:?}", request.game));
    };
    let key = (kind, request.level, request.seed);
    PLAYER.with_borrow_mut(|kept| {
        if kept.as_ref().is_none_or(|(k, _)| *k != key) {
            match AnyPlayer::new(kind, request.level, request.seed) {
                Ok(player) => *kept = Some((key, player)),
                Err(error) => return error_reply(json!(request.id), error.code(), &error.to_string()),
            }
        }
        let (_, player) = kept.as_mut().expect("a player was just made");
        let seat = request.seat.and_then(Seat::from_number);
        match player.choose(&request.config, &request.moves, seat) {
            Ok(choice) => {
                let mut reply = JsonChoice::answer(choice.as_ref(), js_sys::Date::now() - start);
                reply["id"] = json!(request.id);
                reply.to_string()
            }
            Err(error) => error_reply(json!(request.id), error.code(), &error.to_string()),
        }
    })
}

fn error_reply(id: Value, code: &str, message: &str) -> String {
    json!({"id": id, "error": {"code": code, "message": message}}).to_string()
}
