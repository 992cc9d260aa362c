//! Every call to the API (`/api/game`, `/api/triplex/...`), in one place. The server's room view is
//! the truth for online games.

use gloo_net::http::{Request, RequestBuilder, Response};
use gloo_timers::callback::Timeout;
#[cfg(feature = "home-pages")]
use leptos::wasm_split::SplitLoaderError;
use serde::Deserialize;
use serde_json::{json, Value};

/// The room as the server shows it (the fields the app uses), read by hand ([`RoomView::from_json`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RoomView {
    pub room_id: String,
    /// The game kind (`popucom`, `go`, ...).
    pub game: String,
    pub config: Value,
    pub moves: Vec<Value>,
    pub version: i64,
    pub game_number: i64,
    pub seats: Vec<SeatView>,
    pub state: Value,
    /// The seat asking to take back its last move (and the reply, if any), until answered.
    pub takeback: Option<u8>,
    /// How many moves that request takes back (2 once the other side replied; more after marks
    /// in Go's scoring phase).
    pub takeback_moves: Option<u32>,
    /// The room's takeback policy: `never`, `ask` or `always`.
    pub takebacks: String,
    /// People watching, where the server counts them (`tabula serve`).
    pub watching: Option<u32>,
    /// The time control (`{"kind": "live" | "correspondence", ...}`), or null.
    pub clock: Value,
    /// The clocks as the server counted them when it answered (`{"remainingMs": [first, second],
    /// "running": colour or null, "asOf"}`), or null.
    pub clocks: Value,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SeatView {
    pub seat: u8,
    pub colour: u8,
    pub taken: bool,
    pub name: Option<String>,
    /// Gone (no poll) for longer than the server's abandonment time.
    pub away: bool,
}

impl RoomView {
    /// Reads the server's JSON by hand: serde's derived reader of these fields weighed about 5 KB
    /// of every room bundle's first load. `None` if a field the app needs is missing or malformed;
    /// the others fall back to what the server leaves out.
    pub fn from_json(mut value: Value) -> Option<RoomView> {
        let mut take = |key: &str| value.get_mut(key).map(Value::take);
        let (config, moves, state) = (take("config"), take("moves"), take("state")?);
        let (clock, clocks, seats) = (take("clock"), take("clocks"), take("seats"));
        let number = |key: &str| value[key].as_u64().and_then(|n| u32::try_from(n).ok());
        Some(RoomView {
            room_id: value["roomId"].as_str()?.to_owned(),
            game: value["game"].as_str()?.to_owned(),
            config: config.unwrap_or_default(),
            moves: match moves? {
                Value::Array(moves) => moves,
                _ => return None,
            },
            version: value["version"].as_i64()?,
            game_number: value["gameNumber"].as_i64()?,
            seats: seats?.as_array()?.iter().map(SeatView::from_json).collect::<Option<_>>()?,
            state,
            takeback: number("takeback").and_then(|n| u8::try_from(n).ok()),
            takeback_moves: number("takebackMoves"),
            takebacks: value["takebacks"].as_str().unwrap_or("ask").to_owned(),
            watching: number("watching"),
            clock: clock.unwrap_or_default(),
            clocks: clocks.unwrap_or_default(),
        })
    }

    /// The colour seat `seat` plays in the current game.
    pub fn colour_of(&self, seat: u8) -> Option<u8> {
        self.seats.iter().find(|s| s.seat == seat).map(|s| s.colour)
    }

    /// The result as the server states it (this includes a resignation, which the moves do not show).
    pub fn result(&self) -> Option<(u8, String)> {
        let result = self.state.get("result")?;
        Some((result.get("winner")?.as_u64()? as u8, result.get("reason")?.as_str()?.to_owned()))
    }
}

impl SeatView {
    fn from_json(value: &Value) -> Option<SeatView> {
        let small = |key: &str| value[key].as_u64().and_then(|n| u8::try_from(n).ok());
        Some(SeatView {
            seat: small("seat")?,
            colour: small("colour")?,
            taken: value["taken"].as_bool()?,
            name: value["name"].as_str().map(str::to_owned),
            away: value["away"].as_bool().unwrap_or(false),
        })
    }
}

/// A refusal or a failure, as the app needs to tell them apart.
#[derive(Clone, Debug, PartialEq)]
pub enum ApiError {
    /// No answer at all (offline, server down): retry later.
    Network(String),
    /// The server answered with an error; `room` is the current room on a version conflict.
    Refused { status: u16, code: String, reason: Option<String>, message: String, room: Option<Box<RoomView>> },
}

impl ApiError {
    /// A request whose code, loaded on demand, did not arrive: a request that did not.
    pub fn code_not_loaded() -> ApiError {
        ApiError::Network("the page's code did not load".into())
    }
}

pub enum Fetched {
    Unchanged,
    Room { room: Box<RoomView>, etag: Option<String> },
}

const URL: &str = "/api/game";

/// Where the server writes a room's game as a record file (`pgn` for chess, `sgf` for Go).
pub fn record_url(room: &str, format: &str) -> String {
    format!("{URL}?roomId={room}&format={format}")
}

/// A request gives up after this long (a phone switching networks can leave one hanging forever).
const TIMEOUT_MS: u32 = 8_000;

/// Sends with a timeout: an aborted request is a network failure like any other.
async fn send(request: RequestBuilder, body: Option<&Value>) -> Result<Response, ApiError> {
    let controller = web_sys::AbortController::new().map_err(|_| ApiError::Network("no AbortController".into()))?;
    let request = request.abort_signal(Some(&controller.signal()));
    let request = match body {
        Some(body) => request.json(body).map_err(network)?,
        None => request.build().map_err(network)?,
    };
    let _deadline = Timeout::new(TIMEOUT_MS, move || controller.abort());
    request.send().await.map_err(network)
}

async fn read(response: Response) -> Result<Value, ApiError> {
    let status = response.status();
    // A server error or a gateway's error page: the service is not answering properly; retry.
    if status >= 500 {
        return Err(ApiError::Network(format!("server answered {status}")));
    }
    let body: Value = response.json().await.unwrap_or(Value::Null);
    if (200..300).contains(&status) {
        return Ok(body);
    }
    let error = &body["error"];
    Err(ApiError::Refused {
        status,
        code: error["code"].as_str().unwrap_or("unknown").to_owned(),
        reason: error["reason"].as_str().map(str::to_owned),
        message: error["message"].as_str().unwrap_or("").to_owned(),
        room: room_from(body["room"].clone()).ok().map(Box::new),
    })
}

fn network(error: gloo_net::Error) -> ApiError {
    ApiError::Network(error.to_string())
}

pub(crate) fn room_from(value: Value) -> Result<RoomView, ApiError> {
    RoomView::from_json(value).ok_or_else(|| ApiError::Network("unreadable room".into()))
}

/// The room, or `Unchanged` when `etag` still matches (a cheap 304). A seated player's `token`
/// tells the room they are still there, `visible` that they see it (no push notification then),
/// and `open_pages` how many pages have it open (where the push counts them).
pub async fn fetch_room(
    room: &str,
    etag: Option<&str>,
    token: Option<&str>,
    visible: bool,
    open_pages: Option<u32>,
) -> Result<Fetched, ApiError> {
    let mut request = Request::get(URL).query([("roomId", room)]);
    if visible && token.is_some() {
        request = request.query([("visible", "1")]);
    }
    if let Some(count) = open_pages {
        request = request.query([("pages", count.to_string().as_str())]);
    }
    if let Some(etag) = etag {
        request = request.header("If-None-Match", etag);
    }
    if let Some(token) = token {
        request = request.header("X-Tabula-Token", token);
    }
    let response = send(request, None).await?;
    if response.status() == 304 {
        return Ok(Fetched::Unchanged);
    }
    let etag = response.headers().get("etag");
    let room = Box::new(room_from(read(response).await?)?);
    Ok(Fetched::Room { room, etag })
}

/// How the server pushes room changes (`GET /api/push`).
#[derive(Clone, Debug, PartialEq)]
pub enum PushMode {
    /// Server-Sent Events at `url?roomId=...`; polls every `poll_ms` while they work.
    Sse { url: String, poll_ms: u32 },
    /// Supabase Realtime broadcasts, read from the websocket at `socket` with the public `key`;
    /// polls every `poll_ms` while they work.
    Realtime { socket: String, key: String, poll_ms: u32 },
    /// No push (or one this page does not speak): poll.
    Poll,
}

impl PushMode {
    /// Read by hand: a derived tagged enum would bring serde's buffering code into the room bundle.
    fn from_json(value: &Value) -> PushMode {
        match (value["mode"].as_str(), value["url"].as_str(), value["pollMs"].as_u64()) {
            (Some("sse"), Some(url), Some(poll_ms)) => PushMode::Sse { url: url.to_owned(), poll_ms: poll_ms as u32 },
            (Some("supabase"), _, Some(poll_ms)) => match (value["socket"].as_str(), value["key"].as_str()) {
                (Some(socket), Some(key)) => {
                    PushMode::Realtime { socket: socket.to_owned(), key: key.to_owned(), poll_ms: poll_ms as u32 }
                }
                _ => PushMode::Poll,
            },
            _ => PushMode::Poll,
        }
    }
}

pub async fn push_mode() -> Result<PushMode, ApiError> {
    Ok(PushMode::from_json(&read(send(Request::get("/api/push"), None).await?).await?))
}

/// The room the room page's start script already asked the API for (to pick the bundle), so the
/// first view needs no second request. Used once.
pub async fn prefetched(room: &str) -> Option<RoomView> {
    use wasm_bindgen::JsCast;
    let window = crate::browser::window()?;
    let key = wasm_bindgen::JsValue::from_str("tabulaRoom");
    let promise = js_sys::Reflect::get(&window, &key).ok()?.dyn_into::<js_sys::Promise>().ok()?;
    let _ = js_sys::Reflect::delete_property(&window, &key);
    let value = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
    let text = js_sys::JSON::stringify(&value).ok()?.as_string()?;
    let view = RoomView::from_json(serde_json::from_str(&text).ok()?)?;
    (view.room_id == room).then_some(view)
}

/// A room's game and whose move it is: for the pages that need nothing more of a room (and so
/// none of its JSON: `serde_json::Value` alone weighs 10 KB of the home's budget).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct RoomTurn {
    pub game: String,
    pub seats: Vec<SeatColour>,
    pub state: TurnState,
    /// The room's clocks, if it has a time control.
    #[serde(default)]
    pub clocks: Option<TurnClocks>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnClocks {
    /// Each colour's time left, colour 1 first.
    pub remaining_ms: [i64; 2],
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct SeatColour {
    pub seat: u8,
    pub colour: u8,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct TurnState {
    #[serde(default)]
    pub to_move: Option<u8>,
}

impl RoomTurn {
    /// Whether it is the move of whoever holds `seat`.
    pub fn moves(&self, seat: u8) -> bool {
        let colour = self.seats.iter().find(|s| s.seat == seat).map(|s| s.colour);
        colour.is_some() && colour == self.state.to_move
    }

    /// The time `seat`'s player has left for the game, as the server counted it; `None` without
    /// a clock.
    pub fn time_left(&self, seat: u8) -> Option<i64> {
        let colour = self.seats.iter().find(|s| s.seat == seat)?.colour;
        Some(self.clocks.as_ref()?.remaining_ms[usize::from(colour).checked_sub(1)?.min(1)])
    }
}

/// The home's bundle asks after its first paint, with code loaded on demand (its JSON reader is
/// no part of the first load); a module that does not arrive is a request that did not.
#[cfg(feature = "home-pages")]
pub async fn room_turn(room: String) -> Result<RoomTurn, ApiError> {
    match room_turn_code().await {
        Ok(read) => read(room).await,
        Err(_) => Err(ApiError::code_not_loaded()),
    }
}

/// Only in the home's bundle: a split function is kept by every bundle that compiles it.
#[cfg(feature = "home-pages")]
#[leptos::wasm_split::wasm_split(room_turn, wasm_split_path = ::leptos::wasm_split, fallible)]
fn room_turn_code() -> Result<crate::browser::OnDemand<String, Result<RoomTurn, ApiError>>, SplitLoaderError> {
    Ok(|room| Box::pin(read_room_turn(room)))
}

#[cfg(feature = "home-pages")]
async fn read_room_turn(room: String) -> Result<RoomTurn, ApiError> {
    let response = send(Request::get(URL).query([("roomId", room.as_str())]), None).await?;
    let body = response.text().await.map_err(network)?;
    if response.ok() {
        return serde_json::from_str(&body).map_err(|e| ApiError::Network(e.to_string()));
    }
    if response.status() >= 500 {
        return Err(ApiError::Network(format!("server answered {}", response.status())));
    }
    Err(ApiError::Refused {
        status: response.status(),
        code: "room_not_found".into(),
        reason: None,
        message: String::new(),
        room: None,
    })
}

/// A room in the lobby (`GET /api/lobby`): waiting for a player (`name` waits) or being played
/// (`players` by colour, `moves` so far).
#[derive(Clone, Debug, PartialEq)]
pub struct LobbyRoom {
    pub room_id: String,
    pub game: String,
    /// The game's options as `[key, value]` text pairs (`["size", "9"]`).
    pub options: Vec<(String, String)>,
    pub name: Option<String>,
    pub players: Vec<Option<String>>,
    pub moves: u32,
    /// People watching, where the server counts them (`tabula serve`).
    pub watching: Option<u32>,
    /// When the room was created (RFC 3339).
    pub since: String,
    pub clock: Option<Clock>,
}

/// A room's time control, as the lobby lists it and a game's page offers it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Clock {
    Live {
        seconds: u32,
        increment: u32,
    },
    /// Correspondence: days per move.
    Days(u32),
}

impl Clock {
    /// As the API takes it (`clock` in a new room or quick play).
    #[cfg(feature = "game-page")]
    pub fn json(self) -> Value {
        match self {
            Clock::Live { seconds, increment } => {
                json!({"kind": "live", "initialSeconds": seconds, "incrementSeconds": increment})
            }
            Clock::Days(days) => json!({"kind": "correspondence", "daysPerMove": days}),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lobby {
    pub waiting: Vec<LobbyRoom>,
    pub playing: Vec<LobbyRoom>,
}

/// Reads the lobby with the browser's own JSON parser: serde's derived readers for these structs
/// weighed 5 KB of the home's first load.
fn lobby_from_js(value: &wasm_bindgen::JsValue) -> Option<Lobby> {
    use wasm_bindgen::{JsCast, JsValue};
    let get = |object: &JsValue, key: &str| js_sys::Reflect::get(object, &JsValue::from_str(key)).ok();
    let array = |object: &JsValue, key: &str| get(object, key)?.dyn_into::<js_sys::Array>().ok();
    let text = |object: &JsValue, key: &str| get(object, key)?.as_string();
    let number = |object: &JsValue, key: &str| get(object, key)?.as_f64().map(|n| n as u32);
    let pair = |pair: JsValue| {
        let pair = pair.dyn_into::<js_sys::Array>().ok()?;
        Some((pair.get(0).as_string()?, pair.get(1).as_string()?))
    };
    let room = |room: JsValue| {
        Some(LobbyRoom {
            room_id: text(&room, "roomId")?,
            game: text(&room, "game")?,
            options: array(&room, "options").map(|a| a.iter().filter_map(pair).collect()).unwrap_or_default(),
            name: text(&room, "name"),
            players: array(&room, "players").map(|a| a.iter().map(|n| n.as_string()).collect()).unwrap_or_default(),
            moves: number(&room, "moves").unwrap_or(0),
            watching: number(&room, "watching"),
            since: text(&room, "since").unwrap_or_default(),
            clock: get(&room, "clock").filter(|c| c.is_object()).and_then(|clock| {
                Some(match text(&clock, "kind")?.as_str() {
                    "live" => Clock::Live {
                        seconds: number(&clock, "initialSeconds")?,
                        increment: number(&clock, "incrementSeconds")?,
                    },
                    _ => Clock::Days(number(&clock, "daysPerMove")?),
                })
            }),
        })
    };
    let list = |key: &str| array(value, key).map(|a| a.iter().filter_map(room).collect());
    Some(Lobby { waiting: list("waiting")?, playing: list("playing")? })
}

/// The public rooms, of one game or of all.
pub async fn lobby(game: Option<&str>) -> Result<Lobby, ApiError> {
    let request = Request::get("/api/lobby");
    let request = match game {
        Some(game) => request.query([("game", game)]),
        None => request,
    };
    let response = send(request, None).await?;
    if !response.ok() {
        return Err(ApiError::Network(format!("server answered {}", response.status())));
    }
    let body = response.text().await.map_err(network)?;
    let value = js_sys::JSON::parse(&body).map_err(|_| ApiError::Network("unreadable lobby".into()))?;
    lobby_from_js(&value).ok_or_else(|| ApiError::Network("unreadable lobby".into()))
}

/// Quick play: a seat in a public room of `game` with these options, beside a player who waits or
/// waiting for one (`POST /api/lobby`).
#[cfg(feature = "game-page")]
/// Quick play; `held` lists seats this browser holds (room code, token), so a player already
/// waiting with these options is sent back to that seat.
pub async fn quick_play(
    game: &str,
    config: &Value,
    clock: &Value,
    name: &str,
    held: &[(String, String)],
) -> Result<Joined, ApiError> {
    let held: Vec<Value> = held.iter().map(|(room, token)| json!({"roomId": room, "token": token})).collect();
    let mut body = json!({"game": game, "config": config, "clock": clock, "held": held});
    if !name.trim().is_empty() {
        body["name"] = json!(name.trim());
    }
    let reply = read(send(Request::post("/api/lobby"), Some(&body)).await?).await?;
    Ok(Joined {
        room: room_from(reply["room"].clone())?,
        seat: reply["seat"].as_u64().map(|s| s as u8),
        token: reply["token"].as_str().map(str::to_owned),
    })
}

pub struct Joined {
    pub room: RoomView,
    pub seat: Option<u8>,
    pub token: Option<String>,
}

/// What a room is created with, if it does not exist yet.
pub struct NewRoom<'a> {
    pub game: &'a str,
    pub config: &'a Value,
    /// `never`, `ask` or `always`; `None` leaves the server's default.
    pub takebacks: Option<&'a str>,
}

/// Checks a game's options as creating a room would, creating nothing: the config as pages get it
/// (a custom chess variant compiled by the server), or the server's refusal.
pub async fn check_config(game: &str, config: &Value) -> Result<Value, ApiError> {
    let body = json!({"check": true, "game": game, "config": config});
    let reply = read(send(Request::post(URL), Some(&body)).await?).await?;
    Ok(reply["config"].clone())
}

/// Opens the room, creating it as `game` says if it does not exist; claims `seat`, or
/// re-attaches `token`. Without a game, a missing room is an error (`room_not_found`): the room is
/// read, not created.
pub async fn join(
    room: &str,
    game: Option<NewRoom<'_>>,
    seat: Option<u8>,
    token: Option<&str>,
    name: &str,
) -> Result<Joined, ApiError> {
    if game.is_none() && seat.is_none() && token.is_none() {
        return match fetch_room(room, None, None, false, None).await? {
            Fetched::Room { room, .. } => Ok(Joined { room: *room, seat: None, token: None }),
            Fetched::Unchanged => Err(ApiError::Network("unexpected 304".into())),
        };
    }
    let mut body = json!({"roomId": room});
    if let Some(new) = game {
        body["game"] = json!(new.game);
        body["config"] = new.config.clone();
        if let Some(takebacks) = new.takebacks {
            body["takebacks"] = json!(takebacks);
        }
    }
    if let Some(seat) = seat {
        body["seat"] = json!(seat);
        if !name.trim().is_empty() {
            body["name"] = json!(name.trim());
        }
    }
    if let Some(token) = token {
        body["token"] = json!(token);
    }
    let reply = read(send(Request::post(URL), Some(&body)).await?).await?;
    Ok(Joined {
        room: room_from(reply["room"].clone())?,
        seat: reply["seat"].as_u64().map(|s| s as u8),
        token: reply["token"].as_str().map(str::to_owned),
    })
}

/// Creates a room from a game's page, public (listed in the lobby) or not; seats nobody.
#[cfg(feature = "game-page")]
pub async fn create_room(room: &str, new: NewRoom<'_>, public: bool, clock: &Value) -> Result<(), ApiError> {
    let body = json!({"roomId": room, "game": new.game, "config": new.config, "takebacks": new.takebacks,
        "public": public, "clock": clock});
    read(send(Request::post(URL), Some(&body)).await?).await.map(drop)
}

/// A move, or an action (`resign`, `rematch`, `takeback`, `accept_takeback`, `decline_takeback`,
/// `claim_win`, `claim_draw`),
/// at the room version the player saw. The version makes
/// a retried request safe: it can land at most once.
pub async fn act(
    room: &str,
    token: &str,
    version: i64,
    mv: Option<Value>,
    action: Option<&str>,
) -> Result<RoomView, ApiError> {
    let mut body = json!({"roomId": room, "token": token, "version": version});
    if let Some(mv) = mv {
        body["move"] = mv;
    }
    if let Some(action) = action {
        body["action"] = json!(action);
    }
    room_from(read(send(Request::put(URL), Some(&body)).await?).await?)
}

/// A Triplex level's records: first solver, number of solvers, best and median times.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TriplexRecords {
    pub first: Option<FirstSolver>,
    pub solvers: u64,
    pub best_ms: Option<u64>,
    pub median_ms: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct FirstSolver {
    pub name: String,
    pub ms: u64,
}

fn records_from(value: Value) -> Result<TriplexRecords, ApiError> {
    serde_json::from_value(value).map_err(|e| ApiError::Network(format!("unreadable records: {e}")))
}

pub async fn triplex_records(level: usize) -> Result<TriplexRecords, ApiError> {
    let request = Request::get("/api/triplex/records").query([("level", level.to_string())]);
    records_from(read(send(request, None).await?).await?)
}

/// Sends a solve to the records; the server checks the solution and answers the level's records.
pub async fn triplex_solve(
    level: usize,
    name: &str,
    ms: u64,
    solution: &[Vec<u8>],
) -> Result<TriplexRecords, ApiError> {
    let body = json!({"level": level, "name": name, "ms": ms, "solution": solution});
    records_from(read(send(Request::post("/api/triplex/solve"), Some(&body)).await?).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_room_reads_with_its_seats_and_the_fields_the_server_may_leave_out() {
        let seats = json!([
            {"seat": 1, "colour": 2, "taken": true, "name": "Ann", "away": true},
            {"seat": 2, "colour": 1, "taken": false, "name": null},
        ]);
        let full = json!({
            "roomId": "abc234", "game": "go", "config": {"size": 9}, "moves": [{"type": "pass"}], "version": 7,
            "gameNumber": 1, "seats": seats, "state": {"to_move": 1}, "takeback": 2, "takebackMoves": 2,
            "takebacks": "never", "watching": 3, "clock": {"kind": "correspondence", "days": 3},
            "clocks": {"remainingMs": [1, 2]},
        });
        let room = RoomView::from_json(full.clone()).unwrap();
        assert_eq!((room.room_id.as_str(), room.game.as_str(), room.version, room.game_number), ("abc234", "go", 7, 1));
        assert_eq!(
            (room.config, room.moves, room.state),
            (json!({"size": 9}), vec![json!({"type": "pass"})], full["state"].clone())
        );
        let ann = SeatView { seat: 1, colour: 2, taken: true, name: Some("Ann".into()), away: true };
        assert_eq!(room.seats, [ann, SeatView { seat: 2, colour: 1, taken: false, name: None, away: false }]);
        assert_eq!((room.takeback, room.takeback_moves, room.takebacks.as_str()), (Some(2), Some(2), "never"));
        assert_eq!((room.watching, room.clock, room.clocks), (Some(3), full["clock"].clone(), full["clocks"].clone()));

        let mut bare = full.clone();
        for key in ["config", "takeback", "takebackMoves", "takebacks", "watching", "clock", "clocks"] {
            bare.as_object_mut().unwrap().remove(key);
        }
        let room = RoomView::from_json(bare).unwrap();
        assert_eq!(
            (room.config, room.takeback, room.takebacks.as_str(), room.clock),
            (Value::Null, None, "ask", Value::Null)
        );
        for (key, broken) in
            [("state", Value::Null), ("moves", json!({})), ("version", json!("7")), ("seats", json!([{"seat": 1}]))]
        {
            let mut bad = full.clone();
            match broken {
                Value::Null => drop(bad.as_object_mut().unwrap().remove(key)),
                broken => bad[key] = broken,
            }
            assert_eq!(RoomView::from_json(bad), None, "{key}");
        }
    }

    #[test]
    fn the_push_mode_reads_what_the_server_says_and_falls_back_to_polling() {
        let sse = json!({"mode": "sse", "url": "/api/events", "pollMs": 10_000});
        assert_eq!(PushMode::from_json(&sse), PushMode::Sse { url: "/api/events".into(), poll_ms: 10_000 });
        let socket = "wss://x.supabase.co/realtime/v1/websocket";
        let supabase =
            json!({"mode": "supabase", "url": "https://x.supabase.co", "socket": socket, "key": "k", "pollMs": 2_000});
        assert_eq!(
            PushMode::from_json(&supabase),
            PushMode::Realtime { socket: socket.into(), key: "k".into(), poll_ms: 2_000 }
        );
        for other in [
            json!({"mode": "poll"}),
            json!({"mode": "supabase", "url": "https://x.supabase.co", "key": "k", "pollMs": 1}),
            json!({"mode": "supabase", "socket": socket, "pollMs": 1}),
            json!({"mode": "sse"}),
            json!(null),
        ] {
            assert_eq!(PushMode::from_json(&other), PushMode::Poll, "{other}");
        }
    }
}
