//! Deployed push: the site's Supabase Realtime client, in Chromium, against a small stand-in for
//! Realtime's websocket (the Realtime server itself cannot run here). The stand-in speaks enough
//! of Phoenix's channel protocol (version 1.0.0) to answer joins and heartbeats, keeps presence
//! (the pages' count of watchers), and sends the broadcasts `sql/init.sql`'s trigger would send,
//! when the test says so: after each move the test reads the room's new version and broadcasts it.
//! Then the stand-in closes every socket and refuses new ones (the pages fall back to polling and
//! come back), and stops answering heartbeats (the pages notice and reconnect).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use futures_util::{SinkExt, StreamExt};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use serde_json::{json, Value};
use tabula_core::popucom::Popucom;
use tabula_core::Game;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::broadcast;
use tokio_tungstenite::tungstenite::handshake::server::{Request, Response};
use tokio_tungstenite::tungstenite::Message;

use crate::browser::{js, site_dist, wait_until, Driver};
use crate::common::Server;
use crate::live::{live_game, push_is, seen_after, summary, tap};
use crate::{exclusive, index, random_move};

/// What the stand-in saw.
#[derive(Clone, Debug, Default)]
struct Seen {
    /// Each socket's request address (path and query).
    sockets: Vec<String>,
    /// Each `phx_join`'s topic and its payload.
    joins: Vec<(String, Value)>,
    heartbeats_answered: usize,
    heartbeats_ignored: usize,
    /// Sockets the client closed.
    closed_by_client: usize,
}

#[derive(Default)]
struct Shared {
    seen: Mutex<Seen>,
    /// Presence: the keys tracked in each topic.
    present: Mutex<Vec<(String, String)>>,
    sockets: AtomicUsize,
    refuse: AtomicBool,
    ignore_heartbeats: AtomicBool,
}

#[derive(Clone, Debug)]
enum Command {
    Send { topic: String, frame: String },
    CloseAll,
}

struct FakeRealtime {
    port: u16,
    shared: Arc<Shared>,
    commands: broadcast::Sender<Command>,
}

impl FakeRealtime {
    async fn start() -> FakeRealtime {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a loopback port for the Realtime stand-in");
        let port = listener.local_addr().unwrap().port();
        let (shared, commands) = (Arc::new(Shared::default()), broadcast::channel(64).0);
        let (task_shared, task_commands) = (shared.clone(), commands.clone());
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                if task_shared.refuse.load(Ordering::SeqCst) {
                    drop(stream);
                    continue;
                }
                tokio::spawn(serve(stream, task_shared.clone(), task_commands.clone()));
            }
        });
        FakeRealtime { port, shared, commands }
    }

    /// What `SUPABASE_REALTIME_URL` names (the API derives the websocket's address from it).
    fn root(&self) -> String {
        format!("http://127.0.0.1:{}/realtime/v1", self.port)
    }

    fn seen(&self) -> Seen {
        self.shared.seen.lock().unwrap().clone()
    }

    /// Sends what the database trigger's `realtime.send` makes Realtime send to a room's channel:
    /// the version, and (as deployed, where the API writes it) the room's view and ETag.
    fn announce(&self, room: &str, version: i64, carried: Option<(Value, String)>) {
        let topic = format!("realtime:room:{room}");
        let mut message = json!({"roomId": room, "version": version});
        if let Some((view, etag)) = carried {
            (message["view"], message["etag"]) = (view, json!(etag));
        }
        let frame = json!({
            "topic": topic, "event": "broadcast", "ref": null,
            "payload": {"type": "broadcast", "event": "room", "meta": {"id": "00000000-0000-0000-0000-000000000000"},
                        "payload": message},
        });
        let _ = self.commands.send(Command::Send { topic, frame: frame.to_string() });
    }

    fn close_all(&self) {
        let _ = self.commands.send(Command::CloseAll);
    }
}

/// Presence as Realtime sends it: `{key: {"metas": [{"phx_ref": ...}]}}`.
fn presence_map<'a>(keys: impl Iterator<Item = &'a String>) -> Value {
    keys.map(|key| (key.clone(), json!({"metas": [{"phx_ref": format!("ref-{key}")}]}))).collect()
}

async fn serve(stream: TcpStream, shared: Arc<Shared>, commands: broadcast::Sender<Command>) {
    let key = format!("page-{}", shared.sockets.fetch_add(1, Ordering::SeqCst));
    let tracked = talk(stream, &shared, &commands, &key).await;
    // A tracked page that leaves is a presence leave for the others.
    if let Some(topic) = tracked {
        shared.present.lock().unwrap().retain(|(t, k)| !(*t == topic && *k == key));
        let diff = json!({"topic": topic, "event": "presence_diff", "ref": null,
                          "payload": {"joins": {}, "leaves": presence_map([&key].into_iter())}});
        let _ = commands.send(Command::Send { topic, frame: diff.to_string() });
    }
}

/// One socket's conversation; returns the topic it tracked presence in, if any.
async fn talk(stream: TcpStream, shared: &Shared, sender: &broadcast::Sender<Command>, key: &str) -> Option<String> {
    let mut commands = sender.subscribe();
    let address = Arc::new(Mutex::new(String::new()));
    let noted = address.clone();
    // Its type is tungstenite's handshake callback's, whose error is an HTTP response.
    #[allow(clippy::result_large_err)]
    let callback = move |request: &Request, response: Response| {
        *noted.lock().unwrap() = request.uri().to_string();
        Ok(response)
    };
    let Ok(socket) = tokio_tungstenite::accept_hdr_async(stream, callback).await else { return None };
    shared.seen.lock().unwrap().sockets.push(address.lock().unwrap().clone());
    let (mut sink, mut frames) = socket.split();
    let (mut topics, mut tracked) = (Vec::new(), None);
    loop {
        tokio::select! {
            frame = frames.next() => match frame {
                Some(Ok(Message::Text(text))) => {
                    let message: Value = serde_json::from_str(text.as_str()).unwrap_or_default();
                    let reply = json!({
                        "topic": message["topic"], "event": "phx_reply", "ref": message["ref"],
                        "join_ref": message["join_ref"], "payload": {"status": "ok", "response": {}},
                    });
                    let topic = message["topic"].as_str().unwrap_or_default().to_owned();
                    let mut after = None;
                    match message["event"].as_str() {
                        Some("phx_join") => {
                            shared.seen.lock().unwrap().joins.push((topic.clone(), message["payload"].clone()));
                            let present = shared.present.lock().unwrap();
                            let state = presence_map(present.iter().filter(|(t, _)| *t == topic).map(|(_, k)| k));
                            after = Some(json!({"topic": topic, "event": "presence_state", "ref": null, "payload": state}));
                            topics.push(topic);
                        }
                        Some("presence") if message["payload"]["event"] == "track" && tracked.is_none() => {
                            shared.present.lock().unwrap().push((topic.clone(), key.to_owned()));
                            let joins = presence_map([key.to_owned()].iter());
                            let diff = json!({"topic": topic, "event": "presence_diff", "ref": null,
                                              "payload": {"joins": joins, "leaves": {}}});
                            let _ = sender.send(Command::Send { topic: topic.clone(), frame: diff.to_string() });
                            tracked = Some(topic);
                        }
                        Some("heartbeat") if shared.ignore_heartbeats.load(Ordering::SeqCst) => {
                            shared.seen.lock().unwrap().heartbeats_ignored += 1;
                            continue;
                        }
                        Some("heartbeat") => shared.seen.lock().unwrap().heartbeats_answered += 1,
                        _ => continue,
                    }
                    for frame in std::iter::once(reply).chain(after) {
                        if sink.send(Message::text(frame.to_string())).await.is_err() {
                            return tracked;
                        }
                    }
                }
                Some(Ok(Message::Close(_))) => {
                    shared.seen.lock().unwrap().closed_by_client += 1;
                    return tracked;
                }
                Some(Ok(_)) => {}
                None | Some(Err(_)) => return tracked,
            },
            command = commands.recv() => match command {
                Ok(Command::Send { topic, frame }) if topics.contains(&topic) => {
                    let sent = sink.send(Message::text(frame)).await;
                    if sent.is_err() {
                        return tracked;
                    }
                }
                Ok(Command::CloseAll) => {
                    let _ = sink.send(Message::Close(None)).await;
                    return tracked;
                }
                _ => {}
            },
        }
    }
}

fn now_ms() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs_f64() * 1000.0
}

async fn wait_for(what: &str, seconds: u64, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < Duration::from_secs(seconds), "timed out after {seconds} s waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn room_version(http: &reqwest::Client, server: &Server, room: &str) -> i64 {
    let view: Value =
        http.get(format!("{}/api/game?roomId={room}", server.base)).send().await.unwrap().json().await.unwrap();
    view["version"].as_i64().expect("the room's version")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_site_follows_a_room_on_supabase_realtime_and_polls_when_it_fails() {
    let _one = exclusive().await;
    let realtime = FakeRealtime::start().await;
    let root = realtime.root();
    // Six seconds of abandonment: pages with a working push poll every 2 s (a third of it), and
    // heartbeat at the same pace.
    let server = Server::start_with_env(
        site_dist(),
        &[("SUPABASE_REALTIME_URL", &root), ("SUPABASE_ANON_KEY", "public-anon-key"), ("TABULA_ABANDON_SECONDS", "6")],
    );
    let http = reqwest::Client::new();
    let mode: Value = http.get(format!("{}/api/push", server.base)).send().await.unwrap().json().await.unwrap();
    let socket = format!("ws://127.0.0.1:{}/realtime/v1/websocket", realtime.port);
    assert_eq!(
        (&mode["mode"], &mode["socket"], &mode["key"], &mode["pollMs"]),
        (&json!("supabase"), &json!(socket), &json!("public-anon-key"), &json!(2_000)),
        "{mode}"
    );

    // Two players and a spectator, each in their own browser.
    let driver = Driver::start();
    let (room, [red, blue, watcher]) = live_game(&server, &driver).await;
    let pages = [&red, &blue, &watcher];

    // Join: each page joined its room's public broadcast channel with the public key.
    let seen = realtime.seen();
    let topic = format!("realtime:room:{room}");
    assert!(seen.joins.len() >= 3 && seen.joins.iter().all(|(t, _)| *t == topic), "{:?}", seen.joins);
    for (_, payload) in &seen.joins {
        assert_eq!(payload["config"]["private"], false, "{payload}");
        assert_eq!(payload["config"]["broadcast"]["self"], false, "{payload}");
    }
    for address in &seen.sockets {
        assert!(address.starts_with("/realtime/v1/websocket?"), "{address}");
        assert!(address.contains("apikey=public-anon-key") && address.contains("vsn=1.0.0"), "{address}");
    }
    // Presence: three pages open, two of them seated, so one watches (the server, deployed, cannot
    // count open pages).
    for page in pages {
        wait_until(
            page,
            "return document.getElementById('takeback-policy').textContent.includes('1 watching')",
            10,
            "1 watching",
        )
        .await;
    }
    // The seated pages report that count with their polls, so every reader of the room (the
    // lobby too) has it, though the server holds no connection to count them.
    let start = Instant::now();
    loop {
        let view: Value =
            http.get(format!("{}/api/game?roomId={room}", server.base)).send().await.unwrap().json().await.unwrap();
        if view["watching"] == 1 {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "the room's view counts 1 watching: {}", view["watching"]);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // Heartbeat: every page, every 2 s.
    wait_for("heartbeats from every page", 10, || realtime.seen().heartbeats_answered >= 6).await;

    let mut game = Popucom::default();
    let mut rng = SmallRng::seed_from_u64(11);
    let mut moves = 0usize;
    let mut pushed = Vec::new();
    // Plays one move in the mover's page; with `announce`, broadcasts the new version as soon as
    // the server has it (with `carry`, the room too, as the API answers a token-less poll).
    // Returns how long each other page took to show the move after that.
    macro_rules! play {
        ($announce:expr, $seconds:expr) => {{
            play!($announce, false, $seconds)
        }};
        ($announce:expr, $carry:expr, $seconds:expr) => {{
            let cell = random_move(&game, &mut rng).expect("the game goes on");
            let before = room_version(&http, &server, &room).await;
            let (mover, others) = if game.status().to_move() == Some(tabula_core::Seat::One) {
                (&red, [&blue, &watcher])
            } else {
                (&blue, [&red, &watcher])
            };
            tap(mover, index(cell)).await;
            let start = Instant::now();
            while room_version(&http, &server, &room).await == before {
                assert!(start.elapsed() < Duration::from_secs(5), "the move reaches the server");
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            game.play(&cell).unwrap();
            moves += 1;
            let since = now_ms();
            if $announce {
                let carried = match $carry {
                    true => {
                        let reply = http
                            .get(format!("{}/api/game", server.base))
                            .query(&[("roomId", &room)])
                            .send()
                            .await
                            .unwrap();
                        let etag = reply.headers()["etag"].to_str().unwrap().to_owned();
                        Some((reply.json::<Value>().await.unwrap(), etag))
                    }
                    false => None,
                };
                if $carry {
                    js(&watcher, "performance.clearResourceTimings(); return true").await;
                }
                realtime.announce(&room, before + 1, carried);
            }
            let mut delays = Vec::new();
            for other in others {
                delays.push(seen_after(other, moves, since, $seconds).await);
            }
            delays
        }};
    }

    // Broadcast: each move reaches the pages at once, though they poll only every 2 s.
    for _ in 0..6 {
        pushed.extend(play!(true, 5));
    }

    // The broadcast carries the room, as deployed: the pages show each move without fetching the
    // room (the spectator's, who never moves, are read from the browser's own record of its
    // requests, cleared just before each broadcast).
    let api_fetches =
        "return performance.getEntriesByType('resource').filter(e => e.name.includes('/api/game')).length";
    let mut fetched = 0;
    for _ in 0..4 {
        pushed.extend(play!(true, true, 5));
        fetched += js(&watcher, api_fetches).await.as_u64().unwrap();
    }
    // Without the room in the push, each of the 4 moves is a fetch; one may be a poll (every 2 s)
    // that happened to fall between a broadcast and its move showing.
    assert!(fetched <= 1, "the spectator fetched the room {fetched} times for 4 moves the push carried");

    // Server-side close, and no socket for a while: the pages poll at their own pace again.
    realtime.shared.refuse.store(true, Ordering::SeqCst);
    realtime.close_all();
    for page in pages {
        push_is(page, "off", 10).await;
    }
    let mut polled = Vec::new();
    for _ in 0..2 {
        polled.extend(play!(false, 10));
    }
    // Reconnect: the pages open a new socket (every 10 s) and join again.
    let joins = realtime.seen().joins.len();
    realtime.shared.refuse.store(false, Ordering::SeqCst);
    for page in pages {
        push_is(page, "live", 25).await;
    }
    assert!(realtime.seen().joins.len() >= joins + 2, "both pages joined again");
    for _ in 0..2 {
        pushed.extend(play!(true, 5));
    }

    // A socket that stops answering heartbeats is closed by the page, which then opens another.
    let (closed, sockets) = (realtime.seen().closed_by_client, realtime.seen().sockets.len());
    realtime.shared.ignore_heartbeats.store(true, Ordering::SeqCst);
    wait_for("the pages to close their silent sockets", 15, || realtime.seen().closed_by_client >= closed + 2).await;
    realtime.shared.ignore_heartbeats.store(false, Ordering::SeqCst);
    wait_for("new sockets after the silent ones", 25, || realtime.seen().sockets.len() >= sockets + 2).await;
    // A socket whose heartbeat went unanswered closes at its next heartbeat, within 2 s.
    tokio::time::sleep(Duration::from_secs(3)).await;
    for page in pages {
        push_is(page, "live", 25).await;
    }
    pushed.extend(play!(true, 5));

    let (p50, p95, max) = summary(&mut pushed);
    let (poll50, _, poll_max) = summary(&mut polled);
    eprintln!(
        "Realtime stand-in: {} deliveries after a broadcast, median {p50:.0} ms, p95 {p95:.0} ms, max {max:.0} ms; \
         without a socket {} by polling, median {poll50:.0} ms, max {poll_max:.0} ms",
        pushed.len(),
        polled.len()
    );
    // Pages poll every 2 s while the push works: only the broadcast brings a move this fast.
    assert!(max <= 700.0, "every broadcast move arrived within {max:.0} ms (at most 700)");
    assert!(poll_max <= 3_000.0, "without the socket, moves arrived by polling in {poll_max:.0} ms at most");
    for page in pages {
        assert_eq!(
            js(page, "return !document.querySelector('.offline')?.checkVisibility()").await,
            json!(true),
            "nothing alarming shown"
        );
        page.clone().close().await.unwrap();
    }
}
