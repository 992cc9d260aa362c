//! Players for the load tests: pairs that play random POPUCOM games against a server through
//! whatever happens to it, recording every move the server acknowledged (200) and every request's
//! answer and time; then the check that every acknowledged move is in its room, in order, and every
//! room equals a replay of its moves.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use tabula_core::popucom::{Cell, Popucom};
use tabula_core::{Game, GameKind, Seat};

/// How the players behave.
#[derive(Clone)]
pub struct Pace {
    /// Thinking time before each move, in milliseconds (`0..1`: as fast as the server answers).
    pub think_ms: std::ops::Range<u64>,
    /// After each move both players poll with the room's ETag, as the site's pages do (the mover
    /// gets a 304, the opponent the new room).
    pub poll: bool,
}

/// One request: its status (0 when no answer came) and how long it took.
#[derive(Clone, Copy)]
pub struct Answer {
    pub status: u16,
    pub took: Duration,
}

/// What the players saw.
#[derive(Default)]
pub struct Record {
    /// Room, the move's index in the room, the move.
    pub acknowledged: Mutex<Vec<(String, usize, Value)>>,
    pub answers: Mutex<Vec<Answer>>,
    pub rooms: AtomicUsize,
}

/// An HTTP client for players: `keep_alive` off when the server is restarted under them.
pub fn http(keep_alive: bool, timeout: Duration) -> reqwest::Client {
    let builder = reqwest::Client::builder().timeout(timeout);
    let builder = if keep_alive { builder } else { builder.pool_max_idle_per_host(0) };
    builder.build().unwrap()
}

fn etag(reply: &reqwest::Response) -> String {
    reply.headers().get("etag").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned()
}

struct Player<'a> {
    client: &'a reqwest::Client,
    base: &'a str,
    record: &'a Record,
    stop: &'a AtomicBool,
}

impl Player<'_> {
    async fn send(&self, request: reqwest::RequestBuilder) -> Option<reqwest::Response> {
        let start = Instant::now();
        let reply = request.send().await;
        let status = reply.as_ref().map(|r| r.status().as_u16()).unwrap_or(0);
        self.record.answers.lock().unwrap().push(Answer { status, took: start.elapsed() });
        reply.ok()
    }

    fn get(&self, id: &str) -> reqwest::RequestBuilder {
        self.client.get(format!("{}/api/game", self.base)).query(&[("roomId", id)])
    }

    /// The room as the server has it now and its ETag, waiting out outages (None once told to stop).
    async fn room(&self, id: &str) -> Option<(Value, String)> {
        loop {
            if let Some(reply) = self.send(self.get(id)).await {
                if reply.status() == 200 {
                    let etag = etag(&reply);
                    if let Ok(room) = reply.json().await {
                        return Some((room, etag));
                    }
                }
            }
            if self.stop.load(Ordering::Relaxed) {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// A poll with the ETag of the room the player last saw.
    async fn poll(&self, id: &str, token: &str, etag: &str) {
        let request = self.get(id).header("if-none-match", etag).header("x-tabula-token", token);
        if let Some(reply) = self.send(request).await {
            let _ = reply.bytes().await;
        }
    }

    /// Takes both seats of a new room, through outages; None if a seat turns out taken (by our own
    /// earlier try, whose answer was lost) or when told to stop.
    async fn seats(&self, id: &str) -> Option<[String; 2]> {
        let mut tokens = Vec::new();
        for seat in [1, 2] {
            loop {
                if self.stop.load(Ordering::Relaxed) {
                    return None;
                }
                let body = json!({"roomId": id, "seat": seat, "name": format!("P{seat}")});
                if let Some(reply) = self.send(self.client.post(format!("{}/api/game", self.base)).json(&body)).await {
                    match reply.status().as_u16() {
                        200 => {
                            let reply: Value = reply.json().await.ok()?;
                            tokens.push(reply["token"].as_str()?.to_owned());
                            break;
                        }
                        409 => return None,
                        _ => {}
                    }
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        tokens.try_into().ok()
    }
}

/// One pair of players: games of random moves until told to stop.
pub async fn play_pair(
    client: reqwest::Client,
    base: String,
    seed: u64,
    pace: Pace,
    record: Arc<Record>,
    stop: Arc<AtomicBool>,
) {
    let player = Player { client: &client, base: &base, record: &record, stop: &stop };
    let mut rng = SmallRng::seed_from_u64(seed);
    while !stop.load(Ordering::Relaxed) {
        let id = format!("load{seed}x{}", rng.random::<u32>());
        let Some(tokens) = player.seats(&id).await else { continue };
        record.rooms.fetch_add(1, Ordering::Relaxed);
        let Some((mut view, mut view_etag)) = player.room(&id).await else { return };
        loop {
            // The server's room is the truth: after an outage it may hold a move we never heard about.
            let moves: Vec<Cell> = serde_json::from_value(view["moves"].clone()).unwrap();
            let game = Popucom::replay(Default::default(), &moves).unwrap();
            let Some(seat) = game.status().to_move() else { break };
            let Some(cell) = game.random_move(&mut rng) else { break };
            let (mover, opponent) = if seat == Seat::One { (0, 1) } else { (1, 0) };
            if pace.think_ms.end > 1 {
                tokio::time::sleep(Duration::from_millis(rng.random_range(pace.think_ms.clone()))).await;
            }
            let body = json!({"roomId": id, "token": tokens[mover], "version": view["version"], "move": cell});
            let put = player.send(client.put(format!("{base}/api/game")).json(&body)).await;
            let acknowledged = match put {
                Some(reply) if reply.status() == 200 => {
                    let etag = etag(&reply);
                    reply.json::<Value>().await.ok().map(|next| (next, etag))
                }
                _ => None,
            };
            match acknowledged {
                Some((next, etag)) => {
                    record.acknowledged.lock().unwrap().push((
                        id.clone(),
                        moves.len(),
                        serde_json::to_value(cell).unwrap(),
                    ));
                    if pace.poll {
                        player.poll(&id, &tokens[mover], &etag).await;
                        player.poll(&id, &tokens[opponent], &view_etag).await;
                    }
                    (view, view_etag) = (next, etag);
                }
                // Refused (a conflict after an outage) or no answer: read the room again.
                None => match player.room(&id).await {
                    Some(fresh) => (view, view_etag) = fresh,
                    None => return,
                },
            }
            if stop.load(Ordering::Relaxed) {
                return;
            }
        }
    }
}

/// Starts `pairs` pairs of players; they play until `stop` is set.
pub fn start_pairs(
    client: &reqwest::Client,
    base: &str,
    pairs: usize,
    pace: &Pace,
    record: &Arc<Record>,
    stop: &Arc<AtomicBool>,
) -> Vec<tokio::task::JoinHandle<()>> {
    (0..pairs as u64)
        .map(|seed| {
            let task = play_pair(client.clone(), base.to_owned(), seed, pace.clone(), record.clone(), stop.clone());
            tokio::spawn(task)
        })
        .collect()
}

/// Stops the players and waits for them (each within 20 s).
pub async fn stop_pairs(players: Vec<tokio::task::JoinHandle<()>>, stop: &AtomicBool) {
    stop.store(true, Ordering::Relaxed);
    for player in players {
        tokio::time::timeout(Duration::from_secs(20), player).await.expect("the players stop").unwrap();
    }
}

/// Every acknowledged move is in its room at its place, and every room equals a replay of its moves.
/// Returns the number of rooms checked.
pub async fn check_rooms(base: &str, record: &Record) -> usize {
    let mut by_room: BTreeMap<String, Vec<(usize, Value)>> = BTreeMap::new();
    for (id, index, mv) in record.acknowledged.lock().unwrap().iter().cloned() {
        by_room.entry(id).or_default().push((index, mv));
    }
    let client = http(true, Duration::from_secs(10));
    let (never, checking) = (AtomicBool::new(false), Record::default());
    let reader = Player { client: &client, base, record: &checking, stop: &never };
    for (id, moves) in &by_room {
        let (view, _) = reader.room(id).await.unwrap();
        let stored = view["moves"].as_array().unwrap();
        for (index, mv) in moves {
            assert_eq!(stored.get(*index), Some(mv), "room {id}: acknowledged move {index} is kept");
        }
        let replayed = GameKind::Popucom.replay(&view["config"], stored).unwrap().state();
        for (field, value) in replayed.as_object().unwrap() {
            assert_eq!(&view["state"][field], value, "room {id}: {field} is the replay's");
        }
    }
    by_room.len()
}

/// Latencies of answered requests: (count, p50, p99, p99.9, max).
pub fn latencies(answers: &[Answer]) -> (usize, Duration, Duration, Duration, Duration) {
    let mut took: Vec<Duration> = answers.iter().map(|a| a.took).collect();
    took.sort();
    let at =
        |q: f64| took.get(((took.len() as f64 * q).ceil() as usize).saturating_sub(1)).copied().unwrap_or_default();
    (took.len(), at(0.5), at(0.99), at(0.999), took.last().copied().unwrap_or_default())
}

/// Answers counted by status (0: none came).
pub fn statuses(answers: &[Answer]) -> BTreeMap<u16, usize> {
    let mut counts = BTreeMap::new();
    for answer in answers {
        *counts.entry(answer.status).or_default() += 1;
    }
    counts
}
