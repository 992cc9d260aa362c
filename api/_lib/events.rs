//! The push's two endpoints: `GET /api/push` tells the site how rooms are pushed here (and how
//! often to poll), and `GET /api/events?roomId=R` is the local server's stream of a room's new
//! versions (Server-Sent Events; `push.rs` says why).

use std::convert::Infallible;

use axum::extract::{Query, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio_stream::{Stream, StreamExt};

use crate::error::ApiError;
use crate::push::Push;
use crate::room::RoomId;
use crate::state::AppState;

/// This module's paths.
pub(crate) fn routes() -> Router<AppState> {
    // A stream: no deadline.
    Router::new().route("/api/push", get(get_push)).route("/api/events", get(get_events))
}

/// The slowest a page polls while its push works: polls still say a seated player is there, so
/// a third of the time after which a silent player counts as gone, and at most this (every poll
/// is a function invocation: docs/CAPACITY.md). The page's Realtime heartbeats keep their own pace.
const SLOW_POLL_MS: i64 = 30_000;

/// `GET /api/push`: how this deployment pushes room changes, how slowly a page with a working
/// push still polls (`pollMs`), and whether it sends Web Push (`webPush`: a page asks
/// `/api/notify` only then, so a server without keys logs no 404 in its console).
pub async fn get_push(State(app): State<AppState>) -> Json<Value> {
    let poll_ms = (app.abandon_after().num_milliseconds() / 3).clamp(1_000, SLOW_POLL_MS);
    let mut answer = match app.push() {
        Push::Local(_) => json!({"mode": "sse", "url": "/api/events", "pollMs": poll_ms}),
        Push::Supabase { url, socket, anon_key } => {
            json!({"mode": "supabase", "url": url, "socket": socket, "key": anon_key, "pollMs": poll_ms})
        }
        Push::Off => json!({"mode": "poll"}),
    };
    answer["webPush"] = json!(app.notifier.is_some());
    Json(answer)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventsQuery {
    room_id: Option<String>,
}

/// `GET /api/events?roomId=R`: a stream of `room` events whose data is `{"roomId", "version"}`,
/// one per change of room R, with a comment every 15 s so idle connections stay open.
pub async fn get_events(
    State(app): State<AppState>,
    query: Result<Query<EventsQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let Push::Local(changes) = app.push() else { return Err(ApiError::NotFound) };
    let Query(query) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let id = RoomId::parse(query.room_id.as_deref().ok_or_else(|| ApiError::BadRequest("roomId is required".into()))?)?;
    let room = id.as_str().to_owned();
    let events = changes.of(id).map(move |version| {
        let data = json!({"roomId": room, "version": version}).to_string();
        Ok(Event::default().event("room").data(data))
    });
    Ok(Sse::new(events).keep_alive(KeepAlive::default()))
}
