//! Load test on loopback: concurrent POPUCOM games through the API on PostgREST, next to a bare
//! PostgREST read and a bare conditional PATCH of the same rows (the floor the API stands on).
//!
//! `cargo xtask load` (or `cargo bench --bench load` once `cargo xtask test` has installed
//! PostgREST) runs it for `LOAD_SECONDS` (default 20) per phase with `LOAD_GAMES` (default 8)
//! concurrent games, and fails if a move's p50 passes 1.5 times the bare PATCH's; under `cargo
//! test` it runs for a moment as a smoke test. Prints p50/p99 latencies and requests per second as
//! a Markdown table.

#[path = "../_tests/integration/services.rs"]
mod services;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use tabula_api::store::{PostgrestStore, SupabaseKey};
use tabula_api::{router, AppState};
use tabula_core::GameKind;

type Samples = Arc<Mutex<BTreeMap<&'static str, Vec<Duration>>>>;

fn record(samples: &Samples, kind: &'static str, elapsed: Duration) {
    samples.lock().unwrap().entry(kind).or_default().push(elapsed);
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// One player pair playing random legal games in a room until `deadline`, polling like the site.
async fn play_games(http: reqwest::Client, base: String, seed: u64, deadline: Instant, samples: Samples) {
    let url = format!("{base}/api/game");
    let room = format!("load{seed:x}{:08x}", rand::random::<u32>());
    let mut tokens = Vec::new();
    for seat in [1, 2] {
        let reply: Value =
            http.post(&url).json(&json!({"roomId": room, "seat": seat})).send().await.unwrap().json().await.unwrap();
        tokens.push(reply["token"].as_str().unwrap().to_owned());
    }
    let mut rng = SmallRng::seed_from_u64(seed);
    while Instant::now() < deadline {
        let start = Instant::now();
        let response = http.get(&url).query(&[("roomId", &room)]).send().await.unwrap();
        let etag = response.headers()["etag"].to_str().unwrap().to_owned();
        let view: Value = response.json().await.unwrap();
        record(&samples, "API GET (200)", start.elapsed());

        let start = Instant::now();
        let unchanged = http.get(&url).query(&[("roomId", &room)]).header("if-none-match", &etag).send().await.unwrap();
        assert_eq!(unchanged.status(), 304);
        record(&samples, "API GET (304)", start.elapsed());

        let moves: Vec<Value> = serde_json::from_value(view["moves"].clone()).unwrap();
        let game = GameKind::Popucom.replay(&Value::Null, &moves).unwrap();
        let version = view["version"].as_i64().unwrap();
        let colour = game.status().to_move();
        let (body, kind) = match colour {
            Some(colour) => {
                let legal = game.legal_moves();
                let mv = legal[rng.random_range(0..legal.len())].clone();
                // Seat N plays colour N in even games, the other colour after a rematch.
                let seat =
                    if view["gameNumber"].as_i64().unwrap() % 2 == 0 { colour.index() } else { 1 - colour.index() };
                (json!({"roomId": room, "token": tokens[seat], "version": version, "move": mv}), "API PUT (move)")
            }
            None => (
                json!({"roomId": room, "token": tokens[0], "version": version, "action": "rematch"}),
                "API PUT (rematch)",
            ),
        };
        let start = Instant::now();
        let reply = http.put(&url).json(&body).send().await.unwrap();
        assert_eq!(reply.status(), 200, "{}", reply.text().await.unwrap());
        reply.bytes().await.unwrap();
        record(&samples, kind, start.elapsed());
    }
}

/// The floor: the same row read and conditionally patched directly on PostgREST.
async fn bare_postgrest(
    http: reqwest::Client,
    rest: String,
    jwt: String,
    room: String,
    deadline: Instant,
    samples: Samples,
) {
    let rows = format!("{rest}/rooms");
    let mut version: i64 = serde_json::from_value::<Vec<Value>>(
        http.get(&rows)
            .bearer_auth(&jwt)
            .query(&[("room_id", format!("eq.{room}"))])
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap(),
    )
    .unwrap()[0]["version"]
        .as_i64()
        .unwrap();
    let mut moves = Vec::new();
    while Instant::now() < deadline {
        let start = Instant::now();
        let read = http.get(&rows).bearer_auth(&jwt).query(&[("room_id", format!("eq.{room}"))]).send().await.unwrap();
        read.bytes().await.unwrap();
        record(&samples, "PostgREST read", start.elapsed());

        moves.push(json!({"row": moves.len() % 9, "col": 0}));
        if moves.len() > 50 {
            moves.clear();
        }
        let start = Instant::now();
        let patch = http
            .patch(&rows)
            .bearer_auth(&jwt)
            .header("prefer", "return=representation")
            .query(&[("room_id", format!("eq.{room}")), ("version", format!("eq.{version}"))])
            .json(&json!({"version": version + 1, "moves": moves, "updated_at": chrono::Utc::now()}))
            .send()
            .await
            .unwrap();
        assert_eq!(patch.status(), 200);
        patch.bytes().await.unwrap();
        record(&samples, "PostgREST conditional PATCH", start.elapsed());
        version += 1;
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn report(title: &str, samples: &Samples, seconds: f64) {
    println!("\n{title}\n\n| request | count | per second | p50 | p99 |\n| --- | ---: | ---: | ---: | ---: |");
    for (kind, durations) in samples.lock().unwrap().iter_mut() {
        durations.sort();
        println!(
            "| {kind} | {} | {:.0} | {:.2} ms | {:.2} ms |",
            durations.len(),
            durations.len() as f64 / seconds,
            percentile(durations, 0.5).as_secs_f64() * 1e3,
            percentile(durations, 0.99).as_secs_f64() * 1e3,
        );
    }
}

#[tokio::main]
async fn main() {
    let full = std::env::args().any(|arg| arg == "--bench");
    let seconds = if full { env_number("LOAD_SECONDS", 20) } else { 2 };
    let games = if full { env_number("LOAD_GAMES", 8) } else { 2 };
    let supabase = services::supabase();
    let jwt = supabase.jwt("service_role");
    let store = Arc::new(PostgrestStore::new(&supabase.rest_url, SupabaseKey::parse(&jwt)));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let app = router(AppState::new(store, None, None)).into_make_service_with_connect_info::<SocketAddr>();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let http = reqwest::Client::new();

    let api_samples = Samples::default();
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let tasks: Vec<_> = (0..games)
        .map(|seed| tokio::spawn(play_games(http.clone(), base.clone(), seed, deadline, api_samples.clone())))
        .collect();
    for task in tasks {
        task.await.unwrap();
    }

    let bare_samples = Samples::default();
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut tasks = Vec::new();
    for n in 0..games {
        let room = format!("bare{n}{:08x}", rand::random::<u32>());
        http.post(format!("{base}/api/game")).json(&json!({"roomId": room})).send().await.unwrap();
        tasks.push(tokio::spawn(bare_postgrest(
            http.clone(),
            supabase.rest_url.clone(),
            jwt.clone(),
            room,
            deadline,
            bare_samples.clone(),
        )));
    }
    for task in tasks {
        task.await.unwrap();
    }
    println!("# load test: {games} concurrent games, {seconds} s per phase, everything on one 2-core machine");
    report("## Through the API (axum + core + PostgREST store)", &api_samples, seconds as f64);
    report("## Bare PostgREST (same rows, same concurrency)", &bare_samples, seconds as f64);
    let median = |samples: &Samples, kind: &str| {
        let mut all = samples.lock().unwrap()[kind].clone();
        all.sort();
        percentile(&all, 0.5)
    };
    let ratio = median(&api_samples, "API PUT (move)").as_secs_f64()
        / median(&bare_samples, "PostgREST conditional PATCH").as_secs_f64();
    println!("\nPUT p50 / bare PATCH p50 = {ratio:.2} (goal: at most {PUT_GOAL})");
    // The goal is checked by the full run only (`cargo xtask load`): the smoke run under `cargo
    // test` is two seconds beside other tests, too short and too noisy to judge a latency by.
    if full && ratio > PUT_GOAL {
        eprintln!("PUT p50 is {ratio:.2} times the bare PATCH's: over the goal of {PUT_GOAL} (docs/PERFORMANCE.md)");
        std::process::exit(1);
    }
}

/// A move through the API at most this many times the bare conditional PATCH it ends in (p50).
const PUT_GOAL: f64 = 1.5;
