//! A room: a game (kind, config, move list) plus two seats, a version bumped by every change, and
//! what the engine cannot know (a resignation, which game of the match this is).
//!
//! Seats are the room's two places; colours are the engine's `Seat`s. In even-numbered games seat 1
//! plays colour 1 (red, first); each rematch swaps colours.

use chrono::{DateTime, SecondsFormat, SubsecRound, Utc};
use serde_json::{json, Value};
use tabula_core::{AnyGame, GameKind, Seat};

use crate::error::ApiError;
use crate::token::hash_token;

/// A validated room id: 1 to 20 letters, digits, `-` or `_`, after trimming.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RoomId(String);

impl RoomId {
    pub fn parse(raw: &str) -> Result<RoomId, ApiError> {
        let id = raw.trim();
        let valid_char = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
        if id.is_empty() || id.len() > 20 || !id.chars().all(valid_char) {
            return Err(ApiError::BadRequest("roomId must be 1 to 20 letters, digits, '-' or '_'".into()));
        }
        Ok(RoomId(id.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Who sits in a seat. Only the token's hash is kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatHolder {
    pub name: Option<String>,
    pub token_hash: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Room {
    pub id: RoomId,
    pub game: GameKind,
    pub config: Value,
    /// The current game's moves, in the game's canonical JSON shape.
    pub moves: Vec<Value>,
    pub version: i64,
    /// 0 for the first game in the room, +1 per rematch.
    pub game_number: i64,
    /// The colour that resigned the current game.
    pub resigned: Option<Seat>,
    /// The seat (not colour) asking to take back the last two moves, until answered or a move is made.
    pub takeback: Option<Seat>,
    /// Seat 1 and seat 2.
    pub seats: [SeatHolder; 2],
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// A room with its game rebuilt: what handlers work on.
pub struct LoadedRoom {
    pub room: Room,
    pub game: AnyGame,
}

impl Room {
    pub fn new(id: RoomId, game: &AnyGame, now: DateTime<Utc>) -> Room {
        Room {
            id,
            game: game.kind(),
            config: game.config(),
            moves: Vec::new(),
            version: 0,
            game_number: 0,
            resigned: None,
            takeback: None,
            seats: Default::default(),
            created_at: now,
            updated_at: now,
        }
    }

    /// The colour `seat` plays in the current game.
    pub fn colour_of(&self, seat: Seat) -> Seat {
        if self.game_number % 2 == 0 {
            seat
        } else {
            seat.other()
        }
    }

    pub fn holder(&self, seat: Seat) -> &SeatHolder {
        &self.seats[seat.index()]
    }

    pub fn seat_for_token(&self, token: &str) -> Option<Seat> {
        let hash = hash_token(token);
        Seat::ALL.into_iter().find(|seat| self.holder(*seat).token_hash.as_deref() == Some(hash.as_str()))
    }

    /// Replays the stored moves. A stored room that does not replay is corrupt: an internal error.
    pub fn load(self) -> Result<LoadedRoom, ApiError> {
        let game = self
            .game
            .replay(&self.config, &self.moves)
            .map_err(|e| ApiError::internal(format!("room {} does not replay: {e}", self.id.as_str())))?;
        Ok(LoadedRoom { room: self, game })
    }

    /// A strong ETag that changes with every change of the room (a recreated room restarts its
    /// version, so the creation time is part of it).
    pub fn etag(&self) -> String {
        format!("\"{}-{}\"", self.created_at.timestamp_millis(), self.version)
    }
}

impl LoadedRoom {
    /// The game's result, counting a resignation.
    pub fn result(&self) -> Option<Value> {
        match self.room.resigned {
            Some(colour) => Some(json!({"winner": colour.other().number(), "reason": "resigned"})),
            None => self.game.status().outcome().map(|o| serde_json::to_value(o).expect("outcome serialises")),
        }
    }

    pub fn is_over(&self) -> bool {
        self.room.resigned.is_some() || self.game.status().is_over()
    }

    /// The room as clients see it: never a token or a token hash.
    pub fn view(&self) -> Value {
        let room = &self.room;
        let mut state = self.game.view();
        if room.resigned.is_some() {
            state["to_move"] = Value::Null;
            state["result"] = self.result().unwrap_or(Value::Null);
        }
        let seats: Vec<Value> = Seat::ALL
            .into_iter()
            .map(|seat| {
                let holder = room.holder(seat);
                json!({
                    "seat": seat.number(),
                    "colour": room.colour_of(seat).number(),
                    "taken": holder.token_hash.is_some(),
                    "name": holder.name,
                })
            })
            .collect();
        json!({
            "roomId": room.id.as_str(),
            "game": room.game,
            "config": room.config,
            "state": state,
            "moves": room.moves,
            "lastMove": room.moves.last(),
            "version": room.version,
            "gameNumber": room.game_number,
            "seats": seats,
            "takeback": room.takeback.map(Seat::number),
            "createdAt": timestamp(room.created_at),
            "updatedAt": timestamp(room.updated_at),
        })
    }
}

/// Now, to the microsecond: what PostgreSQL keeps, so a room written and read back compares equal.
pub fn now() -> DateTime<Utc> {
    Utc::now().trunc_subsecs(6)
}

pub fn timestamp(time: DateTime<Utc>) -> String {
    time.to_rfc3339_opts(SecondsFormat::Millis, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn room_ids_are_trimmed_and_checked() {
        assert_eq!(RoomId::parse("  ab-C_9 ").unwrap().as_str(), "ab-C_9");
        for bad in ["", "   ", "a b", "abcdefghijklmnopqrstu", "é", "a/b", "a.b"] {
            assert!(RoomId::parse(bad).is_err(), "{bad:?}");
        }
        assert!(RoomId::parse("abcdefghijklmnopqrst").is_ok(), "20 characters are fine");
    }
}
