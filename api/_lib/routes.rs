//! The API's router: each resource's paths (`game.rs`, `lobby.rs`, `card/`, `events.rs`,
//! `triplex.rs`, `notify/`) merged, under the rate limiter, with JSON answers for unknown paths and methods.

use axum::extract::DefaultBodyLimit;
use axum::routing::{any, get};
use axum::Router;

use crate::body::CREATE_BODY_LIMIT;
use crate::error::ApiError;
use crate::ratelimit;
use crate::state::AppState;

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
    crate::game::routes()
        .merge(crate::lobby::routes())
        .merge(crate::card::routes())
        .merge(crate::events::routes())
        .merge(crate::triplex::routes())
        .merge(crate::notify::routes())
        // Unknown API paths answer in JSON and never fall through to the site (`/api/` too: the
        // wildcard needs at least one character, found by the fuzz test).
        .route("/api/{*path}", any(|| async { ApiError::NotFound }))
        .route("/api/", any(|| async { ApiError::NotFound }))
        .route("/api", any(|| async { ApiError::NotFound }))
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
        .layer(DefaultBodyLimit::max(CREATE_BODY_LIMIT))
}
