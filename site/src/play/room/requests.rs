//! What a room's requests mean, without the network: a move or action, whether it still holds
//! after the room changed under it (`rebase`), whether a lost answer had landed (`landed`), what a
//! pushed room may change (`adds_moves`), and a refusal's message id (`notice_for`).

use serde_json::Value;

use super::super::input::refusal_id;
use crate::api::RoomView;
use crate::catalogue::Slug;
use crate::i18n;

/// A move, or one of the room's actions (`resign`, `rematch`, `takeback`, ...).
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Request {
    Move(Value),
    Action(&'static str),
}

/// Whether a request made against `seen` still means the same against `current`: only seats or
/// names changed, not the game (same moves, game number, result and takeback request).
pub(super) fn rebase(seen: &RoomView, current: &RoomView) -> bool {
    current.version > seen.version
        && current.moves == seen.moves
        && current.game_number == seen.game_number
        && current.result() == seen.result()
        && current.takeback == seen.takeback
}

/// Whether `next` is `shown`'s game (the same room, game, config and game number) with more moves:
/// what a pushed room may change without a fetch.
pub(super) fn adds_moves(shown: &RoomView, next: &RoomView) -> bool {
    (&next.room_id, &next.game, &next.config, next.game_number)
        == (&shown.room_id, &shown.game, &shown.config, shown.game_number)
        && next.moves.len() > shown.moves.len()
        && next.moves.starts_with(&shown.moves)
}

/// After an answer was lost and the retry was refused: whether the first attempt had landed.
pub(super) fn landed(request: &Request, seen: &RoomView, current: &RoomView, seat: u8) -> bool {
    current.version == seen.version + 1
        && match request {
            Request::Move(mv) => current.moves.last() == Some(mv) && current.moves.len() == seen.moves.len() + 1,
            Request::Action("resign") => current.result().is_some_and(|(_, reason)| reason == "resigned"),
            Request::Action("rematch") => current.game_number == seen.game_number + 1,
            // Asked, or (in a room that grants takebacks at once) already done.
            Request::Action("takeback") => current.takeback == Some(seat) || current.moves.len() < seen.moves.len(),
            Request::Action("accept_takeback") => current.moves.len() < seen.moves.len(),
            Request::Action("claim_win" | "claim_draw") => {
                current.result().is_some_and(|(_, reason)| reason == "abandoned")
            }
            Request::Action(_) => current.takeback.is_none(),
        }
}

/// What the line under the board says: a message by id, or a text already in words.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Said {
    Id(String),
    Text(String),
}

/// The message id for a refusal from the server, by its stable code (never the server's English).
pub(super) fn notice_for(slug: Slug, code: &str, reason: Option<&str>) -> String {
    match (code, reason) {
        ("illegal_move", Some(reason)) => refusal_id(slug, &format!("illegal-{reason}"), i18n::has),
        ("version_conflict" | "seat_taken" | "not_a_player" | "rate_limited", _) => code.replace('_', "-"),
        _ => "server-error".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use tabula_core::GameKind;

    fn view(version: i64, moves: Value, takeback: Option<u8>, state: Value) -> RoomView {
        RoomView::from_json(json!({
            "roomId": "r", "game": "popucom", "config": {}, "moves": moves, "version": version,
            "gameNumber": 0, "seats": [], "state": state, "takeback": takeback,
        }))
        .unwrap()
    }

    #[test]
    fn a_pushed_room_is_shown_only_when_it_adds_moves_to_the_game_shown() {
        let shown = view(3, json!([[4, 4]]), None, json!({}));
        assert!(adds_moves(&shown, &view(4, json!([[4, 4], [0, 0]]), None, json!({}))));
        assert!(!adds_moves(&shown, &view(4, json!([[4, 5], [0, 0]]), None, json!({}))), "another game's moves");
        assert!(!adds_moves(&shown, &view(4, json!([[4, 4]]), None, json!({}))), "no move added");
        assert!(!adds_moves(&shown, &view(4, json!([]), None, json!({}))), "a takeback");
        let mut rematch = view(5, json!([[4, 4], [0, 0]]), None, json!({}));
        rematch.game_number = 1;
        assert!(!adds_moves(&shown, &rematch));
        // A broadcast naming another room, game or board is not this game, whatever its moves.
        let changes: [fn(&mut RoomView); 3] =
            [|v| v.room_id = "other".into(), |v| v.game = "chess".into(), |v| v.config = json!({"size": 7})];
        for change in changes {
            let mut forged = view(4, json!([[4, 4], [0, 0]]), None, json!({}));
            change(&mut forged);
            assert!(!adds_moves(&shown, &forged));
        }
    }

    #[test]
    fn a_seat_change_is_rebased_but_a_game_change_is_not() {
        let seen = view(3, json!([[4, 4]]), None, json!({}));
        assert!(rebase(&seen, &view(4, json!([[4, 4]]), None, json!({}))));
        assert!(!rebase(&seen, &view(4, json!([[4, 4], [0, 0]]), None, json!({}))));
        assert!(!rebase(&seen, &view(4, json!([[4, 4]]), Some(2), json!({}))), "a takeback request changes the game");
    }

    #[test]
    fn a_lost_answer_is_recognised_by_what_it_did() {
        let seen = view(3, json!([[4, 4], [0, 0]]), None, json!({}));
        let moved = view(4, json!([[4, 4], [0, 0], [1, 1]]), None, json!({}));
        assert!(landed(&Request::Move(json!([1, 1])), &seen, &moved, 1));
        assert!(!landed(&Request::Move(json!([2, 2])), &seen, &moved, 1));
        let asked = view(4, json!([[4, 4], [0, 0]]), Some(1), json!({}));
        assert!(landed(&Request::Action("takeback"), &seen, &asked, 1));
        assert!(!landed(&Request::Action("takeback"), &seen, &asked, 2));
        let taken = view(4, json!([]), None, json!({}));
        assert!(landed(&Request::Action("accept_takeback"), &seen, &taken, 2));
        let resigned = view(4, json!([[4, 4], [0, 0]]), None, json!({"result": {"winner": 2, "reason": "resigned"}}));
        assert!(landed(&Request::Action("resign"), &seen, &resigned, 1));
        assert!(!landed(&Request::Action("claim_win"), &seen, &resigned, 1), "a resignation is no claim");
        let claimed = view(4, json!([[4, 4], [0, 0]]), None, json!({"result": {"winner": 1, "reason": "abandoned"}}));
        assert!(landed(&Request::Action("claim_win"), &seen, &claimed, 1));
        let granted = view(4, json!([[4, 4]]), None, json!({}));
        assert!(landed(&Request::Action("takeback"), &seen, &granted, 2), "a room that grants takebacks at once");
    }

    #[test]
    fn refusals_become_message_ids() {
        assert_eq!(notice_for(Slug::Played(GameKind::Popucom), "illegal_move", Some("occupied")), "illegal-occupied");
        assert_eq!(notice_for(Slug::Played(GameKind::Popucom), "version_conflict", None), "version-conflict");
        assert_eq!(notice_for(Slug::Played(GameKind::Popucom), "internal", None), "server-error");
    }
}
