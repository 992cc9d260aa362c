//! A room's game as a record file: `GET /api/game?roomId=…&format=pgn` for chess rooms. The site
//! links to it, so a room's page needs no PGN writer of its own, and a record has an address.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use tabula_core::fairy::pgn::{result_text, Record};
use tabula_core::fairy::{ChessConfig, UciMove};
use tabula_core::{GameKind, Seat};

use crate::error::ApiError;
use crate::room::LoadedRoom;

/// The room's current game in `format` (only `pgn`, only for chess rooms).
pub fn export(room: &LoadedRoom, format: &str) -> Result<Response, ApiError> {
    if format != "pgn" {
        return Err(ApiError::BadRequest(format!("format must be pgn, not {format:?}")));
    }
    if room.room.game != GameKind::Chess {
        return Err(ApiError::BadRequest("format pgn is for chess rooms".into()));
    }
    let config: ChessConfig = serde_json::from_value(room.room.config.clone()).map_err(ApiError::internal)?;
    let moves = room.room.moves.iter().map(|mv| serde_json::from_value::<UciMove>(mv.clone()));
    let moves = moves.collect::<Result<Vec<_>, _>>().map_err(ApiError::internal)?;
    // Names by colour: the seats swap colours at each rematch.
    let name_of = |colour: Seat| {
        Seat::ALL
            .into_iter()
            .find(|&seat| room.room.colour_of(seat) == colour)
            .and_then(|seat| room.room.holder(seat).name.clone())
    };
    let result = match room.result() {
        None => "*",
        Some(result) => result_text(match result["winner"].as_u64() {
            Some(1) => Some(Seat::One),
            Some(2) => Some(Seat::Two),
            _ => None,
        }),
    };
    let record = Record { config, moves, white: name_of(Seat::One), black: name_of(Seat::Two), result: result.into() };
    let text = record.to_pgn().map_err(ApiError::internal)?;
    let mut response = (StatusCode::OK, text).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/x-chess-pgn; charset=utf-8"));
    let file = format!("attachment; filename=\"tabula-{}.pgn\"", room.room.id.as_str());
    headers.insert(header::CONTENT_DISPOSITION, HeaderValue::from_str(&file).map_err(ApiError::internal)?);
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    Ok(response)
}
