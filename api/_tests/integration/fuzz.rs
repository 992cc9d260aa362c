//! Hostile requests at scale: proptest generates malformed and hostile methods, paths, room ids,
//! headers and bodies (valid requests of every game kind with one field replaced by any JSON, any
//! JSON, raw bytes) against a running API with seated rooms of every game. No answer may be a 500
//! or a dropped connection; every refusal is JSON with a stable code; no refused request changes a
//! room or stores a Triplex solve. `TABULA_FUZZ_CASES` sets the number of requests (CI: 300 a store).

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{json, Value};
use tabula_core::triplex::catalog;

use crate::client::{room_id, Backend, TestApi};

/// A seated room of each game kind, with a few moves played.
async fn rooms(api: &TestApi) -> Vec<(String, Value)> {
    let games = [
        json!({"game": "popucom"}),
        json!({"game": "go", "config": {"size": 9}}),
        json!({"game": "edges"}),
        json!({"game": "chess", "config": {"variant": "capablanca"}}),
    ];
    let first_moves = [
        json!({"row": 4, "col": 4}),
        json!({"type": "play", "at": "E5"}),
        json!({"type": "place", "edge": 0}),
        json!("e2e4"),
    ];
    let mut rooms = Vec::new();
    for (game, mv) in games.iter().zip(first_moves) {
        let room = room_id();
        let [one, _] = api.seated_room_of(&room, game.clone()).await;
        let view = api.get(&room).await.body;
        let played = api.play(&room, &one, view["version"].as_i64().unwrap(), mv).await;
        assert_eq!(played.status, 200, "{game}: {}", played.raw);
        rooms.push((room.clone(), api.get(&room).await.body));
    }
    rooms
}

/// Every action a seated player can send (`PUT /api/game`), besides moves.
pub const ACTIONS: [&str; 7] =
    ["resign", "rematch", "takeback", "accept_takeback", "decline_takeback", "claim_win", "claim_draw"];

/// Any JSON, with the values hostile input is made of: extreme numbers, odd strings, deep nesting.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter("JSON has no NaN or infinity", |f| f.is_finite()).prop_map(Value::from),
        prop_oneof![Just(-1i64), Just(0), Just(1), Just(2), Just(i64::MAX)].prop_map(Value::from),
        ".{0,40}".prop_map(Value::from),
        "[\\x00-\\x1f\\u{202e}\\u{200b}]{1,5}".prop_map(Value::from),
        Just(Value::from("x".repeat(5000))),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
            prop::collection::btree_map(field(), inner, 0..5).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// The fields the API reads, and any other name.
fn field() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "roomId",
            "token",
            "version",
            "move",
            "action",
            "seat",
            "name",
            "game",
            "config",
            "check",
            "takebacks",
            "level",
            "ms",
            "solution",
            "row",
            "col",
            "point",
            "edge",
            "variant",
            "size",
            "definition",
        ])
        .prop_map(str::to_owned),
        "[a-zA-Z_]{1,10}",
    ]
}

/// A room id: one of the seeded rooms, or anything.
fn room(seeded: Vec<String>) -> impl Strategy<Value = String> {
    prop_oneof![prop::sample::select(seeded), ".{0,30}", "[A-Za-z0-9_-]{1,25}"]
}

/// Valid-looking requests of every kind (seat tokens are never the real ones), to be mutated.
fn templates(seeded: Vec<String>) -> impl Strategy<Value = (String, Value)> {
    let wrong_solution = {
        let mut solution = catalog::level(2).unwrap().solution.clone();
        let last = solution[0].len() - 1;
        let (a, b) = (solution[0][0], solution[1][last]);
        solution[0][0] = b;
        solution[1][last] = a;
        solution
    };
    let moves = prop::sample::select(vec![
        json!({"row": 1, "col": 2}),
        json!({"type": "play", "at": "C3"}),
        json!({"type": "pass"}),
        json!({"type": "place", "edge": 5}),
        json!({"type": "move", "from": 0, "to": 1}),
        json!("e7e5"),
    ]);
    let actions = prop::sample::select(ACTIONS.iter().copied().chain(["move"]).collect::<Vec<_>>());
    (room(seeded), "[0-9a-zA-Z_-]{0,70}", -2i64..40, moves, actions).prop_map(
        move |(room, token, version, mv, action)| {
            let all = [
                ("PUT", json!({"roomId": room, "token": token, "version": version, "move": mv})),
                ("PUT", json!({"roomId": room, "token": token, "version": version, "action": action})),
                ("POST", json!({"roomId": room, "seat": 1, "name": "Eve"})),
                ("POST", json!({"roomId": room, "token": token})),
                ("POST", json!({"check": true, "game": "chess", "config": {"variant": "capablanca"}})),
                ("POST", json!({"level": 2, "name": "Eve", "ms": 1000, "solution": wrong_solution})),
            ];
            let pick = (version.unsigned_abs() as usize + token.len()) % all.len();
            let (method, body) = all[pick].clone();
            (method.to_owned(), body)
        },
    )
}

/// One request: method, path with its query, extra headers, body.
#[derive(Clone, Debug)]
struct Hostile {
    method: String,
    path: String,
    headers: Vec<(&'static str, String)>,
    body: Vec<u8>,
}

fn hostile(seeded: Vec<String>) -> impl Strategy<Value = Hostile> {
    let mutated = (templates(seeded.clone()), field(), any_json(), any::<bool>()).prop_map(
        |((method, mut body), key, value, drop_it)| {
            if drop_it {
                body.as_object_mut().map(|o| o.remove(&key));
            } else {
                body[key.as_str()] = value;
            }
            let path = if body.get("level").is_some() || body.get("solution").is_some() {
                "/api/triplex/solve"
            } else {
                "/api/game"
            };
            (method, path.to_owned(), body.to_string().into_bytes())
        },
    );
    let method = prop::sample::select(vec!["GET", "POST", "PUT", "DELETE", "PATCH"]).prop_map(str::to_owned);
    let query = (room(seeded), ".{0,12}", "[-0-9a-z]{0,6}").prop_map(|(room, format, level)| {
        let room = utf8_percent(&room);
        let paths = [
            format!("/api/game?roomId={room}"),
            format!("/api/game?roomId={room}&format={}", utf8_percent(&format)),
            format!("/api/triplex/records?level={level}"),
            "/api/triplex/records".to_owned(),
            "/api/cron".to_owned(),
            format!("/api/{}", utf8_percent(&format)),
        ];
        paths[(room.len() + format.len()) % paths.len()].clone()
    });
    let body = prop_oneof![
        any_json().prop_map(|v| v.to_string().into_bytes()),
        prop::collection::vec(any::<u8>(), 0..300),
        Just(b"{\"roomId\": \"".to_vec()),
        Just(Vec::new()),
    ];
    let headers = prop::collection::vec(
        (
            prop::sample::select(vec![
                "content-type",
                "if-none-match",
                "x-tabula-token",
                "authorization",
                "x-forwarded-for",
            ]),
            prop_oneof![Just("application/json".to_owned()), Just("*".to_owned()), "[ -~]{0,40}"],
        ),
        0..3,
    );
    prop_oneof![
        (mutated, headers.clone()).prop_map(|((method, path, body), headers)| Hostile { method, path, headers, body }),
        (method, query, headers, body).prop_map(|(method, path, headers, body)| Hostile {
            method,
            path,
            headers,
            body
        }),
    ]
}

/// Percent-encodes everything but unreserved characters, so any text can sit in a query.
fn utf8_percent(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

async fn send(api: &TestApi, request: &Hostile) -> Result<(u16, String), String> {
    let method = reqwest::Method::from_bytes(request.method.as_bytes()).map_err(|e| e.to_string())?;
    let mut builder = api.http.request(method, format!("{}{}", api.base, request.path)).body(request.body.clone());
    for (name, value) in &request.headers {
        builder = builder.header(*name, value.as_str());
    }
    let response = builder.send().await.map_err(|e| format!("no answer: {e}"))?;
    let status = response.status().as_u16();
    let text = response.text().await.map_err(|e| format!("a broken answer: {e}"))?;
    Ok((status, text))
}

pub async fn hostile_requests_get_clear_refusals_and_change_nothing(backend: Backend) {
    let api = TestApi::start(backend).await;
    let seeded = rooms(&api).await;
    let ids: Vec<String> = seeded.iter().map(|(id, _)| id.clone()).collect();
    let cases = std::env::var("TABULA_FUZZ_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(300);
    let config = Config { cases, failure_persistence: None, ..Config::default() };
    let mut runner = TestRunner::new(config);
    let handle = tokio::runtime::Handle::current();
    let answered = std::cell::RefCell::new(std::collections::BTreeMap::<u16, u32>::new());
    let result = tokio::task::block_in_place(|| {
        runner.run(&hostile(ids), |request| {
            let (status, text) = handle.block_on(send(&api, &request)).map_err(TestCaseError::fail)?;
            *answered.borrow_mut().entry(status).or_default() += 1;
            prop_assert!(status < 500, "{request:?} answered {status}: {text}");
            prop_assert!(!text.contains("token_hash"), "{request:?} showed seat hashes: {text}");
            if status >= 400 {
                let body: Value = serde_json::from_str(&text)
                    .map_err(|_| TestCaseError::fail(format!("{request:?}: a refusal not in JSON: {text}")))?;
                prop_assert!(body["error"]["code"].is_string(), "{request:?}: no error code: {text}");
            }
            if request.path.starts_with("/api/triplex/solve") {
                prop_assert!(status >= 400, "{request:?}: a wrong solution was taken: {text}");
            }
            Ok(())
        })
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
    println!("fuzz ({backend:?}): {cases} requests, answers by status: {:?}", answered.borrow());
    for (id, before) in &seeded {
        let after = api.get(id).await.body;
        assert_eq!(after["version"], before["version"], "room {id} changed: {after}");
        assert_eq!(after["moves"], before["moves"], "room {id} changed");
        assert_eq!(after["seats"], before["seats"], "room {id} changed hands");
    }
    assert_eq!(api.store.records(2).await.unwrap().solves, 0, "a refused solve was stored");
}

both_stores!(hostile_requests_get_clear_refusals_and_change_nothing);
