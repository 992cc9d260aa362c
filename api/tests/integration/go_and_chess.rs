//! Go and fairy chess through `/api/game`: options, moves validated by the server, and Go's scoring
//! phase, where a player may only act for their own colour.

use serde_json::{json, Value};
use tabula_core::fairy::pgn::Record;
use tabula_core::GameKind;

use crate::client::{room_id, Backend, TestApi};

fn version(view: &Value) -> i64 {
    view["version"].as_i64().unwrap()
}

pub async fn go_rooms_score_only_with_both_players_agreeing(backend: Backend) {
    let api = TestApi::start(backend).await;
    let bad = api.post(json!({"roomId": room_id(), "game": "go", "config": {"size": 21}})).await;
    assert_eq!(bad.status, 400);
    let room = room_id();
    let config = json!({"size": 5, "komi": 0.5});
    let [black, white] = api.seated_room_of(&room, json!({"game": "go", "config": config})).await;
    let mut view = api.get(&room).await.body;
    assert_eq!(view["config"], json!({"size": 5, "komi": 0.5, "ko": "psk", "handicap": 0}));

    let mut moves = Vec::new();
    for (token, mv) in [(&black, json!({"type": "play", "at": "C3"})), (&white, json!({"type": "play", "at": "D4"}))] {
        let reply = api.play(&room, token, version(&view), mv.clone()).await;
        assert_eq!(reply.status, 200, "{}", reply.raw);
        moves.push(mv);
        view = reply.body;
        assert_eq!(view["state"], GameKind::Go.replay(&config, &moves).unwrap().view());
    }
    let occupied = api.play(&room, &black, version(&view), json!({"type": "play", "at": "D4"})).await;
    assert_eq!((occupied.status.as_u16(), occupied.body["error"]["reason"].as_str()), (422, Some("occupied")));
    let off = api.play(&room, &black, version(&view), json!({"type": "play", "at": "F1"})).await;
    assert_eq!(off.body["error"]["reason"], "off_board");
    let shape = api.play(&room, &black, version(&view), json!({"type": "play", "at": "33"})).await;
    assert_eq!(shape.status, 400, "not a vertex: malformed");

    for token in [&black, &white] {
        view = api.play(&room, token, version(&view), json!({"type": "pass"})).await.body;
    }
    assert_eq!(view["state"]["phase"], "scoring");
    let play = api.play(&room, &black, version(&view), json!({"type": "play", "at": "A1"})).await;
    assert_eq!(play.body["error"]["reason"], "scoring");
    // White may not accept on black's behalf, nor black on white's.
    let forged = api.play(&room, &white, version(&view), json!({"type": "accept", "colour": 1})).await;
    assert_eq!((forged.status.as_u16(), forged.body["error"]["reason"].as_str()), (422, Some("not_your_turn")));
    let forged = api.play(&room, &black, version(&view), json!({"type": "accept", "colour": 2})).await;
    assert_eq!(forged.body["error"]["reason"], "not_your_turn");

    let dead: Vec<String> = serde_json::from_value(view["state"]["dead"].clone()).unwrap();
    for stone in dead {
        view = api.play(&room, &white, version(&view), json!({"type": "toggle", "at": stone, "colour": 2})).await.body;
    }
    assert_eq!(view["state"]["dead"], json!([]));
    view = api.play(&room, &black, version(&view), json!({"type": "accept", "colour": 1})).await.body;
    assert_eq!(view["state"]["accepted"], json!({"1": true, "2": false}));
    assert_eq!(view["state"]["result"], Value::Null, "one acceptance ends nothing");
    let done = api.play(&room, &white, version(&view), json!({"type": "accept", "colour": 2})).await;
    assert_eq!(done.status, 200, "{}", done.raw);
    // C3 and D4 alone on 5x5: each stone is its own; every empty point touches both colours.
    assert_eq!(done.body["state"]["score"], json!({"black": 1.0, "white": 1.5}));
    assert_eq!(done.body["state"]["result"], json!({"winner": 2, "reason": "score"}));
}

/// Fairy chess through `/api/game`: a variant by name, moves in UCI checked by the server.
pub async fn chess_rooms_play_variants_to_mate(backend: Backend) {
    let api = TestApi::start(backend).await;
    let bad = api.post(json!({"roomId": room_id(), "game": "chess", "config": {"variant": "nonesuch"}})).await;
    assert_eq!(bad.status, 400);
    let room = room_id();
    let amazon = api.post(json!({"roomId": room_id(), "game": "chess", "config": {"variant": "amazon"}})).await;
    assert_eq!(amazon.body["room"]["state"]["fen"], "rnbakbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBAKBNR w KQkq - 0 1");
    let [white, black] = api.seated_room_of(&room, json!({"game": "chess"})).await;
    let mut view = api.get(&room).await.body;
    assert_eq!(view["config"], json!({"variant": "chess", "fen": null, "chess960": false}));
    let illegal = api.play(&room, &white, version(&view), json!("e2e5")).await;
    assert_eq!((illegal.status.as_u16(), illegal.body["error"]["reason"].as_str()), (422, Some("illegal")));
    let turn = api.play(&room, &black, version(&view), json!("e7e5")).await;
    assert_eq!(turn.body["error"]["reason"], "not_your_turn");
    let shape = api.play(&room, &white, version(&view), json!({"from": "e2"})).await;
    assert_eq!(shape.status, 400);
    // Fool's mate.
    for (token, mv) in [(&white, "f2f3"), (&black, "e7e5"), (&white, "g2g4"), (&black, "d8h4")] {
        let reply = api.play(&room, token, version(&view), json!(mv)).await;
        assert_eq!(reply.status, 200, "{mv}: {}", reply.raw);
        view = reply.body;
    }
    assert_eq!(view["state"]["result"], json!({"winner": 2, "reason": "checkmate"}));
    assert_eq!(view["moves"], json!(["f2f3", "e7e5", "g2g4", "d8h4"]));

    // The game as PGN, as the room page's "Download PGN" link fetches it.
    let pgn = pgn_of(&api, &room).await;
    assert_eq!(pgn.status, 200, "{}", pgn.raw);
    assert_eq!(pgn.headers["content-type"], "application/x-chess-pgn; charset=utf-8");
    assert_eq!(pgn.headers["content-disposition"], format!("attachment; filename=\"tabula-{room}.pgn\""));
    let record = Record::from_pgn(&pgn.raw).unwrap_or_else(|e| panic!("{e}: {}", pgn.raw));
    let moves: Vec<&str> = record.moves.iter().map(|m| m.0.as_str()).collect();
    assert_eq!((moves, record.result.as_str()), (vec!["f2f3", "e7e5", "g2g4", "d8h4"], "0-1"));
    assert!(pgn.raw.contains("1. f3 e5 2. g4 Qh4# 0-1"), "{}", pgn.raw);
    // Mid-game the result is open; other formats and other games are refused.
    let fresh = room_id();
    api.seated_room_of(&fresh, json!({"game": "chess", "config": {"variant": "capablanca"}})).await;
    let open = pgn_of(&api, &fresh).await;
    assert!(open.raw.contains("[Variant \"capablanca\"]") && open.raw.contains("[Result \"*\"]"), "{}", open.raw);
    let sgf = api.send(api.http.get(api.url()).query(&[("roomId", fresh.as_str()), ("format", "sgf")])).await;
    assert_eq!((sgf.status.as_u16(), sgf.body["error"]["code"].as_str()), (400, Some("bad_request")), "{}", sgf.raw);
    let go = room_id();
    api.seated_room_of(&go, json!({"game": "go", "config": {"size": 9}})).await;
    let not_chess = pgn_of(&api, &go).await;
    assert_eq!((not_chess.status.as_u16(), not_chess.body["error"]["code"].as_str()), (400, Some("bad_request")));
}

async fn pgn_of(api: &TestApi, room: &str) -> crate::client::Reply {
    api.send(api.http.get(api.url()).query(&[("roomId", room), ("format", "pgn")])).await
}

both_stores!(go_rooms_score_only_with_both_players_agreeing, chess_rooms_play_variants_to_mate);
