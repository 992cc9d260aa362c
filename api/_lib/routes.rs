//! `/api/game` (GET a room, POST create/join, PUT play/resign/rematch/takeback), `/api/cron`, and
//! the Triplex records (`triplex.rs`) under the same limiter and deadline.
//! Thin glue: validate, authenticate the seat, let `core/` judge the move, compare-and-swap.
//! Checks run in a fixed order so a racing loser always sees 409: body, room, token, version, rules.

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use axum::{Json, Router};
use chrono::{Duration, Utc};
use serde::Deserialize;
use serde_json::{json, Value};
use tabula_core::{AnyGame, GameKind, MoveError, Seat};

use crate::body::{JsonBody, CREATE_BODY_LIMIT};
use crate::cache::RoomCache;
use crate::error::ApiError;
use crate::push::{Notifying, Push};
use crate::ratelimit::{self, Limiters, RateLimiter};
use crate::room::{now, Abandonment, LoadedRoom, Room, RoomId, SeatHolder, TakebackPolicy};
use crate::store::Store;
use crate::token::{hash_token, new_token};

/// Rooms untouched for this long are deleted by the cleanup.
pub const IDLE_ROOM_HOURS: i64 = 48;
/// A seated player not heard of for this long may be claimed against (`TABULA_ABANDON_SECONDS`).
/// Two minutes suits games without clocks, which are all our games today.
pub const DEFAULT_ABANDON_SECONDS: i64 = 120;
/// A polling player (`X-Tabula-Token`) is recorded at most this often: a write per poll would be
/// a write per second per player.
const PRESENCE_WRITE_SECONDS: i64 = 15;

/// The most open pages a page may report (a player could report any number: it is only shown).
const MAX_OPEN_PAGES: u32 = 10_000;
const NAME_MAX_CHARS: usize = 24;

#[derive(Clone)]
pub struct AppState {
    store: Arc<dyn Store>,
    limiters: Option<Limiters>,
    /// `GET /api/cron` needs `Authorization: Bearer <this>`; without it the endpoint refuses all.
    cron_secret: Option<String>,
    cache: Arc<RoomCache>,
    abandon_after: Duration,
    push: Push,
}

impl AppState {
    /// `limiter` counts every request; [`AppState::with_limiters`] gives creation one of its own.
    pub fn new(store: Arc<dyn Store>, limiter: Option<Arc<dyn RateLimiter>>, cron_secret: Option<String>) -> AppState {
        let abandon_after = Duration::seconds(DEFAULT_ABANDON_SECONDS);
        let limiters = limiter.map(Limiters::one);
        AppState { store, limiters, cron_secret, cache: Arc::default(), abandon_after, push: Push::Off }
    }

    pub fn with_limiters(self, limiters: Option<Limiters>) -> AppState {
        AppState { limiters, ..self }
    }

    /// The same state pushing room changes: locally, its store is wrapped so that every room
    /// written announces its new version.
    pub fn with_push(self, push: Push) -> AppState {
        let store: Arc<dyn Store> = match &push {
            Push::Local(changes) => Arc::new(Notifying::new(self.store.clone(), changes.clone())),
            _ => self.store.clone(),
        };
        AppState { store, push, ..self }
    }

    pub(crate) fn push(&self) -> &Push {
        &self.push
    }

    pub(crate) fn abandon_after(&self) -> Duration {
        self.abandon_after
    }

    /// The same state with another abandonment time (tests use a few seconds).
    pub fn with_abandon_after(self, abandon_after: std::time::Duration) -> AppState {
        let abandon_after = Duration::from_std(abandon_after).unwrap_or(Duration::seconds(DEFAULT_ABANDON_SECONDS));
        AppState { abandon_after, ..self }
    }

    pub(crate) fn store(&self) -> &dyn Store {
        self.store.as_ref()
    }

    /// `room` as it is written: where Supabase Realtime pushes, with its view and ETag, which the
    /// database's trigger broadcasts (docs/CAPACITY.md: pages that need not fetch each move are most
    /// of what a game costs the platform's quotas).
    /// `fresh` as for [`AppState::loaded`].
    pub(crate) fn stamped(&self, mut room: Room, fresh: bool) -> Result<Room, ApiError> {
        room.pushed_view = match self.push {
            Push::Supabase { .. } => {
                let loaded = self.loaded(room.clone(), fresh)?;
                Some(json!({"view": loaded.view(), "etag": loaded.etag()}))
            }
            _ => None,
        };
        Ok(room)
    }

    /// Replays `room` with how many watch it; who is away only on a `fresh` room, not on the
    /// cache's copy, whose presence times may be old (another instance may have recorded the polls).
    pub(crate) fn loaded(&self, room: Room, fresh: bool) -> Result<LoadedRoom, ApiError> {
        if fresh {
            return self.open(room);
        }
        let mut loaded = room.load()?;
        loaded.watching = self.watching(&loaded.room, Utc::now());
        Ok(loaded)
    }

    /// Replays `room` and marks who is away, as of now, and how many watch it where that is known.
    pub(crate) fn open(&self, room: Room) -> Result<LoadedRoom, ApiError> {
        let mut loaded = room.load()?;
        let now = Utc::now();
        loaded.mark_away(now, self.abandon_after);
        loaded.watching = self.watching(&loaded.room, now);
        Ok(loaded)
    }

    /// The seated players still there: seats taken whose player was heard of within the
    /// abandonment time.
    pub(crate) fn present(&self, room: &Room, now: chrono::DateTime<Utc>) -> Vec<Seat> {
        Seat::ALL
            .into_iter()
            .filter(|seat| room.holder(*seat).token_hash.is_some() && now - room.last_seen(*seat) <= self.abandon_after)
            .collect()
    }

    /// How many people watch `room`: with the local push, every open room page listens to it, so
    /// its listeners less its seated players still there. With Supabase Realtime the functions
    /// hold no connections: the open pages a seated player's page last counted in the channel's
    /// presence, less the same, while a seated player is there to count. Unknown without a push.
    fn watching(&self, room: &Room, now: chrono::DateTime<Utc>) -> Option<usize> {
        let present = self.present(room, now).len();
        let open_pages = match &self.push {
            Push::Local(changes) => changes.listeners(&room.id),
            Push::Supabase { .. } if present > 0 => room.open_pages? as usize,
            _ => return None,
        };
        Some(open_pages.saturating_sub(present))
    }

    /// Records a poll by `seat` unless one was recorded recently (or much sooner for short
    /// abandonment times, so presence stays finer than the time it is judged by), or the count of
    /// open pages its page reports changed (only kept where Realtime's presence is what counts them).
    /// Best effort: a failed write is logged and the request goes on (a poll still gets its room,
    /// a new seat still gets its token).
    async fn saw(&self, room: &mut Room, seat: Seat, open_pages: Option<u32>) {
        let now = now();
        let every = Duration::seconds(PRESENCE_WRITE_SECONDS).min(self.abandon_after / 4);
        let open_pages =
            open_pages.filter(|_| matches!(self.push, Push::Supabase { .. })).map(|n| n.min(MAX_OPEN_PAGES));
        let due = room.seen[seat.index()].is_none_or(|seen| now - seen >= every);
        if due || open_pages.is_some_and(|n| room.open_pages != Some(n)) {
            match self.store.touch(&room.id, seat, now, open_pages).await {
                Ok(()) => {
                    room.seen[seat.index()] = Some(now);
                    room.open_pages = open_pages.or(room.open_pages);
                    self.cache.saw(&room.id, seat, now, open_pages);
                }
                Err(error) => tracing::warn!(%error, room = room.id.as_str(), "presence not recorded"),
            }
        }
    }
}

/// Every room request answers within this, or says the store is unavailable (503): a hung or
/// slow store never holds a request until the platform kills it.
pub const REQUEST_DEADLINE: std::time::Duration = std::time::Duration::from_millis(1800);

async fn within_deadline(request: axum::extract::Request, next: axum::middleware::Next) -> axum::response::Response {
    match tokio::time::timeout(REQUEST_DEADLINE, next.run(request)).await {
        Ok(response) => response,
        Err(_) => {
            tracing::warn!("a request passed its deadline");
            ApiError::StoreUnavailable.into_response()
        }
    }
}

/// The API under its public paths (`/api/game`, `/api/cron`), rate-limited when a limiter is set.
pub fn router(state: AppState) -> Router {
    limited(api_routes(), state)
}

/// The router of a Vercel function: the API, and `/room/<code>`, which reaches a function only
/// through `vercel.json`'s rewrite for link-preview crawlers (should the platform pass on the
/// address asked for rather than the rewrite's destination).
pub fn function_router(state: AppState) -> Router {
    limited(api_routes().route("/room/{code}", get(crate::card::get_room_card_page)), state)
}

fn limited(routes: Router<AppState>, state: AppState) -> Router {
    let limiters = state.limiters.clone();
    let api = routes.with_state(state);
    match limiters {
        Some(limiters) => api.layer(axum::middleware::from_fn_with_state(limiters, ratelimit::middleware)),
        None => api,
    }
}

fn api_routes() -> Router<AppState> {
    Router::new()
        .route(
            "/api/game",
            get(get_room).post(post_room).put(put_room).layer(axum::middleware::from_fn(within_deadline)),
        )
        .route("/api/cron", get(cron))
        .route("/api/push", get(crate::push::get_push))
        .route("/api/card", get(crate::card::get_card).layer(axum::middleware::from_fn(within_deadline)))
        .route(
            "/api/lobby",
            get(crate::lobby::get_lobby)
                .post(crate::lobby::post_quick_play)
                .layer(axum::middleware::from_fn(within_deadline)),
        )
        // A stream: no deadline.
        .route("/api/events", get(crate::push::get_events))
        .route("/api/triplex/solve", post(crate::triplex::post_solve).layer(axum::middleware::from_fn(within_deadline)))
        .route(
            "/api/triplex/records",
            get(crate::triplex::get_records).layer(axum::middleware::from_fn(within_deadline)),
        )
        // Unknown API paths answer in JSON and never fall through to the site (`/api/` too: the
        // wildcard needs at least one character, found by the fuzz test).
        .route("/api/{*path}", any(|| async { ApiError::NotFound }))
        .route("/api/", any(|| async { ApiError::NotFound }))
        .route("/api", any(|| async { ApiError::NotFound }))
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
        .layer(DefaultBodyLimit::max(CREATE_BODY_LIMIT))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RoomQuery {
    room_id: Option<String>,
    /// From a seated player's page: how many pages it counts with the room open (Realtime's presence).
    pages: Option<u32>,
    /// `pgn`: the game as a record file instead of the room's JSON.
    format: Option<String>,
}

async fn fetch(store: &dyn Store, id: &RoomId) -> Result<Room, ApiError> {
    store.load(id).await?.ok_or_else(|| ApiError::RoomNotFound(id.as_str().to_owned()))
}

/// The header a seated player's polls carry, so the room knows they are still there.
const TOKEN_HEADER: &str = "x-tabula-token";

pub(crate) fn with_etag(room: &LoadedRoom, status: StatusCode, body: Value) -> Response {
    let mut response = (status, Json(body)).into_response();
    if let Ok(etag) = HeaderValue::from_str(&room.etag()) {
        response.headers_mut().insert(header::ETAG, etag);
    }
    // Polling clients must revalidate every time; the ETag makes that a cheap 304.
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

fn etag_matches(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|list| list.split(',').map(str::trim).any(|tag| tag == "*" || tag.trim_start_matches("W/") == etag))
}

async fn get_room(
    State(app): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<RoomQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let id = RoomId::parse(query.room_id.as_deref().ok_or_else(|| ApiError::BadRequest("roomId is required".into()))?)?;
    let mut room = fetch(app.store.as_ref(), &id).await?;
    if let Some(format) = query.format.as_deref() {
        return crate::records::export(&app.open(room)?, format);
    }
    let token = headers.get(TOKEN_HEADER).and_then(|v| v.to_str().ok());
    if let Some(seat) = token.and_then(|token| room.seat_for_token(token)) {
        app.saw(&mut room, seat, query.pages).await;
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
}

/// A new game of the kind named (POPUCOM when none is) with the config given (its default when
/// none is), as a request asks for one; a 400 if either is wrong.
pub(crate) fn requested_game(game: Option<&str>, config: Option<&Value>) -> Result<AnyGame, ApiError> {
    let kind = match game {
        None => GameKind::Popucom,
        Some(name) => name.parse::<GameKind>().map_err(|e| ApiError::BadRequest(e.to_string()))?,
    };
    kind.new_game(config.unwrap_or(&Value::Null)).map_err(|e| ApiError::BadRequest(e.to_string()))
}

pub(crate) fn display_name(name: Option<String>) -> Result<Option<String>, ApiError> {
    let Some(name) = name else { return Ok(None) };
    let name = name.trim();
    if name.chars().count() > NAME_MAX_CHARS || name.chars().any(char::is_control) {
        return Err(ApiError::BadRequest(format!("name must be at most {NAME_MAX_CHARS} printable characters")));
    }
    Ok((!name.is_empty()).then(|| name.to_owned()))
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
    let store = app.store.as_ref();

    // A returning player re-attaches to an existing room; their token never creates one.
    if let Some(token) = request.token {
        let mut room = fetch(store, &id).await?;
        let seat = room.seat_for_token(&token).ok_or(ApiError::NotAPlayer)?;
        app.saw(&mut room, seat, None).await;
        let loaded = app.open(room)?;
        return Ok(with_etag(
            &loaded,
            StatusCode::OK,
            json!({"room": loaded.view(), "seat": seat.number(), "token": token}),
        ));
    }

    let room = match store.load(&id).await? {
        Some(room) => room,
        None => {
            let room = app
                .stamped(Room { takebacks, public: request.public, ..Room::new(id.clone(), &new_game, now()) }, true)?;
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

/// Claims `seat` (or, for `None`, the first free one) in `room` for a new token; answers as a join
/// does: `{"room", "seat", "token"}`. Claiming does not depend on the client's version, so a lost
/// race is retried here; `SeatTaken` once the seat (or every seat) is gone.
pub(crate) async fn claim_seat(
    app: &AppState,
    mut room: Room,
    seat: Option<Seat>,
    name: Option<String>,
) -> Result<Response, ApiError> {
    let token = new_token()?;
    for _ in 0..8 {
        let free = Seat::ALL.into_iter().find(|s| room.holder(*s).token_hash.is_none());
        let seat = match seat {
            Some(seat) if room.holder(seat).token_hash.is_some() => return Err(ApiError::SeatTaken(seat)),
            Some(seat) => seat,
            None => free.ok_or(ApiError::SeatTaken(Seat::Two))?,
        };
        let expected = room.version;
        let mut claimed = room.clone();
        claimed.seats[seat.index()] = SeatHolder { name: name.clone(), token_hash: Some(hash_token(&token)) };
        claimed.version += 1;
        claimed.updated_at = now();
        let mut claimed = app.stamped(claimed, true)?;
        if app.store.replace(&claimed, expected).await? {
            app.saw(&mut claimed, seat, None).await;
            let loaded = app.open(claimed)?;
            let body = json!({"room": loaded.view(), "seat": seat.number(), "token": token});
            return Ok(with_etag(&loaded, StatusCode::OK, body));
        }
        room = fetch(app.store(), &room.id).await?;
    }
    Err(ApiError::internal("seat claim kept losing races"))
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum Action {
    Move,
    Resign,
    Rematch,
    /// Ask to take back your last move, and the reply if there is one; the other seat accepts
    /// (or the room's policy grants or refuses it at once).
    Takeback,
    AcceptTakeback,
    /// The other seat refuses, or the asking seat withdraws.
    DeclineTakeback,
    /// The other player is away (see `LoadedRoom::mark_away`): end the game, won or drawn.
    ClaimWin,
    ClaimDraw,
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

fn illegal(reason: &'static str, message: impl Into<String>) -> ApiError {
    ApiError::IllegalMove { reason, message: message.into() }
}

/// The room after `action` by `seat`, or why the rules refuse it. Works on a copy. `mv` is already
/// in the game's canonical shape.
fn apply(current: &LoadedRoom, seat: Seat, action: Action, mv: Option<&Value>) -> Result<Room, ApiError> {
    let mut next = current.room.clone();
    let colour = next.colour_of(seat);
    // Any other change of the game answers a pending takeback request by making it stale.
    next.takeback = None;
    match action {
        Action::Move => {
            let mv = mv.ok_or_else(|| ApiError::BadRequest("move is required".into()))?;
            let mut game = current.game.clone();
            if current.is_over() {
                return Err(illegal("game_over", "the game is over"));
            }
            let mover = game.mover(mv).map_err(|e| ApiError::BadRequest(e.to_string()))?;
            if mover != Some(colour) {
                return Err(illegal("not_your_turn", "it is not your turn"));
            }
            game.play(mv).map_err(|e| match e {
                MoveError::Malformed(message) => ApiError::BadRequest(message),
                MoveError::Illegal { code, message } => illegal(code, message),
            })?;
            next.moves.push(mv.clone());
        }
        Action::Resign => {
            if current.is_over() {
                return Err(illegal("game_over", "the game is over"));
            }
            next.resigned = Some(colour);
        }
        Action::Rematch => {
            if !current.is_over() {
                return Err(illegal("game_not_over", "a rematch starts only after the game ends"));
            }
            next.moves.clear();
            next.resigned = None;
            next.abandoned = None;
            next.game_number += 1;
        }
        Action::Takeback => {
            if current.room.resigned.is_some() || current.room.abandoned.is_some() {
                return Err(illegal("game_over", "a resigned or abandoned game cannot be taken back"));
            }
            if current.room.takebacks == TakebackPolicy::Never {
                return Err(illegal("takebacks_off", "this room was created without takebacks"));
            }
            if current.room.takeback.is_some() {
                return Err(illegal("takeback_pending", "a takeback request is already waiting for an answer"));
            }
            let Some(length) = current.room.takeback_length(seat)? else {
                return Err(illegal("nothing_to_take_back", "you have no move in this game to take back"));
            };
            if current.room.takebacks == TakebackPolicy::Always {
                take_back(&mut next, length)?;
            } else {
                next.takeback = Some(seat);
            }
        }
        Action::AcceptTakeback => {
            if current.room.takeback != Some(seat.other()) {
                return Err(illegal("no_takeback_request", "the other seat has not asked for a takeback"));
            }
            let length = current.room.takeback_length(seat.other())?;
            take_back(&mut next, length.ok_or_else(|| ApiError::internal("a takeback request with no move"))?)?;
        }
        Action::ClaimWin | Action::ClaimDraw => {
            if current.is_over() {
                return Err(illegal("game_over", "the game is over"));
            }
            if !current.away[seat.other().index()] {
                return Err(illegal("opponent_present", "the other player has not been away long enough"));
            }
            let left = next.colour_of(seat.other());
            next.abandoned = Some(Abandonment { left, draw: action == Action::ClaimDraw });
        }
        Action::DeclineTakeback => {
            if current.room.takeback.is_none() {
                return Err(illegal("no_takeback_request", "there is no takeback request to answer"));
            }
        }
    }
    next.version += 1;
    next.updated_at = now();
    Ok(next)
}

/// Removes the last `length` moves.
fn take_back(room: &mut Room, length: usize) -> Result<(), ApiError> {
    let kept = room.moves.len().checked_sub(length).ok_or_else(|| ApiError::internal("a takeback past the start"))?;
    room.moves.truncate(kept);
    // The shorter list must replay (it does: it is a prefix of a valid game); checked anyway.
    room.game.replay(&room.config, &room.moves).map_err(ApiError::internal)?;
    Ok(())
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
    let current = fetch(app.store.as_ref(), &id).await?;
    match play(&app, current, true, &request, action).await? {
        Some(response) => Ok(response),
        None => Err(conflict(request.version, &app.open(fetch(app.store.as_ref(), &id).await?)?)),
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
    let next = app.stamped(apply(&current, seat, action, mv.as_ref())?, fresh)?;
    if !app.store.replace(&next, request.version).await? {
        return Ok(None);
    }
    let next = app.loaded(next, fresh)?;
    // A finished game gets no more moves: its room leaves the cache (a rematch reads it once), so
    // the cache holds the games in play, not every game of the day.
    if next.is_over() {
        app.cache.forget(&next.room.id);
    } else {
        app.cache.put(&next.room);
    }
    Ok(Some(with_etag(&next, StatusCode::OK, next.view())))
}

/// Vercel's daily cron: delete idle rooms (which also keeps a free Supabase project awake).
async fn cron(State(app): State<AppState>, headers: HeaderMap) -> Result<Json<Value>, ApiError> {
    let expected = app.cron_secret.as_deref().filter(|s| !s.is_empty()).ok_or(ApiError::Unauthorized)?;
    let sent = headers.get(header::AUTHORIZATION).map(|v| v.as_bytes()).unwrap_or_default();
    let wanted = format!("Bearer {expected}");
    // Constant time, so the secret cannot be guessed byte by byte from response times.
    if !bool::from(subtle::ConstantTimeEq::ct_eq(sent, wanted.as_bytes())) {
        return Err(ApiError::Unauthorized);
    }
    let deleted = app.store.delete_idle(Utc::now() - Duration::hours(IDLE_ROOM_HOURS)).await?;
    Ok(Json(json!({"deleted": deleted})))
}
