//! Abandoned games (a seated player who stops polling can be claimed against) and each room's
//! takeback policy.

use std::time::Duration;

use serde_json::{json, Value};

use crate::client::{room_id, Backend, TestApi};

const ABANDON_AFTER: Duration = Duration::from_secs(2);

fn version(view: &Value) -> i64 {
    view["version"].as_i64().expect("a version")
}

fn away(view: &Value) -> [bool; 2] {
    [0, 1].map(|i| view["seats"][i]["away"].as_bool().expect("seats say who is away"))
}

/// Seat one keeps polling for `time` while seat two (silent unless `two` is given) does not.
async fn poll_for(api: &TestApi, room: &str, one: &str, two: Option<&str>, time: Duration) -> Value {
    let end = tokio::time::Instant::now() + time;
    let mut last = Value::Null;
    while tokio::time::Instant::now() < end {
        last = api.poll(room, one).await.body;
        if let Some(two) = two {
            api.poll(room, two).await;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    last
}

pub async fn a_player_who_leaves_can_be_claimed_against(backend: Backend) {
    let api = TestApi::start_abandoning(backend, ABANDON_AFTER).await;
    let room = room_id();
    let [one, two] = api.seated_room(&room).await;
    let v = version(&api.get(&room).await.body);
    assert_eq!(api.play(&room, &one, v, json!([4, 4])).await.status, 200);
    let v = v + 1;

    let early = api.act(&room, &one, v, "claim_win").await;
    assert_eq!((early.status.as_u16(), early.body["error"]["reason"].as_str()), (422, Some("opponent_present")));
    assert_eq!(version(&api.get(&room).await.body), v, "a refused claim writes nothing");
    // Both keep polling past the abandonment time: nobody is away.
    let both = poll_for(&api, &room, &one, Some(&two), ABANDON_AFTER + Duration::from_millis(800)).await;
    assert_eq!(away(&both), [false, false], "{both}");
    let before = api.get(&room).await;
    let etag = before.headers["etag"].to_str().unwrap().to_owned();

    // Seat two goes quiet: after the abandonment time the room says so, with a new ETag.
    let quiet = poll_for(&api, &room, &one, None, ABANDON_AFTER + Duration::from_millis(800)).await;
    assert_eq!(away(&quiet), [false, true], "{quiet}");
    assert_eq!(version(&quiet), v, "presence is no change of the game");
    let changed = api.send(api.http.get(api.url()).query(&[("roomId", &room)]).header("if-none-match", &etag)).await;
    assert_eq!(changed.status, 200, "a player going away changes the ETag");
    let away_etag = changed.headers["etag"].to_str().unwrap().to_owned();
    let same = api.send(api.http.get(api.url()).query(&[("roomId", &room)]).header("if-none-match", &away_etag)).await;
    assert_eq!(same.status, 304, "and polls with that ETag are cheap again");

    // Seat two comes back before any claim and just continues.
    let back = api.poll(&room, &two).await.body;
    assert_eq!(away(&back), [false, false]);
    let refused = api.act(&room, &one, v, "claim_win").await;
    assert_eq!(refused.body["error"]["reason"], "opponent_present", "{}", refused.raw);
    assert_eq!(api.play(&room, &two, v, json!([0, 0])).await.status, 200);
    let v = v + 1;
    // That move went through the API's cache, whose copy of the room has old presence times: the
    // write must not have put them back.
    assert_eq!(away(&api.get(&room).await.body), [false, false], "a move keeps presence as polled");

    // Seat two leaves for good; a watcher cannot claim, seat one can.
    poll_for(&api, &room, &one, None, ABANDON_AFTER + Duration::from_millis(800)).await;
    let watcher = api.act(&room, "not-a-token", v, "claim_win").await;
    assert_eq!((watcher.status.as_u16(), watcher.code()), (403, "not_a_player"));
    let quitter = api.act(&room, &two, v, "claim_win").await;
    assert_eq!(quitter.body["error"]["reason"], "opponent_present", "the one who left cannot claim");
    let claimed = api.act(&room, &one, v, "claim_win").await;
    assert_eq!(claimed.status, 200, "{}", claimed.raw);
    let state = &claimed.body["state"];
    assert_eq!((&state["result"], &state["to_move"]), (&json!({"winner": 1, "reason": "abandoned"}), &Value::Null));
    assert_eq!(away(&claimed.body), [false, false], "nobody abandons a finished game");
    assert_eq!(api.get(&room).await.body["state"]["result"]["reason"], "abandoned", "the store keeps it");
    let v = v + 1;
    let late = api.play(&room, &two, v, json!([8, 8])).await;
    assert_eq!(late.body["error"]["reason"], "game_over");
    assert_eq!(api.act(&room, &two, v, "takeback").await.body["error"]["reason"], "game_over");

    // A rematch starts afresh; the next abandonment is called a draw. Colours have swapped, so the
    // one who left now plays colour 1.
    let rematch = api.act(&room, &two, v, "rematch").await;
    assert_eq!((rematch.status.as_u16(), &rematch.body["state"]["result"]), (200, &Value::Null));
    poll_for(&api, &room, &one, None, ABANDON_AFTER + Duration::from_millis(800)).await;
    let drawn = api.act(&room, &one, v + 1, "claim_draw").await;
    assert_eq!(drawn.body["state"]["result"], json!({"winner": 0, "reason": "abandoned"}), "{}", drawn.raw);
    let again = api.act(&room, &one, v + 2, "claim_win").await;
    assert_eq!(again.body["error"]["reason"], "game_over");
}

pub async fn an_empty_seat_is_not_abandoned(backend: Backend) {
    let api = TestApi::start_abandoning(backend, ABANDON_AFTER).await;
    let room = room_id();
    let joined = api.post(json!({"roomId": room, "seat": 1})).await;
    let one = joined.body["token"].as_str().unwrap().to_owned();
    let view = poll_for(&api, &room, &one, None, ABANDON_AFTER + Duration::from_millis(800)).await;
    assert_eq!(away(&view), [false, false]);
    let claim = api.act(&room, &one, version(&view), "claim_win").await;
    assert_eq!(claim.body["error"]["reason"], "opponent_present", "{}", claim.raw);
}

pub async fn each_room_has_its_takeback_policy(backend: Backend) {
    let api = TestApi::start(backend).await;
    let ask = room_id();
    api.seated_room(&ask).await;
    assert_eq!(api.get(&ask).await.body["takebacks"], "ask", "asking is the default");
    let bad = api.post(json!({"roomId": room_id(), "seat": 1, "takebacks": "sometimes"})).await;
    assert_eq!((bad.status.as_u16(), bad.code()), (400, "bad_request"));

    let never = room_id();
    let [red, blue] = api.seated_room_of(&never, json!({"takebacks": "never"})).await;
    let view = api.get(&never).await.body;
    assert_eq!(view["takebacks"], "never", "shown to anyone before they join");
    let v = version(&view);
    assert_eq!(api.play(&never, &red, v, json!([4, 4])).await.status, 200);
    let refused = api.act(&never, &red, v + 1, "takeback").await;
    assert_eq!((refused.status.as_u16(), refused.body["error"]["reason"].as_str()), (422, Some("takebacks_off")));
    assert_eq!(api.act(&never, &blue, v + 1, "takeback").await.body["error"]["reason"], "takebacks_off");

    let always = room_id();
    let [red, blue] = api.seated_room_of(&always, json!({"takebacks": "always"})).await;
    let v = version(&api.get(&always).await.body);
    let nothing = api.act(&always, &red, v, "takeback").await;
    assert_eq!(nothing.body["error"]["reason"], "nothing_to_take_back");
    for (token, cell) in [(&red, [4, 4]), (&blue, [0, 0]), (&red, [8, 8])] {
        assert_eq!(api.play(&always, token, version(&api.get(&always).await.body), json!(cell)).await.status, 200);
    }
    let v = version(&api.get(&always).await.body);
    // Granted at once: blue's move and red's reply go, and no request is left waiting.
    let granted = api.act(&always, &blue, v, "takeback").await;
    assert_eq!(granted.status, 200, "{}", granted.raw);
    assert_eq!((&granted.body["moves"], &granted.body["takeback"]), (&json!([{"row": 4, "col": 4}]), &Value::Null));
    assert_eq!(granted.body["state"]["to_move"], 2);
    let mine = api.act(&always, &red, v + 1, "takeback").await;
    assert_eq!(mine.body["moves"], json!([]), "red's own last move, with no reply yet: {}", mine.raw);
}

both_stores!(
    a_player_who_leaves_can_be_claimed_against,
    an_empty_seat_is_not_abandoned,
    each_room_has_its_takeback_policy,
);
