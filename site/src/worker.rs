//! The computer player's side of the Web Worker (the `ai` bundle): one request in, one answer out,
//! as JSON text. The page posts `{"id", "game", "level", "seed", "request": {"config", "moves",
//! "seat"?}}` (the request as `tabula ai` reads it); the answer is `tabula ai`'s (`{"move", "ms",
//! ...}` or `{"error": {"code", "message"}}`) with the request's `id`. The player of the last
//! request is kept while game, level and seed stay the same, so its search tree carries over from
//! move to move. `{"id", "bench": {"playouts", "seed"}}` times POPUCOM playouts as the search
//! plays them (`{"id", "playouts", "rewardSum", "ms"}`), for the WASM speed figure the browser test
//! takes. `{"id", "replay": {"game", "config", "moves"}}` answers the state and the legal moves after the
//! moves (`{"id", "state", "legal"}`): the browser test that holds the engine in WASM to the native
//! one, bit for bit (`cli/tests/e2e/targets.rs`). The same request with `"review": true` reviews the
//! game (`tabula review`'s answer under `"review"`), posting
//! `{"id", "judged": n}` after each position it has judged, for the page's progress bar. Between
//! messages, the script calls [`think`] until it returns 0: the kept player plays the search its
//! last answer did not wait for (`Searcher::think`), while the player thinks.

use std::cell::RefCell;

use serde_json::{json, Value};
use tabula_core::ai::{error_reply, review_game, AiRequest, AnyPlayer};
use tabula_core::GameKind;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsCast;

#[derive(serde::Deserialize)]
struct Message {
    id: u64,
    game: GameKind,
    level: u8,
    seed: u64,
    request: AiRequest,
    /// A review of the game instead of a move.
    #[serde(default)]
    review: bool,
}

#[derive(serde::Deserialize)]
struct BenchMessage {
    id: u64,
    bench: Bench,
}

#[derive(serde::Deserialize)]
struct Bench {
    playouts: u32,
    seed: u64,
}

#[derive(serde::Deserialize)]
struct ReplayMessage {
    id: u64,
    replay: Replay,
}

#[derive(serde::Deserialize)]
struct Replay {
    game: GameKind,
    #[serde(default)]
    config: Value,
    moves: Vec<Value>,
}

/// Reviews a game, telling the page how far it got after each position.
fn review(id: u64, message: &Message) -> Value {
    let global = js_sys::global();
    let post =
        js_sys::Reflect::get(&global, &"postMessage".into()).ok().and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    let mut judged_count = |judged: usize| {
        if let Some(post) = &post {
            let _ = post.call1(&global, &json!({"id": id, "judged": judged}).to_string().into());
        }
    };
    match review_game(message.game, &message.request, message.level, message.seed, &mut judged_count) {
        Ok(review) => json!({ "review": review }),
        Err(error) => error_reply(error.code(), &error.to_string()),
    }
}

/// The state and the legal moves after the moves, or why a move or the config was refused.
fn replay(replay: &Replay) -> Value {
    match replay.game.replay(&replay.config, &replay.moves) {
        Ok(game) => json!({"state": game.state(), "legal": game.legal_moves()}),
        Err(error) => error_reply("bad_replay", &error.to_string()),
    }
}

/// The worker's player, kept while its game, level and seed stay the same.
type KeptPlayer = Option<((GameKind, u8, u64), AnyPlayer)>;

thread_local! {
    static PLAYER: RefCell<KeptPlayer> = const { RefCell::new(None) };
}

/// Plays up to `playouts` of the kept player's owed search; returns how many are left.
#[wasm_bindgen]
pub fn think(playouts: u32) -> u32 {
    PLAYER.with_borrow_mut(|kept| kept.as_mut().map_or(0, |(_, player)| player.think(playouts)))
}

/// Answers one message (JSON text), timing it with the worker's clock.
#[wasm_bindgen]
pub fn answer(message: &str) -> String {
    let start = js_sys::Date::now();
    if let Ok(BenchMessage { id, bench }) = serde_json::from_str::<BenchMessage>(message) {
        let sum = AnyPlayer::playout_reward_sum(GameKind::Popucom, bench.playouts, bench.seed);
        let ms = js_sys::Date::now() - start;
        return json!({"id": id, "playouts": bench.playouts, "rewardSum": sum, "ms": ms}).to_string();
    }
    if let Ok(ReplayMessage { id, replay: request }) = serde_json::from_str::<ReplayMessage>(message) {
        let mut reply = replay(&request);
        reply["id"] = json!(id);
        return reply.to_string();
    }
    let (id, mut reply) = match serde_json::from_str::<Message>(message) {
        Err(error) => (Value::Null, error_reply("bad_request", &error.to_string())),
        Ok(message) if message.review => (json!(message.id), review(message.id, &message)),
        Ok(message) => {
            let key = (message.game, message.level, message.seed);
            let reply = PLAYER.with_borrow_mut(|kept| {
                if kept.as_ref().is_none_or(|(k, _)| *k != key) {
                    match AnyPlayer::new(message.game, message.level, message.seed) {
                        Ok(player) => *kept = Some((key, player)),
                        Err(error) => return error_reply(error.code(), &error.to_string()),
                    }
                }
                let (_, player) = kept.as_mut().expect("a player was just made");
                player.reply(&message.request, || js_sys::Date::now() - start)
            });
            (json!(message.id), reply)
        }
    };
    reply["id"] = id;
    reply.to_string()
}
