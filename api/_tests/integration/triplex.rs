//! Triplex records over HTTP on both stores: a solve is stored only when the engine accepts it, and
//! every refusal (wrong solution, unknown level, bad name, huge body, ...) has its code and stores
//! nothing.

use reqwest::StatusCode;
use serde_json::{json, Value};
use tabula_core::triplex::catalog;

use crate::client::{Backend, TestApi};

const LEVEL: usize = 1;

async fn records(api: &TestApi, level: &str) -> crate::client::Reply {
    api.send(api.http.get(format!("{}/api/triplex/records", api.base)).query(&[("level", level)])).await
}

async fn solve(api: &TestApi, body: Value) -> crate::client::Reply {
    api.send(api.http.post(format!("{}/api/triplex/solve", api.base)).json(&body)).await
}

pub async fn triplex_solves_are_checked_stored_and_counted(backend: Backend) {
    let api = TestApi::start(backend).await;
    let level = catalog::level(LEVEL).unwrap();
    let before = records(&api, "1").await;
    assert_eq!(before.status, StatusCode::OK, "{}", before.raw);
    let solvers = before.body["solvers"].as_u64().unwrap();
    let name = format!("Ann {:06x}", rand::random::<u32>() & 0xff_ffff);

    let first =
        solve(&api, json!({"level": 1, "name": format!("  {name} "), "ms": 5000, "solution": level.solution})).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.raw);
    assert_eq!(first.body["level"], 1);
    assert_eq!(first.body["solvers"], solvers + 1);
    assert!(first.body["bestMs"].as_i64().unwrap() <= 5000);
    if solvers == 0 {
        assert_eq!(first.body["first"]["name"], json!(name), "the name as cleaned");
        assert_eq!(first.body["first"]["ms"], 5000);
    }
    // The same player again, faster: still one solver, with the better time.
    let again = solve(&api, json!({"level": 1, "name": name, "ms": 1200, "solution": level.solution})).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.raw);
    assert_eq!(again.body["solvers"], solvers + 1);
    assert!(again.body["bestMs"].as_i64().unwrap() <= 1200);
    assert_eq!(records(&api, "1").await.body, again.body, "GET answers what the POST answered");
    let stored = api.store.records(1).await.unwrap().solves;

    // Two cells of different pieces swapped: every cell is covered, but not by the pieces' shapes.
    let mut wrong = level.solution.clone();
    let (a, b) = (wrong[0][0], wrong[1][wrong[1].len() - 1]);
    assert_ne!(a, b);
    wrong[0][0] = b;
    wrong[1][level.w - 1] = a;
    let huge = json!({"level": 1, "name": "x", "ms": 5, "solution": level.solution, "pad": "x".repeat(70_000)});
    let refusals = [
        ("a wrong solution", json!({"level": 1, "name": "b", "ms": 5, "solution": wrong}), 422, "wrong_solution"),
        (
            "a solution of another size",
            json!({"level": 1, "name": "b", "ms": 5, "solution": [[0, 1]]}),
            422,
            "wrong_solution",
        ),
        ("level 0", json!({"level": 0, "name": "b", "ms": 5, "solution": level.solution}), 404, "level_not_found"),
        ("level 725", json!({"level": 725, "name": "b", "ms": 5, "solution": level.solution}), 404, "level_not_found"),
        ("an empty name", json!({"level": 1, "name": "   ", "ms": 5, "solution": level.solution}), 400, "bad_request"),
        (
            "a long name",
            json!({"level": 1, "name": "n".repeat(25), "ms": 5, "solution": level.solution}),
            400,
            "bad_request",
        ),
        (
            "a control character",
            json!({"level": 1, "name": "a\u{0}b", "ms": 5, "solution": level.solution}),
            400,
            "bad_request",
        ),
        ("no time", json!({"level": 1, "name": "b", "ms": 0, "solution": level.solution}), 400, "bad_request"),
        (
            "a fractional level",
            json!({"level": 1.5, "name": "b", "ms": 5, "solution": level.solution}),
            400,
            "bad_request",
        ),
        ("a missing solution", json!({"level": 1, "name": "b", "ms": 5}), 400, "bad_request"),
        (
            "an unknown field",
            json!({"level": 1, "name": "b", "ms": 5, "solution": level.solution, "x": 1}),
            400,
            "bad_request",
        ),
        ("a huge body", huge, 413, "payload_too_large"),
    ];
    for (what, body, status, code) in refusals {
        let reply = solve(&api, body).await;
        assert_eq!((reply.status.as_u16(), reply.code()), (status, code), "{what}: {}", reply.raw);
        assert!(reply.body["error"]["message"].is_string(), "{what}: {}", reply.raw);
    }
    assert_eq!(api.store.records(1).await.unwrap().solves, stored, "no refusal stored anything");
    for (query, status, code) in
        [("0", 404, "level_not_found"), ("725", 404, "level_not_found"), ("x", 400, "bad_request")]
    {
        let reply = records(&api, query).await;
        assert_eq!((reply.status.as_u16(), reply.code()), (status, code), "records?level={query}: {}", reply.raw);
    }
    let missing = api.send(api.http.get(format!("{}/api/triplex/records", api.base))).await;
    assert_eq!((missing.status.as_u16(), missing.code()), (400, "bad_request"));
}

/// The records as the database computes them, the same on both stores: the first solve, each name
/// once with its best time, the lower middle of those as the median.
pub async fn triplex_records_count_each_name_once_with_its_best_time(backend: Backend) {
    let api = TestApi::start(backend).await;
    // A level no other test solves (the PostgREST database is shared).
    let number = 3;
    let level = catalog::level(number).unwrap();
    let tag = format!("{:04x}", rand::random::<u16>());
    let before = records(&api, "3").await.body;
    assert_eq!(before["solvers"], 0, "{before}");
    let mut last = Value::Null;
    for (name, ms) in [("ann", 9000), ("bob", 4000), ("ann", 3000), ("cy", 7000)] {
        let reply = solve(
            &api,
            json!({"level": number, "name": format!("{name} {tag}"), "ms": ms, "solution": level.solution}),
        )
        .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.raw);
        last = reply.body;
    }
    assert_eq!(
        (&last["solvers"], &last["bestMs"], &last["medianMs"]),
        (&json!(3), &json!(3000), &json!(4000)),
        "{last}"
    );
    assert_eq!(
        (&last["first"]["name"], &last["first"]["ms"]),
        (&json!(format!("ann {tag}")), &json!(9000)),
        "the first solve, not ann's best"
    );
    assert_eq!(api.store.records(3).await.unwrap().solves, 4);
}

both_stores!(triplex_solves_are_checked_stored_and_counted, triplex_records_count_each_name_once_with_its_best_time);
