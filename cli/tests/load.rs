//! `tabula serve` under load while what it stands on fails, and for a long time:
//! - PostgreSQL crashed and restarted under PostgREST: every request answers within 2 s (503
//!   `store_unavailable` while it is down), the same server serves again once it is back, and no
//!   acknowledged move is lost;
//! - Redis (the rate limiter) paused and killed: requests pass within the limiter's deadline, and the
//!   limiter counts again once Redis is back;
//! - the soak: many games for a while on each store (`cargo xtask soak`: 200 games, 10 minutes; here
//!   `TABULA_SOAK_GAMES`, default 20, for `TABULA_SOAK_SECONDS`, default 20): every room equals its
//!   replay, no request over 2 s at p99.9, and the server's memory stays flat.
//!
//! The tests run one at a time: each measures latencies on a 2-core machine.

#[path = "common/mod.rs"]
mod common;
#[path = "../../api/_tests/integration/services.rs"]
mod services;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use common::players::{self, Answer, Pace, Record};
use common::Server;

static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

const LIMIT: Duration = Duration::from_secs(2);

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// A site folder with only an index: these tests use the API.
fn site() -> PathBuf {
    let site = std::env::temp_dir().join(format!("tabula-load-site-{}", std::process::id()));
    std::fs::create_dir_all(&site).unwrap();
    std::fs::write(site.join("index.html"), "<!doctype html><title>Tabula</title>").unwrap();
    site
}

fn answers(record: &Record) -> Vec<Answer> {
    record.answers.lock().unwrap().clone()
}

fn acknowledged(record: &Record) -> usize {
    record.acknowledged.lock().unwrap().len()
}

/// Every request got an answer within 2 s and none was a 500 (a 503 is the promised refusal).
fn answered_in_time(what: &str, answers: &[Answer]) {
    let statuses = players::statuses(answers);
    let (count, p50, p99, p999, max) = players::latencies(answers);
    println!("{what}: {count} requests {statuses:?}; p50 {p50:.1?}, p99 {p99:.1?}, p99.9 {p999:.1?}, max {max:.1?}");
    assert!(!statuses.contains_key(&0), "{what}: requests without an answer: {statuses:?}");
    assert!(statuses.keys().all(|&s| s < 500 || s == 503), "{what}: server errors: {statuses:?}");
    assert!(max < LIMIT, "{what}: a request took {max:?}");
}

/// Waits (at most `within`) until the players have had `more` moves acknowledged.
async fn moves_acknowledged(record: &Record, more: usize, within: Duration, what: &str) -> Duration {
    let (start, from) = (Instant::now(), acknowledged(record));
    while acknowledged(record) < from + more {
        assert!(start.elapsed() < within, "{what}: no move acknowledged in {within:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    start.elapsed()
}

fn supabase_env(rest_url: &str, key: &str) -> Vec<(&'static str, String)> {
    vec![("SUPABASE_REST_URL", rest_url.to_owned()), ("SUPABASE_SECRET_KEY", key.to_owned())]
}

fn start_server(env: &[(&str, String)]) -> Server {
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    Server::start_with_env(site(), &env)
}

/// Players moving every few tens of milliseconds and polling as the site does.
fn brisk() -> Pace {
    Pace { think_ms: 20..100, poll: true }
}

const CRASHES: usize = 5;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgresql_crashed_and_restarted_under_postgrest_loses_no_acknowledged_move() {
    let _alone = ONE_AT_A_TIME.lock().await;
    let own = tokio::task::spawn_blocking(services::own_supabase).await.unwrap();
    let server = start_server(&supabase_env(&own.postgrest.url, &own.supabase.jwt("service_role")));
    let (record, stop) = (Arc::new(Record::default()), Arc::new(AtomicBool::new(false)));
    let client = players::http(true, Duration::from_secs(10));
    let pairs = players::start_pairs(&client, &server.base, 6, &brisk(), &record, &stop);
    moves_acknowledged(&record, 50, Duration::from_secs(20), "before the crashes").await;

    let mut rng = SmallRng::seed_from_u64(11);
    for crash in 1..=CRASHES {
        // At a random moment of the play, so some crashes fall in the middle of a write.
        tokio::time::sleep(Duration::from_millis(rng.random_range(0..1000))).await;
        // SIGQUIT: PostgreSQL's immediate shutdown, no checkpoint, recovery at the next start.
        let database = &own.database;
        tokio::task::block_in_place(|| database.stop());
        let refused_before = players::statuses(&answers(&record)).get(&503).copied().unwrap_or(0);
        tokio::time::sleep(Duration::from_secs(2)).await;
        let refused = players::statuses(&answers(&record)).get(&503).copied().unwrap_or(0) - refused_before;
        assert!(refused > 0, "crash {crash}: no request was refused while the database was down");
        tokio::task::block_in_place(|| database.start());
        let back = moves_acknowledged(&record, 20, Duration::from_secs(60), "after the restart").await;
        println!(
            "crash {crash}: {refused} requests refused with 503 while down; moves again {back:.1?} after the restart"
        );
    }
    players::stop_pairs(pairs, &stop).await;
    answered_in_time(&format!("PostgreSQL crashed {CRASHES} times"), &answers(&record));
    let rooms = players::check_rooms(&server.base, &record).await;
    println!("{} moves acknowledged in {rooms} rooms, all kept", acknowledged(&record));
}

/// The limiter's count as the server reports it for a write (reads are limited in the process):
/// fewer than the limit left means Redis counted.
async fn limiter_counts(client: &reqwest::Client, base: &str, limit: u64) -> bool {
    let check = serde_json::json!({"check": true, "game": "popucom"});
    let reply = client.post(format!("{base}/api/game")).json(&check).send().await.unwrap();
    let remaining = reply.headers().get("x-ratelimit-remaining").and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    remaining.is_some_and(|remaining| remaining < limit)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_paused_or_killed_under_load_lets_requests_through_and_counts_again() {
    let _alone = ONE_AT_A_TIME.lock().await;
    let redis = tokio::task::spawn_blocking(services::own_redis).await.unwrap();
    const PER_MINUTE: u64 = 1_000_000;
    let server = start_server(&[("REDIS_URL", redis.url.clone()), ("RATE_LIMIT_PER_MINUTE", PER_MINUTE.to_string())]);
    let (record, stop) = (Arc::new(Record::default()), Arc::new(AtomicBool::new(false)));
    let client = players::http(true, Duration::from_secs(10));
    let pairs = players::start_pairs(&client, &server.base, 6, &brisk(), &record, &stop);
    moves_acknowledged(&record, 50, Duration::from_secs(20), "Redis up").await;
    assert!(limiter_counts(&client, &server.base, PER_MINUTE).await, "the limiter counts in Redis");

    redis.signal(libc::SIGSTOP);
    let took = moves_acknowledged(&record, 10, Duration::from_secs(20), "Redis paused").await;
    println!("Redis paused: 10 moves acknowledged in {took:.1?}");
    tokio::time::sleep(Duration::from_secs(2)).await;
    redis.signal(libc::SIGCONT);
    moves_acknowledged(&record, 50, Duration::from_secs(20), "Redis resumed").await;

    tokio::task::block_in_place(|| redis.stop());
    let took = moves_acknowledged(&record, 10, Duration::from_secs(20), "Redis killed").await;
    println!("Redis killed: 10 moves acknowledged in {took:.1?}");
    tokio::time::sleep(Duration::from_secs(2)).await;
    tokio::task::block_in_place(|| redis.start());
    let start = Instant::now();
    while !limiter_counts(&client, &server.base, PER_MINUTE).await {
        assert!(start.elapsed() < Duration::from_secs(20), "the limiter never counted again after Redis restarted");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    println!("Redis restarted: the limiter counts again after {:.1?}", start.elapsed());
    moves_acknowledged(&record, 50, Duration::from_secs(20), "Redis back").await;

    players::stop_pairs(pairs, &stop).await;
    let answers = answers(&record);
    answered_in_time("Redis paused 2 s, then killed 2 s", &answers);
    assert!(!players::statuses(&answers).contains_key(&503), "the store was never down");
    players::check_rooms(&server.base, &record).await;
}

/// Games at the site's pace on one store, then the checks of the soak.
async fn soak(store: &str, env: &[(&str, String)]) {
    let games = env_number("TABULA_SOAK_GAMES", 20) as usize;
    let seconds = env_number("TABULA_SOAK_SECONDS", 20);
    let server = start_server(env);
    let (record, stop) = (Arc::new(Record::default()), Arc::new(AtomicBool::new(false)));
    let client = players::http(true, Duration::from_secs(10));
    // A move every second on average, and both players' polls after it.
    let pace = Pace { think_ms: 500..1500, poll: true };
    let pairs = players::start_pairs(&client, &server.base, games, &pace, &record, &stop);
    // The memory after the first minute (or a third of a short run) is the baseline; the server's
    // memory is read every tenth of the run to show the trend.
    let warm_up = Duration::from_secs(seconds.div_ceil(3).min(60));
    let (started, mut memory_warm, mut samples) = (Instant::now(), None, Vec::new());
    for tenth in 1..=10 {
        tokio::time::sleep_until((started + Duration::from_secs(seconds) * tenth / 10).into()).await;
        if memory_warm.is_none() && started.elapsed() >= warm_up {
            memory_warm = Some(server.memory_kib());
        }
        samples.push(server.memory_kib());
    }
    players::stop_pairs(pairs, &stop).await;
    let (memory_warm, memory_end) = (memory_warm.expect("a sample after the warm-up"), server.memory_kib());
    println!("soak on {store}: the server's memory (KiB) at each tenth of the run: {samples:?}");

    let answers = answers(&record);
    answered_in_time(&format!("soak on {store}, {games} games, {seconds} s"), &answers);
    let statuses = players::statuses(&answers);
    assert!(!statuses.contains_key(&503), "{store}: the store refused requests: {statuses:?}");
    let (_, _, _, p999, _) = players::latencies(&answers);
    assert!(p999 < LIMIT, "{store}: p99.9 {p999:?}");
    let rooms = players::check_rooms(&server.base, &record).await;
    let growth = memory_end as f64 / memory_warm as f64 - 1.0;
    println!(
        "soak on {store}: {} moves acknowledged in {rooms} rooms, all equal to their replays; memory {memory_warm} KiB after {warm_up:?}, {memory_end} KiB at the end ({:+.1}%)",
        acknowledged(&record),
        growth * 100.0
    );
    assert!(acknowledged(&record) as u64 > games as u64 * seconds / 4, "{store}: too few moves for the pace");
    assert!(growth <= 0.10, "{store}: the server's memory grew {:.1}% after the warm-up", growth * 100.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn soak_sqlite() {
    let _alone = ONE_AT_A_TIME.lock().await;
    soak("SQLite", &[]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn soak_postgrest() {
    let _alone = ONE_AT_A_TIME.lock().await;
    let supabase = tokio::task::spawn_blocking(services::supabase).await.unwrap();
    soak("PostgREST", &supabase_env(&supabase.rest_url, &supabase.jwt("service_role"))).await;
}
