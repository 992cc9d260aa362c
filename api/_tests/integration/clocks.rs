//! Time controls over HTTP, on both stores: the setting kept and shown, the clocks counted by the
//! server, a side out of time losing (written, not only shown), a game whose first move never came
//! aborted, and quick play keeping rooms with different clocks apart. The waits only ever make a
//! clock more out of time: a slow moment cannot turn a timeout into a pass.

use std::time::Duration;

use serde_json::{json, Value};

use crate::client::{room_id, Backend, TestApi};

fn live(initial: u32, increment: u32) -> Value {
    json!({"kind": "live", "initialSeconds": initial, "incrementSeconds": increment})
}

fn version(view: &Value) -> i64 {
    view["version"].as_i64().expect("a version")
}

/// A room's view without the time it was answered at.
fn timeless(mut view: Value) -> Value {
    view["clocks"]["asOf"] = Value::Null;
    view
}

pub async fn clocks_are_kept_counted_and_shown(backend: Backend) {
    let api = TestApi::start(backend).await;
    let plain = room_id();
    let view = api.post(json!({"roomId": plain})).await.body["room"].clone();
    assert_eq!((&view["clock"], &view["clocks"]), (&Value::Null, &Value::Null), "no clock unless asked");
    for bad in [
        json!({"kind": "live", "initialSeconds": 0, "incrementSeconds": 0}),
        json!({"kind": "live", "initialSeconds": 60, "incrementSeconds": 181}),
        json!({"kind": "correspondence", "daysPerMove": 4}),
        json!({"kind": "sudden"}),
    ] {
        let reply = api.post(json!({"roomId": room_id(), "clock": bad})).await;
        assert_eq!((reply.status.as_u16(), reply.code()), (400, "bad_request"), "{bad}: {}", reply.raw);
    }

    let room = room_id();
    let [red, blue] = api.seated_room_of(&room, json!({"clock": live(600, 5)})).await;
    let view = api.get(&room).await.body;
    assert_eq!(view["clock"], live(600, 5));
    assert_eq!(view["clocks"]["remainingMs"], json!([600_000, 600_000]));
    assert_eq!(view["clocks"]["running"], Value::Null, "the clocks start once both sides have moved");
    let view = api.play(&room, &red, version(&view), json!({"row": 4, "col": 4})).await.body;
    let view = api.play(&room, &blue, version(&view), json!({"row": 0, "col": 0})).await.body;
    assert_eq!(view["clocks"]["running"], 1, "{view}");
    // First moves cost nothing; Red's clock now runs (the answer counts it down to its own time).
    assert_eq!(view["clocks"]["remainingMs"][1], 600_000, "{view}");
    assert!((590_000..=600_000).contains(&view["clocks"]["remainingMs"][0].as_i64().unwrap()), "{view}");
    let view = api.play(&room, &red, version(&view), json!({"row": 8, "col": 8})).await.body;
    let red_left = view["clocks"]["remainingMs"][0].as_i64().unwrap();
    // The move took some milliseconds and got 5 s back: more than it had, less than 5 s more.
    assert!((545_000..605_000).contains(&red_left) && red_left != 600_000, "{view}");
    assert_eq!(view["clocks"]["running"], 2);
    assert!(view["clocks"]["asOf"].is_string());

    let resigned = api.act(&room, &blue, version(&view), "resign").await.body;
    let rematch = api.act(&room, &red, version(&resigned), "rematch").await.body;
    assert_eq!(rematch["clock"], live(600, 5), "every rematch keeps the room's clock");
    assert_eq!(rematch["clocks"]["remainingMs"], json!([600_000, 600_000]), "{rematch}");

    let post = room_id();
    let correspondence = json!({"kind": "correspondence", "daysPerMove": 3});
    api.seated_room_of(&post, json!({"clock": correspondence})).await;
    let view = api.get(&post).await.body;
    assert_eq!(view["clock"], correspondence);
    assert_eq!(view["clocks"]["remainingMs"], json!([259_200_000, 259_200_000]));
}

pub async fn a_side_out_of_time_loses_and_the_result_is_written(backend: Backend) {
    let api = TestApi::start(backend).await;
    let room = room_id();
    let [red, blue] = api.seated_room_of(&room, json!({"clock": live(5, 0)})).await;
    let view = api.get(&room).await.body;
    let view = api.play(&room, &red, version(&view), json!({"row": 4, "col": 4})).await.body;
    let view = api.play(&room, &blue, version(&view), json!({"row": 0, "col": 0})).await.body;
    assert_eq!(view["clocks"]["running"], 1, "{view}");
    let before = version(&view);
    tokio::time::sleep(Duration::from_millis(5_500)).await;

    let seen = api.get(&room).await.body;
    assert_eq!(seen["state"]["result"], json!({"winner": 2, "reason": "timeout"}), "{seen}");
    assert_eq!(seen["state"]["to_move"], Value::Null);
    assert_eq!(seen["clocks"]["running"], Value::Null);
    assert_eq!(seen["clocks"]["remainingMs"], json!([0, 5_000]), "Red's time ran out");
    assert_eq!(version(&seen), before + 1, "the timeout is written as a change of the room");
    assert_eq!(version(&api.get(&room).await.body), before + 1, "and written once");
    let late = api.play(&room, &red, before + 1, json!({"row": 8, "col": 8})).await;
    assert_eq!((late.status.as_u16(), late.body["error"]["reason"].as_str()), (422, Some("game_over")), "{}", late.raw);
    assert_eq!(timeless(api.get(&room).await.body), timeless(seen), "the late move changed nothing");

    // A move sent after the time ran out, with nobody having looked: refused, and the loss written.
    let other = room_id();
    let [red, blue] = api.seated_room_of(&other, json!({"clock": live(5, 0)})).await;
    let view = api.get(&other).await.body;
    let view = api.play(&other, &red, version(&view), json!({"row": 4, "col": 4})).await.body;
    let view = api.play(&other, &blue, version(&view), json!({"row": 0, "col": 0})).await.body;
    tokio::time::sleep(Duration::from_millis(5_500)).await;
    let late = api.play(&other, &red, version(&view), json!({"row": 8, "col": 8})).await;
    assert_eq!((late.status.as_u16(), late.body["error"]["reason"].as_str()), (422, Some("game_over")), "{}", late.raw);
    let seen = api.get(&other).await.body;
    assert_eq!(seen["state"]["result"], json!({"winner": 2, "reason": "timeout"}), "{seen}");
    assert_eq!(seen["moves"].as_array().map(Vec::len), Some(2));
}

pub async fn a_first_move_not_made_in_time_aborts_the_game(backend: Backend) {
    let api = TestApi::start(backend).await;
    // Waiting for an opponent costs no time.
    let waiting = room_id();
    let reply = api.post(json!({"roomId": waiting, "seat": 1, "clock": live(1, 0)})).await;
    assert_eq!(reply.status, 200, "{}", reply.raw);
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let view = api.get(&waiting).await.body;
    assert_eq!(view["state"]["result"], Value::Null, "{view}");
    // Both seated, nobody moves within the first move's time: aborted, no one loses.
    let taken = api.post(json!({"roomId": waiting, "seat": 2})).await;
    assert_eq!(taken.status, 200, "{}", taken.raw);
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let view = api.get(&waiting).await.body;
    assert_eq!(view["state"]["result"], json!({"winner": 0, "reason": "aborted"}), "{view}");
}

pub async fn quick_play_keeps_different_clocks_apart(backend: Backend) {
    let api = TestApi::start(backend).await;
    // A komi no other run uses, so rooms other runs left in the store stay apart.
    let options = json!({"size": 9, "komi": f64::from(rand::random::<u16>() % 1998) - 998.5});
    let press = |name: &'static str, clock: Value| {
        let body = json!({"game": "go", "config": options, "name": name, "clock": clock});
        let api = &api;
        async move {
            let reply = api.send(api.http.post(format!("{}/api/lobby", api.base)).json(&body)).await;
            assert_eq!(reply.status, 200, "{}", reply.raw);
            reply.body["room"].clone()
        }
    };
    let blitz = press("Ann", live(180, 2)).await;
    let slow = press("Bo", json!({"kind": "correspondence", "daysPerMove": 1})).await;
    assert_ne!(blitz["roomId"], slow["roomId"], "another clock, another room");
    assert_eq!(slow["clock"], json!({"kind": "correspondence", "daysPerMove": 1}));
    let untimed = press("Cy", Value::Null).await;
    assert_ne!(untimed["roomId"], blitz["roomId"]);
    assert_ne!(untimed["roomId"], slow["roomId"]);
    let second = press("Di", live(180, 2)).await;
    assert_eq!(second["roomId"], blitz["roomId"], "the same clock meets");
    assert_eq!(second["clock"], live(180, 2));
}

/// A chess game in which White has a queen and Black only its king, on a 1 s clock, both first
/// moves made and White's second: Black on move.
async fn queen_against_lone_king(api: &TestApi) -> (String, [String; 2], Value) {
    let room = room_id();
    let game = json!({
        "game": "chess",
        "config": {"variant": "chess", "fen": "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1"},
        "clock": live(1, 0),
    });
    let tokens = api.seated_room_of(&room, game).await;
    let mut view = api.get(&room).await.body;
    for (token, mv) in [(&tokens[0], "a1a2"), (&tokens[1], "e8d8"), (&tokens[0], "a2a3")] {
        let reply = api.play(&room, token, version(&view), json!(mv)).await;
        assert_eq!(reply.status, 200, "{mv}: {}", reply.raw);
        view = reply.body;
    }
    (room, tokens, view)
}

pub async fn out_of_time_against_a_lone_king_is_a_draw(backend: Backend) {
    let api = TestApi::start(backend).await;
    // Black (a lone king) runs out: White wins.
    let (room, _, _) = queen_against_lone_king(&api).await;
    tokio::time::sleep(Duration::from_millis(1300)).await;
    assert_eq!(api.get(&room).await.body["state"]["result"], json!({"winner": 1, "reason": "timeout"}));
    // White runs out against the lone king, which can never mate: a draw.
    let (room, [_, black], view) = queen_against_lone_king(&api).await;
    let view = api.play(&room, &black, version(&view), json!("d8c8")).await.body;
    assert_eq!(view["state"]["to_move"], 1, "{view}");
    tokio::time::sleep(Duration::from_millis(1300)).await;
    assert_eq!(api.get(&room).await.body["state"]["result"], json!({"winner": 0, "reason": "timeout"}));
}

both_stores!(
    out_of_time_against_a_lone_king_is_a_draw,
    clocks_are_kept_counted_and_shown,
    a_side_out_of_time_loses_and_the_result_is_written,
    a_first_move_not_made_in_time_aborts_the_game,
    quick_play_keeps_different_clocks_apart,
);
