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

/// A link-preview crawler asking for a room gets the room's share card (its tags and its board as
/// a PNG); a browser asking for the same address gets the site's room page.
#[test]
fn crawlers_get_a_rooms_share_card_and_browsers_its_page() {
    let site = std::env::temp_dir().join(format!("tabula-card-site-{}", std::process::id()));
    std::fs::create_dir_all(&site).unwrap();
    for page in ["index.html", "room.html", "404.html"] {
        std::fs::write(site.join(page), format!("<!doctype html><title>{page}</title>")).unwrap();
    }
    let server = Server::start(site);
    let http = reqwest::blocking::Client::new();
    let room = "card-serve";
    let joined: Value = http
        .post(format!("{}/api/game", server.base))
        .json(&json!({"roomId": room, "seat": 1, "name": "Ann"}))
        .send()
        .unwrap()
        .json()
        .unwrap();
    let token = joined["token"].as_str().unwrap();
    let page = |agent: &str| {
        let response = http.get(format!("{}/room/{room}", server.base)).header("user-agent", agent).send().unwrap();
        assert_eq!(response.status(), 200);
        response.text().unwrap()
    };
    let browser = page("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36");
    assert!(browser.contains("<title>room.html</title>"), "{browser}");
    let crawler = page("Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)");
    assert!(crawler.contains("Ann is waiting for an opponent: POPUCOM three-match chess"), "{crawler}");
    let image = format!("{}/api/card?roomId={room}&amp;v=1", server.base);
    assert!(crawler.contains(&format!(r#"<meta property="og:image" content="{image}">"#)), "{crawler}");
    assert!(!crawler.contains(token), "no token in a card");

    let png = http.get(image.replace("&amp;", "&")).send().unwrap();
    assert_eq!(png.headers()["content-type"], "image/png");
    let png = png.bytes().unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // The width and height, in the PNG's header chunk.
    assert_eq!((&png[16..20], &png[20..24]), (&1200u32.to_be_bytes()[..], &630u32.to_be_bytes()[..]));

    let unknown_room =
        http.get(format!("{}/room/no-such-room", server.base)).header("user-agent", "Twitterbot/1.0").send().unwrap();
    assert_eq!(unknown_room.status(), 200, "an unknown room gets the generic card");
    let unknown_room = unknown_room.text().unwrap();
    assert!(unknown_room.contains("<title>Tabula: board games with a friend, online</title>"), "{unknown_room}");
}
