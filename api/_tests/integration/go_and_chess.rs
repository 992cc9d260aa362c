//! Go and fairy chess through `/api/game`: options, moves validated by the server, and Go's scoring
//! phase, where a player may only act for their own colour.

use serde_json::{json, Value};
use tabula_api::room::RoomId;
use tabula_core::fairy::pgn::Record;
use tabula_core::go::sgf::Record as SgfRecord;
use tabula_core::go::GoMove;
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

    // The game as SGF, as the room page's "Download SGF" link fetches it: the names, the plays and
    // passes (not the marks), the result.
    let sgf = record_of(&api, &room, "sgf").await;
    assert_eq!(sgf.status, 200, "{}", sgf.raw);
    assert_eq!(sgf.headers["content-type"], "application/x-go-sgf; charset=utf-8");
    assert_eq!(sgf.headers["content-disposition"], format!("attachment; filename=\"tabula-{room}.sgf\""));
    let record = SgfRecord::from_sgf(&sgf.raw).unwrap_or_else(|e| panic!("{e}: {}", sgf.raw));
    assert_eq!((record.config.size, record.config.komi), (5, 0.5));
    assert!(sgf.raw.contains("PB[Ann]PW[Bo]"), "black is the first seat's player: {}", sgf.raw);
    let plays: Vec<String> = record
        .moves
        .iter()
        .map(|m| match m {
            GoMove::Play { at, .. } => at.to_string(),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(plays, ["C3", "D4", "Pass { colour: Some(One) }", "Pass { colour: Some(Two) }"], "{}", sgf.raw);
    assert_eq!(record.result.as_deref(), Some("W+0.5"), "{}", sgf.raw);
    let pgn = record_of(&api, &room, "pgn").await;
    assert_eq!((pgn.status.as_u16(), pgn.body["error"]["code"].as_str()), (400, Some("bad_request")), "{}", pgn.raw);
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
    // Compiled for the room's page, which carries no built-in variants.
    let compiled = view["config"].as_object_mut().unwrap().remove("compiled");
    assert_eq!(compiled, Some(json!(tabula_core::fairy::Variant::named("chess").unwrap().compiled_text())));
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

/// A custom variant in the seed's JSON model: a 6 x 6 board with the seed's griffin (a move-only
/// diagonal step, then rook rides outward).
fn mini_griffin() -> Value {
    let king = json!({"royal": true, "expandMoves": "X", "moves": [
        {"move": {"type": "leaper", "direction": [1, 0]}}, {"move": {"type": "leaper", "direction": [1, 1]}}]});
    let griffin = json!({"expandMoves": "X", "moves": [{
        "move": {"type": "leaper", "direction": [1, 1], "option": "move-only"},
        "children": [{"move": {"type": "rider", "direction": [1, 0]}}, {"move": {"type": "rider", "direction": [0, 1]}}]}]});
    let rook = json!({"expandMoves": "X", "moves": [{"move": {"type": "rider", "direction": [1, 0]}}]});
    let pawn = json!({"pawn": true, "moves": [
        {"move": {"type": "leaper", "direction": [0, 1], "option": "move-only"}},
        {"move": {"type": "leaper", "direction": [1, 1], "option": "capture-only"}},
        {"move": {"type": "leaper", "direction": [-1, 1], "option": "capture-only"}}]});
    json!({
        "board": [6, 6],
        "pieces": {"K": king, "G": griffin, "R": rook, "P": pawn},
        "promotion": ["G", "R"],
        "start": "g2k2/1p4/6/6/P5/R2K1G w - - 0 1"
    })
}

/// A custom variant through `/api/game`: checked before any room exists (each refusal names the
/// field), played by its own rules, and kept by the room as it was created.
pub async fn custom_chess_variants_are_checked_stored_and_played(backend: Backend) {
    let api = TestApi::start(backend).await;
    let refusals = [
        ("/pieces/G/moves/0/move/type", json!("jumper"), "definition.pieces.G.moves[0].move.type: "),
        ("/promotion/0", json!("Q"), "definition.promotion[0]: no piece \"Q\""),
        ("/pieces/K/royal", json!(false), "definition.start: White has no royal piece"),
        ("/start", json!("g2k2/1p4/6/6/P5/R2K1G/6 w - - 0 1"), "definition.start: 7 ranks in the FEN, the board has 6"),
        ("/board", json!([13, 6]), "definition.board: 13 x 6"),
        (
            "/pieces/G/moves/0/children/0/move",
            json!({"ref": "Z"}),
            "definition.pieces.G.moves[0].children[0].move.ref: no piece \"Z\"",
        ),
    ];
    for (pointer, value, message) in refusals {
        let mut definition = mini_griffin();
        *definition.pointer_mut(pointer).unwrap() = value;
        let room = room_id();
        let config = json!({"variant": "mini-griffin", "definition": definition});
        let reply =
            api.post(json!({"roomId": room, "seat": 1, "name": "Ann", "game": "chess", "config": config})).await;
        assert_eq!((reply.status.as_u16(), reply.code()), (400, "bad_request"), "{pointer}: {}", reply.raw);
        let said = reply.body["error"]["message"].as_str().unwrap_or_default();
        assert!(said.contains(message), "{pointer}: {said:?} should name the field as {message:?}");
        // The page's check of the options ("check": true) refuses it the same way.
        let checked = api.post(json!({"check": true, "game": "chess", "config": config})).await;
        assert_eq!((checked.status.as_u16(), checked.code()), (400, "bad_request"), "{pointer}: {}", checked.raw);
        assert_eq!(checked.body["error"]["message"], reply.body["error"]["message"]);
        let never = api.get(&room).await;
        assert_eq!((never.status.as_u16(), never.code()), (404, "room_not_found"), "{pointer}: no room was created");
    }

    // Just over 64 KiB: the engine's limit answers, naming the definition, not a bare 413; a
    // body far over that is still refused as too large.
    let mut oversize = mini_griffin();
    oversize["description"] = json!("x".repeat(65 * 1024));
    let size = serde_json::to_vec(&oversize).unwrap().len();
    let config = json!({"variant": "mini-griffin", "definition": oversize});
    let room = room_id();
    let reply = api.post(json!({"roomId": room, "seat": 1, "game": "chess", "config": config})).await;
    assert_eq!(
        (reply.status.as_u16(), reply.code()),
        (400, "bad_request"),
        "{}",
        &reply.raw[..200.min(reply.raw.len())]
    );
    assert_eq!(
        reply.body["error"]["message"],
        format!("invalid game config: definition: {size} bytes; at most 65536 (64 KiB)")
    );
    assert_eq!(api.get(&room).await.status, 404, "no room was created");
    oversize["description"] = json!("x".repeat(100 * 1024));
    let config = json!({"variant": "mini-griffin", "definition": oversize});
    let reply = api.post(json!({"roomId": room, "seat": 1, "game": "chess", "config": config})).await;
    assert_eq!((reply.status.as_u16(), reply.code()), (413, "payload_too_large"));

    let room = room_id();
    let config = json!({"variant": "mini-griffin", "definition": mini_griffin()});
    let checked = api.post(json!({"check": true, "game": "chess", "config": config})).await;
    assert_eq!(checked.status, 200, "{}", checked.raw);
    assert_eq!(checked.body["config"]["definition"], mini_griffin());
    assert!(checked.body["config"]["compiled"].as_str().is_some_and(|c| !c.is_empty()), "compiled for the page");
    // A built-in variant goes by name, compiled too: the rooms' pages carry no variants of their own.
    let mut unchanged = api.post(json!({"check": true, "game": "chess", "config": {"variant": "grand"}})).await;
    let compiled = unchanged.body["config"].as_object_mut().unwrap().remove("compiled");
    assert_eq!(unchanged.body, json!({"config": {"variant": "grand", "fen": null, "chess960": false}}));
    let grand = tabula_core::fairy::Variant::named("grand").unwrap();
    assert_eq!(compiled, Some(json!(grand.compiled_text())), "grand compiled, exactly as the engine compiles it");
    let [white, black] = api.seated_room_of(&room, json!({"game": "chess", "config": config})).await;
    let stored = api.store.load(&RoomId::parse(&room).unwrap()).await.unwrap().expect("stored");
    assert_eq!(stored.config["definition"], mini_griffin(), "the room keeps the definition it began with");
    let mut view = api.get(&room).await.body;
    assert_eq!(view["config"]["definition"], mini_griffin());
    assert!(view["config"]["compiled"].as_str().is_some_and(|c| !c.is_empty()), "the page gets the variant compiled");
    assert_eq!(view["state"]["fen"], "g2k2/1p4/6/6/P5/R2K1G w - - 0 1");
    // The griffin's first step is diagonal: straight up is refused, a step then a ride is played.
    let straight = api.play(&room, &white, version(&view), json!("f1f3")).await;
    assert_eq!((straight.status.as_u16(), straight.body["error"]["reason"].as_str()), (422, Some("illegal")));
    for (token, mv) in [(&white, "a2a3"), (&black, "b5b4"), (&white, "f1e4")] {
        let reply = api.play(&room, token, version(&view), json!(mv)).await;
        assert_eq!(reply.status, 200, "{mv}: {}", reply.raw);
        view = reply.body;
    }
    // The griffin checks through d5 (its step cannot capture, its ride can): the pawn may not
    // move, the king steps aside.
    let ignored = api.play(&room, &black, version(&view), json!("b4b3")).await;
    assert_eq!((ignored.status.as_u16(), ignored.body["error"]["reason"].as_str()), (422, Some("illegal")));
    let aside = api.play(&room, &black, version(&view), json!("d6e6")).await;
    assert_eq!(aside.status, 200, "{}", aside.raw);
    assert_eq!(aside.body["state"]["fen"], "g3k1/6/1p2G1/P5/6/R2K2 w - - 2 3");

    // A built-in variant's room stores its definition too, and pages get it by name (and compiled)
    // without the definition.
    let capablanca = room_id();
    api.seated_room_of(&capablanca, json!({"game": "chess", "config": {"variant": "capablanca"}})).await;
    let stored = api.store.load(&RoomId::parse(&capablanca).unwrap()).await.unwrap().expect("stored");
    assert_eq!(stored.config["definition"]["board"], json!([10, 8]));
    let mut view = api.get(&capablanca).await.body;
    let compiled = view["config"].as_object_mut().unwrap().remove("compiled");
    assert_eq!(compiled, Some(json!(tabula_core::fairy::Variant::named("capablanca").unwrap().compiled_text())));
    assert_eq!(view["config"], json!({"variant": "capablanca", "fen": null, "chess960": false}));
}

async fn pgn_of(api: &TestApi, room: &str) -> crate::client::Reply {
    record_of(api, room, "pgn").await
}

async fn record_of(api: &TestApi, room: &str, format: &str) -> crate::client::Reply {
    api.send(api.http.get(api.url()).query(&[("roomId", room), ("format", format)])).await
}

both_stores!(
    go_rooms_score_only_with_both_players_agreeing,
    chess_rooms_play_variants_to_mate,
    custom_chess_variants_are_checked_stored_and_played
);
