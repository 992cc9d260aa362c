//! The API's one error type: every refusal has an HTTP status and a stable code, and answers
//! `{"error": {"code", "message"}}` (plus the current room for a version conflict).

use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};
use tabula_core::Seat;

/// What a 503 `store_unavailable` tells the client to wait before trying again.
pub const STORE_RETRY_AFTER_SECS: u64 = 2;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("the request body is larger than 64 KiB")]
    PayloadTooLarge,
    #[error("no room with id {0:?}")]
    RoomNotFound(String),
    #[error("this token does not hold a seat in this room")]
    NotAPlayer,
    #[error("the room has changed since version {sent}; it is now at version {current}")]
    VersionConflict { sent: i64, current: i64, room: Box<Value> },
    #[error("seat {} is taken", .0.number())]
    SeatTaken(Seat),
    /// A move or action the rules refuse; `reason` is the rule's own code (`occupied`, `not_your_turn`).
    #[error("{message}")]
    IllegalMove { reason: &'static str, message: String },
    #[error("too many requests; retry in {retry_after_secs} s")]
    RateLimited { retry_after_secs: u64, headers: Vec<(HeaderName, HeaderValue)> },
    #[error("no Triplex level {0}")]
    LevelNotFound(i64),
    /// A Triplex solve whose placement the engine does not accept (why, in the engine's words).
    #[error("not a solution: {0}")]
    WrongSolution(String),
    #[error("a valid cron secret is required")]
    Unauthorized,
    #[error("not found")]
    NotFound,
    /// `/api/notify` where no VAPID keys are set.
    #[error("push notifications are not configured on this server")]
    NotConfigured,
    /// A push subscription whose endpoint the server will not send to (why).
    #[error("{0}")]
    EndpointRefused(String),
    #[error("method not allowed")]
    MethodNotAllowed,
    /// The rooms' store is down or too slow: nothing was changed that the client was told about.
    #[error("the game store is not answering; try again in a moment")]
    StoreUnavailable,
    /// Details go to the log, never to the client.
    #[error("internal error")]
    Internal(String),
    /// The deployment's settings are missing or wrong (which, in the function's log).
    #[error("the server is misconfigured; its log says which setting")]
    Misconfigured,
}

impl ApiError {
    pub fn internal(detail: impl std::fmt::Display) -> ApiError {
        ApiError::Internal(detail.to_string())
    }

    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::RoomNotFound(_) | ApiError::LevelNotFound(_) | ApiError::NotFound | ApiError::NotConfigured => {
                StatusCode::NOT_FOUND
            }
            ApiError::EndpointRefused(_) => StatusCode::BAD_REQUEST,
            ApiError::NotAPlayer => StatusCode::FORBIDDEN,
            ApiError::VersionConflict { .. } | ApiError::SeatTaken(_) => StatusCode::CONFLICT,
            ApiError::IllegalMove { .. } | ApiError::WrongSolution(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::StoreUnavailable => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) | ApiError::Misconfigured => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The stable, documented code clients switch on.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) => "bad_request",
            ApiError::PayloadTooLarge => "payload_too_large",
            ApiError::RoomNotFound(_) => "room_not_found",
            ApiError::NotAPlayer => "not_a_player",
            ApiError::VersionConflict { .. } => "version_conflict",
            ApiError::SeatTaken(_) => "seat_taken",
            ApiError::IllegalMove { .. } => "illegal_move",
            ApiError::RateLimited { .. } => "rate_limited",
            ApiError::LevelNotFound(_) => "level_not_found",
            ApiError::WrongSolution(_) => "wrong_solution",
            ApiError::Unauthorized => "unauthorized",
            ApiError::NotFound => "not_found",
            ApiError::NotConfigured => "not_configured",
            ApiError::EndpointRefused(_) => "endpoint_refused",
            ApiError::MethodNotAllowed => "method_not_allowed",
            ApiError::StoreUnavailable => "store_unavailable",
            ApiError::Internal(_) => "internal",
            ApiError::Misconfigured => "misconfigured",
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(detail) = &self {
            tracing::error!(%detail, "internal error");
        }
        let mut error = json!({"code": self.code(), "message": self.to_string()});
        if let ApiError::IllegalMove { reason, .. } = &self {
            error["reason"] = json!(reason);
        }
        let mut body = json!({ "error": error });
        if let ApiError::VersionConflict { room, .. } = &self {
            body["room"] = (**room).clone();
        }
        let mut response = (self.status(), Json(body)).into_response();
        if let ApiError::RateLimited { retry_after_secs, headers } = self {
            let response_headers = response.headers_mut();
            response_headers.insert("retry-after", HeaderValue::from(retry_after_secs));
            response_headers.extend(headers);
        } else if let ApiError::StoreUnavailable = self {
            response.headers_mut().insert("retry-after", HeaderValue::from(STORE_RETRY_AFTER_SECS));
        }
        response
    }
}
