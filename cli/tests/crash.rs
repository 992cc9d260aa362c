//! `tabula serve` on SQLite killed with SIGKILL again and again while games are played against it:
//! every move the server acknowledged (200) is in its room afterwards, in order, and every room is
//! the replay of its moves. Players forgive a slow move, not a lost one.

#[path = "common/mod.rs"]
mod common;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use tabula_core::popucom::{Cell, Popucom};
use tabula_core::{Game, GameKind, Seat};

use common::Server;

/// Kills this many times over the run (`TABULA_CRASH_KILLS`; with 0, the players play for
/// `TABULA_CRASH_SECONDS` without kills and the test prints the moves per second: the cost of the
/// store's settings, `docs/RELIABILITY.md`).
const KILLS: usize = 24;
const PLAYERS: usize = 6;

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Moves the server acknowledged: room, the move's index in the room, the move.
type Acknowledged = Arc<Mutex<Vec<(String, usize, Value)>>>;

fn http() -> reqwest::Client {
    reqwest::Client::builder().timeout(Duration::from_secs(3)).pool_max_idle_per_host(0).build().unwrap()
}

/// The room as the server has it now, waiting out restarts.
async fn room(client: &reqwest::Client, base: &str, id: &str, stop: &AtomicBool) -> Option<Value> {
    loop {
        if let Ok(reply) = client.get(format!("{base}/api/game")).query(&[("roomId", id)]).send().await {
            if reply.status() == 200 {
                return reply.json().await.ok();
            }
        }
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Takes both seats of a new POPUCOM room; retries through restarts.
async fn seats(client: &reqwest::Client, base: &str, id: &str, stop: &AtomicBool) -> Option<[String; 2]> {
    let mut tokens = Vec::new();
    for seat in [1, 2] {
        loop {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let body = json!({"roomId": id, "seat": seat, "name": format!("P{seat}")});
            if let Ok(reply) = client.post(format!("{base}/api/game")).json(&body).send().await {
                if reply.status() == 200 {
                    let reply: Value = reply.json().await.ok()?;
                    tokens.push(reply["token"].as_str()?.to_owned());
                    break;
                }
                if reply.status() == 409 {
                    // The seat was taken by our own earlier try, whose answer the crash ate: a new room.
                    return None;
                }
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    tokens.try_into().ok()
}

/// One player pair: games of random moves until told to stop, recording every acknowledged move.
async fn play(base: String, seed: u64, acknowledged: Acknowledged, stop: Arc<AtomicBool>, rooms: Arc<AtomicUsize>) {
    let client = http();
    let mut rng = SmallRng::seed_from_u64(seed);
    while !stop.load(Ordering::Relaxed) {
        let id = format!("crash{seed}x{}", rng.random::<u32>());
        let Some(tokens) = seats(&client, &base, &id, &stop).await else { continue };
        rooms.fetch_add(1, Ordering::Relaxed);
        let Some(mut view) = room(&client, &base, &id, &stop).await else { return };
        loop {
            // The server's room is the truth: after a crash it may hold a move we never heard back about.
            let moves: Vec<Cell> = serde_json::from_value(view["moves"].clone()).unwrap();
            let game = Popucom::replay(Default::default(), &moves).unwrap();
            let Some(seat) = game.status().to_move() else { break };
            let Some(cell) = game.random_move(&mut rng) else { break };
            let token = &tokens[if seat == Seat::One { 0 } else { 1 }];
            let body = json!({"roomId": id, "token": token, "version": view["version"], "move": cell});
            let answer = client.put(format!("{base}/api/game")).json(&body).send().await;
            match answer {
                Ok(reply) if reply.status() == 200 => {
                    let Ok(next) = reply.json::<Value>().await else { continue };
                    acknowledged.lock().unwrap().push((id.clone(), moves.len(), serde_json::to_value(cell).unwrap()));
                    view = next;
                }
                // Refused (a conflict after a crash) or no answer (the server is down): read the room again.
                _ => match room(&client, &base, &id, &stop).await {
                    Some(fresh) => view = fresh,
                    None => return,
                },
            }
            if stop.load(Ordering::Relaxed) {
                return;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn killing_the_server_again_and_again_loses_no_acknowledged_move() {
    let site = std::env::temp_dir().join(format!("tabula-crash-site-{}", std::process::id()));
    std::fs::create_dir_all(&site).unwrap();
    std::fs::write(site.join("index.html"), "<!doctype html><title>Tabula</title>").unwrap();
    let server = Arc::new(Mutex::new(Server::start(site)));
    let base = server.lock().unwrap().base.clone();
    let (acknowledged, stop, rooms) =
        (Acknowledged::default(), Arc::new(AtomicBool::new(false)), Arc::new(AtomicUsize::new(0)));
    let players: Vec<_> = (0..PLAYERS as u64)
        .map(|seed| tokio::spawn(play(base.clone(), seed, acknowledged.clone(), stop.clone(), rooms.clone())))
        .collect();

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
    stop.store(true, Ordering::Relaxed);
    let played_for = started.elapsed();
    for player in players {
        tokio::time::timeout(Duration::from_secs(20), player).await.expect("the players stop").unwrap();
    }

    let acknowledged = acknowledged.lock().unwrap().clone();
    assert!(acknowledged.len() > 100, "only {} moves acknowledged", acknowledged.len());
    let mut by_room: BTreeMap<String, Vec<(usize, Value)>> = BTreeMap::new();
    for (id, index, mv) in acknowledged.iter().cloned() {
        by_room.entry(id).or_default().push((index, mv));
    }
    let client = http();
    let never = AtomicBool::new(false);
    for (id, moves) in &by_room {
        let view = room(&client, &base, id, &never).await.unwrap();
        let stored = view["moves"].as_array().unwrap();
        for (index, mv) in moves {
            assert_eq!(stored.get(*index), Some(mv), "room {id}: acknowledged move {index} is kept");
        }
        let replayed = GameKind::Popucom.replay(&view["config"], stored).unwrap().state();
        for (field, value) in replayed.as_object().unwrap() {
            assert_eq!(&view["state"][field], value, "room {id}: {field} is the replay's");
        }
    }
    println!(
        "{kills} kills, {} rooms, {} moves acknowledged in {played_for:.1?} ({:.0} per second), all kept",
        rooms.load(Ordering::Relaxed),
        acknowledged.len(),
        acknowledged.len() as f64 / played_for.as_secs_f64()
    );
}
