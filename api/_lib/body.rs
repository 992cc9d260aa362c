//! Request bodies: JSON read under a 64 KiB limit (a room's creation under a larger one), every
//! failure turned into our own error (413 for size, 400 `bad_request` for the rest) instead of
//! axum's plain-text rejections.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use serde::de::DeserializeOwned;

use crate::error::ApiError;

pub const BODY_LIMIT: usize = 64 * 1024;

/// Creating a room may carry a custom chess variant of up to 64 KiB
/// (`tabula_core::fairy::MAX_DEFINITION_BYTES`) plus the request around it: a definition just over
/// its limit is then refused by the engine with the field named, not by a bare 413.
pub const CREATE_BODY_LIMIT: usize = 96 * 1024;

/// A JSON body of at most `LIMIT` bytes.
pub struct JsonBody<T, const LIMIT: usize = BODY_LIMIT>(pub T);

impl<S: Send + Sync, T: DeserializeOwned, const LIMIT: usize> FromRequest<S> for JsonBody<T, LIMIT> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let too_large = request
            .headers()
            .get("content-length")
            .and_then(|v| v.to_str().ok()?.parse::<usize>().ok())
            .is_some_and(|length| length > LIMIT);
        if too_large {
            return Err(ApiError::PayloadTooLarge);
        }
        let bytes = Bytes::from_request(request, state).await.map_err(|rejection| {
            if rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::PayloadTooLarge
            } else {
                ApiError::BadRequest(format!("unreadable body: {rejection}"))
            }
        })?;
        // The router's own cap is the largest route's: a body sent without a length is measured here.
        if bytes.len() > LIMIT {
            return Err(ApiError::PayloadTooLarge);
        }
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|e| ApiError::BadRequest(format!("invalid JSON body: {e}")))
    }
}
