//! Edges & Blocks through `/api/game` (options, server-side validation), and takebacks, which
//! every room offers: one seat asks, the other accepts, and one move of each side is undone.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use tabula_core::GameKind;

use crate::client::{room_id, Backend, TestApi};

const SMALL: &str = r#"{"size": 4, "cells_to_win": 2, "supply": [3, 3]}"#;

fn small() -> Value {
    serde_json::from_str(SMALL).unwrap()
}

fn engine_view(config: &Value, moves: &[Value]) -> Value {
    GameKind::Edges.replay(config, moves).expect("the room's moves replay").view()
}

fn version(reply: &Value) -> i64 {
    reply["version"].as_i64().expect("a room view with a version")
}

pub async fn edges_rooms_play_with_options_validated_by_the_server(backend: Backend) {
    let api = TestApi::start(backend).await;
    let bad = api.post(json!({"roomId": room_id(), "game": "edges", "config": {"size": 20}})).await;
    assert_eq!((bad.status.as_u16(), bad.code()), (400, "bad_request"), "{}", bad.raw);
    let unknown = api.post(json!({"roomId": room_id(), "game": "edges", "config": {"colour": 3}})).await;
    assert_eq!(unknown.status, 400);

    let room = room_id();
    let tokens = api.seated_room_of(&room, json!({"game": "edges", "config": small()})).await;
    let mut view = api.get(&room).await.body;
    assert_eq!((view["game"].as_str(), &view["config"]), (Some("edges"), &small()));
    assert_eq!(view["state"]["edges"].as_array().map(Vec::len), Some(32));
    assert_eq!(view["state"]["to_move"], 1);

    let refused = api.play(&room, &tokens[0], version(&view), json!({"row": 1, "col": 1})).await;
    assert_eq!((refused.status.as_u16(), refused.code()), (400, "bad_request"), "a POPUCOM move is malformed here");
    let off = api.play(&room, &tokens[0], version(&view), json!({"type": "place", "edge": 32})).await;
    assert_eq!((off.status.as_u16(), off.body["error"]["reason"].as_str()), (422, Some("off_board")));
    let early = api.play(&room, &tokens[1], version(&view), json!({"type": "pass"})).await;
    assert_eq!(early.body["error"]["reason"], "not_your_turn");

    let first = json!({"type": "place", "edge": 5});
    view = api.play(&room, &tokens[0], version(&view), first.clone()).await.body;
    let taken = api.play(&room, &tokens[1], version(&view), first.clone()).await;
    assert_eq!((taken.status.as_u16(), taken.body["error"]["reason"].as_str()), (422, Some("occupied")));
    assert_eq!(api.get(&room).await.body, view, "a refused action changes nothing");

    // Random legal actions, each answer equal to the engine's view of the stored list.
    let mut rng = SmallRng::seed_from_u64(7);
    let mut moves: Vec<Value> = vec![first];
    for _ in 0..40 {
        let game = GameKind::Edges.replay(&small(), &moves).unwrap();
        let Some(colour) = game.status().to_move() else { break };
        let legal = game.legal_moves();
        let mv = legal[rng.random_range(0..legal.len())].clone();
        let reply = api.play(&room, &tokens[colour.index()], version(&view), mv.clone()).await;
        assert_eq!(reply.status, 200, "{mv}: {}", reply.raw);
        moves.push(mv);
        view = reply.body;
        assert_eq!(view["state"], engine_view(&small(), &moves));
        assert_eq!(view["moves"], Value::from(moves.clone()));
    }
}

pub async fn takebacks_need_the_other_seat(backend: Backend) {
    let api = TestApi::start(backend).await;
    let room = room_id();
    let [one, two] = api.seated_room_of(&room, json!({"game": "edges"})).await;
    let place = |edge: u32| json!({"type": "place", "edge": edge});
    let mut v = version(&api.get(&room).await.body);

    let none = api.act(&room, &one, v, "takeback").await;
    assert_eq!((none.status.as_u16(), none.body["error"]["reason"].as_str()), (422, Some("nothing_to_take_back")));
    for (token, edge) in [(&one, 0), (&two, 10), (&one, 20)] {
        let reply = api.play(&room, token, v, place(edge)).await;
        assert_eq!(reply.status, 200, "{}", reply.raw);
        v += 1;
    }

    let asked = api.act(&room, &one, v, "takeback").await;
    assert_eq!(asked.status, 200, "{}", asked.raw);
    assert_eq!((asked.body["takeback"].as_i64(), version(&asked.body)), (Some(1), v + 1));
    v += 1;
    let own = api.act(&room, &one, v, "accept_takeback").await;
    assert_eq!(own.body["error"]["reason"], "no_takeback_request", "a seat cannot accept its own request");
    let twice = api.act(&room, &two, v, "takeback").await;
    assert_eq!(twice.body["error"]["reason"], "takeback_pending");
    let stranger = api.act(&room, "not-a-token", v, "accept_takeback").await;
    assert_eq!((stranger.status.as_u16(), stranger.code()), (403, "not_a_player"));
    let with_move = api
        .put(json!({"roomId": room, "token": two, "version": v, "action": "accept_takeback",
        "move": place(3)}))
        .await;
    assert_eq!(with_move.status, 400, "an answer carries no move");

    assert_eq!(asked.body["takebackMoves"], 1, "seat two has not replied: only seat one's move goes");
    let accepted = api.act(&room, &two, v, "accept_takeback").await;
    assert_eq!(accepted.status, 200, "{}", accepted.raw);
    let view = &accepted.body;
    assert_eq!(view["moves"], json!([place(0), place(10)]), "the asker's own last move is undone");
    assert_eq!(view["state"], engine_view(&Value::Null, &[place(0), place(10)]));
    assert_eq!(view["state"]["to_move"], 1, "the asker moves again");
    assert_eq!((&view["takeback"], &view["takebackMoves"]), (&Value::Null, &Value::Null));
    v += 1;
    // Asked after the other side replied: both moves go, and the request says so.
    assert_eq!(api.play(&room, &one, v, place(20)).await.status, 200);
    let asked = api.act(&room, &two, v + 1, "takeback").await;
    assert_eq!((asked.body["takeback"].as_i64(), asked.body["takebackMoves"].as_i64()), (Some(2), Some(2)));
    let accepted = api.act(&room, &one, v + 2, "accept_takeback").await;
    assert_eq!(accepted.body["moves"], json!([place(0)]), "{}", accepted.raw);
    assert_eq!(accepted.body["state"]["to_move"], 2);
    v += 3;

    // Declined, withdrawn, or made stale by a move: the moves stay.
    for (token, edge) in [(&two, 11), (&one, 21)] {
        assert_eq!(api.play(&room, token, v, place(edge)).await.status, 200);
        v += 1;
    }
    assert_eq!(api.act(&room, &two, v, "takeback").await.status, 200);
    let declined = api.act(&room, &one, v + 1, "decline_takeback").await;
    assert_eq!((declined.status.as_u16(), &declined.body["takeback"]), (200, &Value::Null));
    assert_eq!(declined.body["moves"].as_array().map(Vec::len), Some(3));
    v += 2;
    assert_eq!(api.act(&room, &one, v, "takeback").await.status, 200);
    assert_eq!(api.act(&room, &one, v + 1, "decline_takeback").await.status, 200, "the asking seat may withdraw");
    v += 2;
    assert_eq!(api.act(&room, &one, v, "takeback").await.status, 200);
    v += 1;
    let moved = api.play(&room, &two, v, place(30)).await;
    assert_eq!((moved.status.as_u16(), &moved.body["takeback"]), (200, &Value::Null), "a move drops the request");
    v += 1;
    let stale = api.act(&room, &two, v, "accept_takeback").await;
    assert_eq!(stale.body["error"]["reason"], "no_takeback_request");
    assert_eq!(api.act(&room, &one, v, "decline_takeback").await.body["error"]["reason"], "no_takeback_request");
    let old = api.act(&room, &two, v - 1, "takeback").await;
    assert_eq!((old.status.as_u16(), old.code()), (409, "version_conflict"));
}

pub async fn a_finished_game_can_be_taken_back_but_not_a_resignation(backend: Backend) {
    let api = TestApi::start(backend).await;
    let room = room_id();
    let config = json!({"cells_to_win": 1});
    let [one, two] = api.seated_room_of(&room, json!({"game": "edges", "config": config})).await;
    let mut v = version(&api.get(&room).await.body);
    // Seat one closes cell 0 (edges 0, 8, 64, 65) while seat two passes.
    let mut last = Value::Null;
    for edge in [0, 8, 64, 65] {
        last = api.play(&room, &one, v, json!({"type": "place", "edge": edge})).await.body;
        v += 1;
        if edge != 65 {
            assert_eq!(api.play(&room, &two, v, json!({"type": "pass"})).await.status, 200);
            v += 1;
        }
    }
    assert_eq!(last["state"]["result"], json!({"winner": 1, "reason": "cells"}));
    assert_eq!(api.act(&room, &two, v, "takeback").await.status, 200);
    let back = api.act(&room, &one, v + 1, "accept_takeback").await;
    assert_eq!(back.status, 200, "{}", back.raw);
    // Seat one's winning place and seat two's pass before it are undone: seat two is still to move.
    assert_eq!((&back.body["state"]["result"], &back.body["state"]["to_move"]), (&Value::Null, &json!(2)));
    assert_eq!(back.body["moves"].as_array().map(Vec::len), Some(5));
    v += 2;

    assert_eq!(api.act(&room, &one, v, "resign").await.status, 200);
    let after = api.act(&room, &one, v + 1, "takeback").await;
    assert_eq!(after.body["error"]["reason"], "game_over", "a resignation is final");
    // POPUCOM rooms offer takebacks too.
    let popucom = room_id();
    let [red, blue] = api.seated_room(&popucom).await;
    let mut v = version(&api.get(&popucom).await.body);
    for (token, cell) in [(&red, [4, 4]), (&blue, [0, 0])] {
        assert_eq!(api.play(&popucom, token, v, json!(cell)).await.status, 200);
        v += 1;
    }
    assert_eq!(api.act(&popucom, &red, v, "takeback").await.status, 200);
    let undone = api.act(&popucom, &blue, v + 1, "accept_takeback").await;
    assert_eq!(undone.body["moves"], json!([]), "red's move and blue's reply: {}", undone.raw);
}

both_stores!(
    edges_rooms_play_with_options_validated_by_the_server,
    takebacks_need_the_other_seat,
    a_finished_game_can_be_taken_back_but_not_a_resignation,
);
