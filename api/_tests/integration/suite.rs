//! The API test-suite, run against both stores (`both_stores!` below): full games compared with
//! the engine, polling with ETags, seats and tokens, lifecycle, races, bad requests, cleanup.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use tabula_core::GameKind;

use crate::client::{room_id, Backend, TestApi, CRON_SECRET};

/// The room view's state must be exactly what the engine computes from the stored move list.
fn engine_view(moves: &[Value]) -> Value {
    GameKind::Popucom.replay(&Value::Null, moves).expect("the room's moves replay").view()
}

/// Plays random legal moves (chosen with the engine) until the game ends; checks every answer.
async fn play_to_the_end(api: &TestApi, room: &str, tokens: &[String; 2], seed: u64) -> Value {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut view = api.get(room).await.body;
    let mut moves: Vec<Value> = Vec::new();
    loop {
        let game = GameKind::Popucom.replay(&Value::Null, &moves).unwrap();
        let Some(colour) = game.status().to_move() else { break };
        let legal = game.legal_moves();
        let mv = legal[rng.random_range(0..legal.len())].clone();
        // In the first game seat N plays colour N.
        let token = &tokens[colour.index()];
        let version = view["version"].as_i64().unwrap();
        let reply = api.play(room, token, version, mv.clone()).await;
        assert_eq!(reply.status, 200, "move {mv}: {}", reply.raw);
        moves.push(mv);
        view = reply.body;
        assert_eq!(view["version"], version + 1, "one version per accepted move");
        assert_eq!(view["state"], engine_view(&moves));
        assert_eq!(view["moves"], Value::from(moves.clone()));
        assert_eq!(view["lastMove"], *moves.last().unwrap());
    }
    let fetched = api.get(room).await.body;
    assert_eq!(fetched, view, "GET shows what the last PUT answered");
    assert!(view["state"]["result"]["reason"].is_string(), "the game ended with a result");
    view
}

pub async fn full_games_match_the_engine(backend: Backend) {
    let api = TestApi::start(backend).await;
    for seed in 0..3 {
        let room = room_id();
        let tokens = api.seated_room(&room).await;
        let view = play_to_the_end(&api, &room, &tokens, seed).await;
        let serialized = view.to_string();
        for token in &tokens {
            assert!(!serialized.contains(token.as_str()), "a view leaked a token");
            assert!(!serialized.contains(&tabula_api::token::hash_token(token)), "a view leaked a token hash");
        }
    }
}

pub async fn polling_is_cheap_with_etags(backend: Backend) {
    let api = TestApi::start(backend).await;
    let room = room_id();
    let tokens = api.seated_room(&room).await;
    let first = api.get(&room).await;
    assert_eq!(first.status, 200);
    let etag = first.headers["etag"].to_str().unwrap().to_owned();
    let again = api.send(api.http.get(api.url()).query(&[("roomId", &room)]).header("if-none-match", &etag)).await;
    assert_eq!(again.status, 304);
    assert!(again.raw.is_empty(), "a 304 has no body");
    assert_eq!(again.headers["etag"].to_str().unwrap(), etag);
    let version = first.body["version"].as_i64().unwrap();
    assert_eq!(api.play(&room, &tokens[0], version, json!({"row": 4, "col": 4})).await.status, 200);
    let changed = api.send(api.http.get(api.url()).query(&[("roomId", &room)]).header("if-none-match", &etag)).await;
    assert_eq!(changed.status, 200, "an old ETag gets the new room");
    assert_ne!(changed.headers["etag"].to_str().unwrap(), etag);
    assert_eq!(changed.body["state"]["moves_played"], 1);
}

pub async fn seats_tokens_and_idempotent_creation(backend: Backend) {
    let api = TestApi::start(backend).await;
    let room = room_id();
    let watcher = api.post(json!({"roomId": room})).await;
    assert_eq!(watcher.status, 200, "{}", watcher.raw);
    assert_eq!((&watcher.body["seat"], &watcher.body["token"]), (&Value::Null, &Value::Null));
    let room_view = &watcher.body["room"];
    assert_eq!(room_view["roomId"], room.as_str());
    assert_eq!(room_view["game"], "popucom");
    assert_eq!(room_view["state"]["to_move"], 1);
    assert_eq!(
        room_view["seats"],
        json!([
            {"seat": 1, "colour": 1, "taken": false, "name": null, "away": false},
            {"seat": 2, "colour": 2, "taken": false, "name": null, "away": false}
        ])
    );
    let again = api.post(json!({"roomId": format!("  {room} ")})).await;
    assert_eq!(again.body["room"], *room_view, "a second create changes nothing (ids are trimmed)");

    let claim = api.post(json!({"roomId": room, "seat": 1, "name": " Ann "})).await;
    assert_eq!(claim.status, 200);
    let token = claim.body["token"].as_str().unwrap().to_owned();
    assert!(token.len() >= 22, "at least 128 bits");
    assert_eq!(claim.body["seat"], 1);
    assert_eq!(
        claim.body["room"]["seats"][0],
        json!({"seat": 1, "colour": 1, "taken": true, "name": "Ann", "away": false})
    );
    assert_eq!(claim.body["room"]["version"], room_view["version"].as_i64().unwrap() + 1);

    let taken = api.post(json!({"roomId": room, "seat": 1})).await;
    assert_eq!((taken.status.as_u16(), taken.code()), (409, "seat_taken"));
    let back = api.post(json!({"roomId": room, "token": token})).await;
    assert_eq!(back.status, 200);
    assert_eq!((&back.body["seat"], back.body["token"].as_str()), (&json!(1), Some(token.as_str())));
    let stranger = api.post(json!({"roomId": room, "token": "not-a-token"})).await;
    assert_eq!((stranger.status.as_u16(), stranger.code()), (403, "not_a_player"));
    let gone = room_id();
    let returning = api.post(json!({"roomId": gone, "token": token})).await;
    assert_eq!((returning.status.as_u16(), returning.code()), (404, "room_not_found"), "a token never creates a room");
    assert_eq!(api.get(&gone).await.code(), "room_not_found");
    let fetched = api.get(&room).await;
    assert!(!fetched.raw.contains(&token), "GET never shows a token");
    assert_eq!(api.get("no-such-room").await.code(), "room_not_found");
}

pub async fn resign_and_rematch_swap_colours(backend: Backend) {
    let api = TestApi::start(backend).await;
    let room = room_id();
    let [red, blue] = api.seated_room(&room).await;
    let version = api.get(&room).await.body["version"].as_i64().unwrap();
    let early = api.put(json!({"roomId": room, "token": red, "version": version, "action": "rematch"})).await;
    assert_eq!((early.status.as_u16(), early.body["error"]["reason"].as_str()), (422, Some("game_not_over")));
    let resign = api.put(json!({"roomId": room, "token": blue, "version": version, "action": "resign"})).await;
    assert_eq!(resign.status, 200, "{}", resign.raw);
    assert_eq!(resign.body["state"]["result"], json!({"winner": 1, "reason": "resigned"}));
    assert_eq!(resign.body["state"]["to_move"], Value::Null);
    let after = api.play(&room, &red, version + 1, json!({"row": 0, "col": 0})).await;
    assert_eq!((after.status.as_u16(), after.body["error"]["reason"].as_str()), (422, Some("game_over")));

    let rematch = api.put(json!({"roomId": room, "token": red, "version": version + 1, "action": "rematch"})).await;
    assert_eq!(rematch.status, 200, "{}", rematch.raw);
    let view = &rematch.body;
    assert_eq!((view["gameNumber"].as_i64(), view["version"].as_i64()), (Some(1), Some(version + 2)));
    assert_eq!(view["state"], engine_view(&[]));
    assert_eq!(view["seats"][0]["colour"], 2, "seat 1 plays blue in the rematch");
    assert_eq!(view["seats"][1]["colour"], 1);
    let wrong = api.play(&room, &red, version + 2, json!({"row": 4, "col": 4})).await;
    assert_eq!(wrong.body["error"]["reason"], "not_your_turn");
    let right = api.play(&room, &blue, version + 2, json!({"row": 4, "col": 4})).await;
    assert_eq!(right.status, 200, "seat 2 now moves first: {}", right.raw);
}

pub async fn racing_moves_one_wins_one_conflicts(backend: Backend) {
    let api = TestApi::start(backend).await;
    for _ in 0..5 {
        let room = room_id();
        let [red, _] = api.seated_room(&room).await;
        let version = api.get(&room).await.body["version"].as_i64().unwrap();
        let (a, b) = tokio::join!(
            api.play(&room, &red, version, json!({"row": 1, "col": 1})),
            api.play(&room, &red, version, json!({"row": 7, "col": 7})),
        );
        let mut statuses = [a.status.as_u16(), b.status.as_u16()];
        statuses.sort();
        assert_eq!(statuses, [200, 409], "{} / {}", a.raw, b.raw);
        let loser = if a.status == 409 { &a } else { &b };
        assert_eq!(loser.code(), "version_conflict");
        assert_eq!(loser.body["room"]["version"], version + 1, "the conflict carries the current room");
        assert_eq!(api.get(&room).await.body["moves"].as_array().unwrap().len(), 1, "exactly one move landed");
    }
    // Two players creating the same room at once, for different seats and for the same seat.
    let room = room_id();
    let (one, two) =
        tokio::join!(api.post(json!({"roomId": room, "seat": 1})), api.post(json!({"roomId": room, "seat": 2})));
    assert_eq!((one.status.as_u16(), two.status.as_u16()), (200, 200), "{} / {}", one.raw, two.raw);
    let room = room_id();
    let (x, y) =
        tokio::join!(api.post(json!({"roomId": room, "seat": 1})), api.post(json!({"roomId": room, "seat": 1})));
    let mut statuses = [x.status.as_u16(), y.status.as_u16()];
    statuses.sort();
    assert_eq!(statuses, [200, 409]);
}

pub async fn concurrent_games_never_lose_a_move(backend: Backend) {
    let api = std::sync::Arc::new(TestApi::start(backend).await);
    let mut games = tokio::task::JoinSet::new();
    for seed in 0..50u64 {
        let api = api.clone();
        games.spawn(async move {
            let room = room_id();
            let tokens = api.seated_room(&room).await;
            let mut rng = SmallRng::seed_from_u64(seed);
            // Both players fire moves without waiting for each other, racing on versions.
            for _ in 0..30 {
                let view = api.get(&room).await.body;
                let moves: Vec<Value> = serde_json::from_value(view["moves"].clone()).unwrap();
                let game = GameKind::Popucom.replay(&Value::Null, &moves).unwrap();
                let Some(colour) = game.status().to_move() else { break };
                let legal = game.legal_moves();
                let mv = legal[rng.random_range(0..legal.len())].clone();
                let version = view["version"].as_i64().unwrap();
                let reply = api.play(&room, &tokens[colour.index()], version, mv).await;
                assert!(reply.status == 200 || reply.status == 409, "{}", reply.raw);
            }
            room
        });
    }
    while let Some(room) = games.join_next().await {
        let room = room.expect("a game task panicked");
        let stored = api.store.load(&tabula_api::room::RoomId::parse(&room).unwrap()).await.unwrap().unwrap();
        let view = api.get(&room).await.body;
        assert_eq!(view["state"], engine_view(&stored.moves), "{room}: state equals a replay of the stored moves");
        assert_eq!(
            stored.version as usize,
            2 + stored.moves.len(),
            "{room}: two seat claims, then one version per move"
        );
    }
}

pub async fn bad_requests_change_nothing(backend: Backend) {
    let api = TestApi::start(backend).await;
    let room = room_id();
    let [red, blue] = api.seated_room(&room).await;
    let before = api.get(&room).await.body;
    let v = before["version"].as_i64().unwrap();
    let cases: Vec<(&str, reqwest::RequestBuilder, u16, &str)> = vec![
        ("malformed JSON", api.http.put(api.url()).body("{\"roomId\": "), 400, "bad_request"),
        ("invalid UTF-8", api.http.put(api.url()).body(vec![b'{', 0xff, 0xfe, b'}']), 400, "bad_request"),
        ("not an object", api.http.put(api.url()).json(&json!([1, 2])), 400, "bad_request"),
        (
            "missing token",
            api.http.put(api.url()).json(&json!({"roomId": room, "version": v, "move": [0, 0]})),
            400,
            "bad_request",
        ),
        (
            "missing version",
            api.http.put(api.url()).json(&json!({"roomId": room, "token": red, "move": [0, 0]})),
            400,
            "bad_request",
        ),
        (
            "missing move",
            api.http.put(api.url()).json(&json!({"roomId": room, "token": red, "version": v})),
            400,
            "bad_request",
        ),
        (
            "version as string",
            api.http.put(api.url()).json(&json!({"roomId": room, "token": red, "version": "2", "move": [0, 0]})),
            400,
            "bad_request",
        ),
        (
            "negative version",
            api.http.put(api.url()).json(&json!({"roomId": room, "token": red, "version": -1, "move": [0, 0]})),
            400,
            "bad_request",
        ),
        (
            "huge version",
            api.http
                .put(api.url())
                .body(format!("{{\"roomId\":\"{room}\",\"token\":\"{red}\",\"version\":1e400,\"move\":[0,0]}}")),
            400,
            "bad_request",
        ),
        (
            "negative cell",
            api.http
                .put(api.url())
                .json(&json!({"roomId": room, "token": red, "version": v, "move": {"row": -1, "col": 0}})),
            400,
            "bad_request",
        ),
        (
            "huge cell",
            api.http
                .put(api.url())
                .json(&json!({"roomId": room, "token": red, "version": v, "move": {"row": 100000, "col": 0}})),
            400,
            "bad_request",
        ),
        (
            "move of the wrong shape",
            api.http.put(api.url()).json(&json!({"roomId": room, "token": red, "version": v, "move": "e4"})),
            400,
            "bad_request",
        ),
        (
            "unknown action",
            api.http.put(api.url()).json(&json!({"roomId": room, "token": red, "version": v, "action": "undo"})),
            400,
            "bad_request",
        ),
        (
            "room id too long",
            api.http
                .put(api.url())
                .json(&json!({"roomId": "a".repeat(21), "token": red, "version": v, "move": [0, 0]})),
            400,
            "bad_request",
        ),
        ("room id with a space", api.http.get(api.url()).query(&[("roomId", "a b")]), 400, "bad_request"),
        ("no room id", api.http.get(api.url()), 400, "bad_request"),
        (
            "unknown game",
            api.http.post(api.url()).json(&json!({"roomId": room_id(), "game": "checkers"})),
            400,
            "bad_request",
        ),
        (
            "bad config",
            api.http.post(api.url()).json(&json!({"roomId": room_id(), "config": {"size": 7}})),
            400,
            "bad_request",
        ),
        ("seat 3", api.http.post(api.url()).json(&json!({"roomId": room, "seat": 3})), 400, "bad_request"),
        (
            "name too long",
            api.http.post(api.url()).json(&json!({"roomId": room_id(), "seat": 1, "name": "n".repeat(25)})),
            400,
            "bad_request",
        ),
        (
            "oversize body",
            api.http.put(api.url()).body(format!("{{\"pad\": \"{}\"}}", "x".repeat(70 * 1024))),
            413,
            "payload_too_large",
        ),
        (
            "unknown room",
            api.http.put(api.url()).json(&json!({"roomId": room_id(), "token": red, "version": v, "move": [0, 0]})),
            404,
            "room_not_found",
        ),
        (
            "foreign token",
            api.http.put(api.url()).json(&json!({"roomId": room, "token": "x", "version": v, "move": [0, 0]})),
            403,
            "not_a_player",
        ),
        (
            "stale version",
            api.http.put(api.url()).json(&json!({"roomId": room, "token": red, "version": v - 1, "move": [0, 0]})),
            409,
            "version_conflict",
        ),
        (
            "future version",
            api.http.put(api.url()).json(&json!({"roomId": room, "token": red, "version": v + 5, "move": [0, 0]})),
            409,
            "version_conflict",
        ),
        (
            "not your turn",
            api.http.put(api.url()).json(&json!({"roomId": room, "token": blue, "version": v, "move": [0, 0]})),
            422,
            "illegal_move",
        ),
        (
            "off the board",
            api.http
                .put(api.url())
                .json(&json!({"roomId": room, "token": red, "version": v, "move": {"row": 9, "col": 0}})),
            422,
            "illegal_move",
        ),
        ("wrong method", api.http.delete(api.url()), 405, "method_not_allowed"),
    ];
    for (what, request, status, code) in cases {
        let reply = api.send(request).await;
        assert_eq!((reply.status.as_u16(), reply.code()), (status, code), "{what}: {}", reply.raw);
        assert!(reply.body["error"]["message"].is_string(), "{what}: a message");
        assert_eq!(api.get(&room).await.body, before, "{what} changed the room");
    }
    // Rule refusals need a position: occupied and opponent territory.
    let reply = api.play(&room, &red, v, json!([4, 4])).await;
    assert_eq!(reply.status, 200);
    let occupied = api.play(&room, &blue, v + 1, json!([4, 4])).await;
    assert_eq!((occupied.status.as_u16(), occupied.body["error"]["reason"].as_str()), (422, Some("occupied")));
    assert_eq!(api.get(&room).await.body, reply.body, "a refused move changes nothing");
}

pub async fn cron_deletes_only_idle_rooms(backend: Backend) {
    let api = TestApi::start(backend).await;
    let unauthorized = api.send(api.http.get(format!("{}/api/cron", api.base))).await;
    assert_eq!((unauthorized.status.as_u16(), unauthorized.code()), (401, "unauthorized"));
    let wrong = api.send(api.http.get(format!("{}/api/cron", api.base)).bearer_auth("guess")).await;
    assert_eq!(wrong.status, 401);

    let fresh = room_id();
    api.post(json!({"roomId": fresh})).await;
    let idle = room_id();
    let game = GameKind::Popucom.new_game(&Value::Null).unwrap();
    let long_ago = chrono::Utc::now() - chrono::Duration::hours(tabula_api::IDLE_ROOM_HOURS + 1);
    let old = tabula_api::room::Room::new(tabula_api::room::RoomId::parse(&idle).unwrap(), &game, long_ago);
    assert!(api.store.create(&old).await.unwrap());
    assert_eq!(api.get(&idle).await.status, 200);

    let reply = api.send(api.http.get(format!("{}/api/cron", api.base)).bearer_auth(CRON_SECRET)).await;
    assert_eq!(reply.status, 200, "{}", reply.raw);
    assert!(reply.body["deleted"].as_u64().unwrap() >= 1);
    assert_eq!(api.get(&idle).await.code(), "room_not_found");
    assert_eq!(api.get(&fresh).await.status, 200, "an active room stays");
}

/// Two API instances on one store (as two serverless instances are): each one's cached rooms go
/// stale when the other writes, and that must never let a stale move through.
pub async fn instances_sharing_a_store_never_write_from_a_stale_cache(backend: Backend) {
    let first = TestApi::start(backend).await;
    let second = TestApi::start_with(first.store.clone(), None).await;
    let room = room_id();
    let [red, blue] = first.seated_room(&room).await;
    let v = first.get(&room).await.body["version"].as_i64().unwrap();
    assert_eq!(first.play(&room, &red, v, json!([0, 0])).await.status, 200, "first caches the room at v+1");
    assert_eq!(second.play(&room, &blue, v + 1, json!([8, 8])).await.status, 200, "second moves on to v+2");
    // A client still at v+1 tries the first instance, whose cache is at v+1 too.
    let stale = first.play(&room, &blue, v + 1, json!([7, 7])).await;
    assert_eq!((stale.status.as_u16(), stale.code()), (409, "version_conflict"), "{}", stale.raw);
    assert_eq!(stale.body["room"]["version"], v + 2);
    let current = first.play(&room, &red, v + 2, json!([1, 1])).await;
    assert_eq!(current.status, 200, "a current move through the stale instance lands: {}", current.raw);
    let moves = second.get(&room).await.body["moves"].clone();
    assert_eq!(moves, json!([{"row": 0, "col": 0}, {"row": 8, "col": 8}, {"row": 1, "col": 1}]));
}

both_stores!(
    full_games_match_the_engine,
    polling_is_cheap_with_etags,
    seats_tokens_and_idempotent_creation,
    resign_and_rematch_swap_colours,
    racing_moves_one_wins_one_conflicts,
    concurrent_games_never_lose_a_move,
    bad_requests_change_nothing,
    cron_deletes_only_idle_rooms,
    instances_sharing_a_store_never_write_from_a_stale_cache,
);
