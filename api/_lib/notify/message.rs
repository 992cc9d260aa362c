//! What a change tells each seat: "your move" when it gives a seat the move (a move, an accepted
//! takeback, a rematch), "game over" to both when it ends the game (a win, a loss, a timeout, a
//! claim, a resignation), and the small JSON a notification shows.

use serde_json::{json, Value};
use tabula_core::Seat;

use crate::room::LoadedRoom;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notice {
    YourMove,
    Ended,
    /// A correspondence game's seat on move has this many hours left.
    Reminder {
        hours: i64,
    },
}

/// The seats a change from `before` to `after` concerns, and what it tells them.
pub fn notices(before: &LoadedRoom, after: &LoadedRoom) -> Vec<(Seat, Notice)> {
    let same_game = before.room.game_number == after.room.game_number;
    if after.is_over() {
        return match same_game && !before.is_over() {
            true => Seat::ALL.into_iter().map(|seat| (seat, Notice::Ended)).collect(),
            false => Vec::new(),
        };
    }
    let Some(colour) = after.to_move() else { return Vec::new() };
    let seat = Seat::ALL.into_iter().find(|seat| after.room.colour_of(*seat) == colour).unwrap_or(colour);
    let taken_back = after.room.moves.len() < before.room.moves.len();
    if !same_game || before.to_move() != Some(colour) || taken_back {
        vec![(seat, Notice::YourMove)]
    } else {
        Vec::new()
    }
}

impl Notice {
    /// The push's payload for `seat`: a title, a line of text and the room's address (`view` is
    /// the room as its pages see it).
    pub fn payload(self, room: &LoadedRoom, view: &Value, seat: Seat) -> Value {
        let id = room.room.id.as_str();
        let game = crate::card::game_title(view);
        let opponent = room.room.holder(seat.other()).name.clone().unwrap_or_else(|| "your opponent".into());
        let (title, body) = match self {
            Notice::YourMove => {
                let number = room.room.moves.len() + 1;
                ("Your move", format!("Your move in {game} against {opponent}, move {number}"))
            }
            Notice::Reminder { hours } => {
                let left = if hours == 1 { "1 hour".to_owned() } else { format!("{hours} hours") };
                ("Your move", format!("{left} left: your move in {game} against {opponent}"))
            }
            Notice::Ended => {
                let result = &view["state"]["result"];
                let mine = room.room.colour_of(seat).number() as u64;
                let outcome = match result["winner"].as_u64() {
                    Some(0) if result["reason"] == "aborted" => "Aborted",
                    Some(0) | None => "A draw",
                    Some(winner) if winner == mine => "You won",
                    Some(_) => "You lost",
                };
                let how = if result["reason"] == "timeout" { " on time" } else { "" };
                ("Game over", format!("{outcome}{how}: {game} against {opponent}"))
            }
        };
        json!({"title": title, "body": body, "url": format!("/room/{id}"), "tag": format!("room-{id}"), "roomId": id})
    }
}

#[cfg(test)]
mod tests {
    use chrono::Utc;
    use serde_json::json;
    use tabula_core::GameKind;

    use super::*;
    use crate::room::{Room, RoomId, SeatHolder};

    fn room(moves: &[Value], game_number: i64) -> LoadedRoom {
        let game = GameKind::Popucom.new_game(&json!({})).unwrap();
        let mut room = Room::new(RoomId::parse("r1").unwrap(), &game, Utc::now());
        room.moves = moves.to_vec();
        room.game_number = game_number;
        room.seats = [
            SeatHolder { name: Some("Ana".into()), token_hash: Some("a".repeat(64)) },
            SeatHolder { name: None, token_hash: Some("b".repeat(64)) },
        ];
        room.load().unwrap()
    }

    #[test]
    fn a_move_tells_the_seat_now_on_move_and_an_end_tells_both() {
        let one = [json!({"row": 4, "col": 4})];
        let two = [json!({"row": 4, "col": 4}), json!({"row": 0, "col": 0})];
        assert_eq!(notices(&room(&[], 0), &room(&one, 0)), [(Seat::Two, Notice::YourMove)]);
        assert_eq!(notices(&room(&one, 0), &room(&two, 0)), [(Seat::One, Notice::YourMove)]);
        assert_eq!(notices(&room(&one, 0), &room(&[], 0)), [(Seat::One, Notice::YourMove)], "a takeback");
        assert_eq!(notices(&room(&one, 0), &room(&one, 0)), [], "nothing changed hands");
        // A rematch: seat 2 plays first (colour 1) in the second game.
        assert_eq!(notices(&room(&two, 0), &room(&[], 1)), [(Seat::Two, Notice::YourMove)]);
        let mut resigned = room(&two, 0);
        resigned.room.resigned = Some(Seat::One);
        assert_eq!(notices(&room(&two, 0), &resigned), [(Seat::One, Notice::Ended), (Seat::Two, Notice::Ended)]);
        assert_eq!(notices(&resigned, &resigned), [], "told once");
    }

    #[test]
    fn payloads_say_whose_move_and_who_won() {
        let one = room(&[json!({"row": 4, "col": 4})], 0);
        let payload = Notice::YourMove.payload(&one, &one.view(), Seat::Two);
        assert_eq!(payload["body"], "Your move in POPUCOM three-match chess against Ana, move 2");
        assert_eq!((payload["url"].as_str(), payload["roomId"].as_str()), (Some("/room/r1"), Some("r1")));
        let mut resigned = one;
        resigned.room.resigned = Some(Seat::One);
        let view = resigned.view();
        assert_eq!(
            Notice::Ended.payload(&resigned, &view, Seat::Two)["body"],
            "You won: POPUCOM three-match chess against Ana"
        );
        assert_eq!(
            Notice::Ended.payload(&resigned, &view, Seat::One)["body"],
            "You lost: POPUCOM three-match chess against your opponent"
        );
    }
}
