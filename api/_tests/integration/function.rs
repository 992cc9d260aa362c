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

/// The settings a function gets on Vercel (docs/DEPLOY.md), on the tests' services.
fn deployed_settings() -> Vec<(&'static str, String)> {
    let supabase = supabase();
    vec![
        ("SUPABASE_REST_URL", supabase.rest_url.clone()),
        ("SUPABASE_SERVICE_ROLE_KEY", supabase.jwt("service_role")),
        ("REDIS_URL", redis_url().to_owned()),
        ("CRON_SECRET", "function-secret".to_owned()),
    ]
}

/// Starts the function binary `program` with only `settings` in its environment, its output to
/// `log`; returns it (killed when dropped) once it listens, and its port.
fn launch(program: &str, settings: &[(&str, String)], log: Stdio) -> (KillOnDrop, u16) {
    let port = free_port();
    let mut command = Command::new(program);
    command.env_clear().env("VERCEL_DEV_PORT", port.to_string()).envs(settings.iter().map(|(k, v)| (k, v)));
    let child = KillOnDrop(command.stdout(log).spawn().expect("the function binary starts"));
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(start.elapsed() < Duration::from_secs(20), "{program} never listened on {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
    (child, port)
}

/// Starts the function binary `program` configured as on Vercel.
fn start_function(program: &str) -> (KillOnDrop, u16) {
    launch(program, &deployed_settings(), Stdio::null())
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

/// The game function with a bad or missing setting: it starts, every request gets a JSON 500 with
/// the code `misconfigured` and nothing of the setting's value, and its log names the setting.
#[tokio::test]
async fn a_misconfigured_function_says_so_in_its_log_and_answers_a_json_500() {
    let key = supabase().jwt("service_role");
    // Each case: the setting changed from the deployed ones (removed, or given a bad value), and
    // what the log must name.
    let cases: [(&str, Option<&str>, &str); 6] = [
        ("SUPABASE_REST_URL", None, "SUPABASE_URL"),
        ("SUPABASE_SERVICE_ROLE_KEY", None, "SUPABASE_SECRET_KEY"),
        ("RATE_LIMIT_PER_MINUTE", Some("lots-of-them"), "RATE_LIMIT_PER_MINUTE"),
        ("RATE_LIMIT_PER_MINUTE", Some("0"), "RATE_LIMIT_PER_MINUTE"),
        ("TABULA_ABANDON_SECONDS", Some("-5-secret-ish"), "TABULA_ABANDON_SECONDS"),
        ("REDIS_URL", Some("nonsense://hunter2@"), "REDIS_URL"),
    ];
    for (name, value, named) in cases {
        let mut settings: Vec<(&str, String)> =
            deployed_settings().into_iter().filter(|(setting, _)| *setting != name).collect();
        settings.extend(value.map(|value| (name, value.to_owned())));
        settings.push(("RUST_LOG", "info".to_owned()));
        // The log: what the function writes (tracing writes to standard output).
        let log = std::env::temp_dir().join(format!("tabula-function-{}.log", free_port()));
        let (_child, port) = launch(env!("CARGO_BIN_EXE_game"), &settings, std::fs::File::create(&log).unwrap().into());
        for path in ["/api/game?roomId=abc", "/api/lobby"] {
            let answer = reqwest::get(format!("http://127.0.0.1:{port}{path}")).await.unwrap();
            assert_eq!(answer.status(), 500, "{name}={value:?} {path}");
            let body = answer.text().await.unwrap();
            let parsed: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
            assert_eq!(parsed["error"]["code"], "misconfigured", "{name}={value:?} {path}: {body}");
            for secret in [value.unwrap_or("no value"), key.as_str(), name] {
                assert!(!body.contains(secret), "{name}={value:?} {path}: the answer shows {secret:?}: {body}");
            }
        }
        let logged = std::fs::read_to_string(&log).unwrap();
        assert!(logged.contains(named), "{name}={value:?}: the log does not name {named}: {logged}");
        assert!(!logged.contains(key.as_str()), "{name}={value:?}: the log shows the key");
        let _ = std::fs::remove_file(&log);
    }
}
