//! The room's rules, beside `Room` and free of I/O: what a move, a resignation, a rematch, a
//! takeback or a claim against an absent player does to a room, or why it is refused. The game
//! itself is judged by `tabula-core`; this is the room around it.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::Value;
use tabula_core::{MoveError, Seat};

use crate::clock::Clock;
use crate::error::ApiError;
use crate::room::{now, Abandonment, LoadedRoom, Room, TakebackPolicy};

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Action {
    Move,
    Resign,
    Rematch,
    /// Ask to take back your last move, and the reply if there is one; the other seat accepts
    /// (or the room's policy grants or refuses it at once).
    Takeback,
    AcceptTakeback,
    /// The other seat refuses, or the asking seat withdraws.
    DeclineTakeback,
    /// The other player is away (see `LoadedRoom::mark_away`): end the game, won or drawn.
    ClaimWin,
    ClaimDraw,
}

fn illegal(reason: &'static str, message: impl Into<String>) -> ApiError {
    ApiError::IllegalMove { reason, message: message.into() }
}

/// The room after `action` by `seat`, or why the rules refuse it. Works on a copy. `mv` is already
/// in the game's canonical shape.
pub(crate) fn apply(current: &LoadedRoom, seat: Seat, action: Action, mv: Option<&Value>) -> Result<Room, ApiError> {
    let mut next = current.room.clone();
    let colour = next.colour_of(seat);
    let at = now();
    // Any other change of the game answers a pending takeback request by making it stale.
    next.takeback = None;
    match action {
        Action::Move => {
            let mv = mv.ok_or_else(|| ApiError::BadRequest("move is required".into()))?;
            let mut game = current.game.clone();
            if current.is_over() {
                return Err(illegal("game_over", "the game is over"));
            }
            let mover = game.mover(mv).map_err(|e| ApiError::BadRequest(e.to_string()))?;
            if mover != Some(colour) {
                return Err(illegal("not_your_turn", "it is not your turn"));
            }
            game.play(mv).map_err(|e| match e {
                MoveError::Malformed(message) => ApiError::BadRequest(message),
                MoveError::Illegal { code, message } => illegal(code, message),
            })?;
            next.moves.push(mv.clone());
            if let Some(clock) = next.clock.as_mut() {
                clock.moved(colour, current.to_move(), at);
            }
        }
        Action::Resign => {
            if current.is_over() {
                return Err(illegal("game_over", "the game is over"));
            }
            next.resigned = Some(colour);
        }
        Action::Rematch => {
            if !current.is_over() {
                return Err(illegal("game_not_over", "a rematch starts only after the game ends"));
            }
            next.moves.clear();
            next.resigned = None;
            next.abandoned = None;
            next.game_number += 1;
            next.clock = next.clock.map(|clock| Clock::new(clock.setting, at));
        }
        Action::Takeback => {
            if current.room.resigned.is_some() || current.room.abandoned.is_some() {
                return Err(illegal("game_over", "a resigned or abandoned game cannot be taken back"));
            }
            if current.room.takebacks == TakebackPolicy::Never {
                return Err(illegal("takebacks_off", "this room was created without takebacks"));
            }
            if current.room.takeback.is_some() {
                return Err(illegal("takeback_pending", "a takeback request is already waiting for an answer"));
            }
            let Some(length) = current.room.takeback_length(seat)? else {
                return Err(illegal("nothing_to_take_back", "you have no move in this game to take back"));
            };
            if current.room.takebacks == TakebackPolicy::Always {
                take_back(current, &mut next, length, at)?;
            } else {
                next.takeback = Some(seat);
            }
        }
        Action::AcceptTakeback => {
            if current.room.takeback != Some(seat.other()) {
                return Err(illegal("no_takeback_request", "the other seat has not asked for a takeback"));
            }
            let length = current.room.takeback_length(seat.other())?;
            let length = length.ok_or_else(|| ApiError::internal("a takeback request with no move"))?;
            take_back(current, &mut next, length, at)?;
        }
        Action::ClaimWin | Action::ClaimDraw => {
            if current.is_over() {
                return Err(illegal("game_over", "the game is over"));
            }
            if !current.away[seat.other().index()] {
                return Err(illegal("opponent_present", "the other player has not been away long enough"));
            }
            let left = next.colour_of(seat.other());
            next.abandoned = Some(Abandonment { left, draw: action == Action::ClaimDraw });
        }
        Action::DeclineTakeback => {
            if current.room.takeback.is_none() {
                return Err(illegal("no_takeback_request", "there is no takeback request to answer"));
            }
        }
    }
    next.version += 1;
    next.updated_at = at;
    Ok(next)
}

/// Removes the last `length` moves. The side that was on move pays the time it used: a takeback
/// gives no time back.
fn take_back(current: &LoadedRoom, room: &mut Room, length: usize, at: DateTime<Utc>) -> Result<(), ApiError> {
    if let Some(clock) = room.clock.as_mut() {
        clock.restart_turn(current.to_move(), at);
    }
    let kept = room.moves.len().checked_sub(length).ok_or_else(|| ApiError::internal("a takeback past the start"))?;
    room.moves.truncate(kept);
    // The shorter list must replay (it does: it is a prefix of a valid game); checked anyway.
    room.game.replay(&room.config, &room.moves).map_err(ApiError::internal)?;
    Ok(())
}
