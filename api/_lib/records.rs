//! A room's game as a record file: `GET /api/game?roomId=…&format=pgn` for chess rooms, `format=sgf`
//! for Go rooms. The site links to it, so a room's page needs no writer of its own, and a record
//! has an address.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use tabula_core::fairy::pgn::{result_text, Record};
use tabula_core::fairy::{ChessConfig, UciMove};
use tabula_core::go::sgf::Record as SgfRecord;
use tabula_core::go::{GoConfig, GoMove};
use tabula_core::{GameKind, Seat};

use crate::error::ApiError;
use crate::room::LoadedRoom;

/// The room's current game in `format`: `pgn` for chess rooms, `sgf` for Go rooms.
pub fn export(room: &LoadedRoom, format: &str) -> Result<Response, ApiError> {
    let (text, mime) = match (format, room.room.game) {
        ("pgn", GameKind::Chess) => (pgn(room)?, "application/x-chess-pgn; charset=utf-8"),
        ("sgf", GameKind::Go) => (sgf(room)?, "application/x-go-sgf; charset=utf-8"),
        ("pgn" | "sgf", game) => {
            return Err(ApiError::BadRequest(format!("format {format} is not for {} rooms", game.name())))
        }
        _ => return Err(ApiError::BadRequest(format!("format must be pgn or sgf, not {format:?}"))),
    };
    let mut response = (StatusCode::OK, text).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(mime));
    let file = format!("attachment; filename=\"tabula-{}.{format}\"", room.room.id.as_str());
    headers.insert(header::CONTENT_DISPOSITION, HeaderValue::from_str(&file).map_err(ApiError::internal)?);
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    Ok(response)
}

/// The room's moves, read as its game's.
fn moves<M: DeserializeOwned>(room: &LoadedRoom) -> Result<Vec<M>, ApiError> {
    room.room
        .moves
        .iter()
        .map(|mv| serde_json::from_value(mv.clone()))
        .collect::<Result<_, _>>()
        .map_err(ApiError::internal)
}

/// The names of the players of colour one and two: the seats swap colours at each rematch.
fn names_by_colour(room: &LoadedRoom) -> [Option<String>; 2] {
    Seat::ALL.map(|colour| {
        Seat::ALL
            .into_iter()
            .find(|&seat| room.room.colour_of(seat) == colour)
            .and_then(|seat| room.room.holder(seat).name.clone())
    })
}

/// The room's result, if its game is over: the winning colour (`None` for a draw) and the reason.
fn outcome(room: &LoadedRoom) -> Option<(Option<Seat>, String)> {
    let result = room.result()?;
    let winner = result["winner"].as_u64().and_then(|n| Seat::from_number(n as u8));
    Some((winner, result["reason"].as_str().unwrap_or_default().to_owned()))
}

fn pgn(room: &LoadedRoom) -> Result<String, ApiError> {
    let config: ChessConfig = serde_json::from_value(room.room.config.clone()).map_err(ApiError::internal)?;
    let [white, black] = names_by_colour(room);
    let result = outcome(room).map_or("*", |(winner, _)| result_text(winner));
    let record = Record { config, moves: moves::<UciMove>(room)?, white, black, result: result.into() };
    record.to_pgn().map_err(ApiError::internal)
}

fn sgf(room: &LoadedRoom) -> Result<String, ApiError> {
    let config: GoConfig = serde_json::from_value(room.room.config.clone()).map_err(ApiError::internal)?;
    let outcome = outcome(room);
    let result = outcome.as_ref().map(|(winner, reason)| (*winner, reason.as_str()));
    let record = SgfRecord::of_game(config, &moves::<GoMove>(room)?, names_by_colour(room), result);
    record.and_then(|record| record.to_sgf()).map_err(ApiError::internal)
}
