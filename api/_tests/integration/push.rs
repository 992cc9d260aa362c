//! The local server's push (Server-Sent Events): every change of a room reaches that room's
//! stream as `{roomId, version}` and nothing else travels; other rooms' changes do not.

use std::time::Duration;

use serde_json::{json, Value};

use crate::client::{room_id, Backend, TestApi};

/// An open `/api/events` stream, read event by event.
struct Events {
    response: reqwest::Response,
    buffer: String,
}

impl Events {
    async fn open(api: &TestApi, room: &str) -> Events {
        let url = format!("{}/api/events", api.base);
        let response = api.http.get(url).query(&[("roomId", room)]).send().await.expect("the stream opens");
        assert_eq!(response.status(), 200);
        let kind = response.headers()["content-type"].to_str().unwrap().to_owned();
        assert!(kind.starts_with("text/event-stream"), "{kind}");
        Events { response, buffer: String::new() }
    }

    /// The next `room` event's data, or `None` if none comes within `wait`.
    async fn next(&mut self, wait: Duration) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            while let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let lines: Vec<&str> = block.lines().collect();
                if lines.contains(&"event: room") {
                    let data = lines.iter().find_map(|l| l.strip_prefix("data: ")).expect("an event has data");
                    return Some(serde_json::from_str(data).expect("the data is JSON"));
                }
            }
            let chunk = tokio::time::timeout_at(deadline, self.response.chunk()).await.ok()?;
            let chunk = chunk.expect("the stream stays readable").expect("the stream stays open");
            self.buffer.push_str(std::str::from_utf8(&chunk).unwrap());
        }
    }
}

const WAIT: Duration = Duration::from_secs(3);

pub async fn a_room_stream_carries_each_new_version_of_that_room_only(backend: Backend) {
    let api = TestApi::start_pushing(backend).await;
    let mode = api.send(api.http.get(format!("{}/api/push", api.base))).await;
    // Polls say a seated player is there: with push they slow down to a third of the abandonment
    // time (120 s by default), at most 30 s.
    assert_eq!(mode.body, json!({"mode": "sse", "url": "/api/events", "pollMs": 30_000, "webPush": false}));

    let (room, other) = (room_id(), room_id());
    let mut events = Events::open(&api, &room).await;
    let [one, two] = api.seated_room(&room).await;
    api.seated_room(&other).await;
    // Created at version 0, then one version per seat taken.
    for version in 0..=2 {
        assert_eq!(events.next(WAIT).await, Some(json!({"roomId": room, "version": version})));
    }
    let v = api.get(&room).await.body["version"].as_i64().unwrap();
    assert_eq!(api.play(&room, &one, v, json!([4, 4])).await.status, 200);
    assert_eq!(events.next(WAIT).await, Some(json!({"roomId": room, "version": v + 1})));
    // A refused move and a poll write no version: nothing is pushed.
    assert_eq!(api.play(&room, &one, v + 1, json!([4, 5])).await.status, 422);
    api.poll(&room, &two).await;
    assert_eq!(api.act(&room, &two, v + 1, "resign").await.status, 200);
    assert_eq!(events.next(WAIT).await, Some(json!({"roomId": room, "version": v + 2})));
    assert_eq!(events.next(Duration::from_millis(300)).await, None, "the other room's changes are not sent");
}

pub async fn streams_are_refused_clearly_without_a_room_or_without_push(backend: Backend) {
    let pushing = TestApi::start_pushing(backend).await;
    let missing = pushing.send(pushing.http.get(format!("{}/api/events", pushing.base))).await;
    assert_eq!((missing.status.as_u16(), missing.code()), (400, "bad_request"), "{}", missing.raw);
    let bad = pushing.send(pushing.http.get(format!("{}/api/events?roomId=no%20spaces", pushing.base))).await;
    assert_eq!(bad.status, 400, "{}", bad.raw);

    let polling = TestApi::start(backend).await;
    let mode = polling.send(polling.http.get(format!("{}/api/push", polling.base))).await;
    assert_eq!(mode.body, json!({"mode": "poll", "webPush": false}));
    let none = polling.send(polling.http.get(format!("{}/api/events?roomId=abc", polling.base))).await;
    assert_eq!((none.status.as_u16(), none.code()), (404, "not_found"), "{}", none.raw);
}

/// Every open room page listens to the room's stream: the listeners less the seated players still
/// there are its watchers, in the room's view (and its ETag) and in the lobby.
pub async fn open_streams_count_the_rooms_watchers(backend: Backend) {
    let api = TestApi::start_pushing(backend).await;
    let (room, ann, bo) = public_game(&api).await;
    assert_eq!(api.poll(&room, &bo).await.body["watching"], 0, "nobody listens yet");
    let _players = (Events::open(&api, &room).await, Events::open(&api, &room).await);
    let etag = api.poll(&room, &ann).await;
    assert_eq!(etag.body["watching"], 0, "two listeners, both seated players");
    let watcher = Events::open(&api, &room).await;
    let seen = api.poll(&room, &ann).await;
    assert_eq!(seen.body["watching"], 1);
    assert_ne!(seen.headers["etag"], etag.headers["etag"], "a new watcher changes the ETag");
    let lobby = api.send(api.http.get(format!("{}/api/lobby", api.base))).await.body;
    let listed = lobby["playing"].as_array().unwrap().iter().find(|r| r["roomId"] == room.as_str()).cloned();
    assert_eq!(listed.expect("the public game is listed")["watching"], 1);
    drop(watcher);
    let mut watching = json!(1);
    for _ in 0..50 {
        watching = api.poll(&room, &ann).await.body["watching"].clone();
        if watching == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(watching, 0, "a watcher who leaves is no longer counted");
}

/// A public room with both seats taken (Ann and Bo): its id and their tokens.
async fn public_game(api: &TestApi) -> (String, String, String) {
    let room = room_id();
    let mut created = json!({"roomId": room, "public": true, "seat": 1, "name": "Ann"});
    let ann = api.post(created.clone()).await.body["token"].as_str().unwrap().to_owned();
    created["seat"] = json!(2);
    let bo = api.post(created).await.body["token"].as_str().unwrap().to_owned();
    (room, ann, bo)
}

/// Deployed, the functions hold no connections: a seated player's page reports how many pages
/// it counts with the room open (Realtime's presence); less the seated players still there, the
/// room and the lobby show that as its watchers.
pub async fn a_seated_players_page_reports_the_watchers_where_realtime_counts_them(backend: Backend) {
    let api = TestApi::start_realtime(backend).await;
    let (room, ann, _) = public_game(&api).await;
    let report = |count: &str, token: Option<&str>| {
        let mut request = api.http.get(api.url()).query(&[("roomId", room.as_str()), ("pages", count)]);
        if let Some(token) = token {
            request = request.header("x-tabula-token", token);
        }
        api.send(request)
    };
    assert_eq!(api.poll(&room, &ann).await.body["watching"], Value::Null, "nobody has counted yet");
    let before = api.poll(&room, &ann).await;
    // Five pages open, both players' among them.
    let counted = report("5", Some(&ann)).await;
    assert_eq!(counted.body["watching"], 3, "{}", counted.raw);
    assert_ne!(counted.headers["etag"], before.headers["etag"], "the count is part of the ETag");
    assert_eq!(api.get(&room).await.body["watching"], 3, "kept for everyone's polls");
    let lobby = api.send(api.http.get(format!("{}/api/lobby", api.base))).await.body;
    let listed = lobby["playing"].as_array().unwrap().iter().find(|r| r["roomId"] == room.as_str()).cloned();
    assert_eq!(listed.expect("the public game is listed")["watching"], 3);

    assert_eq!(report("40", None).await.body["watching"], 3, "a spectator's page reports nothing");
    assert_eq!(report("3", Some(&ann)).await.body["watching"], 1, "a new count replaces the last");
    assert_eq!(report("99999999", Some(&ann)).await.body["watching"], 9_998, "counts are capped at 10,000 pages");
    let bad = report("lots", Some(&ann)).await;
    assert_eq!((bad.status.as_u16(), bad.code()), (400, "bad_request"), "{}", bad.raw);

    // Where the server counts the watchers itself, a page's count is ignored.
    let local = TestApi::start_pushing(backend).await;
    let room = room_id();
    let token = local.post(json!({"roomId": room, "seat": 1})).await.body["token"].as_str().unwrap().to_owned();
    let ignored = local.send(
        local.http.get(local.url()).query(&[("roomId", room.as_str()), ("pages", "7")]).header("x-tabula-token", token),
    );
    assert_eq!(ignored.await.body["watching"], 0);
}

both_stores!(
    a_seated_players_page_reports_the_watchers_where_realtime_counts_them,
    a_room_stream_carries_each_new_version_of_that_room_only,
    streams_are_refused_clearly_without_a_room_or_without_push,
    open_streams_count_the_rooms_watchers,
);
