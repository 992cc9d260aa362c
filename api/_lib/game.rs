//! `/api/game` (GET a room, POST create/join, PUT play/resign/rematch/takeback) and `/api/cron`.
//! Thin glue: validate, authenticate the seat, let the rules (`rules.rs`, `tabula-core`) judge,
//! compare-and-swap. Checks run in a fixed order so a racing loser always sees 409: body, room,
//! token, version, rules.

use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use chrono::{Duration, Utc};
use serde::Deserialize;
use serde_json::{json, Value};
use tabula_core::Seat;

use crate::body::{JsonBody, CREATE_BODY_LIMIT};
use crate::clock::{Clock, ClockSetting};
use crate::error::ApiError;
use crate::http::{etag_matches, with_etag, within_deadline};
use crate::room::{now, LoadedRoom, Room, RoomId, TakebackPolicy};
use crate::rules::{apply, Action};
use crate::seats::{claim_seat, display_name, requested_game};
use crate::state::{AppState, IDLE_ROOM_HOURS};

/// This module's paths.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/api/game",
            get(get_room).post(post_room).put(put_room).layer(axum::middleware::from_fn(within_deadline)),
        )
        .route("/api/cron", get(cron))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RoomQuery {
    room_id: Option<String>,
    /// From a seated player's page: how many pages it counts with the room open (Realtime's presence).
    pages: Option<u32>,
    /// `1` from a seated player's page while it is visible: they see the room, so no push
    /// notification tells them of its changes.
    visible: Option<u8>,
    /// `pgn`: the game as a record file instead of the room's JSON.
    format: Option<String>,
}

/// The header a seated player's polls carry, so the room knows they are still there.
const TOKEN_HEADER: &str = "x-tabula-token";

async fn get_room(
    State(app): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<RoomQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let id = RoomId::parse(query.room_id.as_deref().ok_or_else(|| ApiError::BadRequest("roomId is required".into()))?)?;
    let mut room = app.settle_clock(app.fetch(&id).await?).await?;
    if let Some(format) = query.format.as_deref() {
        return crate::records::export(&app.open(room)?, format);
    }
    let token = headers.get(TOKEN_HEADER).and_then(|v| v.to_str().ok());
    if let Some(seat) = token.and_then(|token| room.seat_for_token(token)) {
        app.saw(&mut room, seat, query.pages, query.visible == Some(1)).await;
    }
    let room = app.open(room)?;
    if etag_matches(&headers, &room.etag()) {
        let mut response = StatusCode::NOT_MODIFIED.into_response();
        response.headers_mut().insert(header::ETAG, HeaderValue::from_str(&room.etag()).map_err(ApiError::internal)?);
        return Ok(response);
    }
    Ok(with_etag(&room, StatusCode::OK, room.view()))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JoinRequest {
    /// Needed unless `check` is set.
    #[serde(default)]
    room_id: String,
    /// Only checks `game` and `config` as creating a room would, and answers `{"config": ...}` as
    /// pages get it (a custom chess variant compiled), creating nothing.
    #[serde(default)]
    check: bool,
    game: Option<String>,
    config: Option<Value>,
    seat: Option<Seat>,
    name: Option<String>,
    token: Option<String>,
    /// Only when creating: `never`, `ask` (the default) or `always`.
    takebacks: Option<String>,
    /// Only when creating: listed in the lobby (rooms are private, link only, by default).
    #[serde(default)]
    public: bool,
    /// Only when creating: the time control (`clock.rs`); none by default.
    clock: Option<Value>,
}

/// Creates the room if needed (idempotent, race-safe), then claims a seat or re-attaches a token.
async fn post_room(
    State(app): State<AppState>,
    JsonBody(request): JsonBody<JoinRequest, CREATE_BODY_LIMIT>,
) -> Result<Response, ApiError> {
    let new_game = requested_game(request.game.as_deref(), request.config.as_ref())?;
    if request.check {
        return Ok(Json(json!({"config": new_game.client_config()})).into_response());
    }
    let id = RoomId::parse(&request.room_id)?;
    let name = display_name(request.name)?;
    let takebacks = match request.takebacks.as_deref() {
        None => TakebackPolicy::default(),
        Some(name) => TakebackPolicy::from_name(name)
            .ok_or_else(|| ApiError::BadRequest("takebacks must be \"never\", \"ask\" or \"always\"".into()))?,
    };
    let clock = ClockSetting::parse(request.clock.as_ref())?;
    let store = app.store.as_ref();

    // A returning player re-attaches to an existing room; their token never creates one.
    if let Some(token) = request.token {
        let mut room = app.settle_clock(app.fetch(&id).await?).await?;
        let seat = room.seat_for_token(&token).ok_or(ApiError::NotAPlayer)?;
        app.saw(&mut room, seat, None, false).await;
        let loaded = app.open(room)?;
        return Ok(with_etag(
            &loaded,
            StatusCode::OK,
            json!({"room": loaded.view(), "seat": seat.number(), "token": token}),
        ));
    }

    let room = match store.load(&id).await? {
        Some(room) => app.settle_clock(room).await?,
        None => {
            let at = now();
            let clock = clock.map(|setting| Clock::new(setting, at));
            let room = Room { takebacks, public: request.public, clock, ..Room::new(id.clone(), &new_game, at) };
            let room = app.stamped(room, true)?;
            if store.create(&room).await? {
                room
            } else {
                // Someone created it between our load and insert: theirs stands.
                store.load(&id).await?.ok_or_else(|| ApiError::internal("room vanished after a create conflict"))?
            }
        }
    };

    if request.seat.is_none() {
        let loaded = app.open(room)?;
        return Ok(with_etag(&loaded, StatusCode::OK, json!({"room": loaded.view(), "seat": null, "token": null})));
    }
    claim_seat(&app, room, request.seat, name).await
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PlayRequest {
    room_id: String,
    token: String,
    version: i64,
    #[serde(rename = "move")]
    mv: Option<Value>,
    action: Option<Action>,
}

async fn put_room(State(app): State<AppState>, JsonBody(request): JsonBody<PlayRequest>) -> Result<Response, ApiError> {
    let id = RoomId::parse(&request.room_id)?;
    if request.version < 0 {
        return Err(ApiError::BadRequest("version must be a non-negative integer".into()));
    }
    let action = match (request.action, &request.mv) {
        (None | Some(Action::Move), Some(_)) => Action::Move,
        (None | Some(Action::Move), None) => return Err(ApiError::BadRequest("move is required".into())),
        (Some(action), None) => action,
        (Some(_), Some(_)) => return Err(ApiError::BadRequest("only a move action carries a move".into())),
    };
    // Fast path: the room as this instance last saw it, if at the client's version. Only a
    // successful compare-and-swap is taken from it; anything else is redone from a fresh load.
    // A claim is judged on presence, which only the store knows fresh.
    let cacheable = !matches!(action, Action::ClaimWin | Action::ClaimDraw);
    if let Some(cached) = app.cache.get(&id, request.version).filter(|_| cacheable) {
        if let Ok(Some(response)) = play(&app, cached, false, &request, action).await {
            return Ok(response);
        }
    }
    let current = app.fetch(&id).await?;
    match play(&app, current, true, &request, action).await? {
        Some(response) => Ok(response),
        None => Err(conflict(request.version, &app.open(app.fetch(&id).await?)?)),
    }
}

fn conflict(sent: i64, room: &LoadedRoom) -> ApiError {
    ApiError::VersionConflict { sent, current: room.room.version, room: Box::new(room.view()) }
}

/// Judges the request against `room` and writes the result with a compare-and-swap. `None` when
/// the swap found another version (or no room) in the store. Who is away is judged (and shown)
/// only on a `fresh` room (`AppState::loaded`).
async fn play(
    app: &AppState,
    room: Room,
    fresh: bool,
    request: &PlayRequest,
    action: Action,
) -> Result<Option<Response>, ApiError> {
    let current = app.loaded(room, fresh)?;
    // A malformed move is a bad request: judged as soon as the room says which game it is for,
    // before the seat and the version.
    let mv = request.mv.as_ref().map(|mv| current.game.normalize_move(mv)).transpose();
    let mv = mv.map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let seat = current.room.seat_for_token(&request.token).ok_or(ApiError::NotAPlayer)?;
    if current.room.version != request.version {
        return Err(conflict(request.version, &current));
    }
    if current.clock_flag(now()).is_some() {
        // The time ran out before this request came: the result is written (from a fresh load, as
        // every write here is), the request refused.
        if !fresh {
            return Ok(None);
        }
        app.settle_clock(current.room.clone()).await?;
        return Err(ApiError::IllegalMove { reason: "game_over", message: "the game ended on the clock".into() });
    }
    let next = app.stamped(apply(&current, seat, action, mv.as_ref())?, fresh)?;
    if !app.store.replace(&next, request.version).await? {
        return Ok(None);
    }
    let next = app.loaded(next, fresh)?;
    app.notify(&current, &next).await;
    // A finished game gets no more moves: its room leaves the cache (a rematch reads it once), so
    // the cache holds the games in play, not every game of the day.
    if next.is_over() {
        app.cache.forget(&next.room.id);
    } else {
        app.cache.put(&next.room);
    }
    Ok(Some(with_etag(&next, StatusCode::OK, next.view())))
}

#[derive(Deserialize)]
struct CronQuery {
    /// `clocks`: only the pass over clocks (every minute, from pg_cron); none: everything (daily).
    task: Option<String>,
}

/// The cron: delete idle rooms (which also keeps a free Supabase project awake), and end the games
/// whose time ran out and remind correspondence players (`notify/`), even when nobody opens them.
async fn cron(
    State(app): State<AppState>,
    headers: HeaderMap,
    Query(query): Query<CronQuery>,
) -> Result<Json<Value>, ApiError> {
    let expected = app.cron_secret.as_deref().filter(|s| !s.is_empty()).ok_or(ApiError::Unauthorized)?;
    let sent = headers.get(header::AUTHORIZATION).map(|v| v.as_bytes()).unwrap_or_default();
    let wanted = format!("Bearer {expected}");
    // Constant time, so the secret cannot be guessed byte by byte from response times.
    if !bool::from(subtle::ConstantTimeEq::ct_eq(sent, wanted.as_bytes())) {
        return Err(ApiError::Unauthorized);
    }
    let deleted = match query.task.as_deref() {
        None => Some(app.store.delete_idle(Utc::now() - Duration::hours(IDLE_ROOM_HOURS)).await?),
        Some("clocks") => None,
        Some(other) => return Err(ApiError::BadRequest(format!("no cron task {other:?} (only \"clocks\")"))),
    };
    let sweep = app.sweep_clocks().await?;
    let mut answer = json!({"ended": sweep.ended, "reminders": sweep.reminders});
    if let Some(deleted) = deleted {
        answer["deleted"] = json!(deleted);
    }
    Ok(Json(answer))
}
