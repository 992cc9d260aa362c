//! A store that fails under the API: PostgREST that never answers, refuses connections, or is
//! paused (SIGSTOP) mid-game. Every request answers within 2 seconds with 503 `store_unavailable`
//! (JSON, `Retry-After`), and once PostgREST is back the same process serves the same room again.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tabula_api::store::{PostgrestStore, SupabaseKey};
use tabula_core::GameKind;

use crate::client::{room_id, Reply, TestApi};
use crate::services::{own_postgrest, supabase};

const LIMIT: Duration = Duration::from_secs(2);

/// Sends `request`, checks it is a 503 `store_unavailable` that came within two seconds.
async fn unavailable(what: &str, request: impl std::future::Future<Output = Reply>) {
    let start = Instant::now();
    // A hang fails here, loudly, rather than holding the test run.
    let reply = tokio::time::timeout(Duration::from_secs(10), request)
        .await
        .unwrap_or_else(|_| panic!("{what}: no answer in 10 s (the API hangs on its store)"));
    let took = start.elapsed();
    assert!(took < LIMIT, "{what}: answered after {took:?}");
    assert_eq!(reply.status, 503, "{what}: {}", reply.raw);
    assert_eq!(reply.code(), "store_unavailable", "{what}");
    assert_eq!(reply.headers.get("retry-after").and_then(|v| v.to_str().ok()), Some("2"), "{what}");
}

async fn every_request_kind(api: &TestApi, what: &str) {
    let room = room_id();
    unavailable(&format!("{what}: GET"), api.get(&room)).await;
    unavailable(&format!("{what}: POST"), api.post(json!({"roomId": room, "seat": 1, "name": "Ann"}))).await;
    let mv = json!({"roomId": room, "token": "x".repeat(32), "version": 1, "move": {"row": 4, "col": 4}});
    unavailable(&format!("{what}: PUT"), api.put(mv)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgrest_that_never_answers_or_is_not_there_gets_503_within_two_seconds() {
    // A listener that accepts connections and never says a word.
    let hole = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = hole.local_addr().unwrap();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in hole.incoming().flatten() {
            held.push(stream);
        }
    });
    let store = PostgrestStore::new(&format!("http://{address}"), SupabaseKey::parse("a-key"));
    let api = TestApi::start_with(Arc::new(store), None).await;
    every_request_kind(&api, "silent PostgREST").await;

    // Nothing listening at all: refused at once.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let store = PostgrestStore::new(&format!("http://{closed}"), SupabaseKey::parse("a-key"));
    let api = TestApi::start_with(Arc::new(store), None).await;
    every_request_kind(&api, "no PostgREST").await;
}

/// The room as the API shows it equals a replay of its own moves.
fn consistent(room: &Value) {
    let moves: Vec<Value> = serde_json::from_value(room["moves"].clone()).unwrap();
    let replayed = GameKind::Popucom.replay(&room["config"], &moves).expect("the stored moves replay").state();
    // The room's state adds figures for clients (scores); every field of the replay must match.
    for (field, value) in replayed.as_object().unwrap() {
        assert_eq!(&room["state"][field], value, "the room's {field} is the replay's");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_postgrest_answers_503_and_the_same_process_serves_again_when_it_resumes() {
    let own = own_postgrest();
    let key = SupabaseKey::parse(&supabase().jwt("service_role"));
    let api = TestApi::start_with(Arc::new(PostgrestStore::new(&own.url, key)), None).await;
    let room = room_id();
    let [red, blue] = api.seated_room(&room).await;
    let first = api
        .play(&room, &red, api.get(&room).await.body["version"].as_i64().unwrap(), json!({"row": 4, "col": 4}))
        .await;
    assert_eq!(first.status, 200, "{}", first.raw);
    let version = first.body["version"].as_i64().unwrap();

    own.signal(libc::SIGSTOP);
    unavailable("paused: GET", api.get(&room)).await;
    unavailable("paused: PUT", api.play(&room, &blue, version, json!({"row": 0, "col": 0}))).await;
    unavailable("paused: POST", api.post(json!({"roomId": room_id(), "seat": 1, "name": "Cy"}))).await;
    own.signal(libc::SIGCONT);

    // Back: the same API process serves the room, which is whole. The refused move may still
    // reach the database: PostgREST takes up what queued while it was paused, so the room is read
    // again on a version conflict.
    let start = Instant::now();
    let mut room_now = loop {
        let reply = api.get(&room).await;
        if reply.status == 200 {
            break reply.body;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "PostgREST never served again: {}", reply.raw);
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    for _ in 0..3 {
        consistent(&room_now);
        let moves = room_now["moves"].as_array().unwrap().len();
        assert!(moves == 1 || moves == 2, "{moves} moves");
        let (token, mv) =
            if moves == 1 { (&blue, json!({"row": 0, "col": 0})) } else { (&red, json!({"row": 8, "col": 8})) };
        let reply = api.play(&room, token, room_now["version"].as_i64().unwrap(), mv).await;
        match reply.status.as_u16() {
            200 => {
                consistent(&reply.body);
                return;
            }
            409 => room_now = reply.body["room"].clone(),
            _ => panic!("after the pause: {}", reply.raw),
        }
    }
    panic!("the room kept changing after the pause");
}
