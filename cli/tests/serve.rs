//! `tabula serve` as a user runs it: the API on one port, rooms kept in a file across restarts.

use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

struct Server {
    child: Child,
    base: String,
}

impl Server {
    fn start(data: &std::path::Path) -> Server {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = Command::new(env!("CARGO_BIN_EXE_tabula"))
            .args(["serve", "--port", &port.to_string(), "--site", "no-site-here", "--data"])
            .arg(data)
            .env_remove("SUPABASE_URL")
            .env_remove("SUPABASE_REST_URL")
            .env_remove("RATE_LIMIT_PER_MINUTE")
            .stdout(Stdio::null())
            .spawn()
            .expect("tabula serve starts");
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(start.elapsed() < Duration::from_secs(20), "tabula serve never listened");
            std::thread::sleep(Duration::from_millis(50));
        }
        Server { child, base: format!("http://127.0.0.1:{port}") }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn serve_keeps_rooms_across_restarts_and_explains_a_missing_site() {
    let dir = std::env::temp_dir().join(format!("tabula-serve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("rooms.db");
    let _ = std::fs::remove_file(&data);
    let http = reqwest::blocking::Client::new();
    let room = "serve-test";
    {
        let server = Server::start(&data);
        let home = http.get(&server.base).send().unwrap().text().unwrap();
        assert!(home.contains("not built") && home.contains("/api/game"), "{home}");
        let unknown = http.get(format!("{}/api/nothing", server.base)).send().unwrap();
        assert_eq!(unknown.status(), 404);
        assert_eq!(unknown.json::<Value>().unwrap()["error"]["code"], "not_found");
        let joined: Value = http
            .post(format!("{}/api/game", server.base))
            .json(&json!({"roomId": room, "seat": 1}))
            .send()
            .unwrap()
            .json()
            .unwrap();
        let body =
            json!({"roomId": room, "token": joined["token"], "version": joined["room"]["version"], "move": [4, 4]});
        let moved = http.put(format!("{}/api/game", server.base)).json(&body).send().unwrap();
        assert_eq!(moved.status(), 200);
        assert!(moved.headers().get("x-ratelimit-limit").is_none(), "no limit unless configured");
    }
    let server = Server::start(&data);
    let view: Value =
        http.get(format!("{}/api/game", server.base)).query(&[("roomId", room)]).send().unwrap().json().unwrap();
    assert_eq!(view["moves"], json!([{"row": 4, "col": 4}]), "the move survived the restart");
    assert_eq!(view["seats"][0]["taken"], true);
}
