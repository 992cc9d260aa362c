//! `tabula serve` on SQLite killed with SIGKILL again and again while games are played against it:
//! every move the server acknowledged (200) is in its room afterwards, in order, and every room is
//! the replay of its moves. Players forgive a slow move, not a lost one.

#[path = "common/mod.rs"]
mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use common::players::{self, Pace, Record};
use common::Server;

/// Kills this many times over the run (`TABULA_CRASH_KILLS`; with 0, the players play for
/// `TABULA_CRASH_SECONDS` without kills and the test prints the moves per second: the cost of the
/// store's settings, `docs/RELIABILITY.md`).
const KILLS: usize = 24;
const PLAYERS: usize = 6;

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn killing_the_server_again_and_again_loses_no_acknowledged_move() {
    let site = std::env::temp_dir().join(format!("tabula-crash-site-{}", std::process::id()));
    std::fs::create_dir_all(&site).unwrap();
    std::fs::write(site.join("index.html"), "<!doctype html><title>Tabula</title>").unwrap();
    let server = Arc::new(Mutex::new(Server::start(site)));
    let base = server.lock().unwrap().base.clone();
    let (record, stop) = (Arc::new(Record::default()), Arc::new(AtomicBool::new(false)));
    // No keep-alive: the server is killed under open connections.
    let client = players::http(false, Duration::from_secs(3));
    let pace = Pace { think_ms: 0..1, poll: false };
    let pairs = players::start_pairs(&client, &base, PLAYERS, &pace, &record, &stop);

    let kills = env_number("TABULA_CRASH_KILLS", KILLS);
    let started = std::time::Instant::now();
    if kills == 0 {
        tokio::time::sleep(Duration::from_secs(env_number("TABULA_CRASH_SECONDS", 10) as u64)).await;
    }
    let mut rng = SmallRng::seed_from_u64(7);
    for _ in 0..kills {
        tokio::time::sleep(Duration::from_millis(rng.random_range(150..500))).await;
        let server = server.clone();
        // SIGKILL (Child::kill), then the same port and rooms file.
        tokio::task::spawn_blocking(move || {
            let mut server = server.lock().unwrap();
            server.stop();
            server.restart();
        })
        .await
        .unwrap();
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let played_for = started.elapsed();
    players::stop_pairs(pairs, &stop).await;

    let acknowledged = record.acknowledged.lock().unwrap().len();
    assert!(acknowledged > 100, "only {acknowledged} moves acknowledged");
    players::check_rooms(&base, &record).await;
    println!(
        "{kills} kills, {} rooms, {acknowledged} moves acknowledged in {played_for:.1?} ({:.0} per second), all kept",
        record.rooms.load(Ordering::Relaxed),
        acknowledged as f64 / played_for.as_secs_f64()
    );
}
