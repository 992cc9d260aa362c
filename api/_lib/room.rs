//! A room: a game (kind, config, move list) plus two seats, a version bumped by every change, and
//! what the engine cannot know (a resignation, which game of the match this is).
//!
//! Seats are the room's two places; colours are the engine's `Seat`s. In even-numbered games seat 1
//! plays colour 1 (red, first); each rematch swaps colours.

use chrono::{DateTime, SecondsFormat, SubsecRound, Utc};
use serde_json::{json, Value};
use tabula_core::{AnyGame, GameKind, Seat};

use crate::clock::{Clock, ClockEnd};
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

/// Whether a player may take moves back, chosen when the room is created.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TakebackPolicy {
    Never,
    /// The other player accepts or declines each request.
    #[default]
    Ask,
    /// Every request is granted at once (games against the computer, casual rooms).
    Always,
}

impl TakebackPolicy {
    pub fn name(self) -> &'static str {
        match self {
            TakebackPolicy::Never => "never",
            TakebackPolicy::Ask => "ask",
            TakebackPolicy::Always => "always",
        }
    }

    pub fn from_name(name: &str) -> Option<TakebackPolicy> {
        [TakebackPolicy::Never, TakebackPolicy::Ask, TakebackPolicy::Always].into_iter().find(|p| p.name() == name)
    }
}

/// A game ended because a player left: the colour that left, and whether the one who stayed
/// called it a draw instead of claiming the win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Abandonment {
    pub left: Seat,
    pub draw: bool,
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
    /// The seat (not colour) asking to take back its last move (and any reply to it), until
    /// answered or a move is made.
    pub takeback: Option<Seat>,
    pub takebacks: TakebackPolicy,
    /// How the current game ended if a player left it.
    pub abandoned: Option<Abandonment>,
    /// When each seat's player last polled the room (seat 1, seat 2). Written only by
    /// `Store::touch`, never by a move, so a stale copy of the room cannot turn the clock back.
    pub seen: [Option<DateTime<Utc>>; 2],
    /// How many pages have the room open, as a seated player's page last counted them (deployed,
    /// in Supabase Realtime's presence); written only by `Store::touch`, with `seen`.
    pub open_pages: Option<u32>,
    /// When each seat's page last polled while visible (its player looking at the room: no push
    /// notification then); written only by `Store::touch`, with `seen`.
    pub looked: [Option<DateTime<Utc>>; 2],
    /// Seat 1 and seat 2.
    pub seats: [SeatHolder; 2],
    /// Listed in the lobby; chosen when the room is created (private, link only, by default).
    pub public: bool,
    /// The time control, chosen when the room is created, and the current game's clocks.
    pub clock: Option<Clock>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// `{"view", "etag"}`: the room as pages see it at this version, written with it where Supabase
    /// Realtime pushes (`AppState::stamped`): the database's trigger sends it along, so open pages
    /// need not fetch the room. Never read back.
    pub pushed_view: Option<Value>,
}

/// A room with its game rebuilt: what handlers work on.
pub struct LoadedRoom {
    pub room: Room,
    pub game: AnyGame,
    /// Seat 1 and seat 2: gone for longer than the room's abandonment time (see `mark_away`).
    pub away: [bool; 2],
    /// How many people watch the room, where that is known (`AppState::open`).
    pub watching: Option<usize>,
}

impl Room {
    pub fn new(id: RoomId, game: &AnyGame, now: DateTime<Utc>) -> Room {
        Room {
            id,
            game: game.kind(),
            // Complete in itself (a chess room keeps its variant's definition): a later change to
            // the built-in data never changes this room's game.
            config: game.stored_config(),
            moves: Vec::new(),
            version: 0,
            game_number: 0,
            resigned: None,
            takeback: None,
            takebacks: TakebackPolicy::default(),
            abandoned: None,
            seen: [None, None],
            open_pages: None,
            looked: [None, None],
            seats: Default::default(),
            public: false,
            clock: None,
            created_at: now,
            updated_at: now,
            pushed_view: None,
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

    /// When `seat`'s player was last heard of: their last poll, else the room's last change (a
    /// seat is claimed by a change, and a player who never polled since is measured from there).
    pub fn last_seen(&self, seat: Seat) -> DateTime<Utc> {
        self.seen[seat.index()].unwrap_or(self.updated_at)
    }

    /// Replays the stored moves. A stored room that does not replay is corrupt: an internal error.
    pub fn load(self) -> Result<LoadedRoom, ApiError> {
        let game = self
            .game
            .replay(&self.config, &self.moves)
            .map_err(|e| ApiError::internal(format!("room {} does not replay: {e}", self.id.as_str())))?;
        Ok(LoadedRoom { room: self, game, away: [false; 2], watching: None })
    }

    /// How many of the last moves a takeback by `seat` removes: its colour's last move and every
    /// move after it (the reply, if the other side has already answered). `None` when that colour
    /// has no move in this game.
    pub fn takeback_length(&self, seat: Seat) -> Result<Option<usize>, ApiError> {
        let colour = self.colour_of(seat);
        let mut game = self.game.new_game(&self.config).map_err(ApiError::internal)?;
        let mut last = None;
        for (index, mv) in self.moves.iter().enumerate() {
            if game.mover(mv).map_err(ApiError::internal)? == Some(colour) {
                last = Some(index);
            }
            game.play(mv).map_err(ApiError::internal)?;
        }
        Ok(last.map(|index| self.moves.len() - index))
    }
}

impl LoadedRoom {
    /// The game's result, counting a resignation, an abandonment or the clock.
    pub fn result(&self) -> Option<Value> {
        match self.room.clock.as_ref().and_then(|clock| clock.ended) {
            Some(ClockEnd::Timeout { loser }) => return Some(json!({"winner": 3 - loser, "reason": "timeout"})),
            Some(ClockEnd::TimeoutDraw { .. }) => return Some(json!({"winner": 0, "reason": "timeout"})),
            Some(ClockEnd::Aborted) => return Some(json!({"winner": 0, "reason": "aborted"})),
            None => {}
        }
        if let Some(colour) = self.room.resigned {
            return Some(json!({"winner": colour.other().number(), "reason": "resigned"}));
        }
        if let Some(Abandonment { left, draw }) = self.room.abandoned {
            let winner = if draw { 0 } else { left.other().number() };
            return Some(json!({"winner": winner, "reason": "abandoned"}));
        }
        self.game.status().outcome().map(|o| serde_json::to_value(o).expect("outcome serialises"))
    }

    /// Ended by the rules, a resignation, an abandonment or the clock.
    pub fn is_over(&self) -> bool {
        self.room.resigned.is_some()
            || self.room.abandoned.is_some()
            || self.room.clock.as_ref().is_some_and(|clock| clock.ended.is_some())
            || self.game.status().is_over()
    }

    /// The colour on move while the game goes on.
    pub fn to_move(&self) -> Option<Seat> {
        if self.is_over() {
            None
        } else {
            self.game.status().to_move()
        }
    }

    /// How the game ends on the clock at `now`, if it does and has not been written yet: a side
    /// out of time loses, unless the other could no longer win (a lone king), which draws.
    pub fn clock_flag(&self, now: DateTime<Utc>) -> Option<ClockEnd> {
        let seats_full = self.room.seats.iter().all(|seat| seat.token_hash.is_some());
        match self.room.clock.as_ref()?.flag(self.to_move(), seats_full, now)? {
            ClockEnd::Timeout { loser } if !self.game.can_still_win(Seat::from_number(3 - loser)?) => {
                Some(ClockEnd::TimeoutDraw { loser })
            }
            end => Some(end),
        }
    }

    /// Marks the seats whose player has not been heard of for `after` (only while both seats are
    /// taken and the game goes on: nobody abandons a finished game or an empty seat).
    pub fn mark_away(&mut self, now: DateTime<Utc>, after: chrono::Duration) {
        let playing = !self.is_over() && Seat::ALL.into_iter().all(|seat| self.room.holder(seat).token_hash.is_some());
        for seat in Seat::ALL {
            self.away[seat.index()] = playing && now - self.room.last_seen(seat) > after;
        }
    }

    /// A strong ETag that changes with every change of the room (a recreated room restarts its
    /// version, so the creation time is part of it), when a player goes away or comes back, and
    /// with the number watching.
    pub fn etag(&self) -> String {
        let away: String =
            Seat::ALL.into_iter().filter(|s| self.away[s.index()]).map(|s| format!("-a{}", s.number())).collect();
        let watching = self.watching.map_or(String::new(), |n| format!("-w{n}"));
        format!("\"{}-{}{away}{watching}\"", self.room.created_at.timestamp_millis(), self.room.version)
    }

    /// The room as clients see it: never a token or a token hash.
    pub fn view(&self) -> Value {
        let room = &self.room;
        let mut state = self.game.view();
        let clock_ended = room.clock.as_ref().is_some_and(|clock| clock.ended.is_some());
        if room.resigned.is_some() || room.abandoned.is_some() || clock_ended {
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
                    "away": self.away[seat.index()],
                })
            })
            .collect();
        let mut view = json!({
            "roomId": room.id.as_str(),
            "game": room.game,
            "config": self.game.client_config(),
            "state": state,
            "moves": room.moves,
            "lastMove": room.moves.last(),
            "version": room.version,
            "gameNumber": room.game_number,
            "seats": seats,
            "takeback": room.takeback.map(Seat::number),
            // How many moves the pending request takes back: 1, or 2 once the other side replied.
            "takebackMoves": room.takeback.and_then(|seat| room.takeback_length(seat).ok().flatten()),
            "takebacks": room.takebacks,
            "public": room.public,
            "createdAt": timestamp(room.created_at),
            "updatedAt": timestamp(room.updated_at),
        });
        if let Some(watching) = self.watching {
            view["watching"] = json!(watching);
        }
        view["clock"] = json!(room.clock.as_ref().map(|clock| clock.setting));
        if let Some(clock) = &room.clock {
            let at = now();
            view["clocks"] = clock.view(self.to_move(), at);
            view["clocks"]["asOf"] = json!(timestamp(at));
        } else {
            view["clocks"] = Value::Null;
        }
        view
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
