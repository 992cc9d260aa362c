//! The computer opponent and the hints of local games. The search runs in a Web Worker started from
//! the `ai` bundle (`worker.rs`; the page learns the worker's script from `window.tabulaAi`), so
//! the page stays responsive while it thinks: the page posts the game so far and gets a move back.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use serde_json::{json, Value};
use tabula_core::Game;

use super::History;

/// The level hints come from: a sound suggestion that still answers fast.
pub const HINT_LEVEL: u8 = 3;

/// What the computer answered (natively, where no worker runs, always `Failed`).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// A move in the game's JSON shape.
    Move(Value),
    /// Nothing to play (the game is over; in Go's scoring, it has accepted).
    Nothing,
    /// It could not answer (the worker did not start, or refused the request).
    Failed(String),
    /// A review ([`review`]): `tabula review`'s answer.
    Review(Value),
}

/// Asks for a move for `seat` (or the side to move) at `level` in `game` (its name) as `history`
/// has it; `on_reply` gets the answer.
pub fn ask<G: Game>(
    game: &str,
    history: &History<G>,
    level: u8,
    seed: u64,
    seat: Option<u8>,
    on_reply: impl FnOnce(Reply) + 'static,
) {
    send(request(game, history, level, seed, seat), Box::new(on_reply), None);
}

/// The worker's request about `history`'s game, for `seat` (or the side to move) at `level`.
pub fn request<G: Game>(game: &str, history: &History<G>, level: u8, seed: u64, seat: Option<u8>) -> Value {
    json!({
        "game": game, "level": level, "seed": seed,
        "request": {"config": history.config(), "moves": history.moves_json(), "seat": seat},
    })
}

/// Asks for a review of the game of `request` (made by [`request`]): `on_judged(n)` hears each
/// position judged, `on_reply` gets [`Reply::Review`] or why not.
pub fn review(mut request: Value, on_judged: impl Fn(usize) + 'static, on_reply: impl FnOnce(Reply) + 'static) {
    request["review"] = json!(true);
    send(request, Box::new(on_reply), Some(Box::new(on_judged)));
}

/// Stops a review by ending the worker (a search cannot be interrupted). The other requests it
/// owed (the computer's move, a hint) go to a new one, so a game against the computer goes on.
pub fn stop() {
    let owed = WORKER.with_borrow_mut(|worker| {
        let channel = worker.take()?;
        #[cfg(target_arch = "wasm32")]
        channel.worker.terminate();
        let owed = std::mem::take(&mut *channel.pending.borrow_mut());
        Some(owed)
    });
    for (_, owed) in owed.into_iter().flatten() {
        if owed.on_judged.is_none() {
            send(owed.request, owed.on_reply, None);
        }
    }
}

fn send(request: Value, on_reply: OnReply, on_judged: Option<OnJudged>) {
    leptos::task::spawn_local(async move {
        match channel_code().await {
            Ok(post) => post(request, on_reply, on_judged),
            Err(_) => on_reply(Reply::Failed("the computer player's code did not load".into())),
        }
    });
}

/// The worker's channel, loaded with the first request (see `crate::browser::OnDemand`): a game
/// against the computer asks at once ([`warm_up`]), a game between people only for a hint.
#[leptos::wasm_split::wasm_split(computer_channel, wasm_split_path = ::leptos::wasm_split, fallible)]
fn channel_code() -> Result<Post, leptos::wasm_split::SplitLoaderError> {
    Ok(post)
}

/// Posts `request` to the worker, started if it is not running.
fn post(request: Value, on_reply: OnReply, on_judged: Option<OnJudged>) {
    WORKER.with_borrow_mut(|worker| {
        if worker.is_none() {
            *worker = Channel::start();
        }
        match worker {
            Some(channel) => channel.post(request, on_reply, on_judged),
            None => on_reply(Reply::Failed("no computer player in this build".into())),
        }
    });
}

/// Starts the worker ahead of the first request and has it search `history`'s position at the
/// hint level, its answer unread. Chromium first runs WebAssembly in a baseline tier and optimises
/// the code that runs hot; a fresh worker's first top-level POPUCOM move took 1.09 to 1.13 s where
/// the next ones took 0.90, and after this search (under 0.1 s) the first took 0.92 to 0.94 s.
pub fn warm_up<G: Game>(game: &str, history: &History<G>) {
    ask(game, history, HINT_LEVEL, crate::browser::random_u64(), None, |_| {});
}

/// What to do with a reply when it comes.
type OnReply = Box<dyn FnOnce(Reply)>;

/// What to do with a review's progress (positions judged).
type OnJudged = Box<dyn Fn(usize)>;

/// Sends a request to the worker ([`post`]).
type Post = fn(Value, OnReply, Option<OnJudged>);

/// A request the worker has not answered yet.
struct Owed {
    on_reply: OnReply,
    /// A review's progress listener.
    on_judged: Option<OnJudged>,
    /// The request, to send again to a new worker.
    request: Value,
}

/// The answers owed, by request id.
type Pending = Rc<RefCell<BTreeMap<u64, Owed>>>;

thread_local! {
    static WORKER: RefCell<Option<Channel>> = const { RefCell::new(None) };
}

/// The worker and the answers it owes.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
struct Channel {
    #[cfg(target_arch = "wasm32")]
    worker: web_sys::Worker,
    pending: Pending,
    next: u64,
    #[cfg(target_arch = "wasm32")]
    _listeners: [wasm_bindgen::closure::Closure<dyn FnMut(web_sys::Event)>; 2],
}

/// A message of the worker: a reply, or how far a review got.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
#[derive(Debug, PartialEq)]
enum Heard {
    Reply(Reply),
    Judged(usize),
}

/// Reads the worker's message (JSON text) into a request id and what it says.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn read_reply(text: &str) -> Option<(u64, Heard)> {
    let answer: Value = serde_json::from_str(text).ok()?;
    let id = answer["id"].as_u64()?;
    if let Some(judged) = answer.get("judged") {
        return Some((id, Heard::Judged(judged.as_u64()? as usize)));
    }
    let reply = if let Some(error) = answer.get("error") {
        Reply::Failed(error["message"].as_str().unwrap_or("the computer could not answer").to_owned())
    } else if let Some(review) = answer.get("review") {
        Reply::Review(review.clone())
    } else if answer["move"].is_null() {
        Reply::Nothing
    } else {
        Reply::Move(answer["move"].clone())
    };
    Some((id, Heard::Reply(reply)))
}

impl Channel {
    #[cfg(not(target_arch = "wasm32"))]
    fn start() -> Option<Channel> {
        None
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn post(&mut self, _request: Value, on_reply: OnReply, _on_judged: Option<OnJudged>) {
        on_reply(Reply::Failed("no worker natively".into()));
    }

    /// Starts the worker: the build's script (`window.tabulaAi`), a module that imports the `ai`
    /// bundle and answers each message with its `answer`.
    #[cfg(target_arch = "wasm32")]
    fn start() -> Option<Channel> {
        use wasm_bindgen::closure::Closure;
        use wasm_bindgen::JsCast;

        let window: wasm_bindgen::JsValue = crate::browser::window()?.into();
        let url = js_sys::Reflect::get(&window, &"tabulaAi".into()).ok()?.as_string()?;
        let worker_options = web_sys::WorkerOptions::new();
        worker_options.set_type(web_sys::WorkerType::Module);
        let worker = web_sys::Worker::new_with_options(&url, &worker_options).ok()?;
        let pending: Pending = Rc::default();
        let answers = pending.clone();
        let on_message = Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
            let text = event.dyn_into::<web_sys::MessageEvent>().ok().and_then(|e| e.data().as_string());
            match text.as_deref().and_then(read_reply) {
                Some((id, Heard::Judged(judged))) => {
                    if let Some(Owed { on_judged: Some(on_judged), .. }) = answers.borrow().get(&id) {
                        on_judged(judged);
                    }
                }
                Some((id, Heard::Reply(reply))) => {
                    let waiting = answers.borrow_mut().remove(&id);
                    if let Some(owed) = waiting {
                        (owed.on_reply)(reply);
                    }
                }
                None => {}
            }
        });
        let failed = pending.clone();
        // A worker that cannot start (its files missing, a browser without module workers) fails
        // what it owes and is started again on the next request.
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |_event: web_sys::Event| {
            let owed = std::mem::take(&mut *failed.borrow_mut());
            WORKER.with_borrow_mut(|worker| *worker = None);
            for (_, owed) in owed {
                (owed.on_reply)(Reply::Failed("the computer player did not start".into()));
            }
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Some(Channel { worker, pending, next: 1, _listeners: [on_message, on_error] })
    }

    #[cfg(target_arch = "wasm32")]
    fn post(&mut self, mut request: Value, on_reply: OnReply, on_judged: Option<OnJudged>) {
        let id = self.next;
        self.next += 1;
        request["id"] = json!(id);
        let text = request.to_string();
        self.pending.borrow_mut().insert(id, Owed { on_reply, on_judged, request });
        if self.worker.post_message(&text.into()).is_err() {
            if let Some(owed) = self.pending.borrow_mut().remove(&id) {
                (owed.on_reply)(Reply::Failed("the computer player did not take the request".into()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worker_s_answers_read_as_replies() {
        let reply = |id, reply| Some((id, Heard::Reply(reply)));
        assert_eq!(read_reply(r#"{"id": 3, "move": [4, 4], "ms": 2}"#), reply(3, Reply::Move(json!([4, 4]))));
        assert_eq!(read_reply(r#"{"id": 4, "move": null, "ms": 0}"#), reply(4, Reply::Nothing));
        let failed = read_reply(r#"{"id": 5, "error": {"code": "bad_moves", "message": "move 0: no"}}"#);
        assert_eq!(failed, reply(5, Reply::Failed("move 0: no".into())));
        assert_eq!(read_reply(r#"{"id": 6, "judged": 12}"#), Some((6, Heard::Judged(12))));
        let review = read_reply(r#"{"id": 7, "review": {"values": [0.5]}}"#);
        assert_eq!(review, reply(7, Reply::Review(json!({"values": [0.5]}))));
        assert_eq!(read_reply("not json"), None);
    }
}
