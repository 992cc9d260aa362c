//! Request bodies: JSON read under a 64 KiB limit, every failure turned into our own error
//! (413 for size, 400 `bad_request` for the rest) instead of axum's plain-text rejections.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use serde::de::DeserializeOwned;

use crate::error::ApiError;

pub const BODY_LIMIT: usize = 64 * 1024;

pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let too_large = request
            .headers()
            .get("content-length")
            .and_then(|v| v.to_str().ok()?.parse::<usize>().ok())
            .is_some_and(|length| length > BODY_LIMIT);
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
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|e| ApiError::BadRequest(format!("invalid JSON body: {e}")))
    }
}
