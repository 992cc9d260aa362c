//! Taking a seat in a room, shared by joining a room (`game.rs`) and quick play (`lobby.rs`): the
//! game a request asks for, the player's name, and the claim itself, retried when it loses a race.

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{json, Value};
use tabula_core::{AnyGame, GameKind, Seat};

use crate::error::ApiError;
use crate::http::with_etag;
use crate::room::{now, Room, SeatHolder};
use crate::state::AppState;
use crate::token::{hash_token, new_token};

const NAME_MAX_CHARS: usize = 24;

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
        // The first moves' time starts when a player sits down, not while the room waits.
        if let Some(clock) = claimed.clock.as_mut().filter(|clock| !clock.running()) {
            clock.since = claimed.updated_at;
        }
        let mut claimed = app.stamped(claimed, true)?;
        if app.store().replace(&claimed, expected).await? {
            app.saw(&mut claimed, seat, None, false).await;
            let loaded = app.open(claimed)?;
            let body = json!({"room": loaded.view(), "seat": seat.number(), "token": token});
            return Ok(with_etag(&loaded, StatusCode::OK, body));
        }
        room = app.fetch(&room.id).await?;
    }
    Err(ApiError::internal("seat claim kept losing races"))
}
