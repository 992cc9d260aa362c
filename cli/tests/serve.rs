//! `tabula serve` as a user runs it: the API on one port, rooms kept in a file across restarts.

mod common;

use serde_json::{json, Value};

use common::Server;

#[test]
fn serve_keeps_rooms_across_restarts_and_explains_a_missing_site() {
    let mut server = Server::start("no-site-here".into());
    let http = reqwest::blocking::Client::new();
    let room = "serve-test";
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
    let body = json!({"roomId": room, "token": joined["token"], "version": joined["room"]["version"], "move": [4, 4]});
    let moved = http.put(format!("{}/api/game", server.base)).json(&body).send().unwrap();
    assert_eq!(moved.status(), 200);
    assert!(moved.headers().get("x-ratelimit-limit").is_none(), "no limit unless configured");

    server.stop();
    server.restart();
    let view: Value =
        http.get(format!("{}/api/game", server.base)).query(&[("roomId", room)]).send().unwrap().json().unwrap();
    assert_eq!(view["moves"], json!([{"row": 4, "col": 4}]), "the move survived the restart");
    assert_eq!(view["seats"][0]["taken"], true);
}
