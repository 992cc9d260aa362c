//! The lobby on both stores: public rooms listed while they wait or play, private ones never, no
//! token anywhere; quick play pairs players who press at once into one room.

use std::collections::{HashMap, HashSet};

use serde_json::{json, Value};

use crate::client::{room_id, Backend, TestApi};

both_stores!(the_lobby_lists_public_rooms_only_while_they_wait_or_play, quick_play_pairs_players_who_press_at_once);

async fn lobby(api: &TestApi, game: Option<&str>) -> Value {
    let mut request = api.http.get(format!("{}/api/lobby", api.base));
    if let Some(game) = game {
        request = request.query(&[("game", game)]);
    }
    let reply = api.send(request).await;
    assert_eq!(reply.status, 200, "{}", reply.raw);
    reply.body
}

fn listed(list: &Value, room: &str) -> Option<Value> {
    list.as_array().unwrap().iter().find(|entry| entry["roomId"] == room).cloned()
}

pub async fn the_lobby_lists_public_rooms_only_while_they_wait_or_play(backend: Backend) {
    let api = TestApi::start(backend).await;
    let (public, private) = (room_id(), room_id());
    let created = api
        .post(json!({"roomId": public, "game": "go", "config": {"size": 9}, "public": true, "seat": 1, "name": "Ann"}))
        .await;
    assert_eq!(created.status, 200, "{}", created.raw);
    assert_eq!(created.body["room"]["public"], true);
    let ann = created.body["token"].as_str().unwrap().to_owned();
    assert_eq!(api.post(json!({"roomId": private, "game": "go", "seat": 1, "name": "Cy"})).await.status, 200);

    let everything = lobby(&api, None).await;
    let entry = listed(&everything["waiting"], &public).expect("a public room waiting is listed");
    assert_eq!((entry["game"].clone(), entry["name"].clone()), (json!("go"), json!("Ann")));
    let options = entry["options"].as_array().unwrap();
    assert!(options.contains(&json!(["size", "9"])) && options.contains(&json!(["komi", "7.5"])), "{options:?}");
    assert!(listed(&everything["waiting"], &private).is_none(), "a private room is never listed");
    assert!(listed(&lobby(&api, Some("go")).await["waiting"], &public).is_some());
    assert!(listed(&lobby(&api, Some("popucom")).await["waiting"], &public).is_none(), "filtered by game");

    let bo = api.post(json!({"roomId": public, "seat": 2, "name": "Bo"})).await;
    let bo = bo.body["token"].as_str().unwrap().to_owned();
    assert_eq!(api.play(&public, &ann, 2, json!({"type": "play", "at": "E5"})).await.status, 200);
    let now = lobby(&api, None).await;
    assert!(listed(&now["waiting"], &public).is_none(), "a full room waits no more");
    let playing = listed(&now["playing"], &public).expect("a public game being played is listed");
    assert_eq!((playing["players"].clone(), playing["moves"].clone()), (json!(["Ann", "Bo"]), json!(1)));

    let raw = api.send(api.http.get(format!("{}/api/lobby", api.base))).await.raw;
    for token in [&ann, &bo] {
        assert!(!raw.contains(token.as_str()) && !raw.contains(&tabula_api::token::hash_token(token)), "no token");
    }
    assert_eq!(api.act(&public, &bo, 3, "resign").await.status, 200);
    assert!(listed(&lobby(&api, None).await["playing"], &public).is_none(), "a finished game is not listed");

    let bad = api.send(api.http.get(format!("{}/api/lobby", api.base)).query(&[("game", "nope")])).await;
    assert_eq!((bad.status.as_u16(), bad.code()), (400, "bad_request"));
}

async fn quick_play(api: &TestApi, name: &str, config: Value) -> (String, u64) {
    let (room, seat, _) = quick_play_holding(api, name, config, json!([])).await;
    (room, seat)
}

/// Quick play by a player who holds the seats `held` (`[{"roomId", "token"}]`): room, seat, token.
async fn quick_play_holding(api: &TestApi, name: &str, config: Value, held: Value) -> (String, u64, String) {
    let body = json!({"game": "go", "config": config, "name": name, "held": held});
    let reply = api.send(api.http.post(format!("{}/api/lobby", api.base)).json(&body)).await;
    assert_eq!(reply.status, 200, "{}", reply.raw);
    assert_eq!(reply.body["room"]["public"], true);
    let token = reply.body["token"].as_str().expect("a token").to_owned();
    (reply.body["room"]["roomId"].as_str().unwrap().to_owned(), reply.body["seat"].as_u64().unwrap(), token)
}

pub async fn quick_play_pairs_players_who_press_at_once(backend: Backend) {
    let api = TestApi::start(backend).await;
    // Options no other run uses (a komi of its own), so that quick-play rooms left in the store by
    // other runs stay apart.
    let options = json!({"size": 9, "komi": f64::from(rand::random::<u16>() % 1998) - 998.5});

    // A public room created by hand with the same options is the oldest waiting: joined first.
    let by_hand = room_id();
    let body = json!({"roomId": by_hand, "game": "go", "config": options, "public": true, "seat": 2, "name": "Hand"});
    assert_eq!(api.post(body).await.status, 200);
    assert_eq!(quick_play(&api, "First", options.clone()).await, (by_hand.clone(), 1));

    // Six players at once end up in three full rooms.
    let presses = (0..6).map(|i| quick_play(&api, ["A", "B", "C", "D", "E", "F"][i], options.clone()));
    let seats: Vec<(String, u64)> = futures::future::join_all(presses).await;
    let mut rooms: HashMap<String, HashSet<u64>> = HashMap::new();
    for (room, seat) in &seats {
        assert!(rooms.entry(room.clone()).or_default().insert(*seat), "{room} seat {seat} given twice: {seats:?}");
    }
    assert_eq!(rooms.len(), 3, "six players make three rooms: {seats:?}");
    assert!(rooms.values().all(|seats| seats.len() == 2), "{seats:?}");

    // One more waits alone. Pressing again with the seat it holds takes it back to that seat,
    // not across the table from itself.
    let (alone, alone_seat, token) = quick_play_holding(&api, "G", options.clone(), json!([])).await;
    assert!(!rooms.contains_key(&alone));
    let held = json!([{"roomId": alone, "token": token}]);
    let again = quick_play_holding(&api, "G", options.clone(), held).await;
    assert_eq!(again, (alone.clone(), alone_seat, token.clone()), "back to the seat G waits in");

    let mut other = options.clone();
    other["komi"] = json!(options["komi"].as_f64().unwrap() + 1.0);
    let (elsewhere, seat) = quick_play(&api, "H", other).await;
    assert!(elsewhere != alone && seat == 1, "other options wait in a room of their own");
    let waiting = lobby(&api, Some("go")).await;
    assert_eq!(listed(&waiting["waiting"], &alone).expect("listed")["name"], "G");

    // Held seats that are not one's own waiting seat (a full room, a wrong token, no such room)
    // change nothing: the next player sits down opposite G.
    let (full, _) = seats[0].clone();
    let held =
        json!([{"roomId": full, "token": token}, {"roomId": alone, "token": "x"}, {"roomId": "nope!", "token": "x"}]);
    let opposite = quick_play_holding(&api, "I", options.clone(), held).await;
    assert_eq!((&opposite.0, opposite.1), (&alone, 3 - alone_seat));
}
