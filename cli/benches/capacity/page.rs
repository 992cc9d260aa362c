//! Simulated games: two players and a spectator per room, each page pacing itself with the site's
//! own rules (`site/src/play/pacing.rs`), hearing pushes from the Realtime stand-in, hiding its
//! tab now and then, and counting every request it makes.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use tabula_core::GameKind;
use tokio::sync::watch;

use crate::count::Counts;
use crate::pacing::{poll_delay_ms, retry_delay_ms, TICK_MS};

/// How the simulated people behave.
#[derive(Clone, Debug)]
pub struct Behaviour {
    /// Time between moves: a player moves this long after seeing it is their move.
    pub move_every: Duration,
    /// Share of the time a spectator's tab is hidden.
    pub spectator_hidden: f64,
    /// Share of the time a player's tab is hidden (its polls then stop saying `visible=1`, and
    /// the server pushes that player's moves to them).
    pub player_hidden: f64,
    /// Web Push: each player subscribes at the push service stand-in and gives the subscription
    /// to its seat, and rooms have a correspondence clock (the cron's pass looks at them).
    pub notify: Option<Notify>,
    /// The site's static files a first visit to a room page loads (empty: not counted).
    pub page_assets: Vec<String>,
}

/// Where players subscribe, and with which key.
#[derive(Clone, Debug)]
pub struct Notify {
    /// The push service stand-in's address (`web-push-testing`).
    pub service: String,
    pub public_key: String,
}

/// A broadcast: the room's version, and its view when the trigger sent it (pages do not take its ETag).
#[derive(Clone, Default)]
pub struct Broadcast {
    pub version: i64,
    pub room: Option<Arc<Value>>,
}

/// The Realtime stand-in's channels: every page of a room watches the room's last broadcast; the
/// count of joined pages is the channel's presence.
#[derive(Default)]
pub struct Channels {
    rooms: Mutex<HashMap<String, (watch::Sender<Broadcast>, usize)>>,
}

impl Channels {
    /// Joins `room`'s channel: its broadcasts, and the presence messages a join costs (the state to
    /// the joiner, a diff to every page in the channel).
    pub fn join(&self, room: &str, counts: &Counts) -> watch::Receiver<Broadcast> {
        let mut rooms = self.rooms.lock().unwrap();
        let (sender, joined) =
            rooms.entry(room.to_owned()).or_insert_with(|| (watch::channel(Broadcast::default()).0, 0));
        *joined += 1;
        counts.add("realtime: presence messages", 1 + *joined as u64);
        counts.add("realtime: joins", 1);
        sender.subscribe()
    }

    pub fn leave(&self, room: &str, counts: &Counts) {
        let mut rooms = self.rooms.lock().unwrap();
        if let Some((_, joined)) = rooms.get_mut(room) {
            *joined = joined.saturating_sub(1);
            counts.add("realtime: presence messages", *joined as u64);
            if *joined == 0 {
                rooms.remove(room);
            }
        }
    }

    pub fn present(&self, room: &str) -> usize {
        self.rooms.lock().unwrap().get(room).map_or(0, |(_, joined)| *joined)
    }

    /// A broadcast of the database's trigger (`bytes` long): one message in, one out to every page
    /// joined.
    pub fn broadcast(&self, room: &str, broadcast: Broadcast, bytes: u64, counts: &Counts) {
        let rooms = self.rooms.lock().unwrap();
        let joined = rooms.get(room).map_or(0, |(sender, joined)| {
            sender.send_if_modified(|last| {
                let newer = broadcast.version > last.version;
                if newer {
                    *last = broadcast;
                }
                newer
            });
            *joined as u64
        });
        counts.add("realtime: broadcast messages", 1 + joined);
        counts.add("realtime: bytes out", bytes * joined);
    }
}

/// What `GET /api/push` told the pages.
#[derive(Clone, Debug)]
pub struct PushMode {
    pub realtime: bool,
    pub poll_ms: u32,
}

pub struct World {
    pub http: reqwest::Client,
    pub base: String,
    pub counts: Counts,
    pub channels: Channels,
    pub behaviour: Behaviour,
    pub stop: AtomicBool,
    /// The push service stand-in's ids of the players' subscriptions (their pushes are counted there).
    pub subscriptions: Mutex<Vec<String>>,
}

impl World {
    /// Sends a request, counting it under `kind` and its status, and its answer's bytes.
    async fn send(
        &self,
        kind: &str,
        request: reqwest::RequestBuilder,
    ) -> Option<(u16, HashMap<String, String>, Vec<u8>)> {
        let start = Instant::now();
        let reply = request.send().await;
        if kind.contains("/api/") {
            self.counts.add("function milliseconds", start.elapsed().as_millis() as u64);
        }
        let Ok(reply) = reply else {
            self.counts.add(&format!("{kind} (no answer)"), 1);
            return None;
        };
        let status = reply.status().as_u16();
        let headers: HashMap<String, String> = reply
            .headers()
            .iter()
            .map(|(k, v)| (k.as_str().to_owned(), v.to_str().unwrap_or_default().to_owned()))
            .collect();
        let head_bytes: usize = headers.iter().map(|(k, v)| k.len() + v.len() + 4).sum::<usize>() + 17;
        let body = reply.bytes().await.map(|b| b.to_vec()).unwrap_or_default();
        self.counts.add(&format!("{kind} {status}"), 1);
        self.counts.add("bytes sent", (head_bytes + body.len()) as u64);
        Some((status, headers, body))
    }

    fn api(&self) -> String {
        format!("{}/api/game", self.base)
    }

    fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// A room page: what it shows and how it last heard of the room.
struct Page {
    room: String,
    token: Option<String>,
    /// The player's seat number (1 or 2).
    seat: Option<u8>,
    view: Value,
    etag: String,
    visible: bool,
}

impl Page {
    fn version(&self) -> i64 {
        self.view["version"].as_i64().unwrap_or(-1)
    }

    fn over(&self) -> bool {
        self.view["state"]["to_move"].is_null() && self.view["moves"].as_array().is_some_and(|m| !m.is_empty())
    }

    /// Whether it is this page's player's move.
    fn my_turn(&self) -> bool {
        let Some(seat) = self.seat else { return false };
        let colour = self.view["seats"].as_array().and_then(|seats| {
            seats.iter().find(|s| s["seat"].as_u64() == Some(seat as u64)).and_then(|s| s["colour"].as_u64())
        });
        colour.is_some() && colour == self.view["state"]["to_move"].as_u64()
    }

    fn take(&mut self, view: Value, etag: Option<&String>) {
        if let Some(etag) = etag {
            self.etag = etag.clone();
        }
        self.view = view;
    }
}

/// A first visit to a room page: the page and its files; its start script's fetch of the room
/// (which the page then uses, `api::prefetched`); the push mode.
async fn load_page(world: &World, room: &str) -> (PushMode, Option<(Value, String)>) {
    world.counts.add("page loads", 1);
    for asset in &world.behaviour.page_assets {
        let url =
            if asset == "/room" { format!("{}/room/{room}", world.base) } else { format!("{}{asset}", world.base) };
        world.send("static", world.http.get(url)).await;
    }
    let request = world.http.get(world.api()).query(&[("roomId", room)]);
    let prefetched = match world.send("GET /api/game (page load)", request).await {
        Some((200, headers, body)) => {
            serde_json::from_slice(&body).ok().map(|view| (view, headers.get("etag").cloned().unwrap_or_default()))
        }
        _ => None,
    };
    let push = world.send("GET /api/push", world.http.get(format!("{}/api/push", world.base))).await;
    let push: Value = push.and_then(|(_, _, body)| serde_json::from_slice(&body).ok()).unwrap_or(Value::Null);
    let mode = PushMode { realtime: push["mode"] == "supabase", poll_ms: push["pollMs"].as_u64().unwrap_or(0) as u32 };
    (mode, prefetched)
}

/// The room loop of `site/src/play/room.rs`: wait a tick (a push ends the wait), poll when due or
/// when news came, move when it is the player's move and they have thought long enough.
async fn run_page(world: Arc<World>, mut page: Page, push: PushMode, seed: u64, done: Arc<AtomicBool>) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pushed = push.realtime.then(|| world.channels.join(&page.room, &world.counts));
    let pace = pushed.as_ref().map(|_| push.poll_ms);
    // Joining is news (the page catches up once the channel opens).
    let (mut waited, mut failures, mut news) = (0u32, 0u32, pushed.is_some());
    let mut turn_since: Option<Instant> = None;
    let mut visibility_until = Instant::now();
    // The site heartbeats its Realtime socket at the pace it polls at while push works (at most 25 s).
    let mut since_heartbeat = 0u32;
    let tick = Duration::from_millis(TICK_MS.into());
    while !world.stopping() && !done.load(Ordering::Relaxed) {
        match pushed.as_mut() {
            Some(channel) => {
                if let Ok(Ok(())) = tokio::time::timeout(tick, channel.changed()).await {
                    let heard = channel.borrow_and_update().clone();
                    // As `site/src/play/room.rs`: a pushed room that only adds moves is shown as is.
                    match heard.room.filter(|pushed| heard.version > page.version() && adds_moves(&page.view, pushed)) {
                        Some(pushed) => {
                            // Without its ETag (anyone may broadcast): the next poll is answered in full.
                            page.take((*pushed).clone(), None);
                            page.etag.clear();
                        }
                        None => news |= heard.version > page.version(),
                    }
                }
            }
            None => tokio::time::sleep(tick).await,
        }
        waited += TICK_MS;
        since_heartbeat += TICK_MS;
        if pushed.is_some() && since_heartbeat >= push.poll_ms.min(crate::pacing::HEARTBEAT_MS) {
            since_heartbeat = 0;
            world.counts.add("realtime: heartbeats", 1);
        }
        if Instant::now() >= visibility_until {
            let was = page.visible;
            let hidden =
                if page.seat.is_some() { world.behaviour.player_hidden } else { world.behaviour.spectator_hidden };
            page.visible = !rng.random_bool(hidden);
            news |= page.visible && !was;
            visibility_until = Instant::now() + Duration::from_secs(rng.random_range(20..60));
        }
        let my_turn = page.my_turn();
        let due = if failures > 0 { retry_delay_ms(failures - 1) } else { poll_delay_ms(page.visible, my_turn, pace) };
        if news || waited >= due {
            (waited, news) = (0, false);
            let mut request = world.http.get(world.api()).query(&[("roomId", &page.room)]);
            request = request.header("if-none-match", &page.etag);
            if let Some(token) = &page.token {
                request = request.header("x-tabula-token", token);
                if page.visible {
                    request = request.query(&[("visible", "1")]);
                }
                if pushed.is_some() {
                    request = request.query(&[("pages", world.channels.present(&page.room))]);
                }
            }
            let kind = if page.seat.is_some() { "GET /api/game (player)" } else { "GET /api/game (spectator)" };
            match world.send(kind, request).await {
                Some((200, headers, body)) => {
                    failures = 0;
                    if let Ok(view) = serde_json::from_slice::<Value>(&body) {
                        page.take(view, headers.get("etag"));
                    }
                }
                Some((304, ..)) => failures = 0,
                _ => failures += 1,
            }
        }
        if page.over() {
            break;
        }
        // The player moves `move_every` after the page first showed their move.
        if page.my_turn() {
            let since = *turn_since.get_or_insert_with(Instant::now);
            if since.elapsed() >= world.behaviour.move_every {
                turn_since = None;
                play(&world, &mut page, &mut rng).await;
            }
        } else {
            turn_since = None;
        }
    }
    if pushed.is_some() {
        world.channels.leave(&page.room, &world.counts);
    }
}

/// The site's `adds_moves`: the same room, game, config and game number, with more moves.
fn adds_moves(shown: &Value, next: &Value) -> bool {
    let (Some(shown_moves), Some(next_moves)) = (shown["moves"].as_array(), next["moves"].as_array()) else {
        return false;
    };
    ["roomId", "game", "config", "gameNumber"].iter().all(|key| next[key] == shown[key])
        && next_moves.len() > shown_moves.len()
        && next_moves.starts_with(shown_moves)
}

/// A random legal move at the version shown; the answer (or the refusal's room) is what the page shows next.
async fn play(world: &World, page: &mut Page, rng: &mut SmallRng) {
    let moves: Vec<Value> = serde_json::from_value(page.view["moves"].clone()).unwrap_or_default();
    let Ok(game) = GameKind::Popucom.replay(&page.view["config"], &moves) else { return };
    let legal = game.legal_moves();
    if legal.is_empty() {
        return;
    }
    let mv = legal[rng.random_range(0..legal.len())].clone();
    let body = json!({"roomId": page.room, "token": page.token, "version": page.version(), "move": mv});
    match world.send("PUT /api/game (move)", world.http.put(world.api()).json(&body)).await {
        Some((200, headers, body)) => {
            if let Ok(view) = serde_json::from_slice::<Value>(&body) {
                page.take(view, headers.get("etag"));
            }
        }
        Some((_, _, body)) => {
            if let Ok(refusal) = serde_json::from_slice::<Value>(&body) {
                if refusal["room"].is_object() {
                    page.take(refusal["room"].clone(), None);
                }
            }
        }
        None => {}
    }
}

/// Opens a page on `room` (seating it when `seat` is given) and runs it until the game ends; a
/// page that cannot open sets `done`, so the others do not wait for it.
async fn open_page(world: Arc<World>, room: String, seat: Option<u8>, seed: u64, done: Arc<AtomicBool>) {
    // The first player creates the room from the game's page, then opens the room page.
    let mut create = json!({"roomId": room, "game": "popucom", "seat": 1, "name": "One"});
    if world.behaviour.notify.is_some() {
        create["clock"] = json!({"kind": "correspondence", "daysPerMove": 1});
    }
    let mut seated = None;
    if seat == Some(1) {
        seated = world.send("POST /api/game (seat)", world.http.post(world.api()).json(&create)).await;
    }
    let (push, prefetched) = load_page(&world, &room).await;
    let (view, etag) = prefetched.unwrap_or_default();
    let mut page = Page { room: room.clone(), token: None, seat, view, etag, visible: true };
    if seat == Some(2) {
        let join = json!({"roomId": room, "seat": 2, "name": "Two"});
        seated = world.send("POST /api/game (seat)", world.http.post(world.api()).json(&join)).await;
    }
    if seat.is_some() {
        match seated {
            Some((200, headers, reply)) => {
                let reply: Value = serde_json::from_slice(&reply).unwrap_or_default();
                page.token = reply["token"].as_str().map(str::to_owned);
                page.take(reply["room"].clone(), headers.get("etag"));
                if let (Some(notify), Some(token)) = (&world.behaviour.notify, &page.token) {
                    subscribe(&world, notify, &room, token).await;
                }
            }
            _ => {
                done.store(true, Ordering::Relaxed);
                return;
            }
        }
    }
    run_page(world, page, push, seed, done).await;
}

/// A player's "notify me": a subscription at the push service stand-in (the browser's side, not
/// counted), given to the seat (`POST /api/notify`, counted).
async fn subscribe(world: &World, notify: &Notify, room: &str, token: &str) {
    let answer = world
        .http
        .post(format!("{}/subscribe", notify.service))
        .json(&json!({"applicationServerKey": notify.public_key}))
        .send()
        .await;
    let Ok(answer) = answer else { return };
    let data: Value = answer.json().await.unwrap_or_default();
    let Some(hash) = data["data"]["clientHash"].as_str() else { return };
    let subscription = json!({"endpoint": data["data"]["endpoint"], "keys": data["data"]["keys"]});
    let body = json!({"roomId": room, "token": token, "subscription": subscription});
    let request = world.http.post(format!("{}/api/notify", world.base)).json(&body);
    if let Some((200, ..)) = world.send("POST /api/notify", request).await {
        world.subscriptions.lock().unwrap().push(hash.to_owned());
    }
}

/// How many pushes the stand-in has received for the players' subscriptions so far.
pub async fn pushes_received(world: &World, notify: Option<&Notify>) -> u64 {
    let Some(notify) = notify else { return 0 };
    let hashes = world.subscriptions.lock().unwrap().clone();
    let mut total = 0;
    for hash in hashes {
        let request =
            world.http.post(format!("{}/get-notifications", notify.service)).json(&json!({"clientHash": hash}));
        let answer: Value = match request.send().await {
            Ok(answer) => answer.json().await.unwrap_or_default(),
            Err(_) => continue,
        };
        total += answer["data"]["messages"].as_array().map_or(0, Vec::len) as u64;
    }
    total
}

/// The cron's pass over clocks, every `every` (pg_cron's job, `sql/cron-clocks.sql`), counted.
pub async fn cron_clocks(world: Arc<World>, every: Duration, secret: String) {
    while !world.stopping() {
        tokio::time::sleep(every).await;
        let request =
            world.http.get(format!("{}/api/cron", world.base)).query(&[("task", "clocks")]).bearer_auth(&secret);
        world.send("GET /api/cron (clocks)", request).await;
    }
}

/// Games one after another in one slot until told to stop: the first player creates the room, the
/// second joins a few seconds later, a spectator after that; all leave once the game is over.
pub async fn play_games(world: Arc<World>, slot: u64, start_after: Duration) {
    tokio::time::sleep(start_after).await;
    let mut game = 0u64;
    while !world.stopping() {
        let room = format!("cap{slot:03}x{game:04}{:06x}", rand::random::<u32>() & 0xff_ffff);
        let done = Arc::new(AtomicBool::new(false));
        let seed = slot * 1_000 + game;
        let one = tokio::spawn(open_page(world.clone(), room.clone(), Some(1), seed, done.clone()));
        tokio::time::sleep(Duration::from_secs(3)).await;
        let two = tokio::spawn(open_page(world.clone(), room.clone(), Some(2), seed + 500, done.clone()));
        tokio::time::sleep(Duration::from_secs(5)).await;
        let watcher = tokio::spawn(open_page(world.clone(), room.clone(), None, seed + 700, done.clone()));
        let _ = tokio::join!(one, two, watcher);
        world.counts.add("games finished", u64::from(!world.stopping()));
        game += 1;
    }
}
