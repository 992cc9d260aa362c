//! The lobby: public rooms waiting for a player, public games being played (to watch), and quick
//! play. Rooms are private unless created with `public: true`. Nothing here reveals a token: the
//! lists are built from room views.
//!
//! Quick play joins the oldest public room of the same game and options whose one seated player is
//! still there, or else sits in a quick-play room whose id every player with those options computes
//! alike (`q<options hash>-<n>`, the lowest `n` still open). Two players pressing at once therefore
//! meet in one room: the room's creation is idempotent and each seat's claim a compare-and-swap.
//! A player who already waits with those options (one of the seats the request says it holds) is
//! sent back to that seat, never across the table from themselves or into a second room.

use std::collections::HashSet;

use axum::extract::{Query, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tabula_core::{GameKind, Seat};

use crate::body::{JsonBody, CREATE_BODY_LIMIT};
use crate::clock::{Clock, ClockSetting};
use crate::error::ApiError;
use crate::http::{with_etag, within_deadline};
use crate::room::{now, timestamp, LoadedRoom, Room, RoomId};
use crate::seats::{claim_seat, display_name, requested_game};
use crate::state::AppState;
use crate::token::hash_token;

/// This module's path.
pub(crate) fn routes() -> Router<AppState> {
    let lobby = get(get_lobby).post(post_quick_play).layer(axum::middleware::from_fn(within_deadline));
    Router::new().route("/api/lobby", lobby)
}

/// The most rooms each list shows.
pub const LIST_LIMIT: usize = 50;
/// The most public rooms read for one answer.
const READ_LIMIT: usize = 200;
/// Quick-play rooms tried past the lowest open number before giving up.
const QUICK_ROOMS_TRIED: u32 = 32;
/// The most held seats one quick-play request is checked against (one room read each).
const HELD_SEATS_READ: usize = 8;

/// What the lobby shows of a room's options: the config's plain fields as `[key, text]` pairs
/// (`["size", "9"]`), without a variant's definition or anything else that is not a number, a
/// word or a yes/no.
fn options(room: &Room) -> Vec<(String, String)> {
    let Some(fields) = room.config.as_object() else { return Vec::new() };
    fields
        .iter()
        .filter_map(|(key, value)| {
            let text = match value {
                Value::String(text) => text.clone(),
                Value::Number(number) => number.to_string(),
                Value::Bool(yes) => yes.to_string(),
                _ => return None,
            };
            Some((key.clone(), text))
        })
        .collect()
}

fn taken(room: &Room) -> usize {
    Seat::ALL.into_iter().filter(|seat| room.holder(*seat).token_hash.is_some()).count()
}

/// A room quick play may join: one seat taken by a player who is still there, the game not over.
fn waiting(app: &AppState, loaded: &LoadedRoom, now: DateTime<Utc>) -> bool {
    taken(&loaded.room) == 1 && app.present(&loaded.room, now).len() == 1 && !loaded.is_over()
}

#[derive(Deserialize)]
pub struct LobbyQuery {
    game: Option<String>,
}

fn game_kind(name: &str) -> Result<GameKind, ApiError> {
    name.parse::<GameKind>().map_err(|e| ApiError::BadRequest(e.to_string()))
}

/// `GET /api/lobby[?game=G]`: `{"waiting": [...], "playing": [...]}`, newest first.
pub async fn get_lobby(
    State(app): State<AppState>,
    query: Result<Query<LobbyQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let game = query.game.as_deref().map(game_kind).transpose()?;
    let now = now();
    let rooms = app.store().public_rooms(game, now - app.abandon_after(), READ_LIMIT).await?;
    let (mut waiting_rooms, mut playing) = (Vec::new(), Vec::new());
    for room in rooms {
        let loaded = app.open(room)?;
        let room = &loaded.room;
        let name_of = |seat: Seat| room.holder(seat).name.clone();
        if waiting(&app, &loaded, now) && waiting_rooms.len() < LIST_LIMIT {
            let seat = Seat::ALL.into_iter().find(|s| room.holder(*s).token_hash.is_some()).expect("one seat taken");
            waiting_rooms.push(json!({
                "roomId": room.id.as_str(),
                "game": room.game,
                "options": options(room),
                "clock": room.clock.as_ref().map(|clock| clock.setting),
                "name": name_of(seat),
                "since": timestamp(room.created_at),
            }));
        } else if taken(room) == 2 && !loaded.is_over() && playing.len() < LIST_LIMIT {
            // Names by colour, colour 1 first.
            let by_colour =
                Seat::ALL.map(|colour| name_of(Seat::ALL.into_iter().find(|s| room.colour_of(*s) == colour).unwrap()));
            playing.push(json!({
                "roomId": room.id.as_str(),
                "game": room.game,
                "options": options(room),
                "clock": room.clock.as_ref().map(|clock| clock.setting),
                "players": by_colour,
                "moves": room.moves.len(),
                "since": timestamp(room.created_at),
                "watching": loaded.watching,
            }));
        }
    }
    let mut response = Json(json!({"waiting": waiting_rooms, "playing": playing})).into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    Ok(response)
}

#[derive(Deserialize)]
pub struct QuickPlayRequest {
    game: Option<String>,
    config: Option<Value>,
    name: Option<String>,
    /// The time control (`clock.rs`): rooms with different clocks never meet.
    clock: Option<Value>,
    /// Seats this player holds (`[{"roomId", "token"}]`, newest first).
    #[serde(default)]
    held: Vec<HeldSeat>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct HeldSeat {
    room_id: String,
    token: String,
}

/// The quick-play room ids for one game, options and clock: `q` and 8 hex digits of their hash,
/// then `-n` (without a clock, the ids rooms had before clocks).
fn quick_room_id(game: GameKind, config: &Value, clock: Option<ClockSetting>, n: u32) -> RoomId {
    let clock = clock.map_or(String::new(), |clock| format!("\n{}", json!(clock)));
    let digest = Sha256::digest(format!("{}\n{config}{clock}", game.name()).as_bytes());
    let hex: String = digest[..4].iter().map(|b| format!("{b:02x}")).collect();
    RoomId::parse(&format!("q{hex}-{n}")).expect("a quick-play id is a valid room id")
}

/// `POST /api/lobby {game?, config?, name?, held?}`: quick play. Answers as a join does, `{"room",
/// "seat", "token"}`, in a public room of the same game and options: the seat the player already
/// waits in (from `held`), one beside a player waiting, or one where this player now waits.
pub async fn post_quick_play(
    State(app): State<AppState>,
    JsonBody(request): JsonBody<QuickPlayRequest, CREATE_BODY_LIMIT>,
) -> Result<Response, ApiError> {
    let game = requested_game(request.game.as_deref(), request.config.as_ref())?;
    let kind = game.kind();
    let name = display_name(request.name)?;
    let config = game.stored_config();
    let clock = ClockSetting::parse(request.clock.as_ref())?;
    let same = |room: &Room| room.public && room.config == config && room.clock.as_ref().map(|c| c.setting) == clock;
    for held in request.held.iter().take(HELD_SEATS_READ) {
        let Ok(id) = RoomId::parse(&held.room_id) else { continue };
        let Some(room) = app.store().load(&id).await? else { continue };
        if !(room.game == kind && same(&room) && taken(&room) == 1) {
            continue;
        }
        let hash = hash_token(&held.token);
        let Some(seat) = Seat::ALL.into_iter().find(|s| room.holder(*s).token_hash.as_deref() == Some(&hash)) else {
            continue;
        };
        let loaded = app.open(room)?;
        if !loaded.is_over() {
            let body = json!({"room": loaded.view(), "seat": seat.number(), "token": held.token});
            return Ok(with_etag(&loaded, axum::http::StatusCode::OK, body));
        }
    }
    for _ in 0..8 {
        let now = now();
        let rooms = app.store().public_rooms(Some(kind), now - app.abandon_after(), READ_LIMIT).await?;
        // Rooms no one can join: full, over, or left by their player (a room just created and
        // not yet sat in is open: its creator is about to sit).
        let mut closed: HashSet<String> = HashSet::new();
        let mut open: Vec<LoadedRoom> = Vec::new();
        for room in rooms {
            let loaded = app.open(room)?;
            if same(&loaded.room) && waiting(&app, &loaded, now) {
                open.push(loaded);
            } else if taken(&loaded.room) > 0 || loaded.is_over() {
                closed.insert(loaded.room.id.as_str().to_owned());
            }
        }
        // The oldest waiting room first.
        open.sort_by_key(|loaded| loaded.room.created_at);
        if let Some(oldest) = open.into_iter().next() {
            match claim_seat(&app, oldest.room, None, name.clone()).await {
                Err(ApiError::SeatTaken(_)) => continue,
                answer => return answer,
            }
        }
        // Nobody waits: the lowest quick-play room that is new or open, the same for everyone.
        let mut n = (0..).find(|n| !closed.contains(quick_room_id(kind, &config, clock, *n).as_str())).unwrap_or(0);
        for _ in 0..QUICK_ROOMS_TRIED {
            let id = quick_room_id(kind, &config, clock, n);
            let clock = clock.map(|setting| Clock::new(setting, now));
            let fresh = app.stamped(Room { public: true, clock, ..Room::new(id.clone(), &game, now) }, true)?;
            let room = match app.store().create(&fresh).await? {
                true => fresh,
                false => match app.store().load(&id).await? {
                    Some(room) => room,
                    None => continue,
                },
            };
            let joinable = same(&room) && {
                let loaded = app.open(room.clone())?;
                taken(&room) == 0 || waiting(&app, &loaded, now)
            };
            if !joinable {
                n += 1;
                continue;
            }
            match claim_seat(&app, room, None, name.clone()).await {
                Err(ApiError::SeatTaken(_)) => break,
                answer => return answer,
            }
        }
    }
    Err(ApiError::internal("quick play kept losing races"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quick_play_ids_depend_on_game_options_and_clock_only() {
        let popucom = quick_room_id(GameKind::Popucom, &json!({}), None, 0);
        assert_eq!(popucom, quick_room_id(GameKind::Popucom, &json!({}), None, 0));
        assert_ne!(popucom, quick_room_id(GameKind::Popucom, &json!({}), None, 1));
        assert_ne!(popucom, quick_room_id(GameKind::Go, &json!({}), None, 0));
        assert_ne!(
            quick_room_id(GameKind::Go, &json!({"size": 9}), None, 0),
            quick_room_id(GameKind::Go, &json!({"size": 13}), None, 0)
        );
        let blitz = Some(ClockSetting::Live { initial_seconds: 180, increment_seconds: 2 });
        assert_ne!(popucom, quick_room_id(GameKind::Popucom, &json!({}), blitz, 0), "another clock, another room");
        assert!(quick_room_id(GameKind::Chess, &json!({}), blitz, 4_000_000_000).as_str().len() <= 20);
    }
}
