//! What the answers of the room endpoints share: the deadline every request answers within, and
//! the ETag that makes a poll of an unchanged room a cheap 304.

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::Value;

use crate::error::ApiError;
use crate::room::LoadedRoom;

/// Every room request answers within this, or says the store is unavailable (503): a hung or
/// slow store never holds a request until the platform kills it.
pub const REQUEST_DEADLINE: std::time::Duration = std::time::Duration::from_millis(1800);

pub(crate) async fn within_deadline(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    match tokio::time::timeout(REQUEST_DEADLINE, next.run(request)).await {
        Ok(response) => response,
        Err(_) => {
            tracing::warn!("a request passed its deadline");
            ApiError::StoreUnavailable.into_response()
        }
    }
}

pub(crate) fn with_etag(room: &LoadedRoom, status: StatusCode, body: Value) -> Response {
    let mut response = (status, Json(body)).into_response();
    if let Ok(etag) = HeaderValue::from_str(&room.etag()) {
        response.headers_mut().insert(header::ETAG, etag);
    }
    // Polling clients must revalidate every time; the ETag makes that a cheap 304.
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

pub(crate) fn etag_matches(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|list| list.split(',').map(str::trim).any(|tag| tag == "*" || tag.trim_start_matches("W/") == etag))
}
