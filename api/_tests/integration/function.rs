//! The compiled Vercel function binary (`api/game.rs`) answering over HTTP: outside Vercel,
//! `vercel_runtime` serves plain HTTP on 127.0.0.1:$VERCEL_DEV_PORT. Configured only through the
//! environment, as on Vercel, against PostgREST and Redis.

use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::client::room_id;
use crate::services::{free_port, redis_url, supabase};

struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the function binary `program` configured as on Vercel; returns it (killed when dropped)
/// and its port.
fn start_function(program: &str) -> (KillOnDrop, u16) {
    let supabase = supabase();
    let port = free_port();
    let child = Command::new(program)
        .env_clear()
        .env("VERCEL_DEV_PORT", port.to_string())
        .env("SUPABASE_REST_URL", &supabase.rest_url)
        .env("SUPABASE_SERVICE_ROLE_KEY", supabase.jwt("service_role"))
        .env("REDIS_URL", redis_url())
        .env("CRON_SECRET", "function-secret")
        .stdout(Stdio::null())
        .spawn()
        .expect("the function binary starts");
    let child = KillOnDrop(child);
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(start.elapsed() < Duration::from_secs(20), "{program} never listened on {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
    (child, port)
}

#[tokio::test]
async fn the_game_function_binary_serves_the_api() {
    let (_child, port) = start_function(env!("CARGO_BIN_EXE_game"));
    let http = reqwest::Client::new();
    let url = format!("http://127.0.0.1:{port}/api/game");
    let room = room_id();
    let created = http.post(&url).json(&json!({"roomId": room, "seat": 1})).send().await.unwrap();
    assert_eq!(created.status(), 200);
    assert_eq!(created.headers()["x-ratelimit-limit"], "200", "deployed functions always rate-limit");
    let created: serde_json::Value = created.json().await.unwrap();
    let token = created["token"].as_str().unwrap();
    let version = created["room"]["version"].as_i64().unwrap();
    let moved = http
        .put(&url)
        .json(&json!({"roomId": room, "token": token, "version": version, "move": {"row": 2, "col": 3}}))
        .send()
        .await
        .unwrap();
    assert_eq!(moved.status(), 200);
    let fetched: serde_json::Value =
        http.get(&url).query(&[("roomId", &room)]).send().await.unwrap().json().await.unwrap();
    assert_eq!(fetched["state"]["board"][2][3], 1);
    assert_eq!(fetched["version"], version + 1);
    let cron =
        http.get(format!("http://127.0.0.1:{port}/api/cron")).bearer_auth("function-secret").send().await.unwrap();
    assert_eq!(cron.status(), 200);
    let refused = http
        .put(&url)
        .json(&json!({"roomId": room, "token": token, "version": version, "move": [0, 0]}))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 409);
    // Should Vercel hand the function a crawler's `/room/<code>` itself rather than the rewrite's
    // destination, the function answers it with the room's share card.
    let card = http.get(format!("http://127.0.0.1:{port}/room/{room}")).send().await.unwrap();
    assert_eq!(card.status(), 200);
    let card = card.text().await.unwrap();
    assert!(card.contains(&format!("/api/card?roomId={room}&amp;v={}", version + 1)), "{card}");
}

/// The game function serves every public API path, at the path itself and at the destination
/// `vercel.json` rewrites it to (`/api/game?route=<path>`), whichever of the two Vercel hands it;
/// each answer comes from that path's own handler.
#[tokio::test]
async fn the_game_function_answers_every_public_path() {
    let (_child, port) = start_function(env!("CARGO_BIN_EXE_game"));
    let http = reqwest::Client::new();
    let get = |path: String| {
        let http = http.clone();
        async move { http.get(format!("http://127.0.0.1:{port}{path}")).send().await.unwrap() }
    };
    for address in ["/api/lobby", "/api/game?route=/api/lobby"] {
        let lobby: serde_json::Value = get(address.to_owned()).await.json().await.unwrap();
        assert!(lobby["waiting"].is_array(), "{address}: {lobby}");
    }
    for address in ["/api/push", "/api/game?route=/api/push"] {
        let push: serde_json::Value = get(address.to_owned()).await.json().await.unwrap();
        assert_eq!(push["mode"], "poll", "{address}: {push}");
    }
    for address in ["/api/triplex/records?level=1", "/api/game?route=/api/triplex/records&level=1"] {
        let records: serde_json::Value = get(address.to_owned()).await.json().await.unwrap();
        assert!(records.get("solvers").is_some(), "{address}: {records}");
    }
    for address in ["/api/card", "/api/game?route=/api/card"] {
        let card = get(address.to_owned()).await;
        assert_eq!(card.status(), 200, "{address}");
        assert_eq!(card.headers()["content-type"], "image/png", "{address}");
    }
    for address in ["/api/triplex/solve", "/api/game?route=/api/triplex/solve"] {
        let url = format!("http://127.0.0.1:{port}{address}");
        let refused = http.post(url).json(&json!({"level": 1})).send().await.unwrap();
        assert_eq!(refused.status(), 400, "{address}: the solve handler reads and judges its body");
    }
}
